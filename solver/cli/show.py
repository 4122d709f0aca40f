"""``blokus-solo show``: the position a puzzle, a game record or a solution file
describes, printed or drawn, with its order of play (for numbers and the last piece)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from solver.answers.solution import read_solution
from solver.answers.words import goals_text
from solver.cli.options import after_option, out_option, plain_option
from solver.cli.output import PICTURE_SUFFIXES, make_console, position_line, write_picture
from solver.cli.render import print_position
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.errors import InputError
from solver.formats.files import check_output
from solver.formats.game import load_game
from solver.formats.sources import is_game_file, load_source
from solver.pictures.picture import first_placements, play_order, with_layout
from solver.quoting import shown


@dataclass(frozen=True)
class View:
    """A position to show.

    Attributes:
        position: the position.
        order: the pieces on the board in order of play as (colour, placement), the first
            numbered 1 (a game's setup pieces are not in it).
        kind: "puzzle", "game" or "solution".
        stars: the squares a puzzle or solution asks to cover.
        problem: a puzzle's problem (None for the other kinds).
    """

    position: Position
    order: list[tuple[str, Placement]]
    kind: str
    stars: frozenset[int] = frozenset()
    problem: Problem | None = None


def load_view(path: str, after: int | None = None) -> View:
    """The position a file describes, after ``after`` placements (default: all of them).

    A game record gives its main line's order of play; a solution file its colours'
    placements in their file order, the colours taking turns (:func:`play_order`); a
    puzzle the pieces on its board in a legal order per colour, the colours taking turns.

    Raises:
        InputError: a bad file, ``after`` given for a puzzle or past the last placement.
    """
    if is_game_file(path):
        game = load_game(path)
        position = game.position(after)
        order = [(m.colour, m.placement) for m in game.moves if m.placement is not None]
        return View(position, order[: game.num_placements if after is None else after], "game")
    if Path(path).suffix.lower() == ".json":
        solution = read_solution(path)
        final = with_layout(solution.position, solution.layout)
        order = play_order(final)
        if after is None:
            return View(final, order, "solution", solution.cover)
        if after > len(order):
            raise InputError(
                f"the solution has {len(order)} placements; there is no position after {after}",
                path=path,
                where="--after",
            )
        position = first_placements(final, order, after)
        return View(position, order[:after], "solution", solution.cover)
    problem = load_source(path, after)
    return View(problem.position, play_order(problem.position), "puzzle", problem.cover, problem)


@click.command("show")
@click.argument("source", metavar="FILE")
@after_option(
    "Game records and solution files: the position after N placements (default: all of them)."
)
@out_option("Write a picture instead of printing the board: FILE.svg or FILE.png.")
@click.option(
    "--numbers",
    is_flag=True,
    help="Number the pieces in order of play: on the picture, or as a list after the "
    "printed board.",
)
@click.option(
    "--last/--no-last",
    default=None,
    help="Highlight the last piece placed (default: on for game records and with --after).",
)
@click.option(
    "--size",
    type=click.IntRange(min=16, max=4000),
    default=None,
    metavar="PIXELS",
    help="Picture width in pixels (default: 24 per square, margins included).",
)
@plain_option()
def show_command(
    source: str,
    after: int | None,
    out: str | None,
    numbers: bool,
    last: bool | None,
    size: int | None,
    plain: bool,
) -> None:
    """Show a puzzle (TOML), a game record (.blksgf: the position after N placements) or a
    solution file (JSON): print the board, or write a picture with --out.

    Squares are named as in Pentobi: a1 is the lower-left square. Numbers follow the
    order of play: a game's moves; a solution's placements per colour in file order, the
    colours taking turns; the pieces on a puzzle's board in a legal order per colour."""
    path = check_output(out) if out is not None else None
    if path is not None and path.suffix.lower() not in PICTURE_SUFFIXES:
        raise InputError("show writes pictures: use .svg or .png", path=out, where="--out")
    if size is not None and path is None:
        raise InputError("applies to pictures: give --out FILE.svg or FILE.png", where="--size")
    view = load_view(source, after)
    highlight = last if last is not None else (view.kind == "game" or after is not None)
    last_piece = view.order[-1] if highlight and view.order else None
    if path is not None:
        write_picture(
            path,
            view.position,
            size=size,
            numbers=numbers,
            order=view.order,
            last=last_piece[1] if last_piece else None,
            stars=view.stars,
        )
        click.echo(f"wrote {shown(out)}")
        return
    console = make_console(plain)
    pieces = sum(len(c.placed) for c in view.position.colours)
    console.print(
        f"{position_line(source, after, view.position)}; {pieces} "
        f"{'piece' if pieces == 1 else 'pieces'} on the board"
    )
    print_position(
        console,
        view.position,
        plain,
        last=last_piece[1].squares if last_piece else frozenset(),
        stars=view.stars,
    )
    board = view.position.board
    if view.problem is not None:
        for c in view.problem.colours:
            left = view.position.colour(c).remaining
            console.print(f"{c} to place: {', '.join(left) if left else 'nothing'}")
        console.print(f"goal: {_goal_words(view.problem)}")
    if last_piece:
        colour, p = last_piece
        where = ",".join(board.names(p.squares))
        console.print(f"last piece: {len(view.order)} {colour} {p.piece} at {where}")
    if numbers:
        for k, (colour, p) in enumerate(view.order, start=1):
            where = ",".join(board.names(p.squares))
            console.print(f"{k:4} {colour:7} {p.piece:3} {where}")


def _goal_words(problem: Problem) -> str:
    """A puzzle's goal for a player, e.g. "place all, cover c4 (*); no piece on a #"."""
    words = "place all" if problem.goal == "place-all" else "the highest score"
    if problem.monomino_last:
        words += ", monomino last"
    words += goals_text(problem)
    if problem.position.board.blocked:
        words += "; no piece on a #"
    return words
