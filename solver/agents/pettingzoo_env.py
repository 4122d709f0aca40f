"""The multi-colour games as a PettingZoo AEC environment (docs/agents.md).

::

    from solver.agents.pettingzoo_env import env

    game = env(variant="duo")   # classic, classic2, classic3, duo, junior, trigon, trigon2, trigon3
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else \\
            game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

PettingZoo's classic-games conventions (as its chess and Connect Four):

* agents ``player_0`` .. ``player_{n-1}``, who plays which colour as
  :mod:`solver.agents.seats` says (Two-Player: two colours each; Three-Player: the fourth
  colour shared in turn); the agent to move is the player of the colour to move;
* observation ``{"observation": planes, "action_mask": mask}``
  (:mod:`solver.agents.planes`: planes (rows, cols, 22 C) int8 from the perspective of the
  agent's colour to move, (rows, cols, 23 C) over the naming rectangle on Trigon; mask
  (P + 1,) int8, all zeros for an agent not to move);
* one ``Discrete(P + 1)`` action per placement of the variant's fixed placement index
  (:mod:`solver.core.placement_index`), and the pass, P (``pass_action``). A colour with no
  legal placement has the pass as its only legal action, once: after it a colour that
  passed is skipped (it can never move again: placements only take squares away). The game
  ends when no colour has a legal placement;
* rewards 0 until the end, then each player's final score
  (:meth:`solver.agents.seats.Seats.scores`: the variant's scores, with the +15 / +5
  bonuses where it has them);
* an illegal action, through :func:`env`'s ``TerminateIllegalWrapper`` (as PettingZoo's
  classic envs): the game ends, the agent that played it gets ``illegal_reward`` (the
  lowest final score a player can have), the others 0. The bare :class:`raw_env` raises
  :class:`~solver.errors.RuleError` instead, saying which rule the move breaks;
* ``render_mode`` "ansi" (the board as text) or "rgb_array" (our PNG picture).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from solver.agents.cells import move_state
from solver.agents.planes import RENDER_MODES, Observer, check_render_mode, moves_of, record, render
from solver.agents.seats import Seats, agent_variant
from solver.core.position import Placement, Position
from solver.errors import InputError, RuleError


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends
    the game with ``illegal_reward`` for its agent (``TerminateIllegalWrapper``), an action
    outside the action space is refused (``AssertOutOfBoundsWrapper``), calls out of order
    too (``OrderEnforcingWrapper``).

    Args:
        **kwargs: those of :class:`raw_env`.

    Raises:
        InputError: as :class:`raw_env`.
    """
    game = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(game, illegal_reward=game.illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # pettingzoo ships no types: AECEnv is Any
    """A Blokus game of a built-in variant, one agent per player.

    Args:
        variant: ``classic`` (four players), ``classic2`` (Two-Player), ``classic3``
            (Three-Player), ``duo``, ``junior``, or Blokus Trigon's ``trigon`` (four
            players), ``trigon2`` (Two-Player), ``trigon3`` (Three-Player).
        render_mode: None, "ansi" or "rgb_array".
        render_size: the picture's width in pixels for "rgb_array" (default: 24 per
            square and the margins).

    Attributes:
        state: the game, a :class:`~solver.core.movegen.MoveState` (a
            :class:`~solver.agents.cells.CellState` on Trigon; its ``history()``,
            ``position()``).
        seats: who plays and scores which colour.
        to_move: the number of the colour to move (turn order), None once the game is over.
        illegal_reward: the reward of an illegal action (:func:`env`).

    Raises:
        InputError: an unknown variant or render mode (one line).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "blokus_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str = "classic",
        render_mode: str | None = None,
        render_size: int | None = None,
    ) -> None:
        EzPickle.__init__(self, variant, render_mode, render_size)
        super().__init__()
        check_render_mode(render_mode)
        self.variant = agent_variant(variant)
        self.render_mode = render_mode
        self.render_size = render_size
        self.seats = Seats.of(self.variant)
        self.start = Position.empty(self.variant)
        self.state = move_state(self.start)
        self.observer = Observer(self.state)
        self.pass_action = self.state.index.pass_action
        self.illegal_reward = float(self.seats.lowest_score())
        self.possible_agents = [f"player_{k}" for k in range(self.seats.players)]
        self.agents = self.possible_agents[:]
        self._number = {a: k for k, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.observer.actions) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": self.observer.space, "action_mask": self.observer.mask_space}
            )
            for a in self.agents
        }
        self.to_move: int | None = 0
        self._passed = [False] * len(self.state.colours)
        self._mask: np.ndarray | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object each call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space, ``Discrete(P + 1)`` (the same object each call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game from the empty board (the game has no chance: ``seed`` and
        ``options`` change nothing)."""
        while self.state.placed:
            self.state.undo()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._passed = [False] * len(self.state.colours)
        self._mask = None
        self.to_move = 0
        self.agent_selection = self.possible_agents[self._player(0)]

    def _player(self, colour: int) -> int:
        shared = self.seats.shared
        placed = 0
        if shared is not None and colour == shared:
            placed = sum(1 for c, _ in self.state.history() if c == shared)
        return self.seats.player(colour, placed)

    def perspective(self, agent: str) -> int:
        """The colour number the agent sees the board from: the colour to move if the
        agent plays it, else the agent's next colour in turn order from there."""
        n = len(self.state.colours)
        here = self.to_move if self.to_move is not None else 0
        player = self._number[agent]
        for k in range(n):
            c = (here + k) % n
            if self.seats.owner[c] == player or (c == here and self._player(c) == player):
                return c
        return here  # pragma: no cover - every player owns a colour

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: the planes from its perspective, and its action mask
        (all zeros unless it is to move)."""
        moving = agent == self.agent_selection and self.to_move is not None
        if moving and self._mask is None:
            self._mask = self.observer.mask(self.to_move)
        mask = self._mask.copy() if moving and self._mask is not None else self.observer.mask(None)
        return {"observation": self.observer.planes(self.perspective(agent)), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The agent to move plays ``action``: a placement number of the index, or the
        pass (``pass_action``); ``None`` for an agent whose game is over.

        Raises:
            RuleError: a placement that is not legal (the rule it breaks), or a pass while
                the colour has a legal placement.
            InputError: not a whole number in 0..P.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        colour = self.to_move
        assert colour is not None
        self._cumulative_rewards[agent] = 0.0
        if action is None or isinstance(action, bool):
            raise InputError(f"expected a placement number or the pass, got {action!r}")
        number = int(action)
        if number == self.pass_action:
            if self.state.has_move(colour):
                name = self.state.colours[colour]
                raise RuleError(f"{name} has a legal placement: it cannot pass")
            self._passed[colour] = True
        else:
            self.state.play(colour, number)
        self._mask = None
        self._advance(colour)
        self._accumulate_rewards()

    def _advance(self, colour: int) -> None:
        """Hand the turn to the next colour that has not passed, or end the game when no
        colour has a legal placement."""
        n = len(self.state.colours)
        after = [(colour + k) % n for k in range(1, n + 1)]
        waiting = [c for c in after if not self._passed[c]]
        if not any(self.state.has_move(c) for c in waiting):
            self.to_move = None
            scores = self.seats.scores(self.state.position())
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = float(scores[self._number[a]])
                self.infos[a] = {"scores": scores}
            return
        self.to_move = waiting[0]
        self.agent_selection = self.possible_agents[self._player(waiting[0])]

    def position(self) -> Position:
        """The position now, as a :class:`Position` (its scores, its pieces)."""
        return self.state.position()

    def moves(self) -> list[tuple[str, Placement]]:
        """The placements played, in order: (colour name, placement); passes are not
        placements."""
        return moves_of(self.state)

    def record(self, name: str | None = None) -> str:
        """The game so far as a Pentobi game record (``.blksgf`` text; the placements in
        order, each with its colour; no pass is written, as Pentobi writes none), which
        ``blokus-solo`` and Pentobi read back (:func:`solver.agents.planes.record`)."""
        return record(self.state, name)

    def render(self) -> str | np.ndarray | None:
        """The board: text ("ansi"), an RGB array of shape (height, width, 3), uint8
        ("rgb_array"), or None with a warning when no render mode was chosen
        (:func:`solver.agents.planes.render`)."""
        return render(self.state, self.render_mode, self.to_move, self.render_size)

    def close(self) -> None:
        """Nothing to release (no window is opened)."""
