"""What the commands print about problems and results.

Everything is printed through a console from :func:`make_console`, which reads no rich
markup (``[bold]``) and no emoji codes (``:smile:``) in the text: file names, titles and
other text from the user are printed exactly as given. Style with ``style=`` or
:class:`rich.text.Text`, never with markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol, Unpack

from rich.console import Console

from solver.answers.solution import write_json
from solver.answers.words import closeness_lines, domain_progress, goals_text, plural
from solver.cli.render import print_position
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.problem import Problem
from solver.errors import InputError, located
from solver.formats.files import check_output, write_text_atomic
from solver.formats.game import sgf_variant, write_sgf
from solver.pictures.picture import PictureOptions, layout_pieces
from solver.quoting import shown
from solver.tasks.solve import SolveResult

# The picture writers are imported where a picture is written: the PNG writer loads Pillow,
# the SVG writer (solver.pictures.svg: xml.sax.saxutils, which imports urllib.request, about
# 40 ms); most commands write no picture.

STATUS_TEXT = {
    "solved": "solved",
    "optimal": "optimal (proven best)",
    "infeasible": "infeasible (proven: no layout exists)",
    "unknown": "unknown (time limit reached: this is NOT a proof that no layout exists)",
}

#: the colour of an answer in a review's tables (``review``, ``review --together``)
ANSWER_STYLES = {"yes": "green", "done": "green", "no": "red", "unknown": "yellow"}


def make_console(plain: bool = False) -> Console:
    """The console every command prints to: no markup, emoji codes or highlighting in
    printed strings; ``plain`` turns colour off (as does a terminal without it)."""
    return Console(
        no_color=plain or None, markup=False, emoji=False, highlight=False, soft_wrap=True
    )


def describe_problem(console: Console, problem: Problem) -> None:
    """One or two lines: title, file, board, colours played, goal."""
    pos = problem.position
    if problem.title:
        console.print(shown(problem.title), style="bold")
    board = board_text(pos)
    if pos.board.blocked:
        board += f" ({len(pos.board.blocked)} blocked)"
    goal = problem.goal + (", monomino last" if problem.monomino_last else "")
    goal += goals_text(problem)
    source = f"{shown(problem.name)}: " if problem.name else ""
    console.print(f"{source}{board}; plays {', '.join(problem.colours)}; goal {goal}")


def print_board(console: Console, result: SolveResult, plain: bool) -> None:
    """The final board (for an unknown its best partial layout, else the starting board);
    in colour, the pieces already on the board are dimmed so that the added ones stand
    out."""
    shown = result.picture()  # the final board, or an unknown's best partial layout
    position = shown[0] if shown else result.problem.position
    layout = result.layout if result.report else result.partial
    new = frozenset().union(*(p.squares for p in layout_pieces(layout)))
    print_position(console, position, plain, new, stars=result.problem.cover)


PICTURE_SUFFIXES = (".svg", ".png")


def picture_bytes(
    suffix: str, position: Position, **options: Unpack[PictureOptions]
) -> str | bytes:
    """The picture of a position as SVG text (``suffix`` ".svg") or PNG bytes (".png")."""
    if suffix == ".svg":
        from solver.pictures.svg import board

        return board(position, **options)
    from solver.pictures.png import board as png_board

    return png_board(position, **options)


def write_picture(path: Path, position: Position, **options: Unpack[PictureOptions]) -> None:
    """Write the picture of a position atomically, SVG or PNG by the file's suffix
    (:data:`PICTURE_SUFFIXES`). Raises InputError if the file cannot be written."""
    write_text_atomic(path, picture_bytes(path.suffix.lower(), position, **options))


def write_result_picture(path: Path, result: SolveResult) -> bool:
    """Write the picture of a result's final board, the pieces already on the board paler
    than the ones it adds (for an unknown: its best partial layout); False (nothing
    written) when the result has neither."""
    shown = result.picture()
    if shown is None:
        return False
    position, options = shown
    write_picture(path, position, **options)
    return True


def describe_result(console: Console, result: SolveResult) -> None:
    """Status, backend, wall time, then one line per played colour."""
    status = STATUS_TEXT[result.status]
    if result.status == "unknown" and "unknown_reason" in result.stats:
        status = (
            f"unknown ({result.stats['unknown_reason']}: this is NOT a proof that no layout exists)"
        )
    if result.status == "infeasible" and "reason" in result.stats:
        status = f"infeasible (proven: no layout exists; {result.stats['reason']})"
    console.print(f"status: {status}  [{result.backend}, {result.wall_time:.2f} s]")
    if result.status != "unknown" and "not_a_proof" in result.stats:
        console.print(f"note: {result.stats['not_a_proof']}", markup=False)
    progress = domain_progress(result.stats)
    if progress:
        console.print(progress)
    for line in closeness_lines(result):
        console.print(line)
    report = result.report
    if report is None:
        return
    for colour in result.problem.colours:
        r = report.report(colour)
        start = result.problem.position.colour(colour)
        total = len(start.remaining)
        bonus = ", monomino last" if r.monomino_last and r.all_placed else ""
        if (
            r.all_placed
            and not r.monomino_last
            and not result.problem.monomino_last
            and result.problem.goal == "place-all"
            and "1" in start.remaining
            and result.problem.position.bonus
        ):
            bonus = (
                " (the monomino is not last; set monomino-last = true in the puzzle to ask"
                " for the +5)"
            )
        console.print(
            f"  {colour:7} placed {r.added} of {total} {plural(total, 'piece')}, "
            f"score {r.score}{bonus}"
        )
    if result.problem.goal == "max-score":
        bound = (
            f", upper bound {result.bound}"
            if result.bound is not None and result.status != "optimal"
            else ""
        )
        console.print(f"  total score {result.score}{bound}")


class Writer(Protocol):
    """Writes a result (and, to JSON, a colour's endgame record); whether it wrote."""

    def __call__(
        self, result: SolveResult, endgame: Mapping[str, object] | None = None
    ) -> bool: ...


def output_writer(out: str | None, problem: Problem, made_by: str = "solve") -> Writer | None:
    """A function writing a result to ``out`` by its suffix and returning whether it wrote
    (a JSON file also records the endgame answer it is given, see
    :func:`solver.tasks.endgame.answer_record`; SGF and pictures show a layout: without one
    nothing is written); checked before
    solving so that a bad name fails fast. Raises InputError for an unknown suffix, a
    missing folder, a folder or unwritable file, or a position that SGF cannot hold (a
    custom board). ``made_by``: the command, recorded in a JSON file (``verify`` compares
    the puzzle's own question only with files of the commands that answer it)."""
    if out is None:
        return None
    path = check_output(out)
    suffix = path.suffix.lower()
    if suffix == ".json":

        def json_writer(result: SolveResult, endgame: Mapping[str, object] | None = None) -> bool:
            write_json(result, path, endgame, made_by)
            return True

        return json_writer
    if suffix in (".blksgf", ".sgf"):
        with located(path=out, where="--out"):
            sgf_variant(problem.position)

        def sgf_writer(result: SolveResult, endgame: Mapping[str, object] | None = None) -> bool:
            if result.layout is None:
                return False
            write_text_atomic(path, result_sgf(result))
            return True

        return sgf_writer
    if suffix in PICTURE_SUFFIXES:

        def picture_writer(
            result: SolveResult, endgame: Mapping[str, object] | None = None
        ) -> bool:
            return write_result_picture(path, result)

        return picture_writer
    raise InputError("unknown output format: use .json, .blksgf, .svg or .png", path=out)


def result_sgf(result: SolveResult) -> str:
    """A result as Pentobi SGF: the position, then the added pieces as moves."""
    return write_sgf(result.problem.position, result.layout, name=result.problem.title or None)


def position_line(source: str, after: int | None, position: Position) -> str:
    """The file, the placement count asked for, the board, and who is to move."""
    where = f" after {after} placements" if after is not None else ""
    return f"{shown(source)}{where}: {board_text(position)}{_to_move(position)}"


def board_text(position: Position) -> str:
    """The variant and its board in words: "classic 20x20", "trigon side 9"."""
    board = position.board
    size = f"{board.rows}x{board.cols}" if board.square_grid else f"side {board.rows // 2}"
    return f"{position.variant} {size}"


def _to_move(position: Position) -> str:
    """ ", X to move" (the next colour in turn order that has a legal move), ", game over"
    when no colour has one, or "" for a position without a turn order."""
    if not position.to_move:
        return ""
    names = position.colour_names
    start = names.index(position.to_move)
    for name in names[start:] + names[:start]:
        if legal_moves(position, name):
            return f", {name} to move"
    return ", game over (no colour can move)"
