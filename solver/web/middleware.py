"""The ASGI middleware of ``blokus-solo serve`` besides Starlette's own
(``TrustedHostMiddleware`` refuses a foreign ``Host`` header: DNS rebinding)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from starlette.responses import JSONResponse, PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class OriginCheck:
    """Refuse (403) a request from another site: an ``Origin`` header that is not one of
    ``origins`` (a browser sends it on cross-site requests and on every POST), or, but
    for a navigation to the page (a link), ``Sec-Fetch-Site`` "cross-site" or
    "same-site" (Fetch Metadata: another port of the same host is another site here)."""

    def __init__(self, app: ASGIApp, origins: Iterable[str]):
        self.app = app
        self.origins = frozenset(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            site = headers.get(b"sec-fetch-site", b"same-origin")
            navigation = scope["path"] == "/" and headers.get(b"sec-fetch-mode") == b"navigate"
            foreign = site in (b"cross-site", b"same-site") and not navigation
            if foreign or (origin is not None and origin.decode("latin-1") not in self.origins):
                response = PlainTextResponse("foreign origin refused", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _TooLarge(Exception):
    """A body read past its cap (raised from ``receive``, caught by :class:`BodyLimit`)."""


class BodyLimit:
    """Refuse (413, ``{"error": one line}``) a request whose body is larger than its
    path's cap, at once: by its ``Content-Length`` before a byte of it is read, else (a
    body sent in chunks) as soon as the bytes read pass the cap; the rest is never read.
    So a huge body neither takes memory nor holds up the other requests.

    Args:
        limit: the cap in bytes, for every path but those of ``caps``.
        caps: path -> (its cap in bytes, the refusal's line), e.g. for uploads.
    """

    def __init__(self, app: ASGIApp, limit: int, caps: Mapping[str, tuple[int, str]]):
        self.app = app
        self.limit = limit
        self.caps = dict(caps)

    def _cap(self, path: str) -> tuple[int, str]:
        line = f"the request is larger than {self.limit // 1000} kB"
        return self.caps.get(path, (self.limit, line))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap, line = self._cap(scope["path"])
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if length.isdigit() and int(length) > cap:  # the server checked it is digits
            await JSONResponse({"error": line}, status_code=413)(scope, receive, send)
            return
        read = 0
        started = False

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > cap:
                raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await JSONResponse({"error": line}, status_code=413)(scope, receive, send)
