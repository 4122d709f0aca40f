"""Blokus Trigon in what refused it before (issue 43), each held to a value found another
way: the agents' environments (Gymnasium's and PettingZoo's own checkers; the mask against
the plain-set rules of the geometry at every turn; the planes over Pentobi's naming
rectangle; scores and records read back, by Pentobi's engine too where it is installed);
``count`` of colours with no piece yet and ``--up-to-symmetry``, and hints, against a brute
force over the legal move sequences on small late positions (a hole cut in the end of a
Pentobi game); ``export`` (the connected covers are the layouts), ``rate`` and ``cubes
split`` (the cubes partition the layouts; split, batch and join)."""

import dataclasses
import os
import shutil
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from solver.core.board import column_name
from solver.core.checker import check_layout
from solver.core.geometry.reference import legal_rows
from solver.core.geometry.shapes import TRIGON_PIECES, PlacementList, enumerate_placements
from solver.core.geometry.trigon import TrigonGeometry
from solver.core.placement_index import variant_index
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS
from solver.formats.game import load_game, read_sgf_text
from solver.formats.puzzle import puzzle_text

TRIGONS = ["trigon", "trigon2", "trigon3"]
DATA = Path(__file__).parent / "data" / "trigon"
#: a four-colour game of Pentobi's engine (side 9), 79 placements
LATE = DATA / "trigon-L3-s9102.blksgf"

# --- the agents' environments -------------------------------------------------------------


def reference_mask(position: Position, colour: str) -> np.ndarray:
    """The legal placements of a colour by the geometry's plain-set rules
    (:func:`solver.core.geometry.reference.legal_rows`: independent of the legal mask's
    NumPy tables), as a mask over the Trigon placement index (whose numbers are the
    geometry table's rows)."""
    table = geometry_table(position.board.rows // 2)
    state = position.colour(colour)
    names = [shape.name for shape in table.pieces]
    placed = [names.index(p.piece) for p in state.placed]
    rows = legal_rows(table, state.squares, position.occupied, placed, position.starting_points)
    mask = np.zeros(len(table), dtype=bool)
    mask[rows] = True
    return mask


@lru_cache(maxsize=2)
def geometry_table(side: int) -> PlacementList:
    """Every placement of the 22 pieces on the side's hexagon, the geometry's own table."""
    return enumerate_placements(TrigonGeometry(side), TRIGON_PIECES)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "trigon"},
        {"variant": "trigon2"},
        {"variant": "trigon3"},
        {"variant": "trigon", "colour": "red"},
        {"variant": "trigon3", "joint": "area"},
    ],
)
def test_gymnasium_check_env_passes_on_trigon(kwargs):
    pytest.importorskip("gymnasium")
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import solver.agents  # noqa: F401  (registers the id)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings too
        env = gymnasium.make("blokus_solo/Solo-v0", render_mode="ansi", **kwargs)
        check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("variant", TRIGONS)
def test_pettingzoo_api_and_seed_tests_pass_on_trigon(variant):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from solver.agents.pettingzoo_env import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a dict observation is not a Box
        api_test(env(variant=variant), num_cycles=1000)
        seed_test(lambda: env(variant=variant), num_cycles=500)


@pytest.mark.parametrize(
    ("variant", "placements", "shape", "players"),
    [
        ("trigon", 32_131, (18, 35, 4 * 23), 4),
        ("trigon2", 32_131, (18, 35, 4 * 23), 2),
        ("trigon3", 24_859, (16, 31, 3 * 23), 3),
    ],
)
def test_spaces_are_the_trigon_placement_index_and_the_naming_rectangle(
    variant, placements, shape, players
):
    pytest.importorskip("pettingzoo")
    from solver.agents.gymnasium_env import SoloEnv
    from solver.agents.pettingzoo_env import raw_env

    game = raw_env(variant=variant)
    game.reset()
    assert game.state.index is variant_index(variant)
    assert len(game.state.index) == placements and game.pass_action == placements
    assert game.possible_agents == [f"player_{k}" for k in range(players)]
    assert game.action_space("player_0").n == placements + 1
    observation = game.observe("player_0")
    assert observation["observation"].shape == shape and observation["observation"].dtype == np.int8
    colours = len(game.state.colours)
    assert observation["observation"][:, :, :colours].sum() == 0
    assert (observation["observation"][:, :, colours:] == 1).all()  # 22 pieces held once each
    assert observation["action_mask"].sum() == 2478  # Pentobi's first moves on either side
    assert game.observe("player_1")["action_mask"].sum() == 0  # not to move
    assert game.illegal_reward == -110.0 * (2 if variant == "trigon2" else 1)
    solo = SoloEnv(variant=variant)
    assert solo.action_space.n == placements + 1
    assert solo.observation_space["observation"].shape == shape


def test_the_planes_put_each_triangle_at_its_pentobi_point():
    """Blue's first piece, seen by yellow (the next to move): blue's plane (the last) holds
    its triangles at Pentobi's (x, y) of each, named column x and row 18 - y; the places off
    the hexagon are never taken; blue's piece channel of the piece played reads 0."""
    pytest.importorskip("gymnasium")
    from solver.agents.gymnasium_env import SoloEnv

    env = SoloEnv(variant="trigon")
    observation, info = env.reset()
    board = env.start.board
    geometry = board.geometry
    action = int(np.flatnonzero(observation["action_mask"])[-1])
    placement = env.state.index.placement(action)
    observation, reward, *_ = env.step(action)
    assert reward == float(len(placement.squares))
    planes = observation["observation"]
    taken = {(y, x) for y, x in zip(*np.nonzero(planes[:, :, 3]))}
    assert taken == {(geometry.coords[c][1], geometry.coords[c][0]) for c in placement.squares}
    for c in placement.squares:
        x, y = geometry.coords[c]
        assert board.name(c) == f"{column_name(x)}{18 - y}"
    on_board = np.zeros((18, 35), dtype=bool)
    for x, y in geometry.coords:
        on_board[y, x] = True
    assert on_board.sum() == 486 and not planes[~on_board][:, :4].any()
    piece = list(env.state.index.names).index(placement.piece)
    assert planes[0, 0, 4 + 22 * 3 + piece] == 0 and planes[0, 0, 4 + piece] == 1


@pytest.mark.parametrize("variant", TRIGONS)
def test_random_games_mask_the_plain_set_rules_and_score_as_pentobi(variant):
    """A masked random game of the PettingZoo environment: at every turn the mask is the
    geometry's plain-set legal moves (the pass alone when there are none); at the end the
    layout passes the rule checker, the rewards are each player's scores, and the record
    reads back as a Trigon game with the same moves and scores."""
    pytest.importorskip("pettingzoo")
    from solver.agents.pettingzoo_env import raw_env
    from solver.agents.seats import Seats

    game = raw_env(variant=variant)
    game.reset()
    rng = np.random.default_rng(7)
    final: dict[str, float] = {}
    turns = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            final[agent] = reward
            game.step(None)
            continue
        colour = game.state.colours[game.to_move]
        expected = np.append(reference_mask(game.position(), colour), False).astype(np.int8)
        if not expected.any():
            expected[-1] = 1
        assert np.array_equal(observation["action_mask"], expected), turns
        game.step(int(rng.choice(np.flatnonzero(expected))))
        turns += 1
    assert turns > 40
    end = game.position()
    assert not any(reference_mask(end, c).any() for c in end.colour_names)
    moves = game.moves()
    layout = {c: [p for colour, p in moves if colour == c] for c in end.colour_names}
    report = check_layout(Position.empty(ALL_VARIANTS[variant]), layout)
    assert report.legal, report.problem
    seats = Seats.of(ALL_VARIANTS[variant])
    assert final == {f"player_{p}": float(s) for p, s in enumerate(seats.scores(end))}
    back = read_sgf_text(game.record(name=variant))
    assert back.variant.name == variant
    assert [(m.colour, m.placement) for m in back.moves] == moves
    assert [back.final.score(c) for c in end.colour_names] == [
        end.score(c) for c in end.colour_names
    ]


def test_the_solo_episode_returns_the_triangles_and_the_bonuses():
    """The shipped 88-piece Trigon layout (every colour's single triangle last), played in
    turn order through the Gymnasium environment: each step earns the piece's triangles,
    the last the bonuses; 110 + 20 = 130 a colour, 520 in all."""
    pytest.importorskip("gymnasium")
    from solver.agents.gymnasium_env import SoloEnv
    from solver.answers.solution import read_solution
    from solver.core.order import interleave, order_of_play
    from tests.helpers import ROOT

    record = read_solution(ROOT / "results" / "records" / "trigon-solo-88.json")
    env = SoloEnv(variant="trigon")
    _, info = env.reset()
    start = env.start
    layout = {c: list(record.layout[c]) for c in start.colour_names}
    queues = {c: order_of_play(start, c, ps, monomino_last=True) for c, ps in layout.items()}
    total = 0.0
    for colour, placement in interleave(queues, start.colour_names, "blue"):
        assert info["colour"] == colour
        _, reward, terminated, _, info = env.step(env.state.index.index(placement))
        total += reward
    assert terminated and total == 520.0 and reward == 1 + 4 * 20
    assert info["scores"] == dict.fromkeys(start.colour_names, 20)
    assert env.scores() == {c: env.position().score(c) for c in start.colour_names}


def test_illegal_actions_and_the_renders_on_trigon():
    pytest.importorskip("pettingzoo")
    from solver.agents.gymnasium_env import SoloEnv
    from solver.agents.pettingzoo_env import env, raw_env
    from solver.errors import RuleError

    solo = SoloEnv(variant="trigon3")
    observation, _ = solo.reset()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = solo.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"colour": None, "illegal": True})
    assert solo.state.placed == 0
    bare = raw_env(variant="trigon")
    bare.reset()
    with pytest.raises(RuleError, match="starting point"):
        bare.step(illegal)
    wrapped = env(variant="trigon2")
    wrapped.reset()
    wrapped.step(illegal)
    assert wrapped.rewards == {"player_0": -220.0, "player_1": 0.0}
    text = raw_env(variant="trigon", render_mode="ansi")
    text.reset()
    board = text.state.index.board
    text.step(text.state.index.index({board.parse("r15")}))  # the single triangle
    lines = text.render().splitlines()
    assert len(lines) == 18 + 2 + 1 and lines[-1] == "to move: yellow"
    row = lines[18 - 15]  # row 15
    assert row.startswith("15 ") and row[3 + 2 * 17] == "B" and row.count("B") == 1
    assert lines[18].split() == list("abcdefghijklmnopqrstuvwxyzaaaaaaaaa")
    assert lines[19].split() == list("abcdefghi")
    picture = raw_env(variant="trigon3", render_mode="rgb_array", render_size=300)
    picture.reset()
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[1] == 300


def pentobi_gtp():
    """Pentobi's engine: $PENTOBI_GTP, or pentobi-gtp on the PATH (as tests/test_gtp.py)."""
    found = os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")
    return found if found and Path(found).exists() else None


@pytest.mark.skipif(pentobi_gtp() is None, reason="Pentobi's GTP engine is not installed")
@pytest.mark.parametrize("variant", TRIGONS)
def test_pentobi_reads_the_trigon_records_back_with_the_same_scores(tmp_path, variant):
    """A masked random game of each Trigon variant, written by the environment: Pentobi's
    engine loads it and scores it as we do (its points per colour, or the margin of
    Two-Player's first player)."""
    pytest.importorskip("pettingzoo")
    from solver.agents.pettingzoo_env import raw_env
    from solver.agents.seats import Seats
    from solver.gtp.client import Client

    game = raw_env(variant=variant)
    game.reset()
    rng = np.random.default_rng(11)
    while game.to_move is not None:
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
    end = game.position()
    path = tmp_path / f"{variant}.blksgf"
    path.write_text(game.record())
    points = [110 + end.score(c) for c in end.colour_names]
    seats = Seats.of(ALL_VARIANTS[variant])
    if seats.players > 2:
        expected = " ".join(str(p) for p in points)
    else:
        margin = sum(p * (1 if seats.owner[c] == 0 else -1) for c, p in enumerate(points))
        expected = f"B+{margin}" if margin > 0 else f"W+{-margin}" if margin < 0 else "0"
    with Client([pentobi_gtp(), "--nobook", "--quiet"]) as pentobi:
        pentobi.send(f"loadsgf {path}")
        assert pentobi.send("final_score").strip() == expected


# --- count, hints: a colour with no piece yet, and orbits, against a brute force ------------


def late_hole(played: dict[str, list[str]], xs: range, ys: range, mirror: str | None = None):
    """A small late position from the end of the LATE game: every piece that has a triangle
    in the box of Pentobi points ``xs`` x ``ys`` taken off (the hole), every other triangle
    of the game blocked; the colours of ``played`` have no piece on the board and those
    pieces to place (the others none). ``mirror``: the name of one of the hexagon's
    symmetries (``mirror+rot180`` swaps j12 and j7, ``mirror+rot240`` fixes j12): the
    blocked triangles and their images under it (a symmetry of the position then)."""
    end = load_game(LATE).position(79)
    board = end.board
    geometry = board.geometry
    box = {c for c, (x, y) in enumerate(geometry.coords) if x in xs and y in ys}
    hole = set().union(*(p.squares for c in end.colours for p in c.placed if p.squares & box))
    blocked = end.occupied - hole
    if mirror is not None:
        flip = geometry.symmetries[list(geometry.symmetry_names).index(mirror)]
        blocked |= {int(flip[c]) for c in blocked}
    colours = tuple(
        dataclasses.replace(c, placed=(), remaining=tuple(played.get(c.name, ())))
        for c in end.colours
    )
    trigon = type(board).trigon(board.rows // 2, blocked)
    return dataclasses.replace(end, board=trigon, colours=colours)


def test_the_mirrors_are_the_ones_named():
    board = load_game(LATE).position(0).board
    geometry = board.geometry
    names = list(geometry.symmetry_names)
    flip = geometry.symmetries[names.index("mirror+rot180")]
    at = {xy: c for c, xy in enumerate(geometry.coords)}
    assert all(flip[c] == at[(x, 17 - y)] for c, (x, y) in enumerate(geometry.coords))
    turn = geometry.symmetries[names.index("mirror+rot240")]
    assert turn[board.parse("j12")] == board.parse("j12")


def brute_layouts(position: Position, colour: str, monomino_last: bool = False) -> dict:
    """Every set of placements by which ``colour`` places all its remaining pieces by legal
    moves (the monomino last if asked: never while it holds another piece), with the
    position after it: the legal move sequences enumerated to the end, order ignored."""
    out: dict[frozenset, Position] = {}

    def go(pos: Position, placed: frozenset) -> None:
        left = pos.colour(colour).remaining
        if not left:
            out.setdefault(placed, pos)
            return
        for move in legal_moves(pos, colour):
            if monomino_last and move.piece == "1" and len(left) > 1:
                continue
            go(pos.with_placement(colour, move), placed | {(colour, move.squares)})

    go(position, frozenset())
    return out


def brute(position: Position, colours, monomino_last: bool = False) -> set[frozenset]:
    """The joint layouts of ``colours``, each colour's legal move sequences played on the
    positions the earlier colours left (a joint layout can be played colour by colour: a
    colour's moves need its own corners and free triangles, and its first a starting
    point no piece covers, which the others' pieces never do in a layout where it has it)."""
    finals: dict[frozenset, Position] = {frozenset(): position}
    for c in colours:
        finals = {
            key | layout: after
            for key, pos in finals.items()
            for layout, after in brute_layouts(pos, c, monomino_last).items()
        }
    return set(finals)


def brute_orbits(position: Position, layouts: set[frozenset]) -> int:
    """The layouts' orbits under the hexagon's symmetries that map the position onto itself
    (blocked triangles, each colour's triangles; the starting points go with the hexagon),
    by canonical forms: the least image of each layout."""
    geometry = position.board.geometry
    fixed = [position.board.blocked, *(c.squares for c in position.colours)]
    group = [g for g in geometry.symmetries if all({int(g[c]) for c in s} == s for s in fixed)]

    def image(g, layout):
        return tuple(sorted((c, tuple(sorted(int(g[x]) for x in cells))) for c, cells in layout))

    return len({min(image(g, layout) for g in group) for layout in layouts})


#: (pieces of each colour with no piece yet, monomino last): the hole around j12 and j7
UNSTARTED = [
    ({"yellow": ["I3", "A4"]}, False),
    ({"yellow": ["P6", "V", "I3"]}, False),  # layouts covering both j12 and j7 (below)
    ({"yellow": ["1", "2", "I4"]}, True),  # the monomino held back to the leaf
    ({"yellow": ["A4", "2"], "green": ["I3", "1"]}, False),  # two colours yet to start
]
BOX = (range(7, 12), range(6, 12))


@pytest.mark.parametrize("played, last", UNSTARTED)
def test_count_of_colours_with_no_piece_yet_is_the_brute_force(played, last):
    from solver.backends.search import count
    from solver.backends.search.starts import with_starts

    position = late_hole(played, *BOX)
    free = sorted(position.starting_points - position.occupied - position.board.blocked)
    assert [position.board.name(c) for c in free] == ["j12", "j7"]
    problem = Problem(position, tuple(played), monomino_last=last)
    layouts = brute(position, tuple(played), last)
    result = count(problem)
    assert result.complete and result.count == result.layouts == len(layouts) > 0
    if played == {"yellow": ["P6", "V", "I3"]}:
        both = [k for k in layouts if {s for _, cells in k for s in cells} >= set(free)]
        assert len(both) > 100  # a sum per starting point would count these twice:
        per_point = [count(with_starts(problem, {"yellow": s})).count for s in free]
        assert sum(per_point) == len(layouts) + len(both)
    # a limit: at least N, stopped by it; the first layout counted is a layout
    stopped = count(problem, limit=3)
    assert (stopped.count, stopped.complete, stopped.stopped_by) == (3, False, "limit")


def test_count_command_of_a_colour_with_no_piece_yet(tmp_path):
    """The command on the hole as a puzzle file: the brute force's count, and the first
    layout counted written and checked; on a game record two placements in (red yet to
    start, three free starting points), a limit reached."""
    position = late_hole({"yellow": ["P6", "V", "I3"]}, *BOX)
    puzzle = tmp_path / "hole.toml"
    puzzle.write_text(puzzle_text(Problem(position, ("yellow",))), encoding="utf-8")
    expected = len(brute(position, ("yellow",)))
    out = tmp_path / "first.json"
    result = run_cli("count", puzzle, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{expected} layouts  ["), result.output
    assert out.exists() and run_cli("verify", out).exit_code == 0
    result = run_cli("count", LATE, "--after", 2, "--colour", "red", "--limit", 5)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("at least 5 layouts (limit reached"), result.output


@pytest.mark.parametrize(
    "mirror, played, start",
    [
        ("mirror+rot180", {"yellow": ["P6", "V", "I3"]}, None),
        ("mirror+rot240", {"yellow": ["I3", "A4"]}, None),
        ("mirror+rot240", {"yellow": ["I4", "2"]}, "j12"),
    ],
    ids=["unstarted-two-points", "unstarted-fixed-point", "started"],
)
def test_count_up_to_symmetry_is_the_brute_force_orbits(tmp_path, mirror, played, start):
    """A mirror-symmetric late position: the orbits the count finds by Burnside's lemma are
    the brute force's canonical forms, a colour with no piece yet (its layouts split by
    the starting point they cover, which the mirror may swap) or with its single triangle
    on j12, which the mirror fixes."""
    from solver.backends.search import count

    position = late_hole(played, *BOX, mirror=mirror)
    if start is not None:
        cell = position.board.parse(start)
        yellow = position.colour("yellow")
        placed = dataclasses.replace(yellow, placed=(Placement("1", {cell}),))
        colours = tuple(placed if c.name == "yellow" else c for c in position.colours)
        position = dataclasses.replace(position, colours=colours)
    problem = Problem(position, ("yellow",))
    layouts = brute(position, ("yellow",))
    orbits = brute_orbits(position, layouts)
    result = count(problem, up_to_symmetry=True)
    assert result.complete and result.count == orbits and result.layouts == len(layouts)
    assert result.symmetries == 2 and orbits > 0
    if mirror == "mirror+rot240" and start is None:
        assert len(layouts) < 2 * orbits  # some layouts are their own mirror images
    puzzle = tmp_path / "mirror.toml"
    puzzle.write_text(puzzle_text(problem), encoding="utf-8")
    shown = run_cli("count", puzzle, "--up-to-symmetry")
    assert shown.exit_code == 0, shown.output
    word = "layout" if orbits == 1 else "layouts"
    assert shown.output.startswith(f"{orbits} {word} up to symmetry  ["), shown.output


def test_hints_of_a_colour_with_no_piece_yet_keep_what_the_brute_force_counts():
    """Every legal first move of yellow (each covers j12 or j7) keeps the layouts that
    contain it: the brute force's count after it."""
    from solver.tasks.hints import hints

    position = late_hole({"yellow": ["I3", "A4"]}, *BOX)
    problem = Problem(position, ("yellow",))
    found = hints(problem)
    assert found.complete and found.total.count == len(brute(position, ("yellow",)))
    kept = {h.placement.squares: h.keeps for h in found.hints}
    moves = legal_moves(position, "yellow")
    assert found.moves == len(moves)
    for move in moves:
        after = position.with_placement("yellow", move)
        assert kept.get(move.squares, 0) == len(brute(after, ("yellow",)))
    assert sum(kept.values()) >= found.total.count  # a layout covers two moves' cells at most


# --- export: the exact-cover formulation on triangles ------------------------------------


def test_the_connected_covers_of_the_trigon_formulation_are_the_layouts():
    """The covers of the exact-cover formulation (a plain Algorithm X,
    tests/test_exact_cover.py) that the rule checker accepts in some order of play are the
    brute force's layouts: a colour yet to start, and one with pieces on a game's board."""
    from test_exact_cover import connected, covers

    from solver.formats.exact_cover import formulation

    cases = [
        (late_hole({"yellow": ["I3", "A4"]}, *BOX), ("yellow",)),
        (load_game(LATE).position(75), ("green",)),
    ]
    for position, colours in cases:
        ec = formulation(Problem(position, colours))
        found = covers(ec)
        good = [c for c in found if connected(position, ec, c)]
        layouts = brute(position, colours)
        assert len(good) == len(layouts) > 0
        keys = {
            frozenset((colour, p.squares) for k in c for colour, p in [ec.placements[k]])
            for c in good
        }
        assert keys == layouts


def test_the_edge_items_are_the_triangles_edges(tmp_path):
    """Each option's edge items name exactly the edges of the triangle lattice between its
    triangles and a free triangle (or its own): ``B.e10r`` the triangle to e10's right in
    its row, ``B.e10u`` the one above it; the command writes the text, its comment in
    triangles."""
    from solver.formats.exact_cover import formulation

    position = load_game(LATE).position(75)
    board = position.board
    geometry = board.geometry
    at = {xy: c for c, xy in enumerate(geometry.coords)}
    free = set(range(board.size)) - position.occupied - board.blocked
    ec = formulation(Problem(position, ("green", "blue")))
    assert len(ec) > 10
    for k in range(len(ec)):
        colour, placement = ec.placements[k]
        expected = {
            frozenset((c, n))
            for c in placement.squares
            for n in geometry.edge_neighbours[c]
            if n in free or n in placement.squares
        }
        named = set()
        for item in ec.option(k):
            if item.count(".") == 1 and item[-1] in "ru" and item[:2] == f"{colour[0].upper()}.":
                cell = board.parse(item[2:-1])
                x, y = geometry.coords[cell]
                other = at[(x + 1, y)] if item[-1] == "r" else at[(x, y - 1)]
                named.add(frozenset((cell, other)))
        assert named == expected, k
    out = tmp_path / "late.dlx"
    result = run_cli("export", LATE, "--after", 75, "--colour", "green", "--out", out)
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "free triangles" in text and "square" not in text.split("\n| options")[0]
    assert text.count("\n") == 10 + len(formulation(Problem(position, ("green",))))


# --- rate: its counts, first moves and playouts on triangles --------------------------------


def test_rating_a_trigon_puzzle_is_its_counts_and_playouts(tmp_path):
    """The features of a small late position with yellow yet to start: its layouts and
    orbits (the brute force's), the first moves that keep one (the brute force after each),
    and random playouts that follow the rules: with a single piece to place every playout
    ends solved (each legal first move is a layout), with no free starting point none does;
    the command reads it as a puzzle file."""
    from solver.tasks.rating import random_playouts, rate

    position = late_hole({"yellow": ["I3", "A4"]}, *BOX, mirror="mirror+rot240")
    problem = Problem(position, ("yellow",))
    layouts = brute(position, ("yellow",))
    moves = legal_moves(position, "yellow")
    good = [m for m in moves if brute(position.with_placement("yellow", m), ("yellow",))]
    rating = rate(problem, playouts=200, seed=3)
    assert rating.complete and rating.layouts == len(layouts)
    assert rating.solutions == brute_orbits(position, layouts) < len(layouts)
    assert (rating.first_moves, rating.good_first_moves) == (len(moves), len(good))
    assert 0 < rating.successes < 200 and rating.label in ("easy", "medium", "hard", "expert")
    assert rate(problem, playouts=200, seed=3).successes == rating.successes  # its seed
    single = Problem(late_hole({"yellow": ["I3"]}, *BOX), ("yellow",))
    assert random_playouts(single, 50) == 50
    # a hole at the top edge, 104 free triangles and no free starting point: no first move
    stuck = Problem(late_hole({"yellow": ["I3", "A4"]}, range(12, 17), range(2)), ("yellow",))
    assert not stuck.position.starting_points - stuck.position.board.blocked
    assert not brute(stuck.position, ("yellow",)) and random_playouts(stuck, 50) == 0
    assert rate(stuck, playouts=50).label == "unsolvable"
    puzzle = tmp_path / "hole.toml"
    puzzle.write_text(puzzle_text(problem), encoding="utf-8")
    result = run_cli("rate", puzzle, "--playouts", 200, "--seed", 3)
    assert result.exit_code == 0, result.output
    row = result.output.splitlines()[1].split()
    assert row[1:8] == [
        str(rating.solutions), str(len(good)), "of", str(len(moves)),
        str(rating.successes), "of", "200",
    ]  # fmt: skip


# --- cubes split: the cubes partition the layouts -------------------------------------------


def cube_layouts(cube) -> set[frozenset]:
    """The layouts of the original puzzle a cube stands for: its fixed placements with
    each of its own layouts (the brute force on the cube's puzzle file, read back)."""
    from solver.formats.puzzle import parse_puzzle
    from solver.tasks.cubes import cube_text

    problem = parse_puzzle(cube_text(cube, 1, 1, "test.toml"))
    fixed = frozenset((c, p.squares) for c, p in cube.fixed)
    return {fixed | layout for layout in brute(problem.position, problem.colours)}


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_trigon_cubes_partition_the_layouts(depth):
    """A colour yet to start with two free starting points (j12, j7): without symmetry the
    cubes' layouts, read back from their puzzle files, are the brute force's layouts,
    each in exactly one cube (the child where j12 stays empty holds those that start on
    j7)."""
    from solver.tasks.cubes import split

    position = late_hole({"yellow": ["I3", "A4"]}, *BOX)
    problem = Problem(position, ("yellow",))
    cubes = split(problem, depth, symmetry=False)
    assert len(cubes) > depth
    seen: list[frozenset] = [k for cube in cubes for k in cube_layouts(cube)]
    assert len(seen) == len(set(seen)) and set(seen) == brute(position, ("yellow",))
    assert any(cube.blocked and position.starting_points & set(cube.blocked) for cube in cubes)


def test_trigon_cubes_keep_one_child_per_orbit_and_the_command_writes_them(tmp_path):
    """A mirror-symmetric hole (the mirror fixes j12): every layout is a kept cube's layout
    or its mirror image; the command writes the cubes and their manifest."""
    from solver.tasks.cubes import SplitStats, split

    position = late_hole({"yellow": ["I3", "A4"]}, *BOX, mirror="mirror+rot240")
    problem = Problem(position, ("yellow",))
    stats = SplitStats()
    cubes = split(problem, 2, stats)
    assert stats.dropped > 0
    kept = {k for cube in cubes for k in cube_layouts(cube)}
    geometry = position.board.geometry
    flip = geometry.symmetries[list(geometry.symmetry_names).index("mirror+rot240")]
    mirrored = {frozenset((c, frozenset(int(flip[x]) for x in s)) for c, s in k) for k in kept}
    assert kept | mirrored == brute(position, ("yellow",))
    puzzle = tmp_path / "hole.toml"
    puzzle.write_text(puzzle_text(problem), encoding="utf-8")
    result = run_cli("cubes", "split", puzzle, "--depth", 2, "--out", tmp_path / "split")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{len(cubes)} cubes at depth 2"), result.output
    assert len(list((tmp_path / "split" / "cubes").glob("*.toml"))) == len(cubes)


def test_a_trigon_split_solved_by_batch_joins_to_the_search_answers(tmp_path):
    """Split, every cube solved by batch (the exact search), joined: "solved" where the hole
    has a layout, "infeasible" where it has none (every cube proven)."""
    from solver.batch.runner import BatchOptions, run_batch
    from solver.batch.work import BatchSettings
    from solver.tasks.cubes import write_cubes
    from solver.trust.cube_join import join

    cases = [
        ("yes", ["I3", "A4"], None, "solved"),
        ("no", ["I6", "L6", "V", "S"], "mirror+rot240", "infeasible"),
    ]
    for name, pieces, mirror, expected in cases:
        position = late_hole({"yellow": pieces}, *BOX, mirror=mirror)
        assert bool(brute(position, ("yellow",))) == (expected == "solved")
        text = puzzle_text(Problem(position, ("yellow",)))
        out = tmp_path / name
        manifest = write_cubes(f"{name}.toml", text, 2, out)
        results = out / "results"
        settings = BatchSettings(backend="search")
        run_batch(BatchOptions([out / "cubes"], results, settings, jobs=1))
        answer = join(out, results)
        assert answer.cubes == len(manifest["cubes"]) and answer.missing == answer.unknown == 0
        assert answer.status == expected, name


def test_count_with_a_star_and_the_monomino_last_is_the_brute_force():
    """A card goal makes the monomino a piece of the search checked at the leaf (not held
    back): it may lie on a smaller starting point than the one the colour starts from, and
    is counted once all the same."""
    from solver.backends.search import count

    position = late_hole({"yellow": ["1", "2", "I4"]}, *BOX)
    board = position.board
    for star in ("j12", "j7", "j11"):
        cell = board.parse(star)
        problem = Problem(position, ("yellow",), monomino_last=True, cover={cell})
        expected = {k for k in brute(position, ("yellow",), True) if any(cell in s for _, s in k)}
        result = count(problem)
        assert result.complete and result.count == len(expected) > 0, star
