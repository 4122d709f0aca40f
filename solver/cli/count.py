"""``blokus-solo count``: the distinct final layouts of a puzzle counted by the exact
search (or a true lower bound when stopped), the first one written with ``--out``."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

import click

from solver.cli.options import (
    PLAY_HELP,
    after_option,
    colour_option,
    out_option,
    time_limit_option,
    with_colours,
)
from solver.cli.output import output_writer
from solver.cli.params import LIMIT
from solver.formats.sources import load_source
from solver.quoting import shown
from solver.tasks.solve import checked_result

# The exact search is imported where the count runs: it loads numba, which every
# command's --help (it imports this module) would pay.

if TYPE_CHECKING:
    from solver.backends.search import CountResult


@click.command("count")
@click.argument("source", metavar="PUZZLE")
@after_option()
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
    "square (and the board's contents) once; on Trigon the hexagon's symmetries that "
    "keep the position (they all keep the six starting points).",
)
@colour_option(PLAY_HELP)
@time_limit_option("a count stopped by it is a lower bound.", per="count")
@out_option(
    "Write the first layout counted: a picture (FILE.svg or FILE.png), FILE.json or "
    "FILE.blksgf; checked by the rule checker first."
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
