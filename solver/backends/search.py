"""The exact search backend: a Blokus-aware depth-first search that enforces connectivity.

The search works on the exact-cover formulation of :mod:`solver.exact_cover` (options =
placements; a placement of colour c uses its piece, its squares and c's grid edges at its
squares) but only ever grows each colour's connected set, the way a player plays:

* Branch on an *attach square* x of a colour c (an allowed square sharing a corner with c,
  or c's start square while it has no square), chosen over all played colours as the one
  with the fewest live placements covering it. Children: each live placement of a
  remaining piece of c covering x (it is connected by construction), then "x is never
  covered by c" (x becomes *excluded* for c). A colour with no square must cover its start
  square in "place-all": no exclude child there.
* Every final layout decides every branch, so each layout is reached by exactly one path:
  the tree both proves infeasibility and counts distinct layouts (order of play ignored).
* Prune ("place-all"): a colour with pieces left and no attach square; a remaining piece
  with no live placement in the colour's *reach*; a remaining area larger than what the
  reach can hold. The reach is flooded with king moves (pieces connect diagonally) from
  the attach squares through allowed squares, then once more through the squares that
  some live placement in reach covers (``STRONG`` = 2; 1 = repeat to a fixpoint). What it
  can hold is capped by a 2x2-block bound: in any partition of the board into 2x2 blocks,
  a colour covers at most 2 squares of a block unless one piece covers 3 or 4 of them
  (3 squares of a block share edges, and same-colour pieces never do), which each piece
  can do in one block at most (``BLOCKS``).
* ``monomino_last``: the colour's monomino is held back; exclusions then bind the other
  pieces only, and at a leaf the monomino goes on any free attach square (ignoring
  exclusions) of its colour; several colours' monominoes take distinct squares. A colour
  with two monominoes (Junior) plays them as ordinary pieces and a leaf is kept only if
  one of them can be last (the others stay connected without it).
* "max-score" (``monomino_last`` is ignored there): branch and bound over the same tree;
  every node is a legal layout, scored officially (+15 / +5 only with ``position.bonus``;
  +5 when the monomino is among the added pieces and the others stay connected without
  it). Upper bound per colour: minus the area of remaining pieces with no live placement
  in reach (or the area deficit over what the reach can hold), plus the bonus if nothing
  is lost. With one colour the loss bound is rounded up to a loss the colour can end
  with: the area of the unplaceable pieces plus a subset sum of the others (a bit set);
  e.g. a colour without a monomino never loses exactly 1. On a time-out: the best layout
  as "solved" with the root bound.

Value order and portfolio. Children are tried largest piece first, the exclusion last;
``LATE`` = k tries placements of at most k squares after the exclusion (small pieces are
the most flexible). Value order changes nothing on an infeasible check (the whole tree is
searched) but a lot on feasible ones: heavy tails. ``solve`` therefore runs, with
``options.workers`` >= 2, copies of the search with other value orders (:data:`PORTFOLIO`)
in threads (the kernel releases the GIL) and takes the first answer; each copy is complete.
Measured: classic2-L6-s86 move 30 green is unknown after 120 s with LATE = 0 and solved in
34 nodes with LATE = 2, while LATE = 2 alone leaves two early checks unknown that LATE = 0
solves at once.

Hard cases: the component memo (one colour; "place-all" and "max-score"). Late in a game
a colour's reach splits into *components* that never interact: pockets of free squares
walled off from each other (no placement, and no allowed square next to one, straddles
two). The plain search interleaves its decisions across pockets, so a failure in one
pocket is found again under every way of filling the others: the tree is a product.
After :data:`FIRST_CHUNK` nodes without an answer, a fresh search decides the components
one at a time, smallest first (:func:`_components`), and at each *entry* (every touched
component closed, the others untouched) looks up the untouched set and the pieces left in
a hash table of subproblems already exhausted without a good enough layout (details in
:func:`solver.backends.search_kernel.run`). Junior's two copies of a piece are not a symmetry
of this
tree (a placement is a piece type and squares, the copies are a count, and every layout
is reached once: the counts match brute force); the pockets were the blow-up.

Measured on the real checks (55 Pentobi games, every 10th placement, ``benchmarks/
endgame_checks.py``, 936 checks, 2-core machine shared with other work; load ~1, in
brackets two more runs each at load ~3):

* before: yes 602 / no 334 / unknown 0 (333 / 1); 332 of the "no" bests proven optimal,
  2 only bounded at 10 s (331 / 2-3); 72 s in all (69-75 s); median 2.6 ms, 90th
  percentile 8.3 ms (8.2-8.6), worst 17.8 s (13.5-18.6). After: yes 602 / no 334 /
  unknown 0; all 334 bests proven optimal; 12-13 s in all; median 2.6-2.7 ms, 90th
  percentile 8.1 ms (6.7-10.4), worst 1.67 s (junior-L7-4-s102 after 20, orange: place-all
  0.5 s, max-score 1.2 s). Checks that took under 5 ms before: the same (geometric mean of
  the time ratios 0.97-0.99); 5-20 ms: 0.91; over 20 ms: 0.19-0.53.
* junior-L2-s105 after 20, orange, place-all ("no"), one thread: 4.97 M nodes, 7.8 s
  plain; 136 k nodes, 0.26 s with the memo; max-score (best -3): not proven in 20 s
  (14 M nodes) plain, 344 k nodes and 0.54 s with the memo. junior-L1-s104 after 20,
  purple, max-score (-7): 6.9 M nodes, 16.4 s plain; 319 k, 0.72 s with the memo.
* ablation over the checks that took over 20 ms (45 max-score, 63 place-all solves; one
  thread, 20 s each): max-score plain 74.2 s, + rounded loss bound 53.8 s, + memo 6.3 s
  (memo without rounding: 10.8 s); place-all plain 33-41 s, memo 4.0-4.2 s. Rounding
  alone: junior-L7-4-s102 orange 3.3 M -> 0.67 M nodes.
* the order of the components matters (same checks, load ~5): max-score / place-all
  smallest first 8.7 s / 5.7 s; largest first 38.5 s / 27.6 s (junior-L7-4-s102 orange
  unknown at 20 s); the component of the most constrained attach square 13.8 s / 3.9 s
  (junior-L1-s104 purple max-score 5.1 s). The memo search is slower than the plain one
  on a few checks the plain one ends soon after the first chunk (duo-L1-s15 after 20,
  orange, max-score: 10 k nodes plain, 44 k with the memo); a larger first chunk lost
  more on the others than it saved (simulated from the same runs).
* loss deepening (for loss = 1, 2, ...: is there a layout leaving at most that many
  squares, each a search with a fixed threshold) was tried instead of the memo: it made
  max-score on junior-L2-s105 orange 1.8 s but took 4.6 s on classic2-L6-s86 after 40,
  yellow (10 levels of about equal cost, 0.48 s by branch and bound).

``PIECE_BRANCH`` (off) branches on a single piece with fewer live placements in reach than
the best attach square has; the piece may float until joined (checked at the leaf, and the
reach must get to every floating piece). It is exact (tested) but on the 13 hardest checks
it halved the node rate for few saved nodes and turned 18 nodes into 1.2 million on a
feasible one (duo-L6-s12 move 10).

The hot loop is compiled with numba in :mod:`solver.backends.search_kernel`; this module builds its
arrays and checks the clock between chunks of nodes. On a time-out the answer is "unknown"
(never "infeasible"); max-score returns the best layout found as "solved" with the root
bound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from solver.backends import search_kernel as core
from solver.board import Board, neighbour_table
from solver.pieces import MONOMINO, PIECE_NAMES, PIECES
from solver.placements import empty_board_placements, fitting_rows
from solver.position import Placement
from solver.problem import Problem
from solver.solve import BackendResult, EitherEvent, SolveOptions, join_all
from solver.symmetry import position_symmetries

MONO = PIECES[MONOMINO].index

# Search settings; the module docstring says what each does and why these values.
#: reach flood through coverable squares: 0 off, 1 to a fixpoint, 2 one refined flood
STRONG = 2
#: 2x2-block cap on the area a reach can hold (1 on, 0 off)
BLOCKS = 1
#: placements of at most this many squares are tried after the exclusion child
LATE = 0
#: branch on a single piece with few placements (1 on, 0 off)
PIECE_BRANCH = 0
#: (LATE, seed) of the extra portfolio members, one per worker beyond the first
PORTFOLIO = ((2, 0), (1, 1), (0, 2))
#: nodes searched as built before a one-colour search switches to the component memo
#: (most checks end within them; the module docstring says why 2000)
FIRST_CHUNK = 2000

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


@dataclass
class _Search:
    """The arrays of one search (see :mod:`solver.backends.search_kernel`)."""

    colours: tuple[str, ...]  # the colours the search plays (pieces left)
    held_colours: tuple[str, ...]  # colours whose monomino is held back, in order
    table_piece: np.ndarray
    table_squares: np.ndarray
    arrays: dict  # the kernel's arguments by name, in order
    infeasible: bool = False  # decided before any search
    constant_score: int = 0  # max-score: played colours with nothing left
    stats: dict = field(default_factory=dict)

    @property
    def args(self) -> tuple:
        return tuple(self.arrays.values())

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays")
        if arrays is not None and name in arrays:
            return arrays[name]
        raise AttributeError(name)

    def clone(self, late: int, seed: int = 0) -> _Search:
        """A fresh copy of the state (the read-only tables are shared), searching with other
        value orders: ``late`` as :data:`LATE`, ``seed`` shuffling equal-size children."""
        arrays = {k: (v if k in _SHARED else v.copy()) for k, v in self.arrays.items()}
        arrays["params"][6] = late
        if seed:
            rng = np.random.default_rng(seed)
            ptr, idx = arrays["cov_ptr"], arrays["cov_idx"].copy()
            size = arrays["pl_size"]
            for a, b in zip(ptr[:-1], ptr[1:]):
                if b - a > 1:
                    block = idx[a:b]
                    idx[a:b] = block[np.lexsort((rng.random(b - a), -size[block]))]
            arrays["cov_idx"] = idx
        return _Search(
            self.colours,
            self.held_colours,
            self.table_piece,
            self.table_squares,
            arrays,
            self.infeasible,
            self.constant_score,
            dict(self.stats),
        )


_SHARED = frozenset(
    "pl_sq pl_col pl_piece pl_size cov_ptr cov_idx pp_ptr pp_idx edge_nb "
    "corner_nb king_nb psize pextra pl_bx blk start own0 monoin held monochk "
    "gperm hasown comp rmult".split()
)


@lru_cache(maxsize=16)
def _geometry(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge, corner and king neighbours of each square, shapes (N, 4), (N, 4), (N, 8),
    padded with -1 (blocked squares do not matter here)."""
    board = Board(rows, cols)
    king = tuple(e + c for e, c in zip(board.edge_neighbours, board.corner_neighbours))
    return (
        neighbour_table(board.edge_neighbours, 4),
        neighbour_table(board.corner_neighbours, 4),
        neighbour_table(king, 8),
    )


def _build(
    problem: Problem, mode: int, limit: int = 0, up_to_symmetry: bool = False, seed: int = 0
) -> _Search:
    """The kernel's arrays for a problem; ``seed`` != 0 shuffles the order of the children
    among placements of equal size (the search stays complete and counts stay exact)."""
    position = problem.position
    board = position.board
    nsq = board.size
    monomino_last = problem.monomino_last and mode != core.MAXSCORE
    infeasible = False
    constant = 0
    colours, held_colours, check_colours = [], [], []
    for name in problem.colours:
        state = position.colour(name)
        n_mono = state.remaining.count(MONOMINO)
        if not state.remaining:
            constant += position.score(name)
            if monomino_last and state.last_piece != MONOMINO:
                infeasible = True
            continue
        colours.append(name)
        if monomino_last:
            if n_mono == 0:
                infeasible = True
            elif len(state.remaining) == 1:
                pass  # its only piece left, the monomino, is last wherever it goes
            elif n_mono == 1:
                held_colours.append(name)
            else:
                check_colours.append(name)
    ncol = len(colours)
    index = {c: i for i, c in enumerate(colours)}
    held = np.array([c in held_colours for c in colours], dtype=np.int8)
    monochk = np.array([c in check_colours for c in colours], dtype=np.int8)
    monoin = np.array([MONOMINO in position.colour(c).remaining for c in colours], dtype=np.int8)

    # placements, all colours in one table
    table = empty_board_placements(board.rows, board.cols)
    pieces, squares, col, bx_rows = [], [], [], []
    for i, name in enumerate(colours):
        rows = fitting_rows(position, name, skip_monomino=bool(held[i]))
        piece = table.piece[rows].astype(np.int32)
        sq = table.squares[rows].astype(np.int32)
        bx_rows.append(_table_extra(board.rows, board.cols)[rows])
        if mode != core.MAXSCORE and not infeasible:
            # "place-all": a remaining piece that fits nowhere decides it at once
            have = np.bincount(piece, minlength=21)
            infeasible = any(
                have[PIECES[p].index] == 0
                for p in position.colour(name).remaining
                if not (p == MONOMINO and held[i])
            )
        pieces.append(piece)
        squares.append(sq)
        col.append(np.full(len(piece), i, dtype=np.int32))
    pl_piece = np.concatenate(pieces) if pieces else np.zeros(0, np.int32)
    pl_sq = np.concatenate(squares) if squares else np.zeros((0, 5), np.int32)
    pl_col = np.concatenate(col) if col else np.zeros(0, np.int32)
    pl_bx = np.concatenate(bx_rows) if bx_rows else np.zeros((0, 4), np.int8)
    if seed:
        perm = np.random.default_rng(seed).permutation(len(pl_piece))
        pl_piece, pl_sq, pl_col, pl_bx = pl_piece[perm], pl_sq[perm], pl_col[perm], pl_bx[perm]
    pl_size = (pl_sq >= 0).sum(axis=1).astype(np.int32)
    n_pl = len(pl_piece)

    # placements covering (colour, square), largest pieces first
    flat_p = np.repeat(np.arange(n_pl, dtype=np.int64), 5)
    flat_s = pl_sq.ravel().astype(np.int64)
    ok = flat_s >= 0
    flat_p, flat_s = flat_p[ok], flat_s[ok]
    key = pl_col[flat_p].astype(np.int64) * nsq + flat_s
    order = np.lexsort((flat_p, -pl_size[flat_p], key))
    cov_idx = flat_p[order].astype(np.int32)
    cov_ptr = np.concatenate(([0], np.cumsum(np.bincount(key, minlength=max(ncol, 1) * nsq))))
    cov_ptr = cov_ptr.astype(np.int64)
    pkey = pl_col.astype(np.int64) * 21 + pl_piece
    pp_idx = np.argsort(pkey, kind="stable").astype(np.int32)
    pp_ptr = np.concatenate(([0], np.cumsum(np.bincount(pkey, minlength=max(ncol, 1) * 21))))
    pp_ptr = pp_ptr.astype(np.int64)

    edge_nb, corner_nb, king_nb = _geometry(board.rows, board.cols)

    # state
    bl = np.zeros((ncol, nsq), dtype=np.int16)
    excl = np.zeros((ncol, nsq), dtype=np.int8)
    cornr = np.zeros((ncol, nsq), dtype=np.int16)
    own0 = np.zeros((ncol, nsq), dtype=np.uint8)
    nsqc = np.zeros(ncol, dtype=np.int64)
    rem = np.zeros((ncol, 21), dtype=np.int64)
    remarea = np.zeros(ncol, dtype=np.int64)
    start = np.full(ncol, -1, dtype=np.int32)
    taken = set(board.blocked) | set(position.occupied)
    sqcol = np.full(nsq, -1, dtype=np.int32)
    sqcol[list(board.blocked)] = -2
    for k, state in enumerate(position.colours):
        code = index.get(state.name, ncol + k)
        for s in state.squares:
            sqcol[s] = code
    for i, name in enumerate(colours):
        state = position.colour(name)
        bl[i, list(taken)] = 1
        for s in state.squares:
            own0[i, s] = 1
            for e in board.edge_neighbours[s]:
                bl[i, e] += 1
            for d in board.corner_neighbours[s]:
                cornr[i, d] += 1
        nsqc[i] = len(state.squares)
        start[i] = -1 if state.start is None else state.start
        for p in state.remaining:
            if p == MONOMINO and held[i]:
                continue
            rem[i, PIECES[p].index] += 1
            remarea[i] += PIECES[p].size

    gperm = np.array(
        position_symmetries(position) if up_to_symmetry else [np.arange(nsq)], dtype=np.int32
    )

    n_pieces = int(rem.sum()) + 2
    max_depth = ncol * nsq + n_pieces + 2
    max_cov = int(np.max(np.diff(cov_ptr))) if n_pl else 0
    path = np.zeros(n_pieces, dtype=np.int32)
    fr = [np.zeros(max_depth, dtype=np.int32) for _ in range(5)]
    ch = np.zeros(max_depth * (max_cov + 1) + 1, dtype=np.int32)
    st = np.zeros(core.N_SCALARS, dtype=np.int64)
    st[core.S_NEED] = 1
    st[core.S_BEST] = core.NEG_INF
    mark = np.zeros(nsq, dtype=np.int64)
    cmark = np.zeros(nsq, dtype=np.int64)
    rmark = np.zeros(nsq, dtype=np.int64)
    seeds = np.zeros(nsq, dtype=np.int32)
    pcount = np.zeros(21, dtype=np.int64)
    pch = np.zeros(max(n_pl, 1), dtype=np.int32)
    sqpl = np.full(nsq, -1, dtype=np.int32)
    nfloat = np.zeros(max(ncol, 1), dtype=np.int64)
    hasown = (own0.sum(axis=1) > 0).astype(np.int8)
    queue = np.zeros(nsq, dtype=np.int32)
    attach = np.zeros(nsq, dtype=np.int32)
    cand = np.zeros((max(ncol, 1), nsq), dtype=np.int32)
    ncand = np.zeros(max(ncol, 1), dtype=np.int64)
    fix = np.zeros(len(gperm), dtype=np.int64)
    sol = np.zeros(n_pieces, dtype=np.int32)
    sol_mono = np.zeros(max(ncol, 1), dtype=np.int32)
    best = np.zeros(n_pieces, dtype=np.int32)
    blk = _blocks(board.rows, board.cols)
    ext = np.zeros((4, 21), dtype=np.int64)
    bstamp = np.zeros(int(blk.max()) + 1, dtype=np.int64)
    bcnt = np.zeros(int(blk.max()) + 1, dtype=np.int64)
    params = np.array(
        [mode, limit, 1 if position.bonus else 0, STRONG, PIECE_BRANCH, BLOCKS, LATE, 0],
        dtype=np.int64,
    )
    # component memo (off here; see :func:`_with_memo`)
    comp = np.zeros(nsq, dtype=np.int32)
    ctouch = np.zeros(1, dtype=np.int64)
    rmult = np.zeros(22, dtype=np.int64)
    fr_key = np.full((max_depth, 2), -1, dtype=np.int64)
    memo = np.zeros((1, 3), dtype=np.int64)
    names = (
        "params pl_sq pl_col pl_piece pl_size cov_ptr cov_idx pp_ptr pp_idx edge_nb "
        "corner_nb king_nb psize pextra pl_bx ext blk bstamp bcnt start own0 monoin held "
        "monochk gperm hasown bl excl cornr nsqc rem remarea sqcol sqpl nfloat path fr_c "
        "fr_x fr_lo fr_hi fr_cur ch st mark cmark rmark queue attach seeds pcount pch cand "
        "ncand fix sol sol_mono best comp ctouch rmult fr_key memo"
    ).split()
    values = (
        params,
        pl_sq,
        pl_col,
        pl_piece,
        pl_size,
        cov_ptr,
        cov_idx,
        pp_ptr,
        pp_idx,
        edge_nb,
        corner_nb,
        king_nb,
        _PIECE_SIZE,
        _PIECE_EXTRA,
        pl_bx,
        ext,
        blk,
        bstamp,
        bcnt,
        start,
        own0,
        monoin,
        held,
        monochk,
        gperm,
        hasown,
        bl,
        excl,
        cornr,
        nsqc,
        rem,
        remarea,
        sqcol,
        sqpl,
        nfloat,
        path,
        *fr,
        ch,
        st,
        mark,
        cmark,
        rmark,
        queue,
        attach,
        seeds,
        pcount,
        pch,
        cand,
        ncand,
        fix,
        sol,
        sol_mono,
        best,
        comp,
        ctouch,
        rmult,
        fr_key,
        memo,
    )
    arrays = dict(zip(names, values, strict=True))
    return _Search(
        tuple(colours),
        tuple(held_colours),
        pl_piece,
        pl_sq,
        arrays,
        infeasible,
        constant,
        {"placements": n_pl, "symmetries": len(gperm)},
    )


def _components(search: _Search) -> tuple[np.ndarray, int]:
    """The root reach components of a one-colour search: the squares flooded with king
    moves through allowed squares from the colour's attach squares, split into connected
    parts (placements and the allowed squares next to them never straddle two).

    Returns (rank of each square's component, -1 for squares in none; number of
    components); ranks go by size, smallest first (the order the memo search decides
    them in: see :func:`_with_memo`).
    """
    a = search.arrays
    bl, cornr, king = a["bl"][0], a["cornr"][0], a["king_nb"]
    label = np.full(len(bl), -1, dtype=np.int32)
    if a["nsqc"][0] == 0:
        seeds = [int(a["start"][0])] if a["start"][0] >= 0 and bl[a["start"][0]] == 0 else []
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


#: rows of the component memo's hash table (a power of 2; 3 int64 each: 1.5 MB); the
#: hardest real checks store a few hundred entries, and a full table only stops storing
MEMO_SIZE = 1 << 16


def _with_memo(search: _Search) -> _Search | None:
    """A fresh copy of a one-colour FIND or MAXSCORE search (not yet run) with the
    component memo on (see the module docstring and :func:`solver.backends.search_kernel.run`), or
    None if it cannot apply (several colours, a held monomino, the monomino-last check,
    counting, piece branching, more than 62 components) or would not help (one
    component)."""
    a = search.arrays
    if (
        len(search.colours) != 1
        or search.held_colours
        or a["monochk"].any()
        or a["params"][0] == core.COUNT
        or a["params"][4] == 1
        or a["st"][core.S_NODES] > 0
    ):
        return None  # (piece branching places a floating piece in any component)
    comp, k = _components(search)
    if not 2 <= k <= 62:
        return None
    m = search.clone(int(a["params"][6]))
    m.arrays["params"][7] = 1
    m.arrays["comp"] = comp
    m.arrays["ctouch"] = np.zeros(k, dtype=np.int64)
    radix = a["rem"][0] + 1
    m.arrays["rmult"] = np.concatenate(([1], np.cumprod(radix))).astype(np.int64)
    m.arrays["memo"] = np.zeros((MEMO_SIZE, 3), dtype=np.int64)
    m.stats["components"] = k
    return m


def _run(
    search: _Search, time_limit: float | None, stop=None, started: float | None = None
) -> tuple[int, float]:
    """Run the kernel in chunks of about 50 ms until it ends, the time is up or ``stop`` is
    set; returns (code, seconds since ``started``)."""
    started = time.perf_counter() if started is None else started
    budget = 2000
    while True:
        t0 = time.perf_counter()
        code = core.run(*search.args, budget)
        now = time.perf_counter()
        if code != core.PAUSE:
            return code, now - started
        if time_limit is not None and now - started >= time_limit:
            return code, now - started
        if stop is not None and stop.is_set():
            return code, now - started
        spent = max(now - t0, 1e-4)
        budget = int(min(max(budget * 0.05 / spent, 200), 5_000_000))
        if time_limit is not None:
            left = time_limit - (now - started)
            budget = int(max(200, min(budget, budget * left / 0.05)))


def _race(
    search: _Search,
    time_limit: float | None,
    workers: int,
    fresh: Callable[[], _Search] | None = None,
    cancel: threading.Event | None = None,
) -> tuple[_Search, int, float]:
    """Solve with a portfolio: the search as built, then (if it has not ended after a first
    chunk of :data:`FIRST_CHUNK` nodes) copies with other value orders (:data:`PORTFOLIO`)
    in threads; the kernel releases the GIL. Every member is complete, so the first to end
    gives the answer. After the first chunk, the first member is replaced by a fresh
    search with the component memo (:func:`_with_memo`, from ``fresh()``) when it applies.

    Returns (the member that answered or the first one, its code, seconds).
    """
    started = time.perf_counter()
    others = [search.clone(late, seed) for late, seed in PORTFOLIO[: max(workers - 1, 0)]]
    code = core.run(*search.args, FIRST_CHUNK)
    if code == core.PAUSE and fresh is not None:
        search = _with_memo(fresh()) or search
    if code != core.PAUSE or not others:
        if code == core.PAUSE:
            code, _ = _run(search, time_limit, cancel, started)
        return search, code, time.perf_counter() - started
    members = [search] + others
    stop = EitherEvent(threading.Event(), cancel)
    done: list[tuple[int, int]] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        c, _ = _run(members[i], time_limit, stop, started)
        with lock:
            done.append((i, c))
            if c != core.PAUSE:
                stop.events[0].set()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(len(members))]
    for t in threads:
        t.start()
    join_all(threads, stop.events[0])
    seconds = time.perf_counter() - started
    finished = [(i, c) for i, c in done if c != core.PAUSE]
    i, code = finished[0] if finished else (0, core.PAUSE)
    members[i].stats["nodes_all_members"] = sum(int(m.st[core.S_NODES]) for m in members)
    members[i].stats["member"] = i
    return members[i], code, seconds


def _placement(search: _Search, p: int) -> tuple[str, Placement]:
    colour = search.colours[int(search.arrays["pl_col"][p])]
    sq = search.table_squares[p]
    squares = frozenset(int(s) for s in sq[sq >= 0])
    return colour, Placement(PIECE_NAMES[search.table_piece[p]], squares)


def _layout(
    search: _Search, problem: Problem, rows: np.ndarray, n: int, monos: np.ndarray | None
) -> dict[str, list[Placement]]:
    layout: dict[str, list[Placement]] = {c: [] for c in problem.colours}
    for p in rows[:n]:
        colour, placement = _placement(search, int(p))
        layout[colour].append(placement)
    if monos is not None:
        for colour, sq in zip(search.held_colours, monos):
            layout[colour].append(Placement(MONOMINO, frozenset({int(sq)})))
    return layout


def _found_layout(search: _Search, problem: Problem) -> dict[str, list[Placement]]:
    """The layout a FIND search stopped at (its path and the held monominoes' squares)."""
    return _layout(
        search,
        problem,
        search.sol,
        int(search.st[core.S_SOLN]),
        search.sol_mono[: len(search.held_colours)],
    )


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: threading.Event | None = None
) -> BackendResult:
    """Solve a problem by exact search; ``cancel`` set from another thread stops it early
    (as the time limit does).

    Returns:
        BackendResult: "solved" with a layout ("place-all"), "infeasible" (proven: the
        tree was exhausted), "optimal" with the best layout and ``bound`` = its score
        ("max-score", tree exhausted), "solved" with the best layout so far and ``bound`` =
        the root upper bound (max-score stopped by the time limit), or "unknown"
        ("place-all" stopped by the time limit). ``stats``: nodes, seconds, placements.
    """
    if problem.goal == "max-score":
        return _solve_max_score(problem, options, cancel)
    search = _build(problem, core.FIND, seed=options.seed)
    if search.infeasible:
        return BackendResult("infeasible", None, None, {"nodes": 0, "seconds": 0.0})
    fresh = None
    if len(search.colours) == 1 and not search.held_colours:
        fresh = lambda: _build(problem, core.FIND, seed=options.seed)  # noqa: E731
    search, code, seconds = _race(search, options.time_limit, options.workers, fresh, cancel)
    stats = dict(search.stats, nodes=int(search.st[core.S_NODES]), seconds=seconds)
    if search.arrays["params"][7] == 1:
        stats.update(
            memo_hits=int(search.st[core.S_HITS]), memo_entries=int(search.st[core.S_STORES])
        )
    if code == core.FOUND:
        return BackendResult("solved", _found_layout(search, problem), None, stats)
    if code == core.DONE:
        return BackendResult("infeasible", None, None, stats)
    return BackendResult("unknown", None, None, stats)


def _solve_max_score(
    problem: Problem, options: SolveOptions, cancel: threading.Event | None = None
) -> BackendResult:
    """Max-score by branch and bound: a first chunk of :data:`FIRST_CHUNK` nodes as built;
    if it has not ended, a fresh search with the component memo (:func:`_with_memo`, one
    colour) starts from the chunk's best layout and replaces it."""
    started = time.perf_counter()
    search = _build(problem, core.MAXSCORE, seed=options.seed)
    if not search.colours:
        return BackendResult(
            "optimal",
            {c: [] for c in problem.colours},
            search.constant_score,
            {"nodes": 0, "seconds": 0.0},
        )
    code = core.run(*search.args, FIRST_CHUNK)
    layout = _layout(search, problem, search.best, int(search.st[core.S_BESTN]), None)
    best = int(search.st[core.S_BEST])
    root_ub = int(search.st[core.S_ROOTUB])
    chunk_nodes = int(search.st[core.S_NODES])
    if code == core.PAUSE:
        memo = None
        if len(search.colours) == 1:
            memo = _with_memo(_build(problem, core.MAXSCORE, seed=options.seed))
        if memo is not None:
            memo.st[core.S_BEST] = best  # only better layouts than the chunk's
            search = memo
        code, _ = _run(search, options.time_limit, cancel, started)
        if search is not memo:
            chunk_nodes = 0  # the same search went on
        if search.st[core.S_BEST] > best:
            layout = _layout(search, problem, search.best, int(search.st[core.S_BESTN]), None)
            best = int(search.st[core.S_BEST])
    stats = dict(
        search.stats,
        nodes=chunk_nodes + int(search.st[core.S_NODES]),
        seconds=time.perf_counter() - started,
    )
    if search.arrays["params"][7] == 1:
        stats.update(
            memo_hits=int(search.st[core.S_HITS]), memo_entries=int(search.st[core.S_STORES])
        )
    if best == core.NEG_INF:  # stopped before the root was evaluated
        return BackendResult("unknown", None, None, stats)
    score = best + search.constant_score
    if code == core.DONE:
        return BackendResult("optimal", layout, score, stats)
    return BackendResult("solved", layout, root_ub + search.constant_score, stats)


def count(
    problem: Problem,
    limit: int | None = None,
    up_to_symmetry: bool = False,
    time_limit: float | None = None,
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
            (:func:`solver.symmetry.position_symmetries`), by Burnside's lemma (exact only
            when ``complete``).
        time_limit: seconds; on time-out ``complete`` is False, ``stopped_by`` is
            "time limit" and ``count`` is a lower bound (see :class:`CountResult`).

    Raises:
        ValueError: ``limit`` is not None and less than 1.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"count limit must be at least 1, not {limit}")
    # the kernel stops as soon as it has found at least limit + 1 layouts (a leaf with
    # held monominoes may add several at once): finding N + 1 proves "more than N", and
    # ending with at most N is the exact count
    search = _build(problem, core.COUNT, 0 if limit is None else limit + 1, up_to_symmetry)
    groups = len(search.fix)
    if search.infeasible:
        return CountResult(0, True, 0, 0.0, groups, 0, None)
    code, seconds = _run(search, time_limit)
    nodes = int(search.st[core.S_NODES])
    found = int(search.fix[0])
    if code == core.DONE:
        total = int(search.fix.sum())
        if total % groups:
            raise AssertionError(f"Burnside sum {total} is not a multiple of {groups}")
        return CountResult(total // groups, True, nodes, seconds, groups, found, None)
    stopped_by = "limit" if code == core.LIMIT else "time limit"
    layouts = found if limit is None else min(found, limit)
    return CountResult(-(-layouts // groups), False, nodes, seconds, groups, layouts, stopped_by)


def first_layout(problem: Problem) -> BackendResult:
    """The first layout that :func:`count` counts: the same search tree (one member, no
    component memo, no time limit) stopped at its first leaf, which it reaches in no more
    nodes than the count did. The problem's goal is ignored, as in :func:`count`.

    Returns:
        BackendResult: "solved" with the layout, or "infeasible" when there is none.
    """
    search = _build(problem, core.FIND)
    if search.infeasible:
        return BackendResult("infeasible", None, None, {"nodes": 0, "seconds": 0.0})
    code, seconds = _run(search, None)
    stats = {"nodes": int(search.st[core.S_NODES]), "seconds": seconds}
    if code != core.FOUND:
        return BackendResult("infeasible", None, None, stats)
    return BackendResult("solved", _found_layout(search, problem), None, stats)
