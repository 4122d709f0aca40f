"""Where the exact search's time per node goes, by doing one step twice.

Each variant is a copy of ``solver/backends/search/kernel.py`` in which one step runs twice
per node (its result the same, so the tree is the same: the node counts must match); the
extra time per node is that step's cost. The proofs: the max-score memo searches of the
slow "no"s of ``benchmarks/endgame_checks.py --csv F`` (over ``--over`` seconds), one
worker, best of 3. Variants: ``base`` (the copy as it is), ``reach`` (:func:`_reach`:
flood, keys, pieces' scan, block bound), ``blockcap`` (the 2x2-block bound alone),
``attach`` (the scan for attach squares), ``memo`` (the memo's probe).

Usage: python -m research.benchmarks.kernel_profile --csv F [--over 0.1] [variant ...]
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from solver.backends.base import SolveOptions
from solver.backends.search import exact
from solver.backends.search import tables as search_tables
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.tasks.endgame import best_options

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "solver" / "backends" / "search" / "kernel.py"
GAMES = ROOT / "tests" / "data" / "games"


def _twice(source: str, line: str) -> str:
    if source.count(line) != 1:
        raise SystemExit(f"the kernel changed: {line.strip()!r} is not there once")
    return source.replace(line, line + line)


def variant(name: str) -> str:
    """The kernel's source with the step ``name`` done twice."""
    source = KERNEL.read_text()
    if name == "base":
        return source
    if name == "reach":
        start = source.index("                reach, unplaceable, rstp = _reach(")
        end = source.index("                deficit = remarea[c] - reach", start)
        return source[:start] + source[start:end] * 2 + source[end:]
    if name == "blockcap":
        start = source.index("        for r in range(rmask.shape[0]):\n")
        end = source.index("\n", source.index("        held = _block_cap(", start)) + 1
        return source[:start] + source[start:end] * 2 + source[end:]
    if name == "attach":
        scan = (
            "                    for i in range(nscan[c]):\n"
            "                        s = scan[c, i]\n"
            "                        if cornr[c, s] > 0 and bl[c, s] == 0:\n"
            "                            attach[na] = s\n"
            "                            na += 1\n"
        )
        again = "                    na = 0\n" + scan
        if source.count(scan) != 1:
            raise SystemExit("the kernel changed: the attach scan is not there once")
        return source.replace(scan, scan + again)
    if name == "memo":
        probe = " " * 20 + "i = _memo_slot(memo, code, st[S_H1], st[S_H2])\n"
        return _twice(source, probe)
    raise SystemExit(f"no variant {name!r}")


def load(name: str, folder: Path) -> ModuleType:
    path = folder / f"kernel_{name}.py"
    path.write_text(variant(name))
    spec = importlib.util.spec_from_file_location(f"kernel_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def proofs(table: Path, over: float) -> list[Problem]:
    with table.open() as f:
        rows = [r for r in csv.DictReader(f) if r["answer"] == "no" and float(r["seconds"]) > over]
    return [
        Problem(
            load_game(GAMES / r["game"]).position(int(r["after"])),
            (r["colour"],),
            "max-score",
            False,
        )
        for r in rows
    ]


def measure(core: ModuleType, problems: list[Problem]) -> tuple[int, float]:
    """(nodes, seconds: best of 3) of the max-score memo searches with kernel ``core``."""
    tuning = best_options(SolveOptions(backend="search")).tuning.search
    exact.core = core  # type: ignore[attr-defined]

    def one(problem: Problem) -> tuple[int, float]:
        search = search_tables.build(problem, core.MAXSCORE, tuning=tuning)
        exact._memo_on(search, tuning)
        started = time.perf_counter()
        while search.run(1 << 22) == core.PAUSE:
            pass
        return int(search.st[core.S_NODES]), time.perf_counter() - started

    one(problems[0])  # the compile
    best = float("inf")
    for _ in range(3):
        runs = [one(p) for p in problems]
        best = min(best, sum(t for _, t in runs))
    return sum(n for n, _ in runs), best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["base", "reach", "blockcap", "attach"])
    parser.add_argument("--csv", type=Path, required=True, help="benchmarks/endgame_checks.py rows")
    parser.add_argument("--over", type=float, default=0.1, help="seconds: a slow check")
    args = parser.parse_args(argv)
    problems = proofs(args.csv, args.over)
    with tempfile.TemporaryDirectory() as folder:
        for name in args.variants:
            nodes, seconds = measure(load(name, Path(folder)), problems)
            print(
                f"{name:<9} {len(problems)} proofs, {nodes} nodes, {seconds:.3f} s "
                f"(best of 3), {1e9 * seconds / nodes:.0f} ns a node",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
