"""The compiled repair search against today's Python one (issue 45), paired in one run.

On fixed positions and seeds, each run of either implementation gets ``--seconds`` of one
core. Per run: steps (ejections and window repairs), steps per second, the seconds to a
layout, and the best cost (cells left unplaced) after each second. Then, from the same
start, a run of ejections only and one of window repairs only give each kind's steps per
second on its own (``--kinds``).

Positions:

* ``asym-84``: ``puzzles/asym-classic-84.toml``, all 84 pieces from the empty board
  (greedy play's start);
* ``ladder-k12``, ``ladder-k18``: ``puzzles/asym-ladder-k12.toml`` / ``k18`` (a verified
  layout with that many placements per colour taken off);
* ``GAME@N`` (``--games DIR``): real Classic game records (the first ``--game-count`` of
  ``DIR``, e.g. ``../shared/data/games``, records nobody here chose) after ``--game-after``
  placements: every colour places all its pieces left, from greedy play's start (whether a
  layout exists is not known: the steps per second and the best cost are what count);
* ``person-sS-mK``: the companion's case. A person-like game (``benchmarks/person.py``,
  seed S) after ``--after`` placements; a layout placing everything left there (found once
  by the compiled repair and cached under ``results/companion/``, checked by the rule
  checker); then the person's K-th likeliest move, and the repair started from that layout
  carried over the move (:func:`solver.companion.layouts.carry`), as the companion starts.

Every layout either finds is checked by the rule checker here.

``--backend N``: instead, the ``repair`` backend on ``puzzles/asym-classic-84.toml``
(``solve`` as the command runs it, one worker, ``--limit`` seconds) for seeds 0..N-1,
compiled and today's Python search in turn: solved, seconds, cells left.

Usage:
    python benchmarks/repair_kernel.py [--seconds 10] [--seeds 0 1] [--moves 4]
        [--people 1 2] [--after 10] [--only NAME ...] [--kinds] [--out FILE.md]
        [--games DIR [--game-count 3] [--game-after 12]]
    python benchmarks/repair_kernel.py --backend 10 [--limit 60]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from person import person_line, ranked  # noqa: E402

import solver.api as blokus  # noqa: E402
from solver.backends.repair import kernel as rk  # noqa: E402
from solver.backends.repair import repairer as ref  # noqa: E402
from solver.backends.repair.compiled import Run  # noqa: E402
from solver.backends.repair.warm import WarmRepairer  # noqa: E402
from solver.companion.layouts import carry, open_colours  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.position import Layout, Placement, Position  # noqa: E402
from solver.core.problem import Problem  # noqa: E402
from solver.formats.game import start_position  # noqa: E402

CACHE = ROOT / "results" / "companion"
Case = tuple[str, Position, tuple[str, ...], Layout | None]


def legal(position: Position, layout: Layout) -> bool:
    """Whether the rule checker accepts ``layout`` as placing every piece left."""
    from solver.core.order import order_of_play

    ordered = {}
    for c in open_colours(position):
        order = order_of_play(position, c, layout.get(c, ()))
        if order is None:
            return False
        ordered[c] = order
    report = check_layout(position, ordered)
    return report.legal and all(r.all_placed for r in report.colours)


def person_layout(seed: int, after: int, position: Position) -> Layout:
    """A layout placing everything left after ``after`` placements of the person's game
    ``seed``: cached, else found by the compiled repair (seeds 0, 1, ...; 120 s each)."""
    path = CACHE / f"repair-kernel-layout-seed{seed}-after{after}.json"
    if path.exists():
        out: Layout = {}
        for colour, piece, squares in json.loads(path.read_text())["layout"]:
            out.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
        if legal(position, out):
            return out
    for k in range(5):
        run = Run(position, open_colours(position), k)
        if run.advance(deadline=time.perf_counter() + 120):
            layout = run.layout()
            assert legal(position, layout), "the kernel's layout is refused"
            rows = [[c, p.piece, sorted(p.squares)] for c, ps in layout.items() for p in ps]
            CACHE.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"seed": seed, "after": after, "layout": rows}) + "\n")
            return layout
    raise SystemExit(f"no layout after {after} placements of the person's game {seed}")


def cases(args: argparse.Namespace) -> list[Case]:
    """The fixed positions (name, position, colours, start)."""
    out: list[Case] = []
    for name, file in (
        ("asym-84", "asym-classic-84.toml"),
        ("ladder-k12", "asym-ladder-k12.toml"),
        ("ladder-k18", "asym-ladder-k18.toml"),
    ):
        problem = blokus.load(str(ROOT / "puzzles" / file))
        out.append((name, problem.position, problem.colours, None))
    for seed in args.people:
        position = start_position("classic")
        for colour, placement in person_line(seed, args.after):
            position = position.with_placement(colour, placement)
        colour = position.colour_names[args.after % len(position.colour_names)]
        layout = person_layout(seed, args.after, position)
        for k, move in enumerate(ranked(position, colour)[: args.moves], 1):
            after = position.with_placement(colour, move)
            start, _ = carry(layout, colour, move, after)
            out.append((f"person-s{seed}-m{k}", after, open_colours(after), start))
    if args.games:
        records = sorted(Path(args.games).glob("classic-*.blksgf"))[: args.game_count]
        for record in records:
            position = blokus.load_game(str(record)).position(args.game_after)
            name = f"{record.stem}@{args.game_after}"
            out.append((name, position, open_colours(position), None))
    if args.only:
        out = [c for c in out if any(c[0].startswith(o) for o in args.only)]
    return out


class _Timed:
    """Today's Repairer with its steps timed by kind (an ejection that falls back to a
    window repair counts as the repair)."""

    def __init__(self, run: ref.Repairer) -> None:
        self.run = run
        self.time = {"eject": 0.0, "repair": 0.0}
        self.count = {"eject": 0, "repair": 0}
        eject, repair = run.eject, run.repair
        self.depth = 0

        def timed(kind: str, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
            def go(state: Any) -> Any:
                self.depth += 1
                t0 = time.perf_counter()
                try:
                    return f(state)
                finally:
                    took = time.perf_counter() - t0
                    self.depth -= 1
                    if self.depth == 0 or kind == "repair":
                        self.time[kind] += took
                        self.count[kind] += 1
                    if kind == "repair" and self.depth > 0:
                        self.time["eject"] -= took  # (nested in an ejection)
                        self.count["eject"] -= 1

            return go

        run.eject = timed("eject", eject)  # type: ignore[method-assign]
        run.repair = timed("repair", repair)  # type: ignore[method-assign]


def python_run(case: Case, seed: int, seconds: float, eject: float | None = None) -> dict[str, Any]:
    """Today's repair search on ``case`` for ``seconds``."""
    name, position, colours, start = case
    problem = Problem(position, colours, "place-all")
    saved = ref.EJECT
    if eject is not None:
        ref.EJECT = eject
    try:
        began = time.perf_counter()
        deadline = began + seconds
        stop = threading.Event()
        if start is None:
            run: ref.Repairer = ref.Repairer(problem, seed, stop, deadline)
        else:
            run = WarmRepairer(problem, seed, stop, deadline, start)
        timed = _Timed(run)
        first: list[int] = []
        construct = run.construct

        def constructed() -> ref.RepairState:
            state = construct()
            if not first:
                first.append(state.cost)  # the first start's cost: the trace starts there
            return state

        run.construct = constructed  # type: ignore[method-assign]
        state = run.run()
        took = time.perf_counter() - began
    finally:
        ref.EJECT = saved
    found = None
    if state is not None:
        layout = run.layout(state)
        assert legal(position, layout), f"{name}: today's layout is refused"
        found = took
    trace = [(t, c) for t, c in run.trace]
    return {
        "steps": timed.count["eject"] + timed.count["repair"],
        "ejections": timed.count["eject"],
        "repairs": timed.count["repair"],
        "eject_time": timed.time["eject"],
        "repair_time": timed.time["repair"],
        "seconds": took,
        "found": found,
        "best": run.best.cost if run.best is not None else None,
        "trace": trace,
        "first": first[0] if first else None,
    }


def kernel_run(case: Case, seed: int, seconds: float, eject: float | None = None) -> dict[str, Any]:
    """The compiled repair search on ``case`` for ``seconds``."""
    name, position, colours, start = case
    run = Run(position, colours, seed, start)
    if eject is not None:
        fp = run.tables.fp.copy()
        fp[rk.FP_EJECT] = eject
        run.tables = run.tables._replace(fp=fp)
    began = time.perf_counter()
    found = run.advance(deadline=began + seconds)
    took = time.perf_counter() - began
    if found:
        assert legal(position, run.layout()), f"{name}: the kernel's layout is refused"
    st = run.stats()
    return {
        "steps": st["steps"],
        "ejections": st["ejections"],
        "repairs": st["repairs"],
        "seconds": took,
        "found": took if found else None,
        "best": run.best_cost,
        "trace": run.trace,
        "nodes": st["nodes"],
    }


def best_at(trace: list[tuple[float, int]], first: int | None, t: float) -> int | None:
    """The best cost at ``t`` seconds from a trace of (seconds, cost) changes."""
    best = first
    for when, cost in trace:
        if when <= t and (best is None or cost < best):
            best = cost
    return best


def backend_runs(seeds: int, limit: float) -> None:
    """The repair backend on the 84 pieces, compiled and today's in turn, per seed."""
    import statistics

    from solver.backends.base import SolveOptions
    from solver.backends.tuning import RepairTuning, Tuning
    from solver.tasks.solve import solve

    problem = blokus.load(str(ROOT / "puzzles" / "asym-classic-84.toml"))
    times: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(seeds):
        for compiled in (True, False):
            tuning = Tuning(repair=RepairTuning(compiled=compiled))
            options = SolveOptions(
                backend="repair", workers=1, seed=seed, time_limit=limit, tuning=tuning
            )
            began = time.perf_counter()
            result = solve(problem, options)
            took = time.perf_counter() - began
            times[compiled].append(took if result.status == "solved" else limit)
            name = "compiled" if compiled else "python"
            left = result.stats.get("best_left")
            print(f"seed {seed} {name}: {result.status} {took:.2f} s, left {left}", flush=True)
    for compiled, name in ((True, "compiled"), (False, "python")):
        done = sum(t < limit for t in times[compiled])
        median = statistics.median(times[compiled])
        print(f"{name}: {done} of {seeds} solved, median {median:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--people", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--after", type=int, default=10)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--games", type=Path, help="real Classic game records' folder")
    parser.add_argument("--game-count", type=int, default=3)
    parser.add_argument("--game-after", type=int, default=12)
    parser.add_argument("--kinds", action="store_true", help="each kind of step on its own")
    parser.add_argument("--out", type=Path, help="also write the table here (Markdown)")
    parser.add_argument("--backend", type=int, default=0, help="the backend, N seeds")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per backend run")
    args = parser.parse_args()
    if args.backend:
        backend_runs(args.backend, args.limit)
        return 0
    from solver.backends import warmup

    warmup.compile_kernel()
    Run(start_position("classic"), ("blue",), 0).advance(steps=1)  # compile or load the kernel
    lines = [f"load at start: {os.getloadavg()[0]:.1f}; {args.seconds:g} s a run, one core"]
    head = (
        "| position | seed | code | steps | steps/s | ejections | repairs | layout at "
        "| best at 1 s, 2 s, 5 s, end |"
    )
    lines += [head, "|" + "---|" * 10]
    totals = {"python": [0, 0.0], "kernel": [0, 0.0]}
    for case in cases(args):
        for seed in args.seeds:
            for code, go in (("python", python_run), ("kernel", kernel_run)):
                r = go(case, seed, args.seconds)
                totals[code][0] += r["steps"]
                totals[code][1] += r["seconds"]
                at = [best_at(r["trace"], r.get("first"), t) for t in (1, 2, 5)]
                bests = ", ".join("-" if b is None else str(b) for b in at + [r["best"]])
                found = "-" if r["found"] is None else f"{r['found']:.2f} s"
                lines.append(
                    f"| {case[0]} | {seed} | {code} | {r['steps']} | "
                    f"{r['steps'] / max(r['seconds'], 1e-9):.0f} | {r['ejections']} | "
                    f"{r['repairs']} | {found} | {bests} |"
                )
                print(lines[-1], flush=True)
            if args.kinds:
                for kind, share in (("ejections only", 1.0), ("repairs only", 0.0)):
                    p = python_run(case, seed, args.seconds / 2, share)
                    k = kernel_run(case, seed, args.seconds / 2, share)
                    key = "ejections" if share else "repairs"
                    ps = p[key] / max(p["eject_time" if share else "repair_time"], 1e-9)
                    ks = k[key] / max(k["seconds"], 1e-9)
                    lines.append(
                        f"| {case[0]} | {seed} | {kind} | python {p[key]} | {ps:.0f} | kernel "
                        f"{k[key]} | {ks:.0f} | x{ks / max(ps, 1e-9):.1f} | |"
                    )
                    print(lines[-1], flush=True)
    rate = {c: n / max(t, 1e-9) for c, (n, t) in totals.items()}
    lines.append(
        f"\nall runs: python {rate['python']:.0f} steps/s, kernel {rate['kernel']:.0f} steps/s "
        f"(x{rate['kernel'] / max(rate['python'], 1e-9):.1f}); load at end: "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(lines[-1])
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
