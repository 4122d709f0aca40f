"""Errors this package raises on purpose.

Every problem with user input (a puzzle file, a game record, a solution file, a square name)
is raised as :class:`InputError` or one of its subclasses. The command line prints
``str(error)`` as a single line and exits with status 2, so the message must name the file
and the place (line, key, move number, square) and say what is wrong.

:class:`SolverBug` is the other kind: a backend's answer that the rule checker refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from solver.quoting import shown

#: characters of an error's message shown (the file and place come on top)
MESSAGE_LIMIT = 600


class BlokusError(ValueError):
    """Base class of the errors this package raises about its input."""


class InputError(BlokusError):
    """Bad input: a malformed file, an illegal position, an unknown name.

    Args:
        message: what is wrong, one line.
        path: the file it came from, if any.
        where: the place in the file ("line 4", "move 17", "[pieces].blue").
    """

    def __init__(self, message: str, *, path: str | None = None, where: str | None = None):
        self.message = message.replace("\n", " ")
        self.path = path
        self.where = where
        super().__init__(str(self))

    def __str__(self) -> str:
        # user text (a file name with a newline, a 10 MB key) as one line of sensible length
        parts = [shown(p) for p in (self.path, self.where) if p]
        return ": ".join(parts + [shown(self.message, MESSAGE_LIMIT)])

    def located(self, *, path: str | None = None, where: str | None = None) -> InputError:
        """Return a copy of this error with the file and/or place filled in where missing."""
        return type(self)(self.message, path=self.path or path, where=self.where or where)


@contextmanager
def located(*, path: str | None = None, where: str | None = None) -> Iterator[None]:
    """Fill in the file and/or place of an :class:`InputError` raised inside the block.

    ``with located(where="[pieces].blue"): ...`` re-raises any InputError from the block as
    ``error.located(path=path, where=where)`` (a place the error already names is kept),
    without the chained traceback.
    """
    try:
        yield
    except InputError as e:
        raise e.located(path=path, where=where) from None


class SquareError(InputError):
    """A square name that cannot be parsed or lies off the board."""


class PieceError(InputError):
    """An unknown piece name, or a set of squares that is not a piece of the set."""


class RuleError(InputError):
    """A placement that breaks a rule of the game (overlap, edge contact, no corner contact...)."""


class SolverBug(RuntimeError):
    """A backend's answer that the rule checker refuses, or a claim its kind of backend
    cannot make (a "no" from one that only finds layouts). Never shown as an answer: it
    is a bug in the backend, not in the input."""
