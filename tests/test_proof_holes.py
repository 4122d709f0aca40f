"""Holes in what counts as a proof (issue 23, round 2 of review): CP-SAT parameters that
change what a status means, and which engine proves which claim (solver/trust.py)."""

from __future__ import annotations

import helpers
import pytest

from solver.backends.sat_params import NOT_A_PROOF, params_can_prove
from solver.formats.puzzle import load_puzzle
from solver.solve import SolveOptions, solve
from solver.trust import can_prove, untrusted_claim

PUZZLES = helpers.PUZZLES

# --- CP-SAT parameters (item 1) ----------------------------------------------------------


def test_a_hinted_value_fixed_gives_no_false_no():
    """fix_variables_to_their_hinted_value turns the re-solve's hint (the last solution,
    just cut off) into constraints: CP-SAT says INFEASIBLE for a puzzle with 458 layouts.
    The answer must not be a no."""
    problem = load_puzzle(PUZZLES / "two-colours-7x7.toml")
    params = "fix_variables_to_their_hinted_value: true"
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status in ("solved", "unknown")
    if result.status == "unknown":
        assert result.stats["unknown_reason"] == NOT_A_PROOF


@pytest.mark.parametrize(
    "params, proof",
    [
        ("", True),
        ("num_workers: 1 random_seed: 7 log_search_progress: false", True),
        ("linearization_level: 2 root_lp_iterations: 200000", True),  # PROOF_PARAMS
        ("stop_after_first_solution: true", False),
        ("stop_after_presolve: true", False),
        ("enumerate_all_solutions: true", False),
        ("fix_variables_to_their_hinted_value: true num_workers: 1", False),
    ],
)
def test_only_harmless_params_leave_a_no_a_proof(params, proof):
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status == ("infeasible" if proof else "unknown"), result.stats
    assert params_can_prove(params) is proof


def test_a_proven_best_with_params_is_a_layout_not_proven_best():
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    problem = type(problem)(problem.position, problem.colours, "max-score", False)
    plain = solve(problem, SolveOptions(backend="cpsat", workers=1))
    assert plain.status == "optimal" and plain.bound is not None
    params = "stop_after_first_solution: true"
    result = solve(problem, SolveOptions(backend="cpsat", workers=1, params=params))
    assert result.status == "solved" and result.bound is None
    assert result.stats["not_a_proof"] == NOT_A_PROOF


def test_the_command_line_says_why_a_no_is_not_taken():
    out = helpers.run_cli(
        "solve", PUZZLES / "tiny-4x4-impossible.toml", "--backend", "cpsat", "--workers", 1,
        "--params", "stop_after_first_solution: true", "--plain",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "status: unknown" in out.output and NOT_A_PROOF in out.output


def _row(**changes):
    row = {
        "kind": "puzzle", "status": "done", "answer": "no", "solve_status": "infeasible",
        "backend": "cpsat", "answered_by": "cpsat", "goal": "place-all", "params": "",
    }  # fmt: skip
    return {**row, **changes}


@pytest.mark.parametrize(
    "params, trusted",
    [
        ("", True),
        (None, True),
        ("random_seed: 3 num_workers: 2", True),
        ("fix_variables_to_their_hinted_value: true", False),
        ("stop_after_first_solution:true", False),
        ("not a parameter: 1", False),
        (5, False),
    ],
)
def test_a_row_with_params_is_a_proof_only_with_harmless_ones(params, trusted):
    why = untrusted_claim(_row(params=params))
    assert (why is None) is trusted, why


# --- which engine proves which claim (item 7) --------------------------------------------


def test_lp_proves_no_only_and_auto_proves_nothing_itself():
    assert can_prove("lp") and can_prove("search") and can_prove("cpsat")
    assert not can_prove("lp", claim="best")
    assert can_prove("search", claim="best") and can_prove("search+cpsat", claim="best")
    assert not can_prove("auto") and not can_prove("auto", claim="best")
    assert can_prove("area bound") and not can_prove("area bound", claim="best")
    best = {"solve_status": "optimal", "answer": "solved", "goal": "max-score"}
    assert untrusted_claim(_row(**best, answered_by="search")) is None
    assert "cannot prove best" in str(untrusted_claim(_row(**best, answered_by="lp")))
    assert "cannot prove" in str(untrusted_claim(_row(**best, backend="auto", answered_by="auto")))
    assert untrusted_claim(_row(backend="auto", answered_by="lp")) is None
    game = {"kind": "game", "backend": "search", "colours": [
        {"colour": "blue", "answer": "yes", "best_status": "optimal", "backend": "search, then lp"}
    ]}  # fmt: skip
    assert "cannot prove" in str(untrusted_claim(game))
