"""CP-SAT and the LP bound on Blokus Trigon: their models read the triangle board's
geometry (issue 43), held to the exact search (itself held to a brute force over the legal
moves in tests/test_trigon_search.py) on late positions of the vendored Trigon games, on
several colours at once and on colours with no piece yet; every "yes" layout is replayed by
the rule checker, and the LP bound is held to what the search places.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli
from test_trigon_search import DATA, endgames, game  # the games and their late positions

from solver.backends.base import SolveOptions
from solver.backends.bounds.relaxation import Relaxation, lp_bound, relaxation
from solver.core.checker import check_layout
from solver.core.position import Layout, Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.formats.puzzle import parse_puzzle
from solver.tasks.solve import SolveResult, solve

GAMES = tuple(
    DATA / f"{name}.blksgf" for name in ("trigon-L1-s9100", "trigon-L1-s9103", "trigon-L1-s9109")
)


def late(pieces_left: int, *before_end: int) -> list[tuple[Position, str]]:
    """:func:`endgames` of the three games of :data:`GAMES`."""
    return endgames(pieces_left, *before_end, games=GAMES)


def run(problem: Problem, backend: str) -> SolveResult:
    return solve(problem, SolveOptions(backend=backend, time_limit=60, workers=1, seed=1))


def accepted(problem: Problem, result: SolveResult) -> None:
    """A "yes" layout: the rule checker replays it from the position (in the order the
    answer gives) and every played colour has placed every piece."""
    assert result.layout is not None and result.report is not None
    report = check_layout(problem.position, result.layout)
    assert report.legal, report.problem
    assert all(not report.report(c).remaining for c in problem.colours)


def placed_cells(result: SolveResult) -> int:
    assert result.layout is not None
    return sum(len(p.squares) for placements in result.layout.values() for p in placements)


def holds(model: Relaxation | None, layout: Layout | None) -> None:
    """A legal layout (the search's) is a point of the LP relaxation: every row holds."""
    assert model is not None and layout is not None
    activity = model.activity(model.point(layout))
    assert (activity <= model.upper + 1e-9).all() and (activity >= model.lower - 1e-9).all()


def test_cpsat_place_all_agrees_with_the_search_on_late_positions():
    yes = no = 0
    for position, colour in late(4, 4, 12):
        problem = Problem(position, (colour,), "place-all", False)
        exact, found = run(problem, "search"), run(problem, "cpsat")
        assert exact.status in ("solved", "infeasible")
        assert found.status == exact.status, (position.colour(colour), found.stats)
        if found.status == "solved":
            accepted(problem, found)
            yes += 1
        else:
            no += 1
    assert yes >= 3 and no >= 8, (yes, no)


def test_cpsat_best_after_a_no_is_the_searchs_best():
    checked = 0
    for position, colour in late(4, 4, 12):
        if run(Problem(position, (colour,), "place-all", False), "search").status != "infeasible":
            continue
        problem = Problem(position, (colour,), "max-score", False)
        exact, found = run(problem, "search"), run(problem, "cpsat")
        assert exact.status == "optimal" and found.status == "optimal"
        assert found.score == exact.score, (position.colour(colour), found.stats)
        assert found.report is not None and found.report.legal
        assert check_layout(position, found.layout).report(colour).score == found.score
        checked += 1
    assert checked >= 8


def test_cpsat_places_several_colours_at_once_as_the_search_does():
    """Twelve placements before the end of four games, the colours (with 1..6 pieces left)
    that the search says can each place everything alone, all at once."""
    answers = []
    for name in ("trigon-L1-s9109", "trigon-L1-s9118", "trigon-L2-s9104", "trigon-L2-s9107"):
        record = game(f"{name}.blksgf")
        position = record.position(record.num_placements - 12)
        colours = tuple(
            c
            for c in position.colour_names
            if 1 <= len(position.colour(c).remaining) <= 6
            and run(Problem(position, (c,), "place-all", False), "search").status == "solved"
        )
        assert len(colours) >= 2
        problem = Problem(position, colours, "place-all", False)
        exact, found = run(problem, "search"), run(problem, "cpsat")
        assert found.status == exact.status, (name, colours, found.stats)
        bound = lp_bound(position, colours, max_variables=None)
        assert bound is not None
        if found.status == "solved":
            accepted(problem, found)
            assert not bound.proves_no
            holds(relaxation(position, colours), exact.layout)
        answers.append(found.status)
    assert sorted(answers) == ["infeasible", "infeasible", "solved", "solved"], answers


def _fresh(pieces: tuple[str, ...], variant: str = "trigon") -> Position:
    """The empty board, every colour holding ``pieces`` only."""
    empty = Position.empty(ALL_VARIANTS[variant])
    return replace(empty, colours=tuple(replace(c, remaining=pieces) for c in empty.colours))


def test_a_colour_with_no_piece_yet_covers_a_free_starting_point():
    position = _fresh(("I3", "2", "1"))
    problem = Problem(position, ("blue",), "place-all", False)
    found = run(problem, "cpsat")
    assert found.status == "solved" == run(problem, "search").status
    accepted(problem, found)
    first = found.report.final.colour("blue").squares & position.starting_points
    assert len(first) >= 1
    # every starting point covered by the other colours (two monominoes each, by setup):
    # nowhere to start, "no"
    points = sorted(position.starting_points)
    cover = {"yellow": points[0:2], "red": points[2:4], "green": points[4:6]}
    colours = tuple(
        replace(c, placed=tuple(Placement("1", {s}) for s in cover[c.name]))
        if c.name in cover
        else c
        for c in position.colours
    )
    blocked = replace(position, colours=colours)
    assert not blocked.starting_points - blocked.occupied
    none = Problem(blocked, ("blue",), "place-all", False)
    assert run(none, "cpsat").status == "infeasible" == run(none, "search").status


@pytest.mark.slow
def test_two_colours_with_no_piece_yet_start_on_distinct_points():
    position = _fresh(("X", "O", "A6", "1"))
    problem = Problem(position, ("blue", "yellow"), "place-all", False)
    found = solve(problem, SolveOptions(backend="cpsat", time_limit=120, workers=1, seed=1))
    assert found.status == "solved"
    accepted(problem, found)
    firsts = [found.layout[c][0].squares & position.starting_points for c in ("blue", "yellow")]
    assert firsts[0] and firsts[1] and not firsts[0] & firsts[1]


ONE_COLOUR = """
title = "Trigon, one colour, a few pieces"
variant = "trigon"
colours = ["blue"]
goal = "{goal}"
monomino-last = {last}

[pieces]
blue = ["I4", "C4", "A4", "I3", "2", "1"]
"""


@pytest.mark.slow
@pytest.mark.parametrize(("goal", "last"), [("place-all", "true"), ("max-score", "false")])
def test_a_one_colour_trigon_puzzle_answers_as_the_search_does(goal, last):
    problem = parse_puzzle(ONE_COLOUR.format(goal=goal, last=last))
    exact = run(problem, "search")
    found = solve(problem, SolveOptions(backend="cpsat", time_limit=120, workers=1, seed=1))
    assert found.status == exact.status
    assert found.report is not None and found.report.legal
    if goal == "place-all":
        accepted(problem, found)
        assert found.layout["blue"][-1].piece == "1"  # the order the checker replayed
    else:
        assert found.score == exact.score == 20


def test_the_lp_bound_never_excludes_what_the_search_places():
    proofs = 0
    for position, colour in late(4, 4, 12):
        bound = lp_bound(position, (colour,), max_variables=None)
        assert bound is not None
        need = position.colour(colour).remaining_squares
        best = run(Problem(position, (colour,), "max-score", False), "search")
        assert best.status == "optimal"
        most = placed_cells(best)
        assert bound.most >= most - 1e-6, (position.colour(colour), bound.most, most)
        if bound.proves_no:
            assert most < need
            proofs += 1
        holds(relaxation(position, (colour,)), best.layout)
    assert proofs >= 5


def test_the_lp_bound_holds_for_a_colour_with_no_piece_yet():
    fresh = _fresh(("I3", "2", "1"))
    found = run(Problem(fresh, ("blue",), "place-all", False), "search")
    holds(relaxation(fresh, ("blue",)), found.layout)
    bound = lp_bound(fresh, ("blue",))
    assert bound is not None and not bound.proves_no


def test_check_with_cpsat_answers_on_a_trigon_record_as_the_search():
    path = GAMES[0]
    answers = {}
    for backend in ("search", "cpsat"):
        result = run_cli("check", path, "--after", 70, "--backend", backend)
        assert result.exit_code == 0, result.output
        answers[backend] = [
            " ".join(line.split()[:6]) for line in result.output.splitlines() if " left: " in line
        ]
    assert answers["cpsat"] == answers["search"] and len(answers["cpsat"]) == 4


def test_the_lp_edge_rows_from_the_geometry_are_the_square_grids_on_squares():
    """The edge rows read from the geometry's edge neighbours (Trigon's) are, on a square
    board, the square grid's own rows (its row and column arithmetic), in some order."""
    from solver.backends.bounds import relaxation as lp
    from solver.formats.puzzle import load_puzzle

    position = load_puzzle(Path(__file__).parent.parent / "puzzles" / "duo-purple.toml").position
    table = lp._placements(position, "purple")
    found = []
    for square in (True, False):
        model = lp._Model()
        x = model.add_columns(table.size)
        covered = np.unique(table.squares[table.squares >= 0])
        y_of = np.full(position.board.size, -1)
        y_of[covered] = model.add_columns(np.zeros(len(covered)))
        if square:
            lp._add_edge_rows(model, table.squares, x, y_of, position.board.cols)
        else:
            lp._add_cell_edge_rows(model, table.squares, x, y_of, position.board)
        row, col, val = (np.concatenate(part) for part in zip(*model.entries))
        rows = {frozenset(zip(col[row == r].tolist(), val[row == r].tolist())) for r in set(row)}
        assert len(rows) == model.rows
        found.append(rows)
    assert found[0] == found[1] and len(found[0]) > 300
