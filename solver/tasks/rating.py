"""Rating a puzzle's difficulty from measured features.

Features (each measured, none guessed):

* ``solutions``: layouts up to symmetry (:func:`solver.backends.search.counting.count` with
  ``up_to_symmetry``); ``nodes``: the nodes that count visited;
* ``share``: the share of the legal first moves that still lead to a solution
  (:func:`solver.tasks.hints.hints`): a player who picks a first move at random keeps a
  solvable position with this probability;
* ``success``: the share of ``playouts`` random playouts (a fixed seed) that end solved:
  the played colours take turns, each placing a legal move chosen uniformly among all its
  legal placements, until no colour can move; solved means every piece placed and every
  goal met (monomino last, squares covered, colours connected). On Blokus Trigon a colour
  with no piece yet moves first onto a free starting point, as the rules say.

Difficulty score: ``log10(1 / p) + log10(1 / share) + log10(nodes)``, with ``p =
(successes + 1) / (playouts + 2)`` (Laplace's rule, so that a puzzle no playout solved
gets a finite score): the number of tenfold drops in a random player's chance, over the
whole game and at the first move, plus the tenfold steps of the search's work. Labels:
easy below 3, medium below 4.5, hard below 6, expert from 6. The thresholds were set on
75 generated 8x8 cards (2 to 6 pieces, each goal; docs/cards.md), where the mean
score grows with the number of pieces; of the three terms the search nodes follow the
number of pieces best. An unsolvable puzzle has no difficulty.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from solver.backends.search import count
from solver.core.board import Board
from solver.core.pieces import MONOMINO, family
from solver.core.placements import placements_for
from solver.core.position import Placement
from solver.core.problem import Problem
from solver.core.rules import corner_groups
from solver.tasks.hints import hints

#: (upper bound of the score, label), easiest first; the last label has no bound.
LABELS: tuple[tuple[float, str], ...] = ((3.0, "easy"), (4.5, "medium"), (6.0, "hard"))
HARDEST = "expert"


@dataclass(frozen=True)
class Rating:
    """A puzzle's measured features and its difficulty.

    Attributes:
        solutions: layouts up to symmetry (a lower bound unless ``complete``).
        layouts: layouts (not up to symmetry).
        complete: the counts were searched to the end.
        nodes: search nodes of the count up to symmetry.
        first_moves: legal first moves of the played colours.
        good_first_moves: those that still lead to a solution.
        playouts: random playouts run; ``successes``: how many ended solved.
        seed: the playouts' random seed.
        seconds: wall time of the rating.
    """

    solutions: int
    layouts: int
    complete: bool
    nodes: int
    first_moves: int
    good_first_moves: int
    playouts: int
    successes: int
    seed: int
    seconds: float

    @property
    def share(self) -> float:
        """Share of the legal first moves that keep a solution (0 without legal moves)."""
        return self.good_first_moves / self.first_moves if self.first_moves else 0.0

    @property
    def success(self) -> float:
        """Share of the random playouts that ended solved."""
        return self.successes / self.playouts if self.playouts else 0.0

    @property
    def score(self) -> float | None:
        """The difficulty score (see the module docstring), or None when no solution is
        known or nothing is left to place."""
        if self.solutions == 0 or self.first_moves == 0 or self.good_first_moves == 0:
            return None
        p = (self.successes + 1) / (self.playouts + 2)
        return math.log10(1 / p) + math.log10(1 / self.share) + math.log10(max(self.nodes, 1))

    @property
    def label(self) -> str:
        """easy, medium, hard or expert (:data:`LABELS`); "unsolvable" with no solution,
        "unknown" when the count was stopped before finding one, "solved" when nothing is
        left to place."""
        score = self.score
        if score is None:
            if self.solutions > 0:
                return "solved"
            return "unsolvable" if self.complete else "unknown"
        for bound, name in LABELS:
            if score < bound:
                return name
        return HARDEST


def rate(
    problem: Problem, playouts: int = 1000, seed: int = 0, time_limit: float | None = None
) -> Rating:
    """Measure a puzzle's features (see the module docstring).

    Args:
        problem: a place-all problem.
        playouts: random playouts to run (0: none).
        seed: their random seed (the same seed gives the same playouts).
        time_limit: seconds for each of the two counting steps (the count up to symmetry,
            the first moves); a stopped count makes ``complete`` False.

    Raises:
        InputError: the goal is max-score.
        ValueError: ``playouts`` is negative.
    """
    if playouts < 0:
        raise ValueError(f"playouts must be at least 0, not {playouts}")
    started = time.perf_counter()
    orbits = count(problem, up_to_symmetry=True, time_limit=time_limit)
    first = hints(problem, time_limit)
    successes = random_playouts(problem, playouts, seed)
    return Rating(
        orbits.count,
        orbits.layouts,
        orbits.complete and first.complete,
        orbits.nodes,
        first.moves,
        len(first.hints),
        playouts,
        successes,
        seed,
        time.perf_counter() - started,
    )


@dataclass
class _Player:
    """One colour's state in a playout, as boolean arrays over the board's squares (the
    last entry of each: the padding of ``squares``, never set)."""

    name: str
    squares: np.ndarray  # (P, 5) its placements' squares, padded with the board size
    piece: np.ndarray  # (P,) their pieces (index into the family's names: PIECE_NAMES)
    left: np.ndarray  # (21,) pieces left (22 on Trigon)
    edge: np.ndarray  # (N + 1,) squares sharing an edge with the colour
    # (N + 1,) squares its next piece may touch (or its start square; on Trigon, before its
    # first piece, the starting points: the taken ones are refused as any taken square)
    corner: np.ndarray
    placed: list[Placement]

    def copy(self) -> _Player:
        return _Player(
            self.name,
            self.squares,
            self.piece,
            self.left.copy(),
            self.edge.copy(),
            self.corner.copy(),
            [],
        )


def random_playouts(problem: Problem, playouts: int, seed: int = 0) -> int:
    """The number of ``playouts`` random playouts from the problem's position that end
    solved (see the module docstring). Deterministic for a given seed."""
    rng = random.Random(seed)
    base = _players(problem)
    board = problem.position.board
    taken = np.zeros(board.size + 1, dtype=bool)
    taken[list(board.blocked | problem.position.occupied)] = True
    return sum(
        _playout(problem, [p.copy() for p in base], taken.copy(), rng) for _ in range(playouts)
    )


def _players(problem: Problem) -> list[_Player]:
    position = problem.position
    board = position.board
    names = family(board.grid).index
    out = []
    for name in problem.colours:
        state = position.colour(name)
        table = placements_for(position, name)
        squares = np.where(table.squares >= 0, table.squares, board.size)
        left = np.zeros(len(names), dtype=np.int64)
        for piece in state.remaining:
            left[names[piece]] += 1
        player = _Player(
            name,
            squares,
            table.piece.astype(np.int64),
            left,
            np.zeros(board.size + 1, dtype=bool),
            np.zeros(board.size + 1, dtype=bool),
            [],
        )
        if state.squares:
            _occupy(board, player, state.squares)
        elif state.start is not None:
            player.corner[state.start] = True
        elif position.starting_points:  # Trigon: any starting point no piece covers
            player.corner[sorted(position.starting_points)] = True
        out.append(player)
    return out


def _occupy(board: Board, player: _Player, squares: Iterable[int]) -> None:
    """Mark the squares next to a colour's new squares."""
    for s in squares:
        player.edge[list(board.edge_neighbours[s])] = True
        player.corner[list(board.corner_neighbours[s])] = True


def _playout(
    problem: Problem, players: list[_Player], taken: np.ndarray, rng: random.Random
) -> int:
    """One playout; 1 if it ends solved, else 0."""
    board = problem.position.board
    names = family(board.grid).names
    moved = True
    while moved:
        moved = False
        for p in players:
            if not p.left.any():
                continue
            sq = p.squares
            legal = (
                (p.left[p.piece] > 0) & ~(taken | p.edge)[sq].any(axis=1) & p.corner[sq].any(axis=1)
            )
            choices = np.flatnonzero(legal)
            if len(choices) == 0:
                continue
            k = int(choices[rng.randrange(len(choices))])
            squares = [int(s) for s in sq[k] if s < board.size]
            taken[squares] = True
            p.left[p.piece[k]] -= 1
            placement = Placement(names[p.piece[k]], frozenset(squares))
            if not p.placed and not problem.position.colour(p.name).squares:
                p.corner[:] = False  # its first piece: the start square is used
            p.placed.append(placement)
            _occupy(board, p, squares)
            moved = True
    return int(_solved(problem, players, taken))


def _solved(problem: Problem, players: list[_Player], taken: np.ndarray) -> bool:
    position = problem.position
    for p in players:
        if p.left.any():
            return False
        last = p.placed[-1].piece if p.placed else position.colour(p.name).last_piece
        if problem.monomino_last and last != MONOMINO:
            return False
    if not all(taken[s] for s in problem.cover):
        return False
    for name in problem.connect:
        p = next(q for q in players if q.name == name)
        pieces = [*position.colour(name).placed, *p.placed]
        if len(corner_groups(position.board, pieces)) > 1:
            return False
    return True
