"""Live play through the page (issue 32 item 8): a scripted person plays Classic solo on a
real ``blokus-solo serve`` and asks "Can all colours still place everything?" after each
move; how soon is the answer there?

The server is started as a user starts it (``blokus-solo serve --port P``, with
``--no-ponder`` for the comparison), on this machine, and driven through the page's HTTP
API only: ``/`` (the token), ``/api/open`` (the Classic 84-piece challenge),
``/api/turn-order``, ``/api/select``, ``/api/focus``, ``/api/place``, ``/api/ask``,
``/api/job/...``.

The person (``benchmarks/person.py``: large pieces first, pushing out from the corner
towards the middle, one of the best 4 at random, seeded) decides its move when its turn
comes, then thinks ``--think`` seconds (10) the way a person at the page does: it picks the
piece in the tray at once (``/api/select``, ``/api/focus`` with the piece), moves it over
the board (``/api/focus`` with the placement under the mouse: three other placements of
that piece near the one it will play, then that one, for equal shares of the time left,
the last for the final quarter), and clicks (``/api/place``). Right after the click it
asks the joint question (``/api/ask``, ``--time-limit`` seconds, 30, the page's default)
and polls the answer every 50 ms (``/api/job/...``), as the page does.

Per move: the answer, the seconds from the click (the placement's request sent) to the
answer read, where it came from (``book``, ``pool``, ``repaired``, ``solved``, ...; ``-``
for the check from scratch) and the placement's round trip. Then, over all moves: the share
answered within 1 s, the median, the unknowns; the empty board and the first placement of
each colour apart. The start (the empty board) is asked too, before the first move. A
move still running when a poll says how close the search has come ("best so far", issue
45) records when (``progress_s``, seconds from the click); the summary says of the answers
that took over 2 s how many showed that within 2 s of the click.

A winning game (issue 45 item 5), ``--winning N``: instead of the person-like games of
``--seeds``, N games in each of which the person plays the pieces of a verified 84-piece
layout (``benchmarks/winning_layouts.py``: found with the benchmark's own seeds 9001,
9002, ..., new to the product, cached in ``results/companion/winning-layouts.json``;
searched before the server starts when missing, ``--layout-limit`` seconds a seed) in a
person's order (``person.winning_line``: colours in turn, each playing the largest piece of
its layout still unplayed whose placement is legal now, nearest the middle first), thinking
and clicking as above. Every true answer is then "yes": an "unknown" is a miss, and a "no"
is a bug (printed loudly at once, and the exit status is 1). The summary gives the target
of issue 45: at least 80 % of moves answered "yes" within 1 s, no "no", at most 1 in 20
unknown. The rows name the layout's seed in ``seed`` and ``winning`` in ``game``.

The person-like games against issue 45's target, ``--offline SECONDS``: after the games,
every move answered "unknown" is searched again offline (``SECONDS`` on both cores: the
repair backend, then ``auto``); the share answered "yes" within 1 s is then taken over the
moves that have a layout (answered "yes", or found offline), and the moves still unknown
offline are counted apart (``offline`` in the rows).

Usage:
    python benchmarks/live_play.py [--seeds 1 2 3] [--moves 24] [--think 10]
        [--time-limit 30] [--no-ponder] [--offline SECONDS] [--csv FILE]
    python benchmarks/live_play.py --winning 3 [--moves 20] [--think 8] [--time-limit 30]
        [--layout-limit 120] [--no-ponder] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import numpy as np
from person import layout_move, ranked, winning_line

import solver.api as blokus
from solver.core.placements import piece_moves
from solver.core.position import Placement, Position
from solver.formats.game import start_position

TOKEN = re.compile(r'name="token" content="([^"]+)"')
ENTRY = "classic-84"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, ponder: bool) -> subprocess.Popen[str]:
    """``blokus-solo serve`` on 127.0.0.1:port, once it prints its address."""
    command = [str(Path(sys.executable).parent / "blokus-solo"), "serve", "--port", str(port)]
    if not ponder:
        command.append("--no-ponder")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    for line in server.stdout:
        if f":{port}/" in line:
            break
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the address is printed before it listens
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
            return server
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def cells(position: Position, placement: Placement) -> list[list[int]]:
    cols = position.board.cols
    return [[s // cols, s % cols] for s in sorted(placement.squares)]


def hover_path(position: Position, colour: str, move: Placement) -> list[Placement]:
    """Where the mouse goes before the click: three other placements of the piece, the
    nearest the one played first is the last of them, then the one played."""
    cols = position.board.cols

    def distance(p: Placement) -> int:
        return min(
            max(abs(a // cols - b // cols), abs(a % cols - b % cols))
            for a in p.squares
            for b in move.squares
        )

    others = sorted(
        (p for p in piece_moves(position, colour, move.piece) if p != move), key=distance
    )
    return list(reversed(others[:3])) + [move]


def ask(client: httpx.Client, headers: dict[str, str], limit: float) -> dict:
    job = client.post(
        "/api/ask", headers=headers, json={"kind": "joint", "time_limit": limit}
    ).json()
    if "job" not in job:
        raise SystemExit(f"the question was refused: {job}")
    seen: float | None = None  # when the poll first said how close the search has come
    while True:
        out = client.get(f"/api/job/{job['job']}", headers=headers).json()
        if out["state"] == "done":
            return out["result"] | ({"_progress": seen} if seen is not None else {})
        if "progress" in out and seen is None:  # the first word of how close it has come
            seen = time.perf_counter()
        time.sleep(0.05)


#: the person's move in a position for a colour (None: it passes)
Chooser = Callable[[Position, str], Placement | None]


def person_chooser(seed: int) -> Chooser:
    """The person's own moves: one of the best 4 of :func:`person.ranked` at random."""
    rng = np.random.default_rng(seed)

    def choose(position: Position, colour: str) -> Placement | None:
        options = ranked(position, colour)
        if not options:
            return None
        return options[int(rng.integers(min(4, len(options))))]

    return choose


def winning_chooser(layout: dict[str, list[Placement]]) -> Chooser:
    """The pieces of ``layout`` in a person's order (:func:`person.layout_move`)."""
    left = {c: list(ps) for c, ps in layout.items()}

    def choose(position: Position, colour: str) -> Placement | None:
        move = layout_move(position, colour, left.get(colour, ()))
        if move is not None:
            left[colour].remove(move)
        return move

    return choose


def play(
    url: str,
    seed: int,
    moves: int,
    think: float,
    limit: float,
    choose: Chooser | None = None,
    game: str = "person",
) -> list[dict]:
    """One game of the scripted person (its own moves, seeded, or ``choose``'s); one row
    per answer (the start, then each move)."""
    choose = choose or person_chooser(seed)
    rows: list[dict] = []
    with httpx.Client(base_url=url, timeout=120) as client:
        headers = {"X-Token": TOKEN.search(client.get("/").text).group(1)}
        client.post("/api/open", headers=headers, json={"id": ENTRY}).raise_for_status()
        client.post("/api/turn-order", headers=headers, json={"on": True}).raise_for_status()
        position = start_position("classic")
        started = time.perf_counter()
        answer = ask(client, headers, limit)
        rows.append(row(game, seed, 0, "start", "", answer, time.perf_counter() - started, 0.0))
        firsts: set[str] = set()
        for k in range(1, moves + 1):
            state = client.get("/api/state", headers=headers).json()
            colour = state["selected"]
            if colour is None:
                break
            move = choose(position, colour)
            if move is None:
                client.post("/api/pass", headers=headers).raise_for_status()
                continue
            # thinking: the piece picked at once, the mouse over the board, then the click
            think_started = time.perf_counter()
            client.post("/api/select", headers=headers, json={"colour": colour})
            focus = {"colour": colour, "piece": move.piece}
            client.post("/api/focus", headers=headers, json=focus)
            path = hover_path(position, colour, move)
            shares = [0.25 * think * (len(path) - 1 - i) for i in range(len(path))]
            for i, placement in enumerate(path):
                until = think_started + think - shares[i] if i < len(path) - 1 else None
                focus = {"colour": colour, "piece": move.piece, "cells": cells(position, placement)}
                client.post("/api/focus", headers=headers, json=focus)
                if until is not None:
                    time.sleep(max(0.0, until - time.perf_counter()))
            time.sleep(max(0.0, think_started + think - time.perf_counter()))
            clicked = time.perf_counter()
            placed = client.post(
                "/api/place",
                headers=headers,
                json={"colour": colour, "cells": cells(position, move)},
            )
            trip = time.perf_counter() - clicked
            if placed.status_code != 200 or "refused" in placed.json():
                raise SystemExit(f"the server refused the person's move: {placed.text}")
            position = position.with_placement(colour, move)
            answer = ask(client, headers, limit)
            seconds = time.perf_counter() - clicked
            what = "first" if colour not in firsts else "move"
            firsts.add(colour)
            rows.append(row(game, seed, k, colour, f"{move.piece} {what}", answer, seconds, trip))
            if "_progress" in answer:  # seconds from the click to the first "best so far"
                rows[-1]["progress_s"] = round(answer["_progress"] - clicked, 3)
            rows[-1]["_position"] = position  # (for --offline; not written)
            print(format_row(rows[-1]), flush=True)
            if game == "winning" and answer.get("answer") == "no":
                print(
                    f"!!! BUG: 'no' after move {k} of the winning game {seed}: its layout "
                    f"places every piece !!!",
                    flush=True,
                )
    return rows


def progress_summary(moves: list[dict]) -> str:
    """Of the moves not answered within 2 s of the click, how many said how close the
    search had come ("best so far") within 2 s (issue 45)."""
    slow = [r for r in moves if r["seconds"] > 2.0]
    told = [r for r in slow if r.get("progress_s") is not None and r["progress_s"] <= 2.0]
    firsts = sorted(r["progress_s"] for r in moves if r.get("progress_s") is not None)
    median = f"{statistics.median(firsts):.2f} s" if firsts else "-"
    return (
        f"answers over 2 s: {len(slow)}; of them, how close shown within 2 s of the click: "
        f"{len(told)}; first 'best so far' after the click: median {median} "
        f"({len(firsts)} moves showed one)"
    )


def row(
    game: str,
    seed: int,
    k: int,
    colour: str,
    move: str,
    answer: dict,
    seconds: float,
    trip: float,
) -> dict:
    return {
        "game": game,
        "seed": seed,
        "move": k,
        "colour": colour,
        "piece": move,
        "answer": answer.get("answer"),
        "how": answer.get("how", "-"),
        "seconds": round(seconds, 3),
        "solver_seconds": round(float(answer.get("solver_seconds") or 0.0), 3),
        "trip_ms": round(1000 * trip, 1),
        # the tiers the companion tried, as the page's tooltip says them
        "tried": str(answer.get("text", "")).rpartition(" [")[2].rstrip("]"),
    }


def format_row(r: dict) -> str:
    label = "layout" if r["game"] == "winning" else "seed"
    return (
        f"{label} {r['seed']} move {r['move']:2d} {r['colour']:6} {r['piece']:10} {r['answer']:8} "
        f"{r['how']:9} {r['seconds']:6.2f} s  (solver {r['solver_seconds']:.2f} s, "
        f"placement {r['trip_ms']:.0f} ms)"
    )


def summary(rows: list[dict], what: str) -> str:
    if not rows:
        return f"{what}: none"
    times = [r["seconds"] for r in rows]
    within = sum(t <= 1.0 for t in times)
    unknown = sum(r["answer"] == "unknown" for r in rows)
    hows: dict[str, int] = {}
    for r in rows:
        hows[r["how"]] = hows.get(r["how"], 0) + 1
    return (
        f"{what}: {len(rows)} answers, within 1 s {within}/{len(rows)} "
        f"({100 * within / len(rows):.0f} %), median {statistics.median(times):.2f} s, "
        f"unknown {unknown}/{len(rows)}, from: "
        + ", ".join(f"{h} {n}" for h, n in sorted(hows.items()))
    )


def winning_summary(rows: list[dict]) -> list[str]:
    """The winning games against issue 45's target (every true answer is yes)."""
    n = len(rows)
    if not n:
        return ["winning games: no moves"]
    fast = sum(r["answer"] == "yes" and r["seconds"] <= 1.0 for r in rows)
    no = [r for r in rows if r["answer"] == "no"]
    unknown = sum(r["answer"] == "unknown" for r in rows)
    other = sum(r["answer"] not in ("yes", "no", "unknown") for r in rows)
    met = fast >= 0.8 * n and not no and not other and unknown * 20 <= n
    line = (
        f"winning games: {n} moves, yes within 1 s {fast}/{n} ({100 * fast / n:.0f} %; "
        f"target at least 80 %), no {len(no)} (target 0), unknown {unknown}/{n} "
        f"(misses; target at most 1 in 20)"
    )
    if other:
        line += f", other answers {other} (misses)"
    out = [line, f"issue 45 target: {'met' if met else 'not met'}"]
    for r in no:
        out.append(f"!!! BUG: 'no' on a winning game: {format_row(r)} !!!")
    return out


def offline_summary(moves: list[dict], seconds: float) -> list[str]:
    """The person-like target of issue 45: of the moves that have a layout, the share
    answered "yes" within 1 s. A move answered "yes" has one (checked); each move answered
    "unknown" is searched again here, ``seconds`` on both cores (the repair backend, then
    ``auto`` for the rest of the time), and has one when that finds it; a "no" (proven)
    has none. Each row gets ``offline``: "layout", "no" or "unknown" ("" when answered)."""
    from solver.core.checker import check_layout
    from solver.core.problem import Problem

    for r in moves:
        r["offline"] = ""
        if r["answer"] != "unknown":
            continue
        position = r["_position"]
        colours = tuple(c.name for c in position.colours if c.remaining)
        problem = Problem(position, colours, "place-all")
        started = time.perf_counter()
        found = "unknown"
        for backend, share in (("repair", 0.5), ("auto", 1.0)):
            left = seconds * share - (time.perf_counter() - started)
            if left < 1:
                continue
            result = blokus.solve(problem, backend=backend, time_limit=left, workers=2)
            if result.status == "infeasible":
                found = "no"
                break
            if result.status in ("solved", "optimal") and result.layout is not None:
                report = check_layout(position, {c: list(v) for c, v in result.layout.items()})
                if not (report.legal and all(x.all_placed for x in report.colours)):
                    raise SystemExit(f"the rule checker refused an offline layout: {format_row(r)}")
                found = "layout"
                break
        r["offline"] = found
        print(f"offline {seconds:.0f} s: {format_row(r)} -> {found}", flush=True)
    has = [r for r in moves if r["answer"] == "yes" or r["offline"] == "layout"]
    fast = sum(r["answer"] == "yes" and r["seconds"] <= 1.0 for r in has)
    open_ = sum(r["offline"] == "unknown" for r in moves)
    share = 100 * fast / len(has) if has else 0.0
    return [
        f"person-like games: {len(moves)} moves, {len(has)} with a layout (answered yes, or "
        f"found offline in {seconds:.0f} s), {sum(r['answer'] == 'no' for r in moves)} no, "
        f"{open_} still unknown offline",
        f"of the moves with a layout, yes within 1 s {fast}/{len(has)} ({share:.0f} %; "
        f"issue 45 target at least 80 %): {'met' if share >= 80 else 'not met'}",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--moves", type=int, default=24, help="the person's moves per game")
    parser.add_argument("--think", type=float, default=10.0, help="seconds before each move")
    parser.add_argument("--time-limit", type=float, default=30.0, help="the page's limit")
    parser.add_argument("--no-ponder", action="store_true", help="the server without pondering")
    parser.add_argument("--csv", help="one row per answer")
    parser.add_argument(
        "--winning",
        type=int,
        metavar="N",
        help="N winning games (the pieces of N new verified layouts) instead of --seeds",
    )
    parser.add_argument(
        "--layout-limit", type=float, default=120.0, help="seconds per seed finding a layout"
    )
    parser.add_argument(
        "--offline",
        type=float,
        metavar="SECONDS",
        help="after the games, search each move answered unknown this long (both cores) "
        "and report the person-like target over the moves that have a layout",
    )
    args = parser.parse_args()
    games: list[tuple[int, Chooser | None, str]] = [(s, None, "person") for s in args.seeds]
    if args.winning is not None:
        from winning_layouts import winning_layouts  # (a search when none is cached)

        games = []
        for w in winning_layouts(args.winning, args.layout_limit):
            line = winning_line(w.layout)
            assert len(line) == sum(len(ps) for ps in w.layout.values()), "no person's order"
            print(f"winning layout seed {w.seed} ({w.backend}, found in {w.seconds} s)")
            games.append((w.seed, winning_chooser(w.layout), "winning"))
    print(f"load at start: {os.getloadavg()}", flush=True)
    port = free_port()
    server = start_server(port, not args.no_ponder)
    rows: list[dict] = []
    try:
        for seed, choose, game in games:
            url = f"http://127.0.0.1:{port}"
            rows += play(url, seed, args.moves, args.think, args.time_limit, choose, game)
    finally:
        server.terminate()
        server.wait(timeout=30)
    moves = [r for r in rows if r["move"] > 0]
    print()
    print(summary(moves, "moves"))
    print(summary([r for r in rows if r["move"] == 0], "the empty board"))
    print(summary([r for r in moves if r["piece"].endswith("first")], "first placements"))
    trips = [r["trip_ms"] for r in moves]
    if trips:
        print(
            f"placement round trip: median {statistics.median(trips):.0f} ms, "
            f"worst {max(trips):.0f} ms"
        )
    print(progress_summary(moves))
    failed = False
    if args.winning is not None:
        for seed, _, _ in games:
            print(summary([r for r in moves if r["seed"] == seed], f"layout {seed}"))
        for line in winning_summary(moves):
            print(line)
        failed = any(r["answer"] == "no" for r in rows)  # the empty board too
    if args.offline is not None and args.winning is None:
        for line in offline_summary(moves, args.offline):
            print(line, flush=True)
    print(f"load at end: {os.getloadavg()}")
    if args.csv:
        for r in rows:
            r.pop("_position", None)
        with open(args.csv, "w", newline="") as f:
            fields = list(dict.fromkeys(k for r in rows for k in r))  # (offline: moves only)
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
