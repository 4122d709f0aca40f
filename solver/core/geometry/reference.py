"""The rules with plain sets, on any geometry: the reference a faster generator is tested
against.

A colour's move is a placement of one of its pieces not placed yet, on free cells, none
sharing an edge with the colour's own cells. Its first move covers a starting point (one
not yet covered: a covered cell is not free); each later one shares a corner with the
colour's cells. Facts: Pentobi's ``Board::gen_moves`` and ``Board::is_legal``
(``libpentobi_base/Board.cpp``): on the first piece, moves are generated at the colour's
starting points that are not forbidden to it; later, at its attach points; on Trigon the
six starting points are shared by all colours (``StartingPoints.cpp``,
``add_colorless_starting_point``).
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.core.geometry.shapes import PlacementList


def legal_rows(
    placements: PlacementList,
    own: Iterable[int],
    occupied: Iterable[int],
    placed: Iterable[int],
    starting_points: Iterable[int],
) -> list[int]:
    """The rows of ``placements`` that are legal next moves of one colour.

    Args:
        placements: every placement on the empty board (:func:`enumerate_placements`).
        own: the colour's cells.
        occupied: every covered cell, the colour's and the others' (and blocked cells).
        placed: indexes (into ``placements.pieces``) of the pieces the colour has placed.
        starting_points: the cells the colour's first piece may cover (used only while
            ``own`` is empty).

    Returns:
        Row numbers, ascending, each once.
    """
    geometry = placements.geometry
    own_set = set(own)
    taken = set(occupied) | own_set
    used = set(placed)
    forbidden = taken | {n for c in own_set for n in geometry.edge_neighbours[c]}
    if own_set:
        seeds = {n for c in own_set for n in geometry.corner_neighbours[c]} - forbidden
    else:
        seeds = set(starting_points) - taken
    pieces = placements.piece_list
    cell_sets = placements.cell_sets
    rows: set[int] = set()
    for cell in seeds:
        for r in placements.covering[cell]:
            if r not in rows and pieces[r] not in used and forbidden.isdisjoint(cell_sets[r]):
                rows.add(r)
    return sorted(rows)
