"""One driver for the resumable kernels: the protocol they share, one sliced run with a
deadline and a cancel, and the restart sequence.

The exact search (:mod:`solver.backends.search.exact`) and the domain search
(:mod:`solver.backends.domain.quadrants`) are compiled explicit-stack searches: each call runs at
most a budget of nodes and returns a code; :data:`PAUSE` means "budget used up, call
again", and a call resumes exactly where the last one stopped. numba has no clock, so the
time limit and the cancel are checked here, between calls (:func:`sliced_run`). Several
copies race through :func:`solver.backends.race.first_proven`; restarts follow Luby's
sequence (:func:`luby`).
"""

from __future__ import annotations

import time
from typing import Protocol

from solver.backends.base import Cancel

#: the code both kernels return when the node budget is used up (the search goes on at the
#: next call); equal to the search kernel's and the domain kernel's ``PAUSE`` (a test pins it)
PAUSE = 3
#: seconds a slice aims at: how long a cancel or the time limit may wait to be seen
SLICE_SECONDS = 0.05
#: nodes in the first slice, and the fewest and most in any slice
FIRST_SLICE, MIN_SLICE, MAX_SLICE = 2000, 200, 5_000_000


class ResumableSearch(Protocol):
    """A search that runs for a budget of nodes and resumes where it stopped."""

    def run(self, budget: int) -> int:
        """Run at most ``budget`` (>= 1) more nodes; a kernel's code (:data:`PAUSE`: not
        done yet)."""
        ...  # pragma: no cover (a protocol)

    @property
    def nodes(self) -> int:
        """Nodes run so far (since the last restart)."""
        ...  # pragma: no cover


def sliced_run(
    search: ResumableSearch,
    time_limit: float | None,
    started: float | None = None,
    cancel: Cancel | None = None,
    nodes: int | None = None,
) -> int:
    """Run ``search`` in slices of about :data:`SLICE_SECONDS` until it ends (a code
    other than :data:`PAUSE`, returned), ``nodes`` more nodes are spent, ``time_limit``
    seconds have passed since ``started`` (``time.perf_counter()``; default: now) or
    ``cancel`` is set (then :data:`PAUSE`). A slice's node budget follows the measured
    speed, and never passes ``nodes``, so a run with a node budget visits exactly the
    nodes it would in one call: what it finds does not depend on the clock."""
    started = time.perf_counter() if started is None else started
    budget = FIRST_SLICE
    left = nodes
    while True:
        step = budget if left is None else min(budget, left)
        t0 = time.perf_counter()
        code = search.run(step)
        now = time.perf_counter()
        if code != PAUSE:
            return code
        if left is not None:
            left -= step
            if left <= 0:
                return PAUSE
        if time_limit is not None and now - started >= time_limit:
            return PAUSE
        if cancel is not None and cancel.is_set():
            return PAUSE
        budget = _next_budget(budget, now - t0, time_limit, now - started)


def _next_budget(budget: int, spent: float, time_limit: float | None, elapsed: float) -> int:
    """The next slice's nodes: scaled to take :data:`SLICE_SECONDS` at the speed of the
    last (``spent`` seconds for ``budget`` nodes), shortened near the time limit."""
    budget = int(min(max(budget * SLICE_SECONDS / max(spent, 1e-4), MIN_SLICE), MAX_SLICE))
    if time_limit is not None:
        left = time_limit - elapsed
        budget = int(max(MIN_SLICE, min(budget, budget * left / SLICE_SECONDS)))
    return budget


def luby(k: int) -> int:
    """The k-th term (k >= 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...
    (M. Luby, A. Sinclair and D. Zuckerman, "Optimal speedup of Las Vegas algorithms",
    Information Processing Letters 47, 1993): the budget of the k-th restart, in units."""
    size = 1
    while size < k + 1:
        size = 2 * size + 1  # 2^j - 1
    while size > 1:
        if k == size:
            return (size + 1) // 2
        size //= 2
        if k > size:
            k -= size
    return 1
