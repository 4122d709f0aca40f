"""The fundamental-domain search: Gottfried's quadrant method as a fast scan-order tiling.

With a group G of board symmetries that permutes the colours freely
(:func:`solver.core.colour_symmetry.colour_symmetries`), a symmetric layout is fixed by one
*fundamental domain*: one square of each orbit. With both mirrors of an 18x20 board the
domain is a 9x10 quadrant holding one piece of each of the 21 shapes, each labelled with
the colour it copies (a mirror never cuts a piece: it would overlap its own image); with
the quarter turn of 19x19 it is a 90-square pinwheel arm (the centre stays empty); with the
half turn of a two-colour board, half the board. Tile and label are chosen together, in
scan order, by the compiled kernel :mod:`solver.backends.domain.kernel` (its docstring
gives the rules it keeps). Every colour's copy of the domain follows from the labels, so
one contact graph per colour orbit decides the connectivity of all its colours. A square
that shares an edge with every colour that still has pieces can only stay empty (the
dead-square prune: on two colours, a square between both); it cuts the two-colour trees
most (on random two-colour halves it reaches layouts in far fewer nodes:
``python -m research.benchmarks.domain_prunes dead``, figures in docs/benchmarks.md).

Why our own kernel: the tiling and its Blokus labels are the core of this project, and a
scan-order bitboard search runs a few hundred times more nodes per second than the
counter-based exact cover of the retired square-first search (``research/tight.py``: it
branches better but pays for thousands of counter updates per node), which found no 18x20
layout where this one finds them (the figures: research/notes/record_attempts.md,
docs/records.md).

The tables come from the board's geometry (cells numbered 0..N-1, the board's edge and
corner neighbour lists, the placements of :func:`solver.core.placements.board_placements`,
the piece family's names and sizes), so the same search runs on Blokus Trigon's triangles
(issue 43): 22 pieces of up to 6 triangles, 3 edge and 9 corner neighbours, the hexagon's
12 symmetries, no rectangular domain (each orbit's first cell, :func:`_narrowest_reps`).
There the colours with no piece yet share six starting points; each class of assignments
of free ones to them that a colour symmetry maps onto itself is a search of its own
(:func:`ways`, :func:`solver.core.shared_starts.symmetric_starts`, as the ``symmetric``
backend). On squares the tables are those the square-only code built, byte for byte
(tests/test_trigon_domain.py).

The search is randomised (option and label order per seed) and restarted with Luby's
sequence of node budgets, because its dead ends are heavy-tailed. It answers "solved" or
"unknown": a tree exhausted shows only that no layout with this symmetry exists.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.backends import driver
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.domain import kernel as core
from solver.backends.race import first_proven
from solver.core.board import Board
from solver.core.colour_symmetry import ColourSymmetry, colour_symmetries
from solver.core.pieces import family
from solver.core.placements import board_placements
from solver.core.position import Layout, Placement
from solver.core.problem import Problem
from solver.core.shared_starts import symmetric_starts, unstarted
from solver.core.symmetry import group_tables
from solver.errors import InputError

_ABSENT = core.ABSENT  # the size given to a slot with no option (a piece the colour lacks)
#: nodes of the first run of :func:`solve`; later runs follow the Luby sequence
RESTART_NODES = 200_000


@dataclass
class Orbits:
    """The board's squares under a group: whole orbits (one square per element) in scan
    order; squares in a smaller orbit must stay empty.

    Attributes:
        rep: (M,) int32, each orbit's representative (its square in the fundamental
            domain), in scan order.
        orbit: (N,) int32, each square's orbit, -1 for a square some element other than the
            identity fixes (or a blocked one).
        elem: (N,) int32, the element k with ``square = elements[k][rep[orbit]]``.
    """

    rep: np.ndarray
    orbit: np.ndarray
    elem: np.ndarray

    @property
    def count(self) -> int:
        """M, the number of whole orbits."""
        return len(self.rep)


#: scan orders: the key of a representative square (row r, column c) on an R x C board
SCANS = {
    "rows": lambda r, c, rows, cols: r * cols + c,
    "columns": lambda r, c, rows, cols: c * rows + r,
    "rows-reversed": lambda r, c, rows, cols: -(r * cols + c),
    "columns-reversed": lambda r, c, rows, cols: -(c * rows + r),
}


def orbits(
    board: Board,
    elements: tuple[np.ndarray, ...],
    scan: str = "auto",
    shape: tuple[int, int] | None = None,
) -> Orbits:
    """The whole orbits of ``board``'s free squares under ``elements`` (identity first).

    Each orbit's representative is its square in the fundamental domain: the top-left
    ``shape`` rectangle (rows, columns) when given, else the most nearly square top-left
    rectangle that holds one square of every whole orbit (:func:`domain_shapes`; the
    9x10 quadrant of 18x20 under both mirrors, the 9x10 pinwheel arm of 19x19 under the
    quarter turn), else each orbit's first square in row-major or column-major order,
    whichever part of the board is narrower (:func:`_narrowest_reps`). Orbits are
    numbered in the ``scan`` order (:data:`SCANS`) of their representatives; "auto":
    along the shorter side of the domain (a shorter scan front: several times fewer nodes;
    the scan-order table of research/notes/record_attempts.md).

    Raises:
        ValueError: ``shape`` is not a fundamental domain of the whole orbits.
        KeyError: ``scan`` is not "auto" or a name in :data:`SCANS`.
    """
    nsq = board.size
    smallest, whole = _whole_orbits(board, elements)
    names = np.unique(smallest[whole])
    shapes = domain_shapes(board, elements)
    if shape is not None and shape not in shapes:
        raise ValueError(f"{shape[0]}x{shape[1]} is not a fundamental domain of {board}")
    shape = shape or (min(shapes, key=lambda ab: (abs(ab[0] - ab[1]), ab)) if shapes else None)
    r_all, c_all = _row_col(board)
    if shape is None:
        rep = _narrowest_reps(board, smallest, whole, names)
    else:
        inside = whole & (r_all < shape[0]) & (c_all < shape[1])
        rep = np.nonzero(inside)[0].astype(np.int32)
    r, c = r_all[rep], c_all[rep]
    if scan == "auto":  # along the shorter side of the domain: a short scan front
        scan = "columns" if np.ptp(r) < np.ptp(c) else "rows"
    rep = rep[np.argsort(SCANS[scan](r, c, board.rows, board.cols), kind="stable")]
    position = np.full(nsq, -1, dtype=np.int32)
    position[smallest[rep]] = np.arange(len(rep))
    orbit = np.full(nsq, -1, dtype=np.int32)
    orbit[whole] = position[smallest[whole]]
    elem = np.full(nsq, -1, dtype=np.int32)
    for k, h in enumerate(elements):
        images = h[rep]
        elem[images] = np.where(elem[images] < 0, k, elem[images])
    return Orbits(rep, orbit, elem)


def _narrowest_reps(
    board: Board, smallest: np.ndarray, whole: np.ndarray, names: np.ndarray
) -> np.ndarray:
    """Without a rectangular domain: each orbit's first square in row-major order (a top
    part of the board) or in column-major order (a left part), whichever part has the
    shorter short side, so that the scan front along it is short (the half turn of 21x17:
    the left 8.5 columns, 9 wide, not the top 10.5 rows; a tie keeps the top part)."""
    rows_first = names.astype(np.int32)
    r, c = _row_col(board)
    key = np.where(whole, c * board.rows + r, np.iinfo(np.int64).max)
    order = np.argsort(key, kind="stable")
    _, first = np.unique(smallest[order][whole[order]], return_index=True)
    cols_first = np.sort(order[whole[order]][first]).astype(np.int32)

    def short_side(rep: np.ndarray) -> int:
        rr, cc = r[rep], c[rep]
        return int(min(np.ptp(rr), np.ptp(cc)))

    return cols_first if short_side(cols_first) < short_side(rows_first) else rows_first


def domain_shapes(board: Board, elements: tuple[np.ndarray, ...]) -> list[tuple[int, int]]:
    """The top-left rectangles (rows, columns) that hold exactly one square of every whole
    orbit of ``board`` under ``elements`` and no other square: the rectangular fundamental
    domains, e.g. [(9, 10)] for both mirrors of 18x20, [(5, 18), (10, 9)] for the half turn
    of 10x18; none on a grid other than squares (Trigon's triangles: each orbit's first
    cell then, :func:`_narrowest_reps`)."""
    if not board.square_grid:
        return []
    smallest, whole = _whole_orbits(board, elements)
    count = len(np.unique(smallest[whole]))
    grid = whole.reshape(board.rows, board.cols)
    names = smallest.reshape(board.rows, board.cols)
    out = []
    for a in range(1, board.rows + 1):
        if count % a or count // a > board.cols:
            continue
        b = count // a
        if grid[:a, :b].all() and len(np.unique(names[:a, :b])) == count:
            out.append((a, b))
    return out


def _row_col(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(N,) the row and (N,) the column of each cell: of the square grid, or of the naming
    rectangle on another grid (Trigon: its cells numbered row by row from the top too, so
    row-major order is cell order there as well)."""
    if board.square_grid:
        rows, cols = np.divmod(np.arange(board.size), board.cols)
        return rows, cols
    coords = np.asarray(board.geometry.coords)
    return coords[:, 1], coords[:, 0]


def _whole_orbits(board: Board, elements: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(N,) the smallest square of each square's orbit, and (N,) bool: the square is free
    and its orbit has one square per element (no element but the identity fixes it)."""
    perms = np.stack(elements)
    size = np.array([len(set(perms[:, s].tolist())) for s in range(board.size)])
    return perms.min(axis=0), (size == len(elements)) & ~board.blocked_mask


@dataclass
class DomainSearch:
    """A built search: the kernel's tables and state, and how to read a layout back."""

    tables: core.Tables
    state: core.State
    symmetry: ColourSymmetry
    placements: np.ndarray  # (O, k) int32: each option's cells, padded with -1 (k: 5, 6)
    pieces: np.ndarray  # (O,) int32: its shape index (in ``names``)
    anchors: np.ndarray  # (O,) int32: its first orbit in scan order (options sorted by it)
    stats: dict[str, Any]
    fresh: core.State  # the state before the first node
    names: tuple[str, ...]  # the piece family's names (21 on squares, 22 on Trigon)

    def reseed(self, seed: int | tuple[int, ...]) -> None:
        """Start again from the root with the value order of ``seed`` (see :func:`build`;
        a tuple, e.g. (seed, thread, run), seeds NumPy's generator with all its entries:
        independent streams)."""
        sizes = (self.placements >= 0).sum(axis=1)
        lab_order, anc_idx = _value_order(self.anchors, sizes, len(self.tables.mul), seed)
        self.tables = self.tables._replace(lab_order=lab_order, anc_idx=anc_idx)
        self.state = self.fresh.copy()

    def copy(self) -> DomainSearch:
        """The same search with its own state (the read-only tables shared), at its root."""
        return dataclasses.replace(self, state=self.fresh.copy(), stats=dict(self.stats))

    def run(self, budget: int) -> int:
        """Run the kernel for at most ``budget`` (>= 1) more nodes (pieces and empty orbits
        placed): DONE, FOUND or PAUSE; a PAUSE resumes exactly where it stopped."""
        return int(core.run(self.tables, self.state, budget))

    @property
    def deepest(self) -> int:
        """The most pieces and empty orbits the run has had placed at once."""
        return int(self.state.st[core.S_DEEPEST])

    @property
    def nodes(self) -> int:
        """Nodes since the last (re)seed: pieces and empty orbits placed."""
        return int(self.state.st[core.S_NODES])

    def layout(self) -> Layout:
        """The layout after FOUND: every colour of every orbit, all images."""
        used, slot_opt, slot_lab = self.state.used, self.state.slot_opt, self.state.slot_lab
        sym = self.symmetry
        mul, _ = group_tables(sym.elements)
        layout: Layout = {c: [] for cycle in sym.cycles for c in cycle}
        nps = len(self.names)
        for slot, o in enumerate(slot_opt):
            if not used[slot]:
                continue
            cycle = sym.cycles[slot // nps]
            squares = self.placements[o]
            squares = squares[squares >= 0]
            name = self.names[int(self.pieces[o])]
            for m, h in enumerate(sym.elements):
                colour = cycle[int(mul[m, slot_lab[slot]])]
                layout[colour].append(Placement(name, frozenset(int(s) for s in h[squares])))
        return layout


def check_problem(problem: Problem) -> None:
    """Raise InputError unless the domain search takes ``problem``: place-all without
    monomino-last or card goals, an empty board, each colour with a start square (or, on a
    board of shared starting points such as Trigon's, none yet: it gets one,
    :func:`ways`) and one of each of its pieces left, and a symmetry
    (:func:`colour_symmetries`; with shared starting points, under some assignment of them:
    :func:`solver.core.shared_starts.symmetric_starts`)."""
    where = problem.name or None
    asked = [f"goal {problem.goal}"] if problem.goal != "place-all" else []
    asked += ["monomino-last"] if problem.monomino_last else []
    asked += ["cover or connect"] if problem.has_card_goals else []
    if asked:
        raise InputError(
            "the domain backend takes goal place-all without monomino-last, cover or "
            f"connect (this puzzle asks for {', '.join(asked)})",
            path=where,
        )
    if problem.position.occupied:
        raise InputError("the domain backend starts from an empty board", path=where)
    idle = unstarted(problem)
    for colour in problem.colours:
        state = problem.position.colour(colour)
        no_start = state.start is None and colour not in idle
        if no_start or len(set(state.remaining)) < len(state.remaining):
            raise InputError(
                f"the domain backend needs a start square and one piece of each shape ({colour})",
                path=where,
            )
    if not (symmetric_starts(problem) if idle else colour_symmetries(problem)):
        n = len(problem.colours)
        played = "1 colour" if n == 1 else f"{n} colours, but no board symmetry maps them"
        raise InputError(
            "the domain backend needs two or more colours that a board symmetry permutes "
            f"onto each other (this puzzle plays {played})",
            path=where,
        )


def refuse(problem: Problem) -> None:
    """Raise InputError when :func:`solve` cannot take ``problem`` at all:
    :func:`check_problem`, or no symmetry leaves whole orbits of empty squares."""
    check_problem(problem)
    symmetries(problem)


#: ``auto`` runs this search on three or four colours only where its first symmetry leaves
#: at most this many empty orbits: on a tight board (four-18x20: 1) it found layouts where
#: CP-SAT's reduction found none; on a loose one (asym-classic-84: 11) CP-SAT's reduction
#: and the repair search are what was measured (the figures, with the commands:
#: docs/records.md and research/notes/record_attempts.md)
TIGHT_EMPTY_ORBITS = 2


def empty_orbits(problem: Problem, symmetry: ColourSymmetry) -> int | None:
    """How many orbits of empty squares a layout with ``symmetry`` has, or None when the
    search cannot take the symmetry (the empty squares do not make whole orbits, more than
    3 orbits of colours, or a start square some element fixes)."""
    board = problem.position.board
    orb = orbits(board, symmetry.elements)
    area = sum(problem.position.colour(c).remaining_squares for c in problem.colours)
    spare = orb.count * symmetry.order - area
    starts = [problem.position.colour(cycle[0]).start for cycle in symmetry.cycles]
    if spare < 0 or spare % symmetry.order or len(symmetry.cycles) > 3:
        return None
    if any(st is None or orb.orbit[st] < 0 for st in starts):
        return None
    return spare // symmetry.order


def applies(problem: Problem, max_empty_orbits: int | None = None) -> bool:
    """True when :func:`solve` takes ``problem`` (:func:`check_problem`) and the symmetry it
    searches first leaves at most ``max_empty_orbits`` (None: any number of) orbits of
    empty squares; without building the options (milliseconds). E.g. two colours on 14x14
    (the half turn first: 9 empty orbits), on 10x18 (1), four on 18x20 (1)."""
    try:
        check_problem(problem)
        given, first, _ = ways(problem)[0]
    except InputError:
        return False
    empty = empty_orbits(given, first)
    return empty is not None and (max_empty_orbits is None or empty <= max_empty_orbits)


def suits(problem: Problem) -> bool:
    """Where ``auto`` runs this search in place of the other symmetric reductions: two
    colours (a square between both must stay empty, which prunes hard: faster than the
    retired restarts on two-14x14, see docs/records.md), or a tight board
    (:func:`applies` with at most :data:`TIGHT_EMPTY_ORBITS` empty orbits)."""
    limit = None if len(problem.colours) == 2 else TIGHT_EMPTY_ORBITS
    return applies(problem, limit)


def build(
    problem: Problem,
    symmetry: ColourSymmetry,
    seed: int = 0,
    pockets: bool = True,
    scan: str = "auto",
    shape: tuple[int, int] | None = None,
    dead: bool = True,
) -> DomainSearch:
    """The kernel's arrays for ``problem`` reduced by ``symmetry``.

    ``seed`` (an int, or a tuple of ints for independent streams) other than 0 shuffles,
    among the options of each anchor orbit, those of equal piece size (largest pieces are
    always tried first), and the label order of each option; seed 0 keeps table order.
    ``pockets`` and ``dead``: the pocket and dead-square prunes
    (:mod:`solver.backends.domain.kernel`). ``scan`` and
    ``shape``: as for :func:`orbits`.

    Raises:
        InputError: :func:`check_problem` refuses the problem, or :func:`empty_orbits`
            the symmetry.
        ValueError: ``shape`` is not a fundamental domain.
        KeyError: ``scan`` is not "auto" or a name in :data:`SCANS`.
    """
    check_problem(problem)
    position = problem.position
    board = position.board
    elements, cycles = symmetry.elements, symmetry.cycles
    empty = empty_orbits(problem, symmetry)
    if empty is None:
        raise InputError(
            f"{symmetry.name}: the empty squares do not make whole orbits, a start square is "
            "fixed, or there are over 3 orbits of colours",
            path=problem.name or None,
        )
    orb = orbits(board, elements, scan, shape)
    mul, inv = group_tables(elements)
    starts = []  # per colour orbit: (start orbit, element) of its representative's start
    for cycle in cycles:
        start = position.colour(cycle[0]).start
        assert start is not None  # (empty_orbits)
        starts.append((int(orb.orbit[start]), int(orb.elem[start])))
    pieces_of = family(board.grid)
    nps = len(pieces_of.names)
    opts = _options(problem, board, orb, cycles)
    options, placements, pieces, anchors = _tables(opts, board, orb, mul, inv, starts, nps)
    n_opt = len(pieces)
    m = orb.count
    words = (m + 63) // 64
    nslots = len(cycles) * nps
    noempty = np.zeros(m, dtype=np.int8)
    for o, _ in starts:
        noempty[o] = 1
    slot_orbit = (np.arange(nslots) // nps).astype(np.int32)
    need = np.array([len(position.colour(c[0]).remaining) for c in cycles], dtype=np.int32)
    onb = _orbit_neighbours(board, orb)
    nb_orb, nb_h = _rep_neighbours(board, orb)
    slot_size = np.array([pieces_of.sizes[k % nps] for k in range(nslots)], np.int32)
    slot_size[np.isin(np.arange(nslots), [slot for slot, _ in opts], invert=True)] = _ABSENT
    extra = (mul, inv, slot_orbit, noempty, need, len(cycles), nps, onb, slot_size,
             int(pockets), nb_orb, nb_h, int(dead))  # fmt: skip
    tables = core.Tables._make((*options, *extra))
    st = np.zeros(core.N_SCALARS, dtype=np.int64)
    st[core.S_EMPTY] = empty
    depth = m + 1
    state = core.State(
        np.zeros(words, dtype=np.uint64),  # filled
        np.full(m, core.UNFILLED, dtype=np.int32),  # cov_slot
        np.zeros(m, dtype=np.int32),  # cov_lab
        np.zeros(nslots, dtype=np.int8),  # used
        np.zeros(nslots, dtype=np.uint64),  # adj
        np.full(nslots, -1, dtype=np.int32),  # slot_opt
        np.zeros(nslots, dtype=np.int32),  # slot_lab
        st,
        np.full(depth + 1, -1, dtype=np.int64),  # f_anchor
        np.zeros(depth + 1, dtype=np.int64),  # f_cursor
        np.full(depth + 1, -1, dtype=np.int64),  # f_opt
    )
    stats = {"symmetry": symmetry.name, "orbits": m, "empty_orbits": empty, "options": n_opt}
    stats["depth"] = int((slot_size != _ABSENT).sum()) + empty  # pieces and empty orbits
    fresh = state.copy()
    search = DomainSearch(
        tables, state, symmetry, placements, pieces, anchors, stats, fresh, pieces_of.names
    )
    search.reseed(seed)
    return search


@dataclass(frozen=True)
class TreeEstimate:
    """Knuth's estimate of the size of one symmetry's search tree (see :func:`estimate`).

    Attributes:
        nodes: the mean over the probes of each probe's estimate of the nodes of the
            whole tree below the root (pieces and empty orbits placed, as
            :attr:`DomainSearch.nodes` counts them): unbiased. A search that meets a
            layout stops there, so only on a tree without one is this what
            :meth:`DomainSearch.run` visits before DONE.
        per_depth: (D + 1,) float, D = ``search.stats["depth"]`` (the pieces and empty
            orbits of a layout): the estimated nodes at each depth 1..D (index 0 is 0);
            every node at depth D is a layout.
        spread: (probes,) float, each probe's own estimate (heavy-tailed: the mean is
            the estimate; ``spread.std() / sqrt(probes)`` its standard error, which
            few probes understate).
        layouts: the estimated number of symmetric layouts in the tree,
            ``per_depth[D]`` (0 unless some probe reached one).
        deepest: the deepest leaf any probe reached.
    """

    nodes: float
    per_depth: np.ndarray
    spread: np.ndarray
    layouts: float
    deepest: int

    @property
    def stderr(self) -> float:
        """The standard error of :attr:`nodes` (of the mean over the probes)."""
        return float(self.spread.std() / np.sqrt(max(len(self.spread), 1)))


def estimate(search: DomainSearch, probes: int, seed: int = 1) -> TreeEstimate:
    """Estimate the size of ``search``'s whole tree (every node :meth:`DomainSearch.run`
    would visit if it went on past layouts) with ``probes`` (>= 1) random root-to-leaf
    paths (:func:`solver.backends.domain.kernel.probe`; D. E. Knuth, "Estimating the
    efficiency of backtrack programs", Math. Comp. 29 (1975) 121-136): a path through
    nodes with d_1, d_2, ... children estimates the tree as d_1 + d_1 d_2 + ..., without
    bias. The value order (the seed of :func:`build`) does not change the tree, only the
    order in which :meth:`DomainSearch.run` visits it. ``search``'s own state is not
    touched. Probe i draws from numba's generator seeded with ``seed * 1_000_003 + i``
    (taken modulo 2^32).

    Raises:
        ValueError: ``probes`` < 1.
    """
    if probes < 1:
        raise ValueError(f"probes must be at least 1, not {probes}")
    depth = len(search.fresh.f_anchor)  # more frames than any path has levels
    per_depth = np.zeros(int(search.stats["depth"]) + 1)
    spread = np.zeros(probes)
    layouts = 0.0
    deepest = 0
    for i in range(probes):
        state = search.fresh.copy()
        widths = np.zeros(depth + 1, dtype=np.int64)
        leaf = int(core.probe(search.tables, state, seed * 1_000_003 + i, widths))
        deepest = max(deepest, leaf)
        product = 1.0
        for k in range(leaf):
            product *= float(widths[k])
            per_depth[k + 1] += product
            spread[i] += product
        if widths[leaf] == -1:
            layouts += product
    per_depth /= probes
    return TreeEstimate(float(spread.mean()), per_depth, spread, layouts / probes, deepest)


def _options(
    problem: Problem, board: Board, orb: Orbits, cycles: tuple[tuple[str, ...], ...]
) -> list[tuple[int, np.ndarray]]:
    """(slot, squares) for every placement of every colour orbit's pieces whose squares lie
    in distinct whole orbits, stored in the image whose anchor square is its orbit's rep
    (the placements of any grid: :func:`solver.core.placements.board_placements`)."""
    table = board_placements(board)
    index = family(board.grid).index
    nps = len(index)
    out = []
    for j, cycle in enumerate(cycles):
        left = {index[p] for p in problem.position.colour(cycle[0]).remaining}
        for piece, squares in zip(table.piece, table.squares):
            if int(piece) not in left:
                continue
            sq = squares[squares >= 0]
            o = orb.orbit[sq]
            if (o < 0).any() or len(set(o.tolist())) < len(o):
                continue
            anchor = int(np.argmin(o))
            if orb.elem[sq[anchor]] != 0:
                continue  # another image of the same domain piece is the stored one
            out.append((j * nps + int(piece), squares))
    return out


def _value_order(
    anchors: np.ndarray, sizes: np.ndarray, g: int, seed: int | tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """``lab_order`` (O, G) and ``anc_idx`` (O,): the labels of each option and the options
    of each anchor orbit in the order tried; largest pieces first (``sizes``: each option's
    cells), ties and labels shuffled by ``seed`` (seed 0: in table order)."""
    n_opt = len(anchors)
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    tie = rng.random(n_opt) if seed else np.arange(n_opt) / max(n_opt, 1)
    anc_idx = np.lexsort((tie, -sizes, anchors)).astype(np.int64)
    lab_order = np.tile(np.arange(g, dtype=np.int32), (n_opt, 1))
    if seed:
        lab_order = rng.permuted(lab_order, axis=1).astype(np.int32)
    return lab_order, anc_idx


def _tables(
    opts: list[tuple[int, np.ndarray]],
    board: Board,
    orb: Orbits,
    mul: np.ndarray,
    inv: np.ndarray,
    starts: list[tuple[int, int]],
    nps: int,
) -> tuple[tuple[Any, ...], np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's read-only arrays (see :func:`solver.backends.domain.kernel.run`), with
    the options sorted by anchor orbit, then largest first; ``nps``: the pieces of a colour
    (a slot is colour orbit * ``nps`` + piece)."""
    m, g = orb.count, len(mul)
    words = (m + 63) // 64
    width = board_placements(board).squares.shape[1]  # cells of the largest piece
    slots = np.array([s for s, _ in opts], dtype=np.int32)
    placements = np.array([sq for _, sq in opts], dtype=np.int32).reshape(len(opts), width)
    pieces = (slots % nps).astype(np.int32)
    sizes = (placements >= 0).sum(axis=1)
    anchors = np.array([orb.orbit[sq[sq >= 0]].min() for sq in placements], dtype=np.int32)
    order = np.lexsort((np.arange(len(opts)), -sizes, anchors))
    slots, placements, pieces, anchors = (a[order] for a in (slots, placements, pieces, anchors))
    n_opt = len(slots)
    mask = np.zeros((n_opt, words), dtype=np.uint64)
    corb = np.zeros((n_opt, words), dtype=np.uint64)
    sq_orb = np.full((n_opt, width), -1, dtype=np.int32)
    sq_k = np.zeros((n_opt, width), dtype=np.int32)
    e_rows: list[list[tuple[int, int]]] = []
    c_rows: list[list[tuple[int, int]]] = []
    opt_start = np.full(n_opt, -1, dtype=np.int32)
    start_of = {o: (j, k) for j, (o, k) in enumerate(starts)}
    for i, squares in enumerate(placements):
        sq = [int(s) for s in squares if s >= 0]
        for n, s in enumerate(sq):
            o = int(orb.orbit[s])
            mask[i, o // 64] |= np.uint64(1) << np.uint64(o % 64)
            sq_orb[i, n], sq_k[i, n] = o, orb.elem[s]
            if o in start_of:
                j, h_start = start_of[o]
                if j != slots[i] // nps:
                    opt_start[i] = -2  # another colour orbit's start: never
                elif opt_start[i] != -2:  # the label whose copy on the start is its colour
                    lab = [x for x in range(g) if mul[h_start, mul[inv[orb.elem[s]], x]] == 0]
                    opt_start[i] = lab[0]
        edge = _around(sq, board.edge_neighbours)
        corner = _around(sq, board.corner_neighbours) - edge
        e_rows.append([(int(orb.orbit[t]), int(orb.elem[t])) for t in edge if orb.orbit[t] >= 0])
        c_rows.append([(int(orb.orbit[t]), int(orb.elem[t])) for t in corner if orb.orbit[t] >= 0])
        for o, _ in c_rows[-1]:
            corb[i, o // 64] |= np.uint64(1) << np.uint64(o % 64)
    e_ptr, e_orb, e_h = _csr(e_rows)
    c_ptr, c_orb, c_h = _csr(c_rows)
    lab_order, anc_idx = _value_order(anchors, sizes[order], g, 0)
    anc_ptr = np.searchsorted(anchors, np.arange(m + 1)).astype(np.int64)
    tables = (mask, corb, slots, sq_orb, sq_k, e_ptr, e_orb, e_h, c_ptr, c_orb, c_h,
              opt_start, lab_order, anc_ptr, anc_idx)  # fmt: skip
    return tables, placements, pieces, anchors


def _orbit_neighbours(board: Board, orb: Orbits) -> np.ndarray:
    """(M, k) int32: the orbits of the cells sharing an edge with each orbit's
    representative (every orbit adjacent to it: map any adjacent pair onto the rep), -1
    padded; k: the most edge neighbours a cell has (4 squares, 3 triangles)."""
    out = np.full((orb.count, _edge_width(board)), -1, dtype=np.int32)
    for o, r in enumerate(orb.rep):
        around = _around([int(r)], board.edge_neighbours)
        near = sorted({int(orb.orbit[t]) for t in around} - {-1, o})
        out[o, : len(near)] = near
    return out


def _rep_neighbours(board: Board, orb: Orbits) -> tuple[np.ndarray, np.ndarray]:
    """``nb_orb`` (M, k) int32, -1 padded, and ``nb_h`` (M, k) int32: the cells sharing an
    edge with each orbit's representative that lie in whole orbits, as (orbit, element):
    the cell is ``elements[h][rep[orbit]]`` (k as in :func:`_orbit_neighbours`)."""
    width = _edge_width(board)
    nb_orb = np.full((orb.count, width), -1, dtype=np.int32)
    nb_h = np.zeros((orb.count, width), dtype=np.int32)
    for o, r in enumerate(orb.rep):
        near = [t for t in sorted(_around([int(r)], board.edge_neighbours)) if orb.orbit[t] >= 0]
        nb_orb[o, : len(near)] = orb.orbit[near]
        nb_h[o, : len(near)] = orb.elem[near]
    return nb_orb, nb_h


def _edge_width(board: Board) -> int:
    """The most edge neighbours a cell of ``board`` has: 4 on squares (at least 4, so a
    narrow board's tables keep their width), 3 on triangles."""
    most = max((len(near) for near in board.edge_neighbours), default=0)
    return max(most, 4) if board.square_grid else most


def _around(cells: list[int], neighbours: tuple[tuple[int, ...], ...]) -> set[int]:
    """The cells among ``neighbours`` (a board's edge or corner neighbour lists) of
    ``cells``, not in them. (On squares the board lists each square's neighbours in the
    order of its steps, so the set is built in the order the square steps once built it.)"""
    inside = set(cells)
    out = set()
    for s in cells:
        for t in neighbours[s]:
            if t not in inside:
                out.add(t)
    return out


def _csr(rows: list[list[tuple[int, int]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(r) for r in rows])
    flat = [x for r in rows for x in r]
    orb = np.array([o for o, _ in flat], dtype=np.int32)
    h = np.array([k for _, k in flat], dtype=np.int32)
    return ptr, orb, h


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Search the fundamental domain of the symmetries of :func:`colour_symmetries` that
    take the problem (:func:`empty_orbits`), best first (fewest colour orbits), with
    restarts.

    ``options.workers`` threads (at most 8) each run their own seed stream: thread i's
    k-th run on a symmetry has the value order of the seed (``options.seed``, i, k)
    (independent streams: two seeds share no run) and ``RESTART_NODES * luby(k)`` nodes.
    Symmetries alike in colour orbits and empty orbits take turns, run by run (thread i
    starting at the i-th); the next group only once they are exhausted. A symmetry's tree
    exhausted by one thread is skipped by all; each search is built when first needed.

    Returns:
        "solved" with the layout (every colour, images included), or "unknown" (time
        limit, cancel, or no layout with any symmetry: ``stats["unknown_reason"]``); never
        "infeasible", since a layout without symmetry may exist.

    Raises:
        InputError: :func:`check_problem` refuses the problem, or no symmetry leaves whole
            orbits of empty squares.
    """
    check_problem(problem)
    started = time.perf_counter()
    found = ways(problem)
    shared = SharedSearches(
        problem, [s for _, s, _ in found], [p for p, _, _ in found], [st for _, _, st in found]
    )
    threads = max(1, min(options.workers, 8))

    def stream(thread: int) -> Callable[[Cancel], BackendResult]:
        return lambda stop: restarts(shared, options, thread, threads, started, stop)

    results, winner = first_proven(
        [stream(i) for i in range(threads)],
        lambda r: r.status == "solved" or "unknown_reason" in r.stats,
        cancel,
    )
    result = results[0 if winner is None else winner]
    nodes = sum(int(r.stats.get("nodes", 0)) for r in results)
    runs = sum(int(r.stats.get("runs", 0)) for r in results)
    deepest = max(int(r.stats.get("deepest", 0)) for r in results)
    stats = dict(result.stats, nodes=nodes, runs=runs, threads=threads, deepest=deepest)
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return dataclasses.replace(result, stats=stats)


def symmetries(problem: Problem) -> list[ColourSymmetry]:
    """The symmetries the search takes for ``problem`` (those of :func:`ways`), best first
    (fewest colour orbits).

    Raises:
        InputError: no symmetry leaves whole orbits of empty squares.
    """
    return [sym for _, sym, _ in ways(problem)]


#: one way to search a problem: the problem with a starting point given to each colour that
#: has none yet (Trigon), a colour symmetry of it, and those starting points (colour ->
#: cell; empty where no colour needed one)
Way = tuple[Problem, ColourSymmetry, dict[str, int]]


def ways(problem: Problem) -> list[Way]:
    """The (problem, symmetry, starting points) the search takes for ``problem``, best
    first (fewest colour orbits; ties in the order found): each symmetry of
    :func:`colour_symmetries` that :func:`empty_orbits` takes; on a board of shared
    starting points (Trigon) with colours that have no piece yet, those of each class of
    assignments of free starting points to them that a colour symmetry maps onto itself
    (:func:`solver.core.shared_starts.symmetric_starts`, as the ``symmetric`` backend):
    a layout of such an assignment is a layout of the problem.

    Raises:
        InputError: no symmetry leaves whole orbits of empty squares.
    """
    found = [
        (way.problem, sym, way.starts)
        for way in symmetric_starts(problem)
        for sym in way.symmetries
        if empty_orbits(way.problem, sym) is not None
    ]
    out = sorted(found, key=lambda way: len(way[1].cycles))
    if not out:
        position = problem.position
        area = sum(position.colour(c).remaining_squares for c in problem.colours)
        free = position.board.size - len(position.board.blocked)
        raise InputError(
            "no board symmetry leaves whole orbits of empty squares (the pieces need "
            f"{area} of the board's {free} free squares)",
            path=problem.name or None,
        )
    return out


class SharedSearches:
    """What the threads of one :func:`solve` share: the symmetries, each search built
    once when first needed (its tables are read-only; each thread copies the state), and
    the symmetries whose tree a thread has exhausted."""

    def __init__(
        self,
        problem: Problem,
        symmetries: list[ColourSymmetry],
        problems: list[Problem] | None = None,
        starts: list[dict[str, int]] | None = None,
    ):
        self.problem = problem
        self.symmetries = symmetries
        #: the problem each symmetry is searched on (:func:`ways`: on Trigon, with its
        #: colours' starting points given), and those starting points (colour -> cell)
        self.problems = problems or [problem] * len(symmetries)
        self.starts = starts or [{}] * len(symmetries)
        #: the symmetries with as many colour orbits and empty orbits (e.g. the half turn
        #: and the left-right mirror of 21x16), groups in the order of their first member:
        #: the runs take turns within a group, since which one has layouts is not known
        #: (21x16 without the I5: the mirror has a layout the half turn, tried first, did
        #: not find; docs/records.md)
        alike: dict[tuple[int, int | None], list[int]] = {}
        for i, sym in enumerate(symmetries):
            alike.setdefault((len(sym.cycles), empty_orbits(self.problems[i], sym)), []).append(i)
        self.groups: list[list[int]] = list(alike.values())
        self.exhausted: set[int] = set()
        self._built: dict[int, DomainSearch] = {}
        self._lock = threading.Lock()

    def search(self, i: int) -> DomainSearch:
        """A fresh copy of symmetry i's search."""
        with self._lock:
            if i not in self._built:
                search = build(self.problems[i], self.symmetries[i])
                if self.starts[i]:  # which starting point each colour with no piece took
                    board = self.problem.position.board
                    search.stats["starts"] = {c: board.name(s) for c, s in self.starts[i].items()}
                self._built[i] = search
            return self._built[i].copy()


def restarts(
    shared: SharedSearches,
    options: SolveOptions,
    thread: int,
    threads: int,
    started: float,
    stop: Cancel,
) -> BackendResult:
    """One thread's seed stream over the symmetries (see :func:`solve`): the runs take the
    symmetries of one group (:attr:`SharedSearches.groups`) in turn, thread i (``thread``,
    of ``threads``) starting at the i-th, each symmetry with its own run count k (seed
    (``options.seed``, i, k), Luby budget); when a group is exhausted, the next group.
    ``started`` (``time.perf_counter()``) is when the time limit began; ``stop`` ends the
    stream. Returns "solved" with the layout, or "unknown" (``stats["unknown_reason"]``
    once every group is exhausted)."""
    nodes, run_no, deepest = 0, 0, 0
    stats: dict[str, Any] = {"symmetry": shared.symmetries[0].name}
    searches: dict[int, DomainSearch] = {}
    for group in shared.groups:
        runs = dict.fromkeys(group, 0)
        turn = thread
        while not stop.is_set():
            active = [i for i in group if i not in shared.exhausted]
            if not active:
                break
            i = active[turn % len(active)]
            turn += 1
            if i not in searches:
                searches[i] = shared.search(i)
            search = searches[i]
            runs[i] += 1
            run_no += 1
            search.reseed((options.seed, thread, runs[i]))
            budget = RESTART_NODES * driver.luby(runs[i])
            code = driver.sliced_run(search, options.time_limit, started, stop, nodes=budget)
            nodes += search.nodes
            deepest = max(deepest, search.deepest)
            stats = {**search.stats, "nodes": nodes, "runs": run_no, "deepest": deepest}
            if code == core.FOUND:
                return BackendResult("solved", search.layout(), stats=stats)
            if code == core.DONE:
                shared.exhausted.add(i)
            elif _out_of_time(options.time_limit, started) or stop.is_set():
                return BackendResult("unknown", None, stats=stats)  # time limit or cancel
        if stop.is_set():
            return BackendResult("unknown", None, stats=stats)
    stats.update(nodes=nodes, runs=run_no, deepest=deepest)
    stats["unknown_reason"] = "no layout with any symmetry that applies"
    return BackendResult("unknown", None, stats=stats)


def _out_of_time(time_limit: float | None, started: float) -> bool:
    return time_limit is not None and time.perf_counter() - started >= time_limit
