"""Perft: the number of lines of play of a given depth, to test move generators by.

Defined as chess programs define it (the leaf count of the game tree at depth d), with
Blokus's turn order and passes (docs/perft.md):

* perft(position, 0) = 1;
* a turn belongs to the next colour in the variant's order, starting with the colour to
  move (a game record's, else the first colour);
* when that colour has a legal placement, each is a child; when it has none but another
  colour has one, the colour passes: one child, the same board with the next colour to
  move (a pass is a turn, as in the game records, and counts toward the depth);
* when no colour has a legal placement, the game is over: the node has no child, so a
  line that ends before depth d adds nothing (as a checkmate does in chess).

Two-Player and Three-Player Classic play the four colours in the same order on the same
board as Classic, so their perft numbers are Classic's.

On the square grid the count runs in the compiled move generator
(:class:`solver.core.movegen.MoveState`, which assumes squares); on any other grid (Trigon)
it runs on the generic legal moves (:func:`solver.core.placements.legal_moves`, held to
Pentobi's ``all_legal``), in this process, about 10 ms a position: :func:`grid_perft`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from solver.core.movegen import MoveState
from solver.core.placements import legal_moves, placements_for
from solver.core.position import Placement, Position
from solver.errors import InputError
from solver.formats.game import squares_text

#: the text of a pass among the first moves of :attr:`PerftResult.divide`
PASS = "pass"


@dataclass(frozen=True)
class PerftResult:
    """A perft count.

    Attributes:
        depth: the depth counted (turns).
        colour: the colour to move first.
        leaves: perft(position, depth): the lines of ``depth`` turns.
        seconds: wall time of the count.
        divide: per first move (its squares as Pentobi writes them, or ``pass``), the
            lines that start with it, in the order of the placement index; empty at depth 0.
    """

    depth: int
    colour: str
    leaves: int
    seconds: float
    divide: tuple[tuple[str, int], ...]

    @property
    def nodes_per_second(self) -> float:
        """Leaves counted per second of wall time (the last turn is counted, not played:
        "bulk counting")."""
        return self.leaves / self.seconds if self.seconds > 0 else float("inf")


def first_mover(position: Position, colour: str | None) -> str:
    """The colour to move first: ``colour`` if given, else the position's colour to move,
    else its first colour.

    Raises:
        InputError: ``colour`` is not one of the position's.
    """
    if colour is not None:
        return position.colour(colour).name
    return position.to_move or position.colours[0].name


def _children(state: MoveState, c: int) -> list[int] | None:
    """The first turn's children: placement numbers, [] for a pass, None for a game over."""
    legal: list[int] = state.legal(c).tolist()
    if legal:
        return legal
    others = (k % len(state.colours) for k in range(c + 1, c + len(state.colours)))
    return [] if any(state.has_move(k) for k in others) else None


def _subtree(args: tuple[Position, int, int, int]) -> int:
    """perft below one first move (a worker's job): (position, colour, move or -1 for a
    pass, depth)."""
    position, c, move, depth = args
    state = MoveState(position)
    if move >= 0:
        state.play(c, move, check=False)
    return state.perft((c + 1) % len(state.colours), depth - 1)


def perft(
    position: Position,
    depth: int,
    colour: str | None = None,
    jobs: int = 1,
    progress: Callable[[str, int], None] | None = None,
) -> PerftResult:
    """Count the lines of ``depth`` turns from a position (module docstring).

    Args:
        position: any position (a game record's, an empty board, a puzzle's).
        depth: turns, 0 or more.
        colour: the colour to move first (default: :func:`first_mover`).
        jobs: worker processes sharing the first moves (1: this process).
        progress: called with each first move and its count as it is done.

    Raises:
        InputError: a negative depth or jobs below 1, or an unknown colour.
    """
    if depth < 0:
        raise InputError(f"depth {depth} is negative", where="--depth")
    if jobs < 1:
        raise InputError(f"jobs {jobs} is below 1", where="--jobs")
    first = first_mover(position, colour)
    if not position.board.square_grid:
        return grid_perft(position, depth, first, progress)
    state = MoveState(position)
    c = state.colour_number(first)
    started = time.perf_counter()
    if depth == 0:
        return PerftResult(0, first, 1, time.perf_counter() - started, ())
    children = _children(state, c)
    if children is None:
        return PerftResult(depth, first, 0, time.perf_counter() - started, ())
    moves = children or [-1]
    if jobs == 1 or depth <= 2 or len(moves) == 1:
        counts = []
        for m in moves:
            counts.append(_played(state, c, m, depth))
            if progress is not None:
                progress(_name(state, m), counts[-1])
    else:
        counts = _in_workers(position, state, c, moves, depth, jobs, progress)
    seconds = time.perf_counter() - started
    names = [_name(state, m) for m in moves]
    return PerftResult(depth, first, sum(counts), seconds, tuple(zip(names, counts)))


def grid_perft(
    position: Position,
    depth: int,
    first: str,
    progress: Callable[[str, int], None] | None = None,
) -> PerftResult:
    """:func:`perft` on the generic legal moves, for a grid the move generator does not
    know (Trigon): the same definition, the first moves in the order of the empty board's
    placement table, each named by its cells as Pentobi writes a move (``squares_text``)."""
    started = time.perf_counter()
    if depth == 0:
        return PerftResult(0, first, 1, time.perf_counter() - started, ())
    c = position.colour_names.index(first)
    moves = legal_moves(position, first)
    if not moves and not _others_move(position, c):
        return PerftResult(depth, first, 0, time.perf_counter() - started, ())
    nxt = (c + 1) % len(position.colours)
    divide = []
    passes: list[Placement | None] = [None]  # no move, yet another colour has one
    for move in moves or passes:
        after = position if move is None else position.with_placement(first, move)
        count = _grid_lines(after, nxt, depth - 1)
        name = PASS if move is None else squares_text(position.board, move.squares)
        divide.append((name, count))
        if progress is not None:
            progress(name, count)
    seconds = time.perf_counter() - started
    return PerftResult(depth, first, sum(n for _, n in divide), seconds, tuple(divide))


def _grid_lines(position: Position, c: int, depth: int) -> int:
    """The lines of ``depth`` turns from ``position``, colour number ``c`` to move, on the
    generic legal moves (the last turn's moves counted, not played)."""
    if depth == 0:
        return 1
    colour = position.colour_names[c]
    nxt = (c + 1) % len(position.colours)
    if depth == 1:
        playable = int(placements_for(position, colour).playable.sum())
        return playable or int(_others_move(position, c))
    moves = legal_moves(position, colour)
    if not moves:
        return _grid_lines(position, nxt, depth - 1) if _others_move(position, c) else 0
    return sum(_grid_lines(position.with_placement(colour, m), nxt, depth - 1) for m in moves)


def _others_move(position: Position, c: int) -> bool:
    """Whether a colour other than colour number ``c`` has a legal move (else the game is
    over and a colour without a move ends the line instead of passing)."""
    names = position.colour_names
    others = (names[k % len(names)] for k in range(c + 1, c + len(names)))
    return any(placements_for(position, o).playable.any() for o in others)


def _name(state: MoveState, m: int) -> str:
    return state.index.text(m) if m >= 0 else PASS


def _played(state: MoveState, c: int, m: int, depth: int) -> int:
    """perft below first move m (-1: a pass) of colour c, in this process."""
    nxt = (c + 1) % len(state.colours)
    if m < 0:
        return state.perft(nxt, depth - 1)
    state.play(c, m, check=False)
    try:
        return state.perft(nxt, depth - 1)
    finally:
        state.undo()


def _in_workers(
    position: Position,
    state: MoveState,
    c: int,
    moves: list[int],
    depth: int,
    jobs: int,
    progress: Callable[[str, int], None] | None,
) -> list[int]:
    """The first moves' counts from ``jobs`` processes (forked where the system can: they
    inherit the loaded kernel; else spawned, each loading it from numba's cache).

    Ctrl-C (KeyboardInterrupt), or any other failure here, kills the workers at once and
    is raised again: a worker is in a numba kernel, which no signal interrupts, so waiting
    for it (as leaving the pool's ``with`` block does) would take as long as its count.
    """
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
    )
    try:
        futures: list[Future[int]] = [pool.submit(_subtree, (position, c, m, depth)) for m in moves]
        counts = []
        for future, m in zip(futures, moves):
            counts.append(future.result())
            if progress is not None:
                progress(_name(state, m), counts[-1])
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()
    return counts


def _worker_start(parent: int) -> None:
    """A worker's start: Ctrl-C is the parent's to handle (a terminal sends it to every
    process of the group; the parent then stops the workers), and on Linux the kernel
    kills the worker when its parent (process id ``parent``) dies, even by SIGKILL, so
    none counts for nobody."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's workers now and wait for them to end (no count is waited for)."""
    # The executor has no public way to stop a running worker before Python 3.14
    # (``terminate_workers``); its processes, by pid, are ``_processes``.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.kill()
    pool.shutdown(wait=True, cancel_futures=True)  # quick: its workers are gone
    for process in processes:
        process.join()
