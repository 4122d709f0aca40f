"""The person's order of a winning game (``benchmarks/person.py``: ``winning_line``, which
``benchmarks/live_play.py --winning`` plays through the page): every piece of a verified
layout, legal move by move from the empty board, colours in turn, each playing the largest
piece of its layout legal at that moment, every monomino last. The layout here is one of
the opening book's (any complete monomino-last layout does for the order)."""

import importlib.util

from helpers import ROOT

from solver.companion import book
from solver.core.checker import check_layout
from solver.core.pieces import MONOMINO, PIECES
from solver.core.rules import move_problem
from solver.formats.game import start_position

_spec = importlib.util.spec_from_file_location("person", ROOT / "benchmarks" / "person.py")
assert _spec is not None and _spec.loader is not None
person = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(person)


def _layout():
    entry = next(e for e in book.entries() if e.variant == "classic")
    return entry.layout


def test_winning_line_plays_every_piece_legally_in_a_persons_order():
    layout = _layout()
    line = person.winning_line(layout)
    assert len(line) == 84
    assert {(c, p) for c, p in line} == {(c, p) for c, ps in layout.items() for p in ps}
    position = start_position("classic")
    turn = position.colour_names
    left = {c: list(ps) for c, ps in layout.items()}
    for k, (colour, move) in enumerate(line):
        # every colour has 21 pieces and always a legal one: the colours strictly in turn
        assert colour == turn[k % len(turn)]
        assert move_problem(position, colour, move) is None
        legal = [p for p in left[colour] if move_problem(position, colour, p) is None]
        assert PIECES[move.piece].size == max(PIECES[p.piece].size for p in legal)
        left[colour].remove(move)
        position = position.with_placement(colour, move)
    assert all(not ps for ps in left.values())
    for colour in turn:
        played = [p for c, p in line if c == colour]
        assert played[-1].piece == MONOMINO
    ordered = {c: [p for d, p in line if d == c] for c in turn}
    report = check_layout(start_position("classic"), ordered)
    assert report.legal
    assert all(report.report(c).all_placed and report.report(c).monomino_last for c in turn)


def test_layout_move_is_none_when_nothing_is_left_or_legal():
    layout = _layout()
    empty = start_position("classic")
    assert person.layout_move(empty, "blue", []) is None
    # on the empty board only the piece on the start square is legal
    first = person.layout_move(empty, "blue", layout["blue"])
    assert first is not None and empty.colour("blue").start in first.squares
    others = [p for p in layout["blue"] if p != first]
    assert person.layout_move(empty, "blue", others) is None
