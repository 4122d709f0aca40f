"""Making Blokus Puzzle cards: candidate puzzles with exactly one solution up to symmetry.

A card (Mattel's Blokus Puzzle, 2018) is one colour, the piece(s) of that colour printed
on the board, and the pieces to place; its goal is one of :data:`KINDS`:

* "avoid" (Avoid the Xs): place every piece without covering an X (a blocked square);
* "cover" (Cover the Stars): the pieces together cover 1-3 stars;
* "connect" (Connect the Blocks): the pieces join the two printed pieces into one group.

Black squares (blocked, ``#``) may be on any card: the pieces touch them freely but never
cover them. A candidate is made from a seed in four steps:

1. pieces: the pieces to place and the printed one(s), distinct, drawn from the 21;
2. a planted solution: the printed piece at random, then a random legal playout of every
   piece to place (for "connect", the second printed piece then touches the playout's
   pieces and not the first printed piece, so only the placed pieces join them);
3. every solution of the card so far is listed (:func:`solver.backends.search.counting.layouts`);
   stars (for "cover", 1 to 3 of them, at random, chosen greedily: the square of the
   planted solution that the fewest other solutions cover, while one rules any out) and
   then Xs (greedily: the free square outside
   the planted solution that the most other solutions cover) are added until the planted
   solution is the only one; then each X that is not needed is taken away again;
4. the card is proved unique by :func:`solver.backends.search.counting.count` up to symmetry and
   rated (:func:`solver.tasks.rating.rate`).

A candidate whose planted solution cannot be made unique (another solution covers the
same squares, or there are too many solutions to list) is dropped and the next seed
tried; :class:`Card` says how many were tried.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from solver.backends.search import count, layouts
from solver.core.board import Board
from solver.core.movegen import legal_placements
from solver.core.pieces import PIECE_NAMES
from solver.core.placements import empty_board_placements
from solver.core.position import ColourState, Layout, Placement, Position, sorted_pieces
from solver.core.problem import Problem
from solver.core.rules import corner_touches
from solver.errors import InputError
from solver.tasks.rating import Rating, rate

#: The card goals, as ``generate --goal`` names them.
KINDS: tuple[str, ...] = ("avoid", "cover", "connect")

#: The titles of the three card types in the game.
TITLES = {"avoid": "Avoid the Xs", "cover": "Cover the Stars", "connect": "Connect the Blocks"}

#: Solutions listed at most at a time; with more, Xs go first where most of those listed
#: go (at most :data:`MAX_FIRST_XS` of them, else the candidate is dropped).
MAX_SOLUTIONS = 5_000
MAX_FIRST_XS = 12

#: Random playouts tried for a planted solution before the candidate is dropped.
PLANT_TRIES = 20

#: Candidates tried for one card before giving up.
MAX_CANDIDATES = 500


@dataclass(frozen=True)
class Card:
    """A generated card.

    Attributes:
        kind: one of :data:`KINDS`.
        problem: the puzzle (one colour, printed pieces, blocked squares, goals).
        solution: the planted solution, its only one up to symmetry.
        rating: its measured difficulty.
        seed: the seed of the candidate that made it.
        candidates: candidates tried for it (this one included).
        seconds: wall time, the dropped candidates and the rating included.
    """

    kind: str
    problem: Problem
    solution: Layout
    rating: Rating
    seed: int
    candidates: int
    seconds: float


def generate(
    kind: str,
    pieces: int,
    rows: int,
    cols: int,
    cards: int,
    seed: int = 0,
    colour: str = "blue",
    playouts: int = 1000,
) -> Iterator[Card]:
    """Make ``cards`` cards, one at a time (see the module docstring).

    Args:
        kind: one of :data:`KINDS`.
        pieces: pieces to place, 1 to 19 (the printed pieces come from the same set).
        rows, cols: board size.
        cards: how many to make.
        seed: the first candidate's seed; candidate k has seed ``seed + k``.
        colour: the colour of the pieces.
        playouts: random playouts for each card's rating.

    Raises:
        ValueError: an unknown kind, or a number of pieces outside 1..19.
        InputError: :data:`MAX_CANDIDATES` candidates in a row gave no card (too little
            room for the pieces, say).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown card goal {kind!r} (goals: {', '.join(KINDS)})")
    if not 1 <= pieces <= 19:
        raise ValueError(f"pieces must be 1 to 19, not {pieces}")
    board = Board(rows, cols)
    candidate = seed
    for _ in range(cards):
        started = time.perf_counter()
        tried = 0
        while True:
            if tried == MAX_CANDIDATES:
                raise InputError(
                    f"no {kind} card with {pieces} pieces on {rows}x{cols} from "
                    f"{MAX_CANDIDATES} candidates (seeds {candidate - tried} to "
                    f"{candidate - 1}): give the pieces more room"
                )
            tried += 1
            made = candidate_card(kind, pieces, board, candidate, colour)
            candidate += 1
            if made is None:
                continue
            problem, solution = made
            proof = count(problem, up_to_symmetry=True)
            if not (proof.complete and proof.count == 1):
                raise AssertionError(f"seed {candidate - 1}: the card is not unique: {proof}")
            rating = rate(problem, playouts)  # seed 0, as ``blokus-solo rate``
            seconds = time.perf_counter() - started
            yield Card(kind, problem, solution, rating, candidate - 1, tried, seconds)
            break


def candidate_card(
    kind: str, pieces: int, board: Board, seed: int, colour: str = "blue"
) -> tuple[Problem, Layout] | None:
    """One candidate (steps 1-3 of the module docstring): the card and its planted
    solution, or None if this seed gives none."""
    rng = random.Random(seed)
    printed_count = 2 if kind == "connect" else 1
    names = rng.sample(PIECE_NAMES, pieces + printed_count)
    printed_names, to_place = names[:printed_count], names[printed_count:]
    first = _random_placement(board, printed_names[0], rng)
    if first is None:
        return None
    start = Position(board, (ColourState(colour, None, (first,), sorted_pieces(to_place)),))
    planted = None
    for _ in range(PLANT_TRIES):
        planted = _playout(start, colour, rng)
        if planted is not None:
            break
    if planted is None:
        return None
    printed = [first]
    if kind == "connect":
        second = _joining_piece(start, colour, planted, printed_names[1], rng)
        if second is None:
            return None
        printed.append(second)
    position = Position(
        board, (ColourState(colour, None, tuple(printed), sorted_pieces(to_place)),)
    )
    problem = Problem(
        position, (colour,), connect=(colour,) if kind == "connect" else (), name="generated"
    )
    return _unique(problem, colour, planted, kind == "cover", rng)


def _random_placement(board: Board, piece: str, rng: random.Random) -> Placement | None:
    table = empty_board_placements(board.rows, board.cols)
    rows = np.flatnonzero(table.piece == PIECE_NAMES.index(piece))
    return table.placement(int(rng.choice(rows))) if len(rows) else None


def _playout(position: Position, colour: str, rng: random.Random) -> list[Placement] | None:
    """A random legal order placing every remaining piece, or None if it gets stuck."""
    placed = []
    while position.colour(colour).remaining:
        moves = legal_placements(position, colour)
        if not moves:
            return None
        move = rng.choice(moves)
        placed.append(move)
        position = position.with_placement(colour, move)
    return placed


def _joining_piece(
    start: Position, colour: str, planted: list[Placement], piece: str, rng: random.Random
) -> Placement | None:
    """A placement of ``piece`` that touches the planted pieces at a corner, shares no
    edge with them or the printed piece, and does not touch the printed piece."""
    board = start.board
    first = start.colour(colour).squares
    own = first.union(*(p.squares for p in planted))
    table = empty_board_placements(board.rows, board.cols)
    options = []
    for i in np.flatnonzero(table.piece == PIECE_NAMES.index(piece)):
        p = table.placement(int(i))
        if p.squares & own or any(n in own for s in p.squares for n in board.edge_neighbours[s]):
            continue
        if corner_touches(board, p.squares, own) and not corner_touches(board, p.squares, first):
            options.append(p)
    return rng.choice(options) if options else None


def _unique(
    problem: Problem, colour: str, planted: list[Placement], stars: bool, rng: random.Random
) -> tuple[Problem, Layout] | None:
    """Step 3: stars (if ``stars``) and Xs that leave the planted solution alone."""
    target = frozenset(planted)
    mine = frozenset().union(*(p.squares for p in planted))
    free = set(range(problem.position.board.size)) - problem.position.occupied - mine
    xs: list[int] = []
    while True:  # too many solutions to list: Xs where most of the listed ones go
        listed = list(layouts(_with(problem, xs), MAX_SOLUTIONS + 1))
        others = [
            frozenset().union(*(p.squares for p in layout[colour]))
            for layout in listed
            if frozenset(layout[colour]) != target
        ]
        if len(listed) <= MAX_SOLUTIONS:
            break
        if len(xs) >= MAX_FIRST_XS or not _add_x(xs, free, others, rng):
            return None
    if any(sq == mine for sq in others):
        return None  # another solution covers the same squares: no mark tells them apart
    chosen: list[int] = []
    candidates = sorted(mine)
    most_stars = rng.randint(1, 3)
    while stars and len(chosen) < most_stars and others:
        tally = {s: sum(1 for sq in others if s in sq) for s in candidates}
        fewest = min(tally.values())
        if fewest == len(others) and chosen:
            break  # another star would rule out nothing
        pick = rng.choice([s for s in candidates if tally[s] == fewest])
        chosen.append(pick)
        candidates.remove(pick)
        others = [sq for sq in others if pick in sq]
    while others:
        if not _add_x(xs, free, others, rng):
            return None
        others = [sq for sq in others if xs[-1] not in sq]
    card = dataclasses.replace(_with(problem, xs), cover=frozenset(chosen))
    for x in rng.sample(xs, len(xs)):  # take away each X that is not needed
        fewer = _with(card, [s for s in card.position.board.blocked if s != x])
        if count(fewer, limit=1).complete:
            card = fewer
    if stars or card.position.board.blocked or card.connect:
        return card, {colour: list(planted)}
    return None  # "avoid" without an X to avoid


def _add_x(xs: list[int], free: set[int], others: list[frozenset[int]], rng: random.Random) -> bool:
    """Add to ``xs`` the free square that the most of ``others`` cover (ties at random);
    False if none covers any."""
    tally = {s: sum(1 for sq in others if s in sq) for s in free if s not in xs}
    most = max(tally.values(), default=0)
    if most == 0:
        return False
    xs.append(rng.choice(sorted(s for s, n in tally.items() if n == most)))
    return True


def _with(problem: Problem, blocked: list[int]) -> Problem:
    """The problem on its board with exactly these squares blocked."""
    board = problem.position.board
    position = dataclasses.replace(
        problem.position, board=Board(board.rows, board.cols, frozenset(blocked))
    )
    return dataclasses.replace(problem, position=position)
