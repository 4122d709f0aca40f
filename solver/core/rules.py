"""The rules of placement, written plainly with sets: the reference the solvers are held to.

Nothing here uses the precomputed placements or any solver. A move by a colour is legal iff
(Blokus rule sheets; Pentobi ``Board::is_legal``):

1. the colour still has that piece;
2. the squares form that piece (in any rotation or reflection);
3. every square is on the board, not blocked and not covered;
4. no square shares an edge with a square of the same colour;
5. if the colour has no square on the board, one square is its start square (on Trigon:
   one of the starting points shared by all colours that no piece covers yet, Pentobi
   ``Board::is_legal`` and ``StartingPoints.cpp``); otherwise one square shares a corner
   with a square of the same colour.

On the Trigon grid a piece is recognised by the triangle lattice's own transforms
(:meth:`solver.core.geometry.base.Lattice.normalise`), against the Trigon family's shapes.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from solver.core.board import Board, cell_word
from solver.core.geometry.trigon import TRIANGLE_LATTICE
from solver.core.pieces import PIECES, Cell, Shape, family
from solver.core.position import ColourState, Placement, Position


def canonical_shape(cells: Iterable[Cell]) -> Shape:
    """The smallest of the 8 rotations/reflections of a set of cells, each normalised.

    Written independently of :func:`solver.core.pieces.orientations_of` so that the checker
    does not trust the orientation table the solvers use.
    """
    cells = list(cells)
    variants = []
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(-c, r) for r, c in pts]
            r0 = min(r for r, _ in pts)
            c0 = min(c for _, c in pts)
            variants.append(tuple(sorted((r - r0, c - c0) for r, c in pts)))
    return min(variants)


_CANONICAL = {canonical_shape(p.cells): p.name for p in PIECES.values()}


@cache
def _lattice_canonical(grid: str) -> dict[Shape, str]:
    """Every fixed orientation of the ``grid`` family's pieces -> the piece's name."""
    pieces = family(grid)
    lattice = TRIANGLE_LATTICE  # the one grid besides squares
    return {
        o: n for n, cells in zip(pieces.names, pieces.shapes) for o in lattice.orientations(cells)
    }


def shape_name(board: Board, squares: Iterable[int]) -> str | None:
    """Name of the piece that these squares form, or None if they form none."""
    if not board.square_grid:
        geometry = board.geometry
        tiles = [geometry.cells[s] for s in squares]
        if not tiles:
            return None
        return _lattice_canonical(board.grid).get(geometry.lattice.normalise(tiles))
    cells = [board.row_col(s) for s in squares]
    if not cells:
        return None
    return _CANONICAL.get(canonical_shape(cells))


def corner_touches(board: Board, squares: Iterable[int], others: frozenset[int]) -> bool:
    """Whether a square of ``squares`` shares a corner with a square of ``others``."""
    return any(n in others for s in squares for n in board.corner_neighbours[s])


def edge_touches(board: Board, squares: Iterable[int], others: frozenset[int]) -> bool:
    """Whether a square of ``squares`` shares an edge with a square of ``others``."""
    return any(n in others for s in squares for n in board.edge_neighbours[s])


def move_problem(position: Position, colour: str, placement: Placement) -> str | None:
    """The first rule a move breaks, in words, or None if the move is legal.

    Args:
        position: the position before the move.
        colour: the colour that moves.
        placement: the piece and the squares it covers.
    """
    board = position.board
    state: ColourState = position.colour(colour)
    squares = placement.squares
    cell = cell_word(board.grid)
    if placement.piece not in state.remaining:
        return f"{colour} has no {placement.piece} left to place"
    off = [s for s in squares if not 0 <= s < board.size]
    if off:
        return f"{cell} number {off[0]} is off the board"
    if (
        shape_name(board, squares) != placement.piece
        or len(squares) != family(board.grid).size[placement.piece]
    ):
        return f"{cell}s {','.join(board.names(squares))} do not form piece {placement.piece}"
    for s in sorted(squares):
        if s in board.blocked:
            return f"{cell} {board.name(s)} is blocked"
        if s in position.occupied:
            return f"{cell} {board.name(s)} is already taken by {position.owner[s]}"
    own = state.squares
    if edge_touches(board, squares, own):
        return f"{placement.piece} shares an edge with another {colour} piece"
    if not own:
        if position.starting_points and state.start is None:
            if not (position.starting_points - position.occupied) & squares:
                return f"the first {colour} piece must cover a starting point not yet covered"
            return None
        if state.start is None:
            return f"{colour} has no start square"
        if state.start not in squares:
            return f"the first {colour} piece must cover its start square {board.name(state.start)}"
    elif not corner_touches(board, squares, own):
        return f"{placement.piece} does not touch another {colour} piece at a corner"
    return None


def corner_groups(board: Board, pieces: Iterable[Placement]) -> list[frozenset[int]]:
    """The groups of one colour's pieces: pieces joined by corner contact, chained.

    Args:
        board: the board.
        pieces: the colour's pieces on the board.

    Returns:
        The squares of each group, ordered by their lowest square number (the group
        holding the top-left-most square first).
    """
    todo = [p.squares for p in pieces]
    groups: list[frozenset[int]] = []
    while todo:
        group = set(todo.pop())
        grown = True
        while grown:
            grown = False
            for squares in list(todo):
                if corner_touches(board, squares, frozenset(group)):
                    group |= squares
                    todo.remove(squares)
                    grown = True
        groups.append(frozenset(group))
    return sorted(groups, key=min)
