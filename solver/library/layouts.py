"""The warm-start library: verified layouts shipped with the package, and the start they
give a position that has no history (a puzzle diagram of a game in progress).

The layouts (``layouts.json`` beside this module, a few KB) were found by the project's
own searches and re-checked by the rule checker when built (``benchmarks/build_library.py``
rebuilds the file; ``tests/test_library.py`` checks every layout again). Each is stored
as its final board diagram: each edge-connected group of one colour's letter is one piece,
so the diagram gives the placements back exactly.

:func:`best_start` maps every layout of the position's board by every board symmetry that
sends each library colour's start square to a start square of the position (the colours
follow their start squares), lays the position over it, and returns the library pieces
that still fit beside the position (the piece still left for its colour, no square
taken, no edge shared with its colour's pieces on the board): the start the repair search
(:func:`solver.backends.repair.repairer.solve_from`) grows towards, reconnecting what the position
cut off. Whether that start beats greedy play is measured by
``benchmarks/warm_start.py`` (docs/warmstart.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from solver.core.board import Board
from solver.core.position import Layout, Placement, Position
from solver.core.symmetry import board_symmetries
from solver.core.variants import variant_or_custom
from solver.formats.diagram import Diagram

__all__ = ["Entry", "Start", "best_start", "entries", "images", "read_entries", "starts"]


@dataclass(frozen=True)
class Entry:
    """One verified layout of the library.

    Attributes:
        name: what was asked, e.g. "classic-84-monomino-last".
        variant: the built-in variant (its board and start squares).
        colours: the colours that place every piece.
        monomino_last: whether every colour's monomino can be placed last.
        layout: colour -> its placements (every piece of its set).
        board: the board.
        starts: colour -> its start square.
        source: how it was found, e.g. "repair, seed 201, 35.2 s".
    """

    name: str
    variant: str
    colours: tuple[str, ...]
    monomino_last: bool
    layout: Layout
    board: Board
    starts: dict[str, int]
    source: str


@dataclass(frozen=True)
class Start:
    """A library layout mapped onto a position.

    Attributes:
        entry: the library layout.
        symmetry: the index of the board symmetry used
            (:data:`solver.core.symmetry.SYMMETRY_NAMES`).
        colour_map: library colour -> position colour.
        layout: position colour -> the mapped library placements that still fit beside
            the position (not necessarily connected to their colour: the position may cut
            them off).
        fit: the squares of ``layout``.
    """

    entry: Entry
    symmetry: int
    colour_map: dict[str, str]
    layout: Layout
    fit: int


@lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    """The library's layouts, read once from the package data (``layouts.json``)."""
    text = resources.files(__package__).joinpath("layouts.json").read_text(encoding="utf-8")
    return read_entries(text)


def read_entries(text: str) -> tuple[Entry, ...]:
    """The layouts of a file in the library's format (``layouts.json``; the companion's
    opening book, ``solver/companion/book.json``, is another): JSON with ``layouts``, each
    a record with ``name``, ``variant``, ``colours``, ``monomino_last``, ``backend``,
    ``seed``, ``seconds`` and ``diagram`` (the final board, one string per row)."""
    out = []
    for record in json.loads(text)["layouts"]:
        v = variant_or_custom(record["variant"])
        assert v is not None, "library layouts are of built-in variants"
        empty = Position.empty(v)
        board = empty.board
        pieces = Diagram.parse("\n".join(record["diagram"])).pieces(board)
        starts = {c.name: c.start for c in empty.colours if c.start is not None}
        out.append(
            Entry(
                record["name"],
                record["variant"],
                tuple(record["colours"]),
                bool(record["monomino_last"]),
                {c: pieces.get(c, []) for c in record["colours"]},
                board,
                starts,
                f"{record['backend']}, seed {record['seed']}, {record['seconds']} s",
            )
        )
    return tuple(out)


def images(entry: Entry, position: Position) -> Iterator[tuple[int, np.ndarray, dict[str, str]]]:
    """The board symmetries that map each of the entry's colours' start squares to the
    start square of a colour of ``position`` (distinct colours): (the symmetry's index in
    :data:`solver.core.symmetry.SYMMETRY_NAMES`, its permutation of the squares, entry
    colour -> position colour). None for a board of another size."""
    board = position.board
    if (entry.board.rows, entry.board.cols) != (board.rows, board.cols):
        return
    by_start = {c.start: c.name for c in position.colours if c.start is not None}
    for k, perm in enumerate(board_symmetries(board)):
        cmap = {c: by_start.get(int(perm[s])) for c, s in entry.starts.items()}
        if any(d is None for d in cmap.values()) or len(set(cmap.values())) < len(cmap):
            continue
        yield k, perm, {c: str(d) for c, d in cmap.items()}


def starts(position: Position, colours: tuple[str, ...]) -> list[Start]:
    """Every library layout of the position's board under every board symmetry that maps
    each library colour's start square to the start square of a position colour, laid
    over the position: the pieces that still fit, for the played ``colours``. Best first
    (most squares that still fit).

    Args:
        position: any position of a built-in variant (other boards have no library).
        colours: the colours to place (the others stay as they are).
    """
    board = position.board
    taken = set(position.occupied) | set(board.blocked)
    out = []
    for entry in entries():
        for k, perm, cmap in images(entry, position):
            layout = _laid_over(position, colours, entry, perm, cmap, taken)
            fit = sum(len(p.squares) for ps in layout.values() for p in ps)
            out.append(Start(entry, k, cmap, layout, fit))
    out.sort(key=lambda s: -s.fit)
    return out


def best_start(position: Position, colours: tuple[str, ...]) -> Layout | None:
    """The start of :func:`starts` that fits best: position colour -> library placements
    that still fit beside the position; None when the library has no layout for the
    board (or no piece of one fits)."""
    found = starts(position, colours)
    if not found or found[0].fit == 0:
        return None
    return found[0].layout


def _laid_over(
    position: Position,
    colours: tuple[str, ...],
    entry: Entry,
    perm: np.ndarray,
    cmap: dict[str, str],
    taken: set[int],
) -> Layout:
    """The library placements, mapped, that fit beside the position: per played colour,
    each placement of a piece it still has left (each piece once), covering no taken
    square and sharing no edge with the colour's squares."""
    board = position.board
    out: Layout = {}
    for lib_colour, placements in entry.layout.items():
        colour = cmap[lib_colour]
        if colour not in colours:
            continue
        left = list(position.colour(colour).remaining)
        own = position.colour(colour).squares
        near = {n for s in own for n in board.edge_neighbours[s]}
        kept = []
        for p in placements:
            squares = frozenset(int(perm[s]) for s in p.squares)
            if p.piece in left and not squares & taken and not squares & near:
                left.remove(p.piece)
                kept.append(Placement(p.piece, squares))
        out[colour] = kept
    return out
