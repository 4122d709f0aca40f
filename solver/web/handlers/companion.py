"""The solo companion's routes (issue 32 items 4, 6): what the player looks at, sent to the
session's ponder job (:mod:`solver.web.pondering`), and the marks of a piece's legal
placements (what is known of each)."""

from __future__ import annotations

from starlette.responses import JSONResponse, Response

from solver.web.context import Call
from solver.web.pondering import focus_of
from solver.web.pondering import marks as marks_of


def focus(call: Call) -> Response:
    """``POST /api/focus`` ``{"colour", "piece", "cells"}``: the piece in the player's
    hand and the placement under the mouse (``cells``: [row, column] pairs, or none).
    Anything that is not a legal piece or placement is dropped, not refused (the mouse may
    be anywhere): ``{"ok": true}``."""
    call.server.pondering.focus(call.token, focus_of(dict(call.data), call.session))
    return JSONResponse({"ok": True})


def marks(call: Call) -> Response:
    """``GET /api/marks?colour=C&piece=P``: each legal placement of the piece with what is
    known of it, "keeps", "loses" (proven) or "unknown"
    (:func:`solver.web.pondering.marks`)."""
    call.server.pondering.collect(call.server.sessions.find)
    session = call.session
    colour = call.params.get("colour") or session.selected
    return JSONResponse(marks_of(session, colour, call.params.get("piece")))
