"""Compiled playouts and NRPA on the asymmetric puzzles, against the repair search, one
thread each, at equal time.

Methods (``--methods``, comma-separated):

* ``speed``: plays per second of the compiled playout (:mod:`research.playout_kernel`)
  and of the NumPy greedy play (:func:`solver.backends.repair.greedy.greedy`), CPU and wall time.
* ``plain``: the best of repeated compiled playouts (zero policy) for ``--limit`` seconds.
* ``nrpaL`` (L = 1, 2, 3): NRPA at level L with ``--iters`` iterations per level and
  restarts (:class:`research.nrpa.Search`), for ``--limit`` seconds.
* ``nmcs``: nested Monte Carlo search level 1 over the ``--children`` likeliest moves of
  each turn, restarted until ``--limit`` seconds (its "playouts" column counts searches).
* ``repair``: one run of the repair search (``Repairer.run``) for ``--limit`` seconds.
  (``repair+playouts`` and ``repair+nrpa``, the repair search with its greedy play or its
  first layout from this module, were measured in turn 4 of
  research/notes/asymmetric_attempts.md; their hooks left the product with this module.)

Each row: puzzle, method, seed, squares left by the best state (0: solved; every solved
layout is checked by the rule checker), seconds to that best, playouts, and the 1-minute
load (``os.getloadavg``). The kernels are compiled before any clock starts.

Usage: python -m research.benchmarks.nrpa [--puzzles asym-ladder-k06,...] [--methods nrpa2,repair]
       [--seeds 0,1,2] [--limit 60] [--iters 30] [--plays 30] [--construct 15]
       [--bias 1.5,1.65,1.65]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

from research import nrpa
from research import playout_kernel as pk
from solver.backends.base import SolveOptions, order_and_check
from solver.backends.repair import greedy
from solver.backends.repair import repairer as repair
from solver.backends.tuning import RepairTuning
from solver.core.problem import Problem
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

ROOT = Path(__file__).resolve().parents[2]


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def warm() -> None:
    """Compile (or load) the search kernel and every playout function."""
    small = load_puzzle(ROOT / "puzzles" / "asym-ladder-k03.toml")
    solve(small, SolveOptions(backend="repair", time_limit=30, workers=1))
    pl = nrpa.playouts(small)
    run = nrpa.Search(pl, 0)
    run.plain(1)
    run.nested(2, np.zeros(pl.codes), 2, lambda: False)
    run.nmcs(2)


def speed(problem: Problem, plays: int) -> str:
    """Plays per second, compiled and NumPy."""
    pl = nrpa.playouts(problem)
    run = nrpa.Search(pl, 0)
    seq = np.empty(pk.MAX_SEQ, dtype=np.int64), np.empty(pk.MAX_SEQ, dtype=np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    pol = np.zeros(pl.codes)
    pk.best_of(pl.tables, pl.start, pol, run.params, run.stamp, plays, 1 << 30, *seq)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    todo = {
        c: [
            p
            for p in problem.position.colour(c).remaining
            if not (greedy.held_back(problem.position, c) and p == "1")
        ]
        for c in problem.colours
    }
    rng = np.random.default_rng(0)
    n = max(1, plays // 50)
    gcpu, gwall = time.process_time(), time.perf_counter()
    for _ in range(n):
        greedy.greedy(problem.position, problem.colours, todo, rng)
    gcpu, gwall = (time.process_time() - gcpu) / n, (time.perf_counter() - gwall) / n
    return (
        f"compiled {cpu / plays * 1e3:.2f} ms CPU ({plays / cpu:.0f} plays/s; wall "
        f"{wall / plays * 1e3:.2f} ms); NumPy greedy {gcpu * 1e3:.1f} ms CPU (wall "
        f"{gwall * 1e3:.1f} ms)"
    )


def run_nrpa(problem: Problem, level: int, args, seed: int) -> tuple[int, float, int]:
    pl = nrpa.playouts(problem)
    run = nrpa.Search(pl, seed, args.bias)
    ends = time.perf_counter() + args.limit
    stop = lambda: time.perf_counter() >= ends  # noqa: E731
    if level < 0:
        while run.best < pl.target and not stop():
            run.nmcs(args.children)
    else:
        run.run(level, args.iters if level else 100, stop)
    if run.best >= pl.target:
        assert run.best_seq is not None
        order_and_check(problem, pl.layout(*run.best_seq), "nrpa")
    return pl.target - run.best, run.trace[-1][0], run.playouts


def run_repair(problem: Problem, method: str, args, seed: int) -> tuple[int, float, int]:
    if method != "repair":
        raise SystemExit(
            f"{method}: the repair search's NRPA hooks were removed (see the docstring)"
        )
    tuning = RepairTuning()
    started = time.perf_counter()
    run = repair.Repairer(problem, seed, threading.Event(), started + args.limit, tuning)
    state = run.run()
    if state is not None:
        order_and_check(problem, run.layout(state), "repair")
    assert run.best is not None
    at = run.trace[-1][0] if run.trace else 0.0
    return run.best.cost, at, 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", default="asym-ladder-k06,asym-ladder-k09")
    parser.add_argument("--methods", default="nrpa2,repair")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--iters", type=int, default=nrpa.ITERATIONS)
    parser.add_argument("--plays", type=int, default=30)
    parser.add_argument("--children", type=int, default=30, help="nmcs: moves tried per turn")
    parser.add_argument("--construct", type=float, default=15.0)
    parser.add_argument("--bias", default=",".join(map(str, nrpa.PARAMS)))
    args = parser.parse_args(argv)
    args.bias = tuple(float(x) for x in args.bias.split(","))
    warm()
    print("| puzzle | method | seed | left | at s | playouts | load |")
    print("|---|---|---|---|---|---|---|")
    for name in args.puzzles.split(","):
        problem = load_puzzle(ROOT / "puzzles" / f"{name}.toml")
        for method in args.methods.split(","):
            if method == "speed":
                print(f"| {name} | speed | - | {speed(problem, 1000)} | | | {_load()} |")
                continue
            for seed in (int(s) for s in args.seeds.split(",")):
                if method.startswith("repair"):
                    left, at, plays = run_repair(problem, method, args, seed)
                else:
                    level = {"plain": 0, "nmcs": -1}.get(method)
                    if level is None:
                        level = int(method.removeprefix("nrpa"))
                    left, at, plays = run_nrpa(problem, level, args, seed)
                row = f"| {name} | {method} | {seed} | {left} | {at} | {plays} | {_load()} |"
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
