"""The endgame check near the end of real games: the exact search against CP-SAT.

For every game of a folder (default: the Trigon games of ``tests/data/trigon``), a few
placements before its end (``--back``, default 6, 12 and 20), for every colour that has
begun and has pieces left, runs :func:`solver.tasks.endgame.endgame_check` (as
``blokus-solo check`` does: place-all, then for a "no" the best the colour can still do)
once with ``--backend search`` and once with ``--backend cpsat``, one worker each. Prints
the yes / no counts, how many "no" bests each proved optimal, the checks where the two
differ (an answer, or a best), and each backend's time per check: median, 90th percentile,
worst, total. A first run's compile of the search kernel happens before the first timed
check.

Usage: python benchmarks/late_checks.py [--games DIR] [--back 6,12,20] [--limit 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from real_games import ROOT

from solver.backends.base import SolveOptions
from solver.backends.warmup import compile_kernel
from solver.formats.game import load_game
from solver.tasks.endgame import endgame_check

BACKENDS = ("search", "cpsat")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=ROOT / "tests" / "data" / "trigon")
    parser.add_argument("--back", default="6,12,20", help="placements before each game's end")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per solve")
    args = parser.parse_args(argv)
    games = sorted(args.games.glob("*.blksgf"))
    if not games:
        print(f"no games at {args.games}", file=sys.stderr)
        return 2
    compile_kernel()
    rows = []
    for path in games:
        record = load_game(path)
        for back in (int(b) for b in args.back.split(",")):
            if record.num_placements - back < 1:
                continue
            position = record.position(record.num_placements - back)
            for colour in position.colour_names:
                state = position.colour(colour)
                if not state.remaining or not state.placed:
                    continue
                row = {}
                for backend in BACKENDS:
                    options = SolveOptions(
                        backend=backend, time_limit=args.limit, workers=1, seed=1
                    )
                    started = time.perf_counter()
                    answer = endgame_check(position, colour, options)
                    best = answer.best if answer.answer == "no" else None
                    row[backend] = (
                        answer.answer,
                        None if best is None else answer.best_squares,
                        best is not None and best.status == "optimal",
                        time.perf_counter() - started,
                    )
                rows.append((path.name, record.num_placements - back, colour, row))
    print(f"{len(rows)} checks, {args.back} placements before the end, limit {args.limit:g} s")
    for backend in BACKENDS:
        times = sorted(r[3][backend][3] for r in rows)
        answers = Counter(r[3][backend][0] for r in rows)
        proven = sum(r[3][backend][2] for r in rows)
        median = statistics.median(times)
        print(
            f"{backend:7} {dict(answers)} bests proven {proven}; median {median:.3f} s, "
            f"90th percentile {times[int(0.9 * len(times))]:.3f} s, worst {times[-1]:.3f} s, "
            f"total {sum(times):.1f} s"
        )
    differ = [r for r in rows if r[3]["search"][:2] != r[3]["cpsat"][:2]]
    print(f"answer or best differs on {len(differ)} checks:")
    for name, n, colour, row in differ:
        print(f"  {name} after {n} {colour}: " + "; ".join(f"{b} {row[b][:3]}" for b in BACKENDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
