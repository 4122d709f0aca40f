"""Build the companion's opening book (``solver/companion/book.json``, read by
:mod:`solver.companion.book`): verified complete layouts of the empty board, each colour's
monomino last, such that every first placement of every colour is the first placement of
that colour in some book layout or in its image under a board symmetry.

How:

1. The first placements of the first colour (those covering its start square, the
   monomino left out: with the monomino last it is never first) are grouped in classes:
   two are in one class when a board symmetry that fixes the colour's start square maps
   one onto the other (Classic: 31 classes less the monomino's; Duo: 211).
2. Puzzles are written (one TOML file each, into ``--work``): the empty board with one
   class's representative on each colour's start square (mapped there by the symmetry
   that takes the first colour's start square to that colour's), the other colours'
   placements taken from the next classes in turn; goal place-all, monomino last. Every
   class is on some puzzle for some colour; by the symmetries, then, every first
   placement of every colour is the first placement of that colour in some book layout
   or image.
3. The project's batch runner solves them: ``blokus-solo batch WORK --out WORK/results
   --backend repair --time-limit T --seeds N --jobs J`` (``--seeds``: N independent runs
   of each puzzle, the first layout wins). A batch stopped at any moment keeps what it
   found; the same command run again does the rest.
4. Each layout found is read back from its solution file, checked by the rule checker
   (legal, every piece placed, every monomino last) and stored as its final board
   diagram. ``--merge`` keeps the book's layouts of other variants.

Usage:
    python benchmarks/build_book.py --variant classic [--limit 120] [--seeds 4] [--jobs 2]
        [--work /tmp/book-classic] [--puzzles N] [--out solver/companion/book.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.answers.solution import read_solution  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.order import order_of_play  # noqa: E402
from solver.core.pieces import MONOMINO  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.core.position import Placement, Position  # noqa: E402
from solver.core.symmetry import board_symmetries  # noqa: E402
from solver.core.variants import COLOUR_LETTERS, VARIANTS  # noqa: E402

BOOK = ROOT / "solver" / "companion" / "book.json"


def classes(empty: Position) -> list[Placement]:
    """One representative per class of the first colour's first placements (module
    docstring), the monomino left out, in a fixed order."""
    first = empty.colours[0]
    fix = [s for s in board_symmetries(empty.board) if int(s[first.start]) == first.start]
    seen: dict[tuple[int, ...], Placement] = {}
    for move in legal_moves(empty, first.name):
        if move.piece == MONOMINO:
            continue
        key = min(tuple(sorted(int(s[q]) for q in move.squares)) for s in fix)
        seen.setdefault(key, move)
    return [seen[k] for k in sorted(seen)]


def to_colour(empty: Position, placement: Placement, colour: str) -> Placement:
    """The first colour's placement mapped onto ``colour``'s start square (the first board
    symmetry that takes one start square to the other)."""
    first = empty.colours[0].start
    target = empty.colour(colour).start
    for s in board_symmetries(empty.board):
        if int(s[first]) == target:
            return Placement(placement.piece, frozenset(int(s[q]) for q in placement.squares))
    raise ValueError(f"no symmetry takes the first start square to {colour}'s")


def puzzles(variant: str, limit: int | None) -> list[tuple[str, str]]:
    """(file name, TOML text) of the book's puzzles."""
    empty = Position.empty(VARIANTS[variant])
    reps = classes(empty)
    names = empty.colour_names
    count = -(-len(reps) // len(names))
    if limit is not None:
        count = min(count, limit)
    out = []
    board = empty.board
    for j in range(count):
        rows = [["."] * board.cols for _ in range(board.rows)]
        for i, colour in enumerate(names):
            placement = to_colour(empty, reps[(j * len(names) + i) % len(reps)], colour)
            for q in placement.squares:
                r, c = divmod(q, board.cols)
                rows[r][c] = COLOUR_LETTERS[colour]
        out.append((f"book-{variant}-{j + 1:03d}.toml", _toml(variant, names, rows)))
    return out


def fill_puzzles(variant: str, book: Path, round_: int) -> list[tuple[str, str]]:
    """Puzzles for the classes no book layout (nor an image) begins with yet: each such
    class on one colour (the colours in turn), the other colours' first placements those
    of a book layout (in turn), whose first pieces are known to fit together."""
    from solver.companion.book import first_placements
    from solver.library.layouts import read_entries

    if book != BOOK:
        raise SystemExit("--fill reads the book the package ships: build into it first")
    empty = Position.empty(VARIANTS[variant])
    covered = first_placements(variant)[empty.colours[0].name]
    entries = [e for e in read_entries(book.read_text()) if e.variant == variant]
    if not entries:
        raise SystemExit("--fill needs a book layout of the variant to start from")
    names = empty.colour_names
    board = empty.board
    out = []
    todo = [rep for rep in classes(empty) if rep not in covered]
    for j, rep in enumerate(todo):
        entry = entries[(j + round_) % len(entries)]
        target = names[(j + round_) % len(names)]
        rows = [["."] * board.cols for _ in range(board.rows)]
        for colour in names:
            start = empty.colour(colour).start
            placement = (
                to_colour(empty, rep, colour)
                if colour == target
                else next(p for p in entry.layout[colour] if start in p.squares)
            )
            for q in placement.squares:
                r, c = divmod(q, board.cols)
                rows[r][c] = COLOUR_LETTERS[colour]
        out.append((f"book-{variant}-fill{round_}-{j + 1:03d}.toml", _toml(variant, names, rows)))
    return out


#: whether the puzzles ask for every monomino last (--monomino-anywhere: not)
MONOMINO_LAST = [True]


def _toml(variant: str, names: tuple[str, ...], rows: list[list[str]]) -> str:
    diagram = "\n".join("".join(r) for r in rows)
    last = "true" if MONOMINO_LAST[0] else "false"
    return (
        f'title = "Opening book {variant}: each colour\'s first placement fixed"\n'
        f'variant = "{variant}"\ncolours = {json.dumps(list(names))}\n'
        f'goal = "place-all"\nmonomino-last = {last}\ndiagram = """\n{diagram}\n"""\n'
    )


def run_batch(
    work: Path, limit: float, seeds: int, jobs: int, backend: str = "repair", seed: int = 0
) -> float:
    """The project's batch runner on the puzzles of ``work`` (results in
    ``work/results``, or ``work/results-SEED`` for another first seed); its wall time."""
    out = work / ("results" if seed == 0 else f"results-{seed}")
    command = [
        str(Path(sys.executable).parent / "blokus-solo"), "batch", str(work / "puzzles"),
        "--out", str(out), "--backend", backend, "--time-limit", str(limit),
        "--seeds", str(seeds), "--jobs", str(jobs), "--seed", str(seed), "--plain",
    ]  # fmt: skip
    print(" ".join(command[1:]), flush=True)
    started = time.perf_counter()
    subprocess.run(command, check=False, cwd=ROOT)
    return time.perf_counter() - started


def layouts(work: Path, variant: str, results: str = "results") -> list[dict]:
    """The book records of the layouts the batch found (in ``work/results``), each checked
    by the rule checker (legal, every piece placed, every monomino last unless
    --monomino-anywhere)."""
    rows = [json.loads(line) for line in (work / results / "results.jsonl").open()]
    out = []
    for row in rows:
        solution = row.get("solution")
        if row.get("answer") != "solved" or not solution:
            continue
        read = read_solution(work / results / solution)
        empty = read.empty
        layout = {
            c: order_of_play(empty, c, ps, monomino_last=True) for c, ps in read.replay.items()
        }
        assert all(v is not None for v in layout.values()), solution
        report = check_layout(empty, layout)
        assert report.legal and report.final is not None, solution
        assert all(report.report(c).all_placed for c in layout), solution
        last = all(report.report(c).monomino_last for c in layout)
        assert last or not MONOMINO_LAST[0], solution
        out.append(
            {
                "name": f"book-{variant}",
                "variant": variant,
                "colours": list(layout),
                "monomino_last": last,
                "backend": row.get("backend", "repair"),
                "seed": row.get("seed", 0),
                "seconds": round(float(row.get("seconds", 0.0)), 1),
                "diagram": report.final.diagram(),
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=("classic", "duo"), default="classic")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--seeds", type=int, default=4, help="runs per puzzle (batch --seeds)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--work", type=Path, help="the puzzles and the batch's results")
    parser.add_argument("--puzzles", type=int, help="only the first N puzzles")
    parser.add_argument("--out", type=Path, default=BOOK)
    parser.add_argument(
        "--fill",
        type=int,
        metavar="ROUND",
        help="puzzles only for the classes the book misses (a book layout's other first "
        "placements beside each); ROUND varies which layout and colour",
    )
    parser.add_argument(
        "--empty",
        type=int,
        metavar="K",
        help="layouts of the empty board only: K runs of `auto` (first seeds 0..K-1), "
        "for a variant whose first placements cannot all be fixed in time (Duo)",
    )
    parser.add_argument(
        "--monomino-anywhere",
        action="store_true",
        help="puzzles without monomino-last (the layouts record whether it is last)",
    )
    args = parser.parse_args()
    MONOMINO_LAST[0] = not args.monomino_anywhere
    work = args.work or Path(f"/tmp/book-{args.variant}")
    (work / "puzzles").mkdir(parents=True, exist_ok=True)
    empty = Position.empty(VARIANTS[args.variant])
    blank = [["."] * empty.board.cols for _ in range(empty.board.rows)]
    made = (
        [(f"book-{args.variant}-empty.toml", _toml(args.variant, empty.colour_names, blank))]
        if args.empty
        else fill_puzzles(args.variant, args.out, args.fill)
        if args.fill is not None
        else puzzles(args.variant, args.puzzles)
    )
    for name, text in made:
        (work / "puzzles" / name).write_text(text)
    print(f"{len(made)} puzzles in {work / 'puzzles'}", flush=True)
    print(f"load at start: {os.getloadavg()}", flush=True)
    if args.empty:
        seconds, found = 0.0, []
        for seed in range(args.empty):
            seconds += run_batch(work, args.limit, 1, args.jobs, "auto", seed)
            found += layouts(work, args.variant, "results" if seed == 0 else f"results-{seed}")
    else:
        seconds = run_batch(work, args.limit, args.seeds, args.jobs)
        found = layouts(work, args.variant)
    kept = []
    if args.out.exists():
        old = json.loads(args.out.read_text())["layouts"]  # --fill keeps this variant's too
        kept = [
            e for e in old if e["variant"] != args.variant or args.fill is not None or args.empty
        ]
    known = {tuple(e["diagram"]) for e in kept}
    found = [e for e in found if tuple(e["diagram"]) not in known]
    text = json.dumps({"format": 1, "layouts": kept + found}, indent=1) + "\n"
    args.out.write_text(text)
    print(
        f"{len(found)} {args.variant} layouts in {seconds:.0f} s; {len(text)} bytes -> {args.out}"
    )
    print(f"load at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
