"""The joint check (``blokus-solo check --together``) on every real game, at every 10th
placement: can all the colours with pieces left still place all of them at once?

For every game in ``tests/data/games`` (or ``--games DIR``), at placements 10, 20, ..., runs
:func:`solver.tasks.endgame.joint_check` on the colours with pieces left, as ``check --together``
does, and prints how many answers were yes / no / unknown and the median and worst time.

Usage: python benchmarks/joint_checks.py [--backend auto] [--limit 60] [--every 10]
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
from solver.tasks.endgame import joint_check


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "search", "cpsat", "repair"])
    add_arguments(parser, "seconds per solve")
    args = parser.parse_args(argv)
    if not args.games.is_dir():
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    options = SolveOptions(backend=args.backend, time_limit=args.limit)
    positions: dict = {}
    for path, n, position, state in checked_positions(args.games, args.every):
        positions.setdefault((path, n), (position, []))[1].append(state.name)
    rows = []
    for (path, n), (position, colours) in positions.items():
        a = joint_check(position, tuple(colours), options, name=str(path))
        backend = (
            a.together.backend if a.together else (a.alone[-1].backend if a.alone else "bound")
        )
        row = (path.name, n, len(colours), a.answer, backend, a.reason, round(a.seconds, 3))
        rows.append(row)
        if args.rows:
            print("{:<28} {:>3} {} {:<7} {:<12} {:<45} {:8.3f}s".format(*row), flush=True)
    if not rows:
        print("no check matches (try a smaller --every)", file=sys.stderr)
        return 2
    if args.csv:
        with args.csv.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "after", "colours", "answer", "backend", "reason", "seconds"])
            w.writerows(rows)
    times = [r[-1] for r in rows]
    answers = Counter(r[3] for r in rows)
    print(f"{len(rows)} joint checks ({args.backend}, {args.limit:g} s limit per solve)")
    print(f"answers: yes {answers['yes']}, no {answers['no']}, unknown {answers['unknown']}")
    print(f"time per check: median {statistics.median(times):.3f} s, worst {max(times):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
