"""The LP bound as a backend for "auto" (:mod:`solver.backends.bounds.relaxation`): it answers
"infeasible" when the linear relaxation of place-all proves that no layout exists, else "unknown";
it never finds a layout. Not a ``--backend`` choice: "auto" runs it beside the others."""

from __future__ import annotations

from solver.backends.base import BackendResult, Cancel, FitBound, SolveOptions
from solver.core.problem import Problem


def solve(
    problem: Problem, options: SolveOptions = SolveOptions(), cancel: Cancel | None = None
) -> BackendResult:
    """Place-all (any card goals and monomino-last only add to what the relaxation asks,
    so a "no" for place-all is a "no" for them too) by the LP bound, within its default
    size cap (:data:`solver.backends.bounds.relaxation.MAX_VARIABLES`) and ``options.time_limit``.

    Returns:
        "infeasible" with stats ``lp_most`` (the bound), ``need`` (squares to place),
        ``reason`` and ``seconds``; "unknown" when the bound proves nothing (then with the
        bound as ``fit``), the model is over the cap, the time ran out, the goal is
        max-score, or ``cancel`` was set.
    """
    from solver.backends.bounds.relaxation import lp_bound

    if problem.goal != "place-all" or (cancel is not None and cancel.is_set()):
        return BackendResult("unknown")
    bound = lp_bound(problem.position, problem.colours, time_limit=options.time_limit)
    if bound is None:
        return BackendResult("unknown")
    fit = FitBound(bound.most, bound.need, "lp")
    if not bound.proves_no:
        return BackendResult("unknown", fit=fit)
    stats = {
        "lp_most": round(bound.most, 3),
        "need": bound.need,
        "reason": bound.reason,
        "seconds": round(bound.seconds, 3),
    }
    return BackendResult("infeasible", None, None, stats, "lp", fit=fit)
