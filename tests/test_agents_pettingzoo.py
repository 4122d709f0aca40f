"""The PettingZoo AEC environment of the multi-colour games (solver/agents/pettingzoo_env.py):
PettingZoo's own checkers, the mask against the rules, illegal actions refused as
PettingZoo's classic games refuse them, final rewards against scores computed here, and the
games written as Pentobi records that we (and Pentobi's engine, where it is installed)
read back with the same scores."""

import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from solver.agents.pettingzoo_env import env, raw_env  # noqa: E402
from solver.agents.seats import Seats  # noqa: E402
from solver.core.checker import check_layout  # noqa: E402
from solver.core.order import interleave, order_of_play  # noqa: E402
from solver.core.pieces import MONOMINO, PIECES  # noqa: E402
from solver.core.placements import legal_moves  # noqa: E402
from solver.core.position import Position  # noqa: E402
from solver.core.rules import move_problem  # noqa: E402
from solver.core.variants import VARIANTS  # noqa: E402
from solver.errors import InputError, RuleError  # noqa: E402
from solver.formats.game import read_sgf_text  # noqa: E402

VARIANT_NAMES = ["classic", "classic2", "classic3", "duo", "junior"]


def random_game(game, seed):
    """Play a game to its end with a masked random agent; the rewards each agent got at
    its last turn, and the agents in the order they moved."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    final, movers = {}, []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            final[agent] = reward
            game.step(None)
            continue
        movers.append(agent)
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
    return final, movers


def own_score(position: Position, colour: str) -> int:
    """A colour's final score worked out here from its pieces (not Position.score): -1 per
    unplaced square; with every piece placed +15, and +5 more when the last was the
    monomino (no bonus in Junior)."""
    state = position.colour(colour)
    score = -sum(PIECES[p].size for p in state.remaining)
    if position.variant != "junior" and not state.remaining:
        score += 15 + (5 if state.placed[-1].piece == MONOMINO else 0)
    return score


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_pettingzoo_api_and_seed_tests_pass(variant):
    with warnings.catch_warnings():
        # the checkers warn that a dict observation is not a Box, as for their own chess
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(variant=variant), num_cycles=1000)
        seed_test(lambda: env(variant=variant), num_cycles=500)


def test_spaces_follow_the_placement_index():
    game = env(variant="classic")
    game.reset()
    assert game.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert game.action_space("player_0").n == 30_434  # 30,433 placements and the pass
    observation = game.observe("player_0")
    assert observation["observation"].shape == (20, 20, 88)
    assert observation["observation"].dtype == np.int8
    # the empty board: no square taken, every piece held once by each colour
    assert observation["observation"][:, :, :4].sum() == 0
    assert (observation["observation"][:, :, 4:] == 1).all()
    assert observation["action_mask"].sum() == 58  # blue's first placements
    assert game.observe("player_1")["action_mask"].sum() == 0  # not to move
    duo = raw_env(variant="duo")
    assert duo.action_space("player_0").n == 13_730 and duo.pass_action == 13_729
    assert raw_env(variant="junior").observation_space("player_0")["observation"].high.max() == 2


def test_the_mask_is_the_rules_legal_moves_along_a_game():
    """At every turn of a random Duo game, the mask marks exactly the moves of the old
    NumPy generator (independent of the move generator's kernel), and a sample of them
    passes the plain-set rules."""
    game = raw_env(variant="duo")
    game.reset()
    rng = np.random.default_rng(3)
    index = game.state.index
    turns = 0
    while game.to_move is not None:
        position = game.position()
        colour = game.state.colours[game.to_move]
        mask = game.observe(game.agent_selection)["action_mask"]
        expected = np.zeros(len(index) + 1, dtype=np.int8)
        expected[[index.index(p) for p in legal_moves(position, colour)]] = 1
        if not expected.any():
            expected[-1] = 1  # only the pass
        assert np.array_equal(mask, expected), turns
        legal = np.flatnonzero(mask)
        for number in rng.choice(legal, size=min(3, len(legal)), replace=False):
            if number != game.pass_action:
                assert move_problem(position, colour, index.placement(int(number))) is None
        game.step(int(rng.choice(legal)))
        turns += 1
    assert turns > 20


def test_an_illegal_action_ends_the_game_as_pettingzoo_classic_games_do(caplog):
    game = env(variant="duo")
    game.reset()
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])  # not on e10
    game.step(illegal)
    assert "Illegal move made" in caplog.text  # PettingZoo's own warning, logged
    assert all(game.terminations.values()) and all(game.truncations.values())
    assert game.rewards == {"player_0": -89.0, "player_1": 0.0}  # the lowest score
    assert game.unwrapped.state.placed == 0  # the move was not played
    # the bare environment says which rule the move breaks
    bare = raw_env(variant="duo")
    bare.reset()
    with pytest.raises(RuleError, match="e10"):
        bare.step(illegal)
    with pytest.raises(RuleError, match="cannot pass"):
        bare.step(bare.pass_action)
    # Two-Player: the lowest score of a player is both its colours' pieces unplaced
    assert raw_env(variant="classic2").illegal_reward == -178.0


def test_an_action_outside_the_space_is_refused():
    game = env(variant="junior")
    game.reset()
    with pytest.raises(AssertionError, match="action space"):
        game.step(7_218)


@pytest.mark.parametrize("name", ["trigon4", "", None, 3])
def test_an_unknown_variant_is_one_line(name):
    with pytest.raises(InputError) as raised:
        raw_env(variant=name)
    text = str(raised.value)
    assert "\n" not in text and "unknown variant" in text and "classic3" in text


def test_an_unknown_render_mode_is_one_line():
    with pytest.raises(InputError, match="unknown render mode 'human'"):
        raw_env(variant="duo", render_mode="human")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_games_are_our_rules_games(variant):
    """Random games: replayed through the rule checker, every colour's remaining pieces as
    the environment has them; the final rewards are each player's scores worked out here;
    written as a Pentobi record and read back, the same final position and scores."""
    game = raw_env(variant=variant)
    seats = Seats.of(VARIANTS[variant])
    for seed in range(3):
        final, _ = random_game(game, seed)
        end = game.position()
        moves = game.moves()
        layout = {c: [p for colour, p in moves if colour == c] for c in end.colour_names}
        report = check_layout(Position.empty(VARIANTS[variant]), layout)
        assert report.legal, report.problem
        for state in end.colours:
            assert report.final.colour(state.name).remaining == state.remaining
            assert own_score(end, state.name) == end.score(state.name)
        expected = [
            sum(own_score(end, end.colour_names[c]) for c in seats.colours_of(p))
            for p in range(seats.players)
        ]
        assert final == {f"player_{p}": float(s) for p, s in enumerate(expected)}
        # no colour of the end position has a legal move left
        assert not any(legal_moves(end, c) for c in end.colour_names)
        back = read_sgf_text(game.record(name=f"{variant} {seed}"))
        assert back.variant.name == variant
        assert [(m.colour, m.placement) for m in back.moves] == moves
        assert [back.final.score(c) for c in end.colour_names] == [
            end.score(c) for c in end.colour_names
        ]


def test_two_player_gives_each_player_two_colours():
    game = raw_env(variant="classic2")
    random_game(game, 5)
    history = game.state.history()
    assert len(history) > 30
    game.reset()
    for colour, number in history:
        while game.to_move != colour:  # a colour before it has no move: it passes
            assert game.observe(game.agent_selection)["action_mask"][-1] == 1
            game.step(game.pass_action)
        assert game.agent_selection == f"player_{colour % 2}"  # blue, red: 0; yellow, green: 1
        # the observation is seen from the colour to move: plane 0 is its squares
        planes = game.observe(game.agent_selection)["observation"]
        owner = game.state.state.owner.reshape(20, 20)
        assert np.array_equal(planes[:, :, 0], owner == colour)
        game.step(number)


def test_three_player_shares_green_in_turn():
    game = raw_env(variant="classic3")
    assert game.possible_agents == ["player_0", "player_1", "player_2"]
    greens = 0
    game = raw_env(variant="classic3")
    game.reset()
    rng = np.random.default_rng(2)
    while game.to_move is not None:
        colour = game.to_move
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        if colour == 3 and action != game.pass_action:
            assert agent == f"player_{greens % 3}"
            greens += 1
        elif colour != 3:
            assert agent == f"player_{colour}"
        game.step(action)
    assert greens > 5
    # green is scored by no one: three rewards, blue's, yellow's and red's scores
    end = game.position()
    assert game.rewards == {
        f"player_{k}": float(end.score(c)) for k, c in enumerate(("blue", "yellow", "red"))
    }


def test_render_ansi_and_rgb_array():
    text = raw_env(variant="duo", render_mode="ansi")
    text.reset()
    text.step(text.state.index.index({text.state.index.board.parse("e10")}))
    board = text.render()
    lines = board.splitlines()
    assert lines[0].startswith("14 ") and lines[4] == "10 . . . . P . . . . . . . . ."
    assert lines[14].split() == list("abcdefghijklmn") and lines[-1] == "to move: orange"
    picture = raw_env(variant="duo", render_mode="rgb_array", render_size=200)
    picture.reset()
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[1:] == (200, 3)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert raw_env(variant="duo").render() is None


def pentobi_gtp():
    """Pentobi's engine: $PENTOBI_GTP, or pentobi-gtp on the PATH (as tests/test_gtp.py)."""
    found = os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")
    return found if found and Path(found).exists() else None


def pentobi_final_score(end: Position, seats: Seats) -> str:
    """What Pentobi's ``final_score`` answers for a finished game: its points (squares
    placed and bonus) per colour with more than two players, else ``B+n`` / ``W+n`` / ``0``
    (player 0's points less player 1's)."""
    squares = sum(PIECES[p].size * n for p, n in VARIANTS[end.variant].pieces.items())
    points = [own_score(end, c) + squares for c in end.colour_names]
    if seats.players > 2:
        return " ".join(str(p) for p in points)
    margin = sum(points[c] * (1 if seats.owner[c] == 0 else -1) for c in range(len(points)))
    return f"B+{margin}" if margin > 0 else f"W+{-margin}" if margin < 0 else "0"


def book_game(variant):
    """A game in which every colour places all its pieces, its monomino last: a layout of
    the companion's opening book (Two-Player: Classic's, the same board and colours), the
    colours taking turns."""
    from solver.companion.book import book_layouts

    start = Position.empty(VARIANTS[variant])
    book = "classic" if variant == "classic2" else variant
    layout = book_layouts(Position.empty(VARIANTS[book]), most=1)[0]
    queues = {c: order_of_play(start, c, ps, monomino_last=True) for c, ps in layout.items()}
    assert all(q is not None and q[-1].piece == MONOMINO for q in queues.values())
    return interleave(queues, start.colour_names, start.colour_names[0])


def play_moves(game, moves):
    game.reset()
    index = game.state.index
    for colour, placement in moves:
        assert game.state.colours[game.to_move] == colour
        game.step(index.index(placement))


@pytest.mark.parametrize("variant", ["classic", "classic2", "duo"])
def test_a_game_with_every_piece_placed_scores_the_bonuses(variant):
    game = raw_env(variant=variant)
    moves = book_game(variant)
    play_moves(game, moves)
    assert game.to_move is None and all(game.terminations.values())
    per_colour = 15 + 5  # all placed, the monomino last
    colours = 2 if variant == "classic2" else 1
    assert set(game.rewards.values()) == {float(per_colour * colours)}
    back = read_sgf_text(game.record())
    assert [back.final.score(c) for c in back.final.colour_names] == [20] * len(
        VARIANTS[variant].colours
    )


@pytest.mark.skipif(pentobi_gtp() is None, reason="Pentobi's GTP engine is not installed")
def test_pentobi_reads_the_records_back_with_the_same_scores(tmp_path):
    from solver.gtp.client import Client

    with Client([pentobi_gtp(), "--nobook", "--quiet"]) as pentobi:
        for variant in VARIANT_NAMES:
            game = raw_env(variant=variant)
            seats = Seats.of(VARIANTS[variant])
            for seed in range(2):
                random_game(game, seed)
                path = tmp_path / f"{variant}-{seed}.blksgf"
                path.write_text(game.record())
                pentobi.send(f"loadsgf {path}")
                answer = pentobi.send("final_score").strip()
                assert answer == pentobi_final_score(game.position(), seats), (variant, seed)
        for variant, expected in [("classic", "109 109 109 109"), ("duo", "0")]:
            game = raw_env(variant=variant)
            play_moves(game, book_game(variant))  # every piece placed, the monomino last
            path = tmp_path / f"{variant}-book.blksgf"
            path.write_text(game.record())
            pentobi.send(f"loadsgf {path}")
            assert pentobi.send("final_score").strip() == expected
