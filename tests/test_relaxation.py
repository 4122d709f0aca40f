"""The LP bound (solver/backends/bounds/relaxation.py): every row holds for real layouts, it never proves
"no" where a layout exists, and it proves the joint "no"s it is there for."""

from dataclasses import replace

import helpers
import numpy as np
import pytest

from solver.backends.base import SolveOptions
from solver.backends.bounds.relaxation import lp_bound, relaxation
from solver.backends.search.exact import solve as search_solve
from solver.core.pieces import PIECES
from solver.core.position import Position
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.formats.puzzle import load_puzzle
from solver.tasks.endgame import area_shortfall, joint_check

GAMES = helpers.TESTS / "data" / "games"
PUZZLES = helpers.ROOT / "puzzles"


def _rest_of_game(name: str, after: int) -> tuple[Position, dict]:
    """The position after ``after`` placements, each colour's remaining pieces being those
    it places later in the game, and the game's own later placements (a legal layout that
    places all of them)."""
    game = load_game(GAMES / name)
    position, end = game.position(after), game.position()
    layout, states = {}, []
    for state in position.colours:
        later = end.colour(state.name).placed[len(state.placed) :]
        layout[state.name] = list(later)
        pieces = sorted((p.piece for p in later), key=lambda p: PIECES[p].index)
        states.append(replace(state, remaining=tuple(pieces)))
    return replace(position, colours=tuple(states)), layout


REAL = [
    (game, after)
    for game, afters in (
        ("classic-L1-s56.blksgf", (10, 30, 50)),
        ("classic-L6-s48.blksgf", (10, 30, 50)),
        ("duo-L4-s29.blksgf", (6, 14, 22)),
    )
    for after in afters
]


@pytest.mark.parametrize("game, after", REAL)
@pytest.mark.slow
def test_a_real_layout_satisfies_every_row(game, after):
    """The rest of a real game is a legal layout of the later pieces: its 0/1 vector meets
    every row (piece, cover, square, edge, 2x2 block, corner support) and reaches the
    objective's full value, the squares needed."""
    position, layout = _rest_of_game(game, after)
    colours = tuple(c for c in layout if layout[c])
    model = relaxation(position, colours)
    z = model.point(layout)
    activity = model.activity(z)
    assert (activity <= model.upper + 1e-9).all() and (activity >= model.lower - 1e-9).all()
    need = sum(position.colour(c).remaining_squares for c in colours)
    assert model.objective @ z == need
    # the bound by any dual vector is at least the value of this feasible point
    rng = np.random.default_rng(after)
    for _ in range(5):
        duals = rng.normal(size=model.rows)
        assert model.bound(duals) >= need - 1e-9


@pytest.mark.parametrize("game, after", [("classic-L6-s48.blksgf", 50), ("duo-L4-s29.blksgf", 14)])
def test_no_proof_where_a_layout_exists(game, after):
    position, layout = _rest_of_game(game, after)
    colours = tuple(c for c in layout if layout[c])
    bound = lp_bound(position, colours, max_variables=None)
    assert bound is not None and not bound.proves_no
    assert bound.most == pytest.approx(bound.need, abs=1e-6)


@pytest.mark.parametrize("name", ["asym-ladder-k03", "asym-ladder-k06"])
def test_no_proof_on_feasible_ladder_rungs(name):
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    bound = lp_bound(problem.position, problem.colours)
    assert bound is not None and not bound.proves_no


# Classic games where the four colours' joint check is "no" though the area bound and every
# colour alone say nothing (the LP bound, its value and the squares needed)
JOINT_NO = [
    ("classic-L2-s58.blksgf", 50, 110.996, 114),
    ("classic-L4-s66.blksgf", 40, 152.879, 162),
    ("classic-L6-6-4-4-s54.blksgf", 40, 153.554, 161),
]


@pytest.mark.parametrize("game, after, most, need", JOINT_NO)
def test_lp_bound_proves_a_joint_no(game, after, most, need):
    position = load_game(GAMES / game).position(after)
    colours = tuple(s.name for s in position.colours if s.remaining)
    assert area_shortfall(position, colours) == ""
    bound = lp_bound(position, colours)
    assert bound is not None and bound.proves_no
    assert bound.need == need and bound.most == pytest.approx(most, abs=1e-3)
    assert (
        bound.reason.startswith("LP bound: at most ") and f"of the {need} squares" in bound.reason
    )


def test_joint_check_answers_no_by_the_lp_bound():
    position = load_game(GAMES / "classic-L2-s58.blksgf").position(50)
    colours = tuple(s.name for s in position.colours if s.remaining)
    answer = joint_check(position, colours, SolveOptions(time_limit=20))
    assert answer.answer == "no"
    assert answer.together is not None and answer.together.backend == "lp"
    assert "LP bound" in answer.reason and "each fits alone" in answer.reason


def _small_positions():
    """Blue and yellow from opposite corners of 7x7 around red's frozen cross, each with 3-6
    random pieces to place: positions where the exact search decides quickly."""
    rng = np.random.default_rng(7)
    names = list(PIECES)
    base = load_puzzle(PUZZLES / "two-colours-7x7.toml").position
    for _ in range(40):
        states = []
        for state in base.colours:
            if state.name == "red":
                states.append(state)
                continue
            pieces = rng.choice(names, size=int(rng.integers(3, 7)), replace=False)
            pieces = sorted(pieces, key=lambda p: PIECES[p].index)
            states.append(replace(state, placed=(), remaining=tuple(pieces)))
        yield replace(base, colours=tuple(states))


@pytest.mark.slow
def test_lp_no_agrees_with_the_exact_search():
    """Wherever the LP bound proves "no", the complete search finds no layout either; and
    it does prove some (the test would mean nothing otherwise)."""
    proved = 0
    for position in _small_positions():
        colours = ("blue", "yellow")
        bound = lp_bound(position, colours)
        assert bound is not None
        if not bound.proves_no:
            continue
        proved += 1
        problem = Problem(position, colours, "place-all", False)
        result = search_solve(problem, SolveOptions(backend="search", time_limit=30))
        assert result.status == "infeasible", position
    assert proved >= 10  # 14 of the 30 "no"s among these 40 (10 are "yes")


@pytest.mark.slow
def test_auto_proves_a_one_colour_record_board_impossible_by_the_lp_bound():
    """One colour on 12x12 (the search does not finish; only a counting bound excluded it):
    once the search has run alone, the LP bound joins and proves it; the answer names it
    and its reason."""
    from helpers import corner_problem

    from solver.tasks.solve import solve

    problem = corner_problem(12, 12)
    result = solve(problem, SolveOptions(time_limit=60))
    assert (result.status, result.backend) == ("infeasible", "lp")
    # the LP bound's own figure, under the 89 squares to place (computed once, by auto)
    assert result.stats["reason"].startswith("LP bound: at most 87.")


@pytest.mark.slow
def test_lp_backend_says_only_no_or_unknown():
    from helpers import corner_problem

    from solver.backends.bounds import lp

    feasible = load_puzzle(PUZZLES / "two-colours-7x7.toml")
    assert lp.solve(feasible, SolveOptions()).status == "unknown"
    assert lp.solve(corner_problem(7, 18), SolveOptions()).status == "infeasible"
    best = replace(corner_problem(7, 18), goal="max-score")
    assert lp.solve(best, SolveOptions()).status == "unknown"  # not its question
