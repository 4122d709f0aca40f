"""What an agent sees: the observation planes, the action mask, and the board rendered.

Both environments (:mod:`.pettingzoo_env`, :mod:`.gymnasium_env`) observe a
:class:`~solver.core.movegen.MoveState` through :class:`Observer`: one array of shape
(rows, cols, 22 * C), int8, channels last as PettingZoo's classic games have them (C the
colours of the game, taken from a perspective: channel block 0 is the colour to move, then
the others in turn order, "me, next, ..."):

* channels 0..C-1: occupancy, 1 where colour k (of the perspective) has a square;
* channels C + 21 k + j: how many of piece j (the standard order of
  :data:`solver.core.pieces.PIECE_NAMES`) colour k holds, the same on every square (0 or
  1; 0 to 2 in Junior).

The action mask is one int8 per action of the placement index plus the pass: shape
(P + 1,), 1 where the action is legal (:meth:`Observer.mask`).
"""

from __future__ import annotations

from collections import Counter

import gymnasium
import numpy as np
from gymnasium import spaces

from solver.core.movegen import MoveState
from solver.core.pieces import PIECE_NAMES
from solver.core.position import Placement, Position
from solver.core.variants import COLOUR_LETTERS
from solver.errors import InputError
from solver.formats.game import write_moves
from solver.pictures import png
from solver.pictures.picture import scene

#: the render modes of both environments
RENDER_MODES = ("ansi", "rgb_array")
#: piece-count channels per colour (every piece of the standard order, Junior's too)
PIECE_CHANNELS = len(PIECE_NAMES)


class Observer:
    """The observation planes and action masks of one :class:`MoveState` (its arrays
    read in place: no Python object per square or placement).

    Args:
        state: the state observed (its colours are the C colours of the planes).
    """

    def __init__(self, state: MoveState) -> None:
        self.state = state
        self.rows, self.cols = state.index.rows, state.index.cols
        self.colours = len(state.colours)
        self.actions = len(state.index) + 1
        self.pass_action = state.index.pass_action
        held = max(
            (n for c in state.start.colours for n in Counter(c.remaining).values()), default=1
        )
        self.space = spaces.Box(
            low=0,
            high=max(1, held),
            shape=(self.rows, self.cols, (1 + PIECE_CHANNELS) * self.colours),
            dtype=np.int8,
        )
        self.mask_space = spaces.Box(low=0, high=1, shape=(self.actions,), dtype=np.int8)
        self._order = np.arange(self.colours, dtype=np.int8)

    def planes(self, perspective: int) -> np.ndarray:
        """The planes with colour number ``perspective`` first (a new array of
        :attr:`space`'s shape, int8)."""
        n = self.colours
        order = (self._order + perspective) % n
        kernel_state = self.state.state
        out = np.empty(self.space.shape, dtype=np.int8)
        owner = kernel_state.owner.reshape(self.rows, self.cols)
        np.equal(owner[:, :, None], order[None, None, :], out=out[:, :, :n], casting="unsafe")
        out[:, :, n:] = kernel_state.left[order].reshape(1, 1, -1)
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


def board_text(state: MoveState, to_move: int | None = None) -> str:
    """The board as text (``render_mode="ansi"``): rows top first, numbered, each square
    ``.`` or its colour's letter (:data:`solver.core.variants.COLOUR_LETTERS`), column
    letters below, then the colour to move, or "game over" (``to_move`` None)."""
    rows, cols = state.index.rows, state.index.cols
    owner = state.state.owner.reshape(rows, cols)
    # owner: a colour's number, -1 empty, -2 blocked: the last two letters
    letters = np.array([COLOUR_LETTERS[c] for c in state.colours] + ["#", "."])
    width = len(str(rows))
    lines = [f"{rows - r:>{width}} " + " ".join(letters[owner[r]].tolist()) for r in range(rows)]
    lines.append(" " * (width + 1) + " ".join(state.index.board.name(c)[0] for c in range(cols)))
    lines.append("game over" if to_move is None else f"to move: {state.colours[to_move]}")
    return "\n".join(lines) + "\n"


def board_image(state: MoveState, size: int | None = None) -> np.ndarray:
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
    state: MoveState, mode: str | None, to_move: int | None, size: int | None = None
) -> str | np.ndarray | None:
    """The board as an environment's ``render()`` gives it: :func:`board_text` ("ansi"),
    :func:`board_image` ("rgb_array"), or None with Gymnasium's warning (``mode`` None)."""
    if mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if mode == "ansi":
        return board_text(state, to_move)
    return board_image(state, size)


def moves_of(state: MoveState) -> list[tuple[str, Placement]]:
    """The placements played since the start, in order: (colour name, placement)."""
    index = state.index
    return [(state.colours[c], index.placement(m)) for c, m in state.history()]


def record(state: MoveState, name: str | None = None) -> str:
    """The placements played as a Pentobi game record (``.blksgf`` text; no pass written,
    as Pentobi writes none), which ``blokus-solo`` and Pentobi read back
    (:func:`solver.formats.game.write_moves`)."""
    return write_moves(state.start, moves_of(state), name=name)
