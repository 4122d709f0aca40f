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

import numpy as np
from ortools.sat.python import cp_model

from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.cpsat import model as cpsat
from solver.backends.cpsat import solving as cpsat_solving
from solver.backends.race import first_proven
from solver.core.colour_symmetry import ColourSymmetry, colour_symmetries, expand, refuse
from solver.core.problem import Problem


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


def solve_symmetric(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Look for a layout that the best :func:`colour_symmetries` maps onto itself, with
    CP-SAT on the reduced problem (:func:`solver.backends.cpsat.solving.solve` plus
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
        return lambda stop: cpsat_solving.solve(
            reduced, one, stop, constrain=lambda built: add_orbit_constraints(built, symmetry)
        )

    results, winner = first_proven(
        [runner(seed) for seed in seeds], lambda result: result.status != "unknown", cancel
    )
    i = 0 if winner is None else winner
    return results[i], seeds[i]
