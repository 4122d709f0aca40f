"""Warm starts against today's start (greedy play), side by side, on positions without a
history: the ladder puzzles (``puzzles/asym-ladder-k06`` ... ``k15``) and positions of
simulated solo games.

Each position is solved as ``blokus-solo solve`` does it (backend auto, 2 workers, every
yes re-checked by the rule checker inside :func:`solver.tasks.solve.solve`), once with the
repair search's plain greedy starts ("cold") and once with the warm start from the
library (:func:`solver.library.layouts.best_start`, "warm": ``RepairTuning.warm_start``).

Simulated solo games: the four colours play in turn on the Classic board by randomised
greedy play (:func:`solver.backends.repair.greedy.greedy`: each move one of the colour's largest
pieces left, placed where it opens the most corners for its colour and blocks the fewest
of the others', with Gumbel noise; the monomino held back), seeded per game; the
position after 20, 30, 40 placements (round-robin order) is asked "can all four still
place everything?".

Usage: python benchmarks/warm_start.py [--ladder-limit 60] [--games 10]
       [--after 20,30,40] [--game-limit 10] [--starts cold,warm] [--skip-ladder]
       [--skip-games] [--seed 0] [--out results/warm_start.md]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

from solver.backends.base import SolveOptions
from solver.backends.repair.greedy import greedy, held_back
from solver.backends.tuning import RepairTuning, Tuning
from solver.core.pieces import MONOMINO
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import VARIANTS
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

ROOT = Path(__file__).resolve().parents[1]

LADDER = (6, 9, 12, 15)


def simulated(seed: int, after: int) -> Position:
    """The Classic position after ``after`` placements of a simulated solo game."""
    empty = Position.empty(VARIANTS["classic"])
    colours = empty.colour_names
    todo = {c: list(empty.colour(c).remaining) for c in colours}
    for c in colours:
        if held_back(empty, c):
            todo[c].remove(MONOMINO)
    placed, _ = greedy(empty, colours, todo, np.random.default_rng(seed))
    position, k = empty, 0
    for turn in range(21):
        for c in colours:
            if k == after:
                return position
            if turn < len(placed[c]):
                position = position.with_placement(c, placed[c][turn])
                k += 1
    return position


def run(problem: Problem, start: str, limit: float, seed: int) -> dict:
    """One solve; its row."""
    tuning = Tuning(repair=RepairTuning(warm_start=start == "warm"))
    options = SolveOptions(time_limit=limit, seed=seed, tuning=tuning)
    started = time.perf_counter()
    result = solve(problem, options)
    seconds = time.perf_counter() - started
    short = result.short()
    left = sum(len(v) for v in short.values()) if result.partial is not None else None
    return {
        "status": result.status,
        "seconds": seconds,
        "backend": result.backend,
        "pieces_left": left,
    }


def _cell(row: dict) -> str:
    mark = {"solved": "yes", "infeasible": "no", "unknown": "unknown"}.get(row["status"], "?")
    text = f"{mark} {row['seconds']:.1f} s"
    if row["status"] == "unknown" and row["pieces_left"] is not None:
        text += f" ({row['pieces_left']} left)"
    return text


def _summary(rows: list[dict], limit: float) -> str:
    solved = [r for r in rows if r["status"] != "unknown"]
    times = sorted(r["seconds"] if r["status"] != "unknown" else limit for r in rows)
    return (
        f"{len(solved)}/{len(rows)} answered, {len(rows) - len(solved)} unknown, "
        f"median {statistics.median(times):.1f} s"
    )


def _line(
    name: str, problem: Problem, starts: list[str], limit: float, per: dict, seed: int
) -> str:
    """Solve ``problem`` once per start; its table line (rows noted in ``per``)."""
    cells = []
    for s in starts:
        row = run(problem, s, limit, seed)
        per[s].append(row)
        cells.append(_cell(row))
    print(f"{name}: {' | '.join(cells)}", flush=True)
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ladder-limit", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--after", default="20,30,40")
    parser.add_argument("--game-limit", type=float, default=10.0)
    parser.add_argument("--starts", default="cold,warm")
    parser.add_argument("--seed", type=int, default=0, help="the solver's seed")
    parser.add_argument("--skip-ladder", action="store_true")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "warm_start.md")
    args = parser.parse_args()
    starts = args.starts.split(",")
    lines = [
        f"# Warm starts against greedy starts ({time.strftime('%Y-%m-%d %H:%M')}, auto, "
        f"2 workers, seed {args.seed})",
        "",
        f"load at start: `{os.getloadavg()}`",
        "",
    ]
    if not args.skip_ladder:
        lines += [f"## Ladder (cold puzzles, limit {args.ladder_limit:g} s)", ""]
        lines += ["| rung | " + " | ".join(starts) + " |", "|---|" + "---|" * len(starts)]
        per: dict[str, list[dict]] = {s: [] for s in starts}
        for k in LADDER:
            problem = load_puzzle(ROOT / "puzzles" / f"asym-ladder-k{k:02d}.toml")
            lines.append(_line(f"k{k:02d}", problem, starts, args.ladder_limit, per, args.seed))
        lines += [""] + [f"- {s}: {_summary(per[s], args.ladder_limit)}" for s in starts] + [""]
    if not args.skip_games:
        afters = [int(a) for a in args.after.split(",")]
        lines += [f"## Simulated solo games (limit {args.game_limit:g} s)", ""]
        for after in afters:
            lines += [f"### after {after} placements", ""]
            lines += ["| game | " + " | ".join(starts) + " |", "|---|" + "---|" * len(starts)]
            per = {s: [] for s in starts}
            for g in range(args.games):
                position = simulated(1000 + g, after)
                problem = Problem(position, position.colour_names, "place-all")
                lines.append(
                    _line(f"{g} after {after}", problem, starts, args.game_limit, per, args.seed)
                )
            lines += [""] + [f"- {s}: {_summary(per[s], args.game_limit)}" for s in starts]
            lines += [""]
    lines += [f"load at end: `{os.getloadavg()}`", ""]
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
