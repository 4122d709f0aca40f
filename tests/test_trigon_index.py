"""The placement index and the legal-move mask on Blokus Trigon (issue 43 item 2).

The index numbers every placement of the 22 Trigon pieces on the hexagon in a fixed order
(solver/core/placement_index.py: piece, orientation, the first tile's cell); its counts are
Pentobi's (``onboard_moves_trigon`` = 32,131, ``onboard_moves_trigon_3`` = 24,859), and the
mask of a position marks exactly the legal moves (held to Pentobi's all_legal counts).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from solver.core.movegen import legal_mask, legal_placements
from solver.core.placement_index import index_for, same_as_engine_table, variant_index
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.variants import ALL_VARIANTS
from solver.errors import InputError
from solver.formats.game import load_game

DATA = Path(__file__).parent / "data" / "trigon"


def test_counts_are_pentobis_and_the_numbering_is_the_engines_table():
    assert len(variant_index("trigon")) == 32131
    assert len(variant_index("trigon2")) == 32131
    assert len(variant_index("trigon3")) == 24859
    index = variant_index("trigon")
    assert index.squares.shape == (32131, 6)
    assert same_as_engine_table(index)
    assert index_for(Position.empty(ALL_VARIANTS["trigon3"])) is variant_index("trigon3")


def test_order_is_piece_then_orientation_then_anchor():
    index = variant_index("trigon")
    key = np.lexsort((index.anchor, index.orientation, index.piece))
    assert np.array_equal(key, np.arange(len(index)))
    # every anchor is a cell of its placement, and no set of cells is numbered twice
    assert (index.squares == index.anchor[:, None]).any(axis=1).all()
    assert len({frozenset(r[r >= 0].tolist()) for r in index.squares}) == len(index)
    assert index.names[0] == "I6" and index.names[int(index.piece[-1])] == "1"


def test_numbers_and_placements_round_trip():
    index = variant_index("trigon")
    for i in (0, 1, 977, 16000, 32130):
        placement = index.placement(i)
        assert index.index(placement) == i
        assert index.indices_of(index.squares[i : i + 1]).tolist() == [i]
        assert index.text(i) == ",".join(index.board.names(placement.squares))
    with pytest.raises(InputError):  # the cells of a Trigon piece named as another piece
        index.index(Placement("X", index.placement(0).squares))
    two = index.indices_of(np.array([[0, 1, -1, -1, -1, -1], [0, 100, -1, -1, -1, -1]]))
    assert index.placement(int(two[0])).piece == "2" and two[1] == -1  # i18,j18 share an edge


def test_the_mask_marks_exactly_the_legal_moves_of_game_positions():
    rows = [json.loads(line) for line in (DATA / "oracle-trigon.jsonl").read_text().splitlines()]
    checked = 0
    for row in rows[::25]:
        position = load_game(DATA / row["file"]).position(row["move_number"])
        colour = position.colour_names[int(row["colour"]) - 1]
        mask = legal_mask(position, colour)
        assert int(mask.sum()) == row["legal_count"]
        index = index_for(position)
        marked = {p.squares for p in index.placements(np.flatnonzero(mask))}
        assert marked == {p.squares for p in legal_moves(position, colour)}
        assert [p.squares for p in legal_placements(position, colour)] == [
            index.placement(int(i)).squares for i in np.flatnonzero(mask)
        ]
        checked += 1
    assert checked >= 20
