"""The ``symmetric`` backend: a layout that a group of board symmetries maps onto itself
with the colours permuted (:func:`solver.core.colour_symmetry.colour_symmetries`).

Two engines solve the reduced problem (one representative colour per orbit of colours).
The exact search's reduction (:func:`solver.backends.search.solve_symmetric`: each
placement of a representative also takes its images' squares), restarted with a value
order that places the piece with the least room first, tries every group in turn; it
needs the compiled search kernel. CP-SAT's model of the reduction
(:func:`solver.backends.cpsat.solve_symmetric`) needs none, so it answers while a first run
compiles the kernel in another process. Figures: docs/benchmarks.md (issue 35).

A layout found is a real layout (the rule checker re-checks the expanded layout like any
other), but "no symmetric layout" says nothing about the puzzle: the answer is "solved" or
"unknown", never "infeasible".

This module sits a layer above both engines (they do not import each other), and uses
each through its front door.
"""

from __future__ import annotations

from solver.backends import search, warmup
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.core.colour_symmetry import colour_symmetries, refuse
from solver.core.problem import Problem

# CP-SAT's reduction (solver.backends.cpsat.solve_symmetric) is taken where solve() runs it:
# it loads OR-tools (about 0.5 s), which the exact search's reduction never needs.

__all__ = ["refuse", "solve"]


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Look for a layout that a group of :func:`colour_symmetries` maps onto itself, best
    group first: the exact search's reduction with restarts
    (:func:`solver.backends.search.solve_symmetric`, ``options.workers`` seed
    streams; a group whose tree is exhausted has no symmetric layout, and the next is
    tried), or, while a first run compiles the search kernel in another process
    (:func:`solver.backends.warmup.compiling_elsewhere`), CP-SAT on the best group's
    reduction (:func:`solver.backends.cpsat.solve_symmetric`).

    Returns:
        "solved" with the expanded layout (every played colour), or "unknown": the time
        limit, or no layout symmetric under any group (then ``stats["unknown_reason"]``
        says so; that is no proof that the problem has no layout).

    Raises:
        InputError: no board symmetry maps the played colours onto each other.
    """
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
