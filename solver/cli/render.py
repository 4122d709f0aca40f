"""Printing boards: plain text (a diagram with coordinates) or colour for a terminal (rich).

Both print the same letter grid, :func:`solver.formats.diagram.render` (``.`` empty, ``#``
blocked, ``*`` a free square to cover, a colour's letter on its squares): the colour
version only styles it. Colour is
used in a terminal unless ``--plain`` is given or ``NO_COLOR`` is set to a non-empty value
(the no-color.org convention); piped output is always plain.
"""

from __future__ import annotations

import os

from rich.console import Console
from rich.text import Text

from solver.core.board import column_name
from solver.core.position import BLOCKED, EMPTY, Position
from solver.core.variants import LETTER_COLOURS
from solver.formats.diagram import STAR, render

#: Terminal colours of the squares (rich colour names).
STYLES = {
    "blue": "blue",
    "yellow": "yellow",
    "red": "red",
    "green": "green",
    "purple": "magenta",
    "orange": "dark_orange",
}


def use_colour(console: Console, plain: bool = False) -> bool:
    """Whether to print coloured squares: a terminal, no ``--plain``, no ``NO_COLOR``."""
    return console.is_terminal and not plain and not os.environ.get("NO_COLOR")


def _cell_width(position: Position) -> int:
    return len(column_name(position.board.cols - 1)) + 1


def _column_line(position: Position, label: int) -> str:
    width = _cell_width(position)
    return " " * (label + 1) + "".join(
        column_name(c).ljust(width) for c in range(position.board.cols)
    )


def plain_board(position: Position, stars: frozenset[int] = frozenset()) -> list[str]:
    """The board as text lines: the diagram (:func:`solver.formats.diagram.render`: ``.``
    empty, ``#`` blocked, ``*`` a free square of ``stars``, colour letters) with row numbers
    on the left and column letters below; ``a1`` is the lower-left square."""
    board = position.board
    width = _cell_width(position)
    label = len(str(board.rows))
    lines = [
        f"{board.rows - r:>{label}} " + "".join(ch.ljust(width) for ch in row).rstrip()
        for r, row in enumerate(render(position, stars))
    ]
    lines.append(_column_line(position, label).rstrip())
    return lines


def rich_board(
    position: Position,
    new: frozenset[int] | None = None,
    last: frozenset[int] = frozenset(),
    stars: frozenset[int] = frozenset(),
) -> Text:
    """The board for a colour terminal: the letters of :func:`plain_board` on coloured
    squares; a free start square's dot in its colour.

    Args:
        new: when given, squares outside it (pieces already on the board before a solver
            added the others) are dimmed so that the added pieces stand out.
        last: squares of a piece to highlight (bold, underlined).
        stars: squares to cover: a free one shows ``*``, a covered one is underlined.
    """
    board = position.board
    width = _cell_width(position)
    label = len(str(board.rows))
    starts = {c.start: c.name for c in position.colours if c.start is not None}
    text = Text()
    for r, row in enumerate(render(position, stars)):
        text.append(f"{board.rows - r:>{label}} ", style="dim")
        for c, ch in enumerate(row):
            sq = board.square(r, c)
            cell = ch.ljust(width)
            if ch == BLOCKED:
                text.append(cell, style="grey50 on grey23")
            elif ch == STAR:
                text.append(cell, style="bold bright_white")
            elif ch == EMPTY:
                start = STYLES.get(starts.get(sq, ""))
                text.append(cell, style=f"bold {start}" if start else "grey50")
            else:
                style = f"black on {STYLES[LETTER_COLOURS[ch]]}"
                if new is not None and sq not in new:
                    style += " dim"
                if sq in last or sq in stars:
                    style += " bold underline"
                text.append(cell, style=style)
        text.append("\n")
    text.append(_column_line(position, label), style="dim")
    return text


def print_position(
    console: Console,
    position: Position,
    plain: bool = False,
    new: frozenset[int] | None = None,
    last: frozenset[int] = frozenset(),
    stars: frozenset[int] = frozenset(),
) -> None:
    """Print a board: :func:`rich_board` when :func:`use_colour` allows, else the plain
    lines (no escape codes at all); ``stars``: squares to cover."""
    if use_colour(console, plain):
        console.print(rich_board(position, new, last, stars))
    else:
        for line in plain_board(position, stars):
            console.print(line, markup=False, highlight=False)
