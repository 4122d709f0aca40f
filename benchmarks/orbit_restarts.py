"""The exact search's symmetric reduction of the 84-piece solo puzzle, search alone.

One thread, in this process: the reduction under a group (``--group``, an index into
:func:`solver.core.colour_symmetry.colour_symmetries`, 0 the quarter turn) is built once,
then for each seed the restarted search of :func:`solver.backends.search.symmetric.solve_symmetric`
runs (run k: value order of seed (S, 0, k), ``--base`` x luby(k) nodes) until a layout,
or ``--cap`` seconds. Each setting (``--settings``, a list of ``name=value,...``: ``base``,
``strong``, ``blocks``, ``late``, ``order``) prints the seconds per seed, the median and the
worst, how many seeds hit the cap and the mean nodes: the spread that restarts and value
orders trade (figures: docs/benchmarks.md, issue 35). No rule checker here: it measures the
search; the whole command is ``benchmarks/solo_84.py``.

Usage: python benchmarks/orbit_restarts.py [--puzzle FILE] [--seeds 0-15] [--cap 10]
       [--group 0] [--settings "base=200" "base=50" "base=200,strong=0"]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.backends import driver  # noqa: E402
from solver.backends.search import kernel as core  # noqa: E402
from solver.backends.search import symmetric as search_symmetric  # noqa: E402
from solver.backends.search import tables as search_tables  # noqa: E402
from solver.core.colour_symmetry import colour_symmetries  # noqa: E402
from solver.core.problem import Problem  # noqa: E402
from solver.formats.puzzle import load_puzzle  # noqa: E402

SLOTS = {"strong": core.P_STRONG, "blocks": core.P_BLOCKS, "late": core.P_LATE}
SLOTS["order"] = core.P_ORDER


def seeds_of(text: str) -> list[int]:
    """'0-15' -> 0..15; '1,5,7' -> [1, 5, 7]."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def one_seed(root: search_tables.ExactSearch, seed: int, setting: dict[str, int], cap: float):
    """(seconds to the first layout, inf at the cap; nodes) of one seed's restarts."""
    started = time.perf_counter()
    nodes, k = 0, 0
    while time.perf_counter() - started < cap:
        k += 1
        search = root.reordered((seed, 0, k))
        for name, slot in SLOTS.items():
            if name in setting:
                search.params[slot] = setting[name]
        budget = setting.get("base", search_symmetric.SYMMETRIC_RUN_NODES) * driver.luby(k)
        code = driver.sliced_run(search, started + cap - time.perf_counter(), nodes=budget)
        nodes += search.nodes
        if code == core.FOUND:
            return time.perf_counter() - started, nodes
        if code == core.DONE:
            break  # (no layout under this group)
    return float("inf"), nodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", type=Path, default=ROOT / "puzzles" / "classic-solo-84.toml")
    parser.add_argument("--seeds", default="0-15")
    parser.add_argument("--cap", type=float, default=10.0, help="seconds per seed")
    parser.add_argument("--group", type=int, default=0)
    parser.add_argument("--settings", nargs="+", default=["base=200"])
    args = parser.parse_args(argv)
    problem = load_puzzle(args.puzzle)
    symmetry = colour_symmetries(problem)[args.group]
    reduced = Problem(
        problem.position, symmetry.representatives, "place-all", problem.monomino_last
    )
    root = search_tables.build(reduced, core.FIND, symmetry=symmetry)
    root.reordered((0, 0, 0)).run(1)  # (the kernel from numba's cache, not timed)
    print(f"{args.puzzle.name}, {symmetry.name}: {len(root.tables.pl_sq)} placements")
    for text in args.settings:
        setting = {k: int(v) for k, v in (item.split("=") for item in text.split(","))}
        runs = [one_seed(root, s, setting, args.cap) for s in seeds_of(args.seeds)]
        times = [t for t, _ in runs]
        print(
            f"{text}: median {statistics.median(times):.2f} s, worst {max(times):.2f} s, "
            f"{sum(t == float('inf') for t in times)} at the cap, mean nodes "
            f"{statistics.mean(n for _, n in runs):.0f} | " + " ".join(f"{t:.2f}" for t in times),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
