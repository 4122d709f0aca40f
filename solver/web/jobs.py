"""Long solves in worker processes: a limit, cancellation, and a watchdog.

Each question runs in its own process (multiprocessing's ``forkserver``, the solver
modules and kernels preloaded there: :mod:`solver.web.worker`), so that a solve never
blocks the server, can be stopped at once (a thread running OR-tools or a Numba kernel
cannot be), and dies with its page: the page
polls its job, and a job nobody has polled for :data:`ABANDONED` seconds is killed (the
page was closed). At most ``limit`` jobs run at once (default: the number of cores); one
more is refused with a message rather than queued, so that a click never waits unseen.

The time limit covers the whole answer, the worker's start included: the solver is given
what is left of it (less :data:`RESERVE` for the rule checker), and a job still running
:data:`GRACE` seconds after its limit is killed and answered "unknown", with the seconds
it ran. An answer that came in over its limit says by how much.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.web.kinds import ErrorAnswer, JointAnswer, PageQuestion, ReviewQuestion, answer_json

#: seconds without a poll after which a running job is taken as abandoned and killed
ABANDONED = 10.0
#: the part of a time limit kept back from the solver for the rule checker's re-check and
#: the answer's way back (a fraction of the limit, at most ``RESERVE`` seconds)
RESERVE = 1.0
#: seconds past its time limit after which a job is killed (it answers "unknown"); the
#: solvers themselves overrun a short limit by up to about a second (setting up their models)
GRACE = 2.0

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["solver.web.worker"])


def worker_context() -> Any:
    """The multiprocessing context the workers come from (the fork server, the solver
    preloaded): other long jobs of the server start their processes from it too
    (:mod:`solver.web.pondering`)."""
    return _CONTEXT


class Busy(Exception):
    """Every worker slot is taken: the message says how many and what to do."""


def warm() -> None:
    """Start the fork server and wait until it has imported the solver and loaded (or, the
    first time, compiled: 10-30 s) its kernels (:mod:`solver.web.worker`), by running one
    empty process from it: the first question then starts as fast as the others."""
    process = _CONTEXT.Process(target=_nothing, daemon=True)
    process.start()
    process.join()


def _nothing() -> None:
    """What :func:`warm` runs."""


def _solver_limit(limit: float | None, asked: float) -> float | None:
    """What is left of ``limit`` (seconds) for the solver, ``asked`` (``time.time()``) being
    when the question came: less the worker's start and :data:`RESERVE`."""
    if limit is None:
        return None
    left = limit - (time.time() - asked)
    return max(0.05, left - min(RESERVE, 0.1 * limit))


def _work(conn: Connection, question: PageQuestion, limit: float | None, asked: float) -> None:
    """The worker: answer one question and send back the page's JSON of the answer
    (:func:`solver.web.kinds.answer_json`; or the failure's line), its ``seconds``
    counting from ``asked`` (``time.time()`` when the question came), ``solver_seconds``
    the answer's own, and a joint answer's ``known`` (for the session to file; the
    handler takes it out before the page sees it)."""
    # here, in the worker: the questions load the solvers (OR-tools, the kernels), which the
    # server process itself never needs
    from solver.backends.progress import listening
    from solver.web.closeness import Closeness
    from solver.web.questions import run

    # how close the search has come, sent as it goes on (not for a review: its searches are
    # the checks of many positions, none of them the question)
    closeness = Closeness(conn, asked)
    try:
        with listening(closeness) if not isinstance(question, ReviewQuestion) else nullcontext():
            answer = run(question, _solver_limit(limit, asked))
    except Exception as e:  # a bug: reported on the page as such, never as an answer
        answer = ErrorAnswer(f"internal error: {e}")
    closeness.close()
    out = {**answer_json(answer), "seconds": time.time() - asked, "solver_seconds": answer.seconds}
    if isinstance(answer, JointAnswer) and answer.known is not None:
        out["known"] = answer.known
    try:
        conn.send(out)
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
    limit: float | None = None  # the whole answer's time limit, None for none
    started: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None
    #: the newest report of how close the search has come (:mod:`solver.web.closeness`)
    progress: dict[str, Any] | None = None


class Jobs:
    """The worker processes of one server.

    Args:
        limit: how many solves may run at once (default: ``os.cpu_count()``).
    """

    def __init__(self, limit: int | None = None):
        self.limit = limit or os.cpu_count() or 1
        self._jobs: dict[str, Job] = {}

    def warm(self) -> None:
        """The fork server started and its kernels loaded (:func:`warm`)."""
        warm()

    def get(self, job_id: str) -> Job | None:
        """The job with this id, whoever owns it (its process, its limit), or None once
        it is forgotten (:meth:`reap`, :meth:`shutdown`); not checked first."""
        return self._jobs.get(job_id)

    def running(self) -> list[Job]:
        """The jobs still running (each one checked first)."""
        for job in list(self._jobs.values()):
            self._collect(job)
        return [j for j in self._jobs.values() if j.result is None]

    def start(self, owner: str, question: PageQuestion, limit: float | None) -> str:
        """Start a question in a worker; its job id.

        ``limit`` covers the whole answer (the review's is per check, not watched).

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
            target=_work, args=(there, question, limit, time.time()), daemon=True
        )
        process.start()
        there.close()
        watched = limit if not isinstance(question, ReviewQuestion) else None
        job = Job(secrets.token_hex(8), owner, question.kind, process, here, watched)
        self._jobs[job.id] = job
        return job.id

    def poll(self, owner: str, job_id: str) -> dict[str, Any]:
        """The job's state: ``{"state": "running", "seconds": s}`` (with ``"progress"``:
        the newest report of how close the search has come, when one came:
        :mod:`solver.web.closeness`) or ``{"state": "done", "result": {...}}`` (the result is
        kept until :meth:`forget`).

        Raises:
            KeyError: no such job of this owner.
        """
        job = self._job(owner, job_id)
        job.polled = time.monotonic()
        self._collect(job)
        if job.result is None:
            out = {"state": "running", "seconds": time.monotonic() - job.started}
            return out if job.progress is None else {**out, "progress": job.progress}
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
        finished ones nobody asked about for as long; answer "unknown" for the jobs past
        their time limit (:meth:`_collect`)."""
        now = time.monotonic()
        for job in list(self._jobs.values()):
            self._collect(job)
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
            while job.result is None and job.conn.poll():
                message = job.conn.recv()
                if "progress" in message and "answer" not in message:
                    job.progress = message  # how close, so far: the answer is still to come
                else:
                    job.result = message
        except (EOFError, OSError):
            pass
        elapsed = time.monotonic() - job.started
        if job.result is None and job.limit is not None and elapsed > job.limit + GRACE:
            job.process.kill()  # past its limit: the page is told, not kept waiting
            job.result = {
                "answer": "unknown",
                "seconds": elapsed,
                "text": f"time limit of {job.limit:g} s reached before an answer (not a no); "
                f"the solve was stopped after {elapsed:.2f} s",
            }
        elif job.result is None and not alive:
            job.result = {
                "answer": "error",
                "seconds": time.monotonic() - job.started,
                "text": f"the worker stopped without an answer (exit code {job.process.exitcode})",
            }
        if job.result is not None:
            job.process.join(timeout=1)
            job.conn.close()
            over = job.result.get("seconds", 0.0) - (job.limit or float("inf"))
            if over > 0.005 and "stopped after" not in job.result.get("text", ""):
                from solver.web.questions import before_engine  # (not in the server: above)

                note = f" (over its {job.limit:g} s time limit by {over:.2f} s)"
                job.result["text"] = before_engine(job.result["text"], note)

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
