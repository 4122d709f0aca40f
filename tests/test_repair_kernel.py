"""The compiled repair search (solver/backends/repair/kernel.py, compiled.py): its state
kept step by step against one recomputed from scratch (the debug mode), its pieces cut
off against the Python contact graph, its exact re-placement against brute force, its
monominoes' matching against the Python one, and its layouts through the rule checker."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import solver.api as blokus
from solver.backends.repair import kernel as rk
from solver.backends.repair.compiled import Run, layout_of
from solver.backends.repair.greedy import match_monominoes
from solver.backends.repair.repairer import ContactGraph
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.order import order_of_play
from solver.core.position import ColourState, Position
from tests.brute import brute_layouts
from tests.helpers import PUZZLES

FOLLOW = Path(__file__).parent / "data" / "follow"


def legal_complete(position, layout) -> bool:
    ordered = {}
    for c, pieces in layout.items():
        order = order_of_play(position, c, pieces)
        if order is None:
            return False
        ordered[c] = order
    report = check_layout(position, ordered)
    return report.legal and all(r.all_placed for r in report.colours)


def test_debug_mode_keeps_the_state_step_after_step():
    """Every step recomputes the counters from the position and the slots and checks each
    piece by the rules (edges, corner connection): a wrong update stops the run."""
    problem = blokus.load(str(PUZZLES / "asym-ladder-k06.toml"))
    run = Run(problem.position, problem.colours, seed=3, debug=True)
    found = run.advance(steps=400)
    assert run.steps > 0 and run.stats()["ejections"] > 0 and run.stats()["repairs"] > 0
    best = run.best()
    assert sum(len(p.squares) for ps in best.values() for p in ps) > 0
    if found:
        assert legal_complete(problem.position, run.layout())


def test_a_layout_found_passes_the_rule_checker():
    problem = blokus.load(str(PUZZLES / "asym-ladder-k03.toml"))
    run = Run(problem.position, problem.colours, seed=0, debug=True)
    assert run.advance(steps=2000)
    layout = run.layout()
    assert legal_complete(problem.position, layout)
    assert {c: len(v) for c, v in layout.items()} == {
        c: len(problem.position.colour(c).remaining) for c in problem.colours
    }


def test_the_same_seed_makes_the_same_steps():
    problem = blokus.load(str(PUZZLES / "asym-classic-84.toml"))
    a = Run(problem.position, problem.colours, seed=5)
    b = Run(problem.position, problem.colours, seed=5)
    a.advance(steps=60)
    b.advance(steps=60)
    assert a.stats() == b.stats()
    assert (a.state.slot_row == b.state.slot_row).all()


def test_pieces_cut_off_agree_with_the_contact_graph():
    """The kernel's closure (a removal plus the pieces it cuts off from their roots) is
    the Python ContactGraph's on random removals from greedy layouts."""
    problem = blokus.load(str(PUZZLES / "asym-ladder-k12.toml"))
    rng = np.random.default_rng(1)
    for seed in range(3):
        run = Run(problem.position, problem.colours, seed=seed)
        run.advance(steps=0)  # the first layout: greedy play
        t, s = run.tables, run.state
        placed = [k for k in range(len(s.slot_row)) if s.slot_row[k] >= 0]
        layout = run.layout()
        flat = [(c, p) for c in run.colours for p in layout[c]]
        index = {}
        for k in placed:
            c = run.colours[int(t.slot_col[k])]
            sq = t.pl_sq[s.slot_row[k]]
            squares = frozenset(int(x) for x in sq[sq >= 0])
            index[k] = next(i for i, (d, p) in enumerate(flat) if d == c and p.squares == squares)
        graph = ContactGraph(problem.position, flat)
        for _ in range(30):
            hit = rng.choice(placed, int(rng.integers(1, 4)), replace=False)
            s.gone[:] = 0
            s.gone[hit] = 1
            cells = rk.closure_of(t, s)
            mask = graph.closure(sum(1 << index[int(k)] for k in hit))
            ours = {index[k] for k in placed if s.gone[k]}
            assert ours == {i for i in range(len(flat)) if mask >> i & 1}
            assert cells == sum(len(flat[i][1].squares) for i in ours)


def small_positions(n, seed=11):
    """Small random positions: a 4x4 to 5x6 board, 2-6 blocked squares, one or two
    colours from corners with 2-3 pieces each (no monomino: it would be held back)."""
    rng = np.random.default_rng(seed)
    shapes = ["2", "I3", "V3", "O", "L4", "T4", "Z4", "I4"]
    for _ in range(n):
        rows, cols = int(rng.integers(4, 6)), int(rng.integers(4, 7))
        blocked = rng.choice(rows * cols, int(rng.integers(2, 7)), replace=False)
        board = Board(rows, cols, frozenset(int(x) for x in blocked))
        starts = [0, board.size - 1]
        colours = []
        for i in range(int(rng.integers(1, 3))):
            if starts[i] in board.blocked:
                continue
            pieces = tuple(
                sorted(str(p) for p in rng.choice(shapes, int(rng.integers(2, 4)), replace=False))
            )
            colours.append(ColourState(("blue", "red")[i], starts[i], (), pieces))
        if colours:
            yield Position(board, tuple(colours))


@pytest.mark.parametrize("position", list(small_positions(16)))
def test_the_exact_re_placement_agrees_with_brute_force(position):
    """Place-all finds a layout iff one exists; max-score's best is brute force's."""
    colours = tuple(c.name for c in position.colours)
    layouts = brute_layouts(position, colours)
    run = Run(position, colours, seed=0)
    t, s = run.tables, run.state
    s.todo[:] = 1
    res = rk.exact_place(t, s, rk.PLACE_ALL, 10**7)
    assert res == (rk.X_FOUND if layouts else rk.X_DONE)
    if res == rk.X_FOUND:
        assert rk.verify(t, s)
        assert legal_complete(position, run.layout())
        s.slot_row[:] = -1
        rk.init_state(t, s)
    prefixes = brute_layouts(position, colours, complete=False)
    best = max(sum(len(p.squares) for _, p in layout) for layout in prefixes)
    res = rk.exact_place(t, s, rk.MAX_SCORE, 10**7)
    assert res in (rk.X_FOUND, rk.X_DONE)
    assert rk.verify(t, s)
    assert int(sum(t.pl_size[r] for r in s.slot_row if r >= 0)) == best


def test_the_brute_force_cases_hold_layouts_and_dead_ends():
    """The cases above are worth their run: some have a layout, some none."""
    found = [bool(brute_layouts(p, tuple(c.name for c in p.colours))) for p in small_positions(16)]
    assert 0 < sum(found) < len(found)


def test_monominoes_are_matched_as_the_python_matching():
    """The held monominoes go on distinct attach cells: as many as augmenting paths
    give (compared on the colours' attach cells of greedy layouts)."""
    problem = blokus.load(str(PUZZLES / "asym-ladder-k06.toml"))
    for seed in range(4):
        run = Run(problem.position, problem.colours, seed=seed)
        run.advance(steps=0)
        t, s = run.tables, run.state
        short = rk.match_monos(t, s)
        board = problem.position.board
        layout = layout_of(t, problem.position, run.colours, s.slot_row, -np.ones_like(s.mono))
        taken = set(problem.position.occupied) | {
            x for ps in layout.values() for p in ps for x in p.squares
        }
        options = {}
        for i, c in enumerate(run.colours):
            if not t.held[i]:
                continue
            own = set(problem.position.colour(c).squares)
            own |= {x for p in layout[c] for x in p.squares}
            options[c] = {
                x
                for x in range(board.size)
                if x not in taken
                and not own & set(board.edge_neighbours[x])
                and (
                    own & set(board.corner_neighbours[x])
                    if own
                    else x == problem.position.colour(c).start
                )
            }
        python = match_monominoes(options)
        assert len(options) - short == len(python)
        cells = [int(s.mono[i]) for i in range(len(run.colours)) if t.held[i] and s.mono[i] >= 0]
        assert len(cells) == len(set(cells))
        for i, c in enumerate(run.colours):
            if t.held[i] and s.mono[i] >= 0:
                assert int(s.mono[i]) in options[c]


def test_a_warm_start_that_breaks_the_rules_is_refused():
    """A start whose piece connects to nothing of its colour (an island) is refused."""
    problem = blokus.load(str(PUZZLES / "asym-ladder-k06.toml"))
    run = Run(problem.position, problem.colours, seed=0)
    run.advance(steps=0)
    board = problem.position.board
    for colour, pieces in run.layout().items():
        own = problem.position.colour(colour).squares
        for p in pieces:
            ring = {x for q in p.squares for x in board.corner_neighbours[q]}
            if not ring & own:  # touches only its colour's added pieces: alone, an island
                with pytest.raises(ValueError):
                    Run(problem.position, problem.colours, seed=0, start={colour: [p]})
                return
    raise AssertionError("no piece away from its colour's squares in the position")


def test_a_new_start_is_the_best_of_its_greedy_layouts():
    """``restarts`` greedy layouts per start, the best kept: the first of them is the one
    a single play makes (the same seed), so more can only do as well or better."""
    problem = blokus.load(str(PUZZLES / "asym-classic-84.toml"))
    costs = []
    for seed in range(4):
        one = Run(problem.position, problem.colours, seed, restarts=1)
        eight = Run(problem.position, problem.colours, seed, restarts=8)
        one.advance(steps=0)
        eight.advance(steps=0)
        costs.append((one.best_cost, eight.best_cost))
    assert all(b <= a for a, b in costs)
    assert any(b < a for a, b in costs)


def test_a_warm_run_makes_its_new_starts_from_its_warm_start():
    """A run from a carried layout (the Duo record's layout after 12 placements, the
    last 8 pieces of each colour off) begins, and starts again after stagnating, from that
    layout with greedy play adding the rest: the warm pieces stay on their slots; with
    IP_WARM_RESTART off a new start is greedy play from the position, which keeps none of
    them in place here."""
    game = blokus.load_game(str(FOLLOW / "duo-both-layout.blksgf"))
    position = game.position(12)
    layout = {
        c: list(game.final.colour(c).placed[len(position.colour(c).placed) :])
        for c in position.colour_names
    }
    warm = {c: ps[:-8] for c, ps in layout.items()}
    kept = {(c, p) for c, ps in warm.items() for p in ps}
    for restart in (1, 0):
        run = Run(position, position.colour_names, seed=2, start=warm, debug=True)
        ip = run.tables.ip.copy()
        ip[rk.IP_WARM_RESTART] = restart
        ip[rk.IP_STAGNATION] = 1  # a new start after a step without progress
        run.tables = run.tables._replace(ip=ip)
        run.advance(steps=0)  # the first start: the warm layout completed greedily
        on = {(c, p) for c, ps in run.layout().items() for p in ps}
        assert (kept <= on) == bool(restart)
        assert run.best_cost <= sum(len(p.squares) for ps in layout.values() for p in ps)
        if not restart:
            continue
        restarts = run.stats()["restarts"]
        for _ in range(200):  # a step at a time: a new start is a step's last act
            if run.advance(steps=1):
                break
            if run.stats()["restarts"] > restarts:
                on = {(c, p) for c, ps in run.layout().items() for p in ps}
                assert kept <= on
                restarts = run.stats()["restarts"]
        assert restarts > 10  # (seeded: 187 new starts in the 200 steps, each checked)
