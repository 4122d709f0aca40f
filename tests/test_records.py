"""The counting facts behind the record questions (solver/records.py), each checked against
the rules or the exact search rather than taken on trust."""

from __future__ import annotations

import itertools

import pytest

from solver.backends import search
from solver.board import Board
from solver.pieces import PIECE_NAMES, PIECES
from solver.placements import empty_board_placements
from solver.records import (
    BLOCK_EXTRA_TOTAL,
    NEIGHBOURS_TOTAL,
    corner_problem,
    one_colour_bounds,
    one_colour_candidates,
)
from solver.symmetry import board_symmetries


def test_neighbour_total_counted_on_a_board():
    """187: each piece put in the middle of a 9x9 board; its free edge neighbours counted
    with the board's own neighbour table (not the records module's offsets)."""
    board = Board(9, 9)
    total = 0
    for p in PIECES.values():
        squares = {board.square(r + 2, c + 2) for r, c in p.cells}
        total += len({n for s in squares for n in board.edge_neighbours[s]} - squares)
    assert total == NEIGHBOURS_TOTAL == 187


def test_block_extra_total_matches_the_search():
    assert BLOCK_EXTRA_TOTAL == 18
    assert int(search._PIECE_EXTRA.sum()) == BLOCK_EXTRA_TOTAL


@pytest.mark.parametrize(
    "pieces",
    [("1", "2", "V3", "O"), ("I3", "T4", "2"), ("V3", "L4", "1", "Z4"), ("O", "P", "1")],
)
def test_bounds_never_exclude_a_board_the_search_fills(pieces):
    """Soundness on small cases: whenever a counting bound excludes a board, the exact
    search proves that no layout exists (start in the top-left corner)."""
    excluded = 0
    for rows, cols in itertools.product(range(2, 7), repeat=2):
        bounds = one_colour_bounds(rows, cols, pieces)
        if bounds.possible or rows * cols < sum(PIECES[n].size for n in pieces):
            continue
        excluded += 1
        result = search.solve(corner_problem(rows, cols, without=_others(pieces)))
        assert result.status == "infeasible", (rows, cols, bounds)
    assert excluded > 0


def _others(pieces):
    return tuple(n for n in PIECE_NAMES if n not in pieces)


def test_candidates():
    """No rectangle under 117 squares; 11x11 excluded (neighbour bound), 13x13 and 12x12
    left; the 20 candidates of area at most 140."""
    candidates = one_colour_candidates(169)
    assert min(r * c for r, c in candidates) == 117
    assert (11, 11) not in candidates and one_colour_bounds(11, 11).neighbours < 0
    assert (12, 12) in candidates and (13, 13) in candidates
    small = [rc for rc in candidates if rc[0] * rc[1] <= 140]
    assert small == [
        (3, 39), (3, 40), (3, 41), (5, 25), (3, 42), (7, 18), (3, 43), (5, 26), (3, 44),
        (11, 12), (7, 19), (3, 45), (5, 27), (9, 15), (8, 17), (3, 46), (6, 23), (4, 35),
        (5, 28), (7, 20),
    ]  # fmt: skip
    # 10x14 (140) passes the neighbour bound but not the block bound
    assert one_colour_bounds(10, 14).neighbours >= 0 > one_colour_bounds(10, 14).blocks


def test_a_mirror_never_cuts_a_piece():
    """Every placement that crosses a mirror line of an even rectangle overlaps its own
    image, so with colours swapped by the mirror no piece crosses it."""
    rows, cols = 8, 10
    table = empty_board_placements(rows, cols)
    _, _, left_right, top_bottom = board_symmetries(Board(rows, cols))
    for mirror, axis in ((left_right, 1), (top_bottom, 0)):
        half = (rows, cols)[axis] // 2
        for sq in table.squares:
            cells = sq[sq >= 0]
            lines = (cells // cols, cells % cols)[axis]
            crosses = lines.min() < half <= lines.max()
            assert crosses == bool(set(cells) & set(mirror[cells].tolist()))


def test_three_pieces_at_a_grid_point_are_pairwise_adjacent():
    """A piece that covers two diagonal squares of a 2x2 block covers a third one: so where
    three different pieces meet at a grid point, each pair shares an edge (two covering
    the block's other two squares and the third meets both), which two colours cannot
    colour."""
    rows = cols = 7
    table = empty_board_placements(rows, cols)
    for sq in table.squares:
        cells = set(sq[sq >= 0].tolist())
        for r, c in itertools.product(range(rows - 1), range(cols - 1)):
            a, b, d, e = r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1
            inside = {a, b, d, e} & cells
            if {a, e} <= cells or {b, d} <= cells:
                assert len(inside) >= 3


def test_record_puzzle_files_match_the_records():
    """Each shipped puzzles/records/*.toml reads back as its record's problem."""
    from conftest import PUZZLES

    from solver.formats.puzzle import load_puzzle
    from solver.records import RECORDS

    names = {p.stem for p in (PUZZLES / "records").glob("*.toml")}
    assert names == {r.name for r in RECORDS}
    for record in RECORDS:
        problem = load_puzzle(PUZZLES / "records" / f"{record.name}.toml")
        built = record.problem()
        assert problem.colours == built.colours
        assert problem.position.board == built.position.board
        for colour in built.colours:
            assert problem.position.colour(colour) == built.position.colour(colour)
        free = problem.position.board.size
        area = sum(problem.position.colour(c).remaining_squares for c in problem.colours)
        assert free - area == record.empty


def test_record_empty_squares():
    from solver.records import RECORDS

    empty = {r.name: r.empty for r in RECORDS}
    assert empty["four-19x19"] == 5 and empty["four-18x20"] == 4 and empty["four-21x17"] == 1
    assert empty["four-21x16-no-I5"] == 0
    assert empty["two-13x14"] == 4 and empty["two-12x15"] == 2 and empty["two-10x18"] == 2
    assert empty["two-14x14"] == 18
