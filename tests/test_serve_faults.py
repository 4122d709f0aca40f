"""``blokus-solo serve`` against bodies and pages a player did not mean: malformed and
huge API bodies, frames of other sites, other pages' traffic, a server gone and back
(issue 31 items 3 and 4). HTTP through Starlette's test client (its lifespan not run: no
worker starts) and, where the server's own reading matters, a real uvicorn."""

import re
import socket
import time

import httpx2 as httpx
import pytest
from helpers import GAMES
from serve_helpers import free_port, served
from starlette.testclient import TestClient

from solver.web.app import create_app
from solver.web.bodies import MAX_BODY, MAX_DIGITS

TOKEN = re.compile(r'name="token" content="([^"]+)"')


def page(client) -> dict:
    response = client.get("/")
    assert response.status_code == 200, response.text
    return {"X-Token": TOKEN.search(response.text).group(1)}


@pytest.fixture(scope="module")
def app():
    return create_app(hosts=["testserver"])


@pytest.fixture
def client(app):
    return TestClient(app)  # not entered: no lifespan, no worker


#: (route, body, status, the start of the error's line): every kind of malformed body
PLACE, ASK = "/api/place", "/api/ask"
MALFORMED = [
    (PLACE, b"[" * 60_000, 400, "the request is nested too deeply"),
    (
        "/api/step",
        b'{"step": ' + b"9" * 5000 + b"}",
        400,
        f"a number in the request has more than {MAX_DIGITS}",
    ),
    (PLACE, b'{"cells": [[-' + b"1" * 4400 + b", 0]]}", 400, "a number in the request"),
    ("/api/select", b'{"colour": "bl\xffue"}', 400, "the request is not UTF-8 (byte 14)"),
    (ASK, b'{"kind": "joint", "time_limit": NaN}', 400, "NaN is not a number"),
    (ASK, b'{"kind": "joint", "time_limit": Infinity}', 400, "Infinity is not a number"),
    (PLACE, b'{"cells": [[0, 0]', 400, "the request is not JSON"),
    (PLACE, b"[[0, 0]]", 400, "the request is not a JSON object"),
    (PLACE, b'"cells"', 400, "the request is not a JSON object"),
    (PLACE, b'{"colour": "blue", "cells": [[true, 0]]}', 422, "cells must be [row, column] pairs"),
    (PLACE, b'{"colour": ["blue"], "cells": [[0, 0]]}', 422, 'colour must be a string, not ["b'),
    ("/api/select", b'{"colour": 7}', 422, "colour must be a string"),
    ("/api/turn-order", b'{"on": "yes"}', 422, "on must be true or false"),
    ("/api/open", b'{"id": {"$ne": 1}}', 422, "id must be a string"),
    (ASK, b'{"kind": ["joint"]}', 422, "kind must be a string"),
    (ASK, b'{"kind": "joint", "time_limit": true}', 422, "time_limit must be seconds"),
    (ASK, b'{"kind": "joint", "time_limit": 1e400}', 422, "time_limit must be seconds"),
    (ASK, b'{"kind": "joint", "time_limit": "5"}', 422, "time_limit must be seconds"),
    ("/api/restore", b'{"snapshot": []}', 422, "snapshot must be an object"),
    (PLACE, b"x" * (MAX_BODY + 1), 413, f"the request is larger than {MAX_BODY // 1000} kB"),
]


@pytest.mark.parametrize(("route", "body", "status", "line"), MALFORMED)
def test_malformed_body_is_one_line_4xx(client, route, body, status, line):
    headers = {**page(client), "Content-Type": "application/json"}
    response = client.post(route, headers=headers, content=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error.startswith(line) and "\n" not in error and len(error) < 300, error
    # nothing was played, and the page goes on
    state = client.get("/api/state", headers=headers).json()
    assert state["moves"] == 0 and state["turn_order"] is False


def test_step_must_be_a_whole_number(client):
    headers = page(client)
    client.post(
        "/api/upload?name=g.blksgf",
        headers=headers,
        content=(GAMES / "duo-L4-s29.blksgf").read_bytes(),
    )
    for step in ('"3"', "true", "2.5", "null"):
        out = client.post("/api/step", headers=headers, content=f'{{"step": {step}}}'.encode())
        assert (out.status_code, out.json()["error"]) == (422, "step must be a whole number")
    assert client.post("/api/step", headers=headers, json={"step": 3}).json()["game"]["step"] == 3


def _exchange(port: int, head: str, body: bytes) -> tuple[float, bytes]:
    """Send ``head`` and the start of a body; the seconds until the status line came
    back (nothing more of the body is sent) and that line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head.encode() + b"\r\n" + body)
        started = time.monotonic()
        answer = s.recv(4096)
    return time.monotonic() - started, answer.split(b"\r\n")[0]


def test_huge_bodies_refused_at_once_on_a_real_server(capfd):
    """A body of 80 MB by its Content-Length, and one sent in chunks past the cap: 413
    before the rest is sent; another page is answered meanwhile; every malformed body
    over real HTTP is a 4xx and the server logs no traceback."""
    port = free_port()
    with (
        served(create_app(port=port), port, lifespan="off") as url,
        httpx.Client(base_url=url) as c,
    ):
        headers = {"X-Token": TOKEN.search(c.get("/").text).group(1)}
        request = (
            f"POST /api/place HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Token: {headers['X-Token']}\r\n"
        )
        seconds, status = _exchange(port, request + "Content-Length: 80000000\r\n", b'{"cells": [')
        assert status == b"HTTP/1.1 413 Request Entity Too Large" and seconds < 2
        chunk = b"%x\r\n" % (MAX_BODY + 10) + b" " * (MAX_BODY + 10) + b"\r\n"
        seconds, status = _exchange(port, request + "Transfer-Encoding: chunked\r\n", chunk)
        assert status.startswith(b"HTTP/1.1 413") and seconds < 2
        # a slow huge upload holds up no one: the page is answered while it is being sent
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(
            (
                request.replace("/api/place", "/api/upload?name=a.toml")
                + "Transfer-Encoding: chunked\r\n\r\n"
            ).encode()
        )
        slow.sendall(b"%x\r\n" % 500_000 + b"#" * 500_000 + b"\r\n")
        assert c.get("/api/state", headers=headers).json()["moves"] == 0
        slow.close()
        for route, body, status, _ in MALFORMED:
            response = c.post(route, headers=headers, content=body)
            assert response.status_code == status, (route, response.text)
    log = capfd.readouterr()
    assert "Traceback" not in log.err + log.out and "Exception" not in log.err, log.err


def test_frames_and_fetches_of_other_sites_make_no_session(app, client):
    sessions = app.state.server.sessions
    player = page(client)
    client.post("/api/pass", headers=player)  # a game in progress
    before = len(sessions)
    frame = {
        "Sec-Fetch-Site": "cross-site",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Dest": "iframe",
    }
    for headers in (
        frame,
        {**frame, "Sec-Fetch-Site": "same-site"},  # another port of this host
        {**frame, "Sec-Fetch-Site": "same-origin"},  # this page never frames itself either
        {**frame, "Sec-Fetch-Dest": "object"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"},
        {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"},
    ):
        response = client.get("/", headers=headers)
        assert response.status_code == 403 and "refused" in response.text, headers
        assert 'name="token"' not in response.text
    assert len(sessions) == before
    # a link from another site opens the page (a navigation of a document)
    link = {
        "Sec-Fetch-Site": "cross-site",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Dest": "document",
    }
    assert client.get("/", headers=link).status_code == 200
    # the API answers this page only: not another site's fetch, even with the token
    foreign = {**player, "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors"}
    assert client.post("/api/pass", headers=foreign).status_code == 403
    assert client.get("/api/state", headers=player).json()["moves"] == 1


def test_no_game_in_progress_is_dropped_by_other_pages():
    app = create_app(hosts=["testserver"])
    client = TestClient(app)
    sessions = app.state.server.sessions
    sessions.limit = 6
    player = page(client)
    client.post("/api/place", headers=player, json={"colour": "blue", "cells": [[0, 0], [0, 1]]})
    # 100 pages open and go: only pages with no game in progress make room
    pages = [page(client) for _ in range(100)]
    assert len(sessions) <= 6
    assert client.get("/api/state", headers=player).json()["moves"] == 1
    for headers in pages[-5:]:  # five more games in progress: the server is full
        assert client.post("/api/pass", headers=headers).status_code == 200
    full = client.get("/")
    assert full.status_code == 503 and "games in progress" in full.text, full.text
    assert client.get("/api/state", headers=player).json()["moves"] == 1
    # a page that closes frees its place; its token is then unknown: the page reloads
    assert client.post("/api/close", headers=pages[-1]).status_code == 200
    gone = client.get("/api/state", headers=pages[-1])
    assert gone.status_code == 403 and gone.json()["reload"] is True
    assert client.get("/").status_code == 200


def test_only_its_own_idleness_expires_a_session():
    app = create_app(hosts=["testserver"])
    client = TestClient(app)
    sessions = app.state.server.sessions
    now = [0.0]
    sessions.clock = lambda: now[0]
    idle, busy = page(client), page(client)
    for _ in range(10):  # another page busy for 10 hours: the idle one stays
        now[0] += 3600
        client.post("/api/pass", headers=busy)
        sessions.expire()
    assert client.get("/api/state", headers=idle).status_code == 200
    now[0] += sessions.expiry + 1
    sessions.expire()
    assert client.get("/api/state", headers=idle).json()["reload"] is True


def test_a_kept_game_is_restored_move_by_move(client):
    headers = page(client)
    client.post("/api/turn-order", headers=headers, json={"on": True})
    client.post("/api/place", headers=headers, json={"colour": "blue", "cells": [[0, 0], [0, 1]]})
    client.post("/api/pass", headers=headers)
    client.post(
        "/api/place", headers=headers, json={"colour": "red", "cells": [[19, 19]]}
    )  # refused
    client.post(
        "/api/place", headers=headers, json={"colour": "red", "cells": [[19, 19], [19, 18]]}
    )
    before = client.post("/api/undo", headers=headers).json()
    kept = before["snapshot"]
    assert kept["moves"] == [["blue", [0, 1]], ["yellow", None]] and kept["undone"] == [
        ["red", [398, 399]]
    ]
    again = page(client)  # the page reloaded: a new session, the game sent back
    after = client.post("/api/restore", headers=again, json={"snapshot": kept}).json()
    for key in ("colours", "moves", "redo", "selected", "turn_order", "legal", "snapshot"):
        assert after[key] == before[key], key
    redone = client.post("/api/redo", headers=again).json()
    assert redone["colours"][2]["placed"] == [["2", [398, 399]]]
    # a snapshot edited by hand is played through the rules: refused with its move's number
    forged = {**kept, "moves": [["blue", [0, 1]], ["blue", [2]]]}
    out = client.post("/api/restore", headers=again, json={"snapshot": forged})
    assert out.status_code == 422
    assert out.json()["error"].startswith("the game kept in this browser: move 2: ")
    for bad, line in (
        ({**kept, "opened": "puzzle:gone"}, "puzzle:gone is not offered by this server"),
        ({**kept, "version": 99}, "not a snapshot of this version"),
        ({**kept, "moves": [["blue", None]] * 1001}, "more than 1000 moves"),
        ({**kept, "moves": [["blue", "a1"]]}, "moves: squares must be a list"),
        ({**kept, "source": "x"}, "it was a game of x"),
    ):
        out = client.post("/api/restore", headers=again, json={"snapshot": bad})
        assert out.status_code == 422 and line in out.json()["error"], out.text
    # a refused snapshot changes nothing: the page still has the game restored above
    assert client.get("/api/state", headers=again).json()["snapshot"] == redone["snapshot"]


def test_an_uploaded_game_played_on_is_restored(client):
    data = (GAMES / "duo-L4-s29.blksgf").read_bytes()
    headers = page(client)
    client.post("/api/upload?name=duo.blksgf", headers=headers, content=data)
    client.post("/api/step", headers=headers, json={"step": 12})
    state = client.post("/api/from-here", headers=headers).json()
    piece, squares = state["legal"][0]
    cells = [[s // 14, s % 14] for s in squares]
    before = client.post(
        "/api/place", headers=headers, json={"colour": state["selected"], "cells": cells}
    ).json()
    assert before["snapshot"]["opened"] is None and before["snapshot"]["from_step"] == 12
    again = page(client)
    client.post(
        "/api/upload?name=duo.blksgf", headers=again, content=data
    )  # the page sends it first
    after = client.post("/api/restore", headers=again, json={"snapshot": before["snapshot"]}).json()
    for key in ("colours", "title", "moves", "snapshot"):
        assert after[key] == before[key], key
