"""Where the cells of any board geometry are drawn: each cell's polygon, its centre, the
centres of the naming rectangle's columns and rows, the grid's edges and the outline of a
set of cells, in picture coordinates (x to the right, y downwards).

It is the drawing half of :mod:`solver.pictures.picture` for boards that are not squares
(Blokus Trigon's triangles), read from the board's
:class:`~solver.core.geometry.base.Geometry`: its ``polygons`` and lattice vertices. It
works on the square grid too (the tests compare it with the square pictures' own
outlines), but the square pictures keep their rectangles.

Scale: one column of the naming rectangle is 1 wide (on Trigon a triangle's edge is 2, a
row of triangles sqrt(3) high), so that column letters are as far apart as on a square
board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.core.board import Board
from solver.core.geometry.base import Geometry, Vertex

Point = tuple[float, float]


@dataclass(frozen=True)
class Cells:
    """A board's cells placed in a picture: the naming rectangle's top-left corner (the
    board's bounding box) at (``left``, ``top``), one naming column 1 wide."""

    board: Board
    left: float
    top: float

    @property
    def geometry(self) -> Geometry:
        """The board's geometry."""
        return self.board.geometry

    @cached_property
    def scale(self) -> float:
        """Picture units per edge of a cell: 1 over the distance between the centres of
        two neighbouring columns (1 for squares, 2 for triangles; 1 with one column)."""
        centres = self._box_centres(self.geometry.polygons)[:, 0]
        xs = [x for x, _ in self.geometry.coords]
        span = max(xs) - min(xs)
        return 1.0 if span == 0 else span / float(centres.max() - centres.min())

    @cached_property
    def polygons(self) -> np.ndarray:
        """Each cell's corners in picture coordinates, float64 of shape (n, k, 2)."""
        out: np.ndarray = self.geometry.polygons * self.scale + np.array([self.left, self.top])
        return out

    @property
    def width(self) -> float:
        """The board's width in picture units."""
        return float(self.polygons[..., 0].max()) - self.left

    @property
    def height(self) -> float:
        """The board's height in picture units."""
        return float(self.polygons[..., 1].max()) - self.top

    def corners(self, cell: int) -> tuple[Point, ...]:
        """A cell's corners, in the lattice's order."""
        return tuple((float(x), float(y)) for x, y in self.polygons[cell])

    def centre(self, cell: int) -> Point:
        """A cell's centroid (the mean of its corners)."""
        x, y = self.polygons[cell].mean(axis=0)
        return (float(x), float(y))

    @cached_property
    def column_centres(self) -> dict[int, float]:
        """Picture x of the middle of each column of the naming rectangle that has a cell,
        by Pentobi's x (0 for column ``a``)."""
        boxes = self._box_centres(self.polygons)
        return {x: float(boxes[i, 0]) for i, (x, _) in enumerate(self.geometry.coords)}

    @cached_property
    def row_centres(self) -> dict[int, float]:
        """Picture y of the middle of each row of the naming rectangle, by Pentobi's y (0
        for the top row)."""
        boxes = self._box_centres(self.polygons)
        return {y: float(boxes[i, 1]) for i, (_, y) in enumerate(self.geometry.coords)}

    @staticmethod
    def _box_centres(polygons: np.ndarray) -> np.ndarray:
        """The middle of each polygon's bounding box, shape (n, 2)."""
        out: np.ndarray = (polygons.min(axis=1) + polygons.max(axis=1)) / 2
        return out

    def point(self, vertex: Vertex) -> Point:
        """Picture coordinates of a lattice vertex of the board."""
        x, y = self.geometry.lattice.point(vertex)
        ox, oy = self._origin
        return (self.left + (x - ox) * self.scale, self.top + (y - oy) * self.scale)

    @cached_property
    def _origin(self) -> Point:
        """Drawing coordinates (:meth:`Lattice.point`) of the board's top-left corner."""
        lattice = self.geometry.lattice
        points = [lattice.point(v) for c in self.geometry.cells for v in lattice.vertices(c)]
        return (min(x for x, _ in points), min(y for _, y in points))

    def grid_lines(self) -> tuple[tuple[Point, Point], ...]:
        """Every edge between two cells of the board, once, as a pair of points (the
        board's own boundary is left to the frame)."""
        seen: dict[frozenset[Vertex], int] = {}
        for edge in (e for c in range(self.geometry.size) for e in self._edges(c)):
            key = frozenset(edge)
            seen[key] = seen.get(key, 0) + 1
        inner = sorted(tuple(sorted(k)) for k, n in seen.items() if n == 2)
        return tuple((self.point(a), self.point(b)) for a, b in inner)

    def outline(self, cells: frozenset[int]) -> tuple[tuple[Point, ...], ...]:
        """The boundary of a set of cells as closed loops of corners (clockwise on
        screen, collinear corners dropped): one loop for an edge-connected set without
        holes. The first loop starts at the topmost corner, the leftmost of those; where
        the set touches itself at a corner the loop turns right (keeps to the cell it
        went along)."""
        step: dict[Vertex, list[Vertex]] = {}
        edges = [e for c in sorted(cells) for e in self._edges(c)]
        inside = set(edges)
        for a, b in edges:
            if (b, a) not in inside:  # the reverse edge is another cell's of the set
                step.setdefault(a, []).append(b)
        loops = []
        while step:
            start = min(step, key=lambda v: (v[1], v[0]))
            loops.append(self._trace(start, step))
        return tuple(
            tuple(self.point(v) for k, v in enumerate(loop) if not _straight(loop, k))
            for loop in loops
        )

    def _trace(self, start: Vertex, step: dict[Vertex, list[Vertex]]) -> list[Vertex]:
        """Follow boundary edges from ``start`` back to it, removing them from ``step``."""
        loop = [start]
        point = start
        heading: Point | None = None
        while True:
            options = step[point]
            nxt = options[0] if heading is None else max(options, key=self._turn(point, heading))
            options.remove(nxt)
            if not options:
                del step[point]
            heading = _sub(self.geometry.lattice.point(nxt), self.geometry.lattice.point(point))
            point = nxt
            if point == start and point not in step:
                return loop
            loop.append(point)

    def _turn(self, point: Vertex, heading: Point) -> Callable[[Vertex], float]:
        """Sort key of the edges leaving ``point``: the turn from ``heading`` in radians,
        right turns (clockwise on screen) positive."""
        here = self.geometry.lattice.point(point)

        def key(to: Vertex) -> float:
            dx, dy = _sub(self.geometry.lattice.point(to), here)
            hx, hy = heading
            return math.atan2(hx * dy - hy * dx, hx * dx + hy * dy)

        return key

    def _edges(self, cell: int) -> list[tuple[Vertex, Vertex]]:
        """A cell's edges as directed pairs of lattice vertices, clockwise on screen."""
        corners = list(self.geometry.lattice.vertices(self.geometry.cells[cell]))
        if _area2(corners) < 0:
            corners.reverse()
        return [(corners[k], corners[(k + 1) % len(corners)]) for k in range(len(corners))]


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _area2(corners: list[Vertex]) -> int:
    """Twice the signed area of a polygon of lattice vertices: positive when clockwise on
    screen (y downwards). Every lattice's :meth:`point` keeps this sign (it scales x and y
    by positive factors)."""
    return sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True)
    )


def _straight(loop: list[Vertex], k: int) -> bool:
    """Whether the loop goes straight on through its corner ``k`` (lattice vertices)."""
    (ax, ay), (bx, by), (cx, cy) = loop[k - 1], loop[k], loop[(k + 1) % len(loop)]
    return (bx - ax) * (cy - by) == (by - ay) * (cx - bx)
