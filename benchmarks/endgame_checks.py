"""The endgame check (``blokus-solo check``) on every real game, at every 10th placement.

For every game in ``tests/data/games``, at placements 10, 20, ..., for every colour with
pieces left, runs :func:`solver.tasks.endgame.endgame_check` exactly as ``blokus-solo check``
does: place-all first; for a "no", max-score for the best the colour can still do. Prints
how many answers were yes / no / unknown, how many "no" bests were proven optimal, and the
median and worst time per check (both solves included).

Usage: python benchmarks/endgame_checks.py [--backend auto] [--limit 10] [--every 10]
       [--rows] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections import Counter

from real_games import add_arguments, checked_positions

from solver.backends.base import SolveOptions
from solver.tasks.endgame import endgame_check


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "search", "cpsat"])
    add_arguments(parser, "seconds per solve")
    args = parser.parse_args(argv)
    if not args.games.is_dir():
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    options = SolveOptions(backend=args.backend, time_limit=args.limit)
    rows = []
    for path, n, position, state in checked_positions(args.games, args.every):
        a = endgame_check(position, state.name, options, name=str(path))
        best = a.best.status if a.best else ""
        row = (
            path.name,
            n,
            state.name,
            len(state.remaining),
            a.answer,
            best,
            a.best.score if a.best and a.best.layout is not None else "",
            round(a.seconds, 4),
        )
        rows.append(row)
        if args.rows:
            print("{:<28} {:>3} {:<7} {:>2} {:<7} {:<8} {:>5} {:8.4f}s".format(*row), flush=True)
    if not rows:
        print("no check matches (try a smaller --every)", file=sys.stderr)
        return 2
    if args.csv:
        with args.csv.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(
                [
                    "game",
                    "after",
                    "colour",
                    "left",
                    "answer",
                    "best_status",
                    "best_score",
                    "seconds",
                ]
            )
            w.writerows(rows)
    times = [r[-1] for r in rows]
    answers = Counter(r[4] for r in rows)
    bests = Counter(r[5] for r in rows if r[4] == "no")
    print(
        f"{len(rows)} checks ({args.backend} backend, {args.limit:g} s limit per solve), "
        f"{sum(times):.0f} s in all"
    )
    print(f"answers: yes {answers['yes']}, no {answers['no']}, unknown {answers['unknown']}")
    print(
        f"best after a no: proven optimal {bests['optimal']}, bound only {bests['solved']}, "
        f"unknown {bests['unknown']}"
    )
    print(
        f"time per check: median {statistics.median(times):.4f} s, "
        f"90th percentile {statistics.quantiles(times, n=10)[-1]:.4f} s, worst {max(times):.3f} s"
    )
    worst = max(rows, key=lambda r: r[-1])
    print(
        f"worst: {worst[0]} after {worst[1]} placements, {worst[2]} ({worst[3]} pieces left): "
        f"{worst[4]} in {worst[-1]} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
