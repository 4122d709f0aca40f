"""Perft: our counts (``blokus-solo perft``) and Pentobi's, side by side, with times.

Pentobi's count is driven through its GTP engine with the same definition
(docs/perft.md): ``all_legal`` at every node, ``play`` and ``undo`` down the tree, the last
turn counted (not played) as ours is; a colour whose ``all_legal`` is empty passes if
another colour's is not, and the line ends if none is. Commands are sent in batches (a
node's children at once) to spare the pipe's round trips. ``--pentobi-depth`` caps the
depth Pentobi is asked (its GTP round trips make it slow past a few million nodes);
``--pentobi-jobs`` runs several engines on disjoint first moves.

    python benchmarks/perft.py --variant duo --depth 3 [--pentobi-depth 3] [--jobs 2]
    python benchmarks/perft.py --game tests/data/games/duo-L4-s29.blksgf --after 13 --depth 3

Prints one markdown row per depth: variant or position, depth, our count, our seconds and
lines per second, Pentobi's count and seconds, and whether they agree. Exit status 1 on
any disagreement (with ``--divide`` the first moves whose counts differ are printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pentobi import GAME_NAMES, Pentobi, find_pentobi, gtp_colour  # noqa: E402

from solver.core.movegen import warm  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402
from solver.formats.game import load_game  # noqa: E402
from solver.tasks.perft import first_mover, perft  # noqa: E402


class Driver:
    """Pentobi's perft through GTP, on one engine."""

    def __init__(self, engine: Pentobi, colours: list[str]) -> None:
        self.engine = engine
        self.colours = colours

    def others_move(self, c: int) -> bool:
        n = len(self.colours)
        answers = self.engine.commands(
            [f"all_legal {self.colours[(c + k) % n]}" for k in range(1, n)]
        )
        return any(answers)

    def count(self, c: int, depth: int) -> int:
        """perft with colour number c to move."""
        if depth == 0:
            return 1
        moves = self.engine.all_legal(self.colours[c])
        if depth == 1:
            return len(moves) or int(self.others_move(c))
        nxt = (c + 1) % len(self.colours)
        if not moves:
            return self.count(nxt, depth - 1) if self.others_move(c) else 0
        if depth == 2:  # the children's moves counted in one batch: play, all_legal, undo
            lines = []
            for mv in moves:
                lines += [f"play {self.colours[c]} {mv}", f"all_legal {self.colours[nxt]}", "undo"]
            answers = self.engine.commands(lines)
            total = 0
            for k, mv in enumerate(moves):
                text = answers[3 * k + 1]
                if text:
                    total += text.count("\n") + 1
                else:  # a pass or the end: rare, done one by one
                    self.engine.command(f"play {self.colours[c]} {mv}")
                    total += int(self.others_move(nxt))
                    self.engine.command("undo")
            return total
        return sum(self.below(c, mv, depth) for mv in moves)

    def below(self, c: int, mv: str | None, depth: int) -> int:
        """perft below colour c's first move ``mv`` (None: a pass)."""
        nxt = (c + 1) % len(self.colours)
        if mv is None:
            return self.count(nxt, depth - 1)
        self.engine.command(f"play {self.colours[c]} {mv}")
        try:
            return self.count(nxt, depth - 1)
        finally:
            self.engine.command("undo")


def pentobi_perft(
    path: str, setup: list[str], colours: list[str], c: int, depth: int, jobs: int
) -> int:
    """Pentobi's perft from the position ``setup`` makes, on ``jobs`` engines sharing the
    first moves."""
    with Pentobi(path) as engine:
        engine.commands(setup)
        driver = Driver(engine, colours)
        if depth <= 2 or jobs == 1:
            return driver.count(c, depth)
        moves = engine.all_legal(colours[c])
        if not moves:
            return driver.count(c, depth)

    def share(k: int) -> int:
        with Pentobi(path) as engine:
            engine.commands(setup)
            driver = Driver(engine, colours)
            return sum(driver.below(c, mv, depth) for mv in moves[k::jobs])

    with ThreadPoolExecutor(jobs) as pool:  # each thread waits on its own engine
        return sum(pool.map(share, range(jobs)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default=None)
    parser.add_argument("--game", type=Path, help="a game record (instead of --variant)")
    parser.add_argument("--after", type=int, default=None, help="placements of --game")
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--pentobi-depth", type=int, default=None, help="default: --depth")
    parser.add_argument("--jobs", type=int, default=1, help="our worker processes")
    parser.add_argument("--pentobi-jobs", type=int, default=2, help="Pentobi engines")
    parser.add_argument("--pentobi", help="pentobi-gtp (default: $PENTOBI_GTP)")
    parser.add_argument(
        "--spot",
        type=int,
        default=0,
        metavar="K",
        help="at --depth, past --pentobi-depth: Pentobi's count below K first moves "
        "(evenly spread) against our --divide counts",
    )
    args = parser.parse_args()
    path = find_pentobi(args.pentobi)
    if args.game is not None:
        game = load_game(args.game)
        variant = game.variant.name
        position = game.position(args.after)
        n = game.num_placements if args.after is None else args.after
        setup = [f"loadsgf {args.game.resolve()} {n + 1}"]
        label = f"{args.game.name} after {n}"
    else:
        variant = args.variant or "classic"
        position = Position.empty(VARIANTS[variant])
        setup = [f"set_game {GAME_NAMES[variant]}", "clear_board"]
        label = f"{variant} start"
    colours = [gtp_colour(variant, k) for k in range(len(position.colours))]
    first = first_mover(position, None)
    c = position.colour_names.index(first)
    warm()
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}; {label}, {first} first")
    print("| position | depth | perft | ours (s) | ours lines/s | Pentobi | Pentobi (s) | agree |")
    print("|---|---|---|---|---|---|---|---|")
    wrong = 0
    for d in range(1, args.depth + 1):
        ours = perft(position, d, jobs=args.jobs)
        theirs, seconds = None, 0.0
        if d <= (args.pentobi_depth if args.pentobi_depth is not None else args.depth):
            t = time.perf_counter()
            theirs = pentobi_perft(path, setup, colours, c, d, args.pentobi_jobs)
            seconds = time.perf_counter() - t
        agree = "-" if theirs is None else ("yes" if theirs == ours.leaves else "NO")
        wrong += agree == "NO"
        print(
            f"| {label} | {d} | {ours.leaves:,} | {ours.seconds:.2f} | "
            f"{ours.nodes_per_second:,.0f} | "
            f"{'-' if theirs is None else f'{theirs:,}'} | "
            f"{'-' if theirs is None else f'{seconds:.1f}'} | {agree} |",
            flush=True,
        )
    if args.spot:
        wrong += spot_check(path, setup, colours, c, ours, args.spot)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 1 if wrong else 0


def spot_check(path: str, setup: list[str], colours: list[str], c: int, ours, k: int) -> int:
    """Pentobi's counts below k of the first moves of our last count (``ours.divide``),
    printed as rows; returns how many differ."""
    picks = ours.divide[:: max(1, len(ours.divide) // k)][:k]
    wrong = 0
    with Pentobi(path) as engine:
        engine.commands(setup)
        driver = Driver(engine, colours)
        for move, count in picks:
            t = time.perf_counter()
            theirs = driver.below(c, None if move == "pass" else move, ours.depth)
            agree = "yes" if theirs == count else "NO"
            wrong += agree == "NO"
            print(
                f"| below {move} | {ours.depth} | {count:,} | | | {theirs:,} | "
                f"{time.perf_counter() - t:.1f} | {agree} |",
                flush=True,
            )
    return wrong


if __name__ == "__main__":
    sys.exit(main())
