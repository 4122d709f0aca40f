"""``blokus-solo review``: a game record reviewed move by move, and what it prints (the
summary table, and with ``--moves`` one row per placement; ``--together`` prints through
:mod:`solver.cli.together`).

Summary, one row per colour: the move after which it could no longer place all its pieces
(+15), the one after which it could no longer end with the monomino (+5), and its answer
at the end. Per placement: each colour's answer in a short cell, ``yes 20`` (all fit,
best score 20), ``yes 15`` (all fit, monomino not last), ``yes 15+`` (all fit, monomino
last unknown), ``no -4`` (proven; best score -4, proven), ``no -6..-4`` (best found -6,
at most -4), ``no ?``, ``?`` (unknown), ``done 20``; a ``!`` marks the placement that
took a chance away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from solver.answers.annotate import annotated_sgf, end_text, move_text
from solver.backends.base import DEFAULT_TIME_LIMIT, SolveOptions
from solver.cli.options import (
    ENDGAME_BACKENDS,
    announce_compile,
    check_params,
    chosen_colours,
    colour_option,
    out_option,
    plain_option,
    solver_options,
    together_option,
)
from solver.cli.output import ANSWER_STYLES, board_text, make_console
from solver.errors import InputError, SolverBug
from solver.formats.files import check_output, write_text_atomic
from solver.formats.game import load_game, read_sgf_text
from solver.formats.sources import is_game_file
from solver.formats.text import read_text
from solver.quoting import shown
from solver.tasks.review import (
    Loss,
    Review,
    Verdict,
    review_game,
    setup_between,
)

# The companion's review (--together) is imported where it runs: it loads the exact
# search's numba kernel, which --help (it imports this module) would pay.

if TYPE_CHECKING:
    from solver.formats.game import Game


@click.command("review")
@click.argument("game")
@out_option(
    "Write the game with the review as Pentobi comments (C[...]): FILE.blksgf. "
    "Every move, setup, property and comment of GAME is kept."
)
@colour_option("Colour to review (repeatable; default: every colour).")
@solver_options(
    ENDGAME_BACKENDS,
    "one colour after one move, all its solves together (with --together: every colour "
    "after one move); a time-out answers 'unknown', never 'no'.",
    time_default=DEFAULT_TIME_LIMIT,
    time_per="check",
)
@click.option("--moves", is_flag=True, help="Also print every colour's answer after each move.")
@plain_option("No colours even in a terminal.")
@together_option(
    "The solo player's question instead: after every move, can every colour with "
    "pieces left still place all of them at once? A layout is carried from move to move; "
    "prints the move after which that was lost."
)
def review_command(
    game: str,
    out: str | None,
    colours: tuple[str, ...],
    options: SolveOptions,
    moves: bool,
    plain: bool,
    together: bool,
) -> None:
    """Review a game record: after every move, can each colour still place all its
    pieces (and end with the monomino), and what is the best score it can still reach?
    Each colour is judged on its own, with the other colours as they stand (as check
    does). Prints the move after which each colour lost each chance; --out writes every
    answer into the game as Pentobi comments. With --together, the solo player's question
    instead: can every colour with pieces left still place all of them at once?"""
    if not is_game_file(game):
        raise InputError("not a game record: review reads Pentobi .blksgf files", path=game)
    path = check_output(out) if out is not None else None
    if path is not None and not is_game_file(path):
        raise InputError("review writes game records: use .blksgf", path=out, where="--out")
    check_params(options)
    record = load_game(game)
    announce_compile(options)
    if together:
        if colours:
            raise InputError(
                "--together asks about every colour with pieces left", where="--colour"
            )
        _review_together(game, record, options, path, out, moves, plain)
        return
    chosen = chosen_colours(game, record.final, colours) or record.variant.colours
    with review_progress(record.num_placements) as progress:
        review = review_game(record, chosen, options, progress)
    console = make_console(plain)
    console.print(
        _review_head(game, record)
        + f"reviewed in {review.seconds:.1f} s "
        + f"({review.solves} solves, {review.kept} answers from earlier layouts)"
    )
    print_review(console, review, moves)
    if path is not None:
        _write_reviewed(console, record, annotated_sgf(read_text(game), review, game), path, out)


def _review_head(game: str, record: Game) -> str:
    """The start of review's first line: the file, the board, the placements."""
    return f"{shown(game)}: {board_text(record.final)}, {record.num_placements} placements; "


def _write_reviewed(console: Console, record: Game, text: str, path: Path, out: str | None) -> None:
    """Write a reviewed game record after checking that it reads back to the same moves."""
    again = read_sgf_text(text, str(path))
    if [m.placement for m in again.moves] != [m.placement for m in record.moves]:
        raise SolverBug("the reviewed game record does not read back to the same moves")
    write_text_atomic(path, text)
    console.print(f"wrote {shown(out)}")


def _review_together(
    game: str,
    record: Game,
    options: SolveOptions,
    path: Path | None,
    out: str | None,
    moves: bool,
    plain: bool,
) -> None:
    """``review --together``: the joint answer after every placement
    (:func:`solver.companion.follow.follow_game`), printed and, with --out, written as comments."""
    from solver.answers.annotate_together import annotated_sgf
    from solver.cli.together import print_followed
    from solver.companion.follow import follow_game
    from solver.formats.text import read_text

    with review_progress(record.num_placements) as progress:
        followed = follow_game(record, options, progress)
    console = make_console(plain)
    console.print(
        _review_head(game, record) + f"every colour together, reviewed in {followed.seconds:.1f} s"
    )
    print_followed(console, followed, moves)
    if path is not None:
        _write_reviewed(console, record, annotated_sgf(read_text(game), followed, game), path, out)


@contextmanager
def review_progress(placements: int) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on standard error while a review runs (shown in a terminal only,
    and gone when it ends); yields the ``progress`` callback of
    :func:`solver.tasks.review.review_game`."""
    from rich.progress import Progress

    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("reviewing", total=placements + 1)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done + 1, total=total + 1)

        yield advance


def print_review(console: Console, review: Review, moves: bool) -> None:
    """The summary table, after the per-placement table when ``moves``."""
    if moves:
        _print_moves(console, review)
    losses = review.losses()
    heads = ("all pieces (+15)", "monomino last (+5)")
    rows = [
        [_chance_cell(review, [x for x in losses if x.colour == c], c, w) for w in ("all", "bonus")]
        for c in review.colours
    ]
    widths = [max(len(r[k]) for r in [list(heads), *rows]) for k in range(2)]
    console.print(f"{'colour':7}  {heads[0]:{widths[0]}}  {heads[1]:{widths[1]}}  at the end")
    for colour, cells in zip(review.colours, rows):
        line = Text(f"{colour:7}  ")
        for text, width in zip(cells, widths):
            lost = text.startswith("lost") and "given back" not in text.rsplit(";", 1)[-1]
            line.append(f"{text:{width}}", style="red" if lost else None)
            line.append("  ")
        end = review.final(colour)
        line.append(end_text(end), style=ANSWER_STYLES[end.answer])
        console.print(line)


def _chance_cell(review: Review, losses: list[Loss], colour: str, what: str) -> str:
    """A colour's chance (``what``: "all" or "bonus") over the game: when it was lost (and
    given back by setup), else where it stands at the end."""
    own = [x for x in losses if x.what == what]
    cells = [_loss_cell(x, review) for x in own]
    if own and own[-1].regained is None:
        return "; ".join(cells)
    return "; ".join([*cells, _end_cell(review, colour, what)])


def _end_cell(review: Review, colour: str, what: str) -> str:
    if what == "bonus" and not review.game.variant.bonus:
        return "-"
    end = review.final(colour)
    if end.answer == "unknown" or what == "bonus" and end.bonus == "unknown":
        return "open (time limit)"
    if end.answer == "done":
        return "all placed" if what == "all" else "monomino last"
    return "still possible"


def _loss_cell(loss: Loss, review: Review) -> str:
    if loss.first == 0:
        text = "not possible at the start"
    elif loss.exact:
        text = f"lost at {move_text(loss.move)}"
    elif loss.last_possible is None:
        assert loss.move is not None
        text = f"lost by move {loss.move.number}"
    else:
        since = review.steps[loss.last_possible + 1].move
        assert since is not None and loss.move is not None
        text = f"lost at one of moves {since.number}-{loss.move.number}"
    if loss.regained is None:
        return text
    back = setup_between(review.game, loss)
    if back is None:
        again = review.steps[loss.regained].move
        assert again is not None
        return text + f", yes again after move {again.number} without setup (disagree)"
    move = review.steps[back].move
    assert move is not None
    return text + f", given back by setup after move {move.number}"


def cell(v: Verdict) -> str:
    """One colour's answer in a few characters (see the module docstring)."""
    if v.answer == "unknown":
        return "?"
    if v.best is None:
        return f"{v.answer} ?"
    if v.answer == "yes" and v.bonus == "unknown":
        return f"yes {v.best}+"
    if v.proven or v.answer in ("yes", "done"):
        return f"{v.answer} {v.best}"
    return f"{v.answer} {v.best}..{v.bound}"


def _print_moves(console: Console, review: Review) -> None:
    lost = {(x.first, x.colour) for x in review.losses() if x.exact}
    head = f"{'move':>4} {'colour':7} {'piece':5}" + "".join(f" {c:>10}" for c in review.colours)
    console.print(head)
    for step in review.steps:
        move = step.move
        line = Text(
            f"{move.number if move else 0:>4} {move.colour if move else 'start':7} "
            f"{move.placement.piece if move and move.placement else '':5}"
        )
        for v in step.verdicts:
            mark = "!" if (step.placement, v.colour) in lost else " "
            line.append(f" {cell(v):>9}{mark}", style=ANSWER_STYLES[v.answer])
        console.print(line)
    console.print(
        "yes N: all pieces fit, best score N (N+: the monomino last unknown); no N: proven, "
        "best score N (A..B: best found A, at most B); ?: time limit (not a no); "
        "!: the move took a chance away"
    )
    console.print()
