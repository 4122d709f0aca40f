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
from itertools import combinations
from typing import TypedDict

import numpy as np

from solver.backends.base import SolveOptions
from solver.core.board import cell_word
from solver.core.checker import check_layout
from solver.core.pieces import family, squares_of
from solver.core.placements import reach
from solver.core.position import Position
from solver.core.problem import Answer, Problem
from solver.errors import SolverBug
from solver.tasks.solve import SolveResult, solve


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
        grid = self.place_all.problem.position.board.grid
        return squares_of((p.piece for p in self.best.layout.get(self.colour, [])), grid)


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
        colour: the colour to check. One with no pieces left answers "yes" at once (it has
            placed everything; nothing is solved: see :func:`finished`).
        options: backend and limits, applied to each of the two solves.
        name: where the position came from, for messages.
        deadline: a ``time.perf_counter()`` value: the max-score solve after a "no" gets
            only the time left until then (at most ``options.time_limit``), so that both
            solves together keep to one budget.

    Raises:
        SolverBug: the best layout scores more than the "no" allows (the solves disagree).
    """
    if not position.colour(colour).remaining:
        return finished(position, colour, name)
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
    best = solve(Problem(position, (colour,), "max-score", False, name=name), best_options(options))
    return EndgameAnswer(colour, "no", result, cap_after_no(best, position, colour))


#: how the search floods a reach in the best's proof after a "no"
#: (:attr:`solver.backends.tuning.SearchTuning.strong`): not again through the squares
#: live placements cover. A proof of the best visits every node whose bound beats it, and
#: the second flood costs more there than the nodes it saves: over the 334 "no"s of
#: benchmarks/endgame_checks.py the best's proofs took 11.4 s in all instead of 13.8 s,
#: the slowest 1.14 s instead of 2.37 s (docs/benchmarks.md, issue 35)
BEST_REACH = 0


def best_options(options: SolveOptions) -> SolveOptions:
    """``options`` for the max-score solve after a "no": the search's reach flooded as
    :data:`BEST_REACH` says (only the search reads it; the answer is the same)."""
    search = replace(options.tuning.search, strong=BEST_REACH)
    return replace(options, tuning=replace(options.tuning, search=search))


def no_bound(position: Position, colour: str) -> int:
    """The best score ``colour`` can reach once placing all its remaining pieces is proven
    impossible: -(size of its smallest remaining piece). At least that piece stays unplaced,
    and without every piece placed there is no +15 or +5 bonus."""
    size = family(position.board.grid).size
    return -min(size[p] for p in position.colour(colour).remaining)


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


@dataclass(frozen=True)
class JointAnswer:
    """The answer for several colours together ("can they all still place all their
    remaining pieces at once, the other colours frozen?").

    Attributes:
        colours: the colours checked together (each with pieces left).
        answer: "yes" (a layout for all of them, checked), "no" (proven), "unknown".
        alone: the place-all solve of each colour alone (others frozen), in order, up to
            the first that is not "solved" (a colour that cannot place its pieces alone
            cannot together with others: a proven "no" for it proves the joint "no");
            empty when the bound by area already answered "no".
        together: the joint place-all solve, or None when a colour alone already decided.
        reason: a short explanation of a "no" or "unknown".
    """

    colours: tuple[str, ...]
    answer: Answer
    alone: tuple[SolveResult, ...]
    together: SolveResult | None
    reason: str = ""

    @property
    def seconds(self) -> float:
        """Wall time of every solve, in seconds."""
        return sum(r.wall_time for r in self.alone) + (
            self.together.wall_time if self.together else 0.0
        )


def joint_check(
    position: Position,
    colours: tuple[str, ...],
    options: SolveOptions = SolveOptions(),
    name: str = "",
    deadline: float | None = None,
) -> JointAnswer:
    """Can ``colours`` all place all their remaining pieces at once, others frozen?

    First a bound by area (:func:`area_shortfall`, milliseconds: a proof when some of the
    colours need more squares than they can reach together). Then each colour alone
    (others frozen, the rest of ``colours`` included): if one cannot (proven), neither can
    they together, since a joint layout contains a layout of that colour alone. Otherwise
    one joint "place-all" solve of all of them (with the ``auto`` backend: the search,
    CP-SAT, the symmetric reduction where it applies, and the repair search, which only
    finds layouts). A "yes" comes with a layout the rule
    checker has accepted; "no" is a proof; "unknown" says nothing either way.

    Args:
        position: the position.
        colours: the colours to check; each must have pieces left.
        options: backend and limits, applied to each solve (a colour alone, then jointly).
        name: where the position came from, for messages.
        deadline: when the whole check must end (``time.monotonic()`` seconds), or None:
            each solve's time limit is then at most what is left of it (the web page's
            limit covers the whole answer).

    Raises:
        ValueError: no colour given, or one has no pieces left.
    """
    if not colours:
        raise ValueError("joint check of no colour")
    for c in colours:
        if not position.colour(c).remaining:
            raise ValueError(f"{c} has no pieces left")
    short = area_shortfall(position, colours)
    if short:
        return JointAnswer(colours, "no", (), None, short)
    alone: list[SolveResult] = []
    for c in colours:
        result = solve(
            Problem(position, (c,), "place-all", False, name=name), _until(options, deadline)
        )
        alone.append(result)
        if result.status == "infeasible":
            reason = f"{c} alone cannot place all its pieces (proven)"
            return JointAnswer(colours, "no", tuple(alone), None, reason)
    if len(colours) == 1:
        answer: Answer = "yes" if alone[0].status == "solved" else "unknown"
        reason = "" if answer == "yes" else "time limit"
        return JointAnswer(colours, answer, tuple(alone), alone[0], reason)
    together = solve(
        Problem(position, colours, "place-all", False, name=name), _until(options, deadline)
    )
    if together.status == "solved":
        return JointAnswer(colours, "yes", tuple(alone), together)
    if together.status == "infeasible":
        how = together.stats.get("reason")  # a backend's own line (the LP bound's), if any
        reason = "each fits alone, not all together" + (f"; {how}" if how else " (proven)")
        return JointAnswer(colours, "no", tuple(alone), together, reason)
    return JointAnswer(colours, "unknown", tuple(alone), together, "time limit")


def _until(options: SolveOptions, deadline: float | None) -> SolveOptions:
    """``options`` with a time limit no later than ``deadline`` (``time.monotonic()``)."""
    if deadline is None:
        return options
    left = max(0.05, deadline - time.monotonic())
    limit = left if options.time_limit is None else min(options.time_limit, left)
    return replace(options, time_limit=limit)


def finished(position: Position, colour: str, name: str = "") -> EndgameAnswer:
    """The answer for a colour that has no pieces left: "yes", with the empty layout (checked
    and scored by the rule checker like any other) and backend "none" (nothing was solved).

    Raises:
        ValueError: the colour still has pieces to place.
    """
    if position.colour(colour).remaining:
        raise ValueError(f"{colour} still has pieces to place")
    problem = Problem(position, (colour,), "place-all", False, name=name)
    report = check_layout(position, {colour: []})
    result = SolveResult(problem, "solved", {colour: []}, report, None, "none", 0.0, {})
    return EndgameAnswer(colour, "yes", result, None)


class EndgameRecord(TypedDict, total=False):
    """A colour's endgame answer as JSON (:func:`answer_record`; its keys are described
    there), the base of the results row's :class:`solver.trust.rows.ColourRecord`."""

    colour: str
    left: int
    squares_left: int
    answer: str  # yes / no / unknown
    place_all_status: str
    score: int | None
    best: int | None
    best_status: str | None
    bound: int | None
    seconds: float
    backend: str
    best_left: int | None
    fit: str | None


def answer_record(answer: EndgameAnswer) -> EndgameRecord:
    """The answer as a JSON-ready record: what ``check --out`` puts in each colour's
    solution file (key ``endgame``) and ``batch`` in each results line.

    Keys: ``colour``; ``left`` and ``squares_left`` (pieces and squares it still had to
    place); ``answer`` (yes / no / unknown); ``place_all_status`` (the place-all solve's
    status: solved / infeasible / unknown); ``score`` (after a yes: the score of the layout
    that places everything, else null); after a no, ``best`` (the best score found, null if
    the max-score solve found no layout), ``best_status`` (optimal: proven best; solved: a
    layout under the upper bound ``bound``; unknown) and ``bound``, else null;
    ``seconds`` (both solves) and ``backend`` (the backend(s) that answered, e.g.
    ``search`` or ``search, then cpsat`` for a no whose best came from another backend;
    ``none`` when nothing was solved); after an unknown, ``best_left`` (squares the best
    partial layout leaves) and ``fit`` (the best bound proved, in words).
    """
    state = answer.place_all.problem.position.colour(answer.colour)
    best = answer.best
    backend = answer.place_all.backend
    if best is not None and best.backend != backend:
        backend += f", then {best.backend}"
    report = answer.place_all.report
    record: EndgameRecord = {
        "colour": answer.colour,
        "left": len(state.remaining),
        "squares_left": state.remaining_squares,
        "answer": answer.answer,
        "place_all_status": answer.place_all.status,
        "score": report.report(answer.colour).score if answer.answer == "yes" and report else None,
        "best": best.score if best is not None else None,
        "best_status": best.status if best is not None else None,
        "bound": best.bound if best is not None else None,
        "seconds": round(answer.seconds, 4),
        "backend": backend,
    }
    _add_closeness(record, answer)
    return record


def _add_closeness(record: EndgameRecord, answer: EndgameAnswer) -> None:
    """After an unknown: ``best_left`` (the squares the best partial layout leaves the
    colour) and ``fit`` (the best bound proved, in words) added; nothing otherwise."""
    result = answer.place_all
    if answer.answer != "unknown" or result.partial_report is None:
        return
    left = result.partial_report.report(answer.colour).remaining
    record["best_left"] = squares_of(left, result.problem.position.board.grid)
    if result.fit is not None:
        record["fit"] = result.fit.text


def area_shortfall(position: Position, colours: tuple[str, ...]) -> str:
    """A proof by area that ``colours`` cannot all place their remaining pieces, or "".

    The squares a colour will still cover lie in its :func:`solver.core.placements.reach`, and
    two colours never cover the same square; so for every set S of the colours, the area
    of S's remaining pieces must fit in the union of their reaches. The smallest S that
    fails is named (a single colour is then a "no" for it alone).

    Returns:
        The reason (e.g. "blue and red need 82 squares, only 76 are within their reach"),
        or "" when every set fits.
    """
    reaches = {c: reach(position, c) for c in colours}
    cells = cell_word(position.board.grid) + "s"
    for size in range(1, len(colours) + 1):
        for group in combinations(colours, size):
            need = sum(position.colour(c).remaining_squares for c in group)
            room = int(np.logical_or.reduce([reaches[c] for c in group]).sum())
            if need > room:
                if size == 1:
                    return f"{group[0]} needs {need} {cells}, only {room} are within its reach"
                who = ", ".join(group[:-1]) + " and " + group[-1]
                return f"{who} need {need} {cells}, only {room} are within their reach"
    return ""
