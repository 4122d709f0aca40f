"""The CP-SAT backend, checked against a brute-force enumerator written here from the rules.

Every call goes through :func:`solver.tasks.solve.solve`, so the rule checker verifies each layout
the backend returns (an illegal one raises SolverBug).
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest
from ortools.sat.python import cp_model

from solver.backends.base import SolveOptions
from solver.backends.cpsat import cuts as cpsat_cuts
from solver.backends.cpsat import model as cpsat
from solver.backends.cpsat import params as cpsat_params
from solver.backends.cpsat import solving as cpsat_solving
from solver.core.board import Board
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem
from solver.core.variants import VARIANTS
from solver.errors import InputError
from solver.formats.puzzle import parse_puzzle
from solver.tasks.solve import solve

CPSAT = SolveOptions(backend="cpsat")

# ---------------------------------------------------------------------------------------------
# An independent brute force: shapes drawn here, placements, edge and corner contact by hand.

SHAPES = {
    "1": ["X"],
    "2": ["XX"],
    "I3": ["XXX"],
    "V3": ["X.", "XX"],
    "O": ["XX", "XX"],
    "L5": ["X.", "X.", "X.", "XX"],
    "T5": ["XXX", ".X.", ".X."],
    "Y": ["X.", "XX", "X.", "X."],
}
SIZES = {name: sum(row.count("X") for row in rows) for name, rows in SHAPES.items()}


def shape_orientations(name):
    cells = [(r, c) for r, row in enumerate(SHAPES[name]) for c, ch in enumerate(row) if ch == "X"]
    out = set()
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]
        for pts in (cells, [(r, -c) for r, c in cells]):
            r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
            out.add(frozenset((r - r0, c - c0) for r, c in pts))
    return out


def board_placements(rows, cols, blocked, name):
    """All placements of a piece on free squares, as frozensets of (row, col)."""
    out = []
    for shape in shape_orientations(name):
        for dr in range(rows):
            for dc in range(cols):
                cells = frozenset((r + dr, c + dc) for r, c in shape)
                if all(r < rows and c < cols and (r, c) not in blocked for r, c in cells):
                    out.append(cells)
    return out


def edge_ring(cells):
    return {
        (r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
    } - cells


def corner_ring(cells):
    return (
        {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))}
        - cells
        - edge_ring(cells)
    )


def reaches_all(pieces, start):
    """Whether the corner contacts link every piece to the piece covering ``start``."""
    todo = [p for p in pieces if start in p]
    seen = set(todo)
    while todo:
        here = corner_ring(todo.pop())
        for p in pieces:
            if p not in seen and here & p:
                seen.add(p)
                todo.append(p)
    return len(seen) == len(pieces)


def legal_sets(rows, cols, start, pieces, blocked=frozenset(), connected=True, optional=False):
    """Yield (piece names, placements) of every layout of one colour, brute force.

    Each layout uses each listed piece once (Junior duplicates: list a piece twice), or, with
    ``optional``, any sub-multiset. Legal: no overlap, no shared edge, a piece on ``start``,
    and (``connected``) corner contacts linking every piece to that one; with
    ``connected=False``, only local support: every other piece touches one at a corner.
    """
    names = list(pieces)
    options = {n: board_placements(rows, cols, blocked, n) for n in set(names)}
    choices = [options[n] + ([None] if optional else []) for n in names]
    for combo in apart(choices):
        chosen = [(n, p) for n, p in zip(names, combo) if p is not None]
        if not chosen:
            continue
        cells = [p for _, p in chosen]
        if not any(start in p for p in cells):
            continue
        if connected:
            if not reaches_all(cells, start):
                continue
        elif not all(
            start in p or any(corner_ring(p) & q for q in cells if q is not p) for p in cells
        ):
            continue
        yield chosen


def apart(choices, prefix=()):
    """``itertools.product(*choices)`` (in its order) less the combinations in which two
    placements (None: a piece left out) overlap or share an edge; a pair is refused as soon
    as its second placement is chosen, so the product is never built in full."""
    if len(prefix) == len(choices):
        yield prefix
        return
    for p in choices[len(prefix)]:
        if p is None or not any(q is not None and not halo(p).isdisjoint(q) for q in prefix):
            yield from apart(choices, prefix + (p,))


@functools.cache
def halo(cells):
    """A placement's squares and those sharing an edge with them (a frozenset)."""
    return frozenset(cells | edge_ring(cells))


def count_layouts(*args, **kwargs):
    """Layouts counted as sets (the two copies of a Junior piece are interchangeable)."""
    return len({frozenset(layout) for layout in legal_sets(*args, **kwargs)})


def monomino_last_possible(chosen, start):
    """Whether a legal layout can be played with a monomino last: for some monomino, the
    other pieces (another monomino included, as an ordinary piece) are empty (a lone
    monomino is last), or one of them covers ``start`` and corner contacts link them all
    to it without that monomino."""
    for k, (name, _) in enumerate(chosen):
        others = [p for j, (_, p) in enumerate(chosen) if j != k]
        if name == "1" and (
            not others or (any(start in p for p in others) and reaches_all(others, start))
        ):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Problems


def one_colour(
    rows, cols, start, pieces, blocked=(), goal="place-all", monomino_last=False, bonus=True
):
    board = Board(rows, cols, frozenset(Board(rows, cols).parse(b) for b in blocked))
    state = ColourState("blue", board.parse(start), (), tuple(pieces))
    return Problem(Position(board, (state,), bonus=bonus), ("blue",), goal, monomino_last)


def rc(board, name):
    return board.row_col(board.parse(name))


SMALL = [  # (rows, cols, start, pieces, number of layouts: issue facts)
    (5, 5, "a5", ("1", "2", "V3"), 146),
    (5, 5, "c3", ("L5", "T5", "Y"), 8),
    (4, 4, "a4", ("1", "2", "V3", "O"), 0),
]


@pytest.mark.parametrize("rows,cols,start,pieces,count", SMALL)
def test_small_puzzles_agree_with_brute_force(rows, cols, start, pieces, count):
    board = Board(rows, cols)
    assert count_layouts(rows, cols, rc(board, start), pieces) == count
    result = solve(one_colour(rows, cols, start, pieces), CPSAT)
    assert result.status == ("solved" if count else "infeasible")


def test_island_relaxation_has_a_layout_but_the_puzzle_has_none():
    # 4x4 from a4 with d4 and d3 blocked: the 2, I3 and V3 can each touch another piece at
    # a corner, and every placement is linked to the start by some chain of placements, but
    # no layout links all three pieces to the start (found by a brute-force search).
    rows, cols, blocked = 4, 4, ("d4", "d3")
    board = Board(rows, cols)
    cells = frozenset(rc(board, b) for b in blocked)
    pieces = ("2", "I3", "V3")
    start = rc(board, "a4")
    assert count_layouts(rows, cols, start, pieces, cells, connected=False) > 0
    assert count_layouts(rows, cols, start, pieces, cells) == 0
    problem = one_colour(rows, cols, "a4", pieces, blocked)
    # the model without cuts (local corner support only) has a solution, with an island
    built = cpsat.build_model(problem)
    solver = cp_model.CpSolver()
    assert solver.solve(built.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    cm = built.colours[0]
    chosen = np.array([i for i, v in enumerate(cm.x) if solver.boolean_value(v)])
    assert len(chosen) == 3 and cpsat_cuts.islands(cm, chosen)
    result = solve(problem, CPSAT)
    assert result.status == "infeasible"
    assert result.stats["cuts"] > 0


def test_monomino_needed_as_a_bridge_makes_monomino_last_infeasible():
    # Free squares: a4 b4 (the 2 on the start square), c3 (a bridge only the monomino fits),
    # d2 e2 f2 (the I3): the I3 touches the 2 only through the monomino.
    rows, cols = 4, 7
    board = Board(rows, cols)
    free = {"a4", "b4", "c3", "d2", "e2", "f2"}
    blocked = [board.name(s) for s in range(board.size) if board.name(s) not in free]
    pieces = ("1", "2", "I3")
    cells = frozenset(rc(board, b) for b in blocked)
    layouts = list(legal_sets(rows, cols, rc(board, "a4"), pieces, cells))
    assert len(layouts) == 1
    assert not monomino_last_possible(layouts[0], rc(board, "a4"))
    assert solve(one_colour(rows, cols, "a4", pieces, blocked), CPSAT).status == "solved"
    strict = one_colour(rows, cols, "a4", pieces, blocked, monomino_last=True)
    assert solve(strict, CPSAT).status == "infeasible"


def test_monomino_last_feasible_and_reported():
    board = Board(5, 5)
    start = rc(board, "a5")
    layouts = list(legal_sets(5, 5, start, ("1", "2", "V3")))
    with_bonus = [c for c in layouts if monomino_last_possible(c, start)]
    assert 0 < len(with_bonus) < len(layouts)
    result = solve(one_colour(5, 5, "a5", ("1", "2", "V3"), monomino_last=True), CPSAT)
    assert result.status == "solved"
    report = result.report.report("blue")
    assert report.monomino_last and report.score == 20
    assert result.layout["blue"][-1].piece == "1"


def best_brute_score(rows, cols, start, pieces, blocked=frozenset(), bonus=True):
    best = None
    for chosen in legal_sets(rows, cols, start, pieces, blocked, optional=True):
        left = Counter(pieces) - Counter(n for n, _ in chosen)
        score = -sum(SIZES[n] * k for n, k in left.items())
        if bonus and not left:
            score += 15 + (5 if monomino_last_possible(chosen, start) else 0)
        best = score if best is None else max(best, score)
    nothing = -sum(SIZES[n] for n in pieces)
    return nothing if best is None else max(best, nothing)


def test_max_score_on_an_infeasible_puzzle_is_optimal_and_matches_brute_force():
    board = Board(4, 4)
    pieces = ("1", "2", "V3", "O")
    best = best_brute_score(4, 4, rc(board, "a4"), pieces)
    result = solve(one_colour(4, 4, "a4", pieces, goal="max-score"), CPSAT)
    assert result.status == "optimal"
    assert result.score == best == result.bound
    assert best < 0  # not everything fits (the place-all puzzle is infeasible)


def test_max_score_counts_the_monomino_bonus():
    board = Board(5, 5)
    best = best_brute_score(5, 5, rc(board, "a5"), ("1", "2", "V3"))
    result = solve(one_colour(5, 5, "a5", ("1", "2", "V3"), goal="max-score"), CPSAT)
    assert result.status == "optimal" and result.score == best == 20


def test_junior_duplicates_and_no_bonus():
    # Junior holds two of each shape: the layout must hold both copies, and scores no bonus.
    board = Board(5, 5)
    pieces = ("1", "1", "2", "2")
    count = count_layouts(5, 5, rc(board, "a5"), pieces)
    assert count > 0
    result = solve(one_colour(5, 5, "a5", pieces, bonus=False), CPSAT)
    assert result.status == "solved"
    assert Counter(p.piece for p in result.layout["blue"]) == Counter(pieces)
    best = solve(one_colour(5, 5, "a5", pieces, goal="max-score", bonus=False), CPSAT)
    assert best.status == "optimal" and best.score == 0
    # monomino last with two monominoes: the other pieces connect without either of them
    start = rc(board, "a5")
    strict = any(monomino_last_possible(c, start) for c in legal_sets(5, 5, start, pieces))
    result = solve(one_colour(5, 5, "a5", pieces, monomino_last=True, bonus=False), CPSAT)
    assert result.status == ("solved" if strict else "infeasible")


JUNIOR_TWO_MONOMINOES = """
variant = "junior"
colours = ["purple"]
monomino-last = true

[pieces]
purple = ["1", "1"]
"""


def test_junior_two_monominoes_either_may_be_last():
    # Purple starts on e10: one monomino covers it, the other touches it at one of the four
    # corners d11, f11, d9, f9 (no shared edge), so 4 layouts; in each, the monomino on the
    # start square is not alone and the other can be placed last.
    problem = parse_puzzle(JUNIOR_TWO_MONOMINOES)
    board = problem.position.board
    start_square = problem.position.colour("purple").start
    assert board.name(start_square) == "e10"
    start = board.row_col(start_square)
    layouts = {frozenset(c) for c in legal_sets(board.rows, board.cols, start, ("1", "1"))}
    assert len(layouts) == 4
    assert all(monomino_last_possible(list(c), start) for c in layouts)
    result = solve(problem, CPSAT)
    assert result.status == "solved"
    report = result.report.report("purple")
    assert report.all_placed and report.monomino_last and report.score == 0
    found = frozenset(
        ("1", frozenset(board.row_col(s) for s in p.squares)) for p in result.layout["purple"]
    )
    assert found in layouts


def test_two_monominoes_with_bonus_score_the_monomino_last():
    # a custom board with the bonus and two monominoes: 15 + 5 (the same 4 layouts shape)
    board = Board(5, 5)
    assert best_brute_score(5, 5, rc(board, "c3"), ("1", "1")) == 20
    best = solve(one_colour(5, 5, "c3", ("1", "1"), goal="max-score"), CPSAT)
    assert best.status == "optimal" and best.score == best.bound == 20
    strict = solve(one_colour(5, 5, "c3", ("1", "1"), monomino_last=True), CPSAT)
    assert strict.status == "solved" and strict.score == 20


@pytest.mark.parametrize(
    "pieces,feasible", [(("1", "1", "2", "I3"), True), (("1", "2", "I3"), False)]
)
def test_one_monomino_bridges_the_other_is_last(pieces, feasible):
    # Free squares: a4 b4 (the 2 on the start square a4), c3 (a bridge only a monomino
    # fits), d2 e2 f2 (the I3) and g1. The I3 touches the 2 only through a monomino on c3.
    # Two monominoes fill all 7 squares: the one on g1 can be last. One monomino must
    # bridge: it cannot be last (on g1 it would leave the I3 an island).
    rows, cols = 4, 7
    board = Board(rows, cols)
    free = {"a4", "b4", "c3", "d2", "e2", "f2", "g1"}
    blocked = [board.name(s) for s in range(board.size) if board.name(s) not in free]
    cells = frozenset(rc(board, b) for b in blocked)
    start = rc(board, "a4")
    layouts = list(legal_sets(rows, cols, start, pieces, cells))
    assert len({frozenset(c) for c in layouts}) == 1  # 7 squares: one way (see above)
    assert any(monomino_last_possible(c, start) for c in layouts) == feasible
    result = solve(one_colour(rows, cols, "a4", pieces, blocked, monomino_last=True), CPSAT)
    assert result.status == ("solved" if feasible else "infeasible")
    if feasible:
        assert board.names(result.layout["blue"][-1].squares) == ["g1"]
    best = solve(one_colour(rows, cols, "a4", pieces, blocked, goal="max-score"), CPSAT)
    assert best.status == "optimal"
    assert best.score == best_brute_score(rows, cols, start, pieces, cells)
    assert best.score == (20 if feasible else 15)


def test_two_monominoes_both_bridges_none_is_last():
    # 4x9, free squares a4 b4 (the 2 on the start square a4), c3, d2 e2 f2 (the I3), g1,
    # h2 i2 i3 (the V3): a chain 2 - 1 - I3 - 1 - V3, every piece forced. Each monomino is
    # a bridge, so neither can be last.
    rows, cols = 4, 9
    board = Board(rows, cols)
    free = {"a4", "b4", "c3", "d2", "e2", "f2", "g1", "h2", "i2", "i3"}
    blocked = [board.name(s) for s in range(board.size) if board.name(s) not in free]
    cells = frozenset(rc(board, b) for b in blocked)
    pieces = ("1", "1", "2", "I3", "V3")
    start = rc(board, "a4")
    layouts = list(legal_sets(rows, cols, start, pieces, cells))
    assert len({frozenset(c) for c in layouts}) == 1
    assert not monomino_last_possible(layouts[0], start)
    assert solve(one_colour(rows, cols, "a4", pieces, blocked), CPSAT).status == "solved"
    strict = one_colour(rows, cols, "a4", pieces, blocked, monomino_last=True)
    assert solve(strict, CPSAT).status == "infeasible"
    best = solve(one_colour(rows, cols, "a4", pieces, blocked, goal="max-score"), CPSAT)
    assert best.status == "optimal" and best.score == best.bound == 15


def test_junior_duplicates_that_do_not_fit():
    # two O's and two V3's on a 4x4 board from a corner: brute force says no
    board = Board(4, 4)
    pieces = ("V3", "V3", "O", "O")
    assert count_layouts(4, 4, rc(board, "a4"), pieces) == 0
    assert solve(one_colour(4, 4, "a4", pieces, bonus=False), CPSAT).status == "infeasible"


def test_two_colours_around_a_frozen_third_colour():
    board = Board(7, 7, frozenset({Board(7, 7).parse("g7")}))
    red = ColourState(
        "red",
        None,
        (Placement("O", frozenset(board.parse(s) for s in ("c4", "d4", "c3", "d3"))),),
        (),
    )
    blue = ColourState(
        "blue",
        board.parse("a7"),
        (Placement("V3", frozenset(board.parse(s) for s in ("a7", "a6", "b6"))),),
        ("1", "2", "I3", "L4"),
    )
    yellow = ColourState("yellow", board.parse("g1"), (), ("2", "V3", "T4", "Z4"))
    problem = Problem(Position(board, (blue, yellow, red)), ("blue", "yellow"))
    result = solve(problem, CPSAT)
    assert result.status == "solved"
    assert result.report.report("red").added == 0
    taken = {s for c in ("blue", "yellow") for p in result.layout[c] for s in p.squares}
    assert not taken & (red.squares | board.blocked)


@pytest.mark.slow
def test_classic_one_colour_all_pieces_monomino_last():
    # 13-16 s of CPU (2 workers or 1, seeds 0 and 1, 2026-12-03; earlier 5.5-7.7 s wall on 2
    # cores over seeds 0-5; without the guide: 2 of 6 in 120 s)
    problem = Problem(Position.empty(VARIANTS["classic"]), ("blue",), "place-all", True)
    result = solve(problem, CPSAT)
    assert result.status == "solved"
    report = result.report.report("blue")
    assert report.all_placed and report.monomino_last and report.score == 15 + 5


@pytest.mark.slow
def test_tiny_time_limit_gives_unknown_never_infeasible():
    problem = Problem(Position.empty(VARIANTS["duo"]), ("purple", "orange"), "place-all", True)
    result = solve(problem, SolveOptions(backend="cpsat", time_limit=1.0))
    assert result.status == "unknown"
    assert result.layout is None
    best = solve(
        Problem(problem.position, ("purple", "orange"), "max-score"),
        SolveOptions(backend="cpsat", time_limit=2.0),
    )
    assert best.status in ("unknown", "solved")  # a layout, if any, is checked by solve()
    if best.status == "solved":
        assert best.score <= best.bound <= 40


def test_bad_params_raise_input_error_naming_the_text():
    problem = one_colour(5, 5, "a5", ("1", "2", "V3"))
    with pytest.raises(InputError, match="no_such_parameter"):
        solve(problem, SolveOptions(backend="cpsat", params="no_such_parameter: 3"))
    with pytest.raises(InputError, match="num_workers"):
        solve(problem, SolveOptions(backend="cpsat", params="num_workers: lots"))
    with pytest.raises(InputError, match="max_time_in_seconds: -1"):  # a value CP-SAT refuses
        solve(problem, SolveOptions(backend="cpsat", params="max_time_in_seconds: -1"))


def test_params_are_passed_to_cp_sat():
    problem = one_colour(5, 5, "c3", ("L5", "T5", "Y"))
    result = solve(
        problem,
        SolveOptions(backend="cpsat", params="num_search_workers: 1 cp_model_presolve: false"),
    )
    assert result.status == "solved"
    result = solve(
        problem, SolveOptions(backend="cpsat", workers=1, seed=7, params="cp_model_presolve: false")
    )
    assert result.status == "solved"
    assert {"literals", "constraints", "iterations", "cuts", "cpsat_wall"} <= set(result.stats)


def random_puzzles(n, seed=7):
    """Small random one-colour puzzles: board 4x4..5x5, up to 4 blocked squares, 4 pieces."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        rows, cols = int(rng.integers(4, 6)), int(rng.integers(4, 6))
        board = Board(rows, cols)
        squares = [board.name(s) for s in range(board.size)]
        start = str(rng.choice(squares))
        others = [s for s in squares if s != start]
        blocked = tuple(str(s) for s in rng.choice(others, int(rng.integers(0, 5)), replace=False))
        pieces = tuple(
            sorted(str(p) for p in rng.choice(["1", "2", "I3", "V3", "O"], 4, replace=False))
        )
        yield rows, cols, start, blocked, pieces


@pytest.mark.parametrize("rows,cols,start,blocked,pieces", list(random_puzzles(12)))
def test_random_small_puzzles_agree_with_brute_force(rows, cols, start, blocked, pieces):
    board = Board(rows, cols)
    cells = frozenset(rc(board, b) for b in blocked)
    begin = rc(board, start)
    layouts = list(legal_sets(rows, cols, begin, pieces, cells))
    mono_last = [c for c in layouts if monomino_last_possible(c, begin)]
    plain = solve(one_colour(rows, cols, start, pieces, blocked), CPSAT)
    assert plain.status == ("solved" if layouts else "infeasible")
    if "1" in pieces:
        strict = solve(one_colour(rows, cols, start, pieces, blocked, monomino_last=True), CPSAT)
        assert strict.status == ("solved" if mono_last else "infeasible")
    best = solve(one_colour(rows, cols, start, pieces, blocked, goal="max-score"), CPSAT)
    assert best.status == "optimal"
    assert best.score == best.bound == best_brute_score(rows, cols, begin, pieces, cells)


def random_two_monomino_puzzles(n, seed=3):
    """Small random one-colour puzzles with two monominoes (as in Junior, but with the
    bonus): board 4x4 or 4x5, 1 to 5 blocked squares, two monominoes and two other pieces."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        rows, cols = 4, int(rng.integers(4, 6))
        board = Board(rows, cols)
        squares = [board.name(s) for s in range(board.size)]
        start = str(rng.choice(squares))
        others = [s for s in squares if s != start]
        blocked = tuple(str(s) for s in rng.choice(others, int(rng.integers(1, 6)), replace=False))
        pieces = ("1", "1") + tuple(
            sorted(str(p) for p in rng.choice(["2", "I3", "V3"], 2, replace=False))
        )
        yield rows, cols, start, blocked, pieces


@pytest.mark.parametrize("rows,cols,start,blocked,pieces", list(random_two_monomino_puzzles(8)))
def test_random_two_monomino_puzzles_agree_with_brute_force(rows, cols, start, blocked, pieces):
    board = Board(rows, cols)
    cells = frozenset(rc(board, b) for b in blocked)
    begin = rc(board, start)
    layouts = list(legal_sets(rows, cols, begin, pieces, cells))
    mono_last = [c for c in layouts if monomino_last_possible(c, begin)]
    strict = solve(one_colour(rows, cols, start, pieces, blocked, monomino_last=True), CPSAT)
    assert strict.status == ("solved" if mono_last else "infeasible")
    best = solve(one_colour(rows, cols, start, pieces, blocked, goal="max-score"), CPSAT)
    assert best.status == "optimal"
    assert best.score == best.bound == best_brute_score(rows, cols, begin, pieces, cells)


@pytest.mark.parametrize(
    "placed,remaining,status",
    [
        ("1", (), "solved"),  # nothing left, the monomino really was last
        ("2", (), "infeasible"),  # nothing left, but the last piece was the domino
        ("1", ("2",), None),  # the monomino is gone and a piece is left: bad input
    ],
)
def test_monomino_last_when_the_monomino_is_not_left(placed, remaining, status):
    board = Board(5, 5)
    squares = {"1": ("a5",), "2": ("a5", "b5")}[placed]
    state = ColourState(
        "blue",
        board.parse("a5"),
        (Placement(placed, frozenset(board.parse(s) for s in squares)),),
        remaining,
    )
    position = Position(board, (state,))
    if status is None:
        with pytest.raises(InputError, match="monomino-last: blue has no monomino left"):
            Problem(position, ("blue",), "place-all", True)
        return
    problem = Problem(position, ("blue",), "place-all", True)
    assert solve(problem, CPSAT).status == status


# every shipped layout in place-all; max-score (the same rows, enforced under the "all
# placed" and bonus literals) on the boards of one, two and four colours (the three-colour
# record boards are alike in that and take 6-7 s of CPU each)
ROW_BOARDS = {
    "classic-solo-84.json": ("place-all", "max-score"),
    "duo-both.json": ("place-all", "max-score"),
    "records/one-13x13.json": ("place-all",),
    "records/one-3x48.json": ("place-all", "max-score"),
    "records/two-14x14.json": ("place-all", "max-score"),
    "records/three-19x15.json": ("place-all",),
    "records/three-20x14.json": ("place-all",),
}


@pytest.mark.parametrize(
    "name, goal", [(name, goal) for name, goals in ROW_BOARDS.items() for goal in goals]
)
@pytest.mark.slow
def test_every_row_of_the_model_holds_for_a_verified_layout(name, goal):
    # the shipped layouts (verified by the rule checker) fixed in the model, guide off: a
    # row that cuts off a legal layout (the 2x2-block rows, say) makes the model infeasible
    from helpers import ROOT

    from solver.answers.solution import read_solution

    solution = read_solution(ROOT / "results" / name)
    problem = Problem(solution.position, tuple(solution.layout), goal)
    built = cpsat.build_model(problem, guide=False, blocks=True)
    for cm in built.colours:
        chosen = set(solution.layout[cm.name])
        assert len(chosen) == len(solution.layout[cm.name]) == 21
        starts, rows = cm.table.covering()  # only the rows that could be a chosen placement
        near = {int(i) for p in chosen for s in p.squares for i in rows[starts[s] : starts[s + 1]]}
        picked = {i for i in near if cm.table.placement(i) in chosen}
        assert len(picked) == 21
        for i in picked:
            built.model.add(cm.x[i] == 1)
        built.model.add(sum(x for i, x in enumerate(cm.x) if i not in picked) == 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(built.model) == cp_model.OPTIMAL


@pytest.mark.slow
def test_proof_params_prove_a_rectangle_the_counting_bounds_leave():
    # 3x47: the counting bounds leave it, the LP bound excludes it (88.6 of 89); the CP-SAT
    # backend re-proves it on its own model with the block rows and PROOF_PARAMS (about
    # 10 s here); without the block rows CP-SAT is unknown after 120 s
    from helpers import corner_problem

    options = SolveOptions(
        backend="cpsat", workers=1, time_limit=300, params=cpsat_params.PROOF_PARAMS
    )
    assert solve(corner_problem(3, 47), options).status == "infeasible"


def test_block_rows_come_with_the_full_relaxation_only():
    assert cpsat_params.full_relaxation(cpsat_params.parse_params(cpsat_params.PROOF_PARAMS))
    assert not cpsat_params.full_relaxation(cpsat_params.parse_params("linearization_level: 1"))
    assert not cpsat_params.full_relaxation(cpsat_params.parse_params(""))
    problem = parse_puzzle(
        'variant = "custom"\nsize = [6, 6]\ncolours = ["blue"]\n'
        '[pieces]\nblue = ["O", "V3"]\n[start]\nblue = "a6"\n'
    )
    plain = cpsat.build_model(problem, guide=False).model.proto.constraints
    full = cpsat.build_model(problem, guide=False, blocks=True).model.proto.constraints
    assert len(full) > len(plain)


def test_the_record_proofs_use_the_proof_params():
    # the record puzzles' descriptions name the parameters that re-prove them
    from helpers import PUZZLES

    named = [p for p in (PUZZLES / "records").glob("*.toml") if "--params" in p.read_text()]
    assert len(named) >= 5
    for path in named:
        assert f"--params '{cpsat_params.PROOF_PARAMS}'" in path.read_text(), path.name


def test_a_seed_derived_past_int32_wraps_round():
    """CP-SAT's random_seed is an int32; the companion derives seeds from the user's
    (seed + 1000 per move, + 1 per candidate pondered), so from a seed near 2^31 - 1 the
    solves of a ponder raised TypeError from OR-tools (found with issue 41 item 6)."""
    board = Board(3, 3)
    position = Position(board, (ColourState("blue", 0, (), ("1", "2")),))
    problem = Problem(position, ("blue",))
    result = solve(problem, SolveOptions(backend="cpsat", seed=2**31 + 5, time_limit=10))
    assert result.status == "solved"
    solver = cp_model.CpSolver()
    cpsat_solving._configure(solver, SolveOptions(seed=2**31 + 5), "", None)
    assert solver.parameters.random_seed == 5
