"""Asymmetric many-colour puzzles: the repair backend against plain CP-SAT and the
symmetric reduction, in one run.

Instances (``puzzles/asym-*.toml``, written by ``--write-puzzles`` from the verified
84-piece layout ``results/classic-solo-84.json``; the blocked boards are fixed by hand):

* ``asym-ladder-kNN``: that layout with the last k, k+1, k+2, k+3 placements of blue,
  yellow, red, green taken off (a different number per colour, so no board symmetry maps
  the position onto itself); place all remaining pieces of all four colours. Feasible by
  construction. k = 3, 6, 9, 12, 15, 18.
* ``asym-classic-84``: the empty Classic board, all 84 pieces (monomino anywhere).
* ``classic-solo-84``: the same with every monomino last (the shipped puzzle).
* ``asym-blocked-N``: the Classic board with 4 blocked squares placed so that no board
  symmetry applies; all 84 pieces.
* ``duo-both``: Duo, both colours, all 42 pieces from e10 and j5.
* ``trigon-solo-88``: Blokus Trigon's solo, all 88 pieces, each monomino last (issue 43:
  the repair search against the symmetric backend, which runs the exact search's
  reduction alone there).

``--puzzle FILE`` (repeatable) runs those puzzle files instead (e.g. Trigon Three-Player's
three colours from the empty board).

Each instance runs with ``--seeds`` seeds per method (``solve`` as the command does it:
backend, checks and all) and a time limit; the table (median, worst, solved count per
method) goes to standard output and ``--out`` (default ``results/asymmetric.md``).
Every layout is checked by the rule checker inside :func:`solver.tasks.solve.solve`.

Usage: python benchmarks/asymmetric.py [--seeds 5] [--limit 60] [--workers 2]
       [--methods repair,cpsat,symmetric,auto] [--only PATTERN] [--puzzle FILE ...]
       [--out FILE]
       python benchmarks/asymmetric.py --write-puzzles
"""

from __future__ import annotations

import argparse
import fnmatch
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from solver.answers.solution import read_solution
from solver.backends.base import SolveOptions
from solver.backends.registry import backend
from solver.core.position import Position, sorted_pieces
from solver.core.problem import Problem
from solver.core.variants import COLOUR_LETTERS
from solver.errors import InputError
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

ROOT = Path(__file__).resolve().parents[1]

PUZZLES = ROOT / "puzzles"
LADDER = (3, 6, 9, 12, 15, 18)


def ladder_position(k: int) -> Position:
    """The verified 84-piece layout with the last k + i placements of the i-th colour
    (blue, yellow, red, green) taken off."""
    solution = read_solution(ROOT / "results" / "classic-solo-84.json")
    colours = []
    for i, state in enumerate(solution.empty.colours):
        placements = solution.replay[state.name]
        cut = len(placements) - (k + i)
        colours.append(
            replace(
                state,
                placed=tuple(placements[:cut]),
                remaining=sorted_pieces(p.piece for p in placements[cut:]),
            )
        )
    return replace(solution.empty, colours=tuple(colours))


def diagram(position: Position) -> str:
    """The position as a puzzle diagram (rows top to bottom)."""
    board = position.board
    grid = [["." for _ in range(board.cols)] for _ in range(board.rows)]
    for s in board.blocked:
        r, c = board.row_col(s)
        grid[r][c] = "#"
    for state in position.colours:
        for s in state.squares:
            r, c = board.row_col(s)
            grid[r][c] = COLOUR_LETTERS[state.name]
    return "\n".join("".join(row) for row in grid)


def write_puzzles() -> None:
    """Write ``puzzles/asym-ladder-kNN.toml`` (one per rung of :data:`LADDER`)."""
    for k in LADDER:
        position = ladder_position(k)
        missing = [len(c.remaining) for c in position.colours]
        text = (
            f'title = "Asymmetric completion: {sum(missing)} pieces missing '
            f'({", ".join(map(str, missing))}) from a verified 84-piece layout"\n'
            'description = """\n'
            "results/classic-solo-84.json with the last "
            f"{k}, {k + 1}, {k + 2}, {k + 3} placements of blue, yellow, red, green taken\n"
            "off: no board symmetry maps the position onto itself. Place all remaining "
            'pieces of all four colours\n(feasible by construction)."""\n'
            f'source = "benchmarks/asymmetric.py --write-puzzles (k = {k})"\n'
            'variant = "classic"\n'
            'colours = ["blue", "yellow", "red", "green"]\n'
            'goal = "place-all"\n'
            f'diagram = """\n{diagram(position)}\n"""\n'
        )
        path = PUZZLES / f"asym-ladder-k{k:02d}.toml"
        path.write_text(text, encoding="utf-8")
        check = load_puzzle(path)
        assert [len(check.position.colour(c).remaining) for c in check.colours] == missing
        print(f"wrote {path.relative_to(ROOT)}")


def instances(pattern: str) -> list[Path]:
    names = [f"asym-ladder-k{k:02d}.toml" for k in LADDER] + [
        "asym-classic-84.toml",
        "classic-solo-84.toml",
        "asym-blocked-1.toml",
        "asym-blocked-2.toml",
        "asym-blocked-3.toml",
        "duo-both.toml",
        "trigon-solo-88.toml",
    ]
    return [
        PUZZLES / n
        for n in names
        if fnmatch.fnmatch(n, pattern) or fnmatch.fnmatch(n.removesuffix(".toml"), pattern)
    ]


def applies(method: str, problem: Problem) -> bool:
    """Whether a method can run on a problem (its registry record's checks: the board's
    grid, and for symmetric a colour symmetry, on Trigon under some assignment of the
    shared starting points)."""
    try:
        backend(method).check(problem)
    except InputError:
        return False
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--methods", default="repair,cpsat,symmetric")
    parser.add_argument("--only", default="*", help="glob over the puzzle file names")
    parser.add_argument("--puzzle", type=Path, action="append", help="these puzzle files")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "asymmetric.md")
    parser.add_argument("--write-puzzles", action="store_true")
    args = parser.parse_args(argv)
    if args.write_puzzles:
        write_puzzles()
        return 0
    methods = args.methods.split(",")
    paths = args.puzzle or instances(args.only)
    if not paths:
        print(f"no instance matches --only {args.only!r}", file=sys.stderr)
        return 2
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"# Asymmetric puzzles ({time.strftime('%Y-%m-%d %H:%M')}; {args.workers} workers, "
        f"{args.seeds} seeds, limit {args.limit:g} s per run)",
        "",
        f"load at start: `{load}`",
        "",
        "| puzzle | method | solved | median s | worst s | runs (status s) |",
        "|---|---|---|---|---|---|",
    ]
    for path in paths:
        problem = load_puzzle(path)
        for method in methods:
            if not applies(method, problem):
                lines.append(f"| {path.stem} | {method} | - | - | - | refused |")
                print(lines[-1], flush=True)
                continue
            times, solved, runs = [], 0, []
            for run in range(args.seeds):
                seed = run * args.workers  # symmetric and repair use seed .. seed + workers - 1
                options = SolveOptions(method, args.limit, args.workers, seed)
                result = solve(problem, options)
                ok = result.status == "solved"
                solved += ok
                # an unsolved run counts as the limit (a floor on its real time)
                times.append(result.wall_time if ok else max(result.wall_time, args.limit))
                runs.append(f"{result.status[0]} {result.wall_time:.1f}")
            lines.append(
                f"| {path.stem} | {method} | {solved}/{args.seeds} | "
                f"{statistics.median(times):.1f} | {max(times):.1f} | {', '.join(runs)} |"
            )
            print(lines[-1], flush=True)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    lines += ["", f"load at end: `{load}`", ""]
    lines.append("Unsolved runs count as the time limit in the median and worst columns.")
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
