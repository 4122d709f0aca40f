"""The placement index: a fixed numbering of every on-board placement of a variant.

Learning agents (and engines that keep moves as integers) need one action number per
placement. Index ``i`` of a board and piece set is fixed as follows, and never changes:

1. by piece, in the standard order of the set (:data:`solver.core.pieces.PIECE_NAMES`:
   1, 2, I3, V3, I4, L4, T4, O, Z4, F, I5, L5, N, P, T5, U, V5, W, X, Y, Z5; Junior keeps
   only its 12 shapes, in the same order);
2. then by fixed orientation, in the order of :attr:`solver.core.pieces.Piece.orientations`
   (each orientation as its sorted (row, column) cells with row 0 at the top, normalised so
   the smallest row and column are 0; the tuples sorted);
3. then by the top-left corner of the orientation's bounding box, row by row from the top
   row of the board (row 20 of Classic, 14 of Duo), each row from column a.

That is the order of :func:`solver.core.placements.empty_board_placements` (the engines'
tables), so an index is also a row of theirs. Counts (Pentobi ``libpentobi_base/Move.h``,
``onboard_moves_classic`` and the others; equal here, tests/test_placement_index.py):
30,433 for Classic (and Two-Player, Three-Player: the same board and set), 13,729 for Duo,
7,217 for Junior. A piece Junior has twice has one index per placement (its legal mask
marks it while the colour holds at least one). A pass is not a placement: an agent that
wants a pass action may use ``len(index)`` (:attr:`PlacementIndex.pass_action`).

On Trigon (``grid="trigon"``) the index is the geometry's table
(:func:`solver.core.geometry.shapes.enumerate_placements`): by piece in Pentobi's order of
the 22 Trigon pieces (I6, L6, V, S, P6, F, W, A6, G, Y, X, O, I5, L5, C5, P5, I4, C4, A4, I3,
2, 1), then by orientation (:attr:`~solver.core.geometry.shapes.PieceShape.orientations`),
then by the cell the orientation's first tile lands on (the *anchor*), ascending; squares
have 6 columns. 32,131 placements on the side-9 hexagon (Trigon, Two-Player), 24,859 on
side 8 (Three-Player) (Pentobi ``onboard_moves_trigon``, ``onboard_moves_trigon_3``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES, family
from solver.core.placements import board_placements, placement_blocks
from solver.core.position import Placement, Position
from solver.core.variants import ALL_VARIANTS, JUNIOR_SET, VARIANTS
from solver.errors import InputError
from solver.ranges import Range

#: a placement number as an argument: a whole number (Python's or NumPy's; not a bool)
PLACEMENT = Range("placement", whole=True)
#: a square number as an argument, as :data:`PLACEMENT`
SQUARE = Range("squares", whole=True)


@dataclass(frozen=True, eq=False)
class PlacementIndex:
    """Every on-board placement of a board size and piece set, numbered (module docstring).

    Attributes:
        rows, cols: the board size.
        pieces: the piece shapes numbered, in the standard order of the set.
        piece: shape (P,), int8: each placement's piece (index into
            :data:`solver.core.pieces.PIECE_NAMES`).
        orientation: shape (P,), int8: its orientation (index into the piece's
            :attr:`~solver.core.pieces.Piece.orientations`).
        anchor: shape (P,), int32: the square of its bounding box's top-left corner (on
            Trigon: the cell its first tile lands on).
        squares: shape (P, 5), int32: the squares it covers, increasing, padded with -1
            ((P, 6) on Trigon).
        grid: ``"square"`` or ``"trigon"`` (then ``rows`` x ``cols`` is the naming
            rectangle and ``piece`` indexes the Trigon family's names).
    """

    rows: int
    cols: int
    pieces: tuple[str, ...]
    piece: np.ndarray
    orientation: np.ndarray
    anchor: np.ndarray
    squares: np.ndarray
    grid: str = "square"

    def __len__(self) -> int:
        return len(self.piece)

    def __repr__(self) -> str:
        where = f"{self.rows}x{self.cols}" if self.grid == "square" else self.board.geometry.label
        return f"<PlacementIndex {where}, {len(self)} placements>"

    @property
    def board(self) -> Board:
        """The empty board of this size."""
        return Board(self.rows, self.cols, grid=self.grid)

    @property
    def names(self) -> tuple[str, ...]:
        """The piece names :attr:`piece` indexes (the grid's family)."""
        return family(self.grid).names

    @property
    def pass_action(self) -> int:
        """``len(self)``: the number an agent may give a pass (no placement has it)."""
        return len(self)

    @cached_property
    def size(self) -> np.ndarray:
        """Shape (P,), int8, read-only (shared by every user of the index, as the other
        arrays): each placement's number of squares."""
        size: np.ndarray = (self.squares >= 0).sum(axis=1).astype(np.int8)
        size.setflags(write=False)
        return size

    def placement(self, i: int) -> Placement:
        """Placement number ``i`` (an int or a NumPy integer).

        Raises:
            IndexError: ``i`` outside 0..P-1.
            InputError: ``i`` is not a whole number (a float, a bool, text).
        """
        i = int(PLACEMENT.check(i))
        if not 0 <= i < len(self):
            raise IndexError(f"placement number {i} is outside 0..{len(self) - 1}")
        sq = self.squares[i]
        return Placement(self.names[self.piece[i]], frozenset(int(s) for s in sq[sq >= 0]))

    @cached_property
    def _placements(self) -> tuple[Placement, ...]:
        return tuple(self.placement(i) for i in range(len(self)))

    def placements(self, indices: Iterable[int] | np.ndarray) -> list[Placement]:
        """The placements of these numbers (each :class:`Placement` made once per index and
        shared: cheap for many calls).

        Raises:
            IndexError: a number outside 0..P-1 (a negative one too: it names no
                placement, it does not count from the end).
            InputError: a number that is not a whole number.
        """
        if isinstance(indices, np.ndarray):
            if indices.dtype.kind not in "iu":
                raise InputError(
                    f"expected whole numbers, got an array of {indices.dtype}", where="placement"
                )
            numbers: list[int] = indices.reshape(-1).tolist()
        else:
            numbers = [int(PLACEMENT.check(i)) for i in indices]
        table = self._placements
        try:
            if numbers and min(numbers) < 0:
                raise IndexError
            return [table[i] for i in numbers]
        except IndexError:
            bad = next(i for i in numbers if not 0 <= i < len(self))
            raise IndexError(f"placement number {bad} is outside 0..{len(self) - 1}") from None

    @cached_property
    def _keys(self) -> tuple[np.ndarray, np.ndarray]:
        keys = self.keys_of(self.squares)
        order = np.argsort(keys, kind="stable").astype(np.int32)
        return keys[order], order

    def keys_of(self, squares: np.ndarray) -> np.ndarray:
        """One int64 per row of squares (shape (k, 5), any order, padded with -1; (k, 6) on
        Trigon) that is equal for equal sets: the sorted squares + 1 as digits of base
        cells + 1 (487^6 < 2^63 on Trigon); -1 for a row with a number off the board
        (below -1, or the number of cells or more), which would otherwise carry into
        another row's digits.

        Raises:
            InputError: not an array of whole numbers of shape (k, 5) ((k, 6) on Trigon).
        """
        rows = _square_rows(squares, self.squares.shape[1])
        n = self.board.size
        off = ((rows < -1) | (rows >= n)).any(axis=1)
        clean = np.full(rows.shape, -1, dtype=np.int64)
        clean[~off] = rows[~off]
        digits = np.sort(clean, axis=1) + 1
        key = np.zeros(len(digits), dtype=np.int64)
        for k in range(digits.shape[1]):
            key = key * (n + 1) + digits[:, k]
        key[off] = -1
        return key

    def indices_of(self, squares: np.ndarray) -> np.ndarray:
        """The numbers of placements given by their squares (vectorised).

        Args:
            squares: shape (k, 5) ((k, 6) on Trigon), whole numbers: each row a
                placement's squares in any order, padded with -1.

        Returns:
            Shape (k,), int32: each row's number, -1 for a row that is no placement of
            this index (not a piece of the set, or a square off the board).

        Raises:
            InputError: not an array of whole numbers of shape (k, 5) (floats, bools,
                numbers past 64 bits, another shape).
        """
        keys, order = self._keys
        want = self.keys_of(squares)
        at = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        return np.where(keys[at] == want, order[at], -1).astype(np.int32)

    @cached_property
    def _by_squares(self) -> dict[frozenset[int], int]:
        return {p.squares: i for i, p in enumerate(self._placements)}

    def number(self, placement: int | Placement) -> int:
        """A placement's number, given as a number (checked: 0..P-1) or a
        :class:`Placement` (:meth:`index`).

        Raises:
            InputError: not a whole number (a float, a bool), a number outside 0..P-1, or
                a Placement that is no placement of the index.
        """
        if isinstance(placement, Placement):
            return self.index(placement)
        m = int(PLACEMENT.check(placement))
        if not 0 <= m < len(self):
            raise InputError(
                f"placement number {m} is outside 0..{len(self) - 1}", where="placement"
            )
        return m

    def index(self, placement: Placement | Iterable[int]) -> int:
        """The number of a placement (or of its squares: they alone fix the piece).

        Raises:
            InputError: the squares form no placement of this index, or (for a
                :class:`Placement`) form another piece than the one named, or a square
                is not a whole number.
        """
        if isinstance(placement, Placement):
            squares = placement.squares
        else:  # 1.0 or True would find square 1's placement: whole numbers only
            squares = frozenset(int(SQUARE.check(s)) for s in placement)
        i = self._by_squares.get(squares, -1)
        index = family(self.grid).index
        named = index.get(placement.piece, -1) if isinstance(placement, Placement) else None
        if i < 0 or named not in (None, self.piece[i]):
            raise InputError(f"squares {sorted(squares)} are no placement of {self!r}")
        return i

    def text(self, i: int) -> str:
        """Placement ``i`` as Pentobi writes a move: its squares comma-separated in the
        order a1, b1, ..., a2 (``e8,d9,e9,f9,e10``)."""
        return ",".join(self.board.names(self.placement(i).squares))

    @cached_property
    def texts(self) -> tuple[str, ...]:
        """Every placement's :meth:`text`, made once (about 0.2 s for Classic): GTP
        answers then need no formatting."""
        board = self.board
        return tuple(",".join(board.names(p.squares)) for p in self._placements)


def _square_rows(squares: np.ndarray, width: int = 5) -> np.ndarray:
    """``squares`` as an integer array of shape (k, width). Raises InputError."""
    rows = np.asarray(squares)
    if rows.dtype.kind not in "iu" and rows.size:
        raise InputError(f"expected whole numbers, got an array of {rows.dtype}", where="squares")
    if rows.ndim != 2 or rows.shape[1] != width:
        raise InputError(f"expected shape (k, {width}), got {rows.shape}", where="squares")
    return rows


def build_index(rows: int, cols: int, pieces: Iterable[str] = PIECE_NAMES) -> PlacementIndex:
    """The index of every placement of ``pieces`` (a subset of the set, standard order) on
    an empty rows x cols board, numbered as the module docstring says (built once per
    process for each size and set).

    Raises:
        InputError: a size that is not a whole number from 1 to 60 (as :class:`Board`),
            no pieces, an unknown piece, or pieces not in the standard order.
    """
    board = Board(rows, cols)  # (its checks: a float, a bool, 0 or 61 is no size)
    names = tuple(pieces)
    if (
        not names
        or not set(names) <= set(PIECE_NAMES)
        or list(names) != sorted(set(names), key=PIECE_NAMES.index)
    ):
        raise InputError(f"pieces {names} are not distinct pieces in the standard order")
    return _build_index(board.rows, board.cols, names)


@lru_cache(maxsize=16)
def _build_index(rows: int, cols: int, pieces: tuple[str, ...]) -> PlacementIndex:
    """:func:`build_index` of checked arguments."""
    piece_col, orient_col, anchor_col, square_rows = [], [], [], []
    for piece, k, anchors, block in placement_blocks(rows, cols, pieces):
        square_rows.append(block)
        anchor_col.append(anchors)
        piece_col.append(np.full(len(anchors), piece, dtype=np.int8))
        orient_col.append(np.full(len(anchors), k, dtype=np.int8))
    index = PlacementIndex(
        rows,
        cols,
        tuple(pieces),
        np.concatenate(piece_col),
        np.concatenate(orient_col),
        np.concatenate(anchor_col),
        np.concatenate(square_rows),
    )
    for arr in (index.piece, index.orientation, index.anchor, index.squares):
        arr.setflags(write=False)
    return index


#: Junior's 12 shapes in the standard order
JUNIOR_PIECES: tuple[str, ...] = tuple(p for p in PIECE_NAMES if p in JUNIOR_SET)


def trigon_index(side: int) -> PlacementIndex:
    """The index of the Trigon hexagon of edge ``side`` (module docstring), built once per
    process for each side.

    Raises:
        SquareError: a side outside 2..30.
    """
    return _trigon_index(Board.trigon(side).rows // 2)


@lru_cache(maxsize=4)
def _trigon_index(side: int) -> PlacementIndex:
    from solver.core.geometry.shapes import TRIGON_PIECES, enumerate_placements

    board = Board.trigon(side)
    found = enumerate_placements(board.geometry, TRIGON_PIECES)
    return PlacementIndex(
        board.rows,
        board.cols,
        family("trigon").names,
        found.piece.astype(np.int8),
        found.orientation,
        found.anchor,
        found.cells,
        "trigon",
    )


def variant_index(name: str) -> PlacementIndex:
    """The index of a built-in variant (``classic``, ``classic2``, ``classic3``, ``duo``,
    ``junior``, ``trigon``, ``trigon2``, ``trigon3``). Raises InputError for another name."""
    if name not in ALL_VARIANTS:
        raise InputError(f"unknown variant {name!r} (variants: {', '.join(ALL_VARIANTS)})")
    if ALL_VARIANTS[name].grid == "trigon":
        return trigon_index(ALL_VARIANTS[name].rows // 2)
    v = VARIANTS[name]
    return build_index(v.rows, v.cols, JUNIOR_PIECES if name == "junior" else PIECE_NAMES)


def index_for(position: Position) -> PlacementIndex:
    """The index a position's placements are numbered in: its variant's (Junior: its 12
    shapes), else every piece of the set on its board's size (a custom board: placements
    on blocked squares are numbered but never legal)."""
    board = position.board
    if not board.square_grid:
        return trigon_index(board.rows // 2)
    if position.variant in VARIANTS and (board.rows, board.cols) == (
        VARIANTS[position.variant].rows,
        VARIANTS[position.variant].cols,
    ):
        return variant_index(position.variant)
    return build_index(board.rows, board.cols)


def same_as_engine_table(index: PlacementIndex) -> bool:
    """Whether ``index`` numbers its placements as the engines' table of the empty board
    does (:func:`solver.core.placements.empty_board_placements`, its rows of the index's
    pieces): a check for the tests."""
    table = board_placements(index.board)
    names = family(index.grid).index
    keep = np.isin(table.piece, [names[p] for p in index.pieces])
    return bool(np.array_equal(table.squares[keep], index.squares)) and bool(
        np.array_equal(table.piece[keep], index.piece)
    )
