"""Running items in parallel: local worker processes, or a Dask distributed cluster.

Both take the items one by one and call back with each result in the submitting process,
which alone writes files. A worker that dies (a crash, ``kill -9``, the kernel's
out-of-memory killer) costs only the item it was running: that item gets an error row and
the batch goes on.

Why our own small pool for local processes: ``concurrent.futures.ProcessPoolExecutor``,
``multiprocessing.Pool`` and loky all break the whole pool when one worker dies and do not
say which item killed it (every pending future fails, or the pool hangs). Here each worker
has its own pipe, so the parent always knows which item a dead worker was running, records
it, and starts a new worker; the rest is :mod:`multiprocessing` (processes, pipes,
:func:`multiprocessing.connection.wait`). The workers are started by ``fork`` where the
platform has it (Linux), so they inherit the search kernel the parent has already loaded:
no worker starts an interpreter or loads the kernel per item, and none compiles it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Literal, cast

from solver.batch.items import Item
from solver.batch.work import BatchSettings, Outcome, error_row, run_item, warm_kernel
from solver.formats.files import Handler
from solver.quoting import shown

if TYPE_CHECKING:
    from multiprocessing.context import ForkContext, SpawnContext

    from distributed import Client, Future

#: called in the submitting process with each item and its outcome, or None for an item
#: not run because ``skip`` said so when its turn came
Done = Callable[[Item, Outcome | None], None]
#: whether an item need not run any more (a seed sweep's puzzle already answered)
Skip = Callable[[Item], bool]


def _never(item: Item) -> bool:
    return False


def crash_outcome(item: Item, settings: BatchSettings, message: str) -> Outcome:
    """The outcome of an item whose worker died."""
    return {"row": error_row(item, settings, message, "crash"), "files": {}}


def exit_text(code: int | None) -> str:
    """A worker's exit code in words: ``killed by SIGKILL`` (the out-of-memory killer's
    signal, or ``kill -9``), ``exit status 3``..."""
    if code is None:
        return "unknown exit"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory, or kill -9)" if -code == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exit status {code}"


# ---------------------------------------------------------------------------------------
# Local processes


def _die_with_parent() -> None:
    """Linux: have the kernel kill this process when its parent dies (even by SIGKILL), so
    that no worker is left computing for nobody."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker_main(conn: Connection, settings: BatchSettings, quiet: bool) -> None:
    """A worker process: items in, outcomes out, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _die_with_parent()
    if quiet:  # solver libraries' own prints would break the progress display
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    warm_kernel(settings.backend)  # inherited when forked: nothing to do; spawned: load
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        conn.send(run_item(item, settings))


class _Worker:
    def __init__(
        self, ctx: ForkContext | SpawnContext, settings: BatchSettings, quiet: bool
    ) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, settings, quiet), daemon=True, name="blokus-worker"
        )
        self.process.start()
        child.close()
        self.item: Item | None = None

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


def start_method() -> Literal["fork", "spawn"]:
    """``fork`` on Linux (workers inherit the loaded kernel), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return "fork" if sys.platform.startswith("linux") and "fork" in methods else "spawn"


class LocalPool:
    """``jobs`` worker processes that stay alive across items."""

    def __init__(self, jobs: int, settings: BatchSettings, quiet: bool = True):
        self.jobs = jobs
        self.settings = settings
        self.quiet = quiet and not os.environ.get("BLOKUS_DEBUG")
        # (typeshed types get_context of a str as BaseContext, which has no Process)
        self.ctx = cast("ForkContext | SpawnContext", multiprocessing.get_context(start_method()))
        self.workers: list[_Worker] = []
        self._skip: Skip = _never
        self._done: Done = lambda item, outcome: None

    def describe(self) -> str:
        return f"{self.jobs} worker process{'es' if self.jobs != 1 else ''}"

    def warm(self) -> tuple[str, float]:
        """Load (or compile) the search kernel here, before any worker starts: forked
        workers inherit it; spawned ones load the cached copy this leaves."""
        return warm_kernel(self.settings.backend)

    def run(self, items: Iterable[Item], done: Done, skip: Skip = _never) -> None:
        """Run every item, calling ``done(item, outcome)`` in this process as each
        finishes; an item that ``skip`` refuses when its turn comes is not run
        (``done(item, None)``). Ctrl-C (KeyboardInterrupt) stops the workers and is raised
        again."""
        queue: deque[Item] = deque(items)
        self._skip, self._done = skip, done
        try:
            self.workers = [
                _Worker(self.ctx, self.settings, self.quiet)
                for _ in range(min(self.jobs, len(queue)))
            ]
            for w in self.workers:
                self._give(w, queue)
            while any(w.item is not None for w in self.workers):
                self._collect(queue, done)
        finally:
            self.close()

    def _give(self, worker: _Worker, queue: deque[Item]) -> None:
        worker.item = None
        while queue and worker.item is None:
            item = queue.popleft()
            if self._skip(item):
                self._done(item, None)
            else:
                worker.item = item
        if worker.item is not None:
            worker.conn.send(worker.item)

    def _collect(self, queue: deque[Item], done: Done) -> None:
        busy = [w for w in self.workers if w.item is not None]
        ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
        for w in busy:
            if w not in self.workers:  # stopped meanwhile: its seed's puzzle was answered
                continue
            if w.conn in ready or w.conn.poll():
                try:
                    outcome = w.conn.recv()
                except Exception:  # EOF or a message cut short: the worker died sending
                    outcome = None
                if outcome is not None:
                    item = w.item
                    assert item is not None
                    if item.seed is not None:  # a sweep's answer may make the next seed moot
                        done(item, outcome)
                        self._give(w, queue)
                        self._stop_moot_seeds(item, queue)
                    else:
                        self._give(w, queue)  # the worker goes on while this one is written
                        done(item, outcome)
                    continue
            if w.process.sentinel in ready or not w.process.is_alive():
                self._replace(w, queue, done)

    def _stop_moot_seeds(self, item: Item, queue: deque[Item]) -> None:
        """Stop the workers running other seeds of ``item``'s puzzle that ``skip`` now
        refuses (``done(item, None)`` for each) and give new workers the next items: a
        sweep's found layout does not wait for the other seeds' time limits."""
        for i, w in enumerate(self.workers):
            other = w.item
            if other is None or other.seed is None or other.source.name != item.source.name:
                continue
            if not self._skip(other):
                continue
            w.stop()
            self._done(other, None)
            fresh = _Worker(self.ctx, self.settings, self.quiet)
            self.workers[i] = fresh
            self._give(fresh, queue)

    def _replace(self, dead: _Worker, queue: deque[Item], done: Done) -> None:
        dead.process.join(timeout=5)
        item = dead.item
        assert item is not None
        why = f"worker process died ({exit_text(dead.process.exitcode)}) while on this item"
        dead.stop()
        done(item, crash_outcome(item, self.settings, why))
        fresh = _Worker(self.ctx, self.settings, self.quiet)
        self.workers[self.workers.index(dead)] = fresh
        self._give(fresh, queue)

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.workers = []


# ---------------------------------------------------------------------------------------
# Dask


class DaskUnavailable(RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached (message for the user)."""


def dask_client(address: str, jobs: int) -> Client:
    """A Dask client: to the scheduler at ``address``, or with ``address == "local"`` to a
    new ``LocalCluster`` of ``jobs`` single-threaded worker processes.

    Raises:
        DaskUnavailable: Dask is not installed, or the scheduler does not answer in 10 s.
    """
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise DaskUnavailable(
            "--scheduler needs Dask: pip install '.[cluster]' in the project's folder"
        ) from None
    try:
        if address == "local":
            import dask

            # the workers' statistical profiler samples every thread every 10 ms: CPU the
            # solver can use better (a user's own cluster keeps its own settings)
            with (
                dask.config.set({"distributed.worker.profile.enabled": False}),
                # its processes inherit SIGINT ignored: Ctrl-C in a terminal reaches the
                # whole process group, and only this process acts on it (it stops them)
                signal_handled(signal.SIGINT, signal.SIG_IGN),
            ):
                cluster = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            return Client(cluster)
        probe_scheduler(address)
        return Client(address, timeout="10s")
    except DaskUnavailable:
        raise
    except (OSError, TimeoutError, ValueError) as e:
        what = shown(f"{e}")
        raise DaskUnavailable(
            f"cannot reach the Dask scheduler at {shown(address)}: {what}"
        ) from None
    except Exception as e:  # something answered, but not a Dask scheduler
        what = shown(f"{e.__class__.__name__}: {e}")
        raise DaskUnavailable(f"no Dask scheduler at {shown(address)} ({what})") from None


@contextmanager
def signal_handled(signum: int, handler: Handler) -> Iterator[None]:
    """``handler`` for signal ``signum`` inside the block, the old one restored after;
    nothing changes outside the main thread (where handlers cannot be set)."""
    try:
        old = signal.signal(signum, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signum, old)


#: the most a Dask handshake could take (*measured*: about 200 bytes); a first frame that
#: says more is not Dask's (a length Dask would try to allocate before reading it)
HANDSHAKE_MAX = 1 << 20


def probe_scheduler(address: str) -> None:
    """Fail at once for a TCP scheduler address where nothing listens (connection refused)
    instead of after Dask's connect time-out, and for one where something else answers.

    A Dask scheduler speaks first: its handshake, framed as 8 bytes of length (struct
    ``Q``, as ``distributed.comm.tcp`` writes it) and the message. A server that closes
    the connection first, or whose first 8 bytes give a length no handshake has, is not a
    Dask scheduler: Dask itself would try to allocate that length ("Unable to allocate
    3.07 EiB") or wait forever. A server that says nothing within 10 s is left to Dask's
    own time-out.

    Raises:
        OSError: nothing listens (connection refused, unknown host).
        DaskUnavailable: something answered that is not a Dask scheduler.
    """
    import socket
    import struct

    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":  # (tls: encrypted, Dask's own checks apply)
        return
    host, port = parse_host_port(location)
    with socket.create_connection((host, port), timeout=10) as sock:
        first = b""
        try:
            while len(first) < 8:
                chunk = sock.recv(8 - len(first))
                if not chunk:
                    break
                first += chunk
        except TimeoutError:
            return
    if len(first) < 8:
        raise DaskUnavailable(
            f"not a Dask scheduler at {shown(address)}: it closed the connection "
            f"without Dask's handshake (sent {first[:8]!r})"
        )
    (length,) = struct.unpack("Q", first)
    if not 0 < length <= HANDSHAKE_MAX:
        raise DaskUnavailable(
            f"not a Dask scheduler at {shown(address)}: it answered {first!r}..., which "
            "is not Dask's protocol (is the port another service's?)"
        )


class DaskPool:
    """Items sent to a Dask cluster as tasks; results come back to this process."""

    def __init__(self, client: Client, settings: BatchSettings):
        self.client = client
        self.settings = settings
        self._siblings: dict[str, list[Future[Outcome]]] = {}

    def describe(self) -> str:
        workers = len(self.client.scheduler_info().get("workers", {}))
        scheduler = self.client.scheduler
        address = scheduler.address if scheduler is not None else "(not connected)"
        return f"Dask scheduler {address} ({workers} workers)"

    def warm(self) -> tuple[str, float]:
        """Load the search kernel on one worker first (it compiles there if that worker has
        no cached copy), then on every worker (they load that copy where they share the
        file system). Returns what the first worker did."""
        backend = self.settings.backend
        first = self.client.submit(warm_kernel, backend, pure=False).result()
        self.client.run(warm_kernel, backend)
        return first

    def run(self, items: Iterable[Item], done: Done, skip: Skip = _never) -> None:
        """Run every item on the cluster, calling ``done(item, outcome)`` here as each
        finishes; after each, the tasks of items that ``skip`` now refuses are cancelled
        (``done(item, None)``). Ctrl-C cancels every task and is raised again."""
        from distributed import as_completed

        items = list(items)
        futures = {
            self.client.submit(run_item, item, self.settings, pure=False): item for item in items
        }
        self._siblings = {}  # a sweep's futures, by puzzle
        for future, item in futures.items():
            if item.seed is not None:
                self._siblings.setdefault(item.source.name, []).append(future)
        handled: set[Future[Outcome]] = set()
        try:
            for future in as_completed(futures):
                item = futures[future]
                if future in handled:  # cancelled here (some versions still yield it)
                    continue
                handled.add(future)
                if future.status == "finished":
                    outcome = future.result()
                else:
                    e = future.exception()
                    why = f"Dask task failed: {e.__class__.__name__}: {e}"
                    outcome = crash_outcome(item, self.settings, why)
                future.release()
                done(item, outcome)
                if item.seed is not None:
                    self._cancel_skipped(item, futures, handled, done, skip)
        except BaseException:
            self.client.cancel(list(futures))
            raise

    def _cancel_skipped(
        self,
        item: Item,
        futures: dict[Future[Outcome], Item],
        handled: set[Future[Outcome]],
        done: Done,
        skip: Skip,
    ) -> None:
        """Cancel the tasks of ``item``'s puzzle that ``skip`` now refuses and that have not
        finished (a finished one is still collected). Dask cannot stop a task already
        running: it runs on to its time limit, and its result is dropped."""
        siblings = self._siblings.get(item.source.name, [])
        gone = [f for f in siblings if f not in handled and not f.done() and skip(futures[f])]
        if gone:
            self.client.cancel(gone)
        for f in gone:
            handled.add(f)
            done(futures[f], None)

    def close(self) -> None:
        cluster = getattr(self.client, "cluster", None)
        self.client.close()
        if cluster is not None:
            cluster.close()
