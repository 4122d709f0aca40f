"""The fundamental-domain search (backend "domain", Gottfried's quadrant method): its
orbits and group tables, every layout through the rule checker, and the refusals of what
it cannot answer (its agreement with the retired square-first search on small boards is in
research/tests/test_tight.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from brute import brute_layouts
from helpers import CORNER_COLOURS, corner_problem

from solver.backends.base import SolveOptions, order_and_check
from solver.backends.base import SolveOptions as BackendOptions
from solver.backends.domain import kernel as dk
from solver.backends.domain import quadrants as domain
from solver.core.board import Board
from solver.core.colour_symmetry import colour_symmetries
from solver.core.pieces import PIECE_NAMES
from solver.core.symmetry import board_symmetries, group_tables
from solver.errors import InputError
from solver.tasks.solve import solve


def only(*pieces):
    return tuple(n for n in PIECE_NAMES if n not in pieces)


def _group(board, names):
    perms = board_symmetries(board)
    index = {"half": 1, "lr": 2, "tb": 3, "quarter": 6}
    elements = [perms[0]] + [perms[index[n]] for n in names]
    return tuple(elements)


def test_both_mirrors_of_18x20_leave_a_9x10_quadrant():
    board = Board(18, 20)
    orb = domain.orbits(board, _group(board, ["half", "lr", "tb"]), scan="rows")
    assert orb.count == 90
    rows, cols = np.divmod(orb.rep, 20)
    assert rows.max() == 8 and cols.max() == 9  # the top-left quadrant
    # every square lies in exactly one orbit, as the image of its rep by its element
    elements = _group(board, ["half", "lr", "tb"])
    for s in range(board.size):
        assert elements[orb.elem[s]][orb.rep[orb.orbit[s]]] == s


def test_the_quarter_turn_of_19x19_leaves_the_centre_out():
    board = Board(19, 19)
    perms = board_symmetries(board)
    quarter = perms[6]
    elements = (perms[0], quarter, quarter[quarter], quarter[quarter[quarter]])
    orb = domain.orbits(board, elements)
    assert orb.count == 90
    assert orb.orbit[9 * 19 + 9] == -1  # the centre is fixed: it must stay empty
    # the pinwheel arm: a 9x10 rectangle (or 10x9) holds one square of every orbit
    assert domain.domain_shapes(board, elements) == [(9, 10), (10, 9)]
    rows, cols = np.divmod(orb.rep, 19)
    assert rows.max() == 8 and cols.max() == 9
    for s in range(board.size):
        if orb.orbit[s] >= 0:
            assert elements[orb.elem[s]][orb.rep[orb.orbit[s]]] == s


def test_the_half_turn_of_10x18_has_two_rectangular_domains():
    board = Board(10, 18)
    elements = _group(board, ["half"])
    assert domain.domain_shapes(board, elements) == [(5, 18), (10, 9)]
    assert domain.orbits(board, elements).rep.max() % 18 == 8  # the squarer: 10x9
    top = domain.orbits(board, elements, shape=(5, 18))
    assert top.rep.max() == 4 * 18 + 17
    with pytest.raises(ValueError):
        domain.orbits(board, elements, shape=(6, 15))


def test_without_a_rectangle_the_domain_is_the_narrower_part():
    """The half turn of 21x17 has no rectangular domain (the centre is fixed): each orbit's
    first square in column-major order gives the left 8.5 columns (a scan front 9 wide),
    narrower than the top 10.5 rows (17 wide, 11 high); on 19x19 both are 10: the top."""
    board = Board(21, 17)
    elements = _group(board, ["half"])
    assert domain.domain_shapes(board, elements) == []
    orb = domain.orbits(board, elements)
    rows, cols = np.divmod(orb.rep, 17)
    assert orb.count == 178 and cols.max() == 8 and rows.max() == 20
    for s in range(board.size):
        if orb.orbit[s] >= 0:
            assert elements[orb.elem[s]][orb.rep[orb.orbit[s]]] == s
    square = Board(19, 19)
    top = domain.orbits(square, _group(square, ["half"]))
    assert np.divmod(top.rep, 19)[0].max() == 9


def test_group_tables_make_a_group():
    board = Board(6, 8)
    elements = _group(board, ["half", "lr", "tb"])
    mul, inv = group_tables(elements)
    g = len(elements)
    for a in range(g):
        assert mul[0, a] == a and mul[a, 0] == a
        assert mul[a, inv[a]] == 0
        for b in range(g):
            assert np.array_equal(elements[mul[a, b]], elements[a][elements[b]])


def _cases(n, seed):
    rng = random.Random(seed)
    names = ["1", "2", "I3", "V3", "I4", "L4", "T4", "O", "Z4", "L5", "P", "T5", "U", "X"]
    for _ in range(n):
        colours = rng.choice([CORNER_COLOURS, ("blue", "red"), ("blue", "yellow")])
        rows, cols = rng.randint(4, 9), rng.randint(4, 9)
        yield corner_problem(
            rows, cols, colours, without=only(*rng.sample(names, rng.randint(1, 6)))
        )


@pytest.mark.slow
def test_scan_orders_and_seeds_find_checked_layouts():
    problem = corner_problem(12, 14, CORNER_COLOURS, without=only(*_QUADRANT_6x7))
    sym = next(s for s in colour_symmetries(problem) if len(s.cycles) == 1 and "mirror" in s.name)
    for scan in ("rows", "columns", "auto"):
        search = domain.build(problem, sym, seed=1, scan=scan)
        assert search.run(5_000_000) == dk.FOUND
        layout, report = order_and_check(problem, search.layout(), "domain")
        assert sum(len(v) for v in layout.values()) == 4 * len(_QUADRANT_6x7)
    # pockets off: the same layouts exist, the search still finds one
    search = domain.build(problem, sym, seed=2, pockets=False)
    assert search.run(5_000_000) == dk.FOUND


#: 41 squares: a 6x7 quadrant of a 12x14 board with one empty square
_QUADRANT_6x7 = ("1", "I3", "I4", "L4", "L5", "P", "T4", "T5", "U", "X")


def test_solve_through_the_front_door_is_checked():
    problem = corner_problem(12, 14, CORNER_COLOURS, without=only(*_QUADRANT_6x7))
    result = solve(problem, SolveOptions(backend="domain", time_limit=60, seed=1))
    assert result.status == "solved"
    assert result.report is not None and result.report.legal


def test_refuses_what_it_cannot_answer():
    board_without_symmetry = corner_problem(6, 7, ("blue",), without=only("1", "2"))
    with pytest.raises(InputError, match="symmetry"):
        domain.check_problem(board_without_symmetry)
    monomino_last = corner_problem(8, 8, CORNER_COLOURS, without=only("1", "2"), monomino_last=True)
    with pytest.raises(InputError, match="monomino-last"):
        domain.check_problem(monomino_last)


def test_no_symmetric_layout_is_unknown_never_infeasible():
    # 4x4, two colours from opposite corners, I4 and O each: a half turn swaps them, and
    # there is no layout at all (the brute-force oracle), so none with a symmetry: the
    # domain search exhausts its trees, and still may only say "unknown"
    problem = corner_problem(4, 4, ("blue", "red"), without=only("I4", "O"))
    assert colour_symmetries(problem)
    assert brute_layouts(problem.position, problem.colours) == set()
    result = domain.solve(problem, BackendOptions(time_limit=10))
    assert result.status == "unknown"
    assert result.stats["unknown_reason"] == "no layout with any symmetry that applies"


def test_two_threads_answer_like_one():
    problem = corner_problem(12, 14, CORNER_COLOURS, without=only(*_QUADRANT_6x7))
    result = domain.solve(problem, BackendOptions(time_limit=60, seed=1, workers=2))
    assert result.status == "solved" and result.stats["threads"] == 2
    order_and_check(problem, result.layout, "domain")


def _reference_no_dead_pocket(onb, cov, sources, small, holes):
    """A plain flood fill of each whole unfilled region next to ``sources``."""
    for t in sources:
        for u in onb[t]:
            if u < 0 or cov[u] != -1:
                continue
            seen, todo = {int(u)}, [int(u)]
            while todo:
                v = todo.pop()
                for w in onb[v]:
                    if w >= 0 and cov[w] == -1 and int(w) not in seen:
                        seen.add(int(w))
                        todo.append(int(w))
            if len(seen) < 5:
                reach = {0}
                items = [1] * (small[1] + holes) + [2] * small[2] + [3] * small[3] + [4] * small[4]
                for size in items:
                    reach |= {x + size for x in reach if x + size <= 4}
                if len(seen) not in reach:
                    return False
    return True


def test_pocket_prune_matches_a_plain_flood_fill():
    """The kernel's pocket prune stops each fill at 5 orbits; it must still judge every
    region as a whole (a review found fills of one call cutting each other short)."""
    rows, cols = 4, 5
    m = rows * cols
    onb = np.full((m, 4), -1, np.int32)
    for o in range(m):
        r, c = divmod(o, cols)
        near = [(r + dr) * cols + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols]  # fmt: skip
        onb[o, : len(near)] = sorted(near)
    rng = random.Random(0)
    disagree = 0
    for tick in range(1, 4001):
        cov = np.where(np.array([rng.random() < 0.35 for _ in range(m)]), 0, -1).astype(np.int32)
        sources = rng.sample(range(m), rng.randint(1, 5))
        cov[sources] = 0
        sq_orb = np.full((1, 5), -1, np.int32)
        sq_orb[0, : len(sources)] = sources
        small = np.array([0] + [rng.randint(0, 1) for _ in range(4)], np.int64)
        holes = rng.randint(0, 1)
        stamp, queue = np.zeros(m, np.int64), np.zeros(8, np.int64)
        got = dk.no_dead_pocket(0, sq_orb, onb, cov, stamp, queue, small, holes, tick)
        disagree += got != _reference_no_dead_pocket(onb, cov, sources, small, holes)
    assert disagree == 0


def test_no_piece_covers_another_colours_start():
    """An option covering its own start and another orbit's start is never allowed (its
    label used to overwrite the refusal when its own start came last)."""
    problem = corner_problem(4, 4, CORNER_COLOURS, without=only("I4"))
    result = solve(problem, SolveOptions(backend="domain", time_limit=20))
    assert result.status == "unknown"  # no crash: the checker saw no illegal layout
    wide = corner_problem(4, 12, CORNER_COLOURS, without=only("I4"))
    for sym in colour_symmetries(wide):
        search = domain.build(wide, sym)
        if search.run(1_000_000) == dk.FOUND:
            order_and_check(wide, search.layout(), "domain")  # raises on a broken rule


def _reference_dead_squares_ok(problem, search):
    """From the partial layout on the whole board: each unfilled orbit's representative
    whose edge neighbours show every colour that still has pieces must stay empty; there
    must be holes enough and none of them a start square."""
    tables, state = search.tables, search.state
    cov_slot, used, st = state.cov_slot, state.used, state.st
    colour_of = {}
    for colour, placements in search.layout().items():
        for placement in placements:
            colour_of.update(dict.fromkeys(placement.squares, colour))
    board = problem.position.board
    orb = domain.orbits(board, search.symmetry.elements)
    cycles = search.symmetry.cycles
    live = set()
    for j, cycle in enumerate(cycles):
        if any(
            not used[slot] and tables.slot_size[slot] <= 5 for slot in range(j * 21, j * 21 + 21)
        ):
            live.update(cycle)
    starts = {orb.orbit[problem.position.colour(c).start] for c in problem.colours}
    dead = 0
    for t in np.nonzero(cov_slot == dk.UNFILLED)[0]:
        r, c = divmod(int(orb.rep[t]), board.cols)
        near = {
            colour_of.get(rr * board.cols + cc)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < board.rows and 0 <= cc < board.cols
        }
        if live <= near:
            if t in starts:
                return False
            dead += 1
    return dead <= st[dk.S_EMPTY]


def test_dead_square_prune_matches_the_board():
    """The kernel's dead-square test, on states of searches run without it, against the
    same rule read off the partial layout on the whole board (every image drawn)."""
    verdicts = []
    for problem in _cases(40, 11):
        for sym in colour_symmetries(problem):
            try:
                search = domain.build(problem, sym, seed=1, dead=False)
            except InputError:
                continue
            for budget in (3, 17, 60, 250):
                if search.run(budget) != dk.PAUSE:
                    break
                t, s = search.tables, search.state
                a = int(np.argmax(s.cov_slot == dk.UNFILLED))
                got = _dead_squares_ok(t, s, a)
                assert got == _reference_dead_squares_ok(problem, search), problem.name
                verdicts.append(got)
    assert len(verdicts) >= 100 and True in verdicts and False in verdicts


@pytest.mark.slow
def test_dead_square_prune_keeps_every_layout_and_cuts_two_colour_trees():
    """With and without the prune the search exhausts the same symmetric layouts: the
    same answer, and on two-colour boards (a square between both colours must stay empty)
    fewer nodes to exhaust a tree."""
    fewer = 0
    compared = 0
    for problem in _cases(60, 5):
        for sym in colour_symmetries(problem):
            try:
                runs = [domain.build(problem, sym, dead=d) for d in (True, False)]
            except InputError:
                continue
            with_prune, without = (r.run(300_000) for r in runs)
            if dk.PAUSE in (with_prune, without):
                continue
            assert with_prune == without, (problem.position.board, sym.name)
            compared += 1
            if with_prune == dk.DONE and len(problem.colours) == 2:
                assert runs[0].nodes <= runs[1].nodes
                fewer += runs[0].nodes < runs[1].nodes
    assert compared >= 40 and fewer >= 3


def _full_dead_count_passes(search):
    t, s = search.tables, search.state
    return _dead_squares_ok(t, s, int(np.argmax(s.cov_slot == dk.UNFILLED)))


def _dead_squares_ok(t, s, a):
    """The kernel's dead-square test from orbit ``a`` on, for a whole-board count (-1)."""
    return dk.no_dead_square(
        -1, a, len(s.cov_slot), t.e_ptr, t.e_orb, s.cov_slot, s.cov_lab, t.nb_orb, t.nb_h,
        t.slot_orbit, t.mul, s.used, t.slot_size, t.nps, t.n_orbits_col, t.noempty,
        s.st[dk.S_EMPTY],
    )  # fmt: skip


def test_the_dead_square_shortcut_misses_no_prune():
    """After a placement the kernel counts dead squares in full only when one next to the
    new piece is dead (the parent passed): then every node it keeps passes the full count."""
    checked = 0
    for problem in _cases(60, 8):
        if len(problem.colours) != 2:
            continue
        for sym in colour_symmetries(problem):
            try:
                search = domain.build(problem, sym, seed=3)
            except InputError:
                continue
            for _ in range(400):
                if search.run(1) != dk.PAUSE:
                    break
                assert _full_dead_count_passes(search), (problem.position.board, sym.name)
                checked += 1
    assert checked >= 1_000


def test_symmetries_alike_take_turns_run_by_run(monkeypatch):
    """Two symmetries alike (colour orbits, empty orbits; which has layouts is not known):
    the runs alternate between them, each with its own Luby count, and the second thread
    starts on the second; a single best symmetry keeps every run (18x20's group)."""
    import threading
    import time

    problem = corner_problem(8, 10, CORNER_COLOURS, without=only("1", "2", "I3", "L4"))
    syms = {s.name: s for s in colour_symmetries(problem)}
    pair = [syms["half turn"], syms["left-right mirror"]]
    calls = []
    stop = threading.Event()

    def fake_run(search, time_limit, started, cancel, nodes):
        calls.append((search.symmetry.name, nodes // domain.RESTART_NODES))
        if len(calls) == 6:
            stop.set()
        return dk.PAUSE

    monkeypatch.setattr(domain.driver, "sliced_run", fake_run)
    shared = domain.SharedSearches(problem, pair)
    assert shared.groups == [[0, 1]]
    options = BackendOptions(seed=1)
    result = domain.restarts(shared, options, 0, 1, time.perf_counter(), stop)
    assert result.status == "unknown" and result.stats["runs"] == 6
    names = ["half turn", "left-right mirror"] * 3
    assert calls == list(zip(names, [1, 1, 1, 1, 2, 2]))
    calls.clear()
    stop.clear()
    domain.restarts(shared, options, 1, 2, time.perf_counter(), stop)
    assert calls[0][0] == "left-right mirror"
    # the best symmetry alone (both mirrors: one colour orbit) is a group of its own
    assert domain.SharedSearches(problem, domain.symmetries(problem)).groups[0] == [0]
    # alike symmetries group even when another lies between them in the order (20x21:
    # the half turn and the top-bottom mirror leave 32 empty orbits, the left-right 22)
    wide = corner_problem(20, 21, CORNER_COLOURS)
    assert domain.SharedSearches(wide, domain.symmetries(wide)).groups == [[0], [1, 3], [2]]


def _exhausted(n, seed, least=200):
    """(problem, symmetry, search run to DONE) on small cases whose tree has at least
    ``least`` nodes."""
    for problem in _cases(n, seed):
        for sym in colour_symmetries(problem):
            try:
                search = domain.build(problem, sym)
            except InputError:
                continue
            if search.run(2_000_000) == dk.DONE and search.nodes >= least:
                yield problem, sym, search


def test_tree_estimate_is_near_the_exhausted_tree():
    """Knuth's estimator is unbiased: on trees the search exhausts, the mean of 3,000
    probes lies near the nodes of the whole run; and every probe sees the root's
    children, so the estimate of depth 1 is exact (the pushes at depth 1 of the run)."""
    compared = 0
    for problem, sym, search in _exhausted(60, 7):
        est = domain.estimate(search, 3000, seed=2)
        assert abs(est.nodes - search.nodes) <= max(4 * est.stderr, 0.1 * search.nodes)
        assert est.layouts == 0 and 0 < est.deepest < search.stats["depth"]
        stepper = domain.build(problem, sym)
        at_one = 0
        while stepper.run(1) == dk.PAUSE:
            at_one += int(stepper.state.st[dk.S_DEPTH] == 1)
        assert est.per_depth[1] == at_one
        compared += 1
    assert compared >= 3


def test_a_probe_counts_the_children_the_search_pushes_at_every_node():
    """Step the search one push at a time to the end of its tree, keeping each node's
    state (a node is the path of candidates chosen, ``f_cursor`` of the frames above
    it) and counting its children; a probe started from each node's state must count
    the same children (any prune left out or added, e.g. the pocket prune, breaks it)."""
    checked = 0
    for problem in _cases(40, 7):
        for sym in colour_symmetries(problem):
            try:
                search = domain.build(problem, sym)
            except InputError:
                continue
            states = {(): search.fresh.copy()}
            children: dict[tuple[int, ...], int] = {}
            code = dk.PAUSE
            while code == dk.PAUSE and len(states) < 20_000:
                code = search.run(1)
                d = int(search.state.st[dk.S_DEPTH])
                path = tuple(int(x) for x in search.state.f_cursor[:d])
                if code == dk.PAUSE:
                    children[path[:-1]] = children.get(path[:-1], 0) + 1
                    states[path] = search.state.copy()
            if code != dk.DONE:
                continue
            for path, state in states.items():
                widths = np.zeros(len(state.f_anchor) + 1, dtype=np.int64)
                dk.probe(search.tables, state, 5, widths)
                assert widths[0] == children.get(path, 0), (problem.position.board, path)
                checked += 1
    assert checked >= 5_000


def test_tree_estimate_counts_layouts_and_refuses_no_probes():
    """Probes that reach a full layout estimate the symmetric layouts: a tiny board with
    many of them (the run finds one) gets a positive estimate, at most the tree's size."""
    problem = corner_problem(5, 6, ("blue", "red"), without=only("1", "2", "I3", "V3", "L4"))
    sym = next(s for s in colour_symmetries(problem) if s.name == "half turn")
    search = domain.build(problem, sym)
    assert search.run(1_000_000) == dk.FOUND
    est = domain.estimate(search, 2000, seed=1)
    depth = search.stats["depth"]
    assert est.layouts == est.per_depth[depth] > 0 and est.deepest == depth
    with pytest.raises(ValueError):
        domain.estimate(search, 0)
