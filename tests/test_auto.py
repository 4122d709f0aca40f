"""The "auto" backend (search first, then search and CP-SAT side by side) and the cancel
signal every backend honours. Answers are compared with a single backend's, run here."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import helpers
import numpy as np
import pytest

from solver.backends import auto, warmup
from solver.backends.base import SolveOptions
from solver.backends.cpsat import solving as cpsat
from solver.backends.repair import greedy
from solver.backends.repair import repairer as repair
from solver.backends.search import exact as search
from solver.backends.tuning import AutoTuning, Tuning
from solver.core.problem import Problem
from solver.formats.game import load_game
from solver.formats.puzzle import load_puzzle, parse_puzzle
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


def alone_for(seconds: float) -> Tuning:
    """Tuning with the search alone for ``seconds`` before the others join it."""
    return Tuning(auto=AutoTuning(search_alone=seconds))


# Both Duo colours place all 42 pieces: the search and CP-SAT do not answer this within
# seconds (the fundamental-domain search, which auto runs, takes 2-19 s).
HARD = parse_puzzle('variant = "duo"\n', "duo-both.toml")


@pytest.mark.parametrize(
    "name", ["tiny-5x5-corner", "tiny-4x4-impossible", "max-score-5x5", "two-colours-7x7-crowded"]
)
def test_auto_gives_the_search_answer_when_the_search_is_quick(name):
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    alone = solve(problem, SolveOptions(backend="search"))
    no_greedy = Tuning(auto=AutoTuning(greedy_first=0.0))
    result = solve(problem, SolveOptions(backend="auto", tuning=no_greedy))
    assert result.backend == "search"
    assert result.status == alone.status
    assert result.score == alone.score


def test_greedy_answers_one_colour_without_numba_or_ortools():
    """Greedy play places one colour's 21 pieces, monomino last, before the search starts;
    then neither numba nor OR-tools is imported (a fresh interpreter, as the command)."""
    code = (
        "import sys\n"
        "from solver.formats.puzzle import load_puzzle\n"
        "from solver.backends.base import SolveOptions\nfrom solver.tasks.solve import solve\n"
        f"r = solve(load_puzzle({str(PUZZLES / 'classic-solo-blue.toml')!r}), SolveOptions())\n"
        "print(r.status, r.backend, r.score, 'numba' in sys.modules, 'ortools' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["solved", "greedy", "20", "False", "False"]


@pytest.mark.parametrize("name", ["max-score-5x5", "two-colours-7x7-crowded", "ring-6x6"])
def test_race_from_the_start_gives_a_proven_answer(name):
    """With no time alone for the search, CP-SAT runs beside it from the start; whichever
    answers first, the status and score are those of the search alone."""
    problem = load_puzzle(PUZZLES / f"{name}.toml")
    alone = solve(problem, SolveOptions(backend="search"))
    result = solve(problem, SolveOptions(backend="auto", time_limit=60, tuning=alone_for(0.0)))
    assert result.backend in ("search", "cpsat", "greedy")
    assert result.status == alone.status
    assert result.score == alone.score


def test_auto_time_limit_gives_unknown_from_every_backend():
    warmup.compile_kernel()  # a first compile (a fresh install) is not the time limit's
    started = time.perf_counter()
    result = solve(HARD, SolveOptions(backend="auto", time_limit=1, tuning=alone_for(0.5)))
    assert result.status == "unknown" and result.layout is None
    # Duo, 42 pieces: the search stops and the symmetric reduction (the half turn swaps
    # the colours; the fundamental-domain search for two colours) takes both cores
    # (AutoTuning.many_pieces, symmetric_cores)
    assert result.backend == "search+domain"
    assert set(result.stats) == {"search", "domain"}
    assert result.stats["domain"]["threads"] == 2
    assert time.perf_counter() - started < 20


def test_repair_runs_when_the_symmetric_reduction_gives_up(monkeypatch):
    """Many pieces and a colour symmetry: the symmetric reduction takes the cores; when it
    gives up early (no symmetric layout), the repair search gets the time left."""
    from solver.backends.base import BackendResult
    from solver.backends.domain import quadrants as domain
    from solver.backends.symmetric import engine as symmetric

    calls = []

    def no_layout(problem, options, cancel=None):
        calls.append(options.workers)
        return BackendResult("unknown", None, None, {"unknown_reason": "none symmetric"})

    monkeypatch.setattr(symmetric, "solve", no_layout)
    monkeypatch.setattr(domain, "solve", no_layout)  # (two colours: this one)

    def slow_search(problem, options, cancel):
        while not cancel.is_set():  # (stopped once the others join)
            time.sleep(0.01)
        return BackendResult("unknown")

    monkeypatch.setattr(search, "solve", slow_search)
    problem = parse_puzzle(
        'variant = "duo"\n[pieces]\npurple = ["I5", "L4", "1"]\norange = ["I5", "L4", "1"]\n',
        "duo-few.toml",
    )
    tuning = Tuning(auto=AutoTuning(many_pieces=0, greedy_first=0.0, many_alone=0.0))
    result = solve(problem, SolveOptions(backend="auto", time_limit=30, tuning=tuning))
    assert calls == [2]  # every core
    assert (result.status, result.backend) == ("solved", "repair")


def test_auto_max_score_combines_layout_and_bound():
    """Stopped early, max-score keeps the better checked layout and the lower bound."""
    problem = parse_puzzle('variant = "duo"\ngoal = "max-score"\n', "duo-max.toml")
    result = solve(problem, SolveOptions(backend="auto", time_limit=3, tuning=alone_for(0.5)))
    assert result.status in ("solved", "optimal")
    assert result.layout is not None and result.score is not None
    assert result.bound is not None and result.score <= result.bound
    assert result.bound <= 2 * (15 + 5)


@pytest.mark.parametrize("backend", [search, cpsat, auto])
def test_cancel_stops_a_backend_before_its_time_limit(backend):
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.perf_counter()
    result = backend.solve(HARD, SolveOptions(time_limit=120), cancel)
    assert result.status == "unknown"
    assert time.perf_counter() - started < 30


def test_greedy_first_places_both_junior_monominoes():
    """Junior: two monominoes (one held back for the end, the other played), and a
    domino: greedy play places all three (before: both were held, one was left)."""
    problem = parse_puzzle(
        'variant = "junior"\ncolours = ["purple"]\n[pieces]\npurple = ["1", "1", "2"]\n'
    )
    layout = greedy.complete(
        problem.position, problem.colours, np.random.default_rng(0), plays=20, seconds=5.0
    )
    assert layout is not None
    assert sorted(p.piece for p in layout["purple"]) == ["1", "1", "2"]
    assert layout["purple"][-1].piece == "1"


def test_auto_skips_greedy_play_once_the_kernel_is_loaded():
    """After a search in the same process (batch, review, library calls) the search
    answers a one-colour check: greedy play would only add its failed tries' time."""
    code = (
        "from solver.formats.puzzle import load_puzzle\n"
        "from solver.backends.base import SolveOptions\nfrom solver.tasks.solve import solve\n"
        f"p = load_puzzle({str(PUZZLES / 'classic-solo-blue.toml')!r})\n"
        "print(solve(p, SolveOptions()).backend)\n"
        "print(solve(load_puzzle(" + repr(str(PUZZLES / "tiny-5x5-corner.toml")) + "),"
        " SolveOptions(backend='search')).backend)\n"
        "r = solve(p, SolveOptions())\n"
        "print(r.backend, r.status, r.score)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["greedy", "search", "search", "solved", "20"]


def test_one_colour_early_in_a_game_gets_the_repair_search():
    """Junior, orange after 6 placements with 21 pieces left: a layout exists, but the
    search's depth-first order misses it for minutes (unknown at 120 s before the repair
    search joined one-colour checks); the repair search finds it."""
    position = load_game(helpers.GAMES / "junior-L7-4-s102.blksgf").position(6)
    problem = Problem(position, ("orange",))
    result = solve(problem, SolveOptions(time_limit=30))  # (the rule checker re-checks it)
    assert (result.status, result.backend) == ("solved", "repair")
    assert result.report is not None and result.report.report("orange").score == 0


@pytest.mark.parametrize("card", sorted((PUZZLES / "cards").glob("*.toml")), ids=lambda p: p.stem)
def test_auto_meets_every_card_goal(card):
    """Greedy play knows nothing of stars or groups to connect: auto must not answer with
    its layout when a card asks for them (it did, and the goal check raised SolverBug)."""
    problem = load_puzzle(card)
    for seed in range(4):
        result = solve(problem, SolveOptions(backend="auto", time_limit=20, seed=seed))
        assert result.status == "solved"


def test_two_swapped_colours_are_answered_by_the_domain_search(monkeypatch):
    """Duo-like (8x8, starts c6 and f3, swapped by the half turn), many pieces for auto:
    the search stops (here: it would answer this small case, so it is made to wait) and the
    fundamental-domain search answers, checked."""
    from solver.core.board import Board
    from solver.core.position import ColourState, Position
    from solver.core.problem import Problem

    def duo_like(pieces):
        board = Board(8, 8)
        colours = tuple(
            ColourState(c, board.parse(s), (), pieces)
            for c, s in (("purple", "c6"), ("orange", "f3"))
        )
        return Problem(Position(board, colours), ("purple", "orange"))

    from solver.backends.base import BackendResult

    def slow_search(problem, options, cancel):
        while not cancel.is_set():  # (stopped once the others join)
            time.sleep(0.01)
        return BackendResult("unknown")

    monkeypatch.setattr(search, "solve", slow_search)
    problem = duo_like(("1", "2", "I3", "V3", "L4", "O", "T4"))
    tuning = Tuning(auto=AutoTuning(many_pieces=0, greedy_first=0.0, many_alone=0.0))
    result = solve(problem, SolveOptions(backend="auto", time_limit=60, tuning=tuning))
    assert (result.status, result.backend) == ("solved", "domain")
    assert result.stats["threads"] == 2 and result.report is not None


@pytest.mark.parametrize(
    "workers,gives_up,expected",
    [
        (1, False, {"symmetric": [1]}),
        (2, False, {"symmetric": [2], "repair": [1]}),
        (2, True, {"symmetric": [2], "repair": [2]}),
    ],
)
def test_four_colours_give_the_symmetric_reduction_every_worker_first(
    monkeypatch, workers, gives_up, expected
):
    """Four colours that a quarter turn permutes, many pieces: the exact search's symmetric
    reduction takes every worker (no plain search, no greedy play); after
    AutoTuning.symmetric_alone seconds the repair search joins it on one worker fewer (with
    one worker: not while it runs), and every worker when the reduction gives up."""
    from solver.backends.base import BackendResult
    from solver.backends.symmetric import engine as symmetric

    calls: dict[str, list[int]] = {}

    def recorder(name, gives_up=False):
        def run(problem, options, cancel=None):
            calls.setdefault(name, []).append(options.workers)
            if gives_up:
                return BackendResult("unknown", None, None, {"unknown_reason": "none"})
            ends = time.perf_counter() + options.time_limit
            while time.perf_counter() < ends and not (cancel is not None and cancel.is_set()):
                time.sleep(0.01)
            return BackendResult("unknown")

        return run

    monkeypatch.setattr(symmetric, "solve", recorder("symmetric", gives_up))
    monkeypatch.setattr(repair, "solve", recorder("repair"))
    monkeypatch.setattr(search, "solve", recorder("search"))
    problem = load_puzzle(PUZZLES / "classic-solo-84.toml")
    tuning = Tuning(auto=AutoTuning(symmetric_alone=0.5))
    options = SolveOptions(backend="auto", time_limit=1.5, workers=workers, tuning=tuning)
    result = solve(problem, options)
    assert result.status == "unknown"
    assert calls == expected


def test_the_record_boards_get_the_fundamental_domain_search():
    """Place-all without monomino-last on an empty board with a symmetry, two colours or
    few empty squares (four colours on 18x20): the fundamental-domain search joins, not CP-SAT's reduction; with
    monomino-last (the solo puzzle) CP-SAT's reduction, which keeps that rule."""
    from solver.backends import registry
    from solver.backends.auto import portfolio

    records = load_puzzle(PUZZLES / "records" / "four-18x20.toml")
    joining = portfolio(records)
    assert registry.DOMAIN in joining and registry.SYMMETRIC not in joining
    # a first run (the search's kernel compiling in the background): it joins all the same
    assert registry.DOMAIN in portfolio(records, search_ready=False)
    solo = load_puzzle(PUZZLES / "classic-solo-84.toml")
    assert solo.monomino_last
    joining = portfolio(solo)
    assert registry.SYMMETRIC in joining and registry.DOMAIN not in joining
    # without monomino-last but loose (44 empty squares: 11 empty orbits): CP-SAT's
    # reduction and the repair search, as measured for that puzzle
    loose = load_puzzle(PUZZLES / "asym-classic-84.toml")
    assert not loose.monomino_last
    joining = portfolio(loose)
    assert registry.SYMMETRIC in joining and registry.DOMAIN not in joining
    # two colours, tight (10x18: 1 empty orbit) or loose (14x14: 9; Duo's both colours):
    # the domain search, not CP-SAT's reduction, first run included
    for name in ("records/two-10x18.toml", "records/two-14x14.toml", "duo-both.toml"):
        for ready in (True, False):
            two = portfolio(load_puzzle(PUZZLES / name), search_ready=ready)
            assert registry.DOMAIN in two and registry.SYMMETRIC not in two, name


def test_first_run_gives_the_domain_search_every_worker(monkeypatch, fresh_first_run):
    """First run (the search's kernel compiling in another process), two colours with many
    pieces: the domain search (it compiles in process) takes both workers, CP-SAT does not
    run, and the repair search gets the time it leaves (a new-user trial found the first
    run of two-14x14 taking 90 s, the domain search sharing the cores with CP-SAT)."""
    from solver.backends.base import BackendResult
    from solver.backends.domain import quadrants as domain

    calls: dict[str, list[int]] = {}

    def recorder(name):
        def run(problem, options, cancel=None):
            calls.setdefault(name, []).append(options.workers)
            return BackendResult("unknown")

        return run

    fresh_first_run.started = True
    monkeypatch.setattr(warmup, "compiling_elsewhere", lambda: True)
    monkeypatch.setattr(auto, "compiling_elsewhere", lambda: True)
    monkeypatch.setattr(repair, "compiling_elsewhere", lambda: True)
    for module, name in ((domain, "domain"), (cpsat, "cpsat"), (repair, "repair")):
        monkeypatch.setattr(module, "solve", recorder(name))
    problem = load_puzzle(PUZZLES / "records" / "two-14x14.toml")
    tuning = Tuning(auto=AutoTuning(greedy_first=0.0, lp_seconds=0.0))  # no LP bound first
    result = solve(problem, SolveOptions(backend="auto", time_limit=5, workers=2, tuning=tuning))
    assert result.status == "unknown"
    assert calls == {"domain": [2], "repair": [2]}
