"""The types of the numeric command-line options, checked before any work is done.

Each option takes only values that every backend accepts: click refuses anything else
(NaN, infinities, negatives, values out of range) with "Invalid value for '--seed': ...",
which the command line prints as one line with exit status 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.backends.base import MAX_SEED

#: a command's function, as Click's option decorators take and give it back
Command = TypeVar("Command", bound=Callable[..., Any])

#: More threads than this only slow a run down (each one is a CP-SAT worker or a copy of
#: the search, with its own memory); CP-SAT's ``num_workers`` is an int32.
MAX_WORKERS = 256

#: The search counts layouts in int64 and looks for ``limit + 1`` of them.
MAX_LIMIT = 2**62


class FiniteFloatRange(click.FloatRange):
    """:class:`click.FloatRange` that also refuses ``nan``, ``inf`` and ``-inf`` (every
    comparison with NaN is false, so FloatRange alone lets it through)."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


#: Seconds of wall time (``--time-limit``): finite, at least 0.
SECONDS = FiniteFloatRange(min=0)

#: ``--workers``: threads, at least 1.
WORKERS = click.IntRange(1, MAX_WORKERS)

#: ``--seed``: 0 .. 2^31 - 1.
SEED = click.IntRange(0, MAX_SEED)

#: ``--after``: a number of placements, at least 0 (a game record names its own end).
PLACEMENTS = click.IntRange(min=0)

#: ``count --limit``: at least 1.
LIMIT = click.IntRange(1, MAX_LIMIT)

#: ``perft --depth``: turns, 0..100 (a Classic game has at most 84 placements; depths past
#: 6 take hours anyway).
DEPTH = click.IntRange(0, 100)

#: ``--jobs``: worker processes, at least 1.
JOBS = click.IntRange(1, MAX_WORKERS)
