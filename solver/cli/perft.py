"""``blokus-solo perft``: the number of lines of play to a depth (:mod:`solver.tasks.perft`),
from a variant's start or from a game record's position."""

from __future__ import annotations

import click

from solver.cli.options import after_option, chosen_colours, colour_option
from solver.cli.params import JOBS, PERFT_DEPTH
from solver.core.position import Position
from solver.core.variants import ALL_VARIANTS
from solver.errors import InputError
from solver.formats.game import load_game
from solver.formats.sources import is_game_file

# The move generator and perft are imported where the count runs: they load numba, which
# every command's --help (it imports this module) would pay.


@click.command("perft")
@click.argument("game", required=False, metavar="[GAME]")
@click.option(
    "--variant",
    type=click.Choice(sorted(ALL_VARIANTS)),
    default=None,
    help="Count from this variant's start (default: classic; not with GAME).",
)
@click.option("--depth", type=PERFT_DEPTH, required=True, metavar="D", help="Turns to count.")
@after_option("GAME: the position after N placements (default: the end).")
@colour_option("The colour to move first (default: the game's colour to move, or the first).")
@click.option(
    "--jobs", type=JOBS, default=1, show_default=True, metavar="N", help="Worker processes."
)
@click.option(
    "--divide", is_flag=True, help="Also print the count below each first move (depth D)."
)
@click.option("--only", is_flag=True, help="Count depth D only (default: every depth 1..D).")
def perft_command(
    game: str | None,
    variant: str | None,
    depth: int,
    after: int | None,
    colours: tuple[str, ...],
    jobs: int,
    divide: bool,
    only: bool,
) -> None:
    """Count the lines of play of depth 1..D (perft, as chess programs count): from a
    variant's start, or from a game record's position. A colour with no legal move passes
    (a turn); a finished game ends its lines. Prints each count with its time and the
    lines counted per second (docs/perft.md)."""
    from solver.core.movegen import MoveState, warm
    from solver.tasks.perft import first_mover, perft

    if game is not None:
        if variant is not None:
            raise InputError("give a GAME or --variant, not both", where="--variant")
        if not is_game_file(game):
            raise InputError("not a game record: perft reads Pentobi .blksgf files", path=game)
        position = load_game(game).position(after)
        where = f"{game} after {after} placements" if after is not None else f"{game} at its end"
    else:
        if after is not None:
            raise InputError("--after needs a GAME", where="--after")
        position = Position.empty(ALL_VARIANTS[variant or "classic"])
        where = f"{variant or 'classic'} from the start"
    chosen = chosen_colours(game or "", position, colours) if colours else ()
    if len(chosen) > 1:
        raise InputError("perft starts with one colour; --colour names several", where="--colour")
    colour = chosen[0] if chosen else None
    first = first_mover(position, colour)
    if position.board.square_grid:  # elsewhere the generic legal moves count (no kernel)
        warm()  # the kernel loaded and the tables built before the clock starts
        MoveState(position)
    click.echo(f"perft {where}, {first} to move first")
    for d in [depth] if only else range(1, depth + 1):
        result = perft(position, d, colour, jobs=jobs)
        rate = f"{result.nodes_per_second:,.0f}/s" if result.seconds > 0 else "-"
        click.echo(f"depth {d}: {result.leaves:,} in {result.seconds:.2f} s ({rate})")
    if divide and depth > 0:
        for name, count in result.divide:
            click.echo(f"  {name}: {count:,}")
