"""The Starlette application of ``blokus-solo serve``: the page, its API, the checks.

Safety (a page from another site must not drive this server, which solves on the user's
machine): Starlette's ``TrustedHostMiddleware`` refuses a foreign ``Host`` header (DNS
rebinding); :class:`OriginCheck` refuses a request whose ``Origin`` header is not this
server's own; and every ``/api/`` call must carry the page's token (``X-Token``), which
only a page served here knows. Uploads are size-limited and read from their bytes; no
path that came from the browser is ever opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from solver.errors import InputError
from solver.web.files import MAX_UPLOAD, Entry, catalogue, read_upload, saved
from solver.web.jobs import Busy, Jobs
from solver.web.pondering import Ponderer, focus_of, marks
from solver.web.session import Session, from_here

#: how many pages (sessions) the server keeps; the oldest is dropped beyond
MAX_SESSIONS = 32
#: the per-answer time limits the page offers, in seconds (None: no limit)
TIME_LIMITS = (5.0, 30.0, 120.0, None)
#: seconds per check of a game review from the page
REVIEW_TIME_LIMIT = 2.0
#: seconds between two looks for abandoned solves
REAP_EVERY = 2.0
STATIC = resources.files("solver.web") / "static"
#: the page's headers: never cached (its token is new each time), never framed by another
#: page, and nothing loaded from anywhere but this server (it works offline)
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


class OriginCheck:
    """ASGI middleware: refuse (403) a request with an ``Origin`` header that is not one
    of ``origins`` (a browser sends it on cross-site requests and on every POST)."""

    def __init__(self, app: ASGIApp, origins: Iterable[str]):
        self.app = app
        self.origins = frozenset(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            if origin is not None and origin.decode("latin-1") not in self.origins:
                response = PlainTextResponse("foreign origin refused", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Server:
    """The state of one server: the catalogue, the pages' sessions and the workers."""

    def __init__(self, entries: dict[str, Entry], jobs: Jobs, ponder: bool = True):
        self.entries = entries
        self.jobs = jobs
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.ponderer = Ponderer(jobs, ponder)  # the companion thinks while the player thinks

    def new_session(self) -> str:
        """A fresh page: a token and the first entry's session."""
        token = secrets.token_urlsafe(24)
        self.sessions[token] = next(iter(self.entries.values())).open()
        while len(self.sessions) > MAX_SESSIONS:
            old, _ = self.sessions.popitem(last=False)
            self.jobs.cancel_owner(old)
        return token


#: an API handler: the request, the page's token and its session -> the response
Handler = Callable[[Request, str, Session], Awaitable[Response]]


def _error(message: str, status: int = 422) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    files: tuple[str, ...] = (),
    hosts: Iterable[str] = ("127.0.0.1", "localhost"),
    port: int | None = None,
    limit: int | None = None,
    entries: dict[str, Entry] | None = None,
    ponder: bool = True,
) -> Starlette:
    """The application.

    Args:
        files: files named on the command line (puzzles, game records, solutions).
        hosts: the host names the page is reached by (the ``Host`` header must be one).
        port: the port (the ``Origin`` of the page is ``http://HOST:PORT``); None for the
            default port of http (the test client's ``http://testserver``).
        limit: how many solves may run at once (default: the number of cores).
        entries: the catalogue (default: :func:`solver.web.files.catalogue` of ``files``).
        ponder: whether the companion ponders while the player thinks
            (:mod:`solver.web.pondering`).

    Raises:
        InputError: a file of ``files`` that cannot be read.
    """
    hosts = tuple(hosts)
    server = Server(entries or catalogue(files), Jobs(limit), ponder)
    origins = {f"http://{h}" + (f":{port}" if port not in (None, 80) else "") for h in hosts}

    async def index(request: Request) -> Response:
        # another site may link to the page (a navigation), not fetch or frame it
        # (Fetch Metadata, sent by every current browser): no sessions made behind its back
        site = request.headers.get("sec-fetch-site", "none")
        if site == "cross-site" and request.headers.get("sec-fetch-mode") != "navigate":
            return PlainTextResponse("refused: a request from another site", status_code=403)
        token = server.new_session()
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        response = HTMLResponse(page.replace("{{TOKEN}}", token))
        response.headers.update(PAGE_HEADERS)
        return response

    def session_of(request: Request) -> tuple[str, Session]:
        token = request.headers.get("x-token", "")
        session = server.sessions.get(token)
        if session is None:
            raise PermissionError
        server.sessions.move_to_end(token)
        return token, session

    def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        """An API route: the token checked, InputError as a 422 with its one line."""

        async def route(request: Request) -> Response:
            try:
                token, session = session_of(request)
            except PermissionError:
                return _error("missing or unknown session token: reload the page", 403)
            try:
                response = await handler(request, token, session)
            except InputError as e:
                return _error(str(e))
            # the position may have changed: ponder it, once the answer is sent
            response.background = BackgroundTask(ponder_after, token)
            return response

        return route

    async def ponder_after(token: str) -> None:
        if token in server.sessions:
            server.ponderer.update(token, server.sessions[token])

    async def body(request: Request) -> dict[str, Any]:
        try:
            data = json.loads(await request.body() or b"{}")
        except json.JSONDecodeError:
            raise InputError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise InputError("the request is not a JSON object")
        return data

    def state(token: str) -> JSONResponse:
        session = server.sessions[token]
        return JSONResponse({**session.state(), "time_limits": TIME_LIMITS})

    async def get_catalogue(request: Request, token: str, session: Session) -> Response:
        return JSONResponse(
            [{"id": e.id, "label": e.label, "group": e.group} for e in server.entries.values()]
        )

    async def get_state(request: Request, token: str, session: Session) -> Response:
        return state(token)

    async def open_entry(request: Request, token: str, session: Session) -> Response:
        entry = server.entries.get(str((await body(request)).get("id")))
        if entry is None:
            raise InputError("nothing to open by that name")
        server.jobs.cancel_owner(token)
        server.sessions[token] = entry.open()
        return state(token)

    async def upload(request: Request, token: str, session: Session) -> Response:
        name = request.query_params.get("name", "upload")
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_UPLOAD:
                raise InputError(f"the file is larger than {MAX_UPLOAD // 1000} kB", path=name)
        server.jobs.cancel_owner(token)
        server.sessions[token] = read_upload(name, bytes(data))
        return state(token)

    async def place(request: Request, token: str, session: Session) -> Response:
        data = await body(request)
        cells = data.get("cells")
        if not isinstance(cells, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c)
            for c in cells
        ):
            raise InputError("cells must be [row, column] pairs")
        try:
            session.place(str(data.get("colour")), [(r, c) for r, c in cells])
        except InputError as e:  # the rules refuse the move: an answer, not a failed request
            return JSONResponse({"refused": str(e)})
        return state(token)

    def action(name: str) -> Handler:
        async def run(request: Request, token: str, session: Session) -> Response:
            data = await body(request)
            if name == "undo":
                session.undo()
            elif name == "redo":
                session.redo()
            elif name == "pass":
                session.pass_turn()
            elif name == "select":
                session.select(str(data.get("colour")))
            elif name == "turn-order":
                session.turn_order = bool(data.get("on"))
            elif name == "hide":
                session.shown = None
            elif name == "step":
                if session.game is None:
                    raise InputError("no game record is open")
                step = data.get("step")
                if not isinstance(step, int):
                    raise InputError("step must be a number")
                session.step = max(0, min(step, session.game.num_placements))
                session.follow_turn()
            elif name == "from-here":
                if session.game is None:
                    raise InputError("no game record is open")
                server.sessions[token] = from_here(session)
            return state(token)

        return run

    async def ask(request: Request, token: str, session: Session) -> Response:
        data = await body(request)
        kind = data.get("kind")
        if kind not in ("colour", "joint", "hint", "solution", "review"):
            raise InputError(f"unknown question {kind!r}")
        limit = data.get("time_limit")
        if limit is not None and not (isinstance(limit, int | float) and 0 < limit <= 3600):
            raise InputError("time_limit must be seconds between 0 and 3600, or null")
        colour = data.get("colour", session.selected)  # the colour to move by default
        if colour is not None and colour not in session.problem.colours:
            raise InputError(f"{colour!r} is not played here")
        if kind == "colour" and colour is None:
            raise InputError("no colour to move")
        problem: Any = session.problem
        server.ponderer.collect(server.sessions)  # what pondering found, filed
        server.ponderer.make_room(token)  # real questions come first
        if kind == "joint":  # the solo companion when an answer is known on the line
            problem = session.joint_request()
        if kind == "review":
            if session.game is None:
                raise InputError("no game record is open")
            problem, limit = session.game, REVIEW_TIME_LIMIT
        try:
            job = server.jobs.start(token, kind, problem, colour, limit)
        except Busy as e:
            return _error(str(e), 429)
        return JSONResponse({"job": job})

    async def poll(request: Request, token: str, session: Session) -> Response:
        try:
            out = server.jobs.poll(token, request.path_params["job"])
        except KeyError:
            return _error("no such question (it was cancelled or forgotten)", 404)
        result = out.get("result") or {}
        known = result.pop("known", None)  # the companion's state: filed, not sent
        if known:
            session.learn(*known)
        if result.get("kind") == "review" and session.game is not None:
            session.review = result["review"]
        elif result.get("answer") == "yes" and result.get("layout") and result.get("shows"):
            session.shown = result["layout"]
        return JSONResponse(out)

    async def cancel(request: Request, token: str, session: Session) -> Response:
        with contextlib.suppress(KeyError):
            server.jobs.cancel(token, request.path_params["job"])
        return JSONResponse({"cancelled": True})

    async def close(request: Request, token: str, session: Session) -> Response:
        server.ponderer.close(token)
        return JSONResponse({"cancelled": server.jobs.cancel_owner(token)})

    async def focus(request: Request, token: str, session: Session) -> Response:
        server.ponderer.focus(token, focus_of(await body(request), session))
        return JSONResponse({"ok": True})

    async def get_marks(request: Request, token: str, session: Session) -> Response:
        server.ponderer.collect(server.sessions)
        query = request.query_params
        return JSONResponse(
            marks(session, query.get("colour", session.selected), query.get("piece"))
        )

    async def save(request: Request, token: str, session: Session) -> Response:
        data, media, name = saved(session, request.path_params["kind"])
        return Response(
            data,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    routes = [
        Route("/", index),
        Route("/api/catalogue", api(get_catalogue)),
        Route("/api/state", api(get_state)),
        Route("/api/open", api(open_entry), methods=["POST"]),
        Route("/api/upload", api(upload), methods=["POST"]),
        Route("/api/place", api(place), methods=["POST"]),
        Route("/api/ask", api(ask), methods=["POST"]),
        Route("/api/job/{job}", api(poll)),
        Route("/api/job/{job}/cancel", api(cancel), methods=["POST"]),
        Route("/api/close", api(close), methods=["POST"]),
        Route("/api/focus", api(focus), methods=["POST"]),
        Route("/api/marks", api(get_marks)),
        Route("/api/save/{kind}", api(save)),
        *(
            Route(f"/api/{name}", api(action(name)), methods=["POST"])
            for name in (
                "undo",
                "redo",
                "pass",
                "select",
                "turn-order",
                "hide",
                "step",
                "from-here",
            )
        ),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]

    async def reaper() -> None:
        """Every few seconds, kill the solves of pages that stopped asking (closed)."""
        while True:
            await asyncio.sleep(REAP_EVERY)
            server.jobs.reap()
            server.ponderer.collect(server.sessions)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(server.jobs.warm)
        task = asyncio.create_task(reaper())
        try:
            yield
        finally:
            task.cancel()
            server.ponderer.shutdown()
            server.jobs.shutdown()

    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
            Middleware(OriginCheck, origins=origins),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
