"""Shared test data and helpers: the folders every test file reads, named once
(``from helpers import run_cli, PUZZLES``; ``tests/conftest.py`` hands pytest the
fixtures among them).

- ``ROOT``: the project folder; ``PUZZLES``: the shipped puzzle files (``puzzles/``).
- ``GAMES``: real Pentobi games vendored under ``tests/data/games`` (with their JSON sidecars
  and Pentobi's legal-move oracle, ``oracle.jsonl``): no test needs anything outside the
  repository, and a test whose vendored game is missing fails rather than skips.
- ``SGF_FIXTURES``: small hand-written SGF files, good and bad (``tests/data/sgf``).

And two helpers for command-line tests: :func:`run_cli` and :func:`one_line_error`; the
fixture :func:`fresh_first_run` (re-exported by ``tests/conftest.py``, where pytest finds it);
for a command's worker processes (Linux, ``/proc``): :func:`children` and :func:`alive`.
"""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PUZZLES = ROOT / "puzzles"
GAMES = TESTS / "data" / "games"
SGF_FIXTURES = TESTS / "data" / "sgf"


def run_cli(*args):
    """Run ``blokus-solo`` with these arguments (each turned into a string)."""
    from solver.cli.commands import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def fresh_first_run():
    """The first run's background-compile state (:data:`solver.backends.warmup.state`) as
    in a new process for this test, and again after it (commands run in the test process
    change it); the test gets the state to set up."""
    from solver.backends import warmup

    warmup.reset()
    yield warmup.state
    warmup.reset()


def one_line_error(result, *fragments: str) -> str:
    """Assert bad input: exit status 2, one line "error: ..." holding every fragment."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


def children(pid: int) -> set[int]:
    """The process ids of a process's children (Linux: ``/proc``; empty if it is gone)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return {int(p) for p in path.read_text().split()} if path.exists() else set()


def alive(pid: int) -> bool:
    """Whether a process is running (a zombie, ended but not yet reaped, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat")
    return not (state.exists() and state.read_text().split(")")[-1].split()[0] == "Z")


#: Classic colours in turn order; their corners: top-left, top-right, bottom-right, bottom-left
CORNER_COLOURS = ("blue", "yellow", "red", "green")


def corner_problem(rows, cols, colours=("blue",), without=(), monomino_last=False):
    """Each colour places all its 21 pieces (less ``without``) on an empty rows x cols board
    from its Classic corner: the record questions' shape, built through the puzzle format
    (a public seam) as a user would write it."""
    from solver.core.board import Board
    from solver.core.pieces import PIECE_NAMES
    from solver.formats.puzzle import parse_puzzle

    board = Board(rows, cols)
    corner = {"blue": (0, 0), "yellow": (0, cols - 1), "red": (rows - 1, cols - 1)}
    corner["green"] = (rows - 1, 0)
    pieces = json.dumps([p for p in PIECE_NAMES if p not in without])  # a TOML array too
    last = json.dumps(monomino_last and "1" not in without)
    starts = "".join(f'{c} = "{board.name(board.square(*corner[c]))}"\n' for c in colours)
    return parse_puzzle(
        f'variant = "custom"\nsize = [{rows}, {cols}]\ncolours = {json.dumps(list(colours))}\n'
        f"monomino-last = {last}\n[start]\n{starts}[pieces]\n"
        + "".join(f"{c} = {pieces}\n" for c in colours)
    )
