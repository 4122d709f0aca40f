"""The research tests use the project's test helpers (``tests/helpers.py``) and import the
``research`` package from the project root; run them with ``pytest research/tests``."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers import (  # noqa: E402, F401
    GAMES,
    PUZZLES,
    SGF_FIXTURES,
    TESTS,
    one_line_error,
    run_cli,
)
