"""The companion's tiers, the ways it answers a position after a move, cheapest first
(:mod:`solver.companion.follow` runs them in order): the repairs of the carried layout (a
move off it, the layout put right around it: by the exact search with the rest frozen, by
``reconnect``, by the repair search of :mod:`solver.backends.repair` from the nearest
carried layouts), and the full checks behind them (each colour alone, the joint solve),
the only ones that prove "no".

The repairs only find layouts (each checked by the rule checker against the position it
answers); :func:`alone_no` and :func:`full_check` may also prove "no".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from solver.backends import repair, search
from solver.backends.base import Cancel, SolveOptions
from solver.backends.driver import luby
from solver.backends.race import first_proven
from solver.companion.layouts import (
    checked,
    legal_part,
    missing_pieces,
    open_colours,
    own_copy,
    refusal,
    squares_left,
    with_pieces,
)
from solver.core.order import connected_part
from solver.core.pieces import family
from solver.core.placements import piece_moves
from solver.core.position import LayoutView, Placement, Position, pieces_less
from solver.core.problem import Problem, StepAnswer
from solver.errors import SolverBug
from solver.tasks.solve import SolveResult, solve

#: Most displaced and cut-off pieces the exact search puts back (more: the repair search).
EXACT_FREED = 14
#: Share of the budget (and most seconds) for putting the freed pieces back exactly.
EXACT_SHARE = (0.2, 1.0)
#: Most placements the search of :func:`reconnect` tries (each costs about 3 ms on 20x20).
RECONNECT_BUDGET = 300
#: Most complete carried layouts :func:`reconnect` is tried on after a move, the nearest
#: first (one try: about 50 ms of Python on 20x20; on Classic it found 0 of 43 tries of
#: issue 45's winning games and 1 of 89 in its openings, the compiled repair after it
#: finds those layouts: docs/benchmarks.md, issue 45 attempt 25)
RECONNECT_STARTS = 1
#: Share of the budget (and most seconds) for each colour alone (a proof of "no").
ALONE_SHARE = (0.1, 1.0)
#: Fewest seconds worth starting a solve with.
MIN_SOLVE = 0.05
#: Fewest seconds worth starting the full joint solve with, and the share of the budget
#: that lowers it for short budgets: ``auto`` does not stop sooner than about 0.3-0.7 s
#: whatever its limit (its set-up: the LP bound, the search's tables), and overruns a
#: limit of 1 s by up to 1 s (measured in docs/companion.md); started with less, it
#: would mostly overrun the budget. Short budgets still get it at the end of a game,
#: where it proves "no" in milliseconds.
MIN_FULL = (1.0, 0.25)
#: Pieces left (all colours) up to which each colour alone is asked before the repair
#: search (earlier it never proved "no" in the measurements of docs/companion.md: only
#: after about 40 placements, 44 pieces left).
ALONE_FIRST = 48
#: Most carried layouts (the nearest) a repair starts from.
MAX_STARTS = 4
#: Pieces left (all colours) up to which the full solvers come right after the exact
#: repair (the search settles such positions, "no" included, in milliseconds to seconds).
FULL_FIRST = 16
#: Share of the budget up to which the repair search runs from the witness; the rest
#: goes to the full solvers (the only ones that prove "no").
REPAIR_SHARE = 0.6
#: Repair steps of the first runs of :func:`repair_from` (later ones: times Luby's
#: sequence): about 1 s of the compiled search (4,000-6,000 steps a second; a run makes a
#: new start from its carried layout itself after 1,000 steps without progress). The
#: Python search, while the kernel is not built yet, takes about 10 ms a step.
REPAIR_SLICE = 4000


def exact_repair(
    position: Position, kept: LayoutView, seconds: float, seed: int = 0
) -> tuple[str, dict[str, tuple[Placement, ...]] | None]:
    """Put the pieces ``kept`` lacks back by the exact search (place-all, one worker,
    ``kept`` frozen), checked from ``position``.

    Returns:
        (the search's status: "solved", "infeasible" (not with the rest frozen) or
        "unknown" (``seconds`` ran out); the checked layout when solved, else None).
    """
    todo = missing_pieces(position, kept)
    colours = tuple(c for c, t in todo.items() if t)
    if not colours:
        found = checked(position, kept)
        return ("solved" if found is not None else "infeasible"), found
    frozen = with_pieces(position, kept)
    result = search.solve(
        Problem(frozen, colours, "place-all"),
        SolveOptions(backend="search", time_limit=max(0.01, seconds), workers=1, seed=seed),
    )
    if result.status != "solved" or result.layout is None:
        return result.status, None
    added = result.layout
    found = checked(
        position, {c: [*kept.get(c, ()), *added.get(c, ())] for c in open_colours(position)}
    )
    if found is None:
        raise SolverBug("the exact repair's layout is refused by the rule checker")
    return "solved", found


def reconnect(
    witness: LayoutView, colour: str, placed: Placement, position: Position, budget: int
) -> dict[str, tuple[Placement, ...]] | None:
    """Repair a complete witness around one move without dropping what the move cuts off:
    every piece that still fits stays where it is (islands too), and the displaced pieces
    (those the move covers; the mover's pieces it shares an edge with) are placed again by
    a small depth-first search, largest first, until every colour is connected again; if
    that fails, the island pieces that touched a removed piece move too.

    Args:
        witness: colour -> the pieces it adds, a complete layout from before the move.
        colour, placed: the move.
        position: the position after the move.
        budget: most placements the search tries in all.

    Returns:
        The checked layout, or None.
    """
    board = position.board
    around = placed.squares | {n for s in placed.squares for n in board.edge_neighbours[s]}
    stay: dict[str, list[Placement]] = {}
    todo: list[tuple[str, str]] = []
    removed: list[Placement] = []
    for d in open_colours(position):
        hit = around if d == colour else placed.squares
        pieces = [p for p in witness.get(d, ()) if p != placed]
        copy = own_copy(witness.get(d, ()), placed, hit) if d == colour else None
        stay[d] = [p for p in pieces if not p.squares & hit and p != copy]
        gone = [p for p in pieces if p not in stay[d]]
        removed += gone
        names = [p.piece for p in gone]
        if d == colour and placed not in witness.get(d, ()):  # the move placed one of them
            names = pieces_less(names, [placed.piece])
        todo += [(d, name) for name in names]
    tries = [budget]
    for extra in (False, True):
        moving = list(todo)
        fixed = {d: list(v) for d, v in stay.items()}
        if extra:  # the island pieces next to a removed one may move as well
            ring = {n for p in removed for s in p.squares for n in board.corner_neighbours[s]}
            for d, pieces in stay.items():
                island = [p for p in pieces if p not in connected_part(position, d, pieces)]
                hinge = [p for p in island if p.squares & ring]
                fixed[d] = [p for p in pieces if p not in hinge]
                moving += [(d, p.piece) for p in hinge]
            if len(moving) == len(todo):
                return None
        size = family(position.board.grid).size
        moving.sort(key=lambda t: -size[t[1]])
        found = _reconnect_dfs(position, with_pieces(position, fixed), fixed, moving, tries)
        if found is not None:
            return found
    return None


def _reconnect_dfs(
    position: Position,
    current: Position,
    layout: dict[str, list[Placement]],
    todo: list[tuple[str, str]],
    budget: list[int],
) -> dict[str, tuple[Placement, ...]] | None:
    if not todo:
        for d, pieces in layout.items():
            if len(connected_part(position, d, pieces)) != len(pieces):
                return None
        return checked(position, layout)
    d, piece = todo[0]
    for move in piece_moves(current, d, piece):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        layout[d].append(move)
        found = _reconnect_dfs(position, current.with_placement(d, move), layout, todo[1:], budget)
        layout[d].pop()
        if found is not None:
            return found
    return None


def repair_search(
    position: Position,
    start: LayoutView,
    deadline: float,
    seed: int = 0,
    stop: Cancel | None = None,
    steps: int | None = None,
) -> tuple[dict[str, tuple[Placement, ...]] | None, dict[str, list[Placement]]]:
    """The repair search from ``start`` (a legal partial layout) until ``deadline`` (a
    ``time.perf_counter()`` value), ``stop`` or ``steps`` repair steps, one thread.

    Returns:
        (a checked layout placing everything, or None; the best partial layout found,
        legal, which may be ``start`` itself).

    Raises:
        SolverBug: the search's layout is refused by the rule checker.
    """
    event = stop if stop is not None else threading.Event()
    layout, best, who = repair.search_from(
        position, open_colours(position), start, deadline, seed, event, steps
    )
    return _outcome(position, start, layout, best, who)


def _outcome(
    position: Position,
    start: LayoutView,
    layout: dict[str, list[Placement]] | None,
    best: dict[str, list[Placement]] | None,
    search: str,
) -> tuple[dict[str, tuple[Placement, ...]] | None, dict[str, list[Placement]]]:
    """A repair search's answer: its complete ``layout`` checked by the rule checker, or
    else its ``best`` partial layout in an order of play (``start`` when that is not
    legal or leaves more squares).

    Raises:
        SolverBug: ``layout`` is refused by the rule checker (``search`` names who made it).
    """
    if layout is not None:
        found = checked(position, layout)
        if found is None:
            raise SolverBug(
                f"{search}'s layout is refused by the rule checker: " + refusal(position, layout)
            )
        return found, {c: list(p) for c, p in found.items()}
    partial = legal_part(position, best) if best is not None else None
    if partial is None or squares_left(position, partial) > squares_left(position, start):
        partial = {c: list(start.get(c, ())) for c in open_colours(position)}
    return None, partial


def repair_from(
    position: Position,
    starts: Sequence[LayoutView],
    deadline: float,
    seed: int = 0,
    stop: Cancel | None = None,
    slice_steps: int = REPAIR_SLICE,
    max_runs: int | None = None,
    workers: int = 1,
) -> tuple[dict[str, tuple[Placement, ...]] | None, dict[str, list[Placement]], int]:
    """The repair search from several starts (legal partial layouts, the nearest first:
    e.g. the pool's layouts carried over the move), in runs: the k-th run gets
    ``slice_steps`` times the k-th term of Luby's sequence (1, 1, 2, 1, 1, 2, 4, ...)
    repair steps and starts from ``starts[k % len(starts)]`` with its own seed, until
    ``deadline`` (a ``time.perf_counter()`` value), ``stop`` or ``max_runs`` runs. The
    repair search's time to a layout is heavy-tailed: a run that has not found one soon
    is better restarted, and another start gives it other pieces to move. (Steps, not
    seconds: the runs do the same work however loaded the machine is.)

    ``workers`` > 1 (and the compiled search ready: it releases the GIL): that many
    threads, worker w making runs w, w + workers, w + 2 workers, ... (each with Luby's
    budget of its own sequence), the first layout found stopping the others.

    Returns:
        (a checked layout placing everything, or None; the best partial layout found, in
        an order of play; the number of runs).

    Raises:
        SolverBug: a layout the rule checker refuses.
    """
    colours = open_colours(position)
    first: dict[str, list[Placement]] = {
        c: list(starts[0].get(c, ())) if starts else [] for c in colours
    }
    if not starts:
        starts = [first]
    if workers > 1 and repair.kernel_ready():
        runners = [
            _runner(position, starts, deadline, seed, slice_steps, max_runs, w, workers)
            for w in range(workers)
        ]
        results, winner = first_proven(runners, lambda r: r[0] is not None, stop)
        runs = sum(r[2] for r in results)
        if winner is not None:
            return results[winner][0], results[winner][1], runs
        best = min((r[1] for r in results), key=lambda b: squares_left(position, b))
        return None, best, runs
    return _runs(position, starts, deadline, seed, stop, slice_steps, max_runs, 0, 1)


_Runs = tuple[dict[str, tuple[Placement, ...]] | None, dict[str, list[Placement]], int]


def _runner(
    position: Position,
    starts: Sequence[LayoutView],
    deadline: float,
    seed: int,
    slice_steps: int,
    max_runs: int | None,
    worker: int,
    workers: int,
) -> Callable[[Cancel], _Runs]:
    def go(stop: Cancel) -> _Runs:
        return _runs(position, starts, deadline, seed, stop, slice_steps, max_runs, worker, workers)

    return go


def _runs(
    position: Position,
    starts: Sequence[LayoutView],
    deadline: float,
    seed: int,
    stop: Cancel | None,
    slice_steps: int,
    max_runs: int | None,
    worker: int,
    workers: int,
) -> _Runs:
    """One worker's runs of :func:`repair_from`: runs ``worker``, ``worker + workers``,
    ... (at most ``max_runs`` in all workers), the j-th of them ``slice_steps`` times
    Luby's j-th term."""
    best: dict[str, list[Placement]] = {
        c: list(starts[0].get(c, ())) for c in open_colours(position)
    }
    made = 0
    k = worker
    while time.perf_counter() < deadline and not (stop is not None and stop.is_set()):
        if max_runs is not None and k >= max_runs:
            break
        start = starts[k % len(starts)]
        steps = slice_steps * luby(made + 1)
        found, partial = repair_search(position, start, deadline, seed + k, stop, steps)
        made += 1
        k += workers
        if found is not None:
            return found, partial, made
        if squares_left(position, partial) < squares_left(position, best) or not any(best.values()):
            best = partial
    return None, best, made


def alone_no(
    position: Position, options: SolveOptions, cap: float, deadline: float, name: str = ""
) -> tuple[str, str]:
    """Each colour alone (the others as they stand, the rest of the open colours
    included): a colour that cannot place all its pieces alone cannot with the others
    (a joint layout contains one of it alone). Each solve gets at most ``cap`` seconds.

    Returns:
        (the reason of a proven "no", or ""; a note on what was found, e.g. "alone: 4
        fit").
    """
    colours = open_colours(position)
    fit = 0
    for c in colours:
        left = deadline - time.perf_counter()
        if left < MIN_SOLVE:
            break
        limit = replace(options, time_limit=min(cap, left))
        alone = solve(Problem(position, (c,), "place-all", name=name), limit)
        if alone.status == "infeasible":
            return f"{c} alone cannot place all its pieces (proven)", f"alone: {c} no"
        fit += alone.status == "solved"
    return "", f"alone: {fit} of {len(colours)} fit"


def full_check(
    position: Position, options: SolveOptions, deadline: float, name: str = ""
) -> tuple[StepAnswer, str, dict[str, tuple[Placement, ...]] | None, SolveResult | None]:
    """The joint solve until ``deadline`` (``options.backend``, ``auto`` by default: the
    LP bound first in mid-game, the search, the repair search, the symmetric reduction
    where it applies); not started with less than :data:`MIN_FULL` seconds left (or, for
    a budget under 4 s, a quarter of ``options.time_limit``).

    Returns:
        (answer, reason, the checked layout for "yes", the solve's result: for an
        unknown its best partial layout and bound; None when the solve was not started).
    """
    colours = open_colours(position)
    left = deadline - time.perf_counter()
    budget = options.time_limit
    if left < min(MIN_FULL[0], MIN_FULL[1] * (budget if budget is not None else 1e9)):
        return "unknown", "time limit", None, None
    together = solve(
        Problem(position, colours, "place-all", name=name), replace(options, time_limit=left)
    )
    if together.status == "solved" and together.layout is not None:
        found = checked(position, together.layout)
        if found is None:
            raise SolverBug(f"{name}: a joint layout the rule checker refuses")
        return "yes", "", found, together
    if together.status == "infeasible":
        how = together.stats.get("reason")
        return "no", str(how) if how else "all together: proven impossible", None, together
    return "unknown", "time limit", None, together
