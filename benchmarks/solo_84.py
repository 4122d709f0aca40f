"""The solo challenge: all 84 pieces of the four colours, each monomino last, as a user runs it.

Runs the whole command ``blokus-solo solve PUZZLE --seed S`` once per seed, each in a new
process (start-up, imports, the kernel's cache loaded, the search, the rule checker that
re-checks every layout, the printing), and prints each run's wall time, CPU time (user +
system of the process and its threads) and the backend that answered, then the median and
the spread. The 1-minute load average is printed at the start and the end: on a shared
machine it says how many processes the cores were split between.

With ``--baseline DIR`` (another checkout with its own ``.venv``, e.g. ``../main``) the
same command of that checkout (its interpreter, run in its folder, so that its own code is
imported) runs alternately with this one, seed by seed (A B A B ...), and each pair's ratio
A/B of wall time is printed with their median: a paired comparison that the load hits on
both sides.

Usage: python benchmarks/solo_84.py [--seeds 0-9] [--puzzle FILE] [--backend auto]
       [--limit SECONDS] [--workers 2] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: runs the command line of the checkout whose interpreter runs it
COMMAND = "from solver.cli.commands import main; main()"


def seeds_of(text: str) -> list[int]:
    """'0-9' -> 0..9; '1,5,7' -> [1, 5, 7]."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def run_once(root: Path, args: list[str]) -> tuple[float, float, str]:
    """One whole command of the checkout ``root`` (its ``.venv``, run in its folder; this
    checkout's: the interpreter running this script): (wall seconds, CPU seconds, its
    status line)."""
    python = sys.executable if root == ROOT else str(root / ".venv" / "bin" / "python")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(
        [python, "-c", COMMAND, *args], capture_output=True, text=True, cwd=root, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = [line for line in out.stdout.splitlines() if line.startswith("status:")]
    if out.returncode != 0 or not status:
        return wall, cpu, f"failed (exit {out.returncode}): {out.stderr.strip()[-200:]}"
    return wall, cpu, status[0]


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", type=Path, default=ROOT / "puzzles" / "classic-solo-84.toml")
    parser.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 3,17,42")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--limit", type=float, default=600.0, help="--time-limit of each run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--baseline", type=Path, help="another checkout with its .venv (paired A/B)"
    )
    args = parser.parse_args(argv)
    command = [
        "solve",
        str(args.puzzle.resolve()),
        "--backend",
        args.backend,
        "--time-limit",
        str(args.limit),
        "--workers",
        str(args.workers),
        "--plain",
    ]
    print(f"load {load()} at the start; {args.puzzle.name}, --backend {args.backend}")
    walls, cpus, ratios, solved = [], [], [], 0
    seeds = seeds_of(args.seeds)
    for seed in seeds:
        wall, cpu, status = run_once(ROOT, [*command, "--seed", str(seed)])
        solved += status.startswith("status: solved")
        walls.append(wall)
        cpus.append(cpu)
        line = f"seed {seed}: {wall:6.2f} s wall, {cpu:6.2f} s CPU  {status}"
        if args.baseline:
            b_wall, b_cpu, b_status = run_once(
                args.baseline.resolve(), [*command, "--seed", str(seed)]
            )
            ratios.append(wall / b_wall)
            line += (
                f"  | baseline {b_wall:6.2f} s wall, {b_cpu:6.2f} s CPU, A/B {wall / b_wall:.3f}"
            )
            line += f"  {b_status}"
        print(f"{line}  (load {load()})", flush=True)
    print(
        f"solved {solved} of {len(seeds)}; wall median {statistics.median(walls):.2f} s "
        f"(min {min(walls):.2f}, max {max(walls):.2f}); CPU median {statistics.median(cpus):.2f} s "
        f"(min {min(cpus):.2f}, max {max(cpus):.2f})"
    )
    if ratios:
        print(
            f"paired A/B of wall time: median {statistics.median(ratios):.3f} "
            f"(min {min(ratios):.3f}, max {max(ratios):.3f})"
        )
    print(f"load {load()} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
