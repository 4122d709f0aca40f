"""Build the companion's pair book (``solver/companion/pair_book.npz``, read by
:mod:`solver.companion.pair_book`): a verified complete Classic layout for every pair of
first placements of blue and yellow, one per pair of the mirror that swaps their corners
(1,711 of the 58 x 58 pairs).

How: for each pair (in a fixed order), the companion (:class:`solver.api.Companion`, the
page's follower: the opening book, then the compiled repair from its layouts on two
threads) answers the empty board, blue's first placement and yellow's; its "yes" after
yellow's is a layout of the position holding both, and with the two pieces it is a
layout of the empty board. Each is checked by the rule checker (legal, every piece of
every colour placed) before it is kept. A pair answered "unknown" within
``--time-limit`` is tried again with the next seed, up to ``--tries`` times. Progress is
written to ``--work`` after every pair, so a stopped build goes on where it stopped; the
book is written at the end (``--out``), with the pairs found so far.

Usage:
    python benchmarks/build_pair_book.py [--time-limit 10] [--tries 3] [--limit N]
        [--work /tmp/pair-book.json] [--out solver/companion/pair_book.npz]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import solver.api as blokus  # noqa: E402
from solver.companion.pair_book import PAIR, VARIANT, row_of  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.placement_index import variant_index  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.core.position import Placement, Position  # noqa: E402
from solver.core.symmetry import board_symmetries  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402


def mirror(empty: Position) -> np.ndarray:
    """The board symmetry that swaps the pair's start squares."""
    a, b = (empty.colour(c).start for c in PAIR)
    for perm in board_symmetries(empty.board):
        if perm[a] == b and perm[b] == a:
            return perm
    raise SystemExit("no symmetry swaps the pair's start squares")


def pairs(empty: Position) -> list[tuple[Placement, Placement]]:
    """One (blue first, yellow first) pair per pair of the mirror, by placement number."""
    index = variant_index(VARIANT)
    perm = mirror(empty)
    firsts = [sorted(legal_moves(empty, c), key=index.index) for c in PAIR]

    def image(p: Placement) -> Placement:
        return Placement(p.piece, frozenset(int(perm[s]) for s in p.squares))

    out = []
    for a in firsts[0]:
        for b in firsts[1]:
            key = (index.index(a), index.index(b))
            twin = (index.index(image(b)), index.index(image(a)))
            if key <= twin:
                out.append((a, b))
    return out


def solve_pair(
    empty: Position, a: Placement, b: Placement, limit: float, seed: int
) -> dict[str, list[Placement]] | None:
    """A checked complete layout of the empty board whose first placements of the pair's
    colours are ``a`` and ``b``, or None (unknown within ``limit``)."""
    game = blokus.Companion(empty, time_limit=limit, seed=seed)
    game.answer()
    game.play(a, PAIR[0])
    game.answer()
    game.play(b, PAIR[1])
    step = game.answer()
    if step.answer != "yes" or step.layout is None:
        return None
    layout = {c.name: [*c.placed, *step.layout.get(c.name, ())] for c in game.position.colours}
    report = check_layout(empty, layout)
    if not (report.legal and all(r.all_placed for r in report.colours)):
        raise SystemExit(f"the rule checker refused the layout of {a} / {b}")
    return layout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--tries", type=int, default=3)
    parser.add_argument("--limit", type=int, help="at most this many pairs (a quick run)")
    parser.add_argument("--work", default="/tmp/pair-book.json")
    parser.add_argument("--out", default=str(ROOT / "solver" / "companion" / "pair_book.npz"))
    args = parser.parse_args()
    empty = Position.empty(VARIANTS[VARIANT])
    index = variant_index(VARIANT)
    todo = pairs(empty)[: args.limit]
    work = Path(args.work)
    done: dict[str, list[int]] = json.loads(work.read_text()) if work.exists() else {}
    started = time.perf_counter()
    for n, (a, b) in enumerate(todo):
        key = f"{index.index(a)},{index.index(b)}"
        if key in done:
            continue
        t = time.perf_counter()
        layout = None
        for k in range(args.tries):
            layout = solve_pair(empty, a, b, args.time_limit, seed=1000 * k + n)
            if layout is not None:
                break
        if layout is None:
            print(f"{n + 1}/{len(todo)} {key}: unknown after {args.tries} tries", flush=True)
            continue
        done[key] = [int(i) for i in row_of(layout)]
        work.write_text(json.dumps(done))
        print(f"{n + 1}/{len(todo)} {key}: {time.perf_counter() - t:.2f} s", flush=True)
    rows = np.array([done[k] for k in sorted(done, key=lambda k: tuple(map(int, k.split(","))))])
    np.savez_compressed(args.out, rows=rows.astype(np.uint16).reshape(-1, 84))
    missing = len(todo) - sum(f"{index.index(a)},{index.index(b)}" in done for a, b in todo)
    print(
        f"{len(rows)} layouts written to {args.out} ({Path(args.out).stat().st_size} bytes), "
        f"{missing} pairs without one, {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
