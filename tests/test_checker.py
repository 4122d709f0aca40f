"""The independent rule checker: legal layouts, each broken rule, islands, scores, bonus."""

from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.position import ColourState, Placement, Position

BOARD = Board(7, 7)


def pl(piece, *names):
    return Placement(piece, frozenset(BOARD.parse(n) for n in names))


def position(*pieces, start="a7", others=()):
    return Position(BOARD, (ColourState("blue", BOARD.parse(start), (), tuple(pieces)),) + others)


def test_legal_layout_scores_all_placed_and_bonus():
    pos = position("1", "2", "V3")
    layout = {"blue": [pl("V3", "a7", "a6", "b6"), pl("2", "c5", "c4"), pl("1", "d3")]}
    report = check_layout(pos, layout)
    assert report.legal, report.problem
    r = report.report("blue")
    assert r.all_placed and r.monomino_last
    assert r.score == 20


def test_unplaced_squares_cost_one_each():
    pos = position("1", "2", "V3", "L5")
    report = check_layout(pos, {"blue": [pl("V3", "a7", "a6", "b6")]})
    assert report.legal
    assert report.report("blue").score == -8
    assert report.report("blue").remaining == ("1", "2", "L5")


def test_monomino_needed_to_connect_gets_no_bonus():
    pos = position("1", "2", "V3")
    layout = {"blue": [pl("V3", "a7", "a6", "b6"), pl("1", "c5"), pl("2", "d4", "d3")]}
    report = check_layout(pos, layout)
    assert report.legal
    assert not report.report("blue").monomino_last
    assert report.report("blue").score == 15
    # and no order can put it last
    assert order_of_play(pos, "blue", layout["blue"], monomino_last=True)[-1].piece == "2"


def test_first_piece_must_cover_start():
    report = check_layout(position("V3"), {"blue": [pl("V3", "b7", "b6", "c6")]})
    assert "start square a7" in report.problem


def test_edge_contact_refused():
    report = check_layout(
        position("2", "V3"), {"blue": [pl("V3", "a7", "a6", "b6"), pl("2", "c6", "c5")]}
    )
    assert "shares an edge" in report.problem
    assert report.problem.startswith("blue move 2 (2 at c5,c6)")


def test_island_refused_although_every_piece_has_a_corner_contact():
    # The 2 and the V3 touch each other at a corner, so each piece "touches some corner",
    # but neither touches the monomino on the start square: they are an island.
    pos = position("1", "2", "V3")
    island = [pl("1", "a7"), pl("2", "d4", "e4"), pl("V3", "f3", "f2", "g2")]
    report = check_layout(pos, {"blue": island})
    assert not report.legal
    assert "does not touch another blue piece at a corner" in report.problem
    assert order_of_play(pos, "blue", island) is None


def test_overlap_with_other_colour_and_blocked():
    other = ColourState("red", None, (pl("O", "b6", "c6", "b5", "c5"),), ())
    pos = position("V3", others=(other,))
    report = check_layout(pos, {"blue": [pl("V3", "a7", "a6", "b6")]})
    assert "already taken by red" in report.problem
    blocked = Position(
        Board(7, 7, frozenset({BOARD.parse("a6")})), (ColourState("blue", 0, (), ("V3",)),)
    )
    assert "blocked" in check_layout(blocked, {"blue": [pl("V3", "a7", "a6", "b6")]}).problem


def test_wrong_shape_and_piece_used_twice():
    pos = position("V3", "2")
    assert (
        "do not form piece V3" in check_layout(pos, {"blue": [pl("V3", "a7", "b7", "c7")]}).problem
    )
    twice = {"blue": [pl("2", "a7", "b7"), pl("2", "c6", "c5")]}
    assert "no 2 left" in check_layout(pos, twice).problem


def test_other_colours_touch_freely():
    other = ColourState("red", None, (pl("O", "b6", "c6", "b5", "c5"),), ())
    pos = position("1", others=(other,))
    report = check_layout(pos, {"blue": [pl("1", "a7")]})
    assert report.legal
    assert report.report("red").score == 15  # red has placed everything it had
