"""The companion's pair book (solver/companion/pair_book.py, pair_book.npz): every layout
verified by the rule checker, every pair of blue's and yellow's first placements answered
(directly or under the mirror), and the answers it gives (issue 45 item 3)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.companion.book import book_layouts
from solver.companion.layouts import checked
from solver.companion.pair_book import (
    first_indices,
    layout_of,
    pair_layouts,
    read_rows,
    row_of,
)
from solver.core.placement_index import variant_index
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.variants import VARIANTS

EMPTY = Position.empty(VARIANTS["classic"])
ROWS = read_rows()


def _complete(position, layout) -> bool:
    """The rule checker's verdict on a layout in an order of play (``checked`` finds one;
    the book stores each colour's pieces in the set's order)."""
    return checked(position, layout) is not None


def test_the_book_holds_one_layout_per_pair_of_the_mirror():
    assert ROWS.shape == (1711, 84)
    keys = first_indices(ROWS)
    assert (keys >= 0).all()
    assert len({tuple(k) for k in keys}) == len(ROWS)


def _rows_check(rows) -> None:
    for row in rows:
        layout = layout_of(row)
        assert _complete(EMPTY, layout)
        assert np.array_equal(row_of(layout), row)


def test_a_sample_of_the_book_is_legal_and_complete():
    _rows_check(ROWS[::40])


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_every_layout_of_the_book_is_legal_and_complete(part):
    _rows_check(ROWS[part::4])


def test_every_pair_of_first_placements_is_answered_with_a_layout_holding_both():
    index = variant_index("classic")
    blue = sorted(legal_moves(EMPTY, "blue"), key=index.index)
    yellow = sorted(legal_moves(EMPTY, "yellow"), key=index.index)
    assert (len(blue), len(yellow)) == (58, 58)
    rng = np.random.default_rng(45)
    checked = 0
    for a in blue:
        for b in yellow:
            position = EMPTY.with_placement("blue", a).with_placement("yellow", b)
            found = pair_layouts(position)
            assert len(found) == 1, (a, b)
            if rng.random() < 0.05:  # the rule checker on a sample (every row is above)
                assert _complete(position, found[0])
                checked += 1
    assert checked > 100


def test_the_pair_book_answers_red_when_red_follows_the_layout_and_not_otherwise():
    """After the third colour's first piece, a pair layout answers only when it holds
    that piece too: from the layout's own first three pieces always, from another red
    first piece only where some layout of the book (or an image) happens to."""
    layout = layout_of(ROWS[7])
    firsts = {
        c: next(p for p in layout[c] if EMPTY.colour(c).start in p.squares)
        for c in ("blue", "yellow", "red")
    }
    two = EMPTY.with_placement("blue", firsts["blue"]).with_placement("yellow", firsts["yellow"])
    three = two.with_placement("red", firsts["red"])
    found = book_layouts(three, most=30)
    assert found and all(_complete(three, f) for f in found)
    start = EMPTY.colour("red").start
    answered = 0
    others = [m for m in legal_moves(two, "red") if start in m.squares and m != firsts["red"]]
    for m in others:
        position = two.with_placement("red", m)
        for f in pair_layouts(position, most=8):
            assert _complete(position, f)
            answered += 1
    assert answered < len(others)


def test_no_pair_answers_off_the_classic_board():
    duo = Position.empty(VARIANTS["duo"])
    assert pair_layouts(duo) == []
    assert pair_layouts(EMPTY) == []  # no first placement: the opening book's business


def test_the_companion_answers_the_first_two_pieces_from_the_books_at_once():
    """Blue's first piece from the opening book (its monomino, which no layout of the
    opening book begins with, from the pair book) and yellow's from the pair book, each
    without a repair tier tried first (follow.Follower.step looks the books up before
    anything else), with a layout the rule checker accepts."""
    from solver.api import Companion

    index = variant_index("classic")
    rng = np.random.default_rng(7)
    blue = sorted(legal_moves(EMPTY, "blue"), key=index.index)
    yellow = sorted(legal_moves(EMPTY, "yellow"), key=index.index)
    for k in range(3):
        a = blue[0] if k == 0 else blue[int(rng.integers(len(blue)))]  # [0]: the monomino
        b = yellow[int(rng.integers(len(yellow)))]
        game = Companion(EMPTY, time_limit=5)
        game.answer()
        for colour, move in (("blue", a), ("yellow", b)):
            game.play(move, colour)
            step = game.answer()
            assert (step.answer, step.how, step.tried) == ("yes", "book", ())
            assert _complete(game.position, step.layout)


def test_red_first_piece_gets_both_neighbouring_pairs_as_repair_starts():
    """After red's first piece, the pair book gives the layout of blue's and yellow's pair
    and (under a quarter turn) that of yellow's and red's; laid over the position, each
    keeps only pieces that still fit (the rule checker accepts the partial layout), and
    of the pair's colours, what the third colour's first piece leaves of them."""
    from solver.companion.layouts import laid_over, legal_part
    from solver.companion.pair_book import pair_images

    rng = np.random.default_rng(11)
    position = EMPTY
    for colour in ("blue", "yellow", "red"):
        moves = sorted(legal_moves(position, colour), key=variant_index("classic").index)
        position = position.with_placement(colour, moves[int(rng.integers(len(moves)))])
    firsts = {c: position.colour(c).placed[0] for c in ("blue", "yellow", "red")}
    images = pair_images(position)
    holds = [{c for c, p in firsts.items() if p in layout[c]} for layout in images]
    assert {"blue", "yellow"} <= set().union(*holds)
    assert any(h >= {"blue", "yellow"} for h in holds)
    assert any(h >= {"yellow", "red"} for h in holds)
    for layout, held in zip(images, holds):
        kept, gone = laid_over(layout, position)
        assert legal_part(position, kept) is not None
        taken = position.occupied
        for c in held:  # its pieces that no other colour's first piece covers, at least
            clear = [p for p in layout[c] if not p.squares & taken]
            assert set(kept[c]) <= set(clear)
            assert len(kept[c]) >= len(clear) - 5  # (a few cut off from the colour)
        assert gone == sum(len(position.colour(c).remaining) - len(kept[c]) for c in kept)
