"""Blokus Trigon through the product: boards, positions, the rules, game records and the
legal moves, checked against Pentobi's games and its all_legal counts (tests/data/trigon).

tests/test_geometry_trigon.py checks the geometry layer alone; here the same facts are
met the way a user meets them: ``load_game`` reads Pentobi's records (every move checked
by :func:`solver.core.rules.move_problem`), ``legal_moves`` lists the moves.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from solver.core.board import Board
from solver.core.pieces import family
from solver.core.placements import board_placements, legal_moves
from solver.core.position import Placement, Position
from solver.core.rules import move_problem, shape_name
from solver.core.variants import ALL_VARIANTS
from solver.errors import InputError, RuleError, SquareError
from solver.formats.game import Game, load_game, read_sgf_text

DATA = Path(__file__).parent / "data" / "trigon"
GAMES = sorted(DATA.glob("*.blksgf"))


@cache
def game(name: str) -> Game:
    return load_game(DATA / name)


def pentobi_points() -> dict[str, list[int]]:
    """Pentobi's final points of each vendored game (scores.txt), colours in turn order."""
    out = {}
    for line in (DATA / "scores.txt").read_text().splitlines():
        words = line.split()
        if words:
            out[words[0]] = [int(w) for w in words[words.index("points") + 1 :]]
    return out


def test_board_trigon_has_pentobis_size_names_and_neighbours():
    board = Board.trigon(9)
    assert (board.size, board.rows, board.cols) == (486, 18, 35)
    assert Board.trigon(8).size == 384
    assert board.name(0) == "i18" and board.parse("i18") == 0
    assert board.parse("R15") == board.geometry.parse("r15")
    assert all(len(n) <= 3 for n in board.edge_neighbours)
    assert max(len(n) for n in board.corner_neighbours) == 9
    with pytest.raises(SquareError, match="off the trigon side 9 board"):
        board.parse("a1")  # a corner of the naming rectangle, outside the hexagon
    with pytest.raises(SquareError):
        Board(18, 34, grid="trigon")
    assert Board(20, 20) == Board(20, 20, grid="square")


def test_trigon_variants_start_with_22_pieces_and_six_shared_starting_points():
    for name, side, colours in (("trigon", 9, 4), ("trigon2", 9, 4), ("trigon3", 8, 3)):
        position = Position.empty(ALL_VARIANTS[name])
        assert position.board == Board.trigon(side)
        assert len(position.colours) == colours
        assert len(position.starting_points) == 6
        assert all(c.start is None and len(c.remaining) == 22 for c in position.colours)
        assert all(c.remaining_squares == 110 for c in position.colours)
    assert len(board_placements(Board.trigon(9))) == 32131
    assert len(board_placements(Board.trigon(8))) == 24859


def test_every_vendored_game_reads_and_scores_as_pentobi_counts_it():
    points = pentobi_points()
    assert len(GAMES) == 26 and set(points) == {g.name for g in GAMES}
    for path in GAMES:
        final = game(path.name).final
        # Pentobi's points: triangles on the board plus the bonus; ours: minus the
        # triangles left plus the bonus (110 triangles a colour)
        ours = [110 + final.score(c) for c in final.colour_names]
        assert ours == points[path.name], path.name


def test_legal_moves_reproduce_pentobis_all_legal_counts():
    rows = [
        json.loads(line)
        for name in ("oracle-trigon.jsonl", "oracle-trigon_3.jsonl")
        for line in (DATA / name).read_text().splitlines()
    ]
    assert len(rows) == 784
    checked = 0
    for row in rows[::7]:  # every 7th: all colours and move numbers; the geometry test has all
        position = game(row["file"]).position(row["move_number"])
        colour = position.colour_names[int(row["colour"]) - 1]
        assert len(legal_moves(position, colour)) == row["legal_count"], row
        checked += 1
    assert checked == 112


def test_first_piece_must_cover_a_free_starting_point():
    empty = Position.empty(ALL_VARIANTS["trigon"])
    board = empty.board
    first = legal_moves(empty, "blue")
    assert len(first) == 2478
    assert all(p.squares & empty.starting_points for p in first)
    two = next(p for p in first if p.piece == "2")
    after = empty.with_placement("blue", two)
    (point,) = two.squares & empty.starting_points
    (other,) = two.squares - {point}
    # yellow's monomino beside the starting point blue covered: no free starting point
    beside = next(n for n in board.edge_neighbours[point] if n != other)
    problem = move_problem(after, "yellow", Placement("1", {beside}))
    assert problem == "the first yellow piece must cover a starting point not yet covered"
    assert move_problem(after, "yellow", Placement("1", {point})).endswith("taken by blue")
    # five starting points left, each as in the empty position: 2,478 * 5 / 6 moves, less
    # those beside blue's piece (which no yellow rule forbids): so fewer than 2,478
    left = legal_moves(after, "yellow")
    assert all(p.squares & (empty.starting_points - {point}) for p in left)
    assert 0 < len(left) < 2478


def test_shape_names_are_the_trigon_familys():
    pieces = family("trigon")
    board = Board.trigon(9)
    table = board_placements(board)
    seen = {}
    for row in range(0, len(table), 97):
        placement = table.placement(row)
        seen[placement.piece] = shape_name(board, placement.squares)
    assert seen and all(k == v for k, v in seen.items())
    assert set(seen) <= set(pieces.names)
    assert pieces.size["X"] == 6 and family("square").size["X"] == 5


def test_a_move_off_the_rules_is_refused_naming_the_move(tmp_path):
    text = (DATA / GAMES[0].name).read_text()
    # blue's second move replaced by one far from its first piece
    first_move = text.index(";1[")
    second = text.index(";1[", first_move + 1)
    end = text.index("]", second)
    bad = text[:second] + ";1[i18]" + text[end + 1 :]
    with pytest.raises(RuleError, match="does not touch another blue piece at a corner"):
        read_sgf_text(bad, "bad.blksgf")
    with pytest.raises(InputError, match="unsupported variant"):
        read_sgf_text("(;GM[Blokus Callisto])")
