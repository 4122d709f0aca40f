"""``blokus-solo serve`` end to end in a real browser: Debian's chromium driven by
Playwright. Each step saves a screenshot under the test's temporary folder.

Without /usr/bin/chromium the tests skip (saying how to install it), except under CI
(the environment variable CI set), where a missing browser fails.
"""

import contextlib
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from helpers import GAMES, PUZZLES
from serve_helpers import chromium_browser, free_port, running_server, served


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as b:
        yield b


@pytest.fixture(scope="module")
def served_app():
    """The module's server: its application (to look at its sessions, its jobs) and URL."""
    from solver.web.app import create_app

    port = free_port()
    app = create_app(port=port)
    with served(app, port) as url:
        yield app, url


@pytest.fixture(scope="module")
def server(served_app):
    return served_app[1]


class Steps:
    """A page and its numbered screenshots."""

    def __init__(self, page, folder: Path):
        self.page, self.folder, self.n = page, folder, 0

    def shot(self, name: str) -> Path:
        self.n += 1
        path = self.folder / f"{self.n:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def new_page(browser, server, bypass_csp=True):
    """A page of the server, ready. Playwright's waits on JavaScript predicates evaluate
    strings, which the page's Content-Security-Policy forbids: the tests that use them
    bypass it (test_page_runs_under_its_csp plays without bypassing it)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=bypass_csp)
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    return page


@pytest.fixture
def steps(browser, server, tmp_path):
    page = new_page(browser, server)
    yield Steps(page, tmp_path)
    page.context.close()


def test_page_runs_under_its_csp(browser, server, tmp_path):
    """The page as a user gets it, its Content-Security-Policy in force: it plays, and
    asks nothing of any other server (it works offline)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    asked = []
    context.on("request", lambda request: asked.append(request.url))
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(".tile[data-colour='blue'][data-piece='I3']")  # level: a20, b20, c20
    page.click("#board rect[data-sq='1']")  # its middle square
    page.wait_for_selector(".trayrow.selected .name:text('blue (20)')")
    Steps(page, tmp_path).shot("played-under-csp")
    assert asked and all(url.startswith(server + "/") for url in asked), asked
    page.context.close()


def state(page) -> dict:
    return page.evaluate("S")


def open_entry(page, entry_id: str) -> None:
    page.select_option("#catalogue", entry_id)
    page.wait_for_function(f"S && S.source.includes({json.dumps(entry_id.split(':')[-1])})")


def click_square(page, square: int) -> None:
    page.click(f"#board rect[data-sq='{square}']")


def hold(page, colour: str, piece: str, cells) -> None:
    """Take ``piece`` of ``colour`` from the tray and turn it (R, F) until its cells are
    ``cells`` (normalised, sorted)."""
    page.click(f".tile[data-colour='{colour}'][data-piece='{piece}']")
    page.wait_for_function(
        f"chosen && chosen.piece === {json.dumps(piece)} && S.selected === {json.dumps(colour)}"
    )
    want = sorted(map(list, cells))
    for k in range(8):
        if sorted(page.evaluate("chosen.cells")) == want:
            return
        page.keyboard.press("f" if k == 3 else "r")
    raise AssertionError(f"no orientation of {piece} has cells {want}")


def normalised(squares, cols):
    cells = [divmod(s, cols) for s in squares]
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return sorted((r - r0, c - c0) for r, c in cells)


def play(page, colour, piece, squares) -> None:
    """Place a piece on ``squares`` by clicking: the pointer's square is the piece's
    middle cell (the page's ``anchor()``, an offset in the piece's box)."""
    cols = state(page)["cols"]
    hold(page, colour, piece, normalised(squares, cols))
    r0 = min(s // cols for s in squares)
    c0 = min(s % cols for s in squares)
    dr, dc = page.evaluate("anchor()")
    target = (r0 + dr) * cols + c0 + dc
    assert target in squares
    page.hover(f"#board rect[data-sq='{target}']")
    assert page.get_attribute("#ghost", "class") == "legal"
    click_square(page, target)


def play_far_line(page) -> None:
    """The first 30 placements of a person-like game (``tests/data/follow/
    person-s1-30.json``), clicked: after them the joint question is a cold solve of
    minutes (no layout known, no proof of "no"; tests/test_serve.py's ``play_far_line``)."""
    path = Path(__file__).parent / "data" / "follow" / "person-s1-30.json"
    moves = json.loads(path.read_text())["moves"]
    for colour, piece, squares in moves:
        play(page, colour, piece, squares)
    page.wait_for_function(f"S.moves === {len(moves)}")


def wait_answer(page, kind: str, timeout: float = 60_000) -> dict:
    page.wait_for_selector(f"#answers li[data-kind='{kind}'] .badge:not(.running)", timeout=timeout)
    li = page.locator(f"#answers li[data-kind='{kind}']").first
    return {"badge": li.locator(".badge").inner_text(), "text": li.locator(".t").inner_text()}


def test_place_refuse_undo(steps):
    from solver.core.position import Placement
    from solver.core.rules import move_problem
    from solver.web.session import Session

    page = steps.page
    steps.shot("start")
    s = state(page)
    assert (
        s["selected"] == "blue" and len(s["legal"]) == 57
    )  # 58 in Classic, minus the monomino (last)
    play(page, "blue", "I3", [0, 1, 2])
    page.wait_for_function("S.moves === 1")
    steps.shot("placed-I3")
    s = state(page)
    assert s["colours"][0]["placed"] == [["I3", [0, 1, 2]]]
    assert s["corners"] == [23]
    with page.expect_download() as download:
        page.click("button[data-save='sgf']")
    saved = Path(download.value.path()).read_text()
    assert download.value.suggested_filename.endswith(".blksgf")
    from solver.formats.game import read_sgf_text

    assert read_sgf_text(saved).final.colour("blue").placed == (
        Placement("I3", frozenset({0, 1, 2})),
    )
    # an illegal move: the domino edge to edge with the I3; the page says the rule it breaks
    errors = []  # a refusal is an answer: no failed request in the console
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    hold(page, "blue", "2", [(0, 0), (1, 0)])
    page.hover("#board rect[data-sq='20']")
    assert page.get_attribute("#ghost", "class") == "illegal"
    steps.shot("ghost-illegal")
    click_square(page, 20)
    page.wait_for_selector("#message.error")
    steps.shot("refused")
    session = Session(_classic84())
    session.place("blue", [(0, 0), (0, 1), (0, 2)])
    rule = move_problem(session.problem.position, "blue", Placement("2", frozenset({20, 40})))
    assert rule and page.inner_text("#message") == f"Refused: {rule}"
    assert state(page)["moves"] == 1
    assert errors == []
    page.keyboard.press("Escape")
    page.keyboard.press("z")
    page.wait_for_function("S.moves === 0")
    steps.shot("undone")
    assert state(page)["colours"][0]["placed"] == []
    assert page.locator(".tile[data-colour='blue']").count() == 21


def _classic84():
    from solver.web.files import catalogue

    return catalogue(puzzles=Path("/nonexistent"))["classic-84"].open().start


@pytest.mark.parametrize("card", ["cover-1-easy", "avoid-1-easy", "connect-1-easy"])
def test_card_to_the_end_with_hints(steps, card):
    from solver.core.checker import check_layout
    from solver.core.position import Placement
    from solver.formats.puzzle import load_puzzle

    page = steps.page
    open_entry(page, f"card:{card}")
    steps.shot("card")
    assert state(page)["mode"] == "cards"
    played = []
    for k in range(10):
        s = state(page)
        if s["status"].startswith("solved"):
            break
        page.click("button[data-ask='hint']")
        answer = wait_answer(page, "hint")
        assert answer["badge"] == "yes", answer
        steps.shot(f"hint-{k}")
        ((colour, piece, squares),) = state(page)["shown"]
        play(page, colour, piece, squares)
        page.wait_for_function(f"S.moves === {k + 1}")
        played.append(Placement(piece, frozenset(squares)))
        steps.shot(f"played-{k}")
        page.evaluate("document.getElementById('answers').innerHTML = ''")
    s = state(page)
    problem = load_puzzle(PUZZLES / "cards" / f"{card}.toml")
    goals = ", every goal met" if problem.has_card_goals else ""  # avoid: blocked squares only
    assert s["status"] == "solved: every piece is placed" + goals
    assert problem.has_card_goals or problem.position.board.blocked
    report = check_layout(problem.position, {"blue": played}, problem.cover, problem.connect)
    assert report.legal and not report.unmet and report.report("blue").all_placed


def test_joint_check_on_a_shipped_puzzle(steps):
    from solver.formats.puzzle import load_puzzle
    from solver.tasks.endgame import joint_check

    page = steps.page
    open_entry(page, "puzzle:two-colours-7x7-crowded")
    page.click("button[data-ask='joint']")
    page.wait_for_selector("#answers .badge.running, #answers .badge.no")
    steps.shot("joint-running")
    answer = wait_answer(page, "joint")
    steps.shot("joint-answered")
    problem = load_puzzle(PUZZLES / "two-colours-7x7-crowded.toml")
    direct = joint_check(problem.position, problem.colours)
    assert direct.answer == "no"
    assert answer["badge"] == "no (proven)"
    assert direct.reason in answer["text"] and " s — " in answer["text"]


@pytest.mark.slow
def test_game_stepped_with_review_chart(steps):
    page = steps.page
    page.set_input_files("#upload", str(GAMES / "duo-L4-s29.blksgf"))
    page.wait_for_function("S && S.mode === 'game'")
    steps.shot("game-opened")
    s = state(page)
    assert s["game"]["step"] == 0 and s["game"]["placements"] == 27
    page.click("#forward")
    page.wait_for_function("S.game.step === 1")
    page.keyboard.press("End")
    page.wait_for_function("S.game.step === 27")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("S.game.step === 26")
    placed = sum(len(c["placed"]) for c in state(page)["colours"])
    assert placed == 26
    steps.shot("game-stepped")
    page.click("#review")
    answer = wait_answer(page, "review", timeout=240_000)
    page.wait_for_selector("#reviewchart")
    steps.shot("review-chart")
    review = state(page)["review"]
    assert set(review["colours"]) == {"purple", "orange"}
    for colour, data in review["colours"].items():
        assert len(data["answers"]) == 28
        assert data["all"] is not None  # both lose the +15 in this game (the CLI says 12-16, 15-19)
        assert data["answers"][data["all"]["first"]] == "no"
        assert f"{colour} lost the +15" in answer["text"]
    assert page.locator("#reviewchart line.loss.all").count() == 2
    purple, orange = (review["colours"][c]["answers"][26] for c in ("purple", "orange"))
    assert state(page)["status"] == (
        f"after 26 of 27 placements; can still place all: purple {purple}, orange {orange}"
    )
    # the review is about the whole game: stepping through it does not grey it out
    page.keyboard.press("Home")
    page.wait_for_function("S.game.step === 0")
    review_item = page.locator("#answers li[data-kind='review']")
    assert "stale" not in (review_item.get_attribute("class") or "")
    steps.shot("review-current-at-the-start")


@pytest.mark.slow  # (30 placements clicked first: about 20 s)
def test_closing_the_page_stops_its_solve(browser, served_app, tmp_path):
    """The page's goodbye stops its solve at once and forgets its session (the game is
    kept in the browser)."""
    import httpx2 as httpx

    app, url = served_app
    page = new_page(browser, url)
    steps = Steps(page, tmp_path)
    # the joint question, no limit, after 30 placements of a person-like game: a cold
    # solve of minutes (from the empty board the book answers at once, and a solution of
    # the 84 pieces takes the symmetric reduction a second)
    play_far_line(page)
    page.select_option("#timelimit", "none")
    page.click("button[data-ask='joint']")
    page.wait_for_selector("#answers li[data-job] .badge.running")
    steps.shot("long-solve-running")
    job = app.state.server.jobs.get(page.get_attribute("#answers li[data-job]", "data-job"))
    token = page.evaluate("TOKEN")
    assert job.process.is_alive()
    page.close(run_before_unload=True)
    for _ in range(100):
        if job.result is not None:
            break
        time.sleep(0.1)
    assert job.result["answer"] == "cancelled", job.result
    assert job.result["text"] == "cancelled: the page was closed"
    assert not job.process.is_alive()
    with httpx.Client(base_url=url, headers={"X-Token": token}) as client:
        gone = client.get("/api/state")
    assert gone.status_code == 403 and gone.json()["reload"] is True


def test_malformed_upload_shows_its_line(steps, tmp_path):
    from solver.errors import InputError, located
    from solver.formats.puzzle import parse_puzzle

    page = steps.page
    bad = tmp_path / "broken.toml"
    bad.write_text('variant = "classic"\ncolours = ["blue", "pink"]\n')
    page.set_input_files("#upload", str(bad))
    page.wait_for_selector("#message.error")
    steps.shot("bad-upload")
    with pytest.raises(InputError) as e, located(path="broken.toml"):  # as load_puzzle names it
        parse_puzzle(bad.read_text(), "broken.toml")
    assert page.inner_text("#message") == str(e.value)
    # the server keeps serving: the page still plays
    play(page, "blue", "I3", [0, 1, 2])
    page.wait_for_function("S.moves === 1")


def test_foreign_host_and_origin_refused(steps, server):
    import httpx2 as httpx

    page = steps.page
    token = page.evaluate("TOKEN")
    good = {"X-Token": token}
    with httpx.Client(base_url=server) as client:
        assert client.get("/api/state", headers=good).status_code == 200
        assert client.get("/api/state").status_code == 403  # no token
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
        foreign = {**good, "Origin": "http://evil.example"}
        assert client.post("/api/pass", headers=foreign).status_code == 403
        other_port = {**good, "Origin": "http://127.0.0.1:1"}
        assert client.post("/api/pass", headers=other_port).status_code == 403
    # a page of another site cannot make the local server play: the request is refused
    page2 = page.context.browser.new_page()  # its own context: another site's page
    page2.goto("data:text/html,<p>another site</p>")
    page2.evaluate(
        """([url, token]) => fetch(url + '/api/pass', {method: 'POST', mode: 'no-cors',
        headers: {'X-Token': token}}).catch(() => null)""",
        [server, token],
    )
    page2.close()
    page.evaluate("act('/api/state')")  # not a POST route: re-read the state another way
    assert (
        page.evaluate(
            "fetch('/api/state', {headers: {'X-Token': TOKEN}}).then(r => r.json()).then(s => s.moves)"
        )
        == 0
    )
    steps.shot("still-served")


def test_screenshot_for_docs(steps):
    """A mid-game picture for docs/serve.png (copied when BLOKUS_DOCS_SHOT names a file)."""
    page = steps.page
    open_entry(page, "card:cover-2-medium")
    page.click("button[data-ask='hint']")
    wait_answer(page, "hint")
    page.click("button[data-ask='joint']")
    wait_answer(page, "joint")
    path = steps.shot("docs")
    target = os.environ.get("BLOKUS_DOCS_SHOT")
    if target:  # a small copy for the documentation
        from PIL import Image

        with Image.open(path) as image:
            small = image.convert("RGB").resize((900, round(image.height * 900 / image.width)))
            small.quantize(256, method=Image.Quantize.FASTOCTREE).save(target, optimize=True)
    assert path.stat().st_size > 10_000


@pytest.mark.slow
def test_twenty_moves_of_the_solo_challenge_with_answers(steps):
    """The issue's player: 20 moves of the Classic 84 challenge, the colours taking turns
    (from the shipped checked layout, results/classic-solo-84.json), then the answers."""
    from helpers import ROOT

    from solver.answers.solution import read_solution

    page = steps.page
    page.check("#turnorder")
    page.wait_for_function("S.turn_order === true")
    layout = read_solution(ROOT / "results" / "classic-solo-84.json").layout
    for k in range(20):
        colour = ("blue", "yellow", "red", "green")[k % 4]
        assert state(page)["selected"] == colour  # the turn order moves on by itself
        placement = layout[colour][k // 4]
        play(page, colour, placement.piece, sorted(placement.squares))
        page.wait_for_function(f"S.moves === {k + 1}")
    steps.shot("twenty-moves")
    s = state(page)
    assert [len(c["placed"]) for c in s["colours"]] == [5, 5, 5, 5]
    page.click("button[data-ask='colour']")
    answer = wait_answer(page, "colour")
    assert answer["badge"] == "yes", answer  # blue alone: 16 pieces, quick
    page.select_option("#timelimit", "5")
    page.click("button[data-ask='joint']")
    joint = wait_answer(page, "joint", timeout=180_000)
    steps.shot("twenty-moves-answers")
    # the shipped layout places every piece from here: a "no" would be a false proof
    assert joint["badge"] in ("yes", "unknown"), joint


def test_tray_ghost_and_buttons_say_what_they_do(steps):
    """The monomino greyed until last (monomino-last), the anchor square ringed in the
    ghost, the flip's direction in its title, the favicon inline (no request for it)."""
    page = steps.page
    assert "mirror left-right" in page.get_attribute("#flip", "title")
    assert page.get_attribute("link[rel='icon']", "href").startswith("data:image/svg+xml,")
    mono = ".tile[data-colour='blue'][data-piece='1']"
    assert "locked" in page.get_attribute(mono, "class")
    page.click(mono)
    assert page.evaluate("chosen") is None
    assert "monomino last" in page.inner_text("#message")
    steps.shot("monomino-greyed")
    assert "locked" not in page.get_attribute(".tile[data-colour='blue'][data-piece='2']", "class")
    # an even piece: the O's anchor is its top-left square, ringed under the pointer
    page.click(".tile[data-colour='blue'][data-piece='O']")
    page.hover("#board rect[data-sq='42']")  # row 2, column 2 of 20
    ring = page.locator("#ghost circle.anchor")
    assert (float(ring.get_attribute("cx")), float(ring.get_attribute("cy"))) == (2.5, 2.5)
    dr, dc = page.evaluate("anchor()")
    ghost = {
        (round(float(r.get_attribute("y"))), round(float(r.get_attribute("x"))))
        for r in page.locator("#ghost rect").all()
    }
    assert (2 - dr, 2 - dc) == min(ghost)  # the ring is the anchor's square of the ghost
    assert page.locator("#ghost path").count() == 4  # illegal here: each square crossed
    steps.shot("anchor-ringed")


def test_answer_list_numbered_in_order_and_ungreyed_on_redo(steps):
    page = steps.page
    page.click("button[data-ask='colour']")
    wait_answer(page, "colour")
    play(page, "blue", "I3", [0, 1, 2])
    page.wait_for_function("S.moves === 1")
    page.click("button[data-ask='colour']")
    page.wait_for_selector("#answers li:nth-child(2) .badge")
    page.wait_for_function("!document.querySelector('#answers .badge.running')")
    items = page.locator("#answers li")
    assert [items.nth(k).evaluate("e => e.value") for k in range(2)] == [2, 1]  # newest on top
    assert items.nth(0).get_attribute("class") in (None, "")
    assert "stale" in items.nth(1).get_attribute("class")
    border = page.evaluate("getComputedStyle(document.getElementById('answers')).borderTopStyle")
    assert border == "solid"
    title = items.nth(0).locator(".t").get_attribute("title")
    # the engine in the tooltip (not "answered by 0.06 s"), not in the line
    assert re.match(r"answered by [a-z+]+, \d+\.\d\d s$", title), title
    assert "[" not in items.nth(0).locator(".t").inner_text()
    steps.shot("two-answers")
    page.keyboard.press("z")
    page.wait_for_function("S.moves === 0")
    assert "stale" not in (items.nth(1).get_attribute("class") or "")  # its position again
    assert "stale" in items.nth(0).get_attribute("class")
    page.keyboard.press("y")
    page.wait_for_function("S.moves === 1")
    assert "stale" not in (items.nth(0).get_attribute("class") or "")
    steps.shot("redone-ungreyed")


def test_card_printed_pieces_and_hint_drawn_apart(steps):
    page = steps.page
    open_entry(page, "card:connect-1-easy")
    s = state(page)
    printed = {sq for c in s["colours"] for _, squares in c["placed"] for sq in squares}
    assert printed and s["printed"] == sorted(printed)
    assert page.locator("#board g.printed rect").count() == len(printed)
    page.click("button[data-ask='hint']")
    assert wait_answer(page, "hint")["badge"] == "yes"
    ((_, _, squares),) = state(page)["shown"]
    assert page.locator("#shown circle.shown-dot").count() == len(squares)
    steps.shot("printed-hatched-hint-dotted")


@pytest.mark.slow
def test_unknown_joint_offers_each_colour_alone(steps):
    page = steps.page
    play_far_line(page)  # (the empty board, and one first placement: the book)
    page.evaluate(  # a 4 s limit (the menu's shortest is 5 s): the Classic joint times out
        "(() => { const o = new Option('4 s', '4'); $('timelimit').add(o); o.selected = true; })()"
    )
    page.click("button[data-ask='joint']")
    # while it runs, the line says how close the repair search has come (issue 45)
    running = "#answers li[data-kind='joint']"
    page.wait_for_function(
        f'(() => {{ const li = document.querySelector("{running}"); return li &&'
        " li.querySelector('.badge.running') && /best so far: \\d+ of 54 pieces placed,"
        " \\d+ squares left/.test(li.querySelector('.t').textContent); })()",
        timeout=4_000,
    )
    steps.shot("joint-running-best-so-far")
    so_far = int(page.locator(running).first.get_attribute("data-left"))
    answer = wait_answer(page, "joint")
    assert answer["badge"] == "unknown", answer
    final = int(answer["text"].split(" squares left")[0].rsplit(" ", 1)[-1])
    assert 0 < final <= so_far, (so_far, answer)
    steps.shot("joint-unknown")
    page.click("#answers li[data-kind='joint'] button.each")
    page.wait_for_function(
        "document.querySelectorAll('#answers li[data-kind=\"colour\"] .badge:not(.running)')"
        ".length === 4",
        timeout=120_000,
    )
    steps.shot("each-colour-alone")
    asked = page.locator("#answers li[data-kind='colour'] .q").all_inner_texts()
    assert sorted(asked) == sorted(
        f"Can this colour still place everything? ({c})" for c in ("blue", "yellow", "red", "green")
    )


@contextlib.contextmanager
def another_site(html: str):
    """A page of another site on this machine (a real server: Chromium lets only a local
    page reach a local server), at http://localhost:PORT/; yields its URL."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(html.encode())

        def log_message(self, *args):
            pass

    with ThreadingHTTPServer(("127.0.0.1", 0), Page) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://localhost:{httpd.server_address[1]}/"
        finally:
            httpd.shutdown()


def test_frames_of_another_site_make_no_session(browser, served_app, tmp_path):
    """A page of another site with hidden frames of this one makes no session, and the
    idle player's game plays on (the issue's page had 34 frames, more than the old limit
    of sessions; 8 show the same, each refused, and cost a quarter of the time)."""
    app, url = served_app
    player = new_page(browser, url)
    play(player, "blue", "I3", [0, 1, 2])
    player.wait_for_function("S.moves === 1")
    sessions = app.state.server.sessions
    before = len(sessions)
    frames = "".join(f'<iframe src="{url}/" hidden></iframe>' for _ in range(8))
    context = browser.new_context()
    other = context.new_page()
    statuses = []
    other.on("response", lambda r: statuses.append(r.status) if r.url == url + "/" else None)
    with another_site(frames) as other_site:  # localhost is not 127.0.0.1's site
        other.goto(other_site)
        other.wait_for_load_state("load")
    Steps(other, tmp_path).shot("other-site-with-frames")
    context.close()
    assert statuses == [403] * 8, statuses  # refused: the page opens only on its own
    assert len(sessions) == before
    play(player, "yellow", "2", [18, 19])  # the player's next move, on the same game
    player.wait_for_function("S.moves === 2")
    Steps(player, tmp_path).shot("player-plays-on")
    player.context.close()


def test_game_survives_reload_and_server_restart(browser, tmp_path):
    """F5 and a restart of the server lose no game: the page keeps it in the browser
    (localStorage) and plays it again, moves taken back included; an uploaded game
    record played on from a placement too (its file kept as well)."""
    from solver.web.app import create_app

    port = free_port()
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page = context.new_page()
    steps = Steps(page, tmp_path)
    with served(create_app(port=port), port, lifespan="off") as url:  # no question asked
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready='1']")
        play(page, "blue", "I3", [0, 1, 2])
        page.wait_for_function("S.moves === 1")
        play(page, "yellow", "2", [18, 19])
        page.wait_for_function("S.moves === 2")
        page.keyboard.press("z")
        page.wait_for_function("S.moves === 1 && S.redo === 1")
        before = state(page)
        steps.shot("before-reload")
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        steps.shot("after-reload")
        after = state(page)
        assert page.inner_text("#message") == "restored the game kept in this browser (1 move)"
        for key in ("colours", "moves", "redo", "selected", "legal", "snapshot"):
            assert after[key] == before[key], key
    with served(
        create_app(port=port), port, lifespan="off"
    ):  # the server restarted: the page's token is unknown
        with page.expect_navigation():
            page.click("#redo")  # refused (403): the page reloads and restores its game
        page.wait_for_selector("body[data-ready='1']")
        steps.shot("after-restart")
        assert state(page)["snapshot"] == before["snapshot"]
        page.keyboard.press("y")
        page.wait_for_function("S.moves === 2")
        # an uploaded game record, played on from placement 10: the file is kept too
        page.set_input_files("#upload", str(GAMES / "duo-L4-s29.blksgf"))
        page.wait_for_function("S && S.mode === 'game'")
        page.fill("#step", "10")
        page.dispatch_event("#step", "change")
        page.wait_for_function("S.game.step === 10")
        page.click("#fromhere")
        page.wait_for_function("S.mode === 'solo'")
        piece, squares = state(page)["legal"][0]
        play(page, state(page)["selected"], piece, squares)
        page.wait_for_function("S.moves === 1")
        before = state(page)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        steps.shot("game-record-played-on-restored")
        after = state(page)
        assert after["snapshot"]["from_step"] == 10 and after["snapshot"]["opened"] is None
        for key in ("colours", "title", "moves", "snapshot"):
            assert after[key] == before[key], key
    context.close()


def _contrast(page, selector: str) -> float:
    """The WCAG 2 contrast ratio of an element's text on its background."""

    def luminance(css: str) -> float:
        channels = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
        r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    style = page.evaluate(
        f"(() => {{ const s = getComputedStyle(document.querySelector({json.dumps(selector)}));"
        " return [s.color, s.backgroundColor]; })()"
    )
    light, dark = sorted(map(luminance, style), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_board_named_readable_and_in_view_at_1024(browser, server, tmp_path):
    """The page as a player sees it at 1024x768: a piece taken from the bottom of the tray
    leaves the board in view; the squares are named around the board as hints and answers
    name them (a1 the lower left); every colour button is readable (contrast 4.5)."""
    from solver.web.files import catalogue

    context = browser.new_context(viewport={"width": 1024, "height": 768}, bypass_csp=True)
    page = context.new_page()
    steps = Steps(page, tmp_path)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    steps.shot("1024-start")
    page.click(".tile[data-colour='green'][data-piece='Z5']")  # the tray's last piece
    page.wait_for_function("chosen && chosen.piece === 'Z5' && S.selected === 'green'")
    board = page.locator("#board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= 768, board
    assert board["width"] >= 400  # beside the tray, not squeezed
    page.hover("#board rect[data-sq='362']")  # the ghost follows on the board in view
    assert page.locator("#ghost rect").count() == 5
    steps.shot("1024-piece-from-the-bottom-of-the-tray")
    # the names around the board: each square's column letter under it, its number beside it
    # (x, y) in squares: a column's letter under it, a row's number left of it
    texts = page.locator("#board g.coords text").all()
    places = [(float(t.get_attribute("x")), float(t.get_attribute("y"))) for t in texts]
    columns = {int(x): t.text_content() for t, (x, y) in zip(texts, places) if y > 20}
    rows = {int(y): t.text_content() for t, (x, y) in zip(texts, places) if x < 0}
    assert len(columns) == len(rows) == 20 and len(texts) == 40
    names = catalogue(puzzles=Path("/nonexistent"))["classic-84"].open().problem.position.board
    for square in (0, 19, 42, 380, 399):
        row, col = divmod(square, 20)
        assert columns[col] + rows[row] == names.name(square)  # a20, t20, c18, a1, t1
    for colour in ("blue", "yellow", "red", "green"):
        assert _contrast(page, f"#colours button[data-colour='{colour}']") >= 4.5, colour
    page.select_option("#catalogue", "duo-both")
    page.wait_for_function("S.played.includes('purple')")
    for colour in ("purple", "orange"):
        assert _contrast(page, f"#colours button[data-colour='{colour}']") >= 4.5, colour
    steps.shot("1024-duo")
    context.close()


def test_marks_of_the_placement_under_the_mouse(browser, tmp_path):
    """The solo companion in the page (issue 32 item 6): with a piece in hand, the legal
    placement under the mouse says what is known of it ("keeps everything placeable": a
    checked layout contains it; "loses": proven; "not known yet"), refined while the
    server ponders; the answer after the move says where it came from."""
    from solver.formats.game import load_game

    game_file = Path(__file__).parent / "data" / "follow" / "duo-both-layout.blksgf"
    game = load_game(game_file)
    step = 32  # 10 pieces left: pondering decides every placement within seconds
    with running_server(ponder=True) as url:
        page = new_page(browser, url)
        steps = Steps(page, tmp_path)
        page.set_input_files("#upload", str(game_file))
        page.wait_for_function("S && S.mode === 'game'")
        page.evaluate(f"act('/api/step', {{ step: {step} }})")
        page.wait_for_function(f"S.game.step === {step}")
        page.click("#fromhere")
        page.wait_for_function("S && S.mode === 'solo'")
        move = game.moves[step]
        cols = state(page)["cols"]
        squares = sorted(move.placement.squares)
        hold(page, move.colour, move.placement.piece, normalised(squares, cols))
        dr, dc = page.evaluate("anchor()")
        r0, c0 = min(s // cols for s in squares), min(s % cols for s in squares)
        target = (r0 + dr) * cols + c0 + dc
        page.hover(f"#board rect[data-sq='{target}']")
        # the record's move: the rest of the record is a checked layout that contains it
        page.wait_for_selector("#mark.mark-keeps", timeout=30_000)
        assert (
            page.inner_text("#mark") == f"{move.placement.piece} here: keeps everything placeable"
        )
        assert page.get_attribute("#ghost", "data-mark") == "keeps"
        steps.shot("mark-keeps")
        # another legal placement of the piece: pondered to "loses" (proven) or "keeps"
        legal = [
            sq for p, sq in state(page)["legal"] if p == move.placement.piece and sq != squares
        ]
        other = legal[0]
        r1, c1 = min(s // cols for s in other), min(s % cols for s in other)
        hold(page, move.colour, move.placement.piece, normalised(other, cols))
        dr, dc = page.evaluate("anchor()")
        page.hover(f"#board rect[data-sq='{(r1 + dr) * cols + c1 + dc}']")
        page.wait_for_selector("#mark.mark-keeps, #mark.mark-loses", timeout=60_000)
        steps.shot("mark-pondered")
        # the move played: the answer says it came from a layout known already
        hold(page, move.colour, move.placement.piece, normalised(squares, cols))
        play(page, move.colour, move.placement.piece, squares)
        page.wait_for_function("S.moves === 1")
        page.click("button[data-ask='joint']")
        answer = wait_answer(page, "joint")
        assert answer["badge"] == "yes" and "from a layout known already" in answer["text"]
        steps.shot("answered-from-the-pool")
        page.context.close()
