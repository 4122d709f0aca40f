"""The companion's opening book (solver/companion/book.py, book.json): every layout verified
by the rule checker, the first placements it answers, the answers it gives (issue 32
item 5)."""

from __future__ import annotations

from importlib import resources

from helpers import GAMES

from solver.backends.base import SolveOptions
from solver.companion.book import book_layouts, entries, first_placements
from solver.companion.follow import Follower, follow
from solver.companion.layouts import checked
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.variants import VARIANTS
from solver.formats.game import load_game


def test_every_book_layout_is_legal_complete_and_ends_with_every_monomino():
    assert entries()
    for entry in entries():
        empty = Position.empty(VARIANTS[entry.variant])
        ordered = {
            c: order_of_play(empty, c, entry.layout[c], monomino_last=True) for c in entry.colours
        }
        assert all(v is not None for v in ordered.values()), entry.name
        report = check_layout(empty, ordered)
        assert report.legal, report.problem
        for colour in entry.colours:
            assert report.report(colour).all_placed and report.report(colour).monomino_last


def test_the_book_begins_with_every_first_placement_of_every_colour():
    """Every first placement of every colour (its start square covered; the monomino,
    which comes last, aside) is the first placement of that colour in a book layout or an
    image of one under the board's symmetries."""
    data = resources.files("solver.companion").joinpath("book.json").read_bytes()
    assert len(data) < 64_000  # package data
    empty = Position.empty(VARIANTS["classic"])
    covered = first_placements("classic")
    for colour in empty.colour_names:
        firsts = [m for m in legal_moves(empty, colour) if m.piece != "1"]
        assert len(firsts) == 57
        assert all(m in covered[colour] for m in firsts), colour


def test_the_empty_board_and_a_first_placement_are_answered_from_the_book():
    empty = Position.empty(VARIANTS["classic"])
    follower = Follower(SolveOptions(time_limit=5), "test")
    step = follower.check(0, None, empty, 0)
    assert (step.answer, step.how) == ("yes", "book")
    report = check_layout(empty, {c: list(v) for c, v in step.layout.items()})
    assert report.legal and all(r.all_placed for r in report.colours)
    first = next(iter(first_placements("classic")["red"]))
    after = empty.with_placement("red", first)
    layouts = book_layouts(after)
    assert layouts and all(first not in v for v in layouts[0].values())
    assert checked(after, layouts[0]) is not None  # in an order of play, by the checker


def test_the_empty_duo_board_is_answered_from_the_book():
    empty = Position.empty(VARIANTS["duo"])
    layouts = book_layouts(empty)
    assert layouts and checked(empty, layouts[0]) is not None


def test_review_and_check_together_start_from_the_book():
    game = load_game(GAMES / "classic-L1-s56.blksgf")
    (start,) = follow(game, SolveOptions(time_limit=5), upto=0)
    assert (start.answer, start.how) == ("yes", "book")
