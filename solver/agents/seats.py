"""Who plays which colour, and who scores what, in the multi-colour games (the players of
Pentobi's ``get_nu_players`` and ``Board::get_alt_player``).

=================  =======  ===================================================================
variant            players  colours
=================  =======  ===================================================================
``classic``        4        one each: blue, yellow, red, green
``classic2``       2        player 0 blue and red, player 1 yellow and green (Two-Player)
``classic3``       3        blue, yellow, red; green is shared: its k-th piece (from 0) is
                            placed by player k mod 3, as in Pentobi, and scored by no one
``duo``            2        purple, orange
``junior``         2        purple, orange (no bonus)
``trigon``         4        one each: blue, yellow, red, green (Blokus Trigon, side 9)
``trigon2``        2        player 0 blue and red, player 1 yellow and green (side 9)
``trigon3``        3        blue, yellow, red (side 8)
=================  =======  ===================================================================

A player's final score is the sum of :meth:`solver.core.position.Position.score` over the
colours it scores (-1 per unplaced square, +15 with every piece placed, +5 more with the
monomino last; Junior: no bonus; on Trigon -1 per unplaced triangle).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.pieces import family
from solver.core.position import Position
from solver.core.variants import ALL_VARIANTS, Variant
from solver.errors import InputError


def agent_variant(name: object) -> Variant:
    """The built-in variant an environment is asked for, by our name (``classic``,
    ``classic2``, ``classic3``, ``duo``, ``junior``, ``trigon``, ``trigon2``, ``trigon3``;
    any case, spaces around ignored).

    Raises:
        InputError: any other name or value (one line listing the names; ``where`` is
            "variant").
    """
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in ALL_VARIANTS:
        shown = repr(name)[:40]
        raise InputError(
            f"unknown variant {shown} (variants: {', '.join(ALL_VARIANTS)})", where="variant"
        )
    return ALL_VARIANTS[key]


@dataclass(frozen=True)
class Seats:
    """The players of a variant.

    Attributes:
        variant: the variant.
        players: how many players (agents) there are.
        owner: colour number -> player number (-1 for a shared colour).
        shared: the shared colour's number, or None.
    """

    variant: Variant
    players: int
    owner: tuple[int, ...]
    shared: int | None

    @classmethod
    def of(cls, variant: Variant) -> Seats:
        """The seats of a built-in variant."""
        return cls(variant, variant.players, variant.seats, variant.shared)

    def player(self, colour: int, shared_placed: int = 0) -> int:
        """The player who places colour ``colour``'s next piece (``shared_placed``: pieces
        the shared colour has on the board, which picks its player)."""
        if colour == self.shared:
            return shared_placed % self.players
        return self.owner[colour]

    def colours_of(self, player: int) -> tuple[int, ...]:
        """The colours a player scores (its own, in turn order; never the shared one)."""
        return tuple(c for c, p in enumerate(self.owner) if p == player)

    def scores(self, position: Position) -> tuple[int, ...]:
        """Each player's final score in ``position``: the sum of
        :meth:`Position.score` over the colours it scores (the monomino bonus judged from
        the piece each colour really placed last)."""
        names = position.colour_names
        return tuple(
            sum(position.score(names[c]) for c in self.colours_of(p)) for p in range(self.players)
        )

    def lowest_score(self) -> int:
        """The lowest final score a player can have: every piece of its colours unplaced
        (-89 a colour with the full set, -110 on Trigon); the reward of an illegal action in
        score mode."""
        return -set_squares(self.variant) * max(
            len(self.colours_of(p)) for p in range(self.players)
        )


def set_squares(variant: Variant) -> int:
    """The cells of one colour's set (89 squares with the 21 pieces; Junior's: 88;
    Trigon's 22 pieces: 110 triangles)."""
    size = family(variant.grid).size
    return sum(size[p] * n for p, n in variant.pieces.items())
