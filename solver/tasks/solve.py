"""Solving a problem with a backend, then ordering and checking what it found.

Data flows one way: problem -> backend (:mod:`solver.backends.registry`) -> layout as sets ->
legal order of play -> independent rule checker -> :class:`SolveResult`. A layout the
checker refuses is a bug in a backend and raises :class:`SolverBug`; it is never shown.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.backends.base import (
    BackendResult,
    FitBound,
    SolveOptions,
    Status,
    order_and_check,
    order_and_check_partial,
    total_score,
)
from solver.backends.cpsat import NOT_A_PROOF, params_can_prove
from solver.backends.registry import backend, every
from solver.backends.repair import closest
from solver.core.board import cell_word
from solver.core.checker import CheckReport
from solver.core.problem import Problem
from solver.errors import SolverBug

# The pictures are imported where a result is drawn (picture(), _repr_svg_ for Jupyter):
# the SVG writer loads xml.sax.saxutils, which imports urllib.request (about 40 ms), and
# solver.pictures.picture takes about 15 ms: every solve's start-up would pay them.

if TYPE_CHECKING:
    from solver.core.position import Layout, Position
    from solver.pictures.picture import PictureOptions

__all__ = ["SolveResult", "area_fit", "checked_result", "solve"]

#: the statuses that claim a proof
PROOFS = ("infeasible", "optimal")


@dataclass(frozen=True)
class SolveResult:
    """A checked answer.

    Attributes:
        problem: what was asked.
        status: as in :class:`BackendResult`.
        layout: colour -> placements it adds, in a legal order of play (None without one).
        report: the rule checker's report on the layout (None without one).
        bound: for max-score, a proven upper bound on the total score, if known.
        backend: the backend that answered, e.g. "search", or "search+cpsat" for a
            max-score answer that "auto" combined from both.
        wall_time: seconds, backend and checks included.
        stats: backend counters.
        partial: with "unknown" for place-all, the best partial layout found, in a legal
            order of play (checked as a partial: legal pieces, each colour connected to
            its start; some pieces left), or None.
        partial_report: the rule checker's report on ``partial`` (pieces left per colour).
        fit: with "unknown" for place-all, the best proven bound on the squares that fit
            (:class:`solver.backends.base.FitBound`), or None.
    """

    problem: Problem
    status: Status
    layout: Layout | None
    report: CheckReport | None
    bound: int | None
    backend: str
    wall_time: float
    stats: dict[str, Any]
    partial: Layout | None = None
    partial_report: CheckReport | None = None
    fit: FitBound | None = None

    def _repr_svg_(self) -> str:
        """The final board as SVG (the starting one without a layout), as
        :meth:`picture` draws it (:func:`solver.pictures.svg.board`), for Jupyter."""
        from solver.pictures.svg import board

        shown = self.picture()
        if shown is None:
            return board(self.problem.position)
        position, options = shown
        return board(position, **options)

    def picture(self) -> tuple[Position, PictureOptions] | None:
        """What the picture of this result shows (``solve --out``, ``batch``): the final
        board and the options of :func:`solver.pictures.picture.scene` that make the pieces already
        on the board paler than the added ones and star the squares to cover; None when
        there is no layout (nothing to draw)."""
        report, layout = self.report, self.layout
        if report is None:  # an unknown: its best partial layout, if any
            report, layout = self.partial_report, self.partial
        if report is None or report.final is None:
            return None
        from solver.pictures.picture import layout_pieces

        return report.final, {
            "new": layout_pieces(layout),
            "stars": self.problem.cover,
        }

    def short(self) -> dict[str, tuple[str, ...]]:
        """The colours the best partial layout leaves short: colour -> its pieces left
        (only colours with some left); empty without a partial layout."""
        if self.partial_report is None:
            return {}
        out = {}
        for colour in self.problem.colours:
            left = self.partial_report.report(colour).remaining
            if left:
                out[colour] = left
        return out

    @property
    def score(self) -> int | None:
        """Total official score of the played colours in the layout, or None."""
        if self.report is None:
            return None
        return total_score(self.problem, self.report)


def solve(problem: Problem, options: SolveOptions = SolveOptions()) -> SolveResult:
    """Solve a problem and check the answer.

    Raises:
        ValueError: ``options.backend`` names no backend.
        SolverBug: the backend's layout breaks a rule or misses the goal, its bound does
            not hold, or a backend that only finds layouts claims a proof.
    """
    started = time.perf_counter()
    raw = backend(options.backend).solve(problem, options)
    return checked_result(problem, _as_proof(raw, options.params), raw.answered_by, started)


def _as_proof(raw: BackendResult, params: str) -> BackendResult:
    """The answer as far as it can prove: with CP-SAT parameters that may change what a
    status means (:func:`solver.backends.cpsat.params.params_can_prove`), an "infeasible"
    is unknown, an "optimal" a layout not proven best, and no bound is kept (CP-SAT's
    bound holds only for the model as meant)."""
    if params_can_prove(params) or (raw.status not in PROOFS and raw.bound is None):
        return raw
    status: Status = raw.status
    if status == "infeasible":
        status = "unknown"
    elif status == "optimal":
        status = "solved"
    stats = {**raw.stats, "unknown_reason": NOT_A_PROOF, "not_a_proof": NOT_A_PROOF}
    stats.pop("reason", None)
    # every other field kept (a layout is checked like any other); every proof dropped
    return dataclasses.replace(raw, status=status, bound=None, stats=stats)


def checked_result(
    problem: Problem, raw: BackendResult, backend: str, started: float
) -> SolveResult:
    """A backend's answer with its layout put in a legal order of play and checked by the
    rule checker (``started``: the ``time.perf_counter()`` at which solving began).

    Raises:
        SolverBug: the layout breaks a rule, misses the goal or its claimed bound, or a
            backend that only finds layouts claims a proof.
    """
    _check_claim(raw, backend)
    layout, report = None, None
    if raw.layout is not None:
        layout, report = order_and_check(problem, raw.layout, backend)
        _check_bound(problem, raw, report, backend)
    partial, partial_report, fit = None, None, None
    if raw.status == "unknown" and problem.goal == "place-all":
        found = raw.partial if raw.partial is not None else _greedy_partial(problem)
        partial, partial_report = order_and_check_partial(problem, found, backend)
        fit = raw.fit or area_fit(problem)
    return SolveResult(
        problem,
        raw.status,
        layout,
        report,
        raw.bound,
        backend,
        time.perf_counter() - started,
        raw.stats,
        partial,
        partial_report,
        fit,
    )


#: seconds of greedy play for a partial layout when a backend gave none
GREEDY_PARTIAL = 0.2


def _greedy_partial(problem: Problem) -> Layout:
    """The best of a few greedy plays (:func:`solver.backends.repair.greedy.closest`), for an
    unknown whose backend kept no partial layout."""
    import numpy as np

    if not problem.position.board.square_grid:
        return _largest_first(problem, GREEDY_PARTIAL)
    rng = np.random.default_rng(0)
    return closest(problem.position, problem.colours, rng, seconds=GREEDY_PARTIAL)


def _largest_first(problem: Problem, seconds: float) -> Layout:
    """One greedy play on any grid (the repair search's greedy knows squares only): the
    colours in turn, each placing a legal move of its largest piece that has one, until no
    colour can move or ``seconds`` have passed."""
    from solver.core.placements import legal_moves

    deadline = time.perf_counter() + seconds
    position = problem.position
    layout: Layout = {c: [] for c in problem.colours}
    moving = list(problem.colours)
    while moving and time.perf_counter() < deadline:
        for colour in list(moving):
            moves = legal_moves(position, colour)
            if not moves:
                moving.remove(colour)
                continue
            move = max(moves, key=lambda p: len(p.squares))
            position = position.with_placement(colour, move)
            layout[colour].append(move)
    return layout


def area_fit(problem: Problem) -> FitBound:
    """The bound that needs no solver: the played colours cover at most the free squares
    (squares: ``min(need, free)`` of the ``need`` their pieces left hold; source "area")."""
    position = problem.position
    need = sum(position.colour(c).remaining_squares for c in problem.colours)
    free = position.board.size - len(position.board.blocked) - len(position.occupied)
    return FitBound(min(need, free), need, "area", cell_word(position.board.grid))


def _check_claim(raw: BackendResult, name: str) -> None:
    """Backends that only find layouts never say "no" (nor "optimal") on their own."""
    names = name.split("+")
    known = every()
    if raw.status in ("infeasible", "optimal") and all(
        n in known and known[n].layouts_only for n in names
    ):
        raise SolverBug(f"{name}: answered {raw.status!r}, but it only finds layouts")


def _check_bound(problem: Problem, raw: BackendResult, report: CheckReport, backend: str) -> None:
    """A claimed upper bound must hold for the checked layout, and equal it when optimal."""
    if raw.bound is None:
        return
    total = total_score(problem, report)
    if total > raw.bound or (raw.status == "optimal" and total != raw.bound):
        raise SolverBug(
            f"{backend}: {raw.status} with bound {raw.bound}, but the rules score "
            f"the layout {total}"
        )
