"""The fundamental-domain search: Gottfried's quadrant method (``quadrants``) and its
numba kernel (``kernel``)."""
