"""Counting and listing layouts with the exact search: :func:`count` (distinct layouts, or
orbits up to the board's symmetries, exact when the tree is exhausted), :func:`layouts`
(each layout in turn) and :func:`first_layout`.

Each layout is reached by exactly one path of the search tree
(:mod:`solver.backends.search.exact`), so the tree counts layouts, order of play ignored.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from solver.backends import driver
from solver.backends.base import BackendResult
from solver.backends.search import kernel as core
from solver.backends.search.starts import unstarted
from solver.backends.search.tables import build, found_layout
from solver.backends.tuning import SearchTuning
from solver.core.position import Layout
from solver.core.problem import Problem
from solver.errors import InputError


@dataclass(frozen=True)
class CountResult:
    """The number of distinct layouts of a problem.

    Attributes:
        count: the number of layouts (orbits if counted up to symmetry) when ``complete``;
            otherwise a true lower bound on it: ``layouts``, or up to symmetry
            ``ceil(layouts / symmetries)`` (an orbit holds at most ``symmetries`` layouts;
            a partial Burnside sum means nothing).
        complete: True if the search tree was exhausted (the count is exact, even if it
            equals the limit); False if ``stopped_by`` stopped it.
        nodes: search nodes visited.
        seconds: wall time.
        symmetries: number of board symmetries used (1 unless counted up to symmetry).
        layouts: the number of layouts (not orbits) when ``complete``; else a lower bound
            on it (the layouts found, capped at the limit).
        stopped_by: None when ``complete``; "limit" (more than ``limit`` layouts exist) or
            "time limit" otherwise.
    """

    count: int
    complete: bool
    nodes: int
    seconds: float
    symmetries: int = 1
    layouts: int = 0
    stopped_by: str | None = None


def count(
    problem: Problem,
    limit: int | None = None,
    up_to_symmetry: bool = False,
    time_limit: float | None = None,
    tuning: SearchTuning = SearchTuning(),
) -> CountResult:
    """Count the distinct layouts that place every remaining piece of the played colours.

    Layouts are sets of placements per colour (order of play ignored; two copies of a
    Junior piece are interchangeable). The problem's goal is ignored: the count is of
    "place-all" layouts, honouring ``problem.monomino_last``.

    Args:
        limit: None (no limit) or N >= 1: stop once more than N layouts (layouts, also
            when counting up to symmetry) are known to exist. The search looks for N + 1
            layouts, so a search that ends with at most N is ``complete`` and exact; one
            that finds N + 1 stops with ``stopped_by="limit"``, ``layouts = N`` and
            ``count = N`` (up to symmetry: ``ceil(N / symmetries)``).
        up_to_symmetry: count orbits under the symmetries of the position
            (:func:`solver.core.symmetry.position_symmetries`), by Burnside's lemma (exact only
            when ``complete``).
        time_limit: seconds; on time-out ``complete`` is False, ``stopped_by`` is
            "time limit" and ``count`` is a lower bound (see :class:`CountResult`).
        tuning: the search's settings (the count is the same under every one).

    Raises:
        ValueError: ``limit`` is not None and less than 1.
        InputError: a played colour with no piece yet on a board of shared starting points
            (Trigon): a sum over its starting points would count twice a layout whose first
            pieces cover two of them.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"count limit must be at least 1, not {limit}")
    waiting = unstarted(problem)
    if waiting:
        raise InputError(
            f"counting layouts of a colour with no piece yet on Trigon ({', '.join(waiting)}) "
            "is not supported yet (docs/geometry.md#what-runs-on-trigon)"
        )
    # the kernel stops as soon as it has found at least limit + 1 layouts (a leaf with
    # held monominoes may add several at once): finding N + 1 proves "more than N", and
    # ending with at most N is the exact count
    search = build(
        problem, core.COUNT, 0 if limit is None else limit + 1, up_to_symmetry, tuning=tuning
    )
    fix = search.state.fix
    groups = len(fix)
    if search.infeasible:
        return CountResult(0, True, 0, 0.0, groups, 0, None)
    started = time.perf_counter()
    code = driver.sliced_run(search, time_limit, started)
    seconds = time.perf_counter() - started
    nodes = int(search.st[core.S_NODES])
    found = int(fix[0])
    if code == core.DONE:
        total = int(fix.sum())
        if total % groups:
            raise AssertionError(f"Burnside sum {total} is not a multiple of {groups}")
        return CountResult(total // groups, True, nodes, seconds, groups, found, None)
    stopped_by = "limit" if code == core.LIMIT else "time limit"
    layouts = found if limit is None else min(found, limit)
    return CountResult(-(-layouts // groups), False, nodes, seconds, groups, layouts, stopped_by)


def first_layout(problem: Problem) -> BackendResult:
    """The first layout that :func:`count` counts: the same search tree (one member, no
    memo, no time limit) stopped at its first leaf, which it reaches in no more
    nodes than the count did. The problem's goal is ignored, as in :func:`count`.

    Returns:
        BackendResult: "solved" with the layout, or "infeasible" when there is none.
    """
    search = build(problem, core.FIND)
    if search.infeasible:
        return BackendResult("infeasible", None, None, {"nodes": 0, "seconds": 0.0})
    started = time.perf_counter()
    code = driver.sliced_run(search, None, started)
    seconds = time.perf_counter() - started
    stats = {"nodes": int(search.st[core.S_NODES]), "seconds": seconds}
    if code != core.FOUND:
        return BackendResult("infeasible", None, None, stats)
    return BackendResult("solved", found_layout(search, problem), None, stats)


def layouts(problem: Problem, limit: int | None = None) -> Iterator[Layout]:
    """Every layout :func:`count` counts, one at a time, in the search's order (the
    problem's goal is ignored, as in :func:`count`): the FIND search resumed after each
    layout (its explicit stack goes on from the leaf where it stopped).

    Args:
        limit: stop after this many layouts (None: all of them).

    Raises:
        ValueError: a played colour holds its monomino back to place it last (monomino-last
            without card goals): one leaf of the search then stands for several layouts,
            which this does not list.
    """
    search = build(problem, core.FIND)
    if search.held_colours:
        raise ValueError("layouts() cannot list layouts whose monomino is held back")
    if search.infeasible:
        return
    found = 0
    while limit is None or found < limit:
        code = driver.sliced_run(search, None)
        if code != core.FOUND:
            return
        found += 1
        yield found_layout(search, problem)
