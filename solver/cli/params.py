"""The types of the numeric command-line options, checked before any work is done.

Each option takes only values that every backend accepts, its range from
:mod:`solver.ranges` (the API checks the same ones): click refuses anything else (NaN,
infinities, negatives, values out of range) with "Invalid value for '--seed': ...", which
the command line prints as one line with exit status 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver import ranges
from solver.ranges import Range

#: a command's function, as Click's option decorators take and give it back
Command = TypeVar("Command", bound=Callable[..., Any])


class FiniteFloatRange(click.FloatRange):
    """:class:`click.FloatRange` that also refuses ``nan``, ``inf`` and ``-inf`` (every
    comparison with NaN is false, so FloatRange alone lets it through)."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def option_type(shared: Range) -> click.IntRange | FiniteFloatRange:
    """The click type of a range of :mod:`solver.ranges` (its bounds shown in ``--help``)."""
    if shared.whole:
        return click.IntRange(shared.low, shared.high)
    return FiniteFloatRange(shared.low, shared.high)


#: Seconds of wall time (``--time-limit``): finite, at least 0.
SECONDS = option_type(ranges.SECONDS)

#: ``--workers``: threads, 1 to MAX_WORKERS.
WORKERS = option_type(ranges.WORKERS)

#: ``--seed``: 0 .. 2^31 - 1.
SEED = option_type(ranges.SEED)

#: ``--after``: a number of placements, 0 to MAX_PLACEMENTS (a game record names its own end).
PLACEMENTS = option_type(ranges.PLACEMENTS)

#: ``count --limit``: 1 to 2^62.
LIMIT = option_type(ranges.LIMIT)

#: ``perft --depth``: turns, 0 to MAX_PERFT_DEPTH.
PERFT_DEPTH = option_type(ranges.PERFT_DEPTH)

#: ``perft --jobs``: worker processes, 1 to MAX_WORKERS.
JOBS = option_type(ranges.JOBS)
