"""The carried layouts: a layout (maybe partial) that answered an earlier position, carried
over the moves made since; what of it still fits, checked by the rule checker.

A carried layout maps each colour with pieces left to the placements it adds, legal from
the position it was made for. After a move, :func:`carry` keeps what still fits and still
connects to its colour; :func:`checked` says whether a layout places every piece left in
a position (the rule checker's verdict, in an order of play); :func:`legal_part` accepts a
partial one. Nothing is claimed from a layout unless the rule checker accepted it against
the position it answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from solver.core.checker import check_layout
from solver.core.order import connected_part, order_of_play
from solver.core.pieces import family
from solver.core.position import Layout, LayoutView, Placement, Position, pieces_less


def open_colours(position: Position) -> tuple[str, ...]:
    """The colours with pieces left, in turn order."""
    return tuple(c.name for c in position.colours if c.remaining)


def squares_of(position: Position, colours: Sequence[str]) -> int:
    """The squares the pieces left of ``colours`` cover, in all."""
    return sum(position.colour(c).remaining_squares for c in colours)


def carry(
    witness: LayoutView, colour: str, placed: Placement, position: Position
) -> tuple[Layout, int]:
    """The witness (a legal layout, maybe partial, from the position before the move) over
    one move: the pieces that still fit and still connect to their colour.

    Args:
        witness: colour -> the pieces it adds (legal from the position before the move).
        colour: the colour that moved.
        placed: its placement.
        position: the position after the move.

    Returns:
        (colour -> the pieces that stay, in an order of play; the number of pieces that
        left: displaced by the move, or cut off from their colour by that).
    """
    out: Layout = {}
    gone = 0
    board = position.board
    around = placed.squares | {n for s in placed.squares for n in board.edge_neighbours[s]}
    for d, pieces in witness.items():
        if not position.colour(d).remaining:
            gone += len(pieces) - (placed in pieces)
            out[d] = []
            continue
        if d == colour and placed in pieces:
            out[d] = [p for p in pieces if p != placed]
            continue
        hit = around if d == colour else placed.squares
        copy = own_copy(pieces, placed, hit) if d == colour else None
        stay = [p for p in pieces if not p.squares & hit and p != copy]
        out[d] = connected_part(position, d, stay)
        gone += len(pieces) - len(out[d])
    return out, gone


def laid_over(layout: LayoutView, position: Position) -> tuple[Layout, int]:
    """A whole layout of the empty board laid over ``position``: per colour with pieces
    left, its pieces that are not on the board yet, whose piece is still left, that cover
    no taken square and share no edge with the colour's pieces on the board, and that
    still connect to the colour; and how many of its pieces were not kept."""
    board = position.board
    taken = set(position.occupied) | set(board.blocked)
    out: Layout = {}
    gone = 0
    for d in open_colours(position):
        state = position.colour(d)
        own = {n for p in state.placed for s in p.squares for n in board.edge_neighbours[s]}
        refused = taken | own
        left = list(state.remaining)
        stay = []
        for p in layout.get(d, ()):
            if p in state.placed or p.piece not in left or p.squares & refused:
                continue
            left.remove(p.piece)
            stay.append(p)
        out[d] = connected_part(position, d, stay)
        gone += len(state.remaining) - len(out[d])
    return out, gone


def rest_of(layout: LayoutView, position: Position) -> dict[str, tuple[Placement, ...]] | None:
    """A whole layout of the empty board (colour -> placements) as an answer of
    ``position``: its placements less those on the board, when it holds every piece on the
    board (same colour, piece and squares), has the position's colours and places exactly
    the pieces each has left; else None (no rule checked: shown, it is checked)."""
    if set(layout) != {c.name for c in position.colours}:
        return None
    placed = {(c.name, p) for c in position.colours for p in c.placed}
    if not all(p in layout[c] for c, p in placed):
        return None
    rest = {c: tuple(p for p in ps if (c, p) not in placed) for c, ps in layout.items()}
    for c, ps in rest.items():
        if sorted(position.colour(c).remaining) != sorted(p.piece for p in ps):
            return None
    return rest


def own_copy(
    pieces: Sequence[Placement], placed: Placement, hit: AbstractSet[int]
) -> Placement | None:
    """The mover's piece of a carried layout that the move itself stands for and that ``hit`` (the
    squares the move displaces) does not already remove: the copy on the move's squares,
    else None when a copy of the piece is hit anyway, else the first copy (with two copies
    of each piece, Junior, only one goes; the other stays where it is)."""
    copies = [p for p in pieces if p.piece == placed.piece]
    if placed in copies or any(p.squares & hit for p in copies):
        return None
    return copies[0] if copies else None


def checked(position: Position, pieces: LayoutView) -> dict[str, tuple[Placement, ...]] | None:
    """The layout in a legal order of play, if the rule checker accepts it and it places
    every piece left of every colour; None otherwise."""
    ordered: dict[str, tuple[Placement, ...]] = {}
    for c in open_colours(position):
        order = order_of_play(position, c, pieces.get(c, ()), monomino_last=True)
        if order is None:
            return None
        ordered[c] = tuple(order)
    report = check_layout(position, ordered)
    if not report.legal or not all(r.all_placed for r in report.colours):
        return None
    return ordered


def refusal(position: Position, pieces: LayoutView) -> str:
    """Why :func:`checked` refuses a layout, in words (for a bug report)."""
    for c in open_colours(position):
        if order_of_play(position, c, pieces.get(c, ()), monomino_last=True) is None:
            return f"{c}'s pieces have no order of play (an island)"
    missing = {c: t for c, t in missing_pieces(position, pieces).items() if t}
    if missing:
        return f"pieces not placed: {missing}"
    ordered = {
        c: order_of_play(position, c, pieces.get(c, ())) or [] for c in open_colours(position)
    }
    return check_layout(position, ordered).problem or "refused"


def legal_part(position: Position, pieces: LayoutView) -> Layout | None:
    """A partial layout in an order of play if the rule checker accepts it, else None."""
    ordered: Layout = {}
    for c in open_colours(position):
        order = order_of_play(position, c, pieces.get(c, ()))
        if order is None:
            return None
        ordered[c] = order
    return ordered if check_layout(position, ordered).legal else None


def missing_pieces(position: Position, pieces: LayoutView) -> dict[str, list[str]]:
    """Per colour with pieces left, the pieces ``pieces`` does not place."""
    return {
        c: pieces_less(list(position.colour(c).remaining), [p.piece for p in pieces.get(c, ())])
        for c in open_colours(position)
    }


def with_pieces(position: Position, pieces: LayoutView) -> Position:
    """The position with ``pieces`` (colour -> placements) on the board (no rule checked)."""
    for c, placements in pieces.items():
        for p in placements:
            position = position.with_placement(c, p)
    return position


def shown_partial(
    position: Position, pieces: LayoutView | None
) -> tuple[dict[str, tuple[Placement, ...]] | None, dict[str, tuple[str, ...]] | None]:
    """An unknown's best partial layout as shown (in an order of play, accepted by the rule
    checker as a partial) and the pieces it leaves per short colour; (None, None) when it
    places no piece or the checker refuses it."""
    if not pieces or not any(pieces.values()):
        return None, None
    legal = legal_part(position, pieces)
    if legal is None:
        return None, None
    short = {c: tuple(t) for c, t in missing_pieces(position, legal).items() if t}
    return {c: tuple(p) for c, p in legal.items()}, short


def squares_left(position: Position, pieces: LayoutView) -> int:
    """Squares (cells) a partial layout leaves unplaced."""
    size = family(position.board.grid).size
    return sum(size[p] for t in missing_pieces(position, pieces).values() for p in t)
