"""``blokus-solo match``: games between two GTP engines, every move checked by our rules
(:mod:`solver.gtp.match`), in the manner of Pentobi's ``twogtp``."""

from __future__ import annotations

import shlex
from typing import IO, Any

import click

from solver.cli.options import out_option
from solver.cli.params import FiniteFloatRange
from solver.errors import MESSAGE_LIMIT, InputError
from solver.formats.files import check_output_folder
from solver.gtp.control import EngineError, GtpEngine
from solver.gtp.match import (
    EngineFailed,
    GameResult,
    run_match,
    standings,
    table_text,
    variant_named,
)
from solver.quoting import shown

#: at most this many games in one match
MAX_GAMES = 100_000


class EngineStopped(click.ClickException):
    """An engine stopped, or refused a new game, during a match: one line, exit status 2
    (the games before it are written, the forfeited one with them)."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {shown(self.format_message(), MESSAGE_LIMIT)}", err=True)


def _start(command: str, timeout: float, where: str) -> GtpEngine:
    """An engine from its command line (split as a shell splits it).

    Raises:
        InputError: the line does not split, is empty, or the engine does not start and
            answer ``name`` (``where``: the option).
    """
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise InputError(f"{command!r}: {e}", where=where) from None
    if not argv:
        raise InputError("empty engine command", where=where)
    try:
        engine = GtpEngine(argv, timeout=timeout, label=where.lstrip("-"))
    except EngineError as e:
        raise InputError(str(e), where=where) from None
    engine.client.label = f"{where.lstrip('-')} ({engine.name})"
    return engine


def _outcome(game: GameResult) -> str:
    """A game's end in words: who won, and how."""
    if game.forfeit:
        other = "white" if game.forfeit == "black" else "black"
        return f"{other} wins ({game.forfeit} forfeits: {game.reason})"
    if game.resigned:
        other = "white" if game.resigned == "black" else "black"
        return f"{other} wins ({game.resigned} resigned)"
    if game.variant.players > 2:
        return f"black's result {game.result:.2g}"
    return "draw" if game.result == 0.5 else "black wins" if game.result > 0.5 else "white wins"


def _game_line(game: GameResult) -> str:
    """One line per finished game."""
    black, white = (" ".join(game.colours_of(side)) for side in ("black", "white"))
    return (
        f"game {game.number}: black ({black}) {game.points[0]}, "
        f"white ({white}) {game.points[1]}: {_outcome(game)}, {len(game.moves)} moves"
    )


@click.command("match")
@click.option(
    "--black",
    "-b",
    required=True,
    metavar="COMMAND",
    help='The first engine\'s command line, e.g. "pentobi-gtp --nobook --quiet --level 1" '
    'or "blokus-solo gtp --time-limit 0" (split as a shell splits it).',
)
@click.option("--white", "-w", required=True, metavar="COMMAND", help="The second engine's.")
@click.option(
    "--game",
    "-g",
    default="classic",
    show_default=True,
    help="Variant: ours (classic, classic2, classic3, duo, junior, trigon, trigon2, trigon3), "
    'Pentobi\'s GM name ("Blokus Duo", "Blokus Trigon") or its id (classic_2, c2, d, j, t3, '
    "...).",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1, MAX_GAMES),
    default=1,
    show_default=True,
    help="Games to play; the engines take turns at playing first.",
)
@out_option(
    "Folder for the game records (game-0001.blksgf, ...), games.csv and results.csv "
    "(made if missing; written after each game).",
    metavar="DIR",
    required=True,
)
@click.option(
    "--timeout",
    type=FiniteFloatRange(0, None, min_open=True),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds an engine has to answer one command, genmove included (its first "
    "answer, at start-up, at least 60); past it the engine is stopped, forfeits the game "
    "and the match ends.",
)
def match_command(black: str, white: str, game: str, games: int, out: str, timeout: float) -> None:
    """Play games between two GTP engines (Pentobi's pentobi-gtp, ours, any engine of
    Pentobi's dialect), every move checked by our rules, as Pentobi's twogtp does: black
    plays the first player's colours in game 1, the second's in game 2, and so on. Writes
    each game as a Pentobi record and prints each engine's wins, draws, losses, forfeits
    and mean points. An engine's fault (a move our rules refuse, a failed genmove or
    play) forfeits the game, its reason in the record and games.csv, and the match goes
    on; an engine that stops (a crash, no answer within --timeout) forfeits its game and
    ends the match: one line naming it and the command, exit status 2, every game so far
    written. See docs/engine-api.md."""
    variant = variant_named(game)
    folder = check_output_folder(out)
    with _start(black, timeout, "--black") as first, _start(white, timeout, "--white") as second:
        names = [f"{e.name} {e.version}".strip() for e in (first, second)]
        click.echo(f"{variant.sgf_name}: black {names[0]}, white {names[1]}")
        played: list[GameResult] = []

        def report(result: GameResult) -> None:
            played.append(result)
            click.echo(_game_line(result))

        try:
            run_match(first, second, variant, games, folder, progress=report)
        except EngineFailed as e:
            click.echo("\n" + table_text(standings(played, names)), nl=False)
            raise EngineStopped(str(e)) from None
        except EngineError as e:  # (a new game refused)
            if played:
                click.echo("\n" + table_text(standings(played, names)), nl=False)
            raise EngineStopped(f"game {len(played) + 1}: {e}") from None
    click.echo("\n" + table_text(standings(played, names)), nl=False)
    click.echo(f"records and tables in {folder}")
