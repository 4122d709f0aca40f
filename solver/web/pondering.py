"""Pondering in the server: the companion thinks while the player thinks (issue 32 item 4).

While a solo page waits for its player, a *ponder job* works for that session in the
background, in its own process (the fork server of :mod:`solver.web.jobs`, the solver
loaded): first the answer of the position on the board if none is known, then more
layouts and answers for the moves the player is likely to make (the placement under the
mouse, the selected piece's, then the largest pieces' of the colour to move:
:func:`solver.companion.page.ponder_request`). What it finds comes back over a pipe and is
filed in the session (:meth:`solver.web.session.Session.learn`): verified layouts of the
position (the pool), moves proven to lose. When the player moves and asks, the answer is
then at hand: a layout of the pool that contains the move ("pool").

The rules it keeps:

* real questions come first: pondering uses a worker slot only when one is free, and a
  question that needs one stops a ponder job (:meth:`Ponderer.make_room`); the session
  that asks has its own ponder job stopped while its answer is worked out;
* at most as many processes as the page's solve limit, questions and ponder jobs together;
* a ponder job is for one position: the player moves, it is stopped and another starts;
* it stops when the session closes, opens something else, or is idle (no request for
  :data:`IDLE` seconds);
* it runs only for a page of this server that asked for it: it starts on an API call
  (which needs the page's token: another site cannot make one) of a solo game the
  companion follows (:func:`solver.companion.page.followable`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.companion.page import FollowRequest, Known, fingerprint, followable, ponder_request
from solver.companion.ponder import Focus
from solver.core.pieces import family
from solver.core.position import Placement
from solver.errors import InputError
from solver.web.jobs import Jobs, worker_context
from solver.web.session import Session

#: seconds without a request from a session after which its pondering stops
IDLE = 180.0


@dataclass
class PonderJob:
    """One ponder job: whose, for which position (its fingerprint), its process."""

    owner: str
    key: str
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)


def _ponder_main(conn: Connection, request: FollowRequest, focus: Focus | None) -> None:
    """The ponder job's process: :func:`solver.companion.page.ponder_request`, its focus
    updated and its stop set from the pipe (a reader thread), what it knows sent back."""
    latest = [focus]
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                message = conn.recv()
            except (EOFError, OSError):
                stop.set()
                return
            if message[0] == "focus":
                latest[0] = message[1]
            elif message[0] == "stop":
                stop.set()

    threading.Thread(target=read, daemon=True).start()

    def send(key: str, known: Known) -> None:
        conn.send(("known", key, known))

    try:
        ponder_request(request, lambda: latest[0], send, stop)
    finally:
        try:
            conn.send(("done",))
        except (BrokenPipeError, OSError):
            pass


class Ponderer:
    """The ponder jobs of one server.

    Args:
        jobs: the server's question workers (their limit is the limit of both).
        enabled: False: no pondering (``blokus-solo serve --no-ponder``).
    """

    def __init__(self, jobs: Jobs, enabled: bool = True):
        self.jobs = jobs
        self.enabled = enabled
        self._runs: dict[str, PonderJob] = {}
        self._focus: dict[str, Focus] = {}
        self._seen: dict[str, float] = {}
        self._closed: set[str] = set()

    def running(self) -> int:
        """Ponder jobs alive."""
        return sum(run.process.is_alive() for run in self._runs.values())

    def update(self, token: str, session: Session) -> None:
        """After a request of the session: ponder its position (a job started when the
        position changed and a worker slot is free), or stop when it is not a game the
        companion follows."""
        self._seen[token] = time.monotonic()
        if not self.enabled or token in self._closed:
            return
        problem = session.problem
        if session.game is not None or session.mode != "solo" or not followable(problem):
            self.stop(token)
            return
        key = fingerprint(problem.position)
        run = self._runs.get(token)
        if run is not None and run.key == key and run.process.is_alive():
            return
        known = session.known.get(key)
        if run is not None and run.key == key and known is not None and known.answer != "yes":
            return  # pondered to the end here: a "no", or an unknown it could not settle
        self.stop(token)
        if len(self.jobs.running()) + self.running() >= self.jobs.limit:
            return
        request = session.joint_request()
        if not isinstance(request, FollowRequest):
            return
        focus = self._focus.get(token) or Focus(session.selected)
        here, there = worker_context().Pipe()
        process = worker_context().Process(
            target=_ponder_main, args=(there, request, focus), daemon=True
        )
        process.start()
        there.close()
        self._runs[token] = PonderJob(token, key, process, here)

    def focus(self, token: str, focus: Focus) -> None:
        """What the player looks at (the selected piece, the placement under the mouse):
        sent to the session's ponder job, which answers those moves first."""
        self._seen[token] = time.monotonic()
        self._focus[token] = focus
        run = self._runs.get(token)
        if run is not None and run.process.is_alive():
            try:
                run.conn.send(("focus", focus))
            except (BrokenPipeError, OSError):
                pass

    def collect(self, find: Callable[[str], Session | None]) -> None:
        """File what the ponder jobs found in their sessions (``find``: a token's session,
        or None); forget finished jobs (their session keeps the position's key, so that a
        finished job is not started again for the same position); stop the jobs of
        sessions gone or idle."""
        now = time.monotonic()
        for token, run in list(self._runs.items()):
            session = find(token)
            if session is None or now - self._seen.get(token, now) > IDLE:
                self.stop(token)
                continue
            try:
                while run.conn.poll():
                    message = run.conn.recv()
                    if message[0] == "known":
                        session.learn(message[1], message[2])
            except (EOFError, OSError):
                pass
            if not run.process.is_alive():
                run.process.join(timeout=1)

    def make_room(self, token: str) -> None:
        """Before a question of ``token``: stop its own ponder job (its answer is worked
        out now, with what the job found so far filed), then others while every worker
        slot is taken."""
        self.stop(token, keep=True)
        for other in list(self._runs):
            if len(self.jobs.running()) + self.running() < self.jobs.limit:
                break
            self.stop(other)

    def stop(self, token: str, keep: bool = False) -> None:
        """Stop the session's ponder job (``keep``: what it found so far is filed first
        by the caller's :meth:`collect`; here its process is killed)."""
        run = self._runs.pop(token, None)
        if run is None:
            return
        if run.process.is_alive():
            run.process.kill()
        run.process.join(timeout=5)
        run.conn.close()

    def close(self, token: str) -> None:
        """The page closed: stop its ponder job for good."""
        self._closed.add(token)
        self.stop(token)

    def shutdown(self) -> None:
        """Stop every ponder job (the server is stopping)."""
        for token in list(self._runs):
            self.stop(token)


def focus_of(data: dict[str, Any], session: Session) -> Focus:
    """The focus a page sends (``colour``, ``piece``, ``cells``: [row, column] pairs of the
    placement under the mouse, or ``squares``: its cell numbers, or none), checked against
    the position: an unknown piece or cells off the board are dropped, not refused (the
    mouse may be anywhere)."""
    problem = session.problem
    board = problem.position.board
    colour = data.get("colour")
    colour = colour if isinstance(colour, str) and colour in problem.colours else session.selected
    piece = data.get("piece")
    piece = piece if isinstance(piece, str) and colour is not None else None
    if colour is not None and piece not in problem.position.colour(colour).remaining:
        piece = None
    placement = None
    most = family(board.grid).max_size
    cells = data.get("cells")
    squares = data.get("squares")
    if piece is not None and isinstance(cells, list) and 0 < len(cells) <= most:
        pairs = [c for c in cells if isinstance(c, list) and len(c) == 2]
        if len(pairs) == len(cells) and all(
            isinstance(r, int)
            and isinstance(c, int)
            and 0 <= r < board.rows
            and 0 <= c < board.cols
            for r, c in pairs
        ):
            with contextlib.suppress(InputError):  # off a board that is no rectangle
                placement = Placement(piece, frozenset(board.square(r, c) for r, c in pairs))
    elif piece is not None and isinstance(squares, list) and 0 < len(squares) <= most:
        if all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < board.size for s in squares
        ):
            placement = Placement(piece, frozenset(squares))
    return Focus(colour, piece, placement)


def marks(session: Session, colour: str | None, piece: str | None) -> dict[str, Any]:
    """The marks of the page (issue 32 item 6): each legal placement of ``piece`` for
    ``colour`` in the position shown, with what the companion knows of it: "keeps" (a
    verified layout contains it), "loses" (proven) or "unknown" (not known yet).

    Returns:
        ``{"colour", "piece", "marks": [[squares, mark], ...], "answer"}`` (``answer``:
        the position's own, "yes", "no", "unknown" or None when not asked yet).
    """
    from solver.core.placements import piece_moves

    problem = session.problem
    out: dict[str, Any] = {"colour": colour, "piece": piece, "marks": [], "answer": None}
    if colour not in problem.colours or piece is None or session.game is not None:
        return out
    known = session.known.get(fingerprint(problem.position))
    out["answer"] = None if known is None else known.answer
    for move in piece_moves(problem.position, colour, piece):
        squares = tuple(sorted(move.squares))
        mark = "unknown" if known is None else known.status(colour, piece, squares)
        out["marks"].append([list(squares), mark])
    return out
