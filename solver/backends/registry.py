"""The backends by name: one :class:`solver.backends.base.Backend` entry each.

Each entry's ``load`` imports its module only when the backend runs, so that importing
the package (``blokus-solo show``, ``verify``) does not load OR-tools or numba. To add a
backend: write its module with a ``solve(problem, options, cancel=None)`` function, add a
loader and an entry here, and, if "auto" should race it, name it in
:func:`solver.backends.auto.portfolio`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solver.backends.base import Backend, BackendSolve

if TYPE_CHECKING:
    from solver.problem import Problem


def _auto() -> BackendSolve:
    from solver.backends.auto import solve

    return solve


def _cpsat() -> BackendSolve:
    from solver.backends.cpsat import solve

    return solve


def _search() -> BackendSolve:
    from solver.backends.search import solve

    return solve


def _domain_check() -> Callable[[Problem], None]:
    from solver.backends.domain import refuse

    return refuse


def _symmetric_check() -> Callable[[Problem], None]:
    from solver.backends.symmetric import refuse

    return refuse


def _symmetric() -> BackendSolve:
    from solver.backends.symmetric import solve

    return solve


def _domain() -> BackendSolve:
    from solver.backends.domain import solve

    return solve


def _lp() -> BackendSolve:
    from solver.backends.lp import solve

    return solve


def _repair() -> BackendSolve:
    from solver.backends.repair import solve

    return solve


# The one description of each engine: ``--help`` (solver/cli/commands.py) and the table of
# docs/engines.md are written from these (tests/test_docs.py keeps the page equal).
AUTO = Backend(
    "auto",
    _auto,
    proves=frozenset(),  # it names the engine that answered
    summary="for place-all a few greedy plays first (under 0.05 s), then the search alone "
    "for 2 s, then the search, CP-SAT and the LP bound (and a symmetric reduction, where one "
    "applies: the domain search for two colours or on tight boards) side by side; the first "
    "proven answer wins; with several colours and over 30 pieces, the LP bound first, then "
    "the repair search, and on an empty board with a symmetry the symmetric reduction (for "
    "two colours or on tight boards, few empty squares: the domain search, on every worker)",
)
CPSAT = Backend("cpsat", _cpsat, summary="OR-tools CP-SAT model, lazy connectivity cuts")
SEARCH = Backend("search", _search, summary="Blokus-aware exact search")
SYMMETRIC = Backend(
    "symmetric",
    _symmetric,
    layouts_only=True,
    proves=frozenset(),
    summary="CP-SAT on layouts that a board symmetry maps onto themselves with the colours "
    "permuted (finds layouts only)",
    precheck=_symmetric_check,
)

REPAIR = Backend(
    "repair",
    _repair,
    layouts_only=True,
    proves=frozenset(),
    summary="greedy play, then repairs re-placed exactly by the search (finds layouts only)",
)

DOMAIN = Backend(
    "domain",
    _domain,
    layouts_only=True,
    proves=frozenset(),
    summary="Gottfried's quadrant method, one fundamental domain of a board symmetry tiled in "
    "scan order with colour labels, with restarts (place-all without monomino-last on an "
    "empty board; finds layouts only)",
    precheck=_domain_check,
)

#: not a ``--backend`` choice: "auto" runs it on place-all, first on many-piece problems with
#: several colours, else beside CP-SAT once the search has not answered alone
LP = Backend(
    "lp",
    _lp,
    proves=frozenset({"no"}),
    summary="the LP bound of solver/relaxation.py (proves 'no' only)",
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
