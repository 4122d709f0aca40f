"""Symmetric layouts (solver.backends.symmetric: the exact search's reduction, CP-SAT's):
which problems reduce, layouts that really are symmetric and pass the rule checker, counts
of the exact search's reduction against brute force, and "no symmetric layout" never shown
as a "no"."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from solver.backends.base import SolveOptions
from solver.backends.tuning import AutoTuning, Tuning
from solver.cli.commands import main
from solver.core.board import Board
from solver.core.colour_symmetry import colour_symmetries
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.core.variants import VARIANTS
from solver.errors import InputError
from solver.tasks.solve import solve

CLASSIC = VARIANTS["classic"]


def four_corners(n: int, pieces: tuple[str, ...]) -> Problem:
    """Blue, Yellow, Red, Green from the corners of an n x n board (Classic's order)."""
    board = Board(n, n)
    corners = (
        board.square(0, 0),
        board.square(0, n - 1),
        board.square(n - 1, n - 1),
        board.square(n - 1, 0),
    )
    colours = tuple(ColourState(c, s, (), pieces) for c, s in zip(CLASSIC.colours, corners))
    return Problem(Position(board, colours), CLASSIC.colours)


def two_corners(n: int, pieces: tuple[str, ...]) -> Problem:
    board = Board(n, n)
    colours = (
        ColourState("blue", board.square(0, 0), (), pieces),
        ColourState("red", board.square(n - 1, n - 1), (), pieces),
    )
    return Problem(Position(board, colours), ("blue", "red"))


def image(perm: np.ndarray, placements: list[Placement]) -> set[Placement]:
    return {Placement(p.piece, frozenset(int(perm[s]) for s in p.squares)) for p in placements}


def test_empty_classic_reduces_to_one_colour_by_a_quarter_turn():
    problem = Problem(Position.empty(CLASSIC), CLASSIC.colours, monomino_last=True)
    best = colour_symmetries(problem)[0]
    assert best.order == 4
    assert best.representatives == ("blue",)
    assert best.cycles == (("blue", "yellow", "red", "green"),)
    assert best.name == "quarter turn clockwise"
    assert sorted(len(s.cycles) for s in colour_symmetries(problem)) == [1, 1, 2, 2, 2]


def test_duo_reduces_by_the_half_turn_and_one_mirror():
    duo = VARIANTS["duo"]
    problem = Problem(Position.empty(duo), duo.colours)
    names = [s.name for s in colour_symmetries(problem)]
    assert names == ["half turn", "mirror in the diagonal through the top-right corner"]


def test_no_reduction_when_the_position_is_not_symmetric():
    position = Position.empty(CLASSIC)
    blue_monomino = Placement("1", frozenset({position.colour("blue").start}))
    moved = position.with_placement("blue", blue_monomino)
    assert colour_symmetries(Problem(moved, CLASSIC.colours)) == []
    assert colour_symmetries(Problem(position, ("blue",))) == []  # one colour
    assert colour_symmetries(Problem(position, CLASSIC.colours, "max-score")) == []
    uneven = two_corners(5, ("1", "V3"))
    state = uneven.position.colour("red")
    other = Position(
        uneven.position.board,
        (uneven.position.colour("blue"), ColourState("red", state.start, (), ("1",))),
    )
    assert colour_symmetries(Problem(other, ("blue", "red"))) == []


def test_four_colour_tiling_found_symmetric_and_checked():
    """8x8, four colours with {1, V3, L4, T4, O}: 64 squares, the board tiled exactly."""
    problem = four_corners(8, ("1", "V3", "L4", "T4", "O"))
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=60))
    assert result.status == "solved" and result.backend == "symmetric"
    covered = set().union(*(p.squares for ps in result.layout.values() for p in ps))
    assert len(covered) == 64
    turn = colour_symmetries(problem)[0]
    assert image(turn.elements[1], result.layout["blue"]) == set(result.layout["yellow"])
    assert image(turn.elements[2], result.layout["blue"]) == set(result.layout["red"])


def test_no_symmetric_layout_is_unknown_not_infeasible():
    """4x4, {L4, V3} from opposite corners: a layout exists, none symmetric by the half turn
    or the mirror that swaps the corners (both groups' trees are exhausted)."""
    problem = two_corners(4, ("L4", "V3"))
    assert solve(problem, SolveOptions(backend="search")).status == "solved"
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=60))
    assert result.status == "unknown"
    assert result.stats["unknown_reason"] == (
        "no layout is symmetric under the half turn or the mirror in the diagonal through the "
        "top-right corner"
    )


def test_symmetric_backend_refuses_a_problem_without_symmetry():
    with pytest.raises(InputError, match="no board symmetry"):
        solve(Problem(Position.empty(CLASSIC), ("blue",)), SolveOptions(backend="symmetric"))


def test_cli_symmetric_unknown_says_why_and_refusal_is_one_line(tmp_path):
    runner = CliRunner()
    path = tmp_path / "pair.toml"
    path.write_text(
        'variant = "custom"\nsize = [4, 4]\ncolours = ["blue", "red"]\n'
        '[start]\nblue = "a4"\nred = "d1"\n'
        '[pieces]\nblue = ["L4", "V3"]\nred = ["L4", "V3"]\n'
    )
    result = runner.invoke(main, ["solve", str(path), "--backend", "symmetric", "--plain"])
    assert result.exit_code == 0
    assert "unknown (no layout is symmetric under the half turn or the mirror" in result.output
    assert "this is NOT a proof" in result.output
    alone = tmp_path / "alone.toml"
    alone.write_text(
        'variant = "custom"\nsize = [4, 4]\n[start]\nblue = "a4"\n[pieces]\nblue = ["V3"]\n'
    )
    result = runner.invoke(main, ["solve", str(alone), "--backend", "symmetric"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "no board symmetry" in result.stderr


def test_auto_brings_in_a_symmetric_reduction():
    """The 8x8 four-colour tiling: the search and the whole CP-SAT model are still unknown
    after 20-30 s (measured), a symmetric reduction solves it in under a second. No square
    is left empty, so auto takes the fundamental-domain search (tight boards); CP-SAT's
    reduction, which it replaces there, solves it alone (the test above)."""
    problem = four_corners(8, ("1", "V3", "L4", "T4", "O"))
    tuning = Tuning(auto=AutoTuning(search_alone=0.2))
    result = solve(problem, SolveOptions(backend="auto", time_limit=60, tuning=tuning))
    assert result.status == "solved" and result.backend == "domain"


def test_two_colours_on_one_start_square_give_no_symmetry():
    """Both colours start on the centre: every symmetry maps both onto the same colour, which
    is no permutation (this once looped for ever)."""
    board = Board(5, 5)
    centre = board.square(2, 2)
    colours = (
        ColourState("blue", centre, (), ("1", "2")),
        ColourState("yellow", centre, (), ("1", "2")),
    )
    assert colour_symmetries(Problem(Position(board, colours), ("blue", "yellow"))) == []


def test_cancel_set_before_cp_sat_starts_still_stops_it(monkeypatch):
    """The cancel watcher keeps stopping the solver until it returns: a stop that came
    before CP-SAT's solve() began is not lost."""
    import threading
    import time

    from ortools.sat.python import cp_model

    from solver.backends.cpsat import solving as cpsat_solving

    cancel = threading.Event()
    real = cp_model.CpSolver.solve

    def late_start(self, *args, **kwargs):
        cancel.set()
        time.sleep(0.1)  # the watcher's first stop_search() comes before solve() starts
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cp_model.CpSolver, "solve", late_start)
    problem = Problem(Position.empty(VARIANTS["duo"]), VARIANTS["duo"].colours)
    started = time.perf_counter()
    result = cpsat_solving.solve(problem, SolveOptions(time_limit=20), cancel)
    assert result.status == "unknown"
    assert time.perf_counter() - started < 10


def rectangle_corners(rows: int, cols: int, pieces: tuple[str, ...]) -> Problem:
    board = Board(rows, cols)
    corners = (
        board.square(0, 0),
        board.square(0, cols - 1),
        board.square(rows - 1, cols - 1),
        board.square(rows - 1, 0),
    )
    colours = tuple(ColourState(c, s, (), pieces) for c, s in zip(CLASSIC.colours, corners))
    return Problem(Position(board, colours), CLASSIC.colours)


def test_rectangle_reduces_by_both_mirrors_to_one_colour():
    """Gottfried's 18x20 method: four mirrored quadrants. On a rectangle no quarter turn
    exists, but the two mirrors generate a group of 4 that maps Blue onto every colour."""
    problem = rectangle_corners(6, 8, ("1", "V3", "L4", "Z4"))
    best = colour_symmetries(problem)[0]
    assert best.name == "half turn, left-right mirror and top-bottom mirror"
    assert best.order == 4 and best.representatives == ("blue",)
    assert set(best.cycles[0]) == set(CLASSIC.colours)
    assert sorted(len(s.cycles) for s in colour_symmetries(problem)) == [1, 2, 2, 2]
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=60))
    assert result.status == "solved"
    for h, colour in zip(best.elements, best.cycles[0]):
        assert image(h, result.layout["blue"]) == set(result.layout[colour])


def reduction_count(problem: Problem, symmetry) -> int:
    """Layouts of the exact search's symmetric reduction of ``problem`` under ``symmetry``."""
    from solver.backends import driver
    from solver.backends.search import exact as search
    from solver.backends.search import tables as search_tables

    reduced = Problem(
        problem.position, symmetry.representatives, "place-all", problem.monomino_last
    )
    built = search_tables.build(reduced, search.core.COUNT, symmetry=symmetry)
    if built.infeasible:
        return 0
    assert driver.sliced_run(built, None) == search.core.DONE
    return int(built.state.fix[0])


def is_symmetric(layout, symmetry) -> bool:
    """Whether the group maps the layout (a set of (colour, placement)) onto itself, each
    representative's placements onto those of its orbit's colours."""
    rep_of = {c: cycle[0] for cycle in symmetry.cycles for c in cycle}
    reps = {c: [p for colour, p in layout if colour == c] for c in symmetry.representatives}
    images = {
        (colour, Placement(p.piece, frozenset(int(h[s]) for s in p.squares)))
        for cycle in symmetry.cycles
        for h, colour in zip(symmetry.elements, cycle)
        for p in reps[rep_of[colour]]
    }
    return images == set(layout)


@pytest.mark.parametrize(
    "make,monomino_last",
    [
        (lambda: four_corners(4, ("1", "2")), False),
        (lambda: four_corners(4, ("1", "2")), True),
        (lambda: four_corners(5, ("2", "I3")), False),
        (lambda: two_corners(4, ("1", "2", "V3")), True),
        (lambda: rectangle_corners(4, 5, ("1", "2")), True),
        (lambda: rectangle_corners(4, 6, ("1", "2")), False),
    ],
)
def test_reduction_counts_exactly_the_symmetric_layouts(make, monomino_last):
    """The exact search's reduction under every group that applies (quarter and half turns,
    mirrors; with the monominoes held back for last, each in an orbit of its own) has as
    many layouts as the brute-force enumerator finds that the group maps onto themselves."""
    from brute import brute_layouts

    base = make()
    problem = Problem(base.position, base.colours, monomino_last=monomino_last)
    layouts = brute_layouts(problem.position, problem.colours, monomino_last=monomino_last)
    groups = colour_symmetries(problem)
    assert groups
    counts = [
        (reduction_count(problem, g), sum(is_symmetric(x, g) for x in layouts)) for g in groups
    ]
    assert all(mine == brute for mine, brute in counts), counts
    assert any(brute > 0 for _, brute in counts)  # (a case with symmetric layouts to count)


@pytest.mark.parametrize("pieces,restricted", [(("1", "2", "V3"), True), (("1", "2", "I3"), False)])
def test_without_monomino_last_the_reduction_first_holds_the_monomino_back(pieces, restricted):
    """No monomino-last rule: each group is searched first with it (its layouts are layouts
    of the problem: legality does not depend on the order); only when that tree is
    exhausted, without it. 4x4 from two corners: {1, 2, V3} has a half-turn-symmetric
    layout with the monominoes last; {1, 2, I3} has two symmetric layouts (brute force),
    neither with them last, so the second stage finds one."""
    from brute import brute_layouts

    problem = two_corners(4, pieces)
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=60))
    assert result.status == "solved"
    assert result.stats.get("monomino_last", False) is restricted
    half_turn = colour_symmetries(problem)[0]
    layout = {(c, p) for c, ps in result.layout.items() for p in ps}
    assert is_symmetric(layout, half_turn)
    strict = brute_layouts(problem.position, problem.colours, monomino_last=True)
    assert any(is_symmetric(x, half_turn) for x in strict) is restricted
