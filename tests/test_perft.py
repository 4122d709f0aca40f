"""Perft (solver/tasks/perft.py, blokus-solo perft): Pentobi's counts on the shallow depths,
the definition's passes and game ends against a brute-force count (tests/brute.py).

Pentobi's counts: ``python benchmarks/perft.py`` drives pentobi-gtp (all_legal, play,
undo) to the same depth; docs/perft.md has the whole table.
"""

import os
import signal
import subprocess
import sys
import time

import helpers
import pytest
from brute import brute_perft

from solver.core.board import Board
from solver.core.position import ColourState, Placement, Position
from solver.core.variants import VARIANTS
from solver.errors import InputError
from solver.formats.game import load_game
from solver.tasks.perft import PASS, perft

#: Pentobi's perft from the start (benchmarks/perft.py, pentobi-gtp 31.0-dev)
PENTOBI = {
    "classic": [58, 3_364, 195_112],
    "classic2": [58, 3_364, 195_112],
    "duo": [414, 171_396],
    "junior": [189, 35_721],
}


@pytest.mark.parametrize("variant", sorted(PENTOBI))
def test_pentobi_counts_from_the_start(variant):
    position = Position.empty(VARIANTS[variant])
    for depth, expected in enumerate(PENTOBI[variant], start=1):
        result = perft(position, depth)
        assert result.leaves == expected
        assert sum(n for _, n in result.divide) == expected
    assert perft(position, 0).leaves == 1


def test_pentobi_counts_from_a_game_position():
    # duo-L4-s29 after 13 placements, orange to move (Pentobi: loadsgf FILE 14)
    position = load_game(helpers.GAMES / "duo-L4-s29.blksgf").position(13)
    result = perft(position, 2)
    assert (result.colour, len(result.divide), result.leaves) == ("orange", 54, 16_037)
    assert perft(position, 3, jobs=2).leaves == 581_433


def tiny(rows, cols, *colours):
    board = Board(rows, cols)
    states = tuple(
        ColourState(name, board.parse(start), (), tuple(pieces)) for name, start, pieces in colours
    )
    return Position(board, states, to_move=states[0].name)


@pytest.mark.parametrize(
    "position",
    [
        # two colours on 3x3: purple runs out first and passes while orange still places
        tiny(3, 3, ("purple", "a3", ("1", "2", "V3")), ("orange", "c1", ("1", "I3"))),
        # three colours, one of them stuck at once (its start square taken by red's piece)
        tiny(
            3, 4, ("blue", "a3", ("2", "1")), ("yellow", "b2", ("1",)), ("red", "d1", ("I3", "1"))
        ),
        # one colour alone: lines end when it has no move
        tiny(2, 3, ("blue", "a2", ("1", "2", "V3"))),
    ],
)
def test_passes_and_game_ends_follow_the_definition(position):
    for depth in range(7):
        assert perft(position, depth).leaves == brute_perft(position, 0, depth), depth


def test_a_pass_is_a_first_move_and_a_game_over_has_none():
    # orange's monomino covers purple's start square: purple passes, orange plays on
    board = Board(3, 3)
    purple = ColourState("purple", board.parse("a3"), (), ("2",))
    orange = ColourState("orange", board.parse("c1"), (), ("1", "2"))
    position = Position(board, (purple, orange)).with_placement(
        "orange", Placement("1", frozenset({board.parse("a3")}))
    )
    result = perft(position, 2, colour="purple")
    assert result.divide == (("pass", result.leaves),)
    assert result.leaves == brute_perft(position, 0, 2) > 0
    over = position.with_placement(
        "orange", Placement("2", frozenset(board.parse(s) for s in ("b2", "b1")))
    )
    assert perft(over, 1, colour="orange").leaves == 0 == brute_perft(over, 1, 1)
    assert perft(over, 0, colour="orange").leaves == 1


def test_command_line():
    result = helpers.run_cli("perft", "--variant", "duo", "--depth", "2", "--divide")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "perft duo from the start, purple to move first"
    assert lines[1].startswith("depth 1: 414 in ") and lines[2].startswith("depth 2: 171,396 in ")
    assert lines[3] == "  e10: 414" and len(lines) == 3 + 414
    game = helpers.GAMES / "duo-L4-s29.blksgf"
    result = helpers.run_cli("perft", game, "--after", 13, "--depth", 2, "--only", "--colour", "B")
    assert result.exit_code == 0, result.output
    assert "purple to move first" in result.output and "depth 1" not in result.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--variant", "duo", "--after", "3", "--depth", "1"], "--after needs a GAME"),
        (["--depth", "-1"], "--depth"),
        (["--variant", "duo", "--depth", "1", "--colour", "blue"], "blue"),
        (["puzzles/tiny-5x5-corner.toml", "--depth", "1"], "not a game record"),
    ],
)
def test_bad_command_lines(args, fragment):
    helpers.one_line_error(helpers.run_cli("perft", *args), fragment)


def test_bad_arguments():
    with pytest.raises(InputError):
        perft(Position.empty(VARIANTS["duo"]), -1)
    assert PASS == "pass"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")
@pytest.mark.parametrize("group", [False, True], ids=["the parent", "the group, as a terminal"])
def test_ctrl_c_of_perft_in_workers_ends_it_at_once_and_its_workers_with_it(group):
    # each worker is deep in a numba count (no signal reaches it): the command must not
    # wait for their counts (it waited about 10-20 s), nor leave one running
    command = [sys.executable, "-c", "from solver.cli.commands import main; main()", "perft"]
    command += ["--variant", "classic", "--depth", "5", "--only", "--jobs", "2"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while len(helpers.children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = helpers.children(process.pid)
    assert len(workers) == 2, "no workers started"
    time.sleep(0.3)  # at work
    sent = time.monotonic()
    (os.killpg if group else os.kill)(process.pid, signal.SIGINT)
    output = process.communicate(timeout=60)[0].decode()
    took = time.monotonic() - sent
    assert process.returncode == 130 and output.endswith("interrupted\n"), output
    assert took < 3, f"{took:.1f} s after Ctrl-C"
    assert not [w for w in workers if helpers.alive(w)], "workers outlived Ctrl-C"
