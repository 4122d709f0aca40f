"""Which tasks run on which grid: the one refusal of a task that assumes squares, given a
position on another grid (Trigon's triangles, :mod:`solver.core.geometry`).

Every command, the GTP engine and the page gate a position where it enters with
:func:`square_only`, so that a Trigon game record gets one line naming what does not run
on it yet (docs/geometry.md, "What runs on Trigon") instead of a failure deep inside code
that looks a Trigon piece name up among the polyominoes.
"""

from __future__ import annotations

from solver.core.board import Board
from solver.errors import InputError

#: where the documentation says what runs on Trigon
TRIGON_DOC = "docs/geometry.md#what-runs-on-trigon"


def not_yet(what: str, board: Board) -> str:
    """The refusal's text: ``"export does not run on trigon boards yet (see ...)"``."""
    return f"{what} does not run on {board.grid} boards yet (see {TRIGON_DOC})"


def square_only(
    board: Board, what: str, *, path: str | None = None, where: str | None = None
) -> None:
    """Refuse a board that is not of squares for a task that assumes squares.

    Args:
        board: the position's board.
        what: the task refused, as the message names it (``"export"``, ``"gtp"``).
        path: the file the position came from, if any.
        where: the place (an option, a GTP command), if any.

    Raises:
        InputError: ``board`` is not on the square grid.
    """
    if not board.square_grid:
        raise InputError(not_yet(what, board), path=path, where=where)
