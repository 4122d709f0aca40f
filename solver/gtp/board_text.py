"""``showboard``'s text: the board as Pentobi's engine prints it.

Source: Pentobi ``libpentobi_base/Board.cpp`` (``Board::write`` and the
``write_color_info_line*`` functions, colour output off). Row numbers on the left, the
squares (``.`` empty, ``+`` an empty start square, ``X`` ``O`` ``#`` ``@`` the first to
fourth colour), column letters below; the last piece played is marked by a ``>`` before
its first square in reading order (or a ``<`` after it); on the right, per colour: the
move number before the colour to play, ``Name(char): points`` (``!`` when it has no legal
move) and its pieces left, sorted by name, on two lines.
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


def _side_lines(position: Position, info: BoardInfo) -> dict[int, str]:
    """The text right of the board: row -> its text (Board::write_info_line)."""
    names = PENTOBI_NAMES.get(position.variant, FOUR_NAMES)
    split = 6 if position.variant == "junior" else 10
    out = {}
    for k, state in enumerate(position.colours):
        first = f"({info.moves + 1}) " if info.to_play == state.name else ""
        bang = "" if info.movable[state.name] else "!"
        out[4 * k] = f"  {first}{names[k]}({CHARS[k]}): {info.points[state.name]}{bang}"
        counts = Counter(state.remaining)
        unique = sorted(counts)
        out[4 * k + 1] = "  " + _pieces(unique[:split], counts)
        out[4 * k + 2] = "  " + _pieces(unique[split:], counts)
    return out


def _pieces(names: Sequence[str], counts: Counter[str]) -> str:
    """Piece names, each as often as the colour has it, space-separated."""
    return " ".join(" ".join([n] * counts[n]) for n in names)
