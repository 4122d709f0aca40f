"""Where the max-score memo proofs of the slow endgame checks branch: in a reach of one part,
in its largest part, or in a smaller one (issue 35, attempt 19 in docs/benchmarks.md).

A dynamic program over the reach's parts (each part's piece sets found once, combined as
disjoint sets) would replace the nodes branching in the parts other than the largest by
set operations; this counts them. It runs a copy of the kernel (as
:mod:`research.benchmarks.kernel_profile` does) that counts, at each node with a branching
square, into the state's ``cand`` array (unused in max-score): [one part, the largest part,
a smaller part].

    python -m research.benchmarks.endgame_parts_probe ROWS.csv [--over 0.1]

``ROWS.csv``: ``benchmarks/endgame_checks.py --csv`` output; the "no"s over ``--over``
seconds are probed.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from research.benchmarks import kernel_profile
from solver.backends.base import SolveOptions
from solver.backends.search import exact
from solver.backends.search import tables as search_tables
from solver.tasks.endgame import best_options

_COUNT = """            if best_c >= 0 and mode == MAXSCORE and na > 0:
                largest = 0
                one = True
                first_part = dlab[attach[0]]
                for i in range(na):
                    size = dsz[dlab[attach[i]]]
                    if size > largest:
                        largest = size
                    if dlab[attach[i]] != first_part:
                        one = False
                if one:
                    cand[0, 0] += 1
                elif best_sz == largest:
                    cand[0, 1] += 1
                else:
                    cand[0, 2] += 1
"""


def counting_kernel(folder: Path) -> ModuleType:
    """The kernel with the count inserted before its step S2."""
    source = kernel_profile.KERNEL.read_text()
    anchor = "            # S2. [Decide.]\n"
    if source.count(anchor) != 1:
        raise SystemExit("the kernel changed: step S2 is not there once")
    path = folder / "kernel_parts.py"
    path.write_text(source.replace(anchor, _COUNT + anchor))
    spec = importlib.util.spec_from_file_location("kernel_parts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", type=Path, help="benchmarks/endgame_checks.py rows")
    parser.add_argument("--over", type=float, default=0.1, help="seconds: a slow check")
    args = parser.parse_args(argv)
    tuning = best_options(SolveOptions(backend="search")).tuning.search
    with tempfile.TemporaryDirectory() as folder:
        core = counting_kernel(Path(folder))
        exact.core = core  # type: ignore[attr-defined]
        total = [0, 0, 0]
        for problem in kernel_profile.proofs(args.csv, args.over):
            search = search_tables.build(problem, core.MAXSCORE, tuning=tuning)
            parts = search_tables.components(search)[1]
            exact._memo_on(search, tuning)
            while search.run(1 << 22) == core.PAUSE:
                pass
            counts = [int(x) for x in search.state.cand[0, :3]]
            total = [a + b for a, b in zip(total, counts)]
            print(
                f"{problem.colours[0]:<7} {parts} parts at the root, "
                f"{int(search.st[core.S_NODES])} nodes: one part {counts[0]}, "
                f"the largest {counts[1]}, a smaller one {counts[2]}",
                flush=True,
            )
    print(f"in all: one part {total[0]}, the largest {total[1]}, a smaller one {total[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
