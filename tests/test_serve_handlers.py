"""The page's route handlers one at a time, without HTTP: each is a plain function of a
:class:`solver.web.context.Call` (solver/web/handlers/), named by the route table
(solver/web/routes.py)."""

import json
from pathlib import Path

import pytest
from helpers import GAMES

from solver.core.placements import legal_moves
from solver.core.position import Placement
from solver.core.rules import move_problem
from solver.errors import InputError
from solver.web.context import Call, Server
from solver.web.files import catalogue
from solver.web.handlers import asking, files, play
from solver.web.jobs import Jobs
from solver.web.routes import API
from solver.web.store import SessionStore, UnknownSession

ENTRIES = catalogue(puzzles=Path(__file__).parents[1] / "puzzles")


def new_server() -> Server:
    jobs = Jobs(1)  # no worker starts unless a question is asked
    first = next(iter(ENTRIES.values()))
    return Server(ENTRIES, jobs, SessionStore(first.open, on_drop=jobs.cancel_owner))


def call(server: Server, token: str, data=None, params=None, content=b"") -> Call:
    return Call(server, token, server.sessions.get(token), data or {}, params or {}, content)


def body(response) -> dict:
    return json.loads(response.body)


def test_the_route_table_names_every_api_route_once():
    paths = [(e.method, e.path) for e in API]
    assert len(paths) == len(set(paths))
    assert ("POST", "/api/place") in paths and ("GET", "/api/job/{job}") in paths
    assert all(e.handler.__module__.startswith("solver.web.handlers.") for e in API)


def test_place_handler_alone():
    server = new_server()
    token = server.sessions.new()
    start = server.sessions.get(token).problem.position
    # blue's I3 along the top edge from its corner, as (row, column) cells
    out = body(
        play.place(call(server, token, {"colour": "blue", "cells": [[0, 0], [0, 1], [0, 2]]}))
    )
    assert out["colours"][0]["placed"] == [["I3", [0, 1, 2]]] and out["moves"] == 1
    after = server.sessions.get(token).problem.position
    assert len(out["legal"]) == len([m for m in legal_moves(after, "blue") if m.piece != "1"])
    # a move the rules refuse is an answer, naming the rule
    refused = body(play.place(call(server, token, {"colour": "blue", "cells": [[1, 0], [2, 0]]})))
    rule = move_problem(after, "blue", Placement("2", frozenset({20, 40})))
    assert rule and refused == {"refused": rule}
    with pytest.raises(InputError, match="cells must be"):
        play.place(call(server, token, {"colour": "blue", "cells": "a1"}))
    assert body(play.undo(call(server, token)))["moves"] == 0
    assert server.sessions.get(token).problem.position == start


def test_step_and_from_here_need_a_game():
    server = new_server()
    token = server.sessions.new()
    with pytest.raises(InputError, match="no game record is open"):
        play.step(call(server, token, {"step": 3}))
    data = (GAMES / "duo-L4-s29.blksgf").read_bytes()
    opened = body(files.upload(call(server, token, params={"name": "g.blksgf"}, content=data)))
    assert opened["mode"] == "game"
    assert body(play.step(call(server, token, {"step": 999})))["game"]["step"] == 27  # clamped
    solo = body(play.from_here(call(server, token)))
    assert solo["mode"] == "solo" and sum(len(c["placed"]) for c in solo["colours"]) == 27


def test_open_and_ask_handlers_refuse_what_is_not_there():
    server = new_server()
    token = server.sessions.new()
    with pytest.raises(InputError, match="nothing to open by that name"):
        files.open_entry(call(server, token, {"id": "/etc/passwd"}))
    out = body(files.open_entry(call(server, token, {"id": "duo-both"})))
    assert out["played"] == ["purple", "orange"]
    with pytest.raises(InputError, match="unknown question"):
        asking.ask(call(server, token, {"kind": "everything"}))
    with pytest.raises(InputError, match="is not a colour of Blokus Duo"):
        asking.ask(call(server, token, {"kind": "colour", "colour": "blue"}))
    missing = asking.poll(call(server, token, params={"job": "nope"}))
    assert missing.status_code == 404


def test_store_hands_each_token_its_own_session():
    server = new_server()
    a, b = server.sessions.new(), server.sessions.new()
    play.place(call(server, a, {"colour": "blue", "cells": [[0, 0]]}))  # refused: monomino
    play.pass_turn(call(server, a))
    assert server.sessions.get(a).moves and not server.sessions.get(b).moves
    with pytest.raises(UnknownSession):
        server.sessions.get("guess")


def test_status_line_counts_in_words():
    server = new_server()
    token = server.sessions.new()
    assert body(play.get_state(call(server, token)))["status"] == (
        "blue to move; 4 of 4 colours have pieces left"
    )
    alone = body(files.open_entry(call(server, token, {"id": "classic-blue"})))
    assert alone["status"] == "blue to move; 21 pieces left"  # not "1 of 1 colours have"
