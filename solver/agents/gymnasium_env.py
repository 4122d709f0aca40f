"""The solo challenge as a Gymnasium environment, ``blokus_solo/Solo-v0`` (docs/agents.md).

::

    import gymnasium
    import solver.agents  # registers blokus_solo/Solo-v0

    env = gymnasium.make("blokus_solo/Solo-v0")          # all 84 pieces of Classic
    observation, info = env.reset(seed=0)
    done = False
    while not done:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated

One agent places every colour's pieces, the colours taking turns in their order (Classic:
blue, yellow, red, green), or one colour's 21 (``colour="blue"``); on Blokus Trigon
(``variant="trigon"``: all 88 pieces of four colours on the side-9 hexagon, ``trigon3``:
three colours on side 8) the same, with Trigon's 22 pieces a colour:

* the action space, observation and mask are the PettingZoo environment's
  (:mod:`solver.agents.pettingzoo_env`): ``Discrete(P + 1)`` over the variant's fixed
  placement index and the pass; observation ``{"observation": planes, "action_mask":
  mask}`` (:mod:`solver.agents.planes`), the planes seen from the colour to move;
* a colour with no legal placement is skipped (it can never move again), so the pass
  (P) is never legal here and every mask of a running episode has a legal placement; the
  episode ends (``terminated``) when no colour in play has one: every piece placed, or
  stuck;
* reward: the squares of each piece placed, and at the end each colour's bonus (+15 with
  every piece placed, +5 more with the monomino last; Junior: none). The return of an
  episode is then Pentobi's points of the colours in play (89 + 20 = 109 a colour at
  best; on Trigon triangles, 110 + 20 = 130): their final scores plus 89 each (110);
* ``joint`` (off by default): a shaped signal from the joint question "can the colours in
  play still place every piece they have left?" (:mod:`solver.tasks.endgame`), asked after
  every placement (or every ``joint_every``) until its answer is a proven "no"; that step
  earns ``joint_reward`` more (default -15: a bonus is lost) and ``info["joint"]`` says
  why. Both modes first ask the move generator whether a colour with pieces left has no
  legal placement (free). ``"area"`` then asks the bound by area
  (:func:`~solver.tasks.endgame.area_shortfall`: a few milliseconds a colour, a weak "no");
  ``"check"`` the full :func:`~solver.tasks.endgame.joint_check` within
  ``joint_time_limit`` seconds a step (a solver run: slow, for evaluation rather than
  training);
* an action that is not legal ends the episode (``terminated``) with ``illegal_reward``
  (default -1) and the board unchanged, as PettingZoo's classic games end a game; an
  agent that samples from the mask never plays one;
* :meth:`SoloEnv.action_masks` gives the mask as bools, the name sb3-contrib's
  ``MaskablePPO`` asks an environment for.
"""

from __future__ import annotations

from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from solver.agents.cells import arrays, move_state
from solver.agents.planes import RENDER_MODES, Observer, check_render_mode, record, render
from solver.agents.seats import agent_variant
from solver.backends.base import SolveOptions
from solver.core.pieces import MONOMINO, family
from solver.core.position import Position
from solver.errors import InputError
from solver.tasks.endgame import area_shortfall, joint_check

ENV_ID = "blokus_solo/Solo-v0"
JOINT_MODES = ("area", "check")


class SoloEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One agent places the pieces of every colour of a variant, in turn order (or one
    colour's).

    Args:
        variant: ``classic`` (the default: four colours on 20x20, 84 pieces), ``classic2``,
            ``classic3`` (the same board and colours), ``duo`` or ``junior`` (two colours
            on 14x14), ``trigon``, ``trigon2`` (four colours on Trigon's side-9 hexagon,
            88 pieces) or ``trigon3`` (three on side 8).
        colour: one colour's name (e.g. "blue"): only it places its pieces; None: every
            colour of the variant.
        joint: None, "area" or "check": the shaped signal of the joint question (module
            docstring).
        joint_reward: the reward added at the step the joint answer becomes "no".
        joint_time_limit: seconds per step for ``joint="check"``.
        joint_every: ask the joint question after every this many placements (1: each).
        illegal_reward: the reward of an illegal action (it ends the episode).
        render_mode: None, "ansi" (text) or "rgb_array" (our PNG picture as an array).
        render_size: the picture's width in pixels (default 24 per square and margins).

    Attributes:
        state: the game, a :class:`~solver.core.movegen.MoveState` (a
            :class:`~solver.agents.cells.CellState` on Trigon; ``history()``,
            ``position()``).
        in_play: the numbers of the colours in play (turn order).
        to_move: the number of the colour to move, None once the episode has ended.
        pass_action: P, the pass (never legal here).

    Raises:
        InputError: an unknown variant, colour, joint mode or render mode (one line).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        variant: str = "classic",
        colour: str | None = None,
        joint: Literal["area", "check"] | None = None,
        joint_reward: float = -15.0,
        joint_time_limit: float = 1.0,
        joint_every: int = 1,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        render_size: int | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if joint is not None and joint not in JOINT_MODES:
            raise InputError(
                f"unknown joint mode {str(joint)[:40]!r} (modes: None, {', '.join(JOINT_MODES)})",
                where="joint",
            )
        self.variant = agent_variant(variant)
        self.start = Position.empty(self.variant)
        self.state = move_state(self.start)
        pieces = family(self.variant.grid)
        # cells of each piece, in the family's order (the index's piece numbers)
        self._sizes = np.array(pieces.sizes, dtype=np.int64)
        self._monomino = pieces.index[MONOMINO]
        self.in_play = tuple(range(len(self.state.colours)))
        if colour is not None:
            self.in_play = (self.state.colour_number(colour),)
        self.observer = Observer(self.state)
        self.pass_action = self.state.index.pass_action
        self.action_space = spaces.Discrete(self.observer.actions)
        self.observation_space = spaces.Dict(
            {"observation": self.observer.space, "action_mask": self.observer.mask_space}
        )
        self.joint = joint
        self.joint_reward = float(joint_reward)
        self.joint_time_limit = float(joint_time_limit)
        if isinstance(joint_every, bool) or not isinstance(joint_every, int) or joint_every < 1:
            raise InputError(
                f"joint_every must be a whole number from 1, got {joint_every!r}"[:80],
                where="joint_every",
            )
        self.joint_every = joint_every
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.render_size = render_size
        self.to_move: int | None = self.in_play[0]
        self._mask = np.zeros(self.observer.actions, dtype=np.int8)
        self._joint_answer = ""

    # the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The empty board, the first colour in play to move (the game has no chance:
        ``seed`` only seeds :attr:`np_random`; ``options`` are not used).

        Returns:
            (observation, info); info: ``{"colour": the colour to move}``.
        """
        super().reset(seed=seed)
        while self.state.placed:
            self.state.undo()
        self._joint_answer = ""
        self.to_move = None
        self._turn_from(self.in_play[0])
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """The colour to move places placement number ``action``.

        Returns:
            (observation, reward, terminated, truncated, info): reward the piece's squares
            (the bonuses added at the end; ``joint_reward`` added where module docstring
            says); truncated is always False (an episode has at most 21 placements a
            colour); info ``{"colour": to move or None, "scores": final scores per colour
            in play (at the end), "illegal": True (an illegal action), "joint": the
            answer's reason (the step it became "no")}``.

        Raises:
            InputError: a step after the episode ended (reset first).
        """
        colour = self.to_move
        if colour is None:
            raise InputError("the episode has ended: call reset()")
        number = int(action)
        if not (0 <= number < self.pass_action and self.state.is_legal(colour, number)):
            self.to_move = None
            self._mask.fill(0)
            info = self._info()
            info["illegal"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self.state.play(colour, number, check=False)
        reward = float(self.state.index.size[number])
        n = len(self.in_play)
        k = self.in_play.index(colour)
        self.to_move = None
        self._turn_from(self.in_play[(k + 1) % n], after=colour)
        info = self._info()
        asked = self.joint is not None and self.state.placed % self.joint_every == 0
        if asked and self._joint_answer == "":
            reason = self._joint_no()
            if reason:
                self._joint_answer = reason
                reward += self.joint_reward
                info["joint"] = reason
        if self.to_move is None:
            scores = self.scores()
            info["scores"] = scores
            # the bonuses: each final score less the squares left unplaced
            left = arrays(self.state)[1]
            reward += sum(scores.values()) + int((left[list(self.in_play)] @ self._sizes).sum())
        return self._observation(), reward, self.to_move is None, False, info

    def _turn_from(self, first: int, after: int | None = None) -> None:
        """The next colour in play from ``first`` on (in turn order) with a legal
        placement; none: the episode is over (:attr:`to_move` None). The mask is kept."""
        n = len(self.in_play)
        k = self.in_play.index(first)
        for j in range(n):
            c = self.in_play[(k + j) % n]
            if self.state.has_move(c):
                self.to_move = c
                self._mask[-1] = 0
                self.state.mask(c, out=self._mask[:-1].view(np.bool_))
                return
        self._mask.fill(0)

    def _observation(self) -> dict[str, np.ndarray]:
        perspective = self.to_move if self.to_move is not None else self.in_play[0]
        return {"observation": self.observer.planes(perspective), "action_mask": self._mask.copy()}

    def _info(self) -> dict[str, Any]:
        to_move = None if self.to_move is None else self.state.colours[self.to_move]
        return {"colour": to_move}

    def _joint_no(self) -> str:
        """The reason the colours in play cannot all place every piece they have left
        (proven), or "" (yes or unknown)."""
        left = arrays(self.state)[1]
        stuck = [c for c in self.in_play if left[c].any() and not self.state.has_move(c)]
        if stuck:  # the move generator says so: free
            return f"{self.state.colours[stuck[0]]} has pieces left and no legal placement"
        names = tuple(self.state.colours[c] for c in self.in_play if left[c].any())
        if not names:
            return ""
        position = self.position()
        if self.joint == "area":
            return area_shortfall(position, names)
        options = SolveOptions(time_limit=self.joint_time_limit, workers=1)
        answer = joint_check(position, names, options)
        return answer.reason if answer.answer == "no" else ""

    # for agents and their frameworks

    def action_masks(self) -> np.ndarray:
        """The legal actions now, shape (P + 1,), bool (sb3-contrib's ``MaskablePPO``
        calls this; all False once the episode has ended)."""
        return self._mask.astype(np.bool_)

    def position(self) -> Position:
        """The position now, as a :class:`Position` (its scores, its pieces)."""
        return self.state.position()

    def scores(self) -> dict[str, int]:
        """Each colour in play's score now, as :meth:`Position.score` scores it (-1 per
        unplaced square; +15 once every piece is placed, +5 more with the monomino last;
        Junior: no bonus), read from the move generator's arrays (no Position built: the
        tests hold it to :meth:`Position.score`)."""
        left = arrays(self.state)[1]
        history = self.state.history()
        out: dict[str, int] = {}
        for c in self.in_play:
            score = -int(left[c] @ self._sizes)
            mine = [m for by, m in history if by == c]
            if self.start.bonus and score == 0 and mine:
                last = int(self.state.index.piece[mine[-1]])
                score += 15 + (5 if last == self._monomino else 0)
            out[self.state.colours[c]] = score
        return out

    def record(self, name: str | None = None) -> str:
        """The placements so far as a Pentobi game record (``.blksgf`` text) that
        ``blokus-solo`` and Pentobi read back (:func:`solver.agents.planes.record`)."""
        return record(self.state, name)

    def render(self) -> str | np.ndarray | None:
        """The board: text ("ansi"), an RGB array of shape (height, width, 3), uint8
        ("rgb_array"), or None with a warning when no render mode was chosen
        (:func:`solver.agents.planes.render`)."""
        return render(self.state, self.render_mode, self.to_move, self.render_size)


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (once; ``import solver.agents`` calls it)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:SoloEnv")
