"""Symmetric assignments of shared starting points (Blokus Trigon, issue 43).

On Trigon the colours share six starting points and a colour with no piece yet has no
start square of its own (:func:`solver.backends.search.starts.unstarted`), so no board
symmetry maps such a problem onto itself with the colours permuted: a colour symmetry
needs to know where each colour starts. The exact search meets the same question by
searching once per *assignment* of distinct free starting points to those colours
(:func:`solver.backends.search.starts.assignments`): a layout of an assignment is a layout
of the problem. Here only the assignments that some colour symmetry maps onto themselves
matter, and many are alike:

S1. Every assignment, keyed by its class: two assignments whose starting points a
    symmetry of the position (:func:`solver.core.symmetry.position_symmetries`) maps onto
    each other, colour for colour up to colours that could trade places (no piece on the
    board, the same pieces left), pose the same problem with the board turned and the
    colours renamed; one of each class is kept, the first in
    :func:`~solver.backends.search.starts.assignments`' order.
S2. Each kept assignment's colour symmetries
    (:func:`solver.core.colour_symmetry.colour_symmetries` of the problem with those start
    squares); assignments with none are dropped.
S3. The rest, best first: fewest representatives under its best group (each placement of
    a representative then stands for the most pieces), then the order of S1.

On the 88-piece solo (four colours, six points: 360 assignments) that leaves 3 classes,
2 of them with a symmetry; three colours on side 8, and two on side 9, likewise a few.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.backends.search.starts import assignments, unstarted, with_starts
from solver.core.colour_symmetry import ColourSymmetry, colour_symmetries
from solver.core.problem import Problem
from solver.core.symmetry import position_symmetries

__all__ = ["SymmetricStart", "symmetric_starts"]


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
