"""The repair backend: construct, then repair (large-neighbourhood search).

For many colours on an open board the exact search's tree is too large and CP-SAT's model
too weak (plain CP-SAT found no 84-piece layout: research/notes/asymmetric_attempts.md),
while a player gets close by just playing. So, in each of ``options.workers`` independent runs:

1. **Construct**: randomised greedy play (:mod:`solver.backends.repair.greedy`); the best of
   :attr:`RepairTuning.restarts` layouts is kept.
2. **Repair**, step after step; the cost is the number of squares left unplaced.

   * *Ejection* (share :data:`EJECT`): a piece P left of a colour c (chosen with weight
     its squares left) goes where it takes off the fewest squares of placed pieces (any
     colour, c's own too: those that overlap P or, for c, share an edge with it), among
     :data:`EJECT_CANDIDATES` placements that would then touch c at a corner. The pieces
     taken off go with their *corner subtrees*: every piece of their colour that no
     longer connects to its start (left in place, such a piece would be an island that
     the search takes for connected); the candidates are scored together on the
     corner-contact graph of the added pieces (:class:`ContactGraph`). The freed pieces and
     the pieces left of their colours are then put back: by greedy play while there are
     more than :data:`EXACT_PIECES` of them, else (or if greedy play raised the cost) exactly, by
     the search's max-score (:func:`solver.backends.search.solve`, the rest frozen,
     :data:`EJECT_TIME` s). The step is kept if the cost did not rise (with probability
     :data:`ACCEPT_WORSE` even if it did).
   * *Window repair* (the rest): every added piece meeting a w x w window next to where a
     colour with pieces left could attach, with their corner subtrees (at most
     :data:`MAX_FREED` pieces), is re-placed exactly (search, place-all,
     :data:`REPAIR_TIME` s): first with every piece left of the colours involved, then
     with one more piece, else alone in another order (a sideways move). The window grows
     after sideways moves and shrinks after improvements and time-outs.
   * After :data:`STAGNATION` steps without a lower cost, a new greedy start.

3. **Monominoes last**: each colour's monomino is held back throughout (it fits any free
   attach square, so it is the easiest piece to place at the end, and with
   ``monomino_last`` it must come last). Once every other piece is placed, the colours'
   monominoes go on distinct free attach squares (a small matching); a colour whose
   monomino finds no square counts as one square left, and repairs go on.

A layout found is legal by construction and goes through the rule checker like any other
(:func:`solver.tasks.solve.solve`). This method can only find layouts: it answers "solved" or
"unknown", never "infeasible", so in ``auto`` it runs beside the complete backends.

What it achieves (seconds to a layout, per puzzle and seed) is in
``research/notes/asymmetric_attempts.md``; ``benchmarks/asymmetric.py`` measures it.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from solver.backends import search
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.race import first_proven
from solver.backends.repair import compiled
from solver.backends.repair.greedy import Masks, greedy, guided, held_back, match_monominoes
from solver.backends.repair.settings import (
    ACCEPT_WORSE,
    CENTRES,
    EJECT,
    EJECT_CANDIDATES,
    EJECT_OWN,
    EJECT_TIME,
    EXACT_PIECES,
    MAX_FREED,
    REPAIR_TIME,
    STAGNATION,
    TABU,
    WINDOW,
)
from solver.backends.tuning import RepairTuning
from solver.backends.warmup import compiling_elsewhere
from solver.core.pieces import MONOMINO, PIECES
from solver.core.position import Placement, Position, pieces_less, sorted_pieces
from solver.core.problem import Problem

# The library of layouts (solver.library: read as board diagrams) is imported where a warm
# start asks it: RepairTuning.warm_start is off by default (docs/warmstart.md).


@dataclass
class RepairState:
    """A layout being repaired: placements added per colour, pieces left per colour
    (held monominoes not included), and its cost (squares left unplaced)."""

    placed: dict[str, list[Placement]]
    left: dict[str, list[str]]
    cost: int = 0
    monos: dict[str, int] | None = None  # the monominoes' squares once all fit


class Repairer:
    """One construct-and-repair run (a thread of :func:`solve`): :meth:`construct`, then
    :meth:`eject` and :meth:`repair` steps (:meth:`run` does it all until a layout, the
    deadline or ``stop``).

    Args:
        problem: the problem (place-all).
        seed: the run's random seed.
        stop: a :class:`threading.Event` (or anything with ``is_set()``) that ends the run.
        deadline: the ``time.perf_counter()`` at which the run ends, or None for none.
        tuning: its settings (default :class:`RepairTuning`).
        target: a warm start to grow towards (guided play), or None.
    """

    def __init__(
        self,
        problem: Problem,
        seed: int,
        stop: Cancel | None,
        deadline: float | None,
        tuning: RepairTuning | None = None,
        target: dict[str, list[Placement]] | None = None,
    ):
        self.problem = problem
        self.target = target  # a warm start to grow towards (guided play), or None
        self.tuning = tuning or RepairTuning()
        self.trace: list[tuple[float, int]] = []  # (seconds, cost) at each change of cost
        self.base = problem.position
        self.colours = problem.colours
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.stop = stop
        self.deadline = deadline
        self.held = {c: held_back(self.base, c) for c in self.colours}
        self.todo = {c: self._non_held(c) for c in self.colours}
        self.window = WINDOW[2]
        self.stats = {
            "restarts": 0,
            "repairs": 0,
            "improved": 0,
            "sideways": 0,
            "timeouts": 0,
            "ejections": 0,
        }
        self.best: RepairState | None = None
        base = Masks(self.base, self.colours)
        self._base_edge = base.edge > 0  # squares sharing an edge with a colour's frozen pieces
        self.tabu: dict[tuple[str, int], int] = {}  # (colour, table row) -> ejection step
        self._start = self._position({c: [] for c in self.colours}, self.todo)

    def _non_held(self, colour: str) -> list[str]:
        left = list(self.base.colour(colour).remaining)
        if self.held[colour]:
            left.remove(MONOMINO)
        return left

    # ---------------------------------------------------------------- state helpers

    def _time_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def _stopped(self) -> bool:
        left = self._time_left()
        return (left is not None and left <= 0) or (self.stop is not None and self.stop.is_set())

    def _position(self, placed: dict[str, list[Placement]], todo: dict[str, list[str]]) -> Position:
        """The base position with ``placed`` added and ``todo`` as the pieces left."""
        colours = []
        for state in self.base.colours:
            if state.name not in placed:
                colours.append(state)
                continue
            colours.append(
                replace(
                    state,
                    placed=state.placed + tuple(placed[state.name]),
                    remaining=sorted_pieces(todo.get(state.name, [])),
                )
            )
        return replace(self.base, colours=tuple(colours))

    def _finish(self, state: RepairState) -> RepairState:
        """Cost of a state: squares left, plus one per held monomino without a square
        (matched only once nothing else is left)."""
        cost = sum(PIECES[p].size for c in self.colours for p in state.left[c])
        need = [c for c in self.colours if self.held[c]]
        if cost == 0 and need:
            masks = Masks(self._position(state.placed, {}), self.colours)
            options = {
                c: set(np.flatnonzero(masks.attach(self.colours.index(c))).tolist()) for c in need
            }
            state.monos = match_monominoes(options)
            cost = len(need) - len(state.monos)
        elif need:
            cost += len(need)
        state.cost = cost
        return state

    # ---------------------------------------------------------------- construct

    def construct(self) -> RepairState:
        """The best of ``tuning.restarts`` greedy layouts (with a warm start, guided plays
        beside as many greedy ones: the best is kept)."""
        plays = [self._greedy] + ([self._guided] if self.target is not None else [])
        best = self._finish(RepairState(*plays[-1](self._start, self.todo)))
        for k in range(len(plays) * self.tuning.restarts - 1):
            if best.cost == 0 or self._stopped():
                break
            state = self._finish(RepairState(*plays[k % len(plays)](self._start, self.todo)))
            if state.cost < best.cost:
                best = state
        self.stats["restarts"] += 1
        return best

    def _guided(
        self, position: Position, todo: dict[str, list[str]]
    ) -> tuple[dict[str, list[Placement]], dict[str, list[str]]]:
        """Guided play of ``todo`` towards the warm start (:func:`greedy.guided`)."""
        assert self.target is not None
        return guided(position, self.colours, todo, self.target, self.rng)

    def _greedy(
        self, position: Position, todo: dict[str, list[str]]
    ) -> tuple[dict[str, list[Placement]], dict[str, list[str]]]:
        """Greedy play of ``todo`` from ``position`` (whose pieces left are ``todo``)."""
        return greedy(position, self.colours, todo, self.rng)

    # ---------------------------------------------------------------- destroy

    def destroy(
        self, state: RepairState
    ) -> tuple[dict[str, list[Placement]], dict[str, list[str]], str]:
        """Free the pieces meeting a window next to where a colour with pieces left could
        attach, and their corner subtrees.

        Returns (kept placements, freed pieces per colour, the chosen colour).
        """
        weights = np.array(
            [
                sum(PIECES[p].size for p in state.left[c])
                + (1 if self.held[c] and state.monos is not None and c not in state.monos else 0)
                for c in self.colours
            ],
            dtype=float,
        )
        target = self.colours[int(self.rng.choice(len(self.colours), p=weights / weights.sum()))]
        i = self.colours.index(target)
        masks = Masks(self._position(state.placed, {}), self.colours)
        spots = np.flatnonzero(masks.attach(i))
        if len(spots) == 0:
            spots = np.flatnonzero(masks.own[i] > 0)
        if len(spots) == 0:
            spots = np.flatnonzero(masks.free)
        board = self.base.board
        half = self.window / 2
        centre = self._roomiest(masks.free, spots, half)
        r0, c0 = divmod(centre, board.cols)
        flat = [(c, p) for c in self.colours for p in state.placed[c]]
        contacts = ContactGraph(self.base, flat)
        while True:
            lo_r, hi_r = r0 - half, r0 + half
            lo_c, hi_c = c0 - half, c0 + half
            hit = sum(
                1 << k
                for k, (_, p) in enumerate(flat)
                if any(lo_r <= s // board.cols < hi_r and lo_c <= s % board.cols < hi_c
                       for s in p.squares)
            )  # fmt: skip
            off = contacts.closure(hit)
            if off.bit_count() <= MAX_FREED or half <= 1:
                break
            half -= 0.5
        kept: dict[str, list[Placement]] = {c: [] for c in self.colours}
        gone: dict[str, list[str]] = {c: [] for c in self.colours}
        for k, (c, p) in enumerate(flat):
            if off >> k & 1:
                gone[c].append(p.piece)
            else:
                kept[c].append(p)
        return kept, gone, target

    def _roomiest(self, free: np.ndarray, spots: np.ndarray, half: float) -> int:
        """Of up to :data:`CENTRES` random spots, the one whose window holds the most free
        squares (the holes a repair can merge into room for a piece)."""
        board = self.base.board
        grid = np.pad(free.reshape(board.rows, board.cols).astype(np.int32), ((1, 0), (1, 0)))
        table = grid.cumsum(axis=0).cumsum(axis=1)  # summed-area table
        picks = self.rng.choice(spots, min(CENTRES, len(spots)), replace=False)
        best, most = int(picks[0]), -1
        for x in picks:
            r, c = divmod(int(x), board.cols)
            r1, r2 = max(0, int(np.ceil(r - half))), min(board.rows, int(np.ceil(r + half)))
            c1, c2 = max(0, int(np.ceil(c - half))), min(board.cols, int(np.ceil(c + half)))
            room = table[r2, c2] - table[r1, c2] - table[r2, c1] + table[r1, c1]
            if room > most:
                best, most = int(x), int(room)
        return best

    # ---------------------------------------------------------------- repair

    def _place(
        self,
        kept: dict[str, list[Placement]],
        todo: dict[str, list[str]],
        seed: int,
        limit: float = 0.0,
    ) -> tuple[str, dict[str, list[Placement]] | None]:
        """Place every piece of ``todo`` exactly, ``kept`` frozen; (status, layout)."""
        colours = tuple(c for c in self.colours if todo.get(c))
        if not colours:
            return "solved", {}
        if compiling_elsewhere():
            return "unknown", None  # first run: no exact repairs until the kernel is built
        position = self._position(kept, todo)
        limit = limit or REPAIR_TIME
        left = self._time_left()
        if left is not None:
            limit = max(0.01, min(limit, left))
        result = search.solve(
            Problem(position, colours, "place-all"),
            SolveOptions(backend="search", time_limit=limit, workers=1, seed=seed),
            self.stop,
        )
        return result.status, result.layout

    def repair(self, state: RepairState) -> RepairState:
        """One destroy-and-repair step; returns the new state (or ``state`` unchanged)."""
        kept, gone, target = self.destroy(state)
        self.stats["repairs"] += 1
        involved = [c for c in self.colours if gone[c] or c == target]
        tries = []
        full = {c: gone[c] + (state.left[c] if c in involved else []) for c in self.colours}
        tries.append(full)
        if state.left[target] and any(state.left[c] for c in involved if c != target):
            piece = state.left[target][int(self.rng.integers(len(state.left[target])))]
            one = {c: list(gone[c]) for c in self.colours}
            one[target].append(piece)
            tries.append(one)
        if any(gone.values()):
            tries.append({c: list(gone[c]) for c in self.colours})
        timed_out = False
        for todo in tries:
            seed = int(self.rng.integers(1, 1 << 30))
            status, layout = self._place(kept, todo, seed)
            if status == "unknown":
                timed_out = True
            if status != "solved" or layout is None:
                continue
            placed = {c: kept[c] + layout.get(c, []) for c in self.colours}
            left = {
                c: pieces_less(state.left[c], pieces_less(todo[c], gone[c])) for c in self.colours
            }
            new = self._finish(RepairState(placed, left))
            if new.cost < state.cost:
                self.stats["improved"] += 1
                self.window = max(WINDOW[0], self.window - 1)
            else:
                self.stats["sideways"] += 1
                self.window = min(WINDOW[1], self.window + 1)
            if new.cost <= state.cost:
                return new
        if timed_out:
            self.stats["timeouts"] += 1
            self.window = max(WINDOW[0], self.window - 1)
        return state

    # ---------------------------------------------------------------- eject

    def eject(self, state: RepairState) -> RepairState:
        """Place a piece left of a colour where it overlaps the fewest squares of other
        colours' added pieces, take those pieces off (with the corner subtrees that lose
        their connection), then put back as many squares of them as possible exactly
        (the search's max-score, the rest frozen). Accepted if the cost does not rise."""
        weights = np.array(
            [sum(PIECES[p].size for p in state.left[c]) for c in self.colours], dtype=float
        )
        if weights.sum() == 0:
            return self.repair(state)
        i = int(self.rng.choice(len(self.colours), p=weights / weights.sum()))
        c = self.colours[i]
        piece = state.left[c][int(self.rng.integers(len(state.left[c])))]
        masks = Masks(self._position(state.placed, {}), self.colours)
        geo = masks.geo
        rows = geo.rows_of[PIECES[piece].index]
        sq = geo.table.squares[rows]
        owner = np.full(self.base.board.size + 1, -1, dtype=np.int64)
        flat: list[tuple[str, Placement]] = []
        for d in self.colours:
            if d == c and not EJECT_OWN:
                continue
            for p in state.placed[d]:
                owner[list(p.squares)] = len(flat)
                flat.append((d, p))
        hard = ~masks.free.copy()
        hard[owner[:-1] >= 0] = False  # added pieces may be ejected
        if not EJECT_OWN:
            hard |= masks.edge[i] > 0
        else:
            hard |= self._base_edge[i]  # the colour's pieces in the position stay
        hard = np.append(hard, False)
        ok = ~hard[sq].any(axis=1)
        if not EJECT_OWN:
            if masks.own[i].any():
                touch = np.append(masks.corner[i] > 0, False)
            else:
                touch = np.zeros(len(hard), dtype=bool)
                touch[masks.start[i]] = True
            ok &= touch[sq].any(axis=1)
        cands = rows[ok]
        if len(cands) == 0:
            return self.repair(state)
        if len(cands) > EJECT_CANDIDATES:
            cands = self.rng.choice(cands, EJECT_CANDIDATES, replace=False)
        own_owner = np.full(len(owner), -1, dtype=np.int64)
        own_owner[:-1] = np.where(masks.own[i] > 0, owner[:-1], -1)
        edge_nb = geo.edge_nb
        contacts = ContactGraph(self.base, flat)
        self.stats["ejections"] += 1
        step = self.stats["ejections"]
        # the pieces each candidate takes off: those it overlaps and, of its own colour,
        # those it shares an edge with (as bit masks over ``flat``)
        squares = geo.table.squares[cands]  # (n, 5), -1 padded: owner[-1] is -1
        hits = np.concatenate(
            [owner[squares], own_owner[edge_nb[squares].reshape(len(cands), -1)]], axis=1
        )
        # (64 pieces to a word; a board has at most 6 colours, 126 pieces)
        bit = np.left_shift(np.uint64(1), (hits % 64).astype(np.uint64))
        masks_of = [0] * len(cands)
        for w in range((len(flat) + 63) // 64):
            word = np.where(hits // 64 == w, bit, np.uint64(0))  # (-1: word -1, none)
            for k, value in enumerate(np.bitwise_or.reduce(word, axis=1).tolist()):
                masks_of[k] |= value << (64 * w)
        noise = self.rng.random(len(cands))
        lower = hit_squares(hits, np.array(contacts.sizes, dtype=np.int64)) + noise
        best = None

        def exact(k: int) -> float:
            return contacts.squares_off(masks_of[k]) + float(noise[k])

        for k in cheapest_first(lower, exact):
            row = int(cands[k])
            if step - self.tabu.get((c, row), -TABU) < TABU:
                continue  # just taken off from here: no cycling back
            mask = contacts.closure(masks_of[k])
            s = squares[k]
            if EJECT_OWN and not contacts.touches(c, mask, s[s >= 0].tolist()):
                continue
            best = (row, mask)
            break
        if best is None:
            return self.repair(state)
        row, mask = best
        gone = {flat[k] for k in range(len(flat)) if mask >> k & 1}
        s = geo.table.squares[row]
        new_piece = Placement(piece, frozenset(int(x) for x in s[s >= 0]))
        kept = {d: [p for p in state.placed[d] if (d, p) not in gone] for d in self.colours}
        kept[c] = kept[c] + [new_piece]
        freed = {d: [p.piece for e, p in gone if e == d] for d in self.colours}
        left = {d: list(state.left[d]) for d in self.colours}
        left[c].remove(piece)
        for d, p in gone:
            self.tabu[(d, self._row(p))] = step
        todo = {d: freed[d] + left[d] for d in self.colours}
        if sum(map(len, todo.values())) > EXACT_PIECES:
            # far from done: put pieces back by greedy play (milliseconds), not exactly
            layout, unplaced = self._greedy(self._position(kept, todo), todo)
            placed = {d: kept[d] + layout[d] for d in self.colours}
            new = self._finish(RepairState(placed, unplaced))
            if new.cost <= state.cost or self.rng.random() < ACCEPT_WORSE:
                if new.cost < state.cost:
                    self.stats["improved"] += 1
                return new
            todo = {d: freed[d] + (left[d] if freed[d] else []) for d in self.colours}
            if sum(map(len, todo.values())) > EXACT_PIECES:
                todo = dict(freed)
        colours = tuple(d for d in self.colours if todo[d])
        layout = {}
        if colours and compiling_elsewhere():
            return state  # first run: no exact repairs until the kernel is built
        if colours:
            position = replace(self._position(kept, todo), bonus=False)
            limit = EJECT_TIME
            tl = self._time_left()
            if tl is not None:
                limit = max(0.01, min(limit, tl))
            result = search.solve(
                Problem(position, colours, "max-score"),
                SolveOptions(
                    backend="search",
                    time_limit=limit,
                    workers=1,
                    seed=int(self.rng.integers(1, 1 << 30)),
                ),
                self.stop,
            )
            if result.layout is None:
                return state
            layout = result.layout
        placed = {d: kept[d] + layout.get(d, []) for d in self.colours}
        for d in self.colours:
            rest = list(todo[d])
            for p in layout.get(d, []):
                rest.remove(p.piece)
            left[d] = rest + pieces_less(left[d], pieces_less(todo[d], freed[d]))
        new = self._finish(RepairState(placed, left))
        if new.cost <= state.cost or self.rng.random() < ACCEPT_WORSE:
            if new.cost < state.cost:
                self.stats["improved"] += 1
            return new
        return state

    def _row(self, p: Placement) -> int:
        """The row of the empty board's placement table that ``p`` is."""
        geo = Masks.geometry_of(self.base.board)
        rows = geo.rows_of[PIECES[p.piece].index]
        first = min(p.squares)
        hits = rows[geo.table.squares[rows, 0] == first]
        for r in hits:
            if frozenset(int(x) for x in geo.table.squares[r] if x >= 0) == p.squares:
                return int(r)
        return -1

    def run(self) -> RepairState | None:
        """Construct and repair until the cost is 0, the time is up or ``stop`` is set;
        the state with cost 0, or None."""
        self.t0 = time.perf_counter()
        state = self.construct()
        self.best = state
        low, since = state.cost, 0  # the lowest cost since the last start; steps since
        while state.cost > 0 and not self._stopped():
            before = state.cost
            state = self.eject(state) if self.rng.random() < EJECT else self.repair(state)
            if state.cost < self.best.cost:
                self.best = state
            if state.cost != before:
                self.trace.append((round(time.perf_counter() - self.t0, 2), state.cost))
            low, since = (state.cost, 0) if state.cost < low else (low, since + 1)
            if since >= STAGNATION:
                state = self.construct()
                low, since = state.cost, 0
        return state if state.cost == 0 else None

    def partial(self, state: RepairState) -> dict[str, list[Placement]]:
        """A state as a partial layout: its placements, and the held monominoes on
        distinct free attach squares where they fit (every piece legal and connected)."""
        if state.monos is not None:
            return self.layout(state)
        out = {c: list(state.placed[c]) for c in self.colours}
        need = [c for c in self.colours if self.held[c]]
        masks = Masks(self._position(state.placed, {}), self.colours)
        options = {
            c: set(np.flatnonzero(masks.attach(self.colours.index(c))).tolist()) for c in need
        }
        for c, s in match_monominoes(options).items():
            out[c].append(Placement(MONOMINO, frozenset({s})))
        return out

    def layout(self, state: RepairState) -> dict[str, list[Placement]]:
        out = {c: list(state.placed[c]) for c in self.colours}
        for c, s in (state.monos or {}).items():
            out[c].append(Placement(MONOMINO, frozenset({s})))
        return out


class ContactGraph:
    """The corner-contact graph of the added pieces ``flat`` (colour, placement) of one
    state, as bit masks over their indices in ``flat``: which pieces of a colour touch
    which at a corner, and which touch the colour's start square or its pieces in the base
    position (the roots). Built once per ejection, it answers the ejection candidates'
    many "what else comes off" questions by a walk over at most 21 pieces (walking square
    by square took 80 % of the repair search's time)."""

    def __init__(self, base: Position, flat: list[tuple[str, Placement]]) -> None:
        corner = base.board.corner_neighbours
        self.corner = corner
        self.sizes = [PIECES[p.piece].size for _, p in flat]
        owner = {(d, s): k for k, (d, p) in enumerate(flat) for s in p.squares}
        self.owner = owner
        self.members: dict[str, int] = {}  # colour -> mask of its pieces
        self.roots: dict[str, list[int]] = {}
        self.adj: list[list[int]] = []
        self.base_squares = {c.name: c.squares for c in base.colours}
        self.start = {c.name: c.start for c in base.colours}
        for k, (d, p) in enumerate(flat):
            ring = {x for s in p.squares for x in corner[s]}
            self.adj.append(sorted({owner[(d, x)] for x in ring if (d, x) in owner}))
            self.members[d] = self.members.get(d, 0) | 1 << k
            # with pieces on the board, new ones must touch them: the start is no root
            start = None if self.base_squares[d] else self.start[d]
            if (start is not None and start in p.squares) or not ring.isdisjoint(
                self.base_squares[d]
            ):
                self.roots.setdefault(d, []).append(k)
        self.known: dict[int, int] = {}  # closures asked before
        self.known_off: dict[int, int] = {}
        self.known_cut: dict[int, int] = {}

    def closure(self, hit: int) -> int:
        """The mask of the pieces ``hit`` (a mask) plus those of their colours that lose
        their connection to the colour's start (or its pieces in the base position) once
        ``hit`` is off."""
        gone = self.known.get(hit)
        if gone is None:
            gone = hit
            for d, members in self.members.items():
                removed = hit & members
                if removed:
                    gone |= self._cut_off(d, members, removed)
            self.known[hit] = gone
        return gone

    def _cut_off(self, d: str, members: int, removed: int) -> int:
        """The pieces of colour ``d`` (mask ``members``) cut off from its roots once the
        pieces ``removed`` are off (colours own disjoint bits: ``removed`` names ``d``)."""
        cut = self.known_cut.get(removed)
        if cut is None:
            seen = 0
            queue = [k for k in self.roots.get(d, []) if not removed >> k & 1]
            for k in queue:
                seen |= 1 << k
            while queue:
                for j in self.adj[queue.pop()]:
                    if not (seen | removed) >> j & 1:
                        seen |= 1 << j
                        queue.append(j)
            cut = self.known_cut[removed] = members & ~seen & ~removed
        return cut

    def squares_off(self, hit: int) -> int:
        """The squares that come off with the pieces in the mask ``hit``: theirs and
        those of the pieces :meth:`closure` adds."""
        off = self.known_off.get(hit)
        if off is None:
            gone, off = self.closure(hit), 0
            while gone:
                low = gone & -gone
                off += self.sizes[low.bit_length() - 1]
                gone ^= low
            self.known_off[hit] = off
        return off

    def touches(self, c: str, gone: int, squares: list[int]) -> bool:
        """Whether ``squares`` would connect to colour ``c`` once the pieces in the mask
        ``gone`` are taken off: a corner contact with its base squares or kept pieces, or
        its start square while it has no square left."""
        base = self.base_squares[c]
        if not base and not self.members.get(c, 0) & ~gone:
            return self.start[c] in squares
        for s in squares:
            for x in self.corner[s]:
                if x in base:
                    return True
                k = self.owner.get((c, x))
                if k is not None and not gone >> k & 1:
                    return True
        return False


def hit_squares(hits: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Per row of ``hits`` (shape (rows, k): piece numbers, indices into ``sizes``, -1 for
    none, repeats allowed), the squares of the distinct pieces it names (``sizes``: squares
    per piece): shape (rows,). A lower bound of what an ejection takes
    off (the pieces cut off from their roots come on top)."""
    ordered = np.sort(hits, axis=1)
    first = np.ones(ordered.shape, dtype=bool)
    first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    counted = first & (ordered >= 0)
    padded = np.append(sizes, 0)  # -1 (no piece) reads the 0 at the end, even with no pieces
    squares: np.ndarray = np.where(counted, padded[ordered], 0).sum(axis=1)
    return squares


def cheapest_first(lower: np.ndarray, exact: Callable[[int], float]) -> Iterator[int]:
    """The indices in increasing order of ``exact(k)``, given ``lower[k] <= exact(k)``:
    each exact cost is computed only when its lower bound comes up (ties keep the order of
    the indices), so the first few answers cost a few evaluations, not one per index."""
    heap = [(float(v), k, False) for k, v in enumerate(lower.tolist())]
    heapq.heapify(heap)
    while heap:
        cost, k, done = heapq.heappop(heap)
        if done:
            yield k
        else:
            heapq.heappush(heap, (exact(k), k, True))


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Construct and repair a "place-all" layout; ``options.workers`` independent runs
    (seeds ``seed``, ``seed + 1``, ...) in threads, the first layout stops the others.
    With ``options.tuning.repair.warm_start``, the runs start from the library layout
    that fits the position best (:func:`solver.library.layouts.best_start`), as
    :func:`solve_from` does.

    Without a warm start the runs are the compiled repair search's
    (:func:`solver.backends.repair.compiled.solve`, the same algorithm on an incremental
    state) once its kernel is ready (:func:`solver.backends.repair.compiled.kernel_ready`) and
    ``options.tuning.repair.compiled`` is on; else this module's. On a grid other than
    squares (Trigon) always the compiled search's, which reads the board's geometry.

    Returns:
        "solved" with a layout, or "unknown" (time limit, ``cancel``, or a goal other
        than place-all or with card goals: ``stats["unknown_reason"]``) with the best
        partial layout found. Never "infeasible".
    """
    place_all = problem.goal == "place-all" and not problem.has_card_goals
    if not problem.position.board.square_grid and place_all:
        # only the compiled kernel reads the geometry (this module's search and the
        # layout library assume squares): compiled in process if not cached yet
        return compiled.solve(problem, options, cancel)
    start = None
    if options.tuning.repair.warm_start and problem.goal == "place-all":
        from solver.library.layouts import best_start

        start = best_start(problem.position, problem.colours)
    if start is None and problem.goal == "place-all" and not problem.has_card_goals:
        if options.tuning.repair.compiled and compiled.kernel_ready():
            return compiled.solve(problem, options, cancel)
    return solve_from(problem, start, options, cancel)


def solve_from(
    problem: Problem,
    start: dict[str, list[Placement]] | None,
    options: SolveOptions = SolveOptions(),
    cancel: Cancel | None = None,
) -> BackendResult:
    """:func:`solve` from a given start layout: each new start is the best (fewest
    squares left) of guided plays towards ``start`` (:func:`solver.backends.repair.greedy.guided`:
    the start's placements that still fit are played as soon as they connect, bridging
    pieces reconnect what the position cut off) and as many plain greedy plays; then
    repair as usual.

    Args:
        problem: as for :func:`solve`.
        start: colour -> placements (e.g. a library layout laid over the position,
            :func:`solver.library.layouts.best_start`, or the layout that answered an earlier
            position of the same game); placements that overlap the position or share an
            edge with their colour, or of pieces the colour no longer has, are skipped.
            None: plain greedy starts, exactly as :func:`solve` without a warm start.
        options, cancel: as for :func:`solve`.

    Returns:
        as :func:`solve`; ``stats["warm_start"]`` the squares of the start that fit.
    """
    started = time.perf_counter()
    if problem.goal != "place-all" or problem.has_card_goals:
        reason = "repair only places all pieces (no stars to cover, no groups to connect)"
        return BackendResult("unknown", None, None, {"unknown_reason": reason}, "repair")
    deadline = None if options.time_limit is None else started + options.time_limit
    tuning = options.tuning.repair
    runs = [
        Repairer(problem, (options.seed + k) % 2**31, cancel, deadline, tuning, start)
        for k in range(max(1, options.workers))
    ]

    def runner(run: Repairer) -> Callable[[Cancel], tuple[RepairState | None]]:
        # (a one-tuple: the race keeps results in entry order and drops only None)
        def go(stop: Cancel) -> tuple[RepairState | None]:
            run.stop = stop
            return (run.run(),)

        return go

    states, winner = first_proven([runner(r) for r in runs], lambda s: s[0] is not None, cancel)
    found = [] if winner is None else [(runs[winner], states[winner][0])]
    stats = {
        "seconds": round(time.perf_counter() - started, 3),
        "warm_start": sum(len(p.squares) for v in (start or {}).values() for p in v),
        "best_left": min(r.best.cost for r in runs if r.best is not None)
        if any(r.best is not None for r in runs)
        else None,
        **{k: sum(r.stats.get(k, 0) for r in runs) for k in runs[0].stats},
    }
    if found:
        run, state = found[0]
        assert state is not None
        stats["seed"] = run.seed
        return BackendResult("solved", run.layout(state), None, stats, "repair")
    bests = [r for r in runs if r.best is not None]
    partial = None
    if bests:
        closest = min(bests, key=lambda r: r.best.cost if r.best is not None else 0)
        assert closest.best is not None
        partial = closest.partial(closest.best)
    return BackendResult("unknown", None, None, stats, "repair", partial=partial)
