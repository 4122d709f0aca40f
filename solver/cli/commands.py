"""The ``blokus-solo`` command line (Click).

Bad input of any kind ends with one line on standard error naming the file and the place,
and exit status 2; no traceback, and no output file is touched.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import click
from rich.console import Console

from solver.cli.output import describe_problem, describe_result, endgame_line, print_board
from solver.endgame import answer_record, endgame_check
from solver.errors import InputError
from solver.formats.solution import read_solution, verify, write_json, write_text_atomic
from solver.formats.sources import is_game_file, load_source
from solver.problem import Problem
from solver.solve import BACKENDS, SolveOptions, SolveResult, solve
from solver.variants import colour_name


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit status 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class Group(click.Group):
    """Turns InputError into :class:`BadInput`; Ctrl-C into "interrupted" and exit 130; a
    closed output pipe into a quiet exit 141; any other failure into one line and exit 70."""

    def invoke(self, ctx):
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
            click.echo(f"internal error (please report): {e.__class__.__name__}: {e}", err=True)
            sys.exit(70)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blokus-solo")
def main() -> None:
    """Solve Blokus placement puzzles: can a colour still place all its pieces, find a
    layout that places all 21 (or 84), count layouts, analyse Pentobi game records."""


def solver_options(backends: tuple[str, ...], time_help: str, workers: int = 2):
    """The options shared by every command that solves (as a decorator); ``workers``: the
    default of --workers."""
    backend_help = {
        "cpsat": "cpsat: OR-tools CP-SAT model",
        "search": "search: Blokus-aware exact search",
        "symmetric": "symmetric: CP-SAT on layouts that a board symmetry maps onto themselves "
        "with the colours permuted (finds layouts only)",
        "auto": "auto: the search alone for 2 s, then the search and CP-SAT (and symmetric, "
        "where it applies) side by side; the first proven answer wins",
    }
    options = [
        click.option(
            "--backend",
            type=click.Choice(backends),
            default="auto",
            show_default=True,
            help="; ".join(backend_help[b] for b in backends[1:] + backends[:1]) + ".",
        ),
        click.option(
            "--time-limit",
            type=click.FloatRange(min=0),
            default=None,
            metavar="SECONDS",
            help=time_help,
        ),
        click.option(
            "--workers",
            type=click.IntRange(min=1),
            default=workers,
            show_default=True,
            help="Threads: CP-SAT workers, or the search's portfolio members "
            "(auto: the search keeps N, CP-SAT gets N-1).",
        ),
        click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
        click.option(
            "--params",
            default="",
            metavar="TEXT",
            help='Extra CP-SAT parameters, protobuf text format, e.g. "log_search_progress: true".',
        ),
    ]

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def make_options(backend, time_limit, workers, seed, params) -> SolveOptions:
    """SolveOptions from the shared command-line options."""
    return SolveOptions(
        backend=backend, time_limit=time_limit, workers=workers, seed=seed, params=params
    )


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
    help="Write the solution: FILE.json (solution file) or FILE.blksgf (Pentobi).",
)
@click.option("--plain", is_flag=True, help="Plain text board even in a terminal.")
def solve_command(puzzle, backend, time_limit, workers, seed, params, out, plain):
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
    console = Console(no_color=plain or None, highlight=False, soft_wrap=True)
    describe_problem(console, problem)
    result = solve(problem, make_options(backend, time_limit, workers, seed, params))
    print_board(console, result, plain)
    describe_result(console, result)
    if writer:
        if writer(result) is False:
            console.print(f"no layout: {out} not written (a .json file records the status)")
        else:
            console.print(f"wrote {out}")


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


def output_writer(out: str | None, problem: Problem):
    """A function writing a result to ``out`` by its suffix and returning whether it wrote
    (SGF holds a layout only: without one nothing is written); checked before solving so
    that a bad name fails fast. Raises InputError for an unknown suffix, a missing folder,
    a folder or unwritable file, or a position that SGF cannot hold (a custom board)."""
    if out is None:
        return None
    path = Path(out)
    if not path.parent.is_dir():
        raise InputError(f"folder {str(path.parent)!r} does not exist", path=out)
    if path.is_dir():
        raise InputError("is a folder, not a file", path=out, where="--out")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError("cannot write here (permission denied)", path=out, where="--out")
    suffix = path.suffix.lower()
    if suffix == ".json":

        def write(result: SolveResult, endgame: dict | None = None) -> bool:
            write_json(result, path, endgame)
            return True

        return write
    if suffix in (".blksgf", ".sgf"):
        from solver.formats.game import sgf_variant

        try:
            sgf_variant(problem.position)
        except InputError as e:
            raise e.located(path=out, where="--out") from None
        return lambda result, endgame=None: (
            result.layout is not None and (write_text_atomic(path, result_sgf(result)) or True)
        )
    raise InputError("unknown output format: use .json or .blksgf", path=out)


def result_sgf(result: SolveResult) -> str:
    """A result as Pentobi SGF: the position, then the added pieces as moves."""
    from solver.formats.game import write_sgf

    return write_sgf(result.problem.position, result.layout, name=result.problem.title or None)


@main.command("moves")
@click.argument("game")
@click.option(
    "--colour",
    "--color",
    "colour",
    required=True,
    help="Colour: name (blue), letter (B), or SGF id (1-4, B/W).",
)
@click.option(
    "--after",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Position after N placements (default: the end).",
)
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(game, colour, after, count):
    """List a colour's legal moves in a game record, in SGF notation (one per line)."""
    from solver.formats.game import game_moves

    if not is_game_file(game):
        raise InputError("not a game record: moves reads Pentobi .blksgf files", path=game)
    moves = game_moves(game, colour, after)
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
    type=click.IntRange(min=0),
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
    tuple(b for b in BACKENDS if b != "symmetric"),
    "Seconds per solve (default: no limit); each colour runs place-all, then "
    "max-score after a 'no'. Time-outs answer 'unknown' (never 'no').",
)
@click.option(
    "--out",
    "out",
    default=None,
    metavar="FILE",
    help="Write each colour's answer (FILE.json: the layout with the answer and the best "
    "score; FILE.blksgf: the layout); with several colours, FILE-<colour>.json and so on.",
)
@click.option("--board/--no-board", "show", default=False, help="Print each layout found.")
@click.option("--plain", is_flag=True, help="With --board: plain text boards even in a terminal.")
def check_command(
    source, after, colours, backend, time_limit, workers, seed, params, out, show, plain
):
    """Endgame check: can each colour still place all its remaining pieces, with the other
    colours' squares frozen? Answers yes (with a checked layout), no (proven; then the best
    it can still do), or unknown (time limit: not a "no")."""
    problem = load_source(source, after)
    position = problem.position
    chosen = tuple(_colour_arg(source, position, c) for c in colours) or tuple(
        c.name for c in position.colours if is_game_file(source) or c.name in problem.colours
    )
    options = make_options(backend, time_limit, workers, seed, params)
    check_params(backend, params)
    writers = (
        {c: output_writer(_out_for(out, c, len(chosen)), problem) for c in chosen} if out else {}
    )
    console = Console(no_color=plain or None, highlight=False, soft_wrap=True)
    where = f" after {after} placements" if after is not None else ""
    console.print(
        f"{source}{where}: {position.variant} {position.board.rows}x{position.board.cols}"
        + _to_move(position),
        markup=False,
    )
    for c in chosen:
        answer = endgame_check(position, c, options, name=source)
        if not position.colour(c).remaining:
            console.print(
                f"  {c:7} all pieces already placed, score {position.score(c)}", markup=False
            )
        else:
            console.print(endgame_line(answer), markup=False)
        shown = answer.best or answer.place_all
        if show and shown.layout is not None and position.colour(c).remaining:
            print_board(console, shown, plain)
        if c in writers:
            # every colour's answer is written (a .json file records it: answer_record)
            if writers[c](shown, answer_record(answer)):
                console.print(f"  wrote {_out_for(out, c, len(chosen))}", markup=False)
            else:
                console.print(f"  {c:7} no layout to write (the answer is unknown)", markup=False)


def _to_move(position) -> str:
    """ ", X to move" (the next colour in turn order that has a legal move), ", game over"
    when no colour has one, or "" for a position without a turn order."""
    from solver.placements import legal_moves

    if not position.to_move:
        return ""
    names = position.colour_names
    start = names.index(position.to_move)
    for name in names[start:] + names[:start]:
        if legal_moves(position, name):
            return f", {name} to move"
    return ", game over (no colour can move)"


def _colour_arg(source: str, position, text: str) -> str:
    try:
        if is_game_file(source):
            from solver.formats.game import parse_colour
            from solver.variants import VARIANTS

            return parse_colour(VARIANTS[position.variant], text)
        name = colour_name(text)
        position.colour(name)
        return name
    except InputError as e:
        raise e.located(path=source, where="--colour") from None


def with_colours(problem: Problem, source: str, colours: tuple[str, ...]) -> Problem:
    """The problem with ``--colour`` choices as its played colours (unchanged without any).
    Raises InputError for an unknown colour."""
    if not colours:
        return problem
    chosen = tuple(dict.fromkeys(_colour_arg(source, problem.position, c) for c in colours))
    return dataclasses.replace(problem, colours=chosen)


def _out_for(out: str, colour: str, how_many: int) -> str:
    if how_many == 1:
        return out
    path = Path(out)
    return str(path.with_name(f"{path.stem}-{colour}{path.suffix}"))


@main.command("count")
@click.argument("source", metavar="PUZZLE")
@click.option(
    "--after",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Game records: the position after N placements.",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
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
    type=click.FloatRange(min=0),
    default=None,
    metavar="SECONDS",
    help="Stop after this many seconds (the count is then a lower bound).",
)
def count_command(source, after, colours, limit, up_to_symmetry, time_limit):
    """Count the distinct final layouts that place every remaining piece of the played
    colours (order of play ignored; monomino-last honoured).

    A stopped count prints a true lower bound and what stopped it (the limit or the time
    limit); up to symmetry that bound is ceil(layouts found / symmetries), since an orbit
    holds at most one layout per symmetry."""
    from solver.backends.search import count

    problem = with_colours(load_source(source, after), source, colours)
    result = count(problem, limit=limit, up_to_symmetry=up_to_symmetry, time_limit=time_limit)
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
    type=click.IntRange(min=0),
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
def export_command(source, fmt, after, colours, squares_primary, out):
    """Export the exact-cover formulation (items: pieces, squares, same-colour edges;
    options: placements). Connectivity is not expressible in exact cover: check covers."""
    from solver.exact_cover import formulation, to_dlx

    problem = with_colours(load_source(source, after), source, colours)
    text = to_dlx(formulation(problem, squares_primary=squares_primary))
    if out:
        write_text_atomic(out, text)
    else:
        click.echo(text, nl=False)


@main.command("verify")
@click.argument("solution")
def verify_command(solution):
    """Check a solution file (JSON) with the independent rule checker.

    Exit status 0 if every placement is legal and the file's scores and status hold,
    1 if a rule is broken or a claim is false, 2 if the file cannot be read.
    """
    if is_game_file(solution):
        raise InputError(
            "a game record: verify reads solution files (.json); use blokus-solo "
            "check or moves for game records",
            path=solution,
        )
    loaded = read_solution(solution)
    report, mismatches = verify(loaded)
    if not report.legal:
        click.echo(f"{solution}: ILLEGAL: {report.problem}")
        sys.exit(1)
    total = sum(len(v) for v in loaded.replay.values())
    added = sum(len(v) for v in loaded.layout.values())
    click.echo(
        f"{solution}: legal: {total} placements replayed by the rules from the empty "
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
    for m in mismatches:
        click.echo(f"{solution}: FALSE CLAIM: {m}")
    if mismatches:
        sys.exit(1)


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
    help="Output folder: results.jsonl, summary.csv, README.md, solutions/ (made if needed; "
    "a batch run again into it skips what is done).",
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
    "new local cluster of --jobs workers (pip install 'blokus-solo[cluster]').",
)
@click.option("--force", is_flag=True, help="Redo items already done in DIR.")
@click.option("--plain", is_flag=True, help="One line per item even in a terminal.")
def batch_command(
    paths, out, every, after, backend, time_limit, workers, seed, params, jobs, scheduler,
    force, plain,
):  # fmt: skip
    """Solve every puzzle (.toml) and check every game record (.blksgf) under PATH...
    (folders walked recursively, sorted), in parallel, into a results folder.

    A puzzle is solved as `solve` does; a game record is checked as `check` does, at its
    end, --after N or --every N. Each result is saved as soon as it is found: a batch
    stopped at any moment (Ctrl-C, kill -9) keeps what it finished, and the same command
    run again does only the rest. Bad files become error rows; the batch goes on.
    """
    from solver.batch import BatchOptions, run_batch
    from solver.batch.work import Settings

    check_params(backend, params)
    settings = Settings(backend, time_limit, seed, workers, params)
    options = BatchOptions(
        paths=paths,
        out=Path(out),
        settings=settings,
        every=every,
        after=after,
        jobs=jobs,
        scheduler=scheduler,
        force=force,
        command=_batch_command_line(paths, out, every, after, settings, jobs, scheduler),
    )
    console = Console(highlight=False, soft_wrap=True, force_terminal=False if plain else None)
    run_batch(options, console)


def _batch_command_line(paths, out, every, after, settings, jobs, scheduler) -> str:
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
        ("--workers", settings.workers, 1),
        ("--params", settings.params, ""),
        ("--scheduler", scheduler, None),
    ):
        if value != default:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return shlex.join(str(w) for w in words)
