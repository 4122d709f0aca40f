"""Symmetries of a position: the rotations and reflections of the board that map it to itself.

A symmetry is a permutation of square numbers, given as an int array ``perm`` of shape
(rows*cols,) with ``perm[s]`` the image of square ``s``. A rectangle has 4 symmetries
(identity, half turn, two mirror images); a square board has 8 (the dihedral group of
order 8). A symmetry of a position must also map blocked squares to blocked squares, every
colour's start square to itself and every colour's squares to that colour's squares, so
that it maps each legal layout to a legal layout of the same position. Used to count
layouts up to symmetry (Burnside's lemma: orbits = mean number of layouts each symmetry
fixes).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from solver.core.board import Board
from solver.core.position import Position

#: Names of the symmetries :func:`board_symmetries` returns, in its order.
SYMMETRY_NAMES: tuple[str, ...] = (
    "identity",
    "half turn",
    "left-right mirror",
    "top-bottom mirror",
    "mirror in the diagonal through the top-left corner",
    "mirror in the diagonal through the top-right corner",
    "quarter turn clockwise",
    "quarter turn anticlockwise",
)


def board_symmetries(board: Board) -> list[np.ndarray]:
    """The symmetries of the empty board, identity first, in the order of
    :func:`symmetry_names` (:data:`SYMMETRY_NAMES` on the square grid).

    Returns:
        4 permutations for a non-square rectangle, 8 for a square one, 12 for the Trigon
        hexagon (its geometry's, :attr:`solver.core.geometry.base.Geometry.symmetries`);
        each an int32 array of shape (cells,) with ``perm[s]`` = image of square ``s``.
    """
    if not board.square_grid:
        return [np.asarray(p, dtype=np.int32) for p in board.geometry.symmetries]
    rows, cols = board.rows, board.cols
    r, c = np.divmod(np.arange(rows * cols), cols)
    maps = [(r, c), (rows - 1 - r, cols - 1 - c), (r, cols - 1 - c), (rows - 1 - r, c)]
    perms = [rr * cols + cc for rr, cc in maps]
    if rows == cols:
        n = rows - 1
        for rr, cc in ((c, r), (n - c, n - r), (c, n - r), (n - c, r)):
            perms.append(rr * cols + cc)
    return [p.astype(np.int32) for p in perms]


def symmetry_names(board: Board) -> tuple[str, ...]:
    """The names of :func:`board_symmetries`, in its order: :data:`SYMMETRY_NAMES` (its
    first 4 on a non-square rectangle), or the geometry's (Trigon: ``rot60``...,
    ``mirror+rot300``)."""
    if not board.square_grid:
        return board.geometry.symmetry_names
    return SYMMETRY_NAMES[: len(board_symmetries(board))]


def position_symmetries(
    position: Position, fixed: Iterable[frozenset[int]] = ()
) -> list[np.ndarray]:
    """The board symmetries that map the position to itself, identity first.

    A symmetry qualifies when it maps the blocked squares onto the blocked squares, each
    colour's start square (where it has one) to itself, each colour's squares onto that
    colour's squares, and each set of ``fixed`` (e.g. the squares a layout must cover)
    onto itself.
    """
    board = position.board
    fixed_sets = [frozenset(board.blocked)] + [c.squares for c in position.colours] + list(fixed)
    starts = [c.start for c in position.colours if c.start is not None]
    fixed_sets.append(position.starting_points)  # shared ones (Trigon) as a set
    out = []
    for perm in board_symmetries(board):
        if any(int(perm[s]) != s for s in starts):
            continue
        if all(frozenset(int(perm[s]) for s in group) == group for group in fixed_sets):
            out.append(perm)
    return out


def closure(generators: list[np.ndarray]) -> list[np.ndarray]:
    """The group the permutations generate (each of shape (N,), int32, square s to
    ``g[s]``), identity first, then in order of discovery (for one generator g:
    identity, g, g^2, ...)."""
    elements = [np.arange(len(generators[0]), dtype=np.int32)]
    seen = {elements[0].tobytes()}
    frontier = list(elements)
    while frontier:
        new = []
        for e in frontier:
            for g in generators:
                p = g[e]  # g after e
                if p.tobytes() not in seen:
                    seen.add(p.tobytes())
                    elements.append(p)
                    new.append(p)
        frontier = new
    return elements


def group_tables(elements: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``mul`` (G, G) int32 with ``mul[a, b]`` the index of h_a after h_b (``h_a[h_b]``),
    and ``inv`` (G,) int32, the index of each element's inverse."""
    keys = {e.tobytes(): i for i, e in enumerate(elements)}
    g = len(elements)
    mul = np.array([[keys[a[b].tobytes()] for b in elements] for a in elements], dtype=np.int32)
    inv = np.array([int(np.nonzero(mul[a] == 0)[0][0]) for a in range(g)], dtype=np.int32)
    return mul, inv
