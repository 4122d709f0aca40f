"""What every backend shares: how to solve (:class:`SolveOptions`, :data:`DEFAULT_TIME_LIMIT`),
what a backend returns
(:class:`BackendResult`), a backend's entry in the registry (:class:`Backend`), and
ordering and scoring a layout with the independent rule checker.

A backend is a function ``solve(problem, options, cancel=None) -> BackendResult`` (see
:class:`BackendSolve`); ``cancel`` is anything with ``is_set()`` (:class:`Cancel`), set
from another thread to stop it early, as its time limit does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from solver.backends.tuning import Tuning
from solver.core.checker import CheckReport, check_layout
from solver.core.order import order_of_play
from solver.core.position import Layout
from solver.core.problem import Problem
from solver.errors import InputError, SolverBug

Status = Literal["solved", "optimal", "infeasible", "unknown"]

#: The default time limit, in seconds (a float), where a question is asked many times and
#: "no limit" would never end: each check of a review (one colour after one placement, all
#: its solves together: :func:`solver.tasks.review.review_game`, ``blokus-solo review``,
#: :func:`solver.api.review`), each joint question the companion follows
#: (:func:`solver.companion.follow.follow`, :class:`solver.companion.live.Companion`,
#: :func:`solver.api.follow`), and the share of it the companion gives each colour alone
#: when it has no limit of its own. One solve (``SolveOptions().time_limit``) has none.
DEFAULT_TIME_LIMIT = 10.0


class Cancel(Protocol):
    """A stop signal a backend polls (a :class:`threading.Event`, or several in one)."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class SolveOptions:
    """How to solve.

    Attributes:
        backend: a name of :data:`solver.backends.registry.BACKENDS` ("auto": chosen per
            problem).
        time_limit: seconds of wall time for the backend, or None for no limit.
        workers: threads: CP-SAT search workers, or copies of the exact search.
        seed: random seed (CP-SAT ``random_seed``; the exact search's child order).
        params: extra CP-SAT parameters in protobuf text format, e.g.
            ``"log_search_progress: true"``.
        tuning: the backends' tuning settings (:mod:`solver.backends.tuning`).
    """

    backend: str = "auto"
    time_limit: float | None = None
    workers: int = 2
    seed: int = 0
    params: str = ""
    tuning: Tuning = Tuning()


@dataclass(frozen=True)
class FitBound:
    """A proven bound on how much of a place-all question can be answered: at most
    ``most`` of the ``need`` squares the played colours have left fit at once.

    Attributes:
        most: the bound (may be fractional: the LP bound; under ``need`` is a proof of "no").
        need: squares the played colours have left.
        by: what proved it: "lp" (:func:`solver.backends.bounds.relaxation.lp_bound`) or "area" (the
            free squares of the board, a bound that needs no solver).
        cell: the board's word for a cell (``"square"``, ``"triangle"`` on Trigon).
    """

    most: float
    need: int
    by: str
    cell: str = "square"

    @property
    def text(self) -> str:
        """One line, e.g. "LP bound: at most 301.4 of the 300 squares fit"."""
        most = int(self.most * 10) / 10
        name = {"lp": "LP bound", "area": f"free {self.cell}s"}.get(self.by, self.by)
        return f"{name}: at most {most:g} of the {self.need} {self.cell}s fit"


@dataclass(frozen=True)
class BackendResult:
    """What a backend returns.

    Attributes:
        status: "solved" (a layout, goal met), "optimal" (max-score, proven best),
            "infeasible" (proven: no layout), "unknown" (stopped by the time limit).
        layout: colour -> placements it adds, in any order; None without a layout.
        bound: for max-score, a proven upper bound on the total score, if known.
        stats: backend counters (nodes, cuts, ...), for display.
        answered_by: the backend whose answer this is, when it differs from the one called
            ("auto" names "search", "cpsat", "symmetric", or several joined by "+").
        partial: with "unknown" for place-all, the placements of the best partial layout
            found (legal, each colour's pieces connected to its start; some pieces left),
            or None.
        fit: with "unknown" for place-all, the best proven bound on the squares that fit
            (:class:`FitBound`), or None.
    """

    status: Status
    layout: Layout | None = None
    bound: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    answered_by: str = ""
    partial: Layout | None = None
    fit: FitBound | None = None


class BackendSolve(Protocol):
    """A backend's solve function."""

    def __call__(
        self, problem: Problem, options: SolveOptions, cancel: Cancel | None = None, /
    ) -> BackendResult: ...


@dataclass(frozen=True)
class Backend:
    """An engine's record in the registry (:mod:`solver.backends.registry`): what it is
    called, where its front door is and what it can do.

    Attributes:
        name: what ``--backend`` and :attr:`SolveOptions.backend` call it.
        load: returns its solve function, importing its package on first use (so that
            importing the registry does not load OR-tools or numba).
        layouts_only: it only finds layouts: it answers "solved" or "unknown", never
            "infeasible" or "optimal" (:func:`solver.tasks.solve.solve` holds it to that).
        summary: one line for ``--help`` and the table of docs/engines.md.
        proves: the claims its own answer can prove: "no" (status infeasible), "best"
            (status optimal or a bound); empty for a backend that only finds layouts and
            for one that only hands the problem on (``auto`` names the engine that
            answered, and that name is what counts).
        precheck: None, or returns a function that raises InputError when the backend
            cannot take a problem at all (e.g. the domain search without a symmetry),
            imported on first use like ``load``; :meth:`check` runs it.
        endgames: ``check`` and ``review`` may run it: it answers their max-score solve
            after a "no" (the symmetric reduction and the domain search do not).
        kernel: the module of the compiled kernel it needs before its first answer (the
            first run compiles it: :mod:`solver.backends.warmup`), or None.
        choice: a ``--backend`` choice; False for an engine only ``auto`` runs.
        grids: the board grids it answers on (:data:`solver.core.board.GRIDS`): the
            square grid only, unless its tables are built from the board's geometry;
            :meth:`check` and :meth:`solve` refuse a board of another grid.
    """

    name: str
    load: Callable[[], BackendSolve]
    layouts_only: bool = False
    summary: str = ""
    proves: frozenset[str] = frozenset({"no", "best"})
    precheck: Callable[[], Callable[[Problem], None]] | None = None
    endgames: bool = True
    kernel: str | None = None
    choice: bool = True
    grids: frozenset[str] = frozenset({"square"})

    def check(self, problem: Problem) -> None:
        """Refuse, before any work or output, a problem the backend cannot take.

        Raises:
            InputError: a board of a grid it does not know (:attr:`grids`), or the
                backend's own refusal (the same it would raise when solving).
        """
        self.check_grid(problem)
        if self.precheck is not None:
            self.precheck()(problem)

    def solve(
        self, problem: Problem, options: SolveOptions, cancel: Cancel | None = None
    ) -> BackendResult:
        """Run the backend; its result, with ``answered_by`` filled in.

        Raises:
            InputError: a board of a grid it does not know (:attr:`grids`).
        """
        self.check_grid(problem)
        result = self.load()(problem, options, cancel)
        return result if result.answered_by else _named(result, self.name)

    def check_grid(self, problem: Problem) -> None:
        """Raises InputError for a board of a grid the backend does not know."""
        grid = problem.position.board.grid
        if grid not in self.grids:
            raise InputError(
                f"the {self.name} backend does not run on {grid} boards yet "
                "(docs/geometry.md#what-runs-on-trigon)"
            )


def _named(result: BackendResult, name: str) -> BackendResult:
    return replace(result, answered_by=name)


def decisive(problem: Problem, result: BackendResult) -> bool:
    """True when a result settles the problem: a layout or a proof for "place-all", a proven
    optimum (or a proof that nothing is legal) for "max-score"."""
    if problem.goal == "max-score":
        return result.status in ("optimal", "infeasible")
    return result.status in ("solved", "infeasible")


def order_and_check(problem: Problem, found: Layout, backend: str) -> tuple[Layout, CheckReport]:
    """A layout found by ``backend`` in a legal order of play (each colour's monomino last
    where it can be), and the rule checker's report on it.

    Raises:
        SolverBug: a colour's pieces are not connected to its start, the layout breaks a
            rule, or (goal "place-all") a piece is left, a monomino cannot be last, or a
            card goal (a square to cover, a colour to connect) is missed.
    """
    layout: Layout = {}
    for colour in problem.colours:
        ordered = order_of_play(problem.position, colour, found.get(colour, []), monomino_last=True)
        if ordered is None:
            raise SolverBug(f"{backend}: {colour}'s pieces are not connected to its start")
        layout[colour] = ordered
    report = check_layout(problem.position, layout, problem.cover, problem.connect)
    if not report.legal:
        raise SolverBug(f"{backend}: layout breaks a rule: {report.problem}")
    if report.unmet:
        raise SolverBug(f"{backend}: layout misses a goal: {report.unmet[0]}")
    if problem.goal == "place-all":
        for colour in problem.colours:
            r = report.report(colour)
            if not r.all_placed:
                raise SolverBug(f"{backend}: {colour} still has {', '.join(r.remaining)}")
            if problem.monomino_last and not r.monomino_last:
                raise SolverBug(f"{backend}: {colour} cannot place its monomino last")
    return layout, report


def order_and_check_partial(
    problem: Problem, found: Layout, backend: str
) -> tuple[Layout, CheckReport]:
    """A partial layout (some pieces left) in a legal order of play, and the rule checker's
    report on it: every piece legal and, per colour, connected to its start (or its
    pieces on the board) through the colour's pieces.

    Raises:
        SolverBug: a colour's pieces are not connected to its start, or the layout breaks
            a rule.
    """
    layout: Layout = {}
    for colour in problem.colours:
        ordered = order_of_play(problem.position, colour, found.get(colour, []))
        if ordered is None:
            raise SolverBug(f"{backend}: {colour}'s partial pieces are not connected")
        layout[colour] = ordered
    report = check_layout(problem.position, layout)
    if not report.legal:
        raise SolverBug(f"{backend}: partial layout breaks a rule: {report.problem}")
    return layout, report


def squares_left(problem: Problem, partial: Layout) -> int:
    """Squares the played colours still have to place once ``partial`` is added."""
    need = sum(problem.position.colour(c).remaining_squares for c in problem.colours)
    return need - sum(len(p.squares) for c in problem.colours for p in partial.get(c, []))


def best_partial(problem: Problem, results: list[BackendResult]) -> Layout | None:
    """Of the results' partial layouts, the one with the fewest squares left (or None)."""
    partials = [r.partial for r in results if r.partial is not None]
    return min(partials, key=lambda p: squares_left(problem, p), default=None)


def best_fit(results: list[BackendResult]) -> FitBound | None:
    """Of the results' bounds, the lowest (or None)."""
    fits = [r.fit for r in results if r.fit is not None]
    return min(fits, key=lambda f: f.most - f.need, default=None)


def total_score(problem: Problem, report: CheckReport) -> int:
    """Total official score of the problem's played colours in a checked layout."""
    return sum(report.report(c).score for c in problem.colours)


def layout_score(problem: Problem, found: Layout) -> int:
    """Total official score of the played colours once ``found`` is added, by the rule
    checker (so a layout is scored the same whichever backend found it).

    Raises:
        SolverBug: the layout breaks a rule.
    """
    _, report = order_and_check(problem, found, "layout_score")
    return total_score(problem, report)
