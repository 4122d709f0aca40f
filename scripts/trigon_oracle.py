"""Ask Pentobi's GTP engine for Blokus Trigon legal moves on many positions, and keep its
answers as test data (issue 43 item 3), so that ``tests/test_trigon_oracle.py`` checks our
rules against Pentobi without Pentobi.

For one game variant (``trigon``: side 9, four colours; ``trigon_3``: side 8, three
colours; ``trigon_2``: side 9, four colours, two players) and a list of seeds it

* plays one self-play game per seed to its end, each move drawn by *our* seeded RNG
  (:class:`random.Random`) from Pentobi's ``all_legal`` list of the colour to move (never
  ``genmove``: the games are not Pentobi's and wander into odd positions). Policy
  ``uniform`` draws a move uniformly; ``size`` first draws a piece size (number of
  triangles) uniformly among the sizes the colour can play, then a move of that size, so
  small pieces come early; ``mixed`` uses ``uniform`` for even seeds and ``size`` for
  odd ones. The colour to move is the next in turn order (1, 2, 3[, 4])
  that has a legal move (Pentobi's turn order passes a colour without one); the game ends
  when no colour has one. After every placement (and on the empty board) it keeps
  Pentobi's ``all_legal`` count of every colour, and every ``--digest-every`` placements
  (and at the end) a digest of each colour's whole move list (:func:`moves_digest`);
* computes perft(1) and perft(2) on the empty board and at one position of each game,
  after ``--perft-at`` placements (the i-th game takes the i-th number of the list,
  cycling), driving Pentobi move by move (``all_legal``,
  ``play``, ``undo``: its GTP has no perft). perft(1) is the number of legal moves of the
  colour to move (the colour that moved next in the game; colour 1 on the empty board);
  perft(2) is the sum, over those moves, of the number of legal moves of the *fixed* next
  colour in turn order (colour ``c % n + 1`` of ``n``) after it: a next colour without a
  move adds 0 (it is not skipped). ``divide`` is the digest of the per-move counts
  (:func:`divide_digest`), which a mistake that keeps the sum would still change.

It writes ``selfplay-<variant>.jsonl`` (one line per game: variant, seed, policy, the moves
as ``[colour, "triangle,names"]``, ``counts[k]`` = every colour's count after ``k``
placements, ``digests`` = ``{k: {colour: digest}}``) and ``perft-<variant>.jsonl`` (one line
per position: variant, seed (None on the empty board), move_number, colour, next, perft1,
perft2, divide) into ``--out`` (replacing them). Digests are the first 16 hex digits of a
sha256 of Pentobi's own move strings, so the data holds no move list yet pins every one.

    python scripts/trigon_oracle.py trigon 1 2 3 --policy uniform --out tests/data/trigon

Pentobi's engine is ``--pentobi``, else ``$PENTOBI_GTP``, else ``pentobi-gtp`` on the PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from solver.gtp.client import Client
from solver.gtp.control import pentobi_command

#: the colours of each Trigon variant, in turn order (Pentobi's ``get_nu_colors``)
COLOURS = {"trigon": "1234", "trigon_2": "1234", "trigon_3": "123"}

#: characters kept of a sha256 hex digest (64 bits: equality, not secrecy)
DIGEST_LENGTH = 16


def move_key(move: str) -> str:
    """A move's canonical text: its triangle names, lower case, sorted, joined by ``,``."""
    return ",".join(sorted(name.strip().lower() for name in move.split(",")))


def digest(lines: Iterable[str]) -> str:
    """The first :data:`DIGEST_LENGTH` hex digits of the sha256 of the sorted lines joined
    by newlines (UTF-8)."""
    text = "\n".join(sorted(lines))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_LENGTH]


def moves_digest(moves: Iterable[str]) -> str:
    """The digest of a move list: of its moves' :func:`move_key`, in any order given."""
    return digest(move_key(m) for m in moves)


def divide_digest(counts: Iterable[tuple[str, int]]) -> str:
    """The digest of a perft divide: of ``"<move_key> <count>"`` per first move."""
    return digest(f"{move_key(m)} {n}" for m, n in counts)


def next_colour(colours: str, colour: str) -> str:
    """The colour after ``colour`` in turn order, passes not skipped."""
    return colours[(colours.index(colour) + 1) % len(colours)]


class Pentobi:
    """Pentobi's GTP engine on one Trigon variant: legal moves, play, undo."""

    def __init__(self, variant: str, program: str | None = None):
        if variant not in COLOURS:
            raise ValueError(f"not a Trigon variant: {variant!r}")
        self.variant = variant
        self.colours = COLOURS[variant]
        self.client = Client([*pentobi_command(program), "--game", variant], label="pentobi")

    def legal(self, colour: str) -> list[str]:
        """Pentobi's ``all_legal`` moves of a colour, as it writes them."""
        return self.client.send(f"all_legal {colour}").split()

    def play(self, colour: str, move: str) -> None:
        """``play``: Pentobi refuses an illegal move (``EngineError``)."""
        self.client.send(f"play {colour} {move}")

    def undo(self) -> None:
        """Take back the last placement."""
        self.client.send("undo")

    def clear(self) -> None:
        """The empty board."""
        self.client.send("clear_board")

    def version(self) -> str:
        """Pentobi's ``name`` and ``version`` answers."""
        return f"{self.client.send('name')} {self.client.send('version')}"

    def close(self) -> None:
        """Quit the engine."""
        self.client.close()


def choose(rng: random.Random, moves: Sequence[str], policy: str) -> str:
    """One of ``moves`` (Pentobi's strings), drawn by ``policy`` from the moves sorted by
    :func:`move_key` (so the draw does not depend on Pentobi's order)."""
    ordered = sorted(moves, key=move_key)
    if policy == "size":
        sizes = sorted({m.count(",") + 1 for m in ordered})
        size = rng.choice(sizes)
        ordered = [m for m in ordered if m.count(",") + 1 == size]
    elif policy != "uniform":
        raise ValueError(f"unknown policy {policy!r}")
    return rng.choice(ordered)


def self_play(engine: Pentobi, seed: int, policy: str, digest_every: int) -> dict:
    """One game from the empty board to its end, moves drawn by ``Random(seed)``.

    Returns:
        The game's record: variant, seed, policy, moves ``[[colour, move], ...]``,
        ``counts`` (one list per position, a count per colour in turn order) and
        ``digests`` (``{str(k): {colour: moves_digest}}``).
    """
    rng = random.Random(seed)
    if policy == "mixed":
        policy = "uniform" if seed % 2 == 0 else "size"
    engine.clear()
    colours = engine.colours
    moves: list[list[str]] = []
    counts: list[list[int]] = []
    digests: dict[str, dict[str, str]] = {}
    last = colours[-1]
    while True:
        legal = {c: engine.legal(c) for c in colours}
        counts.append([len(legal[c]) for c in colours])
        k = len(moves)
        order = [next_colour(colours, last)]
        while len(order) < len(colours):
            order.append(next_colour(colours, order[-1]))
        to_move = next((c for c in order if legal[c]), None)
        if k % digest_every == 0 or to_move is None:
            digests[str(k)] = {c: moves_digest(legal[c]) for c in colours}
        if to_move is None:
            break
        move = choose(rng, legal[to_move], policy)
        engine.play(to_move, move)
        moves.append([to_move, move_key(move)])
        last = to_move
    return {
        "variant": engine.variant,
        "seed": seed,
        "policy": policy,
        "moves": moves,
        "counts": counts,
        "digests": digests,
    }


def perft2(engine: Pentobi, colour: str) -> dict:
    """perft(1) and perft(2) of the engine's position for ``colour`` then the fixed next
    colour in turn order, by ``all_legal``, ``play``, ``undo``; the position is unchanged
    after."""
    after = next_colour(engine.colours, colour)
    divide = []
    for move in engine.legal(colour):
        engine.play(colour, move)
        divide.append((move, len(engine.legal(after))))
        engine.undo()
    return {
        "colour": colour,
        "next": after,
        "perft1": len(divide),
        "perft2": sum(n for _, n in divide),
        "divide": divide_digest(divide),
    }


def perft_of_game(engine: Pentobi, game: dict, move_numbers: Iterable[int]) -> list[dict]:
    """perft at the positions after each of ``move_numbers`` placements of a recorded game
    (those before its end), for the colour that moved next in it."""
    lines = []
    for k in sorted(move_numbers):
        if k >= len(game["moves"]):
            continue
        engine.clear()
        for colour, move in game["moves"][:k]:
            engine.play(colour, move)
        colour = game["moves"][k][0]
        lines.append(
            {"variant": engine.variant, "seed": game["seed"], "move_number": k}
            | perft2(engine, colour)
        )
    return lines


def write_jsonl(path: Path, lines: Iterable[dict]) -> None:
    """One compact JSON object per line."""
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
    path.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=sorted(COLOURS))
    parser.add_argument("seeds", type=int, nargs="+", help="one self-play game per seed")
    parser.add_argument("--policy", choices=["uniform", "size", "mixed"], default="uniform")
    parser.add_argument("--digest-every", type=int, default=8, help="placements (default 8)")
    parser.add_argument(
        "--perft-at", type=int, nargs="*", default=[], help="placements into the games, cycled"
    )
    parser.add_argument("--no-empty-perft", action="store_true", help="skip the empty board")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder of the files")
    parser.add_argument("--pentobi", help="Pentobi's GTP engine (default: $PENTOBI_GTP)")
    args = parser.parse_args(argv)
    engine = Pentobi(args.variant, args.pentobi)
    try:
        print(engine.version(), file=sys.stderr)
        games, perfts = [], []
        if not args.no_empty_perft:
            start = time.monotonic()
            engine.clear()
            perfts.append(
                {"variant": args.variant, "seed": None, "move_number": 0}
                | perft2(engine, engine.colours[0])
            )
            print(f"empty board: {perfts[-1]} in {time.monotonic() - start:.0f} s", file=sys.stderr)
        for seed in args.seeds:
            game = self_play(engine, seed, args.policy, args.digest_every)
            games.append(game)
            if args.perft_at:
                at = args.perft_at[(len(games) - 1) % len(args.perft_at)]
                perfts += perft_of_game(engine, game, [at])
            print(f"seed {seed}: {len(game['moves'])} placements", file=sys.stderr)
        args.out.mkdir(parents=True, exist_ok=True)
        write_jsonl(args.out / f"selfplay-{args.variant}.jsonl", games)
        write_jsonl(args.out / f"perft-{args.variant}.jsonl", perfts)
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
