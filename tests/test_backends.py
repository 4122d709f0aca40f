"""What the backends share: the registry, the "first proven answer wins" race, and the
search kernel's interface (its parameter slots and the arrays it takes, in order)."""

from __future__ import annotations

import dataclasses
import inspect
import threading
import time

import helpers
import numpy as np
import pytest

from solver.backends import auto, registry
from solver.backends.base import Backend, BackendResult, SolveOptions
from solver.backends.race import Race, first_proven
from solver.backends.registry import BACKENDS
from solver.backends.search import kernel as core
from solver.backends.search import tables as search_tables
from solver.backends.tuning import AutoTuning
from solver.core.board import Board
from solver.core.pieces import PIECE_NAMES
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.errors import SolverBug
from solver.formats.puzzle import load_puzzle
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


# ---------------------------------------------------------------------------------------------
# the registry


def test_every_backend_name_loads_a_solve_function():
    assert tuple(BACKENDS) == ("auto", "cpsat", "domain", "repair", "search", "symmetric")
    for name in BACKENDS:
        entry = registry.backend(name)
        assert entry.name == name and callable(entry.load())
    layouts_only = [n for n in BACKENDS if registry.backend(n).layouts_only]
    assert layouts_only == ["domain", "repair", "symmetric"]


def test_unknown_backend_is_a_value_error():
    with pytest.raises(
        ValueError, match="unknown backend .dlx.*auto, cpsat, domain, repair, search"
    ):
        solve(load_puzzle(PUZZLES / "tiny-5x5-corner.toml"), SolveOptions(backend="dlx"))


def fake(result: BackendResult):
    """A backend loader whose solve function always returns ``result``."""
    return lambda: lambda problem, options, cancel=None: result


def test_one_entry_adds_a_backend(monkeypatch):
    """A backend is one registry entry: solve() runs it and checks its layout."""
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    monkeypatch.setitem(registry.BACKENDS, "fake", Backend("fake", fake(BackendResult("unknown"))))
    result = solve(problem, SolveOptions(backend="fake"))
    assert (result.status, result.backend) == ("unknown", "fake")


def test_a_layouts_only_backend_never_says_no(monkeypatch):
    problem = load_puzzle(PUZZLES / "tiny-4x4-impossible.toml")
    entry = Backend("finder", fake(BackendResult("infeasible")), layouts_only=True)
    monkeypatch.setitem(registry.BACKENDS, "finder", entry)
    with pytest.raises(SolverBug, match="only finds layouts"):
        solve(problem, SolveOptions(backend="finder"))


def _tiny(*pieces: tuple[str, ...]) -> dict[str, list[Placement]]:
    """Blue's layout on tiny-5x5-corner (5x5, 1, 2 and V3 from a5): (piece, *squares)."""
    board = Board(5, 5)
    return {"blue": [Placement(p, frozenset(board.parse(n) for n in sq)) for p, *sq in pieces]}


V3, DOMINO, MONO = ("V3", "a5", "a4", "b4"), ("2", "c3", "d3"), ("1", "b2")


@pytest.mark.parametrize(
    "layout, monomino_last, message",
    [
        (_tiny(("V3", "a5", "a4", "a3"), ("2", "b2", "c2"), MONO), False, "breaks a rule"),
        (_tiny(V3, DOMINO, ("2", "e2", "e1")), False, "breaks a rule"),  # no second domino
        (_tiny(V3, DOMINO, ("1", "e1")), False, "not connected to its start"),
        (_tiny(V3, DOMINO), False, "blue still has 1"),
        (_tiny(V3, ("1", "c3"), ("2", "d2", "e2")), True, "cannot place its monomino last"),
    ],
    ids=["wrong shape", "piece twice", "island", "piece left", "monomino not last"],
)
def test_solve_refuses_a_layout_the_rule_checker_refuses(
    monkeypatch, layout, monomino_last, message
):
    """Whatever a backend returns, solve() orders it and runs the rule checker: a "solved"
    that breaks a rule or misses the goal is a SolverBug, never an answer (so a test of a
    backend need not check the report of a "solved" again)."""
    problem = load_puzzle(PUZZLES / "tiny-5x5-corner.toml")
    problem = dataclasses.replace(problem, monomino_last=monomino_last)
    entry = Backend("liar", fake(BackendResult("solved", layout)))
    monkeypatch.setitem(registry.BACKENDS, "liar", entry)
    with pytest.raises(SolverBug, match=message):
        solve(problem, SolveOptions(backend="liar"))
    good = _tiny(V3, DOMINO, MONO)
    monkeypatch.setitem(
        registry.BACKENDS, "liar", Backend("liar", fake(BackendResult("solved", good)))
    )
    result = solve(problem, SolveOptions(backend="liar"))
    assert result.status == "solved" and result.report.report("blue").score == 20


def test_auto_portfolio_depends_on_the_problem():
    board = Board(6, 6)
    pieces = ("1", "V3")
    both = (
        ColourState("blue", board.square(0, 0), (), pieces),
        ColourState("red", board.square(5, 5), (), pieces),
    )
    symmetric = Problem(Position(board, both), ("blue", "red"))
    # two colours swapped by the half turn on an empty board: the fundamental-domain search
    # (the LP bound joins every place-all: it proves some "no"s in seconds)
    lp = registry.LP
    expected = (registry.CPSAT, registry.DOMAIN, registry.REPAIR, lp)
    assert auto.portfolio(symmetric) == expected
    last = Problem(Position(board, both), ("blue", "red"), monomino_last=True)
    assert auto.portfolio(last) == (registry.CPSAT, registry.SYMMETRIC, registry.REPAIR, lp)
    one = Problem(Position(board, both), ("blue",))
    assert auto.portfolio(one) == (registry.CPSAT, lp)
    # first run, the search kernel still compiling: greedy play joins for one colour too
    assert auto.portfolio(one, search_ready=False) == (registry.CPSAT, registry.REPAIR, lp)
    best = Problem(Position(board, both), ("blue",), goal="max-score")
    assert auto.portfolio(best, search_ready=False) == (registry.CPSAT,)
    # one colour early in a game (many pieces left): the repair search joins too
    open_board = Board(20, 20)
    early = ColourState("blue", open_board.square(0, 0), (), tuple(PIECE_NAMES))
    many = Problem(Position(open_board, (early,)), ("blue",))
    assert auto.portfolio(many) == (registry.CPSAT, registry.REPAIR, lp)
    fewer = AutoTuning(repair_pieces=len(PIECE_NAMES) + 1)
    assert auto.portfolio(many, tuning=fewer) == (registry.CPSAT, lp)


# ---------------------------------------------------------------------------------------------
# the race


def until_stopped(stop) -> str:
    started = time.perf_counter()
    while not stop.is_set():
        if time.perf_counter() - started > 10:
            return "never stopped"
        time.sleep(0.005)
    return "stopped"


def after(seconds: float, value: str):
    def run(stop) -> str:
        time.sleep(seconds)
        return value

    return run


def test_first_decisive_answer_wins_and_stops_the_others():
    results, winner = first_proven(
        [until_stopped, after(0.05, "maybe"), after(0.1, "yes")], lambda r: r == "yes"
    )
    assert results == ["stopped", "maybe", "yes"] and winner == 2


def test_no_decisive_answer_has_no_winner():
    results, winner = first_proven([after(0.01, "maybe"), after(0.02, "no idea")], lambda r: False)
    assert results == ["maybe", "no idea"] and winner is None


def test_an_error_stops_the_others_and_is_raised():
    def broken(stop):
        raise SolverBug("broken")

    seen: list[str] = []

    def watch(stop):
        seen.append(until_stopped(stop))
        return seen[-1]

    with pytest.raises(SolverBug, match="broken"):
        first_proven([watch, broken], lambda r: False)
    assert seen == ["stopped"]


def test_cancel_reaches_every_entrant():
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    results, winner = first_proven([until_stopped, until_stopped], lambda r: True, cancel)
    assert results == ["stopped", "stopped"] and winner in (0, 1)


def test_wait_returns_when_the_race_is_won():
    race: Race[str] = Race(lambda r: r == "yes")
    race.enter(after(0.05, "yes"))
    started = time.perf_counter()
    race.wait(10)
    assert race.over and time.perf_counter() - started < 5
    race.enter(until_stopped)  # a late entrant sees the race already won
    assert race.results() == ["yes", "stopped"] and race.winner == 0


def test_wait_gives_up_after_its_seconds():
    race: Race[str] = Race(lambda r: True)
    race.enter(until_stopped)
    race.wait(0.05)
    assert not race.over
    race.enter(after(0.0, "done"))
    assert race.results() == ["stopped", "done"] and race.winner == 1


# ---------------------------------------------------------------------------------------------
# the search kernel's interface


def test_kernel_takes_params_tables_state_budget():
    taken = list(inspect.signature(core.run.py_func).parameters)
    assert taken == ["params", "tables", "state", "budget"]
    # the records are named tuples (numba takes them as one argument each), their fields
    # disjoint: a name in both would be read from the wrong record
    assert set(core.Tables._fields).isdisjoint(core.State._fields)


def test_parameter_slots_are_distinct():
    slots = [v for k, v in vars(core).items() if k.startswith("P_")]
    assert sorted(slots) == list(range(core.N_PARAMS))


def built() -> search_tables.ExactSearch:
    board = Board(5, 5)
    pos = Position(board, (ColourState("blue", board.square(0, 0), (), ("1", "V3", "L4")),))
    return search_tables.build(Problem(pos, ("blue",)), core.FIND)


def test_built_arrays_are_numpy_arrays_the_kernel_accepts():
    b = built()
    for array in (*b.tables, *b.state):
        assert isinstance(array, np.ndarray)
    assert len(b.params) == core.N_PARAMS and b.params.dtype == np.int64
    assert b.run(10**6) == core.FOUND


def test_a_clone_shares_the_tables_and_copies_the_state():
    b = built()
    clone = b.clone(late=2, seed=0)
    assert clone.tables is b.tables
    assert all(x is not y and np.array_equal(x, y) for x, y in zip(clone.state, b.state))
    assert (clone.params[core.P_LATE], b.params[core.P_LATE]) == (2, 0)
    assert b.run(10**6) == clone.run(10**6) == core.FOUND


def test_every_subpackage_is_installed():
    """setup.py finds the packages to install: every folder of solver/ holding Python
    files must be a package (an __init__.py, or find_packages skips it and the installed
    command misses it), and the shipped puzzles' folders, mapped by pyproject.toml's
    package-dir, must be in the list too."""
    import runpy
    import tomllib

    root = helpers.ROOT
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "packages" not in setuptools  # one list: setup.py's
    elsewhere = setuptools.get("package-dir", {})
    assert all((root / folder).is_dir() for folder in elsewhere.values())
    listed = set(runpy.run_path(str(root / "setup.py"), run_name="setup")["PACKAGES"])
    assert set(elsewhere) <= listed
    folders = {
        ".".join(py.parent.relative_to(root).parts)
        for py in (root / "solver").rglob("*.py")
        if "__pycache__" not in py.parts
    }
    assert folders == listed - set(elsewhere)
