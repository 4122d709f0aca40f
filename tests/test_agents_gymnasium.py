"""The solo challenge as a Gymnasium environment (solver/agents/gymnasium_env.py):
Gymnasium's own checker, the registered id, the turn order against the rules, rewards
against scores worked out here, illegal actions, the joint question's shaped signal, and
the games written as records we read back."""

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import solver.agents  # noqa: E402
from solver.agents.gymnasium_env import SoloEnv  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.order import interleave, order_of_play  # noqa: E402
from solver.core.pieces import MONOMINO, PIECES  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402
from solver.errors import InputError  # noqa: E402
from solver.formats.game import read_sgf_text  # noqa: E402
from solver.tasks.endgame import area_shortfall  # noqa: E402


def random_episode(env, seed):
    """A masked random agent's episode: the steps as (colour moved, action, reward, info)."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    steps, done = [], False
    while not done:
        colour = info["colour"]
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        steps.append((colour, action, reward, info))
        done = terminated or truncated
    return steps


def points(position, colour):
    """Pentobi's points of a colour, worked out here: squares placed, +15 with every piece
    placed, +5 more with the monomino last (no bonus in Junior)."""
    state = position.colour(colour)
    placed = sum(PIECES[p.piece].size for p in state.placed)
    if position.variant != "junior" and not state.remaining:
        placed += 15 + (5 if state.placed[-1].piece == MONOMINO else 0)
    return placed


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"variant": "duo"}, {"variant": "junior"}, {"colour": "red"}, {"joint": "area"}],
)
def test_gymnasium_check_env_passes(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings too
        # made through the registry (the checker tries the other render modes by its spec)
        env = gymnasium.make("blokus_solo/Solo-v0", render_mode="ansi", **kwargs)
        check_env(env.unwrapped, skip_render_check=False)


def test_the_registered_id_makes_the_environment():
    assert solver.agents.ENV_ID == "blokus_solo/Solo-v0"
    env = gymnasium.make("blokus_solo/Solo-v0", variant="duo", render_mode="ansi")
    assert isinstance(env.unwrapped, SoloEnv)
    assert env.action_space.n == 13_730  # Duo's 13,729 placements and the pass
    observation, info = env.reset(seed=0)
    assert info == {"colour": "purple"}
    assert observation["observation"].shape == (14, 14, 44)
    assert observation["action_mask"].sum() == 414  # purple's first placements
    assert env.render().splitlines()[-1] == "to move: purple"


def test_spaces_and_the_perspective_of_the_colour_to_move():
    env = SoloEnv()
    assert env.action_space.n == 30_434 and env.pass_action == 30_433
    observation, info = env.reset()
    assert info["colour"] == "blue" and observation["action_mask"].sum() == 58
    assert observation["action_mask"][-1] == 0  # never the pass
    assert np.array_equal(env.action_masks(), observation["action_mask"].astype(bool))
    index = env.state.index
    blue = index.index(next(p for p in legal_moves(env.position(), "blue") if p.piece == "I5"))
    observation, reward, terminated, truncated, info = env.step(blue)
    assert (reward, terminated, truncated, info) == (5.0, False, False, {"colour": "yellow"})
    planes = observation["observation"]
    # yellow first, then red, green, and blue last: blue's five squares in plane 3
    assert planes[:, :, 3].sum() == 5 and planes[:, :, :3].sum() == 0
    # piece channels: blue (the 4th colour) holds no I5 any more, yellow still does
    i5 = list(PIECES).index("I5")
    assert planes[0, 0, 4 + 21 * 3 + i5] == 0 and planes[0, 0, 4 + i5] == 1
    assert observation["action_mask"].sum() == 58  # yellow's first placements


@pytest.mark.parametrize(
    "kwargs", [{}, {"variant": "duo"}, {"variant": "junior"}, {"colour": "green"}]
)
def test_random_episodes_follow_the_rules_and_score(kwargs):
    """The colours move in turn order, skipping exactly those with no legal placement (by
    the plain-set rules); the rewards are the pieces' squares and, at the end, the bonuses;
    the return is each colour's points; the layout passes the rule checker, and the record
    reads back with the same scores."""
    env = SoloEnv(**kwargs)
    start = env.start
    in_play = [env.state.colours[c] for c in env.in_play]
    for seed in range(2):
        steps = random_episode(env, seed)
        end = env.position()
        replay = start
        expected_colour = in_play[0]
        for colour, action, reward, info in steps:
            # the colour to move is the first in turn order from the expected one with a move
            k = in_play.index(expected_colour)
            turn = in_play[k:] + in_play[:k]
            first = next(c for c in turn if legal_moves(replay, c))
            assert colour == first
            placement = env.state.index.placement(action)
            replay = replay.with_placement(colour, placement)
            if info["colour"] is not None:
                assert reward == len(placement.squares)
                expected_colour = in_play[(in_play.index(colour) + 1) % len(in_play)]
        assert steps[-1][3]["colour"] is None
        assert not any(legal_moves(end, c) for c in in_play)
        total = sum(r for *_, r, _ in steps)
        assert total == sum(points(end, c) for c in in_play)
        assert steps[-1][3]["scores"] == {c: end.score(c) for c in in_play}
        layout = {c: [p for p in end.colour(c).placed] for c in end.colour_names}
        assert check_layout(Position.empty(VARIANTS[start.variant]), layout).legal
        back = read_sgf_text(env.record())
        assert [back.final.score(c) for c in in_play] == [end.score(c) for c in in_play]
        if "colour" in kwargs:
            assert all(c == kwargs["colour"] for c, *_ in steps) and len(steps) > 8


def test_every_piece_placed_returns_109_a_colour():
    """The opening book's Classic layout, played in turn order, the monomino last of each
    colour: 89 squares + 15 + 5 each, 436 in all; the last step has its bonuses."""
    from solver.companion.book import book_layouts

    env = SoloEnv()
    _, last = env.reset()
    start = env.start
    layout = book_layouts(start, most=1)[0]
    queues = {c: order_of_play(start, c, ps, monomino_last=True) for c, ps in layout.items()}
    total = 0.0
    for colour, placement in interleave(queues, start.colour_names, "blue"):
        assert last["colour"] == colour
        _, reward, terminated, _, last = env.step(env.state.index.index(placement))
        total += reward
    assert terminated and total == 436.0 and reward == 1 + 4 * 20
    assert last["scores"] == dict.fromkeys(start.colour_names, 20)


def test_an_illegal_action_ends_the_episode_and_changes_nothing():
    env = SoloEnv(variant="duo")
    observation, _ = env.reset()
    for action in (int(np.flatnonzero(observation["action_mask"] == 0)[0]), env.pass_action):
        env.reset()
        observation, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert info == {"colour": None, "illegal": True}
        assert env.state.placed == 0 and observation["action_mask"].sum() == 0
        with pytest.raises(InputError, match="reset"):
            env.step(0)
    env = SoloEnv(variant="duo", illegal_reward=-89.0)
    env.reset()
    assert env.step(env.pass_action)[1] == -89.0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"variant": "hexagon"}, "unknown variant"),
        ({"colour": "pink"}, "no colour 'pink'"),
        ({"joint": "exact"}, "unknown joint mode 'exact'"),
        ({"joint": "area", "joint_every": 0}, "joint_every"),
        ({"render_mode": "human"}, "unknown render mode 'human'"),
    ],
)
def test_bad_settings_are_one_line(kwargs, words):
    with pytest.raises(InputError, match=words) as raised:
        SoloEnv(**kwargs)
    assert "\n" not in str(raised.value)


@pytest.mark.slow
def test_the_joint_check_signal_is_a_proven_no():
    """With joint="check" (the full joint check, a solver run each asked step), the step
    that earns joint_reward is one after which the colours in play cannot all place every
    piece left: an independent exact search (no time limit) says "no" there; the episode
    is otherwise the same as without the signal."""
    from solver.backends.base import SolveOptions
    from solver.tasks.endgame import joint_check

    plain = random_episode(SoloEnv(variant="duo"), 5)
    env = SoloEnv(variant="duo", joint="check", joint_reward=-3.0, joint_time_limit=0.5,
                  joint_every=4)  # fmt: skip
    shaped = random_episode(env, 5)
    assert [s[1] for s in shaped] == [s[1] for s in plain]
    flagged = [k for k, s in enumerate(shaped) if "joint" in s[3]]
    assert len(flagged) == 1  # a random game leaves pieces: a "no" is proven by the end
    k = flagged[0]
    assert (k + 1) % 4 == 0  # asked every 4th placement
    assert shaped[k][2] == plain[k][2] - 3.0
    position = env.start
    for colour, action, *_ in shaped[: k + 1]:
        position = position.with_placement(colour, env.state.index.placement(action))
    left = tuple(c for c in ("purple", "orange") if position.colour(c).remaining)
    again = joint_check(position, left, SolveOptions(backend="search", workers=1))
    assert again.answer == "no"


def test_the_joint_question_is_a_shaped_signal():
    """With joint="area", the first step after which the colours in play provably cannot
    all place every piece left (a colour stuck with pieces left, or the bound by area)
    earns joint_reward more; the episode is otherwise the same."""
    plain = random_episode(SoloEnv(variant="duo"), 4)
    env = SoloEnv(variant="duo", joint="area", joint_reward=-7.0)
    shaped = random_episode(env, 4)
    assert [s[1] for s in shaped] == [s[1] for s in plain]
    flagged = [k for k, s in enumerate(shaped) if "joint" in s[3]]
    assert len(flagged) == 1
    k = flagged[0]
    assert shaped[k][2] == plain[k][2] - 7.0
    assert sum(s[2] for s in shaped) == sum(s[2] for s in plain) - 7.0
    # replayed: no proof before that step, one after it
    position = env.start
    names = ("purple", "orange")
    for j, (colour, action, *_) in enumerate(shaped[: k + 1]):
        position = position.with_placement(colour, env.state.index.placement(action))
        left = tuple(c for c in names if position.colour(c).remaining)
        stuck = any(position.colour(c).remaining and not legal_moves(position, c) for c in names)
        proof = stuck or bool(area_shortfall(position, left))
        assert proof == (j == k), j
