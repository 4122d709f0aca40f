"""A/B timing of a benchmark's start-up: the imports, reading ../shared/data's games
(every 20th placement) and the first endgame check (the numba cache loaded).

Usage: python -m research.benchmarks.startup_ab
"""

from __future__ import annotations

import time

began = time.perf_counter()
from research.benchmarks._shared_cases import cases  # noqa: E402 (timed)
from solver.backends.base import SolveOptions  # noqa: E402
from solver.tasks.endgame import endgame_check  # noqa: E402

imported = time.perf_counter()
questions = cases()
read = time.perf_counter()
endgame_check(*questions[0], SolveOptions(backend="search", workers=1, time_limit=10))
first = time.perf_counter()
print(f"import {imported - began:.3f} load {read - imported:.3f} first {first - read:.3f}")
