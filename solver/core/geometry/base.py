"""What every board geometry has: cells, their neighbours, symmetries, names and drawing.

A board is its cells numbered 0..n-1. Each cell is a tile of a lattice (a square of the
square grid, a triangle of the triangle grid) at integer coordinates ``(x, y)``, ``x``
growing to the right and ``y`` downward, as Pentobi's ``libboardgame_base/Geometry.h``
numbers its points: cells are numbered row by row from the top (``y``), left to right
(``x``) inside a row, which is also the order of Pentobi's ``Point`` numbers.

A :class:`Lattice` knows the tiles of the infinite grid: the corners of each tile as
integer *lattice vertices*, the tile a set of vertices is, the rotations and reflections
of the grid about a vertex, and its translations (those that keep each tile's kind: a
triangle pointing up stays pointing up). A :class:`Geometry` is a finite set of tiles of a
lattice; from the vertices alone it finds each cell's edge neighbours (two shared
vertices) and corner neighbours (exactly one) and the board's symmetries (the lattice
transforms about the board's centre that map the board onto itself).

Names are Pentobi's SGF coordinates (``libpentobi_base/Pentobi-SGF.md``, written by
``libboardgame_base/StringRep.cpp``): the column letters of ``x`` (``a``..``z``, then
``aa``, ``ab``, ...; the letter ``i`` is used), then the row number ``height - y``, so
``a1`` is the lower-left corner of the coordinate rectangle.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from solver.errors import SquareError

Cell = tuple[int, int]
"""Lattice coordinates of a tile: (x to the right, y downward)."""
Vertex = tuple[int, int]
"""A lattice vertex in the lattice's integer units (see :class:`Lattice`)."""
Shape = tuple[Cell, ...]
"""Tiles as lattice coordinates, sorted."""

_NAME_RE = re.compile(r"^([a-z]{1,3})([0-9]{1,3})$")


def letters(x: int) -> str:
    """Pentobi's column letters of a 0-based column: 0 -> 'a', 25 -> 'z', 26 -> 'aa',
    34 -> 'ai', 702 -> 'aaa' (``get_letter_coord``, ``libboardgame_base/StringUtil.cpp``).

    Raises:
        ValueError: a negative column.
    """
    if x < 0:
        raise ValueError(f"column {x} is negative")
    out = ""
    while True:
        out = chr(ord("a") + x % 26) + out
        x //= 26
        if x == 0:
            return out
        x -= 1


def column_of(text: str) -> int:
    """Inverse of :func:`letters`: 'a' -> 0, 'aa' -> 26 (lower-case letters only).

    Raises:
        SquareError: an empty string or a character that is not a lower-case letter.
    """
    if not text or not all("a" <= ch <= "z" for ch in text):
        raise SquareError(f"bad column {text!r}")
    x = 0
    for ch in text:
        x = 26 * x + ord(ch) - ord("a") + 1
    return x - 1


class Lattice(ABC):
    """The tiles of an infinite grid, with integer vertices.

    Tiles are addressed by lattice coordinates ``(x, y)``; their corners are lattice
    vertices in the lattice's own integer units, chosen so that every transform in
    :attr:`transform_names` maps vertices to vertices with integer arithmetic.
    """

    #: names of the point transforms about a vertex, identity first
    transform_names: tuple[str, ...]

    @abstractmethod
    def kind(self, cell: Cell) -> int:
        """Which kind of tile a cell is (0 for squares; triangles: 0 up, 1 down). A
        translation of the lattice maps each tile to one of the same kind."""

    @abstractmethod
    def vertices(self, cell: Cell) -> tuple[Vertex, ...]:
        """The corners of a tile, as lattice vertices."""

    @abstractmethod
    def tile(self, corners: Iterable[Vertex]) -> Cell | None:
        """The tile with exactly these corners, or None if they are no tile's."""

    @abstractmethod
    def transform_vertex(self, k: int, vertex: Vertex) -> Vertex:
        """Point transform number ``k`` (of :attr:`transform_names`) of a vertex, about
        the vertex (0, 0)."""

    @abstractmethod
    def point(self, vertex: Vertex) -> tuple[float, float]:
        """Drawing coordinates of a vertex: (right, down), a tile's edge of length 1."""

    def transform_cells(self, k: int, cells: Iterable[Cell], about: Vertex = (0, 0)) -> Shape:
        """Transform ``k`` of some tiles about the vertex ``about``, sorted.

        Raises:
            ValueError: ``about`` is not a centre of this transform for these tiles (the
                image of a tile is no tile, as a quarter turn about the middle of an edge).
        """
        ax, ay = about
        out = []
        for cell in cells:
            corners = []
            for vx, vy in self.vertices(cell):
                tx, ty = self.transform_vertex(k, (vx - ax, vy - ay))
                corners.append((tx + ax, ty + ay))
            image = self.tile(corners)
            if image is None:
                raise ValueError(f"transform {k} about {about} maps {cell} to no tile")
            out.append(image)
        return tuple(sorted(out))

    @abstractmethod
    def normalise(self, cells: Iterable[Cell]) -> Shape:
        """The tiles translated (by a translation of the lattice) to a canonical place,
        sorted: two shapes are translates of each other iff they normalise alike."""

    def orientations(self, cells: Iterable[Cell]) -> tuple[Shape, ...]:
        """The distinct fixed orientations of a shape under the point transforms, each
        normalised, sorted."""
        shape = tuple(cells)
        seen = {
            self.normalise(self.transform_cells(k, shape)) for k in range(len(self.transform_names))
        }
        return tuple(sorted(seen))


class Geometry(ABC):
    """A board: a finite set of tiles of a lattice, numbered 0..n-1.

    Subclasses give the lattice, the cells' lattice coordinates in numbering order, the
    Pentobi coordinates that name them, the size of the naming rectangle and the board's
    centre. Everything else is derived here, once (cached).
    """

    lattice: Lattice

    @property
    @abstractmethod
    def label(self) -> str:
        """A short description, e.g. ``'square 20x20'`` or ``'trigon side 9'``."""

    @property
    @abstractmethod
    def cells(self) -> tuple[Cell, ...]:
        """Lattice coordinates of each cell, in cell-number order."""

    @property
    @abstractmethod
    def coords(self) -> tuple[tuple[int, int], ...]:
        """Pentobi's (x, y) coordinates of each cell (x from the left, y from the top of
        the naming rectangle), in cell-number order."""

    @property
    @abstractmethod
    def height(self) -> int:
        """Rows of the naming rectangle: a cell at Pentobi y is named row ``height - y``."""

    @property
    @abstractmethod
    def centre(self) -> Vertex:
        """The lattice vertex the board's rotations and reflections turn about."""

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    # --- lookups -------------------------------------------------------------------------

    @cached_property
    def cell_at(self) -> dict[Cell, int]:
        """Cell number by lattice coordinates."""
        return {c: i for i, c in enumerate(self.cells)}

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Pentobi's SGF name of each cell, e.g. ``'a1'`` (see the module docstring)."""
        return tuple(f"{letters(x)}{self.height - y}" for x, y in self.coords)

    @cached_property
    def _by_name(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    def name(self, cell: int) -> str:
        """Pentobi's name of a cell number.

        Raises:
            SquareError: a number that is no cell of this board (bools and floats too).
        """
        if isinstance(cell, bool | float) or not 0 <= cell < self.size:
            raise SquareError(f"cell number {cell!r} is off the {self.label} board")
        return self.names[cell]

    def parse(self, text: str) -> int:
        """Cell number of a Pentobi name such as ``'r15'`` (case-insensitive, surrounding
        blanks ignored).

        Raises:
            SquareError: malformed, or no cell of this board.
        """
        key = text.strip().lower()
        if not _NAME_RE.match(key):
            raise SquareError(f"bad cell name {text!r}")
        cell = self._by_name.get(key)
        if cell is None:
            raise SquareError(f"cell {text!r} is off the {self.label} board")
        return cell

    def parse_move(self, text: str) -> frozenset[int]:
        """The cells of a Pentobi move value such as ``'t12,s13,t13'``.

        Raises:
            SquareError: a bad or off-board name, or a cell named twice.
        """
        parts = text.split(",")
        cells = frozenset(self.parse(p) for p in parts)
        if len(cells) != len(parts):
            raise SquareError(f"a cell is named twice in {text!r}")
        return cells

    def sorted_names(self, cells: Iterable[int]) -> list[str]:
        """Names of cells in the order Pentobi writes a move: a1, b1, ..., a2, ... (by
        row from the bottom, then column)."""
        return [self.names[c] for c in sorted(cells, key=lambda c: (-self.coords[c][1], c))]

    # --- neighbours ----------------------------------------------------------------------

    @cached_property
    def vertex_cells(self) -> dict[Vertex, tuple[int, ...]]:
        """For each lattice vertex of the board, the cells having it as a corner."""
        out: dict[Vertex, list[int]] = {}
        for i, cell in enumerate(self.cells):
            for v in self.lattice.vertices(cell):
                out.setdefault(v, []).append(i)
        return {v: tuple(cs) for v, cs in out.items()}

    def _touching(self, shared: int) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells sharing exactly ``shared`` vertices with it, in the
        order :meth:`neighbour_key` gives."""
        out = []
        for i, cell in enumerate(self.cells):
            counts: dict[int, int] = {}
            for v in self.lattice.vertices(cell):
                for j in self.vertex_cells[v]:
                    if j != i:
                        counts[j] = counts.get(j, 0) + 1
            found = [j for j, n in counts.items() if n == shared]
            out.append(tuple(sorted(found, key=lambda j: self.neighbour_key(i, j))))
        return tuple(out)

    def neighbour_key(self, cell: int, other: int) -> tuple[int, ...]:
        """Sort key of a neighbour ``other`` in ``cell``'s lists (default: cell number)."""
        return (other,)

    @cached_property
    def edge_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells sharing an edge with it (two corners)."""
        return self._touching(2)

    @cached_property
    def corner_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells sharing exactly one corner and no edge with it."""
        return self._touching(1)

    @cached_property
    def edge_table(self) -> np.ndarray:
        """Edge neighbours as an int32 array of shape (n, k), padded with -1; k is the
        most any cell has (4 for squares, 3 for triangles)."""
        return padded(self.edge_neighbours)

    @cached_property
    def corner_table(self) -> np.ndarray:
        """Corner neighbours as an int32 array of shape (n, k), padded with -1; k is the
        most any cell has (4 for squares, 9 for triangles)."""
        return padded(self.corner_neighbours)

    # --- symmetries ----------------------------------------------------------------------

    @cached_property
    def _symmetry_pairs(self) -> tuple[tuple[str, np.ndarray], ...]:
        out = []
        for k, label in enumerate(self.lattice.transform_names):
            try:
                images = [
                    self.cell_at.get(self.lattice.transform_cells(k, [c], self.centre)[0], -1)
                    for c in self.cells
                ]
            except ValueError:
                continue
            if -1 not in images:
                out.append((label, np.array(images, dtype=np.int32)))
        return tuple(out)

    @cached_property
    def symmetries(self) -> np.ndarray:
        """The rotations and reflections of the lattice about :attr:`centre` that map
        the board onto itself, as int32 permutations of shape (s, n): ``perm[t, c]`` is
        the image of cell ``c`` under symmetry ``t``; identity first, in the lattice's
        transform order (names in :attr:`symmetry_names`)."""
        perms = np.stack([p for _, p in self._symmetry_pairs])
        perms.setflags(write=False)
        return perms

    @cached_property
    def symmetry_names(self) -> tuple[str, ...]:
        """Names of the rows of :attr:`symmetries`."""
        return tuple(name for name, _ in self._symmetry_pairs)

    # --- drawing -------------------------------------------------------------------------

    @cached_property
    def polygons(self) -> np.ndarray:
        """Drawing coordinates of each cell's corners, float64 of shape (n, k, 2): (right,
        down) with an edge of length 1, the board's leftmost and topmost corners at 0;
        corners in the order the lattice lists them (k = 4 for squares, 3 for triangles)."""
        points = np.array(
            [[self.lattice.point(v) for v in self.lattice.vertices(c)] for c in self.cells]
        )
        points -= points.reshape(-1, 2).min(axis=0)
        return points


def padded(lists: Sequence[Sequence[int]], width: int | None = None) -> np.ndarray:
    """Lists of cell numbers as one int32 array of shape (len(lists), width), padded with
    -1 (``width``: the longest list's length if not given).

    Raises:
        ValueError: a list longer than ``width``.
    """
    k = max((len(ns) for ns in lists), default=0) if width is None else width
    out = np.full((len(lists), k), -1, dtype=np.int32)
    for i, ns in enumerate(lists):
        if len(ns) > k:
            raise ValueError(f"list {i} has {len(ns)} entries, more than {k}")
        out[i, : len(ns)] = ns
    return out
