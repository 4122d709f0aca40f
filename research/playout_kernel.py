"""Fast randomised playouts and the policy adaptation of NRPA, compiled with numba.

A *playout* plays the pieces of the played colours in turn from a position to the end, as
a solo player would: the colours move in round-robin order; a colour picks one of its
legal placements at random with probability proportional to ``exp(logit)``, where

    logit = W_SIZE * squares + W_GAIN * (new attach squares it gives its colour)
            - W_BLOCK * (attach squares of the other active colours it covers)
            + policy[colour * P + row]

(the first three terms are the greedy player's of :mod:`solver.backends.repair.greedy`; the last
is the weight NRPA adapts, one per move code = (colour, placement table row)). A colour
without a legal placement stops for good (squares are only ever taken). A colour's
monomino is held back while it has other pieces if the colour's ``hold`` flag is set.

Legality is the game's: every square free (not blocked, not covered), none sharing an edge
with the colour, at least one square an *attach square* (sharing a corner with the colour,
or its start square while it has no square). A colour's first moves are generated from its
attach squares through a (square, piece) index of the empty board's placement table, each
placement once (a stamp per row); after that its list is kept between its turns (a legal
row stays legal while its squares stay free and off the colour's edges; new legal rows
cover an attach square of the colour's last piece). The score of a playout is the number
of squares placed. *Measured* (``research/benchmarks/nrpa.py --methods speed``, load 5-8): 1.3-1.8
ms of CPU per 84-piece playout, against 44-46 ms for the NumPy greedy play; 0.19 ms for
30 pieces.

A playout records its moves as (colour, row), with row -1 where a colour stopped, so that
:func:`adapt` can replay it exactly (Rosin 2011, "Nested Rollout Policy Adaptation for
Monte Carlo Tree Search", IJCAI; the bias terms make it GNRPA, Cazenave 2020).

Why numba: the hot loop tests thousands of placements per move, square by square; see
:mod:`solver.backends.search.kernel` (same reasons, same on-disk cache). The arrays:

* tables ``T`` (read only): ``sq`` (P, 5) squares padded -1, ``size`` (P,), ``piece``
  (P,), ``corner`` (P, 20) the squares sharing a corner but no edge with a placement, padded
  -1, ``edge_nb``/``corner_nb`` (N + 1, 4) padded -1, ``cov_ptr`` (N * 21 + 1,) and
  ``cov_idx``: the rows of piece p covering square s are
  ``cov_idx[cov_ptr[s * 21 + p]:cov_ptr[s * 21 + p + 1]]``.
* start state ``S`` (copied by each playout): ``taken`` (N,) uint8, ``nogo`` (C, N) uint8
  (shares an edge with the colour), ``cornr`` (C, N) uint8 (shares a corner with it),
  ``has`` (C,) uint8, ``start`` (C,) int64 (-1: none), ``left`` (C, 21) int16 pieces left,
  ``hold`` (C,) uint8.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NPIECES = 21
MONO = 0
MAX_SEQ = 256  # moves and stops per playout: at most 21 pieces + 1 stop per colour, <= 8 colours


@njit(cache=True, nogil=True)
def _is_attach(c, s, taken, nogo, cornr, has, start):
    if taken[s] or nogo[c, s]:
        return False
    if has[c]:
        return cornr[c, s] > 0
    return s == start[c]


@njit(cache=True, nogil=True)
def _work(S, n_rows):
    """A playout's working state: the start state copied, plus per colour its list of legal
    rows at its last turn (``lists``, ``nlist``), its last row (``last``, -1: none yet) and
    whether its monomino was allowed then (``mono``), and scratch arrays."""
    taken0, nogo0, cornr0, has0, start, left0, hold = S
    n_col, n_sq = nogo0.shape
    return (
        taken0.copy(),
        nogo0.copy(),
        cornr0.copy(),
        has0.copy(),
        left0.copy(),
        np.zeros(n_col, dtype=np.uint8),  # active
        np.empty((n_col, n_rows), dtype=np.int32),  # lists
        np.zeros(n_col, dtype=np.int64),  # nlist
        np.full(n_col, -1, dtype=np.int64),  # last
        np.zeros(n_col, dtype=np.uint8),  # mono
        np.empty(n_sq + 1, dtype=np.uint8),  # ok
        np.zeros(n_sq + 1, dtype=np.int64),  # fresh
        np.zeros(n_sq + 1, dtype=np.int64),  # rival
        np.empty(n_rows, dtype=np.float64),  # logit
        np.empty(n_rows, dtype=np.float64),  # probs
        np.empty(n_rows, dtype=np.int32),  # cand
        np.empty(n_sq, dtype=np.int64),  # atts
    )


@njit(cache=True, nogil=True)
def _moves(c, T, S, W, pol, params, stamp):
    """The legal rows of colour c into ``W``'s ``lists[c]`` and their logits into its
    ``logit``; their count. Incremental: a row legal at c's last turn stays legal while its
    squares stay free of c's edges and its piece is left; a new legal row covers an attach
    square that c's last placement made (only c's own pieces make its attach squares)."""
    sq, size, piece, corner, edge_nb, corner_nb, cov_ptr, cov_idx = T
    start, hold = S[4], S[6]
    taken, nogo, cornr, has, left, active, lists, nlist, last, mono, ok, fresh, rival = W[:13]
    logit = W[13]
    n_sq = taken.shape[0]
    n_col = nogo.shape[0]
    n_rows = sq.shape[0]
    stamp[n_rows] += 1
    mark = stamp[n_rows]
    others = 0
    for p in range(1, NPIECES):
        others += left[c, p]
    mono_ok = left[c, MONO] > 0 and not (hold[c] and others > 0)
    # per square: may c cover it (ok), would it be a new attach square of c (fresh), how
    # many other active colours could attach there (rival; -1: not counted yet, counted
    # when a legal candidate covers it)
    for s in range(n_sq):
        ok[s] = 1 if taken[s] == 0 and nogo[c, s] == 0 else 0
        fresh[s] = 1 if ok[s] and has[c] and cornr[c, s] == 0 else 0
        rival[s] = -1
    # candidates (each row once: stamp) into cand, then tested in one loop (numba passes
    # arrays to a function with reference counting: a call per row costs more than the test)
    lst = lists[c]
    cand = W[15]
    n_cand = 0
    full = last[c] < 0 or (mono_ok and not mono[c])
    if not full:
        for i in range(nlist[c]):
            r = lst[i]
            if left[c, piece[r]] > 0:
                stamp[r] = mark
                cand[n_cand] = r
                n_cand += 1
    n_att = 0
    atts = W[16]
    if full:
        for a in range(n_sq):
            if _is_attach(c, a, taken, nogo, cornr, has, start):
                atts[n_att] = a
                n_att += 1
    else:
        q = last[c]
        for j in range(corner.shape[1]):
            a = corner[q, j]
            if a < 0:
                break
            if ok[a] and cornr[c, a] > 0:
                atts[n_att] = a
                n_att += 1
    for i in range(n_att):
        a = atts[i]
        for p in range(NPIECES):
            if left[c, p] == 0 or (p == MONO and not mono_ok):
                continue
            for k in range(cov_ptr[a * NPIECES + p], cov_ptr[a * NPIECES + p + 1]):
                r = cov_idx[k]
                if stamp[r] != mark:
                    stamp[r] = mark
                    cand[n_cand] = r
                    n_cand += 1
    n = 0
    w_size, w_gain, w_block = params[0], params[1], params[2]
    code = c * n_rows
    for i in range(n_cand):
        r = cand[i]
        legal = True
        loss = 0
        for j in range(5):
            s = sq[r, j]
            if s < 0:
                break
            if ok[s] == 0:
                legal = False
                break
        if not legal:
            continue
        for j in range(5):
            s = sq[r, j]
            if s < 0:
                break
            if rival[s] < 0:
                rival[s] = 0
                for d in range(n_col):
                    if d != c and active[d] and _is_attach(d, s, taken, nogo, cornr, has, start):
                        rival[s] += 1
            loss += rival[s]
        gain = 0
        for j in range(corner.shape[1]):
            s = corner[r, j]
            if s < 0:
                break
            gain += fresh[s]
        lst[n] = r
        logit[n] = w_size * size[r] + w_gain * gain - w_block * loss + pol[code + r]
        n += 1
    nlist[c] = n
    mono[c] = mono_ok
    return n


@njit(cache=True, nogil=True)
def _place(c, r, T, W):
    sq, piece, edge_nb, corner_nb = T[0], T[2], T[4], T[5]
    taken, nogo, cornr, has, left = W[0], W[1], W[2], W[3], W[4]
    for j in range(5):
        s = sq[r, j]
        if s < 0:
            break
        taken[s] = 1
        for k in range(4):
            e = edge_nb[s, k]
            if e >= 0:
                nogo[c, e] = 1
            d = corner_nb[s, k]
            if d >= 0:
                cornr[c, d] += 1
    has[c] = 1
    left[c, piece[r]] -= 1
    W[8][c] = r  # last


@njit(cache=True, nogil=True)
def _softmax(logit, n, probs):
    top = logit[0]
    for m in range(1, n):
        if logit[m] > top:
            top = logit[m]
    total = 0.0
    for m in range(n):
        probs[m] = np.exp(logit[m] - top)
        total += probs[m]
    for m in range(n):
        probs[m] /= total


@njit(cache=True, nogil=True)
def _pieces_left(c, left):
    k = 0
    for p in range(NPIECES):
        k += left[c, p]
    return k


@njit(cache=True, nogil=True)
def _play(c, r, T, W, seq_c, seq_r, length):
    """Colour c places row r, recorded at ``length`` of the sequence (the colour goes
    inactive once it has no piece left); the new length."""
    _place(c, r, T, W)
    seq_c[length] = c
    seq_r[length] = r
    if _pieces_left(c, W[4]) == 0:
        W[5][c] = 0
    return length + 1


@njit(cache=True, nogil=True)
def playout(T, S, pol, params, stamp, seq_c, seq_r):
    """One playout from the start state ``S`` with policy ``pol``; its moves go to
    ``seq_c``/``seq_r``. Returns (squares placed, length of the sequence)."""
    size = T[1]
    W = _work(S, size.shape[0])
    left, active, lists, logit, probs = W[4], W[5], W[6], W[13], W[14]
    n_col = active.shape[0]
    for c in range(n_col):
        if _pieces_left(c, left) > 0:
            active[c] = 1
    score = 0
    length = 0
    moved = True
    while moved:
        moved = False
        for c in range(n_col):
            if not active[c]:
                continue
            moved = True
            n = _moves(c, T, S, W, pol, params, stamp)
            if n == 0:
                active[c] = 0
                seq_c[length] = c
                seq_r[length] = -1
                length += 1
                continue
            _softmax(logit, n, probs)
            u = np.random.random()
            m = 0
            acc = probs[0]
            while acc < u and m < n - 1:
                m += 1
                acc += probs[m]
            r = lists[c, m]
            score += size[r]
            length = _play(c, r, T, W, seq_c, seq_r, length)
    return score, length


@njit(cache=True, nogil=True)
def adapt(T, S, pol, params, stamp, seq_c, seq_r, length, alpha):
    """NRPA's adaptation: a new policy, ``pol`` moved by ``alpha`` toward the moves of the
    sequence (each step: + alpha on the move played, - alpha * probability on every legal
    move, probabilities from ``pol``)."""
    n_rows = T[1].shape[0]
    W = _work(S, n_rows)
    left, active, lists, logit, probs = W[4], W[5], W[6], W[13], W[14]
    n_col = active.shape[0]
    new = pol.copy()
    for c in range(n_col):
        if _pieces_left(c, left) > 0:
            active[c] = 1
    for k in range(length):
        c = seq_c[k]
        r = seq_r[k]
        if r < 0:
            active[c] = 0
            continue
        n = _moves(c, T, S, W, pol, params, stamp)
        _softmax(logit, n, probs)
        for m in range(n):
            new[c * n_rows + lists[c, m]] -= alpha * probs[m]
        new[c * n_rows + r] += alpha
        _place(c, r, T, W)
        if _pieces_left(c, left) == 0:
            active[c] = 0
    return new


@njit(cache=True, nogil=True)
def seed_rng(seed):
    """Seed numba's random generator of the calling thread."""
    np.random.seed(seed)


@njit(cache=True, nogil=True)
def best_of(T, S, pol, params, stamp, plays, target, seq_c, seq_r):
    """``plays`` playouts with a fixed policy (stops at ``target``); the best one's moves go
    to ``seq_c``/``seq_r``. Returns (best score, its length)."""
    cur_c = np.empty(MAX_SEQ, dtype=np.int64)
    cur_r = np.empty(MAX_SEQ, dtype=np.int64)
    best, best_len = -1, 0
    for _ in range(plays):
        score, length = playout(T, S, pol, params, stamp, cur_c, cur_r)
        if score > best:
            best, best_len = score, length
            seq_c[:length] = cur_c[:length]
            seq_r[:length] = cur_r[:length]
            if best >= target:
                break
    return best, best_len


@njit(cache=True, nogil=True)
def level1(T, S, pol, params, stamp, iters, alpha, target, seq_c, seq_r):
    """NRPA level 1: ``iters`` times a playout with the policy (a copy of ``pol``), the
    best sequence so far kept (ties: the newer) and the policy adapted toward it; stops at
    ``target``. The best sequence goes to ``seq_c``/``seq_r``. Returns (score, length)."""
    cur_c = np.empty(MAX_SEQ, dtype=np.int64)
    cur_r = np.empty(MAX_SEQ, dtype=np.int64)
    best, best_len = -1, 0
    for _ in range(iters):
        score, length = playout(T, S, pol, params, stamp, cur_c, cur_r)
        if score >= best:
            best, best_len = score, length
            seq_c[:length] = cur_c[:length]
            seq_r[:length] = cur_r[:length]
        if best >= target:
            break
        pol = adapt(T, S, pol, params, stamp, seq_c, seq_r, best_len, alpha)
    return best, best_len


@njit(cache=True, nogil=True)
def moves_after(T, S, params, stamp, seq_c, seq_r, length, c):
    """The legal rows of colour ``c`` after the first ``length`` entries of a sequence,
    generated as a playout does (incrementally, each colour at its turns); for tests."""
    n_rows = T[1].shape[0]
    W = _work(S, n_rows)
    left, active, lists = W[4], W[5], W[6]
    pol = np.zeros(active.shape[0] * n_rows)
    for d in range(active.shape[0]):
        if _pieces_left(d, left) > 0:
            active[d] = 1
    for k in range(length):
        d = seq_c[k]
        r = seq_r[k]
        if r < 0:
            active[d] = 0
            continue
        _moves(d, T, S, W, pol, params, stamp)
        _place(d, r, T, W)
        if _pieces_left(d, left) == 0:
            active[d] = 0
    n = _moves(c, T, S, W, pol, params, stamp)
    return lists[c, :n].copy()


@njit(cache=True, nogil=True)
def log_prob(T, S, pol, params, stamp, seq_c, seq_r, length):
    """The log-probability that a playout with policy ``pol`` plays the sequence; for tests
    and measurements."""
    n_rows = T[1].shape[0]
    W = _work(S, n_rows)
    left, active, lists, logit, probs = W[4], W[5], W[6], W[13], W[14]
    for c in range(active.shape[0]):
        if _pieces_left(c, left) > 0:
            active[c] = 1
    total = 0.0
    for k in range(length):
        c = seq_c[k]
        r = seq_r[k]
        if r < 0:
            active[c] = 0
            continue
        n = _moves(c, T, S, W, pol, params, stamp)
        _softmax(logit, n, probs)
        for m in range(n):
            if lists[c, m] == r:
                total += np.log(probs[m])
        _place(c, r, T, W)
        if _pieces_left(c, left) == 0:
            active[c] = 0
    return total


@njit(cache=True, nogil=True)
def nmcs1(T, S, pol, params, stamp, children, target, seq_c, seq_r):
    """Nested Monte Carlo search, level 1 (Cazenave 2009): at each turn, each of the
    colour's ``children`` likeliest legal moves (all if fewer) is followed by one playout,
    and the best whole sequence found so far is kept; the colour then plays its next move
    in that sequence (if still legal; else the best child of this turn). The best sequence
    goes to ``seq_c``/``seq_r``. Returns (score, length)."""
    size = T[1]
    n_rows = size.shape[0]
    W = _work(S, n_rows)
    taken, nogo, cornr, has, left, active, lists = W[0], W[1], W[2], W[3], W[4], W[5], W[6]
    logit = W[13]
    start, hold = S[4], S[6]
    n_col = active.shape[0]
    for c in range(n_col):
        if _pieces_left(c, left) > 0:
            active[c] = 1
    cur_c = np.empty(MAX_SEQ, dtype=np.int64)
    cur_r = np.empty(MAX_SEQ, dtype=np.int64)
    pre_c = np.empty(MAX_SEQ, dtype=np.int64)
    pre_r = np.empty(MAX_SEQ, dtype=np.int64)
    best, best_len = -1, 0
    length, score = 0, 0
    moved = True
    while moved:
        moved = False
        for c in range(n_col):
            if not active[c]:
                continue
            moved = True
            n = _moves(c, T, S, W, pol, params, stamp)
            if n == 0:
                active[c] = 0
                pre_c[length] = c
                pre_r[length] = -1
                length += 1
                continue
            order = np.argsort(-logit[:n])
            here, here_r = -1, -1
            for i in range(min(n, children)):
                r = lists[c, order[i]]
                child = (
                    taken.copy(),
                    nogo.copy(),
                    cornr.copy(),
                    has.copy(),
                    start,
                    left.copy(),
                    hold,
                )
                W2 = (
                    child[0],
                    child[1],
                    child[2],
                    child[3],
                    child[5],
                    active,
                    lists,
                    W[7],
                    W[8].copy(),
                )
                _place(c, r, T, W2)
                got, k = playout(T, child, pol, params, stamp, cur_c, cur_r)
                total = score + size[r] + got
                if total > here:
                    here, here_r = total, r
                if total > best:
                    best, best_len = total, length + 1 + k
                    seq_c[:length] = pre_c[:length]
                    seq_r[:length] = pre_r[:length]
                    seq_c[length] = c
                    seq_r[length] = r
                    seq_c[length + 1 : best_len] = cur_c[:k]
                    seq_r[length + 1 : best_len] = cur_r[:k]
            if best >= target:
                return best, best_len
            r = here_r
            for j in range(length, best_len):
                if seq_c[j] == c and seq_r[j] >= 0:
                    for m in range(n):
                        if lists[c, m] == seq_r[j]:
                            r = seq_r[j]
                    break
            score += size[r]
            length = _play(c, r, T, W, pre_c, pre_r, length)
    return best, best_len
