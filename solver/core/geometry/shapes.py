"""Pieces as tiles of a lattice, their orientations, and every placement on a board.

A piece is a set of lattice cells in a reference frame; its fixed orientations are the
distinct shapes its point transforms give (:meth:`Lattice.orientations`), and a
placement is one orientation moved by a translation of the lattice (one that keeps each
tile's kind) onto cells of the board. The enumerator works on any :class:`Geometry`: on
the square grid it gives today's table (30,433 placements of the 21 pieces on 20x20,
13,729 on 14x14, ``tests/test_geometry.py``), on the Trigon hexagon Pentobi's (32,131 on
side 9, 24,859 on side 8: ``onboard_moves_trigon`` and ``onboard_moves_trigon_3`` in
``libpentobi_base/Move.h``).

The 22 Trigon pieces (110 triangles) are Pentobi's, by name and shape
(``create_pieces_trigon`` in ``libpentobi_base/BoardConst.cpp``), in its order and in
lattice coordinates of :mod:`solver.core.geometry.trigon` (a triangle (x, y) points up
when ``x + y`` is even).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.core.geometry.base import Geometry, Lattice, Shape
from solver.core.geometry.trigon import TRIANGLE_LATTICE


@dataclass(frozen=True)
class PieceShape:
    """A piece: its name and its cells in a reference frame of a lattice.

    Attributes:
        name: Pentobi's name, e.g. ``'I6'``.
        cells: lattice coordinates (x, y), sorted, normalised.
        lattice: the grid the cells are tiles of.
    """

    name: str
    cells: Shape
    lattice: Lattice

    @property
    def size(self) -> int:
        """Number of tiles."""
        return len(self.cells)

    @cached_property
    def orientations(self) -> tuple[Shape, ...]:
        """The distinct fixed orientations under the lattice's point transforms (12 on the
        triangle grid, 8 on the square one), each normalised, sorted."""
        return self.lattice.orientations(self.cells)


def piece_set(lattice: Lattice, shapes: Sequence[tuple[str, Shape]]) -> tuple[PieceShape, ...]:
    """Pieces from (name, cells) pairs, their cells normalised."""
    return tuple(PieceShape(name, lattice.normalise(cells), lattice) for name, cells in shapes)


#: The 22 Trigon pieces in Pentobi's order (BoardConst.cpp ``create_pieces_trigon``)
TRIGON_PIECES: tuple[PieceShape, ...] = piece_set(
    TRIANGLE_LATTICE,
    (
        ("I6", ((1, -1), (2, -1), (0, 0), (1, 0), (-1, 1), (0, 1))),
        ("L6", ((1, -1), (2, -1), (0, 0), (1, 0), (0, 1), (1, 1))),
        ("V", ((-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0), (2, 0))),
        ("S", ((-1, -1), (0, -1), (-1, 0), (0, 0), (-1, 1), (0, 1))),
        ("P6", ((1, -1), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1))),
        ("F", ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2))),
        ("W", ((1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0))),
        ("A6", ((1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (2, 1))),
        ("G", ((1, -1), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1))),
        ("Y", ((-1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1))),
        ("X", ((-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1))),
        ("O", ((-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0))),
        ("I5", ((1, -1), (0, 0), (1, 0), (-1, 1), (0, 1))),
        ("L5", ((1, -1), (0, 0), (1, 0), (0, 1), (1, 1))),
        ("C5", ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1))),
        ("P5", ((1, -1), (0, 0), (1, 0), (2, 0), (0, 1))),
        ("I4", ((0, 0), (1, 0), (-1, 1), (0, 1))),
        ("C4", ((0, 0), (1, 0), (0, 1), (1, 1))),
        ("A4", ((1, -1), (0, 0), (1, 0), (2, 0))),
        ("I3", ((1, -1), (0, 0), (1, 0))),
        ("2", ((0, 0), (1, 0))),
        ("1", ((0, 0),)),
    ),
)


@dataclass(frozen=True, eq=False)
class PlacementList:
    """Every placement of some pieces on an empty board, one row each.

    Attributes:
        geometry: the board.
        pieces: the pieces; ``piece`` indexes them.
        piece: shape (P,), int16: the piece of each placement.
        cells: shape (P, k), int32: the cells covered, ascending, padded with -1 (k: the
            largest piece's size).
        orientation: shape (P,), int8: the index of its orientation in the piece's
            :attr:`PieceShape.orientations`.
        anchor: shape (P,), int32: the cell the orientation's first tile lands on.

    Order: by piece (as given), then orientation (as :attr:`PieceShape.orientations`),
    then the cell the orientation's first tile lands on (ascending).
    """

    geometry: Geometry
    pieces: tuple[PieceShape, ...]
    piece: np.ndarray
    cells: np.ndarray
    orientation: np.ndarray
    anchor: np.ndarray

    def __len__(self) -> int:
        return len(self.piece)

    @cached_property
    def cell_sets(self) -> tuple[frozenset[int], ...]:
        """The cells of each placement, as sets."""
        return tuple(frozenset(c for c in row if c >= 0) for row in self.cells.tolist())

    @cached_property
    def piece_list(self) -> tuple[int, ...]:
        """:attr:`piece` as Python ints."""
        return tuple(self.piece.tolist())

    @cached_property
    def by_cells(self) -> dict[frozenset[int], int]:
        """Placement row by its set of cells (a set of cells is one piece's at most)."""
        return {cs: r for r, cs in enumerate(self.cell_sets)}

    @cached_property
    def covering(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the rows of the placements covering it, ascending."""
        out: list[list[int]] = [[] for _ in range(self.geometry.size)]
        for r, row in enumerate(self.cells.tolist()):
            for c in row:
                if c >= 0:
                    out[c].append(r)
        return tuple(tuple(rs) for rs in out)


def enumerate_placements(geometry: Geometry, pieces: Sequence[PieceShape]) -> PlacementList:
    """Every placement of the pieces on the empty board of ``geometry``.

    An orientation is moved so that its first tile lands on each cell of the same kind
    (a triangle onto a triangle pointing the same way); it is kept when all its tiles
    land on cells. Distinct orientations give distinct sets of cells, so no placement is
    counted twice.

    Raises:
        ValueError: a piece of another lattice than the geometry's.
    """
    lattice = geometry.lattice
    cells = np.array(geometry.cells, dtype=np.int64)
    x0, y0 = cells.min(axis=0)
    x1, y1 = cells.max(axis=0)
    grid = np.full((y1 - y0 + 1, x1 - x0 + 1), -1, dtype=np.int32)
    grid[cells[:, 1] - y0, cells[:, 0] - x0] = np.arange(len(cells), dtype=np.int32)
    kinds = np.array([lattice.kind(c) for c in geometry.cells])
    width = max((p.size for p in pieces), default=1)
    piece_rows, cell_rows, orient_rows, anchor_rows = [], [], [], []
    for index, p in enumerate(pieces):
        if type(p.lattice) is not type(lattice):
            raise ValueError(f"piece {p.name} is not on the {geometry.label} board's grid")
        for k, shape in enumerate(p.orientations):
            ax, ay = shape[0]
            offsets = np.array([(x - ax, y - ay) for x, y in shape], dtype=np.int64)
            anchors = cells[kinds == lattice.kind(shape[0])]
            tx = anchors[:, None, 0] + offsets[None, :, 0] - x0
            ty = anchors[:, None, 1] + offsets[None, :, 1] - y0
            inside = (tx >= 0) & (tx < grid.shape[1]) & (ty >= 0) & (ty < grid.shape[0])
            found = np.where(
                inside,
                grid[np.clip(ty, 0, grid.shape[0] - 1), np.clip(tx, 0, grid.shape[1] - 1)],
                -1,
            )
            found = found[(found >= 0).all(axis=1)]
            block = np.full((len(found), width), -1, dtype=np.int32)
            block[:, : len(shape)] = np.sort(found, axis=1)
            cell_rows.append(block)
            piece_rows.append(np.full(len(found), index, dtype=np.int16))
            orient_rows.append(np.full(len(found), k, dtype=np.int8))
            anchor_rows.append(found[:, 0].astype(np.int32))  # the first tile's cell
    out = PlacementList(
        geometry,
        tuple(pieces),
        np.concatenate(piece_rows) if piece_rows else np.zeros(0, dtype=np.int16),
        np.concatenate(cell_rows) if cell_rows else np.zeros((0, width), dtype=np.int32),
        np.concatenate(orient_rows) if orient_rows else np.zeros(0, dtype=np.int8),
        np.concatenate(anchor_rows) if anchor_rows else np.zeros(0, dtype=np.int32),
    )
    for arr in (out.piece, out.cells, out.orientation, out.anchor):
        arr.setflags(write=False)
    return out
