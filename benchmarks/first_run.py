"""The first command after installing (the kernels not compiled yet), then the same command
again (loaded from numba's cache).

For each run: a fresh, empty numba cache folder (``NUMBA_CACHE_DIR``; with
``--default-cache``, ``NUMBA_CACHE_DIR`` unset and a fresh ``XDG_CACHE_HOME`` instead, so
that the package picks its own folder, ``blokus-solo/numba`` below it, as after a plain
install); the command (by
default an endgame check that greedy play does not answer: Duo after 20 placements, purple
has 11 pieces and cannot place them all) as a user runs it, timed whole; then how long
after its start the background compile it started ended (its lock file gone); then the
same command again, warm. ``--python`` picks the interpreter, so that an installed copy
(``pip install .``, not editable) can be measured beside the checkout.

Usage: python benchmarks/first_run.py [--python PATH] [--runs 2] [--cap 240]
       [--default-cache] [-- COMMAND ARGS ...]   (default: check tests/data/games/duo-L1-s15.blksgf
       --after 20 --colour purple)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [
    "check",
    str(ROOT / "tests" / "data" / "games" / "duo-L1-s15.blksgf"),
    "--after",
    "20",
    "--colour",
    "purple",
]
LOCK = "blokus-solo-warmup.lock"


def run(
    python: str, args: list[str], env: dict[str, str], cap: float, cache: Path | None = None
) -> tuple[float, str, float | None]:
    """The command's wall time, its last line of output (or "stopped after ..." past
    ``cap`` seconds), and when (seconds from its start) the background compile it started
    in ``cache`` ended (its lock gone; None: no lock seen, or still there 600 s after the
    start)."""
    started = time.perf_counter()
    command = [python, "-c", "from solver.cli.commands import main; main()", *args]
    out = tempfile.TemporaryFile(mode="w+")
    child = subprocess.Popen(command, env=env, cwd=tempfile.gettempdir(), stdout=out, stderr=out)
    seen, ended, wall = False, None, None
    while True:
        now = time.perf_counter() - started
        if wall is None and child.poll() is not None:
            wall = now
        if wall is None and now > cap:
            child.kill()
            child.wait()
            wall = cap
        locked = cache is not None and any(cache.rglob(LOCK))
        seen = seen or locked
        if seen and not locked and ended is None:
            ended = now
        if wall is not None and (ended is not None or not seen or now > 600):
            break
        time.sleep(0.2)
    out.seek(0)
    lines = out.read().strip().splitlines()
    said = f"stopped after {cap:.0f} s" if wall == cap else (lines[-1].strip() if lines else "")
    return wall, said, ended


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--cap", type=float, default=240.0, help="seconds a command may take")
    parser.add_argument(
        "--default-cache",
        action="store_true",
        help="a fresh XDG_CACHE_HOME instead of NUMBA_CACHE_DIR: the package's own folder",
    )
    parser.add_argument("command", nargs="*", default=DEFAULT)
    args = parser.parse_args(argv)
    for i in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as folder:
            cache = Path(folder)
            env = {**os.environ, "NUMBA_CACHE_DIR": folder}
            if args.default_cache:
                del env["NUMBA_CACHE_DIR"]
                env["XDG_CACHE_HOME"] = folder
            cold, said, ready = run(args.python, args.command, env, args.cap, cache)
            warm, said_warm, _ = run(args.python, args.command, env, args.cap)
            shown = "not seen" if ready is None else f"{ready:.1f} s"
            print(
                f"run {i + 1}: cold {cold:.2f} s ({said}); background compile ended at "
                f"{shown}; warm {warm:.2f} s ({said_warm})",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
