"""``blokus-solo cubes``: cube-and-conquer (split a hard puzzle into many puzzle files for
``blokus-solo batch``, then join their results into one answer; see :mod:`solver.tasks.cubes`
and :mod:`solver.trust.cube_join`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from solver.cli.options import out_option, plain_option, time_limit_option
from solver.cli.output import describe_result, make_console, output_writer, print_board
from solver.cli.params import option_type
from solver.errors import InputError
from solver.formats.files import check_output, check_output_folder
from solver.formats.sources import is_game_file
from solver.formats.text import read_text
from solver.quoting import shown
from solver.ranges import DEPTH
from solver.tasks.cubes import CUBE_FOLDER, write_cubes
from solver.trust.cube_join import Recheck, join


@click.group("cubes")
def cubes_command() -> None:
    """Cube-and-conquer: split a hard place-all puzzle into many sub-puzzles ("cubes") that
    cover its whole search space, solve them with `blokus-solo batch`, join the answers.

    \b
      blokus-solo cubes split PUZZLE --depth 2 --out DIR
      blokus-solo batch DIR/cubes --out DIR/results --backend search --time-limit 10
      blokus-solo cubes join DIR
      blokus-solo cubes join DIR --recheck     (prove each cube's no again here)
    """


@cubes_command.command("split")
@click.argument("puzzle")
@click.option(
    "--depth",
    type=option_type(DEPTH),
    default=1,
    show_default=True,
    help="Levels of splitting: the first piece of each played colour, then (one colour "
    "played) an attach square: each piece on it, or it stays empty.",
)
@out_option(
    "Folder for DIR/cubes/NNNNN.toml and the manifest DIR/cubes.json.",
    metavar="DIR",
    required=True,
)
def split_command(puzzle: str, depth: int, out: str) -> None:
    """Split PUZZLE (place-all) into cubes: every layout lies in exactly one cube (up to a
    board symmetry of the puzzle), so the cubes all infeasible prove the puzzle is."""
    if is_game_file(puzzle):
        raise InputError("a game record: cubes split reads puzzle files (.toml)", path=puzzle)
    folder = check_output_folder(out)
    manifest = write_cubes(puzzle, read_text(puzzle), depth, folder)
    levels = ", ".join(str(n) for n in manifest.get("nodes_per_level", []))
    click.echo(
        f"{len(manifest['cubes'])} cubes at depth {depth} (nodes per level {levels}; "
        f"{manifest.get('dropped_by_symmetry', 0)} dropped by symmetry) in {folder / CUBE_FOLDER}"
    )
    if not manifest["cubes"]:
        click.echo(f"no layout: the split left no cube (blokus-solo cubes join {folder})")
        return
    click.echo(f"next: blokus-solo batch {folder / CUBE_FOLDER} --out {folder / 'results'}")


@cubes_command.command("join")
@click.argument("folder", metavar="DIR")
@click.option(
    "--results",
    multiple=True,
    metavar="RESULTS",
    help="A batch output folder (default: DIR/results); give it again for more (e.g. the "
    "unknown cubes run again with a longer time limit): a cube's yes, else no, from any.",
)
@out_option("Write the joined layout: FILE.json, .blksgf, .svg or .png.")
@click.option(
    "--recheck",
    is_flag=True,
    help="Prove each cube's no again here with the exact search before counting it (the "
    "answer then rests on these solves, not on the results files).",
)
@time_limit_option(
    "one cube each; a cube not proved in time counts unknown.", per="solve", only_with="--recheck"
)
@plain_option()
def join_command(
    folder: str,
    results: tuple[str, ...],
    out: str | None,
    recheck: bool,
    time_limit: float | None,
    plain: bool,
) -> None:
    """Join the batch results of the cubes in DIR: a layout (a cube's layout with its fixed
    pieces, checked against the original puzzle), infeasible (every cube a proven no), or
    unknown with counts. Never "infeasible" while a cube is unknown or missing. A no counts
    only from a row of a backend that can prove it (not repair, symmetric, domain or
    greedy play), for the cube file as it is on disk now; other rows count unknown."""
    if time_limit is not None and not recheck:
        raise InputError("applies only with --recheck", where="--time-limit")
    if out is not None:
        check_output(out)
    folders = [Path(r) for r in results] or [Path(folder) / "results"]
    how = Recheck(time_limit=time_limit) if recheck else None
    answer = join(Path(folder), folders, how)
    console = make_console(plain)
    console.print(answer.puzzle, markup=False)
    if answer.result is not None:
        writer = output_writer(out, answer.result.problem, "cubes join")
        print_board(console, answer.result, plain)
        describe_result(console, answer.result)
        console.print(f"layout from {shown(answer.cube)}, checked against the original puzzle")
        if writer and writer(answer.result, None):
            console.print(f"wrote {shown(out)}")
    console.print(
        f"cubes: {answer.cubes}  solved {answer.solved}  infeasible {answer.infeasible}  "
        f"unknown {answer.unknown}  missing {answer.missing}  rejected {answer.rejected}  "
        f"nodes {answer.nodes:,}  seconds {answer.seconds:.1f}"
    )
    for line in answer.problems[:10]:
        console.print(f"rejected row: {line}", markup=False)
    if len(answer.problems) > 10:
        console.print(f"rejected row: and {len(answer.problems) - 10} more")
    for line in answer.notes[:10]:
        console.print(f"note: {line}")
    if len(answer.notes) > 10:
        console.print(f"note: and {len(answer.notes) - 10} more")
    if answer.proof:
        console.print(f"the no's rest on: {_rests_on(answer.proof)}", markup=False)
    if answer.status == "infeasible" and answer.cubes and not recheck:
        console.print("(the rows were read, not proved again: --recheck proves each no here)")
    verdict = {
        "solved": "solved",
        "infeasible": "infeasible: every cube is a proven no and the cubes cover the puzzle",
        "unknown": "unknown (this is NOT a proof that no layout exists)",
    }[answer.status]
    console.print(f"status: {verdict}", markup=False)


def _rests_on(proof: list[tuple[str, str]]) -> str:
    """What the counted no's rest on, e.g. "58 rows of r/results.jsonl (search 58)"."""
    by_file: dict[str, Counter[str]] = {}
    for where, backend in proof:
        by_file.setdefault(where, Counter())[backend] += 1
    parts = []
    for where, backends in by_file.items():
        n = sum(backends.values())
        what = f"{n} solves here" if where == "recheck" else f"{n} rows of {where}"
        parts.append(f"{what} ({', '.join(f'{b} {k}' for b, k in backends.most_common())})")
    return "; ".join(parts)
