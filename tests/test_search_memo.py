"""The search's memo and its max-score path, against brute force.

The memo only runs when the plain search has not ended after a first chunk of nodes, which
never happens on boards small enough for brute force; these tests set the chunk to one
node (``SearchTuning.first_chunk``) so that every place-all and max-score solve below goes
through it, and check that it did (``stats["memo_entries"]``). Positions are built so that
the colour's reach splits into separate components: a vertical domino at the top of a
3-row board walls off the columns on either side of it (the squares sharing an edge with
it are not allowed), leaving an attach square on each side of the bottom row; a wall in
the first column leaves one pocket, which the memo keys too (it splits as pieces go in).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_search import brute_layouts, brute_max_score

from solver.backends.base import SolveOptions
from solver.backends.search import exact as search
from solver.backends.search import tables as search_tables
from solver.backends.tuning import SearchTuning, Tuning
from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.tasks.solve import solve

#: the memo from the second node on
MEMO_AT_ONCE = Tuning(search=SearchTuning(first_chunk=1))
OPTIONS = SolveOptions(backend="search", time_limit=60, tuning=MEMO_AT_ONCE)


def walled(cols: int, pieces, blocked=(), bonus=True, walls=None) -> Position:
    """A 3-row board, blue's dominoes on rows 0-1 of the columns ``walls`` (the middle one
    by default): blue's attach squares lie in pockets between them (a synthetic position:
    blue's squares need not be connected, they are all its root)."""
    walls = (cols // 2,) if walls is None else walls
    board = Board(3, cols, frozenset(blocked))
    placed = tuple(
        Placement("2", frozenset({board.square(0, w), board.square(1, w)})) for w in walls
    )
    return Position(
        board, (ColourState("blue", board.square(0, walls[0]), placed, tuple(pieces)),), bonus=bonus
    )


def components(pos: Position) -> int:
    built = search_tables.build(Problem(pos, ("blue",), "max-score"), search.core.MAXSCORE)
    return search_tables.components(built)[1]


def brute_place_all(pos: Position) -> bool:
    return bool(brute_layouts(pos, ("blue",)))


CASES = {
    # pockets of 8 and 10 squares (two blocked squares shrink the left one): best -3
    "loss": lambda: walled(9, ("1", "V3", "I3", "L4", "O"), blocked={0, 9}),
    # everything fits, the monomino last: 20
    "monomino bonus": lambda: walled(9, ("1", "V3", "I3")),
    # two copies of two pieces, no bonus: best -3
    "junior copies": lambda: walled(8, ("1", "1", "V3", "V3", "I3"), blocked={0, 8}, bonus=False),
    # three pockets: best -3
    "three pockets": lambda: walled(10, ("1", "V3", "I3", "L4"), blocked={0}, walls=(3, 6)),
    # two found by random search to break a memo keyed in the middle of a component
    "all fit, junior": lambda: walled(10, ("2", "I3", "I3", "T4"), walls=(1,), bonus=False),
    "narrow pockets": lambda: walled(10, ("1", "I3", "O"), blocked={22}, walls=(2, 8)),
    # one pocket at the root, which the first pieces split: best -1 (the monomino left)
    "one pocket": lambda: walled(7, ("1", "V3", "I3", "L4"), walls=(0,)),
}


@functools.cache
def brute(name: str) -> tuple[int, bool]:
    """(best score, whether everything can be placed) of a case, by brute force."""
    pos = CASES[name]()
    return brute_max_score(pos, ("blue",)), brute_place_all(pos)


@pytest.mark.parametrize("name", sorted(CASES))
def test_max_score_with_memo_matches_brute_force(name):
    pos = CASES[name]()
    result = solve(Problem(pos, ("blue",), "max-score"), OPTIONS)
    assert "memo_entries" in result.stats  # the memo search ran
    assert result.status == "optimal"
    assert result.score == result.bound == brute(name)[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_place_all_with_memo_matches_brute_force(name):
    pos = CASES[name]()
    result = solve(Problem(pos, ("blue",), "place-all"), replace(OPTIONS, workers=1))
    assert "memo_entries" in result.stats  # the memo search ran
    assert result.status == ("solved" if brute(name)[1] else "infeasible")


@pytest.mark.parametrize("nodes", [2, 5, 20])
@pytest.mark.parametrize("name", sorted(CASES))
def test_memo_switched_on_deep_in_a_running_search(name, nodes):
    """The memo switched on in a search paused after ``nodes`` nodes (frames below carry
    no key; the pieces' code counts the path's pieces back) still gives the brute-force
    answers, several pockets at the root or not."""
    pos = CASES[name]()
    expected_best, expected_all = brute(name)
    tuning = SearchTuning()
    for goal, mode in (("max-score", search.core.MAXSCORE), ("place-all", search.core.FIND)):
        built = search_tables.build(Problem(pos, ("blue",), goal), mode)
        code = built.run(nodes)
        assert search._memo_applies(built)
        search._memo_on(built, tuning)
        while code == search.core.PAUSE:
            code = built.run(1 << 20)
        if goal == "max-score":
            assert code == search.core.DONE
            assert int(built.st[search.core.S_BEST]) + built.constant_score == expected_best
        else:
            assert (code == search.core.FOUND) == expected_all


def test_memo_keys_do_not_compile_the_kernel_again():
    """The memo's tables have the numba types of the tables without it (a read-only key
    array compiled the kernel a second time, inside the first timed memo solve)."""
    import numba

    built = search_tables.build(
        Problem(CASES["loss"](), ("blue",), "max-score"), search.core.MAXSCORE
    )
    before = [numba.typeof(a) for a in (*built.tables, *built.state)]
    search._memo_on(built, SearchTuning())
    assert [numba.typeof(a) for a in (*built.tables, *built.state)] == before


def test_memo_rows_must_be_a_power_of_two():
    built = search_tables.build(
        Problem(CASES["loss"](), ("blue",), "max-score"), search.core.MAXSCORE
    )
    with pytest.raises(ValueError, match="power of 2"):
        search._memo_on(built, SearchTuning(memo_rows=1000))


def test_memo_prunes():
    """The memo remembered failed entries and pruned repeated ones."""
    pos = CASES["junior copies"]()
    result = solve(Problem(pos, ("blue",), "max-score"), OPTIONS)
    assert result.stats["memo_entries"] > 0 and result.stats["memo_hits"] > 0


def test_components_are_ranked_smallest_first():
    pos = walled(9, ("1", "V3"), blocked={0, 9})  # left pocket smaller than the right one
    built = search_tables.build(Problem(pos, ("blue",), "place-all"), search.core.FIND)
    rank, k = search_tables.components(built)
    board = pos.board
    assert k == 2
    left, right = rank[board.square(2, 3)], rank[board.square(2, 5)]
    assert (left, right) == (0, 1)
    assert rank[board.square(1, 4)] == -1  # the domino's square is in no component
    assert rank[board.square(2, 4)] == -1  # nor the square below it (shares an edge)


@pytest.mark.parametrize(
    "lo,unplaceable,expected",
    [
        (1, 0, 2),  # losses 0, 2, 3, 5 with a domino and a V3 left: never exactly 1
        (4, 0, 5),
        (6, 0, 11),  # none up to lam = 10: lam + 1
        (4, 4, 4),  # an I4 that fits nowhere is always lost
        (5, 4, 6),  # ... plus the domino
        (10, 4, 11),  # 4 + 5 = 9 at most
    ],
)
def test_achievable_loss(lo, unplaceable, expected):
    import numpy as np

    rem = np.zeros((1, 21), dtype=np.int64)
    pcount = np.zeros(21, dtype=np.int64)
    for name, placeable in (("2", True), ("V3", True), ("I4", False)):
        t = PIECES[name].index
        rem[0, t] = 1 if placeable or unplaceable else 0
        pcount[t] = 1 if placeable else 0
    psize = np.array([PIECES[n].size for n in PIECE_NAMES], dtype=np.int32)
    loss = search.core.achievable_loss(0, lo, 10, unplaceable, rem, pcount, psize)
    assert loss == expected


@st.composite
def walled_positions(draw):
    cols = draw(st.integers(5, 10))
    walls = sorted(draw(st.sets(st.integers(1, cols - 2), min_size=1, max_size=2)))
    wall = {w for w in walls} | {cols + w for w in walls}
    blocked = draw(
        st.sets(st.integers(0, 3 * cols - 1).filter(lambda s: s not in wall), max_size=4)
    )
    junior = draw(st.booleans())
    names = [p for p in PIECE_NAMES[:9] if junior or p != "2"]
    pieces = draw(st.lists(st.sampled_from(names), min_size=2, max_size=4))
    if junior:  # two copies at most
        pieces = [p for i, p in enumerate(pieces) if pieces[:i].count(p) < 2]
    else:
        pieces = sorted(set(pieces), key=PIECE_NAMES.index)
    return walled(cols, tuple(pieces), blocked, bonus=not junior, walls=tuple(walls))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walled_positions())
def test_random_walled_positions_match_brute_force(pos):
    area = sum(PIECES[p].size for p in pos.colour("blue").remaining)
    result = solve(Problem(pos, ("blue",), "max-score"), OPTIONS)
    expected = brute_max_score(pos, ("blue",))
    assert result.status == "optimal" and result.score == result.bound == expected
    place_all = solve(Problem(pos, ("blue",), "place-all"), OPTIONS)
    assert (place_all.status == "solved") == (expected >= (0 if not pos.bonus else 15))
    assert expected >= -area


# ---------------------------------------------------------------------------------------------
# the real checks that motivated the memo

GAMES = helpers.GAMES


def game_position(name: str, placements: int) -> Position:
    from solver.formats.game import load_game

    return load_game(GAMES / f"{name}.blksgf").position(placements)


@pytest.mark.parametrize(
    "game,colour,score",
    [
        ("junior-L2-s105", "orange", -3),
        ("junior-L1-s104", "purple", -7),
    ],
)
def test_real_junior_endgames(game, colour, score):
    """Place-all is infeasible (CP-SAT agrees) and the best leaves ``-score`` squares.
    Checked without the memo: the plain place-all search (no memo, no max-score code) on
    the remaining pieces minus each multiset of smaller area is infeasible for every one
    (area 1-2 for junior-L2-s105 orange, 1-6 for junior-L1-s104 purple: 48 searches),
    and a layout leaving ``-score`` squares exists (CP-SAT gives no proof in 150 s)."""
    pos = game_position(game, 20)
    options = SolveOptions(backend="search", time_limit=30)
    assert solve(Problem(pos, (colour,), "place-all"), options).status == "infeasible"
    best = solve(Problem(pos, (colour,), "max-score"), options)
    assert best.status == "optimal" and best.score == best.bound == score


def test_time_limit_on_the_memo_path():
    """Stopped early, max-score gives its best layout with a bound, never a false optimum;
    place-all gives "unknown", never "infeasible"."""
    pos = game_position("junior-L2-s105", 20)
    options = SolveOptions(backend="search", time_limit=0.05)
    best = solve(Problem(pos, ("orange",), "max-score"), options)
    assert -43 <= best.score <= -3  # 43 squares left; optimum -3
    if best.status == "optimal":  # (only on a much faster machine)
        assert best.score == best.bound == -3
    else:
        assert best.status == "solved" and best.bound >= -3
    assert solve(Problem(pos, ("orange",), "place-all"), options).status in (
        "unknown",
        "infeasible",
    )


@pytest.mark.parametrize("name", ["loss", "junior copies", "three pockets"])
def test_a_full_memo_table_grows_and_keeps_its_entries(name):
    """From 2 rows, run a node at a time: every time the table is full it doubles (the
    entries rehashed), and the best is still the brute-force one."""
    pos = CASES[name]()
    built = search_tables.build(Problem(pos, ("blue",), "max-score"), search.core.MAXSCORE)
    search._memo_on(built, SearchTuning(memo_rows=2))
    sizes = set()
    while (code := built.run(1)) == search.core.PAUSE:
        memo = built.state.memo
        sizes.add(memo.shape[0])
        assert int((memo[:, 0] != 0).sum()) == int(built.st[search.core.S_STORES])
    assert code == search.core.DONE and max(sizes) >= 8
    assert int(built.st[search.core.S_BEST]) + built.constant_score == brute(name)[0]
