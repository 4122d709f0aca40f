"""The endgame check: can a colour still place all its remaining pieces from here?

The other colours' squares stay as they are (frozen). A "yes" comes with a layout that the
rule checker has accepted; a "no" is a proof (the backend's search space was exhausted);
"unknown" means the time limit ran out and says nothing either way. For a "no", a second
solve finds the best the colour can still do (goal max-score).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .pieces import PIECES
from .position import Position
from .problem import Problem
from .solve import SolveOptions, SolveResult, solve

Answer = Literal["yes", "no", "unknown"]


@dataclass(frozen=True)
class EndgameAnswer:
    """The answer for one colour.

    Attributes:
        colour: the colour checked.
        answer: "yes" (layout found and checked), "no" (proven), "unknown" (time limit).
        place_all: the place-all solve.
        best: for "no", the max-score solve (its status says whether the best is proven
            optimal or only a layout with an upper bound); None otherwise.
    """

    colour: str
    answer: Answer
    place_all: SolveResult
    best: SolveResult | None

    @property
    def seconds(self) -> float:
        """Wall time of both solves, in seconds."""
        return self.place_all.wall_time + (self.best.wall_time if self.best else 0.0)

    @property
    def best_squares(self) -> int | None:
        """Squares the best layout places (for "no"), or None."""
        if self.best is None or self.best.layout is None:
            return None
        return sum(PIECES[p.piece].size for p in self.best.layout.get(self.colour, []))


def endgame_check(position: Position, colour: str, options: SolveOptions = SolveOptions(),
                  name: str = "") -> EndgameAnswer:
    """Can ``colour`` place all its remaining pieces in ``position``, others frozen?

    Args:
        position: the position (from a game or a puzzle).
        colour: the colour to check; it must have pieces left.
        options: backend and limits, applied to each of the two solves.
        name: where the position came from, for messages.
    """
    problem = Problem(position, (colour,), "place-all", False, name=name)
    result = solve(problem, options)
    if result.status == "solved":
        return EndgameAnswer(colour, "yes", result, None)
    if result.status != "infeasible":
        return EndgameAnswer(colour, "unknown", result, None)
    best = solve(Problem(position, (colour,), "max-score", False, name=name), options)
    return EndgameAnswer(colour, "no", result, best)
