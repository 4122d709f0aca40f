"""The endgame check: yes with a checked layout, no with the best still reachable, unknown."""

import json
from dataclasses import replace
from itertools import combinations

import helpers
import pytest
from click.testing import CliRunner

from solver.backends.base import SolveOptions
from solver.backends.search.counting import count
from solver.cli.commands import main
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.pieces import PIECES
from solver.core.position import ColourState, Position
from solver.core.problem import Problem
from solver.errors import SolverBug
from solver.formats.game import load_game
from solver.formats.puzzle import load_puzzle
from solver.tasks.endgame import best_options, cap_after_no, endgame_check, no_bound
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


def test_yes_comes_with_a_checked_layout():
    problem = load_puzzle(PUZZLES / "tiny-5x5-corner.toml")
    answer = endgame_check(problem.position, "blue")
    assert answer.answer == "yes" and answer.best is None
    assert answer.place_all.status == "solved" and answer.place_all.layout is not None


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_no_reports_the_best_subset_that_fits(backend):
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    position = problem.position
    answer = endgame_check(position, "blue", SolveOptions(backend=backend))
    assert answer.answer == "no"
    assert answer.best.status == "optimal"
    # independently: the largest area of a subset of the pieces that can all be placed
    pieces = position.colour("blue").remaining
    best_area = 0
    for k in range(len(pieces), 0, -1):
        for subset in combinations(pieces, k):
            colours = (replace(position.colours[0], remaining=subset),)
            if count(replace(problem, position=replace(position, colours=colours)), limit=1).count:
                best_area = max(best_area, sum(PIECES[p].size for p in subset))
    assert answer.best_squares == best_area
    assert answer.best.score == best_area - sum(PIECES[p].size for p in pieces)


def test_time_out_is_unknown_never_no():
    problem = load_puzzle(PUZZLES / "duo-purple.toml")
    answer = endgame_check(
        problem.position, "purple", SolveOptions(backend="cpsat", time_limit=0.01)
    )
    assert answer.answer == "unknown"
    assert answer.best is None


# After a proven "no" the best score is at most -(smallest remaining piece): that piece at
# least stays unplaced, and without every piece placed there is no +15/+5. The search
# backend with time limit 0 runs a fixed number of nodes (a first chunk, then one chunk of
# the time-limited loop), so the cases below are deterministic: place-all is proven
# infeasible within those nodes, while the max-score solve is cut short with its weak root
# bound.
GAMES = helpers.GAMES
CUT_SHORT = SolveOptions(backend="search", time_limit=0)


def _one_colour(rows, cols, pieces, bonus):
    board = Board(rows, cols)
    return Position(
        board, (ColourState("blue", board.parse(f"a{rows}"), (), tuple(pieces)),), bonus=bonus
    )


def _max_score_alone(position, colour, options=CUT_SHORT):
    return solve(Problem(position, (colour,), "max-score", False), options)


@pytest.mark.parametrize(
    "rows, cols, pieces, bonus, alone_bound",
    [
        (6, 6, ["1", "V3", "L4", "F", "W", "Z5"], True, 20),  # bonuses: bound = all + monomino last
        (6, 7, ["1", "I4", "N", "T5", "W", "Z5"], False, 0),  # Junior-like: the reported "bound 0"
    ],
)
def test_no_caps_the_bound_and_proves_a_best_that_reaches_it(
    rows, cols, pieces, bonus, alone_bound
):
    position = _one_colour(rows, cols, pieces, bonus)
    assert no_bound(position, "blue") == -1
    # the max-score solve alone, with the options the check gives its best (best_options)
    alone = _max_score_alone(position, "blue", best_options(CUT_SHORT))
    assert (alone.status, alone.score, alone.bound) == ("solved", -1, alone_bound)
    answer = endgame_check(position, "blue", CUT_SHORT)
    assert answer.answer == "no" and answer.place_all.status == "infeasible"
    assert (answer.best.status, answer.best.score, answer.best.bound) == ("optimal", -1, -1)
    assert (
        answer.best.layout == alone.layout
        and answer.best_squares == sum(PIECES[p].size for p in pieces) - 1
    )
    # the unlimited solves agree: -1 is the optimum
    full = endgame_check(position, "blue", SolveOptions(backend="search"))
    assert (full.answer, full.best.status, full.best.score, full.best.bound) == (
        "no",
        "optimal",
        -1,
        -1,
    )


@pytest.mark.parametrize(
    "after, colour, alone_bound, cap, found, optimum",
    [
        (17, "purple", 15, -2, -11, -10),  # smallest piece left: the domino
        (19, "orange", 20, -1, -10, -8),  # the monomino
    ],
)
def test_no_caps_a_weak_bound_in_a_real_game(after, colour, alone_bound, cap, found, optimum):
    position = load_game(GAMES / "duo-L4-s29.blksgf").position(after)
    smallest = min(PIECES[p].size for p in position.colour(colour).remaining)
    assert no_bound(position, colour) == -smallest == cap
    # the max-score solve alone, with the options the check gives its best (best_options)
    alone = _max_score_alone(position, colour, best_options(CUT_SHORT))
    assert (alone.status, alone.score, alone.bound) == ("solved", found, alone_bound)
    answer = endgame_check(position, colour, CUT_SHORT)
    assert answer.answer == "no"
    assert (answer.best.status, answer.best.score, answer.best.bound) == ("solved", found, cap)
    assert answer.best.layout == alone.layout
    full = _max_score_alone(position, colour, SolveOptions(backend="search"))
    assert (full.status, full.score) == ("optimal", optimum) and optimum <= cap


def test_unknown_never_gets_the_no_bound():
    position = load_game(GAMES / "duo-L4-s29.blksgf").position(13)
    answer = endgame_check(position, "orange", CUT_SHORT)
    assert answer.answer == "unknown" and answer.place_all.status == "unknown"
    assert answer.best is None and answer.place_all.bound is None
    assert answer.best_squares is None


def test_cap_after_no_keeps_a_tighter_bound_and_an_optimum():
    position = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml").position
    best = _max_score_alone(position, "blue", SolveOptions(backend="search"))
    assert (best.status, best.score, best.bound) == ("optimal", -1, -1)
    assert cap_after_no(best, position, "blue") is best
    # a cut-short result (as a backend gives it): weaker bound, or none at all
    for weak in (20, None):
        capped = cap_after_no(replace(best, status="solved", bound=weak), position, "blue")
        assert (capped.status, capped.score, capped.bound) == ("optimal", -1, -1)
    # a bound already below the cap stays (a layout that misses it stays "solved")
    empty = replace(
        best,
        status="solved",
        layout={"blue": []},
        report=check_layout(position, {"blue": []}),
        bound=-3,
    )
    assert empty.score == -10
    assert (
        cap_after_no(empty, position, "blue").status,
        cap_after_no(empty, position, "blue").bound,
    ) == ("solved", -3)
    # no layout (time limit before any): the cap is still a bound, status unchanged
    nothing = replace(best, status="unknown", layout=None, report=None, bound=None)
    assert (
        cap_after_no(nothing, position, "blue").status,
        cap_after_no(nothing, position, "blue").bound,
    ) == ("unknown", -1)


def test_a_layout_above_the_no_bound_is_a_solver_bug():
    position = load_puzzle(PUZZLES / "tiny-5x5-corner.toml").position
    best = _max_score_alone(position, "blue", SolveOptions(backend="search"))
    assert best.score > no_bound(position, "blue")  # it places everything
    with pytest.raises(SolverBug):
        cap_after_no(best, position, "blue")


@pytest.mark.parametrize(
    "args, line, status, bound",
    [
        (["--after", "17", "--colour", "purple"], "(best found; upper bound -2)", "solved", -2),
        (["--after", "19", "--colour", "orange"], "(best found; upper bound -1)", "solved", -1),
    ],
)
def test_check_out_writes_the_capped_bound_and_verify_accepts_it(
    tmp_path, args, line, status, bound
):
    out = tmp_path / "best.json"
    result = CliRunner().invoke(
        main,
        [
            "check",
            str(GAMES / "duo-L4-s29.blksgf"),
            *args,
            "--backend",
            "search",
            "--time-limit",
            "0",
            "--out",
            str(out),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert " no " in result.output and line in result.output
    data = json.loads(out.read_text())
    assert (data["goal"], data["status"], data["bound"]) == ("max-score", status, bound)
    assert data["score"] <= bound
    checked = CliRunner().invoke(main, ["verify", str(out)], catch_exceptions=False)
    assert checked.exit_code == 0, checked.output
    assert "FALSE CLAIM" not in checked.output


def test_check_out_proven_best_by_the_no_bound_verifies(tmp_path):
    puzzle = tmp_path / "junior-like.toml"
    puzzle.write_text(
        'title = "Six pieces, 6x6"\nvariant = "custom"\nsize = [6, 6]\n\n'
        '[start]\nblue = "a6"\n\n[pieces]\nblue = ["1", "V3", "L4", "F", "W", "Z5"]\n'
    )
    out = tmp_path / "best.json"
    result = CliRunner().invoke(
        main,
        ["check", str(puzzle), "--backend", "search", "--time-limit", "0", "--out", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "best: 22 of 23 squares, score -1 (proven best)" in result.output
    data = json.loads(out.read_text())
    assert (data["status"], data["score"], data["bound"]) == ("optimal", -1, -1)
    checked = CliRunner().invoke(main, ["verify", str(out)], catch_exceptions=False)
    assert checked.exit_code == 0 and "FALSE CLAIM" not in checked.output, checked.output
    # a wrong optimum would be caught: verify compares the claims with the rules
    data["bound"] = -2
    out.write_text(json.dumps(data))
    assert CliRunner().invoke(main, ["verify", str(out)], catch_exceptions=False).exit_code == 1


LINE = 'variant = "custom"\nsize = [1, 5]\ncolours = ["blue", "yellow"]\n'


def test_area_bound_proves_a_joint_no():
    """1 x 5: each I3 fits alone (blue from a1, yellow from e1), not both: 6 squares
    needed, 5 within reach. The bound answers before any solve."""
    from solver.formats.puzzle import parse_puzzle
    from solver.tasks.endgame import area_shortfall, joint_check

    problem = parse_puzzle(
        LINE + '[start]\nblue = "a1"\nyellow = "e1"\n[pieces]\nblue = ["I3"]\nyellow = ["I3"]\n',
        "line.toml",
    )
    for c in problem.colours:
        assert endgame_check(problem.position, c).answer == "yes"
    assert area_shortfall(problem.position, ("blue",)) == ""
    reason = area_shortfall(problem.position, problem.colours)
    assert reason == "blue and yellow need 6 squares, only 5 are within their reach"
    answer = joint_check(problem.position, problem.colours)
    assert (answer.answer, answer.alone, answer.together) == ("no", (), None)
    # with a domino instead, both fit (3 + 2 = 5): no bound, and the joint answer is yes
    roomy = parse_puzzle(
        LINE + '[start]\nblue = "a1"\nyellow = "e1"\n[pieces]\nblue = ["I3"]\nyellow = ["2"]\n',
        "line2.toml",
    )
    assert area_shortfall(roomy.position, roomy.colours) == ""
    assert joint_check(roomy.position, roomy.colours).answer == "yes"
    # one colour alone: an I3 fits nowhere on 1 x 2, so nothing is within its reach
    short = parse_puzzle(
        'variant = "custom"\nsize = [1, 2]\ncolours = ["blue"]\n[start]\nblue = "a1"\n'
        '[pieces]\nblue = ["I3"]\n',
        "short.toml",
    )
    reason = area_shortfall(short.position, ("blue",))
    assert reason == "blue needs 3 squares, only 0 are within its reach"


@pytest.mark.parametrize("name", ["two-colours-7x7", "classic-solo-blue", "asym-ladder-k03"])
def test_reach_holds_every_square_a_layout_adds(name):
    """The reach is a superset: every square of a found layout's new pieces is in it."""
    from solver.core.placements import reach

    problem = load_puzzle(PUZZLES / f"{name}.toml")
    result = solve(problem, SolveOptions(backend="search", time_limit=60))
    assert result.status == "solved" and result.layout is not None
    for c, placements in result.layout.items():
        inside = reach(problem.position, c)
        covered = [s for q in placements for s in q.squares]
        assert covered and inside[covered].all(), c
