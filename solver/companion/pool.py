"""The pool: many verified layouts of one position, and the moves known to lose there.

Not one carried layout but many diverse ones (issue 32 item 3). Each layout of the pool
places every piece left of every colour with pieces left, and the rule checker accepted
it against the pool's position when it was added (:func:`solver.companion.layouts.checked`).
A move of colour c is then answered "yes" at once when some layout of the pool contains
it (same piece, same squares): the rest of that layout still fits after the move. That
rest is checked again against the position after the move before it is shown
(:meth:`Pool.after` keeps it unchecked; :func:`solver.companion.follow` checks the
layout it answers with).

Diversity is what makes it work: layouts that differ in where the colour to move goes
next. The pool grows by pondering (:mod:`solver.companion.ponder`: a layout found for a
candidate move is a layout of this position that contains it), by the opening book
(:mod:`solver.companion.book`) and by the answers themselves.

A move proven to lose (no layout after it: the bound by area, a colour that cannot place
its pieces alone, the full solve) is kept in :attr:`Pool.refuted` with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from solver.companion.layouts import carry, checked, open_colours
from solver.core.position import LayoutView, Placement, Position

#: most layouts a pool keeps (the oldest are dropped first, the book's last)
MAX_LAYOUTS = 96

#: A move as the pool keys it: (colour, placement).
Move = tuple[str, Placement]


def layout_key(layout: LayoutView) -> frozenset[Move]:
    """What tells two layouts apart: their (colour, placement) pairs."""
    return frozenset((c, p) for c, ps in layout.items() for p in ps)


@dataclass
class Pool:
    """Verified layouts of ``position`` and the moves known to lose there.

    Attributes:
        position: the position every layout answers.
        layouts: checked layouts (colour -> placements in an order of play), each placing
            every piece left of every colour with pieces left.
        sources: for each layout, where it came from ("book", "pondered", "repaired",
            "solved", "kept", ...).
        refuted: moves (colour, placement) proven to lose every layout -> the proof's
            reason.
        tries: moves (colour, placement) -> how many times pondering tried them
            (:func:`solver.companion.ponder.ponder`).
    """

    position: Position
    layouts: list[LayoutView] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    refuted: dict[Move, str] = field(default_factory=dict)
    tries: dict[Move, int] = field(default_factory=dict)
    _keys: set[frozenset[Move]] = field(default_factory=set, repr=False)
    _by_move: dict[Move, int] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.layouts)

    def add(self, layout: LayoutView, source: str, trusted: bool = False) -> bool:
        """Add a layout of the pool's position if the rule checker accepts it there (it
        places every piece left of every colour with pieces left) and it is new.

        Args:
            layout: colour -> placements (any order).
            source: where it came from (see :attr:`sources`).
            trusted: already checked against this very position (e.g. by
                :func:`solver.companion.layouts.checked` a moment ago): not checked again.

        Returns:
            Whether it was added (False: refused by the checker, or known already).
        """
        key = layout_key(layout)
        if key in self._keys:
            return False
        found = (
            {c: tuple(layout.get(c, ())) for c in open_colours(self.position)}
            if trusted
            else checked(self.position, layout)
        )
        if found is None:
            return False
        if len(self.layouts) >= MAX_LAYOUTS:
            self._drop_one()
        self.layouts.append(found)
        self.sources.append(source)
        self._keys.add(key)
        for c, ps in found.items():
            for p in ps:
                self._by_move.setdefault((c, p), len(self.layouts) - 1)
        return True

    def _drop_one(self) -> None:
        """Drop the oldest layout that is not the book's (else the oldest)."""
        k = next((i for i, s in enumerate(self.sources) if s != "book"), 0)
        self._keys.discard(layout_key(self.layouts[k]))
        del self.layouts[k], self.sources[k]
        self._by_move = {}
        for i, layout in enumerate(self.layouts):
            for c, ps in layout.items():
                for p in ps:
                    self._by_move.setdefault((c, p), i)

    def containing(self, colour: str, placement: Placement) -> int | None:
        """The index of a layout that contains the move, or None."""
        return self._by_move.get((colour, placement))

    def status(self, colour: str, placement: Placement) -> str:
        """What is known of a move: "keeps" (a layout of the pool contains it), "loses"
        (proven: :attr:`refuted`) or "unknown"."""
        if (colour, placement) in self._by_move:
            return "keeps"
        return "loses" if (colour, placement) in self.refuted else "unknown"

    def moves(self, colour: str) -> set[Placement]:
        """The placements of ``colour`` in some layout of the pool (not all are legal
        next moves: a piece may touch only pieces the layout adds)."""
        return {p for (c, p) in self._by_move if c == colour}

    def after(self, colour: str, placement: Placement, position: Position) -> Pool:
        """The pool of the position after the move (``position``): every layout that
        contains the move, less the move (by the monotonicity of the joint question, a
        layout of it; not re-checked here: the one answered with is), and the moves
        refuted there that stay refuted (none: a loss of the move's position is not known
        for the next one)."""
        out = Pool(position)
        for layout, source in zip(self.layouts, self.sources):
            if placement not in layout.get(colour, ()):
                continue
            rest = {c: tuple(p for p in ps if p != placement) for c, ps in layout.items()}
            out.add(rest, source, trusted=True)
        return out

    def nearest(
        self, colour: str, placement: Placement, position: Position
    ) -> list[tuple[dict[str, list[Placement]], int]]:
        """The layouts carried over the move (``position``: the position after it), each
        with the number of pieces it lost (:func:`solver.companion.layouts.carry`), the
        fewest lost first: the starts of a repair."""
        carried = [carry(layout, colour, placement, position) for layout in self.layouts]
        return sorted(carried, key=lambda t: t[1])


def pool_of(
    position: Position,
    layouts: Sequence[Mapping[str, Sequence[Placement]]],
    source: str,
    trusted: bool = False,
) -> Pool:
    """A pool of ``position`` with ``layouts`` (those the rule checker accepts there;
    with ``trusted``, all: layouts known to be layouts of the position, e.g. the book's,
    each checked when shown)."""
    pool = Pool(position)
    for layout in layouts:
        pool.add(layout, source, trusted)
    return pool
