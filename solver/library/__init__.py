"""The warm-start library: verified layouts shipped with the package (``layouts.json``)
and the start they give a position (``layouts``)."""
