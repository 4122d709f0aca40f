"""The layouts of the winning-game benchmark (issue 45 item 5, ``benchmarks/live_play.py
--winning N``): verified 84-piece Classic layouts (the four colours, every piece placed
from the empty board, every monomino last: the page's "Classic: all 84 pieces" asks for
the bonus), found for the benchmark with seeds of its own and new to the product.

How a layout is found: ``solve`` of ``puzzles/classic-solo-84.toml`` (the Python API,
:func:`solver.api.solve`) with ``--backend`` (``repair``: asymmetric layouts, as a
person's game makes; not the symmetric ones ``auto`` finds), one worker, ``--limit``
seconds, seed :data:`FIRST_SEED` (9001), then 9002, ... (no other part of the project
uses seeds from 9001 on). Each layout is checked here by the rule checker
(:func:`solver.core.checker.check_layout`: legal, every piece placed, every monomino
last) and kept only if it is **new**: under no symmetry of the board (colours following
their start squares) is it equal, as a set of (colour, piece, squares), to a layout of the
warm-start library (``solver/library/layouts.json``), the opening book
(``solver/companion/book.json``) or any file under ``results/`` (solution files, the
probes' layout caches, files in the library's format; this cache itself left out). A
seed that gives no layout in time, or a layout that is not new, is recorded as skipped and
the next seed is tried.

The cache: ``results/companion/winning-layouts.json``, in the library's format
(:func:`solver.library.layouts.read_entries`: name, variant, colours, monomino_last,
backend, seed, seconds, diagram), plus the skipped seeds and why. A run reads it, checks
every cached layout again (the rules, and new: the library or the book may have grown
since) and searches only for the ones missing, from the seed after the last one tried.

Usage:
    python benchmarks/winning_layouts.py [--count 3] [--limit 120] [--backend repair]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import solver.api as blokus  # noqa: E402
from solver.answers.solution import read_solution_text  # noqa: E402
from solver.companion import book  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.order import order_of_play  # noqa: E402
from solver.core.position import Layout, Placement, Position  # noqa: E402
from solver.core.symmetry import board_symmetries  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402
from solver.errors import InputError  # noqa: E402
from solver.library import layouts as library  # noqa: E402

CACHE = ROOT / "results" / "companion" / "winning-layouts.json"
PUZZLE = ROOT / "puzzles" / "classic-solo-84.toml"
RESULTS = ROOT / "results"
#: the benchmark's own seeds start here (grep: no other seed of the project is 9001 or more)
FIRST_SEED = 9001
PIECES_ALL = 84

Key = frozenset[tuple[str, str, frozenset[int]]]


@dataclass(frozen=True)
class Winning:
    """A layout of the benchmark: its seed, the seconds its search took, the backend."""

    seed: int
    seconds: float
    backend: str
    layout: Layout


def empty() -> Position:
    return Position.empty(VARIANTS["classic"])


def key(layout: Mapping[str, Sequence[Placement]]) -> Key:
    """The layout as a set of (colour, piece, squares)."""
    return frozenset((c, p.piece, p.squares) for c, ps in layout.items() for p in ps)


def images(layout: Mapping[str, Sequence[Placement]]) -> list[Key]:
    """The layout under every symmetry of the Classic board, each colour going to the
    colour whose start square its start square is mapped to (the identity first)."""
    start = {c.name: c.start for c in empty().colours}
    by_start = {s: c for c, s in start.items()}
    out = []
    for perm in board_symmetries(empty().board):
        out.append(
            frozenset(
                (by_start[int(perm[start[c]])], p.piece, frozenset(int(perm[s]) for s in p.squares))
                for c, ps in layout.items()
                for p in ps
            )
        )
    return out


def check(layout: Mapping[str, Sequence[Placement]]) -> str | None:
    """What is wrong with ``layout`` as a layout of the benchmark (the rule checker:
    legal from the empty Classic board in some order, every piece of every colour placed,
    every monomino last), or None."""
    position = empty()
    ordered: Layout = {}
    for colour in position.colour_names:
        order = order_of_play(position, colour, list(layout.get(colour, ())), monomino_last=True)
        if order is None:
            return f"{colour}'s pieces have no legal order of play"
        ordered[colour] = order
    report = check_layout(position, ordered)
    if not report.legal:
        return str(report.problem)
    for colour in position.colour_names:
        r = report.report(colour)
        if not r.all_placed:
            return f"{colour} has pieces left: {', '.join(r.remaining)}"
        if not r.monomino_last:
            return f"{colour}'s monomino cannot be last"
    return None


def known_layouts() -> list[tuple[str, Layout]]:
    """Every complete Classic layout the product has (name, layout): the library's, the
    book's, and those of the files under ``results/`` (the cache left out)."""
    out: list[tuple[str, Layout]] = []
    for where, entries in (("library", library.entries()), ("book", book.entries())):
        for k, entry in enumerate(entries):
            if entry.variant == "classic":
                out.append((f"{where} #{k} ({entry.name}, {entry.source})", entry.layout))
    for path in sorted(RESULTS.rglob("*.json")):
        if path.resolve() == CACHE.resolve():
            continue
        for k, layout in enumerate(_layouts_in(path)):
            out.append((f"{path.relative_to(ROOT)}" + (f" #{k}" if k else ""), layout))
    return out


def _layouts_in(path: Path) -> Iterator[Layout]:
    """The complete Classic layouts in one JSON file: a solution file (every placement
    from the empty board), a layout cache of the probes (``{"seed", "after", "layout"}``:
    the person's first ``after`` placements, then the rows), or a file in the library's
    format."""
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return
    if not isinstance(data, dict):
        return
    colours = data.get("colours")
    if data.get("variant") == "classic" and isinstance(colours, list):
        placed = sum(len(c.get("placements", [])) for c in colours if isinstance(c, dict))
        if placed == PIECES_ALL:
            try:
                yield read_solution_text(text, str(path)).replay
            except InputError:
                pass
    rows = data.get("layout")
    if isinstance(rows, list) and isinstance(data.get("seed"), int):
        after = int(data.get("after") or 0)
        if len(rows) + after == PIECES_ALL:
            from person import person_line

            out: Layout = {}
            for colour, placement in person_line(data["seed"], after):
                out.setdefault(colour, []).append(placement)
            for colour, piece, squares in rows:
                out.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
            yield out
    if isinstance(data.get("layouts"), list):
        try:
            for entry in library.read_entries(text):
                if entry.variant == "classic":
                    yield entry.layout
        except (KeyError, TypeError, ValueError, AssertionError):
            pass


def novelty(layout: Layout, known: list[tuple[str, Layout]]) -> tuple[str | None, int]:
    """The name of a known layout equal to ``layout`` under a board symmetry (None: it is
    new), and the most placements (colour, piece, squares) it shares with one of them
    under one symmetry."""
    mine = images(layout)
    same: str | None = None
    most = 0
    for name, other in known:
        theirs = key(other)
        for image in mine:
            shared = len(image & theirs)
            most = max(most, shared)
            if image == theirs and same is None:
                same = name
    return same, most


def read_cache() -> dict[str, Any]:
    if CACHE.exists():
        data: dict[str, Any] = json.loads(CACHE.read_text())
        return data
    return {"format": 1, "layouts": [], "skipped": []}


def write_cache(data: dict[str, Any]) -> None:
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    tmp = CACHE.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(CACHE)


def winning_layouts(count: int, limit: float = 120.0, backend: str = "repair") -> list[Winning]:
    """``count`` layouts of the benchmark (module docstring): the cached ones still valid
    and new, then new seeds until there are enough (each found one cached at once)."""
    data = read_cache()
    known = known_layouts()
    out: list[Winning] = []
    for record, entry in zip(data["layouts"], library.read_entries(json.dumps(data))):
        problem = check(entry.layout)
        same, _ = novelty(entry.layout, known)
        if problem or same:
            print(f"cached layout of seed {record['seed']} not used: {problem or same}")
            continue
        out.append(Winning(record["seed"], record["seconds"], record["backend"], entry.layout))
    tried = [r["seed"] for r in data["layouts"]] + [r["seed"] for r in data["skipped"]]
    seed = max(tried, default=FIRST_SEED - 1) + 1
    problem = blokus.load(PUZZLE)
    while len(out) < count:
        started = time.perf_counter()
        result = blokus.solve(problem, backend=backend, time_limit=limit, workers=1, seed=seed)
        seconds = round(time.perf_counter() - started, 1)
        why: str | None = None
        most = 0
        if result.status != "solved" or result.layout is None:
            why = f"{result.status} after {seconds} s"
        else:
            layout = {c: list(ps) for c, ps in result.layout.items()}
            why = check(layout)
            if why is None:
                same, most = novelty(layout, known)
                if same is not None:
                    why = f"not new: equal to {same}"
        if why is not None:
            print(f"winning layout: seed {seed} skipped: {why}", flush=True)
            data["skipped"].append({"seed": seed, "backend": backend, "why": why})
        else:
            print(
                f"winning layout: seed {seed}: new, {seconds} s [{result.backend}]; shares at "
                f"most {most} of {PIECES_ALL} placements with a known layout",
                flush=True,
            )
            final = empty()
            for c, ps in layout.items():
                for p in ps:
                    final = final.with_placement(c, p)
            data["layouts"].append(
                {
                    "name": "winning-classic-84",
                    "variant": "classic",
                    "colours": list(final.colour_names),
                    "monomino_last": True,
                    "backend": result.backend,
                    "seed": seed,
                    "seconds": seconds,
                    "time_limit": limit,
                    "shared_most": most,
                    "diagram": final.diagram(),
                }
            )
            out.append(Winning(seed, seconds, result.backend, layout))
        write_cache(data)
        seed += 1
    return out[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3, help="layouts wanted")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per seed")
    parser.add_argument("--backend", default="repair", help="the solving engine")
    args = parser.parse_args()
    for w in winning_layouts(args.count, args.limit, args.backend):
        print(f"seed {w.seed}: {w.backend}, {w.seconds} s")
    print(f"cache: {CACHE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
