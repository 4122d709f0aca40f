"""Which tasks run on which grid: the one refusal of a task that assumes squares, given a
position on another grid (Trigon's triangles, :mod:`solver.core.geometry`).

A task that assumes squares gates a position where it enters with :func:`square_only`
(and a variant's name with :func:`grid_variant_named`), so that a Trigon game record gets
one line naming what does not run on it yet (docs/geometry.md, "What runs on Trigon")
instead of a failure deep inside code that looks a Trigon piece name up among the
polyominoes. Since issue 43's last commands moved onto the geometry (``count``, hints,
``export``, ``rate``, ``cubes split``, the agents) no command needs it; it stays the one
wording of such a refusal for the next grid or task.
"""

from __future__ import annotations

from solver.core.board import SQUARE, Board
from solver.core.variants import ALL_VARIANTS, Variant
from solver.errors import InputError

#: where the documentation says what runs on Trigon
TRIGON_DOC = "docs/geometry.md#what-runs-on-trigon"


def not_yet(what: str, grid: str) -> str:
    """The refusal's text, as the engines' registry words it: ``"export does not run on
    trigon boards yet (docs/geometry.md#what-runs-on-trigon)"``."""
    return f"{what} does not run on {grid} boards yet ({TRIGON_DOC})"


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
        raise InputError(not_yet(what, board.grid), path=path, where=where)


def grid_variant_named(text: str) -> Variant | None:
    """The built-in variant of another grid than squares (Trigon) that ``text`` names, by
    our name (``trigon2``), Pentobi's GM name (``Blokus Trigon``) or its id (``trigon_3``,
    ``t``), in any case; None for any other text (a square variant's name included)."""
    key = " ".join(text.split()).lower()
    for v in ALL_VARIANTS.values():
        if v.grid != SQUARE and key in (v.name, v.sgf_name.lower(), *v.pentobi_ids):
            return v
    return None
