"""The page itself: ``GET /``, the HTML with the page's token."""

from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

STATIC = resources.files("solver.web") / "static"
#: the page's headers: never cached (its token is new each time), never framed by another
#: page, and nothing loaded from anywhere but this server (it works offline)
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


async def index(request: Request) -> Response:
    """The page, with a new session's token in it.

    Another site may link to the page (a navigation), not fetch or frame it (Fetch
    Metadata, sent by every current browser): no session is made behind its back (403).
    """
    site = request.headers.get("sec-fetch-site", "none")
    if site == "cross-site" and request.headers.get("sec-fetch-mode") != "navigate":
        return PlainTextResponse("refused: a request from another site", status_code=403)
    token = request.app.state.server.sessions.new()
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    response = HTMLResponse(page.replace("{{TOKEN}}", token))
    response.headers.update(PAGE_HEADERS)
    return response
