"""The placement index (solver/core/placement_index.py): Pentobi's counts, the documented
order, the numbering pinned, both directions."""

import hashlib

import numpy as np
import pytest

from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.placement_index import (
    JUNIOR_PIECES,
    build_index,
    index_for,
    same_as_engine_table,
    variant_index,
)
from solver.core.position import Placement, Position
from solver.core.variants import VARIANTS
from solver.errors import InputError

#: Pentobi libpentobi_base/Move.h (onboard moves of Classic, Duo, Junior)
COUNTS = {"classic": 30_433, "classic2": 30_433, "classic3": 30_433, "duo": 13_729, "junior": 7_217}
#: SHA-256 of the squares table (int32 little-endian, P x 5): the numbering may never
#: change; a change here breaks every agent trained on it (docs/agents.md)
PINNED = {
    "classic": "affdfdded8e52ab5f0d6fb6f72458721c67c3ca8b036cb88c5cbc349f2d6ba88",
    "duo": "d6913d480fe02139a26ff4baab40a821697573b1e88a0912843384f88d7f0422",
    "junior": "63d848b5657e5eeb280ee2c5085011c5264173ed154efb1059caf0f596055015",
}


@pytest.mark.parametrize("variant", sorted(COUNTS))
def test_counts_and_the_engines_order(variant):
    index = variant_index(variant)
    assert len(index) == COUNTS[variant] == index.pass_action
    assert same_as_engine_table(index)
    assert index_for(Position.empty(VARIANTS[variant])) is index


@pytest.mark.parametrize("variant", ["classic", "duo", "junior"])
def test_the_documented_order_and_the_pinned_numbers(variant):
    index = variant_index(variant)
    cols = index.cols
    squares = index.squares
    # each row is its piece's orientation at its anchor, squares increasing
    for i in range(0, len(index), 7):
        cells = PIECES[PIECE_NAMES[index.piece[i]]].orientations[index.orientation[i]]
        want = sorted(index.anchor[i] + r * cols + c for r, c in cells)
        assert squares[i][: len(want)].tolist() == want and (squares[i][len(want) :] == -1).all()
    # sorted by (piece, orientation, anchor row from the top, anchor column)
    key = np.lexsort((index.anchor % cols, index.anchor // cols, index.orientation, index.piece))
    assert (key == np.arange(len(index))).all()
    # the anchor is the top-left corner of the bounding box
    valid = squares >= 0
    rows = np.where(valid, squares // cols, 99).min(axis=1)
    columns = np.where(valid, squares % cols, 99).min(axis=1)
    assert (index.anchor == rows * cols + columns).all()
    pieces = JUNIOR_PIECES if variant == "junior" else PIECE_NAMES
    assert index.pieces == pieces and sorted(set(index.piece.tolist())) == [
        PIECES[p].index for p in pieces
    ]
    digest = hashlib.sha256(squares.astype("<i4").tobytes()).hexdigest()
    assert digest == PINNED[variant]


def test_first_numbers_by_hand():
    index = variant_index("classic")
    board = index.board
    assert index.text(0) == "a20" and index.text(399) == "t1"  # the monomino, row by row
    # the domino: lying, (0,0),(0,1), sorts before standing, (0,0),(1,0): 20 x 19 lying
    assert index.text(400) == "a20,b20" and index.text(779) == "s1,t1"
    assert index.text(780) == "a19,a20" and index.text(1159) == "t1,t2"
    assert index.placement(0) == Placement("1", frozenset({board.parse("a20")}))


def test_both_ways():
    index = variant_index("duo")
    rng = np.random.default_rng(7)
    shuffled = rng.permuted(index.squares, axis=1)  # squares in any order, padding anywhere
    assert (index.indices_of(shuffled) == np.arange(len(index))).all()
    for i in rng.integers(0, len(index), 50).tolist():
        p = index.placement(i)
        assert index.index(p) == i == index.index(p.squares)
        assert index.text(i) == index.texts[i] == ",".join(index.board.names(p.squares))
    assert index.placements([3, 1]) == [index.placement(3), index.placement(1)]
    assert index.indices_of(np.array([[0, 1, 2, 3, 50]])).tolist() == [-1]


def test_refusals():
    index = variant_index("junior")
    f = PIECES["F"]
    cells = f.orientations[0]
    squares = frozenset(r * 14 + c for r, c in cells)
    with pytest.raises(InputError, match="no placement"):
        index.index(squares)  # F is not a Junior shape
    with pytest.raises(InputError, match="no placement"):
        index.index(Placement("I4", frozenset({0, 1, 2})))  # three squares are no I4
    with pytest.raises(IndexError):
        index.placement(len(index))
    with pytest.raises(InputError):
        variant_index("callisto")  # a Pentobi variant we do not play
    with pytest.raises(InputError):
        build_index(5, 5, ("2", "1"))


def test_custom_boards():
    board = Board(3, 4, frozenset({5}))
    index = index_for(Position(board, ()))
    assert index is build_index(3, 4) and index.rows == 3 and index.cols == 4
    # blocked squares are numbered (a legal mask just never marks them)
    assert (index.squares == 5).any()


def test_a_row_with_a_square_off_the_board_is_no_placement():
    """Issue 41 item 5: an off-board number carried into the next digit of the key, so
    [-1, -1, -1, -1, 402] (square 402 of a 400-square board) was the domino a20-b20 (400),
    and 199 of 200 such rows aliased a real placement."""
    index = variant_index("classic")
    n = 400
    assert index.indices_of(np.array([[-1, -1, -1, -1, 402]])).tolist() == [-1]
    rng = np.random.default_rng(41)
    rows = np.full((600, 5), -1, dtype=np.int64)
    rows[:, 4] = rng.integers(n, 5 * n, 600)  # one square past the board
    rows[:200, 3] = rng.integers(0, n, 200)  # with a square on it
    rows[400:, 4] = -rng.integers(2, 5 * n, 200)  # below the padding
    assert (index.indices_of(rows) == -1).all()
    assert (index.keys_of(rows) == -1).all()
    # unsigned: 2**64 - 1 is not the padding -1
    top = np.array([[2**64 - 1] * 4 + [0]], dtype=np.uint64)
    assert index.indices_of(top).tolist() == [-1]
    assert index.indices_of(np.array([[65535] * 4 + [0]], dtype=np.uint16)).tolist() == [-1]
    assert index.indices_of(np.array([[0, -1, -1, -1, -1]], dtype=np.int8)).tolist() == [0]


def test_numbers_that_are_no_square_or_placement_numbers_are_refused():
    index = variant_index("duo")
    for bad in (np.array([[0.0, -1, -1, -1, -1]]), np.ones((1, 5), dtype=bool)):
        with pytest.raises(InputError, match="whole numbers"):
            index.indices_of(bad)
    with pytest.raises(InputError, match=r"shape \(k, 5\)"):
        index.indices_of(np.array([0, 1, -1, -1, -1, -1, -1, -1, -1, -1]))  # was read as 2 rows
    with pytest.raises(InputError):
        index.indices_of(np.array([[2**70, -1, -1, -1, -1]], dtype=object))
    assert index.indices_of(np.empty((0, 5), dtype=np.int32)).tolist() == []
    # placement numbers: NumPy's integers are numbers; a negative one counts from no end
    assert index.placement(np.int32(5)) == index.placement(5)
    assert index.placements(np.array([5, 0])) == [index.placement(5), index.placement(0)]
    for bad_number in (-1, len(index)):
        with pytest.raises(IndexError, match="outside"):
            index.placements([bad_number])
        with pytest.raises(IndexError, match="outside"):
            index.placements(np.array([0, bad_number]))
    for not_whole in (1.5, True, "3"):
        with pytest.raises(InputError, match="placement"):
            index.placement(not_whole)
        with pytest.raises(InputError, match="placement"):
            index.placements([not_whole])
    with pytest.raises(InputError, match="placement"):
        index.placements(np.array([1.0]))
    # squares given as a set: 1.0 and True are not square 1
    one = index.board.parse("b14")
    assert index.index({one}) == index.index({np.int64(one)})
    for not_whole in (float(one), True):
        with pytest.raises(InputError, match="squares"):
            index.index({not_whole})


def test_the_size_array_is_read_only():
    """Issue 41 item 9: ``size`` is shared by every position of the variant (the index is
    built once per process); a write through it changed every agent's square counts."""
    index = variant_index("duo")
    with pytest.raises(ValueError, match="read-only"):
        index.size[0] = 5
    assert index.size[0] == 1 and variant_index("duo").size is index.size
    for arr in (index.piece, index.orientation, index.anchor, index.squares):
        assert not arr.flags.writeable


def test_a_board_size_or_a_piece_set_that_is_none_is_refused():
    """build_index took 1.5 x 3 and True x 5 (an index of 12 and 15 placements), 61 x 61
    (past every board's 60: 319,934 placements), and 0 x 5 or an unknown piece raised
    NumPy's or list's ValueError."""
    import numpy as np

    for rows, cols in ((1.5, 3), (True, 5), (61, 61), (0, 5), (-2, 4)):
        with pytest.raises(InputError):
            build_index(rows, cols)
    for pieces in ((), ("Q",), ["1", "Q"]):
        with pytest.raises(InputError, match="pieces"):
            build_index(5, 5, pieces)
    index = build_index(np.int64(3), 4, ["1", "2"])  # any iterable; NumPy's integers
    assert index is build_index(3, 4, ("1", "2")) and type(index.rows) is int
    assert len(index) == 12 + 17
