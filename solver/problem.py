"""What a solver is asked: a position, the colours it plays, the goal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.errors import InputError
from solver.position import Position

Goal = Literal["place-all", "max-score"]
GOALS: tuple[str, ...] = ("place-all", "max-score")


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
    """

    position: Position
    colours: tuple[str, ...]
    goal: Goal = "place-all"
    monomino_last: bool = False
    name: str = ""
    title: str = ""

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise InputError(f"unknown goal {self.goal!r} (goals: {', '.join(GOALS)})")
        for c in self.colours:
            state = self.position.colour(c)
            if state.start is None and not state.squares:
                raise InputError(f"colour {c} has no start square")
