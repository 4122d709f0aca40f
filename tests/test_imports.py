"""What a command's start-up loads: the libraries that take a large part of a second to
import (numba, OR-tools, Pillow, Dask, the web stack) only where a command uses them
(solver/cli/commands.py loads a command's module when the command runs)."""

from __future__ import annotations

import subprocess
import sys

from helpers import PUZZLES

HEAVY = ("numba", "ortools", "PIL", "distributed", "starlette", "uvicorn")


def _loaded(*args: str) -> tuple[str, list[str]]:
    """Run ``blokus-solo ARGS`` in a fresh interpreter: its output and the heavy libraries
    it imported."""
    code = (
        "import sys\n"
        "from solver.cli.commands import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    text, _, loaded = out.stdout.rpartition("LOADED")
    return text, loaded.split()


def test_help_loads_every_command_and_no_heavy_library():
    text, loaded = _loaded("--help")
    listed = text.split("Commands:", 1)[1].split()
    for name in ("solve", "check", "batch", "batch-merge", "serve", "gtp", "perft"):
        assert name in listed
    assert loaded == []


def test_a_puzzle_greedy_play_answers_loads_none_either():
    text, loaded = _loaded("solve", str(PUZZLES / "tiny-5x5-corner.toml"), "--plain")
    assert "status: solved  [greedy, " in text, text
    assert loaded == []
