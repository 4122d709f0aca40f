"""Following a game: after every placement, can every colour with pieces left still place
all of them, the board otherwise as it stands (the solo player's question, ``check
--together``)? Answered by carrying a layout (the *witness*) from one move to the next.

The joint question is monotone along a game (the reasoning of :mod:`solver.tasks.review`, for
all colours at once): let P' be P plus some legal placements. A layout placing every piece
left after P', together with the placements made between P and P', places every piece left
after P. So a "yes" after P' is a "yes" after P, and a proven "no" after P stays "no" after
P' (and is not asked again).

After each placement the answer comes from the first of these that gives one, all within
the check's budget (``options.time_limit`` seconds; the full solve of 6 may overrun it by
about a second, and is not started with less than :data:`MIN_FULL` left):

0. *Reconnected* (:func:`reconnect`, a complete witness that lacks the move): the
   displaced pieces re-placed by a small search, everything else where it was.
1. *Kept.* The witness contains the move (same piece, same squares): it still places
   everything else; the rule checker re-checks it (milliseconds).
2. *The bound by area* (milliseconds; :func:`solver.tasks.endgame.area_shortfall`): a "no".
3. *Repaired, exactly.* Otherwise the move *displaces* witness pieces: those it covers,
   the mover's own copy of the piece, and the mover's pieces it shares an edge with.
   Every piece that then loses its corner path to its colour's squares (a whole subtree
   when the displaced piece was an early one) is *cut off*. When at most
   :data:`EXACT_FREED` pieces are missing, the exact search puts them back, everything
   else frozen (:data:`EXACT_SHARE` of the budget).
4. *Each colour alone* (:data:`ALONE_SHARE` each): a colour that cannot place its pieces
   alone proves the joint "no". With few pieces left (:data:`FULL_FIRST`), straight on
   to 6.
5. *Repaired by the repair search* (large-neighbourhood search,
   :mod:`solver.backends.repair.repairer`) started from the witness less the displaced and
   cut-off pieces instead of from greedy play, until :data:`REPAIR_SHARE` of the
   budget: it re-places them and reconnects what the move cut off, moving other pieces
   where it must.
6. *Solved.* The rest of the budget goes to the joint ``auto`` solve (the LP bound first
   in mid-game, the search, the repair search, the symmetric reduction where it
   applies). Only 2, 4 and 6 can prove "no".

An "unknown" still carries the repair search's best partial layout (the most squares
placed) to the next move, so the work of one check is not lost to the next. In a review
(:func:`follow_game`, the whole game known) the last position is checked first, and an
"unknown" after placement k followed by a "yes" after placement j
becomes "yes" (how "inferred"): the placements k+1..j plus the layout after j, checked
from placement k by the rule checker. Every "yes" comes with a layout the rule checker
accepted; a "no" is proven; "unknown" (the budget ran out) is never a "no".

Setup in mid-game (``AE``, ``AB``, ...) can take pieces away: nothing is carried over it
(neither a witness nor a "no"); such a game is followed move by move, not in the review
order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from solver.backends.base import DEFAULT_TIME_LIMIT, FitBound, SolveOptions
from solver.companion.book import book_layouts
from solver.companion.layouts import (
    carry,
    checked,
    laid_over,
    legal_part,
    missing_pieces,
    open_colours,
    shown_partial,
    squares_left,
    squares_of,
)
from solver.companion.pair_book import pair_images
from solver.companion.pool import Pool, layout_key, pool_of
from solver.companion.tiers import (
    ALONE_FIRST,
    ALONE_SHARE,
    EXACT_FREED,
    EXACT_SHARE,
    FULL_FIRST,
    MAX_STARTS,
    RECONNECT_BUDGET,
    RECONNECT_STARTS,
    REPAIR_SHARE,
    alone_no,
    exact_repair,
    full_check,
    reconnect,
    repair_from,
)
from solver.core.position import LayoutView, Placement, Position
from solver.core.problem import Problem, StepAnswer
from solver.errors import SolverBug
from solver.formats.game import Game, GameMove
from solver.tasks.endgame import area_shortfall
from solver.tasks.review import Loss, lost_runs
from solver.tasks.solve import area_fit

#: How the companion's joint answer (:class:`JointStep`) came about: "book", "pool",
#: "repaired", "solved", "inferred" or "done" (:attr:`JointStep.how`; a review's verdicts
#: have fewer ways, :data:`solver.tasks.review.VerdictHow`).
How = Literal["book", "pool", "repaired", "solved", "inferred", "done"]

#: in the opening, the pair book's layouts of neighbouring colours' first pieces laid over
#: the position join the carried layouts the repair starts from (the nearest first)
PAIR_STARTS = True


@dataclass(frozen=True)
class JointStep:
    """The joint answer after one placement (``placement`` 0: the start).

    Attributes:
        placement: placements made so far.
        move: the move of this placement (None for the start).
        answer: "yes" (a checked layout places every piece left of every colour), "no"
            (proven impossible), "unknown" (the budget ran out: not a "no"), "done" (no
            colour has pieces left).
        how: "book" (a layout of the opening book), "pool" (a layout known before the
            move contains it: the carried layout or another of the pool), "repaired" (a
            carried layout repaired around the move), "solved" (the full solvers),
            "inferred" (from a later layout; for a "no", proven after an earlier move),
            "done".
        seconds: wall time of this check.
        colours: the colours with pieces left.
        pieces_left: their pieces left, in all.
        squares_left: their squares.
        reason: for "no", why (e.g. the LP bound's line); for "unknown", "time limit".
        best_left: squares the best layout known leaves unplaced (0 for "yes"; None when
            no layout is known, e.g. after a "no", or an unknown whose best partial layout
            places no piece).
        layout: the layout for "yes" (colour -> placements in order of play, checked);
            None otherwise.
        freed: pieces of the nearest carried layout the move displaced or cut off (0
            when a layout contained the move, or none was carried).
        tried: the tiers tried, in order ("exact", "repair", "full"), with their
            outcome, e.g. ``("exact: infeasible", "repair: 12 left")``.
        partial: for "unknown", the best partial layout found (colour -> placements in
            an order of play; the rule checker accepted it as a partial: legal pieces,
            each colour connected to its start); None when it places no piece.
        fit: for "unknown", the best bound proved on the squares that fit at once (the
            full solve's, e.g. the LP bound, else the free squares of the board).
        grid: the board's grid (``"square"``, ``"trigon"``: the cells' word and the
            piece family of ``short``).
        short: for "unknown" with a partial layout, colour -> the pieces it leaves
            unplaced (only colours with some left).
    """

    placement: int
    move: GameMove | None
    answer: StepAnswer
    how: How
    seconds: float
    colours: tuple[str, ...]
    pieces_left: int
    squares_left: int
    reason: str = ""
    best_left: int | None = None
    layout: Mapping[str, tuple[Placement, ...]] | None = None
    freed: int = 0
    tried: tuple[str, ...] = ()
    partial: Mapping[str, tuple[Placement, ...]] | None = None
    fit: FitBound | None = None
    short: Mapping[str, tuple[str, ...]] | None = None
    grid: str = "square"


@dataclass(frozen=True)
class Followed:
    """A game followed move by move (:func:`follow_game`).

    Attributes:
        game: the game record.
        steps: ``steps[k]`` is the answer after k placements.
        seconds: wall time of the whole follow.
    """

    game: Game
    steps: tuple[JointStep, ...]
    seconds: float

    def losses(self) -> list[Loss]:
        """Every placement after which placing every piece of every colour was lost
        (:class:`solver.tasks.review.Loss` with colour "together" and what "all"), in
        order: at most one unless setup in mid-game gave the chance back
        (``Loss.regained``)."""
        states = ["yes" if s.answer == "done" else s.answer for s in self.steps]
        return [
            Loss("together", "all", first, last, self.steps[first].move, back)
            for first, last, back in lost_runs(states)
        ]

    def loss(self) -> Loss | None:
        """The loss that stands at the end of the game (the last of :meth:`losses`, if
        nothing gave it back), or None."""
        standing = [x for x in self.losses() if x.regained is None]
        return standing[-1] if standing else None

    def count(self, how: str) -> int:
        """How many answers came about in this way (a :data:`How`)."""
        return sum(s.how == how for s in self.steps)


# ---------------------------------------------------------------------------------------
# Following


@dataclass
class Follower:
    """What is carried from one placement to the next: the pool of verified layouts of the
    last position answered (:class:`solver.companion.pool.Pool`), the carried layout (the
    layout the last answer showed, or an unknown's best partial layout) and whether "no"
    was proven; :meth:`step` answers the next position (used by :func:`follow`, by the
    browser page, :mod:`solver.companion.page`, and by :class:`solver.companion.live.Companion`).

    Attributes:
        options: ``time_limit`` is the budget of each check (seconds).
        name: what the answers are about (a file name), for messages.
        witness: the carried layout, legal from the last position (complete, or an
            unknown's best partial layout); None when nothing is carried.
        pool: verified layouts of the last position (None: none known).
        no_since: the placement after which "no" was proven, or None.
        reason: that proof's reason.
        book: whether positions the opening book covers are answered from it
            (:mod:`solver.companion.book`).
    """

    options: SolveOptions
    name: str
    witness: dict[str, list[Placement]] | None = None
    no_since: int | None = None
    reason: str = ""
    pool: Pool | None = None
    book: bool = True

    def step(self, k: int, move: GameMove | None, position: Position) -> JointStep:
        """The answer after ``move`` (placement ``k``, ``position`` after it): at once when
        a layout of the pool contains the move (how "pool", or "book" for the book's) or
        a book layout answers the position; else the pool's layouts and the carried
        layout are carried over the move (the nearest first) and :meth:`check` repairs
        them. A complete layout that does not contain the move is first repaired by
        :func:`solver.companion.tiers.reconnect` (:data:`RECONNECT_STARTS` of them).
        "done" when no colour has pieces left (:meth:`check`), whatever the pool holds."""
        started = time.perf_counter()
        if move is None or move.placement is None or not open_colours(position):
            return self.check(k, move, position, 0, started=started)
        colour, placed = move.colour, move.placement
        pool, self.pool = self.pool, None
        if pool is not None and self.no_since is None:
            after = pool.after(colour, placed, position)
            if len(after):
                return self._from_pool(k, move, position, after, started)
        if self.book and self.no_since is None and book_layouts(position, 1):
            return self.check(k, move, position, 0, started=started, starts=[])  # the book's
        completes: list[LayoutView] = list(pool.layouts) if pool is not None else []
        if self.witness is not None and _complete_before(self.witness, position):
            key = layout_key(self.witness)
            if not any(layout_key(layout) == key for layout in completes):
                completes.append(self.witness)
        tried: list[str] = []
        gone = 0
        if any(placed in layout.get(colour, ()) for layout in completes):
            completes = []  # the carried layout contains the move: kept below
        for layout in completes[:RECONNECT_STARTS]:
            found = reconnect(layout, colour, placed, position, RECONNECT_BUDGET)
            tried.append(f"reconnect: {'solved' if found else 'failed'}")
            if found is not None:
                gone = sum(p not in found.get(c, ()) for c, v in layout.items() for p in v)
                self.witness = {c: list(v) for c, v in found.items()}
                return self.check(k, move, position, gone, tried, started, "repaired")
        carried = list(pool.nearest(colour, placed, position)) if pool is not None else []
        if self.witness is not None:
            carried.append(carry(self.witness, colour, placed, position))
        carried += self._pair_starts(position)
        carried.sort(key=lambda t: squares_left(position, t[0]))
        starts = [layout for layout, _ in carried[:MAX_STARTS]]
        gone = carried[0][1] if carried else 0
        self.witness = {c: list(v) for c, v in starts[0].items()} if starts else None
        return self.check(k, move, position, gone, tried, started, starts=starts)

    def _pair_starts(self, position: Position) -> list[tuple[dict[str, list[Placement]], int]]:
        """In the opening (no colour has more than its first piece on the board), the pair
        book's layouts of neighbouring colours' first pieces laid over the position; none
        later, where they are far from it (:data:`PAIR_STARTS`)."""
        if not (self.book and PAIR_STARTS) or any(len(c.placed) > 1 for c in position.colours):
            return []
        return [laid_over(layout, position) for layout in pair_images(position)]

    def advance(self, colour: str, placed: Placement, position: Position) -> None:
        """Carry what is known over a move that is not answered (``position``: after it):
        the pool's layouts that contain the move, else the nearest carried layout as the
        carried layout (no search)."""
        pool, self.pool = self.pool, None
        if self.no_since is not None:
            return
        if pool is not None:
            after = pool.after(colour, placed, position)
            if len(after):
                self.pool = after
                self.witness = {c: list(v) for c, v in after.layouts[0].items()}
                return
        carried = pool.nearest(colour, placed, position) if pool is not None else []
        if self.witness is not None:
            carried.append(carry(self.witness, colour, placed, position))
        carried += self._pair_starts(position)
        carried.sort(key=lambda t: squares_left(position, t[0]))
        self.witness = carried[0][0] if carried else None

    def _from_pool(
        self, k: int, move: GameMove, position: Position, pool: Pool, started: float
    ) -> JointStep:
        """The answer from a layout of the pool that contains the move, checked again
        against the position after it."""
        found = checked(position, pool.layouts[0])
        if found is None:
            raise SolverBug(f"{self.name}: a layout of the pool is refused after placement {k}")
        self.pool, self.witness = pool, {c: list(v) for c, v in found.items()}
        how: How = "book" if pool.sources[0] == "book" else "pool"
        colours = open_colours(position)
        return JointStep(
            k,
            move,
            "yes",
            how,
            time.perf_counter() - started,
            colours,
            sum(len(position.colour(c).remaining) for c in colours),
            squares_of(position, colours),
            best_left=0,
            layout=found,
            grid=position.board.grid,
        )

    def check(
        self,
        k: int,
        move: GameMove | None,
        position: Position,
        gone: int,
        tried: list[str] | None = None,
        started: float | None = None,
        how_kept: How = "pool",
        starts: Sequence[LayoutView] | None = None,
    ) -> JointStep:
        """The joint answer in ``position`` (after placement ``k``, made by ``move``),
        from the carried layouts ``starts`` (legal partial layouts, the nearest first;
        default: the carried layout) (``gone``: pieces the carry lost; ``tried``: what was
        tried before, since ``started``; ``how_kept``: how a complete carried layout came
        about)."""
        started = time.perf_counter() if started is None else started
        tried = [] if tried is None else tried
        limit = self.options.time_limit
        deadline = started + (limit if limit is not None else 1e9)
        colours = open_colours(position)
        if starts is None:
            starts = [self.witness] if self.witness is not None else []

        def answer(
            a: StepAnswer,
            how: How,
            reason: str = "",
            layout: LayoutView | None = None,
            left: int | None = None,
            partial: LayoutView | None = None,
            fit: FitBound | None = None,
        ) -> JointStep:
            if layout is not None:
                self.witness = {c: list(p) for c, p in layout.items()}
                if self.pool is None:
                    self.pool = Pool(position)
                self.pool.add(layout, how, trusted=True)
            shown, short = shown_partial(position, partial)
            if a == "unknown":
                left = None if shown is None else squares_left(position, shown)
            return JointStep(
                k,
                move,
                a,
                how,
                time.perf_counter() - started,
                colours,
                sum(len(position.colour(c).remaining) for c in colours),
                squares_of(position, colours),
                reason,
                left,
                None if layout is None else {c: tuple(p) for c, p in layout.items()},
                gone,
                tuple(tried),
                shown,
                fit,
                short,
                position.board.grid,
            )

        def no(reason: str, how: How = "solved") -> JointStep:
            self.no_since, self.reason, self.witness, self.pool = k, reason, None, None
            return answer("no", how, reason)

        pool, self.pool = self.pool, None
        if not colours:
            self.witness = None
            return answer("done", "done", left=0)
        if self.no_since is not None:
            return answer(
                "no", "inferred", f"proven after placement {self.no_since}: {self.reason}"
            )
        short = area_shortfall(position, colours)  # milliseconds: before any search
        if short:
            return no(short)
        if pool is not None and len(pool) and pool.position == position:
            found = checked(position, pool.layouts[0])
            if found is None:
                raise SolverBug(f"{self.name}: a layout of the pool is refused after {k}")
            self.pool = pool
            return answer("yes", "book" if pool.sources[0] == "book" else "pool", layout=found)
        kept = starts[0] if starts else {}
        missing = sum(len(t) for t in missing_pieces(position, kept).values())
        if starts and missing == 0:
            found = checked(position, kept)
            if found is None:
                raise SolverBug(f"{self.name}: the carried layout no longer fits after {k}")
            return answer("yes", how_kept, layout=found, left=0)
        layouts = book_layouts(position) if self.book else []
        if layouts:
            found = checked(position, layouts[0])
            if found is None:
                raise SolverBug(f"{self.name}: a book layout is refused after placement {k}")
            self.pool = pool_of(position, layouts, "book", trusted=True)
            return answer("yes", "book", layout=found, left=0)
        if starts and missing <= EXACT_FREED:
            cap = min(EXACT_SHARE[1], EXACT_SHARE[0] * (limit or 5.0))
            status, found = exact_repair(position, kept, cap, self.options.seed + k)
            tried.append(f"exact {missing}: {status}")
            if found is not None:
                return answer("yes", "repaired", layout=found, left=0)
        pieces = sum(len(position.colour(c).remaining) for c in colours)
        alone_first = pieces <= ALONE_FIRST
        if len(colours) > 1 and alone_first:
            reason = self._alone(position, deadline, tried)
            if reason:
                return no(reason)
        if pieces <= FULL_FIRST:
            return self._full(answer, no, position, deadline, tried)
        share = REPAIR_SHARE * (limit if limit is not None else 30.0)
        found, partial, runs = repair_from(
            position, starts, started + share, self.options.seed + k, workers=self.options.workers
        )
        if found is not None:
            tried.append(f"repair: solved ({runs} runs)")
            return answer("yes", "repaired", layout=found, left=0)
        left = squares_left(position, partial)
        tried.append(f"repair: {left} left ({runs} runs)")
        self.witness = partial
        if len(colours) > 1 and not alone_first:
            reason = self._alone(position, deadline, tried)
            if reason:
                return no(reason)
        return self._full(answer, no, position, deadline, tried)

    def _alone(self, position: Position, deadline: float, tried: list[str]) -> str:
        """Each colour alone (:func:`solver.companion.tiers.alone_no`): the reason of a
        proven "no", or ""."""
        cap = min(ALONE_SHARE[1], ALONE_SHARE[0] * (self.options.time_limit or DEFAULT_TIME_LIMIT))
        reason, note = alone_no(position, self.options, cap, deadline, self.name)
        tried.append(note)
        return reason

    def _full(
        self,
        answer: Callable[..., JointStep],
        no: Callable[[str], JointStep],
        position: Position,
        deadline: float,
        tried: list[str],
    ) -> JointStep:
        """The last tier: the full solvers with what is left of the budget."""
        result, reason, found, solved = full_check(position, self.options, deadline, self.name)
        tried.append(f"full: {result}" if solved is not None else "full: not started")
        if result == "yes":
            return answer("yes", "solved", layout=found, left=0)
        if result == "no":
            return no(reason)
        colours = open_colours(position)
        best = self.witness or {}
        if solved is not None and solved.partial is not None:
            if squares_left(position, solved.partial) < squares_left(position, best):
                best = {c: list(solved.partial.get(c, ())) for c in colours}
        fit = solved.fit if solved is not None and solved.fit is not None else None
        fit = fit or area_fit(Problem(position, colours, "place-all"))
        self.witness = best
        return answer("unknown", "solved", reason, partial=best, fit=fit)

    def fresh(self) -> None:
        """Setup changed the board: nothing known carries over."""
        self.witness, self.no_since, self.reason, self.pool = None, None, "", None


def _complete_before(layout: LayoutView, position: Position) -> bool:
    """Whether ``layout`` places every piece left before the move that led to
    ``position`` (one piece more than ``position`` has left)."""
    total = sum(len(v) for v in layout.values())
    return total == sum(len(c.remaining) for c in position.colours) + 1


def follow(
    game: Game,
    options: SolveOptions = SolveOptions(time_limit=DEFAULT_TIME_LIMIT),
    upto: int | None = None,
    start: LayoutView | None = None,
) -> Iterator[JointStep]:
    """The joint answer after each placement as it comes (the start first), carrying the
    witness; earlier unknowns are not yet upgraded by later layouts (:func:`follow_game`
    does that).

    Args:
        game: the game record.
        options: ``time_limit`` is the budget of each check (seconds; None for none,
            then the repair search gets 30 s); ``backend`` the full solvers' backend.
        upto: stop after this many placements (default: the end of the game).
        start: a layout (maybe partial) from the start position to carry from the
            first check on (e.g. a verified layout of the empty board); ignored if the
            rule checker refuses it there.

    Raises:
        SolverBug: a witness the rule checker refuses where it must fit, or answers that
            contradict each other.
    """
    # without ``start`` the first check starts from greedy play: the library's
    # best-fitting layout (solver.library.layouts.best_start) measured no better (docs/warmstart.md)
    follower = Follower(options, game.path or "")
    if start is not None:
        follower.witness = legal_part(game.position(0), start)
    placements = [m for m in game.moves if m.placement is not None]
    end = game.num_placements if upto is None else upto
    for k in range(end + 1):
        move = placements[k - 1] if k else None
        position = game.position(k)
        if move is not None and move.placement is not None:
            played = game.position(k - 1).with_placement(move.colour, move.placement)
            if played.colours != position.colours:  # setup (AE, AB, ...) after the move
                follower.fresh()
        yield follower.step(k, move, position)


def follow_game(
    game: Game,
    options: SolveOptions = SolveOptions(time_limit=DEFAULT_TIME_LIMIT),
    progress: Callable[[int, int], None] | None = None,
    upto: int | None = None,
    start: LayoutView | None = None,
) -> Followed:
    """Review a game with the joint question (``review --together``): the answer after
    every placement, in the order that settles most with fewest solves.

    The whole game is known, so monotonicity (module docstring) works both ways: a "yes"
    after placement j answers every placement before it (the moves in between plus its
    layout, checked), a "no" after placement k every placement after it. So the last
    position is checked first: a "yes" there (always, for a game that places every
    piece) settles the game at the rule checker's cost. If it is "no", the first
    placement proven "no" is sought by bisection (an "unknown" sends the search later,
    where proofs come easier). Then, from the last "yes" known (or the start), the game is
    followed move by move, the witness carried, up to the first "no" (:func:`follow`'s
    tiers; a position the bisection checked is not checked again).

    Args:
        game, options, start: as for :func:`follow`.
        progress: called with (positions answered, positions in all) as answers come.
        upto: review only the placements up to this one (default: the whole game).

    Raises:
        SolverBug: as :func:`follow`, or a later layout that does not extend to an earlier
            position (a "yes" after a proven "no").
    """
    started = time.perf_counter()
    end = game.num_placements if upto is None else upto
    if _setup_in_play(game, end):  # setup can take pieces away: follow it plainly
        steps = []
        for step in follow(game, options, end, start):
            steps.append(step)
            if progress is not None:  # (the bar of review_progress counts the start too)
                progress(step.placement, end)
        return Followed(game, tuple(from_later(game, steps)), time.perf_counter() - started)
    review = _Bracket(game, options, end, progress)
    review.run(start)
    return Followed(game, tuple(review.finished()), time.perf_counter() - started)


def _setup_in_play(game: Game, end: int) -> bool:
    """Whether setup after a move changes the board within the first ``end`` placements."""
    return any(k <= end for k in game.setup_after)


class _Bracket:
    """The review order of :func:`follow_game` and what it has found."""

    def __init__(
        self,
        game: Game,
        options: SolveOptions,
        end: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        self.game, self.options, self.end, self.progress = game, options, end, progress
        self.moves: list[GameMove | None] = [None] + [
            m for m in game.moves if m.placement is not None
        ]
        self.steps: dict[int, JointStep] = {}
        self.yes = -1  # the last placement known "yes" (by a check)
        self.no = end + 1  # the first placement known "no"

    def check(self, k: int, witness: LayoutView | None, gone: int = 0) -> JointStep:
        follower = Follower(self.options, self.game.path or "")
        follower.witness = None if witness is None else {c: list(p) for c, p in witness.items()}
        step = follower.check(k, self.moves[k], self.game.position(k), gone)
        self.steps[k] = step
        if step.answer in ("yes", "done"):
            if k >= self.no:
                raise SolverBug(f"{self.game.path}: a layout after a proven no ({k})")
            self.yes = max(self.yes, k)
        elif step.answer == "no":
            if k <= self.yes:
                raise SolverBug(f"{self.game.path}: a proven no before a layout ({k})")
            self.no = min(self.no, k)
        if self.progress is not None:
            self.progress(len(self.steps), self.end)
        return step

    def carried(self, k: int) -> tuple[LayoutView | None, int]:
        """The last "yes" layout before ``k`` carried over the moves up to ``k``."""
        if self.yes < 0 or self.yes >= k:
            return None, 0
        witness: LayoutView | None = self.steps[self.yes].layout
        gone = 0
        for j in range(self.yes + 1, k + 1):
            move = self.moves[j]
            assert witness is not None and move is not None and move.placement is not None
            witness, lost = carry(witness, move.colour, move.placement, self.game.position(j))
            gone += lost
        return witness, gone

    def run(self, start: LayoutView | None) -> None:
        last = self.check(self.end, None)
        if last.answer in ("yes", "done"):
            return
        if start is not None:
            self.check(0, legal_part(self.game.position(0), start))
        lo, hi = self.yes, self.no  # bisection for the first "no" (if the end is one)
        while last.answer == "no" and hi - lo > 1:
            mid = (lo + hi) // 2
            answer = self.check(mid, *self.carried(mid)).answer
            if answer == "no":
                hi = mid
            else:  # yes, or unknown: seek the first "no" later (proofs come easier there)
                lo = mid
        # from the last "yes" (or the start), follow the game up to the first "no"
        follower = Follower(self.options, self.game.path or "")
        first = max(self.yes, 0)
        if first in self.steps and self.steps[first].layout is not None:
            follower.witness = {c: list(p) for c, p in (self.steps[first].layout or {}).items()}
        elif first not in self.steps:
            self._follow_one(follower, first)
        for k in range(first + 1, self.no):
            known = self.steps.get(k)
            if known is not None and known.answer == "unknown" and follower.witness:
                # checked cold in the bisection or at the end: again, with the layout
                # carried (it may answer "yes"; an unknown stays at worst unknown)
                self._follow_one(follower, k)
                continue
            if known is not None:  # settled in the bisection: carry the witness on
                move = self.moves[k]
                if known.layout is not None:
                    follower.witness = {c: list(p) for c, p in known.layout.items()}
                elif follower.witness is not None and move is not None and move.placement:
                    position = self.game.position(k)
                    follower.witness, _ = carry(
                        follower.witness, move.colour, move.placement, position
                    )
                continue
            self._follow_one(follower, k)

    def _follow_one(self, follower: Follower, k: int) -> None:
        step = follower.step(k, self.moves[k], self.game.position(k))
        old = self.steps.get(k)
        if old is not None:  # a second check of this position: both times count
            step = _again(old, step)
        self.steps[k] = step
        if step.answer in ("yes", "done"):
            self.yes = max(self.yes, k)
        elif step.answer == "no":
            self.no = min(self.no, k)
        if self.progress is not None:
            self.progress(len(self.steps), self.end)

    def finished(self) -> list[JointStep]:
        """Every placement's answer: checked, or inferred from a later "yes" or an earlier
        "no"."""
        out: list[JointStep] = []
        for k in range(self.end + 1):
            step = self.steps.get(k)
            if k >= self.no and (step is None or step.answer != "no"):
                proof = self.steps[self.no]
                reason = f"proven after placement {self.no}: {proof.reason}"
                step = self._blank(k, "no", reason)
            elif step is None:
                step = self._blank(k, "unknown", "not checked")
            out.append(step)
        return from_later(self.game, out)

    def _blank(self, k: int, answer: StepAnswer, reason: str) -> JointStep:
        position = self.game.position(k)
        colours = open_colours(position)
        return JointStep(
            k,
            self.moves[k],
            answer,
            "inferred",
            0.0,
            colours,
            sum(len(position.colour(c).remaining) for c in colours),
            squares_of(position, colours),
            reason,
            grid=position.board.grid,
        )


def _again(old: JointStep, new: JointStep) -> JointStep:
    """A position checked twice (cold, then with the layout carried): the new answer with
    the time and tiers of both; of two unknowns, the closer best partial layout."""
    new = replace(new, seconds=old.seconds + new.seconds, tried=old.tried + new.tried)
    if new.answer == "unknown" and old.answer == "unknown" and old.best_left is not None:
        if new.best_left is None or old.best_left < new.best_left:
            return replace(new, best_left=old.best_left, partial=old.partial, short=old.short)
    return new


def from_later(game: Game, steps: Sequence[JointStep]) -> list[JointStep]:
    """Unknowns settled by later layouts (how "inferred"): after placement k, the moves
    k+1..j and the layout after j, checked from placement k. A "yes" after a "no" raises
    SolverBug (not across setup in mid-game: there the answer is not carried)."""
    placements = [m for m in game.moves if m.placement is not None]
    out = list(steps)
    later: JointStep | None = None
    for k in range(len(steps) - 1, -1, -1):
        step = steps[k]
        if step.answer in ("yes", "done"):
            later = step
        elif step.answer == "no" and later is not None:
            if _extends(game, placements, k, later) is not None:
                raise SolverBug(f"{game.path}: a layout after a proven no at placement {k}")
        elif step.answer == "unknown" and later is not None:
            started = time.perf_counter()
            found = _extends(game, placements, k, later)
            if found is None:
                later = None  # setup in between, or a bug: do not infer
                continue
            seconds = step.seconds + time.perf_counter() - started
            out[k] = later = replace(
                step,
                answer="yes",
                how="inferred",
                layout=found,
                best_left=0,
                reason="",
                seconds=seconds,
            )
    return out


def _extends(
    game: Game, placements: Sequence[GameMove], k: int, later: JointStep
) -> dict[str, tuple[Placement, ...]] | None:
    """The moves after placement k up to ``later`` plus its layout, checked from k."""
    position = game.position(k)
    pieces: dict[str, list[Placement]] = {c: [] for c in open_colours(position)}
    for m in placements[k : later.placement]:
        if m.placement is not None and m.colour in pieces:
            pieces[m.colour].append(m.placement)
    for c, layout in (later.layout or {}).items():
        if c in pieces:
            pieces[c] += layout
    return checked(position, pieces)
