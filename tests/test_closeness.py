"""An unknown says how close it came: the best partial layout (checked as a partial by
the rule checker) and the best bound proved, in the result, the output, the solution
file (which ``verify`` re-checks) and batch rows."""

import json

from helpers import PUZZLES, run_cli

from solver.answers.solution import read_solution, verify, write_json
from solver.backends.base import FitBound, SolveOptions
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

IMPOSSIBLE = PUZZLES / "tiny-4x4-impossible.toml"


def _unknown():
    """The repair search on a 4x4 puzzle with no layout: it can only find layouts, so it
    runs out of time (a small hard case for a method that only finds layouts)."""
    problem = load_puzzle(IMPOSSIBLE)
    return solve(problem, SolveOptions(backend="repair", time_limit=0.5, workers=1))


def test_an_unknown_carries_a_checked_partial_layout_and_a_bound():
    result = _unknown()
    assert result.status == "unknown" and result.layout is None
    assert result.partial is not None and result.partial_report is not None
    position = result.problem.position
    added = result.partial["blue"]
    assert 1 <= len(added) < 4  # some pieces placed, not all (no layout exists)
    # the independent checker accepts it as a partial layout: legal and connected
    assert order_of_play(position, "blue", added) is not None
    report = check_layout(position, result.partial)
    assert report.legal
    left = report.report("blue").remaining
    assert left and result.short() == {"blue": left}
    # the bound: here the free squares (the repair search proves nothing)
    assert result.fit == FitBound(10, 10, "area")  # 1 + 2 + 3 + 4 squares, 16 free
    assert result.picture() is not None  # --out draws the partial layout


def test_the_partial_layout_round_trips_through_the_solution_file(tmp_path):
    result = _unknown()
    path = tmp_path / "unknown.json"
    write_json(result, path)
    data = json.loads(path.read_text())
    assert data["fit"] == {"most": 10, "need": 10, "by": "area"}
    assert data["partial"]["short"] == ["blue"]
    loaded = read_solution(path)
    assert loaded.partial == {"blue": list(result.partial["blue"])}
    report, mismatches = verify(loaded)
    assert report.legal and mismatches == []
    # a claim the checker contradicts is caught
    data["partial"]["remaining"]["blue"] = []  # it leaves some
    path.write_text(json.dumps(data))
    _, mismatches = verify(read_solution(path))
    assert any("leaves" in m for m in mismatches)


def _written(path):
    """An unknown written to ``path``; its JSON."""
    write_json(_unknown(), path)
    return json.loads(path.read_text())


def test_verify_refuses_a_partial_layout_that_is_not_connected(tmp_path):
    path = tmp_path / "unknown.json"
    data = _written(path)
    data["partial"]["placements"]["blue"] = [{"piece": "1", "squares": ["d1"]}]  # an island
    path.write_text(json.dumps(data))
    _, mismatches = verify(read_solution(path))
    assert any("not connected" in m for m in mismatches)


def test_an_old_solution_file_without_partial_still_reads(tmp_path):
    path = tmp_path / "old.json"
    data = _written(path)
    del data["partial"], data["fit"]
    path.write_text(json.dumps(data))
    loaded = read_solution(path)
    assert loaded.partial is None
    assert verify(loaded)[1] == []


def test_solve_prints_and_writes_how_close_an_unknown_came(tmp_path):
    out = tmp_path / "u.json"
    result = run_cli(
        "solve", IMPOSSIBLE, "--backend", "repair", "--time-limit", "0.5", "--out", out, "--plain"
    )
    assert result.exit_code == 0, result.output
    assert "best partial layout:" in result.output and "short: blue" in result.output
    assert "best bound proved: free squares: at most 10 of the 10 squares fit" in result.output
    checked = run_cli("verify", out)
    assert checked.exit_code == 0, checked.output
    assert "checked as a partial layout" in checked.output


def test_the_lp_bound_is_kept_when_it_proves_nothing():
    from solver.backends.bounds import lp

    problem = load_puzzle(PUZZLES / "tiny-5x5-four.toml")
    raw = lp.solve(problem, SolveOptions())
    assert raw.status == "unknown" and raw.fit is not None and raw.fit.by == "lp"
    assert raw.fit.need == sum(
        problem.position.colour(c).remaining_squares for c in problem.colours
    )
    assert raw.fit.most >= raw.fit.need - 1e-3  # a bound that does not prove "no"
