"""A GTP controller: run a GTP engine (ours, Pentobi's, any other) as a child process and
send it commands, as Pentobi's ``twogtp`` does.

    with Client(["pentobi-gtp", "--nobook", "--quiet"]) as engine:
        engine.send("set_game Blokus Duo")
        moves = engine.send("all_legal b").splitlines()
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from types import TracebackType

from solver.errors import MESSAGE_LIMIT
from solver.quoting import shown


class EngineError(Exception):
    """The engine answered ``?`` (the message is its text), or stopped answering. The
    message is one line, escaped and cut to an error message's length
    (:func:`solver.quoting.shown`, as :func:`solver.gtp.protocol.failure_text` cuts our own
    ``?`` answers; the controller is beside the protocol, not above it): the engine's text
    and our command are any program's text."""

    def __init__(self, message: str):
        super().__init__(shown(message, MESSAGE_LIMIT))


class Client:
    """A GTP engine as a child process.

    Args:
        argv: the command that starts the engine.
        stderr: pass the engine's standard error through (default: discard it).
    """

    def __init__(self, argv: Sequence[str], stderr: bool = False):
        self.argv = list(argv)
        self.process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None if stderr else subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, command: str) -> tuple[bool, str]:
        """Send one command line; (success, the response's text without ``= ``/``? ``).

        Raises:
            EngineError: the engine closed its output before answering.
        """
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                code = self.process.wait()
                raise EngineError(
                    f"{self.argv[0]} stopped answering (after {command!r}, exit status {code})"
                )
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        first = lines[0]
        ok = first.startswith("=")
        text = "\n".join([first.split(" ", 1)[1] if " " in first else ""] + lines[1:])
        return ok, text

    def send(self, command: str) -> str:
        """Send a command that must succeed; its response text.

        Raises:
            EngineError: the engine answered ``?`` or stopped.
        """
        ok, text = self.ask(command)
        if not ok:
            raise EngineError(f"{self.argv[0]}: {command!r} failed: {text}")
        return text

    def close(self) -> None:
        """Send ``quit`` and wait for the engine to end (killed after 10 s)."""
        if self.process.poll() is None:
            try:
                self.ask("quit")
            except (EngineError, OSError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
