"""The best partial layout so far on the command line: while a long search runs, a status
line on standard error in a terminal (gone when the answer comes), updated each time the
search tells a better partial layout (:mod:`solver.backends.progress`; checked by the rule
checker, :class:`solver.answers.so_far.BestSoFar`), e.g. "searching; at 12 s the best so far: 80
of 84 pieces placed, 12 squares left; short: ...". Not shown when standard error is not a
terminal (a pipe, a file, a batch job): nothing is printed there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from rich.console import Console

from solver.answers.so_far import BestSoFar
from solver.backends.progress import listening
from solver.core.position import Placement, Position


@contextmanager
def so_far_status(console: Console | None = None) -> Iterator[None]:
    """Within the ``with`` block, the searches' best partial layouts on a status line of
    ``console`` (default: standard error), if it is a terminal."""
    console = console if console is not None else Console(stderr=True)
    if not console.is_terminal:
        yield
        return
    best, began = BestSoFar(), time.monotonic()
    with console.status("searching", spinner="dots") as status:

        def tell(position: Position, layout: Mapping[str, Sequence[Placement]]) -> None:
            so_far = best.better(position, layout)
            if so_far is not None:
                status.update(f"searching; at {time.monotonic() - began:.0f} s the {so_far.line}")

        with listening(tell):
            yield
