"""The companion's opening book (solver/companion/book.py, book.json): every layout verified
by the rule checker, the first placements it answers, the answers it gives (issue 32
item 5)."""

from __future__ import annotations

from importlib import resources

from helpers import GAMES

from solver.companion.book import book_layouts, entries, first_placements
from solver.companion.follow import Follower, follow
from solver.companion.layouts import checked
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.variants import VARIANTS
from solver.formats.game import load_game
from solver.tasks.solve import SolveOptions

#: the Classic first placements (the monomino's aside) no book layout begins with, by the
#: colour's start square: the L5 class of {a20, b20, c20, d20, d19} and its mirror image
#: (benchmarks/build_book.py --fill 2: unknown at 6 x 300 s; docs/companion.md)
MISSING = {"blue": {("L5", frozenset({"a20", "b20", "c20", "d20", "d19"}))}}


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


def test_the_book_begins_with_the_first_placements_of_every_colour():
    data = resources.files("solver.companion").joinpath("book.json").read_bytes()
    assert len(data) < 64_000  # package data
    empty = Position.empty(VARIANTS["classic"])
    covered = first_placements("classic")
    board = empty.board
    for colour in empty.colour_names:
        missed = {
            (m.piece, frozenset(board.names(m.squares)))
            for m in legal_moves(empty, colour)
            if m.piece != "1" and m not in covered[colour]
        }
        if colour == "blue":
            assert {(p, frozenset(n)) for p, n in missed} <= {
                (p, frozenset(n)) for p, n in MISSING["blue"]
            } | _mirror(MISSING["blue"], board)
        assert len(missed) <= 2, (colour, missed)


def _mirror(found, board):
    """The images of blue's placements under the diagonal mirror through its corner."""
    out = set()
    for piece, names in found:
        squares = {board.parse(n) for n in names}
        mirrored = set()
        for s in squares:
            r, c = divmod(s, board.cols)
            mirrored.add(c * board.cols + r)
        out.add((piece, frozenset(board.names(mirrored))))
    return out


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


def test_review_and_check_together_start_from_the_book():
    game = load_game(GAMES / "classic-L1-s56.blksgf")
    (start,) = follow(game, SolveOptions(time_limit=5), upto=0)
    assert (start.answer, start.how) == ("yes", "book")
