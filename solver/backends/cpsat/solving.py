"""The CP-SAT backend's solve (:func:`solve`): the model of :mod:`solver.backends.cpsat.model`
solved, each solution checked for islands, the cuts of :mod:`solver.backends.cpsat.cuts`
added and the model solved again (hinted with the last solution), until a layout has no
island, the model is infeasible (a proof) or the time runs out; Ctrl-C and a cancel stop
CP-SAT between its solutions.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from solver.backends.base import BackendResult, Cancel, SolveOptions, Status, layout_score
from solver.backends.cpsat.cuts import (
    add_connect_cut,
    add_cuts,
    add_separator_cut,
    apart,
    islands,
    separator,
)
from solver.backends.cpsat.model import BuiltModel, ColourModel, ModelInfeasible, build_model
from solver.backends.cpsat.params import full_relaxation, parse_params
from solver.core.position import Layout, Placement
from solver.core.problem import Problem
from solver.errors import InputError
from solver.ranges import MAX_SEED


def _configure(
    solver: cp_model.CpSolver, options: SolveOptions, extra: str, time_left: float | None
) -> None:
    params = solver.parameters
    if "num_search_workers" not in extra:  # CP-SAT refuses both
        params.num_workers = options.workers
    # CP-SAT's random_seed is an int32: a seed derived from the user's (seed + run, the
    # companion's seed + 1000 per move) may pass 2^31 - 1; it wraps round, as symmetric.py's
    params.random_seed = options.seed % (MAX_SEED + 1)
    params.catch_sigint_signal = False  # Ctrl-C is ours: see _solve_interruptibly
    if extra and not params.merge_text_format(extra):
        raise InputError(f"bad CP-SAT parameters {options.params!r}", where="params")
    if time_left is not None:
        params.max_time_in_seconds = time_left


@dataclass
class _Verdict:
    """The connectivity check of one solution."""

    layout: dict[str, list[Placement]]  # island pieces dropped
    islands: int
    score: int  # max-score: the score of ``layout`` (0 in place-all: not computed)


_IslandKey = tuple[str, tuple[int, ...], bool]  # colour, island's placements, without the last


class _Search:
    """The state of the cut loop: cuts queued and added, best layouts seen."""

    def __init__(self, problem: Problem, built: BuiltModel, cut_kind: str = "both"):
        self.problem = problem
        self.cut_kind = cut_kind
        self.built = built
        self.max_score = problem.goal == "max-score"
        # island cuts to add: (colour, island, without the last piece) -> (its model, the
        # island, without the last piece, the chosen placements, the rows that were roots);
        # connect cuts: (colour, rows, groups) -> its model
        self.pending: dict[
            _IslandKey, tuple[ColourModel, list[int], bool, list[int], np.ndarray]
        ] = {}
        self.pending_connect: dict[tuple[str, tuple[int, ...], tuple[int, ...]], ColourModel] = {}
        self.added: set[_IslandKey] = set()
        self.best: _Verdict | None = None  # max-score: best legal layout
        self.connected: _Verdict | None = None  # a solution without islands
        self.solutions = 0

    def examine(self, values: np.ndarray) -> _Verdict:
        """Check one solution (CP-SAT values by variable index) and queue its cuts."""
        self.solutions += 1
        layout: Layout = {}
        found = 0
        for cm in self.built.colours:
            chosen = np.flatnonzero(values[cm.var_index] > 0)
            root = cm.rooted(values)
            full = islands(cm, chosen, root=root)
            cuts = [(c, False) for c in full]
            if cm.mono_last or (cm.bonus is not None and values[cm.bonus.index] > 0):
                cuts += [(c, True) for c in islands(cm, chosen, True, root)]
            for island, without_last in cuts:
                key = (cm.name, tuple(sorted(island)), without_last)
                queued = (cm, island, without_last, [int(i) for i in chosen], root)
                self.pending.setdefault(key, queued)
            found += len(cuts)
            for rows, groups in apart(cm, chosen):
                self.pending_connect.setdefault((cm.name, rows, groups), cm)
                found += 1
            dropped = {i for c in full for i in c}
            layout[cm.name] = [cm.table.placement(int(i)) for i in chosen if int(i) not in dropped]
        score = layout_score(self.problem, layout) if self.max_score else 0
        verdict = _Verdict(layout, found, score)
        if self.max_score and (self.best is None or score > self.best.score):
            self.best = verdict
        if not found:
            self.connected = verdict
        return verdict

    def add_pending_cuts(self) -> int:
        """Add the queued cuts to the model; returns the number of constraints added."""
        count = 0
        for key, (cm, island, without_last, chosen, root) in self.pending.items():
            if self.cut_kind in ("placement", "both") and key not in self.added:
                count += add_cuts(self.built.model, cm, island, without_last)
            if self.cut_kind in ("separator", "both"):
                position = self.problem.position
                found = separator(cm, position, chosen, island, without_last, root)
                if found is not None:
                    count += add_separator_cut(self.built.model, cm, *found, without_last)
            self.added.add(key)
        self.pending.clear()
        for (_, rows, groups), cm in self.pending_connect.items():
            count += add_connect_cut(self.built.model, cm, list(rows), list(groups))
        self.pending_connect.clear()
        return count


class _Watcher(cp_model.CpSolverSolutionCallback):
    """Checks every solution CP-SAT finds; stops the search once the goal is met."""

    def __init__(self, search: _Search, first: bool = False):
        super().__init__()
        self.search = search
        self.first = first  # stop at the first solution, whatever it is

    def on_solution_callback(self) -> None:
        search = self.search
        verdict = search.examine(np.asarray(self.response_proto.solution, dtype=np.int64))
        best = search.best
        if self.first:
            self.stop_search()
        elif not search.max_score:
            if not verdict.islands:
                self.stop_search()
        elif best is not None and best.score >= search.built.score_bound(self.best_objective_bound):
            self.stop_search()  # a legal layout reaches the relaxation's bound


def _solve_interruptibly(
    solver: cp_model.CpSolver, model: cp_model.CpModel, callback: cp_model.CpSolverSolutionCallback
) -> cp_model.CpSolverStatus:
    """``solver.solve(model, callback)``; in the main thread it runs in a helper thread so
    that Ctrl-C reaches Python at once: the search is stopped, then KeyboardInterrupt is
    re-raised (CP-SAT's own SIGINT handling is off, see :func:`_configure`)."""
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)
    status: list[cp_model.CpSolverStatus] = []
    thread = threading.Thread(
        target=lambda: status.append(solver.solve(model, callback)), daemon=True
    )
    thread.start()
    try:
        thread.join()
    except KeyboardInterrupt:
        solver.stop_search()
        thread.join()
        raise
    return status[0]


@contextmanager
def _stopped_by(cancel: Cancel | None, solver: cp_model.CpSolver) -> Iterator[None]:
    """While the block runs, a watcher thread stops the solver when ``cancel`` is set."""
    if cancel is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        # stop_search() is lost if it comes before solve() has started: keep calling it
        while not done.wait(0.02):
            if cancel.is_set():
                solver.stop_search()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def solve(
    problem: Problem,
    options: SolveOptions,
    cancel: Cancel | None = None,
    *,
    guide: bool = True,
    cut_kind: str = "both",
    constrain: Callable[[BuiltModel], None] | None = None,
    first_solution: bool = False,
) -> BackendResult:
    """Solve a problem with CP-SAT and lazy connectivity cuts.

    Args:
        problem: position, played colours, goal, ``monomino_last``.
        options: ``time_limit`` (total wall seconds over all solves, None = none),
            ``workers``, ``seed`` and ``params`` (CP-SAT parameters, protobuf text format;
            with ``linearization_level`` 2 or more the model also gets the 2x2-block rows,
            see :data:`PROOF_PARAMS`).
        cancel: set from another thread to stop early, as the time limit does.
        guide: steer with :func:`add_guide_penalties` (no effect on the answer).
        cut_kind: "both" (default), "placement" (:func:`add_cuts` only) or "separator"
            (:func:`add_separator_cut` only), for measurements.
        constrain: called once on the built model to add constraints (e.g.
            :func:`solver.backends.cpsat.symmetric.add_orbit_constraints`); "infeasible" then means
            no layout meets them too.
        first_solution: end each CP-SAT run at its first solution, a layout or not (its
            islands become cuts for the next run), for measurements
            (``benchmarks/cegar.py --cpsat stop``).

    Returns:
        A :class:`BackendResult`. "place-all": "solved", "infeasible" (CP-SAT proved the
        model with its valid cuts infeasible) or "unknown" (time limit). "max-score":
        "optimal" (a legal layout reaches a proven bound), "solved" (the best legal layout
        seen, islands dropped, with the best proven bound) or "unknown" (no solution in
        time). ``stats``: literals and constraints (final model), iterations (solves),
        solutions (checked), cuts (constraints added), cpsat_wall, build and wall (s).

    Raises:
        InputError: ``options.params`` is not valid SatParameters text, or CP-SAT refuses
            its values (MODEL_INVALID on a valid model).
        RuntimeError: CP-SAT finds the model invalid, or an impossible status (a bug here).
    """
    started = time.perf_counter()
    extra = parse_params(options.params)
    stats: dict[str, Any] = {
        "literals": 0,
        "constraints": 0,
        "iterations": 0,
        "solutions": 0,
        "cuts": 0,
        "cpsat_wall": 0.0,
    }
    try:
        built = build_model(problem, guide, blocks=full_relaxation(extra))
    except ModelInfeasible as e:
        stats["reason"] = str(e)
        return BackendResult("infeasible", None, None, stats)
    if constrain is not None:
        constrain(built)
    stats["build"] = round(time.perf_counter() - started, 3)
    model = built.model
    search = _Search(problem, built, cut_kind)
    max_score = search.max_score
    bound: int | None = None
    status_name: Status = "unknown"
    while True:
        left = None
        if options.time_limit is not None:
            left = options.time_limit - (time.perf_counter() - started)
            if left <= 0:
                break
        if cancel is not None and cancel.is_set():
            break
        solver = cp_model.CpSolver()
        _configure(solver, options, extra, left)
        seen = search.solutions
        with _stopped_by(cancel, solver):
            status = _solve_interruptibly(solver, model, _Watcher(search, first_solution))
        stats["iterations"] += 1
        stats["cpsat_wall"] += solver.wall_time
        if status == cp_model.MODEL_INVALID:
            problem_text = model.validate()
            if problem_text:
                raise RuntimeError(f"CP-SAT model invalid: {problem_text}")
            raise InputError(
                f"CP-SAT refused the parameters {options.params!r}: {solver.solution_info()}",
                where="params",
            )
        if status == cp_model.INFEASIBLE:
            if max_score:
                raise RuntimeError("CP-SAT: a max-score model cannot be infeasible")
            status_name = "infeasible"
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break  # time limit
        if search.solutions == seen:  # e.g. a model without variables: no callback
            search.examine(np.asarray(solver.response_proto.solution, dtype=np.int64))
        if max_score:
            b = built.score_bound(solver.best_objective_bound)
            bound = b if bound is None else min(bound, b)
            if search.best is not None and search.best.score >= bound:
                status_name = "optimal"
                break
        elif search.connected is not None:
            status_name = "solved"
            break
        if not search.pending and not search.pending_connect:
            break  # max-score stopped by the time limit on a layout without islands
        stats["cuts"] += search.add_pending_cuts()
        model.clear_hints()  # type: ignore[no-untyped-call]  # OR-tools leaves it unannotated
        last = np.asarray(solver.response_proto.solution, dtype=np.int64)
        for cm in built.colours:
            for v in cm.x:
                model.add_hint(v, bool(last[v.index]))
    stats["solutions"] = search.solutions
    stats["literals"] = len(model.proto.variables)
    stats["constraints"] = len(model.proto.constraints)
    stats["cpsat_wall"] = round(stats["cpsat_wall"], 3)
    stats["wall"] = round(time.perf_counter() - started, 3)
    if max_score:
        if search.best is None:
            return BackendResult("unknown", None, bound, stats)
        if status_name != "optimal":
            status_name = "solved"
        return BackendResult(status_name, search.best.layout, bound, stats)
    if status_name == "solved" and search.connected is not None:
        return BackendResult("solved", search.connected.layout, None, stats)
    return BackendResult(status_name, None, None, stats)
