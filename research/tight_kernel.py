"""The hot loop of the square-first search (:mod:`research.tight`), compiled with numba.

An exact-cover search in the style of Knuth's Algorithm X with counters instead of links:

* Items: one primary item per *orbit* of squares (a square and its images under the
  symmetry group; with no symmetry, one per square), covered by an option or left empty,
  and one primary item per (representative colour, piece).
* Options: (representative colour r, placement p); p's images under the group are
  disjoint, so p covers |p| orbits, and the image h(p) goes to colour h(r).
* ``kill[o]``: number of reasons option o is dead (an item it covers is covered; its
  colour shares an edge with one of its squares). ``live[i]``: live options of item i.
  Undo only has to reverse the counter changes, in any order.
* Same-colour edges: ``forbid[r, s]`` counts r's squares sharing an edge with s; its first
  increment kills every option of r covering s. By symmetry the images need no separate
  state: colour h(r) shares an edge with h(s) iff r does with s.
* Empty squares: an orbit may be left empty while ``st[S_EMPTY]`` (orbits that may still be
  empty) is positive; a start square never is.
* Branch on the uncovered item with the fewest choices (an orbit's choices include
  "empty"), options before "empty".
* Connectivity, pruned at every node: from r's start square, a king-move flood through r's
  squares and the uncovered squares r may still cover must reach every square of r (its
  later pieces can only be there). At a leaf, the flood through r's squares alone must.

The search is an explicit stack, so :func:`run` stops after a node budget and resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
from numba import njit

DONE = 0  # tree exhausted: no layout
FOUND = 1  # a layout (orb_opt holds it)
PAUSE = 3  # node budget used up: call run() again

# int64 scalar state ``st``
S_DEPTH, S_NODES, S_EMPTY, S_UNCOV, S_STARTED = range(5)
N_SCALARS = 5

# how the item to branch on is chosen
BRANCH_FEWEST = 0  # the item with the fewest choices (Knuth's MRV)
BRANCH_SCAN = 1  # an item with at most one choice if any, else the first uncovered orbit
BRANCH_ATTACH = 2  # grow each colour from its start: an attach square, or "never covered"

UNCOVERED = -1
EMPTY = -2
EXCLUDED = -3  # the choice "colour r never covers attach square x"


@dataclass(frozen=True)
class Tables:
    """Read-only arrays. O options, I items (M orbits first), R representative colours,
    N squares."""

    opt_orb: np.ndarray  # (O, 5) int32: orbits an option covers, padded with -1
    opt_pitem: np.ndarray  # (O,) int32: its piece item (M + r*21 + piece)
    opt_rep: np.ndarray  # (O,) int32: its representative colour
    opt_sq: np.ndarray  # (O, 5) int32: its squares (identity image), padded with -1
    opt_nb: np.ndarray  # (O, 12) int32: squares sharing an edge with it, padded with -1
    item_ptr: np.ndarray  # (I + 1,) int64: CSR pointers of item_idx
    item_idx: np.ndarray  # int32: options covering each item, in value order
    rs_ptr: np.ndarray  # (R*N + 1,) int64: CSR pointers of rs_idx by (rep, square)
    rs_idx: np.ndarray  # int32: options of rep r with square s (identity image)
    orb_noempty: np.ndarray  # (M,) int8: the orbit may not be left empty (start squares)
    sq_orb: np.ndarray  # (N,) int32: a square's orbit, -1 for a square fixed empty
    king_nb: np.ndarray  # (N, 8) int32: king-move neighbours, padded with -1
    start: np.ndarray  # (R,) int32: each representative's start square
    n_orbits: np.ndarray  # (1,) int64: M
    orb_sq: np.ndarray  # (M, G) int32: the squares of each orbit
    item_order: np.ndarray  # (I,) int32: the items in the order ties are broken
    branch: np.ndarray  # (1,) int64: BRANCH_FEWEST or BRANCH_SCAN


@dataclass(frozen=True)
class State:
    """The search state, updated in place."""

    kill: np.ndarray  # (O,) int32
    live: np.ndarray  # (I,) int32
    done: np.ndarray  # (I,) int8: item covered
    orb_opt: np.ndarray  # (M,) int32: option covering an orbit, UNCOVERED or EMPTY
    forbid: np.ndarray  # (R, N) int32
    own: np.ndarray  # (R, N) int8: r covers s
    nown: np.ndarray  # (R,) int64: squares r covers
    fr_item: np.ndarray  # (D,) int32: the item branched on at each depth
    fr_pos: np.ndarray  # (D,) int32: position in its option list; list length = "empty"
    fr_opt: np.ndarray  # (D,) int32: the choice applied (-1 none, EMPTY, or an option)
    mark: np.ndarray  # (N,) int64: flood stamps
    reached: np.ndarray  # (N,) int64: node stamp on squares some colour's flood reached
    queue: np.ndarray  # (N,) int32: flood queue
    st: np.ndarray  # (N_SCALARS,) int64


def arrays(obj: Tables | State) -> tuple[np.ndarray, ...]:
    """The dataclass's arrays in field order (the order :func:`run` takes them)."""
    return tuple(getattr(obj, f.name) for f in fields(obj))


def run_chunk(tables: Tables, state: State, budget: int) -> int:
    """Run at most ``budget`` more nodes; DONE, FOUND or PAUSE."""
    args = (*arrays(tables), *arrays(state), budget)
    return int(run(*args))


@njit(cache=True, nogil=True)
def _kill(o, kill, live, opt_orb, opt_pitem):
    kill[o] += 1
    if kill[o] == 1:
        for k in range(opt_orb.shape[1]):
            t = opt_orb[o, k]
            if t < 0:
                break
            live[t] -= 1
        live[opt_pitem[o]] -= 1


@njit(cache=True, nogil=True)
def _unkill(o, kill, live, opt_orb, opt_pitem):
    kill[o] -= 1
    if kill[o] == 0:
        for k in range(opt_orb.shape[1]):
            t = opt_orb[o, k]
            if t < 0:
                break
            live[t] += 1
        live[opt_pitem[o]] += 1


@njit(cache=True, nogil=True)
def _cover_item(i, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem):
    done[i] = 1
    for k in range(item_ptr[i], item_ptr[i + 1]):
        _kill(item_idx[k], kill, live, opt_orb, opt_pitem)


@njit(cache=True, nogil=True)
def _uncover_item(i, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem):
    done[i] = 0
    for k in range(item_ptr[i], item_ptr[i + 1]):
        _unkill(item_idx[k], kill, live, opt_orb, opt_pitem)


@njit(cache=True, nogil=True)
def _apply(o, sign, opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr, item_idx, rs_ptr,
           rs_idx, kill, live, done, orb_opt, forbid, own, nown, st):  # fmt: skip
    """Apply (sign 1) or undo (sign -1) option o."""
    r = opt_rep[o]
    nsq = own.shape[1]
    if sign > 0:
        for k in range(opt_orb.shape[1]):
            t = opt_orb[o, k]
            if t < 0:
                break
            orb_opt[t] = o
            st[S_UNCOV] -= 1
            _cover_item(t, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)
        _cover_item(opt_pitem[o], kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)
        for k in range(opt_sq.shape[1]):
            s = opt_sq[o, k]
            if s < 0:
                break
            own[r, s] = 1
            nown[r] += 1
        for k in range(opt_nb.shape[1]):
            s = opt_nb[o, k]
            if s < 0:
                break
            forbid[r, s] += 1
            if forbid[r, s] == 1:
                key = r * nsq + s
                for j in range(rs_ptr[key], rs_ptr[key + 1]):
                    _kill(rs_idx[j], kill, live, opt_orb, opt_pitem)
    else:
        for k in range(opt_nb.shape[1]):
            s = opt_nb[o, k]
            if s < 0:
                break
            forbid[r, s] -= 1
            if forbid[r, s] == 0:
                key = r * nsq + s
                for j in range(rs_ptr[key], rs_ptr[key + 1]):
                    _unkill(rs_idx[j], kill, live, opt_orb, opt_pitem)
        for k in range(opt_sq.shape[1]):
            s = opt_sq[o, k]
            if s < 0:
                break
            own[r, s] = 0
            nown[r] -= 1
        _uncover_item(opt_pitem[o], kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)
        for k in range(opt_orb.shape[1]):
            t = opt_orb[o, k]
            if t < 0:
                break
            orb_opt[t] = UNCOVERED
            st[S_UNCOV] += 1
            _uncover_item(t, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)


@njit(cache=True, nogil=True)
def _connected(r, leaf, start, sq_orb, orb_opt, forbid, own, nown, king_nb, mark, queue, stamp,
               reached, node):  # fmt: skip
    """The flood from r's start (see the module docstring) reaches all of r's squares.
    Squares it reaches get ``mark = stamp`` and ``reached = node``."""
    s0 = start[r]
    if own[r, s0] == 0 and (leaf or forbid[r, s0] > 0 or orb_opt[sq_orb[s0]] != UNCOVERED):
        return False
    mark[s0] = stamp
    reached[s0] = node
    queue[0] = s0
    head, tail = 0, 1
    found = 1 if own[r, s0] else 0
    while head < tail:
        s = queue[head]
        head += 1
        for k in range(8):
            n = king_nb[s, k]
            if n < 0:
                break
            if mark[n] == stamp:
                continue
            if own[r, n]:
                found += 1
            elif leaf:
                continue
            else:
                t = sq_orb[n]
                if t < 0 or orb_opt[t] != UNCOVERED or forbid[r, n] > 0:
                    continue
            mark[n] = stamp
            reached[n] = node
            queue[tail] = n
            tail += 1
    return found == nown[r]


@njit(cache=True, nogil=True)
def _pieces_in_reach(r, m, done, kill, item_ptr, item_idx, opt_sq, mark, stamp):
    """Every piece r has left has a live option inside r's flood (its later pieces are
    connected to its start, so they lie there)."""
    npieces = 21
    for k in range(npieces):
        i = m + r * npieces + k
        if done[i]:
            continue
        hit = False
        for j in range(item_ptr[i], item_ptr[i + 1]):
            o = item_idx[j]
            if kill[o] == 0 and mark[opt_sq[o, 0]] == stamp:
                hit = True
                break
        if not hit:
            return False
    return True


@njit(cache=True, nogil=True)
def _forbid(r, x, sign, forbid, rs_ptr, rs_idx, kill, live, opt_orb, opt_pitem):
    """One more (sign 1) or one less (sign -1) reason for r not to cover x."""
    key = r * forbid.shape[1] + x
    if sign > 0:
        forbid[r, x] += 1
        if forbid[r, x] == 1:
            for j in range(rs_ptr[key], rs_ptr[key + 1]):
                _kill(rs_idx[j], kill, live, opt_orb, opt_pitem)
    else:
        forbid[r, x] -= 1
        if forbid[r, x] == 0:
            for j in range(rs_ptr[key], rs_ptr[key + 1]):
                _unkill(rs_idx[j], kill, live, opt_orb, opt_pitem)


@njit(cache=True, nogil=True)
def _attach_square(m, done, kill, forbid, own, nown, sq_orb, orb_opt, king_nb, start, rs_ptr,
                   rs_idx):  # fmt: skip
    """BRANCH_ATTACH: the attach square (key r * N + x) with the fewest live options of its
    colour r covering it, over the colours with pieces left; -1 if no colour has pieces
    left, -2 if one has but no attach square. An attach square of r: uncovered, allowed for
    r, and sharing a corner with r (its start square while r has no square)."""
    n_reps, nsq = own.shape
    best_key, best_n = -1, 1 << 30
    for r in range(n_reps):
        left = False
        for k in range(21):
            if done[m + r * 21 + k] == 0:
                left = True
                break
        if not left:
            continue
        found = False
        for x in range(nsq):
            if nown[r] == 0:
                if x != start[r]:
                    continue
            else:
                if own[r, x] or forbid[r, x] > 0:
                    continue
                t = sq_orb[x]
                if t < 0 or orb_opt[t] != UNCOVERED:
                    continue
                touch = False
                for k in range(8):
                    nb = king_nb[x, k]
                    if nb < 0:
                        break
                    if own[r, nb]:
                        touch = True
                        break
                if not touch:
                    continue
            found = True
            key = r * nsq + x
            n = 0
            for j in range(rs_ptr[key], rs_ptr[key + 1]):
                if kill[rs_idx[j]] == 0:
                    n += 1
                    if n >= best_n:
                        break
            if n < best_n:
                best_key, best_n = key, n
        if not found:
            return -2
    return best_key


@njit(cache=True, nogil=True)
def run(opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr, item_idx, rs_ptr, rs_idx,
        orb_noempty, sq_orb, king_nb, start, n_orbits, orb_sq, item_order, branch,
        kill, live, done, orb_opt, forbid, own, nown, fr_item, fr_pos, fr_opt, mark, reached,
        queue, st,
        budget):  # fmt: skip
    """Search on from the state for at most ``budget`` nodes; DONE, FOUND or PAUSE."""
    m = n_orbits[0]
    n_items = live.shape[0]
    n_reps = own.shape[0]
    used = 0
    descend = st[S_STARTED] == 0  # a fresh search starts by choosing an item at depth 0
    st[S_STARTED] = 1
    if not descend and st[S_DEPTH] < 0:
        return DONE
    while True:
        if descend:
            # a new node at depth st[S_DEPTH]: leaf, prune, or choose an item
            used += 1
            st[S_NODES] += 1
            d = st[S_DEPTH]
            ok = True
            leaf = st[S_UNCOV] == 0
            node = st[S_NODES]
            for r in range(n_reps):
                stamp = node * n_reps + r
                if not _connected(r, leaf, start, sq_orb, orb_opt, forbid, own, nown, king_nb,
                                  mark, queue, stamp, reached, node):  # fmt: skip
                    ok = False
                    break
                if not leaf and not _pieces_in_reach(r, m, done, kill, item_ptr, item_idx,
                                                     opt_sq, mark, stamp):  # fmt: skip
                    ok = False
                    break
            if ok and not leaf:
                # an uncovered orbit no colour can reach, or with no live option left,
                # can only be left empty
                unreached = 0
                for t in range(m):
                    if orb_opt[t] != UNCOVERED:
                        continue
                    hit = False
                    if live[t] > 0:
                        for k in range(orb_sq.shape[1]):
                            if reached[orb_sq[t, k]] == node:
                                hit = True
                                break
                    if not hit:
                        if orb_noempty[t]:
                            ok = False
                            break
                        unreached += 1
                if unreached > st[S_EMPTY]:
                    ok = False
            if ok and leaf:
                for i in range(m, n_items):
                    if done[i] == 0:
                        ok = False
                        break
                if ok:
                    st[S_DEPTH] -= 1  # a later run() goes on with the next choice
                    return FOUND
            best, best_n = -1, 1 << 30
            if ok:
                for j in range(n_items):
                    i = item_order[j]
                    if done[i]:
                        continue
                    n = live[i]
                    if i < m and st[S_EMPTY] > 0 and orb_noempty[i] == 0:
                        n += 1
                    if n < best_n:
                        best, best_n = i, n
                        if n <= 1:
                            break
                if best < 0 or best_n == 0:
                    ok = False
                elif best_n > 1 and branch[0] == BRANCH_SCAN:
                    for j in range(n_items):
                        i = item_order[j]
                        if i < m and done[i] == 0:
                            best = i
                            break
                elif best_n > 1 and branch[0] == BRANCH_ATTACH:
                    key = _attach_square(m, done, kill, forbid, own, nown, sq_orb, orb_opt,
                                         king_nb, start, rs_ptr, rs_idx)  # fmt: skip
                    if key == -2:
                        ok = False  # a colour with pieces left and nowhere to attach them
                    elif key >= 0:
                        best = -1 - key  # an attach frame: fr_item < 0
            if ok:
                fr_item[d] = best
                if best >= 0:
                    fr_pos[d] = item_ptr[best] - 1
                else:
                    fr_pos[d] = rs_ptr[-1 - best] - 1
                fr_opt[d] = -1
            else:
                st[S_DEPTH] -= 1  # dead end: go on with the parent's next choice
                if st[S_DEPTH] < 0:
                    return DONE
            descend = False
            if used >= budget:
                return PAUSE
            continue
        # next choice at depth d
        d = st[S_DEPTH]
        i = fr_item[d]
        o = fr_opt[d]
        if i < 0:
            # an attach frame: r's options covering x, then "r never covers x"
            key = -1 - i
            nsq = own.shape[1]
            r = key // nsq
            x = key - r * nsq
            if o >= 0:
                _apply(o, -1, opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr,
                       item_idx, rs_ptr, rs_idx, kill, live, done, orb_opt, forbid, own, nown,
                       st)  # fmt: skip
            elif o == EXCLUDED:
                _forbid(r, x, -1, forbid, rs_ptr, rs_idx, kill, live, opt_orb, opt_pitem)
            fr_opt[d] = -1
            p = fr_pos[d] + 1
            end = rs_ptr[key + 1]
            while p < end and kill[rs_idx[p]] > 0:
                p += 1
            fr_pos[d] = p
            if p < end:
                o = rs_idx[p]
                _apply(o, 1, opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr,
                       item_idx, rs_ptr, rs_idx, kill, live, done, orb_opt, forbid, own, nown,
                       st)  # fmt: skip
                fr_opt[d] = o
            elif p == end and nown[r] > 0:
                _forbid(r, x, 1, forbid, rs_ptr, rs_idx, kill, live, opt_orb, opt_pitem)
                fr_opt[d] = EXCLUDED
            else:
                st[S_DEPTH] -= 1
                if st[S_DEPTH] < 0:
                    return DONE
                continue
            st[S_DEPTH] += 1
            descend = True
            continue
        if o >= 0:
            _apply(o, -1, opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr, item_idx,
                   rs_ptr, rs_idx, kill, live, done, orb_opt, forbid, own, nown, st)  # fmt: skip
        elif o == EMPTY:
            orb_opt[i] = UNCOVERED
            st[S_UNCOV] += 1
            st[S_EMPTY] += 1
            _uncover_item(i, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)
        fr_opt[d] = -1
        p = fr_pos[d] + 1
        end = item_ptr[i + 1]
        while p < end and kill[item_idx[p]] > 0:
            p += 1
        fr_pos[d] = p
        if p < end:
            o = item_idx[p]
            _apply(o, 1, opt_orb, opt_pitem, opt_rep, opt_sq, opt_nb, item_ptr, item_idx,
                   rs_ptr, rs_idx, kill, live, done, orb_opt, forbid, own, nown, st)  # fmt: skip
            fr_opt[d] = o
        elif p == end and i < m and st[S_EMPTY] > 0 and orb_noempty[i] == 0:
            orb_opt[i] = EMPTY
            st[S_UNCOV] -= 1
            st[S_EMPTY] -= 1
            _cover_item(i, kill, live, done, item_ptr, item_idx, opt_orb, opt_pitem)
            fr_opt[d] = EMPTY
        else:
            st[S_DEPTH] -= 1
            if st[S_DEPTH] < 0:
                return DONE
            continue
        st[S_DEPTH] += 1
        descend = True
