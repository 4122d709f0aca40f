"""solver.core.geometry: the square grid agrees exactly with today's board code.

The square geometry must be a drop-in for solver.core.board (numbering, names, neighbour
tables in their order), solver.core.symmetry (the symmetries in their order) and
solver.core.placements (the same placements of the 21 pieces), so that rules and kernels
can move onto the geometry layer without changing a figure.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.core.board import Board, neighbour_table
from solver.core.geometry.base import column_of, letters, padded
from solver.core.geometry.shapes import enumerate_placements, piece_set
from solver.core.geometry.square import SQUARE_LATTICE, SquareGeometry
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.placements import empty_board_placements
from solver.core.symmetry import SYMMETRY_NAMES, board_symmetries
from solver.errors import SquareError

SIZES = [(20, 20), (14, 14), (5, 7)]

#: the 21 Classic pieces on the square lattice: solver.core.pieces' (row, col) as (x, y)
CLASSIC = piece_set(
    SQUARE_LATTICE, [(name, tuple((c, r) for r, c in PIECES[name].cells)) for name in PIECE_NAMES]
)


@pytest.mark.parametrize("rows,cols", SIZES)
def test_names_and_numbering_agree_with_board(rows, cols):
    geo, board = SquareGeometry(rows, cols), Board(rows, cols)
    assert geo.size == board.size
    assert list(geo.names) == [board.name(s) for s in range(board.size)]
    assert [geo.parse(n) for n in geo.names] == list(range(board.size))
    assert geo.parse(" A1 ") == board.parse("a1") == (rows - 1) * cols
    assert geo.sorted_names(range(board.size)) == board.names(range(board.size))


@pytest.mark.parametrize("rows,cols", SIZES)
def test_neighbour_tables_agree_with_board_in_order(rows, cols):
    geo, board = SquareGeometry(rows, cols), Board(rows, cols)
    assert geo.edge_neighbours == board.edge_neighbours
    assert geo.corner_neighbours == board.corner_neighbours
    # the kernels' padded tables, byte for byte
    assert np.array_equal(geo.edge_table, neighbour_table(board.edge_neighbours, 4))
    assert np.array_equal(geo.corner_table, neighbour_table(board.corner_neighbours, 4))
    assert geo.edge_table.dtype == np.int32 and geo.edge_table.shape == (rows * cols, 4)


@pytest.mark.parametrize("rows,cols", SIZES)
def test_symmetries_agree_with_symmetry_module_in_order(rows, cols):
    geo, board = SquareGeometry(rows, cols), Board(rows, cols)
    expected = board_symmetries(board)
    assert len(geo.symmetries) == len(expected) == (8 if rows == cols else 4)
    for mine, theirs in zip(geo.symmetries, expected):
        assert np.array_equal(mine, theirs)
    assert geo.symmetry_names == SYMMETRY_NAMES[: len(expected)]


@pytest.mark.parametrize("rows,cols,count", [(20, 20, 30433), (14, 14, 13729)])
def test_placements_of_the_21_pieces_agree_with_placements_module(rows, cols, count):
    mine = enumerate_placements(SquareGeometry(rows, cols), CLASSIC)
    theirs = empty_board_placements(rows, cols)
    assert len(mine) == len(theirs) == count
    as_sets = {(PIECE_NAMES[p], cs) for p, cs in zip(mine.piece_list, mine.cell_sets, strict=True)}
    expected = {(pl.piece, pl.squares) for pl in (theirs.placement(i) for i in range(len(theirs)))}
    assert as_sets == expected
    assert [len(p.orientations) for p in CLASSIC] == [
        len(PIECES[n].orientations) for n in PIECE_NAMES
    ]
    assert sum(len(p.orientations) for p in CLASSIC) == 91


def test_placements_on_a_rectangle_match_too():
    mine = enumerate_placements(SquareGeometry(5, 7), CLASSIC)
    assert len(mine) == len(empty_board_placements(5, 7))


def test_square_polygons_are_unit_squares_from_the_top_left():
    geo = SquareGeometry(5, 7)
    assert geo.polygons.shape == (35, 4, 2)
    assert geo.polygons[0].tolist() == [[0, 0], [1, 0], [1, 1], [0, 1]]
    assert geo.polygons[34].tolist() == [[6, 4], [7, 4], [7, 5], [6, 5]]


def test_bad_names_and_numbers_raise_square_error():
    geo = SquareGeometry(20, 20)
    for bad in ("a21", "u1", "a0", "1a", "", "a1,b1"):
        with pytest.raises(SquareError):
            geo.parse(bad)
    for bad_cell in (-1, 400, True, 1.0):
        with pytest.raises(SquareError):
            geo.name(bad_cell)
    with pytest.raises(SquareError, match="twice"):
        geo.parse_move("a1,a1")
    with pytest.raises(SquareError):
        SquareGeometry(0, 5)


def test_column_letters_follow_pentobi():
    # libboardgame_base/StringUtil.cpp get_letter_coord: a..z, aa..az, ba..
    assert [letters(x) for x in (0, 8, 25, 26, 34, 51, 52, 701, 702)] == [
        "a", "i", "z", "aa", "ai", "az", "ba", "zz", "aaa",
    ]  # fmt: skip
    assert all(column_of(letters(x)) == x for x in range(800))
    with pytest.raises(ValueError):
        letters(-1)


def test_padded_pads_with_minus_one_and_refuses_long_lists():
    assert padded([(1, 2), (3,)]).tolist() == [[1, 2], [3, -1]]
    assert padded([(1,)], width=3).tolist() == [[1, -1, -1]]
    with pytest.raises(ValueError):
        padded([(1, 2)], width=1)
