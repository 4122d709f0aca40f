"""How close a search has come, told as it goes on (issue 45: "a move answered unknown
shows within 2 s how close the search came, and the page updates as it goes on").

A search that finds layouts (the compiled repair search, :class:`solver.backends.repair.
compiled.Run`) tells the listener of its process its best partial layout when that improves,
at most every :data:`MIN_GAP` seconds (and once more when it stops, if the last improvement
was not told). Whoever waits for the answer sets the listener with :func:`listening`: the
page's worker (:mod:`solver.web.closeness`) sends the page how close the search has come
while the answer is still to come. Without a listener, :func:`wanted` is False and a search
builds nothing to tell.

One listener per process; a search's threads may tell it at the same time (the listener is
called under a lock).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from solver.core.position import Placement, Position

#: seconds between two reports of one search (a search improves many times a second early
#: on: each report is a partial layout to check and send)
MIN_GAP = 0.25

#: what a listener is told: the position searched and a partial layout of it (colour ->
#: placements, legal as a partial: the search's own state)
Listener = Callable[[Position, Mapping[str, Sequence[Placement]]], None]

_listener: Listener | None = None
_lock = threading.Lock()


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Within the ``with`` block, the searches of this process tell ``listener`` their best
    partial layouts as they improve (the listener before it is restored after)."""
    global _listener
    previous, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = previous


def wanted() -> bool:
    """Whether anybody listens (a search skips building its partial layout otherwise)."""
    return _listener is not None


def improved(position: Position, best: Callable[[], Mapping[str, Sequence[Placement]]]) -> None:
    """Tell the listener, if any, the best partial layout of ``position`` so far (``best``
    builds it: called only when somebody listens)."""
    listener = _listener
    if listener is None:
        return
    layout = best()
    with _lock:
        listener(position, layout)
