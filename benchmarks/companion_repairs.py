"""The companion's repair searches, replayed: the time and steps the compiled repair search
takes to a layout on the positions where the solo companion needs it (issue 45).

``capture`` plays the benchmark's winning games (``winning_layouts.py``: verified 84-piece
layouts new to the product, seeds 9001-9003, in a person's order, ``person.winning_line``)
through :class:`solver.companion.live.Companion` in one process, without pondering, and
records every call of the repair tier (:func:`solver.companion.tiers.repair_from`): the
position (as the moves from the empty board), the carried layouts it starts from and its
seed. The cases are written as JSON (``results/companion/repair-cases.json``), so that a
change of the kernel or its settings is measured on the same positions and starts.

``run`` replays each case on one thread with each of ``--seeds``: the same Luby runs of
4,000 steps as the companion (:data:`solver.companion.tiers.REPAIR_SLICE`) up to
``--runs`` runs, so the result is a number of steps that no load changes; the CPU time of
the thread is reported beside it. ``--set IP_EJECT_CANDS=150`` (a name of
:mod:`solver.backends.repair.kernel`'s ``IP_`` or ``FP_`` settings) changes a setting.

Usage:
    python benchmarks/companion_repairs.py capture [--games 3] [--moves 20]
    python benchmarks/companion_repairs.py run [--seeds 1 2] [--runs 6] [--set NAME=VALUE ...]
        [--csv FILE] [--only TAG]

Prints one line per case and seed, then a summary: cases solved, solved within 0.5 s and
1 s of one core, the median CPU seconds (an unsolved case counts as infinite), the steps
per second.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from solver.backends.repair import compiled
from solver.backends.repair import kernel as rk
from solver.companion import follow, tiers
from solver.core.position import Placement, Position
from solver.formats.game import start_position

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "results" / "companion" / "repair-cases.json"

Layout = dict[str, list[Placement]]


def _layout_json(layout: Any) -> dict[str, list[list[Any]]]:
    return {c: [[p.piece, sorted(p.squares)] for p in ps] for c, ps in layout.items()}


def _layout_of(data: dict[str, list[list[Any]]]) -> Layout:
    return {
        c: [Placement(piece, frozenset(cells)) for piece, cells in ps] for c, ps in data.items()
    }


def capture(games: int, moves: int, out: Path) -> int:
    """Play the winning games through the companion and write the repair tier's calls."""
    from person import winning_line
    from winning_layouts import winning_layouts

    import solver.api as blokus

    cases: list[dict[str, Any]] = []
    played: list[list[Any]] = []
    tag = ""
    original = follow.repair_from

    def recording(position: Position, starts: Any, deadline: float, seed: int = 0, **kw: Any):
        cases.append(
            {
                "tag": tag,
                "moves": list(played),
                "starts": [_layout_json(s) for s in starts],
                "seed": seed,
            }
        )
        return original(position, starts, deadline, seed, **kw)

    follow.repair_from = recording  # type: ignore[assignment]
    for w in winning_layouts(games):
        game = blokus.Companion(start_position("classic"), time_limit=30, seed=0)
        game.answer()
        played.clear()
        for k, (colour, placement) in enumerate(winning_line(w.layout)[:moves], 1):
            tag = f"{w.seed}-{k}"
            game.play(placement, colour)
            played.append([colour, placement.piece, sorted(placement.squares)])
            began = time.perf_counter()
            step = game.answer()
            print(f"{tag} {step.answer} {step.how} {time.perf_counter() - began:.2f} s", flush=True)
    follow.repair_from = original  # type: ignore[assignment]
    out.write_text(json.dumps({"format": 1, "cases": cases}) + "\n")
    print(f"{len(cases)} cases written to {out}")
    return 0


def _position(moves: list[list[Any]]) -> Position:
    position = start_position("classic")
    for colour, piece, cells in moves:
        position = position.with_placement(colour, Placement(piece, frozenset(cells)))
    return position


def _with_settings(changes: list[str]) -> None:
    """Change the kernel's settings (``NAME=VALUE``) for every run of this process."""
    parsed = [c.split("=", 1) for c in changes]
    made = compiled.settings

    def settings(*args: Any, **kwargs: Any) -> tuple[np.ndarray, np.ndarray]:
        ip, fp = made(*args, **kwargs)
        for name, value in parsed:
            if name.startswith("IP_"):
                ip[getattr(rk, name)] = int(value)
            else:
                fp[getattr(rk, name)] = float(value)
        return ip, fp

    compiled.settings = settings  # type: ignore[assignment]


def run(
    path: Path, seeds: list[int], runs: int, changes: list[str], out: Path | None, only: str
) -> int:
    """Replay the cases (module docstring) whose tag starts with ``only``; returns 0."""
    _with_settings(changes)
    data = [c for c in json.loads(path.read_text())["cases"] if c["tag"].startswith(only)]
    steps = [0]
    advance = compiled.Run.advance

    def counted(self: compiled.Run, *args: Any, **kwargs: Any) -> bool:
        before = self.steps
        try:
            return advance(self, *args, **kwargs)
        finally:
            steps[0] += self.steps - before

    compiled.Run.advance = counted  # type: ignore[method-assign]
    compiled.warm_up()
    rows = []
    for case in data:
        position = _position(case["moves"])
        starts = [_layout_of(s) for s in case["starts"]]
        for seed in seeds:
            steps[0] = 0
            began = time.thread_time()
            found, _, made = tiers.repair_from(
                position,
                starts,
                time.perf_counter() + 600,
                case["seed"] + 7919 * seed,
                max_runs=runs,
            )
            cpu = time.thread_time() - began
            row = {
                "case": case["tag"],
                "seed": seed,
                "found": found is not None,
                "cpu": round(cpu, 3),
                "steps": steps[0],
                "runs": made,
                "starts": len(starts),
            }
            rows.append(row)
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    if out is not None:
        with out.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    times = [r["cpu"] if r["found"] else float("inf") for r in rows]
    total_steps = sum(r["steps"] for r in rows)
    total_cpu = sum(r["cpu"] for r in rows)
    print(
        f"settings {' '.join(changes) or 'as shipped'}: {len(rows)} replays, "
        f"solved {sum(r['found'] for r in rows)}, "
        f"within 0.5 s {sum(t <= 0.5 for t in times)}, within 1 s {sum(t <= 1 for t in times)}, "
        f"median {statistics.median(times):.2f} s, steps {total_steps} in {total_cpu:.1f} s "
        f"({total_steps / max(total_cpu, 1e-9):.0f} a second)"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    cap = sub.add_parser("capture", help="record the repair tier's calls of the winning games")
    cap.add_argument("--games", type=int, default=3)
    cap.add_argument("--moves", type=int, default=20)
    cap.add_argument("--out", type=Path, default=CASES)
    rep = sub.add_parser("run", help="replay the recorded calls")
    rep.add_argument("--cases", type=Path, default=CASES)
    rep.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    rep.add_argument("--runs", type=int, default=6, help="most Luby runs a replay makes")
    rep.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE")
    rep.add_argument("--csv", type=Path)
    rep.add_argument("--only", default="", help="the cases whose tag starts so (9003-1)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    if args.what == "capture":
        return capture(args.games, args.moves, args.out)
    return run(args.cases, args.seeds, args.runs, args.set, args.csv, args.only)


if __name__ == "__main__":
    sys.exit(main())
