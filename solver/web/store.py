"""The session store: one :class:`~solver.web.session.Session` per open page, by the
page's token.

A page's token is in its HTML (:func:`solver.web.handlers.page.index`, which serves it
only to a top-level page: never to a frame, nor to a fetch of another site); every API
call carries it (``X-Token``) and the store hands the call that page's session.

No page's traffic drops another page's game: beyond :data:`MAX_SESSIONS`, a new page
may take the place only of a session that holds no game in progress (nothing played or
taken back, nothing opened but the first entry, not the game viewer: what the page's
reload opens anyway), the least recently used first; with none, the new page is refused
(:class:`Full`). A session goes only when its own page closes (:meth:`SessionStore.drop`)
or after :data:`IDLE_EXPIRY` seconds without a request from it. Its page keeps its game
in the browser (:mod:`solver.web.snapshot`): a page whose session is gone reloads and
restores it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from solver.web.session import Session

#: how many pages (sessions) the server keeps at once
MAX_SESSIONS = 64
#: seconds without a request after which a page's session is dropped (a day)
IDLE_EXPIRY = 24 * 3600.0


class UnknownSession(Exception):
    """A token the store does not know (missing, made up, or its session dropped)."""


class Full(Exception):
    """Every session holds a game in progress: a new page is refused (the message says
    why and what to do)."""


class SessionStore:
    """The sessions of one server, by token.

    Args:
        opener: makes the session of a new page (the catalogue's first entry).
        limit: how many sessions are kept at once.
        expiry: seconds without a request after which a session is dropped.
        on_drop: called with the token of a session dropped (to stop its solves).
        clock: the time in seconds (``time.monotonic``; a test's own clock).
    """

    def __init__(
        self,
        opener: Callable[[], Session],
        limit: int = MAX_SESSIONS,
        expiry: float = IDLE_EXPIRY,
        on_drop: Callable[[str], object] = lambda token: None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.opener = opener
        self.limit = limit
        self.expiry = expiry
        self.on_drop = on_drop
        self.clock = clock
        self._sessions: dict[str, Session] = {}
        self._used: dict[str, float] = {}
        self._first = opener().opened

    def __len__(self) -> int:
        return len(self._sessions)

    def new(self) -> str:
        """A new page: its token, with a fresh session (:attr:`opener`).

        Raises:
            Full: :attr:`limit` sessions hold games in progress.
        """
        self.expire()
        while len(self._sessions) >= self.limit:
            spare = [t for t, s in self._sessions.items() if not self.in_progress(s)]
            if not spare:
                raise Full(
                    f"this server holds {len(self)} games in progress, as many as it keeps: "
                    "close a page of it (or restart the server: each page keeps its game)"
                )
            self.drop(min(spare, key=self._used.__getitem__))
        token = secrets.token_urlsafe(24)
        self._sessions[token] = self.opener()
        self._used[token] = self.clock()
        return token

    def get(self, token: str) -> Session:
        """The session of ``token`` (now used).

        Raises:
            UnknownSession: no session has this token.
        """
        session = self._sessions.get(token)
        if session is None:
            raise UnknownSession(token)
        self._used[token] = self.clock()
        return session

    def find(self, token: str) -> Session | None:
        """The session of ``token``, or None; not counted as a use (for the server's own
        bookkeeping, e.g. pondering: :mod:`solver.web.pondering`)."""
        return self._sessions.get(token)

    def replace(self, token: str, session: Session) -> None:
        """The page of ``token`` opened something else: ``session`` is its game now."""
        if token not in self._sessions:
            raise UnknownSession(token)
        self._sessions[token] = session

    def drop(self, token: str) -> None:
        """Forget the session of ``token`` (its page closed, or it expired); its solves
        are stopped (``on_drop``)."""
        if self._sessions.pop(token, None) is not None:
            del self._used[token]
            self.on_drop(token)

    def expire(self) -> None:
        """Drop the sessions unused for :attr:`expiry` seconds."""
        now = self.clock()
        for token in [t for t, used in self._used.items() if now - used > self.expiry]:
            self.drop(token)

    def in_progress(self, session: Session) -> bool:
        """Whether ``session`` holds a game in progress: a move played or taken back,
        something opened but the first entry (an upload, a puzzle, a card, play on from
        here), or the game viewer."""
        return bool(
            session.moves
            or session.undone
            or session.game is not None
            or session.opened != self._first
        )
