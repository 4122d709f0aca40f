"""Legal-move generation: ours against Pentobi's ``all_legal``, on the same positions, in one
run.

Every position of the real games of ``tests/data/games`` (``--every N``: every N-th
placement), every colour with pieces left. Per position, in turn (so that the machine's
load falls on both alike):

* Pentobi: ``loadsgf FILE N+1``, then ``cputime``, ``all_legal C`` ``--repeat`` times per
  colour, ``cputime``: the engine's CPU time of its move generation, with the text of its
  answer (its own measure; 10 ms steps, summed over thousands of positions);
* ours, CPU time of this process (``time.process_time``), on a :class:`MoveState` loaded
  from the position (as Pentobi's board is by ``loadsgf``): ``legal`` (numbers),
  ``mask``, ``count``, and the moves as Pentobi's text (``index.texts`` joined, what a GTP
  engine answers); and one call per colour from the :class:`Position` itself
  (``legal_placements``, ``legal_mask``: the conversion paid once per position), and
  the old NumPy generator (``solver.core.placements.legal_moves``) with ``--old``, whose
lists must equal ours (the same placements in the same order).

Each of our lists is compared with Pentobi's (the same moves, as sets of squares); any
difference is printed and makes the exit status 1.

    python benchmarks/movegen.py [--every 1] [--repeat 20] [--old] [--pentobi PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from pentobi import Pentobi, find_pentobi, gtp_colour  # noqa: E402

from solver.core import movegen  # noqa: E402
from solver.core.movegen import MoveState, legal_mask, legal_placements  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.formats.game import load_game  # noqa: E402

GAMES = ROOT / "tests" / "data" / "games"
METHODS = ("pentobi", "legal", "mask", "count", "text", "placements", "position_mask", "old")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=GAMES)
    parser.add_argument("--every", type=int, default=1, help="every N-th placement")
    parser.add_argument("--repeat", type=int, default=20, help="calls per colour and method")
    parser.add_argument("--old", action="store_true", help="time the old NumPy generator too")
    parser.add_argument("--pentobi", help="pentobi-gtp (default: $PENTOBI_GTP)")
    parser.add_argument(
        "--write-oracle",
        type=Path,
        help="also write Pentobi's answers for every colour (counts, digests) to this JSON "
        "file (tests/data/games/all_legal.json; with --every 1)",
    )
    args = parser.parse_args()
    oracle: dict[str, dict] = {}
    movegen.warm()
    load0 = os.getloadavg()
    seconds = dict.fromkeys(METHODS, 0.0)
    moves = dict.fromkeys(METHODS, 0)
    calls = dict.fromkeys(METHODS, 0)
    positions = colour_positions = wrong = 0
    started = time.perf_counter()
    with Pentobi(find_pentobi(args.pentobi)) as engine:
        engine_version = f"{engine.command('name')} {engine.command('version')}"
        for path in sorted(args.games.glob("*.blksgf")):
            game = load_game(path)
            variant = game.variant.name
            for n in range(0, game.num_placements + 1, args.every):
                position = game.position(n)
                engine.command(f"loadsgf {path.resolve()} {n + 1}")
                state = MoveState(position)
                texts = state.index.texts
                positions += 1
                if args.write_oracle:
                    record(oracle, path, variant, state, engine)
                # one call per colour from the Position (its conversion paid once)
                colours = [k for k, c in enumerate(position.colours) if c.remaining]
                t = time.process_time()
                found = [legal_placements(position, position.colours[k].name) for k in colours]
                seconds["placements"] += time.process_time() - t
                moves["placements"] += sum(map(len, found))
                calls["placements"] += len(colours)
                fresh = game.position(n)  # a new object: the conversion again
                t = time.process_time()
                for k in colours:
                    moves["position_mask"] += int(legal_mask(fresh, fresh.colours[k].name).sum())
                seconds["position_mask"] += time.process_time() - t
                calls["position_mask"] += len(colours)
                for k in colours:
                    colour_positions += 1
                    gtp = gtp_colour(variant, k)
                    c0 = engine.cputime()
                    for _ in range(args.repeat):
                        theirs = engine.all_legal(gtp)
                    seconds["pentobi"] += engine.cputime() - c0
                    moves["pentobi"] += args.repeat * len(theirs)
                    calls["pentobi"] += args.repeat
                    wrong += compare(path, n, gtp, state, k, theirs, found[colours.index(k)])
                    for method in ("legal", "mask", "count", "text"):
                        t = time.process_time()
                        for _ in range(args.repeat):
                            if method == "legal":
                                got = len(state.legal(k))
                            elif method == "mask":
                                got = int(state.mask(k).sum())
                            elif method == "count":
                                got = state.count(k)
                            else:
                                got = "\n".join([texts[i] for i in state.legal(k)]).count("\n") + 1
                        seconds[method] += time.process_time() - t
                        moves[method] += args.repeat * (got if theirs else 0)
                        calls[method] += args.repeat
                    if args.old:
                        t = time.process_time()
                        before = legal_moves(position, position.colours[k].name)
                        seconds["old"] += time.process_time() - t
                        moves["old"] += len(before)
                        calls["old"] += 1
                        if before != found[colours.index(k)]:  # the same list, in order
                            print(f"DIFFERENT from the old generator: {path.name} after {n}")
                            wrong += 1
    wall = time.perf_counter() - started
    if args.write_oracle:
        write_oracle(args.write_oracle, oracle, engine_version)
    report(seconds, moves, calls, positions, colour_positions, wrong, args, load0, wall)
    return 1 if wrong else 0


def record(oracle: dict, path: Path, variant: str, state: MoveState, engine: Pentobi) -> None:
    """Pentobi's legal moves of every colour at this position, into ``oracle``: per game
    the colours' GTP names, per position the counts, and each list as the sorted numbers of
    its moves in the placement index (found from Pentobi's squares, not by our generator)."""
    entry = oracle.setdefault(
        path.name,
        {
            "colours": [gtp_colour(variant, k) for k in range(len(state.colours))],
            "counts": [],
            "lists": [],
        },
    )
    board = state.index.board
    counts = []
    for gtp in entry["colours"]:
        moves = engine.all_legal(gtp)
        rows = np.full((len(moves), 5), -1, dtype=np.int64)
        for r, move in enumerate(moves):
            squares = [board.parse(name) for name in move.split(",")]
            rows[r, : len(squares)] = squares
        numbers = state.index.indices_of(rows)
        if (numbers < 0).any():
            raise SystemExit(f"{path.name}: a move of Pentobi's is no placement of the index")
        counts.append(len(moves))
        entry["lists"].append(np.sort(numbers).astype("<i4").tobytes())
    entry["counts"].append(counts)


def write_oracle(path: Path, oracle: dict, engine: str) -> None:
    """The oracle as JSON: per game, ``counts[n][k]``: the legal moves of colour k after n
    placements; ``sha256``: of every list in that order (position by position, colour by
    colour), each its sorted placement numbers as 4-byte little-endian integers."""
    import hashlib
    import json

    games = {}
    for name, entry in oracle.items():
        digest = hashlib.sha256(b"".join(entry["lists"])).hexdigest()
        games[name] = {"colours": entry["colours"], "counts": entry["counts"], "sha256": digest}
    data = {
        "source": f"{engine} --nobook: loadsgf FILE N+1, all_legal C (benchmarks/movegen.py)",
        "games": games,
    }
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {path}")


def compare(path, n, gtp, state, k, theirs, placements) -> int:
    """1 (and a line printed) when our moves differ from Pentobi's, else 0."""
    board = state.index.board
    ours = sorted(state.index.texts[i] for i in state.legal(k))
    as_placements = sorted(",".join(board.names(p.squares)) for p in placements)
    if ours == sorted(theirs) and as_placements == ours:
        return 0
    print(
        f"DIFFERENT: {path.name} after {n}, colour {gtp}: ours {len(ours)}, Pentobi {len(theirs)}"
    )
    return 1


def report(seconds, moves, calls, positions, colour_positions, wrong, args, load0, wall):
    load1 = os.getloadavg()
    print(
        f"{positions} positions of the games in {args.games} (every {args.every}), "
        f"{colour_positions} colour-positions, {args.repeat} calls each; "
        f"lists equal to Pentobi's: {colour_positions - wrong} of {colour_positions}"
    )
    print(f"load average {load0[0]:.1f} at the start, {load1[0]:.1f} at the end; {wall:.0f} s")
    base = moves["pentobi"] / seconds["pentobi"]
    rows = {
        "pentobi": "Pentobi all_legal (engine CPU, text answer)",
        "legal": "ours MoveState.legal (numbers, sorted)",
        "mask": "ours MoveState.mask (bool (P,))",
        "count": "ours MoveState.count",
        "text": "ours MoveState.legal as Pentobi's text",
        "placements": "ours legal_placements(position, colour)",
        "position_mask": "ours legal_mask(position, colour)",
        "old": "old NumPy legal_moves(position, colour)",
    }
    print(f"{'method':48} {'moves/s':>12} {'calls/s':>10} {'vs Pentobi':>10}")
    for method, label in rows.items():
        if not calls[method]:
            continue
        rate = moves[method] / seconds[method]
        per_call = calls[method] / seconds[method]
        print(f"{label:48} {rate:12,.0f} {per_call:10,.0f} {rate / base:9.2f}x")
    mean = moves["legal"] / max(calls["legal"], 1)
    masks = calls["mask"] / seconds["mask"]
    print(f"mean legal moves per call: {mean:.0f}; masks per second: {masks:,.0f}")


if __name__ == "__main__":
    np.seterr(all="raise")
    sys.exit(main())
