"""What a solver is asked: a position, the colours it plays, the goal.

The rules on a goal and on monomino-last are checked here, once, for every reader (puzzle
files, solution files, the command line) and for problems built in code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, cast

from solver.errors import InputError, located
from solver.pieces import MONOMINO
from solver.position import Position

Goal = Literal["place-all", "max-score"]
GOALS: tuple[str, ...] = ("place-all", "max-score")


def check_goal(goal: str) -> Goal:
    """``goal`` as a :data:`Goal`. Raises InputError if it is none of :data:`GOALS`."""
    if goal not in GOALS:
        raise InputError(f"unknown goal {goal!r} (goals: {', '.join(GOALS)})"[:160])
    return cast(Goal, goal)


def check_monomino_last(goal: str, monomino_last: bool) -> None:
    """Raises InputError if monomino-last is asked with a goal other than place-all."""
    if monomino_last and goal != "place-all":
        raise InputError(
            "applies to goal place-all only (max-score counts the +5 bonus "
            "whenever the monomino can be last)"
        )


def check_monomino_left(position: Position, colours: Iterable[str]) -> None:
    """Monomino-last: raises InputError naming the first of ``colours`` that still has
    pieces to place but no monomino among them. A colour with nothing left to place is
    not refused here: its last piece is on the board, and the goal holds iff it is the
    monomino."""
    for colour in colours:
        state = position.colour(colour)
        if state.remaining and MONOMINO not in state.remaining:
            raise InputError(f"{colour} has no monomino left to place last")


@dataclass(frozen=True)
class Problem:
    """A solving task.

    Attributes:
        position: the position to start from; colours not in ``colours`` stay frozen.
        colours: the colours the solver places pieces for (each must have a start square or
            squares on the board).
        goal: "place-all" (every remaining piece of every played colour) or "max-score"
            (the layout with the highest total official score of the played colours).
        monomino_last: with "place-all", also require that each played colour can place its
            monomino last (it must be among its remaining pieces).
        name: where the problem came from (a file path), for messages.
        title: a human title (from a puzzle file), may be empty.

    Raises:
        InputError: an unknown goal (``where="goal"``), monomino-last with max-score or
            with a played colour that has no monomino left (``where="monomino-last"``), a
            played colour without a start square or squares (``where="colours"``).
    """

    position: Position
    colours: tuple[str, ...]
    goal: Goal = "place-all"
    monomino_last: bool = False
    name: str = ""
    title: str = ""

    def __post_init__(self) -> None:
        with located(where="goal"):
            check_goal(self.goal)
        with located(where="monomino-last"):
            check_monomino_last(self.goal, self.monomino_last)
            if self.monomino_last:
                check_monomino_left(self.position, self.colours)
        for c in self.colours:
            state = self.position.colour(c)
            if state.start is None and not state.squares:
                raise InputError(f"colour {c} has no start square", where="colours")
