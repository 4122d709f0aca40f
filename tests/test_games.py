"""Game records: reading .blksgf files, replaying them, legal moves, writing them back.

Real games (tests/data/games: Pentobi self-play with JSON sidecars and an oracle of
Pentobi's ``all_legal`` counts) and our own small fixtures (tests/data/sgf/).
"""

import json
import random
from pathlib import Path

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.core.board import Board
from solver.core.position import ColourState, Placement, Position
from solver.core.variants import VARIANTS, read_colour
from solver.errors import InputError, PieceError, RuleError, SquareError
from solver.formats.game import (
    game_moves,
    load_game,
    move_ids,
    read_sgf_bytes,
    read_sgf_text,
    sgf_moves,
    start_position,
    write_sgf,
)
from solver.formats.sgf import parse

FIXTURES = helpers.SGF_FIXTURES
GAMES = helpers.GAMES
DUO = Board(14, 14)


def need_games() -> list[Path]:
    files = sorted(GAMES.glob("*.blksgf"))
    assert files, f"no vendored games in {GAMES}"
    return files


def squares(board, *names):
    return frozenset(board.parse(n) for n in names)


def names(board, state):
    return [",".join(board.names(p.squares)) for p in state.placed]


# --- our fixtures ------------------------------------------------------------------------


def test_escapes_whitespace_utf8_and_unordered_squares():
    game = load_game(FIXTURES / "escapes.blksgf")
    assert game.variant.name == "duo"
    assert game.info["GN"] == "Duo ] test \\ ünïcödé – 日本"
    assert game.info["C"] == "first line\nsecond line with a soft break"
    final = game.position()
    # written as E11,e10,d11,f11,e12 and i6,i4,h5,j5,i5: an X on each start square
    assert names(DUO, final.colour("purple")) == ["e10,d11,e11,f11,e12"]
    assert names(DUO, final.colour("orange")) == ["i4,h5,i5,j5,i6"]
    assert [p.piece for c in final.colours for p in c.placed] == ["X", "X"]


def test_setup_properties_and_pl():
    # Pentobi's own test (BoardUpdaterTest.cpp): this setup gives 10 points to each colour
    game = load_game(FIXTURES / "setup-duo.blksgf")
    assert game.has_setup and game.num_placements == 1
    start = game.position(0)
    assert len(start.colour("purple").squares) == 10
    assert len(start.colour("orange").squares) == 10
    assert [p.piece for p in start.colour("purple").placed] == ["F", "X"]
    assert [p.piece for p in start.colour("orange").placed] == ["X", "Y"]
    assert len(start.colour("purple").remaining) == 19
    assert start.to_move == "orange"  # PL[W]
    end = game.position()
    assert end.colour("orange").last_piece == "1"
    assert end.colour("orange").placed[-1].squares == squares(DUO, "k6")
    assert end.to_move == "purple"


def test_setup_need_not_follow_the_rules_but_later_moves_do():
    game = load_game(FIXTURES / "setup-classic.blksgf")
    board = game.position().board
    start = game.position(0)
    assert start.to_move == "red"  # PL[3]
    assert names(board, start.colour("blue")) == ["j10,k10", "a20"]
    assert names(board, start.colour("red")) == ["t1,s2,t2"]
    assert [m.colour for m in game.moves] == ["red", "green", "blue"]
    end = game.position()
    assert names(board, end.colour("blue")) == ["j10,k10", "a20", "l7,l8,l9"]
    assert end.colour("blue").last_piece == "I3"
    assert end.colour("yellow").placed == ()
    assert end.to_move == "yellow"


def test_ae_removes_pieces_even_of_a_piece_held_twice():
    # Pentobi's test: (;GM[Blokus Junior];B[e10];W[j5];B[f9];AE[f9][e10]) -> 0 and 1 points
    game = load_game(FIXTURES / "ae-junior.blksgf")
    assert game.num_placements == 4
    assert game.position(2).colour("purple").squares == squares(DUO, "e10")
    # position(3) includes the setup node (AE) that comes before the 4th placement
    after_ae = game.position(3)
    assert after_ae.colour("purple").placed == ()
    assert after_ae.colour("purple").remaining.count("1") == 2
    assert len(after_ae.colour("orange").squares) == 1
    # with no piece left on the board, purple's next piece must cover e10 again
    end = game.position()
    assert end.colour("purple").squares == squares(DUO, "d10", "e10")


def test_ae_removes_the_whole_piece_on_a_square():
    # Pentobi's test removes Color(0)'s pentomino: 0 and 5 points
    final = load_game(FIXTURES / "ae-duo.blksgf").position()
    assert final.colour("purple").placed == ()
    assert len(final.colour("purple").remaining) == 21
    assert len(final.colour("orange").squares) == 5


def test_passes_are_moves_but_not_placements():
    game = load_game(FIXTURES / "passes.blksgf")
    assert len(game.moves) == 5 and game.num_placements == 3
    assert [m.is_pass for m in game.moves] == [False, True, False, False, True]
    assert game.position(1).to_move == "purple"  # orange passed after purple's first move
    assert game.position().to_move == "orange"  # purple passed last
    assert game.position().colour("purple").squares == squares(DUO, "e10", "f9", "f8")


def test_variations_follow_the_main_line():
    game = load_game(FIXTURES / "variations.blksgf")  # the other lines hold illegal moves
    assert [(m.colour, sorted(DUO.names(m.placement.squares))) for m in game.moves] == [
        ("purple", ["e10"]),
        ("orange", ["j5"]),
        ("purple", ["f8", "f9"]),
        ("orange", ["k3", "k4"]),
    ]


def test_four_colours_with_squares_in_any_order():
    game = load_game(FIXTURES / "classic-unordered.blksgf")
    final = game.position()
    board = final.board
    assert names(board, final.colour("blue")) == ["a19,a20", "b18"]
    assert names(board, final.colour("red")) == ["s1,t1,t2"]
    assert names(board, final.colour("green")) == ["a1,b1,a2,b2"]
    assert [p.piece for p in final.colour("green").placed] == ["O"]
    assert final.to_move == "yellow"


@pytest.mark.parametrize(
    "gm, name, first_move",
    [
        ("Blokus", "classic", "1[a20]"),
        ("Blokus Two-Player", "classic2", "1[a20]"),
        ("Blokus Three-Player", "classic3", "1[a20]"),
        ("Blokus Duo", "duo", "B[e10]"),
        ("Blokus Junior", "junior", "B[e10]"),
    ],
)
def test_every_variant_by_gm(gm, name, first_move):
    game = read_sgf_text(f"(;GM[{gm}];{first_move})")
    assert game.variant is VARIANTS[name]
    assert game.num_placements == 1
    assert game.position().to_move == VARIANTS[name].colours[1]


def test_two_colour_games_also_accept_1_and_2():
    game = read_sgf_text("(;GM[Blokus Duo];1[e10];2[j5]PL[W])")
    assert [m.colour for m in game.moves] == ["purple", "orange"]
    assert game.position().to_move == "purple"  # PL comes before the node's move
    game = read_sgf_text("(;GM[Blokus Duo];1[e10];2[j5];PL[W])")
    assert game.position().to_move == "orange"


def test_position_after_n_and_past_the_end():
    game = load_game(FIXTURES / "passes.blksgf")
    assert game.position(0).occupied == frozenset()
    assert game.position(0) is not game.position(3)
    assert game.position(3) is game.position()
    for bad in (4, -1):
        with pytest.raises(InputError) as err:
            game.position(bad)
        assert err.value.where == f"--after {bad}"
        assert "has 3 placements" in err.value.message
        assert err.value.path.endswith("passes.blksgf")


BAD = [
    # file, error class, message fragment, where
    ("truncated", InputError, "'[' is never closed", "line 2, column 3"),
    ("unclosed-paren", InputError, "'(' is never closed", "line 1, column 1"),
    ("extra-paren", InputError, "unmatched ')'", "line 2, column 9"),
    ("missing-bracket", InputError, "property B has no value", "line 2, column 2"),
    ("junk-after", InputError, "unexpected 'x'", "line 2, column 1"),
    ("empty", InputError, "no game tree", "line 1, column 1"),
    ("latin1", InputError, "not valid UTF-8", "line 1, column 22"),
    ("unknown-variant", InputError, "unsupported variant GM[Blokus Callisto]", "line 1, column 5"),
    ("no-gm", InputError, "no GM property", "line 1, column 2"),
    ("colour-3-in-duo", InputError, "3 is not a colour in Blokus Duo", "line 2, column 2"),
    ("colour-b-in-classic", InputError, "B is not a colour in Blokus", "line 2, column 2"),
    ("bad-pl", InputError, "PL[X] is not a colour", "line 1, column 19"),
    ("setup-colour-3-in-duo", InputError, "A3 is not a colour", "line 1, column 17"),
    ("bad-square", SquareError, "bad square name '?1'", "move 1 (line 2, column 2)"),
    ("off-board", SquareError, "'f15' is off the 14x14 board", "move 3 (line 4, column 2)"),
    ("column-past-z", SquareError, "'aa1' is off the 14x14 board", "move 1 (line 2, column 2)"),
    ("not-a-piece", PieceError, "do not form a piece", "move 1 (line 2, column 2)"),
    ("square-twice", SquareError, "listed twice", "move 1 (line 2, column 2)"),
    ("six-squares", PieceError, "has 6 squares", "move 1 (line 2, column 2)"),
    ("piece-twice", RuleError, "purple has no 1 left", "move 3 (line 4, column 2)"),
    ("edge-contact", RuleError, "shares an edge", "move 3 (line 4, column 2)"),
    (
        "no-corner",
        RuleError,
        "does not touch another purple piece at a corner",
        "move 3 (line 4, column 2)",
    ),
    (
        "first-move-off-start",
        RuleError,
        "must cover its start square e10",
        "move 1 (line 2, column 2)",
    ),
    ("overlap", RuleError, "already taken by purple", "move 2 (line 3, column 2)"),
    ("two-moves", InputError, "two moves in one node", "line 2, column 8"),
    ("property-twice", InputError, "AB appears twice", "line 1, column 24"),
    ("setup-overlap", RuleError, "already taken by purple", "line 1, column 26"),
    ("ae-nothing", InputError, "no piece on these squares", "line 2, column 4"),
]


def test_every_bad_fixture_is_listed():
    assert {p.stem for p in (FIXTURES / "bad").glob("*.blksgf")} == {b[0] for b in BAD}


@pytest.mark.parametrize("stem, kind, fragment, where", BAD, ids=[b[0] for b in BAD])
def test_bad_input(stem, kind, fragment, where):
    path = FIXTURES / "bad" / f"{stem}.blksgf"
    with pytest.raises(InputError) as err:
        load_game(path)
    assert isinstance(err.value, kind)
    assert fragment in err.value.message
    assert err.value.where == where
    assert err.value.path == str(path)
    assert "\n" not in str(err.value)


def test_missing_file():
    with pytest.raises(InputError) as err:
        load_game(FIXTURES / "no-such-file.blksgf")
    assert "cannot read" in err.value.message and err.value.path.endswith("no-such-file.blksgf")


def test_read_colour():
    duo, classic = VARIANTS["duo"], VARIANTS["classic"]

    def parse_colour(v, text):
        return read_colour(text, v.colours, v)

    assert [parse_colour(duo, t) for t in ("B", "w", "purple", "O")] == [
        "purple",
        "orange",
        "purple",
        "orange",
    ]
    assert [parse_colour(classic, t) for t in ("1", "4", "B", "yellow", "R")] == [
        "blue",
        "green",
        "blue",
        "yellow",
        "red",
    ]
    for variant, text in ((duo, "blue"), (duo, "3"), (classic, "W"), (classic, "x")):
        with pytest.raises(InputError):
            parse_colour(variant, text)


# --- legal moves --------------------------------------------------------------------------


@pytest.mark.parametrize("name, count", [("classic", 58), ("duo", 414), ("junior", 189)])
def test_first_moves(name, count):
    # Pentobi's all_legal on an empty board (the README's reference facts: 58 / 414 / 189)
    pos = start_position(name)
    moves = sgf_moves(pos, pos.colours[0].name)
    assert len(moves) == count == len(set(moves))
    board = pos.board
    start = board.name(pos.colours[0].start)
    assert all(start in m.split(",") for m in moves)
    for m in moves:  # each in Pentobi order
        sq = [board.parse(n) for n in m.split(",")]
        assert board.names(sq) == m.split(",")


def test_sgf_moves_are_sorted_by_piece_then_squares():
    pos = start_position("duo")
    moves = sgf_moves(pos, "purple")
    assert moves[0] == "e10"  # the monomino first
    assert moves[1:3] == ["e9,e10", "d10,e10"]  # then dominoes, lowest row first
    assert moves == sgf_moves(pos, "purple")


def test_game_moves_from_a_file():
    path = FIXTURES / "variations.blksgf"
    after_one = game_moves(path, "W", after=1)
    assert len(after_one) == 414  # orange's first move: the Duo count, as on an empty board
    assert after_one == game_moves(path, "orange", after=1)
    assert game_moves(path, "O", after=0) == after_one  # nothing of orange's changed
    with pytest.raises(InputError) as err:
        game_moves(path, "green")
    assert err.value.where == "--colour"


# --- writing ----------------------------------------------------------------------------


def test_write_moves_in_turn_order_with_sorted_squares():
    pos = start_position("duo")
    layout = {
        "purple": [Placement("1", squares(DUO, "e10")), Placement("2", squares(DUO, "f9", "f8"))],
        "orange": [Placement("1", squares(DUO, "j5"))],
    }
    text = write_sgf(pos, layout, name="a]b")
    assert text == (
        "(;GM[Blokus Duo]FF[4]CA[UTF-8]AP[blokus-solo]GN[a\\]b]\n;B[e10]\n;W[j5]\n;B[f8,f9]\n)\n"
    )
    back = read_sgf_text(text).position()
    assert back.colour("purple").last_piece == "2"


def test_write_setup_when_there_is_no_legal_order():
    pos = start_position("duo").with_placement("purple", Placement("1", squares(DUO, "a1")))
    text = write_sgf(pos, {"orange": [Placement("2", squares(DUO, "j5", "j4"))]})
    assert text == "(;GM[Blokus Duo]FF[4]CA[UTF-8]AP[blokus-solo]AB[a1]PL[B]\n;W[j4,j5]\n)\n"
    game = read_sgf_text(text)
    assert game.has_setup and game.num_placements == 1
    assert game.position(0).colour("purple").squares == squares(DUO, "a1")


@pytest.mark.parametrize(
    "fixture", ["setup-classic", "setup-duo", "ae-junior", "passes", "classic-unordered"]
)
def test_round_trip_of_fixtures(fixture):
    game = load_game(FIXTURES / f"{fixture}.blksgf")
    for n in range(game.num_placements + 1):
        pos = game.position(n)
        back = read_sgf_text(write_sgf(pos)).position()
        assert [c.placed for c in back.colours] == [c.placed for c in pos.colours]
        assert [c.remaining for c in back.colours] == [c.remaining for c in pos.colours]


def test_write_rejects_custom_boards():
    board = Board(7, 7)
    pos = Position(board, (ColourState("blue", 0, (), ("1",)),))
    with pytest.raises(InputError) as err:
        write_sgf(pos)
    assert err.value.message.startswith("SGF supports only the classic, duo and junior boards")
    blocked = Position(Board(14, 14, frozenset({0})), start_position("duo").colours, variant="duo")
    with pytest.raises(InputError, match="SGF supports only"):
        write_sgf(blocked)


def test_write_rejects_an_illegal_layout():
    with pytest.raises(RuleError, match="must cover its start square e10"):
        write_sgf(start_position("duo"), {"purple": [Placement("1", squares(DUO, "a1"))]})


# --- real games ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def games():
    return {p.name: load_game(p) for p in need_games()}


def test_real_games_replay_to_the_sidecar_scores(games):
    assert len(games) == 55
    for name, game in games.items():
        side = json.loads((GAMES / name).with_suffix(".json").read_text())
        assert game.variant.sgf_name == side["variant"], name
        assert game.num_placements == side["num_placements"], name
        ids = move_ids(game.variant)
        final = game.position()
        for cid, expect in side["per_color"].items():
            state = final.colour(ids[cid])
            assert final.score(state.name) == expect["official_score"], (name, cid)
            assert (not state.remaining) == expect["all_pieces_placed"], (name, cid)
            # the sidecar's flag means "finished, and with the monomino"
            assert (not state.remaining and state.last_piece == "1") == expect[
                "last_piece_monomino"
            ], (name, cid)
            assert len(state.placed) == expect["pieces_placed"], (name, cid)
            assert state.remaining_squares == expect["squares_left"], (name, cid)
        if side.get("player_totals"):  # Two-Player: player 1 = colours 1 + 3
            scores = [final.score(c) for c in game.variant.colours]
            assert side["player_totals"]["official_score"] == [
                scores[0] + scores[2],
                scores[1] + scores[3],
            ]


def test_real_games_match_the_sidecar_turns(games):
    for name, game in games.items():
        side = json.loads((GAMES / name).with_suffix(".json").read_text())
        ids = move_ids(game.variant)
        turns = [(ids[t["color"]], t["move"]) for t in side["turns"] if t["move"]]
        board = game.position().board
        ours = [(m.colour, ",".join(board.names(m.placement.squares))) for m in game.moves]
        assert ours == turns, name


def test_every_oracle_line(games):
    lines = [
        json.loads(line)
        for line in (GAMES / "oracle.jsonl").read_text().splitlines()
        if line.strip()
    ]
    assert lines
    wrong = []
    for d in lines:
        game = games[d["file"]]
        # `loadsgf FILE N` is the position after N-1 placements (data/README.md)
        assert d["gtp"].startswith(f"loadsgf {d['file']} {d['move_number'] + 1};")
        pos = game.position(d["move_number"])
        colour = move_ids(game.variant)[d["color"]]
        moves = sgf_moves(pos, colour)
        if (
            len(moves) != d["legal_count"]
            or len(pos.colour(colour).remaining) != d["pieces_left"]
            or ("moves" in d and sorted(moves) != sorted(d["moves"]))
        ):
            wrong.append((d["file"], d["move_number"], d["color"], len(moves), d["legal_count"]))
    assert not wrong
    assert sum("moves" in d for d in lines) >= 10  # full lists were compared too


@pytest.mark.slow
def test_real_games_round_trip_every_tenth_placement(games):
    for name, game in games.items():
        for n in sorted({*range(0, game.num_placements, 10), game.num_placements}):
            pos = game.position(n)
            text = write_sgf(pos)
            assert text.startswith(f"(;GM[{game.variant.sgf_name}]FF[4]CA[UTF-8]AP[blokus-solo]")
            back = read_sgf_text(text, path=f"{name} written at {n}").position()
            assert [c.squares for c in back.colours] == [c.squares for c in pos.colours]
            assert [c.placed for c in back.colours] == [c.placed for c in pos.colours]
            assert [c.remaining for c in back.colours] == [c.remaining for c in pos.colours]
            assert [c.last_piece for c in back.colours] == [c.last_piece for c in pos.colours]


def test_written_moves_are_pentobis_own_strings(games):
    # Pentobi writes each move's squares in order a1, b1, ..., a2: ours must equal its text
    for name, game in games.items():
        written = parse(write_sgf(game.position()))[0].main_line()[1:]
        original = parse((GAMES / name).read_text())[0].main_line()[1:]
        for colour_id in move_ids(game.variant):
            mine = [n.get(colour_id).value for n in written if colour_id in n]
            theirs = [n.get(colour_id).value for n in original if colour_id in n]
            assert mine == theirs, (name, colour_id)


# --- fuzzing ------------------------------------------------------------------------------


def corpus() -> list[str]:
    files = sorted(FIXTURES.glob("*.blksgf")) + need_games()[::5]
    return [p.read_text(encoding="utf-8") for p in files]


CORPUS = corpus()


def read_only_input_errors(data: "bytes | str") -> None:
    try:
        if isinstance(data, bytes):
            game = read_sgf_bytes(data, path="fuzz")
        else:
            game = read_sgf_text(data, path="fuzz")
    except InputError as exc:
        assert "\n" not in str(exc) and exc.path == "fuzz"
    else:
        game.position()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_random_bytes(data):
    read_only_input_errors(data)


_TOKENS = st.sampled_from(
    [
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "GM[Blokus Duo]",
        "GM[Blokus]",
        "B",
        "W",
        "1",
        "AB",
        "AE",
        "PL",
        "[e10]",
        "[j5]",
        "[a1]",
        "[aa1]",
        ",",
        "e10",
        "[]",
        "C[x]",
        "\n",
        " ",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKENS, max_size=40).map("".join))
def test_fuzz_token_soup(text):
    read_only_input_errors(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_mutated_game_files(data):
    text = data.draw(st.sampled_from(CORPUS))
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(st.sampled_from(["truncate", "delete-bracket", "substitute", "insert"]))
        if not text:
            break
        i = data.draw(st.integers(0, len(text) - 1))
        if op == "truncate":
            text = text[:i]
        elif op == "delete-bracket":
            brackets = [k for k, ch in enumerate(text) if ch in "()[]"]
            if brackets:
                k = brackets[data.draw(st.integers(0, len(brackets) - 1))]
                text = text[:k] + text[k + 1 :]
        else:
            ch = data.draw(st.sampled_from(list("()[];,\\ \nBW1234Aaezt019") + ["é", "\x00"]))
            text = text[:i] + ch + text[i + (op == "substitute") :]
    read_only_input_errors(text)
    read_only_input_errors(text.encode("utf-8", "surrogatepass"))


def test_mutations_of_every_real_game_seeded():
    # a deterministic sweep complementing hypothesis: 3 mutations of every reference game
    rng = random.Random(7)
    for path in need_games():
        text = path.read_text()
        for _ in range(3):
            i = rng.randrange(len(text))
            read_only_input_errors(text[:i])
            read_only_input_errors(text[:i] + rng.choice("()[];,x9") + text[i + 1 :])
