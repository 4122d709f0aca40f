"""The game: its state, a placement, undo, redo, pass, the colour to move, the turn
order, hiding a shown solution, the game viewer's steps and "play on from here", and a
game kept in the browser restored.
Each answers with the new state (:func:`solver.web.context.state`)."""

from __future__ import annotations

from starlette.responses import JSONResponse, Response

from solver.errors import InputError
from solver.web.bodies import cells, flag, integer, numbers, text
from solver.web.context import Call, state
from solver.web.session import from_here as session_from_here
from solver.web.snapshot import restored


def get_state(call: Call) -> Response:
    """``GET /api/state``: the page's state."""
    return state(call)


def place(call: Call) -> Response:
    """``POST /api/place`` ``{"colour", "cells": [[row, column], ...]}`` or ``{"colour",
    "squares": [cell number, ...]}`` (what the page sends on a board that is not of
    squares, Trigon): play a piece. A move the rules refuse is an answer (200,
    ``{"refused": the rule it breaks}``), not a failed request; malformed cells are (422)."""
    colour = text(call.data, "colour", "") or ""
    squares = numbers(call.data, "squares") if "squares" in call.data else None
    pairs = cells(call.data, "cells") if squares is None else []
    try:
        if squares is not None:
            call.session.place_squares(colour, squares)
        else:
            call.session.place(colour, pairs)
    except InputError as e:
        return JSONResponse({"refused": str(e)})
    return state(call)


def undo(call: Call) -> Response:
    """``POST /api/undo``: take back the last move."""
    call.session.undo()
    return state(call)


def redo(call: Call) -> Response:
    """``POST /api/redo``: play again the last move taken back."""
    call.session.redo()
    return state(call)


def pass_turn(call: Call) -> Response:
    """``POST /api/pass``: the colour to move passes."""
    call.session.pass_turn()
    return state(call)


def select(call: Call) -> Response:
    """``POST /api/select`` ``{"colour"}``: pick the colour to move (422 if not played)."""
    call.session.select(text(call.data, "colour", "") or "")
    return state(call)


def turn_order(call: Call) -> Response:
    """``POST /api/turn-order`` ``{"on"}``: whether the colours take turns."""
    call.session.turn_order = flag(call.data, "on")
    return state(call)


def hide(call: Call) -> Response:
    """``POST /api/hide``: stop drawing a shown solution."""
    call.session.shown = None
    return state(call)


def step(call: Call) -> Response:
    """``POST /api/step`` ``{"step"}``: the game viewer shows the position after that
    many placements (clamped to the game)."""
    session = call.session
    if session.game is None:
        raise InputError("no game record is open")
    number = integer(call.data, "step")
    session.step = max(0, min(number, session.game.num_placements))
    session.follow_turn()
    return state(call)


def restore(call: Call) -> Response:
    """``POST /api/restore`` ``{"snapshot": {...}}``: the game the page kept in the
    browser, played again (after a reload or a server restart; an upload's file is sent
    again first, :func:`solver.web.handlers.files.upload`); 422 with one line if the
    snapshot cannot be played here (:func:`solver.web.snapshot.restored`)."""
    kept = call.data.get("snapshot")
    if not isinstance(kept, dict):
        raise InputError("snapshot must be an object")
    session = restored(kept, call.session, call.server.entries)
    call.server.jobs.cancel_owner(call.token)
    call.server.sessions.replace(call.token, session)
    return state(call)


def from_here(call: Call) -> Response:
    """``POST /api/from-here``: a solo game from the game viewer's position."""
    if call.session.game is None:
        raise InputError("no game record is open")
    call.server.sessions.replace(call.token, session_from_here(call.session))
    return state(call)
