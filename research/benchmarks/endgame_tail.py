"""The slow endgame checks of the real games (issue 35 item 2): what their time is made of,
and the attempts measured on them (docs/benchmarks.md, issue 35).

The checks: those of ``benchmarks/endgame_checks.py --csv F`` that answered "no" and took
over ``--over`` seconds (or every "no" when no CSV is given: slow). For each, one line:

* ``split``: place-all and max-score by the search (one worker), nodes and seconds, the
  root bound of the max-score search, the best and the "no" cap.
* ``incumbent``: the memo search of the best with its incumbent set to the optimum - 1
  (the best known in advance), nodes against the search from scratch.
* ``pockets``: each root pocket's best alone (every piece allowed), and their sum as a
  bound, against the best.
* ``overlap``: the check as ``check`` runs it (place-all, then the best) against the
  best's proof alone, one worker (attempt 13: the best's proof beside place-all, which it
  proves too).
(Attempt 12, part caps at every node, changed the kernel: its patch against 5d50942 is
``research/notes/patches/endgame_attempt12_part_caps.diff``.)
(``orders``, the root pockets' order of the memo before it keyed every node, was attempt 5
of docs/benchmarks.md; the memo now fills the smallest part of the reach first at every
node, so there is no root order left to change.)

Usage: python -m research.benchmarks.endgame_tail split|incumbent|pockets|overlap
       [--csv F] [--over 0.1]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from solver.backends import driver
from solver.backends.base import SolveOptions
from solver.backends.search import exact
from solver.backends.search import kernel as core
from solver.backends.search import tables as search_tables
from solver.backends.warmup import compile_kernel
from solver.core.position import Position
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.tasks.endgame import best_options, endgame_check, no_bound

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "data" / "games"
ONE = SolveOptions(backend="search", workers=1)


def slow_noes(table: Path | None, over: float) -> Iterator[tuple[str, int, str, Position]]:
    """(game, placements, colour, position) of the slow "no"s."""
    if table is not None:
        with table.open() as f:
            for row in csv.DictReader(f):
                if row["answer"] == "no" and float(row["seconds"]) > over:
                    game, after = row["game"], int(row["after"])
                    yield game, after, row["colour"], load_game(GAMES / game).position(after)
        return
    for path in sorted(GAMES.glob("*.blksgf")):
        game = load_game(path)
        for after in range(10, game.num_placements + 1, 10):
            position = game.position(after)
            for state in position.colours:
                if state.remaining and endgame_check(position, state.name).answer == "no":
                    yield path.name, after, state.name, position


def timed(problem: Problem, options: SolveOptions = ONE) -> tuple[str, int | None, int, float]:
    started = time.perf_counter()
    result = exact.solve(problem, options)
    return result.status, result.bound, result.stats["nodes"], time.perf_counter() - started


def memo_search(problem: Problem, incumbent: int | None = None) -> tuple[int, int, int]:
    """The max-score memo search run to the end: (nodes, best, root bound)."""
    tuning = ONE.tuning.search
    built = search_tables.build(problem, core.MAXSCORE, tuning=tuning)
    search = built
    if exact._memo_applies(search):
        exact._memo_on(search, tuning)
    if incumbent is not None:
        search.st[core.S_BEST] = incumbent - search.constant_score
    driver.sliced_run(search, None, time.perf_counter(), None)
    best = int(search.st[core.S_BEST]) + search.constant_score
    return int(search.st[core.S_NODES]), best, int(search.st[core.S_ROOTUB])


def pocket_bests(problem: Problem) -> tuple[list[int], list[int]]:
    """(sizes of the root pockets, squares each one's best alone places)."""
    tuning = ONE.tuning.search
    rank, k = search_tables.components(search_tables.build(problem, core.MAXSCORE, tuning=tuning))
    area = problem.position.colour(problem.colours[0]).remaining_squares
    placed = []
    for j in range(k):
        alone = search_tables.build(problem, core.MAXSCORE, tuning=tuning)
        alone.state.bl[0, rank != j] += 1  # every square outside pocket j blocked
        driver.sliced_run(alone, None, time.perf_counter(), None)
        placed.append(area + int(alone.st[core.S_BEST]))
    return np.bincount(rank[rank >= 0]).tolist(), placed


def line(kind: str, colour: str, position: Position) -> str:
    place_all = Problem(position, (colour,), "place-all", False)
    best = Problem(position, (colour,), "max-score", False)
    if kind == "split":
        status, _, nodes, seconds = timed(place_all)
        _, optimum, best_nodes, best_seconds = timed(best)
        root = memo_search(best)[2]
        return (
            f"place-all {status} {nodes} nodes {seconds:.3f} s; best {optimum} (cap "
            f"{no_bound(position, colour)}) {best_nodes} nodes {best_seconds:.3f} s; "
            f"root bound {root}"
        )
    if kind == "incumbent":
        nodes, optimum, _ = memo_search(best)
        known, _, _ = memo_search(best, optimum - 1)
        return f"best {optimum}: {nodes} nodes from scratch, {known} knowing it"
    if kind == "pockets":
        sizes, placed = pocket_bests(best)
        area = position.colour(colour).remaining_squares
        bound = min(area, sum(placed)) - area
        return f"best {memo_search(best)[1]}; pockets {sizes} place {placed}: bound {bound}"
    if kind == "overlap":
        started = time.perf_counter()
        endgame_check(position, colour)
        check = time.perf_counter() - started
        _, optimum, _, alone = timed(best, best_options(ONE))
        return f"check {check:.3f} s; the best's proof alone {alone:.3f} s (best {optimum})"
    raise ValueError(kind)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["split", "incumbent", "pockets", "overlap"])
    parser.add_argument("--csv", type=Path, help="the rows of benchmarks/endgame_checks.py")
    parser.add_argument("--over", type=float, default=0.1, help="seconds: a slow check")
    args = parser.parse_args(argv)
    compile_kernel(("search",))
    for game, after, colour, position in slow_noes(args.csv, args.over):
        print(f"{game:<30} {after:>3} {colour:<7} {line(args.kind, colour, position)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
