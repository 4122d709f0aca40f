"""The square grid: today's boards (Classic 20x20, Duo and Junior 14x14, any rectangle).

Facts: Pentobi's ``libboardgame_base/RectGeometry.h`` (the grid, its names) and
``libpentobi_base/Variant.cpp`` (the symmetries of the square boards). The numbering, the
names and the order of the neighbour lists are those of :mod:`solver.core.board`
(``row * cols + col``, ``a1`` the lower-left square; edge neighbours up, down, left, right;
corner neighbours up-left, up-right, down-left, down-right), and the symmetries those of
:func:`solver.core.symmetry.board_symmetries` in its order, so that code moved onto this
geometry sees the same tables (``tests/test_geometry.py`` checks both).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from solver.core.geometry.base import Cell, Geometry, Lattice, Shape, Vertex
from solver.errors import SquareError

MAX_SIDE = 60

#: the square board's symmetries, in the order of solver.core.symmetry.SYMMETRY_NAMES;
#: each maps a vertex offset (dx, dy) from the centre, y downward
_SQUARE_TRANSFORMS: tuple[tuple[str, tuple[int, int, int, int]], ...] = (
    # name, (a, b, c, d): (dx, dy) -> (a*dx + b*dy, c*dx + d*dy)
    ("identity", (1, 0, 0, 1)),
    ("half turn", (-1, 0, 0, -1)),
    ("left-right mirror", (-1, 0, 0, 1)),
    ("top-bottom mirror", (1, 0, 0, -1)),
    ("mirror in the diagonal through the top-left corner", (0, 1, 1, 0)),
    ("mirror in the diagonal through the top-right corner", (0, -1, -1, 0)),
    ("quarter turn clockwise", (0, -1, 1, 0)),
    ("quarter turn anticlockwise", (0, 1, -1, 0)),
)

#: (dy, dx) steps in solver.core.board's order of the neighbour lists
_EDGE_ORDER = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CORNER_ORDER = ((-1, -1), (-1, 1), (1, -1), (1, 1))


class SquareLattice(Lattice):
    """The square grid. A square (x, y) has the corners (2x, 2y), (2x+2, 2y), (2x+2,
    2y+2), (2x, 2y+2): vertices in units of half an edge, so that the centre of any
    rectangle of squares is a vertex and its transforms stay whole numbers."""

    transform_names = tuple(name for name, _ in _SQUARE_TRANSFORMS)

    def kind(self, cell: Cell) -> int:
        """Always 0: every square is like every other."""
        return 0

    def vertices(self, cell: Cell) -> tuple[Vertex, ...]:
        """The four corners, clockwise from the top-left (y downward)."""
        x, y = cell
        return ((2 * x, 2 * y), (2 * x + 2, 2 * y), (2 * x + 2, 2 * y + 2), (2 * x, 2 * y + 2))

    def tile(self, corners: Iterable[Vertex]) -> Cell | None:
        """The square with these corners, or None."""
        vs = set(corners)
        x0, y0 = min(x for x, _ in vs), min(y for _, y in vs)
        if x0 % 2 or y0 % 2:
            return None
        cell = (x0 // 2, y0 // 2)
        return cell if set(self.vertices(cell)) == vs else None

    def transform_vertex(self, k: int, vertex: Vertex) -> Vertex:
        """Transform ``k`` (of :attr:`transform_names`) of a vertex about (0, 0)."""
        a, b, c, d = _SQUARE_TRANSFORMS[k][1]
        dx, dy = vertex
        return (a * dx + b * dy, c * dx + d * dy)

    def point(self, vertex: Vertex) -> tuple[float, float]:
        """Drawing coordinates: half the vertex coordinates (an edge is 1)."""
        return (vertex[0] / 2, vertex[1] / 2)

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        """Translated so that the smallest x and y are 0, sorted."""
        cs = list(cells)
        x0, y0 = min(x for x, _ in cs), min(y for _, y in cs)
        return tuple(sorted((x - x0, y - y0) for x, y in cs))


SQUARE_LATTICE = SquareLattice()


@dataclass(frozen=True, eq=True)
class SquareGeometry(Geometry):
    """A rectangle of ``rows`` x ``cols`` squares (1..60 each).

    Square (row, col), row 0 at the top, is cell ``row * cols + col`` at lattice and
    Pentobi coordinates (x=col, y=row); named as :meth:`solver.core.board.Board.name`
    names it (``a1`` the lower-left square).

    Raises:
        SquareError: a size outside 1..60 (or not a whole number).
    """

    rows: int
    cols: int

    lattice = SQUARE_LATTICE

    def __post_init__(self) -> None:
        for side in (self.rows, self.cols):
            if type(side) is not int or not 1 <= side <= MAX_SIDE:
                raise SquareError(f"board size {self.rows}x{self.cols} is outside 1..{MAX_SIDE}")

    @property
    def label(self) -> str:
        """``'square ROWSxCOLS'``."""
        return f"square {self.rows}x{self.cols}"

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """(col, row) of each square, row by row from the top."""
        return tuple((c, r) for r in range(self.rows) for c in range(self.cols))

    @property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """The same as :attr:`cells`: Pentobi's x is the column, y the row from the top."""
        return self.cells

    @property
    def height(self) -> int:
        """The number of rows."""
        return self.rows

    @property
    def centre(self) -> Vertex:
        """The middle of the rectangle, in half edges: (cols, rows)."""
        return (self.cols, self.rows)

    def neighbour_key(self, cell: int, other: int) -> tuple[int, ...]:
        """solver.core.board's order: edge neighbours up, down, left, right; corner
        neighbours up-left, up-right, down-left, down-right."""
        (x, y), (ox, oy) = self.cells[cell], self.cells[other]
        step = (oy - y, ox - x)
        order = _EDGE_ORDER if step in _EDGE_ORDER else _CORNER_ORDER
        return (order.index(step),)
