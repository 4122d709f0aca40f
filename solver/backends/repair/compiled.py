"""The compiled repair search (:mod:`solver.backends.repair.kernel`) driven from Python.

:func:`tables` builds the kernel's read-only arrays of a position once (the empty board's
placements, by piece and by piece and cell, are cached per board size); :class:`Run` is
one run of the search (a seed, optionally a warm start), advanced by :meth:`Run.advance`
in slices of steps between which the deadline, a stop event and a step budget are
checked. The layouts it gives are legal by construction; callers check them with the rule
checker all the same (:func:`solver.tasks.solve.solve` for the ``repair`` backend,
:func:`solver.companion.layouts.checked` for the companion).

The algorithm, its settings and their reasons are those of
:mod:`solver.backends.repair.repairer` (today's Python code, kept as the reference the
benchmark ``benchmarks/repair_kernel.py`` pairs with this one).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from solver.backends import progress
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.race import first_proven
from solver.backends.repair import kernel as rk
from solver.backends.repair import settings as ref
from solver.backends.repair.greedy import held_back
from solver.backends.search.starts import assignments, unstarted, with_starts
from solver.core.board import SQUARE, Board, neighbour_table
from solver.core.pieces import MONOMINO, family
from solver.core.placements import board_placements, ring_cells
from solver.core.position import ColourState, Layout, Placement, Position
from solver.core.problem import Problem

#: node budgets of the kernel's exact re-placements (a window's place-all, an
#: ejection's max-score put-back): about the work the Python search did in its 0.1 s
REPAIR_NODES = 300
EJECT_NODES = 300
#: live attach cells the kernel's exact search weighs per node (the fewest live
#: placements wins): all of them cost about 0.6 ms a node on 20x20
MRV_CELLS = 8
#: a window repair puts its pieces back within the window grown by this many cells (and
#: on the cells they left): a search of the whole board spent its budget elsewhere
WINDOW_MARGIN = 4
#: an ejection's exact put-back places its pieces within this many king steps of the
#: pieces taken off and the piece put on
EJECT_REACH = 3
#: the reach and fit bounds in the exact search's place-all runs too (always in its
#: max-score runs, where they bound the score): off, as measured on the benchmark's
#: positions (33 runs of 3 s: 22 layouts without them, 14 with; they cost more nodes a
#: second than they prune: docs/benchmarks.md, issue 45's attempts)
REACH_ALL = False
#: the share of ejection steps (today's Python search: 0.8, ``settings.EJECT``): at the
#: compiled speed a window repair costs about 4 ejections, and more ejections found more
#: layouts, from the companion's carried layouts (48 runs: 40 within 1 s against 35) and
#: from scratch (12 runs of 4 s: 8 layouts against 4); all ejections (1.0) lost from
#: scratch (4 of 12): docs/benchmarks.md, issue 45's attempts
EJECT_SHARE = 0.95
#: a run from a warm start (the companion's carried layouts) makes its new starts from
#: it, the pieces it lacks added by greedy play, instead of greedy play from the position
WARM_RESTART = True
#: a warm start is first completed by greedy play (as a new start), not repaired as it is
WARM_FILL = True
#: placements an ejection weighs in a run from a warm start (from scratch: the
#: reference's ``settings.EJECT_CANDIDATES``, 300): on the companion's repairs of its
#: carried layouts (benchmarks/companion_repairs.py, 50 positions x 2 seeds) 150 took 36 %
#: fewer steps to a layout than 300, and found 68 within 1 s of one core against 47 (100:
#: 63, 60: 59); from scratch (asym-classic-84, 10 seeds) 300 stays: docs/benchmarks.md,
#: issue 45's attempts
WARM_EJECT_CANDIDATES = 150
#: the kernel's exact search: deepest stack of decisions, most children on it
MAX_FRAMES = 4096
MAX_CHILDREN = 1 << 17
#: seconds a slice of steps should take (the deadline and stop are checked between)
SLICE_SECONDS = 0.01


@dataclass(frozen=True, eq=False)
class _Board:
    """The tables of one board (grid and size): the empty board's placements, by piece
    and by (piece, cell), their corner rings, the neighbour tables and the cells'
    coordinates, and the piece family's names and sizes."""

    names: tuple[str, ...]
    sizes: np.ndarray
    pl_sq: np.ndarray
    pl_piece: np.ndarray
    pl_size: np.ndarray
    pl_ring: np.ndarray
    pp_ptr: np.ndarray
    pp_idx: np.ndarray
    cv_ptr: np.ndarray
    cv_idx: np.ndarray
    cv_sq: np.ndarray
    edge_nb: np.ndarray
    corner_nb: np.ndarray
    cell_y: np.ndarray
    cell_x: np.ndarray
    keys: dict[tuple[int, tuple[int, ...]], int] = field(repr=False)


def _csr(keys: np.ndarray, values: np.ndarray, n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable")
    ptr = np.zeros(n_keys + 1, dtype=np.int64)
    np.add.at(ptr, keys + 1, 1)
    return np.cumsum(ptr), values[order].astype(np.int32)


def _coordinates(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's (y, x) for the repair windows (square boxes in these units): a square's
    row and column; on another grid the cell's centroid, scaled so that a cell's area is 1
    as a square's is (a window of a given width then holds about as many cells)."""
    if board.square_grid:
        cells = np.arange(board.size)
        return (cells // board.cols).astype(np.float64), (cells % board.cols).astype(np.float64)
    centroid = board.geometry.polygons.mean(axis=1)  # (n, 2): right, down
    k = len(board.geometry.polygons[0])
    area = 0.25 * np.sqrt(3.0) if k == 3 else 1.0
    scale = 1.0 / np.sqrt(area)
    return centroid[:, 1] * scale, centroid[:, 0] * scale


def _neighbours(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Edge and corner neighbour tables, padded with -1: (N, 4) each on squares, the
    geometry's own widths on another grid ((N, 3) and (N, 9) on Trigon)."""
    if board.square_grid:
        return (
            neighbour_table(board.edge_neighbours, 4),
            neighbour_table(board.corner_neighbours, 4),
        )
    geometry = board.geometry
    return (
        np.ascontiguousarray(geometry.edge_table, dtype=np.int32),
        np.ascontiguousarray(geometry.corner_table, dtype=np.int32),
    )


def _board_of(board: Board) -> _Board:
    """The :class:`_Board` of a position's board (blocked cells do not matter here)."""
    return _board(board.grid, board.rows, board.cols)


@lru_cache(maxsize=8)
def _board(grid: str, rows: int, cols: int) -> _Board:
    """The :class:`_Board` of a grid's rows x cols board (cached: built once per size)."""
    board = Board(rows, cols) if grid == SQUARE else Board(rows, cols, grid=grid)
    pieces = family(grid)
    table = board_placements(board)
    sq = np.ascontiguousarray(table.squares, dtype=np.int32)
    piece = table.piece.astype(np.int32)
    size = (sq >= 0).sum(axis=1).astype(np.int32)
    n_pieces = len(pieces.names)
    n = board.size
    pp_ptr, pp_idx = _csr(piece, np.arange(len(piece)), n_pieces)
    valid = sq >= 0
    rows_rep = np.repeat(np.arange(len(piece)), sq.shape[1]).reshape(sq.shape)
    cv_keys = (piece[:, None] * n + sq)[valid]
    cv_ptr, cv_idx = _csr(cv_keys, rows_rep[valid], n_pieces * n)
    edge_nb, corner_nb = _neighbours(board)
    cell_y, cell_x = _coordinates(board)
    keys = {
        (int(piece[r]), tuple(int(s) for s in sorted(sq[r][sq[r] >= 0]))): r
        for r in range(len(piece))
    }
    return _Board(
        pieces.names,
        np.array(pieces.sizes, dtype=np.int32),
        sq,
        piece,
        size,
        np.ascontiguousarray(ring_cells(table, board, corner=True), dtype=np.int32),
        pp_ptr,
        pp_idx,
        cv_ptr,
        cv_idx,
        np.ascontiguousarray(sq[cv_idx], dtype=np.int16),
        edge_nb,
        corner_nb,
        cell_y,
        cell_x,
        keys,
    )


def settings(
    debug: bool = False, restarts: int = 8, warm: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's settings (``ip``, ``fp``): the reference's constants
    (:mod:`solver.backends.repair.repairer`) and this module's node budgets;
    ``restarts``: greedy layouts per new start
    (:attr:`solver.backends.tuning.RepairTuning.restarts`); ``warm``: for a run from a
    warm start (:data:`WARM_EJECT_CANDIDATES`)."""
    ip = np.zeros(rk.N_IP, dtype=np.int64)
    ip[rk.IP_RESTARTS] = max(1, restarts)
    ip[rk.IP_STAGNATION] = ref.STAGNATION
    ip[rk.IP_MAX_FREED] = ref.MAX_FREED
    ip[rk.IP_CENTRES] = ref.CENTRES
    ip[rk.IP_EJECT_CANDS] = WARM_EJECT_CANDIDATES if warm else ref.EJECT_CANDIDATES
    ip[rk.IP_EXACT_PIECES] = ref.EXACT_PIECES
    ip[rk.IP_TABU] = ref.TABU
    ip[rk.IP_REPAIR_NODES] = REPAIR_NODES
    ip[rk.IP_EJECT_NODES] = EJECT_NODES
    ip[rk.IP_DEBUG] = int(debug)
    ip[rk.IP_WMIN] = ref.WINDOW[0]
    ip[rk.IP_WMAX] = ref.WINDOW[1]
    ip[rk.IP_MRV] = MRV_CELLS
    ip[rk.IP_MARGIN] = WINDOW_MARGIN
    ip[rk.IP_EJECT_REACH] = EJECT_REACH
    ip[rk.IP_REACH_ALL] = int(REACH_ALL)
    ip[rk.IP_WARM_RESTART] = int(WARM_RESTART)
    fp = np.zeros(rk.N_FP, dtype=np.float64)
    fp[rk.FP_EJECT] = EJECT_SHARE
    fp[rk.FP_ACCEPT_WORSE] = ref.ACCEPT_WORSE
    fp[rk.FP_BLOCK] = 1.0
    fp[rk.FP_NOISE] = 0.3
    return ip, fp


@dataclass(frozen=True, eq=False)
class Slots:
    """The pieces a run places: slot k is piece ``pieces[k]`` of colour ``colours[k]``
    (indices into the run's colours); the held monominoes (placed last, by a matching)
    are not slots."""

    colour: np.ndarray
    piece: np.ndarray
    col_lo: np.ndarray
    held: np.ndarray


def _slots(position: Position, colours: Sequence[str]) -> Slots:
    fam = family(position.board.grid)
    col, pieces, lo = [], [], [0]
    held = np.zeros(len(colours), dtype=np.int8)
    for i, c in enumerate(colours):
        left = list(position.colour(c).remaining)
        if held_back(position, c):
            held[i] = 1
            left.remove(MONOMINO)
        for name in sorted(left, key=lambda p: (-fam.size[p], fam.index[p])):
            col.append(i)
            pieces.append(fam.index[name])
        lo.append(len(col))
        if lo[-1] - lo[-2] > rk.MASK_SLOTS:  # (a family has at most 22 pieces)
            raise ValueError(f"{c} has more than {rk.MASK_SLOTS} pieces left")
    return Slots(
        np.array(col, dtype=np.int32),
        np.array(pieces, dtype=np.int32),
        np.array(lo, dtype=np.int32),
        held,
    )


def _ejection_lists(
    geo: _Board, occ0: np.ndarray, edge0: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The placements an ejection weighs, by (colour, piece) as CSR pointers and rows:
    those on cells neither hard in the position nor next to the colour's own cells there
    (a colour may never cover those, whatever the repair moves)."""
    n_pieces = len(geo.pp_ptr) - 1
    ptr = [np.zeros(1, dtype=np.int64)]
    rows = []
    total = 0
    for i in range(len(edge0)):
        bad = np.append((occ0 == -2) | (edge0[i] > 0), False)  # index -1: the padding
        ok = ~bad[geo.pl_sq].any(axis=1)
        for t in range(n_pieces):
            own = geo.pp_idx[geo.pp_ptr[t] : geo.pp_ptr[t + 1]]
            keep = own[ok[own]]
            rows.append(keep)
            total += len(keep)
            ptr.append(np.array([total], dtype=np.int64))
    return np.concatenate(ptr), np.concatenate(rows).astype(np.int32)


def tables(
    position: Position,
    colours: Sequence[str],
    debug: bool = False,
    restarts: int = 8,
    warm: bool = False,
) -> rk.Tables:
    """The kernel's read-only arrays for placing every piece left of ``colours`` (in
    turn order) in ``position``: its cells, the colours' counters and the slots.

    Args:
        position: the position (its pieces stay).
        colours: the colours that play (names of the position's colours).
        debug: recompute and compare the state after every step (tests).
        restarts: greedy layouts made for each new start (the best is kept).
        warm: the run starts from a warm start (:data:`WARM_EJECT_CANDIDATES`).
    """
    board = position.board
    geo = _board_of(board)
    n = board.size
    c_n = len(colours)
    occ0 = np.full(n, -1, dtype=np.int32)
    occ0[board.blocked_mask] = -2
    occ0[list(position.occupied)] = -2
    baseown = np.zeros((c_n, n), dtype=np.int8)
    edge0 = np.zeros((c_n, n), dtype=np.int16)
    corner0 = np.zeros((c_n, n), dtype=np.int16)
    nown0 = np.zeros(c_n, dtype=np.int64)
    start = np.full(c_n, -1, dtype=np.int32)
    for i, c in enumerate(colours):
        state = position.colour(c)
        start[i] = -1 if state.start is None else state.start
        own = np.array(sorted(state.squares), dtype=np.int64)
        if len(own):
            baseown[i, own] = 1
            nown0[i] = len(own)
            e = geo.edge_nb[own].ravel()
            np.add.at(edge0[i], e[e >= 0], 1)
            d = geo.corner_nb[own].ravel()
            np.add.at(corner0[i], d[d >= 0], 1)
    # bl of the position: a hard cell is forbidden to every colour, a cell next to a
    # colour's own cells to that colour
    bl0 = edge0 + (occ0 == -2).astype(np.int16)[None, :]
    ej_ptr, ej_idx = _ejection_lists(geo, occ0, edge0)
    slots = _slots(position, colours)
    ip, fp = settings(debug, restarts, warm)
    return rk.Tables(
        geo.edge_nb,
        geo.corner_nb,
        geo.pl_sq,
        geo.pl_piece,
        geo.pl_size,
        geo.pl_ring,
        ej_ptr,
        ej_idx,
        geo.cv_ptr,
        geo.cv_idx,
        geo.cv_sq,
        geo.sizes,
        start,
        (nown0 > 0).astype(np.int8),
        baseown,
        occ0,
        bl0.astype(np.int16),
        corner0,
        nown0,
        slots.colour,
        slots.piece,
        slots.col_lo,
        slots.held,
        geo.cell_y,
        geo.cell_x,
        ip,
        fp,
    )


def new_state(t: rk.Tables, seed: int) -> rk.State:
    """A fresh state for the tables ``t`` (nothing added; the generator seeded)."""
    c_n, n = t.bl0.shape
    s_n = len(t.slot_col)
    p_n = len(t.pl_piece)
    st = np.zeros(rk.N_SCALARS, dtype=np.int64)
    st[rk.S_BEST] = 1 << 40
    st[rk.S_WINDOW] = ref.WINDOW[2]
    return rk.State(
        occ=t.occ0.copy(),
        bl=t.bl0.copy(),
        corner=t.corner0.copy(),
        nown=t.nown0.copy(),
        excl=np.zeros((c_n, n), dtype=np.int8),
        slot_row=np.full(s_n, -1, dtype=np.int32),
        mono=np.full(c_n, -1, dtype=np.int32),
        best_row=np.full(s_n, -1, dtype=np.int32),
        best_mono=np.full(c_n, -1, dtype=np.int32),
        st=st,
        rng=np.array([(seed * 0x9E3779B97F4A7C15 + 1) % (1 << 64)], dtype=np.uint64),
        tabu=np.full((c_n, p_n), -(1 << 40), dtype=np.int64),
        stamp=np.zeros(p_n, dtype=np.int64),
        nstamp=np.zeros(1, dtype=np.int64),
        save_a=np.full(s_n, -1, dtype=np.int32),
        save_b=np.full(s_n, -1, dtype=np.int32),
        save_m=np.full(c_n, -1, dtype=np.int32),
        warm_row=np.full(s_n, -1, dtype=np.int32),
        gone=np.zeros(s_n, dtype=np.int8),
        seen=np.zeros(s_n, dtype=np.int8),
        squeue=np.zeros(max(1, s_n), dtype=np.int32),
        todo=np.zeros(s_n, dtype=np.int8),
        cand=np.zeros(max(p_n, n), dtype=np.int32),
        cval=np.zeros(max(p_n, n), dtype=np.float64),
        hits=np.zeros(64, dtype=np.int32),
        fr_c=np.zeros(MAX_FRAMES, dtype=np.int32),
        fr_x=np.zeros(MAX_FRAMES, dtype=np.int32),
        fr_lo=np.zeros(MAX_FRAMES, dtype=np.int64),
        fr_hi=np.zeros(MAX_FRAMES, dtype=np.int64),
        fr_cur=np.zeros(MAX_FRAMES, dtype=np.int64),
        ch=np.zeros(MAX_CHILDREN, dtype=np.int32),
        ch_slot=np.zeros(MAX_CHILDREN, dtype=np.int32),
        xbest=np.full(s_n, -1, dtype=np.int32),
        sqmark=np.zeros(n, dtype=np.int64),
        sqown=np.full(n, -1, dtype=np.int32),
        colprev=np.zeros(c_n, dtype=np.int32),
        cqueue=np.zeros(c_n, dtype=np.int32),
        dpc=np.zeros((c_n, 64), dtype=np.int32),
        nd=np.zeros(c_n, dtype=np.int64),
        ga=np.zeros(n, dtype=np.int8),
        othatt=np.zeros(n, dtype=np.int8),
        trail=np.zeros(c_n * n + 1, dtype=np.int32),
        fr_tr=np.zeros(MAX_FRAMES, dtype=np.int64),
        fmark=np.zeros(n, dtype=np.int64),
        fq=np.zeros(n, dtype=np.int32),
        region=np.zeros(n, dtype=np.int8),
        scan=np.zeros(n, dtype=np.int32),
        adj=np.zeros(s_n, dtype=np.int64),
        adj_step=np.zeros(c_n, dtype=np.int64),
        placed_m=np.zeros(c_n, dtype=np.int64),
        root_m=np.zeros(c_n, dtype=np.int64),
        hit_m=np.zeros(c_n, dtype=np.int64),
        gone_m=np.zeros(c_n, dtype=np.int64),
    )


def _row_of(position: Position, p: Placement) -> int:
    """The empty board's placement table row of ``p``, or -1."""
    geo = _board_of(position.board)
    index = family(position.board.grid).index[p.piece]
    return geo.keys.get((index, tuple(sorted(p.squares))), -1)


def warm(
    t: rk.Tables,
    s: rk.State,
    position: Position,
    colours: Sequence[str],
    start: Mapping[str, Sequence[Placement]],
) -> int:
    """Put a warm start on a fresh state: each colour's placements of ``start`` (a legal
    partial layout, connected to its colour, as :func:`solver.core.order.connected_part`
    gives) on free slots of their pieces. Returns the state's cost.

    Raises:
        ValueError: the start is not legal from ``position`` (a kernel's check).
    """
    index = family(position.board.grid).index
    for i, c in enumerate(colours):
        free = list(range(int(t.col_lo[i]), int(t.col_lo[i + 1])))
        for p in start.get(c, ()):
            row = _row_of(position, p)
            k = next((k for k in free if t.slot_piece[k] == index.get(p.piece, -1)), -1)
            if row < 0 or k < 0:
                continue
            free.remove(k)
            s.slot_row[k] = row
    cost = int(rk.init_state(t, s))
    if not rk.verify(t, s):
        raise ValueError("the warm start is not a legal partial layout of the position")
    s.warm_row[:] = s.slot_row
    s.st[rk.S_STARTED] = 0 if WARM_FILL else 1  # 0: run() begins with a new start
    s.st[rk.S_LOW] = cost
    s.st[rk.S_BEST] = cost
    s.best_row[:] = s.slot_row
    s.best_mono[:] = s.mono if s.st[rk.S_MONOS] else -1
    return cost


def layout_of(
    t: rk.Tables, position: Position, colours: Sequence[str], rows: np.ndarray, monos: np.ndarray
) -> Layout:
    """Slots' rows and the held monominoes' cells as colour -> placements."""
    geo = _board_of(position.board)
    out: Layout = {c: [] for c in colours}
    for k, r in enumerate(rows.tolist()):
        if r >= 0:
            sq = geo.pl_sq[r]
            out[colours[int(t.slot_col[k])]].append(
                Placement(geo.names[int(geo.pl_piece[r])], frozenset(int(x) for x in sq[sq >= 0]))
            )
    for i, cell in enumerate(monos.tolist()):
        if cell >= 0 and t.held[i]:
            out[colours[i]].append(Placement(MONOMINO, frozenset({int(cell)})))
    return out


class KernelError(RuntimeError):
    """The debug mode found the kernel's incremental state wrong (a bug)."""


class Run:
    """One run of the compiled repair search.

    Args:
        position: the position (its pieces stay).
        colours: the colours that place all their pieces left, in turn order.
        seed: the run's random seed (the same seed, the same steps).
        start: a warm start (a legal partial layout; None: greedy play's).
        debug: recompute and compare the state after every step (slow; tests).
        restarts: greedy layouts made for each new start (the best is kept).
    """

    def __init__(
        self,
        position: Position,
        colours: Sequence[str],
        seed: int,
        start: Mapping[str, Sequence[Placement]] | None = None,
        debug: bool = False,
        restarts: int = 8,
    ) -> None:
        self.position = position
        self.colours = tuple(colours)
        self.tables = tables(position, self.colours, debug, restarts, start is not None)
        self.state = new_state(self.tables, seed)
        self.seed = seed
        if start is not None:
            warm(self.tables, self.state, position, self.colours, start)
        self.trace: list[tuple[float, int]] = []  # (seconds, best cost) at each new best
        self.seconds = 0.0
        self.found = False

    @property
    def steps(self) -> int:
        """Steps made (ejections and window repairs)."""
        return int(self.state.st[rk.S_STEPS])

    @property
    def best_cost(self) -> int:
        """The best state's cost: cells left (+1 per held monomino without a cell)."""
        return int(self.state.st[rk.S_BEST])

    def stats(self) -> dict[str, int]:
        """Counters named as the reference's (:class:`solver.backends.repair.repairer.Repairer`)."""
        st = self.state.st
        return {
            "restarts": int(st[rk.S_RESTARTS]),
            "repairs": int(st[rk.S_REPAIR]),
            "improved": int(st[rk.S_IMPROVED]),
            "sideways": int(st[rk.S_SIDEWAYS]),
            "timeouts": int(st[rk.S_TIMEOUTS]),
            "ejections": int(st[rk.S_EJECT]),
            "steps": int(st[rk.S_STEPS]),
            "nodes": int(st[rk.S_NODES]),
        }

    def advance(
        self,
        deadline: float | None = None,
        stop: Cancel | None = None,
        steps: int | None = None,
    ) -> bool:
        """Run until a layout, ``deadline`` (a ``time.perf_counter()`` value), ``stop``
        or ``steps`` more steps; True when a layout is found (:meth:`layout`).

        Raises:
            KernelError: the debug mode found the state wrong.
        """
        began = time.perf_counter()
        goal = None if steps is None else self.steps + steps
        chunk = 4
        last_best = self.best_cost
        told, told_at = None, began  # the cost last told the listener, and when
        while not self.found:
            if time.perf_counter() - told_at >= progress.MIN_GAP and self._tell(told):
                told, told_at = self.best_cost, time.perf_counter()
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            if stop is not None and stop.is_set():
                break
            n = chunk if goal is None else min(chunk, goal - self.steps)
            if n <= 0 and self.state.st[rk.S_STARTED]:
                break
            t0 = time.perf_counter()
            code = rk.run(self.tables, self.state, max(0, n))
            took = time.perf_counter() - t0
            if code == rk.ERROR:
                raise KernelError(
                    f"the repair kernel's state went wrong at step {int(self.state.st[rk.S_ERROR])}"
                )
            if self.best_cost < last_best:
                last_best = self.best_cost
                self.trace.append((round(self.seconds + time.perf_counter() - began, 3), last_best))
            self.found = code == rk.FOUND
            # slices of about SLICE_SECONDS (a step's time varies with the board)
            if took < SLICE_SECONDS / 2:
                chunk = min(chunk * 2, 1 << 14)
            elif took > SLICE_SECONDS * 2 and chunk > 1:
                chunk //= 2
        if not self.found:
            self._tell(told)  # the last improvement, if not yet told
        self.seconds += time.perf_counter() - began
        return self.found

    def _tell(self, told: int | None) -> bool:
        """Tell the listener of :mod:`solver.backends.progress`, if any, the best partial
        layout, unless its cost is ``told`` (told already) or the run has not started;
        whether it was told."""
        if not progress.wanted() or not self.state.st[rk.S_STARTED] or self.best_cost == told:
            return False
        progress.improved(self.position, self.best)
        return True

    def layout(self) -> Layout:
        """The layout found (every piece), or the current state's placements."""
        return layout_of(
            self.tables, self.position, self.colours, self.state.slot_row, self.state.mono
        )

    def best(self) -> Layout:
        """The best state's placements (legal, each colour connected), with the held
        monominoes on their matched cells where the best had a matching, else on
        distinct free attach cells where they fit."""
        t, s = self.tables, self.state
        if s.st[rk.S_BEST] == 0 or (s.best_mono >= 0).any() or not t.held.any():
            return layout_of(t, self.position, self.colours, s.best_row, s.best_mono)
        # match the monominoes on the best state (kept in a scratch copy)
        probe = rk.State(*(a.copy() for a in s))
        probe.slot_row[:] = s.best_row
        rk.init_state(t, probe)
        rk.match_monos(t, probe)
        return layout_of(t, self.position, self.colours, probe.slot_row, probe.mono)


def with_assignment(
    problem: Problem, seed: int, layout: Mapping[str, Sequence[Placement]] | None = None
) -> Problem:
    """The problem with a start cell for each colour that has not started on a board of
    shared starting points (Trigon: :func:`solver.backends.search.starts.unstarted`): the
    free starting point its pieces in ``layout`` cover (a warm start's), else one drawn by
    ``seed`` among the free points left (the kernel knows one start cell per colour; a
    layout found for it is a layout of the problem, and a finder need not try them all,
    as the complete search must). The problem as it is when every colour has started or
    the board has fixed start squares, or when too few starting points are free (then
    the kernel finds no layout: unknown, never "no")."""
    colours = unstarted(problem)
    if not colours:
        return problem
    free = problem.position.starting_points - problem.position.occupied
    fixed: dict[str, int] = {}
    for c in colours:
        covered = {s for p in (layout or {}).get(c, ()) for s in p.squares} & free
        if len(covered) == 1 and not covered & set(fixed.values()):
            fixed[c] = next(iter(covered))
    choices = [a for a in assignments(problem) if all(a[c] == cell for c, cell in fixed.items())]
    if not choices:
        return problem  # no free starting point: those colours can place nothing
    return with_starts(problem, random.Random(seed).choice(choices))


def kernel_ready() -> bool:
    """Whether the compiled repair search may run now: its kernel compiled in this
    process or cached on disk, or a library call (which compiles in process, 20-60 s
    the first time). On the command line while the kernel is not built yet, callers use
    today's Python search (:mod:`solver.backends.repair.repairer`) and the background
    compile (:mod:`solver.backends.warmup`) builds it for the next command."""
    from solver.backends import warmup

    return warmup.on_background_compile is None or warmup.compiled_or_cached(rk.run)


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Construct and repair a place-all layout with the compiled kernel:
    ``options.workers`` independent runs (seeds ``seed``, ``seed + 1``, ...) in threads
    (the kernel releases the GIL), the first layout stops the others.

    Returns:
        "solved" with a layout, or "unknown" (time limit or ``cancel``) with the best
        partial layout found (``stats["best_left"]``: its cells left). Never
        "infeasible". Goals other than place-all are the caller's to refuse
        (:func:`solver.backends.repair.repairer.solve`).
    """
    started = time.perf_counter()
    deadline = None if options.time_limit is None else started + options.time_limit
    restarts = options.tuning.repair.restarts
    runs = []
    for k in range(max(1, options.workers)):
        seed = (options.seed + k) % 2**31
        position = with_assignment(problem, seed).position
        runs.append(Run(position, problem.colours, seed, restarts=restarts))

    def runner(run: Run) -> Callable[[Cancel], tuple[bool]]:
        def go(stop: Cancel) -> tuple[bool]:
            return (run.advance(deadline, stop),)

        return go

    states, winner = first_proven([runner(r) for r in runs], lambda s: s[0], cancel)
    stats: dict[str, object] = {
        "seconds": round(time.perf_counter() - started, 3),
        "warm_start": 0,
        "best_left": min(r.best_cost for r in runs),
        "kernel": "compiled",
        **{k: sum(r.stats()[k] for r in runs) for k in runs[0].stats()},
    }
    if winner is not None:
        run = runs[winner]
        stats["seed"] = run.seed
        return BackendResult("solved", run.layout(), None, stats, "repair")
    closest = min(runs, key=lambda r: r.best_cost)
    return BackendResult("unknown", None, None, stats, "repair", partial=closest.best())


def warm_up() -> None:
    """Compile (or load) the kernel's entry points on a tiny position: two colours on 3x3,
    a monomino held back (:func:`solver.backends.warmup.compile_kernel`)."""
    board = Board(3, 3)
    colours = (ColourState("blue", 0, (), ("1", "2")), ColourState("red", 8, (), ("2",)))
    position = Position(board, colours)
    Run(position, ("blue", "red"), 0).advance(steps=1)
    Run(position, ("blue", "red"), 0, {"red": []}).best()
