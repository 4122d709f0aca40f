"""Shared test data: the folders every test file reads, named once.

- ``PUZZLES``: the shipped puzzle files (``puzzles/``).
- ``GAMES``: real Pentobi games vendored under ``tests/data/games`` (with their JSON sidecars
  and Pentobi's legal-move oracle, ``oracle.jsonl``), so that no oracle test needs anything
  outside the repository.
- ``SGF_FIXTURES``: small hand-written SGF files, good and bad (``tests/data/sgf``).
"""

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PUZZLES = TESTS.parent / "puzzles"
GAMES = TESTS / "data" / "games"
SGF_FIXTURES = TESTS / "data" / "sgf"


@pytest.fixture
def puzzles_dir() -> Path:
    """The shipped puzzle folder."""
    return PUZZLES


@pytest.fixture
def games_dir() -> Path:
    """The vendored real-game folder."""
    return GAMES
