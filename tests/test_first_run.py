"""First run: a command started while another one's background compile runs answers
without the search (no second compile, no "compiling" notice as if it were the first) and
says what it is waiting for; an explicit backend whose kernel must compile says so."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import PUZZLES, ROOT, run_cli

from solver.backends import warmup


def test_a_running_background_compile_is_left_to_finish(monkeypatch, tmp_path, fresh_first_run):
    """The lock of a compile started 5 s ago: no second compile is started, the search is
    left out (compiling_elsewhere), and the notice names the other command."""
    index = tmp_path / "search_kernel.run-1.py311.nbi"
    lock = index.with_name("blokus-solo-warmup.lock")
    lock.write_text("1")
    os.utime(lock, (time.time() - 5, time.time() - 5))
    said: list[float | None] = []
    monkeypatch.setattr(warmup, "cache_index", lambda kernel=None: index)
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    monkeypatch.setattr(warmup, "on_background_compile", said.append)
    started: list[tuple] = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    warmup.before_search()
    assert not started  # no second compile
    assert warmup.state.started  # the search waits for the other command's compile
    assert len(said) == 1 and said[0] is not None and 4 <= said[0] < 60


@pytest.mark.slow
def test_a_second_command_answers_during_the_first_compile(tmp_path):
    """A real second command, with an empty kernel cache and a young compile lock (the
    first command's background compile): it answers with CP-SAT, compiles nothing (no
    cache index appears) and says it found the compile running."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    where = subprocess.run(
        [sys.executable, "-c", "from solver.backends import warmup; print(warmup.cache_index())"],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    ).stdout.strip()  # fmt: skip
    index = Path(where)
    assert index.is_relative_to(tmp_path)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.with_name("blokus-solo-warmup.lock").write_text("1")
    puzzle = PUZZLES / "tiny-4x4-impossible.toml"
    result = subprocess.run(
        [sys.executable, "-c", "from solver.cli.commands import main; main()", "solve",
         str(puzzle), "--plain"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "status: infeasible" in result.stdout and "[search" not in result.stdout
    assert "still compiling" in result.stderr and "another command" in result.stderr
    assert not index.exists()  # this command compiled no search kernel


def test_an_explicit_backend_says_it_compiles(monkeypatch):
    monkeypatch.setattr(warmup, "compiled_or_cached", lambda kernel: False)
    result = run_cli("solve", PUZZLES / "tiny-5x5-corner.toml", "--backend", "cpsat", "--plain")
    assert "compiling" not in result.output  # CP-SAT needs no kernel
    said = warmup.compile_wait("domain")
    assert said is not None and "domain kernel" in said and "10-30 s" in said
    monkeypatch.setattr(warmup, "compiled_or_cached", lambda kernel: True)
    assert warmup.compile_wait("search") is None


def test_the_search_joins_once_the_background_compile_is_done(monkeypatch):
    """First run: ``auto``'s waiting entrant (warmup.when_compiled) solves with the search
    once the kernel is in the cache, with the time it has left; stopped while it waits, it
    answers unknown without solving."""
    from solver.backends.base import Backend, BackendResult, SolveOptions
    from solver.core.problem import Problem
    from solver.formats.puzzle import load_puzzle

    looks = iter([False, False, True])
    monkeypatch.setattr(warmup, "kernel_ready", lambda: next(looks))
    monkeypatch.setattr(warmup, "POLL", 0.01)
    solved: list[float | None] = []

    def search(problem, options, cancel=None):
        solved.append(options.time_limit)
        return BackendResult("infeasible")

    waiting = warmup.when_compiled(Backend("search", lambda: search))
    problem: Problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    result = waiting.solve(problem, SolveOptions(time_limit=5.0))
    assert result.status == "infeasible" and result.answered_by == "search"
    assert len(solved) == 1 and 4.5 < solved[0] < 5.0  # two looks waited, then the rest

    class Stopped:
        def is_set(self) -> bool:
            return True

    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    stopped = waiting.solve(problem, SolveOptions(time_limit=5.0), Stopped())
    assert stopped.status == "unknown" and len(solved) == 1
