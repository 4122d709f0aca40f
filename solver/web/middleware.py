"""The ASGI middleware of ``blokus-solo serve`` besides Starlette's own
(``TrustedHostMiddleware`` refuses a foreign ``Host`` header: DNS rebinding)."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send


class OriginCheck:
    """Refuse (403) a request with an ``Origin`` header that is not one of ``origins``
    (a browser sends it on cross-site requests and on every POST)."""

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
