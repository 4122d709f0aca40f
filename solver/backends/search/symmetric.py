"""The exact search's symmetric reduction (:func:`solve_symmetric`): layouts that a board
symmetry maps onto themselves with the colours permuted, searched on the orbits (one colour
per orbit of the colour symmetry), with restarts in Luby's sequence.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from solver.backends import driver
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.race import first_proven
from solver.backends.search import kernel as core
from solver.backends.search.tables import ExactSearch, build, found_layout
from solver.core.colour_symmetry import ColourSymmetry, expand
from solver.core.pieces import MONOMINO
from solver.core.problem import Problem

#: nodes of the first run of :func:`solve_symmetric` on a symmetry; run k gets
#: ``luby(k)`` times as many
SYMMETRIC_RUN_NODES = 200


def solve_symmetric(
    problem: Problem,
    symmetries: list[ColourSymmetry],
    options: SolveOptions = SolveOptions(),
    cancel: Cancel | None = None,
    run_nodes: int | None = None,
) -> BackendResult:
    """Look for a layout that one of ``symmetries`` (groups of
    :func:`solver.core.colour_symmetry.colour_symmetries` of ``problem``, tried in this
    order) maps onto itself: the search on each group's symmetric reduction
    (:func:`build` with ``symmetry``), restarted.

    ``options.workers`` threads each run their own seed stream: thread i's k-th run on a
    group has the value order of seed (``options.seed``, i, k) (:meth:`ExactSearch.reordered`)
    and ``run_nodes * luby(k)`` nodes (None: :data:`SYMMETRIC_RUN_NODES`; the ``symmetric``
    backend gives Trigon's triangles more: :mod:`solver.backends.symmetric.engine`); the
    first layout stops them all. A run
    that exhausts its tree shows that the group has no layout: every thread then goes on
    with the next group.

    Without the monomino-last rule, each group is first searched *with* it, while every
    representative still holds its monomino (:func:`_stages`): a layout whose monominoes
    can be placed last is a layout of the problem too (legality does not depend on the
    order), and holding the monomino back for the leaf makes the search far easier (the
    84 pieces with the monomino anywhere: docs/benchmarks.md, issue 35); only when that
    tree is exhausted does the group's own reduction run.

    Returns:
        "solved" with the layout of every colour (the representatives' mapped by each
        group element), or "unknown" (time limit, cancel, or no layout with any of the
        groups: ``stats["unknown_reason"]``); never "infeasible", since a layout without
        symmetry may exist.
    """
    started = time.perf_counter()
    shared = _SharedReductions(problem, symmetries)
    threads = max(1, options.workers)

    def stream(thread: int) -> Callable[[Cancel], BackendResult]:
        return lambda stop: _restarts(shared, options, thread, started, stop, run_nodes)

    results, winner = first_proven(
        [stream(i) for i in range(threads)],
        lambda r: r.status == "solved" or "unknown_reason" in r.stats,
        cancel,
    )
    result = results[0 if winner is None else winner]
    stats = dict(result.stats)
    stats["nodes"] = sum(int(r.stats.get("nodes", 0)) for r in results)
    stats["runs"] = sum(int(r.stats.get("runs", 0)) for r in results)
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return BackendResult(result.status, result.layout, None, stats, result.answered_by)


def _stages(problem: Problem, symmetries: list[ColourSymmetry]) -> list[tuple[int, bool]]:
    """The reductions :func:`solve_symmetric` searches in turn, as (group index,
    monomino-last): each group with the problem's rule, preceded, for a problem without
    it, by the group with it when every representative still holds its monomino (a
    restriction: its layouts are layouts of the problem)."""
    stages: list[tuple[int, bool]] = []
    for i, sym in enumerate(symmetries):
        holds = all(MONOMINO in problem.position.colour(c).remaining for c in sym.representatives)
        if not problem.monomino_last and holds:
            stages.append((i, True))
        stages.append((i, problem.monomino_last))
    return stages


class _SharedReductions:
    """What the threads of one :func:`solve_symmetric` share: the stages
    (:func:`_stages`), each one's reduction built once when first needed (read-only
    tables; each run copies the state), and the stages whose tree a run has exhausted."""

    def __init__(self, problem: Problem, symmetries: list[ColourSymmetry]):
        self.problem = problem
        self.symmetries = symmetries
        self.stages = _stages(problem, symmetries)
        self.exhausted: set[int] = set()
        self._built: dict[int, tuple[Problem, ExactSearch]] = {}
        self._lock = threading.Lock()

    def reduction(self, j: int) -> tuple[Problem, ExactSearch]:
        """Stage j's reduced problem (its group's representatives, its monomino-last rule)
        and its search, at the root."""
        with self._lock:
            if j not in self._built:
                i, monomino_last = self.stages[j]
                sym = self.symmetries[i]
                p = self.problem
                reduced = Problem(
                    p.position, sym.representatives, "place-all", monomino_last, p.name, p.title
                )
                self._built[j] = reduced, build(reduced, core.FIND, symmetry=sym)
            return self._built[j]


def _restarts(
    shared: _SharedReductions,
    options: SolveOptions,
    thread: int,
    started: float,
    stop: Cancel,
    run_nodes: int | None = None,
) -> BackendResult:
    """One thread's seed stream over the groups (see :func:`solve_symmetric`)."""
    nodes, runs = 0, 0
    stats: dict[str, Any] = {}
    for j, (i, monomino_last) in enumerate(shared.stages):
        sym = shared.symmetries[i]
        reduced, root = shared.reduction(j)
        stats = {"symmetry": sym.name, "placements": len(root.tables.pl_sq)}
        if monomino_last and not shared.problem.monomino_last:
            stats["monomino_last"] = True  # (a restriction: see _stages)
        k = 0
        while j not in shared.exhausted and not root.infeasible:
            if stop.is_set() or _out_of_time(options.time_limit, started):
                return BackendResult("unknown", None, stats=dict(stats, nodes=nodes, runs=runs))
            k += 1
            runs += 1
            search = root.reordered((options.seed, thread, k))
            budget = (run_nodes or SYMMETRIC_RUN_NODES) * driver.luby(k)
            code = driver.sliced_run(search, options.time_limit, started, stop, nodes=budget)
            nodes += search.nodes
            if code == core.FOUND:
                layout = expand(found_layout(search, reduced), sym)
                stats.update(nodes=nodes, runs=runs, seed=options.seed, thread=thread, run=k)
                return BackendResult("solved", layout, stats=stats, answered_by="symmetric")
            if code == core.DONE:
                shared.exhausted.add(j)
    stats.update(nodes=nodes, runs=runs)
    stats["unknown_reason"] = "no layout with any symmetry that applies"
    return BackendResult("unknown", None, stats=stats)


def _out_of_time(time_limit: float | None, started: float) -> bool:
    return time_limit is not None and time.perf_counter() - started >= time_limit
