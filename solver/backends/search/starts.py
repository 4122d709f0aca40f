"""Colours that have not started on a board of shared starting points (Blokus Trigon).

On Trigon a colour's first piece covers any of six starting points no piece covers yet
(Pentobi ``StartingPoints.cpp``); the search knows one start square per colour. So a
problem whose played colours include some with no piece yet is searched once per
*assignment*: each such colour given a distinct free starting point as its start square
(:func:`assignments`, from :mod:`solver.core.shared_starts`). A layout of an assignment is
a layout of the problem (each first piece covers its own starting point, which no other
piece covers), and every layout of the problem is one of some assignment (its first pieces
cover distinct free starting points, one each; one covering two is counted under each).
So: "yes" if some assignment has a layout, "no" only when every one is proven to have none,
the best score the best over all of them.

Steps: S1 (list the assignments), S2 (give each an equal share of the time left and run
the search on it), S3 (stop at the first layout for place-all; else combine).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from solver.backends.base import BackendResult, Cancel, SolveOptions, layout_score
from solver.core.problem import Problem
from solver.core.shared_starts import assignments, unstarted, with_starts

__all__ = ["assignments", "solve_each", "unstarted", "with_starts"]

#: the search of one assignment: (problem with start squares, options, cancel) -> result
SolveOne = Callable[[Problem, SolveOptions, Cancel | None], BackendResult]


def solve_each(
    problem: Problem, options: SolveOptions, cancel: Cancel | None, solve_one: SolveOne
) -> BackendResult:
    """S1-S3 of the module docstring: the problem searched once per assignment.

    Returns:
        place-all: "solved" with the first layout found, "infeasible" when every
        assignment is, else "unknown". max-score: the best layout over the assignments,
        "optimal" when each one's search ended, with ``bound`` the largest bound.
        ``stats``: nodes and seconds summed, ``assignments`` tried of how many.
    """
    started = time.perf_counter()
    todo = list(assignments(problem))  # S1
    if not todo:  # no free starting point: the unstarted colours can place nothing
        return _without_unstarted(problem, options, cancel, solve_one)
    nodes, results = 0, []
    limit = options.time_limit
    for k, starts in enumerate(todo):  # S2
        left = None if limit is None else limit - (time.perf_counter() - started)
        if (left is not None and left <= 0) or (cancel is not None and cancel.is_set()):
            break
        share = replace(options, time_limit=None if left is None else left / (len(todo) - k))
        result = solve_one(with_starts(problem, starts), share, cancel)
        nodes += int(result.stats.get("nodes", 0))
        results.append(result)
        if problem.goal == "place-all" and result.status == "solved":
            break
    return _combined(problem, results, len(todo), nodes, time.perf_counter() - started)


def _without_unstarted(
    problem: Problem, options: SolveOptions, cancel: Cancel | None, solve_one: SolveOne
) -> BackendResult:
    """No free starting point is left for more unstarted colours: place-all is "no" (they
    have pieces left); max-score is the other colours' best with them placing nothing."""
    idle = unstarted(problem)
    if problem.goal == "place-all":
        return BackendResult("infeasible", None, None, {"nodes": 0, "reason": "no starting point"})
    rest = tuple(c for c in problem.colours if c not in idle)
    lost = sum(problem.position.score(c) for c in idle)  # -(squares left): nothing placed
    if not rest:
        return BackendResult("optimal", {c: [] for c in idle}, lost, {"nodes": 0})
    result = solve_one(replace(problem, colours=rest), options, cancel)
    layout = None if result.layout is None else {**result.layout, **{c: [] for c in idle}}
    bound = None if result.bound is None else result.bound + lost
    return replace(result, layout=layout, bound=bound)


def _combined(
    problem: Problem, results: list[BackendResult], total: int, nodes: int, seconds: float
) -> BackendResult:
    """S3: the assignments' results as one answer."""
    stats = {"nodes": nodes, "seconds": seconds, "assignments": f"{len(results)} of {total}"}
    complete = len(results) == total
    if problem.goal == "place-all":
        for result in results:
            if result.status == "solved":
                return BackendResult("solved", result.layout, None, stats)
        proven = complete and all(r.status == "infeasible" for r in results)
        return BackendResult("infeasible" if proven else "unknown", None, None, stats)
    scored = [(layout_score(problem, r.layout), r) for r in results if r.layout is not None]
    if not scored:
        return BackendResult("unknown", None, None, stats)
    score, best = max(scored, key=lambda pair: pair[0])
    if complete and all(r.status == "optimal" for r in results):
        return BackendResult("optimal", best.layout, score, stats)
    # a bound holds only when every assignment's search gave one
    bounded = complete and all(r.bound is not None for r in results)
    bound = max(int(r.bound) for r in results if r.bound is not None) if bounded else None
    return BackendResult("solved", best.layout, bound, stats)
