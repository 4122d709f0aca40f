"""What the page opens and saves: the catalogue, an entry of it, an upload, a save.
Opening something stops the page's solves and starts a new game (a new session under
the same token)."""

from __future__ import annotations

from starlette.responses import JSONResponse, Response

from solver.errors import InputError
from solver.web.bodies import text
from solver.web.context import Call, state
from solver.web.files import read_upload, saved


def catalogue(call: Call) -> Response:
    """``GET /api/catalogue``: what the page can open, ``[{"id", "label", "group"}]``."""
    entries = call.server.entries.values()
    return JSONResponse([{"id": e.id, "label": e.label, "group": e.group} for e in entries])


def open_entry(call: Call) -> Response:
    """``POST /api/open`` ``{"id"}``: open an entry of the catalogue (422 if none has
    that id: no path from the browser is ever opened)."""
    entry = call.server.entries.get(text(call.data, "id", "") or "")
    if entry is None:
        raise InputError("nothing to open by that name")
    call.server.jobs.cancel_owner(call.token)
    call.server.sessions.replace(call.token, entry.open())
    return state(call)


def upload(call: Call) -> Response:
    """``POST /api/upload?name=NAME`` with the file's bytes: open a puzzle, a game
    record or a solution (:func:`solver.web.files.read_upload`; its one-line error, 422)."""
    name = call.params.get("name", "upload")
    session = read_upload(name, call.content)
    call.server.jobs.cancel_owner(call.token)
    call.server.sessions.replace(call.token, session)
    return state(call)


def save(call: Call) -> Response:
    """``GET /api/save/{kind}``: the position as a file (sgf, toml, svg, png), as a
    download (:func:`solver.web.files.saved`)."""
    data, media, name = saved(call.session, call.params["kind"])
    return Response(
        data, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
