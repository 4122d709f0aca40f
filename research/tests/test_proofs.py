"""DRAT certificates of "no layout" (research/proofs.py): CaDiCaL's proofs of small packings
re-checked by dratify, an independent DRAT checker; a cut proof is refused; every
refuted packing is also infeasible by the exact search (which adds connectivity)."""

from __future__ import annotations

import pytest

pytest.importorskip("pysat")
dratify = pytest.importorskip("dratify")

from research.proofs import certify  # noqa: E402
from research.records import corner_problem  # noqa: E402
from solver.backends.search import exact as search  # noqa: E402
from solver.core.pieces import PIECE_NAMES  # noqa: E402


def check(certificate, proof):
    text = f"p cnf {certificate.n_vars} {len(certificate.clauses)}\n" + "".join(
        " ".join(map(str, clause)) + " 0\n" for clause in certificate.clauses
    )
    return dratify.check_proof(dratify.parse_dimacs(text), "\n".join(proof) + "\n", engine="python")


UNSAT = [
    (4, 5, ("I3", "V3", "Z4", "X")),
    (5, 5, ("1", "V3", "L4", "P", "W")),
    (4, 5, ("1", "T4", "O", "V5")),
]


@pytest.mark.parametrize("rows,cols,pieces", UNSAT)
def test_proofs_are_checked_independently(rows, cols, pieces):
    certificate = certify(rows, cols, pieces)
    assert certificate.satisfiable is False
    result = check(certificate, certificate.proof)
    assert result.ok and result.reached_empty
    assert not check(certificate, certificate.proof[: len(certificate.proof) // 2]).ok
    others = tuple(n for n in PIECE_NAMES if n not in pieces)
    assert search.solve(corner_problem(rows, cols, without=others)).status == "infeasible"


def test_satisfiable_packing_has_no_proof():
    """4x4 with 1, 2, V3 and O: the packing fits (the search's "no" comes from the start
    square and connectivity), so there is nothing to certify."""
    certificate = certify(4, 4, ("1", "2", "V3", "O"))
    assert certificate.satisfiable is True and certificate.proof == []
