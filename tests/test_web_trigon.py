"""The page (``blokus-solo serve``) on Blokus Trigon (issue 43): the server sends the
board's cells and the pieces' orientations from the geometry, the page draws the
triangles and places pieces on them, and its answers are the command line's. Over HTTP
with Starlette's test client here; in a real browser in ``test_web_trigon_browser.py``.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from helpers import PUZZLES
from serve_helpers import job_result
from starlette.testclient import TestClient

from solver.core.board import Board
from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.rules import move_problem
from solver.formats.game import load_game
from solver.formats.puzzle import load_puzzle
from solver.web.app import create_app
from solver.web.files import read_upload

TOKEN = re.compile(r'name="token" content="([^"]+)"')
DATA = Path(__file__).parent / "data" / "trigon"
#: a four-colour game of Pentobi's engine (side 9): after 70 placements red and yellow
#: cannot place all their pieces, blue and green can (``blokus-solo check``)
LATE = DATA / "trigon-L3-s9102.blksgf"
#: a three-colour game (side 8)
SMALL = DATA / "trigon_3-L1-s9200.blksgf"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(hosts=["testserver"], ponder=False)) as c:
        yield c


def page(client) -> dict:
    response = client.get("/")
    assert response.status_code == 200
    return {"X-Token": TOKEN.search(response.text).group(1)}


def ask(client, headers, kind, colour=None, wait=120.0) -> dict:
    body = {"kind": kind, "time_limit": 60}
    if colour:
        body["colour"] = colour
    return job_result(client, headers, body, wait)


def test_a_trigon_puzzle_opens_with_its_triangles_and_starting_points(client):
    headers = page(client)
    s = client.post("/api/open", headers=headers, json={"id": "puzzle:trigon-one-colour"}).json()
    assert s["grid"] == "trigon" and s["mode"] == "solo" and s["selected"] == "blue"
    board = Board.trigon(9)
    cells = s["cells"]
    assert len(cells["polygons"]) == 486 and len(cells["names"]) == 486
    # the pictures' polygons (one naming column 1 wide: a triangle's edge is 2)
    assert np.allclose(np.array(cells["polygons"]), board.geometry.polygons * 2, atol=1e-3)
    assert cells["names"][0] == "i18" and cells["tiles"][0] == list(board.geometry.cells[0])
    assert cells["kinds"].count(0) == cells["kinds"].count(1) == 243
    assert [c[0] for c in cells["columns"]][:3] == ["a", "b", "c"] and len(cells["columns"]) == 35
    assert [r[0] for r in cells["rows"]] == [str(18 - y) for y in range(18)]
    starts = sorted(board.parse(n) for n in "r15 r4 j12 j7 z12 z7".split())
    assert s["starting_points"] == starts and s["corners"] == starts  # every one is free
    problem = load_puzzle(PUZZLES / "trigon-one-colour.toml")
    moves = legal_moves(problem.position, "blue")
    assert len(moves) == 2478  # Pentobi's all_legal on the empty board
    legal = {(p, tuple(q)) for p, q in s["legal"]}
    # the monomino is held back (monomino last): the six single triangles on the points
    assert legal == {(m.piece, tuple(sorted(m.squares))) for m in moves if m.piece != "1"}
    assert len(legal) == 2472
    assert s["pieces"] == {} and len(s["shapes"]) == 22


def test_the_pieces_orientations_place_every_pentobi_placement(client):
    """Every orientation the page can hold, translated as the page translates it (a
    tile onto a cell of its kind), gives the 32,131 placements of Pentobi's Move.h on the
    empty side-9 board, and 24,859 on side 8; turn has order 6 and flip order 2."""
    for path, count in ((LATE, 32131), (SMALL, 24859)):
        s = read_upload(path.name, path.read_bytes()).state()
        tiles = {tuple(t): k for k, t in enumerate(s["cells"]["tiles"])}
        kinds = s["cells"]["kinds"]
        placements = set()
        for name, shape in s["shapes"].items():
            n = len(shape["tiles"])
            assert sorted(shape["turn"]) == sorted(shape["flip"]) == list(range(n))
            for k in range(n):
                j = k
                for _ in range(6):
                    j = shape["turn"][j]
                assert j == k and shape["flip"][shape["flip"][k]] == k
                assert len(shape["polygons"][k]) == len(shape["tiles"][k]) == len(shape["kinds"][k])
            for piece_tiles, piece_kinds in zip(shape["tiles"], shape["kinds"], strict=True):
                (ax, ay), kind = piece_tiles[0], piece_kinds[0]
                for (px, py), cell in tiles.items():
                    if kinds[cell] != kind:
                        continue
                    cover = [tiles.get((x + px - ax, y + py - ay)) for x, y in piece_tiles]
                    if None not in cover:
                        placements.add((name, frozenset(cover)))
        assert len(placements) == count, path.name


def test_placing_by_cell_numbers_refusing_and_restoring(client):
    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "trigon-blue"})
    board = Board.trigon(9)
    squares = sorted(board.parse(n) for n in "q15 r15 q14 r14 s14 s15".split())
    s = client.post(
        "/api/place", headers=headers, json={"colour": "blue", "squares": squares}
    ).json()
    assert "refused" not in s, s
    ((piece, placed),) = s["colours"][0]["placed"]
    assert placed == squares and piece == "X"  # Trigon's X: the hexagon of six triangles
    # an I3 over the hexagon's corner: the rules' words, as the command line words them
    i3 = sorted(board.parse(n) for n in "s15 t15 u15".split())
    refused = client.post(
        "/api/place", headers=headers, json={"colour": "blue", "squares": i3}
    ).json()
    after = read_upload("x.toml", (PUZZLES / "trigon-one-colour.toml").read_bytes())
    after.place_squares("blue", squares)
    rule = move_problem(after.problem.position, "blue", Placement("I3", frozenset(i3)))
    assert rule and refused == {"refused": rule}, refused
    assert "triangle s15" in rule
    off = client.post("/api/place", headers=headers, json={"colour": "blue", "squares": [486]})
    assert off.json() == {"refused": "the piece lies partly off the board"}
    bad = client.post("/api/place", headers=headers, json={"colour": "blue", "squares": "q15"})
    assert bad.status_code == 422 and "cell numbers" in bad.json()["error"]
    # the game kept in the browser: played again through the rules on a new page
    snapshot = client.get("/api/state", headers=headers).json()["snapshot"]
    other = page(client)
    again = client.post("/api/restore", headers=other, json={"snapshot": snapshot}).json()
    assert again["colours"][0]["placed"] == [["X", squares]] and again["grid"] == "trigon"


def open_late(client, step: int) -> dict:
    """A page with :data:`LATE` in the game viewer after ``step`` placements."""
    headers = page(client)
    opened = client.post(
        f"/api/upload?name={LATE.name}", headers=headers, content=LATE.read_bytes()
    )
    assert opened.status_code == 200, opened.text
    s = client.post("/api/step", headers=headers, json={"step": step}).json()
    assert s["mode"] == "game" and s["game"]["step"] == step
    return headers


def check_line(*args) -> str:
    """``blokus-solo check LATE ARGS``'s output, its spaces collapsed."""
    from helpers import run_cli

    result = run_cli("check", LATE, *args)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_a_trigon_game_record_answers_as_the_command_line(client):
    """The game viewer after 70 placements: the colour question is ``check --colour``'s
    answer, the joint question ``check --together``'s, through the page's jobs."""
    headers = open_late(client, 70)
    green = ask(client, headers, "colour", "green")
    line = check_line("--after", 70, "--colour", "green")
    assert "green 5 pieces (14 triangles) left: yes all of them fit" in line
    assert green["answer"] == "yes" and "all of them fit" in green["text"]
    layout = {}
    for colour, piece, squares in green["layout"]:  # its five pieces, checked here again
        layout.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
    from solver.core.checker import check_layout

    position = load_game(LATE).position(70)
    report = check_layout(position, layout)
    assert report.legal and report.report("green").all_placed and len(layout["green"]) == 5
    joint = ask(client, headers, "joint")
    reason = "no: yellow needs 17 triangles, only 0 are within its reach"
    assert reason in check_line("--after", 70, "--together")
    assert joint["answer"] == "no" and reason in joint["text"]
    # play on from here: a solo game the companion follows, as on squares (its "no" is the
    # same proof)
    s = client.post("/api/from-here", headers=headers, json={}).json()
    assert s["mode"] == "solo" and s["grid"] == "trigon"
    joint = ask(client, headers, "joint")
    assert joint["answer"] == "no" and reason in joint["text"]
    assert "[companion from the answer" in joint["text"]


@pytest.mark.slow
def test_a_trigon_no_and_its_best_score_as_the_command_line(client):
    """Red after 70 placements cannot place all its pieces: the page's answer is
    ``check``'s "no" with the same best score proved (a few seconds of search)."""
    headers = open_late(client, 70)
    red = ask(client, headers, "colour")  # the colour to move
    best = "best: 4 of 24 triangles, score -20 (proven best)"
    assert "red 5 pieces (24 triangles) left: no " + best in check_line(
        "--after", 70, "--colour", "red"
    )
    assert red["answer"] == "no" and best in red["text"]


def test_the_companion_follows_a_trigon_solo_game():
    from solver.companion.page import FollowRequest
    from solver.web.pondering import focus_of
    from solver.web.session import from_here

    game = read_upload(LATE.name, LATE.read_bytes())
    game.step = 40
    game.follow_turn()
    solo = from_here(game)
    assert solo.known  # the rest of the record, kept as a witness as on squares
    assert isinstance(solo.joint_request(), FollowRequest)  # carried, as on squares

    # what the player looks at: a placement as cell numbers, six triangles at most
    position = solo.problem.position
    move = next(m for m in legal_moves(position, "blue") if len(m.squares) == 6)
    focus = focus_of({"colour": "blue", "piece": move.piece, "squares": sorted(move.squares)}, solo)
    assert focus.placement == move
    off = focus_of({"colour": "blue", "piece": move.piece, "squares": [-1, 3]}, solo)
    assert off.piece == move.piece and off.placement is None


def test_a_three_player_record_opens_on_side_8():
    s = read_upload(SMALL.name, SMALL.read_bytes()).state()
    assert len(s["cells"]["polygons"]) == 384 and s["rows"] == 16 and s["cols"] == 31
    assert [c["name"] for c in s["colours"]] == ["blue", "yellow", "red"]
    game = load_game(SMALL)
    assert s["game"]["placements"] == game.num_placements


@pytest.mark.slow
def test_the_review_chart_of_a_trigon_record_is_the_endgame_checks(client):
    """*Review the game* on a side-8 record (59 placements, 2 s a check): each colour's
    answer at the placements where one was lost is the endgame check's, and the losses
    named are where the answers turn from yes to no."""
    from solver.tasks.endgame import endgame_check

    headers = page(client)
    client.post(f"/api/upload?name={SMALL.name}", headers=headers, content=SMALL.read_bytes())
    review = ask(client, headers, "review", wait=240.0)
    chart = client.get("/api/state", headers=headers).json()["review"]
    record = load_game(SMALL)
    assert chart["placements"] == record.num_placements == 59
    for k in (0, 34, 35, 43, 49, 50):
        position = record.position(k)
        for colour, line in chart["colours"].items():
            assert line["answers"][k] == endgame_check(position, colour).answer, (k, colour)
    assert "red lost the +15 at placement 35" in review["text"]
    assert chart["colours"]["red"]["answers"][34:36] == ["yes", "no"]


def test_saves_of_a_trigon_position_read_back(client):
    from solver.formats.game import read_sgf_text

    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "trigon-blue"})
    board = Board.trigon(9)
    squares = sorted(board.parse(n) for n in "q15 r15 q14 r14 s14 s15".split())
    client.post("/api/place", headers=headers, json={"colour": "blue", "squares": squares})
    placed = Placement("X", frozenset(squares))
    sgf = client.get("/api/save/sgf", headers=headers)
    assert sgf.status_code == 200 and "GM[Blokus Trigon]" in sgf.text
    assert read_sgf_text(sgf.text).final.colour("blue").placed == (placed,)
    toml = client.get("/api/save/toml", headers=headers)
    back = client.post("/api/upload?name=back.toml", headers=headers, content=toml.content).json()
    assert back["grid"] == "trigon" and back["colours"][0]["placed"] == [["X", squares]]
    svg = client.get("/api/save/svg", headers=headers)
    assert svg.text.startswith("<svg") and "<polygon" in svg.text
    png = client.get("/api/save/png", headers=headers)
    assert png.content.startswith(b"\x89PNG")


def test_a_trigon_card_with_blocked_triangles_opens_in_cards_mode(client):
    headers = page(client)
    text = b'variant = "trigon"\ncolours = ["blue"]\nblocked = ["r15", "j12"]\n'
    s = client.post("/api/upload?name=card.toml", headers=headers, content=text).json()
    board = Board.trigon(9)
    blocked = sorted(board.parse(n) for n in ("r15", "j12"))
    assert s["mode"] == "cards" and s["blocked"] == blocked
    # a blocked starting point is no starting point to use: four free ones are left
    assert len(s["corners"]) == 4 and not set(blocked) & set(s["corners"])
    assert "the dark triangles (Xs) stay free" in s["goal_text"]


def test_a_trigon_solution_file_opens_with_its_layout_drawn(client, tmp_path):
    from helpers import run_cli

    out = tmp_path / "solution.json"
    result = run_cli("solve", PUZZLES / "trigon-one-colour.toml", "--out", out)
    assert result.exit_code == 0, result.output
    headers = page(client)
    s = client.post(
        "/api/upload?name=solution.json", headers=headers, content=out.read_bytes()
    ).json()
    assert s["grid"] == "trigon" and len(s["shown"]) == 22
    covered = [sq for _, _, squares in s["shown"] for sq in squares]
    assert len(covered) == len(set(covered)) == 110  # 22 pieces, 110 triangles


def test_the_joint_question_of_a_trigon_solo_game_is_the_companions(client):
    """The four-colour Trigon game: after blue's first piece the joint answer is the solo
    companion's (its compiled repair search), a "yes" whose layout places every piece of
    every colour and passes the rule checker; the next move is answered from it."""
    from solver.core.checker import check_layout

    headers = page(client)
    s = client.post("/api/open", headers=headers, json={"id": "trigon-88"}).json()
    assert s["grid"] == "trigon" and s["mode"] == "solo"
    board = Board.trigon(9)
    played = []
    for colour, names in (("blue", "q15 r15 q14 r14 s14 s15"), ("yellow", "r4 r5 s5 r6 s6 r7")):
        squares = sorted(board.parse(n) for n in names.split())
        s = client.post(
            "/api/place", headers=headers, json={"colour": colour, "squares": squares}
        ).json()
        assert "refused" not in s, s
        played.append((colour, squares))
        joint = ask(client, headers, "joint")
        assert joint["answer"] == "yes", joint
        assert "triangles" in joint["text"] and "squares" not in joint["text"]
        problem = load_puzzle(PUZZLES / "trigon-solo-88.toml")
        position = problem.position
        for c, cells in played:
            piece = next(m.piece for m in legal_moves(position, c) if sorted(m.squares) == cells)
            position = position.with_placement(c, Placement(piece, frozenset(cells)))
        layout: dict[str, list[Placement]] = {}
        for c, piece, squares in joint["layout"]:
            layout.setdefault(c, []).append(Placement(piece, frozenset(squares)))
        report = check_layout(position, layout)
        assert report.legal, report.problem
        assert all(report.report(c).all_placed for c in position.colour_names)
