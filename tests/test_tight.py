"""The square-first search (backend "tight"): its verdicts agree with the Blokus-aware
exact search on small boards, every layout passes the rule checker (solve() checks it),
the symmetric reduction finds layouts and never claims "infeasible", and a time-out is
"unknown"."""

from __future__ import annotations

import pytest

from solver.backends import search, tight
from solver.backends.symmetric import colour_symmetries
from solver.board import Board
from solver.errors import InputError
from solver.pieces import PIECE_NAMES
from solver.position import ColourState, Placement, Position
from solver.problem import Problem
from solver.records import CORNER_COLOURS, corner_problem
from solver.solve import SolveOptions, checked_result, solve


def only(*pieces):
    """The pieces to leave out so that just ``pieces`` remain."""
    return tuple(n for n in PIECE_NAMES if n not in pieces)


CASES = [
    # rows, cols, colours, pieces
    (4, 4, ("blue",), ("1", "2", "V3", "O")),  # infeasible
    (5, 5, ("blue",), ("1", "2", "V3", "O")),
    (4, 5, ("blue", "red"), ("1", "2", "I3")),
    (5, 5, ("blue", "red"), ("1", "2", "V3", "O")),
    (4, 4, ("blue", "red"), ("1", "2", "V3")),
    (3, 5, ("blue", "yellow"), ("1", "2", "V3")),
    (4, 4, CORNER_COLOURS, ("1", "2")),
    (5, 5, CORNER_COLOURS, ("1", "2")),
    (4, 6, CORNER_COLOURS, ("1", "V3")),
    (3, 3, ("blue", "red"), ("2", "V3")),
]


@pytest.mark.parametrize("rows,cols,colours,pieces", CASES)
def test_verdict_agrees_with_the_search(rows, cols, colours, pieces):
    problem = corner_problem(rows, cols, colours, without=only(*pieces))
    expected = search.solve(problem).status
    got = solve(problem, SolveOptions(backend="tight"))  # a layout is checked here
    assert got.status == expected
    assert tight.solve_complete(problem).status == expected
    attach = tight.solve_complete(problem, attach=True)
    assert attach.status == expected
    if attach.layout is not None:
        checked_result(problem, attach, "tight", 0.0)


def test_cases_include_both_answers():
    statuses = {
        search.solve(corner_problem(r, c, cols, without=only(*p))).status for r, c, cols, p in CASES
    }
    assert statuses == {"solved", "infeasible"}


@pytest.mark.parametrize(
    "rows,cols,colours,pieces,symmetry",
    [
        (6, 6, CORNER_COLOURS, ("1", "2", "V3"), "quarter turn clockwise"),
        (
            6,
            8,
            CORNER_COLOURS,
            ("1", "2", "V3", "O"),
            "half turn, left-right mirror and top-bottom mirror",
        ),
        (5, 6, ("blue", "red"), ("1", "2", "V3"), "half turn"),
    ],
)
@pytest.mark.parametrize("branch", ["fewest", "scan", "attach"])
def test_symmetric_layouts(rows, cols, colours, pieces, symmetry, branch):
    problem = corner_problem(rows, cols, colours, without=only(*pieces))
    result = tight.solve_symmetric(problem, scan=branch == "scan", attach=branch == "attach")
    assert result.status == "solved" and result.stats["symmetry"] == symmetry
    checked = checked_result(problem, result, "tight", 0.0)
    assert checked.report is not None
    # the layout is symmetric: the group maps every colour's squares to its image's
    sym = colour_symmetries(problem)[0]
    squares = {c: frozenset().union(*(p.squares for p in checked.layout[c])) for c in colours}
    for h, cycle in zip(sym.elements, zip(*sym.cycles)):
        for rep, image in zip(sym.representatives, cycle):
            assert frozenset(int(h[s]) for s in squares[rep]) == squares[image]


def test_mirrors_keep_pieces_in_their_quadrant():
    """Both mirrors on an even rectangle: each piece lies in one quadrant, and the top-left
    quadrant holds one piece of each shape (Gottfried's quadrant)."""
    problem = corner_problem(6, 8, CORNER_COLOURS, without=only("1", "2", "V3", "O"))
    result = tight.solve_symmetric(problem)
    layout = checked_result(problem, result, "tight", 0.0).layout
    quadrant_pieces = []
    for placements in layout.values():
        for p in placements:
            quadrants = {(s // 8 < 3, s % 8 < 4) for s in p.squares}
            assert len(quadrants) == 1
            if quadrants == {(True, True)}:
                quadrant_pieces.append(p.piece)
    assert sorted(quadrant_pieces) == sorted(["1", "2", "V3", "O"])


def test_no_symmetric_layout_is_unknown_not_infeasible():
    """4x4, blue and red from opposite corners with V3 and L4: layouts exist, none is
    symmetric under the half turn; the exhausted symmetric search says "unknown"."""
    problem = corner_problem(4, 4, ("blue", "red"), without=only("V3", "L4"))
    assert search.solve(problem).status == "solved"
    for scan, attach in ((False, False), (True, False), (False, True)):
        result = tight.solve_symmetric(problem, scan=scan, attach=attach)
        assert result.status == "unknown"
        assert "symmetric" in result.stats["unknown_reason"]
    assert solve(problem, SolveOptions(backend="tight")).status == "solved"


def test_time_limit_is_unknown():
    problem = corner_problem(13, 14, ("blue", "red"))  # Gottfried: 4 empty squares
    result = tight.solve_complete(problem, SolveOptions(time_limit=0.2))
    assert result.status == "unknown"


def test_refused_inputs():
    with pytest.raises(InputError, match="monomino-last"):
        tight.solve(corner_problem(5, 5, monomino_last=True))
    board = Board(5, 5)
    placed = ColourState("blue", 0, (Placement("1", frozenset({0})),), ("2",))
    with pytest.raises(InputError, match="empty board"):
        tight.solve(Problem(Position(board, (placed,)), ("blue",)))
