"""Printing boards: plain text (a diagram with coordinates) or colour for a terminal (rich)."""

from __future__ import annotations

from rich.text import Text

from solver.board import column_name
from solver.formats.diagram import EMPTY, render
from solver.position import Position
from solver.variants import COLOUR_LETTERS

#: Terminal colours of the squares (rich colour names).
STYLES = {
    "blue": "blue",
    "yellow": "yellow",
    "red": "red",
    "green": "green",
    "purple": "magenta",
    "orange": "dark_orange",
}


def _cell_width(position: Position) -> int:
    return len(column_name(position.board.cols - 1)) + 1


def plain_board(position: Position) -> list[str]:
    """The board as text lines: the diagram (:func:`solver.formats.diagram.render`: ``.`` empty,
    ``#`` blocked, colour letters) with row numbers on the left and column letters below."""
    board = position.board
    width = _cell_width(position)
    label = len(str(board.rows))
    lines = [
        f"{board.rows - r:>{label}} " + "".join(ch.ljust(width) for ch in row).rstrip()
        for r, row in enumerate(render(position))
    ]
    lines.append(
        " " * (label + 1) + "".join(column_name(c).ljust(width) for c in range(board.cols)).rstrip()
    )
    return lines


def rich_board(position: Position, new: frozenset[int] = frozenset()) -> Text:
    """The board for a colour terminal: coloured squares; pieces already on the board are
    dimmed so the ones a solver added (``new`` squares) stand out."""
    board = position.board
    width = _cell_width(position)
    label = len(str(board.rows))
    owner = position.owner
    text = Text()
    for r in range(board.rows):
        text.append(f"{board.rows - r:>{label}} ", style="dim")
        for c in range(board.cols):
            sq = board.square(r, c)
            if sq in board.blocked:
                text.append("#" * width, style="grey50 on grey23")
            elif sq in owner:
                style = f"on {STYLES[owner[sq]]}" + ("" if sq in new else " dim")
                text.append(COLOUR_LETTERS[owner[sq]].ljust(width), style=f"black {style}")
            else:
                text.append(EMPTY.ljust(width), style="grey50")
        text.append("\n")
    text.append(
        " " * (label + 1) + "".join(column_name(c).ljust(width) for c in range(board.cols)),
        style="dim",
    )
    return text
