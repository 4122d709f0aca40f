"""``blokus-solo export``: a puzzle's exact-cover formulation, as Knuth's DLX text."""

from __future__ import annotations

import click

from solver.cli.options import PLAY_HELP, after_option, colour_option, out_option, with_colours
from solver.formats.exact_cover import formulation, to_dlx
from solver.formats.files import check_output, write_text_atomic
from solver.formats.sources import load_source


@click.command("export")
@click.argument("source", metavar="PUZZLE")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dlx"]),
    default="dlx",
    show_default=True,
    help="dlx: Knuth's DLX text format (items line, then one option per line).",
)
@after_option()
@click.option(
    "--squares-primary",
    is_flag=True,
    help="Make the free squares primary items (with one hole option each).",
)
@colour_option(PLAY_HELP)
@out_option("Write to FILE instead of stdout.")
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
    if out:
        check_output(out)
    problem = with_colours(load_source(source, after), source, colours)
    # (on Trigon the items are triangles and their edges: solver/formats/exact_cover.py)
    text = to_dlx(formulation(problem, squares_primary=squares_primary))
    if out:
        write_text_atomic(out, text)
    else:
        click.echo(text, nl=False)
