"""The Trigon solo challenge by the exact search: all 88 pieces of the four colours on the
486-triangle board, each colour from a starting point of its own (issue 43, item 4).

Each run gives the colours their starting points (``--starts``, Pentobi names in turn
order blue, yellow, red, green) and runs the search (FIND, ``--monomino-last`` asks each
colour's single triangle last for the full bonus) with a time limit; a layout found is
checked by the rule checker (``solver.tasks.solve.solve`` does) and written as JSON.

With ``--backend repair`` the compiled repair search runs instead (it found the first
88-piece layout in about 2 s); ``--free-starts`` leaves the starting points to the
backend (the repair search draws an assignment by seed, the search tries each).

With ``--symmetric NAME`` (e.g. ``rot180``: the half turn, which swaps the colours on
opposite starting points) the search runs on that colour symmetry's reduction
(``solve_symmetric``: one colour per orbit of colours, restarts), which finds only layouts
the symmetry maps onto themselves.

Usage: python research/benchmarks/trigon_solo.py [--starts j12 z12 z7 j7] [--limit 120]
       [--seed 0] [--workers 1] [--monomino-last] [--colours 4] [--symmetric NAME]
       [--backend search|repair|auto] [--free-starts] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import time

from solver.backends.base import SolveOptions
from solver.backends.search import solve_symmetric
from solver.backends.search.starts import with_starts
from solver.core.colour_symmetry import colour_symmetries
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.tasks.solve import checked_result, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", nargs="+", default=["j12", "z12", "z7", "j7"])
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--colours", type=int, default=4)
    parser.add_argument("--monomino-last", action="store_true")
    parser.add_argument("--out", default="")
    parser.add_argument("--symmetric", default="")
    parser.add_argument("--backend", default="search", choices=["search", "repair", "auto"])
    parser.add_argument("--free-starts", action="store_true")
    args = parser.parse_args(argv)
    empty = Position.empty(ALL_VARIANTS["trigon"])
    colours = empty.colour_names[: args.colours]
    starts = {c: empty.board.parse(s) for c, s in zip(colours, args.starts)}
    problem = Problem(empty, colours, "place-all", args.monomino_last)
    if not args.free_starts:
        problem = with_starts(problem, starts)
    options = SolveOptions(
        backend=args.backend, time_limit=args.limit, seed=args.seed, workers=args.workers
    )
    started = time.perf_counter()
    if args.symmetric:
        groups = [g for g in colour_symmetries(problem) if g.name == args.symmetric]
        if not groups:
            names = [g.name for g in colour_symmetries(problem)]
            raise SystemExit(f"no colour symmetry {args.symmetric!r} here (there are: {names})")
        raw = solve_symmetric(problem, groups, options)
        result = checked_result(problem, raw, "symmetric", started)
    else:
        result = solve(problem, options)
    seconds = time.perf_counter() - started
    print(
        f"starts {'free' if args.free_starts else ' '.join(args.starts)} "
        f"seed {args.seed} colours {len(colours)} "
        f"monomino-last {args.monomino_last} symmetric {args.symmetric or '-'} "
        f"backend {args.backend}: "
        f"{result.status} in {seconds:.2f} s, "
        f"nodes {result.stats.get('nodes')}, steps {result.stats.get('steps', '-')}"
    )
    if result.layout is not None and args.out:
        layout = {
            c: [[p.piece, empty.board.names(p.squares)] for p in ps]
            for c, ps in result.layout.items()
        }
        with open(args.out, "w") as f:
            json.dump({"starts": args.starts, "seed": args.seed, "layout": layout}, f, indent=1)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
