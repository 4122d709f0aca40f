"""``blokus-solo serve``: the joint question answered by the solo companion while the
page's game is followed move by move (solver/companion/page.py), over HTTP."""

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_serve import ask, page  # the page's token and the polling of a question

from solver.core.checker import check_layout
from solver.core.position import Placement
from solver.formats.game import load_game
from solver.tasks.endgame import joint_check
from solver.web.app import create_app

LAYOUT_GAME = Path(__file__).parent / "data" / "follow" / "duo-both-layout.blksgf"
#: placements shown before "play on from here" (the rest of the record: the witness)
STEP = 30


@pytest.fixture(scope="module")
def client():
    """One server for the module (its workers loaded once); each test opens its own page."""
    with TestClient(create_app(hosts=["testserver"], ponder=False)) as c:
        yield c


def followed(client, step=STEP):
    """A page playing on from placement ``step`` of the Duo layout game; its headers."""
    headers = page(client)
    sgf = LAYOUT_GAME.read_bytes()
    opened = client.post("/api/upload?name=duo.blksgf", headers=headers, content=sgf)
    assert opened.status_code == 200, opened.text
    client.post("/api/step", headers=headers, json={"step": step})
    state = client.post("/api/from-here", headers=headers).json()
    assert state["mode"] == "solo" and state["moves"] == 0
    return headers


def place(client, headers, colour: str, placement: Placement, cols: int) -> dict:
    cells = [[s // cols, s % cols] for s in placement.squares]
    out = client.post("/api/place", headers=headers, json={"colour": colour, "cells": cells})
    assert out.status_code == 200 and "refused" not in out.json(), out.text
    return out.json()


def checked_yes(answer: dict, position) -> None:
    """The answer is a "yes" whose layout the rule checker accepts from ``position``."""
    assert answer["answer"] == "yes", answer["text"]
    layout: dict = {}
    for colour, piece, squares in answer["layout"]:
        layout.setdefault(colour, []).append(Placement(piece, frozenset(squares)))
    report = check_layout(position, layout)
    assert report.legal and all(r.all_placed for r in report.colours)


def test_moves_of_the_record_keep_the_carried_layout(client):
    headers = followed(client)
    game = load_game(LAYOUT_GAME)
    cols = game.position(0).board.cols
    first = ask(client, headers, "joint")
    # the rest of the record is the first witness: kept, checked
    checked_yes(first, game.position(STEP))
    assert first["how"] == "pool" and "from a layout known already" in first["text"]
    moves = [m for m in game.moves if m.placement is not None]
    for k in range(STEP + 1, STEP + 4):
        move = moves[k - 1]
        place(client, headers, move.colour, move.placement, cols)
        answer = ask(client, headers, "joint")
        checked_yes(answer, game.position(k))
        assert answer["how"] == "pool", answer["text"]
        assert "1 placement back" in answer["text"]
        # the carried layout answers in well under the budget (the checker's cost only)
        assert answer["solver_seconds"] < 5


def test_a_move_off_the_witness_is_not_kept_and_undo_returns_to_the_known_answer(client):
    step = STEP
    headers = followed(client, step)
    game = load_game(LAYOUT_GAME)
    board = game.position(0).board
    first = ask(client, headers, "joint")
    assert first["how"] == "pool"
    witness = {(c, p, tuple(s)) for c, p, s in first["layout"]}
    state = client.get("/api/state", headers=headers).json()
    colour = state["selected"]
    # a legal move of the colour to move that the carried layout does not contain
    off = next(
        (piece, squares)
        for piece, squares in state["legal"]
        if (colour, piece, tuple(squares)) not in witness
    )
    placement = Placement(off[0], frozenset(off[1]))
    place(client, headers, colour, placement, board.cols)
    after = game.position(step).with_placement(colour, placement)
    answer = ask(client, headers, "joint", time_limit=30)
    assert answer["how"] != "pool", answer["text"]
    assert answer["answer"] in ("yes", "no", "unknown")
    # here the move off the layout loses the game: proven by the full search (no layout
    # from a cold check either), and a "no" stays "no" after the next move at once
    assert answer["answer"] == "no" and answer["how"] == "solved", answer["text"]
    assert joint_check(after, ("purple", "orange")).answer != "yes"
    state = client.get("/api/state", headers=headers).json()
    piece, squares = state["legal"][0]
    place(client, headers, state["selected"], Placement(piece, frozenset(squares)), board.cols)
    later = ask(client, headers, "joint")
    assert later["answer"] == "no" and later["how"] == "inferred"
    assert "proven earlier on this line of play" in later["text"]
    client.post("/api/undo", headers=headers)
    # undo: the position before has a known answer, kept at once
    client.post("/api/undo", headers=headers)
    back = ask(client, headers, "joint")
    checked_yes(back, game.position(step))
    assert back["how"] == "pool" and "this position" in back["text"]


def test_not_every_colour_left_played_is_asked_from_scratch(client):
    # red has pieces left but is not played: the companion (every colour left) does not apply
    headers = page(client)
    client.post("/api/open", headers=headers, json={"id": "puzzle:two-colours-7x7-crowded"})
    first = ask(client, headers, "joint")
    state = client.get("/api/state", headers=headers).json()
    piece, squares = state["legal"][0]
    place(client, headers, state["selected"], Placement(piece, frozenset(squares)), state["cols"])
    after = ask(client, headers, "joint")
    assert first["answer"] == after["answer"] == "no"
    assert "how" not in first and "how" not in after and "companion" not in after["text"]


def test_a_companion_unknown_says_what_is_short():
    """An unknown of the companion says what an unknown from scratch says: the best
    partial layout (pieces and squares left, per short colour), never "leaves N squares"
    alone (issue 31 item 11). 0.05 s: far too short to settle the move off the layout."""
    import re

    from solver.companion.page import FollowRequest
    from solver.core.pieces import PIECES
    from solver.web.files import read_upload
    from solver.web.kinds import JointQuestion
    from solver.web.questions import joint_question
    from solver.web.session import from_here

    def asked(session):  # the joint question the page asks, with the companion's request
        request = session.joint_request()
        assert isinstance(request, FollowRequest), request
        return JointQuestion(request.problem, request)

    viewer = read_upload("duo.blksgf", LAYOUT_GAME.read_bytes())
    viewer.step = 14
    session = from_here(viewer)
    first = joint_question(asked(session), 30)
    assert first.answer == "yes" and first.how == "pool" and first.known is not None
    session.learn(*first.known)
    state = session.state()
    colour = state["selected"]
    witness = set(first.layout)
    off = [(p, s) for p, s in state["legal"] if (colour, p, tuple(s)) not in witness]
    piece, squares = off[len(off) // 2]
    session.place(colour, [divmod(s, 14) for s in squares])
    answer = joint_question(asked(session), 0.05)
    assert answer.answer == "unknown" and answer.how == "solved", answer.text
    text = answer.text
    found = re.search(
        r"best partial layout: (\d+) of (\d+) pieces placed, (\d+) squares? left; "
        r"short: (.*?)  \[companion",
        text,
    )
    assert found, text
    position = session.problem.position
    total = sum(len(c.remaining) for c in position.colours)
    assert int(found.group(2)) == total == 27
    short = re.findall(r"(\w+) (\d+) pieces? \((\d+) squares?: ([^)]*)\)", found.group(4))
    assert short and int(found.group(3)) == sum(int(sq) for _, _, sq, _ in short)
    for name, count, squares_left, pieces in short:
        pieces = pieces.split(", ")
        assert set(pieces) <= set(position.colour(name).remaining) and len(pieces) == int(count)
        assert sum(PIECES[p].size for p in pieces) == int(squares_left)
    assert int(found.group(1)) == total - sum(int(n) for _, n, _, _ in short)
    assert "leaves" not in text and "1 squares" not in text


def test_pondering_marks_every_placement_with_a_layout_or_a_proof():
    """While the player thinks, the server ponders (solver/web/pondering.py): the marks of
    the placements fill in ("keeps": a checked layout contains the move; "loses": proven),
    a move marked "keeps" is answered from the pool at once, and a "loses" is a real no."""
    game = load_game(LAYOUT_GAME)
    step = 32  # 10 pieces left: each candidate is decided by the full search at once
    with TestClient(create_app(hosts=["testserver"], ponder=True)) as client:
        headers = followed(client, step)
        state = client.get("/api/state", headers=headers).json()
        colour, cols = state["selected"], state["cols"]
        ponderer = client.app.state.server.ponderer
        assert ponderer.running() == 1  # started by the page's own calls
        # junk focus is dropped, not refused (the mouse may be anywhere)
        junk = {"colour": "nobody", "piece": "Q", "cells": [[99, 99]]}
        assert client.post("/api/focus", headers=headers, json=junk).status_code == 200
        pieces = sorted({p for p, _ in state["legal"]})
        marks: dict[Placement, str] = {}
        for _ in range(150):
            marks = {
                Placement(piece, frozenset(sq)): mark
                for piece in pieces
                for sq, mark in client.get(
                    f"/api/marks?colour={colour}&piece={piece}", headers=headers
                ).json()["marks"]
            }
            if "unknown" not in marks.values():
                break
            time.sleep(0.2)
        assert len(marks) == len(state["legal"]) and "unknown" not in marks.values()
        keeps = [m for m, mark in marks.items() if mark == "keeps"]
        loses = [m for m, mark in marks.items() if mark == "loses"]
        assert keeps and loses
        before = game.position(step)
        # a "loses" is a proof: the joint check from scratch finds no layout either
        lost = before.with_placement(colour, loses[0])
        assert joint_check(lost, ("purple", "orange")).answer == "no"
        place(client, headers, colour, keeps[0], cols)
        answer = ask(client, headers, "joint", time_limit=30)
        assert answer["how"] == "pool", answer["text"]
        checked_yes(answer, before.with_placement(colour, keeps[0]))
        client.post("/api/close", headers=headers)
        assert ponderer.running() == 0


def test_the_worker_processes_start_with_the_repair_kernel_loaded_when_it_is_cached():
    # every question's process is forked from the fork server, which imports
    # solver.web.worker: with the repair search's kernel cached, it is loaded there once
    # (0.8 s), not in each question's process on its first repair; without the cache it is
    # not compiled there (a minute: the server's start would wait for it)
    import subprocess
    import sys

    code = (
        "from solver.backends import warmup\n"
        "cached = warmup.repair_cached()\n"
        "import solver.web.worker\n"
        "from solver.backends.repair import kernel\n"
        "print(cached, bool(kernel.run.signatures))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    cached, loaded = out.stdout.split()
    assert loaded == cached
