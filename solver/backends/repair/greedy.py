"""Randomised greedy play: a near-complete many-colour layout in milliseconds.

The colours play in turn, as a solo player would; each turn a colour places one of its
largest remaining pieces that has a legal placement, the one that scores best on

    (new attach squares it gives its own colour) - BLOCK * (attach squares of the other
    played colours it covers) + NOISE * Gumbel noise,

so that a colour grows outward while leaving the others room to grow; the noise makes
restarts differ. A colour with no legal placement stops (squares only ever get taken, so
it never gets one back). The layout is legal by construction (every piece touches its
colour at a corner and shares no edge with it), and each colour's pieces are connected to
its start square or its pieces already on the board.

This is the construction step of :mod:`solver.backends.repair.repairer`, which then repairs what is
left unplaced. Pieces it is not asked to place (e.g. monominoes held back for last) are
left alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.core.board import Board, neighbour_table
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES
from solver.core.placements import PlacementTable, corner_squares, empty_board_placements
from solver.core.position import Placement, Position

#: weight of the other colours' attach squares a placement covers
BLOCK = 1.0
#: scale of the Gumbel noise added to each placement's score
NOISE = 0.3
#: weight, in :func:`guided` play, of each target square a bridging piece touches at a
#: corner (or covers: then taken off)
GUIDE = 0.5
#: in :func:`guided` play, bridge with pieces no live target placement needs first (off:
#: on the ladder and simulated games, best of 8 plays, 703 squares left in all without,
#: 777 with; plain greedy play 686; benchmarks/warm_start.py, docs/warmstart.md)
RESERVE = False


@dataclass(frozen=True, eq=False)
class Geometry:
    """Tables of one board size.

    Attributes:
        table: every placement on the empty board (:func:`empty_board_placements`).
        corner: shape (P, 20): per placement the squares sharing a corner but no edge with
            it, padded with -1 (:func:`solver.core.placements.corner_squares`).
        edge_nb, corner_nb: shape (N + 1, 4): edge and corner neighbours of each square,
            padded with -1, with a last row of padding.
        rows_of: per piece index, the table rows of that piece.
    """

    table: PlacementTable
    corner: np.ndarray
    edge_nb: np.ndarray
    corner_nb: np.ndarray
    rows_of: tuple[np.ndarray, ...]


@lru_cache(maxsize=8)
def geometry(rows: int, cols: int) -> Geometry:
    """The :class:`Geometry` of a rows x cols board (cached)."""
    board = Board(rows, cols)
    table = empty_board_placements(rows, cols)
    rows_of = tuple(np.flatnonzero(table.piece == i) for i in range(len(PIECE_NAMES)))
    return Geometry(
        table,
        corner_squares(table, board),
        neighbour_table(board.edge_neighbours, 4, pad_row=True),
        neighbour_table(board.corner_neighbours, 4, pad_row=True),
        rows_of,
    )


class Masks:
    """Per-colour boolean masks of a board, updated as pieces are placed or removed.

    Attributes:
        free: shape (N,): not blocked and not covered.
        own, edge, corner: shape (C, N): covered by the colour; sharing an edge with it;
            sharing a corner with it.
        start: per colour its start square or -1.
    """

    def __init__(self, position: Position, colours: tuple[str, ...]):
        board = position.board
        self.geo = geometry(board.rows, board.cols)
        n = board.size
        self.colours = colours
        self.free = ~board.blocked_mask.copy()
        self.free[list(position.occupied)] = False
        self.own = np.zeros((len(colours), n), dtype=np.int16)
        self.edge = np.zeros((len(colours), n), dtype=np.int16)
        self.corner = np.zeros((len(colours), n), dtype=np.int16)
        self.start = np.full(len(colours), -1, dtype=np.int64)
        for i, c in enumerate(colours):
            state = position.colour(c)
            self.start[i] = -1 if state.start is None else state.start
            if state.squares:
                self._mark(i, np.array(sorted(state.squares)), 1)

    @staticmethod
    def geometry_of(board: Board) -> Geometry:
        """The :class:`Geometry` of a board's size."""
        return geometry(board.rows, board.cols)

    def _mark(self, i: int, squares: np.ndarray, sign: int) -> None:
        self.own[i, squares] += sign
        e = self.geo.edge_nb[squares].ravel()
        np.add.at(self.edge[i], e[e >= 0], sign)
        d = self.geo.corner_nb[squares].ravel()
        np.add.at(self.corner[i], d[d >= 0], sign)

    def place(self, i: int, squares: np.ndarray) -> None:
        """Colour ``i`` covers ``squares`` (no rule checked here)."""
        self.free[squares] = False
        self._mark(i, squares, 1)

    def remove(self, i: int, squares: np.ndarray) -> None:
        """Colour ``i`` no longer covers ``squares``."""
        self.free[squares] = True
        self._mark(i, squares, -1)

    def allowed(self, i: int) -> np.ndarray:
        """Squares colour ``i`` may cover: free and sharing no edge with it."""
        return self.free & (self.edge[i] == 0)

    def attach(self, i: int) -> np.ndarray:
        """Allowed squares where colour ``i``'s next piece may attach: sharing a corner with
        it, or its start square while it covers none."""
        allowed = self.allowed(i)
        if self.own[i].any():
            return allowed & (self.corner[i] > 0)
        out = np.zeros_like(allowed)
        s = self.start[i]
        if s >= 0 and allowed[s]:
            out[s] = True
        return out

    def legal_rows(self, i: int, pieces: list[int]) -> np.ndarray:
        """Table rows of the given piece indices that colour ``i`` may legally play now."""
        if not pieces:
            return np.zeros(0, dtype=np.int64)
        rows = np.concatenate([self.geo.rows_of[p] for p in pieces])
        sq = self.geo.table.squares[rows]
        allowed = np.append(self.allowed(i), True)
        attach = np.append(self.attach(i), False)
        ok = allowed[sq].all(axis=1) & attach[sq].any(axis=1)
        return rows[ok]


def greedy(
    position: Position,
    colours: tuple[str, ...],
    todo: dict[str, list[str]],
    rng: np.random.Generator,
    masks: Masks | None = None,
) -> tuple[dict[str, list[Placement]], dict[str, list[str]]]:
    """Play the pieces ``todo[c]`` of each colour by randomised greedy turns.

    Args:
        position: the position to play from (its pieces stay).
        colours: the colours that play, in turn order.
        todo: colour -> piece names to place.
        rng: the random generator (noise on the placement scores).
        masks: the position's :class:`Masks` for ``colours``, if already built (updated in
            place).

    Returns:
        (placed, left): colour -> placements made, and colour -> pieces not placed.
    """
    masks = Masks(position, colours) if masks is None else masks
    geo = masks.geo
    left = {c: sorted(todo.get(c, []), key=lambda p: -PIECES[p].size) for c in colours}
    placed: dict[str, list[Placement]] = {c: [] for c in colours}
    active = [i for i, c in enumerate(colours) if left[c]]
    while active:
        for i in list(active):
            c = colours[i]
            row = _choose(masks, i, left[c], rng)
            if row < 0:
                active.remove(i)
                continue
            sq = geo.table.squares[row]
            sq = sq[sq >= 0]
            masks.place(i, sq)
            piece = PIECE_NAMES[geo.table.piece[row]]
            left[c].remove(piece)
            placed[c].append(Placement(piece, frozenset(int(s) for s in sq)))
            if not left[c]:
                active.remove(i)
    return placed, left


def _choose(
    masks: Masks,
    i: int,
    left: list[str],
    rng: np.random.Generator,
    guide: np.ndarray | None = None,
) -> int:
    """The row colour ``i`` plays: the best-scoring legal placement of its largest pieces
    that have one, or -1 if none of ``left`` fits. ``guide`` (shape (2, N + 1), last
    column 0), if given, adds :data:`GUIDE` per corner square of the placement in
    ``guide[0]`` (squares of the colour's target pieces: touching them connects them)
    and takes it off per square covered in ``guide[1]`` (target pieces of any colour)."""
    geo = masks.geo
    by_size: dict[int, list[int]] = {}
    for p in dict.fromkeys(left):
        by_size.setdefault(PIECES[p].size, []).append(PIECES[p].index)
    for size in sorted(by_size, reverse=True):
        rows = masks.legal_rows(i, by_size[size])
        if len(rows) == 0:
            continue
        allowed = np.append(masks.allowed(i) & (masks.corner[i] == 0), False)
        gain = allowed[geo.corner[rows]].sum(axis=1)
        others = np.zeros(len(masks.free) + 1, dtype=np.int64)
        for j in range(len(masks.colours)):
            if j != i:
                others[:-1] += masks.attach(j)
        loss = others[geo.table.squares[rows]].sum(axis=1)
        score = gain - BLOCK * loss + NOISE * rng.gumbel(size=len(rows))
        if guide is not None:
            score += GUIDE * guide[0][geo.corner[rows]].sum(axis=1)
            score -= GUIDE * guide[1][geo.table.squares[rows]].sum(axis=1)
        return int(rows[int(np.argmax(score))])
    return -1


def guided(
    position: Position,
    colours: tuple[str, ...],
    todo: dict[str, list[str]],
    target: dict[str, list[Placement]],
    rng: np.random.Generator,
) -> tuple[dict[str, list[Placement]], dict[str, list[str]]]:
    """Greedy play towards a target layout (a warm start: a library layout laid over the
    position, :mod:`solver.library`, or a layout carried from an earlier position).

    The colours play in turn; each turn a colour places the largest of its target
    placements that is legal now (it touches the colour at a corner, shares no edge with
    it, covers no taken square), else a bridging piece by greedy play (:func:`_choose`)
    among the pieces no live target placement needs (then any piece), scored up for
    touching the colour's live target squares at a corner (it reconnects target pieces
    the position cut off) and down for covering any colour's live target squares. Legal by
    construction, as :func:`greedy`.

    Args:
        position, colours, todo, rng: as for :func:`greedy`.
        target: colour -> placements to grow towards (each of a piece in ``todo``, not
            necessarily connected; ones that overlap or no longer fit are skipped).

    Returns:
        (placed, left) as for :func:`greedy`.
    """
    masks = Masks(position, colours)
    geo = masks.geo
    n = len(masks.free)
    left = {c: sorted(todo.get(c, []), key=lambda p: -PIECES[p].size) for c in colours}
    live = {
        c: [(p, np.array(sorted(p.squares))) for p in target.get(c, []) if p.piece in left[c]]
        for c in colours
    }
    placed: dict[str, list[Placement]] = {c: [] for c in colours}
    active = [i for i, c in enumerate(colours) if left[c]]
    while active:
        for i in list(active):
            c = colours[i]
            allowed = masks.allowed(i)
            attach = masks.attach(i)
            live[c] = [(p, sq) for p, sq in live[c] if p.piece in left[c] and allowed[sq].all()]
            ready = [k for k, (_, sq) in enumerate(live[c]) if attach[sq].any()]
            if ready:
                k = max(ready, key=lambda k: (len(live[c][k][0].squares), rng.random()))
                p, sq = live[c].pop(k)
            else:
                guide = np.zeros((2, n + 1), dtype=np.int64)
                for d in colours:
                    for _, qs in live[d]:
                        guide[1, qs] = 1
                        if d == c:
                            guide[0, qs] = 1
                needed = {q.piece for q, _ in live[c]}  # pieces a live target needs
                spare = [x for x in left[c] if x not in needed] if RESERVE else []
                row = _choose(masks, i, spare, rng, guide) if spare else -1
                if row < 0:
                    row = _choose(masks, i, left[c], rng, guide)
                if row < 0:
                    active.remove(i)
                    continue
                sq = geo.table.squares[row]
                sq = sq[sq >= 0]
                p = Placement(PIECE_NAMES[geo.table.piece[row]], frozenset(int(s) for s in sq))
            masks.place(i, sq)
            left[c].remove(p.piece)
            placed[c].append(p)
            if not left[c]:
                active.remove(i)
    return placed, left


def held_back(position: Position, colour: str) -> bool:
    """Whether greedy play holds a colour's monomino back for the end: it has one, and
    other pieces too (the monomino fits any free attach square, so it is the easiest
    piece to place last, and with monomino-last it must come last)."""
    left = position.colour(colour).remaining
    return MONOMINO in left and len(left) > 1


def match_monominoes(options: dict[str, set[int]]) -> dict[str, int]:
    """A largest assignment of distinct squares to colours, each from its options
    (augmenting paths; a handful of colours): colour -> square of its monomino."""
    owner: dict[int, str] = {}

    def augment(c: str, seen: set[int]) -> bool:
        for s in options[c]:
            if s in seen:
                continue
            seen.add(s)
            if s not in owner or augment(owner[s], seen):
                owner[s] = c
                return True
        return False

    for c in options:
        augment(c, set())
    return {c: s for s, c in owner.items()}


def complete(
    position: Position,
    colours: tuple[str, ...],
    rng: np.random.Generator,
    plays: int,
    seconds: float,
) -> dict[str, list[Placement]] | None:
    """Greedy plays that place every remaining piece of ``colours``: each monomino held
    back (:func:`held_back`) goes last on its own attach square. Stops after ``plays``
    plays or ``seconds`` (at least one play).

    Returns:
        colour -> placements added (every piece), or None if no play placed them all.
    """
    ends = time.perf_counter() + seconds
    held = [c for c in colours if held_back(position, c)]
    todo = {c: list(position.colour(c).remaining) for c in colours}
    for c in held:
        todo[c].remove(MONOMINO)  # (one of them: Junior has two)
    for _ in range(max(1, plays)):
        masks = Masks(position, colours)
        placed, left = greedy(position, colours, todo, rng, masks)
        if not any(left.values()):
            options = {
                c: set(np.flatnonzero(masks.attach(colours.index(c))).tolist()) for c in held
            }
            monos = match_monominoes(options)
            if len(monos) == len(held):
                for c, s in monos.items():
                    placed[c].append(Placement(MONOMINO, frozenset({s})))
                return placed
        if time.perf_counter() >= ends:
            break
    return None


def closest(
    position: Position, colours: tuple[str, ...], rng: np.random.Generator, seconds: float
) -> dict[str, list[Placement]]:
    """The greedy play (at least one, for about ``seconds``) that leaves the fewest squares
    of ``colours`` unplaced, each held-back monomino (:func:`held_back`) put last on an
    attach square where one is free: colour -> placements added (a partial layout, legal
    by construction)."""
    ends = time.perf_counter() + seconds
    held = [c for c in colours if held_back(position, c)]
    todo = {c: list(position.colour(c).remaining) for c in colours}
    for c in held:
        todo[c].remove(MONOMINO)
    best: dict[str, list[Placement]] = {c: [] for c in colours}
    most = -1
    while True:
        masks = Masks(position, colours)
        placed, _ = greedy(position, colours, todo, rng, masks)
        options = {c: set(np.flatnonzero(masks.attach(colours.index(c))).tolist()) for c in held}
        for c, s in match_monominoes(options).items():
            placed[c].append(Placement(MONOMINO, frozenset({s})))
        squares = sum(len(p.squares) for c in colours for p in placed[c])
        if squares > most:
            best, most = placed, squares
        if time.perf_counter() >= ends:
            return best
