"""The candidate-move probe (issue 32): how fast the companion answers a move off its
carried layout.

A person-like Classic solo game (``benchmarks/person.py``: large pieces first, each colour
pushing out from its corner, seeded) is played for ``--after`` placements (10). A layout
that places every piece left there is the *carried layout* (found once by ``auto`` with a
generous limit and cached under ``results/companion/``, so that every run answers from
the same layout). Then the ``--moves`` (12) moves the colour to move would most likely
make (the person's ranking) are each answered from the carried layout alone, as the page
answers the move just played: "can every colour still place all its pieces?" with
``--time-limit`` seconds (30, the page's default). Per move: the answer, how it came
about, the seconds; then the median, the share within 1 s and the unknowns.

Every "yes" is re-checked here by the rule checker against the position it answers.

Usage:
    python benchmarks/companion_probe.py [--seeds 1 2 3] [--after 10] [--moves 12]
        [--time-limit 30] [--layout-limit 120] [--python-repair]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from person import person_line, ranked  # noqa: E402

from solver.backends import warmup  # noqa: E402
from solver.backends.base import SolveOptions  # noqa: E402
from solver.companion.follow import Follower  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.position import Layout, Placement, Position  # noqa: E402
from solver.core.problem import Problem  # noqa: E402
from solver.formats.game import GameMove, start_position  # noqa: E402
from solver.formats.sgf import Location  # noqa: E402
from solver.tasks.solve import solve  # noqa: E402

CACHE = ROOT / "results" / "companion"


def carried_layout(seed: int, after: int, position: Position, limit: float) -> Layout:
    """A layout placing every piece left after ``after`` placements of the seed's game:
    read from the cache, else found by ``auto`` (seeds 0, 1, ... until one answers)."""
    path = CACHE / f"probe-layout-seed{seed}-after{after}.json"
    if path.exists():
        rows = json.loads(path.read_text())["layout"]
        out: Layout = {}
        for colour, piece, squares in rows:
            out.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
        return out
    colours = tuple(c.name for c in position.colours if c.remaining)
    for k in range(5):
        result = solve(
            Problem(position, colours, "place-all"), SolveOptions(time_limit=limit, seed=k)
        )
        print(f"  carried layout: auto seed {k}: {result.status} in {result.wall_time:.1f} s")
        if result.status == "solved" and result.layout is not None:
            layout = {c: list(p) for c, p in result.layout.items()}
            rows = [[c, p.piece, sorted(p.squares)] for c, ps in layout.items() for p in ps]
            CACHE.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"seed": seed, "after": after, "layout": rows}) + "\n")
            return layout
    raise SystemExit(f"no layout found after {after} placements of seed {seed}")


def answer_move(
    layout: Layout, before: Position, colour: str, move: Placement, limit: float
) -> tuple[str, str, float, str]:
    """The companion's answer after ``move``, carried from ``layout`` (a layout of
    ``before``): (answer, how, seconds, the tiers tried)."""
    follower = Follower(SolveOptions(time_limit=limit), "probe")
    follower.witness = {c: list(p) for c, p in layout.items()}
    after = before.with_placement(colour, move)
    started = time.perf_counter()
    step = follower.step(1, GameMove(1, colour, move, Location(0, 0)), after)
    seconds = time.perf_counter() - started
    if step.answer == "yes":
        assert step.layout is not None
        report = check_layout(after, {c: list(p) for c, p in step.layout.items()})
        assert report.legal and all(r.all_placed for r in report.colours), "a yes refused"
    return step.answer, step.how, seconds, "; ".join(step.tried)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--after", type=int, default=10, help="placements before the probe")
    parser.add_argument("--moves", type=int, default=12, help="candidate moves per position")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per answer")
    parser.add_argument("--layout-limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument(
        "--python-repair", action="store_true", help="today's Python repair search, not the kernel"
    )
    args = parser.parse_args()
    if args.python_repair:
        from solver.backends import repair
        from solver.backends.repair import compiled

        # (the repair engine asks it before each repair search, the companion before it
        # runs several workers)
        compiled.kernel_ready = repair.kernel_ready = lambda: False
    warmup.compile_kernel()
    print(f"load at start: {os.getloadavg()}", flush=True)
    times: list[float] = []
    answers: list[str] = []
    for seed in args.seeds:
        position = start_position("classic")
        for colour, placement in person_line(seed, args.after):
            position = position.with_placement(colour, placement)
        colour = position.colour_names[args.after % len(position.colour_names)]
        layout = carried_layout(seed, args.after, position, args.layout_limit)
        print(f"seed {seed}: after {args.after} placements, {colour} to move", flush=True)
        for k, move in enumerate(ranked(position, colour)[: args.moves], 1):
            answer, how, seconds, tried = answer_move(
                layout, position, colour, move, args.time_limit
            )
            times.append(seconds)
            answers.append(answer)
            names = ",".join(position.board.names(move.squares))
            print(
                f"  {k:2d} {move.piece:>3} {names:<18} {answer:<7} {how:<8} {seconds:6.2f} s"
                f"  [{tried}]",
                flush=True,
            )
    within = sum(t <= 1.0 for t in times)
    unknown = answers.count("unknown")
    print(
        f"\n{len(times)} moves: median {statistics.median(times):.2f} s, "
        f"within 1 s {within}/{len(times)}, unknown {unknown}/{len(times)}, "
        f"yes {answers.count('yes')}, no {answers.count('no')}"
    )
    print(f"load at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
