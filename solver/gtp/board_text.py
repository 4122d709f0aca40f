"""``showboard``'s text: the board as Pentobi's engine prints it.

Source: Pentobi ``libpentobi_base/Board.cpp`` (``Board::write`` and the
``write_color_info_line*`` functions, colour output off). Row numbers on the left, the
squares (``.`` empty, ``+`` an empty start square, ``X`` ``O`` ``#`` ``@`` the first to
fourth colour), column letters below; the last piece played is marked by a ``>`` before
its first square in reading order (or a ``<`` after it); on the right, per colour: the
move number before the colour to play, ``Name(char): points`` (``!`` when it has no legal
move) and its pieces left, sorted by name, on two lines.

On Trigon (:func:`trigon_board_text`) Pentobi draws each row of its naming rectangle
(``2 * side`` rows, ``4 * side - 1`` columns): a ``/`` or ``\\`` between two triangles
shows which way they point, ``+`` an empty starting point, a blank an empty triangle, two
spaces a place off the hexagon; column letters below (``Z`` then ``AA`` ... written as
``ZAAAB...``); the colours' lines below the board, one a colour (the board is wider than
20 columns).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solver.core.board import column_name
from solver.core.position import Placement, Position

#: each colour's board character, by its index in turn order
CHARS = ("X", "O", "#", "@")

#: Pentobi's colour names by variant (Board::init_variant): Junior's first colour is Green
PENTOBI_NAMES: dict[str, tuple[str, ...]] = {
    "duo": ("Purple", "Orange"),
    "junior": ("Green", "Orange"),
}
FOUR_NAMES = ("Blue", "Yellow", "Red", "Green")


@dataclass(frozen=True)
class BoardInfo:
    """What ``showboard`` shows besides the squares.

    Attributes:
        last: the last move played (colour, placement), or None.
        moves: the number of moves played (setup pieces are not moves).
        points: each colour's points (squares on the board and bonus).
        movable: each colour's name -> whether it has a legal move.
        to_play: the colour to play, skipping colours without a legal move (Pentobi's
            "effective" colour to play), or None when the game is over.
    """

    last: tuple[str, Placement] | None
    moves: int
    points: Mapping[str, int]
    movable: Mapping[str, bool]
    to_play: str | None


def board_text(position: Position, info: BoardInfo) -> str:
    """The board as Pentobi's ``showboard`` prints it (after the response's first line),
    one line per row, each ending with a newline."""
    board = position.board
    if not board.square_grid:
        return trigon_board_text(position, info)
    colours = position.colour_names
    char = {c: CHARS[k] for k, c in enumerate(colours)}
    starts = {s.start for s in position.colours if s.start is not None}
    owner = position.owner
    marked = info.last is None
    last_colour, last_squares = (info.last[0], info.last[1].squares) if info.last else ("", ())
    side = _side_lines(position, info)
    lines = []
    for r in range(board.rows):
        row = [f"{board.rows - r:>2} "]
        for c in range(board.cols):
            sq = board.square(r, c)
            if c > 0:
                left = owner.get(sq - 1)
                mark = " "
                if not marked and sq in last_squares and left != last_colour:
                    mark = ">"
                elif (
                    not marked
                    and sq - 1 in last_squares
                    and owner.get(sq) != last_colour
                    and left == last_colour
                ):
                    mark = "<"
                marked |= mark != " "
                row.append(mark)
            if sq in owner:
                row.append(char[owner[sq]])
            elif sq in board.blocked:
                row.append(" ")
            else:
                row.append("+" if sq in starts else ".")
        row.append(side.get(r, ""))
        lines.append("".join(row) + "\n")
    lines.append("  " + "".join(" " + column_name(c).upper()[-1] for c in range(board.cols)) + "\n")
    return "".join(lines)


def trigon_board_text(position: Position, info: BoardInfo) -> str:
    """:func:`board_text` on Trigon, as Pentobi's ``Board::write`` draws it (its
    ``is_trigon`` branches, colour output off)."""
    board = position.board
    side = board.rows // 2
    height, width = board.rows, board.cols
    cell_at = {(x, y): i for i, (x, y) in enumerate(board.geometry.coords)}
    char = {c: CHARS[k] for k, c in enumerate(position.colour_names)}
    owner = position.owner
    marked = info.last is None
    last_colour, last_cells = (info.last[0], info.last[1].squares) if info.last else ("", ())

    def slash(x: int, y: int) -> str:  # Pentobi's point type 1 (pointing down): backslash
        return "\\" if (x + y + side) % 2 == 0 else "/"

    lines = []
    for y in range(height):
        row = [f"{height - y:>2} "]
        for x in range(width):
            p = cell_at.get((x, y))
            left = cell_at.get((x - 1, y))
            left_owner = owner.get(left) if left is not None else None
            if p is not None and (x > 0 or (x + 1, y) in cell_at):
                if not marked and p in last_cells and left_owner != last_colour:
                    row.append(">")
                    marked = True
                elif (
                    not marked
                    and left in last_cells
                    and owner.get(p) != last_colour
                    and left_owner == last_colour
                ):
                    row.append("<")
                    marked = True
                else:
                    row.append(slash(x, y))
            if p is None:
                row.append(slash(x, y) if left is not None else "  ")
            elif p in owner:
                row.append(char[owner[p]])
            else:
                row.append("+" if p in position.starting_points else " ")
        end = (width - 1, y)
        row.append(("/" if slash(*end) == "\\" else "\\") if end in cell_at else "  ")
        lines.append("".join(row) + "\n")
    letters = "".join((" " if x < 26 else "A") + column_name(x).upper()[-1] for x in range(width))
    lines.append("   " + letters + "\n")
    for k in range(len(position.colours)):
        line1, line2, line3 = _colour_lines(position, info, k)
        lines.append(f"{line1}  {line2} {line3}\n")
    return "".join(lines)


def _colour_lines(position: Position, info: BoardInfo, k: int) -> tuple[str, str, str]:
    """A colour's three texts (Board::write_color_info_line1..3): ``(move) Name(char):
    points`` (``!``: no legal move), its first pieces left and the rest."""
    names = PENTOBI_NAMES.get(position.variant, FOUR_NAMES)
    split = 6 if position.variant == "junior" else 10
    state = position.colours[k]
    first = f"({info.moves + 1}) " if info.to_play == state.name else ""
    bang = "" if info.movable[state.name] else "!"
    counts = Counter(state.remaining)
    unique = sorted(counts)
    return (
        f"{first}{names[k]}({CHARS[k]}): {info.points[state.name]}{bang}",
        _pieces(unique[:split], counts),
        _pieces(unique[split:], counts),
    )


def _side_lines(position: Position, info: BoardInfo) -> dict[int, str]:
    """The text right of the board: row -> its text (Board::write_info_line)."""
    out = {}
    for k in range(len(position.colours)):
        for j, text in enumerate(_colour_lines(position, info, k)):
            out[4 * k + j] = "  " + text
    return out


def _pieces(names: Sequence[str], counts: Counter[str]) -> str:
    """Piece names, each as often as the colour has it, space-separated."""
    return " ".join(" ".join([n] * counts[n]) for n in names)
