"""What an API handler is given: the server's state (:class:`Server`) and one call
(:class:`Call`: the page's token, its session, the request's data already read and
checked), and the two answers most handlers give (:func:`state`, :func:`error`).
The state carries the session's snapshot, which the page keeps in the browser
(:mod:`solver.web.snapshot`).

A handler is a plain function ``Call -> Response`` (:data:`Handler`), run by
:mod:`solver.web.routes`, which checks the token and reads the body first: so each one
can be called alone, with a :class:`Call` made by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import JSONResponse, Response

from solver.web.files import CatalogueEntry
from solver.web.jobs import Jobs
from solver.web.pondering import Ponderer
from solver.web.session import Session
from solver.web.snapshot import snapshot
from solver.web.store import SessionStore

#: the per-answer time limits the page offers, in seconds (None: no limit)
TIME_LIMITS = (5.0, 30.0, 120.0, None)


@dataclass
class Server:
    """The state of one server.

    Attributes:
        entries: the catalogue, by id (:func:`solver.web.files.catalogue`).
        jobs: the worker processes (:class:`solver.web.jobs.Jobs`).
        sessions: the pages' sessions, by token.
        ponderer: the ponder jobs (:class:`solver.web.pondering.Ponderer`; default: one
            that never ponders).
    """

    entries: dict[str, CatalogueEntry]
    jobs: Jobs
    sessions: SessionStore
    ponderer: Ponderer | None = None

    def __post_init__(self) -> None:
        if self.ponderer is None:
            self.ponderer = Ponderer(self.jobs, enabled=False)

    @property
    def pondering(self) -> Ponderer:
        """The ponder jobs (never None after construction)."""
        assert self.ponderer is not None
        return self.ponderer


@dataclass(frozen=True)
class Call:
    """One API call, as its handler sees it.

    Attributes:
        server: the server.
        token: the page's token.
        session: the page's session.
        data: the JSON body (an object; empty for a GET).
        params: the path parameters (e.g. ``job``) over the query's (e.g. ``name``).
        content: the raw body, for an upload.
    """

    server: Server
    token: str
    session: Session
    data: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)
    content: bytes = b""


#: an API handler: a call -> its response
Handler = Callable[[Call], Response]


def error(message: str, status: int = 422) -> JSONResponse:
    """A refused call: ``{"error": message}`` (one line, shown by the page as is)."""
    return JSONResponse({"error": message}, status_code=status)


def state(call: Call) -> JSONResponse:
    """The page's session as it stands after the call (it may have been replaced):
    everything the page draws (:meth:`solver.web.session.Session.state`)."""
    session = call.server.sessions.get(call.token)
    return JSONResponse(
        {**session.state(), "time_limits": TIME_LIMITS, "snapshot": snapshot(session)}
    )
