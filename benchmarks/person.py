"""A scripted person playing Classic solo, for the companion's benchmarks
(``benchmarks/companion_probe.py``, ``benchmarks/live_play.py``).

Not the hint (which knows a layout): a person as a new player plays, *large pieces first,
each colour pushing out from its corner*. Each move of a colour:

1. the legal placements of its largest pieces left (the monomino held back while other
   pieces are left);
2. ranked by how far they push out from the corner towards the middle of the board
   (the square of the placement nearest the board's centre), then the corners they
   open (free squares touching the placement at a corner and no square of its colour at
   an edge);
3. one of the best :data:`TOP` at random (a seeded ``numpy`` generator).

A colour with no legal move passes. :func:`ranked` gives the whole ranking (the probe
asks about its first moves: what such a person would most likely play).

The same person can play a *winning* game (``benchmarks/live_play.py --winning``): the
pieces of a verified layout that places every piece, in a person's order
(:func:`winning_line`): colours in turn, each playing next the largest piece of its layout
still unplayed whose placement is legal now, ties broken by the same preference (nearest
the middle, then most corners opened). Such a piece always exists while the colour has
pieces left: its layout's pieces are joined by corner contact to its start, so some
unplayed piece touches a played one (or covers the start square); and, the layout's
monomino last, the monomino is the colour's last move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from solver.core.pieces import MONOMINO, PIECES
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.rules import move_problem

#: the person picks one of the best few moves at random
TOP = 4


def corners_opened(position: Position, colour: str, placement: Placement) -> int:
    """Free squares touching ``placement`` at a corner and no square of its colour (the
    placement included) at an edge: the corners the move opens."""
    board = position.board
    own = position.colour(colour).squares | placement.squares
    taken = position.occupied | placement.squares
    edge = {n for s in own for n in board.edge_neighbours[s]}
    ring = {n for s in placement.squares for n in board.corner_neighbours[s]}
    return len({s for s in ring if s not in taken and s not in edge})


def reach(position: Position, placement: Placement) -> int:
    """How far ``placement`` pushes in towards the middle of the board: minus the least
    squared distance (in half squares) of one of its squares from the board's centre."""
    board = position.board
    rows, cols = board.rows - 1, board.cols - 1
    return -min(
        (2 * r - rows) ** 2 + (2 * c - cols) ** 2
        for r, c in (divmod(s, board.cols) for s in placement.squares)
    )


def ranked(position: Position, colour: str) -> list[Placement]:
    """The colour's candidate moves in the person's order of preference (module
    docstring): its largest pieces left, nearest the middle first, then most corners opened;
    empty when it has no legal move."""
    moves = legal_moves(position, colour)
    if len(position.colour(colour).remaining) > 1:
        moves = [m for m in moves if m.piece != MONOMINO] or moves
    if not moves:
        return []
    size = max(PIECES[m.piece].size for m in moves)
    largest = [m for m in moves if PIECES[m.piece].size == size]
    key = {m: (reach(position, m), corners_opened(position, colour, m)) for m in largest}
    # ties broken by the squares, so that the order does not depend on the move generator's
    return sorted(largest, key=lambda m: (-key[m][0], -key[m][1], m.piece, sorted(m.squares)))


def person_move(position: Position, colour: str, rng: np.random.Generator) -> Placement | None:
    """The person's move: one of the best :data:`TOP` of :func:`ranked` at random; None
    when the colour has no legal move."""
    moves = ranked(position, colour)
    if not moves:
        return None
    return moves[int(rng.integers(min(TOP, len(moves))))]


def person_line(
    seed: int, placements: int, variant: str = "classic"
) -> list[tuple[str, Placement]]:
    """The first ``placements`` moves of a person's game (colours in turn, a colour with
    no legal move passing), as ``(colour, placement)``."""
    from solver.formats.game import start_position

    rng = np.random.default_rng(seed)
    position = start_position(variant)
    line: list[tuple[str, Placement]] = []
    stuck: set[str] = set()
    while len(line) < placements and len(stuck) < len(position.colours):
        for colour in position.colour_names:
            if colour in stuck or len(line) >= placements:
                continue
            move = person_move(position, colour, rng)
            if move is None:
                stuck.add(colour)
                continue
            line.append((colour, move))
            position = position.with_placement(colour, move)
    return line


def layout_move(position: Position, colour: str, left: Iterable[Placement]) -> Placement | None:
    """A person's next move in a winning game: of ``left`` (the colour's layout pieces not
    yet played), the largest whose placement is legal in ``position`` (by the rules,
    :func:`solver.core.rules.move_problem`), nearest the middle first, then most corners
    opened (as :func:`ranked`); None when none is legal (or none is left)."""
    legal = [p for p in left if move_problem(position, colour, p) is None]
    if not legal:
        return None
    size = max(PIECES[p.piece].size for p in legal)
    largest = [p for p in legal if PIECES[p.piece].size == size]
    return min(
        largest,
        key=lambda m: (
            -reach(position, m),
            -corners_opened(position, colour, m),
            m.piece,
            sorted(m.squares),
        ),
    )


def winning_line(
    layout: Mapping[str, Sequence[Placement]], variant: str = "classic"
) -> list[tuple[str, Placement]]:
    """Every piece of ``layout`` (colour -> placements, any order; a layout of the empty
    board) in a person's order (module docstring): colours in turn, each playing
    :func:`layout_move`, a colour with nothing legal left passing; as ``(colour,
    placement)``. Shorter than the layout only if the layout has no legal order."""
    from solver.formats.game import start_position

    position = start_position(variant)
    left = {c: list(layout.get(c, ())) for c in position.colour_names}
    line: list[tuple[str, Placement]] = []
    moved = True
    while moved:
        moved = False
        for colour in position.colour_names:
            move = layout_move(position, colour, left[colour])
            if move is None:
                continue
            left[colour].remove(move)
            line.append((colour, move))
            position = position.with_placement(colour, move)
            moved = True
    return line
