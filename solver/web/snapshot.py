"""A game kept in the browser: the page stores a snapshot of its session (JSON, in the
browser's ``localStorage``) after every change, and after a reload (F5) or a server
restart sends it back to be played again (:func:`restored`), so that no game in
progress is lost with the server's memory.

The snapshot holds what the game was built from and the moves, never a position: each
move is played again through the rules, so a snapshot edited by hand can at worst be
refused (one line), never put an illegal position on the board.

Keys: ``version`` (1); ``source`` (the label of what was opened); ``opened`` (its
catalogue id, or null for an upload: the page sends the file again first); ``from_step``
(the placements of the game record shown when "play on from here" was chosen, or null);
``step`` (the game viewer's placements shown, or null); ``moves`` (``[colour, squares]``
per placement, ``[colour, null]`` per pass, in order); ``undone`` (the same, taken back,
the next redo last); ``selected``; ``turn_order``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from solver.errors import InputError, located
from solver.quoting import shown
from solver.web.bodies import flag, text
from solver.web.files import CatalogueEntry
from solver.web.session import Session, SessionMove, from_here

VERSION = 1
#: the most moves (placements and passes, played and taken back) a snapshot may hold
MAX_MOVES = 1000


def snapshot(session: Session) -> dict[str, Any]:
    """The session as the page keeps it (the keys above)."""
    return {
        "version": VERSION,
        "source": session.source,
        "opened": session.opened,
        "from_step": session.from_step,
        "step": session.step if session.game is not None else None,
        "moves": [_move(m) for m in session.moves],
        "undone": [_move(m) for m in session.undone],
        "selected": session.selected,
        "turn_order": session.turn_order,
    }


def _move(move: SessionMove) -> list[Any]:
    squares = sorted(move.placement.squares) if move.placement is not None else None
    return [move.colour, squares]


def restored(
    kept: Mapping[str, Any], current: Session, entries: Mapping[str, CatalogueEntry]
) -> Session:
    """The session a snapshot describes, every move played again through the rules.

    Args:
        kept: the snapshot (JSON, from the browser: checked here).
        current: the page's session now: the base of a snapshot whose ``opened`` is null
            (the page has just uploaded its file again).
        entries: the catalogue.

    Raises:
        InputError: a snapshot that is malformed, of something this server does not
            offer, or with a move the rules refuse (the move's number is named).
    """
    with located(path="the game kept in this browser"):
        return _restored(kept, current, entries)


def _restored(
    kept: Mapping[str, Any], current: Session, entries: Mapping[str, CatalogueEntry]
) -> Session:
    if kept.get("version") != VERSION:
        raise InputError("not a snapshot of this version of the page")
    opened = text(kept, "opened")
    # the page's upload as it was opened (nothing played), never the session itself
    session = dataclasses.replace(current, moves=[], undone=[], known={}, step=0, review=None)
    if opened is not None:
        entry = entries.get(opened)
        if entry is None:
            raise InputError(f"{shown(opened, 80)} is not offered by this server")
        session = entry.open()
    source = text(kept, "source", "")
    if source != session.source:
        raise InputError(f"it was a game of {shown(source, 80)}, not of {session.source}")
    from_step = _step(kept, "from_step")
    if from_step is not None:
        session = from_here(_stepped(session, from_step))
    step = _step(kept, "step")
    if step is not None:
        session = _stepped(session, step)
    session.turn_order = flag(kept, "turn_order")
    moves, undone = _moves(kept, "moves"), _moves(kept, "undone")
    if len(moves) + len(undone) > MAX_MOVES:
        raise InputError(f"more than {MAX_MOVES} moves")
    for number, (colour, squares) in enumerate(moves + undone[::-1], start=1):
        with located(where=f"move {number}"):
            _play(session, colour, squares)
    for _ in undone:
        session.undo()
    selected = text(kept, "selected")
    if selected is not None and selected in session.problem.colours:
        session.select(selected)
    return session


def _step(kept: Mapping[str, Any], key: str) -> int | None:
    value = kept.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise InputError(f"{key} must be a whole number or null")
    return value


def _stepped(session: Session, step: int) -> Session:
    """The game viewer ``session`` after ``step`` placements."""
    if session.game is None or not 0 <= step <= session.game.num_placements:
        raise InputError("its game record has no such placement")
    session.step = step
    session.follow_turn()
    return session


def _moves(kept: Mapping[str, Any], key: str) -> list[tuple[str, list[int] | None]]:
    value = kept.get(key, [])
    if not isinstance(value, list):
        raise InputError(f"{key} must be a list")
    out: list[tuple[str, list[int] | None]] = []
    for move in value:
        if not (isinstance(move, list) and len(move) == 2 and isinstance(move[0], str)):
            raise InputError(f"{key} must be [colour, squares or null] pairs")
        colour, squares = move
        if squares is not None and not (
            isinstance(squares, list)
            and all(isinstance(s, int) and not isinstance(s, bool) for s in squares)
        ):
            raise InputError(f"{key}: squares must be a list of square numbers")
        out.append((colour, squares))
    return out


def _play(session: Session, colour: str, squares: list[int] | None) -> None:
    """One move of a snapshot: a placement through the rules, or a pass of ``colour``."""
    if squares is None:
        session.select(colour)
        session.pass_turn()
        return
    session.place_squares(colour, squares)
