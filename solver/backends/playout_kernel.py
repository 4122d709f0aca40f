"""Fast randomised playouts and the policy adaptation of NRPA, compiled with numba.

A *playout* plays the pieces of the played colours in turn from a position to the end, as
a solo player would: the colours move in round-robin order; a colour picks one of its
legal placements at random with probability proportional to ``exp(logit)``, where

    logit = W_SIZE * squares + W_GAIN * (new attach squares it gives its colour)
            - W_BLOCK * (attach squares of the other active colours it covers)
            + policy[colour * P + row]

(the first three terms are the greedy player's of :mod:`solver.backends.greedy`; the last
is the weight NRPA adapts, one per move code = (colour, placement table row)). A colour
without a legal placement stops for good (squares are only ever taken). A colour's
monomino is held back while it has other pieces if the colour's ``hold`` flag is set.

Legality is the game's: every square free (not blocked, not covered), none sharing an edge
with the colour, at least one square an *attach square* (sharing a corner with the colour,
or its start square while it has no square). The moves of a colour are generated from its
attach squares through a (square, piece) index of the empty board's placement table, each
placement once (a stamp per row). The score of a playout is the number of squares placed.

A playout records its moves as (colour, row), with row -1 where a colour stopped, so that
:func:`adapt` can replay it exactly (Rosin 2011, "Nested Rollout Policy Adaptation for
Monte Carlo Tree Search", IJCAI; the bias terms make it GNRPA, Cazenave 2020).

Why numba: the hot loop tests thousands of placements per move, square by square; see
:mod:`solver.backends.search_kernel` (same reasons, same on-disk cache). The arrays:

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
def _moves(
    c, T, taken, nogo, cornr, has, start, left, hold, active, pol, params, stamp, rows, logit
):
    """The legal rows of colour c into ``rows`` and their logits into ``logit``; their count."""
    sq, size, piece, corner, edge_nb, corner_nb, cov_ptr, cov_idx = T
    n_sq = taken.shape[0]
    n_col = nogo.shape[0]
    n_rows = sq.shape[0]
    stamp[n_rows] += 1
    mark = stamp[n_rows]
    others = 0
    for p in range(1, NPIECES):
        others += left[c, p]
    # per square, once per call: may c cover it (ok), would it be a new attach square of c
    # (fresh), how many other active colours could attach there (rival)
    ok = np.empty(n_sq + 1, dtype=np.uint8)
    fresh = np.zeros(n_sq + 1, dtype=np.int64)
    rival = np.zeros(n_sq + 1, dtype=np.int64)
    ok[n_sq] = 1
    n_att = 0
    atts = np.empty(n_sq, dtype=np.int64)
    for s in range(n_sq):
        ok[s] = 1 if taken[s] == 0 and nogo[c, s] == 0 else 0
        if ok[s]:
            if has[c]:
                if cornr[c, s] > 0:
                    atts[n_att] = s
                    n_att += 1
                else:
                    fresh[s] = 1
            elif s == start[c]:
                atts[n_att] = s
                n_att += 1
        if taken[s] == 0:
            for d in range(n_col):
                if d != c and active[d] and _is_attach(d, s, taken, nogo, cornr, has, start):
                    rival[s] += 1
    n = 0
    w_size, w_gain, w_block = params[0], params[1], params[2]
    base_code = c * n_rows
    for i in range(n_att):
        a = atts[i]
        for p in range(NPIECES):
            if left[c, p] == 0:
                continue
            if p == MONO and hold[c] and others > 0:
                continue
            base = a * NPIECES + p
            for k in range(cov_ptr[base], cov_ptr[base + 1]):
                r = cov_idx[k]
                if stamp[r] == mark:
                    continue
                stamp[r] = mark
                legal = True
                loss = 0
                for j in range(5):
                    s = sq[r, j]
                    if s < 0:
                        break
                    if ok[s] == 0:
                        legal = False
                        break
                    loss += rival[s]
                if not legal:
                    continue
                gain = 0
                for j in range(corner.shape[1]):
                    s = corner[r, j]
                    if s < 0:
                        break
                    gain += fresh[s]
                rows[n] = r
                logit[n] = w_size * size[r] + w_gain * gain - w_block * loss + pol[base_code + r]
                n += 1
    return n


@njit(cache=True, nogil=True)
def _place(c, r, T, taken, nogo, cornr, has, left):
    sq, size, piece, corner, edge_nb, corner_nb, cov_ptr, cov_idx = T
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
def playout(T, S, pol, params, stamp, seq_c, seq_r):
    """One playout from the start state ``S`` with policy ``pol``; its moves go to
    ``seq_c``/``seq_r``. Returns (squares placed, length of the sequence)."""
    taken0, nogo0, cornr0, has0, start, left0, hold = S
    taken = taken0.copy()
    nogo = nogo0.copy()
    cornr = cornr0.copy()
    has = has0.copy()
    left = left0.copy()
    n_col = nogo.shape[0]
    size = T[1]
    n_rows = size.shape[0]
    rows = np.empty(n_rows, dtype=np.int64)
    logit = np.empty(n_rows, dtype=np.float64)
    probs = np.empty(n_rows, dtype=np.float64)
    active = np.zeros(n_col, dtype=np.uint8)
    n_active = 0
    for c in range(n_col):
        if _pieces_left(c, left) > 0:
            active[c] = 1
            n_active += 1
    score = 0
    length = 0
    while n_active > 0:
        for c in range(n_col):
            if not active[c]:
                continue
            n = _moves(
                c,
                T,
                taken,
                nogo,
                cornr,
                has,
                start,
                left,
                hold,
                active,
                pol,
                params,
                stamp,
                rows,
                logit,
            )
            if n == 0:
                active[c] = 0
                n_active -= 1
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
            r = rows[m]
            _place(c, r, T, taken, nogo, cornr, has, left)
            score += size[r]
            seq_c[length] = c
            seq_r[length] = r
            length += 1
            if _pieces_left(c, left) == 0:
                active[c] = 0
                n_active -= 1
    return score, length


@njit(cache=True, nogil=True)
def adapt(T, S, pol, params, stamp, seq_c, seq_r, length, alpha):
    """NRPA's adaptation: a new policy, ``pol`` moved by ``alpha`` toward the moves of the
    sequence (each step: + alpha on the move played, - alpha * probability on every legal
    move, probabilities from ``pol``)."""
    taken0, nogo0, cornr0, has0, start, left0, hold = S
    taken = taken0.copy()
    nogo = nogo0.copy()
    cornr = cornr0.copy()
    has = has0.copy()
    left = left0.copy()
    n_col = nogo.shape[0]
    n_rows = T[1].shape[0]
    rows = np.empty(n_rows, dtype=np.int64)
    logit = np.empty(n_rows, dtype=np.float64)
    probs = np.empty(n_rows, dtype=np.float64)
    new = pol.copy()
    active = np.zeros(n_col, dtype=np.uint8)
    for c in range(n_col):
        if _pieces_left(c, left) > 0:
            active[c] = 1
    for k in range(length):
        c = seq_c[k]
        r = seq_r[k]
        if r < 0:
            active[c] = 0
            continue
        n = _moves(
            c,
            T,
            taken,
            nogo,
            cornr,
            has,
            start,
            left,
            hold,
            active,
            pol,
            params,
            stamp,
            rows,
            logit,
        )
        _softmax(logit, n, probs)
        for m in range(n):
            new[c * n_rows + rows[m]] -= alpha * probs[m]
        new[c * n_rows + r] += alpha
        _place(c, r, T, taken, nogo, cornr, has, left)
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
