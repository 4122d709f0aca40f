"""Placement counts pinned to Pentobi's numbers (libpentobi_base/Move.h, oracle.jsonl)."""

import numpy as np
import pytest

from solver.core.placements import empty_board_placements, legal_moves, placements_for
from solver.core.position import Position
from solver.core.rules import move_problem
from solver.core.variants import VARIANTS


def test_empty_board_counts():
    assert len(empty_board_placements(20, 20)) == 30433
    assert len(empty_board_placements(14, 14)) == 13729


def test_junior_set_count():
    pos = Position.empty(VARIANTS["junior"])
    assert len(placements_for(pos, "purple")) == 7217


@pytest.mark.parametrize("variant,count", [("classic", 58), ("duo", 414), ("junior", 189)])
def test_first_moves(variant, count):
    pos = Position.empty(VARIANTS[variant])
    for colour in pos.colour_names:
        assert len(legal_moves(pos, colour)) == count


def test_no_duplicate_placements():
    t = empty_board_placements(14, 14)
    keys = {(int(p), tuple(sorted(s[s >= 0]))) for p, s in zip(t.piece, t.squares)}
    assert len(keys) == len(t)


def test_legal_moves_agree_with_rules_after_a_few_moves():
    pos = Position.empty(VARIANTS["duo"])
    rng = np.random.default_rng(7)
    for turn in range(8):
        colour = pos.colour_names[turn % 2]
        moves = legal_moves(pos, colour)
        assert moves
        for m in moves:
            assert move_problem(pos, colour, m) is None
        pos = pos.with_placement(colour, moves[rng.integers(len(moves))])
    # and every fitting, non-playable placement is refused by the rules
    table = placements_for(pos, "purple")
    for i in np.flatnonzero(~table.playable)[:200]:
        assert move_problem(pos, "purple", table.placement(i)) is not None


def test_placements_respect_blocked_and_small_boards():
    from solver.core.board import Board
    from solver.core.position import ColourState

    board = Board(3, 3, frozenset({4}))
    pos = Position(board, (ColourState("blue", 0, (), ("I4", "V3", "1")),))
    table = placements_for(pos, "blue")
    names = {table.placement(i).piece for i in range(len(table))}
    assert "I4" not in names
    assert all(4 not in table.placement(i).squares for i in range(len(table)))
    # V3 fits in the four corners of the ring, in 1 orientation each: 4; the monomino: 8
    assert sum(1 for i in range(len(table)) if table.placement(i).piece == "V3") == 4
    assert sum(1 for i in range(len(table)) if table.placement(i).piece == "1") == 8
