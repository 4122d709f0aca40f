"""The exact-cover formulation and its DLX export.

Covers are enumerated here with a plain Algorithm X (primary items exactly once, secondary
items at most once), written independently of the search backend; the covers that are
connected (a legal order of play exists and the rule checker accepts it) must be exactly
the layouts the search counts.
"""

from __future__ import annotations

import re

import pytest

from solver.backends.search import counting as search_counting
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.position import ColourState, Position
from solver.core.problem import Problem
from solver.core.variants import VARIANTS
from solver.formats.exact_cover import formulation, to_dlx


def covers(ec):
    """Every exact cover, as tuples of option indices (Algorithm X, smallest item first)."""
    n_primary = len(ec.primary)
    options = [
        set(ec.option_items[ec.option_ptr[k] : ec.option_ptr[k + 1]].tolist())
        for k in range(len(ec))
    ]
    by_item = {}
    for k, items in enumerate(options):
        for i in items:
            by_item.setdefault(i, []).append(k)
    out = []

    def solve(covered, chosen):
        open_items = [i for i in range(n_primary) if i not in covered]
        if not open_items:
            out.append(tuple(sorted(chosen)))
            return

        def live(i):
            return sum(1 for k in by_item.get(i, ()) if not options[k] & covered)

        item = min(open_items, key=live)
        for k in by_item.get(item, ()):
            if not options[k] & covered:
                solve(covered | options[k], chosen + [k])

    solve(frozenset(), [])
    return out


def one_colour(n, start, pieces, blocked=()):
    board = Board(n, n, frozenset(blocked))
    return Position(board, (ColourState("blue", board.parse(start), (), tuple(pieces)),))


def connected(position, ec, cover):
    layout = {}
    for k in cover:
        if ec.placements[k] is not None:
            colour, placement = ec.placements[k]
            layout.setdefault(colour, []).append(placement)
    ordered = {}
    for colour, placements in layout.items():
        order = order_of_play(position, colour, placements)
        if order is None:
            return False
        ordered[colour] = order
    return check_layout(position, ordered).legal


def test_items_and_option_of_a_placement():
    pos = one_colour(4, "a4", ("1", "2", "V3"))
    ec = formulation(Problem(pos, ("blue",)))
    assert ec.primary == ("B.1", "B.2", "B.V3")
    assert set(ec.secondary[:16]) == {Board(4, 4).name(s) for s in range(16)}
    # the domino on a4-b4: its piece, its squares, and the 4 edges at its ends (a4-b4
    # itself listed once), not edges to squares off the board
    k = next(k for k in range(len(ec)) if ec.placements[k][1].squares == frozenset({0, 1}))
    assert sorted(ec.option(k)) == sorted(["B.2", "a4", "b4", "B.a4r", "B.b4r", "B.a3u", "B.b3u"])
    assert len(set(ec.option(k))) == len(ec.option(k))


def test_junior_copies_are_items_and_options_per_copy():
    pos = Position.empty(VARIANTS["junior"])
    ec = formulation(Problem(pos, ("purple",)))
    assert len(ec.primary) == 24
    assert "P.V3a" in ec.primary and "P.V3b" in ec.primary
    # 7,217 placements of the Junior set on 14x14 (Pentobi), each once per copy
    assert len(ec) == 2 * 7217


def test_dlx_text_is_well_formed():
    pos = one_colour(5, "a5", ("1", "2", "V3"), blocked={12})
    ec = formulation(Problem(pos, ("blue",), name="tiny.toml"))
    text = to_dlx(ec)
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith("|")]
    body = [line for line in lines if not line.startswith("|")]
    assert any("NOT expressed" in line and "connectivity" in line for line in comments)
    head = body[0].split()
    bar = head.index("|")
    primary, secondary = head[:bar], head[bar + 1 :]
    assert primary == list(ec.primary) and secondary == list(ec.secondary)
    declared = set(primary) | set(secondary)
    for name in declared:
        assert len(name) <= 8 and not re.search(r"[\s|:]", name)
    assert "c3" not in declared  # the blocked square is no item
    assert len(body) - 1 == len(ec)
    for line in body[1:]:
        items = line.split()
        assert set(items) <= declared and len(set(items)) == len(items)
        assert sum(1 for it in items if it in primary) == 1


@pytest.mark.parametrize(
    "n,start,pieces,blocked,layouts",
    [
        (5, "a5", ("1", "2", "V3"), (), 146),  # the README's count
        (4, "a4", ("1", "2", "V3", "O"), (), 0),
        (4, "a4", ("1", "2", "I3"), (5,), None),
    ],
)
def test_connected_covers_are_the_layouts(n, start, pieces, blocked, layouts):
    pos = one_colour(n, start, pieces, blocked)
    problem = Problem(pos, ("blue",))
    ec = formulation(problem)
    all_covers = covers(ec)
    good = [c for c in all_covers if connected(pos, ec, c)]
    expected = search_counting.count(problem).count
    assert len(good) == expected
    if layouts is not None:
        assert expected == layouts
    assert len(all_covers) > len(good)  # exact cover alone admits islands


def test_squares_primary_has_the_same_covers():
    pos = one_colour(4, "a4", ("1", "2", "I3"), blocked={5})
    plain = formulation(Problem(pos, ("blue",)))
    tight = formulation(Problem(pos, ("blue",)), squares_primary=True)
    assert len(tight.primary) == len(plain.primary) + 15
    holes = [k for k in range(len(tight)) if tight.placements[k] is None]
    assert len(holes) == 15

    def as_layouts(ec, cs):
        return {frozenset(ec.placements[k] for k in c if ec.placements[k]) for c in cs}

    tight_covers = covers(tight)
    assert as_layouts(tight, tight_covers) == as_layouts(plain, covers(plain))
    # every cover leaves exactly free squares - area = 15 - 6 holes
    assert all(sum(1 for k in c if tight.placements[k] is None) == 9 for c in tight_covers)


def test_two_colours_share_squares_not_edges():
    board = Board(4, 4)
    pos = Position(
        board,
        (
            ColourState("blue", board.parse("a4"), (), ("2",)),
            ColourState("red", board.parse("d1"), (), ("2",)),
        ),
    )
    ec = formulation(Problem(pos, ("blue", "red")))
    assert ec.primary == ("B.2", "R.2")
    good = [c for c in covers(ec) if connected(pos, ec, c)]
    assert len(good) == search_counting.count(Problem(pos, ("blue", "red"))).count == 4
    # a blue and a red domino may touch along an edge: no shared edge item across colours
    blue = {it for k in range(len(ec)) if ec.placements[k][0] == "blue" for it in ec.option(k)}
    red = {it for k in range(len(ec)) if ec.placements[k][0] == "red" for it in ec.option(k)}
    assert not {it for it in blue & red if "." in it}


@pytest.mark.parametrize("squares_primary", [False, True])
def test_squares_to_cover_are_primary_and_the_connected_covers_are_the_layouts(squares_primary):
    pos = one_colour(5, "a5", ("1", "2", "V3"))
    stars = frozenset({pos.board.parse("c3"), pos.board.parse("b5")})
    problem = Problem(pos, ("blue",), cover=stars)
    ec = formulation(problem, squares_primary=squares_primary)
    assert {"c3", "b5"} <= set(ec.primary) and not {"c3", "b5"} & set(ec.secondary)
    assert ec.stars == ("c3", "b5")  # Pentobi order: rows from the bottom
    holes = {ec.option(k)[0] for k in range(len(ec)) if ec.placements[k] is None}
    assert not {"c3", "b5"} & holes
    good = [c for c in covers(ec) if connected(pos, ec, c)]
    assert len(good) == search_counting.count(problem).count > 0
    # fewer than without the stars, every one covering both
    assert len(good) < search_counting.count(Problem(pos, ("blue",))).count
    text = to_dlx(ec)
    assert "squares to cover" in text or "none for a square to cover" in text
