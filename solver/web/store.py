"""The session store: one :class:`~solver.web.session.Session` per open page, by the
page's token.

A page's token is in its HTML (:func:`solver.web.handlers.page.index`); every API call
carries it (``X-Token``) and the store hands the call that page's session.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable

from solver.web.session import Session

#: how many pages (sessions) the server keeps; the least recently used is dropped beyond
MAX_SESSIONS = 32


class UnknownSession(Exception):
    """A token the store does not know (missing, made up, or its session dropped)."""


class SessionStore:
    """The sessions of one server, by token.

    Args:
        opener: makes the session of a new page (the catalogue's first entry).
        limit: how many sessions are kept at once.
        on_drop: called with the token of a session dropped (to stop its solves).
    """

    def __init__(
        self,
        opener: Callable[[], Session],
        limit: int = MAX_SESSIONS,
        on_drop: Callable[[str], object] = lambda token: None,
    ):
        self.opener = opener
        self.limit = limit
        self.on_drop = on_drop
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sessions)

    def new(self) -> str:
        """A new page: its token, with a fresh session (:attr:`opener`)."""
        token = secrets.token_urlsafe(24)
        self._sessions[token] = self.opener()
        while len(self._sessions) > self.limit:
            old, _ = self._sessions.popitem(last=False)
            self.on_drop(old)
        return token

    def get(self, token: str) -> Session:
        """The session of ``token``, now the most recently used.

        Raises:
            UnknownSession: no session has this token.
        """
        session = self._sessions.get(token)
        if session is None:
            raise UnknownSession(token)
        self._sessions.move_to_end(token)
        return session

    def replace(self, token: str, session: Session) -> None:
        """The page of ``token`` opened something else: ``session`` is its game now."""
        self._sessions[token] = session
