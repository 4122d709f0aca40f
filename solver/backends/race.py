"""The "first proven answer wins" race: entrants run side by side in threads, and the first
answer that settles the question stops the others.

Used by "auto" (the search, then CP-SAT and other backends beside it), by the exact
search's portfolio of value orders, and by the symmetric backend's CP-SAT seeds. The
threads only help because the entrants release the GIL (CP-SAT and the numba kernel do).
Every entrant watches :attr:`Race.stop`, which is set when one has won, when one has
raised, or when the caller's ``cancel`` is set.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar, cast

from solver.backends.base import Cancel

T = TypeVar("T")


class EitherEvent:
    """Set when any of its events is (e.g. a race's own stop signal or its caller's
    cancel). Backends only call ``is_set()`` on a cancel signal, so this stands in for a
    :class:`threading.Event`."""

    def __init__(self, *events: Cancel | None):
        self.events = [e for e in events if e is not None]

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


class Race(Generic[T]):
    """Entrants run in threads; the first result that ``decisive`` accepts wins.

    Args:
        decisive: whether a result settles the question (then the others are stopped).
        cancel: the caller's stop signal, passed on to every entrant.
    """

    def __init__(self, decisive: Callable[[T], bool], cancel: Cancel | None = None):
        self.decisive = decisive
        self._won = threading.Event()
        self.stop: Cancel = EitherEvent(self._won, cancel)
        self._changed = threading.Condition()
        self._ended = 0
        self._threads: list[threading.Thread] = []
        self._results: list[T | None] = []
        self._errors: list[BaseException | None] = []
        #: index (in entry order) of the first decisive result, in the order they came
        self.winner: int | None = None

    def enter(self, run: Callable[[Cancel], T], name: str = "entrant") -> None:
        """Start ``run(stop)`` in a thread; it must return soon after ``stop`` is set."""
        i = len(self._threads)
        self._results.append(None)
        self._errors.append(None)
        thread = threading.Thread(target=self._run, args=(i, run), daemon=True, name=name)
        self._threads.append(thread)
        thread.start()

    def _run(self, i: int, run: Callable[[Cancel], T]) -> None:
        won = False
        try:
            result = run(self.stop)
            self._results[i] = result
            won = self.decisive(result)
        except BaseException as error:  # re-raised in the caller's thread by results()
            self._errors[i] = error
            won = True
        with self._changed:
            self._ended += 1
            if won:
                if self.winner is None and self._errors[i] is None:
                    self.winner = i
                self._won.set()
            self._changed.notify_all()

    @property
    def over(self) -> bool:
        """An entrant has won or raised, or every one has ended."""
        return self._won.is_set() or self._ended == len(self._threads)

    def wait(self, seconds: float) -> None:
        """Wait until the race is :attr:`over`, at most ``seconds``."""
        try:
            with self._changed:
                self._changed.wait_for(lambda: self.over, seconds)
        except KeyboardInterrupt:
            self._stop_all()
            raise

    def results(self) -> list[T]:
        """Wait for every entrant; their results in entry order.

        Raises:
            whatever an entrant raised (the first in entry order).
        """
        try:
            for t in self._threads:
                t.join()
        except KeyboardInterrupt:
            self._stop_all()
            raise
        for error in self._errors:
            if error is not None:
                raise error
        # every entrant ended without raising, so every slot holds its result (in entry
        # order, so that indices such as :attr:`winner` line up)
        return cast(list[T], list(self._results))

    def _stop_all(self) -> None:
        """Ctrl-C in the waiting thread: stop every entrant and wait for them, so that no
        solver thread is left running while the interpreter exits."""
        self._won.set()
        for t in self._threads:
            t.join()


def first_proven(
    runs: Sequence[Callable[[Cancel], T]],
    decisive: Callable[[T], bool],
    cancel: Cancel | None = None,
) -> tuple[list[T], int | None]:
    """Race ``runs`` from the start: every result (entry order) and the winner's index
    (None when no result was decisive).

    Raises:
        whatever an entrant raised.
    """
    race: Race[T] = Race(decisive, cancel)
    for i, run in enumerate(runs):
        race.enter(run, name=f"race-{i}")
    results = race.results()
    return results, race.winner
