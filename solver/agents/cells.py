"""A game kept for the environments on a board that is not of squares (Blokus Trigon).

The environments of the square variants keep their game in the compiled move generator's
:class:`~solver.core.movegen.MoveState`, whose kernel is the square grid's. On Trigon they
keep it in a :class:`CellState`: the same methods (``mask``, ``has_move``, ``is_legal``,
``play``, ``undo``, ``history``, ``position``, ...), the placements numbered by the same
placement index (:func:`~solver.core.placement_index.variant_index` of ``trigon``,
``trigon2``, ``trigon3``: 32,131 or 24,859 placements), and each legal mask read from
:func:`solver.core.movegen.legal_mask` of the position (the generic tables of the board's
geometry; a few milliseconds a colour, cached until the next move).

:func:`move_state` gives the one or the other for a start position, and :func:`arrays`
the two arrays the observation planes read (who owns each cell, the pieces each colour
holds), kept in place by both.
"""

from __future__ import annotations

import numbers

import numpy as np

from solver.core.movegen import MoveState, legal_mask
from solver.core.pieces import family
from solver.core.placement_index import PLACEMENT, index_for
from solver.core.position import Placement, Position
from solver.core.rules import move_problem
from solver.errors import InputError, RuleError


class CellState:
    """A position of any grid kept along a game: a :class:`Position` per placement played
    (for undo), and two arrays updated in place.

    Attributes:
        start: the start position.
        index: its placement index (:func:`~solver.core.placement_index.index_for`).
        colours: the colours' names in turn order (numbered from 0).
        owner: shape (N,), int8: each cell's colour number, -1 empty, -2 blocked.
        left: shape (C, F), int8: how many of each piece of the grid's family (its
            standard order: :attr:`~solver.core.pieces.PieceFamily.names`) each colour holds.
    """

    def __init__(self, position: Position) -> None:
        self.start = position
        self.index = index_for(position)
        self.colours = position.colour_names
        self._numbers = {name: k for k, name in enumerate(self.colours)}
        names = family(position.board.grid).index
        self.owner = np.full(position.board.size, -1, dtype=np.int8)
        if position.board.blocked:
            self.owner[sorted(position.board.blocked)] = -2
        self.left = np.zeros((len(self.colours), len(names)), dtype=np.int8)
        for c, colour in enumerate(position.colours):
            if colour.placed:
                self.owner[sorted(colour.squares)] = c
            for name in colour.remaining:
                self.left[c, names[name]] += 1
        self._piece_number = names
        self._positions = [position]
        self._history: list[tuple[int, int]] = []
        self._masks: dict[int, np.ndarray] = {}

    def __repr__(self) -> str:
        return f"<CellState {self.start.board.geometry.label}, {self.placed} played>"

    def colour_number(self, colour: str | int) -> int:
        """A colour's number (turn order, from 0), as :meth:`MoveState.colour_number`."""
        if isinstance(colour, numbers.Integral) and not isinstance(colour, bool):
            if 0 <= colour < len(self.colours):
                return int(colour)
        elif isinstance(colour, str) and colour in self._numbers:
            return self._numbers[colour]
        raise InputError(f"no colour {colour!r} here (colours: {', '.join(self.colours)})")

    def placement_number(self, placement: int | Placement) -> int:
        """A placement's number, as :meth:`MoveState.placement_number`."""
        return self.index.number(placement)

    @property
    def placed(self) -> int:
        """Placements played since the start position."""
        return len(self._history)

    def _legal(self, c: int) -> np.ndarray:
        held = self._masks.get(c)
        if held is None:
            held = legal_mask(self._positions[-1], self.colours[c])
            held.setflags(write=False)
            self._masks[c] = held
        return held

    def legal(self, colour: str | int) -> np.ndarray:
        """Shape (k,), int32, increasing: the colour's legal placements' numbers."""
        return np.flatnonzero(self._legal(self.colour_number(colour))).astype(np.int32)

    def mask(self, colour: str | int, out: np.ndarray | None = None) -> np.ndarray:
        """Shape (P,), bool: True at the colour's legal placements (:func:`legal_mask`);
        ``out``: a writable bool array of that shape to fill instead of a new one."""
        held = self._legal(self.colour_number(colour))
        if out is None:
            return held.copy()
        if out.dtype != np.bool_ or out.shape != held.shape or not out.flags.writeable:
            raise InputError(
                f"expected a writable bool array of shape {held.shape}, got a {out.dtype} "
                f"array of shape {out.shape}",
                where="out",
            )
        out[:] = held
        return out

    def count(self, colour: str | int) -> int:
        """The number of the colour's legal placements."""
        return int(self._legal(self.colour_number(colour)).sum())

    def has_move(self, colour: str | int) -> bool:
        """Whether the colour has a legal placement."""
        return bool(self._legal(self.colour_number(colour)).any())

    def is_legal(self, colour: str | int, placement: int) -> bool:
        """Whether placement number ``placement`` is a legal move of the colour now (False
        for a number outside 0..P-1)."""
        c = self.colour_number(colour)
        m = int(PLACEMENT.check(placement))
        return 0 <= m < len(self.index) and bool(self._legal(c)[m])

    def play(self, colour: str | int, placement: int | Placement, check: bool = True) -> int:
        """The colour places a placement; returns its number.

        Raises:
            RuleError: ``check`` and the move is not legal (the rule it breaks).
            InputError: no such colour, or no placement of the index.
        """
        c = self.colour_number(colour)
        m = self.placement_number(placement)
        name = self.colours[c]
        placement = self.index.placement(m)
        if check and not self.is_legal(c, m):
            why = move_problem(self._positions[-1], name, placement)
            raise RuleError(why or f"placement {m} is not a legal move of {name}")
        self._positions.append(self._positions[-1].with_placement(name, placement))
        self._history.append((c, m))
        self.owner[sorted(placement.squares)] = c
        self.left[c, self._piece_number[placement.piece]] -= 1
        self._masks.clear()
        return m

    def undo(self) -> int:
        """Take back the last placement played; returns its number.

        Raises:
            RuleError: nothing was played since the start position.
        """
        if not self._history:
            raise RuleError("nothing to undo")
        c, m = self._history.pop()
        self._positions.pop()
        placement = self.index.placement(m)
        self.owner[sorted(placement.squares)] = -1
        self.left[c, self._piece_number[placement.piece]] += 1
        self._masks.clear()
        return m

    def history(self) -> list[tuple[int, int]]:
        """The placements played since the start, in order: (colour number, placement)."""
        return list(self._history)

    def position(self) -> Position:
        """The position now."""
        return self._positions[-1]


#: a game as the environments keep it
GameState = MoveState | CellState


def move_state(position: Position) -> GameState:
    """The game kept from ``position``: a :class:`MoveState` on the square grid (the
    compiled move generator), a :class:`CellState` on any other."""
    if position.board.square_grid:
        return MoveState(position)
    return CellState(position)


def arrays(state: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The arrays the planes read, updated in place by play and undo: each cell's owner
    (shape (N,), int8: a colour's number, -1 empty, -2 blocked) and the pieces each colour
    holds (shape (C, F), int8, the grid's family order)."""
    if isinstance(state, MoveState):
        return state.state.owner, state.state.left
    return state.owner, state.left
