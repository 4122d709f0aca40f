"""The ``symmetric`` backend: layouts that a board symmetry maps onto themselves with the
colours permuted, found by the engine that suits the moment (``engine``)."""
