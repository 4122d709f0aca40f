"""A small GTP client for Pentobi's engine (``pentobi-gtp``), for the benchmarks and
cross-checks that compare our move generator with it (benchmarks/movegen.py,
benchmarks/perft.py). Pentobi is not part of this project: build it from its source
(github.com/enz/pentobi: ``cmake SRC -DPENTOBI_BUILD_GUI=OFF -DPENTOBI_BUILD_GTP=ON
-DCMAKE_BUILD_TYPE=Release && make pentobi-gtp``) and name the binary with ``--pentobi``
or the environment variable ``PENTOBI_GTP``.

GTP (Go Text Protocol 2): a command is one line; the answer is ``= text`` or ``? error``,
ended by an empty line. Pentobi's dialect: ``set_game`` takes SGF GM names (``Blokus``,
``Blokus Duo``, ...), colours are ``1``-``4`` (four colours) or ``b``/``w``, a move is its
squares (``e8,d9,e9,f9,e10``), ``loadsgf FILE N`` gives the position before the N-th
placement, ``all_legal C`` one move per line, ``cputime`` the engine's CPU seconds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

#: Pentobi's ``set_game`` name of each of our variants
GAME_NAMES = {
    "classic": "Blokus",
    "classic2": "Blokus Two-Player",
    "classic3": "Blokus Three-Player",
    "duo": "Blokus Duo",
    "junior": "Blokus Junior",
}


class GtpError(RuntimeError):
    """The engine answered ``? message``."""


def find_pentobi(given: str | None) -> str:
    """The engine's path: ``given``, else $PENTOBI_GTP, else ``pentobi-gtp`` on PATH.
    Raises SystemExit with a message when none is found."""
    path = given or os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")
    if not path or not Path(path).exists():
        raise SystemExit("Pentobi's GTP engine not found: give --pentobi PATH or set PENTOBI_GTP")
    return path


class Pentobi:
    """A running ``pentobi-gtp --nobook`` (a context manager: quits on exit)."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path, "--nobook", "--quiet"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        self._buffer = b""

    def __enter__(self) -> Pentobi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Send ``quit`` and wait for the engine to end."""
        if self.process.poll() is None:
            try:
                self.command("quit")
            except (GtpError, OSError):
                pass
            self.process.wait(timeout=10)

    def _answer(self, line: str) -> str:
        """The next answer (up to its empty line), its ``=`` removed. Raises GtpError."""
        while True:
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                text = self._buffer[:end].decode()
                self._buffer = self._buffer[end + 2 :]
                break
            chunk = os.read(self._out, 1 << 20)
            if not chunk:
                raise GtpError(f"the engine ended during {line!r}")
            self._buffer += chunk
        if text.startswith("?"):
            raise GtpError(f"{line!r}: {text[1:].strip()}")
        return text[1:].strip()

    def commands(self, lines: list[str]) -> list[str]:
        """Send several commands at once (in pieces of under 32 KB, so that neither pipe
        fills while the other waits) and return their answers, in order.

        Raises:
            GtpError: an engine's error answer (the first).
        """
        answers: list[str] = []
        start = 0
        while start < len(lines):
            size, end = 0, start
            while end < len(lines) and (end == start or size + len(lines[end]) < 32_000):
                size += len(lines[end]) + 1
                end += 1
            os.write(self._in, ("\n".join(lines[start:end]) + "\n").encode())
            answers.extend(self._answer(line) for line in lines[start:end])
            start = end
        return answers

    def command(self, line: str) -> str:
        """Send one command; return its answer. Raises GtpError."""
        return self.commands([line])[0]

    def cputime(self) -> float:
        """The engine's CPU seconds so far (10 ms steps on Linux: ``times()``)."""
        return float(self.command("cputime"))

    def all_legal(self, colour: str) -> list[str]:
        """The legal moves of a GTP colour, as Pentobi writes them."""
        text = self.command(f"all_legal {colour}")
        return text.split("\n") if text else []


def gtp_colour(variant: str, k: int) -> str:
    """The GTP name of colour number k (turn order) of a variant: ``b``/``w`` in Duo and
    Junior, ``1``..``4`` otherwise."""
    if variant in ("duo", "junior"):
        return "bw"[k]
    return str(k + 1)
