"""CEGAR attempts on the asymmetric many-colour puzzles: a packing model with lazy
connectivity cuts, solved by CaDiCaL (SAT, incremental) or by OR-tools CP-SAT.

Not a backend: none of these variants solved a ladder rung the repair backend cannot
(``research/notes/asymmetric_attempts.md``, section "CEGAR"); this script reproduces every row.

SAT engine (``--engine sat``). The CNF (PySAT, CaDiCaL 1.9.5) holds only the packing, for
each played colour c over the placements of :func:`solver.core.placements.placements_for` that
:func:`solver.backends.cpsat.model.reachable` keeps:

* ``x[c, p]``: placement p chosen; ``cover[c, s] <-> OR(x[c, p], p covers s)``;
* each remaining piece exactly as often as it is left (sequential counter);
* no overlap: pairwise over the colours' cover literals of a square;
* no shared edge: ``x[c, p] -> -cover[c, n]`` for each square n sharing an edge with p
  outside it (this also keeps a colour's placements from overlapping: a polyomino that
  overlaps p without being p has a square next to p);
* first piece: a colour without squares covers its start square;
* local corner support: a placement not playable now implies ``OR(cover[c, s])`` over its
  corner squares (not connectivity).

Each model is checked with :func:`solver.backends.cpsat.cuts.islands`; each island gives the two
valid cuts of the CP-SAT backend (placement cut and separator cut, proofs there), added to
the running solver (learnt clauses kept). UNSAT without assumptions is therefore a proof.
Options: steering assumptions (per colour and piece: a chosen placement leans on a covered
corner square nearer the colour's roots, as the CP-SAT backend's penalties; dropped when
they appear in an UNSAT core), phases (placements false first, cover literals true
first, playable placements true first), a repair-search state as phases and optionally as
assumptions (dropped by cores). CaDiCaL cannot be interrupted through PySAT: it runs in
conflict budgets of ``--chunk`` conflicts, the clock checked between them.

CP-SAT engine (``--engine cpsat``): :func:`solver.backends.cpsat.solving.solve` (the packing model
with the same cuts, one worker) with ``--cpsat base`` (as shipped: steering penalties
minimised, cuts added when a solve ends), ``hard`` (every steering penalty fixed to 0:
each packing is connected; incomplete), ``stop`` (each solve stopped at its first
packing, so cuts come at once) or ``hint`` (a repair-search state as the hint).

Usage: python benchmarks/cegar.py [PUZZLE...] [--joint N,N --games 3] [--limit 60] [--seed 0]
       [--engine sat|cpsat] [--no-steer] [--phase false|cover|playable|none] [--repair-hint SECONDS]
       [--assume-hint] [--drop-one] [--cpsat base|hard|stop|hint] [--trace]
       [--no-support]
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Cadical195

from solver.backends.base import BackendResult, SolveOptions
from solver.backends.cpsat import model as cpsat
from solver.backends.cpsat import solving as cpsat_solving
from solver.backends.cpsat.cuts import island_neighbours, islands, separator
from solver.backends.cpsat.model import MONOMINO_INDEX, ColourModel, reachable, root_distance, roots
from solver.backends.repair import repairer as repair
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES
from solver.core.placements import corner_squares, placements_for
from solver.core.position import Layout
from solver.core.problem import Problem
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import checked_result

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Settings:
    """The SAT engine's switches (see the module docstring)."""

    steer: bool = True
    phase_false: bool = True
    phase_cover: bool = False
    phase_playable: bool = False
    hint_assume: bool = False
    drop_one: bool = False
    chunk: int = 4000
    config: dict[str, int] = field(default_factory=dict)
    cuts: tuple[str, ...] = ("placement", "separator")
    trace: list | None = None
    support: bool = True


class Unsupported(Exception):
    """The problem is outside what this backend models (it then answers "unknown")."""


@dataclass(eq=False)
class _Part:
    """One colour's part of the CNF.

    Attributes:
        cm: its placements and geometry (a :class:`ColourModel` of the CP-SAT backend
            without CP-SAT literals: ``cover`` and ``cover_rest`` map squares to CNF
            variables).
        base: the CNF variable of row 0; row i is ``base + i``.
        steer: piece name -> its steering assumption literal.
    """

    cm: ColourModel
    base: int
    steer: dict[str, int] = field(default_factory=dict)

    def var(self, row: int) -> int:
        return self.base + row

    @property
    def cover(self) -> dict[int, int]:
        """Square -> its CNF literal "covered by this colour"."""
        return cast(dict[int, int], self.cm.cover)


@dataclass(eq=False)
class Packing:
    """The CNF of a problem's packing (no connectivity) and its colours' parts."""

    parts: list[_Part]
    clauses: list[list[int]]
    pool: IDPool

    @property
    def assumptions(self) -> list[int]:
        return [g for part in self.parts for g in part.steer.values()]


def _colour_part(
    problem: Problem, colour: str, pool: IDPool, clauses: list[list[int]], settings: Settings
) -> _Part:
    position = problem.position
    board = position.board
    state = position.colour(colour)
    wanted = Counter(state.remaining)
    monos = wanted.get(MONOMINO, 0)
    strict = problem.monomino_last and monos > 0 and wanted != Counter({MONOMINO: 1})
    if strict and monos > 1:
        raise Unsupported("monomino last with two monominoes")
    table = placements_for(position, colour)
    mono = table.piece == MONOMINO_INDEX
    last = mono if strict else np.zeros(len(table), dtype=bool)
    corners = corner_squares(table, board)
    keep = reachable(table, corners, board.size, last if strict else None)
    table, corners, last = table.subset(keep), corners[keep], last[keep]
    n = len(table)
    base = pool.top + 1
    pool.top = base + n - 1  # rows take the next n variables
    cm = ColourModel.of(colour, table, [], corners, last, board, strict)
    part = _Part(cm, base)
    # cover literals
    cover: dict[int, int] = {}
    rest: dict[int, int] = {}
    for s in range(board.size):
        rows = cm.covering(s)
        if len(rows) == 0:
            continue
        c = pool.id(("cover", colour, s))
        cover[s] = c
        clauses.append([-c] + [base + int(i) for i in rows])
        clauses.extend([[-(base + int(i)), c] for i in rows])
        if strict:
            others = [int(i) for i in rows if not last[i]]
            if len(others) == len(rows):
                rest[s] = c
            elif others:
                r = pool.id(("rest", colour, s))
                rest[s] = r
                clauses.append([-r] + [base + i for i in others])
                clauses.extend([[-(base + i), r] for i in others])
    cm.cover = cast(dict, cover)
    cm.cover_rest = cast(dict, rest)
    # piece counts
    for name, k in wanted.items():
        rows = np.flatnonzero(table.piece == PIECES[name].index)
        lits = [base + int(i) for i in rows]
        if len(lits) < k:
            clauses.append([])  # this piece fits nowhere: no layout
            continue
        enc = CardEnc.equals(lits, bound=k, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(enc.clauses)
    # no shared edge (and no overlap within the colour)
    edges = cm.edges
    sq = table.squares
    near = edges[sq].reshape(n, -1)  # shape (P, 20): edge neighbours of each square
    for i in range(n):
        own = set(sq[i][sq[i] >= 0].tolist())
        lit = -(base + i)
        for s in set(near[i].tolist()) - own:
            if s >= 0 and s in cover:
                clauses.append([lit, -cover[s]])
    # first piece
    if not state.squares and wanted:
        if state.start is None or state.start not in cover:
            clauses.append([])
        else:
            clauses.append([cover[state.start]])
            if strict:  # the held-back monomino is never the root
                for i in np.flatnonzero(last).tolist():
                    if state.start in sq[i]:
                        clauses.append([-(base + int(i))])
    # local corner support
    support = rest if strict else cover
    for i in np.flatnonzero(~table.playable).tolist() if settings.support else []:
        corner = [support[int(s)] for s in corners[i] if s >= 0 and int(s) in support]
        clauses.append([-(base + int(i))] + corner)
    if settings.steer:
        dist = root_distance(board, roots(state))
        nearest = np.where(sq >= 0, dist[np.maximum(sq, 0)], 1 << 20).min(axis=1)
        for i in np.flatnonzero(~table.playable & ~cm.mono).tolist():
            name = PIECE_NAMES[int(table.piece[i])]
            g = part.steer.setdefault(name, pool.id(("steer", colour, name)))
            down = [
                support[int(s)]
                for s in corners[i]
                if s >= 0 and dist[s] < nearest[i] and int(s) in support
            ]
            clauses.append([-g, -(base + int(i))] + down)
    return part


def build(problem: Problem, settings: Settings) -> Packing:
    """The CNF of a problem's packing.

    Raises:
        Unsupported: a goal other than place-all, a colour to connect, or monomino last
            with two monominoes of one colour.
    """
    if problem.goal != "place-all":
        raise Unsupported("goal max-score")
    if problem.connect:
        raise Unsupported("colours to connect")
    pool = IDPool()
    clauses: list[list[int]] = []
    parts = [_colour_part(problem, c, pool, clauses, settings) for c in problem.colours]
    size = problem.position.board.size
    for s in range(size):
        lits = [p.cover[s] for p in parts if s in p.cover]
        for a in range(len(lits)):
            for b in range(a + 1, len(lits)):
                clauses.append([-lits[a], -lits[b]])
    for s in sorted(problem.stars_left):
        clauses.append([p.cover[s] for p in parts if s in p.cover])
    return Packing(parts, clauses, pool)


def _cuts(
    problem: Problem, packing: Packing, model: list[int], settings: Settings
) -> tuple[int, Layout]:
    """Check a model: add nothing, return (islands found, layout) and queue the cuts in
    ``packing.clauses`` (cleared by the caller after adding them)."""
    found = 0
    layout: Layout = {}
    values = np.asarray(model, dtype=np.int64)
    for part in packing.parts:
        cm = part.cm
        n = len(cm.table)
        chosen = np.flatnonzero(values[part.base - 1 : part.base - 1 + n] > 0)
        layout[cm.name] = [cm.table.placement(int(i)) for i in chosen]
        if not settings.support:  # lazily: the support clause of each unsupported row
            support = cast(dict[int, int], cm.cover_rest if cm.mono_last else cm.cover)
            covered = {int(q) for q in cm.table.squares[chosen].ravel() if q >= 0}
            for i in chosen.tolist():
                corner = [int(q) for q in cm.corners[i] if q >= 0]
                if not cm.table.playable[i] and not covered & set(corner):
                    packing.clauses.append(
                        [-part.var(i)] + [support[q] for q in corner if q in support]
                    )
                    found += 1
        kinds = [False, True] if cm.mono_last else [False]
        for without_last in kinds:
            for island in islands(cm, chosen, without_last):
                found += 1
                _add_cut(problem, packing, part, chosen, island, without_last, settings)
    return found, layout


def _add_cut(
    problem: Problem,
    packing: Packing,
    part: _Part,
    chosen: np.ndarray,
    island: list[int],
    without_last: bool,
    settings: Settings,
) -> None:
    cm = part.cm
    pool = packing.pool
    if "placement" in settings.cuts:
        near = [part.var(int(q)) for q in island_neighbours(cm, island, without_last)]
        y = pool.id()
        packing.clauses.append([-y] + near)
        packing.clauses.extend([[-part.var(int(p)), y] for p in island])
    if "separator" in settings.cuts:
        found = separator(cm, problem.position, [int(i) for i in chosen], island, without_last)
        if found is not None:
            inside, cut = found
            cover = cast(dict[int, int], cm.cover_rest if without_last else cm.cover)
            lits = [cover[b] for b in inside if b in cover]
            if lits:
                r = pool.id()
                packing.clauses.extend([[-lit, r] for lit in lits])
                packing.clauses.append([-r] + [cover[s] for s in cut if s in cover])


def hint_phases(packing: Packing, hint: Layout) -> list[int]:
    """Phases that steer the solver towards a (partial) layout: each placement of ``hint``
    that is a row of the model positive, every other row negative."""
    phases = []
    for part in packing.parts:
        table = part.cm.table
        wanted = {p.squares for p in hint.get(part.cm.name, [])}
        for i in range(len(table)):
            sq = table.squares[i]
            on = frozenset(int(s) for s in sq[sq >= 0]) in wanted
            phases.append(part.var(i) if on else -part.var(i))
    return phases


def solve_here(
    problem: Problem,
    options: SolveOptions,
    settings: Settings,
    hint: Layout | None = None,
) -> BackendResult:
    """The CEGAR loop in this process (see the module docstring).

    Returns:
        "solved" with a layout (no islands; checked by the caller), "infeasible" (the
        packing with its valid cuts is UNSAT, no assumption involved), or "unknown" (time
        limit, or :class:`Unsupported`). ``stats``: variables, clauses (at the
        start), solves, models, islands, relaxed (steering literals dropped), build and
        wall seconds.
    """
    started = time.perf_counter()
    deadline = None if options.time_limit is None else started + options.time_limit
    stats: dict[str, Any] = {"solves": 0, "models": 0, "islands": 0, "relaxed": 0}
    try:
        packing = build(problem, settings)
    except Unsupported as e:
        stats["reason"] = str(e)
        return BackendResult("unknown", None, None, stats)
    stats["variables"] = packing.pool.top
    stats["clauses"] = len(packing.clauses)
    stats["build"] = round(time.perf_counter() - started, 3)
    assume = packing.assumptions
    rng = np.random.default_rng(options.seed)
    status = "unknown"
    layout: Layout | None = None
    with Cadical195() as sat:
        sat.configure({"seed": options.seed, **settings.config})
        sat.append_formula(packing.clauses)
        packing.clauses = []
        if settings.phase_cover:
            sat.set_phases([c for part in packing.parts for c in part.cm.cover.values()])
        if hint is not None:
            phases = hint_phases(packing, hint)
            sat.set_phases(phases)
            if settings.hint_assume:
                assume = assume + [lit for lit in phases if lit > 0]
        elif settings.phase_playable:
            sat.set_phases(
                [
                    part.var(i) if part.cm.table.playable[i] else -part.var(i)
                    for part in packing.parts
                    for i in range(len(part.cm.table))
                ]
            )
        elif settings.phase_false:
            sat.set_phases(
                [-part.var(i) for part in packing.parts for i in range(len(part.cm.table))]
            )
        while True:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            sat.conf_budget(settings.chunk)
            answer = sat.solve_limited(assumptions=assume)
            stats["solves"] += 1
            if answer is None:
                continue
            if answer is False:
                core = set(sat.get_core() or [])
                dropped = [g for g in assume if g in core]
                if not dropped:
                    status = "infeasible"
                    break
                if settings.drop_one:
                    dropped = [dropped[int(rng.integers(len(dropped)))]]
                assume = [g for g in assume if g not in dropped]
                stats["relaxed"] += len(dropped)
                if settings.trace is not None:
                    seconds = round(time.perf_counter() - started, 2)
                    settings.trace.append(("core", seconds, len(core), len(assume)))
                continue
            stats["models"] += 1
            found, candidate = _cuts(problem, packing, sat.get_model(), settings)
            if not found:
                status, layout = "solved", candidate
                break
            stats["islands"] += found
            if settings.trace is not None:
                settings.trace.append(("islands", round(time.perf_counter() - started, 2), found))
            for clause in packing.clauses:
                sat.add_clause(clause)
            packing.clauses = []
    stats["wall"] = round(time.perf_counter() - started, 3)
    return BackendResult(cast(Any, status), layout, None, stats)


def repair_state(problem: Problem, seed: int, seconds: float) -> Layout:
    """The best state of one repair-search run (:mod:`solver.backends.repair.repairer`) after
    ``seconds``: a legal layout with some pieces left."""
    run = repair.Repairer(problem, seed, threading.Event(), time.perf_counter() + seconds)
    run.run()
    assert run.best is not None
    print(f"repair state: {run.best.cost} squares left", flush=True)
    return run.layout(run.best)


def cpsat_variant(
    problem: Problem, options: SolveOptions, variant: str, hint: Layout | None
) -> BackendResult:
    """:func:`solver.backends.cpsat.solving.solve` with one of the ``--cpsat`` variants."""

    def constrain(built: cpsat.BuiltModel) -> None:
        model = built.model
        if variant == "hard":
            for i in model.proto.objective.vars:
                model.add(model.get_bool_var_from_proto_index(i) == 0)
        if hint is not None:
            for cm in built.colours:
                wanted = {p.squares for p in hint.get(cm.name, [])}
                for i in range(len(cm.table)):
                    model.add_hint(cm.x[i], cm.table.placement(i).squares in wanted)

    stop = variant == "stop"
    raw = cpsat_solving.solve(problem, options, constrain=constrain, first_solution=stop)
    if raw.status == "infeasible" and variant == "hard":  # not a proof: steering is no rule
        raw = BackendResult("unknown", None, None, raw.stats)
    return raw


def joint_problems(after: list[int], games: int) -> list[tuple[str, Problem]]:
    """``check --together`` as a problem: every colour with pieces left of the first
    ``games`` games of ``tests/data/games`` (:data:`real_games.GAMES`), after each number
    of placements in ``after``."""
    from real_games import GAMES, checked_positions  # beside this script

    found: dict[tuple[Path, int], tuple[Any, list[str]]] = {}
    for path, n, position, state in checked_positions(GAMES, 10):
        if n in after:
            found.setdefault((path, n), (position, []))[1].append(state.name)
    keep = sorted({path for path, _ in found})[:games]
    return [
        (f"{path.stem}@{n}", Problem(position, tuple(colours), "place-all"))
        for (path, n), (position, colours) in found.items()
        if path in keep
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", type=Path)
    parser.add_argument(
        "--joint",
        metavar="N,N",
        help="also the joint checks of the first --games real games after N placements",
    )
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=["sat", "cpsat"], default="sat")
    parser.add_argument("--no-steer", action="store_true")
    parser.add_argument("--phase", choices=["false", "cover", "playable", "none"], default="false")
    parser.add_argument("--repair-hint", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--assume-hint", action="store_true")
    parser.add_argument("--drop-one", action="store_true")
    parser.add_argument("--chunk", type=int, default=4000)
    parser.add_argument("--cpsat", choices=["base", "hard", "stop", "hint"], default="base")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument(
        "--no-support", action="store_true", help="local corner support added lazily"
    )
    args = parser.parse_args(argv)
    settings = Settings(
        steer=not args.no_steer,
        phase_false=args.phase == "false",
        phase_cover=args.phase == "cover",
        phase_playable=args.phase == "playable",
        hint_assume=args.assume_hint,
        drop_one=args.drop_one,
        chunk=args.chunk,
        trace=[] if args.trace else None,
        support=not args.no_support,
    )
    problems = [(path.stem, load_puzzle(path)) for path in args.puzzles]
    if args.joint:
        problems += joint_problems([int(n) for n in args.joint.split(",")], args.games)
    for name, problem in problems:
        options = SolveOptions(time_limit=args.limit, seed=args.seed, workers=1)
        started = time.perf_counter()
        hint = repair_state(problem, args.seed, args.repair_hint) if args.repair_hint else None
        cpu = time.process_time()
        if args.engine == "sat":
            raw = solve_here(problem, options, settings, hint)
        else:
            raw = cpsat_variant(problem, options, args.cpsat, hint)
        checked_result(problem, raw, args.engine, started)  # the rule checker
        load = os.getloadavg()[0]
        print(
            f"{name} {raw.status} {time.perf_counter() - started:.1f} s "
            f"(cpu {time.process_time() - cpu:.1f} s, load {load:.1f}) {raw.stats}",
            flush=True,
        )
        if settings.trace:
            print(settings.trace)
            settings.trace.clear()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
