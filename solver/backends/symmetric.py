"""Symmetric layouts: a many-colour "place-all" problem solved as a smaller one.

On an empty Classic board a quarter turn maps Blue's start square a20 to Yellow's t20,
Yellow's to Red's t1, Red's to Green's a1 and Green's to Blue's. So if Blue's pieces are
placed so that Blue and its three turned copies never overlap, the copies are a legal
layout for the other three colours: all 84 pieces are placed by solving for 21. The same
holds for Duo under a half turn (e10 <-> j5), for a rectangle's four corners under its two
mirrors together (Gottfried's "four mirrored quadrants"), and for any position and group G
of board symmetries that maps the position onto itself with the colours permuted.

The reduced problem plays one *representative* colour per orbit of the colours under G; a
representative c stands for the colours h(c), h in G, whose layouts are the images of c's.
Every constraint of a colour maps to the same constraint of its images, except overlap
between the images: for each square s, at most one of "h(c) covers s", i.e. "c covers
h^-1(s)", over every representative c and h in G (:func:`add_orbit_constraints`). We
require that no element but the identity maps a colour to itself (every orbit has |G|
colours): otherwise that colour's own layout would have to be symmetric, a different
constraint. The groups tried are those one or two board symmetries generate.

This is a restriction, not a reformulation: a layout found is a real layout (the rule
checker re-checks the expanded layout like any other), but "no symmetric layout" says
nothing about the puzzle, so :func:`solve` reports it as "unknown", never "infeasible".
It is how the 84-piece solo puzzle is solved (``benchmarks/solo_84.py``; figures in
``research/notes/cpsat_notes.md``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from ortools.sat.python import cp_model

from solver.backends import cpsat
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.race import first_proven
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.symmetry import SYMMETRY_NAMES, board_symmetries
from solver.errors import InputError


@dataclass(frozen=True)
class ColourSymmetry:
    """A group of board symmetries together with how it permutes the played colours.

    Attributes:
        name: the generator's name for a group one symmetry generates, e.g. "quarter turn
            clockwise"; else the names of its elements other than the identity, e.g.
            "half turn, left-right mirror and top-bottom mirror"
            (:data:`solver.core.symmetry.SYMMETRY_NAMES`).
        elements: the group, identity first; each of shape (rows*cols,), int32, mapping
            square s to ``element[s]``.
        cycles: one tuple per orbit of played colours, (h(c) for h in ``elements``): its
            i-th colour is the image of its first colour, the representative, under
            ``elements[i]``. Every orbit has ``order`` colours (no colour is mapped to
            itself by an element other than the identity).
    """

    name: str
    elements: tuple[np.ndarray, ...]
    cycles: tuple[tuple[str, ...], ...]

    @property
    def order(self) -> int:
        """Number of elements of the group."""
        return len(self.elements)

    @property
    def representatives(self) -> tuple[str, ...]:
        """The colours the reduced problem plays."""
        return tuple(cycle[0] for cycle in self.cycles)


def _closure(generators: list[np.ndarray]) -> list[np.ndarray]:
    """The group the permutations generate, identity first, then in order of discovery
    (for one generator g: identity, g, g^2, ...)."""
    elements = [np.arange(len(generators[0]), dtype=np.int32)]
    seen = {elements[0].tobytes()}
    frontier = list(elements)
    while frontier:
        new = []
        for e in frontier:
            for g in generators:
                p = g[e]  # g after e
                if p.tobytes() not in seen:
                    seen.add(p.tobytes())
                    elements.append(p)
                    new.append(p)
        frontier = new
    return elements


def _colour_map(
    position: Position, colours: tuple[str, ...], perm: np.ndarray, monomino_last: bool
) -> dict[str, str] | None:
    """The colour each played colour is mapped to, or None if perm does not map the
    position onto itself with the played colours permuted among themselves."""
    board = position.board
    if frozenset(int(perm[s]) for s in board.blocked) != board.blocked:
        return None
    image: dict[str, str] = {}
    for state in position.colours:
        squares = frozenset(int(perm[s]) for s in state.squares)
        start = None if state.start is None else int(perm[state.start])
        played = state.name in colours
        matches = [
            other
            for other in position.colours
            if other.start == start
            and other.squares == squares
            and (other.name in colours) == played
            and (
                not played
                or (
                    sorted(other.remaining) == sorted(state.remaining)
                    and (not monomino_last or other.last_piece == state.last_piece)
                )
            )
        ]
        if not matches:
            return None
        if not played and matches[0].name != state.name and state.squares:
            return None  # a frozen colour must keep its own squares
        if played:
            image[state.name] = matches[0].name
    if len(set(image.values())) != len(image):
        return None  # not a permutation (e.g. two colours with one start square)
    return image


def colour_symmetries(problem: Problem) -> list[ColourSymmetry]:
    """The groups of board symmetries (generated by one or two of them) that map the
    problem onto itself with its played colours permuted, no colour fixed by an element
    other than the identity; best first (fewest representatives). Empty unless the goal
    is "place-all" without card goals (squares to cover, colours to connect) and two or
    more colours play.
    """
    if problem.goal != "place-all" or len(problem.colours) < 2 or problem.has_card_goals:
        return []
    named = list(zip(SYMMETRY_NAMES, board_symmetries(problem.position.board)))[1:]
    candidates = [[one] for one in named] + [list(pair) for pair in combinations(named, 2)]
    found, seen = [], set()
    for generators in candidates:
        elements = _closure([perm for _, perm in generators])
        key = frozenset(e.tobytes() for e in elements)
        if key in seen:
            continue
        seen.add(key)
        found_maps = [
            _colour_map(problem.position, problem.colours, e, problem.monomino_last)
            for e in elements
        ]
        maps = [m for m in found_maps if m is not None]
        if len(maps) < len(found_maps):
            continue
        if any(m[c] == c for m in maps[1:] for c in problem.colours):
            continue  # a colour fixed by a symmetry: its own layout would have to be symmetric
        cycles: list[tuple[str, ...]] = []
        covered: set[str] = set()
        for colour in problem.colours:
            if colour not in covered:
                cycles.append(tuple(m[colour] for m in maps))
                covered.update(cycles[-1])
        name = generators[0][0] if len(generators) == 1 else _group_name(elements, named)
        found.append(ColourSymmetry(name, tuple(elements), tuple(cycles)))
    return sorted(found, key=lambda sym: len(sym.cycles))


def _group_name(elements: list[np.ndarray], named: list[tuple[str, np.ndarray]]) -> str:
    """ "a, b and c": the names of the group's elements other than the identity."""
    names = [n for n, perm in named if any(np.array_equal(perm, e) for e in elements)]
    return ", ".join(names[:-1]) + " and " + names[-1]


def add_orbit_constraints(built: cpsat.BuiltModel, symmetry: ColourSymmetry) -> None:
    """For each square s, at most one colour covers s once the representatives' layouts
    are mapped to their orbits: AtMostOne of "c covers h^-1(s)" over representatives c and
    group elements h. A literal met twice (a square fixed by some h) is set false."""
    model = built.model
    inverses = [np.argsort(h).astype(np.int32) for h in symmetry.elements]
    for s in range(len(inverses[0])):
        lits: dict[int, cp_model.IntVar] = {}
        for cm in built.colours:
            for inverse in inverses:
                t = int(inverse[s])
                if t not in cm.cover:
                    continue
                lit = cm.cover[t]
                if lit.index in lits:
                    model.add_bool_or([lit.Not()])
                else:
                    lits[lit.index] = lit
        if len(lits) > 1:
            model.add_at_most_one(list(lits.values()))


def expand(
    layout: dict[str, list[Placement]], symmetry: ColourSymmetry
) -> dict[str, list[Placement]]:
    """The representatives' layouts mapped to every colour of their orbits."""
    out: dict[str, list[Placement]] = {}
    for cycle in symmetry.cycles:
        for h, colour in zip(symmetry.elements, cycle):
            out[colour] = [
                Placement(p.piece, frozenset(int(h[s]) for s in p.squares))
                for p in layout.get(cycle[0], [])
            ]
    return out


def refuse(problem: Problem) -> None:
    """Raise InputError when no board symmetry maps ``problem`` onto itself with the
    played colours permuted (:func:`colour_symmetries`): :func:`solve` cannot take it."""
    if not colour_symmetries(problem):
        raise InputError(
            "no board symmetry maps this problem onto itself with the played "
            "colours permuted (the symmetric backend needs goal place-all without "
            "cover or connect, and colours whose start squares, pieces and squares match)",
            path=problem.name or None,
        )


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Look for a layout that the best :func:`colour_symmetries` maps onto itself, with
    CP-SAT on the reduced problem (:func:`solver.backends.cpsat.solve` plus
    :func:`add_orbit_constraints`): ``options.workers`` single-worker CP-SAT runs with
    seeds ``seed``, ``seed + 1``, ... raced in threads; the first answer stops the others
    (several seeds of one worker each found layouts much sooner than one run with several
    workers: ``research/notes/cpsat_notes.md``).

    Returns:
        "solved" with the expanded layout (every played colour), or "unknown": the time
        limit, or no symmetric layout exists (then ``stats["unknown_reason"]`` says so;
        that is no proof that the problem has no layout).

    Raises:
        InputError: no board symmetry maps the played colours onto each other.
    """
    refuse(problem)
    symmetry = colour_symmetries(problem)[0]
    reduced = Problem(
        problem.position,
        symmetry.representatives,
        "place-all",
        problem.monomino_last,
        problem.name,
        problem.title,
    )
    raw, seed = _seed_portfolio(reduced, symmetry, options, cancel)
    stats = dict(
        raw.stats, symmetry=symmetry.name, seed=seed, representatives=list(symmetry.representatives)
    )
    if raw.status == "solved" and raw.layout is not None:
        return BackendResult("solved", expand(raw.layout, symmetry), None, stats, "symmetric")
    if raw.status == "infeasible":
        stats["unknown_reason"] = f"no layout is symmetric under the {symmetry.name}"
    return BackendResult("unknown", None, None, stats, "symmetric")


def _seed_portfolio(
    reduced: Problem,
    symmetry: ColourSymmetry,
    options: SolveOptions,
    cancel: Cancel | None,
) -> tuple[BackendResult, int]:
    """Single-worker CP-SAT runs with seeds seed, seed + 1, ... (``options.workers`` of
    them) raced in threads; the first decisive result (solved or infeasible) and its seed,
    else the first seed's result."""
    # CP-SAT's random_seed is an int32: seed + k wraps round below 2^31
    seeds = [(options.seed + k) % 2**31 for k in range(max(1, options.workers))]

    def runner(seed: int) -> Callable[[Cancel], BackendResult]:
        one = dataclasses.replace(options, backend="cpsat", workers=1, seed=seed)
        return lambda stop: cpsat.solve(
            reduced, one, stop, constrain=lambda built: add_orbit_constraints(built, symmetry)
        )

    results, winner = first_proven(
        [runner(seed) for seed in seeds], lambda result: result.status != "unknown", cancel
    )
    i = 0 if winner is None else winner
    return results[i], seeds[i]
