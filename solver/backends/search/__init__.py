"""The exact search: a Blokus-aware depth-first search, by idea: ``exact`` (the algorithm
and the solve: portfolio, memo, max-score), ``counting`` (count and list layouts),
``symmetric`` (the reduction to one colour per orbit of a board symmetry), ``tables`` (the
kernel's arrays built from a problem, and layouts read back) and ``kernel`` (the numba
kernel).

The front door (what other layers and engines may use; each name is imported from its
home on first use, :mod:`solver.backends.face`): :func:`solve` (a backend's solve),
:func:`solve_symmetric` (the reduction to one colour per orbit of a board symmetry),
:func:`count`, :class:`CountResult`, :func:`layouts` and :func:`first_layout`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.search.counting import CountResult, count, first_layout, layouts
    from solver.backends.search.exact import solve
    from solver.backends.search.symmetric import solve_symmetric

__all__ = ["CountResult", "count", "first_layout", "layouts", "solve", "solve_symmetric"]

__getattr__ = lazy(
    __name__,
    {
        "CountResult": "counting",
        "count": "counting",
        "first_layout": "counting",
        "layouts": "counting",
        "solve": "exact",
        "solve_symmetric": "symmetric",
    },
)
