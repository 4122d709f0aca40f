"""The endgame check on Blokus Trigon: the exact search on the triangle board's tables,
held to an independent brute force over the legal moves (tests/data/trigon's games).

The brute force replays every order of legal moves (:func:`solver.core.placements.legal_moves`,
itself held to Pentobi's all_legal counts in tests/test_trigon_rules.py) and shares nothing
with the search but the position.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import PUZZLES, one_line_error

from solver.backends import registry
from solver.backends.base import BackendResult, SolveOptions, order_and_check
from solver.backends.search import solve_symmetric
from solver.backends.search.starts import assignments, solve_each, unstarted, with_starts
from solver.cli.commands import main
from solver.core.colour_symmetry import colour_symmetries
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.formats.game import Game, load_game
from solver.formats.puzzle import load_puzzle
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


def endgames(
    pieces_left: int, *before_end: int, games: tuple[Path, ...] = tuple(GAMES)
) -> list[tuple[Position, str]]:
    """(position, colour): each game (of ``games``) each ``before_end`` placements before
    its end, each colour with 1..``pieces_left`` pieces left."""
    out = []
    for path in games:
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
    assert "after 60 placements: trigon side 9, " in result.output
    position = game("trigon-L1-s9100.blksgf").position(60)
    for line in lines:
        colour = line.split()[0]
        assert f"({position.colour(colour).remaining_squares} " in line
        assert " yes " in line or " no " in line
        assert "triangles) left" in line


def test_every_engine_takes_the_trigon_grid():
    # (CP-SAT and the LP bound read the geometry: tests/test_trigon_cpsat.py; the symmetric
    # backend and the domain search run on Trigon: tests/test_trigon_symmetric.py and
    # tests/test_trigon_domain.py)
    solo = PUZZLES / "trigon-solo-88.toml"
    result = CliRunner().invoke(main, ["solve", str(solo), "--backend", "domain"])
    # the grid is taken; the monomino last is not, on any grid
    one_line_error(result, "trigon-solo-88.toml: the domain backend takes goal place-all")
    assert "(this puzzle asks for monomino-last)" in result.output
    assert "trigon boards yet" not in result.output
    registry.SYMMETRIC.check(load_puzzle(solo))  # no refusal: neither the grid nor a symmetry
    problem = Problem(game("trigon-L1-s9100.blksgf").position(60), ("blue",), "place-all", False)
    for engine in (*registry.BACKENDS.values(), registry.LP):
        engine.check_grid(problem)  # no refusal


# --- colours with no piece yet: one search per assignment of free starting points ---------


def test_a_colour_alone_on_the_empty_board_places_all_22_from_a_starting_point():
    empty = Position.empty(ALL_VARIANTS["trigon"])
    problem = Problem(empty, ("blue",), "place-all", True)
    assert unstarted(problem) == ("blue",)
    assert len(list(assignments(problem))) == 6
    result = solve(problem, SolveOptions(backend="search", time_limit=60))
    assert result.status == "solved" and result.report is not None and result.report.legal
    placed = result.layout["blue"]
    assert len(placed) == 22 and placed[-1].piece == "1"  # monomino last: +5
    assert placed[0].squares & empty.starting_points
    assert result.report.report("blue").score == 20


def test_each_unstarted_colour_gets_its_own_starting_point():
    empty = Position.empty(ALL_VARIANTS["trigon3"])
    problem = Problem(empty, ("blue", "yellow"), "place-all", False)
    starts = list(assignments(problem))
    assert len(starts) == 6 * 5
    assert all(a["blue"] != a["yellow"] for a in starts)
    result = solve(problem, SolveOptions(backend="search", time_limit=60))
    assert result.status == "solved"
    firsts = [result.layout[c][0].squares & empty.starting_points for c in ("blue", "yellow")]
    assert firsts[0] and firsts[1] and not firsts[0] & firsts[1]


def test_no_free_starting_point_means_no():
    position = game("trigon-L1-s9100.blksgf").position(3)  # blue, yellow, red have begun
    assert not position.colour("green").placed
    free = sorted(position.starting_points - position.occupied)
    assert len(free) == 3
    # the three free starting points covered (by hand: each colour has its monomino)
    for colour, cell in zip(("blue", "yellow", "red"), free):
        position = position.with_placement(colour, Placement("1", {cell}))
    problem = Problem(position, ("green",), "place-all", False)
    assert list(assignments(problem)) == []
    result = solve(problem, SolveOptions(backend="search", time_limit=10))
    assert result.status == "infeasible"


def test_assignments_combine_as_one_answer():
    empty = Position.empty(ALL_VARIANTS["trigon"])
    problem = Problem(empty, ("blue",), "place-all", False)
    answers = iter(["infeasible"] * 5 + ["unknown"])
    unknown = solve_each(
        problem, SolveOptions(), None, lambda p, o, c: BackendResult(next(answers))
    )
    assert unknown.status == "unknown" and unknown.stats["assignments"] == "6 of 6"
    none = solve_each(problem, SolveOptions(), None, lambda p, o, c: BackendResult("infeasible"))
    assert none.status == "infeasible"
    seen = []

    def first_solves(p, o, c):
        seen.append(p.position.colour("blue").start)
        return (
            BackendResult("solved", {"blue": []}) if len(seen) == 2 else BackendResult("infeasible")
        )

    found = solve_each(problem, SolveOptions(time_limit=10), None, first_solves)
    assert found.status == "solved" and len(seen) == 2 and seen[0] != seen[1]
    assert found.stats["assignments"] == "2 of 6"


# --- symmetric layouts: the hexagon's 12 symmetries -------------------------------------


def _two_colours_half_set() -> Problem:
    """Blue and red from the starting points j12 and z7 (the half turn swaps them), each
    with the first 11 Trigon pieces."""
    empty = Position.empty(ALL_VARIANTS["trigon"])
    half = empty.colour("blue").remaining[:11]
    colours = tuple(replace(c, remaining=half) for c in empty.colours if c.name in ("blue", "red"))
    position = replace(empty, colours=colours)
    starts = {"blue": empty.board.parse("j12"), "red": empty.board.parse("z7")}
    return with_starts(Problem(position, ("blue", "red"), "place-all", False), starts)


def test_the_half_turn_swaps_colours_on_opposite_starting_points():
    groups = colour_symmetries(_two_colours_half_set())
    names = [g.name for g in groups]
    assert "rot180" in names
    half = groups[names.index("rot180")]
    assert half.cycles == (("blue", "red"),) and half.order == 2
    board = _two_colours_half_set().position.board
    turn = half.elements[1]
    assert board.name(int(turn[board.parse("j12")])) == "z7"
    assert sorted(int(turn[turn[s]]) for s in range(board.size)) == list(range(board.size))


def test_a_symmetric_layout_on_trigon_is_legal_and_symmetric():
    problem = _two_colours_half_set()
    groups = [g for g in colour_symmetries(problem) if g.name == "rot180"]
    result = solve_symmetric(problem, groups, SolveOptions(time_limit=60, workers=1))
    assert result.status == "solved"
    checked = order_and_check(problem, result.layout, "symmetric")[1]
    assert checked.legal and all(not r.remaining for r in checked.colours)
    turn = groups[0].elements[1]
    blue = {frozenset(int(turn[s]) for s in p.squares) for p in result.layout["blue"]}
    assert blue == {p.squares for p in result.layout["red"]}


def test_max_score_counts_the_monomino_bonus_as_the_rule_checker_does():
    """The search finds the monomino by its size, not by its number in the set (the Trigon
    family lists it last): its best score is at least the checked score of any layout it
    finds, +5 included (trigon-L3-s9102 after 66: 20, once wrongly 15)."""
    position = game("trigon-L3-s9102.blksgf").position(66)
    best = solve(
        Problem(position, ("blue",), "max-score", False),
        SolveOptions(backend="search", time_limit=30, workers=1, seed=1),
    )
    assert best.status == "optimal" and best.score == 20
    checked = 0
    for position, colour in endgames(4, 8, 12):
        if "1" not in position.colour(colour).remaining:
            continue
        found = solve(
            Problem(position, (colour,), "place-all", False),
            SolveOptions(backend="search", time_limit=30),
        )
        if found.status != "solved":
            continue
        best = solve(
            Problem(position, (colour,), "max-score", False),
            SolveOptions(backend="search", time_limit=30),
        )
        assert best.status == "optimal"
        assert best.score >= found.report.report(colour).score, (position, colour)
        checked += 1
    assert checked >= 1
