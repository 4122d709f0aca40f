"""Which answers read back from disk may stand as proofs.

A "no" (status ``infeasible``) and a proven best (status ``optimal``) are claims that only
a complete backend makes: :func:`solver.tasks.solve.solve` refuses them from a backend that only
finds layouts. A results row (``batch``, read back by a resumed batch and by ``cubes
join``) or a solution file is only text, and anyone can edit it; so an answer read back
counts as a proof only if

* the backend the run was asked for can prove (a run with ``--backend repair`` never
  proves anything, whatever its row says answered),
* every backend it names as having answered is a known one, and one of them can prove
  (the rule :func:`solver.tasks.solve.solve` applies to a fresh answer), and
* its answer and its status agree (a "no" is an ``infeasible`` solve), and
* its CP-SAT parameters (``params``) are none or only harmless ones
  (:func:`solver.backends.cpsat.params.params_can_prove`).

The callers check the rest: that the row is for the content now on disk (its SHA-256).
A claim that fails is unknown: ``batch`` does the item again, ``cubes join`` counts the
cube unknown. A "yes" needs none of this: its layout is re-checked by the rule checker.
"""

from __future__ import annotations

from solver.backends.cpsat import NOT_A_PROOF, params_can_prove
from solver.backends.registry import every
from solver.trust.rows import ColourRecord, Row

#: the statuses that claim a proof
PROOF_STATUSES = frozenset({"infeasible", "optimal"})

#: names an endgame record may give besides the backends': "area bound" (a proof by area,
#: :func:`solver.tasks.endgame.area_shortfall`), "none" (nothing was solved), "greedy" (auto's
#: first greedy plays, layouts only)
_AREA = "area bound"
_NOT_BACKENDS = frozenset({"none", "greedy"})


def provers(claim: str = "no") -> frozenset[str]:
    """The backends whose own answer can prove ``claim``: "no" (status infeasible) or
    "best" (status optimal, a bound). The LP bound proves "no" only; ``auto`` proves
    nothing itself, it names the engine that answered
    (:attr:`solver.backends.base.Backend.proves`)."""
    return frozenset(name for name, b in every().items() if claim in b.proves)


def _known() -> frozenset[str]:
    return frozenset(every()) | _NOT_BACKENDS | {_AREA}


def can_prove(answered_by: object, separator: str = "+", claim: str = "no") -> bool:
    """True if ``answered_by`` (backend names joined by ``separator`` and "+", as
    :attr:`solver.backends.base.BackendResult.answered_by` gives them) names only known
    backends, one of which can prove ``claim`` ("no" or "best", see :func:`provers`; the
    area bound of an endgame record proves "no" only)."""
    if not isinstance(answered_by, str) or not answered_by:
        return False
    names = [n.strip() for part in answered_by.split(separator) for n in part.split("+")]
    area = claim == "no" and _AREA in names
    return set(names) <= _known() and (area or any(n in provers(claim) for n in names))


def asked_can_prove(backend: object) -> bool:
    """True if a run asked for ``backend`` (the ``--backend`` setting) can prove anything
    (``auto`` can: through the engines it runs)."""
    known = every()
    return isinstance(backend, str) and backend in known and not known[backend].layouts_only


def untrusted_claim(row: Row) -> str | None:
    """Why a done results row's claim of a proof cannot be trusted (see the module
    docstring), or None when it claims none or its claims hold up. A puzzle row claims a
    proof by status infeasible or optimal, or by the answer "no"; a game row by each
    colour record's "no" or proven best (and a joint record's "no")."""
    if row.get("kind") != "game":
        return _puzzle_claim(row)
    for record in row.get("colours") or []:
        why = _record_untrusted(row, record)
        if why is not None:
            return why
    return None


def _record_untrusted(row: Row, record: ColourRecord) -> str | None:
    """Why a game row's colour record's claim of a proof cannot be trusted, or None."""
    claims = record.get("answer") == "no" or record.get("best_status") == "optimal"
    return (_asked(row) if claims else None) or _record_claim(record)


def as_trusted(row: Row) -> Row:
    """The row as a report shows it: a claim of a proof that cannot be trusted
    (:func:`untrusted_claim`) becomes unknown (a "no"; a proven best: a layout, not proven
    best), with the reason under ``not_trusted``; a row that holds up, unchanged."""
    why = untrusted_claim(row)
    if why is None:
        return row
    game = row.get("kind") == "game"
    colours = [
        _record_as_trusted(c) if not game or _record_untrusted(row, c) else c
        for c in row.get("colours") or []
    ]
    out = row.copy()
    out["colours"] = colours
    out["not_trusted"] = why
    if not game:
        status = row.get("solve_status")
        if isinstance(status, str):
            out["solve_status"] = {"infeasible": "unknown", "optimal": "solved"}.get(status, status)
        out["answer"] = "unknown" if row.get("answer") == "no" else row.get("answer")
    return out


def _record_as_trusted(record: ColourRecord) -> ColourRecord:
    out = record.copy()
    if record.get("answer") == "no":
        out["answer"] = "unknown"
    if record.get("best_status") == "optimal":
        out["best_status"] = "solved"
    return out


def _asked(row: Row) -> str | None:
    """Why the run's settings (its ``backend``, its CP-SAT ``params``) rule out a proof."""
    backend = row.get("backend")
    if not asked_can_prove(backend):
        return f"asked for backend {str(backend)[:40]!r}, which cannot prove"
    if not params_can_prove(row.get("params")):
        return f"{NOT_A_PROOF} ({str(row.get('params'))[:60]!r})"
    return None


def _puzzle_claim(row: Row) -> str | None:
    status, answer = row.get("solve_status"), row.get("answer")
    if status not in PROOF_STATUSES and answer != "no":
        return None
    if answer == "no" and status != "infeasible":
        return f"answer no but status {str(status)[:20]!r}"
    if status == "infeasible" and answer != "no":
        return f"status infeasible but answer {str(answer)[:20]!r}"
    by = row.get("answered_by")
    claim = "best" if status == "optimal" else "no"
    if not can_prove(by, claim=claim):
        return _asked(row) or f"answered by {str(by)[:40]!r}, which cannot prove {claim}"
    return _asked(row)


def _record_claim(record: ColourRecord) -> str | None:
    """A game row's colour record (:func:`solver.tasks.endgame.answer_record`, or the joint
    record of ``batch --together``, whose backends are joined by ", ")."""
    by = record.get("backend")
    if "colours" in record:  # the joint answer
        if record.get("answer") == "no" and not can_prove(by, ", "):
            return f"joint no by {str(by)[:40]!r}, which cannot prove"
        return None
    parts = str(by).split(", then ") if isinstance(by, str) else [""]
    if record.get("answer") == "no":
        if record.get("place_all_status") != "infeasible":
            return f"{record.get('colour')}: answer no but place-all status is not infeasible"
        if not can_prove(parts[0], claim="no"):
            return f"{record.get('colour')}: no by {parts[0][:40]!r}, which cannot prove"
    if record.get("best_status") == "optimal" and not can_prove(parts[-1], claim="best"):
        return f"{record.get('colour')}: best proven by {parts[-1][:40]!r}, which cannot prove"
    return None
