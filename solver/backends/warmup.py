"""The first run: the search kernel is compiled in the background while the rest answer.

numba compiles :mod:`solver.backends.search.kernel` (and the fundamental-domain search's
:mod:`solver.backends.domain.kernel`, which ``auto`` also runs, and the move generator's
:mod:`solver.core.movegen_kernel`, which the GTP engine asks) on its first call and
caches the machine code on disk (``cache=True``); that first compile takes 10-30 s
(docs/engines.md), after which loading it takes a fraction of a second. So that
the first command after installing does not wait for it, ``auto``, when
it first needs the kernel, checks :func:`kernel_ready` (:func:`before_search`) and, when
the cache is missing on the command line, says so and starts
:func:`compile_in_background` (a separate process, ``python -m solver.backends.warmup``,
which outlives the command and writes the cache); ``auto`` then answers with the backends
that need no kernel (CP-SAT, and the symmetric reduction where it applies). The next
command finds the cache. Library calls keep compiling in process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from solver.backends.base import Backend, BackendResult, Cancel, SolveOptions
from solver.core.problem import Problem

#: a compile started less than this many seconds ago is taken to be still running
LOCK_AGE = 180.0
#: the folder holding this copy of the ``solver`` package: the background compile starts
#: there, so that ``python -m`` imports (and caches) this copy, not a ``solver`` folder in
#: the user's current directory (a clone of the project beside an installed copy)
PACKAGE_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class FirstRun:
    """What this process knows of the first run's background compile (one per process:
    :data:`state`; :func:`reset` starts it afresh)."""

    #: this process leaves the search to a background compile (it started one, or found
    #: another command's running: :func:`compile_in_background` with ``search_waits``)
    started: bool = False
    #: :data:`on_background_compile` has been called in this process
    told: bool = False
    #: when another command started the background compile this one found running (the
    #: lock's time, seconds since the epoch), else None
    elsewhere_since: float | None = None


#: this process's first-run state
state = FirstRun()


def reset() -> None:
    """Forget this process's first-run state (:data:`state`), as in a new process: no
    background compile started or found, no notice given. For tests, which run many
    commands in one process."""
    global state
    state = FirstRun()


def search_kernel() -> Any:
    """The numba dispatcher of the exact search's kernel (its entry point ``run``),
    imported (numba with it) on first use: the kernel most commands wait for."""
    from solver.backends.search.kernel import run

    return run


def cache_index(kernel: Any = None) -> Path | None:
    """The path of the numba cache index of a kernel's entry point (a numba dispatcher;
    default: the search kernel's ``run``), whether or not the file exists; None if numba's
    cache internals are not as expected. The background compile's lock file lies beside
    it."""
    if kernel is None:
        kernel = search_kernel()
    try:
        return Path(kernel._cache._cache_file._index_path)
    except AttributeError:
        return None


def compiled_or_cached(kernel: Any) -> bool:
    """True when ``kernel`` (a numba dispatcher) is compiled in this process or its cache
    index (:func:`cache_index`) is on disk; when unsure (no index path), True."""
    if kernel.signatures:
        return True
    index = cache_index(kernel)
    return index is None or index.exists()


def kernel_ready() -> bool:
    """True when the search's kernel is compiled in this process or cached on disk (then
    the first call only loads it); when unsure, True (the old behaviour: compile in
    process). The fundamental-domain search's kernel is not needed for that
    (:func:`before_search`)."""
    return compiled_or_cached(search_kernel())


def repair_cached() -> bool:
    """True when the compiled repair search's kernel is compiled in this process or its
    cache is on disk (loading it then takes under a second, compiling it a minute or
    more); when unsure, True."""
    import importlib  # (by name: the repair package sits above this module's layer)

    return compiled_or_cached(importlib.import_module("solver.backends.repair.kernel").run)


def kernel_loaded() -> bool:
    """True when this process has the search kernel compiled or loaded (a search ran in
    it): the search then answers a one-colour check faster than greedy play does (a
    failed greedy try costs tens of milliseconds, a search a few)."""
    kernel = sys.modules.get("solver.backends.search.kernel")
    return kernel is not None and bool(kernel.run.signatures)


def domain_ready() -> bool:
    """Whether ``auto`` may use the fundamental-domain search: on the command line only
    when its kernel (:mod:`solver.backends.domain.kernel`) is compiled in this process or
    cached on disk; library calls compile in process (True)."""
    from solver.backends.domain import kernel as domain_kernel

    return on_background_compile is None or compiled_or_cached(domain_kernel.run)


def compile_in_background(search_waits: bool = True) -> bool:
    """Start ``python -m solver.backends.warmup`` detached, unless one started less than
    :data:`LOCK_AGE` seconds ago; True if one is (now) running. ``search_waits``: this
    process leaves the search to it (:func:`compiling_elsewhere`); False when only the
    fundamental-domain kernel is missing (the search's is cached)."""
    index = cache_index()
    if index is None:
        return False
    lock = index.with_name("blokus-solo-warmup.lock")
    try:
        if lock.exists() and time.time() - lock.stat().st_mtime < LOCK_AGE:
            # another command's compile runs: leave the search to it as well (a second
            # compile in this process would take as long, 10-30 s, and answer nothing)
            state.started = state.started or search_waits
            state.elsewhere_since = lock.stat().st_mtime
            return True
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text(str(os.getpid()), encoding="utf-8")
        subprocess.Popen(
            [sys.executable, "-m", "solver.backends.warmup"],
            cwd=PACKAGE_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    state.started = state.started or search_waits
    return True


def compiling_elsewhere() -> bool:
    """True when this process started :func:`compile_in_background` and has not compiled
    the kernel itself: ``auto`` then leaves the search (and the repair search) out."""
    if not state.started:
        return False  # (without importing numba: a command that never searches skips it)
    return not search_kernel().signatures


#: set by the command line to allow :func:`before_search` to compile in the background;
#: called when that compile starts, or is found running, to say so: with None when this
#: command started it, else with the seconds since another command did
on_background_compile: Callable[[float | None], None] | None = None


def before_search() -> None:
    """Called by ``auto`` before it first needs the kernel (not before: answers that need
    no kernel, such as greedy play's, then come without loading numba). On the command
    line (:data:`on_background_compile` set) and without a cached kernel, starts
    :func:`compile_in_background` (or finds another command's running: this command then
    leaves the search to it too, rather than compile it a second time) and calls
    :data:`on_background_compile` (once per
    process: a command that checks several colours says it once); with only the
    fundamental-domain kernel missing, starts it without a word and without holding the
    search back; otherwise nothing (a library call compiles in process)."""
    notice = on_background_compile
    if notice is None:
        return
    if not kernel_ready():
        if compile_in_background() and not state.told:
            state.told = True
            since = state.elsewhere_since
            notice(None if since is None else max(0.0, time.time() - since))
    elif not domain_ready():  # (e.g. after an upgrade): quietly, the search runs as usual
        compile_in_background(search_waits=False)


#: seconds between two looks at the cache while :func:`when_compiled` waits for it
POLL = 0.2


def when_compiled(entry: Backend) -> Backend:
    """``entry`` (the exact search) as an entrant of ``auto``'s race on a first run: it
    waits, without using a core, until the search kernel is in the cache (the background
    compile, :func:`compile_in_background`, wrote it: 20-60 s) or in this process, then
    loads it (a fraction of a second) and solves with the time left. So a first command
    that greedy play does not answer is answered by the search as soon as it can be,
    rather than by CP-SAT alone (which can take minutes on an endgame check the search
    answers in milliseconds: docs/benchmarks.md, issue 35). Stopped by ``cancel`` or the
    time limit while waiting, it answers "unknown"."""

    def solve(
        problem: Problem, options: SolveOptions, cancel: Cancel | None = None
    ) -> BackendResult:
        started = time.perf_counter()
        while not kernel_ready():
            waited = time.perf_counter() - started
            if cancel is not None and cancel.is_set():
                return BackendResult("unknown", stats={"waited_for_compile": round(waited, 3)})
            if options.time_limit is not None and waited + POLL >= options.time_limit:
                return BackendResult("unknown", stats={"waited_for_compile": round(waited, 3)})
            time.sleep(POLL)
        left = options.time_limit
        if left is not None:
            left = max(0.05, left - (time.perf_counter() - started))
        return entry.solve(problem, replace(options, time_limit=left), cancel)

    return replace(entry, load=lambda: solve)


def compile_wait(backend: str) -> str | None:
    """What a run of ``backend`` waits for before it can answer: its kernel's first
    compile (10-30 s), when the kernel is neither compiled in this process nor cached on
    disk; None when it waits for nothing. Says so when a background compile started by
    another command is running too (this one does not wait for it: numba compiles
    where it is called)."""
    import importlib

    from solver.backends.registry import every

    record = every().get(backend)
    name = None if record is None else record.kernel
    if name is None:
        return None
    kernel = importlib.import_module(name).run
    if compiled_or_cached(kernel):
        return None
    index = cache_index(kernel)
    lock = index.with_name("blokus-solo-warmup.lock") if index is not None else None
    try:
        running = lock is not None and time.time() - lock.stat().st_mtime < LOCK_AGE
    except OSError:
        running = False
    also = "; another command is compiling it in the background too" if running else ""
    return (
        f"first run of --backend {backend}: compiling its kernel ({name.split('.')[-2]} "
        "kernel) in this command "
        f"(once, 10-30 s; --backend auto answers meanwhile){also}"
    )


def compile_kernel(kernels: tuple[str, ...] = ("search", "domain")) -> None:
    """Compile (or load) the kernels ``auto`` runs by solving tiny puzzles with the search
    and the fundamental-domain search (``kernels``: which of the two; two processes may
    compile one each at the same time, as the test suite's start does); ``"movegen"`` in
    ``kernels``: the legal-move generator's too (:func:`solver.core.movegen.warm`);
    ``"repair"``: the compiled repair search's (:mod:`solver.backends.repair.kernel`)."""
    import numpy as np

    from solver.backends.base import SolveOptions
    from solver.backends.domain import quadrants as domain
    from solver.backends.search import exact as search
    from solver.backends.search import kernel
    from solver.core.board import Board
    from solver.core.position import ColourState, Position
    from solver.core.problem import Problem

    if "movegen" in kernels:
        from solver.core.movegen import warm

        warm()

    board = Board(3, 3)
    position = Position(board, (ColourState("blue", 0, (), ("1", "2")),))
    problem = Problem(position, ("blue",))
    if "search" in kernels:
        search.solve(problem, SolveOptions(backend="search", workers=1))
        rows = np.zeros((2, 4), dtype=np.int64)
        kernel.memo_rehash(rows, np.zeros((4, 4), dtype=np.int64))  # the memo's growth
    if "repair" in kernels:
        # (by name: the repair package sits above this module's layer)
        import importlib

        importlib.import_module("solver.backends.repair.compiled").warm_up()
    if "domain" not in kernels:
        return
    pair = Board(2, 2)  # two colours from opposite corners, a monomino each: the half turn
    colours = (ColourState("blue", 0, (), ("1",)), ColourState("red", 3, (), ("1",)))
    domain.solve(Problem(Position(pair, colours), ("blue", "red")), SolveOptions(workers=1))


if __name__ == "__main__":
    compile_kernel(("search", "domain", "movegen", "repair"))
    index = cache_index()
    if index is not None:
        index.with_name("blokus-solo-warmup.lock").unlink(missing_ok=True)
