"""The card goals of Blokus Puzzle: squares to cover ("Cover the Stars") and colours to
connect ("Connect the Blocks"), on small boards against the brute-force enumerator
(tests/brute.py: every legal sequence of moves replayed with the reference rules, goals
tested on the final position by king-move connectivity, independent of the rule
checker's corner groups), with and without symmetry; both exact backends must agree and
every layout they find passes the rule checker with the goals."""

from __future__ import annotations

import dataclasses
import random

import pytest
from brute import all_placements, brute_layouts, orbits
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from solver.backends.base import SolveOptions
from solver.backends.cpsat import solving as cpsat_solving
from solver.backends.search import counting as search_counting
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.pieces import PIECE_NAMES
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem, connect_groups
from solver.core.rules import corner_touches, edge_touches, move_problem
from solver.core.symmetry import position_symmetries
from solver.tasks.solve import solve

LIMIT = 5.0
SMALL = [p for p in PIECE_NAMES if p not in ("I5", "L5", "Y", "N", "V5", "W", "Z5", "X")]


def playout(rng: random.Random, position: Position, colour: str, n: int) -> list[Placement]:
    """Up to ``n`` random legal moves of one colour (reference rules), from ``position``."""
    moves: list[Placement] = []
    board = position.board
    for _ in range(n):
        legal = [
            p
            for piece in sorted(set(position.colour(colour).remaining))
            for p in all_placements(board, piece)
            if move_problem(position, colour, p) is None
        ]
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.with_placement(colour, move)
    return moves


def card(seed: int, kind: str) -> Problem:
    """A random small card: kind "avoid" (one colour from a printed piece, blocked squares
    only), "cover" (one colour from a start square or a printed piece, 1-3 stars),
    "connect" (two printed groups) or "two" (two colours with stars).
    Half the time the goal is met by a random playout (stars on its squares, the second
    printed group touching its last piece), else the stars or groups are random."""
    rng = random.Random(seed)
    rows, cols = rng.randint(4, 6), rng.randint(4, 6)
    size = rows * cols
    least = 1 if kind == "avoid" else 0
    blocked = frozenset(rng.sample(range(size), rng.randint(least, size // 8)))
    board = Board(rows, cols, blocked)
    names = ["blue", "red"] if kind == "two" else ["blue"]
    planted = rng.random() < 0.5
    # each colour starts from a printed piece or a start square
    states = []
    taken = set(blocked)
    for name in names:
        bag = rng.sample(SMALL, 5)
        free = sorted(set(range(size)) - taken)
        start = rng.choice(free)
        if kind in ("connect", "avoid") or rng.random() < 0.5:
            alone = ColourState(name, start, (), (bag[0],))
            first = playout(rng, Position(board, (*states, alone)), name, 1)
            if not first:
                return card(seed + 1, kind)
            states.append(ColourState(name, None, tuple(first), tuple(bag[1:])))
            taken |= first[0].squares
        else:
            states.append(ColourState(name, start, (), tuple(bag[1:])))
            taken.add(start)
    position = Position(board, tuple(states))
    # a random playout of each colour, in turn: what a solution could look like
    moves: dict[str, list[Placement]] = {}
    now = position
    for name in names:
        moves[name] = playout(rng, now, name, rng.randint(1, 2 if kind == "two" else 3))
        for m in moves[name]:
            now = now.with_placement(name, m)
    connect: tuple[str, ...] = ()
    if kind == "connect":
        # a second printed piece: after the playout (planted) or anywhere
        placed = list(position.colour("blue").placed)
        first = position.colour("blue").squares
        spare = [
            p
            for piece in sorted(set(now.colour("blue").remaining))
            for p in all_placements(board, piece)
            if not corner_touches(board, p.squares, first)
            and (
                move_problem(now, "blue", p) is None
                if planted
                else not p.squares & (set(board.blocked) | first)
                and not edge_touches(board, p.squares, first)
            )
        ]
        last = [rng.choice(spare)] if spare else []
        if last and not last[0].squares & set(position.occupied):
            placed.append(last[0])
            left = [p for p in now.colour("blue").remaining if p != last[0].piece]
            chain = [m.piece for m in moves["blue"]] + left[: rng.randint(0, 1)]
            states = [
                ColourState(
                    "blue", None, tuple(placed), tuple(sorted(chain, key=PIECE_NAMES.index))
                )
            ]
            position = Position(board, tuple(states))
            if len(connect_groups(position, "blue")) >= 2:
                connect = ("blue",)
    else:
        states = [
            ColourState(
                c.name,
                c.start,
                c.placed,
                tuple(sorted((m.piece for m in moves[c.name]), key=PIECE_NAMES.index)),
            )
            for c in position.colours
        ]
        position = Position(board, tuple(states))
    free = sorted(set(range(size)) - blocked - position.occupied)
    covered = sorted(set().union(*(m.squares for ms in moves.values() for m in ms)) & set(free))
    pool = covered if planted and covered and kind != "connect" else free
    stars: frozenset[int] = frozenset()
    if kind in ("cover", "two") or (kind == "connect" and rng.random() < 0.3):
        stars = frozenset(rng.sample(pool, min(len(pool), rng.randint(1, 3))))
    mono = rng.random() < 0.2 and all("1" in c.remaining for c in position.colours)
    return Problem(position, tuple(names), "place-all", mono, cover=stars, connect=connect)


def brute(problem: Problem) -> set:
    return brute_layouts(
        problem.position,
        problem.colours,
        problem.monomino_last,
        cover=problem.cover,
        connect=problem.connect,
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from(["avoid", "cover", "connect", "connect", "two"]))
@pytest.mark.slow
def test_counts_match_brute_force(seed, kind):
    problem = card(seed, kind)
    assume(kind != "connect" or problem.connect)
    area = sum(c.remaining_squares for c in problem.position.colours)
    assume(area <= 10)
    layouts = brute(problem)
    event(f"{kind}: {'some' if layouts else 'no'} layout")
    count = search_counting.count(problem, time_limit=LIMIT)
    assert count.complete and count.count == len(layouts)
    perms = position_symmetries(problem.position, (problem.cover,))
    up_to = search_counting.count(problem, up_to_symmetry=True, time_limit=LIMIT)
    assert up_to.complete and up_to.count == orbits(layouts, perms)
    for backend in ("search", "cpsat"):
        result = solve(problem, SolveOptions(backend=backend, time_limit=LIMIT))
        assert result.status == ("solved" if layouts else "infeasible"), backend
        if result.layout is not None:
            report = check_layout(problem.position, result.layout, problem.cover, problem.connect)
            assert report.legal and not report.unmet


def one_colour_card(rows, cols, pieces, start=None, placed=(), blocked=()) -> Position:
    board = Board(rows, cols, frozenset(board_squares(rows, cols, blocked)))
    on_board = tuple(Placement(p, frozenset(board_squares(rows, cols, sq))) for p, sq in placed)
    start_sq = None if start is None else board.parse(start)
    return Position(board, (ColourState("blue", start_sq, on_board, tuple(pieces)),))


def board_squares(rows, cols, names):
    board = Board(rows, cols)
    return [board.parse(n) for n in names]


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_a_star_no_piece_can_reach_is_infeasible(backend):
    # blue's printed monomino in the corner a6 and {V3, I3}: 6 squares at most reach
    # three rows and columns out from it; the star f1 is out of reach
    position = one_colour_card(6, 6, ("I3", "V3"), placed=[("1", ["a6"])])
    star = position.board.parse("f1")
    problem = Problem(position, ("blue",), cover=frozenset({star}))
    assert search_counting.count(problem).count == 0
    assert solve(problem, SolveOptions(backend=backend)).status == "infeasible"
    # the same star, with a piece that can get there: solved
    near = Problem(position, ("blue",), cover=frozenset({position.board.parse("c4")}))
    result = solve(near, SolveOptions(backend=backend))
    assert result.status == "solved"
    assert position.board.parse("c4") in result.report.final.owner


@pytest.mark.parametrize("backend", ["search", "cpsat"])
@pytest.mark.slow
def test_groups_that_cannot_be_joined_are_infeasible(backend):
    # two printed blue pieces in opposite corners of 8x8, and only {2, V3} to join them:
    # a chain from b7 to f3 needs squares 1..5 king moves from a8, the two pieces reach 4
    position = one_colour_card(
        8, 8, ("2", "V3"), placed=[("1", ["a8"]), ("O", ["g1", "h1", "g2", "h2"])]
    )
    problem = Problem(position, ("blue",), connect=("blue",))
    assert len(connect_groups(position, "blue")) == 2
    assert search_counting.count(problem).count == 0
    assert solve(problem, SolveOptions(backend=backend)).status == "infeasible"
    # without the goal, the pieces fit
    free = dataclasses.replace(problem, connect=())
    assert solve(free, SolveOptions(backend=backend)).status == "solved"


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_a_wall_between_the_groups_is_infeasible(backend):
    # a blocked column d splits the board: enough pieces, but no way across
    position = one_colour_card(
        6,
        7,
        ("I3", "V3", "L4"),
        placed=[("1", ["a6"]), ("2", ["g1", "g2"])],
        blocked=[f"d{r}" for r in range(1, 7)],
    )
    problem = Problem(position, ("blue",), connect=("blue",))
    assert search_counting.count(problem).count == 0
    assert solve(problem, SolveOptions(backend=backend)).status == "infeasible"


def test_a_joined_colour_with_nothing_left_meets_the_goal_or_not():
    position = one_colour_card(4, 4, (), placed=[("1", ["a4"]), ("2", ["c1", "d1"])])
    problem = Problem(position, ("blue",), connect=("blue",))
    assert search_counting.count(problem).count == 0
    assert cpsat_solving.solve(problem, SolveOptions()).status == "infeasible"
    joined = one_colour_card(4, 4, (), placed=[("1", ["a4"]), ("2", ["b3", "c3"])])
    assert search_counting.count(Problem(joined, ("blue",), connect=("blue",))).count == 1


def test_the_checker_names_the_missed_goals():
    position = one_colour_card(
        5, 5, ("2",), placed=[("1", ["a5"]), ("O", ["d1", "e1", "d2", "e2"])]
    )
    board = position.board
    layout = {"blue": [Placement("2", frozenset(board_squares(5, 5, ["b4", "b3"])))]}
    report = check_layout(position, layout, frozenset({board.parse("c3")}), ("blue",))
    assert report.legal
    assert report.unmet == ("star c3 is not covered", "blue's pieces are 2 groups, not one")
    joined = {"blue": [Placement("2", frozenset(board_squares(5, 5, ["b4", "c4"])))]}
    report = check_layout(position, joined, frozenset({board.parse("c4")}), ("blue",))
    assert report.unmet == ("blue's pieces are 2 groups, not one",)


def test_a_printed_piece_is_the_only_start():
    # no start square: the first piece placed touches the printed piece at a corner
    position = one_colour_card(4, 4, ("V3",), placed=[("2", ["a4", "b4"])])
    problem = Problem(position, ("blue",))
    layouts = brute(problem)
    assert search_counting.count(problem).count == len(layouts) > 0
    for layout in layouts:  # b4's only free corner is c3 (a3 and b3 share an edge with it)
        ((_, placement),) = layout
        assert position.board.parse("c3") in placement.squares
