"""``blokus-solo gtp``: a GTP engine on standard input and output (:mod:`solver.gtp`)."""

from __future__ import annotations

import sys

import click

from solver.cli.options import seed_option, time_limit_option
from solver.core.variants import ALL_VARIANTS
from solver.gtp.protocol import GtpError, run

# The engine (solver.gtp.engine, genmove) is imported where a command needs it: it loads
# the move generator's numba kernel, which every other command's start-up would pay.


def _game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--game``: a variant name, checked before the engine starts."""
    from solver.gtp.engine import parse_game

    try:
        return parse_game(value).name
    except GtpError as e:
        raise click.BadParameter(f"{value!r}: {e}") from None


@click.command("gtp")
@click.option(
    "--game",
    "-g",
    default="classic",
    show_default=True,
    callback=_game,
    help='Variant at start-up: Pentobi\'s GM name ("Blokus Duo", "Blokus Trigon"), its id '
    "(classic, classic_2, classic_3, duo, junior, trigon, trigon_2, trigon_3, or c, c2, c3, "
    "d, j, t, t2, t3) or ours (classic2, classic3, trigon, trigon2, trigon3). The set_game "
    "command changes it.",
)
@seed_option("Random seed of genmove, 0 to 2147483647 (also the set_random_seed command).")
@time_limit_option(
    "the exact endgame search of one move (0: the heuristic alone).", default=2.0, per="genmove"
)
@click.option(
    "--endgame-pieces",
    type=click.IntRange(0, 21),
    default=7,
    show_default=True,
    help="genmove searches exactly when the colour has at most this many pieces left.",
)
def gtp_command(game: str, seed: int, time_limit: float, endgame_pieces: int) -> None:
    """Speak the Go Text Protocol on standard input and output, in the dialect of
    Pentobi's engine (pentobi-gtp): its commands (all_legal, play, genmove, undo,
    loadsgf, savesgf, showboard, final_score, ...), colours and move notation, for
    Classic, Two-Player, Three-Player, Duo, Junior and the three Trigon games. For
    controllers such as Pentobi's twogtp, and for programs that want our rules engine.
    See docs/gtp.md."""
    from solver.gtp.engine import Engine
    from solver.gtp.genmove import GenmoveSettings

    settings = GenmoveSettings(time_limit=time_limit, endgame_pieces=endgame_pieces)
    engine = Engine(ALL_VARIANTS[game], seed=seed, settings=settings)
    run(engine.handle, sys.stdin, sys.stdout, lambda: engine.quit)
