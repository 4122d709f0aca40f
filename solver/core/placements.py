"""Placements precomputed with NumPy.

A placement is a piece in one fixed orientation at one position on the board. The table of
every placement on an empty board is built once per board size and piece set; a position
then filters it for one colour. Reference counts (Pentobi ``libpentobi_base/Move.h``):
30,433 placements on an empty 20x20 board, 13,729 on 14x14, 7,217 for the Junior set on
14x14; 58 legal first moves per colour in Classic, 414 in Duo, 189 in Junior; on Trigon
32,131 (side 9) and 24,859 (side 8), 2,478 first moves per colour on side 9.

The square grid's table is built here with row and column arithmetic (the hot path); any
other grid's comes from its geometry (:func:`board_placements`,
:func:`solver.core.geometry.shapes.enumerate_placements`), and its neighbours from the
geometry's padded tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.core.board import Board
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES, family
from solver.core.position import Placement, Position

MAX_PIECE = 5


@dataclass(frozen=True, eq=False)
class PlacementTable:
    """Placements as arrays, one row per placement.

    Attributes:
        rows, cols: board size (on Trigon, of the naming rectangle).
        piece: shape (P,), int16: index of the piece in ``names``.
        squares: shape (P, k), int32: square numbers covered, padded with -1 (k: 5 on
            the square grid, 6 on Trigon).
        playable: shape (P,), bool: legal as the colour's next move right now (covers the
            start square on a first move, or touches the colour at a corner). All True in a
            table of an empty board.
        names: the piece names ``piece`` indexes: :data:`solver.core.pieces.PIECE_NAMES`,
            or the Trigon family's.
        cells: the board's number of cells (``rows * cols`` on the square grid).
    """

    rows: int
    cols: int
    piece: np.ndarray
    squares: np.ndarray
    playable: np.ndarray
    names: tuple[str, ...] = PIECE_NAMES
    cells: int = 0

    @property
    def board_cells(self) -> int:
        """Cells of the board: :attr:`cells`, or ``rows * cols`` when not given."""
        return self.cells or self.rows * self.cols

    def __len__(self) -> int:
        return len(self.piece)

    @property
    def size(self) -> np.ndarray:
        """Shape (P,), int8: number of squares of each placement."""
        size: np.ndarray = (self.squares >= 0).sum(axis=1).astype(np.int8)
        return size

    def placement(self, i: int) -> Placement:
        """Row ``i`` as a :class:`Placement`."""
        sq = self.squares[i]
        return Placement(self.names[self.piece[i]], frozenset(int(s) for s in sq[sq >= 0]))

    def subset(self, keep: np.ndarray) -> PlacementTable:
        """The rows selected by a boolean mask or index array."""
        return PlacementTable(
            self.rows,
            self.cols,
            self.piece[keep],
            self.squares[keep],
            self.playable[keep],
            self.names,
            self.cells,
        )

    def covering(self) -> tuple[np.ndarray, np.ndarray]:
        """For each square, the placements covering it, as CSR arrays.

        Returns:
            (indptr, indices): placements covering square s are
            ``indices[indptr[s]:indptr[s + 1]]``; indptr has shape (cells + 1,).
        """
        flat_sq = self.squares.ravel()
        flat_pl = np.repeat(np.arange(len(self)), self.squares.shape[1])
        keep = flat_sq >= 0
        flat_sq, flat_pl = flat_sq[keep], flat_pl[keep]
        order = np.argsort(flat_sq, kind="stable")
        counts = np.bincount(flat_sq, minlength=self.board_cells)
        indptr = np.concatenate(([0], np.cumsum(counts)))
        return indptr, flat_pl[order]


def placement_blocks(
    rows: int, cols: int, pieces: Iterable[str] = PIECE_NAMES
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """Every placement of some pieces on an empty rows x cols board, a block per fixed
    orientation that fits: ordered by piece (in the order given), then orientation (as
    :attr:`solver.core.pieces.Piece.orientations`), then the top-left corner of the
    bounding box (row by row from the top).

    Yields:
        (piece index, orientation number, anchors: shape (k,), int32, the top-left
        squares; squares: shape (k, 5), int32, padded with -1).
    """
    for name in pieces:
        piece = PIECES[name]
        for k, orientation in enumerate(piece.orientations):
            cells = np.array(orientation)
            height, width = cells.max(axis=0) + 1
            if height > rows or width > cols:
                continue
            r0, c0 = np.meshgrid(
                np.arange(rows - height + 1), np.arange(cols - width + 1), indexing="ij"
            )
            anchors = (r0 * cols + c0).ravel().astype(np.int32)
            offsets = cells[:, 0] * cols + cells[:, 1]
            block = np.full((len(anchors), MAX_PIECE), -1, dtype=np.int32)
            block[:, : len(offsets)] = anchors[:, None] + offsets[None, :]
            yield piece.index, k, anchors, block


@lru_cache(maxsize=16)
def empty_board_placements(rows: int, cols: int) -> PlacementTable:
    """Every placement of each of the 21 pieces on an empty rows x cols board.

    Ordered by piece, then orientation, then position (top-left first):
    :func:`placement_blocks`.
    """
    pieces, squares = [], []
    for piece, _, anchors, block in placement_blocks(rows, cols):
        squares.append(block)
        pieces.append(np.full(len(anchors), piece, dtype=np.int16))
    piece_arr = np.concatenate(pieces)
    table = PlacementTable(
        rows, cols, piece_arr, np.concatenate(squares), np.ones(len(piece_arr), dtype=bool)
    )
    for arr in (table.piece, table.squares, table.playable):
        arr.setflags(write=False)
    return table


def board_placements(board: Board) -> PlacementTable:
    """Every placement of the board's piece family on the empty board, blocked cells
    ignored: :func:`empty_board_placements` on the square grid; on Trigon the 22 pieces'
    32,131 (side 9) or 24,859 (side 8) placements, in
    :func:`~solver.core.geometry.shapes.enumerate_placements`' order, squares (P, 6)."""
    if board.square_grid:
        return empty_board_placements(board.rows, board.cols)
    return _geometry_placements(board.grid, board.rows, board.cols)


@lru_cache(maxsize=4)
def _geometry_placements(grid: str, rows: int, cols: int) -> PlacementTable:
    from solver.core.geometry.shapes import TRIGON_PIECES, enumerate_placements

    board = Board(rows, cols, grid=grid)
    found = enumerate_placements(board.geometry, TRIGON_PIECES)
    names = family(grid).names
    assert tuple(p.name for p in TRIGON_PIECES) == names
    table = PlacementTable(
        rows,
        cols,
        found.piece,
        found.cells,
        np.ones(len(found), dtype=bool),
        names,
        board.size,
    )
    table.playable.setflags(write=False)
    return table


def _neighbours_any(board: Board, mask: np.ndarray, corner: bool) -> np.ndarray:
    """Cells that have a True cell of ``mask`` among their edge (or, with ``corner``,
    corner) neighbours, from the geometry's padded tables (any grid)."""
    geometry = board.geometry
    table = geometry.corner_table if corner else geometry.edge_table
    padded = np.append(mask, False)
    out: np.ndarray = padded[table].any(axis=1)
    return out


def _grid_shift_any(
    mask: np.ndarray, rows: int, cols: int, steps: Iterable[tuple[int, int]]
) -> np.ndarray:
    """Squares that have a True square of ``mask`` at one of the (dr, dc) steps."""
    grid = mask.reshape(rows, cols)
    out = np.zeros_like(grid)
    for dr, dc in steps:
        src = grid[max(dr, 0) : rows + min(dr, 0), max(dc, 0) : cols + min(dc, 0)]
        out[max(-dr, 0) : rows + min(-dr, 0), max(-dc, 0) : cols + min(-dc, 0)] |= src
    return out.ravel()


EDGE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
CORNER_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def colour_masks(position: Position, colour: str) -> tuple[np.ndarray, np.ndarray]:
    """Where a colour may put squares and where its next piece may attach.

    Returns:
        (allowed, attach): boolean arrays of shape (rows*cols,). ``allowed``: not blocked,
        not covered, not sharing an edge with the colour. ``attach``: allowed squares that
        share a corner with the colour, or its start square if it has no square yet.
    """
    board = position.board
    own = np.zeros(board.size, dtype=bool)
    own[list(position.colour(colour).squares)] = True
    taken = board.blocked_mask.copy()
    taken[list(position.occupied)] = True
    if not board.square_grid:
        return _geometry_masks(position, colour, own, taken)
    allowed = ~taken & ~_grid_shift_any(own, board.rows, board.cols, EDGE_STEPS)
    if own.any():
        attach = allowed & _grid_shift_any(own, board.rows, board.cols, CORNER_STEPS)
    else:
        attach = np.zeros(board.size, dtype=bool)
        start = position.colour(colour).start
        if start is not None:
            attach[start] = allowed[start]
    return allowed, attach


def _geometry_masks(
    position: Position, colour: str, own: np.ndarray, taken: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`colour_masks` on any grid; a colour with no cell yet attaches at its start
    square or, on Trigon, at a shared starting point that no piece covers."""
    board = position.board
    allowed = ~taken & ~_neighbours_any(board, own, corner=False)
    if own.any():
        return allowed, allowed & _neighbours_any(board, own, corner=True)
    attach = np.zeros(board.size, dtype=bool)
    start = position.colour(colour).start
    starts = [start] if start is not None else sorted(position.starting_points)
    for s in starts:
        attach[s] = allowed[s]
    return allowed, attach


def reach(position: Position, colour: str) -> np.ndarray:
    """Squares a colour's remaining pieces can still cover: a superset, for bounds.

    Every square a colour will cover is allowed for it now (squares only ever get taken)
    and joins its attach squares by a chain of king moves through squares its new pieces
    cover (each new piece touches the colour at a corner). So: flood with king moves from
    the attach squares through allowed squares; keep the squares some fitting placement of
    a remaining piece inside the flood covers; flood again through those; until nothing
    changes.

    Returns:
        Boolean array of shape (rows*cols,).
    """
    board = position.board
    allowed, attach = colour_masks(position, colour)
    table = board_placements(board)
    rows = fitting_rows(position, colour)
    squares = table.squares[rows]
    king = EDGE_STEPS + CORNER_STEPS
    through = allowed
    while True:
        flood = attach & through
        while True:
            if board.square_grid:
                near = _grid_shift_any(flood, board.rows, board.cols, king)
            else:
                near = _neighbours_any(board, flood, False) | _neighbours_any(board, flood, True)
            grown = flood | (near & through)
            if (grown == flood).all():
                break
            flood = grown
        inside = np.append(flood, True)[squares].all(axis=1)
        covered = np.zeros(board.size + 1, dtype=bool)
        covered[squares[inside].ravel()] = True
        covered = covered[:-1] & flood
        if (covered == through).all():
            out: np.ndarray = covered
            return out
        through = covered


def fitting_rows(position: Position, colour: str, skip_monomino: bool = False) -> np.ndarray:
    """Rows of the empty board's table (:func:`empty_board_placements`) whose piece is among
    the colour's remaining pieces (less the monomino with ``skip_monomino``) and whose
    squares are free and share no edge with the colour.

    Returns:
        Row numbers, shape (k,), increasing; a piece the colour has twice appears once.
    """
    board = position.board
    table = board_placements(board)
    index = family(board.grid).index
    remaining = np.zeros(len(table.names), dtype=bool)
    remaining[[index[p] for p in position.colour(colour).remaining]] = True
    if skip_monomino:
        remaining[index[MONOMINO]] = False
    allowed, _ = colour_masks(position, colour)
    padded = np.append(allowed, True)  # index -1 (padding) is allowed
    rows = remaining[table.piece]
    rows[rows] = padded[table.squares[rows]].all(axis=1)
    return np.flatnonzero(rows)


def placements_for(position: Position, colour: str) -> PlacementTable:
    """Placements of a colour's remaining pieces that fit the position.

    A row fits when its piece is among the colour's remaining pieces, its squares are free
    and none shares an edge with the colour (:func:`fitting_rows`); ``playable`` marks those
    that are legal as the colour's next move (cover the start square on a first move, else
    touch at a corner). Rows for a piece the colour has twice (Junior) appear once.
    """
    board = position.board
    table = board_placements(board)
    keep = fitting_rows(position, colour)
    _, attach = colour_masks(position, colour)
    squares = table.squares[keep]
    playable = np.asarray(np.where(squares < 0, False, attach[squares]).any(axis=1))
    return PlacementTable(
        board.rows, board.cols, table.piece[keep], squares, playable, table.names, table.cells
    )


def legal_moves(position: Position, colour: str) -> list[Placement]:
    """Every legal next move of a colour, as placements (one per distinct piece)."""
    table = placements_for(position, colour)
    return [table.placement(int(i)) for i in np.flatnonzero(table.playable)]


@lru_cache(maxsize=128)
def _piece_rows(grid: str, rows: int, cols: int, piece: str) -> np.ndarray:
    """Rows of :func:`board_placements` of one piece on the empty board of this grid and
    size (blocked cells do not matter)."""
    table = board_placements(Board(rows, cols, grid=grid))
    return np.flatnonzero(table.piece == family(grid).index[piece])


def piece_moves(position: Position, colour: str, piece: str) -> list[Placement]:
    """The legal next moves of a colour with one piece, in the order of the empty board's
    table (orientation, then top-left first); empty if the colour has no such piece left.
    Cheaper than :func:`legal_moves` when one piece is wanted."""
    if piece not in position.colour(colour).remaining:
        return []
    board = position.board
    table = board_placements(board)
    rows = _piece_rows(board.grid, board.rows, board.cols, piece)
    allowed, attach = colour_masks(position, colour)
    squares = table.squares[rows]
    fits = np.append(allowed, True)[squares].all(axis=1)
    touches = np.append(attach, False)[squares].any(axis=1)
    return [table.placement(int(r)) for r in rows[fits & touches]]


def corner_squares(table: PlacementTable, board: Board) -> np.ndarray:
    """For each placement, the squares that share a corner but no edge with it.

    Returns:
        Shape (P, 20), int32, padded with -1, each row sorted with duplicates removed. A
        placement touches another legally at a corner iff the other covers one of these
        squares and neither overlaps nor shares an edge with it.
    """
    return ring_squares(table, board, corner=True)


def ring_cells(table: PlacementTable, board: Board, corner: bool) -> np.ndarray:
    """:func:`ring_squares` on any grid: for each placement, the cells off it that share a
    corner but no edge with it (``corner``), or those that share an edge with it, from the
    geometry's neighbour tables (:mod:`solver.core.geometry`).

    Returns:
        Shape (P, 20) on the square grid (:func:`ring_squares`); on another grid (P, R)
        with R the longest ring; int32, padded with -1, each row's cells sorted, once each.
    """
    if board.square_grid:
        return ring_squares(table, board, corner)
    geometry = board.geometry
    cells, n = table.squares, board.size
    # one row per placement, one column per cell and a last one for the padding (-1): the
    # neighbour tables get a padding row too, so that a padded cell has only padding
    edge, near_corner = (
        np.vstack([t, np.full((1, t.shape[1]), -1, dtype=t.dtype)])[cells].reshape(
            len(cells), cells.shape[1] * t.shape[1]
        )
        for t in (geometry.edge_table, geometry.corner_table)
    )
    at = np.arange(len(cells))[:, None]
    marked = np.zeros((len(cells), n + 1), dtype=bool)
    if corner:
        marked[at, near_corner] = True
        marked[at, edge] = False
    else:
        marked[at, edge] = True
    marked[at, cells] = False
    marked[:, n] = False
    count = marked.sum(axis=1)
    which, ring = np.nonzero(marked)  # row by row, each row's cells ascending
    out = np.full((len(cells), int(count.max(initial=0))), -1, dtype=np.int32)
    out[which, np.arange(len(ring)) - np.repeat(np.cumsum(count) - count, count)] = ring
    return out


def ring_squares(table: PlacementTable, board: Board, corner: bool) -> np.ndarray:
    """For each placement, the squares off it that share a corner but no edge with it
    (``corner``), or those that share an edge with it (a colour may not cover them next).

    Returns:
        Shape (P, 20), int32, padded with -1, each row's squares sorted, once each.
    """
    # placements of one shape (its squares relative to its top-left) share the ring's
    # offsets; each shape's are found once, then shifted to every placement of it
    cols = board.cols
    sq = table.squares
    valid = sq >= 0
    r = np.where(valid, sq // cols, 1 << 20)
    c = np.where(valid, sq % cols, 1 << 20)
    r0, c0 = r.min(axis=1), c.min(axis=1)
    bits = np.where(valid, 1 << ((r - r0[:, None]) * MAX_PIECE + c - c0[:, None]), 0)
    shapes, which = np.unique(bits.sum(axis=1), return_inverse=True)
    out = np.full((len(table), 20), -1, dtype=np.int32)
    for k, code in enumerate(shapes.tolist()):
        cells = {divmod(b, MAX_PIECE) for b in range(MAX_PIECE * MAX_PIECE) if code >> b & 1}
        near = {(y + dy, x + dx) for y, x in cells for dy, dx in EDGE_STEPS} | cells
        if corner:
            ring = {(y + dy, x + dx) for y, x in cells for dy, dx in CORNER_STEPS} - near
        else:
            ring = near - cells
        offsets = sorted(ring)
        rows = np.flatnonzero(which == k)
        dr = np.array([o[0] for o in offsets])
        dc = np.array([o[1] for o in offsets])
        gr = r0[rows, None] + dr[None, :]
        gc = c0[rows, None] + dc[None, :]
        on = (gr >= 0) & (gr < board.rows) & (gc >= 0) & (gc < cols)
        found = np.where(on, gr * cols + gc, -1)
        # off-board offsets go to the end of the row, keeping the rest sorted
        found = np.take_along_axis(found, np.argsort(~on, axis=1, kind="stable"), axis=1)
        out[rows, : len(offsets)] = found
    return out
