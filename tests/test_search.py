"""The exact search backend: counts pinned to reference facts and to a brute-force
enumerator (tests/brute.py, independent of the search: it replays every legal sequence of
moves with the reference rules), layouts checked by the rule checker, max-score optimality,
time limits that answer "unknown" and never "infeasible"."""

from __future__ import annotations

import itertools

import helpers
import pytest
from brute import brute_count, brute_layouts, orbits

from solver.backends import driver
from solver.backends.base import SolveOptions
from solver.backends.search import counting as search_counting
from solver.backends.search import exact as search
from solver.backends.search import tables as search_tables
from solver.backends.tuning import SearchTuning
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.pieces import MONOMINO
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.core.variants import VARIANTS
from solver.errors import InputError
from solver.tasks.solve import solve


def one_colour(n, start, pieces, blocked=(), rows=None, colour="blue"):
    board = Board(rows or n, n, frozenset(blocked))
    pos = Position(board, (ColourState(colour, board.parse(start), (), tuple(pieces)),))
    return pos


def problem(pos, colours=None, goal="place-all", monomino_last=False):
    return Problem(pos, tuple(colours or pos.colour_names), goal, monomino_last)


# ---------------------------------------------------------------------------------------------
# reference facts


@pytest.mark.parametrize(
    "n,start,pieces,expected",
    [
        (5, "a5", ("1", "2", "V3"), 146),
        (5, "c3", ("L5", "T5", "Y"), 8),
        (5, "a5", ("V3", "L5", "I3", "2"), 104),
        (4, "a4", ("1", "2", "V3", "O"), 0),
    ],
)
def test_issue_counts(n, start, pieces, expected):
    r = search_counting.count(problem(one_colour(n, start, pieces)))
    assert r.complete
    assert r.count == expected


@pytest.mark.parametrize(
    "n,start,pieces",
    [
        (5, "a5", ("1", "2", "V3")),
        (5, "c3", ("L5", "T5", "Y")),
    ],
)
def test_issue_counts_match_brute_force(n, start, pieces):
    pos = one_colour(n, start, pieces)
    assert search_counting.count(problem(pos)).count == brute_count(pos, ("blue",))


# ---------------------------------------------------------------------------------------------
# more tiny positions against brute force


def two_colours(n=5, blocked=(), a=("1", "V3"), b=("2", "V3"), starts=("a5", "e1")):
    board = Board(n, n, frozenset(blocked))
    return Position(
        board,
        (
            ColourState("blue", board.parse(starts[0]), (), a),
            ColourState("red", board.parse(starts[1]), (), b),
        ),
    )


def with_existing():
    """Blue already has a V3 in the corner; a frozen red piece sits in the middle."""
    board = Board(5, 5, frozenset({board_sq(5, "e5")}))
    v3 = Placement("V3", frozenset(board.parse(s) for s in ("a5", "a4", "b4")))
    red = Placement("2", frozenset(board.parse(s) for s in ("c3", "c2")))
    return Position(
        board,
        (
            ColourState("blue", board.parse("a5"), (v3,), ("1", "2", "I3")),
            ColourState("red", board.parse("e1"), (red,), ("1",)),
        ),
    )


def board_sq(n, name):
    return Board(n, n).parse(name)


CASES = {
    "blocked": lambda: one_colour(4, "a4", ("1", "2", "V3", "I3"), blocked={5, 10}),
    "rectangle": lambda: one_colour(5, "b4", ("1", "V3", "L4"), rows=4),
    "two colours": lambda: two_colours(),
    "two colours blocked": lambda: two_colours(blocked={12}, a=("1", "2", "I3"), b=("1", "V3")),
    "existing squares": with_existing,
    "junior copies": lambda: one_colour(4, "a4", ("1", "1", "2", "V3")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_count_matches_brute_force(name):
    pos = CASES[name]()
    colours = ("blue",) if name == "existing squares" else tuple(c.name for c in pos.colours)
    expected = brute_count(pos, colours)
    r = search_counting.count(problem(pos, colours))
    assert r.complete and r.count == expected
    assert expected > 0


@pytest.mark.parametrize(
    "name", ["rectangle", "two colours blocked", "existing squares", "junior copies"]
)
def test_count_monomino_last_matches_brute_force(name):
    pos = CASES[name]()
    colours = ("blue",) if name == "existing squares" else tuple(c.name for c in pos.colours)
    expected = brute_count(pos, colours, monomino_last=True)
    r = search_counting.count(problem(pos, colours, monomino_last=True))
    assert r.complete and r.count == expected
    assert 0 < expected < brute_count(pos, colours)


@pytest.mark.parametrize("name", ["blocked", "two colours", "junior copies"])
def test_count_up_to_symmetry_matches_brute_force(name):
    from solver.core.symmetry import position_symmetries

    pos = CASES[name]()
    colours = tuple(c.name for c in pos.colours)
    perms = position_symmetries(pos)
    expected = orbits(brute_layouts(pos, colours), perms)
    r = search_counting.count(problem(pos, colours), up_to_symmetry=True)
    assert r.complete and r.count == expected and r.symmetries == len(perms)


def test_symmetric_position_has_fewer_orbits():
    # 5x5, start in the centre: 8 symmetries; {L5, T5, Y} has 8 layouts, all one orbit
    pos = one_colour(5, "c3", ("L5", "T5", "Y"))
    r = search_counting.count(problem(pos), up_to_symmetry=True)
    assert (r.count, r.symmetries) == (1, 8)


@pytest.mark.parametrize("strong,blocks", list(itertools.product((0, 1, 2), (False, True))))
def test_search_options_keep_counts_exact(strong, blocks):
    tuning = SearchTuning(strong=strong, blocks=blocks)
    pos = one_colour(5, "a5", ("V3", "L5", "I3", "2"))
    assert search_counting.count(problem(pos), tuning=tuning).count == 104
    for name in ("two colours blocked", "existing squares", "junior copies"):
        pos = CASES[name]()
        colours = ("blue",) if name == "existing squares" else tuple(c.name for c in pos.colours)
        assert search_counting.count(problem(pos, colours), tuning=tuning).count == brute_count(
            pos, colours
        )


def test_count_limit_stops_early():
    r = search_counting.count(problem(one_colour(5, "a5", ("1", "2", "V3"))), limit=10)
    assert not r.complete and r.count == 10


# ---------------------------------------------------------------------------------------------
# solve


def test_search_places_two_colours_beside_a_blocked_square():
    pos = two_colours(blocked={12}, a=("1", "2", "I3"), b=("1", "V3"))
    result = solve(problem(pos), SolveOptions(backend="search"))
    assert result.status == "solved"


def test_solve_infeasible():
    pos = one_colour(4, "a4", ("1", "2", "V3", "O"))
    result = solve(problem(pos), SolveOptions(backend="search"))
    assert result.status == "infeasible" and result.layout is None


def test_solve_monomino_last():
    pos = one_colour(5, "a5", ("1", "2", "V3"))
    result = solve(problem(pos, monomino_last=True), SolveOptions(backend="search"))
    assert result.status == "solved"
    assert result.report.report("blue").monomino_last
    assert result.layout["blue"][-1].piece == MONOMINO


def test_monomino_last_without_monomino_is_bad_input():
    pos = one_colour(5, "a5", ("2", "V3"))
    with pytest.raises(InputError, match="blue has no monomino left to place last"):
        problem(pos, monomino_last=True)


def brute_max_score(pos, colours):
    best = None
    for layout in brute_layouts(pos, colours, complete=False):
        by_colour = {c: [p for cc, p in layout if cc == c] for c in colours}
        # the checker needs a legal order: sort by a breadth-first order from the start
        from solver.core.order import order_of_play

        ordered = {c: order_of_play(pos, c, by_colour[c], monomino_last=True) for c in colours}
        report = check_layout(pos, ordered)
        assert report.legal
        total = sum(report.report(c).score for c in colours)
        best = total if best is None else max(best, total)
    return best


@pytest.mark.parametrize(
    "pieces,blocked",
    [
        (("1", "2", "V3", "O"), ()),  # cannot place all: best leaves a piece out
        (("1", "2", "V3"), ()),  # all placed with the monomino last: 6 + 20
        (("2", "I3", "L4", "1"), {5, 6}),
    ],
)
def test_max_score_is_optimal(pieces, blocked):
    pos = one_colour(4, "a4", pieces, blocked=blocked)
    expected = brute_max_score(pos, ("blue",))
    result = solve(problem(pos, goal="max-score"), SolveOptions(backend="search"))
    assert result.status == "optimal"
    assert result.bound == expected == result.score


def test_max_score_two_colours_and_no_bonus():
    pos = two_colours(n=4, a=("1", "V3"), b=("2", "1"), starts=("a4", "d1"))
    expected = brute_max_score(pos, ("blue", "red"))
    result = solve(problem(pos, goal="max-score"), SolveOptions(backend="search"))
    assert result.status == "optimal" and result.bound == expected == result.score
    junior = Position(pos.board, pos.colours, bonus=False)
    result = solve(problem(junior, goal="max-score"), SolveOptions(backend="search"))
    assert result.bound == 0  # no bonus: placing everything scores 0


# ---------------------------------------------------------------------------------------------
# time limits


def test_time_limit_gives_unknown_never_infeasible():
    pos = Position.empty(VARIANTS["classic"])
    result = search.solve(problem(pos), SolveOptions(time_limit=0.2))
    assert result.status in ("unknown", "solved")
    assert result.stats["nodes"] > 0
    r = search_counting.count(problem(pos, ("blue",)), time_limit=0.2)
    assert not r.complete


def test_max_score_time_limit_returns_best_layout_and_bound():
    pos = Position.empty(VARIANTS["duo"])
    result = solve(
        problem(pos, ("purple",), goal="max-score"), SolveOptions(backend="search", time_limit=0.3)
    )
    assert result.status in ("solved", "optimal") and result.layout is not None
    assert result.bound is not None and result.bound >= result.score


def test_monomino_alone_is_last():
    """The bonus looks at the last piece placed: a colour's only piece, the monomino, is
    last (before: monomino-last said infeasible, count 0, max-score 15)."""
    pos = one_colour(3, "a3", ("1",))
    assert search_counting.count(problem(pos)).count == 1
    assert search_counting.count(problem(pos, monomino_last=True)).count == 1
    assert search.solve(problem(pos, monomino_last=True)).status == "solved"
    best = solve(problem(pos, goal="max-score"), SolveOptions(backend="search"))
    assert (best.status, best.score, best.bound) == ("optimal", 20, 20)


DATA = helpers.GAMES


def test_portfolio_members_count_the_same():
    pos = CASES["two colours blocked"]()
    colours = ("blue", "red")
    built = search_tables.build(problem(pos, colours), search.core.COUNT)
    expected = brute_count(pos, colours)
    for late, seed in ((0, 0),) + SearchTuning().portfolio:
        member = built.clone(late, seed)
        code = driver.sliced_run(member, None)
        assert code == search.core.DONE and int(member.state.fix[0]) == expected


def test_portfolio_cuts_a_heavy_tail():
    """classic2-L6-s86 after 30 placements, green: largest-first value order alone finds no
    layout in 120 s (measured); the member that keeps pieces of 1-2 squares for after the
    exclusion finds one in a few dozen nodes."""
    from solver.formats.game import load_game

    pos = load_game(DATA / "classic2-L6-s86-book.blksgf").position(30)
    result = solve(Problem(pos, ("green",)), SolveOptions(backend="search", time_limit=30))
    assert result.status == "solved"
