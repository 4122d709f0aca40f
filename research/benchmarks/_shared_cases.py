"""The (position, colour) questions of the A/B scripts: every colour with pieces left in
../shared/data's games (next to the checkout), every 20th placement."""

from __future__ import annotations

from pathlib import Path

from solver.core.position import Position
from solver.formats.game import load_game

GAMES = Path(__file__).resolve().parents[3] / "shared" / "data" / "games"


def cases(limit: int | None = None) -> list[tuple[Position, str]]:
    """(position, colour) pairs of the first ``limit`` games (all without a limit)."""
    out = []
    for path in sorted(GAMES.glob("*.blksgf"))[:limit]:
        record = load_game(path)
        for k in range(20, record.num_placements, 20):
            position = record.position(k)
            out += [(position, c) for c in position.colour_names if position.colour(c).remaining]
    return out
