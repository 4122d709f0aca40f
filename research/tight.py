"""The square-first exact search: for tight packings, where nearly every square is covered.

Where a layout leaves only a few squares empty (Gottfried's record boards: 0-5 empty squares
for 84 pieces), "every square is covered exactly once" is the strongest constraint, and the
search should branch on the most constrained uncovered square, as an exact-cover solver
does, rather than grow one colour from its attach squares (:mod:`solver.backends.search.exact`).
Every colour is placed at once: an option is a (colour, placement) pair, so tile and colour
are chosen together. Items, counters and pruning are described in
:mod:`research.tight_kernel`; the connectivity of every colour is pruned at every
node and checked exactly at the leaf.

Symmetric reduction (:func:`solve_symmetric`): with a group G of board symmetries that
permutes the colours (:func:`solver.core.colour_symmetry.colour_symmetries`), the items are
the orbits of squares and the options (representative colour r, placement p) whose images
are disjoint; h(p) goes to colour h(r). With both mirrors of an even rectangle this is
exactly Gottfried's method: no piece crosses a mirror line (it would overlap its image), so
one quadrant holds one piece of each shape, each labelled with the colour it copies. A
layout found is a real layout; but "no symmetric layout" proves nothing, so that search
answers "solved" or "unknown". :func:`solve_restarts` runs it with restarts over seeds
(Luby's sequence of node budgets, several threads): "auto" uses it for two colours that a
board symmetry swaps on an empty board (Duo, both colours: research/notes/asymmetric_attempts.md).

:func:`solve` (backend "tight"): the complete search, which proves "infeasible", raced
against the symmetric search when a symmetry applies (each in its own thread; numba
releases the GIL). Goal "place-all", without monomino-last. Pieces may be on the board
(not with the symmetric reduction): their squares are no items, a colour's options
never share an edge with its own pieces, and its connectivity flood starts from them.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from research import tight_kernel as core
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.driver import luby
from solver.backends.race import first_proven
from solver.core.board import neighbour_table
from solver.core.colour_symmetry import ColourSymmetry, colour_symmetries
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.placements import empty_board_placements
from solver.core.position import ColourState, Layout, Placement, Position
from solver.core.problem import Problem
from solver.core.rules import corner_groups
from solver.errors import InputError

NPIECES = len(PIECE_NAMES)
_SIZE = np.array([PIECES[n].size for n in PIECE_NAMES], dtype=np.int32)
#: the value order within a piece size with ``awkward_first``: the pieces a packing
#: search is most often left holding at its dead ends first (measured on duo-both: X, T5,
#: O, I4, I3; research/notes/asymmetric_attempts.md), then the rest
AWKWARD_FIRST = ("X", "T5", "I5", "W", "F", "U", "V5", "Z5", "Y", "N", "P", "L5",
                 "O", "I4", "T4", "Z4", "L4", "I3", "V3", "2", "1")  # fmt: skip
_AWKWARD_RANK = np.array([AWKWARD_FIRST.index(n) for n in PIECE_NAMES], dtype=np.int32)
_NO_RANK = np.zeros(NPIECES, dtype=np.int32)

#: nodes of the first run of :func:`solve_restarts`; later runs follow the Luby sequence
RESTART_NODES = 10_000


@dataclass
class TightSearch:
    """A built search: its arrays and how to read a layout back.

    Attributes:
        tables, state: the kernel's arrays (:mod:`research.tight_kernel`).
        reps: the representative colours (without symmetry: the played colours with
            pieces left).
        elements: the symmetry group, identity first (just the identity without one).
        cycles: per representative, its colour under each element.
        infeasible: True when no layout can exist (e.g. the empty squares do not come in
            whole orbits); the arrays are then empty.
        stats: counters for display.
    """

    tables: core.Tables | None
    state: core.State | None
    reps: tuple[str, ...]
    elements: tuple[np.ndarray, ...]
    cycles: tuple[tuple[str, ...], ...]
    placements: np.ndarray  # (O, 5) int32: each option's squares (identity image)
    pieces: np.ndarray  # (O,) int32
    infeasible: bool = False
    stats: dict[str, Any] = field(default_factory=dict)
    played: tuple[str, ...] = ()  # every played colour (those with nothing left too)

    def run(self, budget: int) -> int:
        """Run the kernel for at most ``budget`` nodes: DONE, FOUND or PAUSE."""
        if self.tables is None or self.state is None:
            return core.DONE
        return core.run_chunk(self.tables, self.state, budget)

    @property
    def nodes(self) -> int:
        return 0 if self.state is None else int(self.state.st[core.S_NODES])

    def layout(self) -> Layout:
        """The layout the kernel stopped at (after FOUND), every colour, images included."""
        assert self.state is not None
        layout: Layout = {c: [] for c in self.played}
        layout.update({c: [] for cycle in self.cycles for c in cycle})
        opts = self.state.orb_opt
        for o in sorted({int(o) for o in opts if o >= 0}):
            sq = self.placements[o]
            sq = sq[sq >= 0]
            rep = int(self.tables.opt_rep[o]) if self.tables is not None else 0
            name = PIECE_NAMES[int(self.pieces[o])]
            for h, colour in zip(self.elements, self.cycles[rep]):
                layout[colour].append(Placement(name, frozenset(int(s) for s in h[sq])))
        return layout


def refuse(problem: Problem) -> None:
    """Raise InputError when :func:`solve` cannot take ``problem`` at all (place-all
    without monomino-last or card goals, each colour with a start square or pieces on the
    board, one piece of each shape, its pieces in one group)."""
    _check_problem(problem)


def _check_problem(problem: Problem) -> None:
    if problem.goal != "place-all" or problem.monomino_last:
        raise InputError(
            "the tight backend solves place-all without monomino-last", path=problem.name or None
        )
    if problem.has_card_goals:
        raise InputError(
            "the tight backend places all pieces (no stars to cover, no groups to connect)",
            path=problem.name or None,
        )
    board = problem.position.board
    for colour in problem.colours:
        state = problem.position.colour(colour)
        if state.start is None and not state.placed:
            raise InputError(
                f"colour {colour} has no start square and no piece on the board",
                path=problem.name or None,
            )
        if len(set(state.remaining)) < len(state.remaining):
            raise InputError(
                f"the tight backend takes one piece of each shape ({colour} has two)",
                path=problem.name or None,
            )
        if len(corner_groups(board, state.placed)) > 1:
            raise InputError(
                f"the tight backend grows each colour from one group ({colour}'s pieces "
                "on the board are apart)",
                path=problem.name or None,
            )


def build(
    problem: Problem,
    symmetry: ColourSymmetry | None = None,
    seed: int = 0,
    scan: bool = False,
    attach: bool = False,
    awkward_first: bool = False,
) -> TightSearch:
    """The search's arrays for a problem, with the symmetric reduction by ``symmetry`` (a
    group from :func:`solver.core.colour_symmetry.colour_symmetries`) or without one.

    ``seed`` > 0 shuffles the value order within each piece size (largest pieces first)
    and the order in which ties between equally constrained items are broken. ``scan``:
    branch on a forced or dead item if there is one, else on the first uncovered orbit in
    row-major order of its first square (instead of the item with the fewest choices).
    ``attach``: grow each colour from its start as the Blokus-aware search does (branch on
    the attach square with the fewest live options: each of them, then "never covered by
    that colour"); an item with one choice left is taken first, one with none prunes; once
    every piece is placed, the empty orbits by fewest choices. ``awkward_first``: within a
    piece size, the pieces of :data:`AWKWARD_FIRST` in that order (before the seed's
    shuffle).

    Raises:
        InputError: the problem is not one the tight search takes (:func:`solve`), or
            pieces are on the board and ``symmetry`` is given.
    """
    _check_problem(problem)
    position = problem.position
    board = position.board
    nsq = board.size
    if position.occupied and symmetry is not None:
        raise InputError(
            "the symmetric square-first search starts from an empty board",
            path=problem.name or None,
        )
    if symmetry is None:
        elements: tuple[np.ndarray, ...] = (np.arange(nsq, dtype=np.int32),)
        playing = [c for c in problem.colours if position.colour(c).remaining]
        cycles: tuple[tuple[str, ...], ...] = tuple((c,) for c in playing)
    else:
        elements, cycles = symmetry.elements, symmetry.cycles
    reps = tuple(cycle[0] for cycle in cycles)
    g = len(elements)
    perms = np.stack(elements)  # (G, N)

    # orbits: whole ones are items; a smaller one (a square some h != id fixes) is empty
    blocked = board.blocked_mask.copy()
    blocked[list(position.occupied)] = True  # pieces on the board: no orbit, never covered
    orbit_of = perms.min(axis=0)  # the smallest square of each orbit names it
    orbit_size = np.array([len(set(perms[:, s].tolist())) for s in range(nsq)])
    whole = (orbit_size == g) & ~blocked
    names = np.unique(orbit_of[whole])
    sq_orb = np.full(nsq, -1, dtype=np.int32)
    sq_orb[whole] = np.searchsorted(names, orbit_of[whole])
    m = len(names)
    area = sum(position.colour(c).remaining_squares for c in problem.colours)
    spare = int(whole.sum()) - area  # squares left empty among whole orbits
    colour_index = {c: i for i, c in enumerate(position.colour_names)}
    start_owner = np.full(nsq, -1, dtype=np.int32)
    for c in (c for cycle in cycles for c in cycle):  # (the colours with pieces left)
        if not position.colour(c).placed:  # (a colour with pieces grows from them)
            start_owner[position.colour(c).start] = colour_index[c]
    on_board = _on_board(position, reps, nsq)  # (R, N): r's squares already on the board
    edge = neighbour_table(board.edge_neighbours, 4, pad_row=True)
    stats: dict[str, Any] = {"symmetry": "none" if symmetry is None else symmetry.name}
    taken = [
        c for c in reps if not position.colour(c).placed and sq_orb[position.colour(c).start] < 0
    ]
    if spare < 0 or spare % g or taken:
        stats["reason"] = (
            f"{taken[0]}'s start square is taken"
            if taken
            else f"{spare} empty squares do not make whole orbits of {g}"
        )
        return TightSearch(None, None, reps, elements, cycles, np.zeros((0, 5), np.int32),
                           np.zeros(0, np.int32), True, stats, problem.colours)  # fmt: skip

    table = empty_board_placements(board.rows, board.cols)
    opt_sq, opt_piece, opt_rep = [], [], []
    for r, rep in enumerate(reps):
        left = np.zeros(NPIECES, dtype=bool)
        left[[PIECES[p].index for p in position.colour(rep).remaining]] = True
        sq = table.squares[left[table.piece]]
        piece = table.piece[left[table.piece]]
        valid = sq >= 0
        ok = np.ones(len(sq), dtype=bool)
        safe = np.where(valid, sq, 0)
        ok &= np.where(valid, sq_orb[safe] >= 0, True).all(axis=1)
        images = perms[:, safe]  # (G, P, 5)
        for k in range(g):
            colour = colour_index[cycles[r][k]]
            owner = start_owner[images[k]]
            ok &= np.where(valid, (owner < 0) | (owner == colour), True).all(axis=1)
        # the images are disjoint: the orbits of p's squares are distinct
        orbs = np.where(valid, sq_orb[safe], -1 - np.arange(5)[None, :])
        orbs.sort(axis=1)
        ok &= (np.diff(orbs, axis=1) != 0).all(axis=1)
        # never an edge with the colour's own pieces on the board
        nb = edge[sq].reshape(len(sq), 5 * edge.shape[1])  # (-1 indexes the padding row)
        ok &= ~np.where(nb >= 0, on_board[r][np.where(nb >= 0, nb, 0)], False).any(axis=1)
        opt_sq.append(sq[ok])
        opt_piece.append(piece[ok].astype(np.int32))
        opt_rep.append(np.full(int(ok.sum()), r, dtype=np.int32))
    placements = np.concatenate(opt_sq).astype(np.int32)
    pieces = np.concatenate(opt_piece)
    reps_of = np.concatenate(opt_rep)
    n_opt = len(pieces)
    # value order: largest piece first, then shuffled by the seed
    rng = np.random.default_rng(seed)
    tie = rng.random(n_opt) if seed else np.arange(n_opt) / max(n_opt, 1)
    rank = _AWKWARD_RANK if awkward_first else _NO_RANK
    order = np.lexsort((tie, rank[pieces], -_SIZE[pieces]))
    placements, pieces, reps_of = placements[order], pieces[order], reps_of[order]

    valid = placements >= 0
    opt_orb = np.where(valid, sq_orb[np.where(valid, placements, 0)], -1).astype(np.int32)
    opt_pitem = (m + reps_of * NPIECES + pieces).astype(np.int32)
    opt_nb = _edge_neighbours(placements, edge)
    n_items = m + len(reps) * NPIECES
    item_keys = np.concatenate([opt_orb[valid], opt_pitem])
    item_opts = np.concatenate([np.nonzero(valid)[0], np.arange(n_opt)])
    item_ptr, item_idx = _csr(item_keys, item_opts, n_items)
    rs_keys = (reps_of[:, None] * nsq + np.where(valid, placements, 0))[valid]
    rs_ptr, rs_idx = _csr(rs_keys, np.nonzero(valid)[0], len(reps) * nsq)
    noempty = np.zeros(m, dtype=np.int8)
    noempty[sq_orb[start_owner >= 0]] = 1
    king = neighbour_table(
        tuple(a + b for a, b in zip(board.edge_neighbours, board.corner_neighbours)), 8
    )
    tables = core.Tables(
        opt_orb,
        opt_pitem,
        reps_of.astype(np.int32),
        placements,
        opt_nb,
        item_ptr,
        item_idx,
        rs_ptr,
        rs_idx,
        noempty,
        sq_orb,
        king,
        np.array([_root(position.colour(c)) for c in reps], dtype=np.int32),
        np.array([m], dtype=np.int64),
        np.stack([np.nonzero(sq_orb == t)[0] for t in range(m)]).astype(np.int32)
        if m
        else np.zeros((0, g), dtype=np.int32),
        (rng.permutation(n_items) if seed and not scan else np.arange(n_items)).astype(np.int32),
        np.array([_branch(scan, attach)], dtype=np.int64),
    )
    state = _initial_state(tables, n_items, len(reps), nsq, m, spare // g)
    _own_pieces_on_board(state, on_board, edge)
    for r, rep in enumerate(reps):  # pieces a colour does not have are no items
        has = {PIECES[p].index for p in position.colour(rep).remaining}
        for k in range(NPIECES):
            state.done[m + r * NPIECES + k] = k not in has
    stats.update(options=n_opt, orbits=m, empty_orbits=spare // g)
    return TightSearch(
        tables, state, reps, elements, cycles, placements, pieces, False, stats, problem.colours
    )


def _on_board(position: Position, reps: tuple[str, ...], nsq: int) -> np.ndarray:
    """(R, N) bool: the squares each representative colour covers on the board."""
    own = np.zeros((len(reps), nsq), dtype=bool)
    for r, rep in enumerate(reps):
        own[r, list(position.colour(rep).squares)] = True
    return own


def _root(state: ColourState) -> int:
    """Where a colour's connectivity flood starts: its start square, or with pieces on the
    board one of their squares (they are corner-connected to the start already)."""
    if state.placed:
        return min(state.squares)
    assert state.start is not None  # (_check_problem)
    return state.start


def _own_pieces_on_board(state: core.State, on_board: np.ndarray, edge: np.ndarray) -> None:
    """The colours' pieces on the board as the kernel's own squares: the flood passes
    through them, and the squares sharing an edge with them are forbidden to their colour
    (its options there were left out by :func:`build`)."""
    for r in range(on_board.shape[0]):
        squares = np.flatnonzero(on_board[r])
        state.own[r, squares] = 1
        state.nown[r] = len(squares)
        nb = edge[squares].ravel()
        np.add.at(state.forbid[r], nb[nb >= 0], 1)


def _edge_neighbours(placements: np.ndarray, edge: np.ndarray) -> np.ndarray:
    """(O, 12) int32: the squares sharing an edge with each placement (of ``placements``,
    (O, 5) padded with -1; ``edge`` from :func:`neighbour_table` with ``pad_row``), each
    once, padded with -1 at the end of the row (a pentomino has at most 12)."""
    cand = edge[placements].reshape(len(placements), 5 * edge.shape[1])  # padding gives -1
    cand[(cand[:, :, None] == placements[:, None, :]).any(axis=2)] = -1  # its own squares
    cand.sort(axis=1)
    cand[:, 1:][cand[:, 1:] == cand[:, :-1]] = -1  # repeats
    return -np.sort(-cand, axis=1)[:, :12].astype(np.int32)  # descending: padding last


def _branch(scan: bool, attach: bool) -> int:
    if attach:
        return core.BRANCH_ATTACH
    return core.BRANCH_SCAN if scan else core.BRANCH_FEWEST


def _csr(keys: np.ndarray, values: np.ndarray, n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR arrays of ``values`` grouped by ``keys`` (stable: values keep their order)."""
    order = np.argsort(keys, kind="stable")
    counts = np.bincount(keys, minlength=n_keys)
    ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return ptr, values[order].astype(np.int32)


def _initial_state(
    tables: core.Tables, n_items: int, n_reps: int, nsq: int, m: int, empty_orbits: int
) -> core.State:
    live = np.diff(tables.item_ptr).astype(np.int32)
    depth = n_items + n_reps * nsq + 1  # exclusions of attach squares are frames too
    st = np.zeros(core.N_SCALARS, dtype=np.int64)
    st[core.S_EMPTY] = empty_orbits
    st[core.S_UNCOV] = m
    return core.State(
        np.zeros(len(tables.opt_rep), dtype=np.int32),
        live,
        np.zeros(n_items, dtype=np.int8),
        np.full(m, core.UNCOVERED, dtype=np.int32),
        np.zeros((n_reps, nsq), dtype=np.int32),
        np.zeros((n_reps, nsq), dtype=np.int8),
        np.zeros(n_reps, dtype=np.int64),
        np.zeros(depth, dtype=np.int32),
        np.zeros(depth, dtype=np.int32),
        np.zeros(depth, dtype=np.int32),
        np.zeros(nsq, dtype=np.int64),
        np.full(nsq, -1, dtype=np.int64),
        np.zeros(nsq, dtype=np.int32),
        st,
    )


def run(
    search: TightSearch,
    time_limit: float | None,
    stop: Cancel | None = None,
    started: float | None = None,
    max_nodes: int | None = None,
) -> int:
    """Run the kernel in chunks of about 50 ms until it ends, the time is up, ``stop`` is
    set or it has searched ``max_nodes`` nodes in all: DONE, FOUND or PAUSE."""
    started = time.perf_counter() if started is None else started
    budget = 200
    while True:
        if max_nodes is not None:
            budget = min(budget, max_nodes - search.nodes)
            if budget <= 0:
                return core.PAUSE
        t0 = time.perf_counter()
        code = search.run(budget)
        now = time.perf_counter()
        if code != core.PAUSE:
            return code
        if time_limit is not None and now - started >= time_limit:
            return code
        if stop is not None and stop.is_set():
            return code
        budget = int(min(max(budget * 0.05 / max(now - t0, 1e-4), 50), 2_000_000))


def _result(search: TightSearch, code: int, seconds: float, proves: bool) -> BackendResult:
    stats = dict(search.stats, nodes=search.nodes, seconds=round(seconds, 3))
    if code == core.FOUND:
        return BackendResult("solved", search.layout(), None, stats, "tight")
    if code == core.DONE and proves:
        return BackendResult("infeasible", None, None, stats, "tight")
    if code == core.DONE:
        stats["unknown_reason"] = f"no layout is symmetric under the {search.stats['symmetry']}"
    return BackendResult("unknown", None, None, stats, "tight")


def solve_complete(
    problem: Problem,
    options: SolveOptions = SolveOptions(),
    cancel: Cancel | None = None,
    attach: bool = False,
) -> BackendResult:
    """The complete square-first search, no symmetry: "solved", "infeasible" (the tree was
    exhausted) or "unknown" (time limit). ``attach``: branch as :func:`build` says."""
    started = time.perf_counter()
    if not any(problem.position.colour(c).remaining for c in problem.colours):
        _check_problem(problem)
        return BackendResult("solved", {c: [] for c in problem.colours}, None, {}, "tight")
    search = build(problem, None, options.seed, attach=attach)
    code = core.DONE if search.infeasible else run(search, options.time_limit, cancel, started)
    return _result(search, code, time.perf_counter() - started, proves=True)


def solve_symmetric(
    problem: Problem,
    options: SolveOptions = SolveOptions(),
    cancel: Cancel | None = None,
    symmetry: ColourSymmetry | None = None,
    scan: bool = False,
    attach: bool = False,
) -> BackendResult:
    """The square-first search on the symmetric reduction by ``symmetry`` (default: the
    best of :func:`colour_symmetries`): "solved" or "unknown", never "infeasible".

    Raises:
        InputError: no board symmetry permutes the played colours.
    """
    started = time.perf_counter()
    if symmetry is None:
        found = colour_symmetries(problem)
        if not found:
            raise InputError(
                "no board symmetry maps this problem onto itself with the colours permuted",
                path=problem.name or None,
            )
        symmetry = found[0]
    search = build(problem, symmetry, options.seed, scan, attach)
    code = core.DONE if search.infeasible else run(search, options.time_limit, cancel, started)
    return _result(search, code, time.perf_counter() - started, proves=False)


def restarts_apply(problem: Problem) -> bool:
    """:func:`solve_restarts` takes the problem: two colours that a board symmetry swaps,
    an empty board (blocked squares allowed), every colour with a start square, place-all
    without monomino-last (e.g. Duo, both colours, from e10 and j5)."""
    try:
        _check_problem(problem)
    except InputError:
        return False
    if problem.position.occupied:
        return False
    return len(problem.colours) == 2 and bool(colour_symmetries(problem))


def solve_restarts(
    problem: Problem,
    options: SolveOptions = SolveOptions(),
    cancel: Cancel | None = None,
    base_nodes: int = RESTART_NODES,
) -> BackendResult:
    """The symmetric square-first search (best symmetry of :func:`colour_symmetries`, fewest
    branching, :data:`AWKWARD_FIRST` value order) with restarts: run k (k = 1, 2, ...) has
    seed ``options.seed + k - 1`` and ``base_nodes * luby(k)`` nodes; ``options.workers``
    threads (at most 8) share the runs. Its dead ends are heavy-tailed: on duo-both most
    seeds find nothing in 30,000 nodes while some find a layout in 3,000-21,000
    (research/notes/asymmetric_attempts.md). "solved" or "unknown", never "infeasible" (a run that
    exhausts its tree shows only that no symmetric layout exists, and the answer is then
    "unknown" at once).

    Raises:
        InputError: not a problem :func:`restarts_apply` accepts.
    """
    if not restarts_apply(problem):
        raise InputError(
            "restarts need two colours swapped by a board symmetry on an empty board, "
            "place-all without monomino-last",
            path=problem.name or None,
        )
    started = time.perf_counter()
    symmetry = colour_symmetries(problem)[0]
    threads = max(1, min(options.workers, 8))
    lock = threading.Lock()
    counter = {"run": 0, "nodes": 0}

    def stream(stop: Cancel) -> BackendResult:
        while True:
            with lock:
                counter["run"] += 1
                k = counter["run"]
            search = build(problem, symmetry, options.seed + k - 1, awkward_first=True)
            code = run(search, options.time_limit, stop, started, base_nodes * luby(k))
            with lock:
                counter["nodes"] += search.nodes
            if code != core.PAUSE or stop.is_set():
                break
            left = _seconds_left(options.time_limit, started)
            if left is not None and left <= 0:
                break
        result = _result(search, code, time.perf_counter() - started, proves=False)
        return dataclasses.replace(result, stats=dict(result.stats, restarts=k))

    results, winner = first_proven(
        [stream] * threads, lambda r: r.status == "solved" or "unknown_reason" in r.stats, cancel
    )
    result = results[0 if winner is None else winner]
    stats = dict(result.stats, runs=counter["run"], nodes=counter["nodes"], threads=threads)
    return dataclasses.replace(result, stats=stats)


def _seconds_left(time_limit: float | None, started: float) -> float | None:
    return None if time_limit is None else time_limit - (time.perf_counter() - started)


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Backend "tight": the complete search (:func:`solve_complete`), raced against the
    symmetric one (:func:`solve_symmetric`) when a board symmetry permutes the colours; the
    first layout or proof wins.

    Raises:
        InputError: not place-all without monomino-last, card goals, a colour with
            neither a start square nor pieces on the board, with two pieces of one shape
            (Junior), or with pieces on the board in more than one corner-connected group.
    """
    _check_problem(problem)
    entrants: list[Callable[[Cancel], BackendResult]] = [
        lambda stop: solve_complete(problem, options, stop)
    ]
    left = all(problem.position.colour(c).remaining for c in problem.colours)
    if left and not problem.position.occupied and colour_symmetries(problem):
        entrants.append(lambda stop: solve_symmetric(problem, options, stop))
    if len(entrants) == 1:
        return entrants[0](cancel)  # type: ignore[arg-type]
    results, winner = first_proven(entrants, lambda r: r.status in ("solved", "infeasible"), cancel)
    return results[0 if winner is None else winner]
