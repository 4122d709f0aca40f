"""The page on Blokus Trigon in a real browser (Debian's chromium driven by Playwright):
the triangles drawn from the geometry, a piece picked, turned and placed by clicking, and
the answers the command line gives. Each step saves a screenshot under the test's
temporary folder.

Without /usr/bin/chromium the tests skip (saying how to install it), except under CI
(the environment variable CI set), where a missing browser fails.
"""

import json
from pathlib import Path

import pytest
from helpers import run_cli
from serve_helpers import chromium_browser, running_server

from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.rules import move_problem
from solver.formats.game import load_game

DATA = Path(__file__).parent / "data" / "trigon"
#: a four-colour game of Pentobi's engine (side 9; tests/test_web_trigon.py)
LATE = DATA / "trigon-L3-s9102.blksgf"
#: a three-colour game (side 8)
SMALL = DATA / "trigon_3-L1-s9200.blksgf"


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as b:
        yield b


@pytest.fixture(scope="module")
def server():
    with running_server() as url:
        yield url


class Steps:
    """A page and its numbered screenshots."""

    def __init__(self, page, folder: Path):
        self.page, self.folder, self.n = page, folder, 0

    def shot(self, name: str) -> Path:
        self.n += 1
        path = self.folder / f"{self.n:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def steps(browser, server, tmp_path):
    # Playwright's waits on JavaScript predicates evaluate strings, which the page's
    # Content-Security-Policy forbids: bypassed here (tests/test_serve_browser.py runs
    # the page under it)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    yield Steps(page, tmp_path)
    context.close()
    assert errors == []  # no script error, no failed request


def state(page) -> dict:
    return page.evaluate("S")


def server_state(page) -> dict:
    """The server's state of the page's session (not the page's copy)."""
    return page.evaluate("call('/api/state')")


def open_entry(page, entry_id: str) -> None:
    page.select_option("#catalogue", entry_id)
    page.wait_for_function(f"S && S.snapshot && S.snapshot.opened === {json.dumps(entry_id)}")


#: the presses of R and F (F at the sixth) and the cell under the pointer that make the
#: ghost of the piece in hand cover ``want``, worked out with the page's own functions
PLAN = """(want) => {
  const shape = S.shapes[chosen.piece], kept = [chosen.k, pointer];
  let k = chosen.k, plan = null;
  for (let n = 0; n < 12 && !plan; n++) {
    for (const sq of want) {
      chosen.k = k; pointer = sq;
      const ghost = ghostCells();
      if (ghost && ghostSquares(ghost).join() === want.join()) { plan = [n, sq]; break; }
    }
    k = n === 5 ? shape.flip[k] : shape.turn[k];
  }
  [chosen.k, pointer] = kept;
  return plan;
}"""


def play(page, colour: str, piece: str, squares) -> None:
    """Place ``piece`` of ``colour`` on the cells ``squares`` as a person does: take it
    from the tray, turn it (R, then F) until the ghost under one of its cells covers
    ``squares``, and click there."""
    page.click(f".tile[data-colour='{colour}'][data-piece='{piece}']")
    page.wait_for_function(f"chosen && chosen.piece === {json.dumps(piece)}")
    want = sorted(squares)
    plan = page.evaluate(PLAN, want)
    assert plan, f"no orientation of {piece} covers {want}"
    presses, cell = plan
    for k in range(presses):
        page.keyboard.press("f" if k == 5 else "r")
    page.hover(f"#board polygon.cell[data-sq='{cell}']")
    assert page.evaluate("ghostSquares(ghostCells())") == want
    assert page.get_attribute("#ghost", "class") == "legal"
    page.click(f"#board polygon.cell[data-sq='{cell}']")


def wait_answer(page, kind: str, timeout: float = 60_000) -> dict:
    page.wait_for_selector(f"#answers li[data-kind='{kind}'] .badge:not(.running)", timeout=timeout)
    li = page.locator(f"#answers li[data-kind='{kind}']").first
    return {"badge": li.locator(".badge").inner_text(), "text": li.locator(".t").inner_text()}


def test_the_triangles_drawn_and_a_piece_placed_by_clicking(steps):
    page = steps.page
    open_entry(page, "trigon-blue")
    steps.shot("trigon-start")
    board = Board.trigon(9)
    assert page.locator("#board polygon.cell").count() == 486
    assert page.locator("#board polygon.cell[data-sq='0']").get_attribute("data-name") == "i18"
    assert page.locator("#board circle.start").count() == 6  # the shared starting points
    assert page.locator("#board .corner").count() == 6
    assert page.locator(".tile[data-colour='blue']").count() == 22
    assert "sixth of a turn" in page.get_attribute("#rotate", "title")
    # the V over the starting point r15: rotated and flipped into place, then clicked
    start = board.parse("r15")
    moves = [
        m for m in legal_moves(_empty_trigon(), "blue") if m.piece == "V" and start in m.squares
    ]
    target = sorted(moves[len(moves) // 2].squares)
    play(page, "blue", "V", target)
    page.wait_for_function("S.moves === 1")
    steps.shot("trigon-placed-V")
    assert server_state(page)["colours"][0]["placed"] == [["V", target]]
    assert page.locator("#board circle.start").count() == 5  # r15 is covered
    # F5: the game kept in the browser is played again by its cell numbers
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert (
        state(page)["colours"][0]["placed"] == [["V", target]] and state(page)["grid"] == "trigon"
    )
    assert page.locator("#board polygon.cell").count() == 486


def test_a_refusal_undo_and_another_trigon_board(steps):
    """A placement the rules refuse (crossed out, refused in words), undo, and a piece in
    hand dropped when a side-8 board opens."""
    page = steps.page
    open_entry(page, "trigon-blue")
    board = Board.trigon(9)
    start = board.parse("r15")
    moves = [
        m for m in legal_moves(_empty_trigon(), "blue") if m.piece == "V" and start in m.squares
    ]
    target = sorted(moves[0].squares)
    play(page, "blue", "V", target)
    page.wait_for_function("S.moves === 1")
    # the I3 edge to edge with the V: crossed out, then refused in words
    page.click(".tile[data-colour='blue'][data-piece='I3']")
    near = next(n for s in target for n in board.edge_neighbours[s] if n not in target)
    page.hover(f"#board polygon.cell[data-sq='{near}']")
    assert page.get_attribute("#ghost", "class") == "illegal"
    ghost = page.evaluate("ghostSquares(ghostCells())")
    steps.shot("trigon-ghost-illegal")
    page.click(f"#board polygon.cell[data-sq='{near}']")
    page.wait_for_selector("#message.error")
    after = _empty_trigon().with_placement("blue", Placement("V", frozenset(target)))
    rule = move_problem(after, "blue", Placement("I3", frozenset(ghost)))
    assert rule and page.inner_text("#message") == f"Refused: {rule}"
    assert server_state(page)["moves"] == 1
    page.keyboard.press("Escape")
    page.keyboard.press("z")
    page.wait_for_function("S.moves === 0")
    assert server_state(page)["colours"][0]["placed"] == []
    # a piece in hand over a triangle of side 9 that side 8 has not: another board opened
    page.click(".tile[data-colour='blue'][data-piece='I6']")
    page.hover("#board polygon.cell[data-sq='470']")
    page.set_input_files("#upload", str(SMALL))
    page.wait_for_function("S && S.rows === 16")
    assert page.evaluate("chosen === null && pointer === null")
    assert page.locator("#board polygon.cell").count() == 384  # no script error (the fixture)


def _empty_trigon():
    from solver.web.files import catalogue

    return catalogue(puzzles=Path("/nonexistent"))["trigon-blue"].open().problem.position


@pytest.mark.slow  # three solves in the page's worker: about 7 s alone, 15 s beside others
def test_a_hint_followed_to_a_yes(steps):
    """Hint on the one-colour Trigon challenge: a placement drawn (checked by the rule
    checker), played by clicking; then "can this colour still place everything?" is yes
    with a layout the rule checker accepts."""
    page = steps.page
    open_entry(page, "trigon-blue")
    page.click("button[data-ask='hint']")
    answer = wait_answer(page, "hint")
    assert answer["badge"] == "yes", answer
    page.wait_for_function("S.shown")  # the state is asked for after the answer is shown
    ((colour, piece, squares),) = state(page)["shown"]
    assert page.locator("#shown polygon").count() == len(squares)
    steps.shot("trigon-hint")
    play(page, colour, piece, squares)
    page.wait_for_function("S.moves === 1")
    assert server_state(page)["colours"][0]["placed"] == [[piece, squares]]
    page.click("button[data-ask='colour']")
    answer = wait_answer(page, "colour")
    assert answer["badge"] == "yes" and "all of them fit" in answer["text"], answer
    page.click("button[data-ask='solution']")
    answer = wait_answer(page, "solution")
    assert answer["badge"] == "yes", answer
    page.wait_for_function("S.shown && S.shown.length > 1")
    shown = state(page)["shown"]
    steps.shot("trigon-solution")
    position = _empty_trigon().with_placement(colour, Placement(piece, frozenset(squares)))
    layout = {"blue": [Placement(p, frozenset(s)) for _, p, s in shown]}
    report = check_layout(position, layout)
    assert report.legal and report.report("blue").all_placed and len(shown) == 21


def test_a_trigon_game_record_in_the_viewer_answers_as_check(steps):
    """A Pentobi Trigon record uploaded, stepped to placement 70: the joint question is
    ``blokus-solo check --together``'s answer and the colour question ``check
    --colour``'s; a side-8 record draws 384 triangles."""
    page = steps.page
    page.set_input_files("#upload", str(LATE))
    page.wait_for_function("S && S.mode === 'game' && S.cells")
    page.evaluate("step(70)")
    page.wait_for_function("S.game.step === 70")
    assert sum(len(c["placed"]) for c in state(page)["colours"]) == 70
    assert page.locator("#board polygon.cell").count() == 486
    page.click("button[data-ask='joint']")
    joint = wait_answer(page, "joint")
    together = " ".join(run_cli("check", LATE, "--after", 70, "--together").output.split())
    reason = "yellow needs 17 triangles, only 0 are within its reach"
    assert reason in together and joint["badge"] == "no (proven)" and reason in joint["text"]
    page.evaluate("ask('colour', 'green')")
    green = wait_answer(page, "colour")
    line = " ".join(run_cli("check", LATE, "--after", 70, "--colour", "green").output.split())
    assert "left: yes all of them fit" in line and green["badge"] == "yes"
    steps.shot("trigon-game-70")
    final = load_game(LATE).position(70)
    drawn = {(c["name"], p, tuple(s)) for c in state(page)["colours"] for p, s in c["placed"]}
    assert drawn == {
        (c.name, p.piece, tuple(sorted(p.squares))) for c in final.colours for p in c.placed
    }
    page.set_input_files("#upload", str(SMALL))
    page.wait_for_function("S && S.rows === 16")
    assert page.locator("#board polygon.cell").count() == 384
