"""The page's questions and their answers, typed: one frozen dataclass per kind of question
(what the server sends a worker), one per kind of answer (what the worker sends back), and
:func:`answer_json`, the one place an answer becomes the JSON the page receives.

The kinds (:data:`KINDS`, the ``kind`` of ``POST /api/ask``):

* :class:`ColourQuestion` -> :class:`ColourAnswer`: "Can this colour still place
  everything?"
* :class:`JointQuestion` -> :class:`JointAnswer`: "Can all colours still place
  everything?" (from scratch, or by the solo companion when the session knows an answer
  on the line of play)
* :class:`HintQuestion` -> :class:`HintAnswer`: "Hint"
* :class:`SolutionQuestion` -> :class:`SolutionAnswer`: "Show a solution"
* :class:`ReviewQuestion` -> :class:`ReviewAnswer`: "Review of the game"

Bad input (e.g. a colour with nothing left) answers any of them with an
:class:`ErrorAnswer`. :mod:`solver.web.questions` answers them in a worker process; this
module loads no solver, so the server builds questions and reads answers without loading
one (it loads neither :mod:`solver.api`, OR-tools nor numba).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from solver.companion.page import FollowRequest, Known, Rows
from solver.core.problem import Answer, Problem, StepAnswer
from solver.formats.game import Game


@dataclass(frozen=True)
class ColourQuestion:
    """ "Can this colour still place everything?": the others frozen, card goals not asked.

    Attributes:
        problem: the problem as it stands.
        colour: the colour asked about (a played colour's name).
    """

    kind: ClassVar[str] = "colour"
    problem: Problem
    colour: str


@dataclass(frozen=True)
class JointQuestion:
    """ "Can all colours still place everything?" (every played colour with pieces left).

    Attributes:
        problem: the problem as it stands.
        follow: the solo companion's request when the session knows an answer on the line
            of play (:func:`solver.companion.page.follow_request`; its ``problem`` is
            ``problem``), else None: the joint check from scratch.
    """

    kind: ClassVar[str] = "joint"
    problem: Problem
    follow: FollowRequest | None = None


@dataclass(frozen=True)
class HintQuestion:
    """ "Hint": a legal next move that keeps a solution (card goals included).

    Attributes:
        problem: the problem as it stands.
        colour: the colour whose move is preferred (None: any colour's).
    """

    kind: ClassVar[str] = "hint"
    problem: Problem
    colour: str | None = None


@dataclass(frozen=True)
class SolutionQuestion:
    """ "Show a solution": a layout that completes the puzzle from here, goals included.

    Attributes:
        problem: the problem as it stands.
    """

    kind: ClassVar[str] = "solution"
    problem: Problem


@dataclass(frozen=True)
class ReviewQuestion:
    """ "Review of the game": each colour's answer after every placement of a game record,
    and where it lost its bonuses.

    Attributes:
        game: the game record open in the game viewer.
    """

    kind: ClassVar[str] = "review"
    game: Game


#: a question of the page, of any kind
PageQuestion = ColourQuestion | JointQuestion | HintQuestion | SolutionQuestion | ReviewQuestion

#: the kinds of question, by their name in ``POST /api/ask`` (``PageQuestion.kind``)
KINDS: tuple[str, ...] = tuple(
    q.kind for q in (ColourQuestion, JointQuestion, HintQuestion, SolutionQuestion, ReviewQuestion)
)


@dataclass(frozen=True)
class LayoutAnswer:
    """What the answers with a layout share (colour, joint, hint, solution).

    Attributes:
        answer: an :data:`~solver.core.problem.Answer`: "yes", "no" (proven) or "unknown"
            (a time-out is never "no").
        seconds: the solver's wall time.
        text: one line for the page, most ending in "[engine, seconds]" (its tooltip).
        layout: for a "yes", ``(colour, piece, squares)`` rows in a legal order of play,
            checked by the rule checker; else empty.
    """

    answer: Answer
    seconds: float
    text: str
    layout: Rows = ()


@dataclass(frozen=True)
class ColourAnswer(LayoutAnswer):
    """The answer to a :class:`ColourQuestion`: its ``layout`` places the colour's pieces
    left, card goals ignored (so the page does not draw it)."""


@dataclass(frozen=True)
class JointAnswer(LayoutAnswer):
    """The answer to a :class:`JointQuestion`: its ``layout`` places every piece left.

    Attributes:
        how: the companion's answers only: how it came about (a
            :data:`solver.companion.follow.How`); None from scratch.
        alone: from scratch with pieces left: each colour alone's answer ("yes", "no",
            "unknown"), colour by colour; None otherwise.
        known: what the session files (``(fingerprint, Known)``:
            :meth:`solver.web.session.Session.learn`), never sent to the page; or None.
    """

    how: str | None = None
    alone: Mapping[str, Answer] | None = None
    known: tuple[str, Known] | None = None


@dataclass(frozen=True)
class HintAnswer(LayoutAnswer):
    """The answer to a :class:`HintQuestion`: for a "yes", ``layout`` is the one move
    (one row), drawn by the page; "no" is proven (no move keeps a solution)."""


@dataclass(frozen=True)
class SolutionAnswer(LayoutAnswer):
    """The answer to a :class:`SolutionQuestion`: for a "yes", ``layout`` completes the
    puzzle, goals included, drawn by the page."""


@dataclass(frozen=True)
class LossMark:
    """Where a colour lost a chance, for the review chart (:class:`solver.tasks.review.Loss`).

    Attributes:
        first: the first placement after which it is proven gone (0: the start).
        last_possible: the last placement before ``first`` after which it was proven
            possible, or None.
        exact: whether placement ``first`` is known to be the one that lost it.
        regained: the placement after which setup gave it back, or None.
    """

    first: int
    last_possible: int | None
    exact: bool
    regained: int | None


@dataclass(frozen=True)
class ColourReview:
    """One colour's line of the review chart.

    Attributes:
        answers: its answer after each placement, from the start (a
            :data:`~solver.core.problem.StepAnswer`: "yes", "no", "unknown", "done").
        all: where it lost the +15 (placing all its pieces), or None.
        bonus: where it lost the +5 (the monomino last), or None.
    """

    answers: tuple[StepAnswer, ...]
    all: LossMark | None = None
    bonus: LossMark | None = None


@dataclass(frozen=True)
class ReviewAnswer:
    """The answer to a :class:`ReviewQuestion` (its ``answer`` is always "done").

    Attributes:
        seconds: the review's wall time.
        text: one line: the losses, or that no colour lost a bonus.
        colours: each played colour's line of the chart, by name.
        placements: the game record's placements.
    """

    seconds: float
    text: str
    colours: Mapping[str, ColourReview] = field(default_factory=dict)
    placements: int = 0


@dataclass(frozen=True)
class ErrorAnswer:
    """Bad input, or a bug, instead of an answer.

    Attributes:
        text: the one-line message.
        seconds: the wall time until it, or None (a bug).
    """

    text: str
    seconds: float | None = None


#: an answer of the page, of any kind
PageAnswer = ColourAnswer | JointAnswer | HintAnswer | SolutionAnswer | ReviewAnswer | ErrorAnswer


def _rows_json(rows: Rows) -> list[list[object]]:
    """Layout rows as the page's ``[colour, piece, [squares]]`` lists."""
    return [[c, p, list(squares)] for c, p, squares in rows]


def _loss_json(mark: LossMark | None) -> dict[str, object] | None:
    if mark is None:
        return None
    return {
        "first": mark.first,
        "last_possible": mark.last_possible,
        "exact": mark.exact,
        "regained": mark.regained,
    }


def answer_json(answer: PageAnswer) -> dict[str, object]:
    """The JSON object the page receives for ``answer`` (``result`` of ``GET /api/job``,
    before the job adds its own ``seconds``): ``answer``, ``seconds``, ``text``,
    ``layout`` (``[colour, piece, [squares]]`` rows) and ``shows`` (whether the page draws
    the layout: a hint's and a solution's); a joint answer adds ``how`` (the companion's)
    or ``alone``; a review is ``{"answer": "done", "kind": "review", "seconds", "text",
    "review": {"colours": {colour: {"answers", "all", "bonus"}}, "placements"}, "shows":
    false}``; an error is ``answer`` "error", ``seconds`` and ``text`` only. A joint
    answer's ``known`` is not JSON and not part of it."""
    if isinstance(answer, ErrorAnswer):
        return {"answer": "error", "seconds": answer.seconds, "text": answer.text}
    if isinstance(answer, ReviewAnswer):
        colours = {
            c: {
                "answers": list(r.answers),
                "all": _loss_json(r.all),
                "bonus": _loss_json(r.bonus),
            }
            for c, r in answer.colours.items()
        }
        return {
            "answer": "done",
            "kind": "review",
            "seconds": answer.seconds,
            "text": answer.text,
            "review": {"colours": colours, "placements": answer.placements},
            "shows": False,
        }
    out: dict[str, object] = {"answer": answer.answer}
    if isinstance(answer, JointAnswer) and answer.how is not None:
        out["how"] = answer.how
    out.update(seconds=answer.seconds, text=answer.text, layout=_rows_json(answer.layout))
    if isinstance(answer, JointAnswer) and answer.alone is not None:
        out["alone"] = dict(answer.alone)
    out["shows"] = isinstance(answer, (HintAnswer, SolutionAnswer))
    return out
