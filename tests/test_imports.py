"""What a command's start-up loads: the libraries that take a large part of a second to
import (numba, OR-tools, Pillow, Dask, the web stack) only where a command uses them
(solver/cli/commands.py loads a command's module when the command runs)."""

from __future__ import annotations

import subprocess
import sys

from helpers import PUZZLES

HEAVY = ("numba", "ortools", "PIL", "distributed", "starlette", "uvicorn")


def test_help_and_a_greedy_solve_load_no_heavy_library():
    """In one fresh interpreter, as the command: ``--help`` (which loads every command's
    module), then ``solve`` of a puzzle greedy play answers; after each, the heavy
    libraries imported so far."""
    puzzle = str(PUZZLES / "tiny-5x5-corner.toml")
    code = (
        "import sys\n"
        "from solver.cli.commands import main\n"
        f"for args in (['--help'], ['solve', {puzzle!r}, '--plain']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"    print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    help_text, solved, _ = out.stdout.split("LOADED")
    listed = help_text.split("Commands:", 1)[1].split()
    for name in ("solve", "check", "batch", "batch-merge", "serve", "gtp", "perft"):
        assert name in listed
    assert "status: solved  [greedy, " in solved, solved
    loaded = [line for line in out.stdout.splitlines() if line.startswith("LOADED")]
    assert loaded == ["LOADED", "LOADED"]  # after --help, after the solve: none


ENGINES = ("bounds", "cpsat", "domain", "repair", "search", "symmetric")


def test_the_engines_front_doors_load_nothing_heavy_until_a_name_is_used():
    """Importing every engine package (its front door, solver/backends/face.py) loads
    neither numba nor OR-tools; the first use of a name loads its home."""
    code = (
        "import sys, importlib\n"
        f"for e in {ENGINES!r}:\n"
        "    importlib.import_module('solver.backends.' + e)\n"
        f"print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules])\n"
        "from solver.backends import cpsat\n"
        "cpsat.params_can_prove\n"
        f"print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules])\n"
        "from solver.backends.search import count\n"
        f"print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["LOADED", "LOADED", "LOADED numba"]


def test_each_front_door_name_is_its_home_modules_object_and_no_other_name_is_served():
    import importlib

    import pytest

    for engine in ENGINES:
        package = importlib.import_module(f"solver.backends.{engine}")
        assert package.__all__, engine
        for name in package.__all__:
            value = getattr(package, name)
            home = importlib.import_module(value.__module__) if callable(value) else None
            assert home is None or getattr(home, name) is value, (engine, name)
        with pytest.raises(AttributeError, match="has no attribute 'kernel_typo'"):
            _ = package.kernel_typo
