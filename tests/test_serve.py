"""``blokus-solo serve``: the HTTP interface with Starlette's test client (no browser)."""

import dataclasses
import json
import os
import re
import subprocess
import sys
import time
import zipfile

import pytest
from helpers import GAMES, PUZZLES, ROOT, run_cli
from serve_helpers import job_result
from starlette.testclient import TestClient

from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.rules import move_problem
from solver.errors import InputError, located
from solver.formats.game import read_sgf_text
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.web import jobs as jobs_module
from solver.web.app import create_app
from solver.web.files import MAX_UPLOAD

TOKEN = re.compile(r'name="token" content="([^"]+)"')
FOLLOW = ROOT / "tests" / "data" / "follow"


def page(client) -> dict:
    """Open the page; the headers every API call needs."""
    response = client.get("/")
    assert response.status_code == 200
    return {"X-Token": TOKEN.search(response.text).group(1)}


@pytest.fixture(scope="module")
def client():
    """One server for the module (its workers loaded once); each test opens its own page."""
    with TestClient(create_app(hosts=["testserver"], ponder=False)) as c:
        yield c


def ask(client, headers, kind, time_limit=60, wait=120.0) -> dict:
    return job_result(client, headers, {"kind": kind, "time_limit": time_limit}, wait)


def test_page_is_offline_and_token_guarded(client):
    headers = page(client)
    for name in ("app.js", "style.css"):
        text = client.get(f"/static/{name}").text
        # nothing fetched from the network: no URL but the SVG namespace
        assert re.findall(r"https?://[^\s\"']+", text) in ([], ["http://www.w3.org/2000/svg"])
    assert client.get("/api/state").status_code == 403
    assert client.get("/api/state", headers={"X-Token": "guess"}).status_code == 403
    assert client.get("/api/state", headers=headers).status_code == 200
    # a second page gets its own token and game
    other = page(client)
    assert other != headers
    client.post("/api/place", headers=other, json={"colour": "blue", "cells": [[0, 0]]})


def test_foreign_host_and_origin_refused(client):
    headers = page(client)
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/api/state", headers={**headers, "Host": "evil.example"}).status_code == 400
    refused = client.post("/api/pass", headers={**headers, "Origin": "http://evil.example"})
    assert refused.status_code == 403
    ok = client.post("/api/pass", headers={**headers, "Origin": "http://testserver"})
    assert ok.status_code == 200


def test_page_not_fetched_nor_framed_by_another_site(client):
    cross = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}
    assert client.get("/", headers=cross).status_code == 403
    link = client.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    assert link.status_code == 200
    assert link.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in link.headers["content-security-policy"]
    assert "default-src 'self'" in link.headers["content-security-policy"]


def test_origin_must_match_the_port():
    app = create_app(hosts=["127.0.0.1", "localhost"], port=8123, ponder=False)
    with TestClient(app, base_url="http://127.0.0.1:8123") as c:
        headers = page(c)
        good = c.post("/api/pass", headers={**headers, "Origin": "http://localhost:8123"})
        assert good.status_code == 200
        bad = c.post("/api/pass", headers={**headers, "Origin": "http://localhost:8124"})
        assert bad.status_code == 403


def test_place_refuse_undo_redo(client):
    headers = page(client)
    s = client.get("/api/state", headers=headers).json()
    assert (s["mode"], s["selected"], s["played"]) == (
        "solo",
        "blue",
        ["blue", "yellow", "red", "green"],
    )
    from solver.web.files import catalogue

    start = catalogue()["classic-84"].open().start.position
    moves = legal_moves(start, "blue")
    # monomino-last: the monomino is kept out of the legal set until it is the last piece
    assert len(s["legal"]) == len([m for m in moves if m.piece != "1"]) == len(moves) - 1
    assert s["corners"] == [0]
    placed = client.post(
        "/api/place", headers=headers, json={"colour": "blue", "cells": [[0, 0], [1, 0], [1, 1]]}
    )
    assert placed.status_code == 200, placed.text
    s = placed.json()
    assert s["colours"][0]["placed"] == [["V3", [0, 20, 21]]] and s["moves"] == 1
    assert s["corners"] == [2, 42]
    after = start.with_placement("blue", Placement("V3", frozenset({0, 20, 21})))
    wrong = Placement("2", frozenset({22, 23}))
    refused = client.post(
        "/api/place", headers=headers, json={"colour": "blue", "cells": [[1, 2], [1, 3]]}
    )
    # a move the rules refuse is answered (200), with the rule, and nothing is played
    assert refused.status_code == 200
    assert refused.json() == {"refused": move_problem(after, "blue", wrong)}
    off = client.post("/api/place", headers=headers, json={"colour": "blue", "cells": [[-1, 0]]})
    assert off.json()["refused"] == "the piece lies partly off the board"
    early = client.post("/api/place", headers=headers, json={"colour": "blue", "cells": [[2, 2]]})
    assert early.json()["refused"] == "blue's monomino must be its last piece (monomino-last)"
    assert client.get("/api/state", headers=headers).json()["moves"] == 1
    bad = client.post("/api/place", headers=headers, json={"colour": "blue", "cells": "a1"})
    assert bad.status_code == 422
    s = client.post("/api/undo", headers=headers).json()
    assert s["colours"][0]["placed"] == [] and s["redo"] == 1
    s = client.post("/api/redo", headers=headers).json()
    assert s["colours"][0]["placed"] == [["V3", [0, 20, 21]]] and s["redo"] == 0


def test_turn_order_and_pass(client):
    headers = page(client)
    client.post("/api/turn-order", headers=headers, json={"on": True})
    s = client.post(
        "/api/place", headers=headers, json={"colour": "blue", "cells": [[0, 0], [0, 1]]}
    ).json()
    assert s["selected"] == "yellow"
    s = client.post("/api/pass", headers=headers).json()
    assert s["selected"] == "red" and s["moves"] == 2
    s = client.post("/api/select", headers=headers, json={"colour": "green"}).json()
    assert s["selected"] == "green" and s["corners"] == [380]
    s = client.post("/api/undo", headers=headers).json()
    assert s["selected"] == "yellow"
    assert client.post("/api/select", headers=headers, json={"colour": "pink"}).status_code == 422


def test_catalogue_opens_puzzles_and_cards(client):
    headers = page(client)
    entries = {e["id"]: e for e in client.get("/api/catalogue", headers=headers).json()}
    for key in ("classic-84", "duo-both", "classic-blue", "duo-purple"):
        assert entries[key]["group"] == "Solo challenge"
    assert {f"puzzle:{p.stem}" for p in PUZZLES.glob("*.toml")} <= set(entries)
    assert {f"card:{p.stem}" for p in (PUZZLES / "cards").glob("*.toml")} <= set(entries)
    s = client.post("/api/open", headers=headers, json={"id": "card:connect-1-easy"}).json()
    problem = load_puzzle(PUZZLES / "cards" / "connect-1-easy.toml")
    assert s["mode"] == "cards" and s["connect"] == list(problem.connect)
    s = client.post("/api/open", headers=headers, json={"id": "card:cover-1-easy"}).json()
    assert s["cover"] == sorted(load_puzzle(PUZZLES / "cards" / "cover-1-easy.toml").cover)
    s = client.post("/api/open", headers=headers, json={"id": "duo-both"}).json()
    assert (s["rows"], s["played"]) == (14, ["purple", "orange"])
    missing = client.post("/api/open", headers=headers, json={"id": "/etc/passwd"})
    assert missing.status_code == 422 and missing.json()["error"] == "nothing to open by that name"


def test_uploads_read_by_the_project_readers(client):
    headers = page(client)
    text = 'variant = "classic"\ncolours = ["blue", "pink"]\n'
    bad = client.post("/api/upload?name=broken.toml", headers=headers, content=text.encode())
    assert bad.status_code == 422
    with pytest.raises(InputError) as e, located(path="broken.toml"):  # as load_puzzle names it
        parse_puzzle(text, "broken.toml")
    assert bad.json()["error"] == str(e.value)
    # a name with folders is only a label: nothing is opened on the server
    named = client.post(
        "/api/upload?name=../../etc/passwd.toml", headers=headers, content=text.encode()
    )
    assert named.json()["error"].startswith("passwd.toml: ")
    big = client.post("/api/upload?name=a.toml", headers=headers, content=b"#" * (MAX_UPLOAD + 1))
    # refused by its Content-Length, before a byte of it is read
    assert big.status_code == 413 and big.json()["error"] == "the file is larger than 1000 kB"
    odd = client.post("/api/upload?name=a.txt", headers=headers, content=b"x")
    assert "not a puzzle (.toml)" in odd.json()["error"]
    # the server keeps serving
    sgf = (GAMES / "duo-L4-s29.blksgf").read_bytes()
    s = client.post("/api/upload?name=duo-L4-s29.blksgf", headers=headers, content=sgf).json()
    assert s["mode"] == "game" and s["game"]["placements"] == 27
    s = client.post("/api/step", headers=headers, json={"step": 10}).json()
    game = read_sgf_text(sgf.decode())
    assert sum(len(c["placed"]) for c in s["colours"]) == 10
    assert s["colours"][0]["remaining"] == list(game.position(10).colours[0].remaining)
    s = client.post("/api/from-here", headers=headers).json()
    assert s["mode"] == "solo" and s["played"] == ["purple", "orange"]
    assert sum(len(c["placed"]) for c in s["colours"]) == 10


def test_solution_upload_draws_its_layout(client):
    headers = page(client)
    data = (ROOT / "results" / "duo-both.json").read_bytes()
    s = client.post("/api/upload?name=duo-both.json", headers=headers, content=data).json()
    assert s["shown"] and len(s["shown"]) == 42
    assert {colour for colour, _, _ in s["shown"]} == {"purple", "orange"}


def test_saves_read_back(client):
    headers = page(client)
    client.post("/api/place", headers=headers, json={"colour": "blue", "cells": [[0, 0], [0, 1]]})
    sgf = client.get("/api/save/sgf", headers=headers)
    assert (
        sgf.headers["content-disposition"] == 'attachment; filename="Classic-all-84-pieces.blksgf"'
    )
    position = read_sgf_text(sgf.text).final
    assert position.colour("blue").placed == (Placement("2", frozenset({0, 1})),)
    toml = client.get("/api/save/toml", headers=headers)
    problem = parse_puzzle(toml.text)
    assert problem.position.colour("blue").squares == frozenset({0, 1})
    assert problem.monomino_last and problem.colours == ("blue", "yellow", "red", "green")
    assert client.get("/api/save/svg", headers=headers).text.startswith("<svg")
    assert client.get("/api/save/png", headers=headers).content.startswith(b"\x89PNG")
    assert client.get("/api/save/exe", headers=headers).status_code == 422
    client.post("/api/open", headers=headers, json={"id": "card:avoid-1-easy"})
    custom = client.get("/api/save/sgf", headers=headers)
    assert custom.status_code == 422 and "SGF supports only" in custom.json()["error"]


def test_questions_answer_as_the_api(client):
    from solver.tasks.endgame import joint_check

    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "puzzle:two-colours-7x7-crowded"})
    answer = ask(client, headers, "joint")
    problem = load_puzzle(PUZZLES / "two-colours-7x7-crowded.toml")
    direct = joint_check(problem.position, problem.colours)
    assert answer["answer"] == direct.answer == "no" and direct.reason in answer["text"]
    assert answer["seconds"] > 0
    client.post("/api/open", headers=headers, json={"id": "card:cover-1-easy"})
    card = load_puzzle(PUZZLES / "cards" / "cover-1-easy.toml")
    solution = ask(client, headers, "solution")
    assert solution["answer"] == "yes"
    from solver.core.checker import check_layout

    layout: dict = {}
    for colour, piece, squares in solution["layout"]:
        layout.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
    report = check_layout(card.position, layout, card.cover, card.connect)
    assert report.legal and not report.unmet
    assert client.get("/api/state", headers=headers).json()["shown"] == solution["layout"]
    s = client.post("/api/hide", headers=headers).json()
    assert s["shown"] is None
    hint = ask(client, headers, "hint")
    ((colour, piece, squares),) = hint["layout"]
    assert move_problem(card.position, colour, Placement(piece, frozenset(squares))) is None
    mine = ask(client, headers, "colour")
    assert mine["answer"] == "yes" and "Hint and Show a solution follow the card" in mine["text"]


def play_far_line(client, headers) -> None:
    """On the Classic solo board: the first 30 placements of a person-like game
    (``tests/data/follow/person-s1-30.json``), after which the joint question is a cold
    solve of minutes: no layout is known (the compiled repair search leaves 11 squares
    or more after 8 s) and no proof of "no" either (each colour alone fits). Two first
    placements that no book layout holds together were used before; the compiled repair
    search answers those in about a second now."""
    moves = json.loads((FOLLOW / "person-s1-30.json").read_text())["moves"]
    for colour, _, squares in moves:
        cells = [[s // 20, s % 20] for s in squares]
        placed = client.post("/api/place", headers=headers, json={"colour": colour, "cells": cells})
        assert placed.status_code == 200 and "refused" not in placed.json(), placed.text


def test_solves_limited_cancelled_and_reaped(monkeypatch):
    with TestClient(create_app(hosts=["testserver"], limit=1, ponder=False)) as client:
        headers = page(client)
        play_far_line(client, headers)  # from the empty board the book answers at once
        start = client.post("/api/ask", headers=headers, json={"kind": "joint", "time_limit": None})
        job = start.json()["job"]
        busy = client.post("/api/ask", headers=headers, json={"kind": "hint", "time_limit": 5})
        assert (
            busy.status_code == 429
            and "as many as this machine has cores (1)" in busy.json()["error"]
        )
        assert client.get(f"/api/job/{job}", headers=headers).json()["state"] == "running"
        other = page(client)  # another page can neither see nor stop this page's solve
        assert client.get(f"/api/job/{job}", headers=other).status_code == 404
        client.post(f"/api/job/{job}/cancel", headers=other)
        assert client.get(f"/api/job/{job}", headers=headers).json()["state"] == "running"
        client.post(f"/api/job/{job}/cancel", headers=headers)
        out = client.get(f"/api/job/{job}", headers=headers).json()
        assert out["state"] == "done" and out["result"]["answer"] == "cancelled"
        jobs = client.app.state.server.jobs
        assert jobs.running() == []
        # a page that stops polling (closed) has its solve killed
        job = client.post("/api/ask", headers=headers, json={"kind": "joint"}).json()["job"]
        process = jobs.get(job).process
        monkeypatch.setattr(jobs_module, "ABANDONED", 0.0)
        jobs.reap()
        assert not process.is_alive() and jobs.get(job) is None
        # and closing the page stops its solves at once
        monkeypatch.setattr(jobs_module, "ABANDONED", 10.0)
        job = client.post("/api/ask", headers=headers, json={"kind": "joint"}).json()["job"]
        process = jobs.get(job).process
        assert client.post("/api/close", headers=headers).json() == {"cancelled": 1}
        assert not process.is_alive()


def test_cli_serve(monkeypatch):
    import socket

    import uvicorn
    from serve_helpers import free_port

    calls = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets: calls.append(sockets[0].getsockname()[:2])
    )
    port = free_port()
    result = run_cli("serve", "--host", "0.0.0.0", "--port", str(port))
    assert result.exit_code == 0, result.output
    assert calls == [("0.0.0.0", port)]  # the server is handed the socket opened first

    from solver.cli.serve import machine_names

    assert socket.gethostname() in machine_names()
    assert "warning: listening on 0.0.0.0" in result.output
    assert f"http://0.0.0.0:{port}/" in result.output
    from helpers import one_line_error

    bad = PUZZLES / "nope.toml"
    one_line_error(run_cli("serve", bad), "nope.toml", "cannot read")


def test_cli_serve_on_a_port_taken(monkeypatch):
    """Another program listens on the port: one line naming it, exit 2, no address
    printed, no browser opened, no server run (issue 31 item 5)."""
    import socket
    import webbrowser

    import uvicorn
    from helpers import one_line_error

    opened, ran = [], []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: ran.append(sockets))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = run_cli("serve", "--port", str(port), "--open")
        line = one_line_error(result, f"--port: port {port} is taken")
        assert "http" not in result.output and "loading" not in result.output, result.output
        for host in ("0.0.0.0", "localhost"):  # any address: the port is taken on all
            result = run_cli("serve", "--host", host, "--port", str(port), "--open")
            assert one_line_error(result, f"port {port} is taken") == line
    one_line_error(run_cli("serve", "--host", "192.0.2.1"), "--host: 192.0.2.1 is not an address")
    assert opened == [] and ran == []


@pytest.mark.slow
def test_installed_copy_offers_the_cards_away_from_the_checkout(tmp_path):
    """``pip install .`` (not editable): the catalogue lists the cards and shipped puzzles
    from the package's own copy, read in a folder with no checkout in sight."""
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)]
    subprocess.run(build, check=True, capture_output=True, timeout=600)
    (wheel,) = wheels.glob("*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    ids = subprocess.run(
        [
            sys.executable,
            "-c",
            "import solver.web.files as f; print(f.shipped_puzzles()); "
            "print(*f.catalogue(), sep='\\n')",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split("\n")
    assert ids[0] == str(site / "solver" / "puzzles")  # the installed copy, not the checkout
    assert {f"card:{p.stem}" for p in (PUZZLES / "cards").glob("*.toml")} <= set(ids)
    assert {f"puzzle:{p.stem}" for p in PUZZLES.glob("*.toml")} <= set(ids)
    for path in (PUZZLES / "cards").glob("*.toml"):  # the same files as the checkout's
        assert (site / "solver" / "puzzles" / "cards" / path.name).read_bytes() == path.read_bytes()


def test_time_limit_covers_the_whole_answer(client, monkeypatch):
    """The limit counts from the question (the worker's start included); a solve still
    running past it (plus the grace) is stopped and answered unknown, never no."""
    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "classic-84"})
    play_far_line(client, headers)  # the companion: far from an answer in 5 s
    # how far a loaded machine runs over is for the benchmark (benchmarks/serve_speed.py):
    # here a wide grace lets the joint check answer itself, then the watchdog is tested
    monkeypatch.setattr(jobs_module, "GRACE", 20.0)
    # 5 s: on a loaded machine a 2 s limit left the repair search no time for a partial
    # layout (its words were missing; the answer itself stays unknown: a cold solve of
    # minutes)
    answer = ask(client, headers, "joint", time_limit=5)
    assert answer["answer"] == "unknown" and "not a no" in answer["text"]
    # the companion's own answer (its tiers share the limit), not the watchdog's
    assert "[companion " in answer["text"], answer["text"]
    # what is short, from the best partial layout the unknown carries (its bound, the
    # free squares, says nothing here and is not shown)
    assert "best partial layout: " in answer["text"] and "short: " in answer["text"]
    assert answer["text"].endswith("s]")
    # the poll loop looks every 0.1 s: the answer came within the limit and the grace
    assert answer["seconds"] <= 5 + jobs_module.GRACE + 0.5
    # a grace of 0.1 s: the watchdog stops the job 0.3 s after it started (with 2 s, a solve
    # on an idle machine once answered "yes" first, and the watchdog went untested)
    monkeypatch.setattr(jobs_module, "GRACE", 0.1)
    jobs = client.app.state.server.jobs
    job = client.post("/api/ask", headers=headers, json={"kind": "joint", "time_limit": None})
    job_id = job.json()["job"]
    process = jobs.get(job_id).process
    jobs.get(job_id).limit = 0.2  # as if its solver ran over a 0.2 s limit
    time.sleep(0.2 + jobs_module.GRACE + 0.1)
    out = client.get(f"/api/job/{job_id}", headers=headers).json()
    assert out["state"] == "done" and out["result"]["answer"] == "unknown"
    assert "time limit of 0.2 s reached" in out["result"]["text"]
    assert not process.is_alive()


def test_colour_question_for_a_named_colour_and_joint_alone(client):
    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "duo-both"})
    job = client.post(
        "/api/ask", headers=headers, json={"kind": "colour", "colour": "orange", "time_limit": 30}
    )
    assert job.status_code == 200
    wrong = client.post("/api/ask", headers=headers, json={"kind": "colour", "colour": "blue"})
    assert wrong.status_code == 422  # read as --colour reads it (issue 31, item 8)
    assert wrong.json()["error"].startswith("'blue' is not a colour of Blokus Duo")
    out = {"state": "running"}
    for _ in range(600):
        out = client.get(f"/api/job/{job.json()['job']}", headers=headers).json()
        if out["state"] == "done":
            break
        time.sleep(0.1)
    assert out["result"]["answer"] == "yes" and out["result"]["text"].startswith("orange")
    # the joint check from scratch (the companion does not apply: red has pieces left but
    # is not played) says what each colour alone gave
    client.post("/api/open", headers=headers, json={"id": "puzzle:two-colours-7x7-crowded"})
    joint = ask(client, headers, "joint", time_limit=60)  # about 1 s; room for a loaded machine
    assert set(joint["alone"]) == {"blue", "yellow"}
    assert joint["alone"] == {"blue": "yes", "yellow": "yes"} and joint["answer"] == "no"


def test_a_bound_that_says_nothing_is_not_shown():
    """ "at most 356 of the 356 squares fit" says nothing: not shown (issue 31 item 11);
    a bound under what is asked is."""
    from solver.answers.words import fit_line
    from solver.tasks.solve import area_fit

    classic = load_puzzle(PUZZLES / "classic-solo-84.toml")
    fit = area_fit(classic)  # the free squares: all 356 fit, as far as it knows
    assert (fit.most, fit.need) == (356, 356) and fit_line(fit) == ""
    assert fit_line(fit, idle=True).endswith("at most 356 of the 356 squares fit")
    lp = dataclasses.replace(fit, most=301.46, by="lp")
    assert fit_line(lp) == "  best bound proved: LP bound: at most 301.4 of the 356 squares fit"
