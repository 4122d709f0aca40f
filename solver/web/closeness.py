"""How close a running answer has come, sent to the page as it goes on (issue 45).

In a worker (:func:`solver.web.jobs._work`), :class:`Closeness` listens to the searches
(:mod:`solver.backends.progress`): a partial layout a search tells that leaves fewer cells
than the last one sent and that the rule checker accepts
(:class:`solver.answers.so_far.BestSoFar`) goes to the page through the job's pipe, as
``{"progress": line, "left": cells, "seconds": s, "layout": rows}``;
:meth:`solver.web.jobs.Jobs.poll` hands the newest to the page while the answer is still to
come. Nothing is sent once the answer is (:meth:`Closeness.close`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection

from solver.answers.so_far import BestSoFar
from solver.companion.page import rows
from solver.core.position import Placement, Position


class Closeness:
    """The listener of one worker: the best partial layout told so far, sent on improvement.

    Args:
        conn: the job's end of its pipe.
        asked: when the question came (``time.time()``): a report's ``seconds`` count from it.
    """

    def __init__(self, conn: Connection, asked: float) -> None:
        self.conn, self.asked = conn, asked
        self.best = BestSoFar()
        self._closed = False
        self._lock = threading.Lock()

    def __call__(self, position: Position, layout: Mapping[str, Sequence[Placement]]) -> None:
        """A search's partial layout of ``position`` (colour -> placements): sent when the
        rule checker accepts it and it leaves fewer cells than the last one sent."""
        with self._lock:
            if self._closed:
                return
            so_far = self.best.better(position, layout)
            if so_far is None:
                return
            self.conn.send(
                {
                    "progress": so_far.line,
                    "left": so_far.left,
                    "seconds": time.time() - self.asked,
                    "layout": rows(so_far.layout),
                }
            )

    def close(self) -> None:
        """The answer is on its way: no report after it."""
        with self._lock:
            self._closed = True
