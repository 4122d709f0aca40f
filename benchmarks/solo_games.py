"""The solo companion (``review --together``) on simulated solo games: answered share and
time per move by phase, followed and cold.

Two kinds of Classic solo games (four colours in turn, one player), seeded:

* *person*: each move is one of the colour's largest pieces left, placed where it opens
  the most corners (free squares touching it at a corner and none of its colour at an
  edge), with some randomness (one of the best :data:`TOP` at random); the monomino is
  held back while other pieces are left; a colour with no legal move passes.
* *layout*: the placements of a verified 84-piece layout (a solution file written by
  ``blokus-solo solve ... --out FILE.json``; by default the five in ``results/follow``,
  ``puzzles/asym-classic-84.toml`` solved with ``--backend repair --seed 11`` ... ``15``),
  interleaved blue, yellow, red, green.

Each game goes through :func:`solver.companion.follow.follow_game` as ``blokus-solo review GAME
--together`` runs it (``--limit`` seconds per check), and, with ``--cold``, the
positions after 20, 30 and 40 placements are checked alone as ``check --together`` does
(:func:`solver.tasks.endgame.joint_check`, no history). A table per kind: the answered share
(yes or no) and the median and 90th-percentile seconds per move by phase (placements
1-20, 21-40, 41-60, 61-84), and the answers after 20, 30 and 40 placements. Every "yes"
was re-checked by the rule checker inside the follow (a refused one raises).

Usage:
    python benchmarks/solo_games.py [--person 4] [--seed 1] [--layouts L1.json ...]
        [--limit 10] [--cold] [--csv FILE] [--forward]

``--forward`` also follows each game live, move by move (:func:`solver.companion.follow.follow`:
no knowledge of later moves), and reports the same table for it.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from solver.answers.solution import read_solution
from solver.backends.base import SolveOptions
from solver.companion.follow import Followed, JointStep, follow, follow_game, from_later
from solver.core.pieces import MONOMINO, PIECES
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.formats.game import Game, read_sgf_text, start_position, write_sgf
from solver.tasks.endgame import joint_check

#: a person picks one of the best few moves at random
TOP = 3
#: the phases of the table (placements, inclusive)
PHASES = ((1, 20), (21, 40), (41, 60), (61, 84))
#: the positions checked cold
MARKS = (20, 30, 40)
#: the verified layouts followed by default
LAYOUTS = sorted(
    str(p) for p in (Path(__file__).parent.parent / "results" / "follow").glob("asym-84-*.json")
)


def corners_opened(position: Position, colour: str, placement: Placement) -> int:
    """Free squares touching ``placement`` at a corner and no square of its colour (the
    placement included) at an edge: the corners the move opens."""
    board = position.board
    own = position.colour(colour).squares | placement.squares
    taken = position.occupied | placement.squares
    edge = {n for s in own for n in board.edge_neighbours[s]}
    ring = {n for s in placement.squares for n in board.corner_neighbours[s]}
    return len({s for s in ring if s not in taken and s not in edge})


def person_move(position: Position, colour: str, rng: np.random.Generator) -> Placement | None:
    """A person's move: one of the largest pieces left (the monomino last), placed where
    it opens the most corners, one of the best :data:`TOP` at random; None: no move."""
    moves = legal_moves(position, colour)
    left = position.colour(colour).remaining
    if len(left) > 1:
        moves = [m for m in moves if m.piece != MONOMINO] or moves
    if not moves:
        return None
    size = max(PIECES[m.piece].size for m in moves)
    largest = [m for m in moves if PIECES[m.piece].size == size]
    scored = sorted(largest, key=lambda m: -corners_opened(position, colour, m))
    return scored[int(rng.integers(min(TOP, len(scored))))]


def person_game(seed: int) -> Game:
    """A simulated Classic solo game in a person's style (module docstring), to the end."""
    rng = np.random.default_rng(seed)
    position = start_position("classic")
    layout: dict[str, list[Placement]] = {c: [] for c in position.colour_names}
    stuck: set[str] = set()
    while len(stuck) < len(layout):
        for colour in position.colour_names:
            if colour in stuck:
                continue
            move = person_move(position, colour, rng)
            if move is None:
                stuck.add(colour)
                continue
            layout[colour].append(move)
            position = position.with_placement(colour, move)
    text = write_sgf(start_position("classic"), layout, name=f"person style, seed {seed}")
    return read_sgf_text(text, f"person-{seed}.blksgf")


def layout_game(path: str) -> Game:
    """The game that plays a verified layout's placements, interleaved in turn order."""
    solution = read_solution(path)
    text = write_sgf(solution.empty, solution.layout, name=f"following {path}")
    return read_sgf_text(text, f"{os.path.basename(path)}.blksgf")


def cold(game: Game, k: int, limit: float) -> tuple[str, float]:
    """The joint answer after ``k`` placements without the game's history."""
    position = game.position(k)
    colours = tuple(c.name for c in position.colours if c.remaining)
    started = time.perf_counter()
    answer = joint_check(position, colours, SolveOptions(time_limit=limit))
    return answer.answer, time.perf_counter() - started


def forward(game: Game, options: SolveOptions) -> Followed:
    """The live follow (no later moves known), with later layouts settling unknowns."""
    started = time.perf_counter()
    steps = list(follow(game, options))
    return Followed(game, tuple(from_later(game, steps)), time.perf_counter() - started)


def phase_rows(kind: str, runs: Sequence[Followed]) -> list[list[str]]:
    """Table rows: per phase, answered share and median / p90 seconds per move."""
    rows = []
    for lo, hi in PHASES:
        steps = [s for f in runs for s in f.steps if lo <= s.placement <= hi]
        rows.append([kind, f"{lo}-{hi}", *_cells(steps)])
    steps = [s for f in runs for s in f.steps if s.placement > 0]
    rows.append([kind, "all", *_cells(steps)])
    return rows


def _cells(steps: Iterable[JointStep]) -> list[str]:
    steps = list(steps)
    if not steps:
        return ["0", "-", "-", "-"]
    answered = sum(s.answer in ("yes", "no", "done") for s in steps)
    times = sorted(s.seconds for s in steps)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return [
        str(len(steps)),
        f"{answered}/{len(steps)}",
        f"{statistics.median(times):.2f}",
        f"{p90:.2f}",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--person", type=int, default=4, help="person-style games")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first person game")
    parser.add_argument(
        "--layouts", nargs="*", default=LAYOUTS, help="verified layouts (solution files)"
    )
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per check")
    parser.add_argument("--cold", action="store_true", help="also check 20/30/40 cold")
    parser.add_argument("--forward", action="store_true", help="also follow live")
    parser.add_argument("--csv", help="one row per game and mark")
    args = parser.parse_args(argv)
    options = SolveOptions(time_limit=args.limit)
    print(f"load at start: {os.getloadavg()}", flush=True)
    games = [("person", person_game(args.seed + k)) for k in range(args.person)]
    games += [("layout", layout_game(p)) for p in args.layouts]
    runs: dict[str, list[Followed]] = {}
    marks: list[list[str]] = []
    for kind, game in games:
        ways = [("review", follow_game)] + ([("forward", forward)] if args.forward else [])
        for way, run in ways:
            followed = run(game, options)
            runs.setdefault(f"{kind} {way}", []).append(followed)
            loss = followed.loss()
            lost = "-" if loss is None else f"{loss.last_possible}..{loss.first}"
            print(
                f"{game.path} [{way}]: {game.num_placements} placements, "
                f"{followed.seconds:.1f} s, lost {lost}, "
                + " ".join(f"{k}:{followed.steps[k].answer}" for k in MARKS),
                flush=True,
            )
            for k in MARKS:
                s = followed.steps[k]
                marks.append([game.path or "", way, str(k), s.answer, f"{s.seconds:.2f}"])
        if args.cold:
            for k in MARKS:
                answer, seconds = cold(game, k, args.limit)
                marks.append([game.path or "", "cold", str(k), answer, f"{seconds:.2f}"])
                print(f"{game.path} [cold] after {k}: {answer} {seconds:.1f} s", flush=True)
    print()
    print("| games | placements | moves | answered | median s | p90 s |")
    print("|---|---|---|---|---|---|")
    for kind, followed in runs.items():
        for row in phase_rows(kind, followed):
            print("| " + " | ".join(row) + " |")
    print()
    print("| games | way | after | yes | no | unknown |")
    print("|---|---|---|---|---|---|")
    kinds = sorted({(r[0].split("-")[0], r[1]) for r in marks})
    for prefix, way in kinds:
        for k in MARKS:
            rows = [r for r in marks if r[0].startswith(prefix) and r[1] == way and r[2] == str(k)]
            count = {a: sum(r[3] == a for r in rows) for a in ("yes", "no", "unknown")}
            print(
                f"| {prefix} | {way} | {k} | {count['yes']} | {count['no']} | {count['unknown']} |"
            )
    print(f"\nload at end: {os.getloadavg()}")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            csv.writer(f).writerows([["game", "way", "after", "answer", "seconds"], *marks])
    return 0


if __name__ == "__main__":
    sys.exit(main())
