"""What the file formats need to know about Blokus Trigon: its variants by name, its board
and the shared starting points.

Puzzle files (TOML) and solution files (JSON) name a variant; on top of the square ones
(:func:`solver.core.variants.variant_or_custom`) they read ``trigon``, ``trigon2`` and
``trigon3`` (:data:`solver.core.variants.TRIGON_VARIANTS`, Pentobi ``Variant.cpp``). A
Trigon board is the hexagon of its variant (side 9, or 8 for three colours), cells named as
Pentobi names them; it has no start square per colour: a colour's first piece covers one of
the six shared starting points not yet covered (Pentobi ``StartingPoints.cpp``).
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.core.board import Board
from solver.core.variants import (
    CUSTOM,
    TRIGON_VARIANTS,
    VARIANTS,
    Variant,
    variant_or_custom,
)
from solver.errors import InputError


def file_variant(name: str) -> Variant | None:
    """The built-in variant a file names (case-insensitive; the square ones and Trigon's),
    or None for ``custom``.

    Raises:
        InputError: any other name, listing every variant a file may name.
    """
    key = name.strip().lower()
    if key in TRIGON_VARIANTS:
        return TRIGON_VARIANTS[key]
    if key != CUSTOM and key not in VARIANTS:
        every = ", ".join([*VARIANTS, *TRIGON_VARIANTS, CUSTOM])
        raise InputError(f"unknown variant {name!r} (variants: {every})"[:200])
    return variant_or_custom(name)


def is_trigon(variant: Variant | None) -> bool:
    """Whether a file's variant is played on the Trigon hexagon."""
    return variant is not None and variant.grid != "square"


def trigon_board(variant: Variant, blocked: Iterable[int] = ()) -> Board:
    """The hexagon of a Trigon variant (its naming rectangle is ``rows`` x ``cols``)."""
    return Board.trigon(variant.rows // 2, blocked)


def starting_points(board: Board) -> frozenset[int]:
    """The shared starting points of a Trigon board; none on the square grid (each colour
    has its own start square there)."""
    if board.square_grid:
        return frozenset()
    return frozenset(board.geometry.starting_points)  # type: ignore[attr-defined]


def no_start_square(variant: Variant, where: str) -> InputError:
    """The error for a start square given on a Trigon board, at ``where``."""
    return InputError(
        f"{variant.name} has no start squares: a colour's first piece covers one of the "
        "six shared starting points",
        where=where,
    )
