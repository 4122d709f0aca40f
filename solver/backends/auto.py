"""The "auto" backend: the exact search first, then other backends beside it.

For "place-all", a few greedy plays come first (milliseconds; they answer most open
problems with one colour, and then neither numba nor OR-tools is loaded). The search
answers nearly every endgame check in milliseconds; CP-SAT's strength is
elsewhere (large open boards with many colours, where the search's tree can be too
large). So "auto" runs the search alone for ``options.tuning.auto.search_alone`` seconds;
if it has not answered by then, the backends :func:`portfolio` chooses for the problem
start beside it (the search keeps its progress) with the remaining time, and the first
decisive answer stops the others (:class:`solver.backends.race.Race`). For "max-score" the
best layout and the lowest proven bound of all of them are combined, and the answer is
optimal once they meet.

The LP bound (:mod:`solver.backends.bounds.relaxation`, "lp") can only prove "no": it joins the
search with the others on place-all, and on place-all with several colours and many pieces (a solo
game in mid-game), where it is usually the only thing that can prove "no", it runs first. Which
backend answered is named in :attr:`BackendResult.answered_by`.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

import numpy as np

from solver.backends import registry, warmup
from solver.backends.base import (
    Backend,
    BackendResult,
    Cancel,
    SolveOptions,
    Status,
    best_fit,
    best_partial,
    decisive,
    layout_score,
)
from solver.backends.race import EitherEvent, Race
from solver.backends.repair import complete
from solver.backends.tuning import AutoTuning
from solver.backends.warmup import compiling_elsewhere
from solver.core.colour_symmetry import colour_symmetries
from solver.core.problem import Problem

# The domain search (solver.backends.domain) is imported where portfolio() asks it: it loads
# numba, which a problem greedy play answers never needs (auto's quick path, docs/engines.md).

#: the backend that runs alone first
FIRST = registry.SEARCH


def portfolio(
    problem: Problem, search_ready: bool = True, tuning: AutoTuning = AutoTuning()
) -> tuple[Backend, ...]:
    """The backends that join the search when it has not answered alone: CP-SAT always;
    the LP bound for place-all (it proves some "no"s in seconds: one colour on 12x12);
    a symmetric reduction too when a board symmetry maps the played colours onto each
    other: the fundamental-domain search for two colours or on tight boards
    (:func:`solver.backends.domain.quadrants.suits`: place-all without monomino-last on an empty
    board, e.g. the record boards and Duo's both colours; first run included; it took the
    place of the square-first search's restarts, research/notes/record_attempts.md), else
    CP-SAT's (the solo challenge, asym-classic-84); the repair search for "place-all" with
    several colours, with one that has at least ``tuning.repair_pieces`` pieces left (early
    in a game: :class:`solver.backends.tuning.AutoTuning`), or with any number when the
    search kernel is not ready (first run: it compiles in another process, and greedy play
    may answer at once)."""
    from solver.backends import domain

    joining = [registry.CPSAT]
    if domain.suits(problem):
        # two colours or tight boards: there it found layouts where CP-SAT's reduction and
        # the retired restarts found none, and was as fast or faster where they did (the
        # boards, times and commands: docs/records.md, research/notes/record_attempts.md).
        # It needs neither the search's kernel nor a cache: its own compiles in process in
        # about 2 s, so it joins on a first run too
        joining.append(registry.DOMAIN)
    elif colour_symmetries(problem):
        joining.append(registry.SYMMETRIC)
    early = len(problem.colours) == 1 and (
        len(problem.position.colour(problem.colours[0]).remaining) >= tuning.repair_pieces
    )
    if problem.goal == "place-all" and (len(problem.colours) >= 2 or not search_ready or early):
        joining.append(registry.REPAIR)
    if problem.goal == "place-all":
        joining.append(registry.LP)
    return tuple(joining)


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Solve with the search, joined by the :func:`portfolio` after
    ``options.tuning.auto.search_alone`` seconds.

    Args:
        problem: as for any backend.
        options: ``time_limit`` bounds the whole run; the search uses ``workers`` threads,
            the backends that join it ``max(1, workers - 1)`` between them. With several
            colours and many pieces (:attr:`AutoTuning.many_pieces`) the search runs alone
            only ``many_alone`` seconds, then stops, and the joining backends (no plain
            CP-SAT) share every worker; the symmetric reduction, where it applies, races
            the repair search (with one worker, or for two colours, it takes them all and
            the repair search runs after it if it gives up with time left).
        cancel: set from another thread to stop every backend early.

    Returns:
        BackendResult with ``answered_by`` the backend whose answer it is, or the backends
        joined by "+" (unknown, or max-score answers combined from several).

    Raises:
        whatever a backend raised (e.g. :class:`solver.errors.SolverBug`).
    """
    if not problem.position.board.square_grid:
        return _other_grid(problem, options, cancel)
    started = time.perf_counter()
    many = _many_pieces(problem, options)
    # (greedy play does not place that many pieces of several colours: 84 left 35 squares
    # at best, research/notes/asymmetric_attempts.md)
    quick = None if warmup.kernel_loaded() or many else _greedy_first(problem, options)
    if quick is not None:
        return quick
    lp_first = _lp_proof(problem, options, cancel) if many else None
    if lp_first is not None and lp_first.status == "infeasible":
        return lp_first
    warmup.before_search()
    if many and not compiling_elsewhere() and registry.SYMMETRIC in portfolio(problem):
        return _symmetric_first(problem, options, cancel, started, lp_first)
    entrants: list[Backend] = []
    race: Race[BackendResult] = Race(lambda result: decisive(problem, result), cancel)
    stop_first = threading.Event()
    ready = not compiling_elsewhere()  # first run: the kernel compiles in another process
    if ready:
        first = _runner(FIRST, problem, options, stop_first)
        race.enter(first, name=f"auto-{FIRST.name}")
        entrants.append(FIRST)
        tuning = options.tuning.auto
        alone = tuning.many_alone if many else tuning.search_alone
        race.wait(alone if options.time_limit is None else min(alone, options.time_limit))
    left = _seconds_left(options.time_limit, started)
    answered = bool(entrants) and race.over
    later: list[Backend] = []  # run once the others have given up, if time is left
    if not answered and (left is None or left > 0.05) and not race.stop.is_set():
        joining = list(portfolio(problem, ready, options.tuning.auto))
        joining += [] if ready or many else [warmup.when_compiled(FIRST)]  # once compiled
        if many:
            joining.remove(registry.LP)  # it ran first (_lp_proof)
        # the LP bound takes one core for a few seconds at most: it does not share the workers
        sharing = max(1, len(joining) - (registry.LP in joining))
        if not ready and not (many and registry.DOMAIN in joining):
            workers = max(1, options.workers // sharing)
        elif many:  # (first run included for the domain search: it compiles in process)
            stop_first.set()  # the cores go to what can answer (AutoTuning.many_pieces)
            joining.remove(registry.CPSAT)
            compiled = {registry.DOMAIN}.intersection(joining)
            symmetric = {registry.SYMMETRIC}.union(compiled).intersection(joining)
            if symmetric and registry.REPAIR in joining:
                # with one core, or for the compiled fundamental-domain search (two colours
                # and tight boards, which the repair search does not match), the symmetric reduction
                # takes every core and the repair search runs if it gives up with time
                # left; with more cores CP-SAT's reduction and the repair search race, as
                # each wins on some seeds (research/notes/asymmetric_attempts.md, turn 5)
                alone = options.workers <= options.tuning.auto.symmetric_cores
                if alone or compiled:
                    joining.remove(registry.REPAIR)
                    later.append(registry.REPAIR)
            workers = max(1, options.workers // len(joining))
        else:
            workers = max(1, (options.workers - 1) // sharing)
        _enter(race, entrants, joining, problem, options, left, workers)
    results = race.results()
    if race.winner is not None:
        return results[race.winner]
    left = _seconds_left(options.time_limit, started)
    if later and (left is None or left > 0.05) and not (cancel is not None and cancel.is_set()):
        race = Race(lambda result: decisive(problem, result), cancel)
        _enter(race, entrants, later, problem, options, left, options.workers)
        results += race.results()
        if race.winner is not None:
            return results[len(results) - len(later) + race.winner]
    combined = _combine(problem, entrants, results)
    if problem.goal != "place-all" or combined.status != "unknown":
        return combined
    found = results + ([lp_first] if lp_first is not None else [])
    return dataclasses.replace(combined, partial=best_partial(problem, found), fit=best_fit(found))


def _other_grid(problem: Problem, options: SolveOptions, cancel: Cancel | None) -> BackendResult:
    """:func:`solve` on a grid other than squares (Trigon), where only the search and the
    repair search read the board's geometry (issue 43): the search alone for
    ``search_alone`` seconds (``many_alone`` with many pieces, after which it stops and
    leaves its cores), then, for place-all with several colours or many pieces left,
    the repair search joins it (its share as in :func:`portfolio`); the first decisive
    answer wins."""
    started = time.perf_counter()
    tuning = options.tuning.auto
    many = _many_pieces(problem, options)
    early = len(problem.colours) == 1 and (
        len(problem.position.colour(problem.colours[0]).remaining) >= tuning.repair_pieces
    )
    repair = problem.goal == "place-all" and (len(problem.colours) >= 2 or early)
    race: Race[BackendResult] = Race(lambda result: decisive(problem, result), cancel)
    stop_first = threading.Event()
    race.enter(_runner(FIRST, problem, options, stop_first), name=f"auto-{FIRST.name}")
    entrants = [FIRST]
    alone = tuning.many_alone if many else tuning.search_alone
    race.wait(alone if options.time_limit is None else min(alone, options.time_limit))
    left = _seconds_left(options.time_limit, started)
    if repair and not race.over and (left is None or left > 0.05) and not race.stop.is_set():
        if many:
            stop_first.set()  # the cores go to what can answer (AutoTuning.many_pieces)
        workers = options.workers if many else max(1, options.workers - 1)
        _enter(race, entrants, [registry.REPAIR], problem, options, left, workers)
    results = race.results()
    if race.winner is not None:
        return results[race.winner]
    combined = _combine(problem, entrants, results)
    if len(results) == 1:
        return dataclasses.replace(combined, answered_by=combined.answered_by or FIRST.name)
    if problem.goal != "place-all" or combined.status != "unknown":
        return combined
    return dataclasses.replace(combined, partial=best_partial(problem, results))


def _symmetric_first(
    problem: Problem,
    options: SolveOptions,
    cancel: Cancel | None,
    started: float,
    lp_first: BackendResult | None,
) -> BackendResult:
    """Many pieces, a colour symmetry (not one for the domain search) and the search kernel
    ready: the exact search's symmetric reduction (:mod:`solver.backends.symmetric`) takes
    every worker at once (it solves the 84-piece solo puzzle in about a second:
    docs/benchmarks.md, issue 35); after ``options.tuning.auto.symmetric_alone`` seconds without an
    answer the repair search joins it on one worker fewer (with one worker, only if it gives
    up), and if it gives up (no symmetric layout) the repair search gets every worker for
    the time left."""
    race: Race[BackendResult] = Race(lambda result: decisive(problem, result), cancel)
    entrants = [registry.SYMMETRIC]
    race.enter(_runner(registry.SYMMETRIC, problem, options), name="auto-symmetric")
    alone = options.tuning.auto.symmetric_alone
    race.wait(alone if options.time_limit is None else min(alone, options.time_limit))
    left = _seconds_left(options.time_limit, started)
    running = not race.over  # (else the reduction gave up: no symmetric layout)
    if race.winner is None and (left is None or left > 0.05) and not race.stop.is_set():
        if not running or options.workers > 1:
            workers = max(1, options.workers - 1) if running else options.workers
            _enter(race, entrants, [registry.REPAIR], problem, options, left, workers)
    results = race.results()
    if race.winner is not None:
        return results[race.winner]
    combined = _combine(problem, entrants, results)
    found = results + ([lp_first] if lp_first is not None else [])
    return dataclasses.replace(combined, partial=best_partial(problem, found), fit=best_fit(found))


def _enter(
    race: Race[BackendResult],
    entrants: list[Backend],
    joining: list[Backend],
    problem: Problem,
    options: SolveOptions,
    left: float | None,
    workers: int,
) -> None:
    """Start each backend of ``joining`` in the race with ``left`` seconds and ``workers``
    workers; note it in ``entrants``."""
    for entry in joining:
        joined = dataclasses.replace(options, backend=entry.name, time_limit=left, workers=workers)
        race.enter(_runner(entry, problem, joined), name=f"auto-{entry.name}")
        entrants.append(entry)


def _greedy_first(problem: Problem, options: SolveOptions) -> BackendResult | None:
    """ "place-all" (without card goals) by a few greedy plays
    (:func:`solver.backends.repair.greedy.complete`, at most ``options.tuning.auto.greedy_first``
    seconds): a layout, answered by "greedy", or None.
    It needs neither the search kernel nor OR-tools, so when it answers (one colour on an
    open board, most "yes" endgame checks) neither is loaded. Not tried once the kernel
    is loaded (:func:`warmup.kernel_loaded`: batch, review, library calls after the
    first search), where the search is faster."""
    seconds = options.tuning.auto.greedy_first
    if problem.goal != "place-all" or problem.has_card_goals or seconds <= 0:
        return None  # greedy play knows nothing of stars to cover or groups to connect

    started = time.perf_counter()
    rng = np.random.default_rng(options.seed)
    layout = complete(problem.position, problem.colours, rng, plays=1 << 30, seconds=seconds)
    if layout is None:
        return None
    stats = {"seconds": round(time.perf_counter() - started, 3)}
    return BackendResult("solved", layout, None, stats, "greedy")


def _lp_proof(
    problem: Problem, options: SolveOptions, cancel: Cancel | None
) -> BackendResult | None:
    """The LP bound's answer (:mod:`solver.backends.bounds.lp`, with at most
    ``options.tuning.auto.lp_seconds`` for GLOP, half the time limit at most; building the
    model, within its default size cap, takes up to about a second more): "infeasible" (a
    proof of "no"), or "unknown" with the bound it proved (``fit``), or None."""
    seconds = options.tuning.auto.lp_seconds
    if options.time_limit is not None:
        seconds = min(seconds, options.time_limit / 2)
    if seconds <= 0:
        return None
    return registry.LP.solve(problem, dataclasses.replace(options, time_limit=seconds), cancel)


def _runner(
    entry: Backend, problem: Problem, options: SolveOptions, stop_this: Cancel | None = None
) -> Callable[[Cancel], BackendResult]:
    """``entry`` as a race entrant, stopped by the race or by ``stop_this``."""
    return lambda stop: entry.solve(problem, options, EitherEvent(stop, stop_this))


def _many_pieces(problem: Problem, options: SolveOptions) -> bool:
    """Place-all with several colours and more pieces left than the search can settle."""
    if problem.goal != "place-all" or len(problem.colours) < 2:
        return False
    left = sum(len(problem.position.colour(c).remaining) for c in problem.colours)
    return left > options.tuning.auto.many_pieces


def _seconds_left(time_limit: float | None, started: float) -> float | None:
    return None if time_limit is None else time_limit - (time.perf_counter() - started)


def _combine(
    problem: Problem, entrants: list[Backend], results: list[BackendResult]
) -> BackendResult:
    """No decisive answer: for max-score, the best layout and the lowest bound."""
    if len(results) == 1:
        return results[0]
    stats = {entry.name: result.stats for entry, result in zip(entrants, results)}
    names = "+".join(stats)
    if problem.goal != "max-score":
        return BackendResult("unknown", None, None, stats, names)
    scored = [(layout_score(problem, r.layout), r) for r in results if r.layout is not None]
    bounds = [r.bound for r in results if r.bound is not None]
    bound = min(bounds) if bounds else None
    if not scored:
        return BackendResult("unknown", None, bound, stats, names)
    score, best = max(scored, key=lambda pair: pair[0])
    status: Status = "optimal" if bound is not None and score >= bound else "solved"
    return BackendResult(status, best.layout, bound, stats, names)
