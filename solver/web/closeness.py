"""How close a running answer has come, sent to the page as it goes on (issue 45).

In a worker (:func:`solver.web.jobs._work`), :class:`Closeness` listens to the searches
(:mod:`solver.backends.progress`): each partial layout a search tells is checked by the rule
checker (in an order of play, as a partial), and when it leaves fewer cells than the last one
sent, it goes to the page through the job's pipe, as ``{"progress": line, "left": cells,
"seconds": s, "layout": rows}``; :meth:`solver.web.jobs.Jobs.poll` hands the newest to the
page while the answer is still to come. Nothing is sent once the answer is (:meth:`close`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection

from solver.answers.words import plural, short_text
from solver.companion.page import rows
from solver.core.board import cell_word
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.pieces import family
from solver.core.position import Placement, Position, pieces_less


class Closeness:
    """The listener of one worker: the best partial layout told so far, sent on improvement.

    Args:
        conn: the job's end of its pipe.
        asked: when the question came (``time.time()``): a report's ``seconds`` count from it.
    """

    def __init__(self, conn: Connection, asked: float) -> None:
        self.conn, self.asked = conn, asked
        self.left: int | None = None  # cells left by the last layout sent
        self.sent = 0
        self._closed = False
        self._lock = threading.Lock()

    def __call__(self, position: Position, layout: Mapping[str, Sequence[Placement]]) -> None:
        """A search's partial layout of ``position`` (colour -> placements): sent when it
        leaves fewer cells than the last one sent and the rule checker accepts it (checked
        only then: the search waits meanwhile)."""
        try:
            short = {
                c: tuple(pieces_less(list(position.colour(c).remaining), [p.piece for p in ps]))
                for c, ps in layout.items()
            }
        except ValueError:  # a piece it does not have (or twice): refused, as by the checker
            return
        short = {c: t for c, t in short.items() if t}
        size = family(position.board.grid).size
        left = sum(size[p] for t in short.values() for p in t)
        if self.left is not None and left >= self.left:
            return
        ordered: dict[str, list[Placement]] = {}
        for colour, placements in layout.items():
            order = order_of_play(position, colour, placements)
            if order is None:
                return
            ordered[colour] = order
        if not ordered or not check_layout(position, ordered).legal:
            return
        with self._lock:
            if self._closed or (self.left is not None and left >= self.left):
                return
            self.left = left
            self.sent += 1
            self.conn.send(
                {
                    "progress": line(position, ordered, short),
                    "left": left,
                    "seconds": time.time() - self.asked,
                    "layout": rows(ordered),
                }
            )

    def close(self) -> None:
        """The answer is on its way: no report after it."""
        with self._lock:
            self._closed = True


def line(
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
