"""Endgame checks on real games: the exact search against the CP-SAT backend.

For every game in ``tests/data/games`` (Pentobi records), at every 10th placement, for
every colour with pieces left, the check "can this colour still place all its remaining
pieces with the other colours frozen" = ``Problem(position, (colour,), "place-all")`` is
solved by both backends with a time limit (10 s). Every "yes" goes through the rule checker
(:func:`solver.tasks.solve.solve`). Prints the median and worst time per backend, their ratio, the
yes / no / unknown counts, and every disagreement (a "yes" against a "no"; "unknown" is no
answer and disagrees with nothing). A backend that raises is counted as "error" and listed.

Usage: python benchmarks/search_vs_cpsat.py [--limit 10] [--every 10] [--max-left N] [--rows]
       [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from real_games import add_arguments, checked_positions

from solver.backends.base import SolveOptions
from solver.core.problem import Problem
from solver.tasks.solve import solve

ANSWER = {"solved": "yes", "infeasible": "no", "unknown": "unknown"}


def checks(games: Path, every: int, max_left: int | None = None):
    """Yield (game file name, placements played, colour, pieces left, problem), for the
    colours with 1..max_left pieces left."""
    for path, n, position, state in checked_positions(games, every, max_left):
        yield (
            path.name,
            n,
            state.name,
            len(state.remaining),
            Problem(position, (state.name,), "place-all", name=str(path)),
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser, "seconds per check and backend")
    parser.add_argument(
        "--max-left",
        type=int,
        default=None,
        help="only colours with at most this many pieces left (endgames)",
    )
    args = parser.parse_args(argv)
    if not args.games.is_dir():
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    backends = ("search", "cpsat")
    times = {b: [] for b in backends}
    answers = {b: Counter() for b in backends}
    disagreements = []
    errors: list[str] = []
    rows = []
    started = time.perf_counter()
    for name, n, colour, left, problem in checks(args.games, args.every, args.max_left):
        row = {"game": name, "placements": n, "colour": colour, "pieces_left": left}
        for b in backends:
            t0 = time.perf_counter()
            try:
                result = solve(problem, SolveOptions(backend=b, time_limit=args.limit))
                answer, nodes = ANSWER[result.status], result.stats.get("nodes", "")
            except Exception as error:  # a backend bug: report it, go on with the others
                answer, nodes = "error", ""
                errors.append(f"{name} {n} {colour} {b}: {type(error).__name__}: {error}")
            seconds = time.perf_counter() - t0
            times[b].append(seconds)
            answers[b][answer] += 1
            row[b] = answer
            row[f"{b}_s"] = round(seconds, 4)
            row[f"{b}_nodes"] = nodes
        if {row["search"], row["cpsat"]} == {"yes", "no"}:
            disagreements.append(row)
        rows.append(row)
        if args.rows:
            print(
                f"{name:34s} {n:3d} {colour:7s} {left:2d}  search {row['search']:7s} "
                f"{row['search_s']:8.4f}s  cpsat {row['cpsat']:7s} {row['cpsat_s']:8.4f}s",
                flush=True,
            )
    if not rows:
        print("no check matches (try a smaller --every or a larger --max-left)", file=sys.stderr)
        return 2
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    print(
        f"{len(rows)} checks, limit {args.limit:g} s, "
        f"pieces left <= {args.max_left if args.max_left else 'any'}, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    print(f"{'':8s} {'median s':>10s} {'mean s':>10s} {'worst s':>10s}   yes    no unknown error")
    for b in backends:
        t = times[b]
        a = answers[b]
        print(
            f"{b:8s} {statistics.median(t):10.4f} {statistics.mean(t):10.4f} {max(t):10.3f}"
            f"  {a['yes']:4d}  {a['no']:4d}  {a['unknown']:6d} {a['error']:5d}"
        )
    ratio = statistics.median(times["cpsat"]) / statistics.median(times["search"])
    print(f"median ratio cpsat / search: {ratio:.1f}x")
    both = [(s, c) for s, c in zip(times["search"], times["cpsat"])]
    faster = sum(1 for s, c in both if s < c)
    print(f"search faster on {faster} of {len(both)} checks")
    for line in errors:
        print("ERROR", line)
    if disagreements:
        print(f"DISAGREEMENTS ({len(disagreements)}):")
        for row in disagreements:
            print("  ", row)
    else:
        print("no disagreement")
    return 1 if disagreements or errors else 0


if __name__ == "__main__":
    sys.exit(main())
