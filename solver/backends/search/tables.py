"""The exact search's arrays: a problem's placements, squares and colours as the kernel's
tables and state (:func:`build`, :class:`ExactSearch`), the 2x2-block bound's tables, the
split of the reach into pockets (:func:`components`), and layouts read back from a
search's rows (:func:`layout_of`, :func:`found_layout`).

The algorithm is described in :mod:`solver.backends.search.exact`; the kernel that runs on
these arrays is :mod:`solver.backends.search.kernel`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from solver.backends.search import kernel as core
from solver.backends.tuning import SearchTuning
from solver.core.board import Board, neighbour_table
from solver.core.colour_symmetry import ColourSymmetry
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES, family
from solver.core.placements import board_placements, empty_board_placements, fitting_rows
from solver.core.position import Layout, Placement, Position
from solver.core.problem import Problem, connect_groups
from solver.core.symmetry import position_symmetries

#: the memo table grows by doubling up to this many rows (32 bytes each: 128 MB); a table
#: of 2^20 rows from the start made the common checks slower (its pages are touched at
#: random), one of 2^16 that stops storing when full left hard proofs unfinished
#: (docs/benchmarks.md, issue 35, attempt 11)
MEMO_MAX_ROWS = 1 << 22


_PIECE_SIZE = np.array([PIECES[n].size for n in PIECE_NAMES], dtype=np.int32)


def _block_extra(name: str) -> int:
    """How many squares more than 2 a piece can cover in one block of a 2x2 partition."""
    most = 0
    for shape in PIECES[name].orientations:
        for dr in (0, 1):
            for dc in (0, 1):
                cells = [((r + dr) // 2, (c + dc) // 2) for r, c in shape]
                most = max(most, max(cells.count(b) for b in cells))
    return max(0, most - 2)


_PIECE_EXTRA = np.array([_block_extra(n) for n in PIECE_NAMES], dtype=np.int64)


@lru_cache(maxsize=16)
def _table_extra(rows: int, cols: int) -> np.ndarray:
    """:func:`_placement_extra` of every placement on an empty rows x cols board."""
    return _placement_extra(empty_board_placements(rows, cols).squares, _blocks(rows, cols))


def _placement_extra(pl_sq: np.ndarray, blk: np.ndarray) -> np.ndarray:
    """Shape (P, 4), int8: how many squares more than 2 each placement covers in one block
    of each of the 4 partitions (0, 1 or 2)."""
    out = np.zeros((len(pl_sq), 4), dtype=np.int8)
    if len(pl_sq) == 0:
        return out
    valid = pl_sq >= 0
    for off in range(4):
        b = np.where(valid, blk[off][np.where(valid, pl_sq, 0)], -1 - np.arange(5))
        same = (b[:, :, None] == b[:, None, :]).sum(axis=2)
        out[:, off] = np.clip(same.max(axis=1) - 2, 0, 2)
    return out


@lru_cache(maxsize=16)
def _blocks(rows: int, cols: int) -> np.ndarray:
    """Shape (4, rows*cols): the 2x2 block of each square in the 4 partitions of the board
    (block corners at even or odd rows and columns)."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    width = cols // 2 + 2  # block columns; (c + 1) // 2 <= cols // 2
    return np.array(
        [((r + dr) // 2) * width + (c + dc) // 2 for dr in (0, 1) for dc in (0, 1)], dtype=np.int32
    )


@dataclass
class ExactSearch:
    """One search: the kernel's parameters and arrays, and what reading its answer needs."""

    colours: tuple[str, ...]  # the colours the search plays (pieces left)
    held_colours: tuple[str, ...]  # colours whose monomino is held back, in order
    params: np.ndarray  # (N_PARAMS,) int64, slots core.P_*
    tables: core.Tables
    state: core.State
    infeasible: bool = False  # decided before any search
    constant_score: int = 0  # max-score: played colours with nothing left
    stats: dict[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = PIECE_NAMES  # the piece names pl_piece indexes (the family's)

    @property
    def st(self) -> np.ndarray:
        """The kernel's scalars (``core.S_*``)."""
        return self.state.st

    @property
    def nodes(self) -> int:
        """Nodes run so far (:class:`solver.backends.driver.ResumableSearch`)."""
        return int(self.state.st[core.S_NODES])

    @property
    def memo_on(self) -> bool:
        return bool(self.params[core.P_MEMO] == 1)

    def run(self, budget: int) -> int:
        """Search at most ``budget`` more nodes; a kernel code (``core.DONE`` ...). A memo
        table that has filled up (the kernel stops storing at 70 %) is doubled before the
        next call, up to :data:`MEMO_MAX_ROWS` rows."""
        code = int(core.run_chunk(self.params, self.tables, self.state, budget))
        memo = self.state.memo
        full = self.st[core.S_STORES] >= (memo.shape[0] * 7) // 10
        if code == core.PAUSE and self.memo_on and full and memo.shape[0] < MEMO_MAX_ROWS:
            bigger = np.zeros((2 * memo.shape[0], 4), dtype=np.int64)
            core.memo_rehash(memo, bigger)
            self.state = self.state._replace(memo=bigger)
        return code

    def clone(self, late: int, seed: int = 0) -> ExactSearch:
        """A fresh copy of the state (the read-only tables are shared), searching with other
        value orders: ``late`` as :attr:`SearchTuning.late`, ``seed`` shuffling equal-size
        children."""
        params = self.params.copy()
        params[core.P_LATE] = late
        tables = self.tables
        if seed:
            tables = tables._replace(cov_idx=_shuffled_children(tables, seed))
        return ExactSearch(
            self.colours,
            self.held_colours,
            params,
            tables,
            self.state.copy(),
            self.infeasible,
            self.constant_score,
            dict(self.stats),
            self.names,
        )

    def reordered(self, seed: tuple[int, ...]) -> ExactSearch:
        """A fresh copy of the state (the read-only tables shared) with the value order
        that tries the placements of the piece with the fewest live placements in reach
        first (``core.P_ORDER``), equals in an order drawn from ``seed`` (NumPy's
        generator seeded with all its entries: independent streams). The search stays
        complete; for restarts (:func:`solve_symmetric`)."""
        tie = np.random.default_rng(list(seed)).integers(0, 1 << 28, len(self.tables.tie))
        params = self.params.copy()
        params[core.P_ORDER] = 1
        return ExactSearch(
            self.colours,
            self.held_colours,
            params,
            self.tables._replace(tie=tie),
            self.state.copy(),
            self.infeasible,
            self.constant_score,
            dict(self.stats),
            self.names,
        )


def _shuffled_children(tables: core.Tables, seed: int) -> np.ndarray:
    """``cov_idx`` with the placements of equal size in each list in random order."""
    rng = np.random.default_rng(seed)
    ptr, idx, size = tables.cov_ptr, tables.cov_idx.copy(), tables.pl_size
    for a, b in zip(ptr[:-1], ptr[1:]):
        if b - a > 1:
            block = idx[a:b]
            idx[a:b] = block[np.lexsort((rng.random(b - a), -size[block]))]
    return idx


@lru_cache(maxsize=16)
def _geometry(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge, corner and king neighbours of each cell, shapes (N, 4), (N, 4), (N, 8) on the
    square grid ((N, 3), (N, 9), (N, 12) on Trigon), padded with -1 (blocked squares do
    not matter here)."""
    if not board.square_grid:
        geometry = board.geometry
        edge, corner = geometry.edge_table, geometry.corner_table
        king = np.concatenate((edge, corner), axis=1)
        king = np.take_along_axis(king, np.argsort(king < 0, axis=1, kind="stable"), axis=1)
        return edge, corner, np.ascontiguousarray(king, dtype=np.int32)
    return _square_geometry(board.rows, board.cols)


@lru_cache(maxsize=16)
def _square_geometry(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    board = Board(rows, cols)
    king = tuple(e + c for e, c in zip(board.edge_neighbours, board.corner_neighbours))
    return (
        neighbour_table(board.edge_neighbours, 4),
        neighbour_table(board.corner_neighbours, 4),
        neighbour_table(king, 8),
    )


@dataclass(frozen=True)
class _Roles:
    """Which colours a search plays, and how their monominoes are handled."""

    playing: tuple[str, ...]  # played colours with pieces left
    held: tuple[str, ...]  # monomino held back, placed last at a leaf
    checked: tuple[str, ...]  # two monominoes: a leaf needs one that can be last
    constant_score: int  # score of the played colours with nothing left
    infeasible: bool  # a colour cannot end with its monomino


def _roles(problem: Problem, mode: int) -> _Roles:
    position = problem.position
    monomino_last = problem.monomino_last and mode != core.MAXSCORE
    playing: list[str] = []
    held: list[str] = []
    checked: list[str] = []
    constant, infeasible = 0, False
    for name in problem.colours:
        state = position.colour(name)
        if not state.remaining:
            constant += position.score(name)
            if monomino_last and state.last_piece != MONOMINO:
                infeasible = True
            continue
        playing.append(name)
        n_mono = state.remaining.count(MONOMINO)
        if not monomino_last:
            continue
        if n_mono == 0:
            infeasible = True
        elif len(state.remaining) == 1:
            pass  # its only piece left, the monomino, is last wherever it goes
        elif n_mono == 1 and not problem.has_card_goals:
            held.append(name)
        else:
            checked.append(name)
    return _Roles(tuple(playing), tuple(held), tuple(checked), constant, infeasible)


@dataclass(frozen=True)
class _PlacementArrays:
    """The placements of every playing colour, in one table."""

    piece: np.ndarray  # (P,) int32
    squares: np.ndarray  # (P, 5) int32, padded with -1 ((P, 6) on Trigon)
    colour: np.ndarray  # (P,) int32: index into the playing colours
    extra: np.ndarray  # (P, 4) int8: see _placement_extra
    size: np.ndarray  # (P,) int32
    some_piece_fits_nowhere: bool  # (a remaining piece of some colour has no placement)
    npieces: int = core.NPIECES  # pieces in the board's family (21; 22 on Trigon)


def _placement_arrays(
    position: Position,
    roles: _Roles,
    seed: int,
    avoid: Mapping[str, frozenset[int]] | None = None,
) -> _PlacementArrays:
    """The placements that fit (:func:`solver.core.placements.fitting_rows`) for each playing
    colour, held monominoes left out; ``seed`` != 0 shuffles them. ``avoid``: colour ->
    cells none of its placements may cover (but its monomino's where it must be last and
    is not its only piece left: see :func:`build`)."""
    board = position.board
    table = board_placements(board)
    if board.square_grid:
        extra = _table_extra(board.rows, board.cols)
    else:  # the 2x2-block bound is the square grid's: no extra
        extra = np.zeros((len(table), 4), dtype=np.int8)
    index = family(board.grid).index
    pieces, squares, col, bx_rows = [], [], [], []
    nowhere = False
    for i, name in enumerate(roles.playing):
        held = name in roles.held
        rows = fitting_rows(position, name, skip_monomino=held)
        if avoid and avoid.get(name):
            cells = np.zeros(board.size + 1, dtype=bool)  # the last one: the padding's -1
            cells[sorted(avoid[name])] = True
            keep = ~cells[table.squares[rows]].any(axis=1)
            if name in roles.checked:  # its monomino may lie there: it is not first
                keep |= table.piece[rows] == index[MONOMINO]
            rows = rows[keep]
        piece = table.piece[rows].astype(np.int32)
        have = np.bincount(piece, minlength=len(table.names))
        nowhere |= any(
            have[index[p]] == 0
            for p in position.colour(name).remaining
            if not (p == MONOMINO and held)
        )
        pieces.append(piece)
        squares.append(table.squares[rows].astype(np.int32))
        col.append(np.full(len(piece), i, dtype=np.int32))
        bx_rows.append(extra[rows])
    pl_piece = np.concatenate(pieces) if pieces else np.zeros(0, np.int32)
    width = table.squares.shape[1]
    pl_sq = np.concatenate(squares) if squares else np.zeros((0, width), np.int32)
    pl_col = np.concatenate(col) if col else np.zeros(0, np.int32)
    pl_bx = np.concatenate(bx_rows) if bx_rows else np.zeros((0, 4), np.int8)
    if seed:
        perm = np.random.default_rng(seed).permutation(len(pl_piece))
        pl_piece, pl_sq, pl_col, pl_bx = pl_piece[perm], pl_sq[perm], pl_col[perm], pl_bx[perm]
    pl_size = (pl_sq >= 0).sum(axis=1).astype(np.int32)
    return _PlacementArrays(pl_piece, pl_sq, pl_col, pl_bx, pl_size, nowhere, len(table.names))


def _pointers(keys: np.ndarray, n_keys: int) -> np.ndarray:
    """CSR pointers, shape (n_keys + 1,), int64, of lists sorted by key."""
    return np.concatenate(([0], np.cumsum(np.bincount(keys, minlength=n_keys)))).astype(np.int64)


def _cover_lists(pl: _PlacementArrays, ncol: int, nsq: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR (cov_ptr, cov_idx): the placements of colour c covering square s, largest first."""
    flat_p = np.repeat(np.arange(len(pl.piece), dtype=np.int64), pl.squares.shape[1])
    flat_s = pl.squares.ravel().astype(np.int64)
    ok = flat_s >= 0
    flat_p, flat_s = flat_p[ok], flat_s[ok]
    key = pl.colour[flat_p].astype(np.int64) * nsq + flat_s
    order = np.lexsort((flat_p, -pl.size[flat_p], key))
    return _pointers(key, max(ncol, 1) * nsq), flat_p[order].astype(np.int32)


def _piece_lists(pl: _PlacementArrays, ncol: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR (pp_ptr, pp_idx): the placements of colour c and piece t."""
    key = pl.colour.astype(np.int64) * pl.npieces + pl.piece
    order = np.argsort(key, kind="stable").astype(np.int32)
    return _pointers(key, max(ncol, 1) * pl.npieces), order


@dataclass(frozen=True)
class _ColourArrays:
    """Each playing colour's state before the search (shapes as in core.State)."""

    bl: np.ndarray
    cornr: np.ndarray
    own0: np.ndarray
    nsqc: np.ndarray
    rem: np.ndarray
    remarea: np.ndarray
    start: np.ndarray
    sqcol: np.ndarray


def _colour_arrays(position: Position, roles: _Roles) -> _ColourArrays:
    board = position.board
    nsq, ncol = board.size, len(roles.playing)
    index = {c: i for i, c in enumerate(roles.playing)}
    bl = np.zeros((ncol, nsq), dtype=np.int16)
    cornr = np.zeros((ncol, nsq), dtype=np.int16)
    own0 = np.zeros((ncol, nsq), dtype=np.uint8)
    nsqc = np.zeros(ncol, dtype=np.int64)
    pieces = family(board.grid)
    rem = np.zeros((ncol, len(pieces.names)), dtype=np.int64)
    remarea = np.zeros(ncol, dtype=np.int64)
    start = np.full(ncol, -1, dtype=np.int32)
    taken = list(set(board.blocked) | set(position.occupied))
    sqcol = np.full(nsq, -1, dtype=np.int32)
    sqcol[list(board.blocked)] = -2
    for k, state in enumerate(position.colours):
        code = index.get(state.name, ncol + k)
        for s in state.squares:
            sqcol[s] = code
    for i, name in enumerate(roles.playing):
        state = position.colour(name)
        bl[i, taken] = 1
        for s in state.squares:
            own0[i, s] = 1
            for e in board.edge_neighbours[s]:
                bl[i, e] += 1
            for d in board.corner_neighbours[s]:
                cornr[i, d] += 1
        nsqc[i] = len(state.squares)
        start[i] = -1 if state.start is None else state.start
        for p in state.remaining:
            if p == MONOMINO and name in roles.held:
                continue
            rem[i, pieces.index[p]] += 1
            remarea[i] += pieces.size[p]
    return _ColourArrays(bl, cornr, own0, nsqc, rem, remarea, start, sqcol)


def _params(
    mode: int, limit: int, bonus: bool, tuning: SearchTuning, square: bool = True
) -> np.ndarray:
    params = np.zeros(core.N_PARAMS, dtype=np.int64)
    params[core.P_MODE] = mode
    params[core.P_LIMIT] = limit
    params[core.P_BONUS] = int(bonus)
    params[core.P_STRONG] = tuning.strong
    params[core.P_BLOCKS] = int(tuning.blocks and square)
    params[core.P_LATE] = tuning.late
    params[core.P_MEMO] = 0  # switched on by _memo_on
    return params


def _state(
    colours: _ColourArrays,
    max_cov: int,
    nsq: int,
    groups: int,
    stars: int,
    rows: int,
) -> core.State:
    """The search state at the root: the colours' arrays, an empty path, scratch space."""
    ncol = len(colours.nsqc)
    n_pieces = int(colours.rem.sum()) + 2
    npieces = colours.rem.shape[1]  # the family's pieces (21; 22 on Trigon)
    max_depth = ncol * nsq + n_pieces + 2
    st = np.zeros(core.N_SCALARS, dtype=np.int64)
    st[core.S_NEED] = 1
    st[core.S_BEST] = core.NEG_INF
    at_least_one = max(ncol, 1)
    return core.State(
        ext=np.zeros((4, npieces), dtype=np.int64),
        bl=colours.bl,
        excl=np.zeros((ncol, nsq), dtype=np.int8),
        cornr=colours.cornr,
        nsqc=colours.nsqc,
        rem=colours.rem,
        remarea=colours.remarea,
        sqcol=colours.sqcol,
        sqpl=np.full(nsq, -1, dtype=np.int32),
        path=np.zeros(n_pieces, dtype=np.int32),
        fr_c=np.zeros(max_depth, dtype=np.int32),
        fr_x=np.zeros(max_depth, dtype=np.int32),
        fr_lo=np.zeros(max_depth, dtype=np.int32),
        fr_hi=np.zeros(max_depth, dtype=np.int32),
        fr_cur=np.zeros(max_depth, dtype=np.int32),
        ch=np.zeros(max_depth * (max_cov + 1) + 1, dtype=np.int32),
        st=st,
        mark=np.zeros(nsq, dtype=np.int64),
        cmark=np.zeros(nsq, dtype=np.int64),
        queue=np.zeros(nsq, dtype=np.int32),
        attach=np.zeros(nsq, dtype=np.int32),
        pcount=np.zeros(npieces, dtype=np.int64),
        cand=np.zeros((at_least_one, nsq), dtype=np.int32),
        ncand=np.zeros(at_least_one, dtype=np.int64),
        fix=np.zeros(groups, dtype=np.int64),
        sol=np.zeros(n_pieces, dtype=np.int32),
        sol_mono=np.zeros(at_least_one, dtype=np.int32),
        best=np.zeros(n_pieces, dtype=np.int32),
        fr_key=np.full((max_depth, 3), -1, dtype=np.int64),
        memo=np.zeros((1, 4), dtype=np.int64),
        sok=np.zeros(stars, dtype=np.int64),
        gmark=np.zeros(nsq, dtype=np.int64),
        gqueue=np.zeros(nsq, dtype=np.int32),
        omark=np.zeros(nsq, dtype=np.int64),
        porder=np.zeros(npieces, dtype=np.int64),
        dlab=np.zeros(nsq, dtype=np.int32),
        dsz=np.zeros(nsq, dtype=np.int64),
        rmask=np.zeros(rows, dtype=np.int64),
        scan=np.zeros((at_least_one, nsq), dtype=np.int32),
        nscan=np.full(at_least_one, -1, dtype=np.int64),
    )


def _tables(
    problem: Problem,
    roles: _Roles,
    pl: _PlacementArrays,
    colours: _ColourArrays,
    gperm: np.ndarray,
) -> core.Tables:
    """The read-only arrays: placements and their indexes, geometry, colours' roles, the
    card goals."""
    position = problem.position
    board = position.board
    ncol = len(roles.playing)
    cov_ptr, cov_idx = _cover_lists(pl, ncol, board.size)
    pp_ptr, pp_idx = _piece_lists(pl, ncol)
    edge_nb, corner_nb, king_nb = _geometry(board)
    square = board.square_grid
    pieces = family(board.grid)
    return core.Tables(
        pl_sq=pl.squares,
        pl_col=pl.colour,
        pl_piece=pl.piece,
        pl_size=pl.size,
        cov_ptr=cov_ptr,
        cov_idx=cov_idx,
        pp_ptr=pp_ptr,
        pp_idx=pp_idx,
        edge_nb=edge_nb,
        corner_nb=corner_nb,
        king_nb=king_nb,
        psize=_PIECE_SIZE if square else np.array(pieces.sizes, dtype=np.int32),
        pextra=_PIECE_EXTRA if square else np.zeros(len(pieces.names), dtype=np.int64),
        pl_bx=pl.extra,
        start=colours.start,
        own0=colours.own0,
        monoin=np.array(
            [MONOMINO in position.colour(c).remaining for c in roles.playing], dtype=np.int8
        ),
        held=np.array([c in roles.held for c in roles.playing], dtype=np.int8),
        monochk=np.array([c in roles.checked for c in roles.playing], dtype=np.int8),
        gperm=gperm,
        rmult=np.zeros(len(pieces.names) + 1, dtype=np.int64),  # memo: off (see _memo_on)
        star=np.array(sorted(problem.stars_left), dtype=np.int32),
        conn=np.array([c in problem.connect for c in roles.playing], dtype=np.int8),
        img=np.zeros((board.size, 0), dtype=np.int32),
        orb=np.zeros(0, dtype=np.int32),
        tie=np.zeros(len(pl.piece), dtype=np.int64),
        zob=np.zeros((0, 4), dtype=np.int64),  # memo: off (see _memo_on)
        # the 2x2-block bound's rows and columns (square grid only; P_BLOCKS is off on others)
        sqr=(np.arange(board.size) // board.cols if square else np.zeros(board.size)).astype(
            np.int32
        ),
        sqc=(np.arange(board.size) % board.cols if square else np.zeros(board.size)).astype(
            np.int32
        ),
    )


def _orbit_ids(elements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N,) each square's orbit under the group ``elements`` (G, N) (its smallest
    square), and (N,) bool: the orbit is whole (no element but the identity fixes it)."""
    orbit = elements.min(axis=0).astype(np.int32)
    whole = (np.sort(elements, axis=0)[1:] != np.sort(elements, axis=0)[:-1]).all(axis=0)
    return orbit, whole


def _whole_orbits_only(pl: _PlacementArrays, elements: np.ndarray) -> _PlacementArrays:
    """The placements whose squares lie in distinct whole orbits of the group."""
    orbit, whole = _orbit_ids(elements)
    valid = pl.squares >= 0
    sq = np.where(valid, pl.squares, 0)
    ids = np.where(valid, orbit[sq], -1 - np.arange(pl.squares.shape[1]))
    ids = np.sort(ids, axis=1)
    keep = (ids[:, 1:] != ids[:, :-1]).all(axis=1) & (whole[sq] | ~valid).all(axis=1)
    return _PlacementArrays(
        pl.piece[keep],
        pl.squares[keep],
        pl.colour[keep],
        pl.extra[keep],
        pl.size[keep],
        pl.some_piece_fits_nowhere,
        pl.npieces,
    )


def _with_images(tables: core.Tables, bl: np.ndarray, elements: np.ndarray) -> core.Tables:
    """``tables`` of a symmetric reduction: the images of each square (``img``), its orbit
    (``orb``); squares in orbits that are not whole are blocked in ``bl`` for every colour
    (an element fixes them: they can only stay empty)."""
    orbit, whole = _orbit_ids(elements)
    bl[:, ~whole] += 1
    img = np.ascontiguousarray(elements[1:].T, dtype=np.int32)
    return tables._replace(img=img, orb=orbit)


def build(
    problem: Problem,
    mode: int,
    limit: int = 0,
    up_to_symmetry: bool = False,
    seed: int = 0,
    tuning: SearchTuning = SearchTuning(),
    symmetry: ColourSymmetry | None = None,
    avoid: Mapping[str, frozenset[int]] | None = None,
    group: Sequence[np.ndarray] | None = None,
) -> ExactSearch:
    """The kernel's parameters and arrays for a problem, in ``mode`` (``core.FIND``,
    ``COUNT`` or ``MAXSCORE``), ``limit`` as ``core.P_LIMIT``; ``seed`` != 0 shuffles the
    order of the children among placements of equal size (the search stays complete and
    counts stay exact).

    With ``symmetry`` (a group of :func:`solver.core.colour_symmetry.colour_symmetries`
    of the position), the search is its *symmetric reduction*: ``problem.colours`` are the
    group's representatives, each placement also takes the squares of its images (the
    other colours of the orbit: :attr:`core.Tables.img`), placements with two squares in
    one orbit and squares some element other than the identity fixes are left out, and the
    reach counts orbits. Its layouts, mapped by :func:`solver.core.colour_symmetry.expand`,
    are exactly the layouts the group maps onto themselves (FIND, or COUNT without
    ``up_to_symmetry``).

    ``avoid`` (colour -> cells) leaves out each placement of that colour covering one of
    the cells, except its monomino's where the monomino must be its last piece and is not
    its only piece left (held monominoes are never in the table: they may take any cell
    a leaf allows): the counts of a colour with no piece yet on Trigon, one search per
    smallest starting point it covers (:mod:`solver.backends.search.counting`). ``group``:
    the symmetries counted over with ``up_to_symmetry`` (identity first), instead of the
    position's own (a problem given start squares has fewer).

    Raises:
        ValueError: ``symmetry`` with MAXSCORE or ``up_to_symmetry``, or colours other
            than its representatives.
    """
    position = problem.position
    nsq = position.board.size
    roles = _roles(problem, mode)
    pl = _placement_arrays(position, roles, seed, avoid)
    if symmetry is not None:
        if (
            mode == core.MAXSCORE
            or up_to_symmetry
            or set(problem.colours) != set(symmetry.representatives)
        ):
            raise ValueError("a symmetric reduction finds or counts its representatives' layouts")
        pl = _whole_orbits_only(pl, np.stack(symmetry.elements))
    # "place-all": a remaining piece that fits nowhere decides it at once
    infeasible = roles.infeasible or (mode != core.MAXSCORE and pl.some_piece_fits_nowhere)
    colours = _colour_arrays(position, roles)
    if not up_to_symmetry:
        group = [np.arange(nsq)]
    elif group is None:
        group = position_symmetries(position, (problem.cover,))
    gperm = np.array(group, dtype=np.int32)
    # a colour to connect with nothing left to place: its groups are final
    infeasible |= any(
        len(connect_groups(position, c)) > 1 for c in problem.connect if c not in roles.playing
    )
    tables = _tables(problem, roles, pl, colours, gperm)
    if symmetry is not None:
        tables = _with_images(tables, colours.bl, np.stack(symmetry.elements))
    n_pl = len(pl.piece)
    max_cov = int(np.max(np.diff(tables.cov_ptr))) if n_pl else 0
    state = _state(
        colours,
        max_cov,
        nsq,
        len(gperm),
        len(tables.star),
        position.board.rows,
    )
    return ExactSearch(
        roles.playing,
        roles.held,
        _params(mode, limit, position.bonus, tuning, position.board.square_grid),
        tables,
        state,
        infeasible,
        roles.constant_score,
        {"placements": n_pl, "symmetries": len(gperm)},
        family(position.board.grid).names,
    )


def components(search: ExactSearch) -> tuple[np.ndarray, int]:
    """The root reach components of a one-colour search: the squares flooded with king
    moves through allowed squares from the colour's attach squares, split into connected
    parts (placements and the allowed squares next to them never straddle two).

    Returns (rank of each square's component, -1 for squares in none: an int32 array of
    shape (board squares,); number of components); ranks go by size, smallest first (the
    order of their sizes: the memo search fills the smallest part first, :func:`_memo_on`).
    """
    tables, state = search.tables, search.state
    bl, cornr, king = state.bl[0], state.cornr[0], tables.king_nb
    start = int(tables.start[0])
    label = np.full(len(bl), -1, dtype=np.int32)
    if state.nsqc[0] == 0:
        seeds = [start] if start >= 0 and bl[start] == 0 else []
    else:
        seeds = np.flatnonzero((cornr > 0) & (bl == 0)).tolist()
    sizes: list[int] = []
    for x in seeds:
        if label[x] >= 0:
            continue
        k = len(sizes)
        label[x] = k
        stack, n = [x], 1
        while stack:
            y = stack.pop()
            for z in king[y]:
                if z >= 0 and bl[z] == 0 and label[z] < 0:
                    label[z] = k
                    stack.append(z)
                    n += 1
        sizes.append(n)
    order = sorted(range(len(sizes)), key=lambda i: (sizes[i], i))
    rank = np.empty(len(sizes) + 1, dtype=np.int32)
    rank[order] = np.arange(len(sizes), dtype=np.int32)
    rank[-1] = -1
    return rank[label], len(sizes)


def placement_of(search: ExactSearch, p: int) -> tuple[str, Placement]:
    colour = search.colours[int(search.tables.pl_col[p])]
    sq = search.tables.pl_sq[p]
    squares = frozenset(int(s) for s in sq[sq >= 0])
    return colour, Placement(search.names[search.tables.pl_piece[p]], squares)


def layout_of(
    search: ExactSearch, problem: Problem, rows: np.ndarray, n: int, monos: np.ndarray | None
) -> Layout:
    layout: Layout = {c: [] for c in problem.colours}
    for p in rows[:n]:
        colour, placement = placement_of(search, int(p))
        layout[colour].append(placement)
    if monos is not None:
        for colour, sq in zip(search.held_colours, monos):
            layout[colour].append(Placement(MONOMINO, frozenset({int(sq)})))
    return layout


def found_layout(search: ExactSearch, problem: Problem) -> dict[str, list[Placement]]:
    """The layout a FIND search stopped at (its path and the held monominoes' squares)."""
    state = search.state
    n_held = len(search.held_colours)
    return layout_of(
        search, problem, state.sol, int(state.st[core.S_SOLN]), state.sol_mono[:n_held]
    )
