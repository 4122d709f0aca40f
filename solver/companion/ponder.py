"""Pondering: thinking while the player thinks (issue 32 item 4), as chess engines think on
the opponent's time. Here the "opponent" is the same person, so what is pondered is the
next move of the colour to move.

First a layout for the position if none is known
(:meth:`solver.companion.live.Companion.ponder` does that with the follower's check: book,
repairs of the carried layouts, the full solvers). Then :func:`ponder`, until its
deadline or ``stop``, answers the candidate moves (:func:`candidates`: the placement under
the player's mouse first, then the other legal placements of the piece the player has
selected, nearest that one first, then those of the colour's largest pieces left): each
candidate not yet known is repaired from the pool's layouts carried over it (the nearest
first, the repair search in runs of :data:`CANDIDATE_STEPS` repair steps). A layout found
there, with the candidate added back, is a layout of the position that contains it: it
joins the pool (after the rule checker accepted it against the position), and the move
is answered "yes" the moment it is played. A candidate the bound by area refutes
(milliseconds) is recorded as a proven loss. Candidates not answered are tried again in
the next round, with twice the steps.

Each answer is a checked layout or a proof; an unknown stays unknown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver.backends.base import Cancel, SolveOptions
from solver.companion.pool import Pool
from solver.companion.tiers import (
    ALONE_FIRST,
    FULL_FIRST,
    MAX_STARTS,
    alone_no,
    full_check,
    repair_from,
)
from solver.core.pieces import MONOMINO, family
from solver.core.placements import legal_moves, piece_moves
from solver.core.position import Placement, Position
from solver.tasks.endgame import area_shortfall

#: repair steps per candidate move in the first round (doubled each round): about 0.2 s
#: of the compiled search (a carried layout is rarely completed in fewer: issue 45's
#: live play, where 150 steps found almost none of the moves played)
CANDIDATE_STEPS = 1000
#: threads per candidate (one run of the repair search each: the player is thinking, the
#: cores are free)
PONDER_WORKERS = 2
#: most candidate moves per round
MAX_CANDIDATES = 400
#: most seconds of each proof (each colour alone, the full solve) per candidate move
CANDIDATE_SECONDS = 1.5
#: tries of a candidate move before pondering leaves it unknown (the placement under the
#: mouse is tried as long as it stays there)
MAX_TRIES = 4
#: most repair steps on each thread per try of the placement under the mouse (about
#: 0.7 s of the compiled search): it is tried again and again while it stays there, and
#: the mouse is looked at again between tries
HOVER_STEPS = 4000


@dataclass(frozen=True)
class Focus:
    """What the player is looking at (the page sends it): the colour to move, the piece
    selected in the tray and the placement under the mouse; any may be None."""

    colour: str | None = None
    piece: str | None = None
    placement: Placement | None = None


@dataclass
class Pondered:
    """What pondering found.

    Attributes:
        seconds: wall time spent.
        tried: candidate moves tried.
        kept: candidate moves answered "yes" (a layout of the pool contains them now).
        lost: candidate moves proven to lose.
        layouts: layouts added to the pool.
        log: one line per candidate tried ("blue L5 a1,...: yes 0.4 s").
    """

    seconds: float = 0.0
    tried: int = 0
    kept: int = 0
    lost: int = 0
    layouts: int = 0
    log: list[str] = field(default_factory=list)


def _square_distance(a: Placement, b: Placement, cols: int) -> int:
    """Chebyshev distance between the two placements' nearest squares."""
    return min(
        max(abs(x // cols - y // cols), abs(x % cols - y % cols))
        for x in a.squares
        for y in b.squares
    )


def candidates(position: Position, colour: str, focus: Focus | None = None) -> list[Placement]:
    """The colour's legal next moves in the order pondering tries them: the focus
    placement, then the focus piece's other placements (nearest the focus placement
    first), then every other placement by piece size, largest first (the monomino last
    while other pieces are left); at most :data:`MAX_CANDIDATES`."""
    if not position.colour(colour).remaining:
        return []
    cols = position.board.cols
    out: list[Placement] = []
    seen: set[Placement] = set()

    def take(moves: Sequence[Placement]) -> None:
        for m in moves:
            if m not in seen:
                seen.add(m)
                out.append(m)

    legal = legal_moves(position, colour)
    if focus is not None and focus.placement is not None and focus.placement in legal:
        take([focus.placement])
    if focus is not None and focus.piece is not None:
        own = piece_moves(position, colour, focus.piece)
        if focus.placement is not None:
            anchor = focus.placement
            own = sorted(own, key=lambda m: _square_distance(m, anchor, cols))
        take(own)
    several = len(position.colour(colour).remaining) > 1
    size = family(position.board.grid).size
    take(
        sorted(
            legal,
            key=lambda m: (several and m.piece == MONOMINO, -size[m.piece], m.piece),
        )
    )
    return out[:MAX_CANDIDATES]


def answer_candidate(
    pool: Pool,
    colour: str,
    move: Placement,
    deadline: float,
    steps: int,
    seed: int = 0,
    stop: Cancel | None = None,
) -> str:
    """Try one candidate move of the pool's position: "keeps" (a layout containing it
    joined the pool), "loses" (proven: recorded in ``pool.refuted``) or "unknown".

    In order: the bound by area (a proof, milliseconds); with more than
    :data:`solver.companion.tiers.FULL_FIRST` pieces left after the move, one run of
    the repair search (``steps`` repair steps) from the pool's layout nearest the move;
    with at most
    :data:`solver.companion.tiers.ALONE_FIRST` pieces left after the move, each colour
    alone (a proof of "no"); with at most :data:`solver.companion.tiers.FULL_FIRST`, the
    full joint solve (a layout or a proof), each for at most :data:`CANDIDATE_SECONDS`.

    Raises:
        SolverBug: a layout the rule checker refuses.
    """
    known = pool.status(colour, move)
    if known != "unknown":
        return known
    position = pool.position
    after = position.with_placement(colour, move)
    open_ = tuple(c.name for c in after.colours if c.remaining)
    short = area_shortfall(after, open_) if open_ else ""
    if short:
        pool.refuted[(colour, move)] = short
        return "loses"
    pieces = sum(len(after.colour(c).remaining) for c in open_)
    found = None
    if pieces > FULL_FIRST:  # with fewer, the full solve decides at once
        starts = [layout for layout, _ in pool.nearest(colour, move, after)[:MAX_STARTS]]
        found, _, _ = repair_from(
            after,
            starts,
            deadline,
            seed,
            stop,
            steps,
            max_runs=PONDER_WORKERS,
            workers=PONDER_WORKERS,
        )
    until = min(deadline, time.perf_counter() + CANDIDATE_SECONDS)
    options = SolveOptions(time_limit=CANDIDATE_SECONDS, seed=seed)
    if found is None and pieces <= ALONE_FIRST and len(open_) > 1:
        reason, _ = alone_no(after, options, CANDIDATE_SECONDS / len(open_), until)
        if reason:
            pool.refuted[(colour, move)] = reason
            return "loses"
    if found is None and pieces <= FULL_FIRST:
        until = min(deadline, time.perf_counter() + CANDIDATE_SECONDS)
        answer, reason, layout, _ = full_check(after, options, until)
        if answer == "no":
            pool.refuted[(colour, move)] = reason
            return "loses"
        found = layout
    if found is None:
        return "unknown"
    whole = {c: (*ps, move) if c == colour else ps for c, ps in found.items()}
    added = pool.add(whole, "pondered")
    return "keeps" if added or pool.status(colour, move) == "keeps" else "unknown"


def ponder(
    pool: Pool,
    colour: str,
    seconds: float,
    focus: Callable[[], Focus | None] | Focus | None = None,
    stop: Cancel | None = None,
    seed: int = 0,
    each: Callable[[Placement, str], None] | None = None,
) -> Pondered:
    """Answer the colour's candidate moves in the pool's position for ``seconds`` (module
    docstring: the pool must hold a layout, or nothing is carried). ``focus`` may be a
    callable, asked again before each candidate (the player moves the mouse); ``each``
    is called with each candidate tried and its result.

    The placement under the mouse comes first, as long as it stays there and is not
    answered (the move a person is about to play: each try at most :data:`HOVER_STEPS`
    repair steps a thread, the mouse looked at again after each). Otherwise the next
    candidate is the one tried fewest times so far (the pool counts them, across calls:
    :attr:`solver.companion.pool.Pool.tries`), in the order of :func:`candidates`. A
    candidate tried k times gets :data:`CANDIDATE_STEPS` x 2^k repair steps (at most
    2^10 times) on each of :data:`PONDER_WORKERS` threads; after :data:`MAX_TRIES` tries
    it is left unknown."""
    started = time.perf_counter()
    deadline = started + seconds
    report = Pondered()
    before = len(pool)
    while len(pool) and time.perf_counter() < deadline and not (stop is not None and stop.is_set()):
        now = focus() if callable(focus) else focus
        hovered = now.placement if now is not None else None
        best: tuple[int, int, Placement] | None = None
        for k, m in enumerate(candidates(pool.position, colour, now)):
            tries = pool.tries.get((colour, m), 0)
            if (tries >= MAX_TRIES and m != hovered) or pool.status(colour, m) != "unknown":
                continue
            key = (-1 if m == hovered else tries, k, m)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is None:
            break
        move = best[2]
        tries = pool.tries.get((colour, move), 0)
        pool.tries[(colour, move)] = tries + 1
        t0 = time.perf_counter()
        steps = CANDIDATE_STEPS * 2 ** min(tries, 10)
        if move == hovered:
            steps = min(steps, HOVER_STEPS)
        result = answer_candidate(pool, colour, move, deadline, steps, seed + report.tried, stop)
        report.tried += 1
        report.kept += result == "keeps"
        report.lost += result == "loses"
        names = ",".join(pool.position.board.names(move.squares))
        report.log.append(
            f"{colour} {move.piece} {names}: {result} {time.perf_counter() - t0:.2f} s"
        )
        if each is not None:
            each(move, result)
    report.layouts = len(pool) - before
    report.seconds = time.perf_counter() - started
    return report
