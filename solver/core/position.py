"""Positions: a board, the colours on it, what each colour has placed and has left.

A :class:`Position` is an immutable value. Squares are board square numbers (see
:mod:`solver.core.board`). Each colour keeps its placed pieces in order of play, so that the
monomino bonus of a finished colour can be judged from the piece it really placed last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from solver.core.board import Board
from solver.core.pieces import MONOMINO, PIECES, family, sort_key
from solver.core.variants import COLOUR_LETTERS, Variant
from solver.errors import InputError
from solver.ranges import Range

#: a start square as an argument: a whole number (its place on the board is the rules')
_START = Range("start", whole=True)

# solver.pictures.svg is imported where a Position draws itself (_repr_svg_, Jupyter):
# pictures is a layer above the core (the one import the layer contract lists as ignored).

#: Board diagram characters of an empty and a blocked square (a taken square shows its
#: colour's letter, :data:`solver.core.variants.COLOUR_LETTERS`).
EMPTY = "."
BLOCKED = "#"
#: a place of the naming rectangle that is no cell (Trigon's corners outside the hexagon)
OFF_BOARD = " "


@dataclass(frozen=True)
class Placement:
    """A piece on a set of squares.

    Attributes:
        piece: Pentobi's piece name, e.g. "V3".
        squares: board square numbers covered (1..5 of them; any iterable, copied into
            a frozenset at construction).
    """

    piece: str
    squares: frozenset[int]

    def __post_init__(self) -> None:
        if type(self.squares) is not frozenset:
            object.__setattr__(self, "squares", frozenset(self.squares))

    def names(self, board: Board) -> list[str]:
        """Square names in Pentobi's order (a1, b1, ..., a2, ...)."""
        return board.names(self.squares)


#: A layout (docs/glossary.md#layout): colour name -> the placements it adds, in an order
#: of play where one is known. The shape a solve builds and returns, and the one to build.
Layout = dict[str, list[Placement]]

#: A layout only read: any mapping of colour name -> a sequence of placements, a
#: :data:`Layout` or one kept with tuples (the companion's book and pool layouts, which
#: nothing may change). What a function takes when it does not change the layout.
LayoutView = Mapping[str, Sequence[Placement]]


def sorted_pieces(pieces: Iterable[str], grid: str = "square") -> tuple[str, ...]:
    """Piece names as a multiset in the standard order of the set (of ``grid``'s family,
    :func:`solver.core.pieces.family`)."""
    key = sort_key if grid == "square" else family(grid).sort_key
    return tuple(sorted(pieces, key=key))


def pieces_less(pieces: Iterable[str], taken: Iterable[str]) -> list[str]:
    """The multiset ``pieces`` less ``taken`` (piece names, in ``pieces``' order).

    Raises:
        ValueError: a piece of ``taken`` is not (or not that often) in ``pieces``.
    """
    out = list(pieces)
    for p in taken:
        out.remove(p)
    return out


@dataclass(frozen=True)
class ColourState:
    """One colour in a position.

    Attributes:
        name: colour name ("blue", "purple", ...).
        start: its start square number, or None for a colour that only has squares on the
            board (a colour the solver never plays on a custom board may have none).
        placed: the pieces it has on the board, in order of play.
        remaining: the pieces it still has to place (a multiset, standard order).
        grid: the grid whose pieces the names are (``"square"`` or ``"trigon"``,
            :func:`solver.core.pieces.family`); the board's.

    ``placed`` and ``remaining`` may be given as any iterable (a list): they are copied
    into tuples at construction, so a list changed later does not change the colour.

    Raises:
        InputError: ``start`` is not a whole number (nor None).
    """

    name: str
    start: int | None
    placed: tuple[Placement, ...] = ()
    remaining: tuple[str, ...] = ()
    grid: str = "square"

    def __post_init__(self) -> None:
        if self.start is not None and type(self.start) is not int:
            object.__setattr__(self, "start", int(_START.check(self.start)))
        for name in ("placed", "remaining"):
            if type(getattr(self, name)) is not tuple:
                object.__setattr__(self, name, tuple(getattr(self, name)))

    @cached_property
    def squares(self) -> frozenset[int]:
        """All squares this colour covers."""
        return frozenset().union(*(p.squares for p in self.placed))

    @property
    def remaining_squares(self) -> int:
        """Number of squares of the pieces still to place."""
        if self.grid == "square":
            return sum(PIECES[p].size for p in self.remaining)
        size = family(self.grid).size
        return sum(size[p] for p in self.remaining)

    @property
    def last_piece(self) -> str | None:
        """The piece it placed last, or None if it has placed none."""
        return self.placed[-1].piece if self.placed else None


@dataclass(frozen=True)
class Position:
    """A board and the state of every colour on it.

    Attributes:
        board: the board (size and blocked squares).
        colours: the colours in turn order (any iterable: copied into a tuple).
        bonus: whether the +15 / +5 bonuses are scored (False in Junior).
        to_move: the colour to move, if known (from a game record).
        variant: the built-in variant's name, or "custom".
        starting_points: cells any colour's first piece may cover, shared by all colours
            and usable while uncovered (Trigon: Pentobi ``StartingPoints.cpp``); empty
            where each colour has its own start square (``ColourState.start``).

    Raises:
        InputError: a cell taken twice, or blocked and taken; a colour whose pieces are
            of another grid than the board's.
    """

    board: Board
    colours: tuple[ColourState, ...]
    bonus: bool = True
    to_move: str | None = None
    variant: str = "custom"
    starting_points: frozenset[int] = frozenset()
    _index: dict[str, int] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if type(self.colours) is not tuple:
            object.__setattr__(self, "colours", tuple(self.colours))
        object.__setattr__(self, "_index", {c.name: i for i, c in enumerate(self.colours)})
        if type(self.starting_points) is not frozenset:
            object.__setattr__(self, "starting_points", frozenset(self.starting_points))
        for c in self.colours:
            if c.grid != self.board.grid:
                grid = self.board.grid
                raise InputError(f"{c.name}'s pieces are {c.grid} pieces on a {grid} board")
        seen: dict[int, str] = {}
        for c in self.colours:
            for sq in c.squares:
                if sq in seen:
                    raise InputError(
                        f"square {self.board.name(sq)} is taken by both {seen[sq]} and {c.name}"
                    )
                seen[sq] = c.name
        clash = set(seen) & self.board.blocked
        if clash:
            raise InputError(f"square {self.board.name(min(clash))} is blocked and taken")

    def __str__(self) -> str:
        """The board as a diagram, top row first (see :meth:`diagram`)."""
        return "\n".join(self.diagram())

    def diagram(self) -> list[str]:
        """The board as diagram rows, top row first: ``.`` empty, ``#`` blocked, a colour's
        letter (``B`` blue, ...) for a taken square. A puzzle file's ``diagram`` reads it
        back (:mod:`solver.formats.diagram`)."""
        board = self.board
        off = EMPTY if board.square_grid else OFF_BOARD
        cells = [[off] * board.cols for _ in range(board.rows)]
        if not board.square_grid:
            for x, y in board.geometry.coords:
                cells[y][x] = EMPTY
        for sq in board.blocked:
            r, c = board.row_col(sq)
            cells[r][c] = BLOCKED
        for sq, colour in self.owner.items():
            r, c = board.row_col(sq)
            cells[r][c] = COLOUR_LETTERS[colour]
        return ["".join(row) for row in cells]

    @classmethod
    def empty(cls, v: Variant) -> Position:
        """The start position of a built-in variant: empty board, every piece to place."""
        if v.grid != "square":
            board = Board.trigon(v.rows // 2)
            pieces = sorted_pieces(v.pieces.elements(), v.grid)
            colours = tuple(ColourState(name, None, (), pieces, v.grid) for name in v.colours)
            starts = frozenset(board.geometry.starting_points)  # type: ignore[attr-defined]
            return cls(board, colours, v.bonus, v.colours[0], v.name, starts)
        board = Board(v.rows, v.cols)
        colours = tuple(
            ColourState(name, board.parse(start), (), sorted_pieces(v.pieces.elements()))
            for name, start in zip(v.colours, v.starts)
        )
        return cls(board, colours, bonus=v.bonus, to_move=v.colours[0], variant=v.name)

    def _repr_svg_(self) -> str:
        """The board as SVG (:func:`solver.pictures.svg.board`), for Jupyter."""
        from solver.pictures.svg import board

        return board(self)

    def colour(self, name: str) -> ColourState:
        """The state of one colour. Raises InputError if the position has no such colour
        (or ``name`` is no colour name: a number, a list)."""
        if not isinstance(name, str) or name not in self._index:
            raise InputError(
                f"no colour {name!r} in this position (colours: {', '.join(self.colour_names)})"
            )
        return self.colours[self._index[name]]

    @property
    def colour_names(self) -> tuple[str, ...]:
        """The colours' names in turn order."""
        return tuple(c.name for c in self.colours)

    @cached_property
    def occupied(self) -> frozenset[int]:
        """Squares covered by any colour."""
        return frozenset().union(*(c.squares for c in self.colours))

    @cached_property
    def owner(self) -> dict[int, str]:
        """Colour name of every covered square."""
        return {sq: c.name for c in self.colours for sq in c.squares}

    def with_placement(self, colour: str, placement: Placement) -> Position:
        """This position with one more piece of a colour on the board.

        No rule is checked here (see :func:`solver.core.rules.move_problem`); the piece is taken
        out of the colour's remaining pieces.

        Raises:
            InputError: the colour has no such piece left.
        """
        state = self.colour(colour)
        left = list(state.remaining)
        if placement.piece not in left:
            raise InputError(f"{colour} has no piece {placement.piece} left")
        left.remove(placement.piece)
        new = replace(state, placed=state.placed + (placement,), remaining=tuple(left))
        colours = tuple(new if c.name == colour else c for c in self.colours)
        return replace(self, colours=colours)

    def score(self, colour: str, monomino_last: bool | None = None) -> int:
        """Official score of a colour: -1 per unplaced square, +15 if all placed, +5 more if
        the monomino was placed last (no bonus in Junior). Source: Pentobi's scoring and the
        rule sheets.

        Args:
            monomino_last: whether the monomino counts as placed last; default: whether it
                really was the last piece this colour placed.
        """
        state = self.colour(colour)
        score = -state.remaining_squares
        if self.bonus and not state.remaining and state.placed:
            last = state.last_piece == MONOMINO if monomino_last is None else monomino_last
            score += 15 + (5 if last else 0)
        return score
