"""Helpers of the ``blokus-solo serve`` tests (and of ``benchmarks/serve_speed.py``): a
real server on a free local port, and Debian's chromium as Playwright launches it."""

import contextlib
import re
import socket
import threading
import time

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
