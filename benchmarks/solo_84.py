"""The solo challenge: all 84 pieces of the four colours on the Classic board.

Solves ``puzzles/classic-solo-84.toml`` (each colour's monomino last) once per run with a
backend (default: ``symmetric``, CP-SAT on the quarter-turn reduction of
:mod:`solver.backends.cpsat.symmetric`) and prints the status and wall time of each run, then the
median. Every layout goes through the rule checker (:func:`solver.tasks.solve.solve`).

Usage: python benchmarks/solo_84.py [--backend symmetric] [--seeds 5] [--limit 600]
       [--workers 2] [--puzzle FILE]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from solver.backends.base import SolveOptions
from solver.backends.registry import BACKENDS
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", type=Path, default=ROOT / "puzzles" / "classic-solo-84.toml")
    parser.add_argument("--backend", default="symmetric", choices=tuple(BACKENDS))
    parser.add_argument(
        "--seeds", type=int, default=5, help="runs, with seeds 0, w, 2w, ... (w = --workers)"
    )
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    problem = load_puzzle(args.puzzle)
    times, solved = [], 0
    for run in range(args.seeds):
        # the symmetric backend runs seeds seed .. seed + workers - 1: keep runs disjoint
        seed = run * args.workers
        options = SolveOptions(
            backend=args.backend, time_limit=args.limit, workers=args.workers, seed=seed
        )
        result = solve(problem, options)
        solved += result.status == "solved"
        times.append(result.wall_time)
        print(
            f"seed {seed}: {result.status:8s} {result.wall_time:7.1f} s  [{result.backend}]"
            f"  score {result.score}",
            flush=True,
        )
    print(
        f"{args.puzzle.name}, {args.backend}: solved {solved} of {args.seeds}, "
        f"median {statistics.median(times):.1f} s, worst {max(times):.1f} s "
        f"(limit {args.limit:g} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
