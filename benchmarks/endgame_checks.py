"""The endgame check (``blokus-solo check``) on every real game, at every 10th placement.

For every game in ``tests/data/games``, at placements 10, 20, ..., for every colour with
pieces left, runs :func:`solver.tasks.endgame.endgame_check` exactly as ``blokus-solo check``
does: place-all first; for a "no", max-score for the best the colour can still do. Prints
how many answers were yes / no / unknown, how many "no" bests were proven optimal, the
time per check (both solves included): median, 90th and 99th percentiles, worst, how many
took over 0.1 s and over 1 s, and the slowest checks with the time of each solve (the
place-all, then the best after a "no"). The kernels are compiled or loaded before the
first timed check (a first run's compile is not a check's time: docs/engines.md).

Usage: python benchmarks/endgame_checks.py [--backend auto] [--limit 10] [--every 10]
       [--rows] [--csv FILE] [--slowest 12]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections import Counter

from real_games import add_arguments, checked_positions

from solver.backends.base import SolveOptions
from solver.backends.warmup import compile_kernel
from solver.tasks.endgame import endgame_check


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "search", "cpsat"])
    add_arguments(parser, "seconds per solve")
    parser.add_argument("--slowest", type=int, default=12, help="list the N slowest checks")
    args = parser.parse_args(argv)
    if not args.games.is_dir():
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    options = SolveOptions(backend=args.backend, time_limit=args.limit)
    compile_kernel()
    rows = []
    phases = []
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
        phases.append((a.place_all.wall_time, a.best.wall_time if a.best else None))
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
    cuts = statistics.quantiles(times, n=100)
    print(
        f"time per check: median {statistics.median(times):.4f} s, "
        f"90th percentile {cuts[89]:.4f} s, 99th percentile {cuts[98]:.4f} s, "
        f"worst {max(times):.3f} s"
    )
    over = [sum(t > cut for t in times) for cut in (0.1, 1.0)]
    print(f"checks over 0.1 s: {over[0]}, over 1 s: {over[1]}")
    slowest = sorted(range(len(rows)), key=lambda i: -times[i])[: args.slowest]
    print(f"slowest {len(slowest)} (game, placements, colour, pieces left, answer, best, s):")
    for i in slowest:
        place_all, best = phases[i]
        split = f"place-all {place_all:.3f} s" + (f", best {best:.3f} s" if best else "")
        print(
            "  {:<28} {:>3} {:<7} {:>2} {:<4} {:>4} {:8.4f} s".format(
                *rows[i][:5], rows[i][6], times[i]
            )
            + f" ({split})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
