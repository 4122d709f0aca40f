"""Record boards with :func:`research.tight.solve_restarts` (the symmetric
square-first search with Luby restarts over seeds), one line per run.

``solve_restarts`` itself takes two colours swapped by a symmetry, place-all without
monomino-last. To measure the same search on four-colour boards and on the solo puzzle,
this benchmark (not the solver) lets it take any group that :func:`colour_symmetries`
finds (``--symmetry`` picks it by name) and, for monomino-last, solves the puzzle without
that rule and then checks the layout against the full puzzle (the kernel cannot order the
pieces; a layout that fails is reported as such, never as solved). Every layout goes
through the rule checker; record puzzles' layouts are written to results/records/.

Usage: python -m research.benchmarks.restarts puzzles/records/two-14x14.toml --time-limit 300
       python -m research.benchmarks.restarts puzzles/records/four-18x20.toml --symmetry mirrors
       python -m research.benchmarks.restarts --list puzzles/records/*.toml
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

from research import tight
from solver.answers.solution import write_json
from solver.backends.base import SolveOptions
from solver.core.colour_symmetry import colour_symmetries
from solver.errors import SolverBug
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import checked_result

ROOT = Path(__file__).resolve().parents[2]

RESULTS = ROOT / "results" / "records"


def _groups(path: Path) -> None:
    problem = load_puzzle(path)
    found = colour_symmetries(problem)
    names = "; ".join(f"{s.name} ({len(s.cycles)} orbit(s) of colours)" for s in found)
    print(f"{path.stem:22s} {names or 'none'}")


def _run(args) -> int:
    path = Path(args.puzzle)
    problem = load_puzzle(path)
    relaxed = dataclasses.replace(problem, monomino_last=False)
    groups = [s for s in colour_symmetries(problem) if args.symmetry in s.name]
    if not groups:
        print(f"{path}: no symmetry named like {args.symmetry!r}", file=sys.stderr)
        return 2
    # benchmark-only widening of solve_restarts (see the docstring): the chosen group first
    tight.colour_symmetries = lambda _p: groups  # type: ignore[assignment]
    tight.restarts_apply = lambda _p: True  # type: ignore[assignment]
    options = SolveOptions(time_limit=args.time_limit, seed=args.seed, workers=args.workers)
    started = time.perf_counter()
    raw = tight.solve_restarts(relaxed, options, base_nodes=args.base_nodes)
    status: str = raw.status
    try:
        result = checked_result(problem, raw, "tight", started)
    except SolverBug as error:  # only a monomino-last layout can fail here
        result = checked_result(relaxed, raw, "tight", started)
        status = f"solved-place-all-only ({str(error)[:60]})"
    seconds = time.perf_counter() - started
    stats = raw.stats
    print(
        f"{path.stem:18s} {groups[0].name[:28]:28s} seed {args.seed} limit {args.time_limit:.0f} s "
        f"workers {args.workers}: {status} {seconds:.1f} s nodes {stats.get('nodes')} "
        f"runs {stats.get('runs')} load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    if result.layout is not None and path.parent.name == "records" and status == "solved":
        RESULTS.mkdir(parents=True, exist_ok=True)
        write_json(result, RESULTS / f"{path.stem}.json")
        print(f"wrote {RESULTS / (path.stem + '.json')}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="+")
    parser.add_argument("--list", action="store_true", help="only list the groups that apply")
    parser.add_argument("--symmetry", default="", help="a group whose name contains this")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=0, help="the first run's seed")
    parser.add_argument("--workers", type=int, default=1, help="threads sharing the runs")
    parser.add_argument("--base-nodes", type=int, default=tight.RESTART_NODES)
    args = parser.parse_args(argv)
    if args.list:
        for name in args.puzzle:
            _groups(Path(name))
        return 0
    args.puzzle = args.puzzle[0]
    return _run(args)


if __name__ == "__main__":
    sys.exit(main())
