"""Colours that have not started on a board of shared starting points (Blokus Trigon,
issue 43), and the assignments of those points that a colour symmetry maps onto itself.

On Trigon a colour's first piece covers any of six starting points no piece covers yet
(Pentobi ``StartingPoints.cpp``); the engines know one start square per colour. So a
problem whose played colours include some with no piece yet (:func:`unstarted`) is
searched once per *assignment*: each such colour given a distinct free starting point as
its start square (:func:`assignments`, :func:`with_starts`). A layout of an assignment is a
layout of the problem (each first piece covers its own starting point, which no other piece
covers), and every layout of the problem is one of some assignment (the exact search's
steps: :mod:`solver.backends.search.starts`).

No board symmetry maps a problem with unstarted colours onto itself with the colours
permuted (a colour symmetry needs to know where each colour starts), so the engines that
search the orbits of a symmetry (the ``symmetric`` backend, the fundamental-domain search)
take only the assignments some colour symmetry maps onto themselves, and many are alike:

S1. Every assignment, keyed by its class: two assignments whose starting points a
    symmetry of the position (:func:`solver.core.symmetry.position_symmetries`) maps onto
    each other, colour for colour up to colours that could trade places (no piece on the
    board, the same pieces left), pose the same problem with the board turned and the
    colours renamed; one of each class is kept, the first in :func:`assignments`' order.
S2. Each kept assignment's colour symmetries
    (:func:`solver.core.colour_symmetry.colour_symmetries` of the problem with those start
    squares); assignments with none are dropped.
S3. The rest, best first: fewest representatives under its best group (each placement of
    a representative then stands for the most pieces), then the order of S1.

On the 88-piece solo (four colours, six points: 360 assignments) that leaves 3 classes,
2 of them with a symmetry; three colours on side 8, and two on side 9, likewise a few.
(Moved here from the search and the symmetric backend, so that every engine can use it.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import permutations

from solver.core.colour_symmetry import ColourSymmetry, colour_symmetries
from solver.core.problem import Problem
from solver.core.symmetry import position_symmetries

__all__ = ["SymmetricStart", "assignments", "symmetric_starts", "unstarted", "with_starts"]


def unstarted(problem: Problem) -> tuple[str, ...]:
    """The played colours with pieces left, no piece on the board and no start square of
    their own, on a board with shared starting points; () on every other board."""
    position = problem.position
    if not position.starting_points:
        return ()
    return tuple(
        name
        for name in problem.colours
        if (state := position.colour(name)).remaining and not state.placed and state.start is None
    )


def assignments(problem: Problem) -> Iterator[dict[str, int]]:
    """Each assignment of distinct free starting points (ascending cell order, taken in
    lexicographic order) to :func:`unstarted` colours, as colour -> cell."""
    position = problem.position
    free = sorted(position.starting_points - position.occupied)
    colours = unstarted(problem)
    for cells in permutations(free, len(colours)):
        yield dict(zip(colours, cells))


def with_starts(problem: Problem, starts: dict[str, int]) -> Problem:
    """The problem with these colours' start squares set (colour -> cell)."""
    position = problem.position
    colours = tuple(
        replace(c, start=starts[c.name]) if c.name in starts else c for c in position.colours
    )
    return replace(problem, position=replace(position, colours=colours))


@dataclass(frozen=True)
class SymmetricStart:
    """A problem with its unstarted colours given start squares, and the groups that map
    it onto itself with the colours permuted.

    Attributes:
        problem: the problem with those start squares
            (:func:`solver.backends.search.starts.with_starts`); the problem itself when
            no colour needed one.
        starts: colour -> the starting point given to it (cell number); empty when no
            colour needed one.
        symmetries: its :func:`colour_symmetries`, best first (never empty).
    """

    problem: Problem
    starts: dict[str, int]
    symmetries: list[ColourSymmetry]


def symmetric_starts(problem: Problem) -> list[SymmetricStart]:
    """The ways to solve ``problem`` on the orbits of a colour symmetry, best first (steps
    S1-S3 of the module docstring): one per class of assignments of free starting points
    to its unstarted colours that has a colour symmetry; for a problem without unstarted
    colours, the problem itself if it has one. Empty: no colour symmetry at all (the
    backend refuses the problem)."""
    idle = unstarted(problem)
    if not idle:
        found = colour_symmetries(problem)
        return [SymmetricStart(problem, {}, found)] if found else []
    position = problem.position
    perms = position_symmetries(position)
    profile: dict[tuple[tuple[str, ...], str | None], int] = {}
    kind: dict[str, int] = {}
    for name in idle:
        state = position.colour(name)
        key = (tuple(sorted(state.remaining)), state.last_piece)
        kind[name] = profile.setdefault(key, len(profile))
    kept: dict[tuple[tuple[int, int], ...], dict[str, int]] = {}
    for starts in assignments(problem):  # S1
        cls = min(tuple(sorted((kind[c], int(g[s])) for c, s in starts.items())) for g in perms)
        kept.setdefault(cls, starts)
    out = []
    for starts in kept.values():  # S2
        given = with_starts(problem, starts)
        found = colour_symmetries(given)
        if found:
            out.append(SymmetricStart(given, starts, found))
    return sorted(out, key=lambda s: len(s.symmetries[0].cycles))  # S3 (a stable sort)
