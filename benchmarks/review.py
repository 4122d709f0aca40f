"""``blokus-solo review`` on every real game: wall and CPU time per game.

For every game in ``tests/data/games``, runs :func:`solver.tasks.review.review_game` exactly as
``blokus-solo review`` does (every colour, at the start and after every placement; default
backend auto and a per-solve time limit) and prints one row per game: placements, wall
time, CPU time of the process (all threads; steadier than wall time on a shared machine),
solves run, answers kept from an earlier layout, answers yes / no / unknown, and the
slowest single answer. Then the median and worst time per game.

With ``--compare`` it also runs the plain way, :func:`solver.tasks.endgame.endgame_check` for
every colour after every placement, and counts the answers on which the two disagree
(an "unknown" on either side is not a disagreement); that takes minutes.

Usage: python benchmarks/review.py [--backend auto] [--limit 10] [--games DIR]
       [--only SUBSTRING] [--compare] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from real_games import GAMES

from solver.backends.base import DEFAULT_TIME_LIMIT, SolveOptions
from solver.formats.game import Game, load_game
from solver.tasks.endgame import endgame_check
from solver.tasks.review import Review, review_game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "search", "cpsat"])
    parser.add_argument("--games", type=Path, default=GAMES)
    parser.add_argument("--limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per check")
    parser.add_argument("--only", default="", help="only games whose file name contains this")
    parser.add_argument(
        "--compare", action="store_true", help="also run endgame_check at every placement"
    )
    parser.add_argument("--csv", type=Path, help="write one row per game to this file")
    args = parser.parse_args(argv)
    paths = sorted(p for p in args.games.glob("*.blksgf") if args.only in p.name)
    if not paths:
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    options = SolveOptions(backend=args.backend, time_limit=args.limit)
    endgame_check(load_game(paths[0]).position(0), load_game(paths[0]).variant.colours[0])
    header = (
        "game",
        "placements",
        "wall_s",
        "cpu_s",
        "solves",
        "kept",
        "yes",
        "no",
        "unknown",
        "slowest_s",
    )
    print("{:<28} {:>5} {:>7} {:>7} {:>6} {:>5} {:>4} {:>4} {:>4} {:>8}".format(*header))
    rows = []
    disagreements = checked = 0
    for path in paths:
        game = load_game(path)
        cpu = time.process_time()
        review = review_game(game, options=options)
        cpu = time.process_time() - cpu
        answers = Counter(v.answer for s in review.steps for v in s.verdicts)
        slowest = max(v.seconds for s in review.steps for v in s.verdicts)
        row = (
            path.name,
            game.num_placements,
            round(review.seconds, 2),
            round(cpu, 2),
            review.solves,
            review.kept,
            answers["yes"],
            answers["no"],
            answers["unknown"],
            round(slowest, 2),
        )
        rows.append(row)
        print(
            "{:<28} {:>5} {:>7.2f} {:>7.2f} {:>6} {:>5} {:>4} {:>4} {:>4} {:>8.2f}".format(*row),
            flush=True,
        )
        if args.compare:
            n, bad = _compare(game, review, options)
            checked += n
            disagreements += bad
    if args.csv:
        with args.csv.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows(rows)
    walls = [r[2] for r in rows]
    cpus = [r[3] for r in rows]
    print(
        f"{len(rows)} games, {sum(r[1] for r in rows)} placements ({args.backend} backend, "
        f"{args.limit:g} s per check): wall per game median {statistics.median(walls):.2f} s, "
        f"worst {max(walls):.2f} s ({rows[walls.index(max(walls))][0]}), all {sum(walls):.0f} s; "
        f"CPU per game median {statistics.median(cpus):.2f} s, worst {max(cpus):.2f} s"
    )
    print(f"unknown answers: {sum(r[8] for r in rows)}")
    if args.compare:
        print(f"compared with endgame_check: {checked} answers, {disagreements} disagree")
    return 0


def _compare(game: Game, review: Review, options: SolveOptions) -> tuple[int, int]:
    """endgame_check after every placement for every colour with pieces left; returns
    (answers compared, answers that disagree), printing each disagreement."""
    compared = bad = 0
    for step in review.steps:
        position = game.position(step.placement)
        for verdict in step.verdicts:
            if verdict.answer == "done":
                continue
            plain = endgame_check(position, verdict.colour, options)
            compared += 1
            known = "unknown" not in (plain.answer, verdict.answer)
            same_best = (
                plain.best is None
                or plain.best.status != "optimal"
                or not verdict.proven
                or plain.best.score == verdict.best
            )
            if known and (plain.answer != verdict.answer or not same_best):
                bad += 1
                print(
                    f"  DISAGREE after {step.placement} {verdict.colour}: review "
                    f"{verdict.answer} {verdict.best}, endgame_check {plain.answer} "
                    f"{plain.best.score if plain.best else ''}"
                )
    return compared, bad


if __name__ == "__main__":
    sys.exit(main())
