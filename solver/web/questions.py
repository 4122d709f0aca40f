"""The page's questions, answered by the project's own API in a worker process.

Each function takes one kind of question of :mod:`solver.web.kinds` (the problem as it
stands: the position, the played colours, the goal) and a time limit in seconds (None: no
limit), and returns that kind's typed answer: ``answer`` ("yes", "no" or "unknown"; a
time-out is never "no"), ``seconds`` (wall time), ``text`` (one line for the page) and, for
a "yes" with a layout, ``layout`` (``(colour, piece, squares)`` rows in a legal order of
play, checked by the rule checker before it is returned). :func:`run` answers any kind;
:func:`solver.web.kinds.answer_json` turns the answer into the page's JSON.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from solver import api
from solver.answers.words import (
    closeness_lines,
    endgame_line,
    fit_line,
    joint_line,
    partial_line,
    plural,
)
from solver.backends.base import SolveOptions
from solver.companion.page import (
    HOW_WORDS,
    Known,
    fingerprint,
    follow_answer,
    followable,
    rows,
)
from solver.core.board import cell_word
from solver.core.checker import check_layout
from solver.core.position import Placement
from solver.core.problem import Answer, Problem
from solver.core.rules import move_problem
from solver.errors import InputError
from solver.tasks.endgame import joint_check
from solver.tasks.review import Loss, Review, setup_between
from solver.tasks.solve import SolveResult
from solver.web.kinds import (
    ColourAnswer,
    ColourQuestion,
    ColourReview,
    ErrorAnswer,
    HintAnswer,
    HintQuestion,
    JointAnswer,
    JointQuestion,
    LossMark,
    PageAnswer,
    PageQuestion,
    ReviewAnswer,
    ReviewQuestion,
    SolutionAnswer,
    SolutionQuestion,
)


def _checked(
    problem: Problem, layout: Mapping[str, Sequence[Placement]], goals: bool = False
) -> None:
    """Re-check a layout with the independent rule checker before the page sees it (a
    "yes" is always checked), with the card goals when ``goals``. Raises RuntimeError if
    the checker refuses it (a bug, never shown as an answer)."""
    cover, connect = (problem.cover, problem.connect) if goals else ((), ())
    report = check_layout(
        problem.position, {c: list(ps) for c, ps in layout.items()}, cover, connect
    )
    if not report.legal or report.unmet:
        raise RuntimeError(f"the rule checker refused the layout: {report.problem or report.unmet}")


def colour_question(question: ColourQuestion, time_limit: float | None) -> ColourAnswer:
    """ "Can this colour still place everything?" (:func:`solver.api.check`, as
    ``blokus-solo check --colour``): the others frozen; card goals are not asked.

    Raises:
        InputError: the colour cannot be asked about (e.g. nothing left to place)."""
    problem = question.problem
    answer = api.check(problem.position, question.colour, time_limit=time_limit)
    result = answer.place_all
    layout = result.layout if answer.answer == "yes" else None
    if layout:
        _checked(problem, layout)
    # the command line's line, its closing "[seconds]" naming the engine too (the tooltip)
    line = " ".join(endgame_line(answer).split()).rpartition(" [")[0]
    text = f"{line}  [{result.backend or 'no solver'}, {answer.seconds:.2f} s]"
    if problem.has_card_goals:
        extra = " (this asks whether the pieces fit; Hint and Show a solution follow the card)"
        text = before_engine(text, extra)
    return ColourAnswer(answer.answer, answer.seconds, text, rows(layout))


def joint_question(question: JointQuestion, time_limit: float | None) -> JointAnswer:
    """ "Can all colours still place everything?": with a follow request (the game
    followed move by move, an answer known earlier on the line of play), the solo
    companion (:func:`solver.companion.page.follow_answer`); else the joint check of every
    played colour with pieces left (:func:`solver.tasks.endgame.joint_check`, as ``blokus-solo
    check --together``). ``known`` in the answer: ``(key, Known)`` for the session to
    file (:mod:`solver.companion.page`), or None."""
    if question.follow is not None:
        return _companion_question(question, time_limit)
    problem = question.problem
    position = problem.position
    open_ = tuple(c for c in problem.colours if position.colour(c).remaining)
    if not open_:
        return JointAnswer("yes", 0.0, "every piece is placed")
    # the limit covers the whole check: each solve gets at most what is left of it
    deadline = None if time_limit is None else time.monotonic() + time_limit
    options = SolveOptions(time_limit=time_limit)
    answer = joint_check(position, open_, options, name=problem.name, deadline=deadline)
    together = answer.together
    layout = together.layout if answer.answer == "yes" and together is not None else None
    if layout:
        _checked(problem, layout)
    text = " ".join(joint_line(answer, position).split())
    # each colour alone (the joint check's first step): what an unknown leaves known
    alone = {c: _status_answer(r) for c, r in zip(answer.colours, answer.alone)}
    if answer.answer == "unknown" and alone:
        extra = "; each colour alone: " + ", ".join(f"{c} {a}" for c, a in alone.items())
        if answer.together is not None:
            extra += _closeness(answer.together)
        text = before_engine(text, extra)
    known = None
    if followable(problem) and answer.answer in ("yes", "no"):
        known = (fingerprint(position), Known(answer.answer, rows(layout), answer.reason))
    return JointAnswer(answer.answer, answer.seconds, text, rows(layout), alone=alone, known=known)


def _companion_question(question: JointQuestion, time_limit: float | None) -> JointAnswer:
    """The joint answer by the solo companion, carried from the nearest known answer;
    its text says how it was reached (kept, repaired, solved) and, in the closing
    bracket (the page's tooltip), the tiers tried."""
    request = question.follow
    assert request is not None  # (joint_question asks the companion only with one)
    problem = request.problem
    position = problem.position
    out = follow_answer(request, time_limit)
    answer, layout = out["answer"], out["layout"]
    if answer == "done":
        text = "every piece is placed"
    else:
        if layout:
            _checked(problem, layout)  # re-checked here too, as every "yes" of the page
        colours = [c.name for c in position.colours if c.remaining]
        pieces = sum(len(position.colour(c).remaining) for c in colours)
        squares = sum(position.colour(c).remaining_squares for c in colours)
        how = HOW_WORDS.get(out["how"], out["how"])
        cells = plural(squares, cell_word(position.board.grid))
        text = f"together ({', '.join(colours)}): {pieces} pieces ({squares} {cells}) left: "
        if answer == "yes":
            text += f"yes: all of them fit at once (layout checked; {how})"
        elif answer == "no":
            reason = out["reason"]
            if out["how"] == "inferred":
                reason += " (proven earlier on this line of play)"
            elif "proven" not in reason:
                reason += " (proven)"
            text += f"no: {reason}"
        else:  # what is short and the bound, as an unknown from scratch says them
            text += "time limit reached before an answer (not a no)"
            if out["short"] is not None:
                line = partial_line(out["pieces_left"], out["short"], position.board.grid)
                text += "; " + " ".join(line.split())
            bound = fit_line(out["fit"])
            if bound:
                text += "; " + " ".join(bound.split())
        moves = len(request.moves)
        since = {0: "this position", 1: "1 placement back"}.get(moves, f"{moves} placements back")
        tried = "; ".join(out["tried"]) or "nothing more"
        text += (
            f"  [companion from the answer {since}: {out['how']}, tried {tried}, "
            f"{out['seconds']:.2f} s]"
        )
    return JointAnswer(
        answer if answer != "done" else "yes",
        out["seconds"],
        text,
        rows(layout),
        how=out["how"],
        known=(request.key, out["known"]),
    )


def _closeness(result: SolveResult) -> str:
    """An unknown's best partial layout and best bound proved, if the solve kept them
    (:func:`solver.answers.words.closeness_lines`), as "; ..." clauses; else ""."""
    lines = closeness_lines(result, idle_bound=False)  # not "at most 356 of the 356"
    return "".join("; " + " ".join(line.split()) for line in lines)


def before_engine(text: str, extra: str) -> str:
    """``text`` with ``extra`` put before its closing "[engine, seconds]" (which the page
    shows as a tooltip), or at its end."""
    head, bracket, tail = text.rpartition(" [")
    return f"{head}{extra} [{tail}" if bracket and text.endswith("]") else text + extra


def _solve(problem: Problem, time_limit: float | None) -> SolveResult:
    """The problem as it stands, goals included (:func:`solver.api.solve`)."""
    return api.solve(problem, time_limit=time_limit)


def solution_question(question: SolutionQuestion, time_limit: float | None) -> SolutionAnswer:
    """ "Show a solution": a layout that completes the puzzle from here (its goal, cover
    and connect included), checked; or "no" (proven) or "unknown"."""
    problem = question.problem
    result = _solve(problem, time_limit)
    answer = _status_answer(result)
    layout = result.layout if answer == "yes" else None
    if layout:
        _checked(problem, layout, goals=True)
    text = {
        "yes": "a solution from here (drawn over the board, checked by the rule checker)",
        "no": "no solution from here (proven)",
        "unknown": "time limit reached before an answer (not a no)"
        + (_closeness(result) if answer == "unknown" else ""),
    }[answer]
    line = f"{text}  [{result.backend}, {result.wall_time:.2f} s]"
    return SolutionAnswer(answer, result.wall_time, line, rows(layout))


def hint_question(question: HintQuestion, time_limit: float | None) -> HintAnswer:
    """ "Hint": a legal next move that keeps a solution, the first move of a checked
    solution from here (every layout can be played starting with any of its pieces that
    touches the colour's pieces now: :mod:`solver.tasks.hints`). Prefers the question's
    colour."""
    problem = question.problem
    result = _solve(problem, time_limit)
    answer = _status_answer(result)
    if answer != "yes" or result.layout is None:
        text = (
            "no move leads to a solution from here (proven): undo"
            if answer == "no"
            else "time limit reached before a hint (not a no)" + _closeness(result)
        )
        text += f"  [{result.backend}, {result.wall_time:.2f} s]"
        return HintAnswer(answer, result.wall_time, text)
    _checked(problem, result.layout, goals=True)
    c, p = _first_move(problem, result.layout, question.colour)
    names = ",".join(problem.position.board.names(p.squares))
    text = (
        f"try {c} {p.piece} on {names}: it keeps a solution  "
        f"[{result.backend}, {result.wall_time:.2f} s]"
    )
    return HintAnswer("yes", result.wall_time, text, rows({c: [p]}))


def _first_move(
    problem: Problem, layout: Mapping[str, Sequence[Placement]], colour: str | None
) -> tuple[str, Placement]:
    """The first legal move of the layout, of ``colour`` if it has one there."""
    order = sorted(layout, key=lambda c: c != colour)
    for c in order:
        for p in layout[c]:
            if move_problem(problem.position, c, p) is None:
                return c, p
    raise RuntimeError("a checked layout with no legal first move")


def _status_answer(result: SolveResult) -> Answer:
    """A solve's :data:`~solver.backends.base.Status` as the page's answer word."""
    answers: dict[str, Answer] = {"solved": "yes", "optimal": "yes", "infeasible": "no"}
    return answers.get(result.status, "unknown")


def review_question(question: ReviewQuestion, time_limit: float | None) -> ReviewAnswer:
    """The review of a game record (:func:`solver.api.review`, as ``blokus-solo review``)
    for the viewer's chart: per colour, its answer after every placement ("yes", "no",
    "unknown", "done") and its losses, after which placement the +15 (``all``) and the
    +5 (``bonus``) were lost (``first``; ``exact`` false when time limits left the
    placements from ``last_possible + 1`` to ``first`` unknown)."""
    review = api.review(question.game, time_limit=time_limit)
    colours = {
        c: ColourReview(tuple(s.verdict(c).answer for s in review.steps)) for c in review.colours
    }
    for loss in review.losses():  # in order: the one that stands at the end is the last
        mark = LossMark(loss.first, loss.last_possible, loss.exact, loss.regained)
        line = colours[loss.colour]
        colours[loss.colour] = (
            replace(line, all=mark) if loss.what == "all" else replace(line, bonus=mark)
        )
    lost = [_loss_words(loss, review) for loss in review.losses()]
    text = "; ".join(lost) or "no colour lost a bonus"
    return ReviewAnswer(review.seconds, text, colours, len(review.steps) - 1)


def _loss_words(loss: Loss, review: Review) -> str:
    """One loss for the viewer's line, e.g. ``blue lost the +5 at placement 3 (given back
    by setup after placement 4)``."""
    text = f"{loss.colour} lost the {'+15' if loss.what == 'all' else '+5'} " + (
        f"at placement {loss.first}"
        if loss.exact or loss.last_possible is None
        else f"at one of placements {loss.last_possible + 1}-{loss.first}"
    )
    if loss.regained is None:
        return text
    back = setup_between(review.game, loss)
    if back is None:
        return text + f" (yes again after placement {loss.regained} without setup: disagree)"
    return text + f" (given back by setup after placement {back})"


def answer_question(question: PageQuestion, time_limit: float | None) -> PageAnswer:
    """The typed answer to one question of any kind (the function of its kind).

    Raises:
        InputError: bad input (e.g. a colour with nothing left)."""
    if isinstance(question, ColourQuestion):
        return colour_question(question, time_limit)
    if isinstance(question, JointQuestion):
        return joint_question(question, time_limit)
    if isinstance(question, HintQuestion):
        return hint_question(question, time_limit)
    if isinstance(question, SolutionQuestion):
        return solution_question(question, time_limit)
    return review_question(question, time_limit)


def run(question: PageQuestion, time_limit: float | None) -> PageAnswer:
    """Answer one question (what a worker runs), ``time_limit`` seconds for the solver
    (None: no limit). Bad input (e.g. a colour with nothing left) is an answer too: an
    :class:`~solver.web.kinds.ErrorAnswer` with the one-line message."""
    started = time.perf_counter()
    try:
        return answer_question(question, time_limit)
    except InputError as e:
        return ErrorAnswer(str(e), time.perf_counter() - started)
