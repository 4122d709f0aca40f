"""The opening, all four colours (issue 45 item 3): how soon is "can every colour still
place all its pieces?" answered after each colour's first piece?

Each opening (seeded) places the four colours' first pieces in turn (blue, yellow, red,
green) on the Classic board, each drawn at random among the colour's legal first
placements (58 each: a piece covering its corner), as a person at the page may; after
each, the companion (:class:`solver.api.Companion`, the follower the page runs, two
threads) answers with ``--time-limit`` seconds. Nothing is pondered between moves: the
answer is worked out from the click; with ``--hover SECONDS``, the companion ponders that
long before each placement with the placement under the mouse (as the page does while a
person holds the piece over the board before the click). Per answer: the answer, how it
came about (``book``, ``pool``, ``repaired``, ``solved``), the seconds. Then: the share
answered "yes" within 1 s, per colour and over all, and any "no" (every first placement
keeps a layout as far as anyone knows: a "no" would be a proof, printed loudly) and
unknowns.

Every "yes" is re-checked here by the rule checker against the position it answers.

Usage:
    python benchmarks/openings.py [--openings 100] [--seed 0] [--time-limit 10]
        [--hover 0] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import solver.api as blokus  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.core.position import Placement, Position  # noqa: E402
from solver.formats.game import start_position  # noqa: E402


def first_moves(position: Position, colour: str) -> list[Placement]:
    """The colour's legal placements (its first: each covers its start square), in a
    fixed order."""
    moves = legal_moves(position, colour)
    return sorted(moves, key=lambda m: (m.piece, sorted(m.squares)))


def opening(seed: int) -> list[tuple[str, Placement]]:
    """The seed's four first placements, one per colour in turn, each drawn uniformly
    among the legal ones."""
    rng = np.random.default_rng(seed)
    position = start_position("classic")
    line = []
    for colour in position.colour_names:
        moves = first_moves(position, colour)
        move = moves[int(rng.integers(len(moves)))]
        line.append((colour, move))
        position = position.with_placement(colour, move)
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="the first opening's seed")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument(
        "--hover",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="ponder this long before each placement, the placement under the mouse (0: none)",
    )
    parser.add_argument("--csv", type=Path)
    args = parser.parse_args()
    from solver.backends import warmup

    warmup.compile_kernel()
    start = start_position("classic")
    blokus.Companion(start, time_limit=5).answer()  # load the kernels and the book
    from solver.companion.book import warm

    warm()  # both books read, as the page's workers have them (solver/web/worker.py)
    print(f"load at start: {os.getloadavg()[0]:.1f}", flush=True)
    rows: list[tuple[int, str, str, str, str, float]] = []
    noes = 0
    for n in range(args.openings):
        seed = args.seed + n
        game = blokus.Companion(start, time_limit=args.time_limit, seed=seed)
        for colour, move in opening(seed):
            if args.hover:  # the person's mouse over the placement before the click
                game.ponder(args.hover, focus=blokus.Focus(colour, move.piece, move))
            game.play(move, colour)
            began = time.perf_counter()
            step = game.answer()
            seconds = time.perf_counter() - began
            if step.answer == "yes":
                assert step.layout is not None
                report = check_layout(game.position, {c: list(p) for c, p in step.layout.items()})
                assert report.legal and all(r.all_placed for r in report.colours), "a yes refused"
            if step.answer == "no":
                noes += 1
                print(f"!!! a NO after {colour}'s first piece, opening {seed}: {step.reason}")
            names = ",".join(game.position.board.names(move.squares))
            rows.append((seed, colour, f"{move.piece} {names}", step.answer, step.how, seconds))
            print(
                f"opening {seed:4d} {colour:6s} {move.piece:>2s} {step.answer:7s} "
                f"{step.how:9s} {seconds:6.2f} s",
                flush=True,
            )
    print()
    for colour in (None, *start.colour_names):
        mine = [r for r in rows if colour is None or r[1] == colour]
        fast = sum(r[3] == "yes" and r[5] <= 1.0 for r in mine)
        unknown = sum(r[3] == "unknown" for r in mine)
        hows: dict[str, int] = {}
        for r in mine:
            hows[r[4]] = hows.get(r[4], 0) + 1
        print(
            f"{colour or 'all':6s}: {len(mine)} answers, yes within 1 s {fast} "
            f"({100 * fast / max(1, len(mine)):.0f} %), median "
            f"{statistics.median(r[5] for r in mine):.2f} s, unknown {unknown}, "
            f"from {', '.join(f'{h} {k}' for h, k in sorted(hows.items()))}"
        )
    print(f"no: {noes} (a no here would be a proof: look at it)")
    print(f"load at end: {os.getloadavg()[0]:.1f}")
    if args.csv:
        with args.csv.open("w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["seed", "colour", "move", "answer", "how", "seconds"])
            out.writerows(rows)
    return 1 if noes else 0


if __name__ == "__main__":
    sys.exit(main())
