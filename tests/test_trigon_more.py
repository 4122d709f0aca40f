"""Blokus Trigon in what refused it before (issue 43): the agents' environments (Gymnasium's
and PettingZoo's own checkers; the mask against the plain-set rules of the geometry; the
planes over Pentobi's naming rectangle; scores and records read back), ..."""

import warnings
from functools import lru_cache

import numpy as np
import pytest

from solver.core.board import column_name
from solver.core.checker import check_layout
from solver.core.geometry.reference import legal_rows
from solver.core.geometry.shapes import TRIGON_PIECES, PlacementList, enumerate_placements
from solver.core.geometry.trigon import TrigonGeometry
from solver.core.placement_index import variant_index
from solver.core.position import Position
from solver.core.variants import ALL_VARIANTS
from solver.formats.game import read_sgf_text

TRIGONS = ["trigon", "trigon2", "trigon3"]

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
