"""Boards and their cell names.

A board is a rectangle of ``rows`` x ``cols`` squares (``grid="square"``), or the Trigon
hexagon of triangles (``grid="trigon"``, :meth:`Board.trigon`), some cells blocked.
Squares are numbered ``row * cols + col`` with row 0 at the TOP and col 0 at the left, so
the number grows the way a diagram is read. Names follow Pentobi (``libpentobi_base/Geometry``):
the column letter(s) then the row number, with ``a1`` the LOWER-left square; columns run
a..z, then aa, ab, ..., az, ba, ... (the letter i is used).

On Trigon, ``rows`` x ``cols`` is Pentobi's naming rectangle (18 x 35 on side 9), the
cells are the triangles numbered as :class:`solver.core.geometry.trigon.TrigonGeometry`
numbers them, and names, neighbours and ``row_col`` come from that geometry. The square
grid keeps its own arithmetic here (it is the hot path); ``tests/test_geometry.py`` holds
it equal to :class:`solver.core.geometry.square.SquareGeometry`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver.core.geometry.base import Geometry
from solver.core.geometry.square import SquareGeometry
from solver.core.geometry.trigon import TrigonGeometry
from solver.errors import SquareError
from solver.ranges import Range

MAX_SIDE = 60  # large enough for any board a user will ask for (30x30 and well beyond)

#: the grids a board can have: squares (Classic, Duo, Junior, custom) or triangles (Trigon)
SQUARE, TRIGON = "square", "trigon"
GRIDS = (SQUARE, TRIGON)


def cell_word(grid: str) -> str:
    """What a grid's cells are called in messages: "square", or "triangle" on Trigon."""
    return "triangle" if grid == TRIGON else "square"


#: a board's size and squares as arguments: whole numbers (Python's or NumPy's, no bool);
#: their ranges are checked by :class:`Board` itself, with the board in the message
_ROWS, _COLS, _BLOCKED = (Range(name, whole=True) for name in ("rows", "cols", "blocked"))

_SQUARE_RE = re.compile(r"^([a-z]{1,2})([0-9]{1,3})$")


def column_name(col: int) -> str:
    """Column letters for a 0-based column: 0 -> 'a', 25 -> 'z', 26 -> 'aa', 27 -> 'ab'."""
    if col < 26:
        return chr(ord("a") + col)
    return chr(ord("a") + col // 26 - 1) + chr(ord("a") + col % 26)


def column_index(letters: str) -> int:
    """Inverse of :func:`column_name`: 'a' -> 0, 'aa' -> 26. Raises SquareError."""
    if len(letters) == 1:
        return ord(letters) - ord("a")
    if len(letters) == 2:
        return (ord(letters[0]) - ord("a") + 1) * 26 + ord(letters[1]) - ord("a")
    raise SquareError(f"bad column {letters!r}")


@dataclass(frozen=True)
class Board:
    """A rectangular board with optional blocked squares.

    Attributes:
        rows: number of rows (1..60); on Trigon, of the naming rectangle (``2 * side``).
        cols: number of columns (1..60); on Trigon, of the naming rectangle (``4 * side - 1``).
        blocked: cell numbers that no piece may cover (any iterable of whole numbers:
            copied into a frozenset at construction, so a set changed later does not
            change the board).
        grid: ``"square"`` (the default) or ``"trigon"`` (build it with :meth:`trigon`).

    Raises:
        InputError: a size or a square that is not a whole number (``where`` names the
            field), a size outside 1..60, a Trigon rectangle that is no hexagon's, an
            unknown grid or a blocked cell off the board (:class:`SquareError`).
    """

    rows: int
    cols: int
    blocked: frozenset[int] = field(default_factory=frozenset)
    grid: str = SQUARE

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", int(_ROWS.check(self.rows)))
        object.__setattr__(self, "cols", int(_COLS.check(self.cols)))
        if type(self.blocked) is not frozenset or not all(type(s) is int for s in self.blocked):
            blocked = frozenset(int(_BLOCKED.check(s)) for s in self.blocked)
            object.__setattr__(self, "blocked", blocked)
        if not (1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE):
            raise SquareError(f"board size {self.rows}x{self.cols} is outside 1..{MAX_SIDE}")
        if self.grid not in GRIDS:
            raise SquareError(f"unknown grid {self.grid!r} (grids: {', '.join(GRIDS)})")
        if self.grid == TRIGON and (self.rows % 2 or self.cols != 2 * self.rows - 1):
            raise SquareError(f"{self.rows}x{self.cols} is no Trigon hexagon's rectangle")
        bad = [s for s in self.blocked if not 0 <= s < self.size]
        if bad:
            raise SquareError(f"blocked square number {bad[0]} is off the board")

    @classmethod
    def trigon(cls, side: int, blocked: Iterable[int] = ()) -> Board:
        """The Trigon hexagon of edge ``side`` (9: 486 triangles, Blokus Trigon; 8: 384,
        Trigon Three-Player; Pentobi ``Variant.cpp`` ``get_board_type``).

        Raises:
            SquareError: a side outside 2..30.
        """
        if type(side) is not int or not 2 <= side <= 30:
            raise SquareError(f"Trigon side {side!r} is outside 2..30")
        return cls(2 * side, 4 * side - 1, frozenset(blocked), TRIGON)

    @property
    def square_grid(self) -> bool:
        """Whether the cells are squares (the code that only knows squares asks this)."""
        return self.grid == SQUARE

    @cached_property
    def geometry(self) -> Geometry:
        """The board's :class:`~solver.core.geometry.base.Geometry` (cells, neighbours,
        symmetries, names, polygons)."""
        if self.grid == TRIGON:
            return TrigonGeometry(self.rows // 2)
        return SquareGeometry(self.rows, self.cols)

    @cached_property
    def size(self) -> int:
        """Number of cells, blocked ones included (``rows * cols`` on the square grid)."""
        return self.rows * self.cols if self.grid == SQUARE else self.geometry.size

    @cached_property
    def _cell_at(self) -> dict[tuple[int, int], int]:
        """Cell number by (row, column) of the naming rectangle (Trigon)."""
        return {(y, x): i for i, (x, y) in enumerate(self.geometry.coords)}

    def square(self, row: int, col: int) -> int:
        """Square number of (row from top, column from left).

        Raises:
            SquareError: off the board (column 25 of a 20-column board is no square
                of the next row).
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise SquareError(f"row {row}, column {col} is off the {self.rows}x{self.cols} board")
        if self.grid != SQUARE:
            if (row, col) not in self._cell_at:
                raise SquareError(f"row {row}, column {col} is off the {self.geometry.label} board")
            return self._cell_at[row, col]
        return row * self.cols + col

    def row_col(self, square: int) -> tuple[int, int]:
        """(row from top, column from left) of a square number (on Trigon, of the naming
        rectangle). Raises SquareError for a number off the board."""
        if self.grid != SQUARE:
            x, y = self.geometry.coords[self._on_board(square)]
            return y, x
        return divmod(self._on_board(square), self.cols)

    def name(self, square: int) -> str:
        """Pentobi name of a square number, e.g. 0 -> 'a20' on a 20x20 board.

        Raises:
            SquareError: a number off the board (-1 was 't21', 400 'a0' on 20x20).
        """
        row, col = self.row_col(square)
        return f"{column_name(col)}{self.rows - row}"

    def _on_board(self, square: int) -> int:
        """``square``, if it is a square number of this board (an int or a NumPy
        integer). Raises SquareError (a bool or a float is no square)."""
        if isinstance(square, bool | float) or not 0 <= square < self.size:
            where = f"{self.rows}x{self.cols}" if self.grid == SQUARE else self.geometry.label
            raise SquareError(f"square number {square!r} is off the {where} board")
        return square

    def parse(self, text: str) -> int:
        """Square number of a Pentobi square name such as 'e10' (case-insensitive).

        Raises:
            SquareError: malformed, or off this board.
        """
        m = _SQUARE_RE.match(text.strip().lower())
        if not m:
            raise SquareError(f"bad square name {text!r}")
        col = column_index(m.group(1))
        row_number = int(m.group(2))
        if self.grid != SQUARE:
            return self.geometry.parse(text)
        if not (0 <= col < self.cols and 1 <= row_number <= self.rows):
            raise SquareError(f"square {text!r} is off the {self.rows}x{self.cols} board")
        return (self.rows - row_number) * self.cols + col

    def names(self, squares: Iterable[int]) -> list[str]:
        """Names of squares sorted the way Pentobi writes them: a1, b1, ..., a2, ..."""
        return [self.name(s) for s in sorted(squares, key=self._pentobi_key)]

    def _pentobi_key(self, square: int) -> tuple[int, int]:
        row, col = self.row_col(square) if self.grid != SQUARE else divmod(square, self.cols)
        return (-row, col)

    @cached_property
    def edge_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares sharing an edge with it (no wrap-around)."""
        if self.grid != SQUARE:
            return self.geometry.edge_neighbours
        return tuple(
            self._neighbours(s, ((-1, 0), (1, 0), (0, -1), (0, 1))) for s in range(self.size)
        )

    @cached_property
    def corner_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares sharing only a corner with it (no wrap-around)."""
        if self.grid != SQUARE:
            return self.geometry.corner_neighbours
        return tuple(
            self._neighbours(s, ((-1, -1), (-1, 1), (1, -1), (1, 1))) for s in range(self.size)
        )

    def _neighbours(self, square: int, steps: Iterable[tuple[int, int]]) -> tuple[int, ...]:
        row, col = divmod(square, self.cols)
        return tuple(
            (row + dr) * self.cols + col + dc
            for dr, dc in steps
            if 0 <= row + dr < self.rows and 0 <= col + dc < self.cols
        )

    @cached_property
    def blocked_mask(self) -> np.ndarray:
        """Boolean array of shape (size,), True on blocked squares."""
        mask = np.zeros(self.size, dtype=bool)
        mask[list(self.blocked)] = True
        return mask


def neighbour_table(
    lists: tuple[tuple[int, ...], ...], width: int, pad_row: bool = False
) -> np.ndarray:
    """Neighbour lists (such as :attr:`Board.edge_neighbours`) as one array.

    Args:
        lists: for each square, its neighbours (at most ``width`` of them).
        width: columns of the array: 4 for edge or corner neighbours, 8 for both.
        pad_row: add a last row of padding, so that indexing with -1 (a padded entry)
            gives padding.

    Returns:
        Shape (len(lists), width), or (len(lists) + 1, width) with ``pad_row``; int32,
        padded with -1.
    """
    out = np.full((len(lists) + int(pad_row), width), -1, dtype=np.int32)
    for s, ns in enumerate(lists):
        out[s, : len(ns)] = ns
    return out
