"""The route table of ``blokus-solo serve``: every URL, its method and its handler.

Each API route (:class:`Endpoint`) is run the same way (:func:`api_route`): the page's
token is checked (403 without a session), the body read (a JSON object, or an upload's
bytes; its size was capped before, :class:`solver.web.middleware.BodyLimit`; a malformed
one is a 400 with one line, :mod:`solver.web.bodies`), then the handler
(:mod:`solver.web.handlers`) gets a :class:`~solver.web.context.Call`; an
:class:`~solver.errors.InputError` it raises is a 422 with its one line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from starlette.background import BackgroundTask
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from solver.errors import InputError
from solver.web.bodies import Malformed, json_object
from solver.web.context import Call, Handler, Server, error
from solver.web.handlers import asking, companion, files, page, play
from solver.web.store import UnknownSession

Body = Literal["json", "bytes", "none"]


@dataclass(frozen=True)
class Endpoint:
    """One API route: ``path`` (Starlette's syntax), ``handler``, ``method`` and what
    its ``body`` is: "json" (an object), "bytes" (an upload) or "none" (a GET)."""

    path: str
    handler: Handler
    method: str = "POST"
    body: Body = "json"


#: the page's API (the page itself is ``/``, its files ``/static/``)
API: tuple[Endpoint, ...] = (
    Endpoint("/api/catalogue", files.catalogue, "GET", "none"),
    Endpoint("/api/state", play.get_state, "GET", "none"),
    Endpoint("/api/open", files.open_entry),
    Endpoint("/api/upload", files.upload, body="bytes"),
    Endpoint("/api/save/{kind}", files.save, "GET", "none"),
    Endpoint("/api/place", play.place),
    Endpoint("/api/undo", play.undo),
    Endpoint("/api/redo", play.redo),
    Endpoint("/api/pass", play.pass_turn),
    Endpoint("/api/select", play.select),
    Endpoint("/api/turn-order", play.turn_order),
    Endpoint("/api/hide", play.hide),
    Endpoint("/api/step", play.step),
    Endpoint("/api/from-here", play.from_here),
    Endpoint("/api/restore", play.restore),
    Endpoint("/api/ask", asking.ask),
    Endpoint("/api/job/{job}", asking.poll, "GET", "none"),
    Endpoint("/api/job/{job}/cancel", asking.cancel),
    Endpoint("/api/close", asking.close),
    Endpoint("/api/focus", companion.focus),
    Endpoint("/api/marks", companion.marks, "GET", "none"),
)


def api_route(endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint of an API route: the token, the body, the handler."""

    async def route(request: Request) -> Response:
        server: Server = request.app.state.server
        token = request.headers.get("x-token", "")
        try:
            session = server.sessions.get(token)
        except UnknownSession:  # the page reloads and restores its game from the browser
            return JSONResponse(
                {"error": "missing or unknown session token: reload the page", "reload": True},
                status_code=403,
            )
        try:
            # the size was capped before (middleware.BodyLimit): read whole, then checked
            content = await request.body() if endpoint.body != "none" else b""
            data = json_object(content) if endpoint.body == "json" else {}
            params = {**request.query_params, **request.path_params}
            response = endpoint.handler(Call(server, token, session, data, params, content))
            # the position may have changed: ponder it (solver.web.pondering), once the
            # answer is sent
            response.background = BackgroundTask(_ponder, server, token)
            return response
        except ClientDisconnect:  # gone before its body came: no one to answer
            return Response(status_code=400)
        except Malformed as e:
            return error(str(e), 400)
        except InputError as e:
            return error(str(e))

    return route


async def _ponder(server: Server, token: str) -> None:
    session = server.sessions.find(token)
    if session is not None:
        server.pondering.update(token, session)


#: every route of the server
ROUTES: list[BaseRoute] = [
    Route("/", page.index),
    *(Route(e.path, api_route(e), methods=[e.method]) for e in API),
    Mount("/static", StaticFiles(directory=str(page.STATIC)), name="static"),
]
