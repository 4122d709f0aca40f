"""The fundamental-domain search: Gottfried's quadrant method (``quadrants``) and its
numba kernel (``kernel``).

The front door (each name imported from its home on first use, :mod:`solver.backends.face`):
:func:`solve` (a backend's solve), :func:`refuse` (the problems it cannot take) and
:func:`suits` (the problems ``auto`` races it on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.domain.quadrants import refuse, solve, suits

__all__ = ["refuse", "solve", "suits"]

__getattr__ = lazy(__name__, dict.fromkeys(__all__, "quadrants"))
