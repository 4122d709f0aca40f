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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.backends.base import SolveOptions
from solver.companion.follow import Follower
from solver.companion.layouts import carry, checked, legal_part, missing_pieces
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.formats.game import GameMove
from solver.formats.sgf import Location

#: positions whose companion answer a session keeps (the oldest dropped beyond)
MAX_KNOWN = 400

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
    """

    answer: str
    witness: Rows = ()
    reason: str = ""


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
    latest problem of the line with a known answer; None when none has one (or the
    companion does not apply: :func:`followable`)."""
    problem = line[-1][2]
    if not followable(problem):
        return None
    moves: list[tuple[str, Placement]] = []
    for colour, placement, after in reversed(line):
        found = known.get(fingerprint(after.position))
        if found is not None:
            key = fingerprint(problem.position)
            return FollowRequest(problem, after.position, found, tuple(reversed(moves)), key)
        if placement is not None and colour is not None:
            moves.append((colour, placement))
    return None


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


def follow_answer(request: FollowRequest, time_limit: float | None) -> dict[str, Any]:
    """The joint answer by the companion (what a worker runs): the witness carried over
    the moves since the known position, the last move through the companion's tiers
    (:meth:`solver.companion.follow.Follower.step`), all within ``time_limit`` seconds.

    Returns:
        ``answer`` ("yes", "no", "unknown", "done"), ``how`` (a
        :data:`solver.companion.follow.How`), ``seconds``, ``reason``, ``layout``
        (checked, for "yes"), ``tried`` (the tiers tried) and ``known`` (what to file
        under ``request.key``).
    """
    follower = Follower(SolveOptions(time_limit=time_limit), request.problem.name)
    if request.known.answer == "no":
        follower.no_since, follower.reason = 0, request.known.reason
    elif request.known.witness:
        witness = legal_part(request.base, layout_of(request.known.witness))
        # a complete layout must pass the checker where it is (a seed, e.g. the rest of a
        # game record, may not: its monomino not last); else it is not carried
        complete = witness is not None and not any(missing_pieces(request.base, witness).values())
        if complete and witness is not None and checked(request.base, witness) is None:
            witness = None
        follower.witness = witness
    position = request.base
    for colour, placed in request.moves[:-1]:
        position = position.with_placement(colour, placed)
        if follower.witness is not None:
            follower.witness, _ = carry(follower.witness, colour, placed, position)
    if request.moves:
        colour, placed = request.moves[-1]
        move = GameMove(len(request.moves), colour, placed, Location(0, 0))
        step = follower.step(len(request.moves), move, request.problem.position)
    else:
        step = follower.check(0, None, request.problem.position, 0)
    if step.answer == "no":
        reason = request.known.reason if step.how == "inferred" else step.reason
        known = Known("no", (), reason)
    else:
        known = Known(step.answer, rows(follower.witness), "")
    return {
        "answer": step.answer,
        "how": step.how,
        "seconds": step.seconds,
        "reason": known.reason if step.answer == "no" else step.reason,
        "layout": step.layout,
        "tried": step.tried,
        "freed": step.freed,
        "best_left": step.best_left,
        "known": known,
    }
