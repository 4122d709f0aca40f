"""Counting and listing layouts with the exact search: :func:`count` (distinct layouts, or
orbits up to the board's symmetries, exact when the tree is exhausted), :func:`layouts`
(each layout in turn) and :func:`first_layout`.

Each layout is reached by exactly one path of the search tree
(:mod:`solver.backends.search.exact`), so the tree counts layouts, order of play ignored.

A colour with no piece yet on Blokus Trigon (six starting points shared by the colours,
:mod:`solver.backends.search.starts`): a layout is legal iff each such colour's pieces
cover some free starting point (its first piece is one that does: no other colour covers
that cell), and one layout may cover several, so counts per starting point do not add up.
Each layout is counted once, under its *canonical* assignment: each such colour's start
square is the smallest free starting point its pieces cover (its pieces other than the
monomino when the monomino must be last and is not its only piece: that one is never
first). One search per assignment, each with the colour's start square set and every
smaller free starting point left out of its placements (:func:`build`'s ``avoid``), so
the searches count disjoint sets whose union is every layout; their counts, and up to
symmetry their Burnside sums under the position's own group (which every assignment's
classes together make whole), add up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from solver.backends import driver
from solver.backends.base import BackendResult
from solver.backends.search import kernel as core
from solver.backends.search.starts import assignments, unstarted, with_starts
from solver.backends.search.tables import build, found_layout
from solver.backends.tuning import SearchTuning
from solver.core.position import Layout
from solver.core.problem import Problem
from solver.core.symmetry import position_symmetries


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

    A played colour with no piece yet on Trigon is counted by canonical assignments
    (module docstring): one search per assignment of free starting points, the limit and
    the time limit shared by them all.

    Raises:
        ValueError: ``limit`` is not None and less than 1.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"count limit must be at least 1, not {limit}")
    if unstarted(problem):
        return _count_canonical(problem, limit, up_to_symmetry, time_limit, tuning)
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
    return _result(fix, code, limit, nodes, seconds)


def _result(
    fix: np.ndarray, code: int, limit: int | None, nodes: int, seconds: float
) -> CountResult:
    """The count from the Burnside sums ``fix`` (one per symmetry, identity first) and the
    kernel's last code."""
    groups = len(fix)
    found = int(fix[0])
    if code == core.DONE:
        total = int(fix.sum())
        if total % groups:
            raise AssertionError(f"Burnside sum {total} is not a multiple of {groups}")
        return CountResult(total // groups, True, nodes, seconds, groups, found, None)
    stopped_by = "limit" if code == core.LIMIT else "time limit"
    layouts = found if limit is None else min(found, limit)
    return CountResult(-(-layouts // groups), False, nodes, seconds, groups, layouts, stopped_by)


def _count_canonical(
    problem: Problem,
    limit: int | None,
    up_to_symmetry: bool,
    time_limit: float | None,
    tuning: SearchTuning,
) -> CountResult:
    """:func:`count` with a colour yet to start on Trigon: the canonical searches'
    counts (and Burnside sums) added up; the limit and the time limit shared."""
    started = time.perf_counter()
    group = None
    if up_to_symmetry:  # the problem's own: the start squares given below would shrink it
        group = position_symmetries(problem.position, (problem.cover,))
    fix = np.zeros(1 if group is None else len(group), dtype=np.int64)
    nodes, code = 0, core.DONE
    for sub, avoid in canonical(problem):
        # as in count: stop once more than limit layouts are found, over all the searches
        wanted = 0 if limit is None else limit + 1 - int(fix[0])
        search = build(
            sub, core.COUNT, wanted, up_to_symmetry, tuning=tuning, avoid=avoid, group=group
        )
        if search.infeasible:
            continue
        code = driver.sliced_run(search, time_limit, started)
        nodes += int(search.st[core.S_NODES])
        fix += search.state.fix
        if code != core.DONE:
            break
    return _result(fix, code, limit, nodes, time.perf_counter() - started)


def canonical(problem: Problem) -> Iterator[tuple[Problem, dict[str, frozenset[int]]]]:
    """The searches that count a problem's layouts between them: the problem itself when
    every played colour has started (or has its own start square); on Trigon, for each
    assignment of distinct free starting points to the colours with no piece yet
    (:func:`~solver.backends.search.starts.assignments`), the problem with those start
    squares and, per such colour, the free starting points below its own that its
    placements avoid (module docstring). None when no free starting point is left for
    them: they can place nothing, and no layout places every piece."""
    waiting = unstarted(problem)
    if not waiting:
        yield problem, {}
        return
    position = problem.position
    free = sorted(position.starting_points - position.occupied)
    for starts in assignments(problem):
        avoid = {c: frozenset(s for s in free if s < starts[c]) for c in waiting}
        yield with_starts(problem, starts), avoid


def first_layout(problem: Problem) -> BackendResult:
    """The first layout that :func:`count` counts: the same search tree (one member, no
    memo, no time limit) stopped at its first leaf, which it reaches in no more
    nodes than the count did (with a colour yet to start on Trigon: the first leaf of the
    first canonical search that has one). The problem's goal is ignored, as in
    :func:`count`.

    Returns:
        BackendResult: "solved" with the layout, or "infeasible" when there is none.
    """
    nodes, seconds = 0, 0.0
    for sub, avoid in canonical(problem):
        search = build(sub, core.FIND, avoid=avoid)
        if search.infeasible:
            continue
        started = time.perf_counter()
        code = driver.sliced_run(search, None, started)
        seconds += time.perf_counter() - started
        nodes += int(search.st[core.S_NODES])
        if code == core.FOUND:
            stats = {"nodes": nodes, "seconds": seconds}
            return BackendResult("solved", found_layout(search, problem), None, stats)
    return BackendResult("infeasible", None, None, {"nodes": nodes, "seconds": seconds})


def layouts(problem: Problem, limit: int | None = None) -> Iterator[Layout]:
    """Every layout :func:`count` counts, one at a time, in the search's order (the
    problem's goal is ignored, as in :func:`count`): the FIND search resumed after each
    layout (its explicit stack goes on from the leaf where it stopped); with a colour yet
    to start on Trigon, each canonical search in turn.

    Args:
        limit: stop after this many layouts (None: all of them).

    Raises:
        ValueError: a played colour holds its monomino back to place it last (monomino-last
            without card goals): one leaf of the search then stands for several layouts,
            which this does not list.
    """
    found = 0
    for sub, avoid in canonical(problem):  # (one search unless a colour is yet to start)
        search = build(sub, core.FIND, avoid=avoid)
        if search.held_colours:
            raise ValueError("layouts() cannot list layouts whose monomino is held back")
        if search.infeasible:
            continue
        while limit is None or found < limit:
            code = driver.sliced_run(search, None)
            if code != core.FOUND:
                break
            found += 1
            yield found_layout(search, problem)
        if limit is not None and found >= limit:
            return
