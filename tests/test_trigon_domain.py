"""The fundamental-domain search (backend "domain") on Blokus Trigon (issue 43): its tables
from the triangle geometry, the colours with no piece yet given each class of symmetric
assignments of the shared starting points (as the ``symmetric`` backend), and the square
grid's tables and runs unchanged.

Every Trigon layout is put in an order of play and held to the rule checker, and to the
symmetry check of tests/test_trigon_symmetric.py (each symmetry named is a rotation or
reflection of the hexagon from the triangles' drawn centres that maps the layout onto
itself, colours permuted, none fixed).
"""

from __future__ import annotations

import hashlib

import numpy as np
from helpers import CORNER_COLOURS, PUZZLES, corner_problem, one_line_error, run_cli
from test_trigon_symmetric import _assert_symmetric, _problem, _walled_in, solves_a_puzzle_file

from solver.backends.base import SolveOptions
from solver.backends.domain import kernel as dk
from solver.backends.domain import quadrants as domain
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.pieces import PIECE_NAMES
from solver.core.problem import Problem
from solver.tasks.solve import solve


def _checked(problem: Problem, layout: dict) -> None:
    """Each colour's pieces in an order of play (its first piece on a free starting
    point), all of them placed, and the rule checker's approval of the whole layout."""
    ordered = {}
    for colour in problem.colours:
        placed = layout[colour]
        assert sorted(p.piece for p in placed) == sorted(problem.position.colour(colour).remaining)
        order = order_of_play(problem.position, colour, placed)
        assert order is not None, colour
        ordered[colour] = order
    report = check_layout(problem.position, ordered)
    assert report.legal, report.problem
    assert all(not r.remaining for r in report.colours)
    firsts = [ordered[c][0].squares & problem.position.starting_points for c in problem.colours]
    assert all(firsts) and len(frozenset().union(*firsts)) == len(problem.colours)


def test_two_colours_under_the_half_turn_give_a_checked_symmetric_layout():
    """All 22 pieces of blue and red, searched on the orbits of the half turn (the rot180
    way of :func:`domain.ways`, blue and red on opposite starting points): 243 orbits of
    two triangles. Seed 5 finds a layout in 39,412 nodes (about 0.3 s); seeds 1-4 and 6
    find none in 200,000 (the auto scan, by columns of the top half: a loose board is
    not what the search is fastest at, docs/geometry.md)."""
    problem = _problem("trigon", ("blue", "red"), 22)
    found = [(given, sym) for given, sym, _ in domain.ways(problem) if sym.name == "rot180"]
    assert found
    given, sym = found[0]
    search = domain.build(given, sym, seed=5)
    assert search.stats["orbits"] == 243 and search.names[-1] == "1"  # Trigon's 22 pieces
    assert search.placements.shape[1] == 6  # six triangles at most
    assert search.tables.onb.shape[1] == 3  # three edge neighbours
    assert search.run(200_000) == dk.FOUND
    layout = search.layout()
    _checked(problem, layout)
    _assert_symmetric(problem.position, layout, "rot180")


def test_solve_through_the_front_door_on_two_and_four_colours():
    """Through ``solve`` (the rule checker re-checks the layout); four colours with 12
    pieces each, under the group of the half turn and two mirrors (one representative
    colour: 117 orbits of four triangles, 18 triangles on the mirrors left empty)."""
    for colours, pieces in ((("blue", "red"), 22), (CORNER_COLOURS, 12)):
        problem = _problem("trigon", colours, pieces)
        options = SolveOptions(backend="domain", time_limit=30, seed=1, workers=1)
        result = solve(problem, options)
        assert result.status == "solved", result.stats
        assert result.report is not None and result.report.legal
        _checked(problem, result.layout)
        _assert_symmetric(problem.position, result.layout, result.stats["symmetry"])
        starts = result.stats["starts"]
        assert sorted(starts) == sorted(colours)
        board = problem.position.board
        assert {board.parse(s) for s in starts.values()} <= problem.position.starting_points


def test_an_unsatisfiable_trigon_problem_is_unknown_never_no():
    """Walled-in stars where the domino can never touch the star's corner (no layout at
    all: tests/test_trigon_symmetric.py proves it by brute force): the trees of every
    symmetric assignment are exhausted, and the answer is still only "unknown"."""
    problem = _walled_in()
    assert domain.ways(problem)  # symmetric assignments exist: the search runs
    result = domain.solve(problem, SolveOptions(time_limit=30, workers=1))
    assert result.status == "unknown"
    assert result.stats["unknown_reason"] == "no layout with any symmetry that applies"


def test_solve_with_the_domain_backend_on_a_trigon_puzzle_file(tmp_path):
    solves_a_puzzle_file(tmp_path, "domain")


def test_what_it_refuses_on_trigon_is_said_in_one_line(tmp_path):
    """What the search does not do on any grid: the monomino last (the shipped solo and
    one-colour puzzles ask for it), one colour (no symmetry maps a colour onto another)."""
    for name in ("trigon-solo-88.toml", "trigon-one-colour.toml"):
        result = run_cli("solve", PUZZLES / name, "--backend", "domain")
        one_line_error(result, name, "(this puzzle asks for monomino-last)")
    puzzle = tmp_path / "one.toml"
    puzzle.write_text('variant = "trigon"\ncolours = ["blue"]\ngoal = "place-all"\n')
    result = run_cli("solve", puzzle, "--backend", "domain")
    one_line_error(result, "one.toml", "this puzzle plays 1 colour")


# --- the square grid unchanged --------------------------------------------------------------


def _only(*pieces: str) -> tuple[str, ...]:
    return tuple(n for n in PIECE_NAMES if n not in pieces)


def _digest(search: domain.DomainSearch) -> str:
    """The first 16 hex digits of a SHA-256 of every array of a built search: the kernel's
    tables, the options' cells, pieces and anchors, and the state before the first node."""
    h = hashlib.sha256()
    arrays = [*search.tables, search.placements, search.pieces, search.anchors, *search.fresh]
    for a in map(np.asarray, arrays):
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def test_the_square_grids_tables_and_runs_are_those_before_trigon():
    """Digests of the tables main's square-only code built (commit f22308b, before the
    domain search read the geometry), and its runs: the same nodes to the same layout."""
    two = corner_problem(14, 14, ("blue", "red"))
    four = corner_problem(
        12,
        14,
        CORNER_COLOURS,
        without=_only("1", "I3", "I4", "L4", "L5", "P", "T4", "T5", "U", "X"),
    )
    small = corner_problem(9, 7, ("blue", "red"), without=_only("1", "2", "V3", "L5", "X"))
    expected = {
        ("two", 0, 0): "60fc5056e5030966",
        ("two", 0, 3): "e88a6302a196f4cf",
        ("two", 1, 0): "40c0dca95402e41a",
        ("two", 1, 3): "103553241afa083e",
        ("four", 0, 0): "0df841f13d91fb87",
        ("four", 0, 3): "2a995d21d750c8f3",
        ("four", 3, 0): "6dad05988f87f948",
        ("small", 0, 3): "60cb9343e0a520e1",
    }
    problems = {"two": two, "four": four, "small": small}
    for (name, i, seed), digest in expected.items():
        sym = domain.symmetries(problems[name])[i]
        assert _digest(domain.build(problems[name], sym, seed=seed)) == digest, (name, i, seed)
    runs = ((small, 1, 273, "49b75f4d8f71"), (four, (1, 0, 2), 248_629, "080e5fd23237"))
    for problem, seed, nodes, layout in runs:
        search = domain.build(problem, domain.symmetries(problem)[0], seed=seed)
        assert search.run(400_000) == dk.FOUND
        assert search.nodes == nodes
        placed = sorted(
            (c, p.piece, tuple(sorted(p.squares))) for c, ps in search.layout().items() for p in ps
        )
        assert hashlib.sha256(str(placed).encode()).hexdigest()[:12] == layout
