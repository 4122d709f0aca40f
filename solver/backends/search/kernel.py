"""The hot loop of the exact search, compiled with numba (``@njit(cache=True)``).

See :mod:`solver.backends.search.exact` for the algorithm; this module holds the compiled kernel
:func:`run`, its helpers, and its interface: the parameter slots (``P_*``), the arrays
(:class:`Tables`, read only, and :class:`State`, updated in place) and :func:`run_chunk`.
The search is an explicit-stack depth-first search, so it can stop after a budget of nodes
and be resumed: the Python side calls :func:`run_chunk` repeatedly and checks the clock in
between (numba has no clock).

State, per played colour c and square s (all counters so that undo is exact):

* ``bl[c, s]``: number of reasons c may not cover s (blocked, taken by anyone, shares an
  edge with c, or excluded for c by a decision). s is *allowed* for c iff ``bl[c, s] == 0``.
* ``excl[c, s]``: 1 if a decision excluded s for c (it is also counted in ``bl``).
* ``cornr[c, s]``: number of c's squares sharing a corner with s. s is an *attach square*
  of c iff it is allowed and ``cornr > 0`` (or, while c has no square, s is its start).

Why numba: the state is small integer arrays and the inner work is tight loops over
squares and placements (flood fills, live checks, undo). Plain Python (integers as
bitsets) would pay interpreter cost per placement tested; a C extension would need a
compiler on the user's machine. numba needs neither and caches the machine code (under
``__pycache__`` or numba's user cache directory; the first call compiles, 5-15 s).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# mode
FIND = 0
COUNT = 1
MAXSCORE = 2

# run() return codes
DONE = 0  # tree exhausted
FOUND = 1  # FIND: a layout was found (in sol)
LIMIT = 2  # COUNT: the count limit was reached
PAUSE = 3  # node budget used up; call run() again to go on

# indices into the int64 scalar state array ``st``
(
    S_DEPTH,
    S_CHTOP,
    S_NEED,
    S_NODES,
    S_STAMP,
    S_PATHN,
    S_BEST,
    S_BESTN,
    S_SOLN,
    S_ROOTUB,
    S_HITS,
    S_STORES,
    S_H1,
    S_H2,
) = range(14)
N_SCALARS = 14
NEG_INF = -(1 << 40)

# slots of the int64 parameter array ``params``
(
    P_MODE,  # FIND, COUNT or MAXSCORE
    P_LIMIT,  # COUNT: stop at this many layouts (0: no limit)
    P_BONUS,  # 1: score the +15 / +5 bonuses (MAXSCORE)
    P_STRONG,  # reach flood through coverable squares: 0 off, 1 to a fixpoint, 2 once
    P_BLOCKS,  # 1: cap the reach by the 2x2-block bound
    P_LATE,  # placements of at most this many squares come after the exclusion child
    P_MEMO,  # 1: the memo of failed subproblems (one colour, FIND or MAXSCORE)
    P_ORDER,  # 1: children by their piece's live placements in reach, fewest first
) = range(8)
N_PARAMS = 8

NPIECES = 21


class Tables(NamedTuple):
    """The kernel's read-only arrays: shared by every copy of a search. C played colours,
    N squares, P placements (all colours in one table), G symmetries. A named tuple, so
    that numba takes it as one argument (its fields typed one by one)."""

    pl_sq: np.ndarray  # (P, 5) int32: a placement's squares, padded with -1
    pl_col: np.ndarray  # (P,) int32: its colour (index into the played colours)
    pl_piece: np.ndarray  # (P,) int32: its piece (index into PIECE_NAMES)
    pl_size: np.ndarray  # (P,) int32: its number of squares
    cov_ptr: np.ndarray  # (C*N + 1,) int64: CSR pointers of cov_idx by (colour, square)
    cov_idx: np.ndarray  # int32: placements of colour c covering s, largest first
    pp_ptr: np.ndarray  # (C*21 + 1,) int64: CSR pointers of pp_idx by (colour, piece)
    pp_idx: np.ndarray  # int32: placements of colour c and piece t
    edge_nb: np.ndarray  # (N, 4) int32: edge neighbours, padded with -1
    corner_nb: np.ndarray  # (N, 4) int32: corner neighbours, padded with -1
    king_nb: np.ndarray  # (N, 8) int32: both, padded with -1
    psize: np.ndarray  # (21,) int32: squares of each piece
    pextra: np.ndarray  # (21,) int64: most squares over 2 a piece covers in a 2x2 block
    pl_bx: np.ndarray  # (P, 4) int8: the same for a placement in each of 4 partitions
    start: np.ndarray  # (C,) int32: start square, -1 for none
    own0: np.ndarray  # (C, N) uint8: the colour's squares before the search
    monoin: np.ndarray  # (C,) int8: the monomino is among the colour's pieces left
    held: np.ndarray  # (C,) int8: its monomino is held back, placed at the leaf
    monochk: np.ndarray  # (C,) int8: two monominoes: a leaf needs one that can be last
    gperm: np.ndarray  # (G, N) int32: the symmetries counted over, identity first
    rmult: np.ndarray  # (22,) int64: memo: radix of the pieces-left code
    star: np.ndarray  # (K,) int32: squares the layout must cover, free at the root
    conn: np.ndarray  # (C,) int8: the colour's squares must end as one corner-joined group
    img: np.ndarray  # (N, H) int32: symmetric reduction: the other squares of s's orbit
    orb: np.ndarray  # (N,) int32: symmetric reduction: the orbit of s ((0,): none)
    tie: np.ndarray  # (P,) int64: P_ORDER: a placement's rank among equals (< 2^28)
    zob: np.ndarray  # (N, 4) int64: memo: random keys of s in reach (0, 1) and attach (2, 3)
    sqr: np.ndarray  # (N,) int32: the row of s
    sqc: np.ndarray  # (N,) int32: the column of s


class State(NamedTuple):
    """The kernel's search state and scratch arrays, updated in place (a PAUSE resumes
    where it stopped). Shapes as in :class:`Tables`; D: the deepest stack of decisions."""

    ext: np.ndarray  # (4, 21) int64: scratch: a piece's best pl_bx among live placements
    bl: np.ndarray  # (C, N) int16: reasons c may not cover s
    excl: np.ndarray  # (C, N) int8: s excluded for c by a decision
    cornr: np.ndarray  # (C, N) int16: c's squares sharing a corner with s
    nsqc: np.ndarray  # (C,) int64: squares of the colour
    rem: np.ndarray  # (C, 21) int64: pieces left (held monominoes not counted)
    remarea: np.ndarray  # (C,) int64: their area
    sqcol: np.ndarray  # (N,) int32: colour on a square: -1 free, -2 blocked, >= C frozen
    sqpl: np.ndarray  # (N,) int32: the path's placement on a square, -1 for none
    path: np.ndarray  # (pieces,) int32: placements on the path (st[S_PATHN] of them)
    fr_c: np.ndarray  # (D,) int32: a frame's colour
    fr_x: np.ndarray  # (D,) int32: its attach square
    fr_lo: np.ndarray  # (D,) int32: its children: ch[fr_lo:fr_hi]
    fr_hi: np.ndarray  # (D,) int32
    fr_cur: np.ndarray  # (D,) int32: the child being searched
    ch: np.ndarray  # int32: children stack: a placement, or -1 for "exclude fr_x"
    st: np.ndarray  # (N_SCALARS,) int64: the scalars S_*
    mark: np.ndarray  # (N,) int64: stamps of the reach flood
    cmark: np.ndarray  # (N,) int64: stamps of the coverable squares
    queue: np.ndarray  # (N,) int32: scratch: the flood's queue (the reach)
    attach: np.ndarray  # (N,) int32: scratch: attach squares
    pcount: np.ndarray  # (21,) int64: live placements in reach of each piece
    cand: np.ndarray  # (C, N) int32: squares a held monomino may take at a leaf
    ncand: np.ndarray  # (C,) int64: how many
    fix: np.ndarray  # (G,) int64: layouts each symmetry fixes (fix[0]: all layouts)
    sol: np.ndarray  # (pieces,) int32: FIND: the layout (st[S_SOLN] placements)
    sol_mono: np.ndarray  # (C,) int32: FIND: the held monominoes' squares
    best: np.ndarray  # (pieces,) int32: MAXSCORE: the best layout (st[S_BESTN])
    fr_key: np.ndarray  # (D, 3) int64: memo: a keyed frame's key, -1 none
    memo: np.ndarray  # (rows, 4) int64: memo: hash table of failed subproblems
    sok: np.ndarray  # (K,) int64: the node at which some colour could still cover star k
    gmark: np.ndarray  # (N,) int64: stamps of the connect flood
    gqueue: np.ndarray  # (N,) int32: scratch: the connect flood's queue
    omark: np.ndarray  # (orbits,) int64: symmetric reduction: stamps of the orbit count
    porder: np.ndarray  # (21,) int64: P_ORDER: pcount of the branching colour
    dlab: np.ndarray  # (N,) int32: scratch: the part of the reach a square is in
    dsz: np.ndarray  # (N,) int64: scratch: the size of each part
    rmask: np.ndarray  # (rows,) int64: scratch of the 2x2-block bound: the reach's squares
    # of each row as bits (a board has at most 60 columns: solver.core.board.MAX_SIDE)
    scan: np.ndarray  # (C, N) int32: squares that may be c's attach squares (its root reach)
    nscan: np.ndarray  # (C,) int64: how many (-1: the root not yet evaluated)

    def copy(self) -> State:
        """A fresh copy of every array."""
        return State(*(a.copy() for a in self))


def run_chunk(params: np.ndarray, tables: Tables, state: State, budget: int) -> int:
    """Run the search for at most ``budget`` more nodes (see :func:`run`); returns DONE,
    FOUND, LIMIT or PAUSE."""
    return int(run(params, tables, state, budget))


# The two loops of each flood below are alike on purpose: the first runs at the square
# grid's constant width, which the compiler unrolls; a shared per-cell helper measured
# 1.6x slower (docs/benchmarks.md, issue 43).


@njit(cache=True, inline="always")
def _flood_free(s, c, king_nb, bl, mark, stamp, queue, qt):
    """One step of a flood: queue (from ``qt``) the king neighbours of cell s free for
    colour c and not yet marked; returns the new ``qt``. On the square grid (8 king
    neighbours) a loop of constant width, which the compiler unrolls (the table's own
    width cost Classic several per cent: docs/benchmarks.md, issue 43)."""
    if king_nb.shape[1] == 8:
        for j in range(8):
            n = king_nb[s, j]
            if n >= 0 and bl[c, n] == 0 and mark[n] != stamp:
                mark[n] = stamp
                queue[qt] = n
                qt += 1
        return qt
    for j in range(king_nb.shape[1]):
        n = king_nb[s, j]
        if n >= 0 and bl[c, n] == 0 and mark[n] != stamp:
            mark[n] = stamp
            queue[qt] = n
            qt += 1
    return qt


@njit(cache=True, inline="always")
def _flood_coverable(s, c, king_nb, bl, mark, stamp, cmark, cstamp, queue, qt):
    """:func:`_flood_free` through cells marked coverable (``cmark == cstamp``) only."""
    if king_nb.shape[1] == 8:
        for j in range(8):
            n = king_nb[s, j]
            if n >= 0 and bl[c, n] == 0 and mark[n] != stamp and cmark[n] == cstamp:
                mark[n] = stamp
                queue[qt] = n
                qt += 1
        return qt
    for j in range(king_nb.shape[1]):
        n = king_nb[s, j]
        if n >= 0 and bl[c, n] == 0 and mark[n] != stamp and cmark[n] == cstamp:
            mark[n] = stamp
            queue[qt] = n
            qt += 1
    return qt


@njit(cache=True, inline="always")
def _count_neighbours(s, c, edge_nb, corner_nb, bl, cornr, sign):
    """Add ``sign`` to colour c's edge counts (``bl``) and corner counts (``cornr``) of the
    cells around cell s. On the square grid (4 edge and 4 corner neighbours) one fused
    loop of constant width, which the compiler unrolls: the tables' own widths (3 and 9
    on Trigon) cost Classic about 3 % (docs/benchmarks.md, issue 43)."""
    if edge_nb.shape[1] == 4 and corner_nb.shape[1] == 4:
        for j in range(4):
            e = edge_nb[s, j]
            if e >= 0:
                bl[c, e] += sign
            d = corner_nb[s, j]
            if d >= 0:
                cornr[c, d] += sign
        return
    for j in range(edge_nb.shape[1]):
        e = edge_nb[s, j]
        if e >= 0:
            bl[c, e] += sign
    for j in range(corner_nb.shape[1]):
        d = corner_nb[s, j]
        if d >= 0:
            cornr[c, d] += sign


@njit(cache=True)
def _apply_placement(
    img,
    p,
    pl_sq,
    pl_col,
    pl_piece,
    pl_size,
    edge_nb,
    corner_nb,
    bl,
    cornr,
    nsqc,
    rem,
    remarea,
    sqcol,
    sqpl,
    path,
    st,
):
    c = pl_col[p]
    ncol = bl.shape[0]
    for k in range(pl_size[p]):
        s = pl_sq[p, k]
        for c2 in range(ncol):
            bl[c2, s] += 1
        sqcol[s] = c
        sqpl[s] = p
        for h in range(img.shape[1]):  # the images of a symmetric reduction
            t = img[s, h]
            for c2 in range(ncol):
                bl[c2, t] += 1
        _count_neighbours(s, c, edge_nb, corner_nb, bl, cornr, 1)
    nsqc[c] += pl_size[p]
    rem[c, pl_piece[p]] -= 1
    remarea[c] -= pl_size[p]
    path[st[S_PATHN]] = p
    st[S_PATHN] += 1


@njit(cache=True)
def _undo_placement(
    img,
    p,
    pl_sq,
    pl_col,
    pl_piece,
    pl_size,
    edge_nb,
    corner_nb,
    bl,
    cornr,
    nsqc,
    rem,
    remarea,
    sqcol,
    sqpl,
    st,
):
    c = pl_col[p]
    ncol = bl.shape[0]
    for k in range(pl_size[p]):
        s = pl_sq[p, k]
        for c2 in range(ncol):
            bl[c2, s] -= 1
        sqcol[s] = -1
        sqpl[s] = -1
        for h in range(img.shape[1]):
            t = img[s, h]
            for c2 in range(ncol):
                bl[c2, t] -= 1
        _count_neighbours(s, c, edge_nb, corner_nb, bl, cornr, -1)
    nsqc[c] -= pl_size[p]
    rem[c, pl_piece[p]] += 1
    remarea[c] += pl_size[p]
    st[S_PATHN] -= 1


@njit(cache=True)
def _live(p, c, pl_sq, pl_size, bl):
    for k in range(pl_size[p]):
        if bl[c, pl_sq[p, k]] != 0:
            return False
    return True


@njit(cache=True)
def _mono_last_ok(
    c, path, npath, pl_sq, pl_col, pl_piece, pl_size, corner_nb, own0, start, mark, stamp
):
    """Whether some monomino colour c added on the path can be its last piece: the other
    added pieces stay corner-connected to c's squares already on the board (or, with none,
    to the piece on the start square). A monomino that is c's only added piece is last."""
    nsq = own0.shape[1]
    has_own = False
    for s in range(nsq):
        if own0[c, s]:
            has_own = True
            break
    for i in range(npath):
        m = path[i]
        if pl_col[m] != c or pl_size[m] != 1:  # the monomino: the one piece of one cell
            continue
        others = 0
        for j in range(npath):
            q = path[j]
            if j != i and pl_col[q] == c:
                others += 1
        if others == 0:
            return True, stamp
        stamp += 1
        # reached squares: c's own squares, or the start piece
        if has_own:
            for s in range(nsq):
                if own0[c, s]:
                    mark[s] = stamp
        else:
            if pl_sq[m, 0] == start[c]:
                continue  # the monomino is the first piece
            for j in range(npath):
                q = path[j]
                if j != i and pl_col[q] == c:
                    for k in range(pl_size[q]):
                        if pl_sq[q, k] == start[c]:
                            for k2 in range(pl_size[q]):
                                mark[pl_sq[q, k2]] = stamp
        changed = True
        while changed:
            changed = False
            for j in range(npath):
                q = path[j]
                if j == i or pl_col[q] != c or mark[pl_sq[q, 0]] == stamp:
                    continue
                touch = False
                for k in range(pl_size[q]):
                    s = pl_sq[q, k]
                    for d in range(corner_nb.shape[1]):
                        n = corner_nb[s, d]
                        if n >= 0 and mark[n] == stamp:
                            touch = True
                if touch:
                    for k in range(pl_size[q]):
                        mark[pl_sq[q, k]] = stamp
                    changed = True
        ok = True
        for j in range(npath):
            q = path[j]
            if j != i and pl_col[q] == c and mark[pl_sq[q, 0]] != stamp:
                ok = False
        if ok:
            return True, stamp
    return False, stamp


@njit(cache=True)
def _assignments(cand, ncand, k, gperm_row, use_fixed, orb):
    """Number of ways to give each of k held monominoes a distinct square (in a symmetric
    reduction, ``orb``: a distinct orbit); monomino i may go on ``cand[i, :ncand[i]]`` (and,
    with ``use_fixed``, only on squares the symmetry fixes)."""
    full = (1 << k) - 1
    dp = np.zeros(1 << k, dtype=np.int64)
    dp[0] = 1
    # squares in increasing order; each square takes at most one monomino
    nsq = gperm_row.shape[0]
    which = np.zeros((nsq, k), dtype=np.bool_)
    for i in range(k):
        for j in range(ncand[i]):
            s = cand[i, j]
            if use_fixed and gperm_row[s] != s:
                continue
            which[orb[s] if orb.shape[0] > 0 else s, i] = True
    for s in range(nsq):
        any_ = False
        for i in range(k):
            if which[s, i]:
                any_ = True
        if not any_:
            continue
        for mask in range(full, -1, -1):
            if dp[mask] == 0:
                continue
            for i in range(k):
                if which[s, i] and not (mask >> i) & 1:
                    dp[mask | (1 << i)] += dp[mask]
    return dp[full]


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _block_excess(rmask, dr, dc):
    """Over the 2x2 blocks of partition (dr, dc), the squares of ``rmask`` (a row's
    squares as bits) beyond 2 per block: 2 for a full block, 1 for a block of 3."""
    # the bit of a block's left column: columns 0, 2, ..., 60 or 1, 3, ..., 61
    low = 0x1555555555555555 if dc == 0 else 0x2AAAAAAAAAAAAAAA
    excess = 0
    for r in range(dr, rmask.shape[0] - 1, 2):
        a = rmask[r]
        b = rmask[r + 1]
        if a == 0 or b == 0:
            continue
        fa = a & (a >> 1) & low
        fb = b & (b >> 1) & low
        if fa == 0 and fb == 0:
            continue
        ha = (a ^ (a >> 1)) & low
        hb = (b ^ (b >> 1)) & low
        excess += 2 * _popcount(fa & fb) + _popcount((fa & hb) | (ha & fb))
    return excess


@njit(cache=True)
def _block_cap(c, qt, rem, pextra, ext, use_ext, rmask):
    """An upper bound on the area colour c can still add inside its reach (``qt`` squares,
    as bits of each row in ``rmask``): for a partition of the board into 2x2 blocks, at most
    2 squares of a block unless one piece covers 3 or 4 of them (3 squares of a 2x2 block
    share edges, and same-colour pieces never share an edge), which adds at most
    ``pextra[t]`` (1, or 2 for pieces holding a 2x2 square) once per piece. The smallest
    bound over the 4 partitions (the partition (dr, dc) has its blocks at rows 2k - dr,
    2k - dr + 1 and columns alike; the squares over 2 in each block are counted row pair by
    row pair: :func:`_block_excess`). With ``use_ext``, a piece's extra in partition ``off``
    is ``ext[off, t]``: the most any of its live placements in reach gets there."""
    best = qt
    for off in range(4):
        extra = 0
        for t in range(rem.shape[1]):
            if rem[c, t] > 0:
                extra += rem[c, t] * (ext[off, t] if use_ext else pextra[t])
        total = qt - _block_excess(rmask, off // 2, off % 2)
        if total + extra < best:
            best = total + extra
    return best


@njit(cache=True)
def _reach(
    c,
    seeds,
    nseeds,
    bl,
    rem,
    psize,
    king_nb,
    pl_sq,
    pl_size,
    pp_ptr,
    pp_idx,
    mark,
    cmark,
    queue,
    st,
    strong,
    stop_early,
    pcount,
    blocks,
    pextra,
    pl_bx,
    ext,
    orb,
    omark,
    zob,
    dlab,
    dsz,
    sqr,
    sqc,
    rmask,
):
    """Squares colour c can still reach, and the area of its pieces that cannot be placed.

    Flood fill with king moves (pieces connect at corners) from the seed squares (c's
    attach squares) through allowed squares, each king-move part labelled in ``dlab`` and
    sized in ``dsz`` (the memo branches in the smallest). A remaining piece is placeable
    if one of its live placements lies in reach; ``pcount[t]`` gets the number of such placements of
    piece t (counted fully with ``strong``, else 0 or 1); ``stop_early`` returns at the
    first unplaceable piece. With ``strong``, the flood is repeated through *coverable*
    squares only (covered by a live placement in reach) until nothing changes (``strong``
    1) or once (2).

    With ``blocks``, the reach returned is capped by :func:`_block_cap`; in a symmetric
    reduction (``orb``), by the number of orbits it meets (a colour covers one square of an
    orbit at most: the others are its images, other colours).

    With ``zob`` (the memo's random keys, shape (N, 4); (0, 4): off), ``st[S_H1]`` and
    ``st[S_H2]`` get two 64-bit keys of the first flood's squares and the seeds among them:
    what is left to decide for one colour depends on these and its pieces left only.

    Returns (reach, unplaceable area, stamp of the reach in mark).
    """
    first = True
    last = False
    cstamp = 0
    unplaceable = 0
    while True:
        st[S_STAMP] += 1
        stamp = st[S_STAMP]
        qt = 0
        if first:
            # one seed at a time, each part of the reach labelled (dlab) and sized (dsz)
            ncomp = 0
            for i in range(nseeds):
                s0 = seeds[i]
                if mark[s0] == stamp:
                    continue
                mark[s0] = stamp
                queue[qt] = s0
                q0 = qt
                qh = qt
                qt += 1
                while qh < qt:
                    s = queue[qh]
                    qh += 1
                    dlab[s] = ncomp
                    qt = _flood_free(s, c, king_nb, bl, mark, stamp, queue, qt)
                dsz[ncomp] = qt - q0
                ncomp += 1
        else:  # refined: through coverable squares only
            for i in range(nseeds):
                s = seeds[i]
                if cmark[s] == cstamp:
                    mark[s] = stamp
                    queue[qt] = s
                    qt += 1
            qh = 0
            while qh < qt:
                s = queue[qh]
                qh += 1
                qt = _flood_coverable(s, c, king_nb, bl, mark, stamp, cmark, cstamp, queue, qt)
        if last:  # strong == 2: one refined flood, the piece counts of the first
            break
        if first and zob.shape[0] > 0:
            h1 = 0
            h2 = 0
            for i in range(qt):
                h1 ^= zob[queue[i], 0]
                h2 ^= zob[queue[i], 1]
            for i in range(nseeds):
                h1 ^= zob[seeds[i], 2]
                h2 ^= zob[seeds[i], 3]
            st[S_H1] = h1
            st[S_H2] = h2
        first = False
        st[S_STAMP] += 1
        cstamp = st[S_STAMP]
        unplaceable = 0
        covered = 0
        for t in range(rem.shape[1]):
            pcount[t] = 0
            for off in range(4):
                ext[off, t] = 0
            if rem[c, t] <= 0:
                continue
            base = c * rem.shape[1] + t
            for ii in range(pp_ptr[base], pp_ptr[base + 1]):
                p = pp_idx[ii]
                if mark[pl_sq[p, 0]] == stamp and _live(p, c, pl_sq, pl_size, bl):
                    pcount[t] += 1
                    if not strong:
                        break
                    if strong:
                        for off in range(4):
                            if pl_bx[p, off] > ext[off, t]:
                                ext[off, t] = pl_bx[p, off]
                        for k in range(pl_size[p]):
                            sq = pl_sq[p, k]
                            if cmark[sq] != cstamp:
                                cmark[sq] = cstamp
                                covered += 1
            if pcount[t] == 0:
                unplaceable += rem[c, t] * psize[t]
                if stop_early:
                    return qt, unplaceable, stamp
        if not strong or covered == qt:
            break
        if strong == 2:
            last = True
    held = qt
    if blocks:
        use_ext = strong > 0
        for r in range(rmask.shape[0]):
            rmask[r] = 0
        for i in range(qt):
            s = queue[i]
            rmask[sqr[s]] |= 1 << sqc[s]
        held = _block_cap(c, qt, rem, pextra, ext, use_ext, rmask)
    if orb.shape[0] > 0:
        st[S_STAMP] += 1
        ostamp = st[S_STAMP]
        orbits = 0
        for i in range(qt):
            o = orb[queue[i]]
            if omark[o] != ostamp:
                omark[o] = ostamp
                orbits += 1
        if orbits < held:
            held = orbits
    return held, unplaceable, stamp


@njit(cache=True)
def _root_scan(c, scan, nsqc, bl, cornr, king_nb, mark, queue, st):
    """At the root: the squares where colour c may ever have an attach square, in
    increasing order, into ``scan[c]``; returns how many. A colour with squares: its reach
    (flooded with king moves through allowed squares from its attach squares); every later
    attach square is a corner of a placement live in some reach, so allowed and in it.
    A colour with none yet: every square (its reach changes with its first piece)."""
    nsq = bl.shape[1]
    if nsqc[c] == 0:
        for s in range(nsq):
            scan[c, s] = s
        return nsq
    st[S_STAMP] += 1
    stamp = st[S_STAMP]
    qt = 0
    for s in range(nsq):
        if cornr[c, s] > 0 and bl[c, s] == 0:
            mark[s] = stamp
            queue[qt] = s
            qt += 1
    qh = 0
    while qh < qt:
        s = queue[qh]
        qh += 1
        qt = _flood_free(s, c, king_nb, bl, mark, stamp, queue, qt)
    k = 0
    for s in range(nsq):
        if mark[s] == stamp:
            scan[c, k] = s
            k += 1
    return k


@njit(cache=True)
def achievable_loss(c, lo, lam, unplaceable, rem, pcount, psize):
    """The least loss >= ``lo`` that colour c can still end with, or ``lam + 1`` if none is
    at most ``lam``: a loss is the area of the pieces left out, which include every piece
    with no live placement in reach (area ``unplaceable``) and a sub-multiset of the others
    (subset sums as a bit set; used only while ``lam - unplaceable < 62``)."""
    if lo > lam:
        return lo
    width = lam - unplaceable + 1
    if width > 62:
        return lo
    full = (1 << width) - 1
    sums = 1
    for t in range(rem.shape[1]):
        if rem[c, t] > 0 and pcount[t] > 0:
            for _ in range(rem[c, t]):
                sums = (sums | (sums << psize[t])) & full
    sums >>= lo - unplaceable
    if sums == 0:
        return lam + 1
    k = 0
    while (sums & 1) == 0:
        sums >>= 1
        k += 1
    return lo + k


@njit(cache=True)
def _joinable(c, final, bl, sqcol, nsqc, king_nb, gmark, gqueue, st):
    """Whether colour c's squares can still end as one group joined by corner contact:
    they lie in one king-move component of c's squares and (unless ``final``) the squares
    c may still cover. Necessary: c's final squares are king-connected (its pieces never
    share an edge), and every square c covers later is allowed for c now."""
    nsq = sqcol.shape[0]
    first = -1
    for s in range(nsq):
        if sqcol[s] == c:
            first = s
            break
    if first < 0:
        return True
    st[S_STAMP] += 1
    stamp = st[S_STAMP]
    gmark[first] = stamp
    gqueue[0] = first
    qh = 0
    qt = 1
    found = 1
    while qh < qt:
        s = gqueue[qh]
        qh += 1
        for j in range(king_nb.shape[1]):
            n = king_nb[s, j]
            if n < 0 or gmark[n] == stamp:
                continue
            if sqcol[n] == c:
                found += 1
            elif final or bl[c, n] != 0:
                continue
            gmark[n] = stamp
            gqueue[qt] = n
            qt += 1
    return found == nsqc[c]


@njit(cache=True)
def _order_children(ch, lo, top, porder, pl_piece, pl_size, tie):
    """Sort the placements ``ch[lo:top]`` (insertion sort: a few dozen) by their piece's
    live placements in reach (``porder``), fewest first: the piece with the least room goes
    where it still fits (most constrained first); then larger first, then ``tie``."""
    for i in range(lo + 1, top):
        q = ch[i]
        kq = (porder[pl_piece[q]] << 32) + ((8 - pl_size[q]) << 28) + tie[q]
        j = i - 1
        while j >= lo:
            r = ch[j]
            if (porder[pl_piece[r]] << 32) + ((8 - pl_size[r]) << 28) + tie[r] <= kq:
                break
            ch[j + 1] = r
            j -= 1
        ch[j + 1] = q


@njit(cache=True)
def _memo_slot(memo, code, h1, h2):
    """The row of the key (``code``, ``h1``, ``h2``) in the open-addressing hash table
    ``memo`` (rows [code + 1, h1, h2, value]; code + 1 == 0: empty row): where it is, or the
    empty row where it would go."""
    size = memo.shape[0] - 1
    i = ((code * 2654435761) ^ h1 ^ (h1 >> 29)) & size
    while memo[i, 0] != 0 and (memo[i, 0] != code + 1 or memo[i, 1] != h1 or memo[i, 2] != h2):
        i = (i + 1) & size
    return i


@njit(cache=True, nogil=True)
def memo_rehash(old, new):
    """Insert every row of the memo table ``old`` into the empty, larger table ``new``
    (both (rows, 4) int64, rows a power of 2: see :func:`_memo_slot`)."""
    for r in range(old.shape[0]):
        if old[r, 0] != 0:
            i = _memo_slot(new, old[r, 0] - 1, old[r, 1], old[r, 2])
            for k in range(4):
                new[i, k] = old[r, k]


@njit(cache=True, nogil=True)
def run(params, tables, state, budget):
    """Run the search for at most ``budget`` more nodes; returns DONE, FOUND, LIMIT or PAUSE.

    ``params``: int64, slots ``P_*``; ``tables`` (:class:`Tables`) and ``state``
    (:class:`State`), built by :func:`solver.backends.search.tables.build`; the state is updated
    in place so that a PAUSE can be resumed by calling again (Python calls this through
    :func:`run_chunk`). Results: ``fix[g]`` = layouts found that symmetry g fixes
    (``fix[0]`` = all layouts), ``sol`` / ``sol_mono`` (FIND), ``best`` and ``st[S_BEST]``
    (MAXSCORE).

    The loop, in steps (a node is a position of the search; a frame of the stack holds a
    branching node's colour c, attach square x and children):

    * S1. [Evaluate.] Count the node. For each colour: the connect test, the score of a
      colour with nothing left, its attach squares (none: dead), its reach and the area it
      cannot place (place-all: any loss is dead; max-score: the loss bound), the card goals'
      stars it can still cover, and the attach square with the fewest live placements (with
      the memo: in the smallest part of the reach).
    * S2. [Decide.] Max-score: keep a better layout, branch if the bound beats the best.
      Place-all and count: a dead node backtracks, a leaf goes to S3, else branch.
    * S3. [Leaf.] Check the held monominoes and the monomino-last rule, count the layout
      under each symmetry: FIND returns FOUND, COUNT at its limit LIMIT; else backtrack.
    * S4. [Memo.] A known failure of the node's key prunes it; else the frame will carry
      the key.
    * S5. [Branch.] Push a frame: the live placements of c covering x, largest first, then
      "x is never c's" (not for a colour that must still cover its start in place-all),
      then those of at most ``late`` squares. Enter the first child; go to S8.
    * S6. [Backtrack.] Undo the top frame's current child. If it has another, enter it and
      go to S8.
    * S7. [Pop.] The frame is exhausted: pop it (a keyed frame's key goes into the memo);
      if the stack is not empty, go to S6, else return DONE.
    * S8. [Pause?] After ``budget`` nodes return PAUSE (S6 then resumes, as the leaf that
      returned left it); else go to S1.

    Memo (one colour, FIND or MAXSCORE; a transposition table, as in chess engines, and the
    component caching of model counters): what is left to decide at a node depends only on
    the colour's reach (the squares flooded with king moves through allowed squares from
    its attach squares), which of its squares are attach squares, and the pieces left
    ``rem``. Every later placement lies in the reach, and every square it blocks or opens
    is in the reach or already blocked; the loss (squares left unplaced) counts only pieces
    in ``rem``. The key of a node: ``code = sum(rem[0, t] * rmult[t])`` and two 64-bit
    Zobrist keys of the reach and its attach squares (``zob``, :func:`_reach`). When a
    keyed frame's subtree is exhausted with no layout leaving at most ``lam`` squares
    (FIND: 0; MAXSCORE: ``-st[S_BEST] - 1`` at that time, every pruned node having had a
    threshold at least as large), no layout of that subproblem does: ``memo`` (open
    addressing, rows [code + 1, key 1, key 2, lam]) keeps the largest such ``lam`` and
    prunes later nodes with the same key and ``lam`` at most that. Bonuses depend on more
    than the key (the monomino-last test looks at every piece), so nothing is stored or
    pruned while ``lam`` < 0 (only a bonus could still improve). The same reach comes back
    once a part of it (a pocket: its king-move components never interact) is closed, in
    whatever way: so the search branches in the smallest part first (``dlab``, ``dsz``)
    and fills one pocket before the next.

    Card goals (FIND and COUNT only). ``star``: squares the layout must cover; a node
    where some star is free and no colour has a live placement of a remaining piece
    covering it inside its reach is dead (``sok[k]`` stamps the node at which a colour
    could still cover star k; the test is skipped when the evaluation stops early). A
    colour with ``conn[c]`` must end as one group: a node where its squares do not lie in
    one king-move component of its squares and the squares it may still cover (only its
    squares, once it has nothing left to place) is dead (:func:`_joinable`).
    """
    # the records' arrays by their short names; the helpers below take the arrays they
    # read, not the records (helpers taking the records measured 1.047x the time of the
    # old kernel on benchmarks/endgame_checks.py, this form 0.93x: docs/benchmarks.md)
    (
        pl_sq, pl_col, pl_piece, pl_size, cov_ptr, cov_idx, pp_ptr, pp_idx, edge_nb,
        corner_nb, king_nb, psize, pextra, pl_bx, start, own0, monoin, held, monochk,
        gperm, rmult, star, conn, img, orb, tie, zob, sqr, sqc,
    ) = tables  # fmt: skip
    (
        ext, bl, excl, cornr, nsqc, rem, remarea, sqcol, sqpl, path, fr_c,
        fr_x, fr_lo, fr_hi, fr_cur, ch, st, mark, cmark, queue, attach, pcount, cand, ncand,
        fix, sol, sol_mono, best, fr_key, memo, sok, gmark, gqueue, omark, porder,
        dlab, dsz, rmask, scan, nscan,
    ) = state  # fmt: skip
    mode = params[P_MODE]
    limit = params[P_LIMIT]
    bonus = params[P_BONUS]
    strong = params[P_STRONG]
    blocks = params[P_BLOCKS] == 1
    late = params[P_LATE]
    cmode = params[P_MEMO] == 1
    order = params[P_ORDER]
    stop_early = mode != MAXSCORE
    hcap = (memo.shape[0] * 7) // 10
    ncol = bl.shape[0]
    nsq = bl.shape[1]
    ngroup = gperm.shape[0]
    nstar = star.shape[0]
    anyconn = False
    for c in range(conn.shape[0]):
        if conn[c] == 1:
            anyconn = True
    stop_nodes = st[S_NODES] + budget
    while True:
        if st[S_NEED] == 1:
            st[S_NEED] = 0
            st[S_NODES] += 1
            if st[S_NODES] == 1:
                for c in range(ncol):
                    nscan[c] = _root_scan(c, scan, nsqc, bl, cornr, king_nb, mark, queue, st)
            # S1. [Evaluate.]
            dead = False
            best_c = -1
            best_x = -1
            best_n = 1 << 30
            best_sz = 1 << 30
            entry = -1
            all_done = True
            partial = False  # the colour loop stopped before every colour was evaluated
            ub = 0
            cur = 0
            for c in range(ncol):
                if anyconn and conn[c] == 1:
                    if not _joinable(
                        c, remarea[c] == 0, bl, sqcol, nsqc, king_nb, gmark, gqueue, st
                    ):
                        dead = True
                        break
                if remarea[c] == 0:
                    if mode == MAXSCORE:
                        sc = 0
                        if bonus == 1 and nsqc[c] > 0:
                            sc = 15
                            if monoin[c] == 1:
                                ok, stp = _mono_last_ok(
                                    c,
                                    path,
                                    st[S_PATHN],
                                    pl_sq,
                                    pl_col,
                                    pl_piece,
                                    pl_size,
                                    corner_nb,
                                    own0,
                                    start,
                                    mark,
                                    st[S_STAMP],
                                )
                                st[S_STAMP] = stp
                                if ok:
                                    sc = 20
                        cur += sc
                        ub += sc
                    continue
                all_done = False
                cur -= remarea[c]
                # attach squares
                na = 0
                if nsqc[c] == 0:
                    if start[c] >= 0 and bl[c, start[c]] == 0:
                        attach[0] = start[c]
                        na = 1
                else:
                    for i in range(nscan[c]):
                        s = scan[c, i]
                        if cornr[c, s] > 0 and bl[c, s] == 0:
                            attach[na] = s
                            na += 1
                if na == 0:
                    if mode == MAXSCORE:
                        ub -= remarea[c]
                        continue
                    dead = True
                    break
                reach, unplaceable, rstp = _reach(
                    c,
                    attach,
                    na,
                    bl,
                    rem,
                    psize,
                    king_nb,
                    pl_sq,
                    pl_size,
                    pp_ptr,
                    pp_idx,
                    mark,
                    cmark,
                    queue,
                    st,
                    strong,
                    stop_early,
                    pcount,
                    blocks,
                    pextra,
                    pl_bx,
                    ext,
                    orb,
                    omark,
                    zob,
                    dlab,
                    dsz,
                    sqr,
                    sqc,
                    rmask,
                )
                deficit = remarea[c] - reach
                if mode != MAXSCORE:
                    if unplaceable > 0 or deficit > 0:
                        dead = True
                        break
                for k in range(nstar):
                    x = star[k]
                    if sqcol[x] != -1 or sok[k] == st[S_NODES] or mark[x] != rstp:
                        continue
                    base = c * nsq + x
                    for ii in range(cov_ptr[base], cov_ptr[base + 1]):
                        p = cov_idx[ii]
                        if rem[c, pl_piece[p]] > 0 and _live(p, c, pl_sq, pl_size, bl):
                            sok[k] = st[S_NODES]
                            break
                else:
                    lo = unplaceable
                    if deficit > lo:
                        lo = deficit
                    if ncol == 1 and lo > 0:
                        lo = achievable_loss(
                            c, lo, -st[S_BEST] - 1, unplaceable, rem, pcount, psize
                        )
                    ub -= lo
                    if lo == 0 and bonus == 1:
                        ub += 20 if monoin[c] == 1 else 15
                    if unplaceable == remarea[c]:
                        continue  # nothing left to branch on for c
                # branching candidate: the attach square with the fewest live placements
                for i in range(na):
                    x = attach[i]
                    if cmode:  # memo: the smallest part of the reach first
                        sz = dsz[dlab[x]]
                        if sz > best_sz:
                            continue
                        if sz < best_sz:
                            best_sz = sz
                            best_n = 1 << 30
                    n_live = 0
                    base = c * nsq + x
                    for ii in range(cov_ptr[base], cov_ptr[base + 1]):
                        p = cov_idx[ii]
                        if rem[c, pl_piece[p]] > 0 and _live(p, c, pl_sq, pl_size, bl):
                            n_live += 1
                            if n_live >= best_n:
                                break
                    if n_live < best_n:
                        best_n = n_live
                        best_c = c
                        best_x = x
                        if n_live == 0:
                            break
                if order == 1 and best_c == c:
                    for t in range(rem.shape[1]):
                        porder[t] = pcount[t]
                if best_n == 0 and mode != MAXSCORE:
                    partial = c < ncol - 1
                    break
            if nstar > 0 and not dead and not partial:
                for k in range(nstar):
                    if sqcol[star[k]] == -1 and sok[k] != st[S_NODES]:
                        dead = True
                        break
            # S2. [Decide.]
            branch = False
            if mode == MAXSCORE:
                if st[S_NODES] == 1:
                    st[S_ROOTUB] = ub
                if cur > st[S_BEST]:
                    st[S_BEST] = cur
                    npath = st[S_PATHN]
                    for i in range(npath):
                        best[i] = path[i]
                    st[S_BESTN] = npath
                if ub > st[S_BEST] and best_c >= 0:
                    branch = True
            elif dead:
                pass
            elif all_done:
                # S3. [Leaf.] a layout of every non-held piece: place the held monominoes
                nheld = 0
                okc = True
                for c in range(ncol):
                    if monochk[c] == 1:
                        ok, stp = _mono_last_ok(
                            c,
                            path,
                            st[S_PATHN],
                            pl_sq,
                            pl_col,
                            pl_piece,
                            pl_size,
                            corner_nb,
                            own0,
                            start,
                            mark,
                            st[S_STAMP],
                        )
                        st[S_STAMP] = stp
                        if not ok:
                            okc = False
                    if held[c] == 1:
                        n = 0
                        for s in range(nsq):
                            if cornr[c, s] > 0 and bl[c, s] - excl[c, s] == 0:
                                cand[nheld, n] = s
                                n += 1
                        ncand[nheld] = n
                        nheld += 1
                if okc:
                    for g in range(ngroup):
                        if g > 0:
                            inv = True
                            for i in range(st[S_PATHN]):
                                p = path[i]
                                for kk in range(pl_size[p]):
                                    s = pl_sq[p, kk]
                                    if sqcol[gperm[g, s]] != pl_col[p]:
                                        inv = False
                            if not inv:
                                continue
                        if nheld == 0:
                            fix[g] += 1
                        else:
                            fix[g] += _assignments(cand, ncand, nheld, gperm[g], g > 0, orb)
                    if mode == FIND and fix[0] > 0:
                        npath = st[S_PATHN]
                        for i in range(npath):
                            sol[i] = path[i]
                        st[S_SOLN] = npath
                        # one assignment of distinct squares to the held monominoes
                        # (fix[0] > 0 guarantees one exists; small backtracking)
                        idx = np.zeros(nheld, dtype=np.int64)
                        i = 0
                        while 0 <= i < nheld:
                            if idx[i] >= ncand[i]:
                                idx[i] = 0
                                i -= 1
                                if i >= 0:
                                    idx[i] += 1
                                continue
                            s = cand[i, idx[i]]
                            clash = False
                            for j in range(i):
                                t = cand[j, idx[j]]
                                if t == s or (orb.shape[0] > 0 and orb[t] == orb[s]):
                                    clash = True
                            if clash:
                                idx[i] += 1
                            else:
                                i += 1
                        for j in range(nheld):
                            sol_mono[j] = cand[j, idx[j]]
                        return FOUND
                    if mode == COUNT and limit > 0 and fix[0] >= limit:
                        return LIMIT
            else:
                branch = True
            # S4. [Memo.]
            if branch and cmode:
                # what is left depends only on the reach, its attach squares and the
                # pieces left: a known failure of the same key prunes
                code = 0
                for t in range(rem.shape[1]):
                    code += rem[0, t] * rmult[t]
                lam = 0 if mode != MAXSCORE else -st[S_BEST] - 1
                if lam >= 0:  # (< 0: only a bonus can improve; it depends on more)
                    i = _memo_slot(memo, code, st[S_H1], st[S_H2])
                    if memo[i, 0] != 0 and memo[i, 3] >= lam:
                        branch = False
                        st[S_HITS] += 1
                    else:
                        entry = code
            if branch:
                # S5. [Branch.]
                lo = st[S_CHTOP]
                top = lo
                # children: live placements covering best_x, then "never covered by c"
                c = best_c
                x = best_x
                # (placements of at most ``late`` squares are tried after the
                # exclusion: small pieces are the most flexible, keep them for last)
                base = c * nsq + x
                for ii in range(cov_ptr[base], cov_ptr[base + 1]):
                    p = cov_idx[ii]
                    if pl_size[p] <= late:
                        break
                    if rem[c, pl_piece[p]] > 0 and _live(p, c, pl_sq, pl_size, bl):
                        ch[top] = p
                        top += 1
                if order == 1:
                    _order_children(ch, lo, top, porder, pl_piece, pl_size, tie)
                if not (mode != MAXSCORE and nsqc[c] == 0):
                    ch[top] = -1
                    top += 1
                for ii in range(cov_ptr[base], cov_ptr[base + 1]):
                    p = cov_idx[ii]
                    if (
                        pl_size[p] <= late
                        and rem[c, pl_piece[p]] > 0
                        and _live(p, c, pl_sq, pl_size, bl)
                    ):
                        ch[top] = p
                        top += 1
                if top > lo:
                    d = st[S_DEPTH]
                    fr_c[d] = c
                    fr_x[d] = x
                    fr_lo[d] = lo
                    fr_hi[d] = top
                    fr_cur[d] = lo
                    fr_key[d, 0] = entry
                    if entry >= 0:
                        fr_key[d, 1] = st[S_H1]
                        fr_key[d, 2] = st[S_H2]
                    st[S_DEPTH] = d + 1
                    st[S_CHTOP] = top
                    p = ch[lo]
                    # entering a child is written out here and in the backtrack below: a
                    # shared @njit helper, even inline="always", made the kernel 15-20%
                    # slower (research/notes/search_notes.md)
                    if p >= 0:
                        _apply_placement(
                            img,
                            p,
                            pl_sq,
                            pl_col,
                            pl_piece,
                            pl_size,
                            edge_nb,
                            corner_nb,
                            bl,
                            cornr,
                            nsqc,
                            rem,
                            remarea,
                            sqcol,
                            sqpl,
                            path,
                            st,
                        )
                    else:
                        bl[c, x] += 1
                        excl[c, x] = 1
                    st[S_NEED] = 1
        if st[S_NEED] == 0:
            while st[S_DEPTH] > 0:
                # S6. [Backtrack.] undo the top frame's child; enter its next one
                d = st[S_DEPTH] - 1
                c = fr_c[d]
                x = fr_x[d]
                p = ch[fr_cur[d]]
                if p >= 0:
                    _undo_placement(
                        img,
                        p,
                        pl_sq,
                        pl_col,
                        pl_piece,
                        pl_size,
                        edge_nb,
                        corner_nb,
                        bl,
                        cornr,
                        nsqc,
                        rem,
                        remarea,
                        sqcol,
                        sqpl,
                        st,
                    )
                else:
                    bl[c, x] -= 1
                    excl[c, x] = 0
                if fr_cur[d] + 1 < fr_hi[d]:
                    fr_cur[d] += 1
                    p = ch[fr_cur[d]]
                    if p >= 0:
                        _apply_placement(
                            img,
                            p,
                            pl_sq,
                            pl_col,
                            pl_piece,
                            pl_size,
                            edge_nb,
                            corner_nb,
                            bl,
                            cornr,
                            nsqc,
                            rem,
                            remarea,
                            sqcol,
                            sqpl,
                            path,
                            st,
                        )
                    else:
                        bl[c, x] += 1
                        excl[c, x] = 1
                    st[S_NEED] = 1
                    break
                # S7. [Pop.] (a keyed frame's key goes into the memo)
                st[S_CHTOP] = fr_lo[d]
                st[S_DEPTH] = d
                if fr_key[d, 0] >= 0:
                    # the frame's subtree is exhausted: it fails for this allowed loss
                    lam = 0 if mode != MAXSCORE else -st[S_BEST] - 1
                    if lam >= 0:
                        i = _memo_slot(memo, fr_key[d, 0], fr_key[d, 1], fr_key[d, 2])
                        if memo[i, 0] != 0:
                            if memo[i, 3] < lam:
                                memo[i, 3] = lam
                        elif st[S_STORES] < hcap:
                            memo[i, 0] = fr_key[d, 0] + 1
                            memo[i, 1] = fr_key[d, 1]
                            memo[i, 2] = fr_key[d, 2]
                            memo[i, 3] = lam
                            st[S_STORES] += 1
            if st[S_NEED] == 0:
                return DONE
        # S8. [Pause?]
        if st[S_NODES] >= stop_nodes:
            return PAUSE
