"""Proofs of "no" by bounds: the linear relaxation of place-all (``relaxation``) and the
engine that runs it (``lp``).

The front door (:mod:`solver.backends.face`): :func:`solve` (a backend's solve; proves
"no" only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.bounds.lp import solve

__all__ = ["solve"]

__getattr__ = lazy(__name__, {"solve": "lp"})
