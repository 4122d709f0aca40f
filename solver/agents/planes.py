"""What an agent sees: the observation planes, the action mask, and the board rendered.

Both environments (:mod:`.pettingzoo_env`, :mod:`.gymnasium_env`) observe their game (a
:class:`~solver.core.movegen.MoveState` on squares, a :class:`~solver.agents.cells.CellState`
on Trigon) through :class:`Observer`: one array of shape (rows, cols, (1 + F) * C), int8,
channels last as PettingZoo's classic games have them (C the colours of the game, taken
from a perspective: channel block 0 is the colour to move, then the others in turn order,
"me, next, ..."; F the pieces of the grid's family: 21, or Trigon's 22):

* channels 0..C-1: occupancy, 1 where colour k (of the perspective) has a cell;
* channels C + F k + j: how many of piece j (the family's standard order:
  :data:`solver.core.pieces.PIECE_NAMES`, or Trigon's I6 ... 1) colour k holds, the same
  on every place (0 or 1; 0 to 2 in Junior).

On the square grid a place (row, col) is a square. On Trigon the places are Pentobi's
naming rectangle (18 x 35 on the side-9 hexagon, 16 x 31 on side 8): row r, column x is
the triangle Pentobi names column ``x``, row ``rows - r`` (Pentobi's point (x, r)), each
triangle in a place of its own and every neighbour where it lies in the game (a triangle
points up or down by the parity of its place, :mod:`solver.core.geometry.trigon`); the
places outside the hexagon (144 and 112) are 0 in the occupancy channels, as an empty
triangle is.

The action mask is one int8 per action of the placement index plus the pass: shape
(P + 1,), 1 where the action is legal (:meth:`Observer.mask`).
"""

from __future__ import annotations

from collections import Counter

import gymnasium
import numpy as np
from gymnasium import spaces

from solver.agents.cells import GameState, arrays
from solver.core.board import column_name
from solver.core.pieces import PIECE_NAMES
from solver.core.position import Placement, Position
from solver.core.variants import COLOUR_LETTERS
from solver.errors import InputError
from solver.formats.game import write_moves
from solver.pictures import png
from solver.pictures.picture import scene

#: the render modes of both environments
RENDER_MODES = ("ansi", "rgb_array")
#: piece-count channels per colour on the square grid (every piece of the standard order,
#: Junior's too; Trigon's family has 22)
PIECE_CHANNELS = len(PIECE_NAMES)
#: the owner of a place of the naming rectangle that is no cell (Trigon): no colour's
OFF_BOARD = -3


class Observer:
    """The observation planes and action masks of one game (its arrays read in place: no
    Python object per cell or placement).

    Args:
        state: the game observed (its colours are the C colours of the planes).
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.rows, self.cols = state.index.rows, state.index.cols
        self._owner, self._left = arrays(state)
        self._slots = places(state)
        self.colours = len(state.colours)
        self.actions = len(state.index) + 1
        self.pass_action = state.index.pass_action
        held = max(
            (n for c in state.start.colours for n in Counter(c.remaining).values()), default=1
        )
        self.space = spaces.Box(
            low=0,
            high=max(1, held),
            shape=(self.rows, self.cols, (1 + self._left.shape[1]) * self.colours),
            dtype=np.int8,
        )
        self.mask_space = spaces.Box(low=0, high=1, shape=(self.actions,), dtype=np.int8)
        self._order = np.arange(self.colours, dtype=np.int8)

    def planes(self, perspective: int) -> np.ndarray:
        """The planes with colour number ``perspective`` first (a new array of
        :attr:`space`'s shape, int8)."""
        n = self.colours
        order = (self._order + perspective) % n
        out = np.empty(self.space.shape, dtype=np.int8)
        owner = laid_out(self._owner, self._slots, self.rows, self.cols)
        np.equal(owner[:, :, None], order[None, None, :], out=out[:, :, :n], casting="unsafe")
        out[:, :, n:] = self._left[order].reshape(1, 1, -1)
        return out

    def mask(self, colour: int | None) -> np.ndarray:
        """The action mask of colour number ``colour`` (a new int8 array of shape
        (P + 1,)): its legal placements, or only the pass (index P) when it has none;
        all zeros for None (an agent that is not to move)."""
        out = np.zeros(self.actions, dtype=np.int8)
        if colour is not None:
            self.state.mask(colour, out=out[:-1].view(np.bool_))
            if not out[:-1].any():
                out[-1] = 1
        return out


def places(state: GameState) -> np.ndarray | None:
    """Where each cell lies in the planes: None on the square grid (cell ``r * cols + c``
    is place (r, c)); on another grid shape (N,), int64: cell -> ``y * cols + x`` of
    Pentobi's point (x, y) in the naming rectangle."""
    board = state.start.board
    if board.square_grid:
        return None
    cols = state.index.cols
    return np.array([y * cols + x for x, y in board.geometry.coords], dtype=np.int64)


def laid_out(owner: np.ndarray, slots: np.ndarray | None, rows: int, cols: int) -> np.ndarray:
    """Each cell's owner on the places of the planes, shape (rows, cols), int8
    (:data:`OFF_BOARD` where no cell lies)."""
    if slots is None:
        return owner.reshape(rows, cols)
    out = np.full(rows * cols, OFF_BOARD, dtype=np.int8)
    out[slots] = owner
    return out.reshape(rows, cols)


def board_text(state: GameState, to_move: int | None = None) -> str:
    """The board as text (``render_mode="ansi"``): rows top first, numbered, each square
    ``.`` or its colour's letter (:data:`solver.core.variants.COLOUR_LETTERS`), column
    letters below, then the colour to move, or "game over" (``to_move`` None).

    On Trigon the rows are those of the naming rectangle, each triangle a character (as a
    square is), a blank where no triangle lies; below them the column names, written
    downwards (``a`` ... ``z``, then ``aa`` ... ``ai`` on two lines: read down)."""
    rows, cols = state.index.rows, state.index.cols
    slots = places(state)
    owner = laid_out(arrays(state)[0], slots, rows, cols)
    # owner: a colour's number, -1 empty, -2 blocked, -3 no cell: the last three letters
    letters = np.array([COLOUR_LETTERS[c] for c in state.colours] + [" ", "#", "."])
    width = len(str(rows))
    lines = [f"{rows - r:>{width}} " + " ".join(letters[owner[r]].tolist()) for r in range(rows)]
    if slots is None:
        lines.append(
            " " * (width + 1) + " ".join(state.index.board.name(c)[0] for c in range(cols))
        )
    else:
        names = [column_name(x) for x in range(cols)]
        longest = max(len(name) for name in names)
        for k in range(longest):
            line = " ".join(name.ljust(longest)[k] for name in names)
            lines.append((" " * (width + 1) + line).rstrip())
    lines.append("game over" if to_move is None else f"to move: {state.colours[to_move]}")
    return "\n".join(lines) + "\n"


def board_image(state: GameState, size: int | None = None) -> np.ndarray:
    """The board as a picture (``render_mode="rgb_array"``): our PNG picture
    (:mod:`solver.pictures.png`, the last piece placed outlined) as an array of shape
    (height, width, 3), uint8; ``size``: its width in pixels (default 24 per square)."""
    position: Position = state.position()
    history = state.history()
    last = state.index.placement(history[-1][1]) if history else None
    image = png.draw(scene(position, size=size, last=last)).convert("RGB")
    return np.asarray(image, dtype=np.uint8).copy()


def check_render_mode(mode: object) -> None:
    """Raises InputError (one line, ``where`` "render_mode") unless ``mode`` is None or one
    of :data:`RENDER_MODES`."""
    if mode is not None and mode not in RENDER_MODES:
        raise InputError(
            f"unknown render mode {str(mode)[:40]!r} (modes: {', '.join(RENDER_MODES)})",
            where="render_mode",
        )


def render(
    state: GameState, mode: str | None, to_move: int | None, size: int | None = None
) -> str | np.ndarray | None:
    """The board as an environment's ``render()`` gives it: :func:`board_text` ("ansi"),
    :func:`board_image` ("rgb_array"), or None with Gymnasium's warning (``mode`` None)."""
    if mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if mode == "ansi":
        return board_text(state, to_move)
    return board_image(state, size)


def moves_of(state: GameState) -> list[tuple[str, Placement]]:
    """The placements played since the start, in order: (colour name, placement)."""
    index = state.index
    return [(state.colours[c], index.placement(m)) for c, m in state.history()]


def record(state: GameState, name: str | None = None) -> str:
    """The placements played as a Pentobi game record (``.blksgf`` text; no pass written,
    as Pentobi writes none), which ``blokus-solo`` and Pentobi read back
    (:func:`solver.formats.game.write_moves`)."""
    return write_moves(state.start, moves_of(state), name=name)
