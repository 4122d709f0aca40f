"""The one door through which the GTP engine asks for legal moves.

Every legal move the engine lists, checks for or chooses from comes from
:func:`legal_rows`, so that a faster generator replaces the project's current one
(:func:`solver.core.placements.fitting_rows` and :func:`~solver.core.placements.colour_masks`,
which :func:`solver.core.placements.legal_moves` uses) here and nowhere else. Moves are
numbered by their row in the table of every placement on the empty board
(:func:`solver.core.placements.empty_board_placements`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.core.board import Board
from solver.core.placements import colour_masks, empty_board_placements, fitting_rows
from solver.core.position import Placement, Position


def legal_rows(position: Position, colour: str) -> np.ndarray:
    """Every legal next move of ``colour``: rows of the empty board's placement table,
    increasing, each placement once (a piece a colour has twice, in Junior, gives each
    placement once, as Pentobi's ``all_legal`` does).

    Returns:
        Shape (k,), int64.
    """
    rows = fitting_rows(position, colour)
    board = position.board
    squares = empty_board_placements(board.rows, board.cols).squares[rows]
    _, attach = colour_masks(position, colour)
    return rows[np.append(attach, False)[squares].any(axis=1)]


def legal(position: Position, colour: str) -> list[Placement]:
    """Every legal next move of ``colour`` as placements, in the order of
    :func:`legal_rows`."""
    board = position.board
    table = empty_board_placements(board.rows, board.cols)
    return [table.placement(int(r)) for r in legal_rows(position, colour)]


def has_moves(position: Position, colour: str) -> bool:
    """Whether ``colour`` has a legal move (Pentobi ``Board::has_moves``)."""
    return len(legal_rows(position, colour)) > 0


def legal_texts(position: Position, colour: str) -> list[str]:
    """Every legal next move of ``colour`` in SGF notation, in the order of
    :func:`solver.formats.game.sorted_moves` (by piece, then by squares)."""
    board = position.board
    rows = legal_rows(position, colour)
    rank = move_ranks(board.rows, board.cols)
    return move_texts(board.rows, board.cols)[rows[np.argsort(rank[rows])]].tolist()


@lru_cache(maxsize=8)
def move_ranks(rows: int, cols: int) -> np.ndarray:
    """Each placement's rank in the order of :func:`solver.formats.game.sorted_moves`,
    shape (P,), int64."""
    table = empty_board_placements(rows, cols)
    keys = [
        (int(piece), sorted((rows - s // cols, s % cols) for s in row if s >= 0))
        for piece, row in zip(table.piece.tolist(), table.squares.tolist())
    ]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
    return rank


@lru_cache(maxsize=8)
def move_texts(rows: int, cols: int) -> np.ndarray:
    """Each placement of the empty board's table as a move in SGF notation (squares in
    Pentobi's order a1, b1, ..., a2), shape (P,), dtype object."""
    board = Board(rows, cols)
    table = empty_board_placements(rows, cols)
    return np.array(
        [",".join(board.names(s for s in row if s >= 0)) for row in table.squares.tolist()],
        dtype=object,
    )
