"""Certificates of "no layout": a SAT encoding of a colour's packing, solved with a proof.

Where a board cannot hold a colour's pieces even without the connectivity rule, the
packing alone is unsatisfiable, and a SAT solver can emit a DRAT (here DRUP) proof that any
independent checker re-checks clause by clause. The encoding (one colour, pieces from
``pieces``, start square covered):

* one variable per placement on the empty board;
* each piece exactly once (at least one; at most one by a sequential counter);
* for each grid edge (s, t) between two board squares: at most one placement covering s or
  t, placements covering both counted once (this is the colour's no-shared-edge rule, and
  it implies no overlap on s and t);
* the start square is covered.

It drops connectivity, so "unsatisfiable" is a proof that no layout exists; "satisfiable"
says nothing. Solver: PySAT's CaDiCaL 1.5.3 (``with_proof=True``); checker: dratify (a
DRAT checker on PyPI, independent of the solver), in ``research/tests/test_proofs.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.core.board import Board
from solver.core.pieces import PIECES
from solver.core.placements import empty_board_placements


@dataclass(frozen=True)
class Certificate:
    """A SAT encoding and what the solver said.

    Attributes:
        clauses: the CNF, DIMACS-style lists of non-zero ints.
        n_vars: variables in use (auxiliary ones included).
        satisfiable: the solver's answer (None: budget ran out).
        proof: DRUP lines (``"1 -2 0"``, ``"d 3 0"``) when unsatisfiable, else empty.
    """

    clauses: list[list[int]]
    n_vars: int
    satisfiable: bool | None
    proof: list[str]


def packing_cnf(
    rows: int, cols: int, pieces: tuple[str, ...], start: int
) -> tuple[list[list[int]], int]:
    """The CNF of one colour's packing (module docstring): (clauses, number of variables).
    Variable k + 1 is placement k of :func:`solver.core.placements.empty_board_placements`
    restricted to ``pieces``."""
    from pysat.card import CardEnc, EncType

    table = empty_board_placements(rows, cols)
    wanted = np.isin(table.piece, [PIECES[n].index for n in pieces])
    squares = table.squares[wanted]
    piece = table.piece[wanted]
    n = len(piece)
    top = n
    clauses: list[list[int]] = []
    covering: list[set[int]] = [set() for _ in range(rows * cols)]
    for k, sq in enumerate(squares):
        for s in sq[sq >= 0]:
            covering[int(s)].add(k + 1)

    def at_most_one(lits: list[int]) -> None:
        nonlocal top
        if len(lits) < 2:
            return
        enc = CardEnc.atmost(lits=lits, bound=1, top_id=top, encoding=EncType.seqcounter)
        clauses.extend(enc.clauses)
        top = max(top, enc.nv)

    for name in pieces:
        lits = [k + 1 for k in range(n) if piece[k] == PIECES[name].index]
        clauses.append(lits)
        at_most_one(lits)
    board = Board(rows, cols)
    for s in range(rows * cols):
        for t in board.edge_neighbours[s]:
            if t > s:
                at_most_one(sorted(covering[s] | covering[t]))
    clauses.append(sorted(covering[start]))
    return clauses, top


def certify(
    rows: int, cols: int, pieces: tuple[str, ...], start: int = 0, conflicts: int = -1
) -> Certificate:
    """Solve :func:`packing_cnf` with CaDiCaL and return its DRUP proof if unsatisfiable.
    ``conflicts``: a conflict budget (-1: none); out of budget, ``satisfiable`` is None."""
    from pysat.solvers import Cadical153

    clauses, n_vars = packing_cnf(rows, cols, pieces, start)
    with Cadical153(bootstrap_with=clauses, with_proof=True) as solver:
        if conflicts >= 0:
            solver.conf_budget(conflicts)
            answer = solver.solve_limited()
        else:
            answer = solver.solve()
        proof = list(solver.get_proof() or []) if answer is False else []
    return Certificate(clauses, n_vars, answer, proof)
