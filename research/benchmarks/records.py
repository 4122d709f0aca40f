"""Record boards: the one-colour candidate rectangles and Gottfried's record puzzles.

Subcommands (each attempt prints one line: board, engine, status, seconds, nodes, and the
1-minute load average, since the machine's cores are shared; every layout goes through the
rule checker; one-colour layouts, and record layouts with ``record --save``, are written
as verified JSON to results/records/):

* ``bounds [--max-area A]``: the counting bounds of :mod:`research.records` for every
  rectangle of area at most A (default 169) that the area, neighbour and 2x2-block bounds
  leave, and which bound excludes it.
* ``one-colour [--max-area A] [--time-limit S] [--backend search]``: run a backend on each
  candidate the bounds leave (one colour, start in the top-left corner).
* ``record NAME [--time-limit S] [--seed N | --seeds N ...] [--engine tight|tight-symmetric|...]
  [--save]``: a record puzzle of ``puzzles/records/`` (or any puzzle file NAME.toml) with
  the square-first search (``tight-symmetric``: the symmetric reduction only) or any
  backend (``--engine domain``: Gottfried's quadrant method); its layouts are checked,
  and with ``--save`` a record puzzle's (one in a folder named ``records``) is written to
  results/records/NAME.json (the shipped results; other puzzles' never are).
* ``lp [--min-area A] [--max-area B] [BOARD ...]``: the LP bound
  (:func:`solver.backends.bounds.relaxation.lp_bound`, no size cap) for one colour from the top-left
  corner on every rectangle of area A..B with both sides at least 3 and one at least 5
  (default 89..169), or on the boards named (ROWSxCOLS): the bound on the squares that fit,
  whether it proves "no", and what the counting bounds say; ``--certificates DIR`` writes
  each proof's dual vector to DIR/one-RxC.npz
  (:func:`solver.backends.bounds.relaxation.check_certificate` re-checks it without an LP solver).
* ``cpsat [--min-area A] [--max-area B] [--time-limit S] [BOARD ...]``: the second engine
  on the same rectangles (default area 89..140): the CP-SAT backend, 1 worker, with
  :data:`solver.backends.cpsat.params.PROOF_PARAMS` (its full linear relaxation, which holds the
  2x2-block rows); one line each: status, what the counting bounds say, seconds; a
  layout found is written to results/records/one-RxC.json.
* ``cubes ROWSxCOLS --depth D [--backend search] [--time-limit S] [--jobs N] [--sample K]
  [--dir DIR]``: one colour from the top-left corner, cube-and-conquer (``blokus-solo
  cubes``): split, the batch runner on the cubes (``--sample K``: K cubes drawn at random,
  seed 0, to measure how the cubes behave; a sample never proves a no), join; one line with
  the counts, nodes, wall seconds and load.

Usage (from the project root):
  python -m research.benchmarks.records bounds
  python -m research.benchmarks.records one-colour --max-area 140 --time-limit 600
  python -m research.benchmarks.records record four-18x20 --engine tight-symmetric --time-limit 600
  python -m research.benchmarks.records record puzzles/duo-both.toml --seeds 0 1 2 --time-limit 60
  python -m research.benchmarks.records record four-18x20 --engine domain --seeds 1 2 3
  python -m research.benchmarks.records cubes 12x13 --depth 1 --time-limit 5 --jobs 2
  python -m research.benchmarks.records lp --max-area 169
  python -m research.benchmarks.records cpsat 3x47 4x36 6x24 12x12
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

import numpy as np

from research import tight
from research.records import corner_problem, one_colour_bounds, one_colour_candidates
from solver.answers.solution import write_json
from solver.backends.base import BackendResult, SolveOptions
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import checked_result, solve

ROOT = Path(__file__).resolve().parents[2]

RESULTS = ROOT / "results" / "records"


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _report(name: str, engine: str, result, started: float, save: bool = True) -> None:
    seconds = time.perf_counter() - started
    nodes = result.stats.get("nodes", "")
    print(
        f"{name:22s} {engine:16s} {result.status:10s} {seconds:8.1f} s  nodes {nodes}  "
        f"load {_load()}",
        flush=True,
    )
    if result.layout is not None and save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        write_json(result, RESULTS / f"{name}.json")


def bounds(args) -> int:
    print("rows x cols  area  empty  neighbours perimeter windows border blocks  verdict")
    for rows in range(3, args.max_area // 5 + 1):
        for cols in range(max(rows, 5), args.max_area // rows + 1):
            b = one_colour_bounds(rows, cols)
            if b.empty < 0 or min(b.neighbours, b.blocks) < 0:
                continue  # the area, neighbour or block bound excludes it
            verdict = "candidate" if b.possible else "excluded"
            print(
                f"{rows:4d} x {cols:<4d} {rows * cols:5d} {b.empty:6d} {b.neighbours:10d} "
                f"{b.perimeter:9d} {b.windows:7d} {b.border:6d} {b.blocks:6d}  {verdict}"
            )
    return 0


def one_colour(args) -> int:
    for rows, cols in one_colour_candidates(args.max_area):
        problem = corner_problem(rows, cols, title=f"one colour on {rows}x{cols}")
        started = time.perf_counter()
        options = SolveOptions(backend=args.backend, time_limit=args.time_limit, workers=1)
        result = solve(problem, options)
        _report(f"one-{rows}x{cols}", args.backend, result, started)
    return 0


def record(args) -> int:
    for seed in args.seeds or [args.seed]:
        args.seed = seed
        _record_one(args)
    return 0


def _record_one(args) -> None:
    path = Path(args.name)
    if path.suffix != ".toml":
        path = ROOT / "puzzles" / "records" / f"{args.name}.toml"
    problem = load_puzzle(path)
    if path.resolve().is_relative_to(ROOT.resolve()):  # the results name it from the project
        problem = dataclasses.replace(problem, name=str(path.resolve().relative_to(ROOT.resolve())))
    options = SolveOptions(time_limit=args.time_limit, seed=args.seed, workers=1)
    started = time.perf_counter()
    if args.engine.startswith("tight-symmetric"):
        scan = args.engine.endswith("scan")
        attach = args.engine.endswith("attach")
        raw: BackendResult = tight.solve_symmetric(problem, options, scan=scan, attach=attach)
        result = checked_result(problem, raw, "tight", started)
    elif args.engine == "tight-complete":
        result = checked_result(problem, tight.solve_complete(problem, options), "tight", started)
    else:
        result = solve(problem, SolveOptions(backend=args.engine, **_kw(options)))
    # with --save, layouts of record puzzles are kept in results/records/; else only checked
    save = args.save and path.parent.name == "records"
    _report(path.stem, f"{args.engine} s{args.seed}", result, started, save)


def cubes(args) -> int:
    import random
    import tempfile

    from solver.batch.runner import BatchOptions, run_batch
    from solver.batch.work import BatchSettings
    from solver.formats.puzzle import puzzle_text
    from solver.tasks.cubes import write_cubes
    from solver.trust.cube_join import join

    rows, cols = (int(n) for n in args.board.split("x"))
    name = f"one-{rows}x{cols}"
    problem = corner_problem(rows, cols, title=f"one colour on {rows}x{cols}")
    folder = Path(args.dir or tempfile.mkdtemp(prefix=f"cubes-{name}-"))
    started = time.perf_counter()
    manifest = write_cubes(f"{name}.toml", puzzle_text(problem), args.depth, folder)
    files = [folder / e["file"] for e in manifest["cubes"]]
    if args.sample:
        files = sorted(random.Random(0).sample(files, min(args.sample, len(files))))
    settings = BatchSettings(backend=args.backend, time_limit=args.time_limit)
    results = folder / f"results-{args.backend}-{args.time_limit:g}"
    run_batch(BatchOptions(files, results, settings, jobs=args.jobs))
    answer = join(folder, results)
    seconds = time.perf_counter() - started
    print(
        f"{name:10s} cubes depth {args.depth} ({answer.cubes} cubes, {len(files)} run) "
        f"{args.backend} {args.time_limit:g} s/cube: {answer.status}; solved {answer.solved} "
        f"infeasible {answer.infeasible} unknown {answer.unknown} missing {answer.missing} "
        f"rejected {answer.rejected}; nodes {answer.nodes:,}; cube seconds "
        f"{answer.seconds:.0f}; wall {seconds:.0f} s; load {_load()}  [{folder}]",
        flush=True,
    )
    if answer.result is not None:
        RESULTS.mkdir(parents=True, exist_ok=True)
        write_json(answer.result, RESULTS / f"{name}-cubes.json")
    return 0


def _board(text: str) -> tuple[int, int]:
    """ROWSxCOLS as (rows, cols); a bad one is argparse's one-line error (exit status 2)."""
    rows, _, cols = text.partition("x")
    if not (rows.isdigit() and cols.isdigit() and int(rows) > 0 and int(cols) > 0):
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 3x47, got {text!r}")
    return int(rows), int(cols)


def _boards(args) -> list[tuple[int, int]]:
    """The boards named, or every rectangle of area ``min_area..max_area`` with both sides
    at least 3 and one at least 5 (the I5), smallest area first."""
    if args.boards:
        boards = list(args.boards)
    else:
        boards = [
            (rows, cols)
            for rows in range(3, args.max_area // 5 + 1)
            for cols in range(max(rows, 5), args.max_area // rows + 1)
            if args.min_area <= rows * cols
        ]
    return sorted(boards, key=lambda b: (b[0] * b[1], b))


def lp(args) -> int:
    from solver.backends.bounds.relaxation import lp_bound

    print("board    area  LP bound / need  LP       counting bounds  seconds")
    for rows, cols in _boards(args):
        problem = corner_problem(rows, cols)
        started = time.perf_counter()
        bound = lp_bound(problem.position, problem.colours, max_variables=None)
        assert bound is not None  # no time limit, no cap
        counting = "candidate" if one_colour_bounds(rows, cols).possible else "excluded"
        verdict = "no" if bound.proves_no else "-"
        if bound.proves_no and args.certificates:
            # the duals re-check the proof without an LP solver (check_certificate)
            args.certificates.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(args.certificates / f"one-{rows}x{cols}.npz", duals=bound.duals)
        print(
            f"{rows:2d}x{cols:<4d} {rows * cols:5d}  {bound.most:7.3f} / {bound.need}  "
            f"{verdict:8s} {counting:16s} {time.perf_counter() - started:6.1f}  load {_load()}",
            flush=True,
        )
    return 0


def cpsat(args) -> int:
    from solver.backends.cpsat.params import PROOF_PARAMS

    print(f"board    area  CP-SAT ({PROOF_PARAMS}, 1 worker)  counting bounds  seconds")
    for rows, cols in _boards(args):
        problem = corner_problem(rows, cols)
        options = SolveOptions(
            backend="cpsat", time_limit=args.time_limit, workers=1, params=PROOF_PARAMS
        )
        started = time.perf_counter()
        result = solve(problem, options)
        counting = "candidate" if one_colour_bounds(rows, cols).possible else "excluded"
        if result.layout is not None:  # checked by solve(); kept as verified JSON
            RESULTS.mkdir(parents=True, exist_ok=True)
            write_json(result, RESULTS / f"one-{rows}x{cols}.json")
        print(
            f"{rows:2d}x{cols:<4d} {rows * cols:5d}  {result.status:10s}  {counting:16s} "
            f"{time.perf_counter() - started:6.1f}  load {_load()}",
            flush=True,
        )
    return 0


def _kw(options: SolveOptions) -> dict:
    return {"time_limit": options.time_limit, "seed": options.seed, "workers": options.workers}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name, help=text, description=text, formatter_class=parser.formatter_class
        )

    area = "rectangles up to this many squares"
    limit = "seconds per solve"
    p = command("bounds", "the counting bounds of every rectangle the simple bounds leave")
    p.add_argument("--max-area", type=int, default=169, help=area)
    p = command("one-colour", "a backend on each candidate the counting bounds leave")
    p.add_argument("--max-area", type=int, default=140, help=area)
    p.add_argument("--time-limit", type=float, default=60.0, help=limit)
    p.add_argument("--backend", default="search", help="a blokus-solo backend")
    p = command("record", "a record puzzle (puzzles/records/NAME.toml) or any PUZZLE.toml")
    p.add_argument("name", help="a record's name (e.g. four-18x20) or a .toml path")
    p.add_argument("--time-limit", type=float, default=600.0, help=limit)
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--seeds", type=int, nargs="*", help="run each of these seeds in turn")
    p.add_argument(
        "--save",
        action="store_true",
        help="write a record puzzle's layout to results/records/NAME.json (the shipped "
        "results; the last seed that finds one wins)",
    )
    p.add_argument(
        "--engine",
        default="tight-symmetric",
        help="tight-symmetric[-scan|-attach], tight-complete, or a blokus-solo backend "
        "(e.g. domain)",
    )
    p = command("cubes", "cube-and-conquer of one colour on one rectangle")
    p.add_argument("board", help="ROWSxCOLS, one colour from the top-left corner")
    p.add_argument("--depth", type=int, default=1, help="placements fixed per cube")
    p.add_argument("--backend", default="search", help="the backend that conquers the cubes")
    p.add_argument("--time-limit", type=float, default=5.0, help="seconds per cube")
    p.add_argument("--jobs", type=int, default=2, help="worker processes")
    p.add_argument("--sample", type=int, default=0, help="run only K cubes drawn at random")
    p.add_argument("--dir", default=None, help="folder for the cubes (default: a new temp one)")
    boards = "ROWSxCOLS (default: every rectangle of the areas)"
    p = command("lp", "the LP bound on one-colour rectangles")
    p.add_argument("boards", nargs="*", type=_board, help=boards)
    p.add_argument("--min-area", type=int, default=89, help="smallest area")
    p.add_argument("--max-area", type=int, default=169, help="largest area")
    p.add_argument("--certificates", type=Path, help="write each proof's duals here (.npz)")
    p = command("cpsat", "CP-SAT with the block rows (PROOF_PARAMS) on one-colour rectangles")
    p.add_argument("boards", nargs="*", type=_board, help=boards)
    p.add_argument("--min-area", type=int, default=89, help="smallest area")
    p.add_argument("--max-area", type=int, default=140, help="largest area")
    p.add_argument("--time-limit", type=float, default=120.0, help=limit)
    args = parser.parse_args(argv)
    commands = {
        "bounds": bounds,
        "one-colour": one_colour,
        "record": record,
        "cubes": cubes,
        "lp": lp,
        "cpsat": cpsat,
    }
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
