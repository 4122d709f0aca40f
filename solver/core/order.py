"""Putting a set of placements into a legal order of play.

Solvers find layouts as sets. A legal order exists iff the pieces are edge-disjoint and
their corner-contact graph connects every piece to the colour's squares already on the
board (or to the piece on its start square); any order that grows the connected set from
there is legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from solver.core.pieces import MONOMINO
from solver.core.position import Placement, Position
from solver.core.rules import corner_touches


def order_of_play(
    position: Position, colour: str, placements: Sequence[Placement], monomino_last: bool = False
) -> list[Placement] | None:
    """A legal order of play for the placements a colour adds.

    Args:
        position: the position before any of them is placed.
        colour: the colour that places them.
        placements: the pieces it adds, in any order.
        monomino_last: put the monomino last if some legal order allows it.

    Returns:
        The placements in an order in which each touches an earlier one (or the colour's
        squares) at a corner, the first covering the start square if the colour has no
        squares; None if there is no such order (some piece is an island). Edge contact is
        not checked here; with ``monomino_last`` a monomino is last whenever that is legal.
    """
    placements = list(placements)
    if monomino_last:
        for k, p in enumerate(placements):
            if p.piece != MONOMINO:
                continue
            rest = _grown(position, colour, placements[:k] + placements[k + 1 :])
            if (
                rest is not None
                and (rest or position.colour(colour).squares)
                and _touches(position, colour, rest, p)
            ):
                return rest + [p]
    return _grown(position, colour, placements)


def _touches(position: Position, colour: str, earlier: list[Placement], last: Placement) -> bool:
    own = frozenset(position.colour(colour).squares).union(*(p.squares for p in earlier))
    return corner_touches(position.board, last.squares, own)


def _grown(position: Position, colour: str, placements: list[Placement]) -> list[Placement] | None:
    """The placements grown one by one from the colour's squares (or its start square)."""
    ordered = connected_part(position, colour, placements)
    return ordered if len(ordered) == len(placements) else None


def connected_part(
    position: Position, colour: str, placements: Sequence[Placement]
) -> list[Placement]:
    """The placements that corner contact connects, through each other, to the colour's
    squares (or, with none, to the piece on its start square; on Trigon, with no start
    square, to a piece on a starting point no piece of the position covers), in an order
    that grows them one by one from there; the others are left out. Edge contact is not
    checked."""
    board = position.board
    state = position.colour(colour)
    starts = {state.start} if state.start is not None else position.starting_points
    starts = starts - position.occupied
    todo = list(placements)
    ordered: list[Placement] = []
    reached = set(state.squares)
    while todo:
        if reached:
            nxt = next(
                (p for p in todo if corner_touches(board, p.squares, frozenset(reached))), None
            )
        else:
            nxt = next((p for p in todo if p.squares & starts), None)
        if nxt is None:
            break
        todo.remove(nxt)
        ordered.append(nxt)
        reached |= nxt.squares
    return ordered


def interleave(
    queues: Mapping[str, Sequence[Placement]], order: Sequence[str], first: str
) -> list[tuple[str, Placement]]:
    """Every colour's placements as (colour, placement), round-robin in turn ``order`` from
    ``first``, keeping each colour's own order (a colour whose pieces run out drops out)."""
    k = order.index(first)
    turn = list(order[k:]) + list(order[:k])
    pending = {c: list(queues.get(c, ())) for c in turn}
    out: list[tuple[str, Placement]] = []
    while any(pending.values()):
        for c in turn:
            if pending[c]:
                out.append((c, pending[c].pop(0)))
    return out
