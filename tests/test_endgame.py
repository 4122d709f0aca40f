"""The endgame check: yes with a checked layout, no with the best still reachable, unknown."""

from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from solver.endgame import endgame_check
from solver.pieces import PIECES
from solver.puzzle import load_puzzle
from solver.search import count
from solver.solve import SolveOptions

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def test_yes_comes_with_a_checked_layout():
    problem = load_puzzle(PUZZLES / "tiny-5x5-corner.toml")
    answer = endgame_check(problem.position, "blue")
    assert answer.answer == "yes" and answer.best is None
    assert answer.place_all.report.legal
    assert answer.place_all.report.report("blue").all_placed


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
    answer = endgame_check(problem.position, "purple", SolveOptions(backend="cpsat", time_limit=0.01))
    assert answer.answer == "unknown"
    assert answer.best is None
