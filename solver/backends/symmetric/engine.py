"""The ``symmetric`` backend: a layout that a group of board symmetries maps onto itself
with the colours permuted (:func:`solver.core.colour_symmetry.colour_symmetries`).

Two engines solve the reduced problem (one representative colour per orbit of colours).
The exact search's reduction (:func:`solver.backends.search.solve_symmetric`: each
placement of a representative also takes its images' squares), restarted with a value
order that places the piece with the least room first, tries every group in turn; it
needs the compiled search kernel. CP-SAT's model of the reduction
(:func:`solver.backends.cpsat.solve_symmetric`) needs none, so it answers while a first run
compiles the kernel in another process. Figures: docs/benchmarks.md (issue 35).

On a board of another grid (Blokus Trigon's triangles, issue 43) the exact search's
reduction runs alone: its tables come from the board's geometry, CP-SAT's model assumes
squares. There, colours with no piece yet share six starting points; the search is run on
each class of assignments of starting points that a colour symmetry maps onto itself
(:func:`solver.backends.symmetric.starts.symmetric_starts`), best first, each with an
equal share of the time left (:func:`_on_other_grid`).

A layout found is a real layout (the rule checker re-checks the expanded layout like any
other), but "no symmetric layout" says nothing about the puzzle: the answer is "solved" or
"unknown", never "infeasible".

This module sits a layer above both engines (they do not import each other), and uses
each through its front door.
"""

from __future__ import annotations

import time
from dataclasses import replace

from solver.backends import search, warmup
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.symmetric.starts import symmetric_starts
from solver.core.colour_symmetry import colour_symmetries
from solver.core.colour_symmetry import refuse as refuse_square
from solver.core.problem import Problem
from solver.errors import InputError

# CP-SAT's reduction (solver.backends.cpsat.solve_symmetric) is taken where solve() runs it:
# it loads OR-tools (about 0.5 s), which the exact search's reduction never needs.

__all__ = ["refuse", "solve"]

#: nodes of the first run of the exact search's reduction on Trigon (run k: ``luby(k)``
#: times as many), where squares take :data:`solver.backends.search.symmetric.SYMMETRIC_RUN_NODES`
#: (200): three colours on side 8, the rot120 reduction, one thread, seeds 0-3, seconds to a
#: layout: 2,000 nodes 0.8-57 s; 20,000: 2.1-11.1 s; 200,000: 3.9-35.8 s; 200 (2 threads,
#: seeds 1-3): 34 s, then over 120 s twice (docs/benchmarks.md, issue 43)
TRIGON_RUN_NODES = 20_000


def refuse(problem: Problem) -> None:
    """Raise InputError when no board symmetry maps ``problem`` onto itself with the
    played colours permuted (:func:`solver.core.colour_symmetry.refuse`); on a board of
    shared starting points (Trigon), when none does under any assignment of free starting
    points to the colours with no piece yet
    (:func:`solver.backends.symmetric.starts.symmetric_starts`)."""
    if problem.position.board.square_grid:
        refuse_square(problem)
    elif not symmetric_starts(problem):
        refuse_square(problem)  # the same words, where no assignment is needed
        raise InputError(
            "no board symmetry maps this problem onto itself with the played colours "
            "permuted, whatever free starting points the colours with no piece yet take",
            path=problem.name or None,
        )


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Look for a layout that a group of :func:`colour_symmetries` maps onto itself, best
    group first: the exact search's reduction with restarts
    (:func:`solver.backends.search.solve_symmetric`, ``options.workers`` seed
    streams; a group whose tree is exhausted has no symmetric layout, and the next is
    tried), or, while a first run compiles the search kernel in another process
    (:func:`solver.backends.warmup.compiling_elsewhere`), CP-SAT on the best group's
    reduction (:func:`solver.backends.cpsat.solve_symmetric`). On a board of another grid
    (Trigon): the exact search's reduction alone (:func:`_on_other_grid`).

    Returns:
        "solved" with the expanded layout (every played colour), or "unknown": the time
        limit, or no layout symmetric under any group (then ``stats["unknown_reason"]``
        says so; that is no proof that the problem has no layout).

    Raises:
        InputError: no board symmetry maps the played colours onto each other (:func:`refuse`).
    """
    if not problem.position.board.square_grid:
        return _on_other_grid(problem, options, cancel)
    refuse(problem)
    if warmup.compiling_elsewhere():
        from solver.backends import cpsat

        return cpsat.solve_symmetric(problem, options, cancel)
    symmetries = colour_symmetries(problem)
    result = search.solve_symmetric(problem, symmetries, options, cancel)
    if "unknown_reason" in result.stats:
        names = " or the ".join(s.name for s in symmetries)
        result.stats["unknown_reason"] = f"no layout is symmetric under the {names}"
    return result


def _on_other_grid(problem: Problem, options: SolveOptions, cancel: Cancel | None) -> BackendResult:
    """:func:`solve` on a grid other than squares (Trigon): the exact search's reduction
    only (CP-SAT's model assumes squares), after the search kernel's first compile when
    another process is compiling it (:func:`_after_compile`), on each way of
    :func:`solver.backends.symmetric.starts.symmetric_starts` in turn, best first: each
    gets an equal share of the time left (a way that ends early, its groups' trees
    exhausted, leaves its time to the next); the first layout is the answer. Runs of
    :data:`TRIGON_RUN_NODES` times Luby's sequence.

    Returns:
        as :func:`solve`; ``stats`` adds ``starts`` (each unstarted colour's starting
        point by name, for the way that answered or was tried last) and ``assignments``
        ("k of n": the ways tried of those with a symmetry).

    Raises:
        InputError: :func:`refuse`.
    """
    started = time.perf_counter()
    ways = symmetric_starts(problem)
    if not ways:
        refuse(problem)
    waited = _after_compile(options, cancel, started)
    if waited is not None:
        return waited
    board = problem.position.board
    nodes, runs = 0, 0
    result = BackendResult("unknown")
    exhausted = []
    for k, way in enumerate(ways):
        left = _seconds_left(options.time_limit, started)
        if (left is not None and left <= 0) or (cancel is not None and cancel.is_set()):
            break
        share = None if left is None else left / (len(ways) - k)
        result = search.solve_symmetric(
            way.problem,
            way.symmetries,
            replace(options, time_limit=share),
            cancel,
            run_nodes=TRIGON_RUN_NODES,
        )
        nodes += int(result.stats.get("nodes", 0))
        runs += int(result.stats.get("runs", 0))
        result.stats["starts"] = {c: board.name(s) for c, s in way.starts.items()}
        result.stats["assignments"] = f"{k + 1} of {len(ways)}"
        if result.status == "solved":
            break
        if "unknown_reason" in result.stats:
            exhausted.append(k)
    stats = dict(result.stats, nodes=nodes, runs=runs)
    stats["seconds"] = round(time.perf_counter() - started, 3)
    stats.pop("unknown_reason", None)
    if result.status != "solved" and len(exhausted) == len(ways):
        names = sorted({s.name for way in ways for s in way.symmetries})
        stats["unknown_reason"] = f"no layout is symmetric under the {' or the '.join(names)}"
    return BackendResult(result.status, result.layout, None, stats, "symmetric")


def _after_compile(
    options: SolveOptions, cancel: Cancel | None, started: float
) -> BackendResult | None:
    """While another process compiles the search kernel on a first run
    (:func:`solver.backends.warmup.compiling_elsewhere`), wait for its cache without using
    a core (as :func:`solver.backends.warmup.when_compiled`); None when the search may
    run, else "unknown" (the time limit or a cancel came first)."""
    if not warmup.compiling_elsewhere():
        return None
    while not warmup.kernel_ready():
        waited = {"waited_for_compile": round(time.perf_counter() - started, 3)}
        if cancel is not None and cancel.is_set():
            return BackendResult("unknown", stats=waited)
        left = _seconds_left(options.time_limit, started)
        if left is not None and left <= warmup.POLL:
            return BackendResult("unknown", stats=waited)
        time.sleep(warmup.POLL)
    return None


def _seconds_left(time_limit: float | None, started: float) -> float | None:
    return None if time_limit is None else time_limit - (time.perf_counter() - started)
