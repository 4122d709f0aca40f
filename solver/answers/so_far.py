"""The best partial layout so far, as a search tells it (:mod:`solver.backends.progress`):
counted, checked by the rule checker, and put in words, for whoever shows a running answer
(the page's worker, :mod:`solver.web.closeness`; the command line's status line,
:mod:`solver.cli.so_far`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solver.answers.words import plural, short_text
from solver.core.board import cell_word
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.pieces import family
from solver.core.position import Placement, Position, pieces_less


@dataclass(frozen=True)
class SoFar:
    """A partial layout a search told, checked.

    Attributes:
        left: cells of the colours' remaining pieces it does not place.
        line: it in words, e.g. "best so far: 80 of 84 pieces placed, 12 squares left;
            short: blue 2 pieces (9 squares: 4, V5), ...".
        layout: colour -> its placements, in an order of play the rule checker accepts.
    """

    left: int
    line: str
    layout: dict[str, list[Placement]]


class BestSoFar:
    """Keeps the best partial layout told so far: :meth:`better` takes a told one."""

    def __init__(self) -> None:
        self.left: int | None = None  # cells left by the best one taken

    def better(self, position: Position, layout: Mapping[str, Sequence[Placement]]) -> SoFar | None:
        """``layout`` (colour -> placements, a partial layout of ``position``) as a
        :class:`SoFar` when it leaves fewer cells than the best one taken so far and the
        rule checker accepts it (checked only then), else None."""
        try:
            short = {
                c: tuple(pieces_less(list(position.colour(c).remaining), [p.piece for p in ps]))
                for c, ps in layout.items()
            }
        except ValueError:  # a piece it does not have (or twice): refused, as by the checker
            return None
        short = {c: t for c, t in short.items() if t}
        size = family(position.board.grid).size
        left = sum(size[p] for t in short.values() for p in t)
        if self.left is not None and left >= self.left:
            return None
        ordered: dict[str, list[Placement]] = {}
        for colour, placements in layout.items():
            order = order_of_play(position, colour, placements)
            if order is None:
                return None
            ordered[colour] = order
        if not ordered or not check_layout(position, ordered).legal:
            return None
        self.left = left
        return SoFar(left, so_far_line(position, ordered, short), ordered)


def so_far_line(
    position: Position,
    layout: Mapping[str, Sequence[Placement]],
    short: Mapping[str, tuple[str, ...]],
) -> str:
    """E.g. "best so far: 80 of 84 pieces placed, 12 squares left; short: blue 2 pieces (9
    squares: 4, V5), ..." (the colours of ``layout``; ``short``: the pieces each leaves)."""
    grid = position.board.grid
    total = sum(len(position.colour(c).remaining) for c in layout)
    pieces = sum(len(t) for t in short.values())
    size = family(grid).size
    cells = sum(size[p] for t in short.values() for p in t)
    text = (
        f"best so far: {total - pieces} of {total} {plural(total, 'piece')} placed, "
        f"{cells} {plural(cells, cell_word(grid))} left"
    )
    return text + (f"; short: {short_text(short, grid)}" if short else "")
