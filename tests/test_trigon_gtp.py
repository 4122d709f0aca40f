"""``blokus-solo gtp`` on Blokus Trigon (issue 43), through the engine's command interface
as tests/test_gtp.py drives it, against Pentobi's own answers.

Pentobi's answers kept in ``tests/data/trigon`` (no Pentobi needed):

- ``selfplay-*.jsonl``: 32 self-play games with Pentobi's ``all_legal`` count of every
  colour after every placement and a digest of its whole move list every 8 placements
  (``scripts/trigon_oracle.py``'s ``moves_digest``; tests/data/trigon/README.md);
- ``oracle-*.jsonl``: Pentobi's ``all_legal`` counts at 208 positions of the 26 vendored
  games; ``scores.txt``: their final points;
- ``gtp-pentobi.json`` (made for this file from ``pentobi-gtp`` 31.0-dev, ``--nobook
  --quiet --level 1 --threads 1 --noresign``): Pentobi's ``showboard`` text at 5 positions
  (``loadsgf FILE [N]`` of a vendored game, or ``selfplay VARIANT SEED N``: the first N
  moves of that self-play game played with ``play``) and its ``final_score`` at the end
  of each self-play game.

The tests marked ``slow`` compare every stored answer; the others a sample. The last tests
drive Pentobi's engine itself (``PENTOBI_GTP``) and are skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path

import pytest

from solver.core.rules import move_problem
from solver.formats.game import load_game
from solver.gtp.client import Client
from solver.gtp.compare import normalised
from solver.gtp.control import parse_move, pentobi_command
from solver.gtp.engine import Engine
from solver.gtp.genmove import GenmoveSettings

DATA = Path(__file__).parent / "data" / "trigon"
PENTOBI = json.loads((DATA / "gtp-pentobi.json").read_text())
#: Pentobi's GM value of each variant id of the stored files
GM = {
    "trigon": "Blokus Trigon",
    "trigon_2": "Blokus Trigon Two-Player",
    "trigon_3": "Blokus Trigon Three-Player",
}
VENDORED = sorted(DATA.glob("*.blksgf"))


def read_jsonl(pattern: str) -> list[dict]:
    return [json.loads(t) for p in sorted(DATA.glob(pattern)) for t in p.read_text().splitlines()]


@cache
def selfplay() -> list[dict]:
    return read_jsonl("selfplay-*.jsonl")


@cache
def scores() -> dict[str, str]:
    """Each vendored game's points, as Pentobi's ``final_score`` prints four or three
    colours: ``"106 93 90 125 "``."""
    out = {}
    for line in (DATA / "scores.txt").read_text().splitlines():
        words = line.split()
        out[words[0]] = "".join(p + " " for p in words[words.index("points") + 1 :])
    return out


def digest(moves: list[str]) -> str:
    """``scripts/trigon_oracle.py``'s ``moves_digest``: the moves' triangle names lower
    case and sorted, the moves sorted, sha256, 16 hex digits."""
    text = "\n".join(sorted(normalised(m) for m in moves))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def colours_of(variant: str) -> str:
    return "123" if variant == "trigon_3" else "1234"


def ok(engine: Engine, line: str) -> str:
    """The answer of a command that must succeed."""
    good, text = engine.ask(line)
    assert good, (line, text)
    return text


def legal(engine: Engine, colour: str) -> list[str]:
    return ok(engine, f"all_legal {colour}").splitlines()


def play_selfplay(engine: Engine, game: dict, upto: int | None = None) -> None:
    ok(engine, f"set_game {GM[game['variant']]}")
    for colour, move in game["moves"][:upto]:
        ok(engine, f"play {colour} {move}")


# -- the game, the colours, the moves ------------------------------------------------------


@pytest.mark.parametrize(
    "name, variant, colours",
    [
        ("Blokus Trigon", "trigon", 4),
        ("BLOKUS TRIGON TWO-PLAYER", "trigon2", 4),
        ("Blokus Trigon Three-Player", "trigon3", 3),
        ("trigon", "trigon", 4),
        ("trigon_2", "trigon2", 4),
        ("t3", "trigon3", 3),
        ("trigon3", "trigon3", 3),
    ],
)
def test_set_game_names_every_trigon_game(name, variant, colours):
    engine = Engine()
    assert engine.ask(f"set_game {name}") == (True, "")
    assert engine.variant.name == variant and len(engine.variant.colours) == colours
    assert len(legal(engine, "1")) == 2478  # Pentobi's perft(1), on side 9 and on side 8
    ok(engine, "clear_board")
    assert engine.variant.name == variant and not engine.played


def test_nexos_and_the_others_are_still_refused_by_name():
    engine = Engine(seed=1)
    assert engine.ask("set_game Nexos")[1].startswith(
        "variant not supported: Nexos (supported: Blokus, "
    )
    assert "Blokus Trigon Three-Player" in engine.ask("set_game Callisto")[1]
    assert engine.ask("set_game trigon_4") == (False, "invalid argument")


def test_colours_as_pentobi_reads_them_and_no_fourth_in_three_player():
    engine = Engine()
    ok(engine, "set_game Blokus Trigon Three-Player")
    for word in ("1", "BLUE", "2", "yellow", "3", "Red"):
        assert engine.ask(f"all_legal {word}")[0]
    # Pentobi answers colour 4 of Trigon Three-Player from a colour that is not in the
    # game; we refuse it as any unknown colour
    assert engine.ask("all_legal 4") == (False, "invalid color argument '4'")
    assert engine.ask("genmove green") == (False, "invalid color argument 'green'")
    ok(engine, "set_game Blokus Trigon")
    assert engine.ask("all_legal green")[0] and engine.ask("all_legal b") == (
        False,
        "invalid color argument 'b'",
    )


def test_play_checks_triangles_by_our_rules():
    engine = Engine()
    ok(engine, "set_game Blokus Trigon")
    starts = sorted(engine.position.board.name(s) for s in engine.position.starting_points)
    assert starts == ["j12", "j7", "r15", "r4", "z12", "z7"]
    assert engine.ask("play 1 a10,b10") == (
        False,
        "illegal move: the first blue piece must cover a starting point not yet covered",
    )
    assert engine.ask("play 1 a1") == (False, "invalid move")  # off the hexagon
    assert engine.ask("play 1 r15,t15") == (False, "invalid move")  # not a piece
    assert engine.ask("play 1 null") == (False, "play pass not supported (anymore)")
    # a move in any order and case, spaces allowed, is read (I3 on the starting point r15)
    assert engine.ask("play 1 T15, r15,S15") == (True, "")
    assert engine.ask("play 2 r15,s15") == (
        False,
        "illegal move: triangle r15 is already taken by blue",
    )
    assert engine.ask("play 1 r14,s14") == (
        False,
        "illegal move: 2 shares an edge with another blue piece",
    )
    assert engine.ask("play 1 u15,v15,w15") == (False, "piece already played")
    assert len(legal(engine, "2")) == 2065  # r15 taken: the other five starting points
    assert engine.ask("undo") == (True, "") and engine.ask("undo") == (False, "cannot undo")
    assert len(legal(engine, "2")) == 2478


def test_every_selfplay_move_is_legal_and_the_last_positions_have_no_move():
    engine = Engine()
    for game in selfplay()[::8]:
        play_selfplay(engine, game)
        assert all(legal(engine, c) == [] for c in colours_of(game["variant"]))
        ok(engine, "undo")
        colour, move = game["moves"][-1]
        assert normalised(move) in {normalised(m) for m in legal(engine, colour)}


# -- all_legal against Pentobi's --------------------------------------------------------------


def check_selfplay_digests(game: dict) -> int:
    """Replay a self-play game; at every stored digest, our ``all_legal`` of each colour
    must be Pentobi's move set; at every position, the count. Returns lists compared."""
    engine = Engine()
    ok(engine, f"set_game {GM[game['variant']]}")
    colours = colours_of(game["variant"])
    compared = 0
    for k in range(len(game["moves"]) + 1):
        if str(k) in game["digests"]:
            for colour, want in game["digests"][str(k)].items():
                moves = legal(engine, colour)
                assert len(moves) == len(set(moves))
                assert digest(moves) == want, (game["variant"], game["seed"], k, colour)
                compared += 1
        elif k % 4 == 0:
            counts = [len(legal(engine, c)) for c in colours]
            assert counts == game["counts"][k], (game["variant"], game["seed"], k)
        if k < len(game["moves"]):
            ok(engine, "play {} {}".format(*game["moves"][k]))
    return compared


def test_all_legal_is_pentobis_move_set_on_selfplay_games():
    """One game of each variant (seeds 1, 12, 23): every stored whole move list."""
    picked = [g for g in selfplay() if g["seed"] in (1, 12, 23)]
    assert len(picked) == 3
    assert sum(check_selfplay_digests(g) for g in picked) == 100


@pytest.mark.slow
def test_all_legal_is_pentobis_move_set_on_every_selfplay_game():
    """The 32 self-play games: 1,054 whole move lists, each Pentobi's set."""
    assert sum(check_selfplay_digests(g) for g in selfplay()) == 1054


def check_vendored_counts(rows: list[dict]) -> None:
    engine = Engine()
    for row in rows:
        ok(engine, f"loadsgf {DATA / row['file']} {row['move_number'] + 1}")
        assert len(legal(engine, row["colour"])) == row["legal_count"], row


def test_all_legal_counts_are_pentobis_on_vendored_games():
    rows = read_jsonl("oracle-*.jsonl")
    assert len(rows) == 784
    check_vendored_counts(rows[::16])


@pytest.mark.slow
def test_all_legal_counts_are_pentobis_at_every_stored_vendored_position():
    check_vendored_counts(read_jsonl("oracle-*.jsonl"))


def test_all_legal_lists_moves_in_pentobis_sgf_order():
    """By piece (I6 first, the single triangle last), then by the triangles in Pentobi's
    order (a1, b1, ..., a2, ...), each move's triangles in that order too."""
    engine = Engine()
    ok(engine, "set_game Blokus Trigon")
    moves = legal(engine, "1")
    assert len(moves) == len(set(moves)) == 2478
    assert moves[:2] == ["o2,p2,p3,q3,q4,r4", "p2,p3,q3,q4,r4,r5"]
    assert moves[-6:] == ["r4", "j7", "z7", "j12", "z12", "r15"]


# -- final_score, showboard, loadsgf and savesgf -----------------------------------------------


def test_final_score_of_the_vendored_games_is_pentobis():
    engine = Engine()
    for path in VENDORED[::5]:
        ok(engine, f"loadsgf {path}")
        assert ok(engine, "final_score") == scores()[path.name], path.name


@pytest.mark.slow
def test_final_score_of_every_vendored_game_is_pentobis():
    engine = Engine()
    assert len(VENDORED) == 26
    for path in VENDORED:
        ok(engine, f"loadsgf {path}")
        assert ok(engine, "final_score") == scores()[path.name], path.name


def test_final_score_of_the_selfplay_games_is_pentobis():
    """Four colours' points, three colours' points, and Two-Player's ``B+n``/``W+n``."""
    want = {(s["variant"], s["seed"]): s["final_score"] for s in PENTOBI["final_score"]}
    assert len(want) == 32
    assert want["trigon_2", 11] == "B+24" and want["trigon_2", 12] == "W+14"
    engine = Engine()
    for game in selfplay()[::3]:
        play_selfplay(engine, game)
        assert ok(engine, "final_score") == want[game["variant"], game["seed"]]


def test_showboard_is_pentobis_character_for_character():
    engine = Engine()
    for stored in PENTOBI["showboard"]:
        words = stored["commands"][0].split()
        if words[0] == "loadsgf":
            ok(engine, f"loadsgf {DATA / words[1]} {' '.join(words[2:])}")
        else:  # selfplay VARIANT SEED N
            game = next(
                g for g in selfplay() if (g["variant"], g["seed"]) == (words[1], int(words[2]))
            )
            play_selfplay(engine, game, int(words[3]))
        ours = ok(engine, "showboard")
        assert ours.strip("\n").splitlines() == stored["showboard"].strip("\n").splitlines()
    assert len(PENTOBI["showboard"]) == 5


def test_showboard_marks_the_last_piece_and_the_free_starting_points():
    engine = Engine()
    ok(engine, "set_game Blokus Trigon")
    board = ok(engine, "showboard")
    assert board.count("+") == 6 and "(1) Blue(X): 0  " in board
    ok(engine, "play 1 r15,s15")
    board = ok(engine, "showboard").splitlines()
    row15 = next(line for line in board if line.startswith("15 "))
    assert ">X\\X/" in row15 and "+" not in row15
    assert "Blue(X): 2  1 A4 A6 C4 C5 F G I3 I4 I5 I6 L5 L6 O P5 P6 S V W X Y" in board
    assert "(2) Yellow(O): 0  1 2 A4 A6 C4 C5 F G I3 I4 I5 I6 L5 L6 O P5 P6 S V W X Y" in board
    assert board[-5].startswith("    A B C") and board[-5].endswith("ZAAABACADAEAFAGAHAI")


def test_loadsgf_n_and_undo_step_through_a_trigon_record():
    path = DATA / "trigon_3-L1-s9200.blksgf"
    game = load_game(path)
    engine = Engine()
    ok(engine, f"loadsgf {path} 10")
    assert len(engine.played) == 9 and engine.position == game.position(9)
    ok(engine, "undo")
    assert engine.position == game.position(8)
    ok(engine, f"loadsgf {path}")
    assert len(engine.played) == 59 and ok(engine, "final_score") == "104 105 92 "


def test_savesgf_writes_a_trigon_record_that_loads_back(tmp_path):
    engine = Engine(seed=4, settings=GenmoveSettings(time_limit=0))
    ok(engine, "set_game Blokus Trigon Two-Player")
    for _ in range(12):
        ok(engine, "g")
    board, score = ok(engine, "showboard"), ok(engine, "final_score")
    ok(engine, f"savesgf {tmp_path / 'g.blksgf'}")
    text = (tmp_path / "g.blksgf").read_text()
    assert text.startswith("(;GM[Blokus Trigon Two-Player]") and text.count(";") == 13
    other = Engine()
    ok(other, f"loadsgf {tmp_path / 'g.blksgf'}")
    assert ok(other, "showboard") == board and ok(other, "final_score") == score


# -- genmove ---------------------------------------------------------------------------------------


def play_out(engine: Engine) -> list[tuple[str, str]]:
    """``g`` until no colour has a move: the (colour, move) played, each checked by our
    rules before it is played."""
    played = []
    while (to_play := engine.board_info().to_play) is not None:
        before = engine.position
        move = ok(engine, "g")
        placement = parse_move(before, to_play, move)  # raises IllegalMove
        assert move_problem(before, to_play, placement) is None
        played.append((to_play, move))
    return played


@pytest.mark.parametrize("game", ["Blokus Trigon", "Blokus Trigon Three-Player"])
def test_genmove_plays_a_whole_game_of_legal_moves_deterministically(game):
    runs = []
    for _ in range(2):
        # a time limit is asked for, but Trigon plays the heuristic alone
        engine = Engine(seed=7, settings=GenmoveSettings(time_limit=1.0))
        ok(engine, f"set_game {game}")
        runs.append((play_out(engine), ok(engine, "final_score")))
    assert runs[0] == runs[1]
    moves, score = runs[0]
    assert len(moves) >= 55 and all(int(p) >= 70 for p in score.split())
    assert ok(engine, "genmove 1") == "pass"


def test_genmove_opens_with_a_large_piece_on_a_starting_point():
    engine = Engine(seed=1)
    ok(engine, "set_game Blokus Trigon")
    move = ok(engine, "reg_genmove 1")
    assert not engine.played and move.count(",") == 5  # six triangles, not played
    starts = {engine.position.board.name(s) for s in engine.position.starting_points}
    assert starts & set(move.split(","))
    again = Engine(seed=1)  # reg_genmove drew from the random generator: start again
    ok(again, "set_game Blokus Trigon")
    assert ok(again, "genmove 1") == move and len(again.played) == 1


# -- against Pentobi's engine itself -------------------------------------------------------------


def pentobi_gtp() -> str | None:
    found = os.environ.get("PENTOBI_GTP")
    return found if found and Path(found).exists() else None


needs_pentobi = pytest.mark.skipif(
    pentobi_gtp() is None, reason="Pentobi's GTP engine is not installed (PENTOBI_GTP)"
)


def same(ours: Engine, them: Client, line: str) -> tuple[str, str]:
    good, a = ours.ask(line)
    theirs_ok, b = them.ask(line)
    assert good and theirs_ok, (line, a, b)
    return a, b


@needs_pentobi
def test_against_pentobi_on_vendored_games():
    """Every 10th position of every 5th vendored game: all_legal of each colour as sets,
    showboard character for character; final_score at the end."""
    ours = Engine()
    with Client(pentobi_command(pentobi_gtp())) as them:
        for path in VENDORED[::5]:
            n = load_game(path).num_placements
            for k in [*range(1, n + 2, 10), n + 1]:
                same(ours, them, f"loadsgf {path} {k}")
                for colour in "123" if "trigon_3" in path.name else "1234":
                    a, b = same(ours, them, f"all_legal {colour}")
                    assert {normalised(m) for m in a.splitlines()} == {
                        normalised(m) for m in b.splitlines()
                    }
                a, b = same(ours, them, "showboard")
                assert a.strip("\n").splitlines() == b.strip("\n").splitlines()
            a, b = same(ours, them, "final_score")
            assert a == b == scores()[path.name]


@needs_pentobi
@pytest.mark.parametrize("game", ["Blokus Trigon Two-Player", "Blokus Trigon Three-Player"])
def test_a_game_against_pentobi_each_accepts_the_others_moves(game, tmp_path):
    """Ours and Pentobi's level 1 take turns (ours the odd colours' moves): each move is
    checked by our rules and played in the other engine; the end agrees."""
    ours = Engine(seed=3)
    with Client(pentobi_command(pentobi_gtp(), seed=3)) as them:
        same(ours, them, f"set_game {game}")
        turn = 0
        while (to_play := ours.board_info().to_play) is not None:
            colour = str(ours.variant.colours.index(to_play) + 1)
            mover, other = (them, ours) if turn % 2 else (ours, them)
            before = ours.position
            good, move = mover.ask(f"genmove {colour}")
            assert good and move != "pass"
            assert move_problem(before, to_play, parse_move(before, to_play, move)) is None
            assert other.ask(f"play {colour} {move}") == (True, "")
            turn += 1
        a, b = same(ours, them, "final_score")
        assert a == b and turn >= 45
        a, b = same(ours, them, "showboard")
        assert a.strip("\n").splitlines() == b.strip("\n").splitlines()
        ok(ours, f"savesgf {tmp_path / 'ours.blksgf'}")
        same(ours, them, f"loadsgf {tmp_path / 'ours.blksgf'}")
        a, b = same(ours, them, "showboard")
        assert a.strip("\n").splitlines() == b.strip("\n").splitlines()


@needs_pentobi
def test_match_between_pentobi_and_ours_on_trigon(tmp_path):
    """``blokus-solo match``: Pentobi's level 1 against ours, two Trigon Two-Player games
    (each engine plays first once); every move checked by our rules, no forfeit, and each
    record's points, read back by our reader, are Pentobi's ``final_score``."""
    import csv
    import shlex

    from helpers import run_cli

    from solver.gtp.control import blokus_solo_command

    out = tmp_path / "match"
    theirs = shlex.join(pentobi_command(pentobi_gtp(), seed=2))
    ours = shlex.join(blokus_solo_command(seed=2))
    result = run_cli("match", "-b", theirs, "-w", ours, "-g", "t2", "-n", "2", "--out", out)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((out / "games.csv").open()))
    assert len(rows) == 2 and all(r["forfeit"] == "" and int(r["moves"]) >= 60 for r in rows)
    engine = Engine()
    with Client(pentobi_command(pentobi_gtp())) as them:
        for row in rows:
            same(engine, them, f"loadsgf {out / row['record']}")
            a, b = same(engine, them, "final_score")
            assert a == b
            score = int(row["black_points"]) - int(row["white_points"])
            black_first = row["black_colours"] == "blue red"
            lead = score if black_first else -score
            assert a == (f"B+{lead}" if lead > 0 else f"W+{-lead}" if lead < 0 else "0")
