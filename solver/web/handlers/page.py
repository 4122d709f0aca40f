"""The page itself: ``GET /``, the HTML with the page's token."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from solver.quoting import shown
from solver.web.store import Full

STATIC = resources.files("solver.web") / "static"
#: the page's headers: never cached (its token is new each time), never framed by another
#: page, and nothing loaded from anywhere but this server (it works offline)
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


def refusal(headers: Mapping[str, str]) -> str | None:
    """Why a request for the page is refused (Fetch Metadata, sent by every current
    browser), or None: the page is served only as a page of its own (``Sec-Fetch-Dest``
    "document"), never into a frame, an object or an embed, whoever's; and another site
    may link to it (a navigation) but not fetch it. So no session is made behind a
    player's back (a page of another site with hidden frames of this one makes none)."""
    dest = headers.get("sec-fetch-dest", "document")
    if dest != "document":
        return f"refused: the page opens only on its own, not inside another ({shown(dest, 20)})"
    site = headers.get("sec-fetch-site", "none")
    if site not in ("same-origin", "none") and headers.get("sec-fetch-mode") != "navigate":
        return "refused: a request from another site"
    return None


async def index(request: Request) -> Response:
    """The page, with a new session's token in it; 403 for a frame or a fetch of another
    site (:func:`refusal`), 503 when the server holds as many games in progress as it
    keeps (:class:`solver.web.store.Full`)."""
    refused = refusal(request.headers)
    if refused:
        return PlainTextResponse(refused, status_code=403, headers=PAGE_HEADERS)
    try:
        token = request.app.state.server.sessions.new()
    except Full as e:
        return PlainTextResponse(str(e), status_code=503, headers=PAGE_HEADERS)
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    response = HTMLResponse(page.replace("{{TOKEN}}", token))
    response.headers.update(PAGE_HEADERS)
    return response
