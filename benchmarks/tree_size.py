"""How large is the domain search's whole tree on each record board? Knuth's estimator
(:func:`solver.backends.domain.quadrants.estimate`): random root-to-leaf paths through the very
tree :meth:`DomainSearch.run` searches (the same candidates and prunes), each giving an
unbiased estimate d_1 + d_1 d_2 + ... of its nodes.

The estimates are heavy-tailed, so each symmetry gets ``--batches`` independent batches of
``--probes`` paths and the line lists every batch's log10 estimate: their spread shows the
error (and, with few probes, still understates it: a batch's mean tends to fall below the
true mean). The line ends with what a complete search of the tree (which a proof that no
layout with this symmetry exists would take) costs at the median estimate and 300,000
nodes a second on one core (the kernel runs 200,000-630,000). Figures:
research/notes/record_attempts.md.

Usage: python benchmarks/tree_size.py puzzles/records/four-21x17.toml --probes 5000
       python benchmarks/tree_size.py puzzles/records/*.toml
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from solver.backends.domain import quadrants as domain
from solver.errors import InputError
from solver.formats.puzzle import load_puzzle

#: nodes a second on one core, the nominal rate for the cost of a complete search
RATE = 300_000


def measure(path: Path, probes: int, batches: int) -> None:
    """Print one line per symmetry the domain search takes for the puzzle at ``path``."""
    try:
        problem = load_puzzle(path)
        domain.check_problem(problem)
        symmetries = domain.symmetries(problem)
    except InputError as err:
        print(f"{path.stem:20s} not for the domain search: {err}")
        return
    for sym in symmetries:
        search = domain.build(problem, sym)
        started = time.perf_counter()
        logs, layouts = [], 0.0
        for batch in range(batches):
            est = domain.estimate(search, probes, seed=batch + 1)
            logs.append(np.log10(est.nodes) if est.nodes > 0 else float("-inf"))
            layouts += est.layouts / batches
        seconds = time.perf_counter() - started
        years = 10 ** float(np.median(logs)) / RATE / (365.25 * 86400)
        print(
            f"{path.stem:20s} {sym.name:45s} depth {search.stats['depth']:2d}  log10 nodes "
            f"per batch: {' '.join(f'{x:5.1f}' for x in logs)}  layouts {layouts:.2g}  "
            f"complete search {years:.2g} core-years  ({batches} x {probes} probes, "
            f"{seconds:.0f} s)",
            flush=True,
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", type=Path)
    parser.add_argument("--probes", type=int, default=2000, help="paths per batch")
    parser.add_argument("--batches", type=int, default=5)
    args = parser.parse_args(argv)
    for path in args.puzzles:
        measure(path, args.probes, args.batches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
