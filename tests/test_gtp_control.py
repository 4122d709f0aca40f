"""The engine API for GTP engines (solver/gtp/control.py) and ``blokus-solo match``
(solver/gtp/match.py): against our own engine (``blokus-solo gtp`` at its quickest, the
heuristic alone), against a fake engine for the faults (tests/fake_gtp.py), and against
Pentobi's engine where it is installed ($PENTOBI_GTP or pentobi-gtp on the PATH)."""

from __future__ import annotations

import csv
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import PUZZLES, one_line_error, run_cli

from solver.core.placements import legal_moves
from solver.core.rules import move_problem
from solver.core.variants import VARIANTS
from solver.errors import InputError
from solver.formats.game import load_game, start_position
from solver.gtp.control import (
    EngineError,
    EngineTimeout,
    GtpEngine,
    IllegalMove,
    Limit,
    blokus_solo_command,
    find_pentobi,
    pentobi_command,
)
from solver.gtp.engine import Engine
from solver.gtp.genmove import GenmoveSettings
from solver.gtp.match import player_of, player_points, rank_result, variant_named

DATA = Path(__file__).parent / "data"
FAKE = Path(__file__).parent / "fake_gtp.py"


def fake(mode: str, *first: str) -> list[str]:
    """The fake engine's command line (tests/fake_gtp.py)."""
    return [sys.executable, str(FAKE), mode, *first]


def squares_of(position, text: str) -> frozenset[int]:
    """The squares an engine's answer names."""
    return frozenset(position.board.parse(name) for name in text.split(","))


@pytest.fixture(scope="module")
def ours():
    """Our engine as a child process, at its quickest (the heuristic alone), seed 0."""
    with GtpEngine.popen_blokus_solo(seed=0) as engine:
        yield engine


# -- the engine API ------------------------------------------------------------------------


def test_play_gives_the_engines_move_as_a_legal_placement(ours):
    """Six Duo moves from the start: each the placement the engine printed, legal where
    it was asked, and the move our in-process engine chooses with the same seed."""
    assert (ours.name, ours.version) == ("blokus-solo", Engine().ask("version")[1])
    same = Engine(VARIANTS["duo"], seed=0, settings=GenmoveSettings(time_limit=0))
    same.ask("set_random_seed 0")
    ours.command("set_random_seed 0")
    position = start_position("duo")
    for k in range(6):
        result = ours.play(position, Limit(time=30))
        assert result.colour == ("purple", "orange")[k % 2] and not result.resigned
        assert (
            result.move is not None and move_problem(position, result.colour, result.move) is None
        )
        assert result.move.squares == squares_of(position, result.text)
        assert same.ask(f"genmove {'bw'[k % 2]}") == (True, result.text)
        position = result.after(position)
    assert position.to_move == "purple" and len(position.colour("orange").placed) == 3


def test_a_position_with_setup_goes_to_the_engine_as_it_is(ours):
    """A Duo position of setup pieces and a move: the engine's board (showboard's squares)
    is the one our in-process engine shows after loading the file, and its move is legal
    there."""
    path = DATA / "sgf" / "setup-duo.blksgf"
    position = load_game(path).final
    result = ours.play(position, Limit(time=30))
    assert result.colour == "purple" and result.move is not None
    assert move_problem(position, "purple", result.move) is None
    ours.command("undo")
    ours.held = None
    here = Engine()
    here.ask(f"loadsgf {path}")

    def board(text: str) -> list[str]:  # the squares, without the move count beside them
        return [line[:31] for line in text.strip("\n").splitlines()]

    assert board(ours.command("showboard")) == board(here.ask("showboard")[1])
    assert "X X" in "".join(board(here.ask("showboard")[1]))


def test_a_move_on_from_the_engines_position_is_one_play(ours, monkeypatch):
    """After the engine's own move, the next position (the other colour's reply) costs
    one ``play`` before ``genmove``; a position it does not hold, a file (``loadsgf``)."""
    position = start_position("junior")
    first = ours.play(position)
    position = first.after(position)
    other = Engine(VARIANTS["junior"], settings=GenmoveSettings(time_limit=0))
    other.ask(f"play b {first.text}")
    assert other.ask("genmove w")[0]
    reply = other.played[-1].placement
    position = replace(position.with_placement("orange", reply), to_move="purple")
    sent: list[str] = []
    send = ours.client.send
    monkeypatch.setattr(
        ours.client, "send", lambda line, t=None: sent.append(line) or send(line, t)
    )
    moved = ours.play(position)
    assert sent == [f"play w {other.move_text(reply)}", "genmove b"] and moved.colour == "purple"
    ours.play(start_position("junior"))
    assert sent[-2].startswith("loadsgf ") and sent[-1] == "genmove b"


def test_a_custom_board_is_refused_before_the_engine(ours):
    from solver.formats.puzzle import load_puzzle

    position = load_puzzle(PUZZLES / "tiny-5x5-corner.toml").position
    with pytest.raises(InputError, match="SGF supports only"):
        ours.play(position, colour=position.colours[0].name)


# -- an engine's faults: each an exception naming the engine and the command ----------------


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("illegal", IllegalMove, "'a1': an illegal move: the first purple piece must cover"),
        ("garbage", IllegalMove, "'z99,q0': not a move"),
        ("pass", IllegalMove, "'pass': a pass, with 414 legal moves"),
        ("fail", EngineError, "'genmove b' failed: no move today"),
        ("crash", EngineError, "stopped answering (after 'genmove b', exit status 3)"),
    ],
)
def test_a_faulty_answer_is_an_error_naming_the_engine_and_command(mode, kind, words):
    with GtpEngine(fake(mode)) as engine:
        with pytest.raises(kind) as e:
            engine.play(start_position("duo"))
    message = str(e.value)
    assert message.startswith("fake") and "genmove b" in message and words in message
    assert "\n" not in message


def test_an_engine_past_its_time_is_stopped():
    with GtpEngine(fake("hang"), timeout=30) as engine:
        start = time.monotonic()
        with pytest.raises(EngineTimeout, match=r"fake: no answer to 'genmove b' within 0.5 s"):
            engine.play(start_position("duo"), Limit(time=0.5))
        assert time.monotonic() - start < 10
        assert engine.client.process.poll() is not None  # ended
        with pytest.raises(EngineError, match="stopped answering"):
            engine.command("name")


def test_a_resignation_is_a_result_without_a_move():
    with GtpEngine(fake("resign")) as engine:
        result = engine.play(start_position("duo"))
    assert result.resigned and result.move is None and result.text == "resign"
    with pytest.raises(InputError, match="resigned"):
        result.after(start_position("duo"))


def test_bad_arguments():
    with pytest.raises(EngineError, match="cannot start /no/such/engine"):
        GtpEngine("/no/such/engine --quiet")
    with pytest.raises(InputError, match="time"):
        Limit(time=-1)
    with pytest.raises(InputError, match="time"):
        Limit(time=float("nan"))
    with GtpEngine(fake("pass")) as engine:
        with pytest.raises(InputError, match="not known"):
            engine.genmove("purple")
        with pytest.raises(InputError, match="no colour to move"):
            engine.play(replace(start_position("duo"), to_move=None))
        engine.new_game("duo")
        with pytest.raises(InputError, match="must cover its start square"):
            engine.tell("purple", load_game(DATA / "sgf" / "setup-duo.blksgf").moves[0].placement)
    with pytest.raises(InputError, match="levels are 1 to 9"):
        pentobi_command("pentobi-gtp", level=10)


# -- the match runner ----------------------------------------------------------------------


def rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def ours_command(seed: int) -> str:
    return shlex.join(blokus_solo_command(seed=seed))


def read_back(path: Path) -> Engine:
    """A game record loaded by our in-process engine (its own points and final_score)."""
    engine = Engine()
    assert engine.ask(f"loadsgf {path}") == (True, "")
    return engine


def test_a_match_between_two_of_our_engines(tmp_path):
    """Two Duo games: the engines take turns at purple; each record, read back by our
    engine (which checks every move as it loads), gives the points, result and winner
    the tables and the printed lines show."""
    out = tmp_path / "match"
    result = run_cli(
        *["match", "-b", ours_command(1), "-w", ours_command(2), "-g", "Blokus Duo"],
        *["-n", 2, "--out", out, "--timeout", 60],
    )
    assert result.exit_code == 0, result.output
    games = rows(out / "games.csv")
    assert [(g["black_colours"], g["white_colours"]) for g in games] == [
        ("purple", "orange"),
        ("orange", "purple"),
    ]
    points, results = {"black": 0, "white": 0}, {"black": 0.0, "white": 0.0}
    for g in games:
        engine = read_back(out / g["record"])
        assert engine.variant.name == "duo" and len(engine.played) == int(g["moves"])
        black, white = engine.points(g["black_colours"]), engine.points(g["white_colours"])
        assert (black, white) == (int(g["black_points"]), int(g["white_points"]))
        purple = black if g["black_colours"] == "purple" else white
        margin = purple - (black + white - purple)
        score = f"B+{margin}" if margin > 0 else f"W+{-margin}" if margin < 0 else "0"
        assert engine.ask("final_score") == (True, score)
        won = 1.0 if black > white else 0.0 if black < white else 0.5
        assert float(g["black_result"]) == won
        points["black"] += black
        points["white"] += white
        results["black"] += won
        results["white"] += 1 - won
        line = f"game {g['game']}: black ({g['black_colours']}) {black}, white "
        assert line + f"({g['white_colours']}) {white}:" in result.output
    table = {r["engine"]: r for r in rows(out / "results.csv")}
    for side in ("black", "white"):
        row = table[side]
        assert float(row["points"]) == pytest.approx(points[side] / 2)
        assert float(row["result"]) == pytest.approx(results[side] / 2)
        assert int(row["wins"]) + int(row["draws"]) / 2 == results[side]
        assert row["name"].startswith("blokus-solo ") and row["games"] == "2"
        printed = f"{side}   blokus-solo"
        assert any(line.startswith(printed) for line in result.output.splitlines())
    assert f"records and tables in {out}" in result.output


def match_against_fake(tmp_path, mode: str, *first: str, games: int = 3, timeout: float = 60):
    """``match``: ours (seed 1) black, the fake engine white, in Duo."""
    out = tmp_path / "m"
    command = [*["match", "-b", ours_command(1), "-w", shlex.join(fake(mode, *first))]]
    command += [*["-g", "duo", "-n", games, "--out", out, "--timeout", timeout]]
    return out, run_cli(*command)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("illegal", "answered 'a1': an illegal move: "),
        ("garbage", "answered 'z99,q0': not a move"),
        ("fail", "failed: no move today"),
    ],
)
def test_a_fault_forfeits_the_game_and_the_match_goes_on(tmp_path, mode, words):
    """White (the fake) answers orange's first move legally (j5), then faults: each of the
    three games is lost by white with the reason, naming white and the command, in the
    printed line, games.csv and the record's comment; the match ends normally."""
    out, result = match_against_fake(tmp_path, mode, "j5")
    assert result.exit_code == 0, result.output
    games = rows(out / "games.csv")
    # game 1: purple (ours), j5, purple, then white's fault; game 2: white's first genmove
    # (purple's); game 3: purple, then white's first
    assert [g["moves"] for g in games] == ["3", "0", "1"]
    assert [(g["forfeit"], g["black_result"], g["resigned"]) for g in games] == [
        ("white", "1", "")
    ] * 3
    command = ["'genmove w'", "'genmove b'", "'genmove w'"]
    for g, asked in zip(games, command):
        reason = g["reason"]
        assert reason.startswith(f"white (fake): {asked} ") and words in reason, reason
        assert f"black wins (white forfeits: {reason})" in result.output
        record = load_game(out / g["record"])
        assert record.num_placements == int(g["moves"])
        assert f"C[white forfeits: {reason}]" in (out / g["record"]).read_text()
    table = {r["engine"]: r for r in rows(out / "results.csv")}
    assert [table["white"][k] for k in ("wins", "losses", "forfeits", "result")] == [
        "0",
        "3",
        "3",
        "0.0000",
    ]
    assert (table["black"]["wins"], table["black"]["forfeits"]) == ("3", "0")


def test_an_engine_that_crashes_forfeits_and_ends_the_match(tmp_path):
    """White answers j5, then crashes: game 1 is written, forfeited by white, and the
    match ends with one line naming white and the command, exit status 2, before game 2."""
    out, result = match_against_fake(tmp_path, "crash", "j5")
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last == (
        "error: game 1: white (fake) stopped answering (after 'genmove w', exit status 3)"
    )
    assert "Traceback" not in result.output
    (game,) = rows(out / "games.csv")
    assert (game["forfeit"], game["black_result"], game["moves"]) == ("white", "1", "3")
    assert load_game(out / "game-0001.blksgf").num_placements == 3
    assert not (out / "game-0002.blksgf").exists()
    assert rows(out / "results.csv")[1]["forfeits"] == "1"


def test_an_engine_past_the_timeout_forfeits_and_ends_the_match(tmp_path):
    """Black (the fake) never answers its first genmove: stopped after --timeout, game 1
    lost by black with no move, exit status 2."""
    out = tmp_path / "m"
    result = run_cli(
        *["match", "-b", shlex.join(fake("hang")), "-w", ours_command(1), "-g", "duo"],
        *["-n", 2, "--out", out, "--timeout", 0.5],
    )
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last == (
        "error: game 1: black (fake): no answer to 'genmove b' within 0.5 s "
        "(the engine was stopped)"
    )
    (game,) = rows(out / "games.csv")
    assert (game["forfeit"], game["black_result"], game["moves"]) == ("black", "0", "0")
    assert "black (purple) 0, white (orange) 0: white wins (black forfeits: " in result.output


def test_an_engine_that_refuses_the_game_ends_the_match_before_it(tmp_path):
    out, result = match_against_fake(tmp_path, "nogame")
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1] == (
        "error: game 1: white (fake): 'set_game Blokus Duo' failed: unknown game"
    )
    assert not (out / "games.csv").exists()


def test_a_resignation_loses_the_game(tmp_path):
    out = tmp_path / "m"
    result = run_cli(
        "match",
        "-b",
        shlex.join(fake("resign")),
        "-w",
        ours_command(1),
        "-g",
        "junior",
        "--out",
        out,
    )
    assert result.exit_code == 0, result.output
    (game,) = rows(out / "games.csv")
    assert (game["resigned"], game["black_result"], game["moves"]) == ("black", "0", "0")
    assert (game["forfeit"], game["reason"]) == ("", "black resigned")
    assert "white wins (black resigned)" in result.output
    assert load_game(out / "game-0001.blksgf").num_placements == 0
    assert "C[black resigned]" in (out / "game-0001.blksgf").read_text()


@pytest.mark.parametrize(
    ("changed", "fragments"),
    [
        ({"-g": "nexos"}, ["--game", "unknown variant 'nexos'"]),
        ({"-b": "/no/such/engine"}, ["--black", "cannot start /no/such/engine"]),
        ({"-w": "'unbalanced"}, ["--white", "No closing quotation"]),
        ({"-w": ""}, ["--white", "empty engine command"]),
        ({"-n": "0"}, ["--games"]),
        ({"--timeout": "0"}, ["--timeout"]),
    ],
)
def test_bad_input_is_one_line(tmp_path, changed, fragments):
    options = {"-b": shlex.join(fake("pass")), "-w": shlex.join(fake("pass")), "-g": "duo"}
    options.update(changed)
    result = run_cli("match", *[x for pair in options.items() for x in pair], "--out", tmp_path)
    one_line_error(result, *fragments)


def test_an_output_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("")
    result = run_cli("match", "-b", "x", "-w", "y", "-g", "duo", "--out", tmp_path / "f")
    one_line_error(result, "is a file, not a folder")


def test_three_players_green_and_points():
    """Three-Player's green is moved by the player whose turn it is by its pieces on the
    board (0, 1, 2, 0, ...), and counts for no one's points; in Classic a colour each."""
    v = VARIANTS["classic3"]
    position = start_position("classic3")
    movers = []
    for _ in range(4):
        movers.append(player_of(v, position, "green"))
        green = legal_moves(position, "green")[0]
        position = position.with_placement("green", green)
    assert movers == [0, 1, 2, 0]
    blue = legal_moves(position, "blue")[0]
    position = position.with_placement("blue", blue)
    assert player_points(v, position) == [len(blue.squares), 0, 0]
    assert [player_of(VARIANTS["classic"], position, c) for c in VARIANTS["classic"].colours] == [
        0,
        1,
        2,
        3,
    ]


def test_variant_names_and_pentobis_results():
    assert [
        variant_named(t).name for t in ("Blokus Two-Player", "c2", "DUO", "j", "classic_3")
    ] == [
        "classic2",
        "classic2",
        "duo",
        "junior",
        "classic3",
    ]
    # Pentobi's get_multiplayer_result: ranks 0..n-1 over n-1, ties averaged
    assert rank_result([60, 50], 0) == 1 and rank_result([50, 50], 1) == 0.5
    assert rank_result([10, 20, 20, 5], 1) == pytest.approx((2 + 3) / 2 / 3)
    assert rank_result([10, 20, 20, 5], 3) == 0 and rank_result([30, 20, 10], 0) == 1


# -- against Pentobi's engine, where it is installed ---------------------------------------

needs_pentobi = pytest.mark.skipif(
    find_pentobi() is None, reason="Pentobi's GTP engine is not installed"
)


@needs_pentobi
def test_pentobi_plays_legal_moves_from_our_positions():
    """Pentobi (level 1) from a position with setup and from a Junior start: legal moves,
    the squares it printed; its name and version."""
    with GtpEngine.popen_pentobi(level=1, seed=1) as pentobi:
        assert pentobi.name == "Pentobi" and pentobi.version
        position = load_game(DATA / "sgf" / "setup-duo.blksgf").final
        result = pentobi.play(position, Limit(time=60))
        assert result.move is not None and move_problem(position, "purple", result.move) is None
        assert result.move.squares == squares_of(position, result.text)
        position = start_position("junior")
        for _ in range(4):
            result = pentobi.play(position, Limit(time=60))
            assert result.move is not None
            assert move_problem(position, result.colour, result.move) is None
            position = result.after(position)


@needs_pentobi
def test_a_match_against_pentobi(tmp_path):
    """One Duo game, ours (black) against Pentobi level 1: it runs to the end, and its
    record, read back, gives the points the table shows and Pentobi's final_score."""
    out = tmp_path / "m"
    pentobi = shlex.join(pentobi_command(level=1, seed=1))
    result = run_cli("match", "-b", ours_command(1), "-w", pentobi, "-g", "duo", "--out", out)
    assert result.exit_code == 0, result.output
    (g,) = rows(out / "games.csv")
    here = read_back(out / "game-0001.blksgf")
    margin = here.points("purple") - here.points("orange")
    assert (int(g["black_points"]), int(g["white_points"])) == (
        here.points("purple"),
        here.points("orange"),
    )
    with GtpEngine.popen_pentobi(level=1) as engine:
        engine.command(f"loadsgf {out / 'game-0001.blksgf'}")
        expected = f"B+{margin}" if margin > 0 else f"W+{-margin}" if margin < 0 else "0"
        assert engine.final_score() == expected
