"""Steps per second of a masked random agent in the agents' environments (docs/agents.md),
against the same loop on the bare move generator.

Per variant, random games to their end (CPU time of this process, one core), every loop
choosing its action the same way (a uniformly random legal one: ``np.flatnonzero`` of the
mask, NumPy's generator):

* ``bare``: the loop with no environment: :meth:`MoveState.mask` of the colour to move, a
  uniformly random legal placement, :meth:`MoveState.play`, the next colour with a legal
  placement (:meth:`MoveState.has_move`); no observation;
* ``solo``: ``gymnasium.make("blokus_solo/Solo-v0")`` (Gymnasium's wrappers included) and
  ``env.step``: the observation planes and the mask copied out every step;
* ``solo x N``: N of them in Gymnasium's ``SyncVectorEnv`` (autoreset), one masked random
  action per sub-environment per call, a step per sub-environment counted;
* ``aec``: the PettingZoo environment (``solver.agents.pettingzoo_env.env()``, its
  wrappers), ``agent_iter`` / ``last`` / ``step``; a pass is a step.

    python benchmarks/agents.py [--games 100] [--variants classic,duo] [--vector 8]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import solver.agents  # noqa: E402
from solver.agents.pettingzoo_env import env as aec_env  # noqa: E402
from solver.core.movegen import MoveState, warm  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402


def bare(variant: str, games: int, rng: np.random.Generator) -> int:
    """The loop on the move generator alone; returns the placements played."""
    state = MoveState(Position.empty(VARIANTS[variant]))
    n = len(state.colours)
    mask = np.zeros(len(state.index), dtype=bool)
    steps = 0
    for _ in range(games):
        while state.placed:
            state.undo()
        to_move: int | None = 0
        while to_move is not None:
            state.mask(to_move, out=mask)
            legal = np.flatnonzero(mask)
            state.play(to_move, int(legal[rng.integers(len(legal))]), check=False)
            steps += 1
            after = ((to_move + k) % n for k in range(1, n + 1))
            to_move = next((c for c in after if state.has_move(c)), None)
    return steps


def solo(variant: str, games: int, rng: np.random.Generator) -> int:
    """A masked random agent in Solo-v0; returns the steps."""
    env = gymnasium.make(solver.agents.ENV_ID, variant=variant)
    steps = 0
    for _ in range(games):
        observation, _ = env.reset()
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            action = legal[rng.integers(len(legal))]
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps


def solo_vector(variant: str, games: int, rng: np.random.Generator, width: int) -> int:
    """``width`` Solo-v0 environments in a SyncVectorEnv until ``games`` episodes have
    ended; returns the sub-environment steps (an autoreset step not counted)."""
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(solver.agents.ENV_ID, variant=variant)] * width
    )
    observation, _ = envs.reset(seed=int(rng.integers(1 << 30)))
    ended = steps = 0
    resetting = np.zeros(width, dtype=bool)
    while ended < games:
        actions = np.zeros(width, dtype=np.int64)
        for k, mask in enumerate(observation["action_mask"]):
            legal = np.flatnonzero(mask)
            if len(legal):
                actions[k] = legal[rng.integers(len(legal))]
        observation, _, terminated, truncated, _ = envs.step(actions)
        steps += int((~resetting).sum())
        resetting = terminated | truncated
        ended += int(resetting.sum())
    envs.close()
    return steps


def aec(variant: str, games: int, rng: np.random.Generator) -> int:
    """A masked random agent in the PettingZoo environment; returns the steps (passes
    included, the agents' final ``step(None)`` not)."""
    game = aec_env(variant=variant)
    steps = 0
    for _ in range(games):
        game.reset()
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(steps, CPU seconds) of one run."""
    t = time.process_time()
    steps = run()
    return steps, time.process_time() - t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per variant and loop")
    parser.add_argument("--variants", default="classic,duo")
    parser.add_argument("--vector", type=int, default=8, help="sub-environments of solo x N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.games} random games per loop")
    print(f"{'variant':9} {'loop':10} {'steps':>7} {'steps/s':>9} {'vs bare':>8}")
    for variant in args.variants.split(","):
        rng = np.random.default_rng(args.seed)
        loops: dict[str, Callable[[], int]] = {
            "bare": partial(bare, variant, args.games, rng),
            "solo": partial(solo, variant, args.games, rng),
            f"solo x {args.vector}": partial(solo_vector, variant, args.games, rng, args.vector),
            "aec": partial(aec, variant, args.games, rng),
        }
        for warm_up in (bare, solo, aec):  # tables, kernels and wrappers warm
            warm_up(variant, 2, rng)
        base = 0.0
        for name, run in loops.items():
            steps, cpu = timed(run)
            rate = steps / cpu
            base = base or rate
            print(f"{variant:9} {name:10} {steps:7} {rate:9,.0f} {rate / base:7.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
