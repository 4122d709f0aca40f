"""The counting facts behind the record questions (research/records.py), each checked against
the rules or the exact search rather than taken on trust."""

from __future__ import annotations

import itertools
import random

import pytest

from research.records import (
    BLOCK_EXTRA_TOTAL,
    CONCAVE_TOTAL,
    CONVEX_TOTAL,
    NEIGHBOURS_TOTAL,
    PERIMETER_TOTAL,
    border_most,
    corner_problem,
    corners,
    one_colour_bounds,
    one_colour_candidates,
    perimeter,
    window_counts,
)
from solver.backends.search import exact as search
from solver.backends.search import tables as search_tables
from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.placements import empty_board_placements
from solver.core.symmetry import board_symmetries


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
    assert int(search_tables._PIECE_EXTRA.sum()) == BLOCK_EXTRA_TOTAL


@pytest.mark.parametrize(
    "pieces",
    [
        ("1", "2", "V3", "O"),
        ("I3", "T4", "2"),
        ("V3", "L4", "1", "Z4"),
        ("O", "P", "1"),
        ("X", "1", "2"),
        ("T4", "V3", "O", "2"),
    ],
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


def test_totals():
    assert (PERIMETER_TOTAL, CONVEX_TOTAL, CONCAVE_TOTAL) == (216, 113, 29)
    totals = [sum(window_counts(p.cells)[k] for p in PIECES.values()) for k in range(4)]
    assert totals == [113, 74, 29, 2]  # n1 is the convex and n3 the concave corners
    for p in PIECES.values():  # convex minus concave is 4 for a polyomino without holes
        convex, concave = corners(p.cells)
        assert convex - concave == 4


def test_candidates():
    """The area, neighbour, 2x2-block and width bounds alone leave nothing under 117
    squares and exclude 11x11 (20 rectangles of area at most 140 pass them); with the
    perimeter, corner-window and border bounds no rectangle of area at most 140 is left."""
    basic = [
        (r, c)
        for r in range(1, 41)
        for c in range(r, 140 // r + 1)
        if (b := one_colour_bounds(r, c)).empty >= 0 and min(b.neighbours, b.blocks) >= 0 and b.fits
    ]
    assert min(r * c for r, c in basic) == 117 and (11, 11) not in basic
    assert (3, 44) in basic and (12, 12) not in [rc for rc in one_colour_candidates(169)]
    assert len(basic) == 20  # of area at most 140
    assert one_colour_bounds(11, 11).neighbours < 0
    candidates = one_colour_candidates(169)
    assert (13, 13) in candidates and (12, 13) in candidates
    # the window count excludes 12x12 (so 13x13 is the smallest square) and 11x13
    for rc in ((12, 12), (11, 13)):
        b = one_colour_bounds(*rc)
        assert min(b.neighbours, b.perimeter, b.windows, b.blocks) >= 0 > b.border
    small = [rc for rc in candidates if rc[0] * rc[1] <= 140]
    assert small == []  # no rectangle of area at most 140
    assert min(r * c for r, c in candidates) == 141  # 3x47
    assert all(one_colour_bounds(*rc).border < 0 for rc in ((3, 44), (3, 46), (4, 35)))
    # the perimeter bound excludes 3x39, 3x40, 5x25 and 7x18 (the search proves 7x18 too)
    for rc in ((3, 39), (3, 40), (5, 25), (7, 18)):
        assert one_colour_bounds(*rc).perimeter < 0
    # the corner-window bound excludes 11x12, 9x15 and 7x19
    for rc in ((11, 12), (9, 15), (7, 19)):
        b = one_colour_bounds(*rc)
        assert b.perimeter >= 0 > b.windows
    # 10x14 (140) passes the neighbour bound but not the block bound
    assert one_colour_bounds(10, 14).neighbours >= 0 > one_colour_bounds(10, 14).blocks


def _border_only_cases(n, seed):
    """n random (rows, cols, pieces) that only the window count excludes."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pieces = tuple(sorted(rng.sample(PIECE_NAMES, rng.randint(3, 7)), key=PIECE_NAMES.index))
        rows = rng.randint(3, 7)
        cols = rng.randint(rows, 8)
        b = one_colour_bounds(rows, cols, pieces)
        others = (b.empty, b.neighbours, b.perimeter, b.windows, b.blocks)
        if b.fits and min(others) >= 0 > b.border:
            out.append((rows, cols, pieces))
    return out


@pytest.mark.parametrize("rows,cols,pieces", _border_only_cases(60, seed=7))
def test_window_count_agrees_with_the_search(rows, cols, pieces):
    """Boards only the window count excludes: the exact search proves each infeasible."""
    result = search.solve(corner_problem(rows, cols, without=_others(pieces)))
    assert result.status == "infeasible"


WINDOW_CASES = [
    (6, 6, ("1", "2", "V3", "T4", "X")),
    (6, 7, ("O", "L4", "Z4", "W", "1")),
    (7, 7, ("F", "N", "P", "U", "2", "I3")),
    (5, 8, ("I5", "Y", "L5", "V3", "1")),
    (7, 6, ("T5", "V5", "Z5", "I4", "O")),
]


@pytest.mark.parametrize("rows,cols,pieces", WINDOW_CASES)
def test_corner_windows_on_real_layouts(rows, cols, pieces):
    """The window inequality x <= e + v + w + o holds in every window of real layouts found
    by the exact search, and the sums over windows are what the bound uses."""
    result = search.solve(corner_problem(rows, cols, without=_others(pieces)))
    assert result.status == "solved"
    owner = {}
    for k, placement in enumerate(result.layout["blue"]):
        for s in placement.squares:
            owner[divmod(s, cols)] = k

    def state(r, c):  # a piece number, "e" empty or "o" outside
        if not (0 <= r < rows and 0 <= c < cols):
            return "o"
        return owner.get((r, c), "e")

    sums = {"x": 0, "e": 0, "o": 0, "vw": 0}
    classes = dict.fromkeys(("A", "B", "D", "C2", "S1", "S2", "K1"), 0)
    for pr, pc in itertools.product(range(rows + 1), range(cols + 1)):
        tl, tr, bl, br = (
            state(pr - 1, pc - 1),
            state(pr - 1, pc),
            state(pr, pc - 1),
            state(pr, pc),
        )
        window = (tl, tr, bl, br)
        pairs = ((tl, tr), (bl, br), (tl, bl), (tr, br))
        x = sum((a != b) and (isinstance(a, int) or isinstance(b, int)) for a, b in pairs)
        e, o = window.count("e"), window.count("o")
        pieces_here = [k for k in window if isinstance(k, int)]
        vw = sum(pieces_here.count(k) in (1, 3) for k in set(pieces_here))
        assert x <= e + vw + o, (pr, pc, window)
        for key, value in zip("x e o".split(), (x, e, o)):
            sums[key] += value
        sums["vw"] += vw
        side = o == 2
        if o == 0 and not pieces_here:
            classes["A"] += 1
        elif o == 0 and len(pieces_here) == 1:
            classes["B"] += 1
        elif o == 0 and len(pieces_here) == 2 and len(set(pieces_here)) == 2:
            classes["D"] += 1
            assert e == 2
        elif o == 0 and len(pieces_here) == 2:
            classes["C2"] += 1
        elif side and len(pieces_here) == 1:
            classes["S1"] += 1
        elif side and len(pieces_here) == 2:
            assert len(set(pieces_here)) == 1
            classes["S2"] += 1
        elif o == 3 and pieces_here:
            classes["K1"] += 1
    outline = sum(perimeter(PIECES[n].cells) for n in pieces)
    assert sums["x"] == 2 * outline
    assert sums["e"] == 4 * (rows * cols - sum(PIECES[n].size for n in pieces))
    assert sums["o"] == 4 * (rows + cols) + 4
    assert sums["vw"] == sum(sum(corners(PIECES[n].cells)) for n in pieces)
    # the window count's identities
    n1, n2, n3, n4 = (sum(window_counts(PIECES[p].cells)[k] for p in pieces) for k in range(4))
    assert n1 == classes["B"] + 2 * classes["D"] + classes["S1"] + classes["K1"]
    assert n2 == classes["C2"] + classes["S2"]
    inner = (rows - 1) * (cols - 1)
    assert classes["A"] == inner - classes["B"] - classes["D"] - classes["C2"] - n3 - n4
    border = [
        (r, c) for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)
    ]
    covered = sum((r, c) in owner for r, c in border)
    assert 2 * classes["S2"] + classes["S1"] == 2 * covered
    assert 2 * covered + classes["K1"] <= border_most(rows, cols, pieces)


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
    from helpers import PUZZLES

    from research.records import RECORDS
    from solver.formats.puzzle import load_puzzle

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
    from research.records import RECORDS

    empty = {r.name: r.empty for r in RECORDS}
    assert empty["four-19x19"] == 5 and empty["four-18x20"] == 4 and empty["four-21x17"] == 1
    assert empty["four-21x16-no-I5"] == 0
    assert empty["two-13x14"] == 4 and empty["two-12x15"] == 2 and empty["two-10x18"] == 2
    assert empty["two-14x14"] == 18
    assert empty["three-19x15"] == 18 and empty["three-20x14"] == 13
    assert empty["three-15x18"] == 3
