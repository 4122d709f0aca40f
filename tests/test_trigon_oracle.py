"""Our Trigon rules (``solver.core.geometry.reference``) against Pentobi's answers on
self-play games of our own seeds and on perft, without Pentobi: its answers are stored in
tests/data/trigon/selfplay-*.jsonl and perft-*.jsonl by scripts/trigon_oracle.py
(tests/data/trigon/README.md). One test asks Pentobi itself when $PENTOBI_GTP is set.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from solver.core.geometry.reference import colour_rows, perft, perft_divide
from solver.core.geometry.shapes import TRIGON_PIECES, PlacementList, enumerate_placements
from solver.core.geometry.trigon import TrigonGeometry

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data" / "trigon"

#: side of the board and colours in turn order of each variant (Pentobi's Variant.cpp)
VARIANTS = {"trigon": (9, "1234"), "trigon_2": (9, "1234"), "trigon_3": (8, "123")}


def load_script():
    """scripts/trigon_oracle.py as a module (its digests define the stored ones)."""
    spec = importlib.util.spec_from_file_location(
        "trigon_oracle", ROOT / "scripts/trigon_oracle.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


oracle = load_script()


@cache
def table(side: int) -> PlacementList:
    return enumerate_placements(TrigonGeometry(side), TRIGON_PIECES)


def read_jsonl(pattern: str) -> list[dict]:
    return [json.loads(t) for p in sorted(DATA.glob(pattern)) for t in p.read_text().splitlines()]


GAMES = read_jsonl("selfplay-*.jsonl")
PERFTS = read_jsonl("perft-*.jsonl")


class Replay:
    """A game's positions with plain sets: each colour's cells and placed pieces."""

    def __init__(self, variant: str, moves: Sequence[Sequence[str]] = ()):
        side, self.colours = VARIANTS[variant]
        self.placements = table(side)
        geo = self.placements.geometry
        self.starts = {c: geo.starting_points for c in self.colours}
        self.cells = {c: frozenset() for c in self.colours}
        self.pieces = {c: frozenset() for c in self.colours}
        for colour, move in moves:
            self.play(colour, move)

    def play(self, colour: str, move: str) -> None:
        """Place Pentobi's move (its triangle names) for a colour; it must be a placement
        of a piece the colour has left."""
        cells = self.placements.geometry.parse_move(move)
        row = self.placements.by_cells[cells]
        piece = self.placements.piece_list[row]
        assert piece not in self.pieces[colour] and self.cells[colour].isdisjoint(cells)
        self.cells[colour] |= cells
        self.pieces[colour] |= {piece}

    def legal(self, colour: str) -> list[int]:
        """Our legal rows of a colour (``reference.legal_rows``)."""
        return colour_rows(self.placements, self.cells, self.pieces, colour, self.starts)

    def move_text(self, row: int) -> str:
        """A row as Pentobi writes a move: triangle names joined by commas."""
        return ",".join(self.placements.geometry.names[c] for c in self.placements.cell_sets[row])

    def digest(self, rows: list[int]) -> str:
        """The digest of a list of our moves (rows), as the script digests Pentobi's."""
        return oracle.moves_digest(self.move_text(r) for r in rows)

    def perft(self, colour: str, depth: int) -> int:
        """perft(depth) for ``colour`` then the next colours in fixed turn order."""
        turns = [colour]
        while len(turns) < depth:
            turns.append(oracle.next_colour(self.colours, turns[-1]))
        return perft(self.placements, self.cells, self.pieces, turns, self.starts)


def game_id(game: dict) -> str:
    return f"{game['variant']}-s{game['seed']}"


# --- the stored data ---------------------------------------------------------------------


def test_the_stored_games_are_whole_games_of_every_variant():
    assert {g["variant"] for g in GAMES} == set(VARIANTS)
    assert len({game_id(g) for g in GAMES}) == len(GAMES) >= 24
    assert {g["policy"] for g in GAMES} == {"uniform", "size"}
    for game in GAMES:
        colours = VARIANTS[game["variant"]][1]
        assert len(game["counts"]) == len(game["moves"]) + 1
        assert game["counts"][0] == [2478] * len(colours)  # Pentobi's first-move count
        assert game["counts"][-1] == [0] * len(colours)  # played to the end
        assert str(len(game["moves"])) in game["digests"]
        for counts, (colour, _) in zip(game["counts"], game["moves"]):
            assert counts[colours.index(colour)] > 0  # nobody moved without a move
    placements = sum(len(g["moves"]) for g in GAMES)
    assert placements > 1000
    # the data stays small: a digest stands for each stored move list
    added = [*DATA.glob("selfplay-*.jsonl"), *DATA.glob("perft-*.jsonl")]
    assert sum(p.stat().st_size for p in added) < 250_000


def test_stored_turn_order_passes_only_colours_without_moves():
    # the colour to move is the next in turn order that has a legal move (Pentobi's)
    for game in GAMES:
        colours = VARIANTS[game["variant"]][1]
        last = colours[-1]
        for counts, (colour, _) in zip(game["counts"], game["moves"]):
            skipped = oracle.next_colour(colours, last)
            while skipped != colour:
                assert counts[colours.index(skipped)] == 0, game_id(game)
                skipped = oracle.next_colour(colours, skipped)
            last = colour


# --- our legal moves against Pentobi's ---------------------------------------------------


def replay_mismatches(game: dict, stride: int) -> list[tuple]:
    """(move_number, colour, Pentobi's, ours) where our count, or our move list's digest
    where one is stored, is not Pentobi's, at every ``stride``-th position and the last."""
    replay = Replay(game["variant"])
    last = len(game["moves"])
    wrong = []
    for k, counts in enumerate(game["counts"]):
        if k % stride == 0 or k == last:
            digests = game["digests"].get(str(k))
            for colour, count in zip(replay.colours, counts):
                rows = replay.legal(colour)
                if len(rows) != count:
                    wrong.append((k, colour, count, len(rows)))
                if digests and (ours := replay.digest(rows)) != digests[colour]:
                    wrong.append((k, colour, digests[colour], ours))
        if k < last:
            replay.play(*game["moves"][k])
    return wrong


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_the_move_lists_of_the_self_play_games_are_pentobis(game):
    # every colour's whole move list (its digest) and count, every 16th position and the end
    assert all(str(k) in game["digests"] for k in range(0, len(game["counts"]), 16))
    assert replay_mismatches(game, stride=16) == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_every_count_of_the_self_play_games_is_pentobis(game):
    # and the digests every 8th position
    assert replay_mismatches(game, stride=1) == []


# --- perft -------------------------------------------------------------------------------


def perft_id(line: dict) -> str:
    return f"{line['variant']}-s{line['seed']}-m{line['move_number']}"


def stored_game(line: dict) -> dict:
    """The stored game a perft line's position comes from."""
    (game,) = [g for g in GAMES if (g["variant"], g["seed"]) == (line["variant"], line["seed"])]
    return game


def perft_position(line: dict) -> Replay:
    """The position of a stored perft line: the empty board or a stored game's."""
    if line["seed"] is None:
        assert line["move_number"] == 0
        return Replay(line["variant"])
    return Replay(line["variant"], stored_game(line)["moves"][: line["move_number"]])


def test_perft_lines_cover_the_empty_board_and_mid_game():
    assert {x["variant"] for x in PERFTS if x["seed"] is None} == set(VARIANTS)
    assert len([x for x in PERFTS if x["seed"] is not None]) >= 12
    for line in PERFTS:
        colours = VARIANTS[line["variant"]][1]
        assert line["next"] == oracle.next_colour(colours, line["colour"])
        if line["seed"] is None:
            assert line["colour"] == "1" and line["perft1"] == 2478
        else:
            # Pentobi's perft(1) is its count stored with the game, for the colour that
            # moved there
            game = stored_game(line)
            k = line["move_number"]
            assert game["moves"][k][0] == line["colour"]
            assert game["counts"][k][colours.index(line["colour"])] == line["perft1"]


def check_perft(line: dict) -> None:
    """perft(1), perft(2) and the divide's digest of a stored line, ours against Pentobi's."""
    replay = perft_position(line)
    assert replay.perft(line["colour"], 1) == line["perft1"]
    turns = [line["colour"], line["next"]]
    divide = perft_divide(replay.placements, replay.cells, replay.pieces, turns, replay.starts)
    assert len(divide) == line["perft1"]
    assert sum(divide.values()) == line["perft2"]
    assert (
        oracle.divide_digest((replay.move_text(r), n) for r, n in divide.items()) == line["divide"]
    )


#: perft(2) lines whose perft(1) is at most this run in the quick tests (our reference takes
#: about 5 ms a legal_rows call in mid-game: some 200 calls a second)
QUICK_PERFT1 = 250


def perft_params(lines: list[dict]) -> list:
    """The lines as test parameters, those with a larger perft(1) than
    :data:`QUICK_PERFT1` marked slow."""
    return [
        pytest.param(x, id=perft_id(x), marks=[pytest.mark.slow] * (x["perft1"] > QUICK_PERFT1))
        for x in lines
    ]


@pytest.mark.parametrize("line", perft_params([x for x in PERFTS if x["seed"] is not None]))
def test_mid_game_perft_is_pentobis(line):
    check_perft(line)


def test_empty_board_perft_of_trigon_two_player_is_trigons():
    # the same board and rules of a move: Pentobi's answers agree, so the slow test below
    # computes ours once for side 9
    (four, two) = [
        {k: v for k, v in x.items() if k != "variant"}
        for v in ("trigon", "trigon_2")
        for x in PERFTS
        if x["seed"] is None and x["variant"] == v
    ]
    assert four == two and four["perft2"] > 2478 * 2000


@pytest.mark.slow
@pytest.mark.parametrize(
    "line", [x for x in PERFTS if x["seed"] is None and x["variant"] != "trigon_2"], ids=perft_id
)
def test_empty_board_perft_is_pentobis(line):
    check_perft(line)


# --- Pentobi itself ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def pentobi_program() -> str:
    found = os.environ.get("PENTOBI_GTP")
    if not found or not Path(found).exists():
        pytest.skip("set PENTOBI_GTP to Pentobi's GTP engine to check against it live")
    return found


def to_move(engine, colours: str, colour: str) -> tuple[str, list[str]]:
    """The first colour from ``colour`` on in turn order with a legal move in Pentobi's
    position, and its moves (``colour`` and [] when nobody has one)."""
    for step in range(len(colours)):
        c = colours[(colours.index(colour) + step) % len(colours)]
        if moves := engine.legal(c):
            return c, moves
    return colour, []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_live_against_pentobi_on_a_fresh_seed(pentobi_program, variant):
    # a seed none of the stored games used (they have whole numbers): 36 random placements,
    # every colour's whole move list compared every 9, then perft(1) and perft(2) there
    rng = random.Random(f"live-{variant}")
    engine = oracle.Pentobi(variant, pentobi_program)
    try:
        replay = Replay(variant)
        colour = replay.colours[0]
        for k in range(37):
            if k % 9 == 0:
                for c in replay.colours:
                    ours = replay.digest(replay.legal(c))
                    assert ours == oracle.moves_digest(engine.legal(c)), (k, c)
            colour, moves = to_move(engine, replay.colours, colour)
            if k == 36 or not moves:
                break
            move = oracle.choose(rng, moves, "uniform")
            engine.play(colour, move)
            replay.play(colour, move)
            colour = oracle.next_colour(replay.colours, colour)
        theirs = oracle.perft2(engine, colour)
        assert replay.perft(colour, 1) == theirs["perft1"] == len(moves) > 0
        assert replay.perft(colour, 2) == theirs["perft2"]
    finally:
        engine.close()
