"""The triangle grid of Blokus Trigon: a hexagon of triangles.

Facts, from Pentobi's public source (read, not copied):

- ``libpentobi_base/TrigonGeometry.cpp``: a hexagon of edge ``side`` on a coordinate
  rectangle ``4 * side - 1`` wide and ``2 * side`` high; row ``y`` (0 at the top) holds the
  ``x`` with ``side - 1 - d <= x <= 4 * side - 2 - (side - 1 - d)``, ``d = min(y, 2 * side
  - 1 - y)``; a triangle points up or down by the parity of ``x + y`` (on an odd side, up
  when ``x + y`` is even; on an even side, when it is odd); each triangle has at most 3
  edge neighbours and 9 corner neighbours (``get_adj_coord``, ``get_diag_coord``).
- ``libpentobi_base/Variant.cpp`` (``get_board_type``): side 9, 486 triangles, for Blokus
  Trigon and Trigon Two-Player; side 8, 384, for Trigon Three-Player; the board's 12
  symmetries (6 rotations, each with and without a reflection) are listed for side 9.
- ``libpentobi_base/StartingPoints.cpp``: six starting points shared by all colours.
- ``libpentobi_base/Pentobi-SGF.md``: cells are named like squares, from that rectangle
  (``a1`` its lower-left corner; ``r15`` is the starting point (17, 3) on side 9).

Lattice coordinates: a triangle (x, y) points up when ``x + y`` is even. The board of an
odd side uses Pentobi's (x, y) as they are; on an even side, x is shifted by one (lattice
x = Pentobi x + 1) so that the same rule holds. Lattice vertices (X, Y) have ``X + Y``
even: X in half edges from the left, Y in rows from the top; the up triangle (x, y) has
the corners (x, y), (x + 1, y + 1), (x - 1, y + 1), the down one (x - 1, y), (x + 1, y),
(x, y + 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from solver.core.geometry.base import Cell, Geometry, Lattice, Shape, Vertex
from solver.errors import SquareError

#: Pentobi's starting points (x, y) by side (StartingPoints.cpp: trigon, trigon_3)
_STARTING_POINTS: dict[int, tuple[tuple[int, int], ...]] = {
    9: ((17, 3), (17, 14), (9, 6), (9, 11), (25, 6), (25, 11)),
    8: ((15, 2), (15, 13), (7, 5), (7, 10), (23, 5), (23, 10)),
}

_ROTATIONS = ("identity", "rot60", "rot120", "rot180", "rot240", "rot300")


class TriangleLattice(Lattice):
    """The triangle grid (see the module docstring for its coordinates). Transforms: the
    six rotations by multiples of 60 degrees (``rotN``, clockwise on the page as y grows
    downward), then each after the left-right mirror (``mirror+rotN``)."""

    transform_names = _ROTATIONS + tuple(f"mirror+{r}" for r in _ROTATIONS)

    def kind(self, cell: Cell) -> int:
        """0 for a triangle pointing up, 1 pointing down."""
        return (cell[0] + cell[1]) % 2

    def vertices(self, cell: Cell) -> tuple[Vertex, ...]:
        """The three corners: of an up triangle the apex on top, then its base left to
        right; of a down one its top edge left to right, then the bottom corner."""
        x, y = cell
        if self.kind(cell) == 0:
            return ((x, y), (x - 1, y + 1), (x + 1, y + 1))
        return ((x - 1, y), (x + 1, y), (x, y + 1))

    def tile(self, corners: Iterable[Vertex]) -> Cell | None:
        """The triangle with these corners, or None."""
        vs = sorted(set(corners), key=lambda v: (v[1], v[0]))
        if len(vs) != 3:
            return None
        (x0, y0), (x1, y1), (x2, y2) = vs
        if y0 == y1:  # the top edge: pointing down
            cell = (x2, y0)
        else:  # the apex on top: pointing up
            cell = (x0, y0)
        return cell if sorted(self.vertices(cell), key=lambda v: (v[1], v[0])) == vs else None

    def transform_vertex(self, k: int, vertex: Vertex) -> Vertex:
        """Transform ``k`` of a vertex about (0, 0): in axial coordinates (a, b) =
        ((X - Y) / 2, Y), a turn by 60 degrees is (a, b) -> (-b, a + b) and the mirror
        X -> -X is (a, b) -> (-a - b, b)."""
        big_x, big_y = vertex
        a, b = (big_x - big_y) // 2, big_y
        if k >= 6:
            a, b = -a - b, b
        for _ in range(k % 6):
            a, b = -b, a + b
        return (2 * a + b, b)

    def point(self, vertex: Vertex) -> tuple[float, float]:
        """Drawing coordinates: X / 2 across, Y * sqrt(3) / 2 down (an edge is 1)."""
        return (vertex[0] / 2, vertex[1] * math.sqrt(3) / 2)

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        """Translated by (dx, dy) with dx + dy even (which keeps each triangle's
        direction) so that the smallest y is 0 and the smallest x is 0 or 1, sorted."""
        cs = list(cells)
        x0, y0 = min(x for x, _ in cs), min(y for _, y in cs)
        if (x0 + y0) % 2:
            x0 -= 1
        return tuple(sorted((x - x0, y - y0) for x, y in cs))


TRIANGLE_LATTICE = TriangleLattice()


@dataclass(frozen=True, eq=True)
class TrigonGeometry(Geometry):
    """The Trigon hexagon of edge ``side`` (2..30): ``6 * side**2`` triangles (486 on side
    9, 384 on side 8), numbered row by row from the top, left to right, as Pentobi numbers
    its points.

    Raises:
        SquareError: a side outside 2..30 (or not a whole number).
    """

    side: int

    lattice = TRIANGLE_LATTICE

    def __post_init__(self) -> None:
        if type(self.side) is not int or not 2 <= self.side <= 30:
            raise SquareError(f"Trigon side {self.side!r} is outside 2..30")

    @property
    def label(self) -> str:
        """``'trigon side N'``."""
        return f"trigon side {self.side}"

    @property
    def width(self) -> int:
        """Columns of the naming rectangle: ``4 * side - 1`` (35 on side 9)."""
        return 4 * self.side - 1

    @property
    def height(self) -> int:
        """Rows of the naming rectangle: ``2 * side`` (18 on side 9)."""
        return 2 * self.side

    @property
    def _shift(self) -> int:
        """Lattice x minus Pentobi x: 0 on an odd side, 1 on an even one."""
        return 1 - self.side % 2

    @cached_property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """Pentobi's (x, y) of each triangle (TrigonGeometry.cpp ``init_is_onboard``)."""
        out: list[tuple[int, int]] = []
        for y in range(self.height):
            d = min(y, self.height - 1 - y)
            lo = self.side - 1 - d
            out.extend((x, y) for x in range(lo, self.width - lo))
        return tuple(out)

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Lattice coordinates: Pentobi's, x shifted by one on an even side."""
        return tuple((x + self._shift, y) for x, y in self.coords)

    @property
    def centre(self) -> Vertex:
        """The middle of the hexagon: the vertex between rows ``side - 1`` and ``side``,
        below Pentobi's x = ``2 * side - 1``."""
        return (2 * self.side - 1 + self._shift, self.side)

    @cached_property
    def starting_points(self) -> tuple[int, ...]:
        """The six starting points shared by all colours (StartingPoints.cpp), as cells
        in Pentobi's order; a colour's first piece covers one of them.

        Raises:
            SquareError: a side Pentobi has no starting points for (only 8 and 9).
        """
        points = _STARTING_POINTS.get(self.side)
        if points is None:
            raise SquareError(f"Pentobi has no starting points on a Trigon side {self.side}")
        index = {c: i for i, c in enumerate(self.coords)}
        return tuple(index[p] for p in points)

    def is_up(self, cell: int) -> bool:
        """Whether a triangle points up (its horizontal edge at the bottom)."""
        return self.lattice.kind(self.cells[cell]) == 0
