"""The page's joint question while its game is followed move by move: the solo companion
(:mod:`solver.companion.follow`) instead of a check from scratch.

The page keeps, per session and per position it has answered (its :func:`fingerprint`),
what the companion knows there (:class:`Known`: the witness layout and the answer). When
"Can all colours still place everything?" is asked, :func:`follow_request` finds the
latest position of the current line of play (start, then each move) with a known answer
and sends the worker that position, its witness and the placements made since (workers
share no memory: the witness travels with the request, and back with the answer). The
worker (:func:`follow_answer`) carries the witness over those placements (a move the
witness contains answers at once: "kept"; otherwise the companion's repair tiers) and
answers with :class:`solver.companion.follow.Follower`, the class
:func:`solver.companion.follow.follow` runs. Undo and redo land on positions of the line,
so they start from the nearest answer known; another position (open, upload, play on) is
a new session, whose first question is the check from scratch
(:func:`solver.web.questions.joint_question`).

The joint question is monotone along the line (:mod:`solver.companion.follow`): a proven
"no" stays "no" after every later placement, and every "yes" comes with a layout the rule checker
accepted. The witness of an "unknown" (the best partial layout) is carried too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.backends.base import Cancel, SolveOptions
from solver.companion.follow import Follower, JointStep
from solver.companion.layouts import checked, legal_part, missing_pieces
from solver.companion.ponder import Focus, ponder
from solver.companion.pool import Pool, pool_of
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.errors import SolverBug
from solver.formats.game import GameMove
from solver.formats.sgf import Location

#: positions whose companion answer a session keeps (the oldest dropped beyond)
MAX_KNOWN = 400
#: most layouts of one position a session keeps (its pool)
MAX_POOL = 48
#: the share of the page's time limit kept back from the companion's own budget: its
#: last tier (the joint ``auto`` solve) overruns its limit by up to a second, more on a
#: loaded machine, and the page stops a worker 2 s past the limit (losing the unknown's
#: best partial layout and bound)
OVERRUN_SHARE = 0.15

#: how an answer came about, in the page's words
HOW_WORDS = {
    "book": "from the opening book",
    "pool": "from a layout known already",
    "repaired": "repaired the carried layout",
    "solved": "solved (the carried layout did not help)",
    "inferred": "inferred",
    "done": "every piece is placed",
}

Rows = tuple[tuple[str, str, tuple[int, ...]], ...]


@dataclass(frozen=True)
class Known:
    """What the companion knows in one position.

    Attributes:
        answer: "yes" (``witness`` places every piece left, checked), "no" (proven) or
            "unknown" (``witness`` the best partial layout, maybe empty).
        witness: ``(colour, piece, squares)`` rows, legal from that position.
        reason: for "no", why.
        source: where the witness of a "yes" came from ("book" for the opening book's).
        pool: more layouts of the position, each placing every piece left (the pool:
            found by pondering, checked by the rule checker in the process that found
            them, and again by the one that answers with one).
        refuted: moves ``(colour, piece, squares, reason)`` proven to lose there.
    """

    answer: str
    witness: Rows = ()
    reason: str = ""
    pool: tuple[Rows, ...] = ()
    refuted: tuple[tuple[str, str, tuple[int, ...], str], ...] = ()
    source: str = ""

    def merged(self, other: Known) -> Known:
        """This knowledge with ``other``'s (of the same position) added: a proven "no"
        or a "yes" wins over an "unknown"; the pools and refuted moves are joined (at most
        :data:`MAX_POOL` layouts)."""
        best = other if self.answer == "unknown" and other.answer != "unknown" else self
        pool = tuple(dict.fromkeys((*self.pool, *other.pool)))[:MAX_POOL]
        refuted = tuple(dict.fromkeys((*self.refuted, *other.refuted)))
        return replace(best, pool=pool, refuted=refuted)

    def layouts(self) -> list[Rows]:
        """The complete layouts known (the witness of a "yes", then the pool)."""
        first = [self.witness] if self.answer == "yes" and self.witness else []
        return first + [r for r in self.pool if r != self.witness]

    def status(self, colour: str, piece: str, squares: tuple[int, ...]) -> str:
        """A move's mark: "keeps" (a known layout contains it), "loses" (proven: the move,
        or the position) or "unknown"."""
        if self.answer == "no":
            return "loses"
        row = (colour, piece, squares)
        if any(row in layout for layout in self.layouts()):
            return "keeps"
        return "loses" if any(r[:3] == row for r in self.refuted) else "unknown"


@dataclass(frozen=True)
class FollowRequest:
    """A joint question for the worker, with what the session knows.

    Attributes:
        problem: the problem as it stands.
        base: the latest position of the line of play with a known answer.
        known: what is known there.
        moves: the placements ``(colour, placement)`` made since ``base``, in order.
        key: :func:`fingerprint` of ``problem.position`` (the answer is filed under it).
    """

    problem: Problem
    base: Position
    known: Known
    moves: tuple[tuple[str, Placement], ...]
    key: str


def fingerprint(position: Position) -> str:
    """A key of the position: the board (size, blocked squares) and each colour's pieces
    placed (order ignored: the position does not depend on it) and left."""
    board = position.board
    head = f"{board.rows}x{board.cols}/{sorted(board.blocked)}"
    return ";".join(
        [head]
        + [
            c.name
            + ":"
            + "|".join(sorted(f"{p.piece}@{sorted(p.squares)}" for p in c.placed))
            + "/"
            + ",".join(sorted(c.remaining))
            for c in position.colours
        ]
    )


def followable(problem: Problem) -> bool:
    """Whether the companion answers the page's joint question here: it asks about every
    colour with pieces left, so only when every such colour is played (not, e.g., Duo
    with one colour played)."""
    position = problem.position
    left = {c.name for c in position.colours if c.remaining}
    return bool(left) and left <= set(problem.colours)


def follow_request(
    line: Sequence[tuple[str | None, Placement | None, Problem]], known: Mapping[str, Known]
) -> FollowRequest | None:
    """The request for the last problem of ``line`` (the start ``(None, None, start)``,
    then each move ``(colour, placement or None for a pass, problem after)``), from the
    latest problem of the line with a known answer, else from the problem itself with
    nothing known (the companion's check: the opening book first); None when the
    companion does not apply (:func:`followable`)."""
    problem = line[-1][2]
    if not followable(problem):
        return None
    key = fingerprint(problem.position)
    moves: list[tuple[str, Placement]] = []
    for colour, placement, after in reversed(line):
        found = known.get(fingerprint(after.position))
        if found is not None:
            return FollowRequest(problem, after.position, found, tuple(reversed(moves)), key)
        if placement is not None and colour is not None:
            moves.append((colour, placement))
    return FollowRequest(problem, problem.position, Known("unknown"), (), key)


def rows(layout: Mapping[str, Iterable[Placement]] | None) -> Rows:
    """A layout as ``(colour, piece, squares)`` rows."""
    if not layout:
        return ()
    return tuple((c, p.piece, tuple(sorted(p.squares))) for c, ps in layout.items() for p in ps)


def layout_of(witness: Iterable[Sequence[Any]]) -> dict[str, list[Placement]]:
    """``(colour, piece, squares)`` rows as a layout (colour -> placements)."""
    out: dict[str, list[Placement]] = {}
    for colour, piece, squares in witness:
        out.setdefault(str(colour), []).append(Placement(str(piece), frozenset(squares)))
    return out


def follower_for(request: FollowRequest, time_limit: float | None, seed: int = 0) -> Follower:
    """The follower of a request: what is known at its base position (a proven "no", the
    pool of layouts, or a carried layout), carried over the moves made since, but the
    last one (:meth:`solver.companion.follow.Follower.step` answers that one)."""
    follower = Follower(SolveOptions(time_limit=time_limit, seed=seed), request.problem.name)
    known, base = request.known, request.base
    if known.answer == "no":
        follower.no_since, follower.reason = 0, known.reason
    elif known.answer == "yes" and known.layouts():
        # checked where they were found; the layout answered with is checked again
        layouts = [layout_of(r) for r in known.layouts()]
        source = "book" if known.source == "book" else "pool"
        follower.pool = pool_of(base, layouts, source, trusted=True)
        follower.witness = layouts[0]
    elif known.witness:
        witness = legal_part(base, layout_of(known.witness))
        # a complete layout must pass the checker where it is (a seed, e.g. the rest of a
        # game record, may not: its monomino not last); else it is not carried
        complete = witness is not None and not any(missing_pieces(base, witness).values())
        if complete and witness is not None and checked(base, witness) is None:
            witness = None
        follower.witness = witness
    position = base
    for colour, placed in request.moves[:-1]:
        position = position.with_placement(colour, placed)
        follower.advance(colour, placed, position)
    return follower


def answer_request(follower: Follower, request: FollowRequest) -> JointStep:
    """The follower's answer to the request's position (its last move through
    :meth:`~solver.companion.follow.Follower.step`)."""
    if request.moves:
        colour, placed = request.moves[-1]
        move = GameMove(len(request.moves), colour, placed, Location(0, 0))
        return follower.step(len(request.moves), move, request.problem.position)
    return follower.check(0, None, request.problem.position, 0)


def known_after(follower: Follower, step: JointStep, request: FollowRequest) -> Known:
    """What to file under ``request.key`` after ``step``."""
    if step.answer == "no":
        reason = request.known.reason if step.how == "inferred" else step.reason
        return Known("no", (), reason)
    pool = follower.pool
    more = tuple(rows(layout) for layout in pool.layouts[1:MAX_POOL]) if pool is not None else ()
    source = "book" if pool is not None and pool.sources[:1] == ["book"] else ""
    return Known(step.answer, rows(follower.witness), "", more, source=source)


def follow_answer(request: FollowRequest, time_limit: float | None) -> dict[str, Any]:
    """The joint answer by the companion (what a worker runs): what is known at the base
    position carried over the moves since, the last move through the companion's tiers
    (:meth:`solver.companion.follow.Follower.step`: a layout of the pool that contains
    it, else the repairs and the full solvers), all within ``time_limit`` seconds.

    Returns:
        ``answer`` ("yes", "no", "unknown", "done"), ``how`` (a
        :data:`solver.companion.follow.How`), ``seconds``, ``reason``, ``layout``
        (checked, for "yes"), ``tried`` (the tiers tried), ``best_left``,
        ``pieces_left``, ``short`` and ``fit`` (what an unknown leaves short, and the
        bound), ``step`` (the :class:`solver.companion.follow.JointStep`) and ``known``
        (what to file under ``request.key``).
    """
    budget = None if time_limit is None else time_limit * (1 - OVERRUN_SHARE)
    follower = follower_for(request, budget)
    step = answer_request(follower, request)
    known = known_after(follower, step, request)
    return {
        "answer": step.answer,
        "how": step.how,
        "seconds": step.seconds,
        "reason": known.reason if step.answer == "no" else step.reason,
        "layout": step.layout,
        "tried": step.tried,
        "freed": step.freed,
        "best_left": step.best_left,
        "pieces_left": step.pieces_left,
        "short": step.short,
        "fit": step.fit,
        "known": known,
        "step": step,
    }


#: the budget of the answer a ponder job works out first, when none is known (seconds)
PONDER_ANSWER = 60.0
#: seconds of pondering between two reports of a ponder job
PONDER_SLICE = 2.0


def ponder_request(
    request: FollowRequest,
    focus: Callable[[], Focus | None],
    send: Callable[[str, Known], None],
    stop: Cancel,
    seed: int = 0,
) -> None:
    """What a ponder job runs (:mod:`solver.web.pondering`) while the player thinks: the
    answer of the request's position first (as :func:`follow_answer` works it out, with
    :data:`PONDER_ANSWER` seconds, again and again from the best partial layout while it
    is unknown), then the candidate moves of the colour to move
    (:func:`solver.companion.ponder.ponder`, ``focus()`` asked before each), reporting
    what is known to ``send(key, known)`` after the answer and after each slice of
    :data:`PONDER_SLICE` seconds, until ``stop`` is set or nothing is left to try."""
    follower = follower_for(request, PONDER_ANSWER, seed)
    step = answer_request(follower, request)
    send(request.key, known_after(follower, step, request))
    rounds = 1
    while step.answer == "unknown" and not stop.is_set():
        # no layout yet: again, from the best partial layout found (another seed)
        follower.options = SolveOptions(time_limit=PONDER_ANSWER, seed=seed + rounds)
        step = follower.check(rounds, None, request.problem.position, 0)
        rounds += 1
        if step.answer != "unknown":
            send(request.key, known_after(follower, step, request))
    pool = follower.pool
    if step.answer != "yes" or pool is None:
        return
    sent = [len(pool), 0]  # layouts and refuted moves reported so far

    def report(move: Placement, result: str) -> None:
        lost = [(c, p.piece, tuple(sorted(p.squares)), why) for (c, p), why in pool.refuted.items()]
        new = tuple(rows(layout) for layout in pool.layouts[sent[0] :])
        if new or len(lost) > sent[1]:
            send(request.key, Known("yes", rows(pool.layouts[0]), "", new, tuple(lost[sent[1] :])))
        sent[0], sent[1] = len(pool), len(lost)

    position = request.problem.position
    while not stop.is_set():
        now = focus()
        colour = (now.colour if now is not None else None) or position.to_move
        if colour is None or not position.colour(colour).remaining:
            return
        try:
            tried = ponder(pool, colour, PONDER_SLICE, focus, stop, seed + pool_tries(pool), report)
        except SolverBug as e:  # nothing was shown: reported, and pondering goes on
            print(f"blokus-solo: pondering: {e}", file=sys.stderr, flush=True)
            continue
        if tried.tried == 0:
            return


def pool_tries(pool: Pool) -> int:
    """How many candidate tries pondering made in the pool's position (a seed offset)."""
    return sum(pool.tries.values())
