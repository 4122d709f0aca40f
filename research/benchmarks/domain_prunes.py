"""The design measurements of the fundamental-domain search (``--backend domain``): each
choice against its alternative on random small problems, nodes to the first layout.

* ``dead ROWS COLS``: two colours (blue and red from opposite corners) under the half
  turn, each colour a random piece set (with the monomino) that fills its half of the
  board but ``--holes`` orbits; the search with and without the dead-square prune.
* ``domain ROWS COLS``: four colours under the half turn on an odd x odd board (the centre
  stays empty, so no rectangle is a fundamental domain), each colour a random piece set
  filling a quarter of the other squares; the narrower part of the board as the domain
  (what the search does) against the top part (each orbit's first square in row-major
  order: what it did before).
* ``scan ROWS COLS``: the same problems; the narrow part scanned row by row from its top
  (what the search does: one start corner first, the other last) against "outside-in"
  (rows 0, R-1, 1, R-2, ...: both start corners first, two scan fronts meeting in the
  middle). Tried and not kept (research/notes/record_attempts.md).

Each variant runs seeds 1..``--seeds`` once, with at most ``--budget`` nodes and no
restarts; every layout goes through the rule checker. The line per variant lists the
nodes to the first layout (None: none within the budget; X: the tree exhausted, no
symmetric layout) and the kernel's seconds. Figures: research/notes/record_attempts.md.

Usage: python -m research.benchmarks.domain_prunes dead 8 12 --pieces-seed 1
       python -m research.benchmarks.domain_prunes domain 11 7 --pieces-seed 2 --budget 1000000
       python -m research.benchmarks.domain_prunes scan 11 7 --pieces-seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from research.records import CORNER_COLOURS, corner_problem
from solver.backends.base import order_and_check
from solver.backends.domain import kernel as core
from solver.backends.domain import quadrants as domain
from solver.core.colour_symmetry import colour_symmetries
from solver.core.pieces import PIECE_NAMES, PIECES
from solver.core.problem import Problem


def _piece_set(area: int, rng: random.Random) -> list[str]:
    """A random set of distinct pieces, the monomino among them, of ``area`` squares."""
    while True:
        chosen = [n for n in PIECE_NAMES if rng.random() < area / 89]
        if sum(PIECES[n].size for n in chosen) == area and "1" in chosen:
            return chosen


def _problem(colours: tuple[str, ...], rows: int, cols: int, area: int, seed: int) -> Problem:
    chosen = _piece_set(area, random.Random(seed))
    print(f"{rows}x{cols}, {len(colours)} colours, each: {' '.join(chosen)}", flush=True)
    without = tuple(n for n in PIECE_NAMES if n not in chosen)
    return corner_problem(rows, cols, colours, without=without)


def _measure(problem: Problem, label: str, seeds: int, budget: int, **build) -> None:
    sym = next(s for s in colour_symmetries(problem) if s.name == "half turn")
    found: list[int | str | None] = []
    seconds = 0.0
    for seed in range(1, seeds + 1):
        search = domain.build(problem, sym, seed, **build)
        started = time.perf_counter()
        code = search.run(budget)
        seconds += time.perf_counter() - started
        if code == core.FOUND:
            order_and_check(problem, search.layout(), "domain")  # raises if illegal
        found.append(search.nodes if code == core.FOUND else "X" if code == core.DONE else None)
    print(f"{label:10s} {found}  kernel {seconds:.1f} s", flush=True)


def dead(args) -> None:
    area = args.rows * args.cols // 2 - args.holes
    problem = _problem(("blue", "red"), args.rows, args.cols, area, args.pieces_seed)
    for on in (True, False):
        _measure(problem, "dead" if on else "no dead", args.seeds, args.budget, dead=on)


def domain_part(args) -> None:
    if args.rows % 2 == 0 or args.cols % 2 == 0:
        raise SystemExit("domain: both sides odd (the centre is fixed)")
    area = (args.rows * args.cols - 1) // 4
    problem = _problem(CORNER_COLOURS, args.rows, args.cols, area, args.pieces_seed)
    narrow = domain._narrowest_reps
    try:
        _measure(problem, "narrow", args.seeds, args.budget)
        # benchmark only: the search as it was, the top part
        domain._narrowest_reps = lambda board, smallest, whole, names: names.astype(np.int32)
        _measure(problem, "top", args.seeds, args.budget)
    finally:
        domain._narrowest_reps = narrow


def scan_order(args) -> None:
    if args.rows % 2 == 0 or args.cols % 2 == 0:
        raise SystemExit("scan: both sides odd (the centre is fixed)")
    area = (args.rows * args.cols - 1) // 4
    problem = _problem(CORNER_COLOURS, args.rows, args.cols, area, args.pieces_seed)
    _measure(problem, "rows", args.seeds, args.budget, scan="rows")
    # benchmark only: the rows from both ends towards the middle
    domain.SCANS["outside-in"] = lambda r, c, rows, cols: (
        (np.minimum(r, rows - 1 - r) * 2 + (2 * r >= rows)) * cols + c
    )
    try:
        _measure(problem, "outside-in", args.seeds, args.budget, scan="outside-in")
    finally:
        del domain.SCANS["outside-in"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, budget in (("dead", 3_000_000), ("domain", 1_000_000), ("scan", 1_000_000)):
        p = sub.add_parser(name)
        p.add_argument("rows", type=int)
        p.add_argument("cols", type=int)
        p.add_argument("--seeds", type=int, default=6, help="search seeds 1..N")
        p.add_argument("--budget", type=int, default=budget, help="nodes per seed")
        p.add_argument("--pieces-seed", type=int, default=1, help="draws the piece sets")
        if name == "dead":
            p.add_argument("--holes", type=int, default=1, help="empty orbits")
    args = parser.parse_args(argv)
    {"dead": dead, "domain": domain_part, "scan": scan_order}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
