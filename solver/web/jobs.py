"""Long solves in worker processes: a limit, cancellation, and a watchdog.

Each question runs in its own process (multiprocessing's ``forkserver``, the solver
modules and kernels preloaded there: :mod:`solver.web.worker`), so that a solve never
blocks the server, can be stopped at once (a thread running OR-tools or a Numba kernel
cannot be), and dies with its page: the page
polls its job, and a job nobody has polled for :data:`ABANDONED` seconds is killed (the
page was closed). At most ``limit`` jobs run at once (default: the number of cores); one
more is refused with a message rather than queued, so that a click never waits unseen.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.problem import Problem

#: seconds without a poll after which a running job is taken as abandoned and killed
ABANDONED = 10.0

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["solver.web.worker"])


class Busy(Exception):
    """Every worker slot is taken: the message says how many and what to do."""


def _work(conn: Connection, kind: str, problem: Problem, colour: str | None, limit) -> None:
    """The worker: answer one question and send the dict back (or the failure's line)."""
    from solver.web.questions import run

    try:
        conn.send(run(kind, problem, colour, limit))
    except Exception as e:  # a bug: reported on the page as such, never as an answer
        conn.send({"answer": "error", "seconds": 0.0, "text": f"internal error: {e}"})
    finally:
        conn.close()


@dataclass
class Job:
    """One running or finished question."""

    id: str
    owner: str
    kind: str
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None


class Jobs:
    """The worker processes of one server.

    Args:
        limit: how many solves may run at once (default: ``os.cpu_count()``).
    """

    def __init__(self, limit: int | None = None):
        self.limit = limit or os.cpu_count() or 1
        self._jobs: dict[str, Job] = {}

    def warm(self) -> None:
        """Start the fork server now (it imports the solver and loads its kernels,
        :mod:`solver.web.worker`), so that the first question does not wait for it."""
        from multiprocessing import forkserver

        forkserver.ensure_running()

    def running(self) -> list[Job]:
        """The jobs still running (each one checked first)."""
        for job in list(self._jobs.values()):
            self._collect(job)
        return [j for j in self._jobs.values() if j.result is None]

    def start(
        self, owner: str, kind: str, problem: Problem, colour: str | None, limit: float | None
    ) -> str:
        """Start a question in a worker; its job id.

        Raises:
            Busy: ``self.limit`` solves run already.
        """
        self.reap()
        busy = self.running()
        if len(busy) >= self.limit:
            raise Busy(
                f"{len(busy)} solves are running, as many as this machine has cores "
                f"({self.limit}): wait for one to end or cancel one"
            )
        here, there = _CONTEXT.Pipe(duplex=False)
        process = _CONTEXT.Process(
            target=_work, args=(there, kind, problem, colour, limit), daemon=True
        )
        process.start()
        there.close()
        job = Job(secrets.token_hex(8), owner, kind, process, here)
        self._jobs[job.id] = job
        return job.id

    def poll(self, owner: str, job_id: str) -> dict[str, Any]:
        """The job's state: ``{"state": "running", "seconds": s}`` or ``{"state": "done",
        "result": {...}}`` (the result is kept until :meth:`forget`).

        Raises:
            KeyError: no such job of this owner.
        """
        job = self._job(owner, job_id)
        job.polled = time.monotonic()
        self._collect(job)
        if job.result is None:
            return {"state": "running", "seconds": time.monotonic() - job.started}
        return {"state": "done", "result": job.result}

    def cancel(self, owner: str, job_id: str) -> None:
        """Stop a job now (kill its process). Raises KeyError: no such job of this owner."""
        self._stop(self._job(owner, job_id), "cancelled")

    def cancel_owner(self, owner: str) -> int:
        """Stop every job of one owner (its page closed); how many were running."""
        jobs = [j for j in self._jobs.values() if j.owner == owner and j.result is None]
        for job in jobs:
            self._stop(job, "cancelled: the page was closed")
        return len(jobs)

    def reap(self) -> None:
        """Kill the running jobs nobody polled for :data:`ABANDONED` seconds, and forget
        finished ones nobody asked about for as long."""
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if now - job.polled > ABANDONED:
                if job.result is None:
                    self._stop(job, "cancelled: nobody was waiting for it")
                del self._jobs[job.id]

    def shutdown(self) -> None:
        """Stop every job (the server is stopping)."""
        for job in list(self._jobs.values()):
            self._stop(job, "cancelled: the server stopped")
        self._jobs.clear()

    def _job(self, owner: str, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None or job.owner != owner:
            raise KeyError(job_id)
        return job

    def _collect(self, job: Job) -> None:
        if job.result is not None:
            return
        alive = job.process.is_alive()  # before the poll: an answer sent, then exit, is seen
        try:
            if job.conn.poll():
                job.result = job.conn.recv()
        except (EOFError, OSError):
            pass
        if job.result is None and not alive:
            job.result = {
                "answer": "error",
                "seconds": time.monotonic() - job.started,
                "text": f"the worker stopped without an answer (exit code {job.process.exitcode})",
            }
        if job.result is not None:
            job.process.join(timeout=1)
            job.conn.close()

    def _stop(self, job: Job, why: str) -> None:
        if job.result is None:
            job.process.kill()
            job.process.join(timeout=5)
            job.conn.close()
            job.result = {
                "answer": "cancelled",
                "seconds": time.monotonic() - job.started,
                "text": why,
            }
