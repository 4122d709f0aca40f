"""The ``symmetric`` backend: layouts that a board symmetry maps onto themselves with the
colours permuted, solved on the orbits (one representative colour each) by the engine that
suits the moment (``engine``: the exact search's reduction, or CP-SAT's).

The front door (:mod:`solver.backends.face`): :func:`solve` (a backend's solve) and
:func:`refuse` (the problems it cannot take).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.symmetric.engine import refuse, solve

__all__ = ["refuse", "solve"]

__getattr__ = lazy(__name__, dict.fromkeys(__all__, "engine"))
