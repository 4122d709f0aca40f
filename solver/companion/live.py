"""A game in progress with the solo companion beside it (issue 32 item 7): the object the
Python API offers as ``blokus.Companion`` and the engine the page's pondering runs.

::

    import solver.api as blokus

    start = blokus.load("puzzles/classic-solo-84.toml").position
    game = blokus.Companion(start, time_limit=30)
    game.answer()                      # the empty board: "yes", from the opening book
    game.play("blue:a20,b20,b19,c19,c18")
    game.answer().how                  # "book", "pool", "repaired" or "solved"
    game.ponder(10, focus=blokus.Focus("yellow", "W"))  # think while the player thinks
    game.status("yellow", placement)  # "keeps", "loses" or "unknown"

Each answer is a :class:`solver.companion.follow.JointStep`: "yes" with a layout the rule
checker accepted against the position it answers, "no" (proven), "unknown" (with its best
partial layout, the short colours and the best bound proved) or "done". The pool of
verified layouts (:class:`solver.companion.pool.Pool`) grows while it ponders
(:mod:`solver.companion.ponder`), so that the player's next move is answered at once
when some layout contains it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from solver.backends.base import DEFAULT_TIME_LIMIT, Cancel, SolveOptions
from solver.companion.follow import Follower, JointStep
from solver.companion.ponder import Focus, Pondered, ponder
from solver.companion.pool import Pool, pool_of
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.rules import move_problem
from solver.errors import InputError
from solver.formats.game import GameMove
from solver.formats.sgf import Location
from solver.ranges import SECONDS, SEED
from solver.tasks.hints import play

__all__ = ["Companion", "Focus"]


class Companion:
    """A game in progress: the position, the moves played, and what the companion knows
    (the pool of verified layouts of the position, a proven "no").

    Args:
        position: the position to start from (a :class:`Position`, or a
            :class:`Problem`: its position).
        time_limit: the budget of each answer, in seconds (None: no limit).
        seed: the random seed of the searches.
        book: answer the positions the opening book covers from it.
        name: what the answers are about, for messages.
        known: layouts of ``position`` known already (e.g. the rest of a game record):
            those the rule checker accepts there start the pool.

    Raises:
        InputError: ``time_limit`` or ``seed`` out of the command line's ranges
            (:mod:`solver.ranges`: a finite number 0 or more; a whole number from 0 to
            2^31 - 1), before any work; ``where`` names the argument.
    """

    def __init__(
        self,
        position: Position | Problem,
        *,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        seed: int = 0,
        book: bool = True,
        name: str = "game",
        known: Sequence[Mapping[str, Sequence[Placement]]] = (),
    ) -> None:
        options = SolveOptions(time_limit=SECONDS.optional(time_limit), seed=int(SEED.check(seed)))
        self.position = position.position if isinstance(position, Problem) else position
        self.moves: list[tuple[str, Placement]] = []
        self._follower = Follower(options, name, book=book)
        if known:
            pool = pool_of(self.position, known, "known")
            if len(pool):
                self._follower.pool = pool
                self._follower.witness = {c: list(v) for c, v in pool.layouts[0].items()}
        self._answer: JointStep | None = None
        self._unanswered: tuple[str, Placement] | None = None

    @property
    def pool(self) -> Pool | None:
        """The verified layouts known for the position (None before the first answer,
        or when no layout is known)."""
        return self._follower.pool if self._unanswered is None else None

    @property
    def to_move(self) -> str | None:
        """The colour to move (``position.to_move``): after a move, the next colour in
        turn order with pieces left; None when every colour is done."""
        return self.position.to_move

    def play(self, move: str | Placement, colour: str | None = None) -> Placement:
        """Play a move: ``"red:c4,c5,d5,d6"`` (a piece by its squares, after its colour),
        or a :class:`Placement` with ``colour``. Cheap: the companion carries what it knows
        over the move (the layouts of the pool that contain it); :meth:`answer` answers.

        Returns:
            The placement played.

        Raises:
            InputError: a move the rules refuse (one line naming the rule), an unknown
                colour or squares that form no piece.
        """
        if isinstance(move, str):
            problem = Problem(self.position, self.position.colour_names, "place-all")
            after = play(problem, [move], label="move")
            colour = next(
                c.name
                for c, d in zip(self.position.colours, after.position.colours)
                if len(c.placed) != len(d.placed)
            )
            placement = after.position.colour(colour).placed[-1]
        else:
            if colour is None:
                raise InputError("a placement needs its colour")
            placement = move
            problem_text = move_problem(self.position, colour, placement)
            if problem_text:
                raise InputError(problem_text)
        if self._unanswered is not None:  # the move before was not asked about: carried
            self._follower.advance(*self._unanswered, self.position)
        moved = self.position.with_placement(colour, placement)
        self.position = replace(moved, to_move=_next_colour(moved, colour))
        self.moves.append((colour, placement))
        self._unanswered = (colour, placement)
        self._answer = None
        return placement

    def answer(self, time_limit: float | None = None) -> JointStep:
        """Can every colour with pieces left still place all of them? Answered at once
        from the pool (or the book) when a layout there contains the last move; else by
        the repairs and the full solvers within ``time_limit`` seconds (default: the
        companion's). Asked again in the same position, the same answer. "done" once no
        colour has pieces left (docs/companion.md), whatever the pool holds.

        Raises:
            InputError: ``time_limit`` out of range (as the constructor's), before any work.
        """
        seconds = SECONDS.optional(time_limit)
        if self._answer is not None:
            return self._answer
        follower = self._follower
        saved = follower.options
        if seconds is not None:
            follower.options = SolveOptions(
                time_limit=seconds, seed=saved.seed, backend=saved.backend
            )
        try:
            k = len(self.moves)
            if self._unanswered is not None:  # "done" at the end (Follower.step)
                colour, placement = self._unanswered
                move = GameMove(k, colour, placement, Location(0, 0))
                step = follower.step(k, move, self.position)
            else:
                step = follower.check(k, None, self.position, 0)
        finally:
            follower.options = saved
        self._unanswered = None
        self._answer = step
        return step

    def ponder(
        self,
        seconds: float,
        focus: Focus | Callable[[], Focus | None] | None = None,
        stop: Cancel | None = None,
    ) -> Pondered:
        """Think for ``seconds`` on what the player may play next: first an answer for
        the position if none is known yet (within the time), then the candidate moves of
        the colour to move (``focus``: the colour, piece and placement the player looks
        at, or a callable asked again before each candidate; see
        :func:`solver.companion.ponder.ponder`). Stops early when ``stop`` is set.

        Raises:
            InputError: ``seconds`` is not a finite number 0 or more (the range of a time
                limit), before any work.
        """
        seconds = float(_PONDER_SECONDS.check(seconds))
        started = time.perf_counter()
        if self._answer is None:
            self.answer(time_limit=max(0.05, seconds))
        left = seconds - (time.perf_counter() - started)
        pool = self.pool
        now = focus() if callable(focus) else focus
        colour = (now.colour if now is not None else None) or self.to_move
        if pool is None or not len(pool) or colour is None or left <= 0:
            return Pondered(seconds=time.perf_counter() - started)
        seed = self._follower.options.seed + 1000 * len(self.moves)
        report = ponder(pool, colour, left, focus, stop, seed)
        report.seconds = time.perf_counter() - started
        return report

    def status(self, colour: str, placement: Placement) -> str:
        """What is known of a move of ``colour`` from the position: "keeps" (a verified
        layout contains it: every colour can still place everything after it), "loses"
        (proven: the move, or the position itself, loses every layout) or "unknown"."""
        if self._answer is not None and self._answer.answer == "no":
            return "loses"
        pool = self.pool
        return "unknown" if pool is None else pool.status(colour, placement)

    def hint(self, colour: str | None = None) -> tuple[str, Placement] | None:
        """A legal next move that keeps every piece placeable (from a verified layout of
        the pool), of ``colour`` when it has one; None when no layout is known."""
        pool = self.pool
        if pool is None:
            return None
        order = [colour] if colour else []
        order += [c for c in self.position.colour_names if c != colour]
        for c in order:
            for layout in pool.layouts:
                for p in layout.get(c, ()):
                    if move_problem(self.position, c, p) is None:
                        return c, p
        return None


#: ``ponder(seconds)``: a time limit by another name
_PONDER_SECONDS = SECONDS.named("seconds")


def _next_colour(position: Position, moved: str) -> str | None:
    """The colour after ``moved`` in turn order that has pieces left (``moved`` itself
    when it is the only one), or None."""
    names = list(position.colour_names)
    k = names.index(moved) + 1
    for name in names[k:] + names[:k]:
        if position.colour(name).remaining:
            return name
    return None
