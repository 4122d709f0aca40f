"""The square-first search (backend "tight"): its verdicts agree with the Blokus-aware
exact search on small boards, every layout passes the rule checker (solve() checks it),
the symmetric reduction finds layouts and never claims "infeasible", and a time-out is
"unknown"."""

from __future__ import annotations

import dataclasses

import helpers
import pytest
from test_domain import _cases  # small corner problems with random piece sets

from research import tight
from research import tight_kernel as tk
from research.records import CORNER_COLOURS, corner_problem
from solver.backends.base import SolveOptions, order_and_check
from solver.backends.domain import kernel as dk
from solver.backends.domain import quadrants as domain
from solver.backends.search import exact as search
from solver.core.board import Board
from solver.core.colour_symmetry import colour_symmetries
from solver.core.pieces import PIECE_NAMES
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.tasks.solve import checked_result, solve

PUZZLES = helpers.PUZZLES


def tight_solve(problem):
    """The square-first search's answer, checked by the rules as the product checks every
    backend's (it is no longer a ``--backend`` choice)."""
    return checked_result(problem, tight.solve(problem), "tight", 0.0)


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
    got = tight_solve(problem)  # a layout is checked here
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
    assert tight_solve(problem).status == "solved"


def test_time_limit_is_unknown():
    problem = corner_problem(13, 14, ("blue", "red"))  # Gottfried: 4 empty squares
    result = tight.solve_complete(problem, SolveOptions(time_limit=0.2))
    assert result.status == "unknown"


def test_refused_inputs():
    with pytest.raises(InputError, match="monomino-last"):
        tight.solve(corner_problem(5, 5, monomino_last=True))
    board = Board(5, 5)
    placed = ColourState("blue", 0, (Placement("1", frozenset({0})),), ("2",))
    problem = Problem(Position(board, (placed,)), ("blue",))
    turn = colour_symmetries(corner_problem(5, 5, CORNER_COLOURS))[0]
    with pytest.raises(InputError, match="empty board"):
        tight.build(problem, turn)
    nowhere = ColourState("blue", None, (), ("2",))
    with pytest.raises(InputError, match="no start square"):
        tight.solve(Problem(Position(board, (nowhere,)), ("blue",)))


def test_luby_sequence():
    assert [tight.luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def duo_like(pieces: tuple[str, ...]) -> Problem:
    """8x8, purple from c6 and orange from f3 (swapped by the half turn, as e10 and j5 on
    the Duo board), both place ``pieces``."""
    board = Board(8, 8)
    colours = (
        ColourState("purple", board.parse("c6"), (), pieces),
        ColourState("orange", board.parse("f3"), (), pieces),
    )
    return Problem(Position(board, colours), ("purple", "orange"))


@pytest.mark.parametrize("workers", [1, 2])
def test_restarts_find_a_half_turn_layout(workers):
    """Runs of 20 nodes and more (Luby): a layout, checked by the rules, symmetric under
    the half turn, found after more than one run."""
    problem = duo_like(("1", "2", "I3", "V3", "L4", "O", "T4"))
    assert tight.restarts_apply(problem)
    options = SolveOptions(time_limit=60, workers=workers)
    result = tight.solve_restarts(problem, options, base_nodes=20)
    assert result.status == "solved" and result.stats["symmetry"] == "half turn"
    assert result.stats["threads"] == workers and result.stats["runs"] > 1
    layout = checked_result(problem, result, "tight", 0.0).layout
    purple = frozenset().union(*(p.squares for p in layout["purple"]))
    orange = frozenset().union(*(p.squares for p in layout["orange"]))
    assert frozenset(63 - s for s in purple) == orange


def test_restarts_without_a_symmetric_layout_are_unknown():
    """As above (no layout is symmetric under the half turn): a run exhausts its tree and
    the answer is "unknown" (never "infeasible"), with the reason."""
    problem = corner_problem(4, 4, ("blue", "red"), without=only("V3", "L4"))
    result = tight.solve_restarts(problem, SolveOptions(time_limit=60), base_nodes=5)
    assert result.status == "unknown"
    assert "symmetric" in result.stats["unknown_reason"]


def test_restarts_apply_to_two_swapped_colours_only():
    assert tight.restarts_apply(load_puzzle(PUZZLES / "duo-both.toml"))
    assert not tight.restarts_apply(load_puzzle(PUZZLES / "classic-solo-84.toml"))
    assert not tight.restarts_apply(load_puzzle(PUZZLES / "duo-purple.toml"))
    assert not tight.restarts_apply(corner_problem(6, 6, CORNER_COLOURS))  # four colours
    with pytest.raises(InputError, match="two colours"):
        tight.solve_restarts(corner_problem(6, 6))


def _partial(problem: Problem, keep: int, extra: tuple[str, ...]) -> Problem:
    """The problem's position with the first ``keep`` placements of each colour's layout
    (found by the search, in order of play) on the board; the rest of its pieces and
    ``extra`` left to place."""
    layout = solve(problem, SolveOptions(backend="search")).layout
    assert layout is not None
    states = []
    for state in problem.position.colours:
        played = tuple(layout[state.name][:keep])
        left = [p.piece for p in layout[state.name][keep:]] + list(extra)
        states.append(dataclasses.replace(state, placed=played, remaining=tuple(sorted(left))))
    position = dataclasses.replace(problem.position, colours=tuple(states))
    return Problem(position, problem.colours)


PARTIAL = [
    # rows, cols, colours, pieces, placements kept per colour, pieces added to place
    (5, 5, ("blue",), ("1", "2", "V3", "O"), 1, ()),
    (5, 5, ("blue",), ("1", "2", "V3", "O"), 2, ("I3",)),
    (6, 6, ("blue", "red"), ("1", "2", "V3", "O", "L4"), 2, ()),
    (6, 6, ("blue", "red"), ("1", "2", "V3", "O", "L4"), 1, ("I4",)),
    (7, 7, CORNER_COLOURS, ("1", "2", "V3", "T4"), 1, ()),
    (7, 7, CORNER_COLOURS, ("1", "2", "V3", "T4"), 2, ("Z4",)),
    (6, 7, ("blue", "yellow"), ("1", "2", "I3", "L4", "P"), 3, ("O",)),
    (5, 6, ("blue", "yellow"), ("1", "2", "I3", "L4"), 1, ("X",)),
]


@pytest.mark.parametrize("rows,cols,colours,pieces,keep,extra", PARTIAL)
def test_pieces_on_the_board_agree_with_the_search(rows, cols, colours, pieces, keep, extra):
    """A position with pieces of the colours already on the board (a game in progress):
    new pieces grow from them, never share an edge with them, and the verdict is the
    search's; a layout goes through the rule checker."""
    problem = _partial(corner_problem(rows, cols, colours, without=only(*pieces)), keep, extra)
    expected = search.solve(problem).status
    assert tight_solve(problem).status == expected
    attach = tight.solve_complete(problem, attach=True)
    assert attach.status == expected
    if attach.layout is not None:
        checked_result(problem, attach, "tight", 0.0)


def test_pieces_on_the_board_cases_include_both_answers():
    statuses = set()
    for rows, cols, colours, pieces, keep, extra in PARTIAL:
        problem = corner_problem(rows, cols, colours, without=only(*pieces))
        statuses.add(search.solve(_partial(problem, keep, extra)).status)
    assert statuses == {"solved", "infeasible"}


def test_no_option_at_all_is_infeasible():
    """No placement of the piece fits (X from the corner of 3x3): an empty option list,
    proven infeasible (it raised while building before)."""
    problem = corner_problem(3, 3, ("blue",), without=only("X"))
    assert search.solve(problem).status == "infeasible"
    assert tight.solve_complete(problem).status == "infeasible"


def _state(board, name, start, placed=(), remaining=()):
    return ColourState(
        name, start, tuple(Placement(p, frozenset(board.parse(x) for x in sq)) for p, sq in placed),
        remaining,
    )  # fmt: skip


def test_colours_with_nothing_left_or_a_taken_start_agree_with_the_search():
    """A colour done, or with nothing at all, while another plays; a colour whose start
    square another colour covers (it cannot begin); a colour whose only piece fits nowhere
    (its option list is empty: building raised)."""
    b = Board(4, 4)
    cases = [
        (_state(b, "blue", 12, [("1", ["a1"])]), _state(b, "red", 3, remaining=("1",))),
        (_state(b, "blue", 12), _state(b, "red", 3, remaining=("1",))),
        (_state(b, "blue", 12, [("1", ["d4"])], ("2",)), _state(b, "red", 3)),
        (_state(b, "blue", 12, [("1", ["d4"])], ("2",)), _state(b, "red", 3, remaining=("1",))),
        (_state(b, "blue", 12, remaining=("I5",)), _state(b, "red", 3, remaining=("1",))),
    ]
    statuses = []
    for states in cases:
        problem = Problem(Position(b, states), ("blue", "red"))
        expected = search.solve(problem).status
        assert tight_solve(problem).status == expected
        assert tight.solve_complete(problem, attach=True).status == expected
        statuses.append(expected)
    assert statuses == ["solved", "solved", "solved", "infeasible", "infeasible"]


def test_refused_pieces_on_the_board_apart_duplicates_and_card_goals():
    """The square-first search grows each colour from one group and takes one piece of
    each shape; card goals are not its job. Each is refused, never answered wrongly."""
    b = Board(5, 5)
    apart = _state(b, "blue", 20, [("1", ["a5"]), ("1", ["e1"])], ("2",))
    with pytest.raises(InputError, match="apart"):
        tight.solve(Problem(Position(b, (apart,)), ("blue",)))
    twice = _state(b, "blue", 20, remaining=("1", "1", "2"))
    with pytest.raises(InputError, match="two"):
        tight.solve(Problem(Position(b, (twice,)), ("blue",)))
    with pytest.raises(InputError, match="stars"):
        tight.solve(load_puzzle(PUZZLES / "cards" / "cover-2-medium.toml"))


def test_restarts_leave_out_positions_with_pieces_on_the_board():
    """A Duo position that the half turn maps onto itself, pieces on the board: not for the
    symmetric restarts (auto raised an input error on it before)."""
    problem = parse_puzzle(
        'variant = "duo"\ncolours = ["purple", "orange"]\ndiagram = """\n'
        + "..............\n" * 4
        + "....PP........\n"
        + "..............\n" * 4
        + "........OO....\n"
        + "..............\n" * 4
        + '"""\n',
        "duo-mirror.toml",
    )
    assert colour_symmetries(problem)
    assert not tight.restarts_apply(problem)
    result = solve(problem, SolveOptions(backend="auto", time_limit=3))
    assert result.status in ("solved", "unknown")


def test_agrees_with_the_tight_symmetric_search():
    """Both searches exhaust the layouts one symmetry maps onto themselves: they must agree
    on whether one exists, for every group that applies; each layout is rule-checked."""
    outcomes = set()
    compared = 0
    for problem in _cases(90, 3):
        for sym in colour_symmetries(problem):
            try:
                search = domain.build(problem, sym, seed=compared % 3)
            except InputError:
                continue
            got = search.run(2_000_000)
            reference = tight.build(problem, sym)
            expected = tk.DONE if reference.infeasible else reference.run(500_000)
            if expected == tk.PAUSE or got == dk.PAUSE:
                continue
            assert (got == dk.FOUND) == (expected == tk.FOUND), (problem.position.board, sym.name)
            if got == dk.FOUND:
                order_and_check(problem, search.layout(), "domain")  # raises if illegal
            outcomes.add(got)
            compared += 1
    assert outcomes == {dk.FOUND, dk.DONE}
    assert compared >= 60
