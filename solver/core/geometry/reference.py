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

:func:`perft` counts the move sequences of a fixed turn order with those rules (the figure
move generators are compared by; Pentobi's answers, found by driving its engine move by
move, are in ``tests/data/trigon/perft-*.jsonl``, checked by ``tests/test_trigon_oracle.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

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


def colour_rows(
    placements: PlacementList,
    cells: Mapping[str, frozenset[int]],
    pieces: Mapping[str, frozenset[int]],
    colour: str,
    starting_points: Mapping[str, Collection[int]],
) -> list[int]:
    """:func:`legal_rows` of one colour of a position given colour by colour (arguments as
    :func:`perft_divide`)."""
    occupied = set().union(*cells.values())
    return legal_rows(placements, cells[colour], occupied, pieces[colour], starting_points[colour])


def perft_divide(
    placements: PlacementList,
    cells: Mapping[str, frozenset[int]],
    pieces: Mapping[str, frozenset[int]],
    turns: Sequence[str],
    starting_points: Mapping[str, Collection[int]],
) -> dict[int, int]:
    """The legal first moves of ``turns[0]`` and, for each, the number of ways the other
    colours of ``turns`` can go on, one legal move each, in that order (perft's divide).

    Args:
        placements: every placement on the empty board (:func:`enumerate_placements`).
        cells: each colour's cells; every covered cell is some colour's.
        pieces: each colour's placed pieces, indexes into ``placements.pieces``.
        turns: the colours to move, one per ply, at least one; a colour with no legal move
            ends the line there (it adds 0: no pass is played).
        starting_points: each colour's starting points (:func:`legal_rows`).

    Returns:
        ``{row of the first move: number of move sequences that begin with it}``, rows
        ascending; with one turn every number is 1.
    """
    colour, rest = turns[0], turns[1:]
    divide = {}
    for row in colour_rows(placements, cells, pieces, colour, starting_points):
        after_cells = {**cells, colour: cells[colour] | placements.cell_sets[row]}
        after_pieces = {**pieces, colour: pieces[colour] | {placements.piece_list[row]}}
        divide[row] = perft(placements, after_cells, after_pieces, rest, starting_points)
    return divide


def perft(
    placements: PlacementList,
    cells: Mapping[str, frozenset[int]],
    pieces: Mapping[str, frozenset[int]],
    turns: Sequence[str],
    starting_points: Mapping[str, Collection[int]],
) -> int:
    """The number of move sequences in which the colours of ``turns`` each play one legal
    move, in that order, from the position ``cells`` / ``pieces``: perft(len(turns)) with
    a fixed turn order (arguments as :func:`perft_divide`; no turns: 1). perft(1) is the
    first colour's number of legal moves."""
    if not turns:
        return 1
    if len(turns) == 1:
        return len(colour_rows(placements, cells, pieces, turns[0], starting_points))
    return sum(perft_divide(placements, cells, pieces, turns, starting_points).values())
