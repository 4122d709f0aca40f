"""``blokus-solo gtp``: the protocol, the commands, and Pentobi's own answers.

Pentobi's answers on every position of the real games (``tests/data/games``, and four
Three-Player games Pentobi played itself in ``tests/data/gtp/games``) are stored in
``tests/data/gtp`` by ``benchmarks/gtp_pentobi.py legal --store tests/data/gtp --full``:
per position and colour the key of its ``all_legal`` answer (count and hash of the move
set, :func:`solver.gtp.compare.move_set_key`), each game's ``final_score``, and for one
position per variant the full move lists and ``showboard`` text. The last test drives
Pentobi's engine itself when it is installed (``PENTOBI_GTP`` or ``pentobi-gtp`` on the
PATH) and is skipped otherwise.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import GAMES

from solver.core.variants import VARIANTS
from solver.formats.game import load_game, read_sgf_text
from solver.gtp.client import Client
from solver.gtp.compare import move_set_key, normalised
from solver.gtp.engine import Engine
from solver.gtp.genmove import GenmoveSettings
from solver.gtp.moves import legal_rows, move_texts
from solver.gtp.protocol import parse_line, response, run
from solver.tasks.endgame import endgame_check

DATA = Path(__file__).parent / "data" / "gtp"
STORED = [json.loads(line) for line in (DATA / "pentobi_all_legal.jsonl").read_text().splitlines()]
FULL = json.loads((DATA / "pentobi_all_legal_full.json").read_text())
HEURISTIC = GenmoveSettings(time_limit=0)


def game_path(name: str) -> Path:
    """A stored game's file (the real games, or the Three-Player ones)."""
    path = GAMES / name
    return path if path.exists() else DATA / "games" / name


#: the games the tests replay: every third stored game (all five variants; the benchmark
#: compares all of them)
SAMPLE = STORED[::3]


@pytest.fixture(scope="module")
def stored_games():
    """The sampled games, read once: file name -> Game."""
    return {record["file"]: load_game(game_path(record["file"])) for record in SAMPLE}


def session(engine: Engine, *lines: str) -> list[tuple[bool, str]]:
    """Each command's (success, response text), run in order on one engine."""
    return [engine.ask(line) for line in lines]


# -- the protocol --------------------------------------------------------------------------


def test_command_lines_split_as_pentobi_splits_them():
    c = parse_line("12 play w j5, j6\r\n")
    assert (c.id, c.name, c.words, c.rest_after(0)) == ("12", "play", ("w", "j5,", "j6"), "j5, j6")
    c = parse_line('loadsgf "my game.blksgf" 3')
    assert (c.id, c.words, c.int_arg(1)) == (None, ("my game.blksgf", "3"), 3)
    assert parse_line("   # a comment") is None and parse_line(" \t ") is None
    assert parse_line("5").name == "5"  # a lone number is a command name, not an id


def test_responses_keep_the_id_and_end_with_an_empty_line():
    assert response(True, None, "") == "= \n\n"
    assert response(False, "7", "illegal move") == "?7 illegal move\n\n"
    # an empty line inside a response would end it: Pentobi writes a space there
    assert response(True, "3", "\na\n\nb\n") == "=3 \na\n \nb\n\n"


def test_a_session_on_standard_input():
    commands = [
        "1 name",
        "set_game Blokus Duo",
        "2 play b e8,d9,e9,f9,e10",
        "3 play w a1",  # not on orange's start square
        "frobnicate",
        "4 play b e8,d9,e9,f9,e10",  # that piece is on the board
        "all_legal x",
        "# a comment: no answer",
        "5 undo",
        "6 undo",
        "quit",
        "name",  # after quit: not read
    ]
    from solver.cli.commands import main

    result = CliRunner().invoke(main, ["gtp"], input="\n".join(commands) + "\n")
    assert result.exit_code == 0
    answers = result.output.split("\n\n")[:-1]
    assert answers == [
        "=1 blokus-solo",
        "= ",
        "=2 ",
        "?3 illegal move: the first orange piece must cover its start square j5",
        "? unknown command (frobnicate)",
        "?4 piece already played",
        "? invalid color argument 'x'",
        "=5 ",
        "?6 cannot undo",
        "= ",
    ]


def test_argument_errors_read_as_pentobi_writes_them():
    engine = Engine()
    path = game_path("duo-L4-s29.blksgf")
    assert session(
        engine,
        "name x",
        "play",
        "play 1",
        "play 1 null",
        "all_legal 1 2",
        f"loadsgf {path} 0",
        f"loadsgf {path} x",
        f"loadsgf {path} 1 2",
        "set_game Nexos",
        "set_game Blokus Quartet",
    ) == [
        (False, "no arguments allowed"),
        (False, "missing argument 1"),
        (False, "invalid move"),
        (False, "play pass not supported (anymore)"),
        (False, "too many arguments"),
        (False, "argument 2 must be greater or equal 1"),
        (False, "argument 2 ('x') has invalid type"),
        (False, "command needs at most 2 arguments"),
        (
            False,
            "variant not supported: Nexos (supported: Blokus, Blokus Two-Player, "
            "Blokus Three-Player, Blokus Duo, Blokus Junior, Blokus Trigon, "
            "Blokus Trigon Two-Player, Blokus Trigon Three-Player)",
        ),
        (False, "invalid argument"),
    ]


def test_a_bad_game_file_is_a_failure_naming_it(tmp_path):
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[a1])")
    ok, text = session(Engine(), f"loadsgf {bad}")[0]
    assert not ok and "bad.blksgf" in text and "\n" not in text


@pytest.mark.parametrize(
    ("game", "colour", "first_moves"),
    [("Blokus", "1", 58), ("Blokus Duo", "b", 414), ("Blokus Junior", "w", 189)],
)
def test_first_moves_on_an_empty_board(game, colour, first_moves):
    # Pentobi's counts (GUIDE section 2): 58 per colour in Classic, 414 in Duo, 189 in Junior
    ok, text = session(Engine(), f"set_game {game}", f"all_legal {colour}")[1]
    assert ok and len(text.splitlines()) == len(set(text.splitlines())) == first_moves


def test_the_other_commands():
    engine = Engine(VARIANTS["duo"], settings=HEURISTIC)
    ok, names = session(engine, "list_commands")[0]
    assert names.split() == sorted(engine.commands) and "all_legal" in names.split()
    assert session(engine, "known_command undo", "known_command param", "protocol_version") == [
        (True, "true"),
        (True, "false"),
        (True, "2"),
    ]
    assert float(session(engine, "cputime")[0][1]) >= 0
    start = engine.position
    ok, chosen = session(engine, "reg_genmove b")[0]
    assert ok and engine.position == start  # chosen, not played
    # the same seed again: g (genmove for the colour to play, purple) plays that move
    assert session(engine, "set_random_seed 0", "g") == [(True, ""), (True, chosen)]
    assert [(p.colour, engine.move_text(p.placement)) for p in engine.played] == [
        ("purple", chosen)
    ]
    assert session(engine, "clear_board")[0] == (True, "") and engine.position == start
    session(engine, "p e10")  # p: the colour to play, purple
    assert [p.piece for p in engine.position.colour("purple").placed] == ["1"]


def test_docs_list_every_command():
    page = (Path(__file__).parent.parent / "docs" / "gtp.md").read_text()
    table = page.split("## Commands", 1)[1].split("\n\n", 2)[1]
    listed = {row.split("`")[1].split()[0] for row in table.splitlines()[2:]}
    assert listed == set(Engine().commands)


# -- Pentobi's stored answers --------------------------------------------------------------


def our_key(position, colour: str) -> str:
    """The key of our legal moves (the engine's door to the move generator)."""
    board = position.board
    return move_set_key(move_texts(board.rows, board.cols)[legal_rows(position, colour)])


def test_all_legal_agrees_with_pentobis_stored_answers(stored_games):
    """Every 8th stored position of every third game (and its end), every colour: 158
    positions, 536 answers, all five variants. Pentobi's answers on all 3,213 positions
    of the 59 games are stored, and all agree (benchmarks/gtp_pentobi.py legal)."""
    variants, compared = set(), 0
    for record in SAMPLE:
        game = stored_games[record["file"]]
        colours = game.variant.colours
        numbers = record["numbers"]
        for k in [*range(0, len(numbers) - 1, 8), len(numbers) - 1]:
            position = game.position(min(numbers[k] - 1, game.num_placements))
            for colour, key in zip(colours, record["keys"][k]):
                assert our_key(position, colour) == key, (record["file"], numbers[k], colour)
                compared += 1
        variants.add(game.variant.name)
    assert variants == set(VARIANTS) and compared == 536


def test_full_lists_and_board_match_pentobis():
    """One position per variant, through the commands: every move, and the board text."""
    assert {load_game(game_path(r["file"])).variant.name for r in FULL} == set(VARIANTS)
    for record in FULL:
        engine = Engine()
        path = game_path(record["file"])
        assert session(engine, f"loadsgf {path} {record['move_number']}")[0] == (True, "")
        for colour, theirs in record["moves"].items():
            ok, text = session(engine, f"all_legal {colour}")[0]
            ours = text.splitlines()
            assert ok and sorted(map(normalised, ours)) == sorted(map(normalised, theirs))
        ok, text = session(engine, "showboard")[0]
        assert ok and text.rstrip("\n") == record["showboard"]  # the client drops the last newline


def test_final_scores_agree_with_pentobis(stored_games):
    for record in SAMPLE:
        engine = Engine()
        engine.load(stored_games[record["file"]])
        assert session(engine, "final_score")[0] == (True, record["final_score"]), record["file"]


# -- genmove ------------------------------------------------------------------------------


def test_genmove_plays_legal_moves_the_same_for_the_same_seed():
    def game(seed: int) -> list[str]:
        engine = Engine(VARIANTS["duo"], seed=seed, settings=HEURISTIC)
        moves = []
        for k in range(8):
            colour = "bw"[k % 2]
            ok, legal = session(engine, f"all_legal {colour}")[0]
            ok, move = session(engine, f"genmove {colour}")[0]
            assert ok and normalised(move) in {normalised(m) for m in legal.splitlines()}
            moves.append(move)
        return moves

    first = game(3)
    assert game(3) == first and game(4) != first
    # the heuristic places big pieces first: all of the first eight are pentominoes
    assert all(len(m.split(",")) == 5 for m in first)


def test_genmove_passes_only_without_a_legal_move():
    engine = Engine()
    session(engine, f"loadsgf {game_path('duo-L4-s29.blksgf')}")  # a finished game
    assert session(engine, "genmove b", "genmove w", "showboard") == [
        (True, "pass"),
        (True, "pass"),
        session(Engine(), f"loadsgf {game_path('duo-L4-s29.blksgf')}", "showboard")[1],
    ]


def test_genmove_keeps_an_endgame_that_places_everything():
    """Late in a real game red can still place its last 6 pieces (others frozen), but only
    one of its 12 legal moves keeps that: genmove plays it."""
    path = game_path("classic-L1-s56.blksgf")
    engine = Engine(seed=1)
    session(engine, f"loadsgf {path} 63")
    position = engine.position
    assert len(position.colour("red").remaining) == 6
    assert endgame_check(position, "red").answer == "yes"
    ok, moves = session(engine, "all_legal 3")[0]
    assert len(moves.splitlines()) == 12
    ok, move = session(engine, "genmove 3")[0]
    assert ok and move != "pass"
    assert endgame_check(engine.position, "red").answer == "yes"


def test_genmove_does_not_wait_for_the_first_compile(monkeypatch):
    """Without the search's compiled kernel, genmove starts the background compile and
    plays the heuristic meanwhile."""
    from solver.backends import warmup
    from solver.gtp import genmove

    started = []
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    monkeypatch.setattr(warmup, "compile_in_background", lambda search_waits: started.append(1))
    monkeypatch.setattr(genmove, "endgame_move", lambda *args: pytest.fail("searched"))
    engine = Engine(seed=1)
    session(engine, f"loadsgf {game_path('classic-L1-s56.blksgf')} 63")  # red: 6 pieces left
    ok, legal = session(engine, "all_legal 3")[0]
    ok, move = session(engine, "genmove 3")[0]
    assert ok and move in legal.splitlines() and started == [1]


def test_genmove_plays_a_colours_last_piece():
    """The exact plan with only the monomino left, to be placed last: the plan's last
    piece (it once asked for the order of the nothing after it)."""
    engine = Engine(VARIANTS["duo"], seed=1)
    purple = replace(engine.start.colour("purple"), remaining=("1",))
    engine.start = replace(engine.start, colours=(purple, engine.start.colours[1]))
    assert session(engine, "genmove b")[0] == (True, "e10")
    assert engine.points("purple") == 1 + 15 + 5
    assert session(engine, "genmove b")[0] == (True, "pass")


def test_a_bug_is_answered_and_the_engine_goes_on(monkeypatch):
    engine = Engine()
    monkeypatch.delenv("BLOKUS_DEBUG", raising=False)

    def broken(command):
        raise RuntimeError("boom")

    engine.commands["showboard"] = broken
    assert session(engine, "showboard", "name") == [
        (False, "internal error (please report): RuntimeError: boom"),
        (True, "blokus-solo"),
    ]


# -- our own errors: one short line, whatever they quote ------------------------------------


def test_numbers_in_arguments_are_read_within_their_range():
    path = game_path("duo-L4-s29.blksgf")
    huge = "9" * 5000  # Python converts no integer of more than 4,300 digits
    assert session(
        Engine(),
        f"set_random_seed {huge}",
        f"set_random_seed -{huge}",
        "set_random_seed 4294967296",
        "set_random_seed 4294967295",  # Pentobi's largest seed (uint32_t)
        f"loadsgf {path} {huge}",
        f"loadsgf {path} 2147483648",
        f"loadsgf {path} 2147483647",  # C++'s int, as Pentobi reads N: past the end, the end
    ) == [
        (False, "argument 1 must be less or equal 4294967295"),
        (False, "argument 1 must be greater or equal 0"),
        (False, "argument 1 must be less or equal 4294967295"),
        (True, ""),
        (False, "argument 2 must be less or equal 2147483647"),
        (False, "argument 2 must be less or equal 2147483647"),
        (True, ""),
    ]


def test_a_file_name_no_system_takes_is_bad_input(tmp_path):
    answers = session(Engine(), "loadsgf a\x00b", "savesgf a\x00b", "loadsgf x\ud800", 'savesgf ""')
    assert answers == [
        (False, "a\\x00b: a file name cannot hold a NUL character (\\x00)"),
        (False, "a\\x00b: savesgf: a file name cannot hold a NUL character (\\x00)"),
        (
            False,
            "x\\ud800: a file name cannot hold \\ud800 (the file system's encoding cannot write it)",
        ),
        (False, "savesgf: empty file name"),
    ]


#: lines whose failures quote what they were sent: control characters, 3 MB, 1 MB
HOSTILE = {
    "fo\x1bo\x07": "unknown command (fo\\x1bo\\x07)",
    "x" * 3_000_000: "unknown command (xxx",
    "all_legal " + "q" * 1_000_000: "invalid color argument 'qqq",
    "play 1\x1b[2J e8": "invalid color argument '1\\x1b[2j'",
    "loadsgf " + "d/" * 500_000 + "\x1b.blksgf": "d/d/d/",
}


@pytest.mark.parametrize(
    "line", HOSTILE, ids=["escapes", "3 MB name", "1 MB colour", "colour", "path"]
)
def test_a_failure_is_one_short_escaped_line(line):
    ok, text = Engine(VARIANTS["duo"]).ask(line)
    assert not ok and text.startswith(HOSTILE[line])
    assert len(text) <= 600 and text.isprintable(), text[:100]
    assert len(line) < 600 or "…" in text  # cut in the middle: the end is kept
    assert "internal error" not in text


def test_every_answer_on_the_wire_is_escaped_and_short():
    """The protocol layer writes every failure through one door (protocol.failure_text),
    and the id too; a line that is not UTF-8 is read byte for byte, not the end of the
    engine (it was, where standard input decodes strictly: a UTF-8 desktop locale)."""
    lines = [*HOSTILE, "1\x1b[31m name", "1" * 50 + " name", "foo\udcff", "7 name"]
    raw = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="strict")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    run(Engine(VARIANTS["duo"]).handle, stdin, stdout, lambda: False)
    stdout.flush()
    answers = stdout.buffer.getvalue().decode("utf-8").split("\n\n")[:-1]
    assert len(answers) == len(lines)
    for answer in answers:
        assert len(answer) < 620 and answer.isprintable(), answer[:100]
    assert answers[len(HOSTILE) :] == [
        "=1\\x1b[31m blokus-solo",
        "? unknown command (" + "1" * 50 + ")",  # past C++'s int: not an id (as Pentobi)
        "? unknown command (foo\\udcff)",
        "=7 blokus-solo",
    ]


def test_the_client_says_an_engines_failure_in_one_short_line():
    """Another engine's ``?`` text is any program's text: 1 MB with an escape sequence."""
    from solver.gtp.client import EngineError

    fake = (
        "import sys\n"
        "for line in iter(sys.stdin.readline, 'quit\\n'):\n"
        "    print('? ' + 'x' * 10**6 + '\\x1b[2J', end='\\n\\n', flush=True)"
    )
    with Client([sys.executable, "-c", fake]) as engine:
        with pytest.raises(EngineError) as e:
            engine.send("name")
    message = str(e.value)
    assert message.startswith(sys.executable) and message.endswith("xxx\\x1b[2J")
    assert len(message) <= 600 and message.isprintable()


# -- savesgf ------------------------------------------------------------------------------


def test_savesgf_writes_the_game_that_loadsgf_reads_back(tmp_path):
    engine = Engine(VARIANTS["classic3"], seed=2, settings=HEURISTIC)
    for k in range(6):
        session(engine, f"genmove {k % 4 + 1}")
    out = tmp_path / "game.blksgf"
    assert session(engine, f"savesgf {out}")[0] == (True, "")
    game = read_sgf_text(out.read_text())
    assert game.variant.name == "classic3" and game.final == engine.position
    again = Engine()
    session(again, f"loadsgf {out}")
    assert session(again, "showboard") == session(engine, "showboard")


def test_savesgf_keeps_a_loaded_setup(tmp_path):
    engine = Engine()
    session(engine, f"loadsgf {Path(__file__).parent / 'data' / 'sgf' / 'setup-duo.blksgf'}")
    ok, moves = session(engine, "all_legal b")[0]
    assert session(engine, f"play b {moves.splitlines()[-1]}")[0] == (True, "")
    out = tmp_path / "setup.blksgf"
    session(engine, f"savesgf {out}")
    game = read_sgf_text(out.read_text())
    assert game.has_setup and game.final == engine.position and game.num_placements == 2


#: setup in mid-game: AE takes purple's first piece away and purple's next piece covers
#: those squares; AW adds an orange piece; a last PL gives the turn to orange again
MID_GAME_SETUP = (
    "(;GM[Blokus Duo];B[e10,d11,e11,f11,e12];W[i4,h5,i5,j5,i6];AE[e10,d11,e11,f11,e12]"
    ";B[e10,e11,e12,e13,e14];AW[a1];W[j7,k7];PL[W])"
)


def positions(engine: Engine) -> list:
    """The engine's start and the position after each move (what undo steps back to)."""
    return [engine.start, *(p.after for p in engine.played)]


@pytest.mark.parametrize(
    "name",
    [
        "mid-game.blksgf",
        "ae-duo.blksgf",
        "ae-junior.blksgf",
        "duo-regained-by-setup.blksgf",
        "passes.blksgf",
        "setup-classic.blksgf",
    ],
)
@pytest.mark.parametrize("number", [None, 4])
def test_savesgf_writes_setup_in_mid_game_where_it_was(tmp_path, name, number):
    path = tmp_path / name
    if name == "mid-game.blksgf":
        path.write_text(MID_GAME_SETUP)
    else:
        path.write_bytes((Path(__file__).parent / "data" / "sgf" / name).read_bytes())
    engine = Engine()
    assert session(engine, f"loadsgf {path}" + (f" {number}" if number else "")) == [(True, "")]
    out = tmp_path / "saved.blksgf"
    assert session(engine, f"savesgf {out}") == [(True, "")]
    again = Engine()
    assert session(again, f"loadsgf {out}") == [(True, "")], out.read_text()
    assert positions(again) == positions(engine)
    assert [p.colour for p in again.played] == [p.colour for p in engine.played]
    assert session(again, "showboard") == session(engine, "showboard")


def test_savesgf_writes_mid_game_setup_as_pentobi_reads_it(tmp_path):
    # Pentobi's AE takes away a piece whose squares are the value's exactly; within a node
    # our reader adds before it takes away: so one node per kind, each piece its own value
    path, out = tmp_path / "mid.blksgf", tmp_path / "saved.blksgf"
    path.write_text(MID_GAME_SETUP)
    session(Engine(), f"loadsgf {path}", f"savesgf {out}")
    assert out.read_text().splitlines()[1:] == [
        ";B[e10,d11,e11,f11,e12]",
        ";W[i4,h5,i5,j5,i6]",
        ";AE[e10,d11,e11,f11,e12]",
        ";B[e10,e11,e12,e13,e14]",
        ";AW[a1]",
        ";W[j7,k7]",
        ";PL[W]",
        ")",
    ]


def test_savesgf_to_a_missing_folder_fails(tmp_path):
    ok, text = session(Engine(), f"savesgf {tmp_path / 'no' / 'such' / 'x.blksgf'}")[0]
    assert not ok and text


# -- against Pentobi's engine itself, when it is installed ---------------------------------


def pentobi_gtp() -> str | None:
    """Pentobi's engine: $PENTOBI_GTP, or pentobi-gtp on the PATH."""
    found = os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")
    return found if found and Path(found).exists() else None


@pytest.mark.slow
@pytest.mark.skipif(pentobi_gtp() is None, reason="Pentobi's GTP engine is not installed")
def test_against_pentobi_itself(tmp_path):
    """The same commands to both engines: all_legal on a few positions of each variant,
    showboard, and a short Duo game (ours against Pentobi) whose savesgf file each loads."""
    ours = [sys.executable, "-c", "from solver.cli.commands import main; main()", "gtp"]
    with (
        Client([*ours, "--time-limit", "0"]) as us,
        Client([pentobi_gtp(), "--nobook", "--quiet", "--level", "1", "--seed", "1"]) as them,
    ):
        for record in FULL:
            path = game_path(record["file"])
            for n in (record["move_number"], 999):
                for engine in (us, them):
                    engine.send(f"loadsgf {path} {n}")
                for colour in record["moves"]:
                    a, b = (e.send(f"all_legal {colour}").splitlines() for e in (us, them))
                    assert move_set_key(a) == move_set_key(b), (path.name, n, colour)
                assert us.send("showboard") == them.send("showboard")
        for engine in (us, them):
            engine.send("set_game Blokus Duo")
        for k in range(10):
            colour = "bw"[k % 2]
            mover, other = (us, them) if k % 2 else (them, us)
            move = mover.send(f"genmove {colour}")
            assert other.ask(f"play {colour} {move}") == (True, "")
        assert us.send("final_score") == them.send("final_score")
        us.send(f"savesgf {tmp_path / 'ours.blksgf'}")
        them.send(f"loadsgf {tmp_path / 'ours.blksgf'}")
        assert us.send("showboard") == them.send("showboard")
