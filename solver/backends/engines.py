"""The engines, one :class:`solver.backends.base.Backend` entry each (``auto`` aside:
:mod:`solver.backends.registry` names every backend, ``auto`` included).

Each entry's ``load`` imports its module only when the engine runs, so that importing the
package (``blokus-solo show``, ``verify``) does not load OR-tools or numba. These entries
are the one description of each engine: ``--help`` and the table of docs/engines.md are
written from them (tests/test_docs.py keeps the page equal). ``auto`` races them
(:func:`solver.backends.auto.portfolio`), so it imports this module, not the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solver.backends.base import Backend, BackendSolve

if TYPE_CHECKING:
    from solver.core.problem import Problem


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
    from solver.backends.bounds import solve

    return solve


def _repair() -> BackendSolve:
    from solver.backends.repair import solve

    return solve


CPSAT = Backend("cpsat", _cpsat, summary="OR-tools CP-SAT model, lazy connectivity cuts")
SEARCH = Backend("search", _search, summary="Blokus-aware exact search")
SYMMETRIC = Backend(
    "symmetric",
    _symmetric,
    layouts_only=True,
    proves=frozenset(),
    summary="layouts that a board symmetry maps onto themselves with the colours permuted: the "
    "exact search on the orbits with restarts (CP-SAT while a first run compiles the kernel; "
    "finds layouts only)",
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
    summary="the LP bound of solver/backends/bounds/relaxation.py (proves 'no' only)",
)
