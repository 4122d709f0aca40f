"""``blokus-solo check`` (the endgame check: each colour alone, or ``--together`` the
joint answer, or ``--follow`` the game followed move by move) and ``blokus-solo moves``
(a colour's legal moves in a game record)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from solver.answers.words import closeness_lines, endgame_line, joint_line
from solver.backends.base import SolveOptions
from solver.cli.options import (
    ENDGAME_BACKENDS,
    after_option,
    announce_compile,
    check_params,
    chosen_colours,
    colour_option,
    out_option,
    plain_option,
    solver_options,
    together_option,
)
from solver.cli.output import make_console, output_writer, position_line, print_board
from solver.cli.render import print_position
from solver.cli.so_far import so_far_status
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.game import load_game, sgf_moves
from solver.formats.sources import is_game_file, load_source
from solver.pictures.picture import layout_pieces, with_layout
from solver.quoting import shown
from solver.tasks.endgame import answer_record, endgame_check, joint_check

# The companion's follow (solver.companion.follow, cli.together) is imported where --follow
# runs: it loads the exact search's numba kernel, which --help (it imports this module)
# and a check the greedy play answers would pay.


@click.command("moves")
@click.argument("game")
@colour_option(
    "Colour: name (blue), letter (B), or SGF id (1-4, B/W); given twice, by any "
    "spelling, it is one colour.",
    required=True,
)
@after_option("Position after N placements (default: the end).")
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(game: str, colours: tuple[str, ...], after: int | None, count: bool) -> None:
    """List a colour's legal moves in a game record, in SGF notation (one per line)."""
    if not is_game_file(game):
        raise InputError("not a game record: moves reads Pentobi .blksgf files", path=game)
    position = load_game(game).position(after)
    chosen = chosen_colours(game, position, colours)
    if len(chosen) > 1:
        raise InputError(
            f"moves lists one colour's moves; --colour names {' and '.join(chosen)}",
            path=game,
            where="--colour",
        )
    moves = sgf_moves(position, chosen[0])
    if count:
        click.echo(len(moves))
    else:
        for m in moves:
            click.echo(m)
        if not moves:
            click.echo("(no legal moves)", err=True)


@click.command("check")
@click.argument("source", metavar="GAME_OR_PUZZLE")
@after_option("Game records: the position after N placements (default: the end).")
@colour_option(
    "Colour to check (repeatable; default: every colour of a game, the played colours of a puzzle)."
)
@solver_options(
    ENDGAME_BACKENDS,
    "each colour runs place-all, then max-score after a 'no'. Time-outs answer 'unknown' "
    "(never 'no').",
)
@out_option(
    "Write each colour's answer (FILE.json: the layout with the answer and the best "
    "score; FILE.blksgf or a picture, FILE.svg or FILE.png: the layout); with several "
    "colours, FILE-<colour>.json and so on."
)
@click.option("--board/--no-board", "show", default=False, help="Print each layout found.")
@plain_option("With --board: plain text boards even in a terminal.")
@together_option(
    "One joint answer: can the chosen colours (default: every one with pieces left) "
    "all place all their remaining pieces at once, the others frozen?"
)
@click.option(
    "--follow",
    is_flag=True,
    help="With --together on a game record: follow the game from its start to the "
    "position asked, a layout carried from move to move (each placement gets the time "
    "limit), instead of checking the position alone.",
)
def check_command(
    source: str,
    after: int | None,
    colours: tuple[str, ...],
    options: SolveOptions,
    out: str | None,
    show: bool,
    plain: bool,
    together: bool,
    follow: bool,
) -> None:
    """Endgame check: can each colour still place all its remaining pieces, with the other
    colours' squares frozen? Answers yes (with a checked layout), no (proven; then the best
    it can still do), or unknown (time limit: not a "no"). With --together, one answer for
    all the chosen colours at once (the solo player's question)."""
    problem = load_source(source, after)
    position = problem.position
    chosen = chosen_colours(source, position, colours) or tuple(
        c.name for c in position.colours if is_game_file(source) or c.name in problem.colours
    )
    announce_compile(options)
    check_params(options)
    open_ = [c for c in chosen if position.colour(c).remaining]
    if follow:
        _check_follow(source, after, colours, options, out, show, plain, together)
        return
    if together:
        _check_together(source, problem, after, tuple(open_), options, out, show, plain)
        return
    writers = (
        {c: output_writer(_out_for(out, c, len(chosen)), problem, "check") for c in chosen}
        if out
        else {}
    )
    console = make_console(plain)
    console.print(position_line(source, after, position))
    if problem.has_card_goals:
        console.print(
            "  (check asks whether the pieces fit; it ignores cover and connect: solve does not)"
        )
    for c in chosen:
        answer = endgame_check(position, c, options, name=source)
        if not position.colour(c).remaining:
            console.print(f"  {c:7} all pieces already placed, score {position.score(c)}")
        else:
            console.print(endgame_line(answer))
        found = answer.best or answer.place_all
        if show and found.layout is not None and position.colour(c).remaining:
            print_board(console, found, plain)
        if c in writers:
            # every colour's answer is written (a .json file records it: answer_record)
            writer = writers[c]
            assert out is not None  # (writers are made only with --out)
            if writer is not None and writer(found, answer_record(answer)):
                console.print(f"  wrote {shown(_out_for(out, c, len(chosen)))}")
            else:
                console.print(f"  {c:7} no layout to write (the answer is unknown)")


def _check_together(
    source: str,
    problem: Problem,
    after: int | None,
    colours: tuple[str, ...],
    options: SolveOptions,
    out: str | None,
    show: bool,
    plain: bool,
) -> None:
    """``check --together``: one joint answer for ``colours`` (see
    :func:`solver.tasks.endgame.joint_check`)."""
    position = problem.position
    writer = output_writer(out, problem, "check --together") if out else None
    console = make_console(plain)
    console.print(position_line(source, after, position))
    if not colours:
        console.print("  no chosen colour has pieces left")
        return
    with so_far_status():
        answer = joint_check(position, colours, options, name=source)
    console.print(joint_line(answer, position))
    drawn = answer.together
    if answer.answer == "unknown":
        unknown = drawn or (answer.alone[-1] if answer.alone else None)
        for line in closeness_lines(unknown) if unknown is not None else []:
            console.print(line)
        if unknown is not None and unknown.partial is not None:
            drawn = unknown  # its best partial layout is shown and written
    if drawn is not None and (drawn.layout is not None or drawn.partial is not None):
        if show:
            print_board(console, drawn, plain)
        if writer:
            writer(drawn, None)
            console.print(f"  wrote {shown(out)}")
    elif writer:
        console.print(f"  no layout to write (the answer is {answer.answer})")


def _check_follow(
    source: str,
    after: int | None,
    colours: tuple[str, ...],
    options: SolveOptions,
    out: str | None,
    show: bool,
    plain: bool,
    together: bool,
) -> None:
    """``check GAME --after N --together --follow``: the last answer of
    :func:`solver.companion.follow.follow` up to placement N."""
    from solver.answers.annotate_together import step_closeness
    from solver.cli.together import answer_line
    from solver.companion.follow import follow

    if not together or not is_game_file(source):
        raise InputError("--follow follows a game record's moves: use it with --together")
    if colours:
        raise InputError("--follow asks about every colour with pieces left", where="--colour")
    if out:
        raise InputError("--follow prints the answer only (use it without --out)")
    game = load_game(source)
    end = game.num_placements if after is None else after
    console = make_console(plain)
    console.print(position_line(source, after, game.position(end)))
    started = time.perf_counter()
    step = list(follow(game, options, end))[-1]
    console.print(answer_line(step, time.perf_counter() - started))
    for line in step_closeness(step):
        console.print(line)
    drawn = step.layout if step.layout is not None else step.partial  # an unknown's best
    if show and drawn is not None:
        final = with_layout(game.position(end), drawn)
        new = frozenset().union(*(p.squares for p in layout_pieces(drawn)))
        print_position(console, final, plain, new)


def _out_for(out: str, colour: str, how_many: int) -> str:
    if how_many == 1:
        return out
    path = Path(out)
    return str(path.with_name(f"{path.stem}-{colour}{path.suffix}"))
