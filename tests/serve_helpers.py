"""Helpers of the ``blokus-solo serve`` tests (and of ``benchmarks/serve_speed.py``): a
real server on a free local port, and Debian's chromium as Playwright launches it."""

import contextlib
import os
import re
import socket
import threading
import time
from pathlib import Path

import uvicorn

TOKEN_RE = re.compile(r'name="token" content="([^"]+)"')
#: Debian's chromium (apt-get install -y chromium); Playwright's own download is not used
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright):
    """The headless chromium of the tests and the benchmark."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


#: what a missing browser's skip (or, under CI, failure) says to do
HOW = "install it with: sudo apt-get install -y chromium (and pip install playwright)"


def _missing(what: str) -> None:
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing under CI: {HOW}")
    pytest.skip(f"{what} is missing: {HOW}")


@contextlib.contextmanager
def chromium_browser():
    """Debian's headless chromium through Playwright, closed on exit; the test is skipped
    when either is missing (failed under CI, which must have both)."""
    if not Path(CHROMIUM).exists():
        _missing(CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright")
    with sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield b
        finally:
            b.close()


def job_result(client, headers, body: dict, wait: float = 120.0) -> dict:
    """Ask the page a question (``POST /api/ask`` with ``body``) and poll its job until it
    is done: its result; AssertionError after ``wait`` seconds."""
    job = client.post("/api/ask", headers=headers, json=body)
    assert job.status_code == 200, job.text
    job_id = job.json()["job"]
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        out = client.get(f"/api/job/{job_id}", headers=headers).json()
        if out["state"] == "done":
            return out["result"]
        time.sleep(0.1)
    raise AssertionError(f"{body['kind']} did not end in {wait} s")


def free_port() -> int:
    """A local port nobody listens on (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(files=(), limit=None, hosts=("127.0.0.1", "localhost"), ponder=False):
    """``blokus-solo serve`` in a thread on 127.0.0.1 and a free port; yields its URL and
    stops it (and its workers) on exit. Pondering is off unless ``ponder`` (it would keep
    the cores busy beside the other tests)."""
    from solver.web.app import create_app

    port = free_port()
    with served(
        create_app(tuple(str(f) for f in files), hosts, port, limit, ponder=ponder), port
    ) as url:
        yield url


@contextlib.contextmanager
def served(app, port: int, lifespan: str = "auto"):
    """The application ``app`` served by uvicorn in a thread on 127.0.0.1:``port``;
    yields its URL and stops it on exit. ``lifespan="off"``: the workers are not loaded
    (quicker, for a test that asks no question)."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan=lifespan
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the server did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
