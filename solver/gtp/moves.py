"""The one door through which the GTP engine asks for legal moves.

Every legal move the engine lists, checks for or chooses from comes from
:func:`legal_rows`. It asks the fast generator (:mod:`solver.core.movegen`: 20-50 times
the NumPy filter's speed from a position) once its compiled kernel is ready (compiled in
this process or cached on disk); before that (the first run after installing) it asks the
NumPy filter (:func:`solver.core.placements.fitting_rows` and
:func:`~solver.core.placements.colour_masks`) and starts the kernels' background compile,
so that no answer waits for a compile. Both give the same rows (tests/test_movegen.py,
tests/test_gtp.py). Moves are numbered by their row in the table of every placement on the
empty board (:func:`solver.core.placements.empty_board_placements`).

That is the square grid's path. A board of another grid (Trigon's triangles: the compiled
generator and the row tables here are the square grid's) is answered by the generic
generator, :func:`solver.core.placements.legal_moves` (held to Pentobi's ``all_legal`` on
thousands of Trigon positions: tests/test_trigon_rules.py, tests/test_trigon_oracle.py),
through :func:`legal`, :func:`has_moves` and :func:`legal_texts` (its move texts and their
order worked out once per board); :func:`legal_rows` is for the square grid alone.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.backends import warmup
from solver.core import movegen_kernel
from solver.core.board import Board
from solver.core.movegen import legal_indices
from solver.core.pieces import PIECE_NAMES
from solver.core.placement_index import PlacementIndex, index_for
from solver.core.placements import (
    board_placements,
    colour_masks,
    empty_board_placements,
    fitting_rows,
    legal_moves,
)
from solver.core.position import Placement, Position


def legal_rows(position: Position, colour: str) -> np.ndarray:
    """Every legal next move of ``colour``: rows of the empty board's placement table,
    increasing, each placement once (a piece a colour has twice, in Junior, gives each
    placement once, as Pentobi's ``all_legal`` does).

    Returns:
        Shape (k,), int64.

    Raises:
        ValueError: the board is not of squares (use :func:`legal`).
    """
    if not position.board.square_grid:
        raise ValueError(f"legal_rows runs on squares only, not on {position.board.grid}")
    if fast_ready():
        index = index_for(position)
        rows: np.ndarray = _table_rows(index)[legal_indices(position, colour)]
        return rows
    return filtered_rows(position, colour)


def filtered_rows(position: Position, colour: str) -> np.ndarray:
    """:func:`legal_rows` by the NumPy filter (no compiled kernel needed)."""
    rows = fitting_rows(position, colour)
    squares = board_placements(position.board).squares[rows]
    _, attach = colour_masks(position, colour)
    legal: np.ndarray = rows[np.append(attach, False)[squares].any(axis=1)]
    return legal


def fast_ready() -> bool:
    """Whether the fast generator answers without compiling its kernel first (about 10 s
    of CPU, once after installing). When it would, the kernels' background compile starts
    (unless one runs: :func:`solver.backends.warmup.compile_in_background`) and False
    says to use the NumPy filter meanwhile."""
    if warmup.compiled_or_cached(movegen_kernel.perft):
        return True
    warmup.compile_in_background(search_waits=False)
    return False


@lru_cache(maxsize=8)
def _table_rows(index: PlacementIndex) -> np.ndarray:
    """For each number of ``index``, its row in the empty board's table (the same order;
    Junior's index leaves out the pieces it lacks), int64."""
    table = empty_board_placements(index.rows, index.cols)
    ids = [PIECE_NAMES.index(p) for p in index.pieces]
    return np.flatnonzero(np.isin(table.piece, ids)).astype(np.int64)


def legal(position: Position, colour: str) -> list[Placement]:
    """Every legal next move of ``colour`` as placements, in the order of
    :func:`legal_rows` (on another grid than squares: :func:`legal_moves`'s order)."""
    board = position.board
    if not board.square_grid:
        return legal_moves(position, colour)
    table = empty_board_placements(board.rows, board.cols)
    return [table.placement(int(r)) for r in legal_rows(position, colour)]


def has_moves(position: Position, colour: str) -> bool:
    """Whether ``colour`` has a legal move (Pentobi ``Board::has_moves``)."""
    if not position.board.square_grid:
        return len(filtered_rows(position, colour)) > 0
    return len(legal_rows(position, colour)) > 0


def legal_texts(position: Position, colour: str) -> list[str]:
    """Every legal next move of ``colour`` in SGF notation, in the order of
    :func:`solver.formats.game.sorted_moves` (by piece, then by squares)."""
    board = position.board
    if board.square_grid:
        rows = legal_rows(position, colour)
        table, rank = move_texts(board.rows, board.cols), move_ranks(board.rows, board.cols)
    else:
        rows = filtered_rows(position, colour)
        table, rank = _grid_move_texts(board.grid, board.rows, board.cols)
    texts: list[str] = table[rows[np.argsort(rank[rows])]].tolist()
    return texts


@lru_cache(maxsize=4)
def _grid_move_texts(grid: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """On a board of another grid than squares (Trigon), each placement of
    :func:`~solver.core.placements.board_placements` as a move in SGF notation, shape (P,),
    dtype object, and its rank in :func:`solver.formats.game.sorted_moves`' order (by
    piece, then by its cells in Pentobi's order), shape (P,), int64: worked out once per
    board, so that a legal move list is a lookup."""
    board = Board(rows, cols, grid=grid)
    table = board_placements(board)
    names = [board.name(c) for c in range(board.size)]
    place = [board.row_col(c) for c in range(board.size)]  # (row from top, column)
    last = np.iinfo(np.int64).max
    reading = np.array([(rows - 1 - r) * cols + c for r, c in place] + [last])
    codes = reading[table.squares]  # padding (-1) reads the last entry: sorts last
    order = np.argsort(codes, axis=1)
    cells = np.take_along_axis(table.squares, order, axis=1).tolist()
    texts = np.array([",".join(names[c] for c in row if c >= 0) for row in cells], dtype=object)
    sorted_codes = np.take_along_axis(codes, order, axis=1)
    by_rank = np.lexsort((*sorted_codes.T[::-1], table.piece))
    ranks = np.empty(len(by_rank), dtype=np.int64)
    ranks[by_rank] = np.arange(len(by_rank))
    return texts, ranks


def _reading_codes(rows: int, cols: int) -> np.ndarray:
    """Each placement's squares as numbers that sort in Pentobi's order (a1, b1, ...,
    a2, ...: row number from the bottom, then column), sorted, padding (a large number)
    last; shape (P, 5)."""
    squares = empty_board_placements(rows, cols).squares
    codes = (rows - 1 - squares // cols) * cols + squares % cols
    return np.sort(np.where(squares >= 0, codes, rows * cols), axis=1)


@lru_cache(maxsize=8)
def move_ranks(rows: int, cols: int) -> np.ndarray:
    """Each placement's rank in the order of :func:`solver.formats.game.sorted_moves` (by
    piece, then by its squares in Pentobi's order), shape (P,), int64."""
    codes = _reading_codes(rows, cols)
    piece = empty_board_placements(rows, cols).piece
    order = np.lexsort((*codes.T[::-1], piece))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank


@lru_cache(maxsize=8)
def move_texts(rows: int, cols: int) -> np.ndarray:
    """Each placement of the empty board's table as a move in SGF notation (squares in
    Pentobi's order a1, b1, ..., a2), shape (P,), dtype object."""
    board = Board(rows, cols)
    names = [
        board.name((rows - 1 - code // cols) * cols + code % cols) for code in range(rows * cols)
    ]
    return np.array(
        [
            ",".join(names[c] for c in row if c < rows * cols)
            for row in _reading_codes(rows, cols).tolist()
        ],
        dtype=object,
    )
