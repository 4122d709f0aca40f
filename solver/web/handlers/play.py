"""The game: its state, a placement, undo, redo, pass, the colour to move, the turn
order, hiding a shown solution, and the game viewer's steps and "play on from here".
Each answers with the new state (:func:`solver.web.context.state`)."""

from __future__ import annotations

from starlette.responses import JSONResponse, Response

from solver.errors import InputError
from solver.web.context import Call, state
from solver.web.session import from_here as session_from_here


def get_state(call: Call) -> Response:
    """``GET /api/state``: the page's state."""
    return state(call)


def place(call: Call) -> Response:
    """``POST /api/place`` ``{"colour", "cells": [[row, column], ...]}``: play a piece.
    A move the rules refuse is an answer (200, ``{"refused": the rule it breaks}``), not
    a failed request; malformed cells are (422)."""
    cells = call.data.get("cells")
    if not isinstance(cells, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c) for c in cells
    ):
        raise InputError("cells must be [row, column] pairs")
    try:
        call.session.place(str(call.data.get("colour")), [(r, c) for r, c in cells])
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
    call.session.select(str(call.data.get("colour")))
    return state(call)


def turn_order(call: Call) -> Response:
    """``POST /api/turn-order`` ``{"on"}``: whether the colours take turns."""
    call.session.turn_order = bool(call.data.get("on"))
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
    number = call.data.get("step")
    if not isinstance(number, int):
        raise InputError("step must be a number")
    session.step = max(0, min(number, session.game.num_placements))
    session.follow_turn()
    return state(call)


def from_here(call: Call) -> Response:
    """``POST /api/from-here``: a solo game from the game viewer's position."""
    if call.session.game is None:
        raise InputError("no game record is open")
    call.server.sessions.replace(call.token, session_from_here(call.session))
    return state(call)
