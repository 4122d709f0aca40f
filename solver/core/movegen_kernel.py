"""The legal-move generator's compiled kernel (numba, ``@njit(cache=True)``).

See :mod:`solver.core.movegen` for the interface. The method is Pentobi's
(``libpentobi_base/Board.cpp: gen_moves``, ``BoardConst.cpp``), written afresh:

* Precomputed move lists: for every square p, piece t and "adjacent status" a (6 bits:
  which of 6 squares near p are forbidden to the colour, :func:`status_squares`), the
  placements of t that cover p and none of the squares a marks. One lookup therefore
  skips most placements that cannot fit, before a square is tested.
* Attach points, kept incrementally per colour: squares sharing a corner with one of its
  pieces (each listed once; a listed square that has become forbidden is skipped).
* ``forb[c, s]``: the number of reasons colour c may not cover s (blocked; taken by any
  colour; sharing an edge with c). Counters, so that :func:`undo` is exact.
* A stamp per placement, so that a placement reached from two attach points is tested and
  listed once.

Generation for colour c: for each attach point p of c not forbidden to c (on its first
move: its start square), for each piece c has left, for each placement of the list
(p, piece, status of p), not yet stamped: stamp it, and list it if none of its squares is
forbidden to c. Every listed placement is legal (it covers an attach point, so it touches c
at a corner or covers the start square, and no square is taken or shares an edge with c);
every legal placement covers some attach point, whose list holds it.

Why numba: the inner work is tight loops over small integer arrays, many millions of times
in a perft run; plain Python would pay the interpreter per square tested, and a C extension
would need a compiler on the user's machine (as in :mod:`solver.backends.search.kernel`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

NPIECES = 21  # piece numbers 0..20 (PIECE_NAMES); a table of fewer pieces leaves gaps
NSTATUS = 64  # 6 status squares per square
STATUS = 6
# slots of the scalar array ``sc``
S_NHIST = 0  # placements on the undo stack
S_STAMP = 1  # the last stamp used in ``marker``
N_SCALARS = 2


class Tables(NamedTuple):
    """Read-only arrays of one board size and piece set. N squares, P placements."""

    sq: np.ndarray  # (P, 5) int32: squares of a placement, padded with -1
    size: np.ndarray  # (P,) int32: its number of squares
    piece: np.ndarray  # (P,) int32: its piece (index into PIECE_NAMES)
    edge: np.ndarray  # (P, E) int32: squares sharing an edge with it, padded with -1
    corner: np.ndarray  # (P, K) int32: squares sharing only a corner with it, padded
    status: np.ndarray  # (N, 6) int32: the squares of a square's status, padded with -1
    # (:func:`solver.core.movegen.status_squares`)
    enb: np.ndarray  # (N, 4) int32: a square's edge neighbours, padded with -1
    cnb: np.ndarray  # (N, 4) int32: its corner neighbours, padded with -1
    pm_ptr: np.ndarray  # (N*64*21 + 1,) int64: CSR pointers of pm_moves by (p, a, piece)
    pm_moves: np.ndarray  # int32: placements of the list (p, a, piece), increasing


class State(NamedTuple):
    """A position, updated in place by :func:`play` and :func:`undo`. C colours."""

    forb: np.ndarray  # (C, N) uint8: reasons c may not cover s
    owner: np.ndarray  # (N,) int8: the colour on s, -1 empty, -2 blocked
    left: np.ndarray  # (C, 21) int8: pieces left
    nsq: np.ndarray  # (C,) int32: squares of the colour on the board
    start: np.ndarray  # (C,) int32: its start square, -1 for none
    att: np.ndarray  # (C, N) int32: attach points, natt[c] of them
    natt: np.ndarray  # (C,) int32
    isatt: np.ndarray  # (C, N) uint8: s is in att[c]
    hmove: np.ndarray  # (H,) int32: undo stack: the placement
    hcol: np.ndarray  # (H,) int32: its colour
    hnatt: np.ndarray  # (H,) int32: natt of that colour before it
    marker: np.ndarray  # (P,) int32: stamps of the placements tested
    sc: np.ndarray  # (N_SCALARS,) int64: the scalars S_*


@njit(cache=True)
def move_lists(sq, size, piece, status, n):
    """The precomputed lists (module docstring) as CSR arrays (pm_ptr, pm_moves)."""
    p_count = sq.shape[0]
    counts = np.zeros(n * NSTATUS * NPIECES + 1, dtype=np.int64)
    masks = np.zeros((p_count, 5), dtype=np.int32)
    for m in range(p_count):
        for k in range(size[m]):
            s = sq[m, k]
            bits = 0
            for j in range(STATUS):
                x = status[s, j]
                if x >= 0:
                    for i in range(size[m]):
                        if sq[m, i] == x:
                            bits |= 1 << j
            masks[m, k] = bits
            for a in range(NSTATUS):
                if a & bits == 0:
                    counts[(s * NSTATUS + a) * NPIECES + piece[m] + 1] += 1
    ptr = np.cumsum(counts)
    fill = ptr[:-1].copy()
    moves = np.empty(ptr[-1], dtype=np.int32)
    for m in range(p_count):
        for k in range(size[m]):
            s = sq[m, k]
            bits = masks[m, k]
            for a in range(NSTATUS):
                if a & bits == 0:
                    key = (s * NSTATUS + a) * NPIECES + piece[m]
                    moves[fill[key]] = m
                    fill[key] += 1
    return ptr, moves


@njit(cache=True)
def add_attach(t, s, c, m):
    """List the squares sharing only a corner with placement m that c may cover."""
    for k in range(t.corner.shape[1]):
        q = t.corner[m, k]
        if q < 0:
            break
        if s.isatt[c, q] == 0 and s.forb[c, q] == 0:
            s.isatt[c, q] = 1
            s.att[c, s.natt[c]] = q
            s.natt[c] += 1


@njit(cache=True)
def setup(t, s):
    """Fill ``forb``, ``nsq`` and the attach points from ``owner`` (``left`` and
    ``start`` given); empties the undo stack."""
    ncol = s.forb.shape[0]
    n = s.owner.shape[0]
    s.forb[:, :] = 0
    s.nsq[:] = 0
    s.natt[:] = 0
    s.isatt[:, :] = 0
    s.sc[S_NHIST] = 0
    for x in range(n):
        o = s.owner[x]
        if o == -1:
            continue
        for c in range(ncol):
            s.forb[c, x] += 1
        if o >= 0:
            s.nsq[o] += 1
            for k in range(4):
                y = t.enb[x, k]
                if y >= 0:
                    s.forb[o, y] += 1
    for x in range(n):
        o = s.owner[x]
        if o < 0:
            continue
        for k in range(4):
            y = t.cnb[x, k]
            if y >= 0 and s.isatt[o, y] == 0 and s.forb[o, y] == 0:
                s.isatt[o, y] = 1
                s.att[o, s.natt[o]] = y
                s.natt[o] += 1


@njit(cache=True)
def play(t, s, c, m):
    """Colour c places placement m (no rule is checked here)."""
    ncol = s.forb.shape[0]
    for k in range(t.size[m]):
        x = t.sq[m, k]
        for c2 in range(ncol):
            s.forb[c2, x] += 1
        s.owner[x] = c
    for k in range(t.edge.shape[1]):
        y = t.edge[m, k]
        if y < 0:
            break
        s.forb[c, y] += 1
    h = s.sc[S_NHIST]
    s.hmove[h] = m
    s.hcol[h] = c
    s.hnatt[h] = s.natt[c]
    s.sc[S_NHIST] = h + 1
    add_attach(t, s, c, m)
    s.left[c, t.piece[m]] -= 1
    s.nsq[c] += t.size[m]


@njit(cache=True)
def undo(t, s):
    """Take back the last placement played; returns it (-1 if there is none)."""
    h = s.sc[S_NHIST] - 1
    if h < 0:
        return -1
    m = s.hmove[h]
    c = s.hcol[h]
    for i in range(s.hnatt[h], s.natt[c]):
        s.isatt[c, s.att[c, i]] = 0
    s.natt[c] = s.hnatt[h]
    ncol = s.forb.shape[0]
    for k in range(t.size[m]):
        x = t.sq[m, k]
        for c2 in range(ncol):
            s.forb[c2, x] -= 1
        s.owner[x] = -1
    for k in range(t.edge.shape[1]):
        y = t.edge[m, k]
        if y < 0:
            break
        s.forb[c, y] -= 1
    s.left[c, t.piece[m]] += 1
    s.nsq[c] -= t.size[m]
    s.sc[S_NHIST] = h
    return m


@njit(cache=True)
def _next_stamp(s):
    stamp = s.sc[S_STAMP] + 1
    if stamp >= 2147483647:  # wrap: clear the stamps
        s.marker[:] = 0
        stamp = 1
    s.sc[S_STAMP] = stamp
    return stamp


@njit(cache=True)
def _gen_at(t, s, c, p, out, n, limit, stamp):
    """The legal placements of c covering point p, not yet stamped, into out[n:]."""
    forb = s.forb
    a = 0
    for k in range(STATUS):
        x = t.status[p, k]
        if x >= 0 and forb[c, x] != 0:
            a |= 1 << k
    base = (p * NSTATUS + a) * NPIECES
    for piece in range(NPIECES):
        if s.left[c, piece] <= 0:
            continue
        for i in range(t.pm_ptr[base + piece], t.pm_ptr[base + piece + 1]):
            m = t.pm_moves[i]
            if s.marker[m] == stamp:
                continue
            s.marker[m] = stamp
            ok = True
            for k in range(t.size[m]):
                if forb[c, t.sq[m, k]] != 0:
                    ok = False
                    break
            if ok:
                if out.shape[0] > 0:
                    out[n] = m
                n += 1
                if n >= limit:
                    return n
    return n


@njit(cache=True)
def generate(t, s, c, out, limit):
    """The legal placements of colour c: stored in ``out`` (unless it is empty: count
    only), at most ``limit``; returns how many."""
    stamp = _next_stamp(s)
    n = np.int64(0)  # (np.int64: a literal 0 would compile _gen_at once more)
    if s.nsq[c] == 0:
        p = s.start[c]
        if p >= 0 and s.forb[c, p] == 0:
            n = _gen_at(t, s, c, p, out, n, limit, stamp)
        return n
    for i in range(s.natt[c]):
        p = s.att[c, i]
        if s.forb[c, p] == 0:
            n = _gen_at(t, s, c, p, out, n, limit, stamp)
            if n >= limit:
                return n
    return n


@njit(cache=True)
def _others_move(t, s, c, ncol, empty):
    """Whether some colour other than c has a legal placement."""
    one = np.int64(1)
    for k in range(1, ncol):
        if generate(t, s, (c + k) % ncol, empty, one) > 0:
            return True
    return False


@njit(cache=True)
def perft(t, s, c0, depth):
    """The number of lines of ``depth`` turns from the state, colour c0 to move, colours
    in turn (docs/perft.md: a colour with no placement passes while another can still
    place; a game over ends a line). Returns it (int64); the state is unchanged after."""
    ncol = s.forb.shape[0]
    empty = np.empty(0, dtype=np.int32)
    every = np.int64(1 << 30)
    if depth == 0:
        return np.int64(1)
    if depth == 1:
        n = generate(t, s, c0, empty, every)
        if n > 0:
            return np.int64(n)
        return np.int64(1) if _others_move(t, s, c0, ncol, empty) else np.int64(0)
    p_count = t.sq.shape[0]
    moves = np.empty((depth - 1, p_count), dtype=np.int32)
    nm = np.zeros(depth - 1, dtype=np.int64)  # -1: one child, the pass
    cur = np.zeros(depth - 1, dtype=np.int64)
    col = np.zeros(depth - 1, dtype=np.int64)
    leaves = np.int64(0)
    level = 0
    col[0] = c0
    nm[0] = generate(t, s, c0, moves[0], every)
    if nm[0] == 0:
        nm[0] = -1 if _others_move(t, s, c0, ncol, empty) else 0
    while level >= 0:
        if cur[level] < abs(nm[level]):
            c = col[level]
            if nm[level] > 0:
                play(t, s, c, np.int64(moves[level, cur[level]]))
            cur[level] += 1
            nxt = (c + 1) % ncol
            if level == depth - 2:  # the child's children are the leaves: count them
                n = generate(t, s, nxt, empty, every)
                if n > 0:
                    leaves += n
                elif _others_move(t, s, nxt, ncol, empty):
                    leaves += 1
                if nm[level] > 0:
                    undo(t, s)
            else:
                level += 1
                col[level] = nxt
                cur[level] = 0
                nm[level] = generate(t, s, nxt, moves[level], every)
                if nm[level] == 0:
                    nm[level] = -1 if _others_move(t, s, nxt, ncol, empty) else 0
        else:
            level -= 1
            if level >= 0 and nm[level] > 0:
                undo(t, s)
    return leaves
