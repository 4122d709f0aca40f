"""The backends by name: every ``--backend`` choice (``auto``, the default, first) and
the engines only ``auto`` runs.

To add an engine: write its module with a ``solve(problem, options, cancel=None)``
function, add a loader and an entry in :mod:`solver.backends.engines`, name it here, and,
if "auto" should race it, in :func:`solver.backends.auto.portfolio`.
"""

from __future__ import annotations

from solver.backends.base import Backend, BackendSolve
from solver.backends.engines import CPSAT, DOMAIN, LP, REPAIR, SEARCH, SYMMETRIC
from solver.backends.tuning import AutoTuning

# auto is loaded when it runs, as every engine is (its entry's loader, solver/backends/
# engines.py): every command imports the registry for --backend, and auto's race, greedy
# play and colour symmetries (about 30 ms) only a solve needs.

__all__ = [
    "AUTO",
    "AUTO_ONLY",
    "BACKENDS",
    "CPSAT",
    "DOMAIN",
    "LP",
    "REPAIR",
    "SEARCH",
    "SYMMETRIC",
    "backend",
    "every",
]


def _auto() -> BackendSolve:
    from solver.backends.auto import solve

    return solve


# The description of auto, as the engines' in solver/backends/engines.py.
AUTO = Backend(
    "auto",
    _auto,
    proves=frozenset(),  # it names the engine that answered
    summary="for place-all a few greedy plays first (under 0.05 s), then the search alone "
    "for 2 s, then the search, CP-SAT and the LP bound (the repair search too for several "
    f"colours, or one with {AutoTuning().repair_pieces} pieces or more left; and a symmetric "
    "reduction, where one applies: the domain search for two colours or on tight boards) "
    "side by side; the first proven answer wins; with several colours and over 30 pieces, "
    "the LP bound first, then the repair search, and on an empty board with a symmetry the "
    "symmetric reduction (for two colours or on tight boards, few empty squares: the domain "
    "search, on every worker)",
)

#: every backend by name, "auto" (the default) first
BACKENDS: dict[str, Backend] = {b.name: b for b in (AUTO, CPSAT, DOMAIN, REPAIR, SEARCH, SYMMETRIC)}

#: the backends only ``auto`` runs
AUTO_ONLY: tuple[Backend, ...] = (LP,)


def every() -> dict[str, Backend]:
    """Every backend that may answer by name: :data:`BACKENDS` and :data:`AUTO_ONLY` (for
    the checks of what a backend may claim)."""
    return {**BACKENDS, **{b.name: b for b in AUTO_ONLY}}


def backend(name: str) -> Backend:
    """The backend called ``name``.

    Raises:
        ValueError: unknown backend name.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (backends: {', '.join(BACKENDS)})")
    return BACKENDS[name]
