"""The exact search backend: a Blokus-aware depth-first search that enforces connectivity.

The search works on the exact-cover formulation of :mod:`solver.formats.exact_cover` (options =
placements; a placement of colour c uses its piece, its squares and c's grid edges at its
squares) but only ever grows each colour's connected set, the way a player plays:

* Branch on an *attach square* x of a colour c (an allowed square sharing a corner with c,
  or c's start square while it has no square), chosen over all played colours as the one
  with the fewest live placements covering it. Children: each live placement of a
  remaining piece of c covering x (it is connected by construction), then "x is never
  covered by c" (x becomes *excluded* for c). A colour with no square must cover its start
  square in "place-all": no exclude child there.
* Every final layout decides every branch, so each layout is reached by exactly one path:
  the tree both proves infeasibility and counts distinct layouts (order of play ignored).
* Prune ("place-all"): a colour with pieces left and no attach square; a remaining piece
  with no live placement in the colour's *reach*; a remaining area larger than what the
  reach can hold. The reach is flooded with king moves (pieces connect diagonally) from
  the attach squares through allowed squares, then once more through the squares that
  some live placement in reach covers (:attr:`SearchTuning.strong`). What it can hold is
  capped by a 2x2-block bound (:attr:`SearchTuning.blocks`): in any partition of the
  board into 2x2 blocks, a colour covers at most 2 squares of a block unless one piece
  covers 3 or 4 of them (3 squares of a block share edges, and same-colour pieces never
  do), which each piece can do in one block at most.
* ``monomino_last``: the colour's monomino is held back; exclusions then bind the other
  pieces only, and at a leaf the monomino goes on any free attach square (ignoring
  exclusions) of its colour; several colours' monominoes take distinct squares. A colour
  with two monominoes (Junior) plays them as ordinary pieces and a leaf is kept only if
  one of them can be last (the others stay connected without it).
* Card goals (:attr:`Problem.cover`, :attr:`Problem.connect`; "place-all" only): a node
  where a free square to cover lies in no colour's reach with a live placement of a
  remaining piece on it is dead; so is a node where a colour to connect has squares in
  two king-move components of its squares and the squares it may still cover. Both are
  checked on every node (a leaf only keeps layouts that meet them); a colour whose
  monomino must be last then plays it as an ordinary piece, checked at the leaf, rather
  than holding it back.
* "max-score" (``monomino_last`` is ignored there): branch and bound over the same tree;
  every node is a legal layout, scored officially (+15 / +5 only with ``position.bonus``;
  +5 when the monomino is among the added pieces and the others stay connected without
  it). Upper bound per colour: minus the area of remaining pieces with no live placement
  in reach (or the area deficit over what the reach can hold), plus the bonus if nothing
  is lost. With one colour the loss bound is rounded up to a loss the colour can end
  with: the area of the unplaceable pieces plus a subset sum of the others (a bit set);
  e.g. a colour without a monomino never loses exactly 1. On a time-out: the best layout
  as "solved" with the root bound.

Value order and portfolio. Children are tried largest piece first, the exclusion last;
:attr:`SearchTuning.late` = k tries placements of at most k squares after the exclusion
(small pieces are the most flexible). Value order changes nothing on an infeasible check
(the whole tree is searched) but a lot on feasible ones: heavy tails. ``solve`` therefore
races, with ``options.workers`` >= 2, copies of the search with other value orders
(:attr:`SearchTuning.portfolio`) in threads (the kernel releases the GIL); each copy is
complete, so the first to end gives the answer (:mod:`solver.backends.race`).

Hard cases: the memo (one colour; "place-all" and "max-score"). Late in a game a colour's
reach splits into pockets of free squares walled off from each other (no placement, and no
allowed square next to one, straddles two). The plain search interleaves its decisions
across pockets, so a failure in one pocket is found again under every way of filling the
others: the tree is a product. After :attr:`SearchTuning.first_chunk` nodes without an
answer, the search goes on with the memo: it branches in the smallest part of the reach
first and keys every branching node by what is left to decide: the reach, its attach
squares and the pieces left. A hash table keeps the keys of subproblems exhausted without
a good enough layout, and prunes them when they come back: once a pocket is closed, in any
of the ways that use the same pieces, the rest is the same subproblem (details in
:func:`solver.backends.search.kernel.run`). Where it goes on: a fresh search racing the
plain one (place-all with two workers or more), else a fresh search when the root reach is
split (the memo's order from the root), else the same search (:func:`_go_on_with_memo`).
Junior's two copies of a piece are not a symmetry of this tree (a placement is a piece
type and squares, the copies are a count, and every layout is reached once).

The hot loop is compiled with numba in :mod:`solver.backends.search.kernel`;
:mod:`solver.backends.search.tables` builds its arrays (its ``build``), and this module
(the solve), :mod:`solver.backends.search.counting` (count, list) and
:mod:`solver.backends.search.symmetric` (the symmetric reduction) run it, checking the
clock between chunks of nodes. On a
time-out the answer is "unknown" (never "infeasible"); max-score returns the best layout
found as "solved" with the root bound. The measurements behind the defaults are in
``research/notes/search_notes.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from solver.backends import driver
from solver.backends.base import BackendResult, Cancel, SolveOptions
from solver.backends.race import first_proven
from solver.backends.search import kernel as core
from solver.backends.search.starts import solve_each, unstarted
from solver.backends.search.tables import (
    ExactSearch,
    build,
    components,
    found_layout,
    layout_of,
)
from solver.backends.tuning import SearchTuning
from solver.core.problem import Problem


@lru_cache(maxsize=8)
def _zobrist(nsq: int) -> np.ndarray:
    """The memo's random keys (:attr:`core.Tables.zob`): (nsq, 4) int64, from a fixed seed
    so that runs repeat; shared by every search on such a board, never written (not
    flagged read-only: numba would compile the kernel again for a read-only array)."""
    return np.random.default_rng(0x5EED).integers(
        np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(nsq, 4), dtype=np.int64
    )


def _pieces_radix(search: ExactSearch) -> np.ndarray:
    """(21,) int64: each piece's count at the root plus one (the radix of the memo's code
    of the pieces left): the pieces left plus those on the path."""
    tables, state = search.tables, search.state
    radix: np.ndarray = state.rem[0] + 1
    np.add.at(radix, tables.pl_piece[state.path[: state.st[core.S_PATHN]]], 1)
    return radix


def _memo_applies(search: ExactSearch) -> bool:
    """Whether the memo can run in ``search``: one colour, FIND or MAXSCORE, no held
    monomino, no monomino-last check, no card goals, no symmetric reduction, and a code of
    the pieces left that fits in 62 bits (any set of the game's pieces does)."""
    tables = search.tables
    return not (
        len(search.colours) != 1
        or len(tables.star) > 0
        or tables.conn.any()
        or search.held_colours
        or tables.monochk.any()
        or search.params[core.P_MODE] == core.COUNT
        or len(tables.orb) > 0
        or float(np.prod(_pieces_radix(search).astype(float))) >= 2.0**62
    )


def _memo_on(search: ExactSearch, tuning: SearchTuning) -> None:
    """Switch the memo on in a search where it applies (:func:`_memo_applies`), in place, at
    any point of its run (see the module docstring and
    :func:`solver.backends.search.kernel.run`: the frames pushed from then on carry keys;
    those below them are searched as before).

    Raises:
        ValueError: ``tuning.memo_rows`` is not a power of 2 (the table's probe wraps by a
            mask).
    """
    rows = tuning.memo_rows
    if rows < 2 or rows & (rows - 1):
        raise ValueError(f"memo_rows must be a power of 2, not {rows}")
    tables, state = search.tables, search.state
    rmult = np.concatenate(([1], np.cumprod(_pieces_radix(search)))).astype(np.int64)
    search.tables = tables._replace(rmult=rmult, zob=_zobrist(len(state.bl[0])))
    search.state = state._replace(memo=np.zeros((rows, 4), dtype=np.int64))
    search.stats["components"] = components(search)[1]
    search.params[core.P_MEMO] = 1


def _go_on_with_memo(
    search: ExactSearch, fresh: Callable[[], ExactSearch], tuning: SearchTuning
) -> ExactSearch:
    """The search to go on with after a first chunk, where the memo applies: ``fresh()``
    (the same search, not yet run) with the memo on if the root reach is split into
    pockets, so that the memo's order (the smallest part first) holds from the root; else
    ``search`` itself, the memo switched on in place, keeping its nodes (with one part at
    the root, its root decision is the memo's). ``search`` unchanged where the memo
    does not apply (``fresh`` is then not called)."""
    if not _memo_applies(search):
        return search
    new = fresh()
    if components(new)[1] >= 2:
        _memo_on(new, tuning)
        return new
    _memo_on(search, tuning)
    return search


def _portfolio(
    search: ExactSearch,
    time_limit: float | None,
    workers: int,
    tuning: SearchTuning,
    cancel: Cancel | None = None,
    fresh: Callable[[], ExactSearch] | None = None,
) -> tuple[ExactSearch, int, float]:
    """Solve with a portfolio: the search as built, then (if it has not ended after a first
    chunk of :attr:`SearchTuning.first_chunk` nodes) copies with other value orders
    (:attr:`SearchTuning.portfolio`) raced in threads; the kernel releases the GIL. Every
    member is complete, so the first to end gives the answer. After the first chunk, where
    the memo applies (:func:`_memo_applies`): with other members, ``fresh()`` with the
    memo on races the first member and all but the last copy; alone, the first member goes
    on with the memo (:func:`_go_on_with_memo`).

    Returns (the member that answered or the first one, its code, seconds).
    """
    started = time.perf_counter()
    others = [search.clone(late, seed) for late, seed in tuning.portfolio[: max(workers - 1, 0)]]
    code = search.run(tuning.first_chunk)
    if code == core.PAUSE and fresh is not None and _memo_applies(search):
        if others:
            # the memo joins the race in a fresh search, in place of the last copy; the
            # first member goes on in its own order (a "yes" the memo's order misses:
            # junior-L7-4-s102 after 13, purple, 1.6 s -> 0.35 s)
            memo = fresh()
            _memo_on(memo, tuning)
            others = [search] + others[:-1]
            search = memo
        else:
            search = _go_on_with_memo(search, fresh, tuning)
    if code != core.PAUSE or not others:
        if code == core.PAUSE:
            code = driver.sliced_run(search, time_limit, started, cancel)
        return search, code, time.perf_counter() - started
    members = [search] + others
    codes, winner = first_proven(
        [_member(m, time_limit, started) for m in members], lambda c: c != core.PAUSE, cancel
    )
    seconds = time.perf_counter() - started
    i = 0 if winner is None else winner
    members[i].stats["nodes_all_members"] = sum(int(m.st[core.S_NODES]) for m in members)
    members[i].stats["member"] = i
    return members[i], codes[i], seconds


def _member(
    search: ExactSearch, time_limit: float | None, started: float
) -> Callable[[Cancel], int]:
    return lambda stop: driver.sliced_run(search, time_limit, started, stop)


def _memo_stats(search: ExactSearch) -> dict[str, int]:
    if not search.memo_on:
        return {}
    return {
        "memo_hits": int(search.st[core.S_HITS]),
        "memo_entries": int(search.st[core.S_STORES]),
    }


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Solve a problem by exact search; ``cancel`` set from another thread stops it early
    (as the time limit does). Tuning: ``options.tuning.search``.

    Returns:
        BackendResult: "solved" with a layout ("place-all"), "infeasible" (proven: the
        tree was exhausted), "optimal" with the best layout and ``bound`` = its score
        ("max-score", tree exhausted), "solved" with the best layout so far and ``bound`` =
        the root upper bound (max-score stopped by the time limit), or "unknown"
        ("place-all" stopped by the time limit). ``stats``: nodes, seconds, placements.
        On Trigon, colours with no piece yet are searched once per assignment of free
        starting points (:mod:`solver.backends.search.starts`).
    """
    if unstarted(problem):
        return solve_each(problem, options, cancel, solve)
    if problem.goal == "max-score":
        return _solve_max_score(problem, options, cancel)
    tuning = options.tuning.search
    search = build(problem, core.FIND, seed=options.seed, tuning=tuning)
    if search.infeasible:
        return BackendResult("infeasible", None, None, {"nodes": 0, "seconds": 0.0})
    search, code, seconds = _portfolio(
        search,
        options.time_limit,
        options.workers,
        tuning,
        cancel,
        lambda: build(problem, core.FIND, seed=options.seed, tuning=tuning),
    )
    stats = dict(search.stats, nodes=int(search.st[core.S_NODES]), seconds=seconds)
    stats.update(_memo_stats(search))
    if code == core.FOUND:
        return BackendResult("solved", found_layout(search, problem), None, stats)
    if code == core.DONE:
        return BackendResult("infeasible", None, None, stats)
    return BackendResult("unknown", None, None, stats)


def _solve_max_score(
    problem: Problem, options: SolveOptions, cancel: Cancel | None = None
) -> BackendResult:
    """Max-score by branch and bound: a first chunk of :attr:`SearchTuning.first_chunk`
    nodes as built; if it has not ended, it goes on with the memo (one colour,
    :func:`_go_on_with_memo`: a fresh search from the chunk's best layout, or the same)."""
    started = time.perf_counter()
    tuning = options.tuning.search
    search = build(problem, core.MAXSCORE, seed=options.seed, tuning=tuning)
    if not search.colours:
        return BackendResult(
            "optimal",
            {c: [] for c in problem.colours},
            search.constant_score,
            {"nodes": 0, "seconds": 0.0},
        )
    code = search.run(tuning.first_chunk)
    layout = layout_of(search, problem, search.state.best, int(search.st[core.S_BESTN]), None)
    best = int(search.st[core.S_BEST])
    root_ub = int(search.st[core.S_ROOTUB])
    chunk_nodes = 0
    if code == core.PAUSE:
        memo = _go_on_with_memo(
            search, lambda: build(problem, core.MAXSCORE, seed=options.seed, tuning=tuning), tuning
        )
        if memo is not search:  # a fresh search: only better layouts than the chunk's
            memo.st[core.S_BEST] = best
            chunk_nodes = int(search.st[core.S_NODES])
        search = memo
        code = driver.sliced_run(search, options.time_limit, started, cancel)
        if search.st[core.S_BEST] > best:
            n = int(search.st[core.S_BESTN])
            layout = layout_of(search, problem, search.state.best, n, None)
            best = int(search.st[core.S_BEST])
    stats = dict(
        search.stats,
        nodes=chunk_nodes + int(search.st[core.S_NODES]),
        seconds=time.perf_counter() - started,
    )
    stats.update(_memo_stats(search))
    if best == core.NEG_INF:  # stopped before the root was evaluated
        return BackendResult("unknown", None, None, stats)
    score = best + search.constant_score
    if code == core.DONE:
        return BackendResult("optimal", layout, score, stats)
    return BackendResult("solved", layout, root_ub + search.constant_score, stats)
