"""``blokus-solo gtp`` against Pentobi's own GTP engine (pentobi-gtp), command for command.

Needs a built ``pentobi-gtp`` (Pentobi's source, cmake with ``-DPENTOBI_BUILD_GTP=ON``;
not part of this project): ``--pentobi PATH`` or the environment variable ``PENTOBI_GTP``.

    python benchmarks/gtp_pentobi.py legal [--store tests/data/gtp] [--every N]
        every position of every game (tests/data/games, tests/data/gtp/games): both engines
        get ``loadsgf FILE N``, then ``all_legal`` for each colour (compared as sets of
        moves, square order normalised), ``showboard`` (compared as text) and, at the end
        of each game, ``final_score``. ``--store`` writes Pentobi's answers as test data.
    python benchmarks/gtp_pentobi.py games [--per-variant N] [--level L]
        whole games, ours against Pentobi, through our referee: every genmove answer is
        checked by our rules and by the other engine's ``play``; at the end both engines'
        ``final_score`` and ``showboard`` are compared, and each engine's ``savesgf`` file
        is loaded by the other (``loadsgf``) and must show the same board.

Prints one line per variant and a total; exit status 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from solver.core.variants import VARIANTS, Variant
from solver.formats.game import VARIANTS_BY_SGF, load_game, read_sgf_text
from solver.gtp.client import Client
from solver.gtp.compare import move_set_key, normalised
from solver.gtp.engine import Engine
from solver.gtp.genmove import GenmoveSettings
from solver.gtp.protocol import parse_line

ROOT = Path(__file__).resolve().parents[1]
GAME_DIRS = [ROOT / "tests" / "data" / "games", ROOT / "tests" / "data" / "gtp" / "games"]


def colour_ids(v: Variant) -> list[str]:
    """The colour arguments of a variant: ``b``, ``w`` or ``1``..``4``."""
    return ["b", "w"] if len(v.colours) == 2 else [str(k + 1) for k in range(len(v.colours))]


def ours(*args: str) -> list[str]:
    """The command that starts our engine with this Python."""
    return [sys.executable, "-c", "from solver.cli.commands import main; main()", "gtp", *args]


def pentobi(path: str, *args: str) -> list[str]:
    """The command that starts Pentobi's engine (no opening book, no messages)."""
    return [path, "--nobook", "--quiet", *args]


# -- all_legal on real positions ----------------------------------------------------------


def legal(args: argparse.Namespace) -> int:
    files = sorted(p for d in args.games for p in d.glob("*.blksgf"))
    stored: list[dict] = []
    full: list[dict] = []  # the full lists of one position per variant
    full_done: set[str] = set()
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    bad = 0
    started = time.perf_counter()
    with Client(ours("--time-limit", "0")) as us, Client(pentobi(args.pentobi)) as them:
        for path in files:
            game = load_game(path)
            v = game.variant
            ids = colour_ids(v)
            answers = []
            last = game.num_placements + 1
            numbers = sorted(set(range(1, last + 1, args.every)) | {last})
            for n in numbers:
                command = f"loadsgf {path} {n}"
                for engine in (us, them):
                    engine.send(command)
                row = []
                lists: dict[str, list[str]] = {}
                for cid in ids:
                    a = us.send(f"all_legal {cid}").splitlines()
                    b = them.send(f"all_legal {cid}").splitlines()
                    key_a, key_b = move_set_key(a), move_set_key(b)
                    tally[v.name]["queries"] += 1
                    tally[v.name]["moves"] += len(b)
                    if key_a != key_b:
                        bad += 1
                        only_a = {normalised(m) for m in a} - {normalised(m) for m in b}
                        only_b = {normalised(m) for m in b} - {normalised(m) for m in a}
                        print(
                            f"DIFF {path.name} {n} {cid}: ours only {sorted(only_a)[:5]}, "
                            f"Pentobi only {sorted(only_b)[:5]}"
                        )
                    row.append(key_b)
                    lists[cid] = b
                answers.append(row)
                tally[v.name]["positions"] += 1
                board_a, board_b = us.send("showboard"), them.send("showboard")
                if args.full and v.name not in full_done and n == numbers[len(numbers) // 2]:
                    full_done.add(v.name)
                    full.append(
                        {
                            "file": path.name,
                            "move_number": n,
                            "moves": dict(lists),
                            "showboard": board_b,
                        }
                    )
                if board_a != board_b:
                    bad += 1
                    tally[v.name]["showboard differs"] += 1
                    print(f"SHOWBOARD {path.name} {n}:\n{board_a}\n--- Pentobi:\n{board_b}")
                tally[v.name]["showboards"] += 1
            score_a, score_b = us.send("final_score"), them.send("final_score")
            tally[v.name]["final scores"] += 1
            if score_a != score_b:
                bad += 1
                print(f"FINAL_SCORE {path.name}: ours {score_a!r}, Pentobi {score_b!r}")
            stored.append(
                {
                    "file": path.name,
                    "numbers": numbers,
                    "colours": ids,
                    "keys": answers,
                    "final_score": score_b,
                }
            )
            tally[v.name]["games"] += 1
    for name, t in tally.items():
        print(
            f"{name:9} games {t['games']:3}  positions {t['positions']:5}  all_legal "
            f"{t['queries']:6} ({t['moves']:8} moves)  showboard {t['showboards']:5}  "
            f"final_score {t['final scores']:3}"
        )
    total = sum((t for t in tally.values()), Counter())
    print(
        f"total     games {total['games']}, positions {total['positions']}, all_legal "
        f"{total['queries']} ({total['moves']} moves), disagreements {bad}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    if args.store:
        args.store.mkdir(parents=True, exist_ok=True)
        with open(args.store / "pentobi_all_legal.jsonl", "w") as out:
            for record in stored:
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
        if args.full:
            with open(args.store / "pentobi_all_legal_full.json", "w") as out:
                json.dump(full, out, separators=(",", ":"))
    return 1 if bad else 0


# -- whole games ---------------------------------------------------------------------------


class Referee:
    """Our rules, as an in-process engine that never chooses a move."""

    def __init__(self, v: Variant):
        self.engine = Engine(v)

    def run(self, command: str) -> tuple[bool, str]:
        parsed = parse_line(command)
        assert parsed is not None
        return self.engine.handle(parsed)

    def to_play(self) -> str | None:
        return self.engine.board_info().to_play


def play_game(args: argparse.Namespace, v: Variant, number: int) -> Counter[str]:
    """One game; counts of what happened."""
    seed = 1000 * number + 7
    ids = colour_ids(v)
    settings = ["--seed", str(seed), "--time-limit", str(args.time_limit)]
    tally: Counter[str] = Counter()
    referee = Referee(v)
    with (
        Client(ours(*settings)) as us,
        Client(
            pentobi(
                args.pentobi,
                "--level",
                str(args.level),
                "--seed",
                str(seed),
                "--game",
                v.pentobi_ids[-1],  # the abbreviation (c, c2, c3, d, j)
            )
        ) as them,
    ):
        for engine in (us, them):
            engine.send(f"set_game {v.sgf_name}")
            engine.send("clear_board")
        players = v.seats  # Three-Player's shared green is -1: the same parity as 3
        # the players take turns being us; in Three-Player the shared colour goes by parity
        ours_colours = {c for c, p in zip(v.colours, players) if (p + number) % 2 == 0}
        while (colour := referee.to_play()) is not None:
            cid = ids[v.colours.index(colour)]
            mover, other = (us, them) if colour in ours_colours else (them, us)
            who = "ours" if mover is us else "pentobi"
            move = mover.send(f"genmove {cid}")
            tally[f"moves {who}"] += 1
            if move in ("pass", "resign"):
                tally[f"{move} with moves left {who}"] += 1
                print(f"  {v.name} game {number}: {who} answered {move} for {cid}")
                break
            ok, why = referee.run(f"play {cid} {move}")
            if not ok:
                tally[f"illegal by our rules {who}"] += 1
                print(f"  {v.name} game {number}: {who} played {move} for {cid}: {why}")
                break
            ok, why = other.ask(f"play {cid} {move}")
            if not ok:
                tally[f"refused by the other engine {who}"] += 1
                print(f"  {v.name} game {number}: {who}'s {move} for {cid} refused: {why}")
                break
        scores = [e.send("final_score") for e in (us, them)]
        referee_score = referee.run("final_score")[1]
        tally["games"] += 1
        tally["final_score agrees"] += scores[0] == scores[1] == referee_score
        boards = [e.send("showboard") for e in (us, them)]
        tally["showboard agrees"] += boards[0] == boards[1]
        with tempfile.TemporaryDirectory() as tmp:
            for writer, reader, name in ((us, them, "ours"), (them, us, "pentobi")):
                path = Path(tmp) / f"{name}.blksgf"
                writer.send(f"savesgf {path}")
                reader.send(f"loadsgf {path}")
                same = reader.send("showboard") == boards[0]
                tally[f"savesgf {name} loads in the other"] += same
                if name == "ours":
                    game = read_sgf_text(path.read_text())
                    tally["our savesgf reads back"] += game.final == referee.engine.position
        scored = [c for c in v.colours if not (v.name == "classic3" and c == "green")]
        margin = sum(referee.engine.points(c) * (1 if c in ours_colours else -1) for c in scored)
        tally["won ours" if margin > 0 else "won pentobi" if margin < 0 else "drawn"] += 1
        print(
            f"  {v.name} game {number}: ours {sorted(ours_colours)}, final_score ours "
            f"{scores[0]!r} Pentobi {scores[1]!r} referee {referee_score!r}, margin {margin}"
        )
    return tally


def games(args: argparse.Namespace) -> int:
    bad = 0
    started = time.perf_counter()
    for name in args.variants:
        v = VARIANTS[name]
        total: Counter[str] = Counter()
        for number in range(args.per_variant):
            total.update(play_game(args, v, number))
        n = total["games"]
        failures = sum(
            c for k, c in total.items() if k.startswith(("illegal", "refused", "pass", "resign"))
        )
        both_ways = min(
            total["savesgf ours loads in the other"], total["savesgf pentobi loads in the other"]
        )
        agree = min(
            total["final_score agrees"],
            total["showboard agrees"],
            total["savesgf ours loads in the other"],
            total["savesgf pentobi loads in the other"],
            total["our savesgf reads back"],
        )
        bad += failures + (n - agree)
        print(
            f"{name:9} games {n}, moves ours {total['moves ours']}, Pentobi "
            f"{total['moves pentobi']}, illegal or refused {failures}, final_score agrees "
            f"{total['final_score agrees']}/{n}, showboard {total['showboard agrees']}/{n}, "
            f"savesgf both ways {both_ways}/{n}, won ours {total['won ours']}, Pentobi "
            f"{total['won pentobi']}, drawn {total['drawn']}"
        )
    print(f"total: {bad} disagreements, {time.perf_counter() - started:.0f} s")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pentobi", default=os.environ.get("PENTOBI_GTP", "pentobi-gtp"))
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("legal")
    p.add_argument("--games", type=Path, nargs="+", default=GAME_DIRS)
    p.add_argument("--every", type=int, default=1, help="every N-th position of each game")
    p.add_argument("--store", type=Path, help="write Pentobi's answers into this folder")
    p.add_argument(
        "--full", action="store_true", help="also store one position's full lists per variant"
    )
    p = sub.add_parser("games")
    p.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    p.add_argument("--per-variant", type=int, default=4)
    p.add_argument("--level", type=int, default=1, help="Pentobi's level (1-9)")
    p.add_argument("--time-limit", type=float, default=1.0, help="our genmove's search")
    args = parser.parse_args()
    assert VARIANTS_BY_SGF and GenmoveSettings  # the variants and settings this driver knows
    return legal(args) if args.mode == "legal" else games(args)


if __name__ == "__main__":
    sys.exit(main())
