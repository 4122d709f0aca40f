"""The Starlette application of ``blokus-solo serve``: the route table
(:mod:`solver.web.routes`), the middleware (:mod:`solver.web.middleware`) and the
server's state (:class:`solver.web.context.Server`: the catalogue, the session store,
the workers), put together.

Safety (a page from another site must not drive this server, which solves on the user's
machine): Starlette's ``TrustedHostMiddleware`` refuses a foreign ``Host`` header (DNS
rebinding); :class:`~solver.web.middleware.OriginCheck` refuses a request whose
``Origin`` header is not this server's own; and every ``/api/`` call must carry the
page's token (``X-Token``), which only a page served here knows. Uploads are
size-limited and read from their bytes; no path that came from the browser is ever opened.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from solver.web.bodies import MAX_BODY
from solver.web.context import Server
from solver.web.files import MAX_UPLOAD, CatalogueEntry, catalogue
from solver.web.jobs import Jobs
from solver.web.middleware import BodyLimit, OriginCheck
from solver.web.pondering import Ponderer
from solver.web.routes import ROUTES
from solver.web.store import SessionStore

#: an upload's cap and the line that refuses a larger one
UPLOAD_CAP = (MAX_UPLOAD, f"the file is larger than {MAX_UPLOAD // 1000} kB")
#: seconds between two looks for abandoned solves
REAP_EVERY = 2.0


def create_app(
    files: tuple[str, ...] = (),
    hosts: Iterable[str] = ("127.0.0.1", "localhost"),
    port: int | None = None,
    limit: int | None = None,
    entries: dict[str, CatalogueEntry] | None = None,
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
    entries = entries or catalogue(files)
    jobs = Jobs(limit)
    ponderer = Ponderer(jobs, ponder)  # the companion thinks while the player thinks
    first = next(iter(entries.values()))

    def dropped(token: str) -> None:  # a session dropped: its solves and pondering stop
        jobs.cancel_owner(token)
        ponderer.close(token)

    server = Server(entries, jobs, SessionStore(first.open, on_drop=dropped), ponderer)
    origins = {f"http://{h}" + (f":{port}" if port not in (None, 80) else "") for h in hosts}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(jobs.warm)
        task = asyncio.create_task(reap(server))
        try:
            yield
        finally:
            task.cancel()
            ponderer.shutdown()
            jobs.shutdown()

    app = Starlette(
        routes=ROUTES,
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
            Middleware(OriginCheck, origins=origins),
            Middleware(BodyLimit, limit=MAX_BODY, caps={"/api/upload": UPLOAD_CAP}),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


async def reap(server: Server) -> None:
    """Every :data:`REAP_EVERY` seconds, kill the solves of pages that stopped asking
    (closed), and drop the sessions unused for a day (:mod:`solver.web.store`)."""
    while True:
        await asyncio.sleep(REAP_EVERY)
        server.jobs.reap()
        server.sessions.expire()
        server.pondering.collect(server.sessions.find)
