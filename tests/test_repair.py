"""The repair backend (greedy play, then exact repairs), the joint check and the
first-run kernel warm-up. Every layout goes through the rule checker in solve()."""

from __future__ import annotations

import threading

import helpers
import numpy as np
import pytest

from solver.backends import auto, warmup
from solver.backends.base import SolveOptions
from solver.backends.repair import greedy
from solver.backends.repair import repairer as repair
from solver.backends.tuning import AutoTuning, Tuning
from solver.core.order import connected_part
from solver.core.pieces import PIECES
from solver.core.position import Placement
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.tasks.endgame import joint_check
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


def test_greedy_layout_is_legal_and_connected():
    problem = load_puzzle(PUZZLES / "classic-solo-84.toml")
    todo = {c: list(problem.position.colour(c).remaining) for c in problem.colours}
    placed, left = greedy.greedy(problem.position, problem.colours, todo, np.random.default_rng(1))
    for c in problem.colours:
        assert sorted(p.piece for p in placed[c]) + left[c] != []
        assert len(placed[c]) + len(left[c]) == 21
    # the rule checker (through layout_score's order of play) accepts the partial layout
    from solver.core.checker import check_layout
    from solver.core.order import order_of_play

    ordered = {c: order_of_play(problem.position, c, placed[c]) for c in problem.colours}
    assert all(v is not None for v in ordered.values())
    assert check_layout(problem.position, ordered).legal
    placed_squares = sum(PIECES[p.piece].size for c in placed for p in placed[c])
    assert placed_squares > 250  # most of the 356 squares


@pytest.mark.parametrize("name", ["classic-solo-blue", "asym-ladder-k03", "two-colours-7x7"])
def test_repair_finds_checked_layouts(name):
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    result = solve(problem, SolveOptions(backend="repair", time_limit=60, workers=1))
    assert result.status == "solved" and result.backend == "repair"


def test_repair_never_says_no():
    problem = load_puzzle(PUZZLES / "two-colours-7x7-crowded.toml")
    result = solve(problem, SolveOptions(backend="repair", time_limit=1, workers=1))
    assert result.status == "unknown" and result.layout is None


def test_destroy_takes_whole_corner_subtrees():
    """Pieces cut off from the start by a removal go too: what is kept stays connected."""
    problem = load_puzzle(PUZZLES / "asym-ladder-k18.toml")
    run = repair.Repairer(problem, 0, threading.Event(), None)
    state = run.construct()
    for _ in range(20):
        kept, gone, _ = run.destroy(state)
        for c in problem.colours:
            assert set(connected_part(problem.position, c, kept[c])) == set(kept[c])
            assert sorted(gone[c]) == sorted(
                p.piece for p in state.placed[c] if p not in set(kept[c])
            )


def test_closure_drops_islands():
    """Once a colour loses a piece, every piece of it that no longer reaches its start by
    corner contact comes off too: an island with the piece taken off."""
    problem = load_puzzle(PUZZLES / "classic-solo-blue.toml")
    board = problem.position.board
    first = Placement("2", frozenset({board.parse("a20"), board.parse("b20")}))
    touching = Placement("1", frozenset({board.parse("c19")}))
    island = Placement("1", frozenset({board.parse("j10")}))
    flat = [("blue", island), ("blue", touching), ("blue", first)]
    contacts = repair.ContactGraph(problem.position, flat)
    assert contacts.closure(0b010) == 0b011  # the touching piece, and the island
    assert contacts.closure(0b100) == 0b111  # without the first piece nothing connects


def test_match_gives_distinct_squares():
    assert greedy.match_monominoes({"a": {1, 2}, "b": {1}}) == {"a": 2, "b": 1}
    assert len(greedy.match_monominoes({"a": {1}, "b": {1}})) == 1


def test_joint_check_no_from_one_colour_alone():
    problem = parse_puzzle(
        'variant = "custom"\nsize = [4, 4]\ncolours = ["blue", "yellow"]\n'
        '[start]\nblue = "a4"\nyellow = "d1"\n'
        '[pieces]\nblue = ["1", "2", "V3", "O"]\nyellow = ["1"]\n',
        "two.toml",
    )
    answer = joint_check(problem.position, problem.colours, SolveOptions(backend="search"))
    assert answer.answer == "no" and answer.together is None
    assert answer.reason.startswith("blue alone")


def test_joint_check_yes_and_no_together():
    ok = load_puzzle(PUZZLES / "two-colours-7x7.toml")
    answer = joint_check(ok.position, ok.colours, SolveOptions(backend="search"))
    assert answer.answer == "yes"
    crowded = load_puzzle(PUZZLES / "two-colours-7x7-crowded.toml")
    # each colour fits alone there (its README line), so the "no" is the joint proof
    answer = joint_check(crowded.position, crowded.colours, SolveOptions(backend="search"))
    assert answer.answer == "no"
    assert answer.together is None or answer.together.status == "infeasible"


def test_auto_gives_many_piece_problems_to_symmetric_and_repair():
    problem = load_puzzle(PUZZLES / "asym-ladder-k18.toml")
    tuning = Tuning(auto=AutoTuning(search_alone=0.2))
    result = solve(problem, SolveOptions(backend="auto", time_limit=1.5, tuning=tuning))
    assert result.status in ("solved", "unknown")
    if result.status == "unknown":
        assert set(result.stats) == {"search", "repair"}  # no colour symmetry, no CP-SAT


def test_first_run_answers_without_the_kernel(monkeypatch, fresh_first_run):
    """While the kernel compiles elsewhere, auto answers with greedy play and CP-SAT."""
    fresh_first_run.started = True
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)  # not in the cache yet
    monkeypatch.setattr(warmup, "compiling_elsewhere", lambda: True)
    monkeypatch.setattr(auto, "compiling_elsewhere", lambda: True)
    monkeypatch.setattr(repair, "compiling_elsewhere", lambda: True)
    problem = load_puzzle(PUZZLES / "classic-solo-blue.toml")
    result = solve(problem, SolveOptions(backend="auto", time_limit=60))
    assert result.status == "solved" and result.backend in ("greedy", "repair", "cpsat")


def test_the_first_run_notice_is_given_once(monkeypatch, fresh_first_run):
    """A command that checks several colours while the kernel compiles in the background
    says so once, not once per check."""
    said = []
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    monkeypatch.setattr(warmup, "compile_in_background", lambda: True)
    monkeypatch.setattr(warmup, "on_background_compile", lambda since: said.append("notice"))
    for _ in range(3):
        warmup.before_search()
    assert said == ["notice"]


def test_kernel_ready_once_compiled():
    from solver.backends.search import kernel as search_kernel

    solve(load_puzzle(PUZZLES / "tiny-5x5-corner.toml"), SolveOptions(backend="search"))
    assert search_kernel.run.signatures and warmup.kernel_ready()


@pytest.mark.parametrize("name", ["asym-ladder-k06", "asym-ladder-k12"])
def test_states_stay_legal_under_ejections_and_repairs(name):
    """Every state a run passes through is a legal partial layout (frozen pieces in the
    position included): rule checker on each accepted state."""
    import time

    from solver.core.checker import check_layout
    from solver.core.order import order_of_play

    problem = load_puzzle(PUZZLES / f"{name}.toml")
    run = repair.Repairer(problem, 3, threading.Event(), time.perf_counter() + 60)
    state = run.construct()
    for step in range(60):
        state = run.eject(state) if step % 3 else run.repair(state)
        ordered = {c: order_of_play(problem.position, c, state.placed[c]) for c in problem.colours}
        assert all(v is not None for v in ordered.values()), step
        report = check_layout(problem.position, ordered)
        assert report.legal, (step, report.problem)


@pytest.mark.parametrize("name", ["asym-ladder-k06", "asym-classic-84"])
def test_ejection_closures_are_the_pieces_that_lose_their_connection(name):
    """The corner-contact graph's closure (bit masks, built once per ejection) takes off
    exactly the pieces that :func:`solver.core.order.connected_part`, square by square, leaves out,
    and its corner test agrees with the kept pieces' squares."""
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    run = repair.Repairer(problem, 0, threading.Event(), None)
    state = run.construct()
    flat = [(d, p) for d in problem.colours for p in state.placed[d]]
    contacts = repair.ContactGraph(problem.position, flat)
    rng = np.random.default_rng(3)
    board = problem.position.board
    cut_off = 0
    for _ in range(200):
        hit = {int(k) for k in rng.choice(len(flat), int(rng.integers(1, 4)), replace=False)}
        mask = contacts.closure(sum(1 << k for k in hit))
        gone = {flat[k] for k in range(len(flat)) if mask >> k & 1}
        expected = {flat[k] for k in hit}
        for d in {flat[k][0] for k in hit}:
            rest = [p for p in state.placed[d] if (d, p) not in expected]
            still = set(connected_part(problem.position, d, rest))
            expected |= {(d, p) for p in rest if p not in still}
        assert gone == expected
        cut_off += len(gone) - len(hit)
        c = problem.colours[int(rng.integers(len(problem.colours)))]
        squares = [int(s) for s in rng.choice(board.size, 5, replace=False)]
        mine = set(problem.position.colour(c).squares).union(
            *(p.squares for p in state.placed[c] if (c, p) not in gone)
        )
        near = any(x in mine for s in squares for x in board.corner_neighbours[s])
        want = near if mine else problem.position.colour(c).start in squares
        assert contacts.touches(c, mask, squares) == want
    assert cut_off > 0  # some removals did cut pieces off


def test_the_start_square_is_no_root_once_the_colour_has_pieces_on_the_board():
    """A piece on a colour's free start square must still touch the colour's pieces on
    the board: taken off the piece that joined it to them, it is cut off too (left, it
    would be an island the rule checker refuses)."""
    from solver.core.board import Board
    from solver.core.checker import check_layout
    from solver.core.position import ColourState, Position
    from solver.core.problem import Problem

    board = Board(6, 6)
    base = ColourState("blue", 0, (Placement("1", frozenset({14})),), ("1", "1", "2"))
    problem = Problem(Position(board, (base,)), ("blue",))
    on_start, joining = Placement("1", frozenset({0})), Placement("1", frozenset({7}))
    assert not check_layout(problem.position, {"blue": [on_start]}).legal
    assert connected_part(problem.position, "blue", [on_start]) == []
    contacts = repair.ContactGraph(problem.position, [("blue", joining), ("blue", on_start)])
    assert contacts.closure(0b01) == 0b11  # taking off the joining piece takes both


def test_ejection_candidates_come_cheapest_first():
    """The lazy order (exact costs computed only when their lower bound comes up) is the
    order of the exact costs, whatever the data; and the lower bound is the squares of the
    distinct pieces a candidate hits."""
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 6, size=12)
    hits = rng.integers(-1, 12, size=(200, 25))
    lower = repair.hit_squares(hits, sizes)
    brute = [sum(int(sizes[p]) for p in set(row.tolist()) if p >= 0) for row in hits]
    assert lower.tolist() == brute
    # no added piece at all (an ejection from an empty state): every bound is 0
    none = repair.hit_squares(np.full((3, 25), -1), np.zeros(0, dtype=np.int64))
    assert none.tolist() == [0, 0, 0]
    extra = rng.integers(0, 4, size=len(hits)) * (rng.random(len(hits)) < 0.3)
    noise = rng.random(len(hits))
    exact = (lower + extra + noise).tolist()
    asked: list[int] = []

    def cost(k: int) -> float:
        asked.append(k)
        return exact[k]

    order = list(repair.cheapest_first(lower + noise, cost))
    assert order == np.argsort(exact, kind="stable").tolist()
    first = repair.cheapest_first(lower + noise, cost)
    asked.clear()
    next(first)
    assert len(asked) < len(hits) // 4  # the cheapest found without costing them all


def test_repair_with_nothing_placeable_answers_unknown():
    """Both starts walled in, so greedy play places nothing and ejections run with no
    added piece at all: the answer is unknown (never no), without an error."""
    from solver.core.board import Board
    from solver.core.position import ColourState, Position
    from solver.core.problem import Problem

    board = Board(5, 5, frozenset({1, 5, 6, 23, 19, 18}))
    position = Position(
        board, (ColourState("blue", 0, (), ("I5",)), ColourState("yellow", 24, (), ("I5",)))
    )
    problem = Problem(position, ("blue", "yellow"), "place-all", False)
    result = repair.solve(problem, SolveOptions(backend="repair", time_limit=1, workers=1))
    assert result.status == "unknown"


def test_the_background_compile_caches_this_copy_of_the_package(
    monkeypatch, tmp_path, fresh_first_run
):
    """The background compile imports the same ``solver`` as the command that starts it,
    even when the user's current folder holds another copy (a clone beside an install)."""
    import subprocess
    import sys
    from pathlib import Path

    import solver

    started = []
    popen = subprocess.Popen
    monkeypatch.setattr(warmup, "cache_index", lambda: tmp_path / "index.nbi")
    monkeypatch.setattr(subprocess, "Popen", lambda args, **kw: started.append((args, kw)))
    decoy = tmp_path / "clone"
    (decoy / "solver").mkdir(parents=True)
    (decoy / "solver" / "__init__.py").write_text("")
    monkeypatch.chdir(decoy)
    assert warmup.compile_in_background()
    monkeypatch.setattr(subprocess, "Popen", popen)
    (args, kw) = started[0]
    assert args[1:] == ["-m", "solver.backends.warmup"]
    # python -m puts its current folder first on the path: that folder's solver is imported
    found = subprocess.run(
        [sys.executable, "-c", "import solver; print(solver.__file__)"],
        cwd=kw.get("cwd"),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(found).resolve() == Path(solver.__file__).resolve()
