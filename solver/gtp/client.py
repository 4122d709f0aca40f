"""A GTP controller: run a GTP engine (ours, Pentobi's, any other) as a child process and
send it commands, as Pentobi's ``twogtp`` does.

    with Client(["pentobi-gtp", "--nobook", "--quiet"]) as engine:
        engine.send("set_game Blokus Duo")
        moves = engine.send("all_legal b").splitlines()

The engine's output is read by a thread of its own, line by line, so that a command can
wait for its answer with a deadline (``timeout``): GTP has no way to stop an engine's
search, so an engine past its deadline is ended (:class:`EngineTimeout`).
:mod:`solver.gtp.control` is the engine API above it (our positions and placements in,
moves checked by our rules out).
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
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


class EngineTimeout(EngineError):
    """The engine did not answer a command within its deadline; it has been ended (GTP
    cannot stop a search), so the client takes no more commands."""


class Client:
    """A GTP engine as a child process.

    Args:
        argv: the command that starts the engine.
        stderr: pass the engine's standard error through (default: discard it).
        label: how messages name the engine (default: ``argv[0]``).

    Raises:
        OSError: the command cannot be started (FileNotFoundError: no such program).
    """

    def __init__(self, argv: Sequence[str], stderr: bool = False, label: str | None = None):
        self.argv = list(argv)
        self.label = label or self.argv[0]
        self.process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None if stderr else subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        #: the engine's output lines as read, then None at its end
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """The reading thread: every line of the engine's output, then None."""
        assert self.process.stdout is not None
        try:
            for line in self.process.stdout:
                self._lines.put(line)
        except (OSError, ValueError):  # the pipe closed under us (the engine was ended)
            pass
        self._lines.put(None)

    def _stopped(self, command: str) -> EngineError:
        """The error of an engine that ended before answering ``command``."""
        code = self.process.wait()
        return EngineError(
            f"{self.label} stopped answering (after {command!r}, exit status {code})"
        )

    def _line(self, command: str, deadline: float | None, timeout: float | None) -> str:
        """The engine's next output line (with its newline), waiting until ``deadline``
        (a :func:`time.monotonic` time; None: for ever).

        Raises:
            EngineTimeout: no line by the deadline (the engine is ended).
            EngineError: the engine's output ended.
        """
        try:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self.kill()
            raise EngineTimeout(
                f"{self.label}: no answer to {command!r} within {timeout:g} s "
                "(the engine was stopped)"
            ) from None
        if line is None:
            self._lines.put(None)  # the end stays the end for the next command
            raise self._stopped(command)
        return line

    def ask(self, command: str, timeout: float | None = None) -> tuple[bool, str]:
        """Send one command line; (success, the response's text without ``= ``/``? ``).

        Args:
            command: one GTP command line (no newline).
            timeout: seconds to wait for the whole answer (None: no limit).

        Raises:
            EngineTimeout: no answer within ``timeout`` (the engine is ended).
            EngineError: the engine closed its output before answering (or had ended).
        """
        assert self.process.stdin is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):  # ended (or closed by a timeout before)
            raise self._stopped(command) from None
        lines: list[str] = []
        while True:
            line = self._line(command, deadline, timeout)
            if line == "\n":
                if not lines:  # GTP 2: an empty line before a response is skipped
                    continue
                break
            lines.append(line.rstrip("\n"))
        first = lines[0]
        ok = first.startswith("=")
        text = "\n".join([first.split(" ", 1)[1] if " " in first else ""] + lines[1:])
        return ok, text

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send a command that must succeed; its response text.

        Raises:
            EngineTimeout: no answer within ``timeout`` seconds (None: no limit).
            EngineError: the engine answered ``?`` or stopped.
        """
        ok, text = self.ask(command, timeout)
        if not ok:
            raise EngineError(f"{self.label}: {command!r} failed: {text}")
        return text

    def kill(self) -> None:
        """End the engine at once (no ``quit``), and wait for it."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        try:  # (its output is the reading thread's: that ends at the pipe's end)
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass

    def close(self) -> None:
        """Send ``quit`` and wait for the engine to end (killed after 10 s)."""
        if self.process.poll() is None:
            try:
                self.ask("quit", timeout=10)
            except (EngineError, OSError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
