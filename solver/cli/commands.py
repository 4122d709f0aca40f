"""The ``blokus-solo`` command line (Click).

Bad input of any kind ends with one line on standard error naming the file and the place,
and exit status 2; no traceback, and no output file is touched.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click
from rich.console import Console

from solver.answers.solution import read_solution, verify
from solver.answers.words import endgame_line, goals_text
from solver.backends import registry
from solver.backends.registry import backend as engine
from solver.cli.cards import generate_command, hint_command, rate_command
from solver.cli.output import (
    PICTURE_SUFFIXES,
    describe_problem,
    describe_result,
    make_console,
    output_writer,
    print_board,
)
from solver.cli.params import (
    LIMIT,
    MAX_SEED,
    MAX_WORKERS,
    PLACEMENTS,
    SECONDS,
    SEED,
    WORKERS,
    Command,
)
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import colour_name
from solver.errors import MESSAGE_LIMIT, InputError, located
from solver.formats.files import check_output, write_text_atomic
from solver.formats.sources import is_game_file, load_source
from solver.quoting import shown
from solver.tasks.endgame import answer_record, endgame_check
from solver.tasks.review import DEFAULT_TIME_LIMIT
from solver.tasks.solve import BACKENDS, SolveOptions, SolverBug, solve

if TYPE_CHECKING:
    from solver.answers.solution import SolutionFile
    from solver.backends.search import CountResult
    from solver.batch.work import Settings
    from solver.core.checker import CheckReport
    from solver.formats.game import Game

#: the backends of ``check`` and ``review``: their solves include max-score after a "no",
#: which the symmetric reduction and the domain search do not answer
ENDGAME_BACKENDS = tuple(b for b in BACKENDS if b not in ("domain", "symmetric"))


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {shown(self.format_message(), MESSAGE_LIMIT)}", err=True)


class Group(click.Group):
    """Turns InputError into :class:`BadInput`; Ctrl-C into "interrupted" and exit 130; a
    closed output pipe into a quiet exit 141; any other failure into one line and exit 70."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as e:
            raise BadInput(str(e)) from None
        except click.UsageError as e:
            name = e.ctx.command_path if e.ctx else "blokus-solo"
            raise BadInput(f"{e.format_message()} (see {name} --help)") from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            # os._exit: OR-tools may still own native threads that abort the interpreter's
            # normal shutdown; every output file is written atomically, so none is half done
            os._exit(130)
        except BrokenPipeError:  # e.g. | head: stop quietly, as Python's docs advise
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as e:  # a bug: one line, no traceback (BLOKUS_DEBUG=1 shows it)
            if os.environ.get("BLOKUS_DEBUG"):
                raise
            what = shown(f"{e.__class__.__name__}: {e}", MESSAGE_LIMIT)
            click.echo(f"internal error (please report): {what}", err=True)
            sys.exit(70)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blokus-solo")
def main() -> None:
    """Solve Blokus placement puzzles: can a colour still place all its pieces, find a
    layout that places all 21 (or 84), count layouts, analyse Pentobi game records."""


def solver_options(
    backends: tuple[str, ...],
    time_help: str,
    time_default: float | None = None,
    workers: int = 2,
) -> Callable[[Command], Command]:
    """The options shared by every command that solves (as a decorator); ``time_default``
    and ``workers``: the defaults of --time-limit and --workers."""
    options = [
        click.option(
            "--backend",
            type=click.Choice(backends),
            default="auto",
            show_default=True,
            help="; ".join(f"{b}: {engine(b).summary}" for b in backends[1:] + backends[:1]) + ".",
        ),
        click.option(
            "--time-limit",
            type=SECONDS,
            default=time_default,
            show_default=time_default is not None,
            metavar="SECONDS",
            help=time_help,
        ),
        click.option(
            "--workers",
            type=WORKERS,
            default=workers,
            show_default=True,
            help=f"Threads, 1 to {MAX_WORKERS}: CP-SAT workers, or the search's portfolio "
            "members, or the domain search's seed streams (at most 8) (auto: the search "
            "keeps N, CP-SAT gets N-1).",
        ),
        click.option(
            "--seed",
            type=SEED,
            default=0,
            show_default=True,
            help=f"Random seed, 0 to {MAX_SEED}.",
        ),
        click.option(
            "--params",
            default="",
            metavar="TEXT",
            help='Extra CP-SAT parameters, protobuf text format, e.g. "log_search_progress: '
            'true". With "linearization_level:2" (or more) the model also gets the 2x2-block '
            "rows (strong for proofs of no; slower otherwise). A no or a proven best counts "
            "as a proof only if every field set is harmless (threads, seed, time, logging, "
            "linearization_level, root_lp_iterations); with any other field a no is "
            "unknown (docs/guarantees.md).",
        ),
    ]

    def decorate(f: Command) -> Command:
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def make_options(
    backend: str, time_limit: float | None, workers: int, seed: int, params: str
) -> SolveOptions:
    """SolveOptions from the shared command-line options. With ``auto``, the first run
    after installing (no compiled search kernel cached) compiles the kernel in the
    background once auto needs it, and says so (see :mod:`solver.backends.warmup`); with
    a backend whose kernel must first compile in this command, says that before it."""
    from solver.backends import warmup

    if backend == "auto":
        warmup.on_background_compile = _compile_notice
    else:
        wait = warmup.compile_wait(backend)
        if wait is not None:  # say what the first answer waits for
            click.echo(wait, err=True)
    return SolveOptions(
        backend=backend, time_limit=time_limit, workers=workers, seed=seed, params=params
    )


def _compile_notice(since: float | None) -> None:
    """What a first run tells while the kernels compile in the background (``since``:
    seconds since another command started that compile; None: this one did)."""
    meanwhile = "greedy play, CP-SAT and, where it applies, the domain search answer meanwhile"
    if since is None:
        said = "first run: compiling the exact search kernels in the background (once, 10-30 s)"
    else:
        said = (
            "first run: the exact search kernels are still compiling in the background "
            f"(started {since:.0f} s ago by another command; 10-30 s in all)"
        )
    click.echo(f"{said}; {meanwhile}", err=True)


@main.command("solve")
@click.argument("puzzle")
@solver_options(
    BACKENDS,
    "Stop after this many seconds (default: no limit): place-all "
    "answers 'unknown' (never 'no'); max-score gives the best layout so far "
    "with a proven bound.",
)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write the solution: FILE.json (solution file), FILE.blksgf (Pentobi), or a "
    "picture of the board: FILE.svg or FILE.png.",
)
@click.option("--plain", is_flag=True, help="Plain text board even in a terminal.")
def solve_command(
    puzzle: str,
    backend: str,
    time_limit: float | None,
    workers: int,
    seed: int,
    params: str,
    out: str | None,
    plain: bool,
) -> None:
    """Solve a puzzle file (TOML) and print the board, status, time and scores."""
    if is_game_file(puzzle):
        raise InputError(
            "a game record: use blokus-solo check (endgame check) or moves; "
            "solve reads puzzle files (.toml)",
            path=puzzle,
        )
    problem = load_source(puzzle)
    writer = output_writer(out, problem)
    check_params(backend, params)
    registry.backend(backend).check(problem)  # a refusal before any output
    console = make_console(plain)
    describe_problem(console, problem)
    result = solve(problem, make_options(backend, time_limit, workers, seed, params))
    print_board(console, result, plain)
    describe_result(console, result)
    if writer:
        if not writer(result):
            console.print(f"no layout: {shown(out)} not written (a .json file records the status)")
        else:
            console.print(f"wrote {shown(out)}")


def check_params(backend: str, params: str) -> None:
    """Refuse CP-SAT parameters given to the search backend (they would be ignored), and
    parameters that do not parse, before solving (auto may never start CP-SAT)."""
    if not params:
        return
    if backend == "search":
        raise InputError(
            "--params sets CP-SAT parameters; the search backend has none", where="--params"
        )
    from solver.backends.cpsat import parse_params

    parse_params(params)


@main.command("moves")
@click.argument("game")
@click.option(
    "--colour",
    "--color",
    "colours",
    required=True,
    multiple=True,
    help="Colour: name (blue), letter (B), or SGF id (1-4, B/W); given twice, by any "
    "spelling, it is one colour.",
)
@click.option(
    "--after",
    type=PLACEMENTS,
    default=None,
    metavar="N",
    help="Position after N placements (default: the end).",
)
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(game: str, colours: tuple[str, ...], after: int | None, count: bool) -> None:
    """List a colour's legal moves in a game record, in SGF notation (one per line)."""
    from solver.formats.game import load_game, sgf_moves

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


@main.command("check")
@click.argument("source", metavar="GAME_OR_PUZZLE")
@click.option(
    "--after",
    type=PLACEMENTS,
    default=None,
    metavar="N",
    help="Game records: the position after N placements (default: the end).",
)
@click.option(
    "--colour",
    "--color",
    "colours",
    multiple=True,
    help="Colour to check (repeatable; default: every colour of a game, the played "
    "colours of a puzzle).",
)
@solver_options(
    ENDGAME_BACKENDS,
    "Seconds per solve (default: no limit); each colour runs place-all, then "
    "max-score after a 'no'. Time-outs answer 'unknown' (never 'no').",
)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write each colour's answer (FILE.json: the layout with the answer and the best "
    "score; FILE.blksgf or a picture, FILE.svg or FILE.png: the layout); with several "
    "colours, FILE-<colour>.json and so on.",
)
@click.option("--board/--no-board", "show", default=False, help="Print each layout found.")
@click.option("--plain", is_flag=True, help="With --board: plain text boards even in a terminal.")
@click.option(
    "--together",
    is_flag=True,
    help="One joint answer: can the chosen colours (default: every one with pieces left) "
    "all place all their remaining pieces at once, the others frozen?",
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
    backend: str,
    time_limit: float | None,
    workers: int,
    seed: int,
    params: str,
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
    options = make_options(backend, time_limit, workers, seed, params)
    check_params(backend, params)
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
    console.print(_position_line(source, after, position))
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


def _position_line(source: str, after: int | None, position: Position) -> str:
    """The file, the placement count asked for, the board, and who is to move."""
    where = f" after {after} placements" if after is not None else ""
    board = f"{position.variant} {position.board.rows}x{position.board.cols}"
    return f"{shown(source)}{where}: {board}{_to_move(position)}"


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
    from solver.answers.words import closeness_lines, joint_line
    from solver.tasks.endgame import joint_check

    position = problem.position
    writer = output_writer(out, problem, "check --together") if out else None
    console = make_console(plain)
    console.print(_position_line(source, after, position))
    if not colours:
        console.print("  no chosen colour has pieces left")
        return
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
    :func:`solver.tasks.follow.follow` up to placement N."""
    from solver.cli.together import answer_line, closeness_lines
    from solver.formats.game import load_game
    from solver.tasks.follow import follow

    if not together or not is_game_file(source):
        raise InputError("--follow follows a game record's moves: use it with --together")
    if colours:
        raise InputError("--follow asks about every colour with pieces left", where="--colour")
    if out:
        raise InputError("--follow prints the answer only (use it without --out)")
    game = load_game(source)
    end = game.num_placements if after is None else after
    console = make_console(plain)
    console.print(_position_line(source, after, game.position(end)))
    started = time.perf_counter()
    step = list(follow(game, options, end))[-1]
    console.print(answer_line(step, time.perf_counter() - started))
    for line in closeness_lines(step):
        console.print(line)
    drawn = step.layout if step.layout is not None else step.partial  # an unknown's best
    if show and drawn is not None:
        from solver.cli.render import print_position
        from solver.pictures.picture import layout_pieces, with_layout

        final = with_layout(game.position(end), drawn)
        new = frozenset().union(*(p.squares for p in layout_pieces(drawn)))
        print_position(console, final, plain, new)


def _to_move(position: Position) -> str:
    """ ", X to move" (the next colour in turn order that has a legal move), ", game over"
    when no colour has one, or "" for a position without a turn order."""
    from solver.core.placements import legal_moves

    if not position.to_move:
        return ""
    names = position.colour_names
    start = names.index(position.to_move)
    for name in names[start:] + names[:start]:
        if legal_moves(position, name):
            return f", {name} to move"
    return ", game over (no colour can move)"


def chosen_colours(source: str, position: Position, texts: tuple[str, ...]) -> tuple[str, ...]:
    """The colours of repeated ``--colour`` options, each once, in the order first given:
    ``--colour blue --colour B`` is blue. A game record takes SGF ids (``B``/``W``,
    ``1``-``4``) as well as names; a puzzle takes names and diagram letters.

    Raises:
        InputError: a colour the position does not have (``where="--colour"``).
    """
    with located(path=source, where="--colour"):
        if is_game_file(source):
            from solver.core.variants import VARIANTS
            from solver.formats.game import parse_colour

            names = [parse_colour(VARIANTS[position.variant], t) for t in texts]
        else:
            names = [colour_name(t) for t in texts]
            for name in names:
                position.colour(name)
    return tuple(dict.fromkeys(names))


def with_colours(problem: Problem, source: str, colours: tuple[str, ...]) -> Problem:
    """The problem with ``--colour`` choices as its played colours (unchanged without any).
    Raises InputError for an unknown colour, or one the problem's rules refuse (e.g. a
    colour with no monomino left in a monomino-last puzzle)."""
    if not colours:
        return problem
    chosen = chosen_colours(source, problem.position, colours)
    with located(path=source, where="--colour"):
        return dataclasses.replace(problem, colours=chosen)


def _out_for(out: str, colour: str, how_many: int) -> str:
    if how_many == 1:
        return out
    path = Path(out)
    return str(path.with_name(f"{path.stem}-{colour}{path.suffix}"))


@main.command("review")
@click.argument("game")
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write the game with the review as Pentobi comments (C[...]): FILE.blksgf. "
    "Every move, setup, property and comment of GAME is kept.",
)
@click.option(
    "--colour",
    "--color",
    "colours",
    multiple=True,
    help="Colour to review (repeatable; default: every colour).",
)
@solver_options(
    ENDGAME_BACKENDS,
    "Seconds per check (one colour after one move, all its solves together); a "
    "time-out answers 'unknown', never 'no'.",
    time_default=DEFAULT_TIME_LIMIT,
)
@click.option("--moves", is_flag=True, help="Also print every colour's answer after each move.")
@click.option("--plain", is_flag=True, help="No colours even in a terminal.")
@click.option(
    "--together",
    is_flag=True,
    help="The solo player's question instead: after every move, can every colour with "
    "pieces left still place all of them at once? A layout is carried from move to move; "
    "prints the move after which that was lost.",
)
def review_command(
    game: str,
    out: str | None,
    colours: tuple[str, ...],
    backend: str,
    time_limit: float | None,
    workers: int,
    seed: int,
    params: str,
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
    from solver.answers.annotate import annotated_sgf
    from solver.cli.review import print_review, review_progress
    from solver.formats.game import load_game
    from solver.formats.text import read_text
    from solver.tasks.review import review_game

    if not is_game_file(game):
        raise InputError("not a game record: review reads Pentobi .blksgf files", path=game)
    path = check_output(out) if out is not None else None
    if path is not None and not is_game_file(path):
        raise InputError("review writes game records: use .blksgf", path=out, where="--out")
    check_params(backend, params)
    record = load_game(game)
    options = make_options(backend, time_limit, workers, seed, params)
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
    board = record.final.board
    size = f"{board.rows}x{board.cols}"
    return f"{shown(game)}: {record.variant.name} {size}, {record.num_placements} placements; "


def _write_reviewed(console: Console, record: Game, text: str, path: Path, out: str | None) -> None:
    """Write a reviewed game record after checking that it reads back to the same moves."""
    from solver.formats.game import read_sgf_text

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
    (:func:`solver.tasks.follow.follow_game`), printed and, with --out, written as comments."""
    from solver.answers.annotate_together import annotated_sgf
    from solver.cli.review import review_progress
    from solver.cli.together import print_followed
    from solver.formats.text import read_text
    from solver.tasks.follow import follow_game

    with review_progress(record.num_placements) as progress:
        followed = follow_game(record, options, progress)
    console = make_console(plain)
    console.print(
        _review_head(game, record) + f"every colour together, reviewed in {followed.seconds:.1f} s"
    )
    print_followed(console, followed, moves)
    if path is not None:
        _write_reviewed(console, record, annotated_sgf(read_text(game), followed, game), path, out)


@main.command("count")
@click.argument("source", metavar="PUZZLE")
@click.option(
    "--after",
    type=PLACEMENTS,
    default=None,
    metavar="N",
    help="Game records: the position after N placements.",
)
@click.option(
    "--limit",
    type=LIMIT,
    default=None,
    metavar="N",
    help="Stop once more than N layouts are found (the count is then 'at least N'); "
    "with --up-to-symmetry N counts layouts, not orbits.",
)
@click.option(
    "--up-to-symmetry",
    is_flag=True,
    help="Count layouts that differ by a board symmetry fixing every start "
    "square (and the board's contents) once.",
)
@click.option(
    "--colour",
    "--color",
    "colours",
    multiple=True,
    help="Colour to play (repeatable; default: the played colours of a puzzle, "
    "every colour of a game); the others stay frozen.",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Stop after this many seconds (the count is then a lower bound).",
)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write the first layout counted: a picture (FILE.svg or FILE.png), FILE.json or "
    "FILE.blksgf; checked by the rule checker first.",
)
def count_command(
    source: str,
    after: int | None,
    colours: tuple[str, ...],
    limit: int | None,
    up_to_symmetry: bool,
    time_limit: float | None,
    out: str | None,
) -> None:
    """Count the distinct final layouts that place every remaining piece of the played
    colours (order of play ignored; monomino-last honoured).

    A stopped count prints a true lower bound and what stopped it (the limit or the time
    limit); up to symmetry that bound is ceil(layouts found / symmetries), since an orbit
    holds at most one layout per symmetry."""
    from solver.backends.search import count

    problem = with_colours(load_source(source, after), source, colours)
    problem = dataclasses.replace(problem, goal="place-all")  # what count counts
    writer = output_writer(out, problem, "count")
    result = count(problem, limit=limit, up_to_symmetry=up_to_symmetry, time_limit=time_limit)
    _count_line(result, up_to_symmetry)
    if writer is None:
        return
    from solver.backends.search import first_layout
    from solver.tasks.solve import checked_result

    started = time.perf_counter()
    found = first_layout(problem) if result.layouts else None
    if found is None or found.layout is None:
        click.echo(f"no layout: {shown(out)} not written")
        return
    writer(checked_result(problem, found, "search", started))
    click.echo(f"wrote {shown(out)} (the first layout counted)")


def _count_line(result: CountResult, up_to_symmetry: bool) -> None:
    """The count, or the lower bound and what stopped the count, with time and nodes."""
    what = ("layout" if result.count == 1 else "layouts") + (
        " up to symmetry" if up_to_symmetry else ""
    )
    stats = f"[{result.seconds:.2f} s, {result.nodes} nodes]"
    if result.complete:
        click.echo(f"{result.count} {what}  {stats}")
        return
    detail = ""
    if result.symmetries > 1:
        layouts = f"{result.layouts} layout" + ("" if result.layouts == 1 else "s")
        detail = f"; at least {layouts}, at most {result.symmetries} per orbit"
    click.echo(
        f"at least {result.count} {what} ({result.stopped_by} reached: count "
        f"incomplete{detail})  {stats}"
    )


@main.command("show")
@click.argument("source", metavar="FILE")
@click.option(
    "--after",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Game records and solution files: the position after N placements (default: all of them).",
)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write a picture instead of printing the board: FILE.svg or FILE.png.",
)
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
@click.option("--plain", is_flag=True, help="Plain text board even in a terminal.")
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
    from solver.cli.output import write_picture
    from solver.cli.render import print_position
    from solver.cli.show import load_view

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
        f"{_position_line(source, after, view.position)}; {pieces} "
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


@main.command("export")
@click.argument("source", metavar="PUZZLE")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dlx"]),
    default="dlx",
    show_default=True,
    help="dlx: Knuth's DLX text format (items line, then one option per line).",
)
@click.option(
    "--after",
    type=PLACEMENTS,
    default=None,
    metavar="N",
    help="Game records: the position after N placements.",
)
@click.option(
    "--squares-primary",
    is_flag=True,
    help="Make the free squares primary items (with one hole option each).",
)
@click.option(
    "--colour",
    "--color",
    "colours",
    multiple=True,
    help="Colour to play (repeatable; default: the played colours of a puzzle, "
    "every colour of a game); the others stay frozen.",
)
@click.option("--out", default=None, metavar="FILE", help="Write to FILE instead of stdout.")
def export_command(
    source: str,
    fmt: str,
    after: int | None,
    colours: tuple[str, ...],
    squares_primary: bool,
    out: str | None,
) -> None:
    """Export the exact-cover formulation (items: pieces, squares, same-colour edges;
    options: placements). Connectivity is not expressible in exact cover: check covers."""
    from solver.backends.exact_cover import formulation, to_dlx

    if out:
        check_output(out)
    problem = with_colours(load_source(source, after), source, colours)
    text = to_dlx(formulation(problem, squares_primary=squares_primary))
    if out:
        write_text_atomic(out, text)
    else:
        click.echo(text, nl=False)


@main.command("verify")
@click.argument("solution")
@click.option(
    "--prove",
    is_flag=True,
    help="Also prove the claims the rules cannot check (status optimal or infeasible, an "
    "upper bound, an endgame no) again with the exact search.",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="With --prove: seconds per proof, 0 or more (default: no limit).",
)
def verify_command(solution: str, prove: bool, time_limit: float | None) -> None:
    """Check a solution file (JSON) with the independent rule checker: every placement
    legal, the scores, the status against the layout, the goals; the puzzle it names (if
    that file is here) must have its board, colours and pieces. Optimality and
    infeasibility are proofs the rules cannot check: verify says so, and --prove proves
    them again.

    Exit status 0 if every placement is legal and every claim checked holds, 1 if a rule
    is broken or a claim is false (--prove: the search refutes it), 2 if the file cannot
    be read or is not a solution of the puzzle it names, 3 if --prove could not settle a
    claim within --time-limit.
    """
    from solver.trust.claims import puzzle_check

    if time_limit is not None and not prove:
        raise InputError("applies only with --prove", where="--time-limit")
    if is_game_file(solution):
        raise InputError(
            "a game record: verify reads solution files (.json); use blokus-solo "
            "check or moves for game records",
            path=solution,
        )
    loaded = read_solution(solution)
    with located(path=solution):
        compared = puzzle_check(loaded, Path(solution).parent)
    report, mismatches = verify(loaded)
    if not report.legal:
        click.echo(f"{shown(solution)}: ILLEGAL: {report.problem}")
        sys.exit(1)
    total = sum(len(v) for v in loaded.replay.values())
    added = sum(len(v) for v in loaded.layout.values())
    click.echo(
        f"{shown(solution)}: legal: {total} placements replayed by the rules from the empty "
        f"board ({added} added by the solver)"
    )
    played = {e.get("name"): e.get("played", True) for e in loaded.data["colours"]}
    for r in report.colours:
        extra = ", monomino last" if r.monomino_last and r.all_placed else ""
        n = len(r.remaining)
        left = f"{n} piece{'s' if n != 1 else ''} left" if n else "all pieces placed"
        frozen = "" if played.get(r.colour, True) else " (not played)"
        click.echo(f"  {r.colour:7} {left}, score {r.score}{extra}{frozen}")
    if "endgame" in loaded.data:
        click.echo(f"  endgame: {_endgame_claim(loaded.data['endgame'])}")
    if loaded.data.get("status") == "unknown":  # a stopped run: nothing claimed either way
        click.echo("  status: unknown (the run stopped without an answer: no claim to check)")
        if loaded.partial is not None:
            partial = loaded.data["partial"]
            placed = sum(len(v) for v in loaded.partial.values())
            click.echo(
                f"  partial layout: {placed} placements checked as a partial layout "
                f"(legal, connected), {partial.get('squares_left', '?')} squares left"
            )
        if "fit" in loaded.data:
            fit = loaded.data["fit"]
            click.echo(
                f"  bound (claimed, {fit.get('by', '?')}): at most {fit['most']} of the "
                f"{fit['need']} squares fit"
            )
    if loaded.cover or loaded.connect:
        asked = [f"cover {s}" for s in loaded.position.board.names(loaded.cover)]
        asked += [f"connect {c}" for c in loaded.connect]
        missed = "; not met: " + "; ".join(report.unmet) if report.unmet else ""
        click.echo(f"  goals: {', '.join(asked)}{missed or ' (all met)'}")
    goals = ", goals" if loaded.cover or loaded.connect else ""
    click.echo(f"  checked: placements legal, scores, status against the layout{goals}")
    click.echo(f"  {compared}")
    for m in mismatches:
        click.echo(f"{shown(solution)}: FALSE CLAIM: {m}")
    if mismatches:
        sys.exit(1)
    _verify_proofs(solution, loaded, report, prove, time_limit)


def _verify_proofs(
    solution: str,
    loaded: SolutionFile,
    report: CheckReport,
    prove: bool,
    time_limit: float | None,
) -> None:
    """verify's last lines: the claims the rules cannot check, named (without --prove) or
    proved again (exit 1 if one is refuted, 3 if one is not settled in time)."""
    from solver.trust.claims import prove as prove_claims
    from solver.trust.claims import unproved_claims

    if not prove:
        for _, claim in unproved_claims(loaded):
            click.echo(f"  {claim}: not checked, use --prove")
        return
    with located(path=solution):
        proofs = prove_claims(loaded, report, time_limit)
    for p in proofs:
        if p.held is False:
            click.echo(f"{solution}: FALSE CLAIM: {p.claim}: {p.line}")
        else:
            click.echo(f"  {p.claim}: {p.line}")
    if any(p.held is False for p in proofs):
        sys.exit(1)
    if any(p.held is None for p in proofs):
        sys.exit(3)


def _endgame_claim(record: dict) -> str:
    """What a solution file's endgame record claims, in words."""
    if record.get("left") == 0:
        return f"{record['colour']} has already placed all its pieces"
    text = f"{record['colour']} can place all its {record.get('left', '?')} pieces left: "
    text += {"no": "no (proven)"}.get(record["answer"], record["answer"])
    if record["answer"] == "no" and record.get("best") is not None:
        proven = record.get("best_status") == "optimal"
        text += f"; best score {record['best']}" + (" (proven best)" if proven else "")
    return text


@main.command("batch")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--out",
    "out",
    required=True,
    metavar="DIR",
    help="Output folder: results.jsonl, summary.csv, README.md, solutions/ (each layout as "
    ".json and an .svg picture; made if needed; a batch run again into it skips what is done).",
)
@click.option(
    "--every",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Game records: check after every N-th placement and at the end (default: the end).",
)
@click.option(
    "--after",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Game records: check the position after N placements.",
)
@solver_options(
    BACKENDS,
    "Seconds per solve (default: no limit); a game colour runs place-all, then max-score "
    "after a 'no'. Time-outs answer 'unknown' (never 'no').",
    workers=1,
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes (default: this machine's cores).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a "
    "new local cluster of --jobs workers (needs Dask: pip install '.[cluster]').",
)
@click.option(
    "--together",
    is_flag=True,
    help="Game records: one joint check per position (as check --together: can every "
    "colour with pieces left place all of them at once?) instead of one per colour.",
)
@click.option(
    "--seeds",
    type=click.IntRange(1, 100_000),
    default=1,
    show_default=True,
    metavar="N",
    help="Puzzles: a seed sweep. Each puzzle runs N times as separate items, with seeds "
    "SEED, SEED+W, ..., SEED+(N-1)W (W: --workers; spread over the worker processes or the "
    "cluster); once one answers it (a layout; for max-score a proven best; a proof of "
    "no), its other seeds are dropped (local "
    "workers running one are stopped; on Dask one already running runs on to its time "
    "limit: give --time-limit). For hard "
    "layouts with the restarting searches (--backend domain or repair): many independent "
    "runs.",
)
@click.option("--force", is_flag=True, help="Redo items already done in DIR.")
@click.option("--plain", is_flag=True, help="One line per item even in a terminal.")
def batch_command(
    paths: tuple[str, ...],
    out: str,
    every: int | None,
    after: int | None,
    backend: str,
    time_limit: float | None,
    workers: int,
    seed: int,
    params: str,
    jobs: int | None,
    scheduler: str | None,
    together: bool,
    seeds: int,
    force: bool,
    plain: bool,
) -> None:
    """Solve every puzzle (.toml) and check every game record (.blksgf) under PATH...
    (folders walked recursively, sorted), in parallel, into a results folder.

    A puzzle is solved as `solve` does; a game record is checked as `check` does (with
    --together as `check --together`), at its end, --after N or --every N. Each result is
    saved as soon as it is found: a batch stopped at any moment (Ctrl-C, kill -9) keeps
    what it finished, and the same command run again does only the rest. Bad files become
    error rows; the batch goes on.
    """
    from solver.batch import BatchOptions, run_batch
    from solver.batch.work import Settings

    check_params(backend, params)
    settings = Settings(backend, time_limit, seed, workers, params, together)
    options = BatchOptions(
        paths=paths,
        out=Path(out),
        settings=settings,
        every=every,
        after=after,
        jobs=jobs,
        scheduler=scheduler,
        force=force,
        command=_batch_command_line(paths, out, every, after, settings, jobs, scheduler, seeds),
        seeds=seeds,
    )
    console = Console(
        markup=False,
        emoji=False,
        highlight=False,
        soft_wrap=True,
        force_terminal=False if plain else None,
    )
    run_batch(options, console)


def _batch_command_line(
    paths: tuple[str, ...],
    out: str,
    every: int | None,
    after: int | None,
    settings: Settings,
    jobs: int | None,
    scheduler: str | None,
    seeds: int = 1,
) -> str:
    """The batch command as it could be typed again (options left at their defaults are
    left out; --jobs too: it changes no answer)."""
    import shlex

    words = ["blokus-solo", "batch", *paths, "--out", out]
    for flag, value, default in (
        ("--every", every, None),
        ("--after", after, None),
        ("--backend", settings.backend, "auto"),
        ("--time-limit", settings.time_limit, None),
        ("--seed", settings.seed, 0),
        ("--seeds", seeds, 1),
        ("--workers", settings.workers, 1),
        ("--params", settings.params, ""),
        ("--scheduler", scheduler, None),
    ):
        if value != default:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if settings.together:
        words.append("--together")
    return shlex.join(str(w) for w in words)


# puzzle cards: hints for players, ratings and generation for makers (solver/cli/cards.py)
main.add_command(hint_command)
main.add_command(rate_command)
main.add_command(generate_command)

# cube-and-conquer (solver/cli/cubes.py)
from solver.cli.cubes import cubes_command  # noqa: E402

main.add_command(cubes_command)

# the local web page (solver/cli/serve.py, solver/web/)
from solver.cli.serve import serve_command  # noqa: E402

main.add_command(serve_command)
