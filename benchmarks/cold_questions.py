"""Cold joint questions through the page: how soon a slow answer says how close it is.

Issue 45: "a move answered unknown shows within 2 s how close the search came, and the
page updates as it goes on". In the live-play games every answer came fast (the companion
carries a layout from move to move); this benchmark asks the questions nobody carried an
answer to. On a real ``blokus-solo serve`` (``--no-ponder``), for each seed and each cut,
a new page opens the Classic 84-piece challenge, clicks the first ``cut`` placements of the
scripted person's game (``benchmarks/live_play.py``'s person, the seed's own moves) without
asking anything, then asks the joint question (``--time-limit`` seconds) and polls every 50
ms as the page does. Per question: the answer, the seconds from the question to the answer,
the seconds to the first poll that said how close the search had come ("best so far") and
that line. Over all: of the answers that took over 2 s, how many said how close within 2 s.

Usage::

    python benchmarks/cold_questions.py [--seeds 1 2 3] [--cuts 12 24 36] [--time-limit 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import httpx2 as httpx
from live_play import ENTRY, TOKEN, cells, free_port, person_chooser, start_server

from solver.formats.game import start_position


def cold_question(url: str, seed: int, cut: int, limit: float) -> dict:
    """A new page, the person's first ``cut`` placements clicked, then the joint question;
    its row."""
    choose = person_chooser(seed)
    position = start_position("classic")
    with httpx.Client(base_url=url, timeout=120) as client:
        headers = {"X-Token": TOKEN.search(client.get("/").text).group(1)}
        client.post("/api/open", headers=headers, json={"id": ENTRY}).raise_for_status()
        client.post("/api/turn-order", headers=headers, json={"on": True}).raise_for_status()
        placed = 0
        while placed < cut:
            colour = client.get("/api/state", headers=headers).json()["selected"]
            move = choose(position, colour)
            if move is None:
                client.post("/api/pass", headers=headers).raise_for_status()
                continue
            body = {"colour": colour, "cells": cells(position, move)}
            client.post("/api/place", headers=headers, json=body).raise_for_status()
            position = position.with_placement(colour, move)
            placed += 1
        asked = time.perf_counter()
        job = client.post(
            "/api/ask", headers=headers, json={"kind": "joint", "time_limit": limit}
        ).json()["job"]
        first, line = None, ""
        while (out := client.get(f"/api/job/{job}", headers=headers).json())["state"] != "done":
            if "progress" in out:
                first = first if first is not None else time.perf_counter() - asked
                line = out["progress"]["progress"]
            time.sleep(0.05)
        result = out["result"]
    return {
        "seed": seed,
        "cut": cut,
        "answer": result["answer"],
        "seconds": round(time.perf_counter() - asked, 3),
        "progress_s": None if first is None else round(first, 3),
        "last_progress": line,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--cuts", type=int, nargs="+", default=[12, 24, 36])
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()}", flush=True)
    port = free_port()
    server = start_server(port, ponder=False)
    rows = []
    try:
        for seed in args.seeds:
            for cut in args.cuts:
                r = cold_question(f"http://127.0.0.1:{port}", seed, cut, args.time_limit)
                rows.append(r)
                shown = "-" if r["progress_s"] is None else f"{r['progress_s']:.2f} s"
                print(
                    f"seed {seed} after {cut:2d}: {r['answer']:8s} {r['seconds']:6.2f} s; "
                    f"first 'best so far' {shown}: {r['last_progress']}",
                    flush=True,
                )
    finally:
        server.terminate()
        server.wait(timeout=30)
    slow = [r for r in rows if r["seconds"] > 2.0]
    told = [r for r in slow if r["progress_s"] is not None and r["progress_s"] <= 2.0]
    firsts = [r["progress_s"] for r in rows if r["progress_s"] is not None]
    median = f"{statistics.median(firsts):.2f} s" if firsts else "-"
    print(
        f"{len(rows)} questions; over 2 s: {len(slow)}, of them how close shown within 2 s: "
        f"{len(told)}; first 'best so far': median {median}, latest "
        f"{max(firsts, default=0):.2f} s"
    )
    print(f"load at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
