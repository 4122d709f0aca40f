"""What both benchmarks share: the real games of ``tests/data/games`` and the positions
checked in them (every N-th placement, every colour with pieces left)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from solver.core.position import ColourState, Position
from solver.formats.game import load_game

ROOT = Path(__file__).resolve().parents[1]

GAMES = ROOT / "tests" / "data" / "games"


def add_arguments(parser: argparse.ArgumentParser, limit_help: str) -> None:
    """--games, --limit, --every, --rows and --csv."""
    parser.add_argument("--games", type=Path, default=GAMES)
    parser.add_argument("--limit", type=float, default=10.0, help=limit_help)
    parser.add_argument("--every", type=int, default=10, help="check every N-th placement")
    parser.add_argument("--rows", action="store_true", help="print one row per check")
    parser.add_argument("--csv", type=Path, help="write one row per check to this file")


def checked_positions(
    games: Path, every: int, max_left: int | None = None
) -> Iterator[tuple[Path, int, Position, ColourState]]:
    """(game file, placements played, position, colour state) for every game, at placements
    every, 2 * every, ..., for each colour with 1..max_left pieces left (any number when
    max_left is None)."""
    for path in sorted(games.glob("*.blksgf")):
        game = load_game(path)
        for n in range(every, game.num_placements + 1, every):
            position = game.position(n)
            for state in position.colours:
                if state.remaining and (max_left is None or len(state.remaining) <= max_left):
                    yield path, n, position, state
