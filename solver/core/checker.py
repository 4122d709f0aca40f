"""The independent rule checker.

Given a position and a finished layout (the pieces each colour adds, in order of play), it
replays every move with :func:`solver.core.rules.move_problem` and names the first broken rule;
then it scores each colour and says whether some legal order of the same pieces ends with
the monomino, and which card goals (squares to cover, colours to connect) the final
position misses. It uses neither the placement tables nor any solver, so a solver bug
cannot hide behind it. Every "yes" a solver gives is passed through :func:`check_layout`
before it is shown.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from solver.core.pieces import MONOMINO
from solver.core.position import Placement, Position
from solver.core.rules import corner_groups, corner_touches, move_problem


@dataclass(frozen=True)
class ColourReport:
    """How one colour ends.

    Attributes:
        colour: colour name.
        added: number of pieces the layout adds.
        remaining: pieces still unplaced at the end.
        score: official score, with the +5 bonus counted when some legal order of the
            added pieces ends with the monomino (or, if none were added, when the monomino
            really was the last piece placed).
        monomino_last: whether the layout allows the monomino to be placed last.
    """

    colour: str
    added: int
    remaining: tuple[str, ...]
    score: int
    monomino_last: bool

    @property
    def all_placed(self) -> bool:
        """Whether the colour has placed every piece."""
        return not self.remaining


@dataclass(frozen=True)
class CheckReport:
    """The checker's verdict on a layout.

    Attributes:
        problem: the first broken rule in words (naming colour and move), or None if legal.
        final: the position after the layout (None when illegal).
        colours: one report per colour of the position (empty when illegal).
        unmet: the card goals the final position misses, in words (e.g. "star c4 is not
            covered"); empty when every goal asked is met (or the layout is illegal).
    """

    problem: str | None
    final: Position | None
    colours: tuple[ColourReport, ...] = ()
    unmet: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        """Whether every move of the layout is legal."""
        return self.problem is None

    def report(self, colour: str) -> ColourReport:
        """The report of one colour. Raises KeyError if there is none."""
        for r in self.colours:
            if r.colour == colour:
                return r
        raise KeyError(colour)


def check_layout(
    position: Position,
    layout: Mapping[str, Sequence[Placement]],
    cover: Collection[int] = (),
    connect: Collection[str] = (),
) -> CheckReport:
    """Check a layout against the rules, score it and check the card goals.

    Args:
        position: the position the layout starts from.
        layout: colour name -> the placements that colour adds, in order of play.
        cover: squares the final position must have covered (:func:`unmet_goals`).
        connect: colours whose pieces must end as one group (:func:`unmet_goals`).

    Returns:
        A :class:`CheckReport`; ``problem`` names the first broken rule, e.g.
        ``"blue move 3 (V3 at a5,a4,b4): V3 shares an edge with another blue piece"``.
    """
    board = position.board
    current = position
    for colour, placements in layout.items():
        if colour not in position.colour_names:
            return CheckReport(f"the position has no colour {colour!r}", None)
        for n, placement in enumerate(placements, start=1):
            problem = move_problem(current, colour, placement)
            if problem:
                where = ",".join(board.names(placement.squares))
                return CheckReport(
                    f"{colour} move {n} ({placement.piece} at {where}): {problem}", None
                )
            current = current.with_placement(colour, placement)
    reports = []
    for state in current.colours:
        added = list(layout.get(state.name, ()))
        last = (
            monomino_can_be_last(position, state.name, added)
            if added
            else (state.last_piece == MONOMINO)
        )
        reports.append(
            ColourReport(
                state.name,
                len(added),
                state.remaining,
                current.score(state.name, monomino_last=last),
                last,
            )
        )
    return CheckReport(None, current, tuple(reports), unmet_goals(current, cover, connect))


def unmet_goals(
    final: Position, cover: Collection[int] = (), connect: Collection[str] = ()
) -> tuple[str, ...]:
    """The card goals a final position misses, in words: each square of ``cover`` that no
    piece covers, each colour of ``connect`` whose pieces are not one group joined by
    corner contact (:func:`solver.core.rules.corner_groups`)."""
    board = final.board
    out = [f"star {board.name(s)} is not covered" for s in sorted(cover) if s not in final.owner]
    for colour in connect:
        groups = corner_groups(board, final.colour(colour).placed)
        if len(groups) > 1:
            out.append(f"{colour}'s pieces are {len(groups)} groups, not one")
    return tuple(out)


def monomino_can_be_last(position: Position, colour: str, added: Sequence[Placement]) -> bool:
    """Whether the pieces a colour adds can be played in a legal order ending with a monomino.

    The added pieces are assumed legal in the given order. Such an order exists iff for
    some added monomino m all the other added pieces (another monomino too, in Junior) stay
    connected by corner contact to the colour's squares already on the board (or, with
    none, to the piece on the start square) without m. A monomino that is the colour's
    only piece is its last piece placed (the bonus looks at the last piece placed, as in
    Pentobi), so it counts.
    """
    return any(
        _connected_without(position, colour, added, k)
        for k, p in enumerate(added)
        if p.piece == MONOMINO
    )


def _connected_without(position: Position, colour: str, added: Sequence[Placement], k: int) -> bool:
    pieces = [p for j, p in enumerate(added) if j != k]
    board = position.board
    existing = position.colour(colour).squares
    if not pieces:
        return True  # the monomino is the only piece added: last (and, alone, first too)
    if existing:
        reached = [p for p in pieces if corner_touches(board, p.squares, existing)]
    else:
        start = position.colour(colour).start
        starts = {start} if start is not None else position.starting_points - position.occupied
        reached = [p for p in pieces if starts & p.squares]
    seen = {id(p) for p in reached}
    while reached:
        here = reached.pop()
        for other in pieces:
            if id(other) not in seen and corner_touches(board, other.squares, here.squares):
                seen.add(id(other))
                reached.append(other)
    return len(seen) == len(pieces)
