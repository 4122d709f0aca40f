"""The ranges of the numeric options, in one place: the command line's option types
(:mod:`solver.cli.params`, which state them in ``--help``) are made from them, and the
Python API (:mod:`solver.api`) checks its keyword arguments against the same ones, so
both refuse the same values (NaN, infinities, negatives, values past a backend's limit).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from typing import SupportsFloat, SupportsInt, cast

from solver.errors import InputError

#: the largest seed: CP-SAT's ``random_seed`` is an int32 and the search's shuffle takes no
#: negative seed
MAX_SEED = 2**31 - 1

#: More threads than this only slow a run down (each one is a CP-SAT worker or a copy of
#: the search, with its own memory); CP-SAT's ``num_workers`` is an int32.
MAX_WORKERS = 256

#: The search counts layouts in int64 and looks for ``limit + 1`` of them.
MAX_LIMIT = 2**62

#: ``cubes split --depth``: each level multiplies the cubes by up to the placements that
#: cover a square (about 10 to 60), so 8 levels are already far more than a batch can run
MAX_DEPTH = 8

#: ``perft --depth``: a Classic game has at most 84 placements and its passes; depths past
#: 6 take hours anyway
MAX_PERFT_DEPTH = 100

#: No game record has more placements than 84 (4 colours of 21 pieces): a larger
#: ``--after`` is past every game's end (refused with the game's own count); the bound
#: keeps the number one that a message can print.
MAX_PLACEMENTS = 1_000_000


@dataclass(frozen=True)
class Range:
    """The values a numeric option takes: whole numbers (``whole``) or finite numbers,
    from ``low`` to ``high`` (both included; None: no bound that way).

    Attributes:
        name: the option's keyword in the API (``time_limit``), as messages name it.
    """

    name: str
    whole: bool
    low: int | None = None
    high: int | None = None

    def check(self, value: object) -> int | float:
        """``value`` as an int (``whole``) or a float, if it is a number in the range
        (a bool is not a number here; NumPy's numbers are).

        Raises:
            InputError: another type, or a number outside the range (``where`` is
                :attr:`name`).
        """
        kind = numbers.Integral if self.whole else numbers.Real
        if isinstance(value, bool) or not isinstance(value, kind):
            raise InputError(f"expected {self.text()}, got {type(value).__name__}", where=self.name)
        number: int | float
        if self.whole:
            number = int(cast(SupportsInt, value))  # (an Integral: mypy does not narrow)
        else:
            try:
                number = float(cast(SupportsFloat, value))
            except OverflowError:  # an int past a float's range
                number = math.inf
        low, high = self.low, self.high
        if (
            (isinstance(number, float) and not math.isfinite(number))
            or (low is not None and number < low)
            or (high is not None and number > high)
        ):
            raise InputError(f"expected {self.text()}, got {number_text(number)}", where=self.name)
        return number

    def optional(self, value: object) -> int | float | None:
        """:meth:`check`, None kept (an optional argument: ``time_limit=None`` is no
        limit)."""
        return None if value is None else self.check(value)

    def named(self, name: str) -> Range:
        """The same range for an argument of another name (``seconds`` of the companion's
        ``ponder``: a time limit by another name), as messages name it."""
        return replace(self, name=name)

    def text(self) -> str:
        """The range in words: "a whole number from 1 to 256", "a finite number, 0 or more"."""
        kind = "a whole number" if self.whole else "a finite number"
        if self.low is not None and self.high is not None:
            return f"{kind} from {self.low} to {self.high}"
        if self.low is not None:
            return f"{kind}, {self.low} or more"
        return f"{kind}, {self.high} or less" if self.high is not None else kind


def number_text(number: int | float) -> str:
    """A number for a message: a whole number past 30 digits by its size (Python refuses
    to print one of more than 4300)."""
    if isinstance(number, int) and number.bit_length() > 100:
        return f"a whole number of about {int(number.bit_length() * math.log10(2)) + 1} digits"
    return repr(number)


#: seconds of wall time (``--time-limit``, ``time_limit``): finite, at least 0
SECONDS = Range("time_limit", whole=False, low=0)

#: threads (``--workers``, ``workers``)
WORKERS = Range("workers", whole=True, low=1, high=MAX_WORKERS)

#: a random seed (``--seed``, ``seed``)
SEED = Range("seed", whole=True, low=0, high=MAX_SEED)

#: a number of placements (``--after``, ``after``; a game record names its own end)
PLACEMENTS = Range("after", whole=True, low=0, high=MAX_PLACEMENTS)

#: the levels of a cube-and-conquer split (``cubes split --depth``; a manifest's ``depth``)
DEPTH = Range("depth", whole=True, low=0, high=MAX_DEPTH)

#: layouts to count at most (``count --limit``, ``limit``)
LIMIT = Range("limit", whole=True, low=1, high=MAX_LIMIT)

#: turns to count (``perft --depth``, ``depth``)
PERFT_DEPTH = Range("depth", whole=True, low=0, high=MAX_PERFT_DEPTH)

#: worker processes (``perft --jobs``, ``jobs``)
JOBS = Range("jobs", whole=True, low=1, high=MAX_WORKERS)
