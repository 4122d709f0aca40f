"""Board diagrams: rows of characters, top row first.

``.`` is an empty square, ``#`` a blocked one, ``*`` an empty square the layout must cover
(a star of "Cover the Stars"), and a colour letter (B, Y, R, G, P, O; see
:data:`solver.core.variants.COLOUR_LETTERS`) a square already taken by that colour. Each
edge-connected group of one colour's letter is one piece, so two pieces of one colour can
never share an edge (Blokus forbids it anyway). The same format is used to print boards.

On Trigon (:meth:`parse_trigon`) a diagram is Pentobi's naming rectangle, top row first,
as :meth:`solver.core.position.Position.diagram` prints it: one character a triangle, a
space where the rectangle has no triangle. Spaces count there, so rows are not stripped:
only spaces at the ends of rows, and an indentation common to every row, are dropped (a
side-9 hexagon's middle rows start at column ``a``, so a diagram as printed has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.board import MAX_SIDE, Board
from solver.core.pieces import identify
from solver.core.position import BLOCKED, EMPTY, OFF_BOARD, Placement, Position
from solver.core.rules import shape_name
from solver.core.variants import COLOUR_LETTERS, LETTER_COLOURS
from solver.errors import InputError

#: Diagram character of a free square the layout must cover (a star).
STAR = "*"


@dataclass(frozen=True)
class Diagram:
    """A parsed diagram.

    Attributes:
        rows: the rows as given, stripped, top row first.
        first_line: line number in the file of the first row (for messages), or None.
    """

    rows: tuple[str, ...]
    first_line: int | None = None

    @classmethod
    def parse_trigon(cls, text: str, first_line: int | None = None) -> Diagram:
        """Split a Trigon diagram into rows (see the module docstring): blank lines before
        and after are dropped, and spaces at the ends of rows and the indentation common to
        every row. Raises InputError for blank rows inside the diagram."""
        diagram = cls.parse(text, first_line)  # (checks for rows, blank rows inside)
        lines = text.split("\n")
        start = next(k for k, line in enumerate(lines) if line.strip())
        rows = [line.rstrip() for line in lines[start : start + len(diagram.rows)]]
        indent = min(len(row) - len(row.lstrip(" ")) for row in rows)
        return cls(tuple(row[indent:] for row in rows), diagram.first_line)

    @classmethod
    def parse(cls, text: str, first_line: int | None = None) -> Diagram:
        """Split a diagram into rows; blank lines before and after are dropped, spaces
        around each row are ignored. Raises InputError for blank rows inside the diagram."""
        lines = text.split("\n")
        numbered = [(i, line.strip()) for i, line in enumerate(lines)]
        while numbered and not numbered[0][1]:
            numbered.pop(0)
        while numbered and not numbered[-1][1]:
            numbered.pop()
        if not numbered:
            raise InputError("the diagram has no rows", where="diagram")
        offset = numbered[0][0]
        base = None if first_line is None else first_line + offset
        diagram = cls(tuple(row for _, row in numbered), base)
        for k, (_, row) in enumerate(numbered):
            if not row:
                raise InputError("blank row inside the diagram", where=diagram.where(k))
        return diagram

    def where(self, row: int, col: int | None = None) -> str:
        """The place of a row (and column) for an error message."""
        place = (
            f"line {self.first_line + row}"
            if self.first_line is not None
            else f"diagram row {row + 1}"
        )
        return place if col is None else f"{place}, column {col + 1}"

    def trigon_board(self, board: Board) -> Board:
        """``board`` (an empty Trigon hexagon) with this diagram's blocked triangles.

        Raises:
            InputError: more rows than the naming rectangle's, a row longer than it, a
                triangle left blank, a character off the hexagon, an unknown character.
        """
        if len(self.rows) != board.rows:
            raise InputError(
                f"the diagram has {len(self.rows)} rows, the {board.geometry.label} board "
                f"{board.rows} (one a row of Pentobi's naming rectangle)",
                where=self.where(min(len(self.rows), board.rows) - 1),
            )
        cells = {(y, x): i for i, (x, y) in enumerate(board.geometry.coords)}
        blocked = []
        for r, row in enumerate(self.rows):
            if len(row) > board.cols:
                raise InputError(
                    f"row has {len(row)} characters, the naming rectangle {board.cols}",
                    where=self.where(r),
                )
            for c, ch in enumerate(row.ljust(board.cols)):
                on_board = (r, c) in cells
                if on_board and ch == OFF_BOARD:
                    raise InputError(
                        f"a space on triangle {board.name(cells[r, c])} (use . for an empty one)",
                        where=self.where(r, c),
                    )
                if not on_board and ch != OFF_BOARD:
                    raise InputError(
                        f"{ch!r} off the {board.geometry.label} board (use a space there)",
                        where=self.where(r, c),
                    )
                if (
                    on_board
                    and ch not in (EMPTY, BLOCKED, STAR)
                    and ch.upper() not in LETTER_COLOURS
                ):
                    raise InputError(
                        f"unknown character {ch!r} (use . # * {' '.join(COLOUR_LETTERS.values())})",
                        where=self.where(r, c),
                    )
                if ch == BLOCKED:
                    blocked.append(cells[r, c])
        return Board(board.rows, board.cols, frozenset(blocked), board.grid)

    def board(self, rows: int | None = None, cols: int | None = None) -> Board:
        """The board: size from the diagram (checked against rows/cols when given) and its
        blocked squares. Raises InputError on a size mismatch or an unknown character."""
        width = len(self.rows[0])
        if rows is not None and len(self.rows) != rows:
            raise InputError(
                f"the diagram has {len(self.rows)} rows, the board {rows}", where=self.where(0)
            )
        for k, row in enumerate(self.rows):
            expected = cols if cols is not None else width
            if len(row) != expected:
                raise InputError(
                    f"row has {len(row)} squares, expected {expected}", where=self.where(k)
                )
            for j, ch in enumerate(row):
                if ch not in (EMPTY, BLOCKED, STAR) and ch.upper() not in LETTER_COLOURS:
                    raise InputError(
                        f"unknown character {ch!r} (use . # * {' '.join(COLOUR_LETTERS.values())})",
                        where=self.where(k, j),
                    )
        cols = width if cols is None else cols
        if len(self.rows) > MAX_SIDE or cols > MAX_SIDE:
            raise InputError(
                f"board size {len(self.rows)}x{cols} is outside 1..{MAX_SIDE}", where=self.where(0)
            )
        blocked = frozenset(
            r * cols + c
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch == BLOCKED
        )
        return Board(len(self.rows), cols, blocked)

    def stars(self, board: Board) -> list[tuple[int, str]]:
        """The ``*`` squares, in reading order, each with its place for messages."""
        return [
            (board.square(r, c), self.where(r, c))
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch == STAR
        ]

    def pieces(self, board: Board) -> dict[str, list[Placement]]:
        """Each colour's pieces: its edge-connected groups of squares, in reading order.

        Raises:
            InputError: a group is not a piece of the set (e.g. two pieces share an edge).
        """
        free = (EMPTY, BLOCKED, STAR) if board.square_grid else (EMPTY, BLOCKED, STAR, OFF_BOARD)
        owner = {
            _cell(board, r, c): LETTER_COLOURS[ch.upper()]
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch not in free
        }
        found: dict[str, list[Placement]] = {}
        seen: set[int] = set()
        for sq in sorted(owner):
            if sq in seen:
                continue
            group = _group(board, owner, sq)
            seen |= group
            piece = _piece_name(board, group)
            if piece is None:
                r, c = board.row_col(sq)
                raise InputError(
                    f"the {owner[sq]} squares {','.join(board.names(group))} form no piece of "
                    f"the set (two pieces of one colour may not share an edge)",
                    where=self.where(r, c),
                )
            found.setdefault(owner[sq], []).append(Placement(piece, frozenset(group)))
        return found


def _cell(board: Board, row: int, col: int) -> int:
    """The cell at (row, column) of a diagram (square boards: without a bounds check, as
    always)."""
    return row * board.cols + col if board.square_grid else board.square(row, col)


def _piece_name(board: Board, group: frozenset[int]) -> str | None:
    """The piece a group of cells forms (of the board's grid's family), or None."""
    if not board.square_grid:
        return shape_name(board, group)
    piece = identify([board.row_col(s) for s in group])
    return piece.name if piece else None


def _group(board: Board, owner: dict[int, str], sq: int) -> frozenset[int]:
    colour, group, todo = owner[sq], {sq}, [sq]
    while todo:
        for n in board.edge_neighbours[todo.pop()]:
            if n not in group and owner.get(n) == colour:
                group.add(n)
                todo.append(n)
    return frozenset(group)


def render(position: Position, stars: frozenset[int] = frozenset()) -> list[str]:
    """The position as diagram rows (top row first), the inverse of parsing
    (:meth:`solver.core.position.Position.diagram`), with ``*`` on the free squares of
    ``stars``."""
    rows = position.diagram()
    for sq in sorted(stars):
        r, c = position.board.row_col(sq)
        if rows[r][c] == EMPTY:
            rows[r] = rows[r][:c] + STAR + rows[r][c + 1 :]
    return rows
