"""Layouts by construction: greedy play (``greedy``), then repairs, a large-neighbourhood
search that re-places pieces exactly (``repairer``; compiled: ``compiled`` over
``kernel``), and the repair search from a given partial layout (``warm``).

The front door (each name imported from its home on first use, :mod:`solver.backends.face`):
:func:`solve` (a backend's solve), :func:`search_from` (the repair search from a partial
layout, for following a game), :func:`kernel_ready` (whether the compiled search may run
now), :func:`closest` and :func:`complete` (greedy play: the best partial layout of a few
plays; a layout if one play places everything) and :func:`held_back` (whether a colour's
monomino is kept for last).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.repair.compiled import kernel_ready
    from solver.backends.repair.greedy import closest, complete, held_back
    from solver.backends.repair.repairer import solve
    from solver.backends.repair.warm import search_from

__all__ = ["closest", "complete", "held_back", "kernel_ready", "search_from", "solve"]

__getattr__ = lazy(
    __name__,
    {
        "closest": "greedy",
        "complete": "greedy",
        "held_back": "greedy",
        "kernel_ready": "compiled",
        "search_from": "warm",
        "solve": "repairer",
    },
)
