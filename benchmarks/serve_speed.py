"""``blokus-solo serve``, locally: how long the page takes to load, and a placement's
round trip (the click's request, the rules, the new state with the next legal
placements, the answer parsed).

A real server (uvicorn, as ``blokus-solo serve`` runs it) on 127.0.0.1 and a free port.
Measured with an HTTP client (httpx2, one connection kept open as a browser does):

* page load: ``/``, ``/static/app.js``, ``/static/style.css``, ``/api/catalogue`` and
  ``/api/state`` (everything the page fetches before it can be played), on the Classic
  84-piece challenge (the largest state: four colours, 21 pieces each);
* placement: ``POST /api/place`` of a legal piece (then undone, not timed), on the
  Classic board after ``--moves`` placements, so the legal set is a mid-game one.

* an answer: "Can all colours still place everything?" on the shipped
  ``puzzles/two-colours-7x7-crowded.toml`` (a proven "no"), from the request to the
  answer read by polling every 10 ms, against the same question on the command line
  (``blokus-solo check --together``, a fresh process each time, as a user runs it);
  the server's first question apart (its workers are loaded at start: target, within
  twice the median of the others).

With ``--browser`` (Debian's /usr/bin/chromium and Playwright), also the page load in
the real browser: navigation until the page says it is ready (its first state drawn).

Targets (issue 26): page load under 1 s, a placement's round trip under 50 ms median,
answers as fast as the command line's.

Usage: python -m benchmarks.serve_speed [--repeat 50] [--browser] (from the project root: it
uses the tests' server and browser helpers, tests/serve_helpers.py)
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TOKEN = re.compile(r'name="token" content="([^"]+)"')
#: a legal opening of blue, yellow, red, green (row, column from the top left), played
#: before the placements are timed
OPENING = [
    ("blue", [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]]),
    ("yellow", [[0, 19], [1, 19], [2, 19], [2, 18], [2, 17]]),
    ("red", [[19, 19], [19, 18], [19, 17], [18, 17], [17, 17]]),
    ("green", [[19, 0], [18, 0], [17, 0], [17, 1], [17, 2]]),
]
#: the timed placement: blue's I4 off the corner of its V5
PLACEMENT = {"colour": "blue", "cells": [[3, 3], [4, 3], [5, 3], [6, 3]]}


def page_load(client) -> tuple[float, dict]:
    started = time.perf_counter()
    html = client.get("/").text
    headers = {"X-Token": TOKEN.search(html).group(1)}
    client.get("/static/app.js").raise_for_status()
    client.get("/static/style.css").raise_for_status()
    client.get("/api/catalogue", headers=headers).raise_for_status()
    client.get("/api/state", headers=headers).raise_for_status()
    return time.perf_counter() - started, headers


def placement(client, headers) -> float:
    started = time.perf_counter()
    response = client.post("/api/place", headers=headers, json=PLACEMENT)
    data = response.json()
    elapsed = time.perf_counter() - started
    if response.status_code != 200 or "refused" in data:
        raise SystemExit(f"the timed placement was refused: {response.text}")
    client.post("/api/undo", headers=headers).raise_for_status()
    return elapsed


def browser_load(url: str, repeat: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    from tests.serve_helpers import launch_chromium

    times = []
    with sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        for _ in range(repeat):
            started = time.perf_counter()
            page.goto(url + "/")
            page.wait_for_selector("body[data-ready='1']")
            times.append(time.perf_counter() - started)
        browser.close()
    return times


def question(client, headers) -> float:
    started = time.perf_counter()
    ask = {"kind": "joint", "time_limit": 60}
    job = client.post("/api/ask", headers=headers, json=ask).json()["job"]
    while True:
        out = client.get(f"/api/job/{job}", headers=headers).json()
        if out["state"] == "done":
            if out["result"]["answer"] != "no":
                raise SystemExit(f"unexpected answer: {out['result']}")
            return time.perf_counter() - started
        time.sleep(0.01)


def command_line(repeat: int) -> list[float]:
    import subprocess

    puzzle = ROOT / "puzzles" / "two-colours-7x7-crowded.toml"
    import shutil

    script = Path(sys.executable).with_name("blokus-solo")
    command = [str(script) if script.exists() else shutil.which("blokus-solo") or "blokus-solo"]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [*command, "check", str(puzzle), "--together"], check=True, capture_output=True
        )
        times.append(time.perf_counter() - started)
    return times


def summary(name: str, times: list[float], target: float | None = None) -> str:
    median = statistics.median(times)
    line = (
        f"{name:28} median {median * 1000:7.1f} ms  worst {max(times) * 1000:7.1f} ms  "
        f"({len(times)} runs"
    )
    if target is None:
        return line + ")"
    verdict = "meets" if median < target else "MISSES"
    return line + f"; target {target * 1000:.0f} ms: {verdict})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=50, help="runs of each measure")
    parser.add_argument("--browser", action="store_true", help="also load the page in chromium")
    args = parser.parse_args()
    import httpx2 as httpx

    from tests.serve_helpers import running_server

    with running_server(hosts=("127.0.0.1",)) as url:
        with httpx.Client(base_url=url) as client:
            page_load(client)  # warm-up: imports, the first legal-move tables
            loads = []
            for _ in range(args.repeat):
                seconds, headers = page_load(client)
                loads.append(seconds)
            for colour, cells in OPENING:
                move = {"colour": colour, "cells": cells}
                client.post("/api/place", headers=headers, json=move).raise_for_status()
            client.post("/api/select", headers=headers, json={"colour": "blue"})
            placement(client, headers)  # warm-up
            trips = [placement(client, headers) for _ in range(args.repeat)]
            client.post("/api/open", headers=headers, json={"id": "puzzle:two-colours-7x7-crowded"})
            first = question(client, headers)  # the server's first question
            answers = [question(client, headers) for _ in range(min(args.repeat, 10))]
        print(summary("page load (HTTP)", loads, 1.0))
        print(summary("placement round trip", trips, 0.05))
        cli = command_line(min(args.repeat, 5))
        print(summary("joint answer, command line", cli))
        print(summary("joint answer, page", answers, statistics.median(cli)))
        # the worker pool is warm from the server's start: the first is as fast as the rest
        print(summary("first answer, page", [first], 2 * statistics.median(answers)))
        if args.browser:
            print(summary("page load (chromium)", browser_load(url, min(args.repeat, 10)), 1.0))


if __name__ == "__main__":
    main()
