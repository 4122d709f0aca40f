"""The 21 Blokus pieces, their names and their fixed orientations.

Names follow Pentobi (``libpentobi_base/PieceSet.cpp``): 1, 2, I3, V3, I4, L4, T4, O, Z4,
F, I5, L5, N, P, T5, U, V5, W, X, Y, Z5. Shapes are given as (row, column) offsets with row 0
at the top. A fixed orientation is a shape after any rotation and/or reflection, normalised
so that its smallest row and column are 0; the 21 pieces have 91 distinct fixed orientations
(1 for 1, O, X; 2 for 2, I3, I4, I5; 4 for V3, T4, Z4, T5, U, V5, W, Z5; 8 for the rest).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from solver.errors import PieceError

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


def _shape(picture: str) -> Shape:
    """Cells of an ASCII picture: 'X' marks a square, rows top to bottom separated by '/'."""
    return tuple(
        (r, c) for r, row in enumerate(picture.split("/")) for c, ch in enumerate(row) if ch == "X"
    )


def normalise(cells: list[Cell] | Shape) -> Shape:
    """Translate cells so that the smallest row and column are 0; return them sorted."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations_of(cells: list[Cell] | Shape) -> tuple[Shape, ...]:
    """All distinct fixed orientations (rotations and reflections) of a shape, sorted."""
    seen: set[Shape] = set()
    current = list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]  # quarter turn
        seen.add(normalise(current))
        seen.add(normalise([(r, -c) for r, c in current]))  # mirror image
    return tuple(sorted(seen))


@dataclass(frozen=True)
class Piece:
    """One piece of the set.

    Attributes:
        index: position in :data:`PIECE_NAMES` (0..20).
        name: Pentobi's name, e.g. ``"V3"``.
        cells: the shape as (row, column) offsets, row 0 at the top.
    """

    index: int
    name: str
    cells: Shape

    @property
    def size(self) -> int:
        """Number of squares (1..5)."""
        return len(self.cells)

    @cached_property
    def orientations(self) -> tuple[Shape, ...]:
        """The distinct fixed orientations, each normalised and sorted."""
        return orientations_of(self.cells)

    def __repr__(self) -> str:
        return f"piece({self.name!r})"


_PICTURES: dict[str, str] = {
    "1": "X",
    "2": "XX",
    "I3": "XXX",
    "V3": "X./XX",
    "I4": "XXXX",
    "L4": "X./X./XX",
    "T4": "XXX/.X.",
    "O": "XX/XX",
    "Z4": "XX./.XX",
    "F": ".XX/XX./.X.",
    "I5": "XXXXX",
    "L5": "X./X./X./XX",
    "N": "XX../.XXX",
    "P": "XX/XX/X.",
    "T5": "XXX/.X./.X.",
    "U": "X.X/XXX",
    "V5": "X../X../XXX",
    "W": "X../XX./.XX",
    "X": ".X./XXX/.X.",
    "Y": "X./XX/X./X.",
    "Z5": "XX./.X./.XX",
}

#: Pentobi's piece names in the standard order of the set.
PIECE_NAMES: tuple[str, ...] = tuple(_PICTURES)

#: The pieces by name, in the order of :data:`PIECE_NAMES`.
PIECES: dict[str, Piece] = {
    name: Piece(i, name, _shape(pic)) for i, (name, pic) in enumerate(_PICTURES.items())
}

#: Other names in common use, accepted in input and mapped to Pentobi's.
ALIASES: dict[str, str] = {
    "I1": "1",
    "I2": "2",
    "L3": "V3",
    "O4": "O",
    "S4": "Z4",
    "F5": "F",
    "N5": "N",
    "P5": "P",
    "U5": "U",
    "W5": "W",
    "X5": "X",
    "Y5": "Y",
    "S5": "Z5",
}

MONOMINO = "1"


def canonical_name(name: str) -> str:
    """Pentobi's name for a piece name or alias, case-insensitively.

    Raises:
        PieceError: the name is not a piece of the set.
    """
    key = name.strip().upper()
    if key in PIECES:
        return key
    if key in ALIASES:
        return ALIASES[key]
    raise PieceError(f"unknown piece {name!r} (pieces: {', '.join(PIECE_NAMES)})")


def piece(name: str) -> Piece:
    """The piece with this name or alias. Raises :class:`PieceError` if there is none."""
    return PIECES[canonical_name(name)]


def identify(cells: list[Cell] | Shape) -> Piece | None:
    """The piece whose shape (in any orientation) these cells form, or None."""
    shape = normalise(list(cells))
    for p in PIECES.values():
        if p.size == len(shape) and shape in p.orientations:
            return p
    return None


def sort_key(name: str) -> int:
    """Sort key putting piece names in the standard order of the set."""
    return PIECES[name].index


@dataclass(frozen=True, eq=False)
class PieceFamily:
    """The pieces of one grid: the 21 polyominoes (``square``) or Pentobi's 22 Trigon
    pieces (``trigon``). Piece names are only unique inside a family (Trigon's ``X`` has 6
    triangles, Classic's 5 squares), so a position's grid says which family its names
    belong to (:func:`family`).

    Attributes:
        grid: ``"square"`` or ``"trigon"`` (:data:`solver.core.board.GRIDS`).
        names: the piece names in the family's standard order (Pentobi's).
        sizes: cells of each piece, same order.
        shapes: each piece's cells as lattice tiles (:mod:`solver.core.geometry`), same order.
    """

    grid: str
    names: tuple[str, ...]
    sizes: tuple[int, ...]
    shapes: tuple[tuple[tuple[int, int], ...], ...]

    @cached_property
    def index(self) -> dict[str, int]:
        """Position of each name in :attr:`names`."""
        return {n: i for i, n in enumerate(self.names)}

    @cached_property
    def size(self) -> dict[str, int]:
        """Cells of each piece by name."""
        return dict(zip(self.names, self.sizes, strict=True))

    @property
    def max_size(self) -> int:
        """Cells of the largest piece (5 squares, 6 triangles)."""
        return max(self.sizes)

    @property
    def monomino(self) -> str:
        """The one-cell piece's name (``1`` in both families)."""
        return MONOMINO

    def canonical(self, name: str) -> str:
        """The family's name for a piece name (case-insensitive; on squares also the
        aliases of :data:`ALIASES`).

        Raises:
            PieceError: no piece of this family.
        """
        if self.grid == "square":
            return canonical_name(name)
        key = name.strip().upper()
        if key in self.index:
            return key
        raise PieceError(f"unknown Trigon piece {name!r} (pieces: {', '.join(self.names)})")

    def sort_key(self, name: str) -> int:
        """Sort key putting piece names in the family's standard order."""
        return self.index[name]


def _trigon_family() -> PieceFamily:
    from solver.core.geometry.shapes import TRIGON_PIECES

    return PieceFamily(
        "trigon",
        tuple(p.name for p in TRIGON_PIECES),
        tuple(p.size for p in TRIGON_PIECES),
        tuple(p.cells for p in TRIGON_PIECES),
    )


#: the 21 pieces of the square grid (:data:`PIECES`), as a family; shapes as (col, row)
#: lattice tiles, as :class:`solver.core.geometry.square.SquareGeometry` has them
SQUARE_FAMILY = PieceFamily(
    "square",
    PIECE_NAMES,
    tuple(p.size for p in PIECES.values()),
    tuple(tuple(sorted((c, r) for r, c in p.cells)) for p in PIECES.values()),
)

_FAMILIES: dict[str, PieceFamily] = {"square": SQUARE_FAMILY}


def family(grid: str) -> PieceFamily:
    """The pieces of a grid (``"square"`` or ``"trigon"``).

    Raises:
        PieceError: an unknown grid.
    """
    if grid not in _FAMILIES:
        if grid != "trigon":
            raise PieceError(f"no pieces for grid {grid!r}")
        _FAMILIES[grid] = _trigon_family()
    return _FAMILIES[grid]


def squares_of(pieces: Iterable[str], grid: str = "square") -> int:
    """Cells of some pieces (names of ``grid``'s family, a multiset), e.g. a colour's
    pieces left: ``squares_of(["1", "V3"]) == 4``; on Trigon ``squares_of(["X"],
    "trigon") == 6``.

    Raises:
        KeyError: a name that is no piece of the family.
    """
    size = family(grid).size
    return sum(size[p] for p in pieces)
