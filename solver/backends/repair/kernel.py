"""The compiled repair search: construction, ejection chains, window repairs and the
monominoes' matching in one numba loop (``@njit(cache=True)``) on an incremental state.

The algorithm is the one of :mod:`solver.backends.repair.repairer` (its module docstring
says what each step does and why); this module runs it without a Python object per step.
:mod:`solver.backends.repair.compiled` builds the arrays and drives :func:`run` in slices
of steps (numba has no clock: the Python side checks the deadline between slices).

The state is kept in **cells and neighbour tables** (no row masks of a square grid), so
that any board geometry that gives its cells' edge and corner neighbours and a coordinate
pair per cell (for the repair windows) runs it unchanged. C colours, N cells, S slots
(one per piece a colour has left, held monominoes apart), P placements of the empty board:

* ``occ[s]``: -2 hard (blocked or covered in the position), -1 free, else the slot on s.
* ``bl[c, s]``: how many reasons forbid s to c: s taken (by anyone, or hard), each of c's
  cells (the position's and the added ones) sharing an edge with s, an exclusion of the
  exact search (``excl``: a decision "c never covers s", or s outside its region) and a
  dead mark of the exact search (c has no live placement covering s). s is *allowed* for
  c iff ``bl == 0``, so a placement's legality is one read per cell.
* ``corner[c, s]``: how many of c's cells share a corner with s. s is an *attach cell*
  of c iff allowed and ``corner > 0`` (while c covers nothing: its start).
* ``nown[c]``: c's cells; ``slot_row[k]``: the placement on slot k, -1 for none.

Adding or removing a piece is an O(piece) update of these counters. The corner-contact
graph needs no table of its own: a slot's neighbours are the slots on its cells' corner
neighbours (``occ``), so the pieces cut off by a removal (:func:`_closure`) are one walk
over at most 21 pieces a colour.

The exact re-placements (an ejection's max-score put-back, a window's place-all) are a
small depth-first search of their own (:func:`_search`), specialised for a few freed
pieces on a frozen board: it branches on the attach cell of fewest live placements (the
pieces left of that colour covering it, then "c never covers it"), which is complete, and
prunes a colour that has pieces left and no live attach cell (place-all) or bounds the
score by the pieces of the colours still live (max-score). It runs on the same counters
(its exclusions and dead marks counted in ``bl``), within a node budget.

Written as game engines write their move loops: the loops over cells and placements are
written out where they run, not calls of small helpers. A numba function that takes
arrays increments and decrements each array's reference count on every call (an atomic
operation, about 10 ns each): the helpers called per placement and per cell (even with
``inline="always"``) took 70 % of a window repair's time (perf, research/notes). Helpers
here run once per node or per step.

With ``IP_DEBUG`` set every step ends with the state recomputed from scratch (the
position plus ``slot_row``) and compared, and every placed piece checked against the
rules (edges, corner contact to its colour's roots): a mismatch stops the run with
:data:`ERROR` (the tests run it so).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# run() return codes
FOUND = 0  # cost 0: every piece placed (slot_row, mono hold the layout)
PAUSE = 1  # the slice's steps are used up: call run() again
ERROR = 2  # debug mode: the incremental state differs from a recomputed one

# the int64 scalars st[...]
(
    S_COST,  # the current state's cost: cells left unplaced (+1 per held monomino short)
    S_BEST,  # the best cost seen (best_row, best_mono hold it)
    S_STEPS,  # steps (ejections and window repairs) made
    S_EJECT,  # ejection steps
    S_REPAIR,  # window repair steps
    S_IMPROVED,
    S_SIDEWAYS,
    S_TIMEOUTS,
    S_RESTARTS,
    S_WINDOW,  # the window's side
    S_LOW,  # the lowest cost since the last start
    S_SINCE,  # steps since it fell
    S_STARTED,  # 1 once the first layout is made (warm: set by the caller)
    S_MONOS,  # 1 when mono[] holds a matching (every other piece placed)
    S_NODES,  # nodes of the exact re-placements
    S_ERROR,  # debug: the step at which the state was found wrong (0: none)
    S_NSCAN,  # the exact search's cells: scan[:nscan] (the free cells of its region)
) = range(17)
N_SCALARS = 17

# the int64 settings ip[...]
(
    IP_RESTARTS,  # greedy layouts made per start (the best is kept)
    IP_STAGNATION,  # steps without a lower cost before a new start
    IP_MAX_FREED,  # most pieces a window frees
    IP_CENTRES,  # random centres weighed per window
    IP_EJECT_CANDS,  # placements weighed per ejection
    IP_EXACT_PIECES,  # most pieces an ejection puts back exactly (more: greedy first)
    IP_TABU,  # ejection steps during which a piece may not go back where it was taken off
    IP_REPAIR_NODES,  # node budget of each exact window repair
    IP_EJECT_NODES,  # node budget of each exact put-back
    IP_DEBUG,  # 1: recompute and compare the state after every step
    IP_WMIN,
    IP_WMAX,
    IP_MRV,  # the exact search weighs at most this many live attach cells per node
    IP_MARGIN,  # a window repair's pieces go back within the window grown by this much
    IP_EJECT_REACH,  # an ejection's pieces go back within this many king steps of the move
    IP_REACH_ALL,  # 1: the reach and fit bounds in place-all searches too (else max-score only)
    IP_WARM_RESTART,  # 1: a new start fills the warm start (warm_row) greedily, not the position
) = range(17)
N_IP = 17

# the float64 settings fp[...]
FP_EJECT, FP_ACCEPT_WORSE, FP_BLOCK, FP_NOISE = range(4)
N_FP = 4

# the exact search's modes and answers
PLACE_ALL = 0
MAX_SCORE = 1
X_FOUND = 0  # place-all: every todo slot placed (the state holds them)
X_DONE = 1  # the tree is exhausted (place-all: none; max-score: the best is optimal)
X_LIMIT = 2  # the node budget ran out


class Tables(NamedTuple):
    """The read-only arrays of one position: P placements of the empty board, T pieces,
    C colours, N cells, S slots."""

    edge_nb: np.ndarray  # (N, E) int32: edge neighbours, padded with -1
    corner_nb: np.ndarray  # (N, K) int32: corner neighbours, padded with -1
    pl_sq: np.ndarray  # (P, W) int32: a placement's cells, padded with -1
    pl_piece: np.ndarray  # (P,) int32: its piece
    pl_size: np.ndarray  # (P,) int32
    pl_ring: np.ndarray  # (P, R) int32: cells sharing a corner but no edge with it
    ej_ptr: np.ndarray  # (C * T + 1,) int64: CSR pointers of ej_idx by (colour, piece)
    ej_idx: np.ndarray  # int32: the placements an ejection weighs for a colour's piece (on
    # cells neither hard nor next to the colour's cells of the position)
    cv_ptr: np.ndarray  # (T * N + 1,) int64: CSR pointers of cv_idx by (piece, cell)
    cv_idx: np.ndarray  # int32: the placements of a piece covering a cell
    cv_sq: np.ndarray  # (len(cv_idx), W) int16: ... their cells, in line
    psize: np.ndarray  # (T,) int32: cells of each piece
    start: np.ndarray  # (C,) int32: the start cell, -1 for none
    hasbase: np.ndarray  # (C,) int8: the colour covers cells in the position
    baseown: np.ndarray  # (C, N) int8: ... which
    occ0: np.ndarray  # (N,) int32: occ of the position (-2 hard, -1 free)
    bl0: np.ndarray  # (C, N) int16: bl of the position (hard cells and edge0)
    corner0: np.ndarray  # (C, N) int16: corner of the position
    nown0: np.ndarray  # (C,) int64: nown of the position
    slot_col: np.ndarray  # (S,) int32: a slot's colour
    slot_piece: np.ndarray  # (S,) int32: its piece
    col_lo: np.ndarray  # (C + 1,) int32: colour c's slots are col_lo[c]:col_lo[c + 1]
    held: np.ndarray  # (C,) int8: the colour's monomino is held back for the end
    cell_y: np.ndarray  # (N,) float64: a cell's coordinates (the repair windows)
    cell_x: np.ndarray  # (N,) float64
    ip: np.ndarray  # (N_IP,) int64: settings
    fp: np.ndarray  # (N_FP,) float64: settings


class State(NamedTuple):
    """The run's state and scratch arrays, updated in place (a PAUSE resumes)."""

    occ: np.ndarray  # (N,) int32
    bl: np.ndarray  # (C, N) int16
    corner: np.ndarray  # (C, N) int16
    nown: np.ndarray  # (C,) int64
    excl: np.ndarray  # (C, N) int8: cells the exact search excludes for c (also in bl)
    slot_row: np.ndarray  # (S,) int32
    mono: np.ndarray  # (C,) int32: the held monominoes' cells when S_MONOS
    best_row: np.ndarray  # (S,) int32: the best state's slot_row
    best_mono: np.ndarray  # (C,) int32 (-1: none; valid when the best's S_MONOS)
    st: np.ndarray  # (N_SCALARS,) int64
    rng: np.ndarray  # (1,) uint64: the generator's state (splitmix64)
    tabu: np.ndarray  # (C, P) int64: the ejection step a piece left that placement
    stamp: np.ndarray  # (P,) int64: scratch: placements seen (greedy's union of lists)
    nstamp: np.ndarray  # (1,) int64: the stamp's counter
    save_a: np.ndarray  # (S,) int32: scratch: a saved slot_row (the step's start)
    save_b: np.ndarray  # (S,) int32: scratch: another (after an ejection, before put-back)
    save_m: np.ndarray  # (C,) int32: scratch: a saved mono
    warm_row: np.ndarray  # (S,) int32: the warm start's slot_row (all -1 without one)
    gone: np.ndarray  # (S,) int8: scratch: slots taken off
    seen: np.ndarray  # (S,) int8: scratch: slots reached by the closure's walk
    squeue: np.ndarray  # (S,) int32: scratch: its queue
    todo: np.ndarray  # (S,) int8: scratch: slots the exact search places
    cand: np.ndarray  # (P,) int32: scratch: candidate placements
    cval: np.ndarray  # (P,) float64: scratch: ... their scores
    hits: np.ndarray  # (64,) int32: scratch: slots one candidate takes off
    fr_c: np.ndarray  # (D,) int32: the exact search's frames: colour
    fr_x: np.ndarray  # (D,) int32: branching cell
    fr_lo: np.ndarray  # (D,) int64: children ch[fr_lo:fr_hi]
    fr_hi: np.ndarray  # (D,) int64
    fr_cur: np.ndarray  # (D,) int64: the child being searched
    ch: np.ndarray  # (H,) int32: children: a placement or -1 ("exclude fr_x")
    ch_slot: np.ndarray  # (H,) int32: the slot a placement child fills
    xbest: np.ndarray  # (S,) int32: max-score: the best found (a row per slot, -1)
    sqmark: np.ndarray  # (N,) int64: scratch: stamps per cell (matching)
    sqown: np.ndarray  # (N,) int32: scratch: the matching's colour per cell
    colprev: np.ndarray  # (C,) int32: ... from which colour
    cqueue: np.ndarray  # (C,) int32
    dpc: np.ndarray  # (C, 64) int32: scratch: distinct pieces left per colour (piece, slot)
    nd: np.ndarray  # (C,) int64: how many
    trail: np.ndarray  # (C * N,) int32: the exact search's dead marks, c * N + s, in order
    fr_tr: np.ndarray  # (D,) int64: the trail's top when a frame's node was reached
    fmark: np.ndarray  # (N,) int64: the exact search's reach flood: stamps
    fq: np.ndarray  # (N,) int32: ... its queue
    region: np.ndarray  # (N,) int8: scratch: the cells an exact re-placement may fill
    scan: np.ndarray  # (N,) int32: ... the free ones, the exact search's cells to scan
    ga: np.ndarray  # (N,) int8: scratch of greedy play: a cell c would gain as attach cell
    othatt: np.ndarray  # (N,) int8: ... the other colours that could attach there
    adj: np.ndarray  # (S,) int64: an ejection's contact graph: bit k - col_lo[c] set for
    # each slot k of c that slot's piece touches at a corner (valid for colour c while
    # adj_step[c] is the ejection's number)
    adj_step: np.ndarray  # (C,) int64: the ejection step adj, placed_m, root_m are of
    placed_m: np.ndarray  # (C,) int64: c's placed slots, as bits k - col_lo[c]
    root_m: np.ndarray  # (C,) int64: ... those touching c's roots (_walk_a)
    hit_m: np.ndarray  # (C,) int64: scratch: the slots one candidate takes off, as bits
    gone_m: np.ndarray  # (C,) int64: scratch: ... with the subtrees they cut off


# ---------------------------------------------------------------- the generator


@njit(cache=True, inline="always")
def _next(rng):
    """splitmix64: the next 64 random bits."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _random(rng):
    """A float in [0, 1)."""
    return float(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def _below(rng, n):
    """An integer in [0, n)."""
    return int(_next(rng) % np.uint64(n))


@njit(cache=True, inline="always")
def _gumbel(rng):
    u = _random(rng)
    if u <= 0.0:
        u = 1e-300
    return -np.log(-np.log(u) + 1e-300)


# ---------------------------------------------------------------- cells and pieces
# (helpers take the arrays themselves, bound once by their caller: a field read off the
# Tables / State records costs a reference count per read)


@njit(cache=True)
def _move_a(pl_sq, pl_size, edge_nb, corner_nb, slot_col, occ, bl, corner, nown, slot_row, k, row):
    """Slot k takes placement ``row`` (``row >= 0``, no rule checked) or, with ``row < 0``,
    its piece comes off: ``occ``, ``bl``, ``corner`` and ``nown`` follow, O(piece)."""
    sign = 1
    if row < 0:
        sign = -1
        row = slot_row[k]
    c = slot_col[k]
    C = bl.shape[0]
    for j in range(pl_sq.shape[1]):
        s = pl_sq[row, j]
        if s < 0:
            break
        occ[s] = k if sign > 0 else -1
        for e in range(C):
            bl[e, s] += sign
        for q in range(edge_nb.shape[1]):
            x = edge_nb[s, q]
            if x < 0:
                break
            bl[c, x] += sign
        for q in range(corner_nb.shape[1]):
            x = corner_nb[s, q]
            if x < 0:
                break
            corner[c, x] += sign
    nown[c] += sign * pl_size[row]
    slot_row[k] = row if sign > 0 else -1


@njit(cache=True)
def _place(T, S, k, row):
    """Slot k takes placement ``row`` (no rule checked)."""
    _move_a(
        T.pl_sq,
        T.pl_size,
        T.edge_nb,
        T.corner_nb,
        T.slot_col,
        S.occ,
        S.bl,
        S.corner,
        S.nown,
        S.slot_row,
        k,
        row,
    )


@njit(cache=True)
def _restore(T, S, rows):
    """Bring slot_row back to ``rows`` (the pieces that differ come off, then on)."""
    pl_sq = T.pl_sq
    pl_size = T.pl_size
    edge_nb = T.edge_nb
    corner_nb = T.corner_nb
    slot_col = T.slot_col
    occ = S.occ
    bl = S.bl
    corner = S.corner
    nown = S.nown
    slot_row = S.slot_row
    for k in range(len(rows)):
        if slot_row[k] >= 0 and slot_row[k] != rows[k]:
            _move_a(
                pl_sq, pl_size, edge_nb, corner_nb, slot_col, occ, bl, corner, nown, slot_row, k, -1
            )
    for k in range(len(rows)):
        if rows[k] >= 0 and slot_row[k] != rows[k]:
            _move_a(
                pl_sq,
                pl_size,
                edge_nb,
                corner_nb,
                slot_col,
                occ,
                bl,
                corner,
                nown,
                slot_row,
                k,
                rows[k],
            )


@njit(cache=True)
def _take_off_gone(T, S):
    """The pieces of the slots flagged in ``gone`` come off."""
    pl_sq = T.pl_sq
    pl_size = T.pl_size
    edge_nb = T.edge_nb
    corner_nb = T.corner_nb
    slot_col = T.slot_col
    occ = S.occ
    bl = S.bl
    corner = S.corner
    nown = S.nown
    slot_row = S.slot_row
    gone = S.gone
    for k in range(len(gone)):
        if gone[k] and slot_row[k] >= 0:
            _move_a(
                pl_sq, pl_size, edge_nb, corner_nb, slot_col, occ, bl, corner, nown, slot_row, k, -1
            )


@njit(cache=True)
def _left_cells(col_lo, slot_row, slot_piece, psize, c):
    """Cells of colour c's pieces not placed (held monomino not counted)."""
    n = 0
    for k in range(col_lo[c], col_lo[c + 1]):
        if slot_row[k] < 0:
            n += psize[slot_piece[k]]
    return n


# ---------------------------------------------------------------- the contact graph


@njit(cache=True)
def _walk_a(
    start, col_lo, hasbase, corner0, pl_sq, corner_nb, occ, slot_row, gone, seen, squeue, c
):
    """``seen[k]`` for colour c's slots: placed, not in ``gone``, and joined to c's roots
    by corner contacts through such slots (a breadth-first walk of the contact graph). A
    root touches c's cells of the position at a corner, or covers c's start while c has
    none there."""
    lo, hi = col_lo[c], col_lo[c + 1]
    n = 0
    for k in range(lo, hi):
        seen[k] = 0
        r = slot_row[k]
        if r < 0 or gone[k]:
            continue
        root = False
        for j in range(pl_sq.shape[1]):
            s = pl_sq[r, j]
            if s < 0:
                break
            if (hasbase[c] and corner0[c, s] > 0) or (not hasbase[c] and s == start[c]):
                root = True
                break
        if root:
            seen[k] = 1
            squeue[n] = k
            n += 1
    i = 0
    while i < n:
        k = squeue[i]
        i += 1
        row = slot_row[k]
        for j in range(pl_sq.shape[1]):
            s = pl_sq[row, j]
            if s < 0:
                break
            for q in range(corner_nb.shape[1]):
                x = corner_nb[s, q]
                if x < 0:
                    break
                o = occ[x]
                if o >= lo and o < hi and not seen[o] and not gone[o]:
                    seen[o] = 1
                    squeue[n] = o
                    n += 1


@njit(cache=True)
def _closure_a(
    start, col_lo, hasbase, corner0, pl_sq, pl_size, corner_nb, occ, slot_row, gone, seen, squeue
):
    """``gone`` (slots flagged to come off) plus every placed slot of their colours that
    loses its corner connection to the colour's roots once they are off; returns the
    cells all of them cover."""
    for c in range(len(start)):
        lo, hi = col_lo[c], col_lo[c + 1]
        hit = False
        for k in range(lo, hi):
            if gone[k]:
                hit = True
                break
        if not hit:
            continue
        _walk_a(
            start, col_lo, hasbase, corner0, pl_sq, corner_nb, occ, slot_row, gone, seen, squeue, c
        )
        for k in range(lo, hi):
            if slot_row[k] >= 0 and not seen[k]:
                gone[k] = 1
    cells = 0
    for k in range(len(gone)):
        if gone[k] and slot_row[k] >= 0:
            cells += pl_size[slot_row[k]]
    return cells


@njit(cache=True)
def _closure(T, S):
    """:func:`_closure_a` on the run's arrays."""
    return _closure_a(
        T.start,
        T.col_lo,
        T.hasbase,
        T.corner0,
        T.pl_sq,
        T.pl_size,
        T.corner_nb,
        S.occ,
        S.slot_row,
        S.gone,
        S.seen,
        S.squeue,
    )


#: most slots of one colour (its pieces left: at most 22 in a piece family), so that a
#: colour's slots are the bits of an int64 in an ejection's contact graph (``State.adj``)
MASK_SLOTS = 62


@njit(cache=True)
def _contacts_a(
    start, col_lo, hasbase, corner0, pl_sq, corner_nb, occ, slot_row, adj, placed_m, root_m, c
):
    """Colour c's contact graph as bit masks (one ejection's, the state unchanged while it
    weighs its candidates): ``adj[k]`` the slots of c slot k touches at a corner,
    ``placed_m[c]`` the placed slots, ``root_m[c]`` the roots (as :func:`_walk_a`'s)."""
    lo, hi = col_lo[c], col_lo[c + 1]
    pm = 0
    rm = 0
    for k in range(lo, hi):
        adj[k] = 0
        r = slot_row[k]
        if r < 0:
            continue
        bit = np.int64(1) << (k - lo)
        pm |= bit
        a = np.int64(0)
        for j in range(pl_sq.shape[1]):
            s = pl_sq[r, j]
            if s < 0:
                break
            if (hasbase[c] and corner0[c, s] > 0) or (not hasbase[c] and s == start[c]):
                rm |= bit
            for q in range(corner_nb.shape[1]):
                x = corner_nb[s, q]
                if x < 0:
                    break
                o = occ[x]
                if o >= lo and o < hi and o != k:
                    a |= np.int64(1) << (o - lo)
        adj[k] = a
    placed_m[c] = pm
    root_m[c] = rm


@njit(cache=True)
def _cut_m(adj, lo, n, placed, roots, hit):
    """``hit`` (bits of a colour's slots lo:lo+n taken off) plus the placed slots that lose
    their corner connection to the roots once they are off (:func:`_closure_a` on bits)."""
    alive = placed & ~hit
    reach = roots & alive
    done = np.int64(0)
    changed = True
    while changed:
        changed = False
        for b in range(n):
            bit = np.int64(1) << b
            if (reach & bit) and not (done & bit):
                done |= bit
                new = adj[lo + b] & alive & ~reach
                if new:
                    reach |= new
                    changed = True
    return hit | (alive & ~reach)


# ---------------------------------------------------------------- greedy play


@njit(cache=True)
def _choose(T, S, c, only_todo):
    """Greedy play's move for colour c: of its largest pieces left that have a legal
    placement, the placement scoring best on new attach cells for c, minus FP_BLOCK per
    attach cell of another colour covered, plus FP_NOISE Gumbel noise. Returns
    (row, slot), or (-1, -1) if no piece fits. ``only_todo``: only slots flagged in
    ``todo``."""
    start = T.start
    col_lo = T.col_lo
    psize = T.psize
    slot_piece = T.slot_piece
    cv_ptr = T.cv_ptr
    cv_idx = T.cv_idx
    cv_sq = T.cv_sq
    pl_ring = T.pl_ring
    pl_sq = T.pl_sq
    slot_row = S.slot_row
    todo = S.todo
    nstamp = S.nstamp
    dpc = S.dpc
    ga = S.ga
    bl = S.bl
    corner = S.corner
    othatt = S.othatt
    nown = S.nown
    stamp = S.stamp
    rng = S.rng
    C = len(start)
    N = bl.shape[1]
    W = cv_sq.shape[1]
    lo, hi = col_lo[c], col_lo[c + 1]
    block = T.fp[FP_BLOCK]
    noise = T.fp[FP_NOISE]
    own = nown[c] > 0
    last = 1 << 30
    ready = False
    while True:
        # G1 [the largest size left below the last one tried]
        size = -1
        for k in range(lo, hi):
            if slot_row[k] < 0 and (not only_todo or todo[k]):
                z = psize[slot_piece[k]]
                if z < last and z > size:
                    size = z
        if size < 0:
            return -1, -1
        last = size
        nstamp[0] += 1
        mark = nstamp[0]
        best = -1
        bslot = -1
        bscore = -1e300
        # G2 [the distinct pieces of that size, a slot each]
        nd = 0
        seen = np.int64(0)
        for k in range(lo, hi):
            if slot_row[k] >= 0 or (only_todo and not todo[k]):
                continue
            t = slot_piece[k]
            bit = np.int64(1) << np.int64(t)
            if psize[t] != size or seen & bit:
                continue
            seen |= bit
            dpc[c, 2 * nd] = t
            dpc[c, 2 * nd + 1] = k
            nd += 1
        if nd > 0 and not ready:
            # G3 [per cell: a new attach cell for c if covered by a corner ring (gain), and
            # how many other colours could attach there (loss)]
            for s in range(N):
                ga[s] = bl[c, s] == 0 and corner[c, s] == 0
                n = 0
                for e in range(C):
                    if e != c and bl[e, s] == 0:
                        if (nown[e] > 0 and corner[e, s] > 0) or (nown[e] == 0 and s == start[e]):
                            n += 1
                othatt[s] = n
            ready = True
        # G4 [every legal placement of those pieces, found from c's attach cells]
        for s in range(N):
            if nd == 0 or bl[c, s] != 0:
                continue
            if (own and corner[c, s] == 0) or (not own and s != start[c]):
                continue
            for d in range(nd):
                t = dpc[c, 2 * d]
                k = dpc[c, 2 * d + 1]
                base = t * N + s
                for i in range(cv_ptr[base], cv_ptr[base + 1]):
                    r = cv_idx[i]
                    if stamp[r] == mark:
                        continue
                    stamp[r] = mark
                    ok = True  # (it covers the attach cell s: legal iff every cell allowed)
                    for j in range(W):
                        x = cv_sq[i, j]
                        if x < 0:
                            break
                        if bl[c, x] != 0:
                            ok = False
                            break
                    if not ok:
                        continue
                    gain = 0
                    for j in range(pl_ring.shape[1]):
                        x = pl_ring[r, j]
                        if x < 0:
                            break
                        gain += ga[x]
                    loss = 0
                    for j in range(pl_sq.shape[1]):
                        x = pl_sq[r, j]
                        if x < 0:
                            break
                        loss += othatt[x]
                    score = gain - block * loss + noise * _gumbel(rng)
                    if score > bscore:
                        bscore = score
                        best = r
                        bslot = k
        if best >= 0:
            return best, bslot


@njit(cache=True)
def _greedy(T, S, only_todo):
    """Greedy play: the colours in turn, each placing by :func:`_choose` until none has a
    piece that fits (``only_todo``: the slots flagged in ``todo`` only)."""
    col_lo = T.col_lo
    slot_row = S.slot_row
    todo = S.todo
    C = len(T.start)
    active = np.zeros(C, dtype=np.int8)
    for c in range(C):
        for k in range(col_lo[c], col_lo[c + 1]):
            if slot_row[k] < 0 and (not only_todo or todo[k]):
                active[c] = 1
    more = True
    while more:
        more = False
        for c in range(C):
            if not active[c]:
                continue
            row, k = _choose(T, S, c, only_todo)
            if row < 0:
                active[c] = 0
                continue
            _place(T, S, k, row)
            active[c] = 0
            for k2 in range(col_lo[c], col_lo[c + 1]):
                if slot_row[k2] < 0 and (not only_todo or todo[k2]):
                    active[c] = 1
                    more = True
                    break


# ---------------------------------------------------------------- the cost


@njit(cache=True)
def _match(T, S):
    """The held monominoes on distinct attach cells of their colours, as many as can be
    (augmenting paths, breadth first); ``mono[c]`` the cell or -1; returns how many are
    short."""
    start = T.start
    held = T.held
    sqown = S.sqown
    mono = S.mono
    nstamp = S.nstamp
    colprev = S.colprev
    cqueue = S.cqueue
    sqmark = S.sqmark
    bl = S.bl
    corner = S.corner
    nown = S.nown
    C = len(start)
    N = bl.shape[1]
    for s in range(N):
        sqown[s] = -1
    for c in range(C):
        mono[c] = -1
    short = 0
    for c0 in range(C):
        if not held[c0]:
            continue
        nstamp[0] += 1
        mark = nstamp[0]
        for c in range(C):
            colprev[c] = -2  # not reached
        colprev[c0] = -1
        cqueue[0] = c0
        n = 1
        i = 0
        end = -1
        endc = -1
        while i < n and end < 0:
            u = cqueue[i]
            i += 1
            own = nown[u] > 0
            for s in range(N):
                if sqmark[s] == mark or bl[u, s] != 0:
                    continue
                if (own and corner[u, s] == 0) or (not own and s != start[u]):
                    continue
                sqmark[s] = mark
                o = sqown[s]
                if o < 0:
                    end = s
                    endc = u
                    break
                if colprev[o] == -2:
                    colprev[o] = u  # u would take o's cell, o another
                    cqueue[n] = o
                    n += 1
        if end < 0:
            short += 1
            continue
        # along the path back to c0, each colour takes the next cell
        cur = endc
        cell = end
        while True:
            old = mono[cur]
            mono[cur] = cell
            sqown[cell] = cur
            if cur == c0:
                break
            cell = old
            cur = colprev[cur]
    return short


@njit(cache=True)
def _cost(T, S):
    """The state's cost: cells left unplaced, plus 1 per held monomino with no cell of
    its own (matched only once nothing else is left); sets S_MONOS and mono."""
    C = len(T.start)
    cost = 0
    need = 0
    for c in range(C):
        cost += _left_cells(T.col_lo, S.slot_row, T.slot_piece, T.psize, c)
        need += T.held[c]
    S.st[S_MONOS] = 0
    if cost == 0 and need > 0:
        cost = _match(T, S)
        S.st[S_MONOS] = 1
    else:
        cost += need
    S.st[S_COST] = cost
    return cost


@njit(cache=True)
def _keep_best(T, S):
    if S.st[S_COST] < S.st[S_BEST]:
        S.st[S_BEST] = S.st[S_COST]
        S.best_row[:] = S.slot_row
        if S.st[S_MONOS]:
            S.best_mono[:] = S.mono
        else:
            S.best_mono[:] = -1


# ---------------------------------------------------------------- the exact search


@njit(cache=True)
def _room_a(
    edge_nb,
    corner_nb,
    bl,
    corner,
    nown,
    start,
    fmark,
    fq,
    stampv,
    scan,
    nscan,
    cv_sq,
    cv_ptr,
    dpc,
    col_lo,
    todo,
    slot_row,
    slot_piece,
    psize,
    c,
    nd,
    area,
):
    """The reach bound of colour c: its cells left (``area``) need as many cells it could
    still cover (a king-step flood through cells allowed to c from its attach cells: a
    piece covers edge-joined cells from an attach cell and the next attaches at a corner
    of it), and each of its pieces left a place inside that reach. Returns the cells c can
    still place at most."""
    N = bl.shape[1]
    W = cv_sq.shape[1]
    own = nown[c] > 0
    # R1 [the flood's seeds: c's attach cells]
    n = 0
    for si in range(nscan):
        s = scan[si]
        if bl[c, s] != 0:
            continue
        if (own and corner[c, s] == 0) or (not own and s != start[c]):
            continue
        fmark[s] = stampv
        fq[n] = s
        n += 1
    # R2 [the flood through allowed cells]
    i = 0
    while i < n:
        s = fq[i]
        i += 1
        for q in range(edge_nb.shape[1]):
            x = edge_nb[s, q]
            if x < 0:
                break
            if fmark[x] != stampv and bl[c, x] == 0:
                fmark[x] = stampv
                fq[n] = x
                n += 1
        for q in range(corner_nb.shape[1]):
            x = corner_nb[s, q]
            if x < 0:
                break
            if fmark[x] != stampv and bl[c, x] == 0:
                fmark[x] = stampv
                fq[n] = x
                n += 1
    room = n
    # R3 [each piece left a placement inside the reach, else its cells are short]
    short = 0
    for d in range(nd):
        t = dpc[c, 2 * d]
        fits = False
        for a in range(room):
            base = t * N + fq[a]
            for m in range(cv_ptr[base], cv_ptr[base + 1]):
                ok = True
                for j in range(W):
                    x = cv_sq[m, j]
                    if x < 0:
                        break
                    if fmark[x] != stampv:
                        ok = False
                        break
                if ok:
                    fits = True
                    break
            if fits:
                break
        if not fits:
            for k in range(col_lo[c], col_lo[c + 1]):
                if todo[k] and slot_row[k] < 0 and slot_piece[k] == t:
                    short += psize[t]
    return min(room, area - short)


@njit(cache=True)
def _live_at(cv_sq, cv_ptr, bl, dpc, c, s, nd, cap):
    """Colour c's live placements covering its attach cell s (of the ``nd`` pieces in
    ``dpc[c]``), counted up to ``cap``: covering the attach cell, a placement is legal iff
    every cell of it is allowed (one call per cell weighed: the loop over placements runs
    inside, so the arrays' reference counts are paid once per cell, not per placement)."""
    N = bl.shape[1]
    cnt = 0
    for d in range(nd):
        base = dpc[c, 2 * d] * N + s
        for i in range(cv_ptr[base], cv_ptr[base + 1]):
            ok = True
            for j in range(cv_sq.shape[1]):
                x = cv_sq[i, j]
                if x < 0:
                    break
                if bl[c, x] != 0:
                    ok = False
                    break
            if ok:
                cnt += 1
                if cnt >= cap:
                    return cnt
    return cnt


@njit(cache=True)
def _search(T, S, mode, budget):
    """Place the slots flagged in ``todo`` (all of them: PLACE_ALL; as many cells as
    possible: MAX_SCORE) on the state as it stands, within ``budget`` nodes, on the cells
    of the region (``scan[:st[S_NSCAN]]``; every other cell excluded by the caller).

    Returns X_FOUND (place-all: the state holds them), X_DONE (place-all: there is no
    way; max-score: the best, now on the state, is optimal) or X_LIMIT (the budget ran
    out: place-all leaves the state as it was; max-score puts the best found on it)."""
    start = T.start
    psize = T.psize
    slot_piece = T.slot_piece
    slot_col = T.slot_col
    col_lo = T.col_lo
    pl_sq = T.pl_sq
    pl_size = T.pl_size
    cv_ptr = T.cv_ptr
    cv_idx = T.cv_idx
    cv_sq = T.cv_sq
    edge_nb = T.edge_nb
    corner_nb = T.corner_nb
    ip = T.ip
    occ = S.occ
    slot_row = S.slot_row
    todo = S.todo
    xbest = S.xbest
    fr_c = S.fr_c
    fr_x = S.fr_x
    fr_lo = S.fr_lo
    fr_hi = S.fr_hi
    fr_cur = S.fr_cur
    fr_tr = S.fr_tr
    ch = S.ch
    ch_slot = S.ch_slot
    nd = S.nd
    dpc = S.dpc
    bl = S.bl
    excl = S.excl
    corner = S.corner
    nown = S.nown
    st = S.st
    trail = S.trail
    nstamp = S.nstamp
    fmark = S.fmark
    fq = S.fq
    scan = S.scan
    nscan = st[S_NSCAN]
    mrv = ip[IP_MRV]
    bounds = mode == MAX_SCORE or ip[IP_REACH_ALL] != 0
    ttop = 0  # the trail of dead marks: a (colour, cell) found without live placements
    C = len(start)
    N = len(occ)
    W = cv_sq.shape[1]
    nslot = len(slot_row)
    area = np.zeros(C, dtype=np.int64)  # todo cells left per colour
    total = 0
    for k in range(nslot):
        if todo[k] and slot_row[k] < 0:
            a = psize[slot_piece[k]]
            area[slot_col[k]] += a
            total += a
    placed = 0
    best = -1
    for k in range(nslot):
        xbest[k] = -1
    depth = 0
    htop = 0
    nodes = 0
    result = X_DONE
    maxd = len(fr_c)
    maxh = len(ch)
    trunc = False  # children left out for want of room: an exhausted tree proves nothing
    while True:
        # X1 [evaluate the node]
        nodes += 1
        t0 = ttop
        leaf = False
        fail = False
        bc = -1
        bx = -1
        if placed == total:
            leaf = True
        else:
            # X1a [liveness of every colour with pieces to place (one live placement
            # suffices), the bounds, and the live colour with the most cells to place]
            live_area = 0
            top = -1
            for c in range(C):
                nd[c] = 0
                if area[c] == 0:
                    continue
                n = 0
                seen = np.int64(0)
                for k in range(col_lo[c], col_lo[c + 1]):
                    if slot_row[k] >= 0 or not todo[k]:
                        continue
                    t = slot_piece[k]
                    bit = np.int64(1) << np.int64(t)
                    if seen & bit:
                        continue
                    seen |= bit
                    dpc[c, 2 * n] = t
                    dpc[c, 2 * n + 1] = k
                    n += 1
                nd[c] = n
                own = nown[c] > 0
                live = False
                for si in range(nscan):
                    s = scan[si]
                    if bl[c, s] != 0:
                        continue
                    if (own and corner[c, s] == 0) or (not own and s != start[c]):
                        continue
                    if _live_at(cv_sq, cv_ptr, bl, dpc, c, s, n, 1) > 0:
                        live = True
                        break
                    # no live placement covers s now, so none in this subtree (cells
                    # only get taken, the pieces left only fewer): dead until backtracked
                    bl[c, s] += 1
                    trail[ttop] = c * N + s
                    ttop += 1
                if live:
                    can = area[c]
                    if bounds:
                        nstamp[0] += 1
                        can = _room_a(
                            edge_nb,
                            corner_nb,
                            bl,
                            corner,
                            nown,
                            start,
                            fmark,
                            fq,
                            nstamp[0],
                            scan,
                            nscan,
                            cv_sq,
                            cv_ptr,
                            dpc,
                            col_lo,
                            todo,
                            slot_row,
                            slot_piece,
                            psize,
                            c,
                            n,
                            area[c],
                        )
                    if can < area[c] and mode == PLACE_ALL:
                        fail = True
                        break
                    live_area += can
                    if top < 0 or area[c] > area[top]:
                        top = c
                elif mode == PLACE_ALL:
                    fail = True
                    break
            # X1b [the branching cell: of the top colour's first IP_MRV live attach cells,
            # the one with the fewest live placements]
            if not fail and top >= 0:
                bcount = 1 << 30
                bc = top
                looked = 0
                own = nown[top] > 0
                n = nd[top]
                for si in range(nscan):
                    s = scan[si]
                    if bl[top, s] != 0:
                        continue
                    if (own and corner[top, s] == 0) or (not own and s != start[top]):
                        continue
                    cnt = _live_at(cv_sq, cv_ptr, bl, dpc, top, s, n, bcount)
                    if cnt == 0:
                        bl[top, s] += 1
                        trail[ttop] = top * N + s
                        ttop += 1
                        continue
                    looked += 1
                    if cnt < bcount:
                        bcount = cnt
                        bx = s
                    if cnt == 1 or looked >= mrv:
                        break
            if not fail:
                if bc < 0:
                    leaf = True
                elif mode == MAX_SCORE and placed + live_area <= best:
                    fail = True
        if leaf and not fail:
            if placed > best:
                best = placed
                for k in range(nslot):
                    xbest[k] = slot_row[k] if todo[k] else -1
            if placed == total:
                result = X_FOUND
                break
        if nodes >= budget:
            result = X_LIMIT
            break
        if not (leaf or fail):
            if depth >= maxd - 1 or htop + 4096 >= maxh:
                fail = True  # no room: a dead end, and the tree's end proves nothing
                trunc = True
        if not (leaf or fail):
            # X2 [open a frame: the live placements covering bx, then "exclude bx"]
            lo = htop
            for d in range(nd[bc]):
                t = dpc[bc, 2 * d]
                k = dpc[bc, 2 * d + 1]
                base = t * N + bx
                for i in range(cv_ptr[base], cv_ptr[base + 1]):
                    ok = True
                    for j in range(W):
                        x = cv_sq[i, j]
                        if x < 0:
                            break
                        if bl[bc, x] != 0:
                            ok = False
                            break
                    if not ok:
                        continue
                    if htop >= maxh - 2:
                        trunc = True
                        continue
                    ch[htop] = cv_idx[i]
                    ch_slot[htop] = k
                    htop += 1
            ch[htop] = -1
            ch_slot[htop] = -1
            htop += 1
            fr_c[depth] = bc
            fr_x[depth] = bx
            fr_lo[depth] = lo
            fr_hi[depth] = htop
            fr_cur[depth] = lo
            fr_tr[depth] = t0
            depth += 1
        else:
            # X4 [backtrack: undo the top frame's child, go to the next]
            while ttop > t0:
                ttop -= 1
                bl[trail[ttop] // N, trail[ttop] % N] -= 1
            while depth > 0:
                f = depth - 1
                i = fr_cur[f]
                r = ch[i]
                if r >= 0:
                    k = ch_slot[i]
                    _move_a(
                        pl_sq,
                        pl_size,
                        edge_nb,
                        corner_nb,
                        slot_col,
                        occ,
                        bl,
                        corner,
                        nown,
                        slot_row,
                        k,
                        -1,
                    )
                    area[slot_col[k]] += pl_size[r]
                    placed -= pl_size[r]
                else:
                    excl[fr_c[f], fr_x[f]] = 0
                    bl[fr_c[f], fr_x[f]] -= 1
                fr_cur[f] = i + 1
                if i + 1 < fr_hi[f]:
                    break
                htop = fr_lo[f]
                while ttop > fr_tr[f]:
                    ttop -= 1
                    bl[trail[ttop] // N, trail[ttop] % N] -= 1
                depth -= 1
            if depth == 0:
                result = X_LIMIT if trunc else X_DONE
                break
        # X3 [apply the top frame's current child]
        f = depth - 1
        i = fr_cur[f]
        r = ch[i]
        if r >= 0:
            k = ch_slot[i]
            _move_a(
                pl_sq, pl_size, edge_nb, corner_nb, slot_col, occ, bl, corner, nown, slot_row, k, r
            )
            area[slot_col[k]] -= pl_size[r]
            placed += pl_size[r]
        else:
            excl[fr_c[f], fr_x[f]] = 1
            bl[fr_c[f], fr_x[f]] += 1
    st[S_NODES] += nodes
    while ttop > 0:
        ttop -= 1
        bl[trail[ttop] // N, trail[ttop] % N] -= 1
    # X5 [leave the state: place-all's layout as found, else as it was plus the best]
    for f in range(depth):
        i = fr_cur[f]
        if ch[i] < 0:
            excl[fr_c[f], fr_x[f]] = 0
            bl[fr_c[f], fr_x[f]] -= 1
    if result == X_FOUND:
        return result
    for f in range(depth - 1, -1, -1):
        i = fr_cur[f]
        if ch[i] >= 0:
            _move_a(
                pl_sq,
                pl_size,
                edge_nb,
                corner_nb,
                slot_col,
                occ,
                bl,
                corner,
                nown,
                slot_row,
                ch_slot[i],
                -1,
            )
    if mode == MAX_SCORE:
        for k in range(nslot):
            if xbest[k] >= 0:
                _move_a(
                    pl_sq,
                    pl_size,
                    edge_nb,
                    corner_nb,
                    slot_col,
                    occ,
                    bl,
                    corner,
                    nown,
                    slot_row,
                    k,
                    xbest[k],
                )
    return result


@njit(cache=True)
def _region_on(T, S):
    """The exact search's region: the cells flagged in ``region`` are its scan list (the
    free ones), every other cell excluded for every colour (cleared by
    :func:`_region_off`)."""
    occ = S.occ
    region = S.region
    scan = S.scan
    excl = S.excl
    bl = S.bl
    C = len(T.start)
    n = 0
    for s in range(len(occ)):
        if region[s]:
            if occ[s] == -1:
                scan[n] = s
                n += 1
        else:
            for c in range(C):
                excl[c, s] = 1
                bl[c, s] += 1
    S.st[S_NSCAN] = n


@njit(cache=True)
def _region_off(T, S):
    excl = S.excl
    bl = S.bl
    C, N = excl.shape
    for c in range(C):
        for s in range(N):
            if excl[c, s]:
                excl[c, s] = 0
                bl[c, s] -= 1
    S.st[S_NSCAN] = 0


@njit(cache=True)
def _region_near(T, S, reach, row):
    """``region``: the cells within ``reach`` king steps of the cells of the slots in
    ``gone`` (before they come off) and of placement ``row``."""
    occ = S.occ
    gone = S.gone
    region = S.region
    fmark = S.fmark
    fq = S.fq
    pl_sq = T.pl_sq
    edge_nb = T.edge_nb
    corner_nb = T.corner_nb
    N = len(occ)
    S.nstamp[0] += 1
    mark = S.nstamp[0]
    n = 0
    for s in range(N):
        region[s] = 0
        o = occ[s]
        if o >= 0 and gone[o]:
            region[s] = 1
            fmark[s] = mark
            fq[n] = s
            n += 1
    for j in range(pl_sq.shape[1]):
        s = pl_sq[row, j]
        if s >= 0 and fmark[s] != mark:
            region[s] = 1
            fmark[s] = mark
            fq[n] = s
            n += 1
    lo = 0
    for _ in range(reach):
        hi = n
        for i in range(lo, hi):
            s = fq[i]
            for q in range(edge_nb.shape[1] + corner_nb.shape[1]):
                if q < edge_nb.shape[1]:
                    x = edge_nb[s, q]
                else:
                    x = corner_nb[s, q - edge_nb.shape[1]]
                if x < 0 or fmark[x] == mark:
                    continue
                fmark[x] = mark
                region[x] = 1
                fq[n] = x
                n += 1
        lo = hi


# ---------------------------------------------------------------- construct


@njit(cache=True)
def _construct(T, S):
    """A new start: the best of IP_RESTARTS greedy layouts from the position, or (with
    IP_WARM_RESTART) from the warm start: its pieces stay, greedy play adds the rest (a
    run that started near a layout, as the companion's from a carried layout, restarts
    there, not from scratch)."""
    nslot = len(S.slot_row)
    base = np.full(nslot, -1, dtype=np.int32)
    if T.ip[IP_WARM_RESTART]:
        base[:] = S.warm_row
    bestc = 1 << 40
    for _ in range(max(1, T.ip[IP_RESTARTS])):
        _restore(T, S, base)
        _greedy(T, S, False)
        cost = _cost(T, S)
        if cost < bestc:
            bestc = cost
            S.save_a[:] = S.slot_row
        if cost == 0:
            break
    _restore(T, S, S.save_a)
    _cost(T, S)
    S.st[S_RESTARTS] += 1
    S.st[S_LOW] = S.st[S_COST]
    S.st[S_SINCE] = 0


# ---------------------------------------------------------------- ejection


@njit(cache=True)
def _pick_colour(T, S, mono_weight):
    """A colour drawn with weight its cells left (plus 1 for a held monomino without a
    cell, with ``mono_weight``); -1 if every weight is 0."""
    C = len(T.start)
    w = np.zeros(C, dtype=np.float64)
    tot = 0.0
    for c in range(C):
        w[c] = _left_cells(T.col_lo, S.slot_row, T.slot_piece, T.psize, c)
        if mono_weight and T.held[c] and S.st[S_MONOS] and S.mono[c] < 0:
            w[c] += 1
        tot += w[c]
    if tot <= 0:
        return -1
    u = _random(S.rng) * tot
    for c in range(C):
        u -= w[c]
        if u < 0 and w[c] > 0:
            return c
    for c in range(C - 1, -1, -1):
        if w[c] > 0:
            return c
    return -1


@njit(cache=True)
def _accept(T, S, before):
    """Keep the step's state if its cost did not rise (with FP_ACCEPT_WORSE even so);
    else back to ``save_a``."""
    cost = _cost(T, S)
    if cost <= before or _random(S.rng) < T.fp[FP_ACCEPT_WORSE]:
        if cost < before:
            S.st[S_IMPROVED] += 1
        return True
    _restore(T, S, S.save_a)
    S.mono[:] = S.save_m
    _cost(T, S)
    return False


@njit(cache=True)
def _hit_a(pl_sq, edge_nb, occ, gone, lo, hi, r):
    """Flag in ``gone`` the slots placement ``r`` of a colour with slots lo:hi would take
    off: those on its cells and the colour's own sharing an edge with it."""
    for j in range(pl_sq.shape[1]):
        s = pl_sq[r, j]
        if s < 0:
            break
        o = occ[s]
        if o >= 0:
            gone[o] = 1
        for q in range(edge_nb.shape[1]):
            x = edge_nb[s, q]
            if x < 0:
                break
            o = occ[x]
            if o >= lo and o < hi:
                gone[o] = 1


@njit(cache=True)
def _weigh_walk(T, S, c, r):
    """The cells an ejection of colour c to placement r takes off: the pieces it overlaps
    or, of c, touches at an edge, with the subtrees they cut off (``gone`` flags them)."""
    gone = S.gone
    for k in range(len(gone)):
        gone[k] = 0
    _hit_a(T.pl_sq, T.edge_nb, S.occ, gone, T.col_lo[c], T.col_lo[c + 1], r)
    return _closure(T, S)


@njit(cache=True)
def _eject(T, S):
    """One ejection step: a piece left of a colour goes where it takes off the fewest
    cells (with the corner subtrees cut off), then the pieces off and left are put back
    (greedy play while many, then the exact max-score). Returns False when it could not
    run (the caller makes a window repair instead)."""
    start = T.start
    col_lo = T.col_lo
    hasbase = T.hasbase
    corner0 = T.corner0
    baseown = T.baseown
    pl_sq = T.pl_sq
    pl_size = T.pl_size
    ej_ptr = T.ej_ptr
    ej_idx = T.ej_idx
    edge_nb = T.edge_nb
    corner_nb = T.corner_nb
    slot_col = T.slot_col
    occ = S.occ
    slot_row = S.slot_row
    gone = S.gone
    cand = S.cand
    cval = S.cval
    hits = S.hits
    tabu = S.tabu
    rng = S.rng
    C = len(start)
    nslot = len(slot_row)
    c = _pick_colour(T, S, False)
    if c < 0:
        return False
    lo, hi = col_lo[c], col_lo[c + 1]
    nleft = 0
    for k in range(lo, hi):
        if slot_row[k] < 0:
            nleft += 1
    pick = _below(rng, nleft)
    slot = -1
    for k in range(lo, hi):
        if slot_row[k] < 0:
            if pick == 0:
                slot = k
                break
            pick -= 1
    t = T.slot_piece[slot]
    # E1 [candidates: the piece's placements on cells neither hard nor next to c's own
    # cells of the position (listed once per position)]
    base = c * len(T.psize) + t
    n = ej_ptr[base + 1] - ej_ptr[base]
    cand[:n] = ej_idx[ej_ptr[base] : ej_ptr[base + 1]]
    if n == 0:
        return False
    m = min(n, T.ip[IP_EJECT_CANDS])
    for i in range(m):  # a random sample of m (a partial shuffle)
        j = i + _below(rng, n - i)
        tmp = cand[i]
        cand[i] = cand[j]
        cand[j] = tmp
    S.st[S_EJECT] += 1
    step = S.st[S_EJECT]
    # E2 [a lower bound per candidate: the distinct pieces it overlaps or, of c, touches
    # at an edge]
    N = len(occ)
    lowest = N
    for i in range(m):
        r = cand[i]
        nh = 0
        for j in range(pl_sq.shape[1]):
            s = pl_sq[r, j]
            if s < 0:
                break
            o = occ[s]
            if o >= 0:
                hits[nh] = o
                nh += 1
            for q in range(edge_nb.shape[1]):
                x = edge_nb[s, q]
                if x < 0:
                    break
                o = occ[x]
                if o >= lo and o < hi:
                    hits[nh] = o
                    nh += 1
        cells = 0
        for a in range(nh):
            dup = False
            for b in range(a):
                if hits[b] == hits[a]:
                    dup = True
                    break
            if not dup:
                cells += pl_size[slot_row[hits[a]]]
        cval[i] = cells + _random(rng)  # (the noise breaks ties, as in the reference)
        lowest = min(lowest, cells)
    # E3 [the cheapest candidate by the cells it really takes off that is not tabu and
    # still touches c: the candidates by their lower bound's whole cells, bucket after
    # bucket, until the bound reaches the best (the same best as in sorted order)]
    best = -1
    bval = 1e300
    b = lowest
    debug = T.ip[IP_DEBUG] != 0
    W = pl_sq.shape[1]
    one = np.int64(1)
    adj = S.adj
    adj_step = S.adj_step
    placed_m = S.placed_m
    root_m = S.root_m
    hit_m = S.hit_m
    gone_m = S.gone_m
    while b < bval and b <= N:
        for i in range(m):
            lower = cval[i]
            if lower < b or lower >= b + 1 or lower >= bval:
                continue
            r = cand[i]
            if step - tabu[c, r] < T.ip[IP_TABU]:
                continue
            noise = lower - b
            # E3a [the pieces it takes off, by colour as bits k - col_lo[e], with
            # the subtrees they cut off (the contact graph built once a step)]
            for e in range(C):
                hit_m[e] = 0
            for j in range(W):
                s = pl_sq[r, j]
                if s < 0:
                    break
                o = occ[s]
                if o >= 0:
                    e = slot_col[o]
                    hit_m[e] |= one << (o - col_lo[e])
                for q in range(edge_nb.shape[1]):
                    x = edge_nb[s, q]
                    if x < 0:
                        break
                    o = occ[x]
                    if o >= lo and o < hi:
                        hit_m[c] |= one << (o - lo)
            cells = 0
            for e in range(C):
                gone_m[e] = 0
                if hit_m[e] == 0:
                    continue
                elo = col_lo[e]
                ne = col_lo[e + 1] - elo
                if adj_step[e] != step:
                    _contacts_a(
                        start,
                        col_lo,
                        hasbase,
                        corner0,
                        pl_sq,
                        corner_nb,
                        occ,
                        slot_row,
                        adj,
                        placed_m,
                        root_m,
                        e,
                    )
                    adj_step[e] = step
                g = _cut_m(adj, elo, ne, placed_m[e], root_m[e], hit_m[e])
                gone_m[e] = g
                for bit in range(ne):
                    if g & (one << bit):
                        cells += pl_size[slot_row[elo + bit]]
            val = cells + noise
            if val >= bval:
                continue
            if debug and val != _weigh_walk(T, S, c, r) + noise:
                S.st[S_ERROR] = S.st[S_STEPS] + 1  # (run() returns ERROR)
            # E3b [it still touches c once those are off]
            g = gone_m[c]
            kept = False
            for k in range(lo, hi):
                if slot_row[k] >= 0 and not (g & (one << (k - lo))):
                    kept = True
                    break
            touch = False
            if not hasbase[c] and not kept:
                for j in range(W):
                    if pl_sq[r, j] == start[c]:
                        touch = True
            else:
                for j in range(W):
                    s = pl_sq[r, j]
                    if s < 0 or touch:
                        break
                    for q in range(corner_nb.shape[1]):
                        x = corner_nb[s, q]
                        if x < 0:
                            break
                        o = occ[x]
                        if baseown[c, x] or (o >= lo and o < hi and not (g & (one << (o - lo)))):
                            touch = True
                            break
            if not touch:
                continue
            best = i
            bval = val
        b += 1
    if best < 0:
        return False
    # E4 [apply: the pieces off, the piece on]
    r = cand[best]
    before = S.st[S_COST]
    S.save_a[:] = slot_row
    S.save_m[:] = S.mono
    for k in range(nslot):
        gone[k] = 0
    _hit_a(pl_sq, edge_nb, occ, gone, lo, hi, r)
    _closure(T, S)
    freed_cols = np.zeros(C, dtype=np.int8)
    for k in range(nslot):
        if gone[k] and slot_row[k] >= 0:
            tabu[slot_col[k], slot_row[k]] = step
            freed_cols[slot_col[k]] = 1
    _region_near(T, S, T.ip[IP_EJECT_REACH], r)
    _take_off_gone(T, S)
    _place(T, S, slot, r)
    S.save_b[:] = slot_row
    # E5 [put back: greedy play while many pieces are off or left]
    todo = S.todo
    ntodo = 0
    for k in range(nslot):
        todo[k] = slot_row[k] < 0
        ntodo += todo[k]
    if ntodo > T.ip[IP_EXACT_PIECES]:
        _greedy(T, S, True)
        cost = _cost(T, S)
        if cost <= before or _random(rng) < T.fp[FP_ACCEPT_WORSE]:
            if cost < before:
                S.st[S_IMPROVED] += 1
            return True
        _restore(T, S, S.save_b)
        ntodo = 0
        for k in range(nslot):
            todo[k] = gone[k] or (slot_row[k] < 0 and freed_cols[slot_col[k]])
            ntodo += todo[k]
        if ntodo > T.ip[IP_EXACT_PIECES]:
            ntodo = 0
            for k in range(nslot):
                todo[k] = gone[k]
                ntodo += todo[k]
    # E6 [the exact max-score put-back, the rest frozen]
    if ntodo > 0:
        _region_on(T, S)
        _search(T, S, MAX_SCORE, T.ip[IP_EJECT_NODES])
        _region_off(T, S)
    _accept(T, S, before)
    return True


# ---------------------------------------------------------------- window repair


@njit(cache=True)
def _repair(T, S):
    """One window repair: the pieces meeting a window next to where a colour with pieces
    left could attach come off with their corner subtrees, and are placed again exactly
    (with every piece left of the colours involved; else with one more; else alone)."""
    start = T.start
    col_lo = T.col_lo
    baseown = T.baseown
    slot_col = T.slot_col
    pl_sq = T.pl_sq
    cell_y = T.cell_y
    cell_x = T.cell_x
    occ = S.occ
    bl = S.bl
    corner = S.corner
    nown = S.nown
    slot_row = S.slot_row
    gone = S.gone
    todo = S.todo
    region = S.region
    save_a = S.save_a
    rng = S.rng
    C = len(start)
    N = len(occ)
    nslot = len(slot_row)
    S.st[S_REPAIR] += 1
    target = _pick_colour(T, S, True)
    if target < 0:
        target = 0
    # W1 [spots: the target's attach cells, else its cells, else the free cells]
    spots = S.cand
    ns = 0
    own = nown[target] > 0
    for s in range(N):
        if bl[target, s] != 0:
            continue
        if (own and corner[target, s] > 0) or (not own and s == start[target]):
            spots[ns] = s
            ns += 1
    if ns == 0:
        for s in range(N):
            if (occ[s] >= 0 and slot_col[occ[s]] == target) or baseown[target, s]:
                spots[ns] = s
                ns += 1
    if ns == 0:
        for s in range(N):
            if occ[s] == -1:
                spots[ns] = s
                ns += 1
    if ns == 0:
        return
    # W2 [the roomiest of IP_CENTRES random spots]
    half = S.st[S_WINDOW] / 2.0
    picks = min(T.ip[IP_CENTRES], ns)
    centre = -1
    most = -1
    for i in range(picks):
        j = i + _below(rng, ns - i)
        tmp = spots[i]
        spots[i] = spots[j]
        spots[j] = tmp
        x = spots[i]
        y0 = cell_y[x]
        x0 = cell_x[x]
        room = 0
        for s in range(N):
            if occ[s] != -1:
                continue
            if y0 - half <= cell_y[s] < y0 + half and x0 - half <= cell_x[s] < x0 + half:
                room += 1
        if room > most:
            most = room
            centre = x
    y0 = cell_y[centre]
    x0 = cell_x[centre]
    # W3 [the pieces in the window and their subtrees, the window shrunk to MAX_FREED]
    while True:
        for k in range(nslot):
            gone[k] = 0
            r = slot_row[k]
            if r < 0:
                continue
            for j in range(pl_sq.shape[1]):
                s = pl_sq[r, j]
                if s < 0:
                    break
                if y0 - half <= cell_y[s] < y0 + half and x0 - half <= cell_x[s] < x0 + half:
                    gone[k] = 1
                    break
        _closure(T, S)
        freed = 0
        for k in range(nslot):
            if gone[k] and slot_row[k] >= 0:
                freed += 1
        if freed <= T.ip[IP_MAX_FREED] or half <= 1:
            break
        half -= 0.5
    before = S.st[S_COST]
    save_a[:] = slot_row
    S.save_m[:] = S.mono
    involved = np.zeros(C, dtype=np.int8)
    involved[target] = 1
    anygone = False
    for k in range(nslot):
        if gone[k] and slot_row[k] >= 0:
            involved[slot_col[k]] = 1
            anygone = True
    # the target's piece of the second try, drawn now
    ntl = 0
    other_left = False
    for k in range(nslot):
        if slot_row[k] < 0:
            if slot_col[k] == target:
                ntl += 1
            elif involved[slot_col[k]]:
                other_left = True
    extra = -1
    if ntl > 0 and other_left:
        pick = _below(rng, ntl)
        for k in range(col_lo[target], col_lo[target + 1]):
            if slot_row[k] < 0:
                if pick == 0:
                    extra = k
                    break
                pick -= 1
    # W4 [the region the pieces go back into: the window grown by IP_MARGIN and the
    # cells of the pieces off; elsewhere excluded for the exact search]
    wide = half + T.ip[IP_MARGIN]
    for s in range(N):
        inside = y0 - wide <= cell_y[s] < y0 + wide and x0 - wide <= cell_x[s] < x0 + wide
        if not inside and occ[s] >= 0 and gone[occ[s]]:
            inside = True
        region[s] = inside
    _take_off_gone(T, S)
    _region_on(T, S)
    timed_out = False
    for attempt in range(3):
        if attempt == 1 and extra < 0:
            continue
        if attempt == 2 and not anygone:
            continue
        for k in range(nslot):
            if attempt == 0:
                todo[k] = gone[k] or (save_a[k] < 0 and involved[slot_col[k]])
            elif attempt == 1:
                todo[k] = gone[k] or k == extra
            else:
                todo[k] = gone[k]
        res = _search(T, S, PLACE_ALL, T.ip[IP_REPAIR_NODES])
        if res == X_LIMIT:
            timed_out = True
        if res != X_FOUND:
            continue
        _region_off(T, S)
        cost = _cost(T, S)
        if cost < before:
            S.st[S_IMPROVED] += 1
            S.st[S_WINDOW] = max(T.ip[IP_WMIN], S.st[S_WINDOW] - 1)
        else:
            S.st[S_SIDEWAYS] += 1
            S.st[S_WINDOW] = min(T.ip[IP_WMAX], S.st[S_WINDOW] + 1)
        if cost <= before:
            return
        _restore(T, S, save_a)
        _take_off_gone(T, S)
        _region_on(T, S)
    _region_off(T, S)
    if timed_out:
        S.st[S_TIMEOUTS] += 1
        S.st[S_WINDOW] = max(T.ip[IP_WMIN], S.st[S_WINDOW] - 1)
    _restore(T, S, save_a)
    S.mono[:] = S.save_m
    _cost(T, S)


# ---------------------------------------------------------------- debug


@njit(cache=True)
def _verify(T, S):
    """Debug: the state recomputed from the position and slot_row equals the incremental
    one, and every placed piece keeps the rules (no cell taken twice, no edge with its
    colour, connected to its colour's roots). True when all holds."""
    C, N = T.bl0.shape
    occ = T.occ0.copy()
    bl = T.bl0.copy()
    corner = T.corner0.copy()
    nown = T.nown0.copy()
    for k in range(len(S.slot_row)):
        r = S.slot_row[k]
        if r < 0:
            continue
        c = T.slot_col[k]
        if T.pl_piece[r] != T.slot_piece[k]:
            return False
        for j in range(T.pl_sq.shape[1]):
            s = T.pl_sq[r, j]
            if s < 0:
                break
            if occ[s] != -1:
                return False
            occ[s] = k
            for e in range(C):
                bl[e, s] += 1
            for q in range(T.edge_nb.shape[1]):
                x = T.edge_nb[s, q]
                if x < 0:
                    break
                bl[c, x] += 1
            for q in range(T.corner_nb.shape[1]):
                x = T.corner_nb[s, q]
                if x < 0:
                    break
                corner[c, x] += 1
        nown[c] += T.pl_size[r]
    for s in range(N):
        if occ[s] != S.occ[s]:
            return False
        for c in range(C):
            if bl[c, s] != S.bl[c, s] or corner[c, s] != S.corner[c, s]:
                return False
            if S.excl[c, s] != 0:
                return False
    for c in range(C):
        if nown[c] != S.nown[c]:
            return False
    # the rules: no edge with the own colour, every piece connected to its roots
    for k in range(len(S.slot_row)):
        r = S.slot_row[k]
        if r < 0:
            continue
        c = T.slot_col[k]
        for j in range(T.pl_sq.shape[1]):
            s = T.pl_sq[r, j]
            if s < 0:
                break
            for q in range(T.edge_nb.shape[1]):
                x = T.edge_nb[s, q]
                if x < 0:
                    break
                if T.baseown[c, x]:
                    return False
                o = occ[x]
                if o >= 0 and o != k and T.slot_col[o] == c:
                    return False
    S.gone[:] = 0
    for c in range(C):  # each colour walked from its roots reaches all its pieces
        _walk_a(
            T.start,
            T.col_lo,
            T.hasbase,
            T.corner0,
            T.pl_sq,
            T.corner_nb,
            S.occ,
            S.slot_row,
            S.gone,
            S.seen,
            S.squeue,
            c,
        )
        for k in range(T.col_lo[c], T.col_lo[c + 1]):
            if S.slot_row[k] >= 0 and not S.seen[k]:
                return False
    return True


# ---------------------------------------------------------------- the loop


@njit(cache=True, nogil=True)
def run(T, S, steps):
    """Run the repair search for at most ``steps`` more steps (R1-R4 below); FOUND when
    the cost is 0 (``slot_row`` and ``mono`` hold the layout), PAUSE when the steps are
    used up, ERROR (debug mode) when the state went wrong (``st[S_ERROR]`` the step)."""
    # R1 [the first layout: greedy play, unless the caller gave a warm start]
    if S.st[S_STARTED] == 0:
        _construct(T, S)
        S.st[S_STARTED] = 1
        _keep_best(T, S)
    else:
        _cost(T, S)
    done = 0
    while S.st[S_COST] > 0 and done < steps:
        # R2 [a step: an ejection (share FP_EJECT) or a window repair]
        if _random(S.rng) < T.fp[FP_EJECT]:
            if not _eject(T, S):
                _repair(T, S)
        else:
            _repair(T, S)
        done += 1
        S.st[S_STEPS] += 1
        if T.ip[IP_DEBUG] and (S.st[S_ERROR] != 0 or not _verify(T, S)):
            if S.st[S_ERROR] == 0:
                S.st[S_ERROR] = S.st[S_STEPS]
            return ERROR
        # R3 [the best and the stagnation counter]
        _keep_best(T, S)
        if S.st[S_COST] < S.st[S_LOW]:
            S.st[S_LOW] = S.st[S_COST]
            S.st[S_SINCE] = 0
        else:
            S.st[S_SINCE] += 1
        # R4 [a new start after IP_STAGNATION steps without a lower cost]
        if S.st[S_SINCE] >= T.ip[IP_STAGNATION]:
            _construct(T, S)
            _keep_best(T, S)
    return FOUND if S.st[S_COST] == 0 else PAUSE


@njit(cache=True)
def init_state(T, S):
    """Put the slots' placements given in ``slot_row`` (a warm start, or all -1) on the
    position's counters; returns the cost."""
    rows = S.slot_row.copy()
    S.occ[:] = T.occ0
    S.bl[:] = T.bl0
    S.corner[:] = T.corner0
    S.nown[:] = T.nown0
    S.slot_row[:] = -1
    for k in range(len(rows)):
        if rows[k] >= 0:
            _place(T, S, k, rows[k])
    return _cost(T, S)


@njit(cache=True)
def exact_place(T, S, mode, budget):
    """The exact search alone (tests): place the slots flagged in ``todo`` anywhere on the
    board, within ``budget`` nodes; returns X_FOUND, X_DONE or X_LIMIT."""
    S.region[:] = 1
    _region_on(T, S)
    res = _search(T, S, mode, budget)
    _region_off(T, S)
    return res


@njit(cache=True)
def closure_of(T, S):
    """:func:`_closure` alone, for tests: ``gone`` grown by the subtrees cut off."""
    return _closure(T, S)


@njit(cache=True)
def verify(T, S):
    """:func:`_verify` alone, for tests."""
    return _verify(T, S)


@njit(cache=True)
def match_monos(T, S):
    """:func:`_match` alone: the held monominoes on the state as it stands."""
    return _match(T, S)
