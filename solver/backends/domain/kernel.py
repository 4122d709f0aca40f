"""The hot loop of the fundamental-domain search (:mod:`solver.backends.domain.quadrants`),
in numba.

A scan-order tiling search on bitboards, the classic fast way to pack polyominoes, with
Blokus colours as *labels*:

* The board's cells (squares, or Trigon's triangles: the tables come from the board's
  geometry, :mod:`solver.backends.domain.quadrants`) fall into orbits under a symmetry
  group G that acts freely on the colours; orbit o is represented by its cell ``rep[o]``
  in the fundamental domain, and orbits are numbered in the scan order. The state is a
  bitboard over orbits (``W`` 64-bit words).
* A *domain piece* (slot = colour orbit j * ``nps`` + shape; ``nps`` pieces per colour:
  21 on squares, 22 on Trigon) is a placement p whose cells lie in distinct orbits, with
  a label l in G: p itself is colour ``cycles[j][l]`` and its image h_m(p) is colour
  ``cycles[j][m*l]`` (``mul``). Each option is stored once, in the image whose cell in its
  first orbit (its *anchor*) is that orbit's representative.
* Branching: the first unfilled orbit in scan order; each option anchored there with each
  label, then "leave it empty" while empty orbits remain (never a start orbit).
* Labels: ``cov_lab[o]`` is the label of the copy covering ``rep[o]``; the copy covering
  h(rep[o]) has label ``mul[h, cov_lab[o]]``. Edge rule at placement: no square edge-adjacent
  to the new piece (listed as (orbit, h) pairs) is covered by a copy of the same colour
  orbit and label. Copies of one piece never clash (G acts freely on colours).
* Corner contacts: a diagonal neighbour (not edge-adjacent to the piece) covered by a copy
  with the same colour joins the two domain pieces in the contact graph ``adj``. One
  graph serves every colour of an orbit (the group maps each colour's pieces onto the
  others'). A colour is legal iff its graph is connected and its start square is covered
  by its own colour (``opt_start``).
* Connectivity prune after every step: a component of a colour orbit's graph whose pieces
  have no unfilled orbit among their corner squares (``corb``) can gain no contact; it
  is fatal unless it is the whole colour orbit, all 21 pieces placed.
* Pocket prune (``pockets``): an unfilled region of 1-4 orbits next to the new piece (or
  hole) must be fillable by the holes left and the unused pieces of 1-4 squares, counted by
  size (:func:`_fillable`); without it the scan would find the pocket only when it reaches
  it.
* Dead-square prune (``dead``): an unfilled orbit whose representative shares an edge with
  a copy of every colour that still has pieces can only stay empty; more such orbits than
  empty orbits left (or one that must be covered: a start) is a dead end. Without it the
  scan finds such a square only when it reaches it (two colours: a square between both
  colours).

The search is an explicit stack, so :func:`run` stops after a node budget and resumes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

DONE = 0  # tree exhausted: no layout with this symmetry
FOUND = 1  # a layout: slot_opt / slot_lab hold it
PAUSE = 3  # node budget used up: call run() again

# int64 scalar state ``st``
S_DEPTH, S_NODES, S_EMPTY, S_DEEPEST = range(4)
N_SCALARS = 4
UNFILLED = -1
HOLE = -2
#: the size of a slot with no option (a piece the colour does not have): never placed
ABSENT = 99


class Tables(NamedTuple):
    """The kernel's read-only arrays and settings, built by
    :func:`solver.backends.domain.quadrants.build` (a named tuple, so that numba takes it as
    one argument). O options, M orbits, W = ceil(M / 64) words, G group elements, S slots
    (colour orbits x ``nps`` shapes)."""

    mask: np.ndarray  # (O, W) uint64: the orbits an option covers
    corb: np.ndarray  # (O, W) uint64: the orbits at its corners (not at its edges)
    opt_slot: np.ndarray  # (O,) int32: its slot (colour orbit * nps + shape)
    sq_orb: np.ndarray  # (O, k) int32: the orbit of each of its cells, -1 padded (k: 5, 6)
    sq_k: np.ndarray  # (O, k) int32: the group element taking that orbit's rep there
    e_ptr: np.ndarray  # (O + 1,) int64: CSR pointers of its edge neighbours
    e_orb: np.ndarray  # int32: an edge neighbour's orbit
    e_h: np.ndarray  # int32: and its element
    c_ptr: np.ndarray  # (O + 1,) int64: CSR pointers of its corner neighbours
    c_orb: np.ndarray  # int32: a corner neighbour's orbit
    c_h: np.ndarray  # int32: and its element
    opt_start: (
        np.ndarray
    )  # (O,) int32: the label that puts its colour on a start; -1 none, -2 never
    lab_order: np.ndarray  # (O, G) int32: the labels in the order they are tried (the seed's)
    anc_ptr: np.ndarray  # (M + 1,) int64: CSR pointers of the options anchored at an orbit
    anc_idx: np.ndarray  # int32: those options, in the order they are tried
    mul: np.ndarray  # (G, G) int32: the group's multiplication table
    inv: np.ndarray  # (G,) int32: inverses
    slot_orbit: np.ndarray  # (S,) int32: a slot's colour orbit
    noempty: np.ndarray  # (M,) int8: 1 for an orbit that may not stay empty (a start)
    need: np.ndarray  # (colour orbits,) int32: pieces each colour orbit must place
    n_orbits_col: int  # colour orbits
    nps: int  # pieces per colour (21 on squares, 22 on Trigon; at most 64)
    onb: np.ndarray  # (M, e) int32: the orbits sharing an edge with an orbit, -1 padded
    slot_size: np.ndarray  # (S,) int32: a slot's squares (_ABSENT: not to be placed)
    pockets: int  # 1: the pocket prune
    nb_orb: np.ndarray  # (M, e) int32: the orbits of the rep's edge neighbours
    nb_h: np.ndarray  # (M, e) int32: and their elements (e: 4 on squares, 3 on Trigon)
    dead: int  # 1: the dead-square prune


class State(NamedTuple):
    """The kernel's search state, updated in place (a PAUSE resumes where it stopped).
    D: more frames than a path has levels."""

    filled: np.ndarray  # (W,) uint64: the orbits covered or left empty
    cov_slot: np.ndarray  # (M,) int32: the slot covering an orbit's rep (UNFILLED, HOLE)
    cov_lab: np.ndarray  # (M,) int32: the label of the copy covering it
    used: np.ndarray  # (S,) int8: the slot is placed
    adj: np.ndarray  # (S,) uint64: corner contacts between the slots of a colour orbit
    # (bit i of slot s: the slot j * nps + i of s's colour orbit j)
    slot_opt: np.ndarray  # (S,) int32: the option placed for a slot, -1 none
    slot_lab: np.ndarray  # (S,) int32: and its label
    st: np.ndarray  # (N_SCALARS,) int64: the scalars S_*
    f_anchor: np.ndarray  # (D,) int64: a frame's orbit (-1: not yet chosen)
    f_cursor: np.ndarray  # (D,) int64: its next candidate
    f_opt: np.ndarray  # (D,) int64: the option it applied (-1 none, -2 the hole)

    def copy(self) -> State:
        """A fresh copy of every array."""
        return State(*(a.copy() for a in self))


@njit(cache=True, nogil=True)
def _fits(filled, mask, o):
    for w in range(filled.shape[0]):
        if filled[w] & mask[o, w]:
            return False
    return True


@njit(cache=True, nogil=True)
def _edge_ok(o, lab, opt_slot, e_ptr, e_orb, e_h, cov_slot, cov_lab, slot_orbit, mul, nps):
    j = opt_slot[o] // nps
    for k in range(e_ptr[o], e_ptr[o + 1]):
        t = e_orb[k]
        s = cov_slot[t]
        if s >= 0 and slot_orbit[s] == j and mul[e_h[k], cov_lab[t]] == lab:
            return False
    return True


@njit(cache=True, nogil=True)
def _place(o, lab, mask, opt_slot, sq_orb, sq_k, c_ptr, c_orb, c_h, filled, cov_slot,
           cov_lab, used, adj, mul, inv, slot_orbit, nps, slot_opt, slot_lab, small,
           slot_size):  # fmt: skip
    """Place option ``o`` with label ``lab``: its orbits, contacts, slot and the count
    of unused small pieces."""
    slot = opt_slot[o]
    j = slot // nps
    bit = np.uint64(1) << np.uint64(slot % nps)
    for k in range(c_ptr[o], c_ptr[o + 1]):
        t = c_orb[k]
        s = cov_slot[t]
        if s >= 0 and slot_orbit[s] == j and mul[c_h[k], cov_lab[t]] == lab:
            adj[slot] |= np.uint64(1) << np.uint64(s % nps)
            adj[s] |= bit
    for w in range(filled.shape[0]):
        filled[w] |= mask[o, w]
    for i in range(sq_orb.shape[1]):
        t = sq_orb[o, i]
        if t < 0:
            break
        cov_slot[t] = slot
        cov_lab[t] = mul[inv[sq_k[o, i]], lab]
    used[slot] = 1
    slot_opt[slot] = o
    slot_lab[slot] = lab
    if slot_size[slot] <= 4:
        small[slot_size[slot]] -= 1


@njit(cache=True, nogil=True)
def _unplace(o, mask, opt_slot, sq_orb, filled, cov_slot, used, adj, nps, small, slot_size):
    """Take back :func:`_place` of option ``o``."""
    slot = opt_slot[o]
    bits = adj[slot]
    base = (slot // nps) * nps
    for i in range(nps):
        if bits & (np.uint64(1) << np.uint64(i)):
            adj[base + i] &= ~(np.uint64(1) << np.uint64(slot % nps))
    adj[slot] = np.uint64(0)
    for w in range(filled.shape[0]):
        filled[w] &= ~mask[o, w]
    for i in range(sq_orb.shape[1]):
        t = sq_orb[o, i]
        if t < 0:
            break
        cov_slot[t] = UNFILLED
    used[slot] = 0
    if slot_size[slot] <= 4:
        small[slot_size[slot]] += 1


@njit(cache=True, nogil=True)
def _is_open(slot, slot_opt, corb, filled):
    o = slot_opt[slot]
    for w in range(filled.shape[0]):
        if corb[o, w] & ~filled[w]:
            return True
    return False


@njit(cache=True, nogil=True)
def _connected_enough(n_orbits, nps, need, used, adj, slot_opt, corb, filled):
    """False when some colour orbit has a closed component that is not all of it."""
    for j in range(n_orbits):
        base = j * nps
        placed = np.uint64(0)
        count = 0
        for i in range(nps):
            if used[base + i]:
                placed |= np.uint64(1) << np.uint64(i)
                count += 1
        if count == 0:
            continue
        left = placed
        whole = count == need[j]
        while left:
            # one component: flood from the lowest placed piece through adj
            first = np.uint64(0)
            for i in range(nps):
                if left & (np.uint64(1) << np.uint64(i)):
                    first = np.uint64(1) << np.uint64(i)
                    break
            comp = first
            frontier = first
            while frontier:
                grow = np.uint64(0)
                for i in range(nps):
                    if frontier & (np.uint64(1) << np.uint64(i)):
                        grow |= adj[base + i]
                grow &= placed & ~comp
                comp |= grow
                frontier = grow
            left &= ~comp
            if whole:  # no contact can come any more: connected or dead
                if comp != placed:
                    return False
                break
            is_open = False
            for i in range(nps):
                if comp & (np.uint64(1) << np.uint64(i)):
                    if _is_open(base + i, slot_opt, corb, filled):
                        is_open = True
                        break
            if not is_open:
                return False
    return True


@njit(cache=True, nogil=True)
def _fillable(size, small, holes):
    """Can ``size`` (1-4) squares be filled by holes and unused pieces of 1-4 squares?
    ``small[k]``: unused pieces of k squares; sizes only, not shapes (a necessary test)."""
    reach = np.zeros(5, dtype=np.bool_)
    reach[0] = True
    for k in range(1, 5):
        count = small[k] + (holes if k == 1 else 0)
        for _ in range(count):
            for total in range(4, k - 1, -1):
                if reach[total - k]:
                    reach[total] = True
    return reach[size]


@njit(cache=True, nogil=True)
def no_dead_pocket(o_from, sq_orb, onb, cov_slot, stamp, queue, small, holes, tick):
    """False when an unfilled region of 1-4 orbits next to option ``o_from`` (or to the
    hole ``-1 - o_from`` when negative) cannot be filled (:func:`_fillable`).

    Each flood fill of this call has its own stamp ``tick * 32 + n``; a fill stops at 5
    orbits. A fill that meets an orbit of an earlier fill of the call joins a region that
    fill found to be large (a small region is a whole component: it would hold this fill's
    start too), so its region is large as well.
    """
    base = tick * 32
    n = 0
    n_src = 1 if o_from < 0 else sq_orb.shape[1]
    for i in range(n_src):
        t = (-1 - o_from) if o_from < 0 else sq_orb[o_from, i]
        if t < 0:
            break
        for k in range(onb.shape[1]):
            u = onb[t, k]
            if u < 0 or cov_slot[u] != UNFILLED or stamp[u] >= base:
                continue
            n += 1
            fill = base + n
            stamp[u] = fill
            queue[0] = u
            head, tail = 0, 1
            while head < tail and tail < 5:
                v = queue[head]
                head += 1
                for kk in range(onb.shape[1]):
                    w = onb[v, kk]
                    if w < 0 or cov_slot[w] != UNFILLED or stamp[w] == fill:
                        continue
                    if stamp[w] >= base:  # an earlier fill's large region
                        tail = 5
                        break
                    stamp[w] = fill
                    queue[tail] = w
                    tail += 1
                    if tail >= 5:
                        break
            if tail < 5 and not _fillable(tail, small, holes):
                return False
    return True


@njit(cache=True, nogil=True)
def _done_colours(used, slot_size, nps, n_orbits, g):
    """The colour keys (bit j * g + label) of the colour orbits with no piece left."""
    done = np.int64(0)
    for j in range(n_orbits):
        left = False
        for i in range(nps):
            if not used[j * nps + i] and slot_size[j * nps + i] < ABSENT:
                left = True
                break
        if not left:
            done |= ((np.int64(1) << g) - 1) << (j * g)
    return done


@njit(cache=True, nogil=True)
def _is_dead(t, cov_slot, cov_lab, nb_orb, nb_h, slot_orbit, mul, done, full):
    """True when orbit ``t``'s representative shares an edge with every colour in ``full``
    (bits j * g + label) that ``done`` does not already hold."""
    g = mul.shape[0]
    seen = done
    for k in range(nb_orb.shape[1]):
        u = nb_orb[t, k]
        if u < 0:
            break
        s = cov_slot[u]
        if s >= 0:
            seen |= np.int64(1) << (slot_orbit[s] * g + mul[nb_h[t, k], cov_lab[u]])
    return seen == full


@njit(cache=True, nogil=True)
def no_dead_square(o, a, m, e_ptr, e_orb, cov_slot, cov_lab, nb_orb, nb_h, slot_orbit, mul,
                   used, slot_size, nps, n_orbits, noempty, holes):  # fmt: skip
    """False when the unfilled orbits from ``a`` on hold more *dead* ones (each edge
    neighbour colour of its representative, with the colours whose pieces are all placed,
    covers every colour) than ``holes``, or a dead one that must be covered.

    ``o``: the option just placed (its parent passed this test), or -1 after a hole. A
    placement changes only the orbits next to it, so unless one of them is dead now, or
    some colour orbit has no piece left (its colours count as seen everywhere), the
    parent's verdict stands.
    """
    g = mul.shape[0]
    done = _done_colours(used, slot_size, nps, n_orbits, g)
    full = (np.int64(1) << (n_orbits * g)) - 1
    if o >= 0 and done == 0:
        near = False
        for k in range(e_ptr[o], e_ptr[o + 1]):
            t = e_orb[k]
            if cov_slot[t] == UNFILLED and _is_dead(
                t, cov_slot, cov_lab, nb_orb, nb_h, slot_orbit, mul, done, full
            ):
                near = True
                break
        if not near:
            return True
    dead = 0
    for t in range(a, m):
        if cov_slot[t] == UNFILLED and _is_dead(
            t, cov_slot, cov_lab, nb_orb, nb_h, slot_orbit, mul, done, full
        ):
            if noempty[t]:
                return False
            dead += 1
            if dead > holes:
                return False
    return True


@njit(cache=True, nogil=True)
def _set_hole(a, filled, cov_slot, st, on):
    """Leave orbit ``a`` empty (``on``), or take that back: one empty orbit fewer left."""
    bit = np.uint64(1) << np.uint64(a % 64)
    if on:
        filled[a // 64] |= bit
        cov_slot[a] = HOLE
        st[S_EMPTY] -= 1
    else:
        filled[a // 64] &= ~bit
        cov_slot[a] = UNFILLED
        st[S_EMPTY] += 1


@njit(cache=True, nogil=True)
def _small_pieces(used, slot_size):
    """(5,) int64: the unused pieces of 1-4 squares, by size (for :func:`_fillable`)."""
    small = np.zeros(5, dtype=np.int64)
    for i in range(used.shape[0]):
        if not used[i] and slot_size[i] <= 4:
            small[slot_size[i]] += 1
    return small


@njit(cache=True, nogil=True)
def _kept(o, a, m, n_orbits_col, nps, need, used, adj, slot_opt, corb, filled, pockets, sq_orb,
          onb, cov_slot, stamp, queue, small, holes, tick, dead, e_ptr, e_orb, cov_lab, nb_orb,
          nb_h, slot_orbit, mul, slot_size, noempty):  # fmt: skip
    """Does the node just made (option ``o`` placed at anchor ``a``, or the hole at ``a``
    when ``o`` is -1) pass the connectivity, pocket and dead-square prunes?"""
    if not _connected_enough(n_orbits_col, nps, need, used, adj, slot_opt, corb, filled):
        return False
    src = o if o >= 0 else -1 - a
    if pockets and not no_dead_pocket(src, sq_orb, onb, cov_slot, stamp, queue, small, holes,
                                      tick):  # fmt: skip
        return False
    return not dead or no_dead_square(o, a, m, e_ptr, e_orb, cov_slot, cov_lab, nb_orb, nb_h,
                                      slot_orbit, mul, used, slot_size, nps, n_orbits_col,
                                      noempty, holes)  # fmt: skip


@njit(cache=True, nogil=True)
def run(tables, state, budget):
    """Run at most ``budget`` (>= 1) more nodes (pieces and empty orbits placed); DONE,
    FOUND or PAUSE (see the module docstring).

    Frame d: ``f_anchor[d]`` its orbit (-1: not yet chosen), ``f_cursor[d]`` the next
    candidate (option index * G + label index; G * count: the hole), ``f_opt[d]`` the
    option applied (-1 none, -2 the hole). The loop, in steps:

    * D1. [Anchor.] A new frame takes the first unfilled orbit in scan order; none left:
      return FOUND.
    * D2. [Try.] The frame's next candidate: each option anchored there with each label
      (its squares free, the start's label, the edge rule), then the hole (while empty
      orbits remain, never on a start); apply it and keep it if the prunes pass
      (:func:`_kept`: connectivity, pockets, dead squares), else undo it and try the next.
    * D3. [Push.] Count the node and open the next frame (D1); after ``budget`` nodes
      return PAUSE (a call resumes at D1 of that frame).
    * D4. [Backtrack.] No candidate left: drop the frame and undo the parent's choice,
      then go on with the parent's next candidate (D2); at the root return DONE.
    """
    (
        mask, corb, opt_slot, sq_orb, sq_k, e_ptr, e_orb, e_h, c_ptr, c_orb, c_h, opt_start,
        lab_order, anc_ptr, anc_idx, mul, inv, slot_orbit, noempty, need, n_orbits_col, nps,
        onb, slot_size, pockets, nb_orb, nb_h, dead,
    ) = tables  # fmt: skip
    (
        filled, cov_slot, cov_lab, used, adj, slot_opt, slot_lab, st, f_anchor, f_cursor,
        f_opt,
    ) = state  # fmt: skip
    g = mul.shape[0]
    m = cov_slot.shape[0]
    spent = 0
    stamp = np.zeros(m, dtype=np.int64)
    queue = np.zeros(8, dtype=np.int64)
    small = _small_pieces(used, slot_size)
    tick = 0
    while True:
        d = st[S_DEPTH]
        if f_anchor[d] < 0:
            # D1. [Anchor.]
            a = 0 if d == 0 else f_anchor[d - 1]
            while a < m and cov_slot[a] != UNFILLED:
                a += 1
            if a == m:
                return FOUND
            f_anchor[d] = a
            f_cursor[d] = 0
            f_opt[d] = -1
        a = f_anchor[d]
        lo = anc_ptr[a]
        n = anc_ptr[a + 1] - lo
        pushed = False
        while f_cursor[d] <= g * n:
            # D2. [Try.]
            c = f_cursor[d]
            f_cursor[d] = c + 1
            if c == g * n:  # the hole
                if st[S_EMPTY] == 0 or noempty[a]:
                    continue
                _set_hole(a, filled, cov_slot, st, True)
                tick += 1
                if _kept(-1, a, m, n_orbits_col, nps, need, used, adj, slot_opt, corb, filled,
                         pockets, sq_orb, onb, cov_slot, stamp, queue, small, st[S_EMPTY], tick,
                         dead, e_ptr, e_orb, cov_lab, nb_orb, nb_h, slot_orbit, mul, slot_size,
                         noempty):  # fmt: skip
                    f_opt[d] = -2
                    pushed = True
                    break
                _set_hole(a, filled, cov_slot, st, False)
                continue
            o = anc_idx[lo + c // g]
            if used[opt_slot[o]]:
                f_cursor[d] = (c // g + 1) * g  # every label of this option: skip
                continue
            if not _fits(filled, mask, o):
                f_cursor[d] = (c // g + 1) * g
                continue
            lab = lab_order[o, c % g]
            if opt_start[o] >= 0 and lab != opt_start[o]:
                continue
            if opt_start[o] == -2:
                continue
            if not _edge_ok(o, lab, opt_slot, e_ptr, e_orb, e_h, cov_slot, cov_lab,
                            slot_orbit, mul, nps):  # fmt: skip
                continue
            _place(o, lab, mask, opt_slot, sq_orb, sq_k, c_ptr, c_orb, c_h, filled, cov_slot,
                   cov_lab, used, adj, mul, inv, slot_orbit, nps, slot_opt, slot_lab, small,
                   slot_size)  # fmt: skip
            tick += 1
            if _kept(o, a, m, n_orbits_col, nps, need, used, adj, slot_opt, corb, filled, pockets,
                     sq_orb, onb, cov_slot, stamp, queue, small, st[S_EMPTY], tick, dead, e_ptr,
                     e_orb, cov_lab, nb_orb, nb_h, slot_orbit, mul, slot_size,
                     noempty):  # fmt: skip
                f_opt[d] = o
                pushed = True
                break
            _unplace(o, mask, opt_slot, sq_orb, filled, cov_slot, used, adj, nps, small, slot_size)
        if pushed:
            # D3. [Push.]
            st[S_NODES] += 1
            spent += 1
            st[S_DEPTH] = d + 1
            if d + 1 > st[S_DEEPEST]:
                st[S_DEEPEST] = d + 1
            f_anchor[d + 1] = -1
            if spent >= budget:
                return PAUSE
            continue
        # D4. [Backtrack.] frame exhausted: back to the parent and undo its choice
        f_anchor[d] = -1
        if d == 0:
            return DONE
        d -= 1
        st[S_DEPTH] = d
        o = f_opt[d]
        if o == -2:
            a = f_anchor[d]
            _set_hole(a, filled, cov_slot, st, False)
        elif o >= 0:
            _unplace(o, mask, opt_slot, sq_orb, filled, cov_slot, used, adj, nps, small, slot_size)
        f_opt[d] = -1


@njit(cache=True, nogil=True)
def probe(tables, state, seed, widths):
    """One random path from the root of :func:`run`'s tree to a leaf (Knuth's estimator,
    "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975): at each
    node every child :func:`run` would push (the same candidates and prunes) is counted,
    and one is taken uniformly at random (numba's generator, seeded with ``seed``).

    ``widths[k]`` gets the number of children of the path's node at depth k; returns
    the leaf's depth, with ``widths[leaf]`` 0 for a dead end and -1 for a full layout.
    The state arrays are those of the node the path starts from (the root, for an
    estimate of the whole tree); they are left at the leaf.
    """
    (
        mask, corb, opt_slot, sq_orb, sq_k, e_ptr, e_orb, e_h, c_ptr, c_orb, c_h, opt_start,
        lab_order, anc_ptr, anc_idx, mul, inv, slot_orbit, noempty, need, n_orbits_col, nps,
        onb, slot_size, pockets, nb_orb, nb_h, dead,
    ) = tables  # fmt: skip
    (
        filled, cov_slot, cov_lab, used, adj, slot_opt, slot_lab, st, f_anchor, f_cursor,
        f_opt,
    ) = state  # fmt: skip
    np.random.seed(seed)
    g = mul.shape[0]
    m = cov_slot.shape[0]
    stamp = np.zeros(m, dtype=np.int64)
    queue = np.zeros(8, dtype=np.int64)
    small = _small_pieces(used, slot_size)
    tick = 0
    d = 0
    a = 0
    while True:
        while a < m and cov_slot[a] != UNFILLED:
            a += 1
        if a == m:
            widths[d] = -1
            return d
        lo = anc_ptr[a]
        n = anc_ptr[a + 1] - lo
        count = 0
        pick_o, pick_lab = -3, -1
        for c in range(g * n + 1):
            if c == g * n:  # the hole
                if st[S_EMPTY] == 0 or noempty[a]:
                    continue
                _set_hole(a, filled, cov_slot, st, True)
                tick += 1
                ok = _kept(-1, a, m, n_orbits_col, nps, need, used, adj, slot_opt, corb, filled,
                           pockets, sq_orb, onb, cov_slot, stamp, queue, small, st[S_EMPTY], tick,
                           dead, e_ptr, e_orb, cov_lab, nb_orb, nb_h, slot_orbit, mul, slot_size,
                           noempty)  # fmt: skip
                _set_hole(a, filled, cov_slot, st, False)
                if ok:
                    count += 1
                    if np.random.random() * count < 1.0:
                        pick_o = -2
                continue
            o = anc_idx[lo + c // g]
            lab = lab_order[o, c % g]
            if used[opt_slot[o]] or not _fits(filled, mask, o) or opt_start[o] == -2:
                continue
            if opt_start[o] >= 0 and lab != opt_start[o]:
                continue
            if not _edge_ok(o, lab, opt_slot, e_ptr, e_orb, e_h, cov_slot, cov_lab, slot_orbit,
                            mul, nps):  # fmt: skip
                continue
            _place(o, lab, mask, opt_slot, sq_orb, sq_k, c_ptr, c_orb, c_h, filled, cov_slot,
                   cov_lab, used, adj, mul, inv, slot_orbit, nps, slot_opt, slot_lab, small,
                   slot_size)  # fmt: skip
            tick += 1
            ok = _kept(o, a, m, n_orbits_col, nps, need, used, adj, slot_opt, corb, filled,
                       pockets, sq_orb, onb, cov_slot, stamp, queue, small, st[S_EMPTY], tick,
                       dead, e_ptr, e_orb, cov_lab, nb_orb, nb_h, slot_orbit, mul, slot_size,
                       noempty)  # fmt: skip
            _unplace(o, mask, opt_slot, sq_orb, filled, cov_slot, used, adj, nps, small, slot_size)
            if ok:
                count += 1
                if np.random.random() * count < 1.0:
                    pick_o, pick_lab = o, lab
        widths[d] = count
        if count == 0:
            return d
        if pick_o == -2:
            _set_hole(a, filled, cov_slot, st, True)
        else:
            _place(pick_o, pick_lab, mask, opt_slot, sq_orb, sq_k, c_ptr, c_orb, c_h, filled,
                   cov_slot, cov_lab, used, adj, mul, inv, slot_orbit, nps, slot_opt, slot_lab,
                   small, slot_size)  # fmt: skip
        d += 1
