"""A/B timing of the exact search alone (issue 43's square-grid specialisation): the
place-all question of every (position, colour) of ../shared/data's first 60 games every
20th placement, with the search backend, in one process; prints the cases, the seconds
(start-up left out) and the nodes.

Usage: python -m research.benchmarks.search_alone_ab [WORKERS]   (from the checkout)
"""

from __future__ import annotations

import sys
import time

from research.benchmarks._shared_cases import cases
from solver.backends.base import SolveOptions
from solver.backends.search import solve
from solver.core.problem import Problem


def main() -> None:
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    options = SolveOptions(backend="search", workers=workers, time_limit=10)
    problems = [Problem(p, (c,), "place-all", False) for p, c in cases(60)]
    solve(problems[0], options)  # the kernel loaded
    started, nodes = time.perf_counter(), 0
    for problem in problems:
        nodes += int(solve(problem, options).stats.get("nodes", 0) or 0)
    print(len(problems), "cases", round(time.perf_counter() - started, 3), "s", nodes, "nodes")


if __name__ == "__main__":
    main()
