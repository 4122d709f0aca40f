"""The fast legal-move generator: a position's legal placements, as numbers or a mask.

Placements are numbered by the placement index of the position's variant
(:mod:`solver.core.placement_index`); the work is done by the compiled kernel
(:mod:`solver.core.movegen_kernel`: Pentobi's method of precomputed move lists per square,
piece and neighbourhood, and attach points kept per colour). Two ways in:

* one call per question, from a :class:`~solver.core.position.Position`:
  :func:`legal_indices`, :func:`legal_mask`, :func:`legal_placements`, :func:`has_legal_move`;
* a :class:`MoveState` kept along a game (or a search): :meth:`MoveState.play` and
  :meth:`MoveState.undo` update it in place, as an engine's board does, and its
  :meth:`~MoveState.legal`, :meth:`~MoveState.mask` and :meth:`~MoveState.count` cost no
  conversion.

The answers equal the plain-set rules of :mod:`solver.core.rules` (the reference) and
Pentobi's ``all_legal`` (tests/test_movegen.py). The kernel is compiled on its first call
and cached on disk (a few seconds once; :func:`warm`).
"""

from __future__ import annotations

import numbers
import threading
import weakref
from functools import lru_cache

import numpy as np

from solver.core import movegen_kernel as kernel
from solver.core.board import Board, neighbour_table
from solver.core.pieces import PIECES
from solver.core.placement_index import PLACEMENT, PlacementIndex, index_for
from solver.core.placements import PlacementTable, ring_squares
from solver.core.position import ColourState, Placement, Position
from solver.core.rules import move_problem
from solver.errors import InputError, RuleError
from solver.ranges import PERFT_DEPTH

_PIECE_NUMBER = {name: piece.index for name, piece in PIECES.items()}
#: the most squares sharing an edge with a piece (I5: 12) and sharing only a corner (8)
EDGE_WIDTH = 12
CORNER_WIDTH = 8
#: placements a colour can hold at most in one game (Junior: 24 pieces), for the undo stack
MOST_PIECES = 24


def status_squares(board: Board) -> np.ndarray:
    """For each square, the 6 squares whose status (forbidden to the colour or not) picks
    its precomputed move list: its edge neighbours, then its corner neighbours, then those
    of its edge neighbours, then their corner neighbours, the first 6 found (on the board,
    not the square itself; fewer on a board too small, padded with -1), as Pentobi's
    ``BoardConst::init_adj_status_points`` chooses them.

    Returns:
        Shape (rows*cols, 6), int32.
    """
    out = np.full((board.size, kernel.STATUS), -1, dtype=np.int32)
    for s in range(board.size):
        first = board.edge_neighbours[s] + board.corner_neighbours[s]
        found: list[int] = []
        for ring in (
            first,
            [x for q in first for x in board.edge_neighbours[q]],
            [x for q in first for x in board.corner_neighbours[q]],
        ):
            found += [x for x in ring if x != s and x not in found]
        out[s, : min(len(found), kernel.STATUS)] = found[: kernel.STATUS]
    return out


@lru_cache(maxsize=8)
def tables_for(index: PlacementIndex) -> kernel.Tables:
    """The kernel's read-only tables of a placement index (built once per process: about
    0.1 s for Classic, whose move lists hold 2.5 million entries, 11 MB; shared by every
    :class:`MoveState` of the index, so no array of them can be written)."""
    board = index.board
    sq = np.ascontiguousarray(index.squares, dtype=np.int32)
    size = index.size.astype(np.int32)
    piece = index.piece.astype(np.int32)
    table = PlacementTable(
        index.rows, index.cols, index.piece, index.squares, np.ones(len(index), dtype=bool)
    )
    status = status_squares(board)
    ptr, moves = kernel.move_lists(sq, size, piece, status, board.size)
    tables = kernel.Tables(
        sq,
        size,
        piece,
        ring_squares(table, board, corner=False)[:, :EDGE_WIDTH].copy(),
        ring_squares(table, board, corner=True)[:, :CORNER_WIDTH].copy(),
        status,
        neighbour_table(board.edge_neighbours, 4),
        neighbour_table(board.corner_neighbours, 4),
        ptr,
        moves,
    )
    for array in tables:
        array.setflags(write=False)
    return tables


def _new_state(ncol: int, n: int, p_count: int) -> kernel.State:
    return kernel.State(
        forb=np.zeros((ncol, n), dtype=np.uint8),
        owner=np.full(n, -1, dtype=np.int8),
        left=np.zeros((ncol, kernel.NPIECES), dtype=np.int8),
        nsq=np.zeros(ncol, dtype=np.int32),
        start=np.full(ncol, -1, dtype=np.int32),
        att=np.zeros((ncol, n), dtype=np.int32),
        natt=np.zeros(ncol, dtype=np.int32),
        isatt=np.zeros((ncol, n), dtype=np.uint8),
        hmove=np.zeros(ncol * MOST_PIECES, dtype=np.int32),
        hcol=np.zeros(ncol * MOST_PIECES, dtype=np.int32),
        hnatt=np.zeros(ncol * MOST_PIECES, dtype=np.int32),
        marker=np.zeros(p_count, dtype=np.int32),
        sc=np.zeros(kernel.N_SCALARS, dtype=np.int64),
    )


def _load(state: kernel.State, tables: kernel.Tables, position: Position) -> None:
    """Fill ``state`` with ``position`` (every field; the undo stack emptied)."""
    owner = state.owner
    owner.fill(-1)
    board = position.board
    if board.blocked:
        owner[list(board.blocked)] = -2
    left = [[0] * kernel.NPIECES for _ in position.colours]
    starts = []
    for c, colour in enumerate(position.colours):
        if colour.placed:
            owner[list(colour.squares)] = c
        counts = left[c]
        for name in colour.remaining:
            counts[_PIECE_NUMBER[name]] += 1
        starts.append(-1 if colour.start is None else colour.start)
    state.left[:] = left
    state.start[:] = starts
    kernel.setup(tables, state)


class _Scratch(threading.local):
    """One reusable state per tables and number of colours, per thread (the one-call
    functions fill it afresh: no allocation per call), and the position it holds (a weak
    reference: positions are immutable, so the next call on the same one, for another
    colour say, skips the filling)."""

    def __init__(self) -> None:
        self.states: dict[tuple[int, int], tuple[kernel.State, weakref.ref[Position]]] = {}


_scratch = _Scratch()


def _loaded(position: Position) -> tuple[PlacementIndex, kernel.Tables, kernel.State]:
    index = index_for(position)
    tables = tables_for(index)
    key = (id(tables), len(position.colours))
    held = _scratch.states.get(key)
    if held is not None and held[1]() is position:
        return index, tables, held[0]
    state = held[0] if held is not None else None
    if state is None:
        state = _new_state(len(position.colours), position.board.size, len(index))
    _load(state, tables, position)
    _scratch.states[key] = (state, weakref.ref(position))
    return index, tables, state


def _colour_number(position: Position, colour: str) -> int:
    position.colour(colour)  # raises InputError for an unknown colour
    return position.colour_names.index(colour)


def _generate(tables: kernel.Tables, state: kernel.State, c: int) -> np.ndarray:
    out = np.empty(len(tables.sq), dtype=np.int32)
    n = kernel.generate(tables, state, c, out, 1 << 30)
    return np.sort(out[:n])


def _mask(tables: kernel.Tables, state: kernel.State, c: int, out: np.ndarray) -> np.ndarray:
    """``out`` (all False) with True at colour c's legal placements."""
    found = np.empty(len(tables.sq), dtype=np.int32)
    out[found[: kernel.generate(tables, state, c, found, 1 << 30)]] = True
    return out


def legal_indices(position: Position, colour: str) -> np.ndarray:
    """The legal next moves of a colour as placement numbers.

    Args:
        position: any position (a built-in variant or a custom board).
        colour: a colour of the position.

    Returns:
        Shape (k,), int32, increasing: numbers of the position's placement index
        (:func:`solver.core.placement_index.index_for`). A piece the colour holds twice
        (Junior) gives each placement once.

    Raises:
        InputError: the position has no such colour.
    """
    c = _colour_number(position, colour)
    _, tables, state = _loaded(position)
    return _generate(tables, state, c)


def legal_mask(position: Position, colour: str) -> np.ndarray:
    """The legal next moves of a colour as a mask over its placement index.

    Returns:
        Shape (P,), bool (P = len of :func:`~solver.core.placement_index.index_for`:
        30,433 for Classic): True at each legal placement's number.

    Raises:
        InputError: the position has no such colour.
    """
    if not position.board.square_grid:
        return _geometry_mask(position, colour)
    c = _colour_number(position, colour)
    _, tables, state = _loaded(position)
    return _mask(tables, state, c, np.zeros(len(tables.sq), dtype=bool))


def _geometry_mask(position: Position, colour: str) -> np.ndarray:
    """:func:`legal_mask` on a board that is not of squares (Trigon), from the generic
    tables (:func:`solver.core.placements.placements_for`): the index of such a board
    numbers its placements as the geometry's table does, so a row is its number."""
    from solver.core.placements import board_placements, colour_masks, fitting_rows

    position.colour(colour)  # (an unknown colour: InputError)
    rows = fitting_rows(position, colour)
    _, attach = colour_masks(position, colour)
    table = board_placements(position.board)
    touches = np.append(attach, False)[table.squares[rows]].any(axis=1)  # -1 reads False
    mask = np.zeros(len(table), dtype=bool)
    mask[rows[touches]] = True
    return mask


def legal_placements(position: Position, colour: str) -> list[Placement]:
    """The legal next moves of a colour as placements, in the order of their numbers
    (piece, orientation, top-left square: the order of
    :func:`solver.core.placements.legal_moves`). Each :class:`Placement` is shared with
    other calls (they are immutable).

    Raises:
        InputError: the position has no such colour.
    """
    if not position.board.square_grid:
        index = index_for(position)
        return index.placements(np.flatnonzero(_geometry_mask(position, colour)))
    c = _colour_number(position, colour)
    index, tables, state = _loaded(position)
    return index.placements(_generate(tables, state, c))


def has_legal_move(position: Position, colour: str) -> bool:
    """Whether a colour has a legal next move (stops at the first one found).

    Raises:
        InputError: the position has no such colour.
    """
    c = _colour_number(position, colour)
    _, tables, state = _loaded(position)
    return bool(kernel.generate(tables, state, c, np.empty(0, dtype=np.int32), 1) > 0)


class MoveState:
    """A position kept for move generation, updated in place by play and undo.

    Colours are numbered in turn order (``state.colours``); methods take a colour's name
    or number. Placements are numbers of ``state.index``.

    Example (Duo: purple's 414 first moves, then orange's after one of them)::

        state = MoveState(Position.empty(VARIANTS["duo"]))
        state.count("purple")          # 414
        state.play("purple", int(state.legal("purple")[0]))
        state.mask("orange").sum()     # orange's legal moves, as a mask
        state.undo()
    """

    def __init__(self, position: Position) -> None:
        """Raises nothing for any valid Position (a board up to 60x60)."""
        self.start = position
        self.index = index_for(position)
        self.tables = tables_for(self.index)
        self.colours = position.colour_names
        self._numbers = {name: k for k, name in enumerate(self.colours)}
        self.state = _new_state(len(self.colours), position.board.size, len(self.index))
        _load(self.state, self.tables, position)

    def __repr__(self) -> str:
        return f"<MoveState {self.index.rows}x{self.index.cols}, {self.placed} played>"

    def colour_number(self, colour: str | int) -> int:
        """A colour's number (turn order, from 0): of its name, or its number (an int or
        a NumPy integer; not a bool). Raises InputError for none."""
        if isinstance(colour, numbers.Integral) and not isinstance(colour, bool):
            if 0 <= colour < len(self.colours):
                return int(colour)
        elif isinstance(colour, str) and colour in self._numbers:
            return self._numbers[colour]
        raise InputError(f"no colour {colour!r} here (colours: {', '.join(self.colours)})")

    def placement_number(self, placement: int | Placement) -> int:
        """The number of a placement given by its number (an int or a NumPy integer, as
        :meth:`legal` gives them) or as a :class:`Placement`.

        Raises:
            InputError: not a whole number (a float, a bool), a number outside 0..P-1, or
                a Placement that is no placement of the index.
        """
        return self.index.number(placement)

    @property
    def placed(self) -> int:
        """Placements played since the start position (the undo stack's depth)."""
        return int(self.state.sc[kernel.S_NHIST])

    def legal(self, colour: str | int) -> np.ndarray:
        """Shape (k,), int32, increasing: the colour's legal placements' numbers."""
        return _generate(self.tables, self.state, self.colour_number(colour))

    def mask(self, colour: str | int, out: np.ndarray | None = None) -> np.ndarray:
        """Shape (P,), bool: True at the colour's legal placements. ``out``: an array of
        that shape and type to fill (cleared first) instead of a new one.

        Raises:
            InputError: no such colour, or ``out`` is not a writable bool array of shape
                (P,) (a longer one would keep stale marks past P, a shorter one lose
                placements; ``where`` is "out").
        """
        c = self.colour_number(colour)
        if out is None:
            out = np.zeros(len(self.index), dtype=bool)
        else:
            _check_out(out, len(self.index))
            out.fill(False)
        return _mask(self.tables, self.state, c, out)

    def count(self, colour: str | int) -> int:
        """The number of the colour's legal placements."""
        c = self.colour_number(colour)
        return int(kernel.generate(self.tables, self.state, c, np.empty(0, np.int32), 1 << 30))

    def has_move(self, colour: str | int) -> bool:
        """Whether the colour has a legal placement (stops at the first)."""
        c = self.colour_number(colour)
        return bool(kernel.generate(self.tables, self.state, c, np.empty(0, np.int32), 1) > 0)

    def is_legal(self, colour: str | int, placement: int) -> bool:
        """Whether placement number ``placement`` (an int or a NumPy integer) is a legal
        move of the colour now (False for a number outside 0..P-1).

        Raises:
            InputError: no such colour, or ``placement`` is not a whole number.
        """
        c = self.colour_number(colour)
        placement = int(PLACEMENT.check(placement))
        if not 0 <= placement < len(self.index):
            return False
        s = self.state
        sq = self.tables.sq[placement, : self.tables.size[placement]]
        if s.left[c, self.tables.piece[placement]] <= 0 or s.forb[c, sq].any():
            return False
        if s.nsq[c] == 0:
            return bool(s.start[c] in sq)
        return bool(s.isatt[c, sq].any())

    def play(self, colour: str | int, placement: int | Placement, check: bool = True) -> int:
        """The colour places a placement (its number, an int or a NumPy integer as
        :meth:`legal` gives them, or a :class:`Placement`); returns its number.

        Raises:
            RuleError: ``check`` and the move is not legal (:func:`solver.core.rules.move_problem`
                says why); with ``check=False`` an illegal move corrupts the state.
            InputError: no such colour, or no placement of the index
                (:meth:`placement_number`; checked with ``check=False`` too).
        """
        c = self.colour_number(colour)
        m = self.placement_number(placement)
        if check and not self.is_legal(c, m):
            why = move_problem(self.position(), self.colours[c], self.index.placement(m))
            raise RuleError(why or f"placement {m} is not a legal move of {self.colours[c]}")
        kernel.play(self.tables, self.state, c, m)
        return m

    def undo(self) -> int:
        """Take back the last placement played; returns its number.

        Raises:
            RuleError: nothing was played since the start position.
        """
        m = int(kernel.undo(self.tables, self.state))
        if m < 0:
            raise RuleError("nothing to undo")
        return m

    def history(self) -> list[tuple[int, int]]:
        """The placements played since the start, in order: (colour number, placement)."""
        n = self.placed
        return list(zip(self.state.hcol[:n].tolist(), self.state.hmove[:n].tolist()))

    def position(self) -> Position:
        """The position now, as a :class:`Position` (the start with the moves played)."""
        position = self.start
        for c, m in self.history():
            position = position.with_placement(self.colours[c], self.index.placement(m))
        return position

    def observation(self, perspective: str | int | None = None) -> dict[str, np.ndarray]:
        """The position as planes for a learning agent (new arrays, C colours):

        * ``occupancy``: shape (C, rows, cols), uint8: 1 where colour c has a square;
        * ``pieces_left``: shape (C, 21), int8: how many of each piece (PIECE_NAMES order)
          colour c holds;
        * ``blocked``: shape (rows, cols), uint8: 1 on a blocked square (custom boards).

        ``perspective``: a colour put first, the others after it in turn order (plane k is
        then colour perspective + k): an agent that plays every colour sees the board as
        "mine, next, ..."; default: turn order from the first colour.
        """
        first = 0 if perspective is None else self.colour_number(perspective)
        order = [(first + k) % len(self.colours) for k in range(len(self.colours))]
        owner = self.state.owner
        rows, cols = self.index.rows, self.index.cols
        planes = owner[None, :] == np.array(order, dtype=np.int8)[:, None]
        return {
            "occupancy": planes.reshape(len(order), rows, cols).astype(np.uint8),
            "pieces_left": self.state.left[order].copy(),
            "blocked": (owner == -2).reshape(rows, cols).astype(np.uint8),
        }

    def perft(self, colour: str | int, depth: int) -> int:
        """The number of lines of ``depth`` turns from here, ``colour`` to move first
        (docs/perft.md); the state is unchanged after.

        Raises:
            InputError: no such colour, or ``depth`` is not a whole number from 0 to 100
                (the range of ``perft --depth``, :data:`solver.ranges.PERFT_DEPTH`).
        """
        depth = int(PERFT_DEPTH.check(depth))
        c = self.colour_number(colour)
        return int(kernel.perft(self.tables, self.state, c, depth))


def _check_out(out: object, size: int) -> None:
    """Raises InputError unless ``out`` is a writable bool array of shape (size,)."""
    if not isinstance(out, np.ndarray):
        raise InputError(f"expected a NumPy array, got {type(out).__name__}", where="out")
    if out.dtype != np.bool_ or out.shape != (size,) or not out.flags.writeable:
        what = "" if out.flags.writeable else "read-only "
        raise InputError(
            f"expected a writable bool array of shape ({size},), got a {what}{out.dtype} "
            f"array of shape {out.shape}",
            where="out",
        )


def observation(position: Position, perspective: str | None = None) -> dict[str, np.ndarray]:
    """A position as planes for a learning agent: :meth:`MoveState.observation`.

    Raises:
        InputError: ``perspective`` is not a colour of the position.
    """
    return MoveState(position).observation(perspective)


def warm() -> None:
    """Compile (or load from the cache) the kernel: a tiny position's moves, played and
    taken back, and a perft of depth 2 on it."""
    board = Board(3, 3)
    position = Position(board, (ColourState("blue", 0, (), ("1", "2")),))
    state = MoveState(position)
    legal_mask(position, "blue")
    state.play(0, int(state.legal(0)[0]))
    state.count(0)
    state.undo()
    state.perft(0, 2)
    has_legal_move(position, "blue")
