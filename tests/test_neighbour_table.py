"""solver.core.board.neighbour_table: neighbour lists as a padded array."""

from __future__ import annotations

import numpy as np

from solver.core.board import Board, neighbour_table


def test_edge_and_corner_tables_of_a_2x3_board():
    # squares 0 1 2 / 3 4 5 (row 0 on top)
    board = Board(2, 3)
    edge = neighbour_table(board.edge_neighbours, 4)
    assert edge.shape == (6, 4) and edge.dtype == np.int32
    assert sorted(edge[0][edge[0] >= 0]) == [1, 3]
    assert sorted(edge[4][edge[4] >= 0]) == [1, 3, 5]
    corner = neighbour_table(board.corner_neighbours, 4, pad_row=True)
    assert corner.shape == (7, 4)
    assert sorted(corner[1][corner[1] >= 0]) == [3, 5]
    assert list(corner[0]) == [4, -1, -1, -1]
    assert (corner[corner[0][1:]] == -1).all()  # indexing with padding (-1) gives padding


def test_king_table_width_eight():
    board = Board(3, 3)
    king = [e + c for e, c in zip(board.edge_neighbours, board.corner_neighbours)]
    table = neighbour_table(tuple(king), 8)
    assert sorted(table[4]) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert (table[0] >= 0).sum() == 3
