"""The ``symmetric`` backend: layouts that a board symmetry maps onto themselves with the
colours permuted, solved on the orbits (one representative colour each) by the engine that
suits the moment (``engine``: the exact search's reduction, or CP-SAT's)."""
