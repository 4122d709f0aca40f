"""The page's joint question while a game is followed (``blokus-solo serve``, the solo
companion of :mod:`solver.companion.page`) against the check from scratch.

On the project's Duo layout game (``tests/data/follow/duo-both-layout.blksgf``, both
colours place all 21 pieces), after each chosen placement k: the joint check from scratch
(:func:`solver.tasks.endgame.joint_check`, what the page asked before) and the companion's answer
as a worker computes it (:func:`solver.companion.page.follow_answer`) from the answer after
placement k-1 (the rest of the record as its witness) and the move k. Both with the same
time limit; the companion's "yes" is re-checked by the rule checker inside.

Usage: python benchmarks/serve_follow.py [--time-limit 10] [--after 10 20 31 32 33]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from solver.backends.base import SolveOptions
from solver.companion.page import FollowRequest, Known, fingerprint, follow_answer, rows
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.tasks.endgame import joint_check

GAME = (
    Path(__file__).resolve().parent.parent / "tests" / "data" / "follow" / "duo-both-layout.blksgf"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--after", type=int, nargs="+", default=[10, 20, 31, 32, 33])
    args = parser.parse_args()
    game = load_game(GAME)
    moves = [m for m in game.moves if m.placement is not None]
    for k in args.after:
        position = game.position(k)
        colours = tuple(c.name for c in position.colours if c.remaining)
        started = time.perf_counter()
        cold = joint_check(position, colours, SolveOptions(time_limit=args.time_limit))
        cold_s = time.perf_counter() - started
        rest: dict = {}
        for m in moves[k - 1 :]:
            rest.setdefault(m.colour, []).append(m.placement)
        move = moves[k - 1]
        request = FollowRequest(
            Problem(position, colours, "place-all"),
            game.position(k - 1),
            Known("yes", rows(rest)),
            ((move.colour, move.placement),),
            fingerprint(position),
        )
        started = time.perf_counter()
        out = follow_answer(request, args.time_limit)
        warm_s = time.perf_counter() - started
        print(
            f"after placement {k}: from scratch {cold.answer} in {cold_s:.3f} s; "
            f"companion {out['answer']} ({out['how']}) in {warm_s:.3f} s"
        )


if __name__ == "__main__":
    main()
