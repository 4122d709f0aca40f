"""Self-play speed of the placement index and move generator: random games as a learning
agent would play them, one legal mask per turn.

Each turn: ``MoveState.mask`` of the colour to move (the action mask), a uniformly random
legal action, ``MoveState.play``; a colour without a move passes, the game ends when no
colour has one; the observation planes once per turn with ``--observe``. Prints games,
turns (masks) and legal moves per second of CPU time, per variant.

    python benchmarks/selfplay.py [--games 200] [--variants classic,duo,junior] [--observe]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from solver.core.movegen import MoveState, warm  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402


def play(state: MoveState, rng: np.random.Generator, observe: bool) -> tuple[int, int]:
    """One random game from the state's start; (turns, legal moves seen). The state is
    taken back to its start after."""
    n = len(state.colours)
    mask = np.zeros(len(state.index), dtype=bool)
    to_move, passes, turns, seen = 0, 0, 0, 0
    while passes < n:
        state.mask(to_move, out=mask)
        legal = np.flatnonzero(mask)
        if observe:
            state.observation(perspective=to_move)
        turns += 1
        if len(legal):
            seen += len(legal)
            state.play(to_move, int(legal[rng.integers(len(legal))]), check=False)
            passes = 0
        else:
            passes += 1
        to_move = (to_move + 1) % n
    while state.placed:
        state.undo()
    return turns, seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variants", default="classic,duo,junior")
    parser.add_argument("--observe", action="store_true", help="observation planes each turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.games} random games per variant")
    print(f"{'variant':10} {'games/s':>9} {'masks/s':>9} {'moves/s':>12} {'turns/game':>10}")
    for name in args.variants.split(","):
        state = MoveState(Position.empty(VARIANTS[name]))
        rng = np.random.default_rng(args.seed)
        play(state, rng, args.observe)  # tables warm
        t = time.process_time()
        turns = seen = 0
        for _ in range(args.games):
            a, b = play(state, rng, args.observe)
            turns, seen = turns + a, seen + b
        cpu = time.process_time() - t
        print(
            f"{name:10} {args.games / cpu:9,.1f} {turns / cpu:9,.0f} {seen / cpu:12,.0f} "
            f"{turns / args.games:10.1f}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
