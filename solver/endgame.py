"""The endgame check: can a colour still place all its remaining pieces from here?

The other colours' squares stay as they are (frozen). A "yes" comes with a layout that the
rule checker has accepted; a "no" is a proof (the backend's search space was exhausted);
"unknown" means the time limit ran out and says nothing either way. For a "no", a second
solve finds the best the colour can still do (goal max-score).

The bound after a "no". The scoring rules give, for a colour that cannot place all its
remaining pieces, score = -(squares left unplaced), with no +15 or +5 bonus (both need every
piece placed). A proven "no" means every legal layout leaves at least one remaining piece
unplaced, so every layout scores at most -(size of the smallest remaining piece). The
max-score solve does not know about the "no" (its own bound, when it is stopped by the time
limit, can be as weak as the score of placing everything, e.g. 0 in Junior), so its upper
bound is replaced by the smaller of the two (:func:`cap_after_no`); when the best layout found
reaches that bound, the best is proven: status "optimal". This is only done after a proven
"no", never after "unknown" (there the colour may still place everything).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Literal

from solver.pieces import PIECES
from solver.position import Position
from solver.problem import Problem
from solver.solve import SolveOptions, SolverBug, SolveResult, solve

Answer = Literal["yes", "no", "unknown"]


@dataclass(frozen=True)
class EndgameAnswer:
    """The answer for one colour.

    Attributes:
        colour: the colour checked.
        answer: "yes" (layout found and checked), "no" (proven), "unknown" (time limit).
        place_all: the place-all solve.
        best: for "no", the max-score solve (its status says whether the best is proven
            optimal or only a layout with an upper bound), its bound capped by the "no"
            (:func:`cap_after_no`); None otherwise.
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


def endgame_check(
    position: Position,
    colour: str,
    options: SolveOptions = SolveOptions(),
    name: str = "",
    deadline: float | None = None,
) -> EndgameAnswer:
    """Can ``colour`` place all its remaining pieces in ``position``, others frozen?

    Args:
        position: the position (from a game or a puzzle).
        colour: the colour to check; it must have pieces left.
        options: backend and limits, applied to each of the two solves.
        name: where the position came from, for messages.
        deadline: a ``time.perf_counter()`` value: the max-score solve after a "no" gets
            only the time left until then (at most ``options.time_limit``), so that both
            solves together keep to one budget.

    Raises:
        SolverBug: the best layout scores more than the "no" allows (the solves disagree).
    """
    problem = Problem(position, (colour,), "place-all", False, name=name)
    result = solve(problem, options)
    if result.status == "solved":
        return EndgameAnswer(colour, "yes", result, None)
    if result.status != "infeasible":
        return EndgameAnswer(colour, "unknown", result, None)
    if deadline is not None:
        left = max(0.0, deadline - time.perf_counter())
        limit = left if options.time_limit is None else min(left, options.time_limit)
        options = replace(options, time_limit=limit)
    best = solve(Problem(position, (colour,), "max-score", False, name=name), options)
    return EndgameAnswer(colour, "no", result, cap_after_no(best, position, colour))


def no_bound(position: Position, colour: str) -> int:
    """The best score ``colour`` can reach once placing all its remaining pieces is proven
    impossible: -(size of its smallest remaining piece). At least that piece stays unplaced,
    and without every piece placed there is no +15 or +5 bonus."""
    return -min(PIECES[p].size for p in position.colour(colour).remaining)


def cap_after_no(best: SolveResult, position: Position, colour: str) -> SolveResult:
    """The max-score result ``best`` for ``colour`` after a PROVEN "no" (place-all
    infeasible; never call this after "unknown"), with its upper bound lowered to
    :func:`no_bound` if that is smaller, and status "optimal" if its layout reaches the bound.

    Raises:
        SolverBug: the layout scores above :func:`no_bound` (it would place every piece, yet
            place-all was proven infeasible).
    """
    cap = no_bound(position, colour)
    bound = cap if best.bound is None else min(best.bound, cap)
    score = best.score
    if score is not None and score > cap:
        raise SolverBug(
            f"{best.backend}: max-score layout scores {score} for {colour}, but "
            f"place-all was proven infeasible (at most {cap})"
        )
    if best.status == "infeasible":  # not expected: the empty layout is always legal
        return best
    status = "optimal" if score is not None and score >= bound else best.status
    if (status, bound) == (best.status, best.bound):
        return best
    return replace(best, status=status, bound=bound)
