"""The "auto" backend: the exact search first, then the search and CP-SAT side by side.

Measured on the real-game endgame checks (``benchmarks/search_vs_cpsat.py``), the search
answers nearly every check in milliseconds, while CP-SAT's strength is elsewhere: large open
boards with many colours, where the search's tree can be too large. So "auto" runs the
search alone for :data:`SEARCH_ALONE` seconds; if it has not answered by then, CP-SAT starts
beside it (the search keeps its progress) with the remaining time, and the first decisive
answer stops the others. When a board symmetry maps the played colours onto each other
(the solo challenge on an empty board), CP-SAT on the symmetric reduction
(:mod:`solver.backends.symmetric`) joins too; only a layout from it is decisive. For "max-score" the
better layout and the lower proven bound of search and CP-SAT are combined, and the answer
is optimal once they meet.

Which backend answered is named in :attr:`BackendResult.answered_by`.
"""

from __future__ import annotations

import threading
import time

from solver.backends.symmetric import colour_symmetries
from solver.backends.warmup import compiling_elsewhere
from solver.problem import Problem
from solver.solve import (
    BackendResult,
    EitherEvent,
    SolveOptions,
    backend_function,
    join_all,
    layout_score,
)

#: Seconds the search runs alone before CP-SAT joins it.
SEARCH_ALONE = 2.0
#: "place-all" with several colours and more pieces left than this: after SEARCH_ALONE
#: the exact search and plain CP-SAT stop and the cores go to the methods that can answer
#: such problems (the symmetric reduction where it applies, and the repair search).
#: *Measured* (2 cores): 18 pieces left from a verified 84-piece layout 1.3 s by search;
#: 30 left, unknown after 120 s; plain CP-SAT, 84 pieces: nothing in 840 s.
MANY_PIECES = 30


def decisive(problem: Problem, result: BackendResult) -> bool:
    """True when a result settles the problem: a layout or a proof for "place-all", a proven
    optimum (or a proof that nothing is legal) for "max-score"."""
    if problem.goal == "max-score":
        return result.status in ("optimal", "infeasible")
    return result.status in ("solved", "infeasible")


class _Runner(threading.Thread):
    """One backend in a thread; keeps its result or the exception it raised."""

    def __init__(self, name: str, problem: Problem, options: SolveOptions, stop, won):
        super().__init__(daemon=True, name=f"auto-{name}")
        self.backend, self.problem, self.options = name, problem, options
        self.stop, self.won = stop, won
        self.result: BackendResult | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = backend_function(self.backend)(self.problem, self.options, self.stop)
        except BaseException as error:  # re-raised in the caller's thread
            self.error = error
        if self.error is not None or decisive(self.problem, self.result):
            self.won.set()


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: threading.Event | None = None
) -> BackendResult:
    """Solve with the search, joined by CP-SAT after :data:`SEARCH_ALONE` seconds.

    Args:
        problem: as for any backend.
        options: ``time_limit`` bounds the whole run; the search uses ``workers`` threads,
            the CP-SAT backends that join it ``max(1, workers - 1)`` between them.
        cancel: set from another thread to stop both backends early.

    Returns:
        BackendResult with ``answered_by`` "search", "cpsat", "symmetric", or the backends
        joined by "+" (unknown, or max-score answers combined from both).

    Raises:
        whatever a backend raised (e.g. :class:`solver.solve.SolverBug`).
    """
    started = time.perf_counter()
    won = threading.Event()
    stop = EitherEvent(won, cancel)
    stop_search = threading.Event()
    runners = [_Runner("search", problem, options, EitherEvent(won, cancel, stop_search), won)]
    ready = not compiling_elsewhere()  # first run: the kernel compiles in another process
    alone = SEARCH_ALONE if options.time_limit is None else min(SEARCH_ALONE, options.time_limit)
    try:
        if ready:
            runners[0].start()
            runners[0].join(alone)
    except KeyboardInterrupt:
        won.set()
        runners[0].join()
        raise
    left = (
        None if options.time_limit is None else options.time_limit - (time.perf_counter() - started)
    )
    if (runners[0].is_alive() or not ready) and (left is None or left > 0.05) and not stop.is_set():
        joining = ["cpsat"] + (["symmetric"] if colour_symmetries(problem) else [])
        several = problem.goal == "place-all" and len(problem.colours) >= 2
        if several:
            joining.append("repair")
        if not ready:  # greedy play (repair without the kernel) may answer at once
            runners = []
            if problem.goal == "place-all" and "repair" not in joining:
                joining.append("repair")
            workers = max(1, options.workers // len(joining))
        elif several and _pieces_left(problem) > MANY_PIECES:
            stop_search.set()  # the cores go to what can answer (see MANY_PIECES)
            joining.remove("cpsat")
            workers = max(1, options.workers // len(joining))
        else:
            workers = max(1, (options.workers - 1) // len(joining))
        for name in joining:
            joined = SolveOptions(name, left, workers, options.seed, options.params)
            runners.append(_Runner(name, problem, joined, stop, won))
            runners[-1].start()
    join_all(runners, won)
    for runner in runners:
        if runner.error is not None:
            raise runner.error
    return _combine(problem, runners)


def _pieces_left(problem: Problem) -> int:
    return sum(len(problem.position.colour(c).remaining) for c in problem.colours)


def _combine(problem: Problem, runners: list[_Runner]) -> BackendResult:
    """The first decisive answer; else, for max-score, the best layout and lowest bound."""
    for runner in runners:
        if decisive(problem, runner.result):
            return _named(runner.result, runner.backend)
    if len(runners) == 1:
        return _named(runners[0].result, runners[0].backend)
    stats = {r.backend: r.result.stats for r in runners}
    if problem.goal != "max-score":
        return BackendResult("unknown", None, None, stats, "+".join(stats))
    scored = [
        (layout_score(problem, r.result.layout), r) for r in runners if r.result.layout is not None
    ]
    bounds = [r.result.bound for r in runners if r.result.bound is not None]
    bound = min(bounds) if bounds else None
    if not scored:
        return BackendResult("unknown", None, bound, stats, "search+cpsat")
    score, best = max(scored, key=lambda pair: pair[0])
    status = "optimal" if bound is not None and score >= bound else "solved"
    return BackendResult(status, best.result.layout, bound, stats, "search+cpsat")


def _named(result: BackendResult, backend: str) -> BackendResult:
    return BackendResult(result.status, result.layout, result.bound, result.stats, backend)
