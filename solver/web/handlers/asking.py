"""Questions: asked (a job in a worker process), polled, cancelled; a page that closes
stops its solves."""

from __future__ import annotations

import contextlib

from starlette.responses import JSONResponse, Response

from solver.companion.page import FollowRequest
from solver.errors import InputError
from solver.web.bodies import seconds, text
from solver.web.context import Call, error
from solver.web.jobs import Busy
from solver.web.kinds import (
    KINDS,
    ColourQuestion,
    HintQuestion,
    JointQuestion,
    PageQuestion,
    ReviewQuestion,
    SolutionQuestion,
)
from solver.web.session import Session

#: the longest time limit a question may ask for, in seconds
MAX_TIME_LIMIT = 3600.0
#: seconds per check of a game review from the page
REVIEW_TIME_LIMIT = 2.0


def ask(call: Call) -> Response:
    """``POST /api/ask`` ``{"kind", "colour"?, "time_limit"?}``: start a question;
    ``{"job": id}``, or 429 when every worker slot is taken. ``colour`` defaults to the
    colour to move; ``time_limit`` is seconds in (0, 3600] or null (none)."""
    data, session = call.data, call.session
    kind = text(data, "kind", "")
    if kind not in KINDS:
        raise InputError(f"unknown question {kind!r} ({', '.join(KINDS)})")
    limit = seconds(data, "time_limit", MAX_TIME_LIMIT)
    colour = text(data, "colour", session.selected)  # the colour to move by default
    if colour is not None:  # a name, a letter, an id (B: purple in Duo), as --colour
        colour = session.played(colour)
    if kind == "colour" and colour is None:
        raise InputError("no colour to move")
    call.server.pondering.collect(call.server.sessions.find)  # what pondering found, filed
    call.server.pondering.make_room(call.token)  # real questions come first
    question = _question(kind, session, colour)
    if isinstance(question, ReviewQuestion):
        limit = REVIEW_TIME_LIMIT
    try:
        job = call.server.jobs.start(call.token, question, limit)
    except Busy as e:
        return error(str(e), 429)
    return JSONResponse({"job": job})


def _question(kind: str, session: Session, colour: str | None) -> PageQuestion:
    """The question of this kind (one of :data:`~solver.web.kinds.KINDS`) about the
    session's position as it stands, or its game record for "review"; a joint question
    carries the companion's request when an answer is known on the line of play
    (:meth:`~solver.web.session.Session.joint_request`).

    Raises:
        InputError: no colour to ask about, or no game record to review."""
    problem = session.problem
    if kind == "colour":
        if colour is None:
            raise InputError("no colour to move")
        return ColourQuestion(problem, colour)
    if kind == "joint":
        request = session.joint_request()
        if isinstance(request, FollowRequest):
            return JointQuestion(request.problem, request)
        return JointQuestion(request)
    if kind == "hint":
        return HintQuestion(problem, colour)
    if kind == "solution":
        return SolutionQuestion(problem)
    if session.game is None:
        raise InputError("no game record is open")
    return ReviewQuestion(session.game)


def poll(call: Call) -> Response:
    """``GET /api/job/{job}``: the job's state (running, or done with its answer; 404
    for a job of another page or one forgotten). A finished answer is filed in the
    session: the companion's knowledge, the review chart, a solution to draw."""
    try:
        out = call.server.jobs.poll(call.token, call.params["job"])
    except KeyError:
        return error("no such question (it was cancelled or forgotten)", 404)
    session = call.session
    result = out.get("result") or {}
    known = result.pop("known", None)  # the companion's state: filed, not sent
    if known:
        session.learn(*known)
    if result.get("kind") == "review" and session.game is not None:
        session.review = result["review"]
    elif result.get("answer") == "yes" and result.get("layout") and result.get("shows"):
        session.shown = result["layout"]
    return JSONResponse(out)


def cancel(call: Call) -> Response:
    """``POST /api/job/{job}/cancel``: stop a job of this page (another page's: nothing)."""
    with contextlib.suppress(KeyError):
        call.server.jobs.cancel(call.token, call.params["job"])
    return JSONResponse({"cancelled": True})


def close(call: Call) -> Response:
    """``POST /api/close``: the page is closing: stop its solves (how many ran) and
    forget its session (the page keeps its game in the browser)."""
    cancelled = call.server.jobs.cancel_owner(call.token)
    call.server.sessions.drop(call.token)  # its pondering stops too (the store's on_drop)
    return JSONResponse({"cancelled": cancelled})
