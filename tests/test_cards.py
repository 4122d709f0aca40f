"""Puzzle cards as people buy, set and review them: hints, ratings, generated cards, the
card goals in files and on the command line."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import helpers
import pytest
from brute import all_placements

from solver.backends.base import SolveOptions
from solver.backends.search.counting import count, layouts
from solver.core.board import Board
from solver.core.checker import check_layout
from solver.core.pieces import MONOMINO
from solver.core.placements import legal_moves
from solver.core.position import ColourState, Placement, Position
from solver.core.problem import Problem, connect_groups
from solver.core.rules import corner_groups, move_problem
from solver.formats.puzzle import load_puzzle, parse_puzzle, puzzle_text
from solver.tasks.generate import KINDS, candidate_card, generate
from solver.tasks.hints import after, hints
from solver.tasks.rating import random_playouts, rate
from solver.tasks.solve import solve

PUZZLES = helpers.PUZZLES


run = helpers.run_cli
one_line_error = helpers.one_line_error


# ---------------------------------------------------------------------------------------
# hints


def small_cards():
    """Small generated cards of every kind, and shipped puzzles with goals."""
    out = []
    for k, kind in enumerate(KINDS):
        for seed in range(40):
            made = candidate_card(kind, 3, Board(6, 6), 1000 * k + seed)
            if made is not None:
                out.append(made[0])
                break
    return out


@pytest.mark.parametrize(
    "problem",
    small_cards()
    + [
        load_puzzle(PUZZLES / "tiny-5x5-corner.toml"),
        load_puzzle(PUZZLES / "ring-6x6.toml"),
        load_puzzle(PUZZLES / "two-colours-7x7.toml"),
    ],
    ids=lambda p: p.name or "card",
)
def test_hints_are_exactly_the_first_moves_that_solve_confirms(problem):
    found = hints(problem)
    assert found.complete
    hinted = {(h.colour, h.placement): h.keeps for h in found.hints}
    moves = [(c, m) for c in problem.colours for m in legal_moves(problem.position, c)]
    assert found.moves == len(moves)
    for colour, move in moves:
        next_problem = after(problem, colour, move)
        status = (
            "infeasible"
            if next_problem is None
            else solve(next_problem, SolveOptions(backend="search", workers=1)).status
        )
        assert (status == "solved") == ((colour, move) in hinted), (colour, move)
        if next_problem is not None and (colour, move) in hinted:
            assert hinted[(colour, move)] == count(next_problem).count
    keeps = [h.keeps for h in found.hints]
    assert keeps == sorted(keeps, reverse=True)
    # every solution holds at least one of the moves legal now (its first piece played)
    assert sum(keeps) >= found.total.count > 0


def test_a_move_keeps_the_solutions_that_contain_it():
    problem = load_puzzle(PUZZLES / "tiny-5x5-corner.toml")
    listed = list(layouts(problem))
    for h in hints(problem).hints:
        assert h.keeps == sum(1 for layout in listed if h.placement in layout[h.colour])


def test_monomino_last_never_hints_the_monomino_early():
    problem = load_puzzle(PUZZLES / "ring-6x6.toml")  # monomino-last, six pieces
    assert problem.monomino_last
    found = hints(problem)
    assert found.hints and all(h.placement.piece != MONOMINO for h in found.hints)
    mono = next(m for m in legal_moves(problem.position, "blue") if m.piece == MONOMINO)
    assert after(problem, "blue", mono) is None


def test_hint_says_no_placement_does_with_its_proof():
    result = run("hint", PUZZLES / "tiny-4x4-impossible.toml")
    assert result.exit_code == 0
    assert "No placement leads to a solution" in result.output
    assert "proven" in result.output


def test_hint_lists_ranked_moves_and_reveals_a_solution(tmp_path):
    problem = small_cards()[1]  # a Cover the Stars card
    path = tmp_path / "card.toml"
    path.write_text(puzzle_text(problem, "card"))
    result = run("hint", path, "--reveal", "2", "--plain")
    assert result.exit_code == 0, result.output
    found = hints(problem)
    assert f"{len(found.hints)} of {found.moves} legal moves still lead to a solution" in (
        result.output
    )
    first = found.hints[0]
    assert ",".join(problem.position.board.names(first.placement.squares)) in result.output
    assert "One solution, its first 2 pieces:" in result.output
    assert "*" in result.output  # the stars are on the board


# ---------------------------------------------------------------------------------------
# random playouts and ratings


def exact_success(problem: Problem) -> Fraction:
    """The probability that the random player of :mod:`solver.tasks.rating` solves a one-colour
    problem: each move uniform among the legal placements (reference rules)."""
    colour = problem.colours[0]
    board = problem.position.board
    memo: dict = {}

    def p(position: Position) -> Fraction:
        key = position.colour(colour).squares
        if key in memo:
            return memo[key]
        state = position.colour(colour)
        moves = [
            m
            for piece in sorted(set(state.remaining))
            for m in all_placements(board, piece)
            if move_problem(position, colour, m) is None
        ]
        if not moves:
            solved = (
                not state.remaining
                and not check_layout(
                    problem.position,
                    {colour: list(state.placed[len(problem.position.colour(colour).placed) :])},
                    problem.cover,
                    problem.connect,
                ).unmet
            )
            if problem.monomino_last and state.last_piece != MONOMINO:
                solved = False
            memo[key] = Fraction(int(solved))
        else:
            memo[key] = sum(
                (p(position.with_placement(colour, m)) for m in moves), Fraction(0)
            ) / len(moves)
        return memo[key]

    return p(problem.position)


@pytest.mark.parametrize("name", ["tiny-5x5-centre", "tiny-5x5-corner", "card"])
def test_random_playouts_match_the_exact_probability(name):
    if name == "card":
        problem = small_cards()[1]
    else:
        problem = load_puzzle(PUZZLES / f"{name}.toml")
    exact = float(exact_success(problem))
    n = 4000
    rate_seen = random_playouts(problem, n, seed=3) / n
    sigma = max((exact * (1 - exact) / n) ** 0.5, 1 / n)
    assert abs(rate_seen - exact) <= 5 * sigma, (rate_seen, exact)


def test_ratings_are_measured_and_repeatable():
    problem = load_puzzle(PUZZLES / "tiny-5x5-centre.toml")  # 8 layouts, one orbit
    a = rate(problem, 500, seed=1)
    b = rate(problem, 500, seed=1)
    assert (a.solutions, a.layouts, a.complete) == (1, 8, True)
    assert a.first_moves == len(legal_moves(problem.position, "blue"))
    assert a.good_first_moves == len(hints(problem).hints)
    assert (a.successes, a.score, a.label) == (b.successes, b.score, b.label)
    assert 0 < a.successes < 500
    impossible = rate(load_puzzle(PUZZLES / "tiny-4x4-impossible.toml"), 100)
    assert (impossible.solutions, impossible.successes, impossible.score) == (0, 0, None)
    assert impossible.label == "unsolvable"


def test_rate_command_prints_one_row_per_puzzle():
    result = run("rate", PUZZLES / "tiny-5x5-centre.toml", PUZZLES / "tiny-4x4-impossible.toml")
    assert result.exit_code == 0, result.output
    rows = result.output.strip().splitlines()
    assert len(rows) == 3
    assert "unsolvable" in rows[2]
    r = rate(load_puzzle(PUZZLES / "tiny-5x5-centre.toml"), 1000)
    assert f"{r.score:.2f}" in rows[1] and r.label in rows[1]
    # the columns line up under their headings, however long the paths
    assert len(str(PUZZLES / "tiny-4x4-impossible.toml")) > 36
    assert rows[1].index(r.label) == rows[0].index("difficulty") == rows[2].index("unsolvable")


# ---------------------------------------------------------------------------------------
# generated cards


@pytest.mark.parametrize("kind", KINDS)
def test_generated_cards_are_unique_by_count_and_meet_their_kind(kind):
    cards = list(generate(kind, 3, 6, 6, 2, seed=11, playouts=50))
    assert len(cards) == 2
    for card in cards:
        problem = card.problem
        orbits = count(problem, up_to_symmetry=True)
        assert orbits.complete and orbits.count == 1
        # the planted solution is that one solution, and the checker accepts it
        (only,) = list(layouts(problem))
        assert {c: set(ps) for c, ps in only.items()} == {
            c: set(ps) for c, ps in card.solution.items()
        }
        report = check_layout(problem.position, card.solution, problem.cover, problem.connect)
        assert report.legal and not report.unmet and report.report("blue").all_placed
        assert problem.position.colour("blue").start is None  # printed pieces only
        if kind == "avoid":
            assert problem.position.board.blocked and not problem.cover
        if kind == "cover":
            assert 1 <= len(problem.cover) <= 3
        if kind == "connect":
            assert problem.connect == ("blue",)
            assert len(connect_groups(problem.position, "blue")) == 2
        # every X is needed: without any one of them the card has another solution
        for x in problem.position.board.blocked:
            board = problem.position.board
            fewer = dataclasses.replace(
                problem.position, board=Board(board.rows, board.cols, board.blocked - {x})
            )
            assert count(dataclasses.replace(problem, position=fewer), limit=1).stopped_by


def test_generate_writes_puzzle_files_that_count_to_one(tmp_path):
    result = run(
        "generate",
        "--goal",
        "connect",
        "--pieces",
        "3",
        "--size",
        "7x7",
        "--count",
        "2",
        "--seed",
        "5",
        "--out",
        tmp_path,
        "--playouts",
        "100",
    )
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("connect-7x7-s*.toml"))
    assert len(files) == 2
    for path in files:
        out = run("count", path, "--up-to-symmetry")
        assert out.output.startswith("1 layout up to symmetry"), out.output
        problem = load_puzzle(path)
        assert problem.connect == ("blue",) and "1 solution up to symmetry" in path.read_text()


@pytest.mark.parametrize(
    "args,fragments",
    [
        (["--size", "8by8"], ["--size", "ROWSxCOLUMNS"]),
        (["--size", "3x8"], ["--size", "each 4 to 20"]),
        (["--pieces", "0"], ["--pieces"]),
        (["--goal", "stars"], ["--goal"]),
    ],
)
def test_generate_refuses_bad_options(args, fragments):
    base = {"--goal": "avoid"}
    given = dict(zip(args[::2], args[1::2]))
    argv = [x for k, v in {**base, **given}.items() for x in (k, v)]
    one_line_error(run("generate", *argv), *fragments)


def test_generate_makes_its_folder_or_says_why_not(tmp_path):
    out = tmp_path / "new" / "cards"
    args = ["generate", "--goal", "cover", "--pieces", "2", "--size", "6x6", "--playouts", "10"]
    result = run(*args, "--out", out)
    assert result.exit_code == 0, result.output
    assert [p.name for p in out.iterdir()] == ["cover-6x6-s0.toml"]
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("kept")
    one_line_error(run(*args, "--out", in_the_way), "--out", "is a file, not a folder")
    assert in_the_way.read_text() == "kept"


# ---------------------------------------------------------------------------------------
# the card goals in files


CARD = """title = "card"
variant = "custom"
{extra}diagram = '''
B.....
......
..#...
......
......
....BB
'''
[pieces]
blue = ["V3", "I3", "L4"]
"""


def card_file(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "card.toml"
    path.write_text(CARD.format(extra=extra))
    return path


@pytest.mark.parametrize(
    "extra,fragments",
    [
        ('cover = ["c4"]\n', ["cover[0]", "star c4 is on a blocked square"]),
        ('cover = ["b5", "b5"]\n', ["cover[1]", "given twice"]),
        ('cover = ["z9"]\n', ["cover[0]"]),
        ('cover = ["b5"]\ngoal = "max-score"\n', ["cover[0]", "place-all only"]),
        ('connect = ["red"]\n', ["connect[0]"]),
        ("connect = 3\n", ["connect", "expected true, false or a list"]),
    ],
)
def test_bad_goals_in_a_puzzle_are_one_line_errors(tmp_path, extra, fragments):
    path = card_file(tmp_path, extra)
    for command in ("solve", "count", "hint"):
        one_line_error(run(command, path), str(path), *fragments)


def test_connect_with_one_group_is_bad_input(tmp_path):
    path = tmp_path / "one.toml"
    path.write_text(CARD.format(extra="connect = true\n").replace("....BB", "......"))
    one_line_error(run("solve", path), str(path), "connect", "one group already")


def test_a_star_in_the_diagram_and_on_a_blocked_square_in_the_list(tmp_path):
    path = card_file(tmp_path, 'cover = ["b4"]\n')
    text = path.read_text().replace("B.....", "B*....")
    path.write_text(text)
    problem = load_puzzle(path)
    assert problem.position.board.names(problem.cover) == ["b4", "b6"]
    path.write_text(text.replace('cover = ["b4"]', 'cover = ["b6"]'))
    one_line_error(run("solve", path), "given twice", "cover[0]")


def test_solve_verify_and_a_false_claim(tmp_path):
    path = card_file(tmp_path, 'connect = true\ncover = ["b4"]\n')
    out = tmp_path / "card.json"
    result = run("solve", path, "--out", out, "--plain")
    assert result.exit_code == 0 and "status: solved" in result.output, result.output
    data = json.loads(out.read_text())
    assert data["cover"] == ["b4"] and data["connect"] == ["blue"]
    ok = run("verify", out)
    assert ok.exit_code == 0 and "goals: cover b4, connect blue (all met)" in ok.output
    # the same layout claimed for a star it does not cover
    squares = {s for c in data["colours"] for p in c["placements"] for s in p["squares"]}
    other = next(s for s in ("a1", "f6", "a2", "f5", "e6") if s not in squares)
    data["cover"] = [other]
    out.write_text(json.dumps(data))
    # naming the card, whose star is b4: not a solution of it (the question differs)
    one_line_error(run("verify", out), "not a solution of the puzzle", "squares to cover differ")
    # naming no puzzle: the rule checker finds the star not covered
    del data["puzzle"], data["puzzle_path"]
    out.write_text(json.dumps(data))
    bad = run("verify", out)
    assert bad.exit_code == 1 and f"star {other} is not covered" in bad.output
    # a star on a blocked square in a solution file is bad input, like in a puzzle
    data["cover"] = ["c4"]
    out.write_text(json.dumps(data))
    one_line_error(run("verify", out), "cover[0]", "blocked")


def test_puzzle_text_round_trips_a_card():
    card = small_cards()[2]
    text = puzzle_text(card, "t", 'say "hi"')
    again = parse_puzzle(text)
    assert (again.position, again.cover, again.connect) == (card.position, card.cover, card.connect)


def test_printed_pieces_are_the_start_and_groups_are_corner_joined():
    board = Board(5, 5)
    a = Placement("1", frozenset({board.parse("a5")}))
    b = Placement("2", frozenset({board.parse("b4"), board.parse("c4")}))
    c = Placement("1", frozenset({board.parse("e1")}))
    assert len(corner_groups(board, [a, b, c])) == 2  # a and b touch at a corner
    # a colour with printed pieces and no start square: its moves touch a printed piece
    position = Position(board, (ColourState("blue", None, (a, c), ("V3",)),))
    printed = {board.parse("a5"), board.parse("e1")}
    moves = legal_moves(position, "blue")
    assert moves and all(
        any(n in printed for s in m.squares for n in board.corner_neighbours[s]) for m in moves
    )


# ---------------------------------------------------------------------------------------
# the shipped cards and playing one


CARDS = sorted((PUZZLES / "cards").glob("*.toml"))


def test_twelve_cards_four_of_each_goal():
    kinds = [path.name.split("-")[0] for path in CARDS]
    assert len(CARDS) == 12 and all(kinds.count(k) == 4 for k in KINDS)


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.name)
def test_a_shipped_card_has_the_count_its_description_gives(path):
    import re
    import tomllib

    data = tomllib.loads(path.read_text())
    said = int(re.search(r"(\d+) solutions? up to symmetry", data["description"]).group(1))
    problem = load_puzzle(path)
    orbits = count(problem, up_to_symmetry=True)
    assert orbits.complete and orbits.count == said == 1
    kind = path.name.split("-")[0]
    assert bool(problem.cover) == (kind == "cover")
    assert bool(problem.connect) == (kind == "connect")
    assert problem.position.colour("blue").start is None
    # the label in the title is what rate gives
    label = re.search(r"\((\w+)\)$", data["title"]).group(1)
    assert rate(problem).label == label == path.stem.split("-")[2]


def test_hint_after_the_players_own_moves():
    path = PUZZLES / "cards" / "cover-2-medium.toml"
    problem = load_puzzle(path)
    (first, *_) = hints(problem).hints
    squares = ",".join(problem.position.board.names(first.placement.squares))
    result = run("hint", path, "--move", squares, "--plain")
    assert result.exit_code == 0, result.output
    assert "of 1 legal moves" not in result.output and "still lead to a solution" in result.output
    # a move that shares an edge with the printed piece is refused by the rules
    one_line_error(run("hint", path, "--move", "c4,d4,e4"), str(path), "--move 1", "edge")
    one_line_error(run("hint", path, "--move", "b4,b5"), "--move 1", "no 2 left")
    one_line_error(run("hint", path, "--move", "a1,c1,e1"), "--move 1", "form no piece")
    # a move that leaves no solution: said, with its proof
    bad = next(
        m
        for m in legal_moves(problem.position, "blue")
        if m not in {h.placement for h in hints(problem).hints}
    )
    out = run("hint", path, "--move", ",".join(problem.position.board.names(bad.squares)))
    assert "No placement leads to a solution" in out.output


def test_hint_from_python_follows_the_players_moves():
    import solver.api as blokus
    from solver.errors import InputError

    card = blokus.load(PUZZLES / "cards" / "cover-2-medium.toml")
    first = blokus.hint(card)
    assert first.hints == hints(card).hints and first.total.count == 1
    move = first.hints[0].placement
    squares = ",".join(card.position.board.names(move.squares))
    later = blokus.hint(card, moves=[squares])
    assert later.hints == hints(after(card, "blue", move)).hints
    assert all(h.placement != move for h in later.hints)
    with pytest.raises(InputError, match="move 2: .*corner"):
        blokus.hint(card, moves=[squares, "a4,a5,a6"])


def test_show_names_the_pieces_to_place_and_the_goal():
    result = run("show", PUZZLES / "cards" / "connect-2-medium.toml", "--plain")
    assert "blue to place: T4, Z4, X" in result.output
    assert "goal: place all, connect blue; no piece on a #" in result.output
    # an Avoid the Xs card has no goal beyond its Xs, and says so too
    avoid = run("show", PUZZLES / "cards" / "avoid-1-easy.toml", "--plain")
    assert avoid.output.splitlines()[-1] == "goal: place all; no piece on a #"
    cover = run("show", PUZZLES / "cards" / "cover-2-medium.toml", "--plain")
    assert cover.output.splitlines()[-1] == "goal: place all, cover g3 (*); no piece on a #"


def test_generate_gives_up_when_the_pieces_have_no_room(tmp_path):
    one_line_error(
        run("generate", "--goal", "avoid", "--pieces", "12", "--size", "4x4", "--out", tmp_path),
        "no avoid card with 12 pieces on 4x4 from 500 candidates",
    )


# ---------------------------------------------------------------------------------------
# printed pieces are printed on the card, not taken from the colour's set


def _card(tmp_path, diagram: str, hand: list[str], extra: str = "") -> Path:
    path = tmp_path / "card.toml"
    path.write_text(
        'title = "card"\nvariant = "custom"\ncolours = ["blue"]\n'
        + extra
        + f'diagram = """\n{diagram}"""\n\n[pieces]\nblue = {json.dumps(hand)}\n'
    )
    return path


# two printed V3s in opposite corners; V3 and the domino in hand
PRINTED_TWICE = "BB....\nB.....\n......\n......\n.....B\n....BB\n"


@pytest.mark.parametrize("goal", ["", "connect = true\n"], ids=["avoid", "connect"])
def test_a_printed_piece_may_have_the_shape_of_one_in_hand(tmp_path, goal):
    """Mattel's cards print a piece of the colour; the same shape in hand is a second
    piece, not one too many. Counted as the brute force counts (the reference rules)."""
    from brute import brute_count

    path = _card(tmp_path, PRINTED_TWICE, ["V3", "2", "I3"], goal)
    problem = load_puzzle(path)
    blue = problem.position.colour("blue")
    assert [p.piece for p in blue.placed] == ["V3", "V3"] and "V3" in blue.remaining
    connect = problem.connect
    expected = brute_count(problem.position, ("blue",), connect=connect)
    assert expected > 0 and count(problem).count == expected
    out = tmp_path / "card.json"
    assert run("solve", path, "--plain", "--out", out).exit_code == 0
    checked = run("verify", out)
    assert checked.exit_code == 0 and "legal" in checked.output, checked.output


def test_pieces_taken_from_the_set_are_still_counted(tmp_path):
    """With a start square the pieces on the board were played from the set: one V3 on
    the board and one in hand is one too many."""
    path = tmp_path / "played.toml"
    path.write_text(
        'variant = "custom"\ncolours = ["blue"]\ndiagram = """\nBB..\nB...\n....\n....\n"""\n'
        '[start]\nblue = "a4"\n[pieces]\nblue = ["V3"]\n'
    )
    one_line_error(run("solve", path), "piece V3 is on the board once and listed once")
