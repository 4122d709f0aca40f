"""``blokus-solo solve``: a puzzle file solved, its board and answer printed (and written
with ``--out``)."""

from __future__ import annotations

import click

from solver.backends import registry
from solver.backends.base import SolveOptions
from solver.backends.registry import BACKENDS
from solver.cli.options import (
    announce_compile,
    check_params,
    out_option,
    plain_option,
    solver_options,
)
from solver.cli.output import (
    describe_problem,
    describe_result,
    make_console,
    output_writer,
    print_board,
)
from solver.cli.so_far import so_far_status
from solver.errors import InputError
from solver.formats.sources import is_game_file, load_source
from solver.quoting import shown
from solver.tasks.solve import solve


@click.command("solve")
@click.argument("puzzle")
@solver_options(
    BACKENDS,
    "place-all answers 'unknown' (never 'no'); max-score gives the best layout so far "
    "with a proven bound.",
)
@out_option(
    "Write the solution: FILE.json (solution file), FILE.blksgf (Pentobi), or a "
    "picture of the board: FILE.svg or FILE.png."
)
@plain_option()
def solve_command(
    puzzle: str,
    options: SolveOptions,
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
    check_params(options)
    registry.backend(options.backend).check(problem)  # a refusal before any output
    console = make_console(plain)
    describe_problem(console, problem)
    announce_compile(options)
    with so_far_status():
        result = solve(problem, options)
    print_board(console, result, plain)
    describe_result(console, result)
    if writer:
        if not writer(result):
            console.print(f"no layout: {shown(out)} not written (a .json file records the status)")
        else:
            console.print(f"wrote {shown(out)}")
