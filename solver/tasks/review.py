"""Reviewing a game: after every placement, can each colour still place all its pieces
(and end with the monomino), and what is the best score it can still reach?

Each answer is the endgame check's (:func:`solver.tasks.endgame.endgame_check`): the colour
alone plays on, with the other colours as they stand (their squares frozen, none of their
later moves). The answers are given for the start (placement 0) and after every placement
of the game's main line. A "yes" always comes with a layout the rule checker accepted; a
"no" is proven; a time-out is "unknown", never "no".

What makes a review fast are two facts that follow from the rules (the other colours only
ever take squares away; a colour's own placements are part of any layout from before
them):

1. *Monotone.* Let P' be P plus some legal placements. A layout of colour c from P',
   together with c's own placements made between P and P', is a legal layout from P that
   leaves the same pieces unplaced and ends with the same piece. So "yes" after P' implies
   "yes" after P, a proven "no" stays "no", "no monomino last" stays so, and the best
   reachable score never rises: a proven upper bound stays an upper bound.
2. *A layout that still fits.* A layout found for c after P (its *witness*) still fits
   after the next placement if that placement is c's and is one of the witness's pieces
   (drop it from the witness), or if it is another colour's and covers none of the
   witness's squares. Otherwise the pieces the placement displaced (those it covers; for
   c's own piece placed elsewhere, the witness's copy and the pieces it touches by an
   edge), and those left without a corner path to c's squares, are put back by a small
   depth-first search over their legal moves (:data:`REPAIR_BUDGET`). The rule checker
   re-checks every witness against the new position (a few milliseconds); a witness that
   scores its old proven bound is still proven best (by 1).

So a colour is solved again only when a placement breaks its witness beyond that repair;
after a proven "no" only its best score is searched again, and a proven "the monomino
cannot be last" is never asked again. While the +5 is open a solve asks for a layout with
the monomino last first (one answer for both questions; a quick try, :data:`QUICK_TRY`,
when nothing is known yet). Each check (one colour after one placement) has one time
budget for all its solves (``time_limit``). Finally an "unknown" after
placement k is settled as "yes" when a later placement j has a layout: c's own placements
between k and j plus that layout, checked from placement k (fact 1); likewise a "no"
whose best score is not proven takes a later layout's score when it is higher.

Setup in mid-game (``AE``, ``AB``, ...; rare) can take pieces away, so nothing known
before it is carried over it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from solver.backends.base import DEFAULT_TIME_LIMIT, SolveOptions
from solver.core.board import Board
from solver.core.checker import CheckReport, check_layout
from solver.core.order import connected_part, order_of_play
from solver.core.pieces import MONOMINO, family
from solver.core.placements import piece_moves
from solver.core.position import Placement, Position
from solver.core.problem import Answer, Problem, StepAnswer
from solver.errors import SolverBug
from solver.formats.game import Game, GameMove
from solver.tasks.endgame import EndgameAnswer, cap_after_no, endgame_check, no_bound
from solver.tasks.solve import SolveResult, solve

#: How a review's :class:`Verdict` came about: "solved" (a solver ran), "kept" (the layout
#: found earlier still fits and was re-checked), "inferred" (from a later layout), "done"
#: (nothing left to place). The companion's joint answers have more ways
#: (:data:`solver.companion.follow.How`).
VerdictHow = Literal["solved", "kept", "inferred", "done"]

#: Seconds of the first, quick try at a layout with the monomino last when no layout is
#: known: it settles both questions when it succeeds (the common case); when it runs out,
#: place-all gets the rest of the budget, and the monomino last is asked again after a yes.
QUICK_TRY = 1.0


@dataclass(frozen=True)
class Verdict:
    """One colour's answer after one placement, with the other colours as they stand.

    Attributes:
        colour: the colour.
        answer: "yes" (a checked layout places every remaining piece), "no" (proven
            impossible), "unknown" (a time limit ran out: not a "no"), "done" (nothing
            left to place).
        pieces_left: pieces it has still to place.
        squares_left: their squares.
        best: the score (official, per colour: -1 per square left unplaced, +15 all placed,
            +5 monomino last) of the best checked layout known; None if none is known. For
            "done", the colour's score.
        bound: a proven upper bound on the score it can still reach, if known; ``best ==
            bound`` means the best is proven.
        bonus: can it still place everything and end with the monomino (the +5)? "yes" (a
            checked layout does), "no" (proven, or its monomino is already down with
            pieces left), "unknown"; None in variants without a bonus (Junior).
        how: "solved" (a solver ran), "kept" (the layout found earlier still fits and
            was re-checked), "inferred" (from a later layout, see the module docstring),
            "done".
        seconds: wall time of the solves and checks for this answer.
        layout: the pieces of the best layout known, in a legal order of play (None if
            none is known).
    """

    colour: str
    answer: StepAnswer
    pieces_left: int
    squares_left: int
    best: int | None
    bound: int | None
    bonus: Answer | None
    how: VerdictHow
    seconds: float
    layout: tuple[Placement, ...] | None = field(default=None, repr=False)

    @property
    def proven(self) -> bool:
        """Whether ``best`` is proven to be the best reachable score."""
        return self.best is not None and self.best == self.bound


@dataclass(frozen=True)
class Step:
    """The review of one position: the start (``placement`` 0, ``move`` None) or the
    position after placement ``placement`` (made by ``move``)."""

    placement: int
    move: GameMove | None
    verdicts: tuple[Verdict, ...]

    def verdict(self, colour: str) -> Verdict:
        """The verdict for one colour. Raises KeyError if it was not reviewed."""
        for v in self.verdicts:
            if v.colour == colour:
                return v
        raise KeyError(colour)


@dataclass(frozen=True)
class Loss:
    """The placement after which a colour lost a chance (for good, unless setup in
    mid-game gave it back: ``regained``).

    Attributes:
        colour: the colour.
        what: "all" (placing all its pieces: the +15) or "bonus" (ending with the
            monomino: the +5).
        first: the first placement after which the chance is proven gone (0: the start).
        last_possible: the last placement before ``first`` after which it was proven
            possible, or None if it never was. ``last_possible == first - 1`` means that
            placement ``first`` lost it; otherwise it was lost by one of the placements
            ``last_possible + 1 .. first`` (time limits left the ones between unknown).
        move: the move of placement ``first`` (None for the start).
        regained: the first placement after ``first`` after which the chance was proven
            possible again, or None (lost to the end of the game, as far as is known).
            Only setup in mid-game can give a chance back (:attr:`Game.setup_after`).
    """

    colour: str
    what: Literal["all", "bonus"]
    first: int
    last_possible: int | None
    move: GameMove | None
    regained: int | None = None

    @property
    def exact(self) -> bool:
        """Whether the placement that lost the chance is known exactly."""
        return self.last_possible == self.first - 1


@dataclass(frozen=True)
class Review:
    """A reviewed game.

    Attributes:
        game: the game record.
        colours: the colours reviewed, in turn order.
        steps: one per position: the start, then after each placement (``steps[k]`` is
            after ``k`` placements).
        solves: how many solves ran.
        kept: how many answers came from a layout that still fitted (no solve).
        seconds: wall time of the whole review.
    """

    game: Game
    colours: tuple[str, ...]
    steps: tuple[Step, ...]
    solves: int
    kept: int
    seconds: float

    def losses(self) -> list[Loss]:
        """For each colour in turn, every placement after which it could no longer place
        all its pieces, then every one after which it could no longer end with the
        monomino. Without setup in mid-game a chance lost stays lost, so there is at most
        one of each; setup that gives a chance back (``Loss.regained``) can make more."""
        out: list[Loss] = []
        for colour in self.colours:
            answers = [s.verdict(colour).answer for s in self.steps]
            out += self._loss(colour, "all", [_all_state(a) for a in answers])
            bonuses = [s.verdict(colour).bonus for s in self.steps]
            if self.game.variant.bonus:
                out += self._loss(colour, "bonus", bonuses)
        return out

    def _loss(
        self, colour: str, what: Literal["all", "bonus"], states: Sequence[str | None]
    ) -> list[Loss]:
        return [
            Loss(colour, what, first, last, self.steps[first].move, back)
            for first, last, back in lost_runs(states)
        ]

    def final(self, colour: str) -> Verdict:
        """The verdict after the last placement."""
        return self.steps[-1].verdict(colour)


def lost_runs(states: Sequence[str | None]) -> list[tuple[int, int | None, int | None]]:
    """Every run of "no" in the answers after each placement ("yes", "no", "unknown",
    None for a question not asked; ``states[k]`` after k placements), in order: the first
    placement of the run, the last "yes" before it (None if none), and the first "yes"
    after it (None if none follows: the chance stays lost as far as is known).

    A run ends only at a "yes": an "unknown" after a "no" says nothing new. Without setup
    in mid-game a "no" is never followed by a "yes" (a placement only takes squares and
    pieces away), so there is at most one run, lasting to the end.
    """
    runs: list[tuple[int, int | None, int | None]] = []
    first: int | None = None
    last_yes: int | None = None
    for k, state in enumerate(states):
        if state == "no" and first is None:
            first = k
        elif state == "yes":
            if first is not None:
                runs.append((first, last_yes, k))
                first = None
            last_yes = k
    if first is not None:
        runs.append((first, last_yes, None))
    return runs


def setup_between(game: Game, loss: Loss) -> int | None:
    """For a chance given back (``loss.regained`` set): the last placement ``k`` with
    ``loss.first < k <= loss.regained`` after which setup changed the board (the setup
    that gave it back), or None if there is none: then the answers contradict each other
    (a "yes" after a proven "no" with nothing given back), which the summaries say."""
    if loss.regained is None:
        return None
    between = [k for k in game.setup_after if loss.first < k <= loss.regained]
    return between[-1] if between else None


def _all_state(answer: StepAnswer) -> str:
    """Whether placing everything is still possible: "done" counts as "yes"."""
    return "yes" if answer == "done" else answer


# ---------------------------------------------------------------------------------------
# The review


@dataclass
class _Track:
    """What is known about one colour, carried from one placement to the next."""

    witness: list[Placement] | None = None  # the best layout known, less the pieces below
    displaced: list[str] = field(default_factory=list)  # its pieces a move displaced
    bound: int | None = None  # proven upper bound on the reachable score
    no_proven: bool = False  # placing all remaining pieces is proven impossible
    no_bonus_proven: bool = False  # placing all with the monomino last is proven impossible
    stale: bool = False  # the colour moved (or the game ended) since its best was sought


@dataclass
class _Runner:
    """Runs the solves of each check (one colour after one placement) within the check's
    time budget (``options.time_limit``, None for none), and counts them."""

    options: SolveOptions
    name: str
    solves: int = 0
    kept: int = 0
    deadline: float | None = None

    def start_check(self) -> None:
        limit = self.options.time_limit
        self.deadline = None if limit is None else time.perf_counter() + limit

    def _options(self, cap: float | None = None) -> SolveOptions:
        """The options with the time left in the check (at most ``cap`` seconds)."""
        left = None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        if cap is not None:
            left = cap if left is None else min(left, cap)
        return replace(self.options, time_limit=left)

    def solve(self, problem: Problem, cap: float | None = None) -> SolveResult:
        self.solves += 1
        return solve(problem, self._options(cap))

    def endgame_check(self, position: Position, colour: str) -> EndgameAnswer:
        options = self._options()
        answer = endgame_check(position, colour, options, self.name, self.deadline)
        self.solves += 1 + (answer.best is not None)
        return answer


def review_game(
    game: Game,
    colours: Iterable[str] | None = None,
    options: SolveOptions = SolveOptions(time_limit=DEFAULT_TIME_LIMIT),
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a game: every reviewed colour's verdict at the start and after each placement.

    Args:
        game: the game record (:func:`solver.formats.game.load_game`).
        colours: the colours to review (default: all of the variant's).
        options: backend and limits; ``time_limit`` is the budget of each check (one
            colour after one placement, all its solves together; None for none). A
            time-out gives "unknown", never "no".
        progress: called with (placements reviewed, placements in all) after each step.

    Returns:
        A :class:`Review`.

    Raises:
        SolverBug: a layout that should still fit is refused by the rule checker, or the
            answers contradict each other (a "yes" after a proven "no").
    """
    started = time.perf_counter()
    names = tuple(game.variant.colours if colours is None else colours)
    order = tuple(c for c in game.variant.colours if c in names)
    tracks = {c: _Track() for c in order}
    runner = _Runner(options, game.path or "")
    placements = [m for m in game.moves if m.placement is not None]
    steps: list[Step] = []
    fresh = {0}  # placements after which setup changed the board: nothing carries over
    for k in range(game.num_placements + 1):
        move = placements[k - 1] if k else None
        position = game.position(k)
        if move is not None and move.placement is not None:
            played = game.position(k - 1).with_placement(move.colour, move.placement)
            if played.colours != position.colours:  # setup (AE, AB, ...) after the move
                fresh.add(k)
                tracks = {c: _Track() for c in order}
        verdicts = []
        for colour in order:
            track = tracks[colour]
            if move is not None and k not in fresh:
                _follow(track, colour, move, position.board)
            track.stale |= k == game.num_placements
            verdicts.append(_verdict(track, position, colour, runner))
        steps.append(Step(k, move, tuple(verdicts)))
        if progress is not None:
            progress(k, game.num_placements)
    steps = _from_later(game, order, steps, fresh)
    return Review(
        game, order, tuple(steps), runner.solves, runner.kept, time.perf_counter() - started
    )


def _follow(track: _Track, colour: str, move: GameMove, board: Board) -> None:
    """Carry the witness over a move (fact 2 of the module docstring): the pieces the move
    conflicts with leave the witness and wait in ``track.displaced`` to be placed again."""
    witness, placed = track.witness, move.placement
    track.stale |= move.colour == colour
    if witness is None or placed is None:
        return
    if move.colour == colour:
        same = [p for p in witness if p == placed] or [
            p for p in witness if p.piece == placed.piece
        ]
        if same:
            witness.remove(same[0])
            if same[0] == placed:
                return
        # the piece went elsewhere: the witness's pieces on it or beside it must move
        around = placed.squares | _edge_neighbours(board, placed)
    else:
        around = placed.squares
    keep = [p for p in witness if not p.squares & around]
    track.displaced += [p.piece for p in witness if p.squares & around]
    track.witness = keep


def _edge_neighbours(board: Board, placed: Placement) -> frozenset[int]:
    return frozenset(n for s in placed.squares for n in board.edge_neighbours[s])


def _full_score(position: Position, colour: str) -> int:
    """The score of placing everything: +15, and +5 while the monomino can still be last
    (0 in variants without a bonus)."""
    if not position.bonus:
        return 0
    return 15 + (5 if MONOMINO in position.colour(colour).remaining else 0)


@dataclass
class CheckedLayout:
    """The best layout known for a colour in one position, checked."""

    layout: list[Placement]
    report: CheckReport

    @classmethod
    def of(cls, result: SolveResult, colour: str) -> CheckedLayout | None:
        if result.layout is None or result.report is None:
            return None
        return cls(list(result.layout.get(colour, [])), result.report)

    def all_placed(self, colour: str) -> bool:
        return self.report.report(colour).all_placed

    def score(self, colour: str) -> int:
        return self.report.report(colour).score


def _checked(position: Position, colour: str, pieces: Sequence[Placement]) -> CheckedLayout | None:
    """A colour's pieces in a legal order (monomino last where it can be) with the rule
    checker's report, or None if they are not connected or break a rule."""
    ordered = order_of_play(position, colour, pieces, monomino_last=True)
    if ordered is None:
        return None
    report = check_layout(position, {colour: ordered})
    return CheckedLayout(ordered, report) if report.legal else None


#: Most placements the repair of a witness tries (each costs about 3 ms on 20x20).
REPAIR_BUDGET = 12


def repaired_witness(
    position: Position, colour: str, base: list[Placement], displaced: list[str]
) -> CheckedLayout | None:
    """A colour's witness (its layout from an earlier position) kept in ``position``: the
    witness's pieces that still fit (``base``; those no longer connected to the colour are
    displaced too) with the ``displaced`` ones (piece names) placed again by a small
    depth-first search (at most :data:`REPAIR_BUDGET` placements tried, largest piece
    first, the monomino last), checked; None if that fails (the review then solves)."""
    pieces = connected_part(position, colour, base)
    todo = displaced + [p.piece for p in base if p not in pieces]
    if todo:
        current = position
        for placement in pieces:  # legal by construction; the checker has the last word
            current = current.with_placement(colour, placement)
        size = family(position.board.grid).size
        todo.sort(key=lambda p: (p == MONOMINO, -size[p]))
        added = _place(current, colour, todo, [REPAIR_BUDGET])
        if added is None:
            return None
        pieces += added
    return _checked(position, colour, pieces)


def _place(
    position: Position, colour: str, todo: list[str], budget: list[int]
) -> list[Placement] | None:
    """Legal moves placing the pieces ``todo`` in that order, or None (``budget[0]``:
    placements still allowed to try, shared by the whole search)."""
    if not todo:
        return []
    for placement in piece_moves(position, colour, todo[0]):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        rest = _place(position.with_placement(colour, placement), colour, todo[1:], budget)
        if rest is not None:
            return [placement, *rest]
    return None


def _verdict(track: _Track, position: Position, colour: str, runner: _Runner) -> Verdict:
    """The verdict for one colour in one position; updates the colour's track."""
    state = position.colour(colour)
    if not state.remaining:
        track.witness = None
        score = position.score(colour)
        bonus: Answer | None = None
        if position.bonus:
            bonus = "yes" if state.last_piece == MONOMINO else "no"
        return Verdict(colour, "done", 0, 0, score, score, bonus, "done", 0.0, ())
    started = time.perf_counter()
    runner.start_check()
    _cap(track, position, colour, _full_score(position, colour))
    found = None
    if track.witness is not None:
        found = repaired_witness(position, colour, track.witness, track.displaced)
    track.displaced = []
    how: VerdictHow = "kept" if found is not None else "solved"
    runner.kept += found is not None
    if _wants_monomino_last(track, position, colour, found):
        # while the +5 is open, ask for it first: its layout answers both questions
        better = _monomino_last(track, position, colour, runner, quick=found is None)
        if better is not None:
            found, how = better, "solved"
    if found is None:
        found = _solve(track, position, colour, runner)
        if _wants_monomino_last(track, position, colour, found) and found is not None:
            found = _monomino_last(track, position, colour, runner, quick=False) or found
    elif track.no_proven and track.stale and found.score(colour) < (track.bound or 0):
        # a best not proven, and the problem got smaller: try to settle it
        better = _solve(track, position, colour, runner)
        how = "solved"
        if better is not None and better.score(colour) > found.score(colour):
            found = better
    track.stale = False
    if track.no_bonus_proven:
        _cap(track, position, colour, 15)
    track.witness = list(found.layout) if found is not None else None
    best = found.score(colour) if found is not None else None
    assert track.bound is not None
    if best is not None and best > track.bound:
        _contradiction(colour, f"a layout scores {best}, above the proven bound {track.bound}")
    answer: StepAnswer = "unknown"
    if found is not None and found.all_placed(colour):
        answer = "yes"
        if track.no_proven:
            _contradiction(colour, "a layout places every piece after a proven no")
    elif track.no_proven:
        answer = "no"
    return Verdict(
        colour,
        answer,
        len(state.remaining),
        state.remaining_squares,
        best,
        track.bound,
        _bonus(track, position, colour, found),
        how,
        time.perf_counter() - started,
        tuple(found.layout) if found is not None else None,
    )


def _cap(track: _Track, position: Position, colour: str, cap: int) -> None:
    """Lower the proven bound to ``cap``; after a proven "no", also to the best a colour
    can do with a piece left over (:func:`solver.tasks.endgame.no_bound`)."""
    track.bound = cap if track.bound is None else min(track.bound, cap)
    if track.no_proven:
        track.bound = min(track.bound, no_bound(position, colour))


def _solve(track: _Track, position: Position, colour: str, runner: _Runner) -> CheckedLayout | None:
    """Solve a colour afresh: the endgame check, or only its best score after a proven no.
    Updates what the track knows (a proven no, a proven bound)."""
    if not track.no_proven:
        answer = runner.endgame_check(position, colour)
        if answer.answer == "yes":
            return CheckedLayout.of(answer.place_all, colour)
        if answer.answer == "unknown":
            return None
        track.no_proven = True
        best = answer.best
    else:
        problem = Problem(position, (colour,), "max-score", False, name=runner.name)
        best = cap_after_no(runner.solve(problem), position, colour)
    assert best is not None
    _cap(
        track,
        position,
        colour,
        best.bound if best.bound is not None else no_bound(position, colour),
    )
    if best.status == "optimal" and best.score is not None:
        _cap(track, position, colour, best.score)
    return CheckedLayout.of(best, colour)


def _bonus_open(track: _Track, position: Position, colour: str) -> bool:
    """Whether it is still open whether the colour can end with its monomino."""
    return (
        position.bonus
        and not track.no_proven
        and not track.no_bonus_proven
        and MONOMINO in position.colour(colour).remaining
    )


def _wants_monomino_last(
    track: _Track, position: Position, colour: str, found: CheckedLayout | None
) -> bool:
    """Whether to ask for a layout with the monomino last: the +5 is open and the layout
    known (if any) places everything but not with the monomino last."""
    if not _bonus_open(track, position, colour):
        return False
    return found is None or (
        found.all_placed(colour) and not found.report.report(colour).monomino_last
    )


def _monomino_last(
    track: _Track, position: Position, colour: str, runner: _Runner, quick: bool
) -> CheckedLayout | None:
    """A layout placing everything with the monomino last, or None (then either proven
    impossible, recorded in the track, or a time-out); ``quick``: a try of at most
    :data:`QUICK_TRY` seconds."""
    problem = Problem(position, (colour,), "place-all", True, name=runner.name)
    result = runner.solve(problem, QUICK_TRY if quick else None)
    if result.status == "infeasible":
        track.no_bonus_proven = True
    return CheckedLayout.of(result, colour)


def _bonus(
    track: _Track, position: Position, colour: str, found: CheckedLayout | None
) -> Answer | None:
    if not position.bonus:
        return None
    if found is not None and found.all_placed(colour) and found.report.report(colour).monomino_last:
        return "yes"
    if not _bonus_open(track, position, colour) or track.no_proven:
        return "no"
    return "unknown"


def _contradiction(colour: str, what: str) -> None:
    raise SolverBug(f"review of {colour}: {what} (the answers contradict each other)")


def _from_later(
    game: Game, colours: Sequence[str], steps: list[Step], fresh: set[int]
) -> list[Step]:
    """Answers improved by later layouts (fact 1; how "inferred"): the colour's own
    placements in between plus a later layout are a layout here, checked from here.

    An "unknown" followed by a "yes" (or "done") becomes "yes"; a "no" whose best is not
    proven gets the best score of a later layout when that is higher. Not across setup
    that changed the board (the placements in ``fresh``).
    """
    placements = [m for m in game.moves if m.placement is not None]
    out = list(steps)
    for colour in colours:
        for k, step in enumerate(steps):
            verdict = step.verdict(colour)
            if verdict.answer not in ("unknown", "no") or verdict.proven:
                continue
            later = _best_later(verdict, colour, steps[k + 1 : _segment_end(k, fresh, len(steps))])
            if later is None:
                continue
            own = [m.placement for m in placements[k : later.placement] if m.colour == colour]
            pieces = [p for p in own if p is not None]
            pieces += list(later.verdict(colour).layout or ())
            found = _checked(game.position(k), colour, pieces)
            if found is None or found.score(colour) < (later.verdict(colour).best or 0):
                raise SolverBug(
                    f"review of {colour}: the layout after placement {later.placement} "
                    f"does not extend to placement {k}"
                )
            inferred = _inferred(verdict, found)
            out[k] = replace(
                out[k],
                verdicts=tuple(inferred if v.colour == colour else v for v in out[k].verdicts),
            )
    return out


def _best_later(verdict: Verdict, colour: str, later: Sequence[Step]) -> Step | None:
    """The later step whose layout does most for ``verdict``: a "yes" (or "done") for an
    "unknown"; the highest best score above the verdict's for a "no"."""
    if verdict.answer == "unknown":
        return next((s for s in later if s.verdict(colour).answer in ("yes", "done")), None)
    scored = [s for s in later if s.verdict(colour).layout is not None]
    top = max(scored, key=lambda s: s.verdict(colour).best or -(10**9), default=None)
    if top is None or (top.verdict(colour).best or -(10**9)) <= (verdict.best or -(10**9)):
        return None
    return top


def _inferred(verdict: Verdict, found: CheckedLayout) -> Verdict:
    """A verdict with a better layout found later (see :func:`_from_later`)."""
    colour = verdict.colour
    best = found.score(colour)
    if verdict.bound is not None and best > verdict.bound:
        _contradiction(colour, f"a later layout scores {best}, above the bound {verdict.bound}")
    bonus = verdict.bonus
    if found.all_placed(colour) and found.report.report(colour).monomino_last:
        bonus = "yes"
    answer: StepAnswer = "yes" if found.all_placed(colour) else verdict.answer
    if answer == "yes" and verdict.answer == "no":
        _contradiction(colour, "a later layout places every piece after a proven no")
    return replace(
        verdict, answer=answer, best=best, bonus=bonus, how="inferred", layout=tuple(found.layout)
    )


def _segment_end(k: int, fresh: set[int], end: int) -> int:
    """The first placement after ``k`` that setup made a fresh start at (or ``end``)."""
    return min([j for j in fresh if j > k] + [end])
