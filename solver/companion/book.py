"""The opening book: verified complete layouts of the empty board, shipped as package data
(``book.json`` beside this module), so that the start of a game and its first placements
are answered at once (issue 32 item 5).

Each layout places every piece of every colour of a built-in variant (Classic: the four
colours, 84 pieces; Duo: both colours, 42 pieces), each colour's monomino last. Built by
``benchmarks/build_book.py`` with the project's own batch runner (one puzzle per layout:
the first placement of each colour fixed, the rest solved), checked there by the rule
checker and again by ``tests/test_book.py``. The layouts are stored as board diagrams, in
the warm-start library's format (:func:`solver.library.layouts.read_entries`).

A book layout B answers a position P when every piece on P's board is a piece of B (same
colour, piece and squares) under a symmetry of the board that maps B's colours' start
squares to P's (:func:`solver.library.layouts.images`): the rest of B then places every piece
left in P. (B has an order of play from the empty board; played in that order, skipping
the pieces already on the board, each piece still touches an earlier one or one on the
board, and no two pieces of a colour share an edge.) So the empty board, and every first
placement of a colour that some book layout (or an image of it) begins with, are
answered without a search; the layout shown is checked again by the rule checker against
the position it answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from importlib import resources

from solver.companion.layouts import rest_of
from solver.companion.pair_book import pair_layouts
from solver.companion.pair_book import warm as warm_pairs
from solver.core.position import LayoutView, Placement, Position
from solver.core.variants import VARIANTS
from solver.library.layouts import Entry, images, read_entries

#: most book layouts handed out for one position (the empty board has one per layout
#: and symmetry)
MAX_LAYOUTS = 24


@lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    """The book's layouts, read once from the package data."""
    text = resources.files(__package__).joinpath("book.json").read_text(encoding="utf-8")
    return read_entries(text)


@lru_cache(maxsize=8)
def _images(variant: str) -> tuple[LayoutView, ...]:
    """Every book layout of ``variant`` under every board symmetry that maps its colours'
    start squares to start squares (colours following them), as colour -> placements."""
    empty = Position.empty(VARIANTS[variant])
    out: list[LayoutView] = []
    seen: set[frozenset[tuple[str, Placement]]] = set()
    for entry in entries():
        if entry.variant != variant:
            continue
        for _, perm, cmap in images(entry, empty):
            layout = {
                cmap[c]: tuple(
                    Placement(p.piece, frozenset(int(perm[s]) for s in p.squares)) for p in ps
                )
                for c, ps in entry.layout.items()
            }
            key = frozenset((c, p) for c, ps in layout.items() for p in ps)
            if key not in seen:
                seen.add(key)
                out.append(layout)
    return tuple(out)


def book_layouts(position: Position, most: int = MAX_LAYOUTS) -> list[LayoutView]:
    """The book layouts that answer ``position`` (module docstring), then the pair
    book's (:mod:`solver.companion.pair_book`), less the pieces on its board: each
    places every piece left of every colour (not checked here: shown, a layout is
    checked against the position it answers). Empty for a position of a
    variant without a book, with a blocked square, or off every book layout.

    Args:
        position: any position.
        most: at most this many.
    """
    variant = position.variant
    if variant not in VARIANTS or position.board.blocked:
        return []
    out: list[LayoutView] = []
    for layout in _images(variant):
        rest = rest_of(layout, position)
        if rest is not None:
            out.append(rest)
            if len(out) >= most:
                return out
    return out + pair_layouts(position, most - len(out))


def first_placements(variant: str) -> Mapping[str, set[Placement]]:
    """Per colour, the first placements (the piece on its start square) of the book's
    layouts and their images: the first moves the book answers."""
    empty = Position.empty(VARIANTS[variant])
    out: dict[str, set[Placement]] = {c.name: set() for c in empty.colours}
    for layout in _images(variant):
        for c, ps in layout.items():
            start = empty.colour(c).start
            out[c] |= {p for p in ps if start in p.squares}
    return out


def warm() -> None:
    """Read the book and make its images for every variant it has, and read the pair
    book (a worker process forked after this finds them made)."""
    for variant in sorted({e.variant for e in entries()}):
        _images(variant)
    warm_pairs()
