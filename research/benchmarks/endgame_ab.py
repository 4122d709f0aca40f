"""A/B timing of the endgame check over ../shared/data's games every 20th placement, in
one process; prints the cases, the yes answers and the seconds (start-up left out).

Usage: python -m research.benchmarks.endgame_ab WORKERS BACKEND   (e.g. 1 search)
"""

from __future__ import annotations

import sys
import time

from research.benchmarks._shared_cases import cases
from solver.backends.base import SolveOptions
from solver.tasks.endgame import endgame_check


def main() -> None:
    options = SolveOptions(backend=sys.argv[2], workers=int(sys.argv[1]), time_limit=10)
    questions = cases()
    endgame_check(*questions[0], options)  # the kernel loaded
    started, yes = time.perf_counter(), 0
    for position, colour in questions:
        yes += endgame_check(position, colour, options).answer == "yes"
    print(len(questions), "cases", yes, "yes", round(time.perf_counter() - started, 3), "s")


if __name__ == "__main__":
    main()
