"""The fast move generator (solver/core/movegen.py) against Pentobi, the old NumPy generator
and the plain-set rules (solver/core/rules.py); play, undo, masks and observation planes.

Pentobi's answers for every position of the vendored games are stored in
``tests/data/games/all_legal.json`` (written by ``benchmarks/movegen.py --write-oracle``
from ``pentobi-gtp``: counts per position and colour, and a SHA-256 of all the lists).
"""

import hashlib
import json

import helpers
import numpy as np
import pytest
from brute import brute_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.core.board import Board
from solver.core.movegen import (
    MoveState,
    has_legal_move,
    legal_indices,
    legal_mask,
    legal_placements,
    observation,
)
from solver.core.pieces import PIECE_NAMES
from solver.core.placement_index import index_for
from solver.core.placements import legal_moves, placements_for
from solver.core.position import ColourState, Position
from solver.core.rules import move_problem
from solver.core.variants import VARIANTS
from solver.errors import InputError, RuleError
from solver.formats.game import load_game

GAMES = helpers.GAMES


@pytest.fixture(scope="module")
def games():
    files = sorted(GAMES.glob("*.blksgf"))
    assert len(files) == 55
    return {f.name: load_game(f) for f in files}


def test_every_position_of_the_games_equals_pentobi(games):
    """10,000 colour-positions: each list equal to Pentobi's all_legal (counts one by one,
    the lists, as sorted placement numbers, through one digest per game), the state played
    along incrementally (each move of the game checked legal by it)."""
    oracle = json.loads((GAMES / "all_legal.json").read_text())["games"]
    assert sorted(oracle) == sorted(games)
    checked = 0
    for name, game in games.items():
        assert not game.has_setup
        state = MoveState(game.position(0))
        digest = hashlib.sha256()
        counts = []
        placements = [m for m in game.moves if m.placement is not None]
        for n in range(game.num_placements + 1):
            row = []
            for k in range(len(state.colours)):
                moves = state.legal(k)
                row.append(len(moves))
                digest.update(moves.astype("<i4").tobytes())
            counts.append(row)
            checked += len(row)
            if n < len(placements):
                state.play(placements[n].colour, placements[n].placement)
        assert counts == oracle[name]["counts"], name
        assert digest.hexdigest() == oracle[name]["sha256"], name
    assert checked > 10_000


def test_the_old_generator_agrees_every_fortieth_position(games):
    """The same placements as solver.core.placements (the old NumPy generator) at every
    40th position (every position, in order: benchmarks/movegen.py --old)."""
    for game in games.values():
        for n in range(0, game.num_placements + 1, 40):
            position = game.position(n)
            index = index_for(position)
            for colour in position.colour_names:
                table = placements_for(position, colour)
                old = index.indices_of(table.squares[table.playable])
                assert np.array_equal(np.sort(old), legal_indices(position, colour))
    position = games["duo-L4-s29.blksgf"].position(13)
    assert legal_placements(position, "orange") == legal_moves(position, "orange")


def test_first_moves_and_masks_of_each_variant():
    for name, first, size in (("classic", 58, 30433), ("duo", 414, 13729), ("junior", 189, 7217)):
        position = Position.empty(VARIANTS[name])
        for colour in position.colour_names:
            mask = legal_mask(position, colour)
            assert mask.shape == (size,) and mask.dtype == bool
            assert mask.sum() == first
            assert np.array_equal(np.flatnonzero(mask), legal_indices(position, colour))


def test_junior_piece_held_twice_gives_each_placement_once(games):
    game = games["junior-L4-s107.blksgf"]
    position = game.position(10)
    index = index_for(position)
    assert len(index) == 7217
    purple = position.colour("purple")
    twice = [p for p in set(purple.remaining) if purple.remaining.count(p) == 2]
    assert twice
    found = legal_indices(position, "purple")
    assert len(found) == len(set(found.tolist()))
    assert {PIECE_NAMES[index.piece[i]] for i in found} <= set(purple.remaining)


# --- the plain-set rules (tests/brute.py) on random small boards --------------------------


@st.composite
def small_games(draw):
    rows, cols = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    size = rows * cols
    blocked = draw(st.sets(st.integers(0, size - 1), max_size=size // 6))
    free = sorted(set(range(size)) - blocked)
    n_colours = draw(st.integers(1, 3))
    starts = draw(st.lists(st.sampled_from(free), min_size=n_colours, max_size=n_colours))
    colours = []
    for name, start in zip(("blue", "yellow", "red"), starts):
        pieces = draw(st.lists(st.sampled_from(PIECE_NAMES[:12]), min_size=1, max_size=6))
        pieces = sorted(pieces, key=PIECE_NAMES.index)  # a piece may come twice, as in Junior
        colours.append(ColourState(name, start, (), tuple(pieces)))
    position = Position(Board(rows, cols, frozenset(blocked)), tuple(colours))
    choices = draw(st.lists(st.integers(0, 10_000), min_size=0, max_size=6))
    return position, choices


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games())
def test_random_small_games_follow_the_rules(game):
    """Along a random line of play: the incremental state, a fresh one from the position
    and the plain-set rules give the same moves; every move is legal by move_problem; undo
    gives every list back."""
    position, choices = game
    state = MoveState(position)
    index = state.index
    before = [state.legal(k).tolist() for k in range(len(state.colours))]
    for turn, choice in enumerate(choices):
        for k, colour in enumerate(position.colour_names):
            moves = state.legal(k).tolist()
            assert {index.placement(i).squares for i in moves} == brute_moves(position, colour)
            assert moves == legal_indices(position, colour).tolist()
            assert state.count(k) == len(moves) and state.has_move(k) == bool(moves)
            assert has_legal_move(position, colour) == bool(moves)
            for i in moves[:3]:
                assert move_problem(position, colour, index.placement(i)) is None
        k = turn % len(state.colours)
        moves = state.legal(k).tolist()
        if not moves:
            continue
        m = moves[choice % len(moves)]
        state.play(k, m)
        position = position.with_placement(position.colour_names[k], index.placement(m))
        assert state.position() == position
    while state.placed:
        state.undo()
    assert [state.legal(k).tolist() for k in range(len(state.colours))] == before


def test_play_refuses_an_illegal_move_and_undo_an_empty_stack():
    position = Position.empty(VARIANTS["duo"])
    state = MoveState(position)
    index = state.index
    away = index.index(frozenset({position.board.parse("a1")}))
    with pytest.raises(RuleError, match="start square e10"):
        state.play("purple", away)
    with pytest.raises(RuleError, match="nothing to undo"):
        state.undo()
    with pytest.raises(InputError, match="no colour"):
        state.legal("blue")
    first = state.play("purple", index.index(frozenset({position.board.parse("e10")})))
    assert state.undo() == first and state.placed == 0


def test_the_numbers_the_generator_gives_are_taken_back_and_others_refused():
    """Issue 41 item 9: play refused the NumPy integers legal() returns (TypeError), a
    mask(out=...) of the wrong length was filled (stale marks past P, or placements
    lost), and perft(0, 1.5) raised numba's TypingError, 2**40 a MemoryError."""
    state = MoveState(Position.empty(VARIANTS["duo"]))
    first = state.legal("purple")[0]
    assert isinstance(first, np.int32)
    assert state.play(np.int64(0), first) == int(first) and state.placed == 1
    assert state.is_legal(np.int8(1), state.legal(1)[0]) and state.count(np.int64(1)) == 414
    state.undo()
    p = len(state.index)
    for bad in (np.zeros(p + 1, dtype=bool), np.zeros(p - 1, dtype=bool), np.zeros(p, np.uint8)):
        with pytest.raises(InputError, match=rf"shape \({p},\)") as refused:
            state.mask("purple", out=bad)
        assert refused.value.where == "out" and not bad.any()
    with pytest.raises(InputError, match="out"):
        state.mask("purple", out=[False] * p)
    out = np.ones(p, dtype=bool)
    assert state.mask("purple", out=out) is out and int(out.sum()) == 414
    for depth in (1.5, 2**40, -1, True, "2", np.float64(1.0)):
        with pytest.raises(InputError, match="depth") as refused:
            state.perft(0, depth)
        assert refused.value.where == "depth"
    assert state.perft(0, np.int64(1)) == 414 and state.perft(0, 0) == 1
    # a placement number that is not a whole number, or no placement: refused even
    # unchecked (with check=False the kernel would write past its arrays)
    for bad in (1.5, True, "3", np.float32(2)):
        with pytest.raises(InputError, match="placement"):
            state.play(0, bad, check=False)
        with pytest.raises(InputError, match="placement"):
            state.is_legal(0, bad)
    for outside in (-1, p, 2**70):
        with pytest.raises(InputError, match="outside"):
            state.play(0, outside, check=False)
        assert not state.is_legal(0, outside)
    assert state.placed == 0 and state.count(0) == 414
    # a colour by its number: True is not colour 1
    for colour in (True, 2, -1, 1.0):
        with pytest.raises(InputError, match="no colour"):
            state.legal(colour)


def test_the_tables_every_state_shares_are_read_only():
    """The kernel's tables of an index are built once per process and shared by every
    MoveState and one-call function of the variant (``state.tables``); their docstring
    said read-only, but a write to a move list changed every position's legal moves."""
    position = Position.empty(VARIANTS["duo"])
    state = MoveState(position)
    assert MoveState(position).tables is state.tables
    for name, array in zip(state.tables._fields, state.tables):
        assert not array.flags.writeable, name
    with pytest.raises(ValueError, match="read-only"):
        state.tables.pm_moves[:] = 0
    assert state.count("purple") == 414 == len(legal_indices(position, "purple"))


def test_observation_planes(games):
    position = games["classic-L1-s56.blksgf"].position(30)
    planes = observation(position)
    assert planes["occupancy"].shape == (4, 20, 20) and planes["occupancy"].dtype == np.uint8
    for k, colour in enumerate(position.colours):
        rows = {divmod(s, 20) for s in colour.squares}
        assert {tuple(x) for x in np.argwhere(planes["occupancy"][k])} == rows
        assert planes["pieces_left"][k].sum() == len(colour.remaining)
    assert planes["blocked"].sum() == 0
    seen = observation(position, perspective="red")  # red first, then green, blue, yellow
    assert np.array_equal(seen["occupancy"][1], planes["occupancy"][3])
    assert np.array_equal(seen["pieces_left"][2], planes["pieces_left"][0])


def test_the_gtp_engine_asks_the_fast_generator_once_its_kernel_is_ready(games, monkeypatch):
    from solver.backends import warmup
    from solver.gtp import moves

    assert moves.fast_ready()  # (the test run compiles the kernels first: conftest.py)
    for name in ("junior-L4-s107.blksgf", "classic2-L6-s85.blksgf"):
        game = games[name]
        for n in (0, game.num_placements // 2):
            position = game.position(n)
            for colour in position.colour_names:
                fast = moves.legal_rows(position, colour)
                assert fast.dtype == np.int64
                assert np.array_equal(fast, moves.filtered_rows(position, colour))
    # no kernel yet: the NumPy filter answers and the background compile starts
    started = []
    monkeypatch.setattr(warmup, "compiled_or_cached", lambda kernel: False)
    monkeypatch.setattr(warmup, "compile_in_background", lambda **kw: started.append(kw))
    position = games["duo-L4-s29.blksgf"].position(13)
    assert len(moves.legal_rows(position, "orange")) == 54 and started
