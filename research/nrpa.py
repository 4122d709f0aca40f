"""Nested Rollout Policy Adaptation (NRPA) over fast compiled playouts.

NRPA (Rosin 2011, "Nested Rollout Policy Adaptation for Monte Carlo Tree Search", IJCAI)
is the standard method for single-player puzzles scored at the end (Morpion Solitaire,
packing, the travelling salesman with time windows). A level-0 search is one playout with
a softmax policy over move codes; a level-L search runs N level-(L-1) searches in turn,
each from the policy it holds, keeps the best sequence and moves its policy toward it
(:func:`research.playout_kernel.adapt`). Here a move code is (colour, placement
table row), a playout is the solo player's round-robin play of
:mod:`research.playout_kernel` (the greedy player's scores as a bias, which makes it
GNRPA, Cazenave 2020), and the score is the number of squares placed. The top level
restarts from a fresh policy until the time is up or every piece is placed.

A layout found is legal by construction (the kernel plays by the rules; a colour's
monomino is held back until its other pieces are placed, so it is last, as
``monomino_last`` asks); it is a candidate like any other, for the rule checker.

Status: *measured* against the repair search (``research/notes/asymmetric_attempts.md``, turn 4),
NRPA and nested Monte Carlo search (:meth:`Search.nmcs`) leave more squares unplaced at
equal time (84 pieces: 36-45 left at 60 s against 0-13 and 2 of 5 runs solved), so they
are not a backend; :class:`Search` stays for ``research/benchmarks/nrpa.py`` and the repair
search's measurement hooks (:func:`best_playout`, ``Tuning.repair``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from research import playout_kernel as pk
from solver.backends.repair.greedy import geometry
from solver.core.pieces import MONOMINO, PIECE_NAMES, PIECES
from solver.core.position import Placement
from solver.core.problem import Problem

#: the logit's weights (per square of the piece, per new attach square, per attach square
#: of another colour covered) of the greedy play: the greedy player's 1 and 1 with Gumbel
#: noise 0.3 (:mod:`solver.backends.repair.greedy`) -> 1 / 0.3
GREEDY_BIAS = (3.0, 3.3, 3.3)
#: the same, for NRPA (half: the adapted weights count for more; *measured* on
#: asym-ladder-k06, level 2, 30 s: 16 and 12 squares left against 17 and 21)
PARAMS = (1.5, 1.65, 1.65)
#: NRPA: nesting level, iterations per level, learning rate
LEVEL = 2
ITERATIONS = 30
ALPHA = 1.0


@dataclass(frozen=True, eq=False)
class Playouts:
    """The kernel's arrays for one problem (see :mod:`research.playout_kernel`).

    Attributes:
        tables: the tables tuple ``T``.
        start: the start state tuple ``S``.
        colours: the played colours, in turn order (kernel colour k = ``colours[k]``).
        target: squares to place (every remaining piece of every played colour).
    """

    tables: tuple
    start: tuple
    colours: tuple[str, ...]
    target: int

    @property
    def codes(self) -> int:
        """Number of move codes (length of a policy)."""
        return len(self.colours) * len(self.tables[1])

    def layout(
        self, seq_c: np.ndarray, seq_r: np.ndarray, length: int
    ) -> dict[str, list[Placement]]:
        """The placements of a playout's sequence, per colour."""
        sq, piece = self.tables[0], self.tables[2]
        out: dict[str, list[Placement]] = {c: [] for c in self.colours}
        for k in range(length):
            r = int(seq_r[k])
            if r >= 0:
                squares = frozenset(int(s) for s in sq[r] if s >= 0)
                out[self.colours[int(seq_c[k])]].append(Placement(PIECE_NAMES[piece[r]], squares))
        return out


@lru_cache(maxsize=8)
def _tables(rows: int, cols: int) -> tuple:
    """The tables tuple ``T`` of a board size."""
    geo = geometry(rows, cols)
    table = geo.table
    n = rows * cols
    sq = np.ascontiguousarray(table.squares, dtype=np.int16)
    size = (sq >= 0).sum(axis=1).astype(np.int64)
    piece = table.piece.astype(np.int64)
    flat_r = np.repeat(np.arange(len(sq)), 5)
    flat_s = sq.ravel()
    keep = flat_s >= 0
    key = flat_s[keep] * pk.NPIECES + piece[flat_r[keep]]
    order = np.argsort(key, kind="stable")
    counts = np.bincount(key, minlength=n * pk.NPIECES)
    cov_ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    cov_idx = flat_r[keep][order].astype(np.int32)
    return (
        sq,
        size,
        piece,
        np.ascontiguousarray(geo.corner, dtype=np.int16),
        geo.edge_nb.astype(np.int64),
        geo.corner_nb.astype(np.int64),
        cov_ptr,
        cov_idx,
    )


def playouts(problem: Problem) -> Playouts:
    """The kernel's arrays for a "place-all" problem: its position, every remaining piece
    of its played colours; a colour's monomino held back while it has other pieces."""
    position = problem.position
    board = position.board
    tables = _tables(board.rows, board.cols)
    edge_nb, corner_nb = tables[4], tables[5]
    colours = problem.colours
    n, k = board.size, len(colours)
    taken = board.blocked_mask.astype(np.uint8)
    taken[list(position.occupied)] = 1
    nogo = np.zeros((k, n), dtype=np.uint8)
    cornr = np.zeros((k, n), dtype=np.uint8)
    has = np.zeros(k, dtype=np.uint8)
    start = np.full(k, -1, dtype=np.int64)
    left = np.zeros((k, pk.NPIECES), dtype=np.int16)
    hold = np.zeros(k, dtype=np.uint8)
    target = 0
    for i, c in enumerate(colours):
        state = position.colour(c)
        start[i] = -1 if state.start is None else state.start
        squares = np.array(sorted(state.squares), dtype=np.int64)
        if len(squares):
            has[i] = 1
            e = edge_nb[squares].ravel()
            nogo[i, e[e >= 0]] = 1
            d = corner_nb[squares].ravel()
            np.add.at(cornr[i], d[d >= 0], 1)
        for p in state.remaining:
            left[i, PIECES[p].index] += 1
            target += PIECES[p].size
        hold[i] = MONOMINO in state.remaining and len(state.remaining) > 1
    return Playouts(tables, (taken, nogo, cornr, has, start, left, hold), colours, target)


class Search:
    """NRPA (or plain playouts) on one problem, in one thread.

    Args:
        pl: the problem's :class:`Playouts`.
        seed: random seed (numba's generator of this thread, and the per-call seeds).
        params: the logit's bias weights (:data:`PARAMS`).
        alpha: NRPA's learning rate.
    """

    def __init__(self, pl: Playouts, seed: int, params=PARAMS, alpha: float = ALPHA):
        self.pl = pl
        self.rng = np.random.default_rng(seed)
        self.params = np.array(params, dtype=np.float64)
        self.alpha = alpha
        self.stamp = np.zeros(len(pl.tables[1]) + 1, dtype=np.int64)
        self.best = -1
        self.best_seq: tuple[np.ndarray, np.ndarray, int] | None = None
        self.playouts = 0
        self.trace: list[tuple[float, int]] = []  # (seconds, best score) at each new best
        self.t0 = time.perf_counter()

    def _seed(self) -> None:
        pk.seed_rng(int(self.rng.integers(1, 1 << 31)))

    def _note(self, score: int, seq_c: np.ndarray, seq_r: np.ndarray, length: int) -> None:
        if score > self.best:
            self.best = score
            self.best_seq = (seq_c[:length].copy(), seq_r[:length].copy(), length)
            self.trace.append((round(time.perf_counter() - self.t0, 3), score))

    def level1(self, pol: np.ndarray, iters: int) -> tuple[int, np.ndarray, np.ndarray, int]:
        """NRPA level 1 from ``pol`` (not changed): (score, moves' colours, rows, length)."""
        seq_c = np.empty(pk.MAX_SEQ, dtype=np.int64)
        seq_r = np.empty(pk.MAX_SEQ, dtype=np.int64)
        self._seed()
        score, length = pk.level1(
            self.pl.tables, self.pl.start, pol, self.params, self.stamp, iters, self.alpha,
            self.pl.target, seq_c, seq_r,
        )  # fmt: skip
        self.playouts += iters
        self._note(score, seq_c, seq_r, length)
        return score, seq_c, seq_r, length

    def nested(
        self, level: int, pol: np.ndarray, iters: int, stop: Callable[[], bool]
    ) -> tuple[int, np.ndarray, np.ndarray, int]:
        """NRPA at ``level`` >= 1 from ``pol`` (not changed); stops early when ``stop()``
        or every square is placed."""
        if level <= 1:
            return self.level1(pol, iters)
        best: tuple[int, np.ndarray, np.ndarray, int] | None = None
        for _ in range(iters):
            found = self.nested(level - 1, pol, iters, stop)
            if best is None or found[0] >= best[0]:
                best = found
            if best[0] >= self.pl.target or stop():
                break
            pol = pk.adapt(
                self.pl.tables, self.pl.start, pol, self.params, self.stamp, best[1], best[2],
                best[3], self.alpha,
            )  # fmt: skip
        assert best is not None
        return best

    def run(self, level: int, iters: int, stop: Callable[[], bool]) -> None:
        """Restarts of NRPA at ``level`` from a zero policy (level 0: batches of plain
        playouts) until ``stop()`` or every square is placed."""
        while self.best < self.pl.target and not stop():
            if level == 0:
                self.plain(iters)
            else:
                self.nested(level, np.zeros(self.pl.codes), iters, stop)

    def nmcs(self, children: int) -> int:
        """One nested Monte Carlo search, level 1, over the ``children`` likeliest moves
        of each turn (:func:`research.playout_kernel.nmcs1`); its score."""
        self.playouts += 1
        return self._zero_policy(pk.nmcs1, children)

    def plain(self, plays: int) -> int:
        """``plays`` playouts with a zero policy; the best score."""
        self.playouts += plays
        return self._zero_policy(pk.best_of, plays)

    def _zero_policy(self, kernel: Callable, count: int) -> int:
        """``kernel(T, S, pol, params, stamp, count, target, seq_c, seq_r)`` with a zero
        policy; its best sequence noted, its score returned."""
        seq_c = np.empty(pk.MAX_SEQ, dtype=np.int64)
        seq_r = np.empty(pk.MAX_SEQ, dtype=np.int64)
        self._seed()
        score, length = kernel(
            self.pl.tables, self.pl.start, np.zeros(self.pl.codes), self.params, self.stamp,
            count, self.pl.target, seq_c, seq_r,
        )  # fmt: skip
        self._note(score, seq_c, seq_r, length)
        return score


def best_playout(
    problem: Problem, plays: int, seed: int
) -> tuple[dict[str, list[Placement]], dict[str, list[str]]]:
    """The best of ``plays`` playouts (zero policy: the greedy player's softmax), as
    (colour -> placements made, colour -> pieces not placed): a compiled stand-in for
    :func:`solver.backends.repair.greedy.greedy`, for "place-all" problems."""
    pl = playouts(problem)
    run = Search(pl, seed, GREEDY_BIAS)
    run.plain(max(1, plays))
    assert run.best_seq is not None
    layout = pl.layout(*run.best_seq)
    left = {}
    for c in problem.colours:
        rest = list(problem.position.colour(c).remaining)
        for p in layout[c]:
            rest.remove(p.piece)
        left[c] = rest
    return layout, left
