"""Square names (Pentobi: a1 lower-left, letter i used, aa after z) and neighbours."""

import pytest

from solver.core.board import Board, column_index, column_name
from solver.errors import SquareError


def test_corner_names_20x20():
    b = Board(20, 20)
    assert b.name(0) == "a20"
    assert b.name(19) == "t20"
    assert b.name(399) == "t1"
    assert b.name(380) == "a1"
    assert b.parse("e10") == (20 - 10) * 20 + 4


def test_letter_i_is_a_column():
    b = Board(14, 14)
    assert [b.name(b.square(13, c)) for c in range(10)] == [
        "a1",
        "b1",
        "c1",
        "d1",
        "e1",
        "f1",
        "g1",
        "h1",
        "i1",
        "j1",
    ]


def test_columns_past_z():
    assert column_name(25) == "z"
    assert column_name(26) == "aa"
    assert column_name(27) == "ab"
    assert column_name(52) == "ba"
    for c in range(60):
        assert column_index(column_name(c)) == c
    b = Board(30, 30)
    assert b.parse("ad30") == 29
    assert b.name(29) == "ad30"


@pytest.mark.parametrize("bad", ["u1", "a21", "a0", "1a", "", "a", "zz99"])
def test_off_board_or_malformed(bad):
    with pytest.raises(SquareError):
        Board(20, 20).parse(bad)


def test_neighbours_do_not_wrap():
    b = Board(5, 5)
    assert sorted(b.edge_neighbours[4]) == [3, 9]  # e5: right edge, top row
    assert sorted(b.corner_neighbours[5]) == [1, 11]  # a4: left edge
    assert len(b.corner_neighbours[12]) == 4


def test_pentobi_order():
    b = Board(3, 3)
    assert b.names({0, 4, 8, 6}) == ["a1", "c1", "b2", "a3"]


def test_a_board_copies_its_blocked_squares_and_takes_whole_numbers_only():
    """Issue 41 item 9: Board(blocked=a_set) kept the caller's set, so a square added to
    it later was blocked for some questions (``blocked``) and not for others (the
    ``blocked_mask`` made before), and the board could not be hashed."""
    import numpy as np

    from solver.core.movegen import MoveState
    from solver.core.position import ColourState, Position
    from solver.errors import InputError

    given = {5}
    board = Board(3, 4, given)
    assert board.blocked_mask.sum() == 1
    given.add(6)
    assert board.blocked == frozenset({5}) and isinstance(board.blocked, frozenset)
    assert board.blocked_mask.sum() == 1 and hash(board) == hash(Board(3, 4, frozenset({5})))
    position = Position(board, (ColourState("blue", 0, (), ("1",)),))
    assert MoveState(position).observation()["blocked"].sum() == 1
    # NumPy's integers are whole numbers (kept as int); floats and bools are not
    numpy_board = Board(np.int64(3), np.int32(4), {np.int64(5)})
    assert numpy_board == board and type(numpy_board.rows) is int
    assert all(type(s) is int for s in numpy_board.blocked)
    for bad, where in (((3.0, 4), "rows"), ((3, True), "cols"), ((3, 4, {5.0}), "blocked")):
        with pytest.raises(InputError) as refused:
            Board(*bad)
        assert refused.value.where == where
    with pytest.raises(SquareError, match="off the board"):
        Board(3, 4, [12])


def test_a_number_off_the_board_has_no_name_and_no_place():
    """A square number off the board was named as if on it: -1 't21', 400 'a0' and True
    'b20' on 20x20; square(0, 25) was b19's number (the next row's), row_col(400) (20, 0)."""
    import numpy as np

    b = Board(20, 20)
    for bad in (-1, 400, True, 1.5):
        with pytest.raises(SquareError, match="off the 20x20 board"):
            b.name(bad)
        with pytest.raises(SquareError, match="off the 20x20 board"):
            b.row_col(bad)
    for row, col in ((0, 25), (20, 0), (-1, 3), (3, -1)):
        with pytest.raises(SquareError, match="off the 20x20 board"):
            b.square(row, col)
    assert b.name(np.int64(399)) == "t1" and b.row_col(399) == (19, 19)
    assert b.square(19, 19) == 399
