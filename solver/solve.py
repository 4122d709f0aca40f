"""Solving a problem with a backend, then ordering and checking what it found.

Data flows one way: problem -> backend (CP-SAT model or exact search) -> layout as sets ->
legal order of play -> independent rule checker -> :class:`SolveResult`. A layout the
checker refuses is a bug in a backend and raises :class:`SolverBug`; it is never shown.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from solver.checker import CheckReport, check_layout
from solver.order import order_of_play
from solver.position import Placement
from solver.problem import Problem

Status = Literal["solved", "optimal", "infeasible", "unknown"]
BACKENDS: tuple[str, ...] = ("auto", "cpsat", "repair", "search", "symmetric")


class SolverBug(RuntimeError):
    """A backend returned a layout that the rule checker refuses (never shown as an answer)."""


@dataclass(frozen=True)
class SolveOptions:
    """How to solve.

    Attributes:
        backend: "cpsat", "search", or "auto" (chosen per problem).
        time_limit: seconds of wall time for the backend, or None for no limit.
        workers: CP-SAT search workers (threads).
        seed: random seed (CP-SAT ``random_seed``).
        params: extra CP-SAT parameters in protobuf text format, e.g.
            ``"log_search_progress: true"``.
    """

    backend: str = "auto"
    time_limit: float | None = None
    workers: int = 2
    seed: int = 0
    params: str = ""


@dataclass(frozen=True)
class BackendResult:
    """What a backend returns.

    Attributes:
        status: "solved" (a layout, goal met), "optimal" (max-score, proven best),
            "infeasible" (proven: no layout), "unknown" (stopped by the time limit).
        layout: colour -> placements it adds, in any order; None without a layout.
        bound: for max-score, a proven upper bound on the total score, if known.
        stats: backend counters (nodes, cuts, ...), for display.
        answered_by: the backend whose answer this is, when it differs from the one called
            ("auto" names "search", "cpsat" or "search+cpsat").
    """

    status: Status
    layout: dict[str, list[Placement]] | None = None
    bound: int | None = None
    stats: dict = field(default_factory=dict)
    answered_by: str = ""


@dataclass(frozen=True)
class SolveResult:
    """A checked answer.

    Attributes:
        problem: what was asked.
        status: as in :class:`BackendResult`.
        layout: colour -> placements it adds, in a legal order of play (None without one).
        report: the rule checker's report on the layout (None without one).
        bound: for max-score, a proven upper bound on the total score, if known.
        backend: the backend that answered ("search", "cpsat", or "search+cpsat" for a
            max-score answer that "auto" combined from both).
        wall_time: seconds, backend and checks included.
        stats: backend counters.
    """

    problem: Problem
    status: Status
    layout: dict[str, list[Placement]] | None
    report: CheckReport | None
    bound: int | None
    backend: str
    wall_time: float
    stats: dict

    @property
    def score(self) -> int | None:
        """Total official score of the played colours in the layout, or None."""
        if self.report is None:
            return None
        return sum(self.report.report(c).score for c in self.problem.colours)


class EitherEvent:
    """Set when any of its events is: a backend's own stop signal or its caller's cancel.
    Backends only call ``is_set()`` on a cancel signal, so this stands in for an Event."""

    def __init__(self, *events: threading.Event | None):
        self.events = [e for e in events if e is not None]

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


def join_all(threads: list[threading.Thread], stop: threading.Event) -> None:
    """Join threads; on Ctrl-C (KeyboardInterrupt in the joining thread) set ``stop``, which
    the threads' backends watch, join them all, then re-raise: no solver thread is left
    running while the interpreter exits."""
    try:
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        stop.set()
        for t in threads:
            t.join()
        raise


def backend_function(name: str) -> Callable[..., BackendResult]:
    """The ``solve(problem, options, cancel=None)`` function of a backend module
    (:mod:`solver.backends.auto`, :mod:`solver.backends.cpsat`, :mod:`solver.backends.search`,
    :mod:`solver.backends.symmetric`).

    Raises:
        ValueError: unknown backend name.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (backends: {', '.join(BACKENDS)})")
    return importlib.import_module(f"solver.backends.{name}").solve


def solve(problem: Problem, options: SolveOptions = SolveOptions()) -> SolveResult:
    """Solve a problem and check the answer.

    Raises:
        SolverBug: the backend's layout breaks a rule or misses the goal.
    """
    started = time.perf_counter()
    raw = backend_function(options.backend)(problem, options)
    name = raw.answered_by or options.backend
    layout, report = None, None
    if raw.layout is not None:
        layout, report = _order_and_check(problem, raw.layout, name)
        _check_bound(problem, raw, report, name)
    return SolveResult(
        problem,
        raw.status,
        layout,
        report,
        raw.bound,
        name,
        time.perf_counter() - started,
        raw.stats,
    )


def layout_score(problem: Problem, found: dict[str, list[Placement]]) -> int:
    """Total official score of the played colours once ``found`` is added, by the rule
    checker (so a layout is scored the same whichever backend found it).

    Raises:
        SolverBug: the layout breaks a rule.
    """
    _, report = _order_and_check(problem, found, "layout_score")
    return sum(report.report(c).score for c in problem.colours)


def _order_and_check(problem: Problem, found: dict[str, list[Placement]], backend: str):
    layout: dict[str, list[Placement]] = {}
    for colour in problem.colours:
        ordered = order_of_play(problem.position, colour, found.get(colour, []), monomino_last=True)
        if ordered is None:
            raise SolverBug(f"{backend}: {colour}'s pieces are not connected to its start")
        layout[colour] = ordered
    report = check_layout(problem.position, layout)
    if not report.legal:
        raise SolverBug(f"{backend}: layout breaks a rule: {report.problem}")
    if problem.goal == "place-all":
        for colour in problem.colours:
            r = report.report(colour)
            if not r.all_placed:
                raise SolverBug(f"{backend}: {colour} still has {', '.join(r.remaining)}")
            if problem.monomino_last and not r.monomino_last:
                raise SolverBug(f"{backend}: {colour} cannot place its monomino last")
    return layout, report


def _check_bound(problem: Problem, raw: BackendResult, report: CheckReport, backend: str) -> None:
    """A claimed upper bound must hold for the checked layout, and equal it when optimal."""
    if raw.bound is None:
        return
    total = sum(report.report(c).score for c in problem.colours)
    if total > raw.bound or (raw.status == "optimal" and total != raw.bound):
        raise SolverBug(
            f"{backend}: {raw.status} with bound {raw.bound}, but the rules score "
            f"the layout {total}"
        )
