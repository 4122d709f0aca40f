"""The ``symmetric`` backend on Blokus Trigon (issue 43): the exact search's reduction on
the orbits of a hexagon symmetry, on each class of symmetric assignments of the shared
starting points (``solver/backends/symmetric/starts.py``), without CP-SAT.

Every layout is held to the rule checker (``solve`` runs it) and to a symmetry check of
its own: the symmetry the backend reports is looked up by name among the geometry's
permutations, each element is shown to be a rotation or reflection of the hexagon from
the triangles' drawn centres (not from the permutation tables the search used), and the
layout is mapped cell by cell onto itself with its colours permuted, no colour fixed.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest
from helpers import PUZZLES, one_line_error, run_cli

from solver.backends.base import SolveOptions
from solver.backends.symmetric.starts import symmetric_starts
from solver.core.board import Board
from solver.core.placements import legal_moves
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.tasks.solve import solve


def _problem(variant: str, colours: tuple[str, ...], pieces: int, last: bool = False) -> Problem:
    """The empty board of ``variant``, ``colours`` playing the first ``pieces`` Trigon
    pieces each (and the monomino when ``last``: the monomino-last rule), no piece placed
    yet: each colour's first piece covers a free starting point."""
    empty = Position.empty(ALL_VARIANTS[variant])
    chosen = empty.colour("blue").remaining[:pieces] + (("1",) if last else ())
    states = tuple(replace(c, remaining=chosen) for c in empty.colours if c.name in colours)
    return Problem(replace(empty, colours=states), colours, "place-all", last)


def _isometries(board: Board) -> list[np.ndarray]:
    """The cell permutations of the 12 rotations (by 60k degrees) and reflections of the
    plane about the board's centre that map the triangles' centres onto centres, from the
    drawn triangles alone (``polygons``)."""
    centres = board.geometry.polygons.mean(axis=1)
    centres = centres - centres.mean(axis=0)
    out = []
    for k in range(6):
        a = np.pi * k / 3
        turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        for flip in (np.eye(2), np.diag([1.0, -1.0])):
            moved = centres @ (turn @ flip).T
            gaps = np.linalg.norm(moved[:, None, :] - centres[None, :, :], axis=2)
            image = gaps.argmin(axis=1)
            if gaps.min(axis=1).max() < 1e-6:
                out.append(image)
    return out


def _assert_symmetric(position: Position, layout: dict, name: str) -> None:
    """Each symmetry named (``stats["symmetry"]``: one name, or "a, b and c") is a
    rotation or reflection of the hexagon (:func:`_isometries`) that maps the layout onto
    itself, piece for piece, with the colours permuted and none fixed."""
    board = position.board
    names = list(board.geometry.symmetry_names)
    isometries = _isometries(board)
    assert len(isometries) == 12
    for each in re.split(r", | and ", name):
        perm = board.geometry.symmetries[names.index(each)]
        assert any(np.array_equal(perm, iso) for iso in isometries), each
        assert not np.array_equal(perm, np.arange(board.size))
        pieces = {c: {(p.piece, p.squares) for p in layout[c]} for c in layout}
        images = {}
        for colour, placed in pieces.items():
            mapped = {(piece, frozenset(int(perm[s]) for s in cells)) for piece, cells in placed}
            images[colour] = [other for other in pieces if pieces[other] == mapped]
        assert all(len(found) == 1 for found in images.values()), (each, images)
        target = {colour: found[0] for colour, found in images.items()}
        assert sorted(target.values()) == sorted(target)  # a permutation of the colours
        assert all(target[c] != c for c in target), (each, target)  # no colour fixed


def _solved_and_symmetric(problem: Problem, seconds: float = 60) -> dict:
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=seconds, workers=1))
    assert result.status == "solved", result.stats
    assert result.report is not None and result.report.legal
    assert all(not r.remaining for r in result.report.colours)
    firsts = [
        result.layout[c][0].squares & problem.position.starting_points for c in problem.colours
    ]
    assert all(firsts) and len(frozenset().union(*firsts)) == len(problem.colours)
    _assert_symmetric(problem.position, result.layout, result.stats["symmetry"])
    return result.stats


@pytest.mark.parametrize(
    ("variant", "colours", "pieces", "last"),
    [
        ("trigon", ("blue", "red"), 8, False),  # two colours on the 486-triangle board
        ("trigon3", ("blue", "yellow", "red"), 6, False),  # three colours on side 8
        ("trigon", ("blue", "yellow", "red", "green"), 4, True),  # four, the monomino last
    ],
)
def test_the_backend_on_trigon_gives_a_checked_symmetric_layout(variant, colours, pieces, last):
    problem = _problem(variant, colours, pieces, last)
    stats = _solved_and_symmetric(problem)
    starts = stats["starts"]
    assert sorted(starts) == sorted(colours)  # each unstarted colour got a starting point
    board = problem.position.board
    assert {board.parse(s) for s in starts.values()} <= problem.position.starting_points
    if last:
        assert stats["assignments"].endswith(f"of {len(symmetric_starts(problem))}")


def test_the_assignment_classes_of_the_solo_challenge():
    """Four colours on six starting points: 360 assignments, 3 classes under the hexagon's
    symmetries (the two points left free adjacent, one apart, or opposite); the class with
    one point between the two free ones has no colour symmetry (the mirror that swaps them
    fixes the point between them, and so a colour), the other two do: the one with the
    opposite points left free first (the group of the half turn and two mirrors takes one
    representative colour), then the one with two adjacent points left free (a mirror:
    two representatives)."""
    problem = _problem("trigon", ("blue", "yellow", "red", "green"), 22)
    ways = symmetric_starts(problem)
    assert len(ways) == 2
    board = problem.position.board
    turn = board.geometry.symmetries[list(board.geometry.symmetry_names).index("rot180")]
    for way in ways:
        taken = set(way.starts.values())
        assert len(taken) == 4 and taken <= problem.position.starting_points
        free = problem.position.starting_points - taken
        assert len(free) == 2
    first_free = problem.position.starting_points - set(ways[0].starts.values())
    a, b = sorted(first_free)
    assert int(turn[a]) == b  # the opposite pair is left free
    assert len(ways[0].symmetries[0].cycles) == 1
    assert min(len(s.cycles) for s in ways[1].symmetries) == 2
    sixth = board.geometry.symmetries[list(board.geometry.symmetry_names).index("rot60")]
    a, b = sorted(problem.position.starting_points - set(ways[1].starts.values()))
    assert b in (int(sixth[a]), int(np.argsort(sixth)[a]))  # neighbours around the hexagon


def _walled_in() -> Problem:
    """Blue and red on a side-9 board where only the six starting points and their edge
    neighbours are free (six stars of 4 triangles, no two sharing a corner), each to place
    A4 (the star) and the domino: the domino can never touch the star's corner."""
    board0 = Board.trigon(9)
    points = board0.geometry.starting_points
    free = set(points)
    for p in points:
        free.update(board0.geometry.edge_neighbours[p])
    board = Board.trigon(9, frozenset(range(board0.size)) - free)
    empty = Position.empty(ALL_VARIANTS["trigon"])
    states = tuple(
        replace(c, remaining=("A4", "2")) for c in empty.colours if c.name in ("blue", "red")
    )
    position = replace(empty, board=board, colours=states)
    return Problem(position, ("blue", "red"), "place-all", False)


def _places_all(position: Position, colour: str) -> bool:
    """Brute force: some order of legal moves places every piece of ``colour`` left."""
    if not position.colour(colour).remaining:
        return True
    return any(
        _places_all(position.with_placement(colour, move), colour)
        for move in legal_moves(position, colour)
    )


def test_an_unsatisfiable_trigon_problem_is_unknown_never_no():
    problem = _walled_in()
    assert not _places_all(problem.position, "blue")  # no layout at all: blue alone fails
    assert symmetric_starts(problem)  # yet symmetric assignments exist: the backend runs
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=30, workers=1))
    assert result.status == "unknown"  # never "infeasible": it proves nothing
    assert "no layout is symmetric under" in result.stats["unknown_reason"]
    proof = solve(problem, SolveOptions(backend="search", time_limit=30, workers=1))
    assert proof.status == "infeasible"  # the search proves the "no" the backend may not say


def solves_a_puzzle_file(tmp_path, backend: str) -> None:
    """``solve --backend`` ``backend`` on a Trigon puzzle file (blue and red, five pieces
    each) answers "solved" and places them all (also the domain search's test)."""
    puzzle = tmp_path / "two.toml"
    puzzle.write_text(
        'variant = "trigon"\ncolours = ["blue", "red"]\ngoal = "place-all"\n'
        '[pieces]\nblue = ["I6", "L6", "V", "S", "P6"]\nred = ["I6", "L6", "V", "S", "P6"]\n',
        encoding="utf-8",
    )
    result = run_cli("solve", puzzle, "--backend", backend, "--time-limit", "30")
    assert result.exit_code == 0, result.output
    assert f"status: solved  [{backend}" in result.output
    assert "placed 5 of 5 pieces" in result.output


def test_solve_with_the_symmetric_backend_on_a_trigon_puzzle_file(tmp_path):
    solves_a_puzzle_file(tmp_path, "symmetric")


def test_one_trigon_colour_is_refused_in_one_line():
    """A colour a symmetry maps onto itself would need a symmetric layout of its own: the
    backend needs two or more colours, on Trigon as on squares."""
    result = run_cli("solve", PUZZLES / "trigon-one-colour.toml", "--backend", "symmetric")
    one_line_error(result, "trigon-one-colour.toml", "no board symmetry maps this problem")


def test_a_first_run_waits_for_the_kernel_and_never_falls_back_to_cpsat(monkeypatch):
    """While another process compiles the search kernel, squares answer with CP-SAT's
    reduction; Trigon has no CP-SAT model, so the backend waits for the compile (here it
    never ends: the time limit does, "unknown") and never loads CP-SAT's reduction."""
    from solver.backends import cpsat, warmup

    def no_cpsat(*args, **kwargs):
        raise AssertionError("CP-SAT's reduction ran on a Trigon board")

    monkeypatch.setattr(cpsat, "solve_symmetric", no_cpsat)
    monkeypatch.setattr(warmup, "compiling_elsewhere", lambda: True)
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    problem = _problem("trigon", ("blue", "red"), 3)
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=0.5, workers=1))
    assert result.status == "unknown" and "waited_for_compile" in result.stats
    monkeypatch.setattr(warmup, "kernel_ready", lambda: True)  # the compile is done
    result = solve(problem, SolveOptions(backend="symmetric", time_limit=30, workers=1))
    assert result.status == "solved"
