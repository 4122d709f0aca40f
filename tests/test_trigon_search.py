"""The endgame check on Blokus Trigon: the exact search on the triangle board's tables,
held to an independent brute force over the legal moves (tests/data/trigon's games).

The brute force replays every order of legal moves (:func:`solver.core.placements.legal_moves`,
itself held to Pentobi's all_legal counts in tests/test_trigon_rules.py) and shares nothing
with the search but the position.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.backends.base import SolveOptions
from solver.cli.commands import main
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.problem import Problem
from solver.formats.game import Game, load_game
from solver.tasks.endgame import endgame_check
from solver.tasks.solve import solve

DATA = Path(__file__).parent / "data" / "trigon"
GAMES = sorted(DATA.glob("*.blksgf"))


@cache
def game(name: str) -> Game:
    return load_game(DATA / name)


def most_placed(position: Position, colour: str, seen: dict) -> int:
    """The most cells ``colour`` can still cover by legal moves in some order (brute force,
    memoised on the colour's cells)."""
    key = position.colour(colour).squares
    if key not in seen:
        best = 0
        for move in legal_moves(position, colour):
            after = position.with_placement(colour, move)
            best = max(best, len(move.squares) + most_placed(after, colour, seen))
            if best == position.colour(colour).remaining_squares:
                break
        seen[key] = best
    return seen[key]


def endgames(pieces_left: int, *before_end: int) -> list[tuple[Position, str]]:
    """(position, colour): each game each ``before_end`` placements before its end, each
    colour with 1..``pieces_left`` pieces left."""
    out = []
    for path in GAMES:
        record = game(path.name)
        for back in before_end:
            position = record.position(record.num_placements - back)
            for colour in position.colour_names:
                if 1 <= len(position.colour(colour).remaining) <= pieces_left:
                    out.append((position, colour))
    return out


def test_place_all_agrees_with_brute_force_on_late_positions():
    cases = endgames(3, 4, 8, 12)
    yes = no = 0
    for position, colour in cases:
        need = position.colour(colour).remaining_squares
        brute = most_placed(position, colour, {}) == need
        result = solve(
            Problem(position, (colour,), "place-all", False),
            SolveOptions(backend="search", time_limit=30),
        )
        assert result.status == ("solved" if brute else "infeasible"), (position, colour)
        if brute:
            assert result.report is not None and result.report.legal
            yes += 1
        else:
            no += 1
    assert yes >= 3 and no >= 10, (yes, no)


def test_best_after_a_no_is_the_brute_forces_best():
    cases = endgames(3, 2, 6, 10)
    checked = 0
    for position, colour in cases:
        answer = endgame_check(position, colour, SolveOptions(time_limit=30))
        best = most_placed(position, colour, {})
        left = position.colour(colour).remaining_squares
        if best == left:
            assert answer.answer == "yes"
            continue
        assert answer.answer == "no"
        assert answer.best is not None and answer.best.status == "optimal"
        assert answer.best_squares == best, (position, colour)
        checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_place_all_agrees_with_brute_force_with_five_pieces_left():
    cases = [c for c in endgames(5, 12, 20) if len(c[0].colour(c[1]).remaining) == 5]
    assert len(cases) >= 10
    for position, colour in cases[:12]:
        brute = most_placed(position, colour, {}) == position.colour(colour).remaining_squares
        result = solve(
            Problem(position, (colour,), "place-all", False),
            SolveOptions(backend="search", time_limit=60),
        )
        assert result.status == ("solved" if brute else "infeasible"), (position, colour)


def test_check_command_answers_on_a_trigon_record():
    path = str(DATA / "trigon-L1-s9100.blksgf")
    result = CliRunner().invoke(main, ["check", path, "--after", "60"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if " left: " in line]
    assert [line.split()[0] for line in lines] == ["blue", "yellow", "red", "green"]
    position = game("trigon-L1-s9100.blksgf").position(60)
    for line in lines:
        colour = line.split()[0]
        assert f"({position.colour(colour).remaining_squares} " in line
        assert " yes " in line or " no " in line


def test_engines_that_assume_squares_refuse_trigon_in_one_line():
    path = str(DATA / "trigon-L1-s9100.blksgf")
    for backend in ("cpsat", "repair"):
        result = CliRunner().invoke(main, ["check", path, "--after", "60", "--backend", backend])
        assert result.exit_code == 2, result.output
        error = result.output.strip().splitlines()[-1]
        assert f"the {backend} backend does not run on trigon boards yet" in error
        assert "Traceback" not in result.output
