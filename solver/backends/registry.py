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


def _tight() -> BackendSolve:
    from solver.backends.tight import solve

    return solve


def _domain_check() -> Callable[[Problem], None]:
    from solver.backends.domain import refuse

    return refuse


def _tight_check() -> Callable[[Problem], None]:
    from solver.backends.tight import refuse

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


AUTO = Backend("auto", _auto, summary="the search first, then other backends beside it")
CPSAT = Backend("cpsat", _cpsat, summary="OR-tools CP-SAT with lazy connectivity cuts")
SEARCH = Backend("search", _search, summary="the Blokus-aware exact search")
SYMMETRIC = Backend(
    "symmetric",
    _symmetric,
    layouts_only=True,
    summary="CP-SAT on the symmetric reduction (layouts only)",
    precheck=_symmetric_check,
)

REPAIR = Backend(
    "repair",
    _repair,
    layouts_only=True,
    summary="greedy play, then repairs re-placed exactly (layouts only)",
)

DOMAIN = Backend(
    "domain",
    _domain,
    layouts_only=True,
    summary="Gottfried's quadrant method: a symmetric scan-order tiling (layouts only)",
    precheck=_domain_check,
)

TIGHT = Backend(
    "tight",
    _tight,
    summary="square-first exact search for tight packings (place-all)",
    precheck=_tight_check,
)

#: not a ``--backend`` choice: "auto" runs it on place-all, first on many-piece problems with
#: several colours, else beside CP-SAT once the search has not answered alone
LP = Backend("lp", _lp, summary="the LP bound (proves 'no' only)")

#: every backend by name, "auto" (the default) first
BACKENDS: dict[str, Backend] = {
    b.name: b for b in (AUTO, CPSAT, DOMAIN, REPAIR, SEARCH, SYMMETRIC, TIGHT)
}

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
