"""The pair book: a verified complete layout of the Classic board for every pair of first
placements of blue and yellow (issue 45 item 3), so that yellow's first piece is answered
at once whatever blue's was, and red's and green's first pieces are repaired from a
layout that already holds the first two.

Each colour has 58 first placements (a piece covering its start square), so there are
58 x 58 = 3,364 pairs. The board's mirror that swaps blue's and yellow's corners (and
red's and green's) maps a pair onto another, so one layout serves both: the book stores
one per pair of the mirror (1,711), and :func:`pair_layouts` finds the others by trying
every board symmetry that maps start squares to start squares, the colours following
them, as the opening book does (:mod:`solver.companion.book`).

Stored as ``pair_book.npz`` beside this module: ``rows``, uint16, shape (n, 84), each row
a layout of the empty Classic board, its placements numbered by the Classic placement
index (:func:`solver.core.placement_index.variant_index`), blue's 21 pieces first, then
yellow's, red's and green's, each in :data:`solver.core.pieces.PIECE_NAMES` order.
Built by ``benchmarks/build_pair_book.py`` (the companion's compiled repair from the
opening book), every layout checked there by the rule checker and again by
``tests/test_pair_book.py``; a layout shown is checked once more against the position it
answers (:meth:`solver.companion.follow.Follower.check`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from functools import lru_cache
from importlib import resources

import numpy as np

from solver.companion.layouts import rest_of
from solver.core.pieces import PIECE_NAMES
from solver.core.placement_index import variant_index
from solver.core.position import LayoutView, Placement, Position
from solver.core.symmetry import board_symmetries
from solver.core.variants import VARIANTS

#: the package data file
FILE = "pair_book.npz"
#: the variant the book is of, and the two colours its pairs are of
VARIANT = "classic"
PAIR = ("blue", "yellow")
#: most layouts a symmetry gives for one colour's first placement alone
MOST_SINGLE = 4


def _colours() -> tuple[str, ...]:
    return tuple(VARIANTS[VARIANT].colours)


def _starts() -> dict[str, int]:
    empty = Position.empty(VARIANTS[VARIANT])
    return {c.name: int(c.start) for c in empty.colours if c.start is not None}


def read_rows(data: bytes | None = None) -> np.ndarray:
    """The book's rows (module docstring), from ``data`` (an ``.npz`` file's bytes) or
    the package data; shape (0, 84) when the file is absent."""
    if data is None:
        path = resources.files(__package__).joinpath(FILE)
        if not path.is_file():
            return np.zeros((0, 21 * len(_colours())), dtype=np.uint16)
        data = path.read_bytes()
    with np.load(io.BytesIO(data)) as npz:
        return np.asarray(npz["rows"], dtype=np.uint16)


def first_indices(rows: np.ndarray) -> np.ndarray:
    """Each row's first placements of the pair's colours: shape (n, 2), the placement
    numbers of blue's and yellow's pieces covering their start squares (-1: none)."""
    index = variant_index(VARIANT)
    colours, starts = _colours(), _starts()
    out = np.full((len(rows), len(PAIR)), -1, dtype=np.int64)
    for j, name in enumerate(PAIR):
        k = colours.index(name)
        block = rows[:, 21 * k : 21 * (k + 1)].astype(np.int64)
        hit = (index.squares[block] == starts[name]).any(axis=2)  # (n, 21)
        found = hit.any(axis=1)
        out[found, j] = block[found, hit[found].argmax(axis=1)]
    return out


@lru_cache(maxsize=1)
def _book() -> tuple[np.ndarray, dict[tuple[int, int], int], dict[tuple[int, int], list[int]]]:
    """The rows; the row of each pair (blue's first, yellow's first); the rows of each
    (0 for blue or 1 for yellow, first placement)."""
    rows = read_rows()
    firsts = first_indices(rows)
    keys = {(int(a), int(b)): i for i, (a, b) in enumerate(firsts)}
    alone: dict[tuple[int, int], list[int]] = {}
    for i, pair in enumerate(firsts):
        for j, k in enumerate(pair):
            alone.setdefault((j, int(k)), []).append(i)
    return rows, keys, alone


def warm() -> None:
    """Read the book and index it once, and make the Classic placement index's
    placements and their lookup by squares (0.3-0.5 s the first time: a worker process
    forked after this finds them made)."""
    rows = _book()[0]
    if len(rows):
        index = variant_index(VARIANT)
        index.index(layout_of(rows[0])[PAIR[0]][0])


def layout_of(row: np.ndarray) -> dict[str, list[Placement]]:
    """A row as colour -> its 21 placements on the empty Classic board."""
    index = variant_index(VARIANT)
    placements = index.placements(row)
    return {c: placements[21 * k : 21 * (k + 1)] for k, c in enumerate(_colours())}


def row_of(layout: dict[str, Sequence[Placement]]) -> np.ndarray:
    """A complete Classic layout (colour -> its 21 placements) as a row of the book.

    Raises:
        InputError: a placement that is not on the Classic board.
        ValueError: a colour that does not place each of the 21 pieces once.
    """
    index = variant_index(VARIANT)
    out: list[int] = []
    for c in _colours():
        by_piece = {p.piece: p for p in layout[c]}
        if sorted(by_piece) != sorted(PIECE_NAMES) or len(layout[c]) != len(PIECE_NAMES):
            raise ValueError(f"{c} does not place each piece once")
        out += [index.index(by_piece[name]) for name in PIECE_NAMES]
    return np.array(out, dtype=np.uint16)


def _first(position: Position, colour: str, start: int) -> Placement | None:
    for p in position.colour(colour).placed:
        if start in p.squares:
            return p
    return None


def pair_images(position: Position, single: bool = False) -> list[LayoutView]:
    """The layouts of the pair book that some board symmetry (the colours following
    their start squares) maps onto ``position``'s first placements of a pair of
    neighbouring colours; with ``single``, also those mapped onto the first placement of
    one colour of such a pair whose other colour has none yet (at most
    :data:`MOST_SINGLE` a symmetry). Whole layouts of the empty board, which may disagree
    with the rest of the position (the repair's starts). Empty off the Classic board with
    its four colours or with a blocked square."""
    return list(_images(position, single))


def _images(position: Position, single: bool) -> Iterator[LayoutView]:
    """:func:`pair_images` one at a time: each layout's 84 placements are mapped only when
    it is asked for (:func:`pair_layouts` mostly needs the first)."""
    rows, keys, alone = _book()
    if not len(rows) or position.variant != VARIANT or position.board.blocked:
        return
    if {c.name for c in position.colours} != set(_colours()):
        return
    index = variant_index(VARIANT)
    starts = _starts()
    by_start = {c.start: c.name for c in position.colours}
    for perm in board_symmetries(position.board):
        cmap = {c: by_start.get(int(perm[s])) for c, s in starts.items()}
        if None in cmap.values() or len(set(cmap.values())) < len(cmap):
            continue
        inverse = np.argsort(perm)
        key: list[int | None] = []
        for c in PAIR:
            first = _first(position, str(cmap[c]), int(perm[starts[c]]))
            key.append(
                None
                if first is None
                else index.index(frozenset(int(inverse[s]) for s in first.squares))
            )
        a, b = key
        if a is not None and b is not None:
            found = [keys[(a, b)]] if (a, b) in keys else []
        elif single and (a, b) != (None, None):
            found = alone.get((0, a) if a is not None else (1, int(b or 0)), [])[:MOST_SINGLE]
        else:
            found = []
        for row in found:
            yield {
                str(cmap[c]): tuple(
                    Placement(p.piece, frozenset(int(perm[s]) for s in p.squares)) for p in ps
                )
                for c, ps in layout_of(rows[row]).items()
            }


def pair_layouts(position: Position, most: int = 1) -> list[LayoutView]:
    """The pair book's layouts that answer ``position``: under a board symmetry, a
    layout of the pair of its first two colours' first placements (or, before the second
    colour's, of the first colour's: e.g. blue's monomino, which the opening book, every
    monomino last, never begins with) holds every piece on the board (same colour, piece
    and squares) and places every piece left; returned less the pieces on the board.
    Empty for a position that is not of the Classic board with its four colours, with a
    blocked square, or whose pair is not in the book.

    Args:
        position: any position.
        most: at most this many.
    """
    out: list[LayoutView] = []
    for layout in _images(position, single=True):
        rest = rest_of(layout, position)
        if rest is not None:
            out.append(rest)
            if len(out) >= most:
                break
    return out
