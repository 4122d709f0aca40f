"""Property test: the exact search and the CP-SAT backend agree on random small positions.

Random boards up to 8x8 with random blocked squares and start squares, one or two colours,
2-6 pieces in all. Both backends must give the same yes/no answer (examples where either
stops at its time limit are skipped: "unknown" is no answer); every "yes" goes through
:func:`solver.tasks.solve.solve`, which orders and checks the layout with the rule checker; and on
the smallest positions the search's count equals a brute-force enumeration (tests/brute.py).
"""

from __future__ import annotations

import helpers
import pytest
from brute import brute_count
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from solver.backends.base import SolveOptions
from solver.backends.search import counting as search_counting
from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES
from solver.core.position import ColourState, Position
from solver.core.problem import Problem
from solver.tasks.solve import solve

LIMIT = 3.0


@st.composite
def positions(draw):
    rows = draw(st.integers(3, 8))
    cols = draw(st.integers(3, 8))
    size = rows * cols
    blocked = draw(st.sets(st.integers(0, size - 1), max_size=size // 6))
    free = sorted(set(range(size)) - blocked)
    n_colours = draw(st.integers(1, 2))
    starts = draw(
        st.lists(st.sampled_from(free), min_size=n_colours, max_size=n_colours, unique=True)
    )
    n_pieces = draw(st.integers(2, 6))
    pieces = draw(st.lists(st.sampled_from(PIECE_NAMES), min_size=n_pieces, max_size=n_pieces))
    split = draw(st.integers(1, n_pieces - 1)) if n_colours == 2 else n_pieces
    groups = [pieces[:split], pieces[split:]][:n_colours]
    # one copy of each piece per colour, as in the full set
    colours = tuple(
        ColourState(name, start, (), tuple(sorted(set(g), key=PIECE_NAMES.index)))
        for name, start, g in zip(("blue", "red"), starts, groups)
    )
    monomino_last = draw(st.booleans()) and all("1" in c.remaining for c in colours)
    board = Board(rows, cols, frozenset(blocked))
    return Problem(
        Position(board, colours), tuple(c.name for c in colours), "place-all", monomino_last
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(positions())
def test_search_and_cpsat_agree(problem):
    by_search = solve(problem, SolveOptions(backend="search", time_limit=LIMIT))
    by_cpsat = solve(problem, SolveOptions(backend="cpsat", time_limit=LIMIT))
    assume(by_search.status != "unknown" and by_cpsat.status != "unknown")
    event(f"search: {by_search.status}")
    assert (by_search.status == "solved") == (by_cpsat.status == "solved"), (
        by_search.status,
        by_cpsat.status,
    )
    board = problem.position.board
    area = sum(c.remaining_squares for c in problem.position.colours)
    if board.rows * board.cols <= 25 and area <= 9:
        event("brute force")
        count = search_counting.count(problem, time_limit=LIMIT)
        assert count.complete
        assert count.count == brute_count(problem.position, problem.colours, problem.monomino_last)
        assert (count.count > 0) == (by_search.status == "solved")


def test_colour_without_placement():
    """A colour whose piece fits nowhere (once a crash in the CP-SAT backend)."""
    board = Board(3, 3)
    position = Position(
        board, (ColourState("blue", 0, (), ("1",)), ColourState("red", 1, (), ("I5",)))
    )
    problem = Problem(position, ("blue", "red"))
    assert solve(problem, SolveOptions(backend="search")).status == "infeasible"
    assert solve(problem, SolveOptions(backend="cpsat", time_limit=LIMIT)).status == "infeasible"


GAMES = helpers.GAMES


@pytest.mark.parametrize(
    "game,placements,colour",
    [
        ("classic-L1-s56.blksgf", 50, "green"),
        ("classic-L2-s58.blksgf", 50, "red"),
        ("classic-L1-s57.blksgf", 60, "green"),
        ("classic-L2-s58.blksgf", 70, "red"),
    ],
)
def test_real_endgames_agree(game, placements, colour):
    """Endgame checks from real Pentobi games on which CP-SAT answers within a second."""
    from solver.formats.game import load_game

    problem = Problem(load_game(GAMES / game).position(placements), (colour,))
    by_search = solve(problem, SolveOptions(backend="search", time_limit=10))
    by_cpsat = solve(problem, SolveOptions(backend="cpsat", time_limit=10))
    assert by_search.status in ("solved", "infeasible")
    assert by_search.status == by_cpsat.status
