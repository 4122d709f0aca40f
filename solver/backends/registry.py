"""The registry: one record per engine (:class:`solver.backends.base.Backend`), the one
place that says what each is called, where its front door is and what it can do.

The command line's ``--backend`` choices and their ``--help``, ``check``'s and
``review``'s choices (``endgames``), ``auto``'s entrants (:mod:`solver.backends.auto`),
the kernels a first run compiles (:mod:`solver.backends.warmup`, ``kernel``), the claims
an answer may make (:mod:`solver.trust.proofs`, ``proves``) and the table of
docs/engines.md (tests/test_docs.py) are all read from these records.

To add an engine: its package under ``solver/backends/``, whose ``__init__`` (its front
door, :mod:`solver.backends.face`) has ``solve(problem, options, cancel=None)`` (and
``refuse(problem)`` if it refuses some problems), and one record here; if ``auto`` should
race it, name it in :func:`solver.backends.auto.portfolio` (CONTRIBUTING.md).

Each record's loader imports its package by name when the engine first runs, so that
importing the registry, as every command does for ``--backend``, loads neither numba nor
OR-tools (and the registry sits below the engines in the import layers).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from solver.backends.base import Backend, BackendSolve
from solver.backends.tuning import AutoTuning
from solver.core.problem import Problem

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


def _door(package: str) -> Callable[[], BackendSolve]:
    """The loader of an engine's ``solve``, from its package's front door."""

    def load() -> BackendSolve:
        solve: BackendSolve = importlib.import_module(package).solve
        return solve

    return load


def _refusal(package: str) -> Callable[[], Callable[[Problem], None]]:
    """The loader of an engine's ``refuse``, from its package's front door."""

    def load() -> Callable[[Problem], None]:
        refuse: Callable[[Problem], None] = importlib.import_module(package).refuse
        return refuse

    return load


_SEARCH_KERNEL = "solver.backends.search.kernel"

#: the grids the search, the repair search, CP-SAT, the LP bound and the domain search answer
#: on: their tables and models come from the board's geometry (Trigon: issue 43), and the
#: engines built on them
_ANY_GRID = frozenset({"square", "trigon"})

AUTO = Backend(
    "auto",
    _door("solver.backends.auto"),
    proves=frozenset(),  # it names the engine that answered
    summary="for place-all a few greedy plays first (under 0.05 s), then the search alone "
    "for 2 s, then the search, CP-SAT and the LP bound (the repair search too for several "
    f"colours, or one with {AutoTuning().repair_pieces} pieces or more left; and a symmetric "
    "reduction, where one applies: the domain search for two colours or on tight boards) "
    "side by side; the first proven answer wins; with several colours and over 30 pieces, "
    "the LP bound first, then the repair search, and on an empty board with a symmetry the "
    "symmetric reduction (for two colours or on tight boards, few empty squares: the domain "
    "search, on every worker)",
    grids=_ANY_GRID,
)
CPSAT = Backend(
    "cpsat",
    _door("solver.backends.cpsat"),
    summary="OR-tools CP-SAT model, lazy connectivity cuts",
    grids=_ANY_GRID,
)
DOMAIN = Backend(
    "domain",
    _door("solver.backends.domain"),
    layouts_only=True,
    proves=frozenset(),
    summary="Gottfried's quadrant method, one fundamental domain of a board symmetry tiled in "
    "scan order with colour labels, with restarts (place-all without monomino-last on an "
    "empty board; finds layouts only)",
    precheck=_refusal("solver.backends.domain"),
    endgames=False,
    kernel="solver.backends.domain.kernel",
    grids=_ANY_GRID,  # (on Trigon, on each symmetric assignment of the shared starting points)
)
REPAIR = Backend(
    "repair",
    _door("solver.backends.repair"),
    layouts_only=True,
    proves=frozenset(),
    summary="greedy play, then repairs re-placed exactly by the search (finds layouts only)",
    kernel=_SEARCH_KERNEL,
    grids=_ANY_GRID,
)
SEARCH = Backend(
    "search",
    _door("solver.backends.search"),
    summary="Blokus-aware exact search",
    kernel=_SEARCH_KERNEL,
    grids=_ANY_GRID,
)
SYMMETRIC = Backend(
    "symmetric",
    _door("solver.backends.symmetric"),
    layouts_only=True,
    proves=frozenset(),
    summary="layouts that a board symmetry maps onto themselves with the colours permuted: the "
    "exact search on the orbits with restarts (on squares CP-SAT while a first run compiles "
    "the kernel; on Trigon the search alone; finds layouts only)",
    precheck=_refusal("solver.backends.symmetric"),
    endgames=False,
    grids=_ANY_GRID,  # (on Trigon the exact search's reduction alone, on each symmetric start)
)
#: not a ``--backend`` choice: "auto" runs it on place-all, first on many-piece problems with
#: several colours, else beside CP-SAT once the search has not answered alone
LP = Backend(
    "lp",
    _door("solver.backends.bounds"),
    proves=frozenset({"no"}),
    summary="the LP bound of solver/backends/bounds/relaxation.py (proves 'no' only)",
    choice=False,
    grids=_ANY_GRID,
)

_RECORDS = (AUTO, CPSAT, DOMAIN, REPAIR, SEARCH, SYMMETRIC, LP)

#: every ``--backend`` choice by name, "auto" (the default) first
BACKENDS: dict[str, Backend] = {b.name: b for b in _RECORDS if b.choice}

#: the engines only ``auto`` runs
AUTO_ONLY: tuple[Backend, ...] = tuple(b for b in _RECORDS if not b.choice)


def every() -> dict[str, Backend]:
    """Every engine that may answer, by name: :data:`BACKENDS` and :data:`AUTO_ONLY` (for
    the checks of what an engine may claim), read from those two at each call."""
    return {**BACKENDS, **{b.name: b for b in AUTO_ONLY}}


def backend(name: str) -> Backend:
    """The ``--backend`` choice called ``name``.

    Raises:
        ValueError: unknown backend name.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (backends: {', '.join(BACKENDS)})")
    return BACKENDS[name]
