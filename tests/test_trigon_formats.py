"""The file formats on Blokus Trigon (issue 43): game records written as Pentobi writes
them and read back, checked by Pentobi's own engine where it is installed ($PENTOBI_GTP or
pentobi-gtp on the PATH: ``loadsgf``, then ``all_legal`` of every colour equal to ours);
puzzle files (``variant = "trigon"``, blocked triangles, Trigon piece names, diagrams as
Pentobi's naming rectangle); solution files written and verified."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import PUZZLES, one_line_error, run_cli

from solver.answers.solution import read_solution, verify
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.rules import shape_name
from solver.core.variants import TRIGON_VARIANTS
from solver.formats.game import (
    load_game,
    read_sgf_text,
    sorted_moves,
    start_position,
    write_moves,
    write_sgf,
)
from solver.formats.puzzle import load_puzzle, parse_puzzle, puzzle_text
from solver.gtp.client import Client
from solver.gtp.control import find_pentobi, pentobi_command

TRIGON = Path(__file__).parent / "data" / "trigon"

#: (game file, placements after which its position is taken)
GAMES = [
    ("trigon-L1-s9100.blksgf", 0),
    ("trigon-L1-s9100.blksgf", 23),
    ("trigon-L2-s9104.blksgf", 41),
    ("trigon-L3-s9108.blksgf", 64),
    ("trigon_3-L1-s9200.blksgf", 17),
    ("trigon_3-L2-s9203.blksgf", 50),
]


def selfplay_position(variant: str, seed: int, after: int) -> Position:
    """The position after ``after`` placements of a vendored self-play game of Pentobi's
    engine (``selfplay-<variant>.jsonl``): the only Trigon Two-Player games we have."""
    lines = (TRIGON / f"selfplay-{variant}.jsonl").read_text().splitlines()
    record = next(r for r in map(json.loads, lines) if r["seed"] == seed)
    v = next(v for v in TRIGON_VARIANTS.values() if variant in v.pentobi_ids)
    position = start_position(v.name)
    for colour_id, move in record["moves"][:after]:
        squares = frozenset(position.board.parse(n) for n in move.split(","))
        colour = v.colours[int(colour_id) - 1]
        piece = shape_name(position.board, squares)
        assert piece is not None
        position = position.with_placement(colour, Placement(piece, squares))
    return position


def positions() -> list[tuple[str, Position]]:
    """Positions of the three Trigon variants to write."""
    out = [(f"{name}@{n}", load_game(TRIGON / name).position(n)) for name, n in GAMES]
    out.append(("selfplay-trigon_2 seed 11 @30", selfplay_position("trigon_2", 11, 30)))
    return out


POSITIONS = positions()
IDS = [name for name, _ in POSITIONS]


def same_board(a: Position, b: Position) -> None:
    """Two positions hold the same pieces, colour by colour, in the same order of play."""
    assert a.variant == b.variant and a.board == b.board
    assert a.starting_points == b.starting_points
    assert [c.placed for c in a.colours] == [c.placed for c in b.colours]
    assert [c.remaining for c in a.colours] == [c.remaining for c in b.colours]


# ---------------------------------------------------------------------------------------
# Writing SGF and reading it back


@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=IDS)
def test_sgf_as_moves_reads_back_to_the_same_position(name, position):
    text = write_sgf(position, name=name)
    v = TRIGON_VARIANTS[position.variant]
    assert text.startswith(f"(;GM[{v.sgf_name}]FF[4]CA[UTF-8]")
    game = read_sgf_text(text)
    assert game.variant is v and not game.has_setup
    assert game.num_placements == sum(len(c.placed) for c in position.colours)
    same_board(game.final, position)
    # moves are colours 1..4 (1..3), as Pentobi writes every Trigon variant
    ids = {line[1] for line in text.splitlines()[1:-1]}
    assert ids <= set("1234"[: len(v.colours)])


@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=IDS)
def test_sgf_as_setup_reads_back_to_the_same_position_and_player(name, position):
    colours = position.colour_names
    position = replace(position, to_move=colours[2])
    text = write_moves(position, [])
    if any(c.placed for c in position.colours):
        assert "A1[" in text and "A2[" in text and "PL[3]" in text
    game = read_sgf_text(text)
    assert game.num_placements == 0
    same_board(game.position(0), position)
    assert game.position(0).to_move == colours[2]


def test_a_setup_node_that_takes_a_piece_away_reads_back():
    game = load_game(TRIGON / "trigon-L1-s9100.blksgf")
    before, moves = game.position(0), [(m.colour, m.placement) for m in game.moves[:9]]
    after = [game.position(k + 1) for k in range(9)]
    blue = after[4].colour("blue")  # blue's first piece taken away after move 5
    taken = replace(blue, placed=blue.placed[1:], remaining=("I6", *blue.remaining))
    after[4] = replace(after[4], colours=(taken, *after[4].colours[1:]))
    for k in range(5, 9):
        colours = list(after[k].colours)
        colours[0] = replace(colours[0], placed=colours[0].placed[1:])
        colours[0] = replace(colours[0], remaining=("I6", *colours[0].remaining))
        after[k] = replace(after[k], colours=tuple(colours))
    text = write_moves(before, moves, after=after)
    assert "AE[" in text
    back = read_sgf_text(text)
    assert back.setup_after == (5,)
    same_board(back.final, after[-1])
    assert "I6" in back.final.colour("blue").remaining


def test_check_out_writes_a_trigon_record_with_the_layout(tmp_path):
    game_file = TRIGON / "trigon-L1-s9100.blksgf"
    out = tmp_path / "after70.blksgf"
    result = run_cli("check", game_file, "--after", 70, "--colour", "blue", "--out", out)
    assert result.exit_code == 0, result.output
    assert "yes" in result.output and "wrote" in result.output
    back = read_sgf_text(out.read_text())
    start = load_game(game_file).position(70)
    assert back.variant.name == "trigon"
    assert [c.placed for c in back.position(70).colours] == [c.placed for c in start.colours]
    assert back.num_placements == 74  # blue's 4 pieces left, all placed
    assert not back.final.colour("blue").remaining
    assert back.final.score("blue") == 15


def test_a_blocked_trigon_board_is_refused_by_sgf_in_one_line(tmp_path):
    puzzle = tmp_path / "blocked.toml"
    puzzle.write_text('variant = "trigon"\ncolours = ["blue"]\nblocked = ["r15"]\n')
    result = run_cli("solve", puzzle, "--out", tmp_path / "x.blksgf")
    one_line_error(result, "x.blksgf", "--out", "without blocked cells", "trigon3")
    assert not (tmp_path / "x.blksgf").exists()


# ---------------------------------------------------------------------------------------
# Pentobi reads what we write


needs_pentobi = pytest.mark.skipif(find_pentobi() is None, reason="Pentobi's GTP engine absent")


def pentobi_moves(path: Path, variant: str, colours: int) -> list[list[str]]:
    """Pentobi's ``all_legal`` of every colour after ``loadsgf`` of a file, each move's
    triangles sorted as we write them."""
    v = TRIGON_VARIANTS[variant]
    client = Client([*pentobi_command(), "--game", v.pentobi_ids[0]], label="pentobi")
    try:
        assert client.send(f"loadsgf {path}") == ""
        board = start_position(variant).board
        out = []
        for k in range(colours):
            moves = client.send(f"all_legal {k + 1}").split()
            cells = [frozenset(board.parse(n) for n in m.split(",")) for m in moves]
            out.append(sorted(",".join(board.names(c)) for c in cells))
        return out
    finally:
        client.close()


def our_moves(position: Position) -> list[list[str]]:
    return [
        sorted(sorted_moves(position.board, legal_moves(position, c)))
        for c in position.colour_names
    ]


@needs_pentobi
@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=IDS)
def test_pentobi_loads_our_records_and_finds_our_legal_moves(tmp_path, name, position):
    ours = our_moves(position)
    for form, text in (("moves", write_sgf(position)), ("setup", write_moves(position, []))):
        path = tmp_path / f"{form}.blksgf"
        path.write_text(text)
        theirs = pentobi_moves(path, position.variant, len(position.colours))
        assert [len(m) for m in theirs] == [len(m) for m in ours], form
        assert theirs == ours, form
    assert sum(map(len, ours)) > 0 or name.endswith("@64")


@needs_pentobi
def test_pentobi_loads_our_solo_layout_and_scores_it_130(tmp_path):
    out = tmp_path / "solo.blksgf"
    result = run_cli("solve", PUZZLES / "trigon-one-colour.toml", "--out", out)
    assert result.exit_code == 0, result.output
    client = Client([*pentobi_command(), "--game", "trigon"], label="pentobi")
    try:
        assert client.send(f"loadsgf {out}") == ""
        assert client.send("all_legal 1") == ""  # blue has placed everything
        assert "Blue(X): 130!" in client.send("showboard")  # 110 + 15 + 5
        yellow = len(legal_moves(read_sgf_text(out.read_text()).final, "yellow"))
        assert len(client.send("all_legal 2").split()) == yellow > 0  # yellow's first moves
    finally:
        client.close()


# ---------------------------------------------------------------------------------------
# Puzzle files


def test_the_shipped_one_colour_puzzle_solves_with_the_monomino_last(tmp_path):
    problem = load_puzzle(PUZZLES / "trigon-one-colour.toml")
    assert problem.position.variant == "trigon" and problem.colours == ("blue",)
    assert problem.monomino_last and len(problem.position.colour("blue").remaining) == 22
    assert problem.position.starting_points == start_position("trigon").starting_points
    out = tmp_path / "solo.json"
    result = run_cli("solve", PUZZLES / "trigon-one-colour.toml", "--out", out)
    assert result.exit_code == 0, result.output
    assert "status: solved" in result.output and "score 20, monomino last" in result.output
    data = json.loads(out.read_text())
    blue = data["colours"][0]
    assert data["variant"] == "trigon" and (data["rows"], data["cols"]) == (18, 35)
    assert blue["start"] is None and blue["score"] == 20 and blue["placements"][-1]["piece"] == "1"
    assert sum(len(p["squares"]) for p in blue["placements"]) == 110
    checked = run_cli("verify", out)
    assert checked.exit_code == 0, checked.output
    assert "22 placements replayed by the rules" in checked.output


SMALL = """title = "blue and red, three pieces each"
variant = "{variant}"
colours = ["blue", "red"]
monomino-last = true
blocked = {blocked}
[pieces]
blue = ["X", "2", "1"]
red = ["I4", "C4", "1"]
"""


@pytest.mark.parametrize(
    ("variant", "blocked", "side"),
    [("trigon", ["r15", "r4"], 9), ("trigon2", [], 9), ("trigon3", ["p14", "h11"], 8)],
)
def test_a_small_puzzle_on_each_trigon_variant_solves_and_verifies(
    tmp_path, variant, blocked, side
):
    puzzle = tmp_path / "small.toml"
    puzzle.write_text(SMALL.format(variant=variant, blocked=json.dumps(blocked)))
    problem = load_puzzle(puzzle)
    board = problem.position.board
    assert board.grid == "trigon" and board.rows == 2 * side
    assert board.names(board.blocked) == sorted(blocked, key=lambda n: (int(n[1:]), n[0]))
    assert problem.position.colour("blue").remaining == ("X", "2", "1")  # Trigon's X
    assert problem.position.colour("blue").remaining_squares == 6 + 2 + 1
    out = tmp_path / "small.json"
    result = run_cli("solve", puzzle, "--out", out)
    assert result.exit_code == 0, result.output
    assert "status: solved" in result.output
    solution = read_solution(out)
    report, mismatches = verify(solution)
    assert report.legal and mismatches == []
    for colour in ("blue", "red"):
        placed = solution.layout[colour]
        assert [p.piece for p in placed][-1] == "1"
        assert not any(p.squares & board.blocked for p in placed)
        assert placed[0].squares & (problem.position.starting_points - board.blocked)


@pytest.mark.parametrize(
    ("toml", "fragments"),
    [
        ('[pieces]\nblue = ["X", "V3"]\n', ["[pieces].blue", "unknown Trigon piece 'V3'"]),
        ('[pieces]\nblue = ["Z5"]\n', ["[pieces].blue", "'Z5'"]),
        ('[pieces]\nblue = ["X", "x"]\n', ["[pieces].blue", "piece X is listed twice"]),
        ('[start]\nblue = "r15"\n', ["[start].blue", "trigon has no start squares"]),
        ('blocked = ["a1"]\n', ["blocked[0]", "a1"]),
        ("size = [20, 20]\n", ["size", "trigon is 18x35, not 20x20"]),
        ('[pieces]\npurple = ["1"]\n', ["[pieces].purple", "trigon has no colour purple"]),
    ],
)
def test_bad_trigon_puzzles_are_one_line_errors_naming_the_place(tmp_path, toml, fragments):
    puzzle = tmp_path / "bad.toml"
    puzzle.write_text('variant = "trigon"\ncolours = ["blue"]\n' + toml)
    result = run_cli("solve", puzzle)
    one_line_error(result, "bad.toml", *fragments)


def test_an_unknown_variant_lists_the_trigon_ones(tmp_path):
    puzzle = tmp_path / "bad.toml"
    puzzle.write_text('variant = "trigon4"\n')
    one_line_error(run_cli("solve", puzzle), "bad.toml", "variant", "trigon, trigon2, trigon3")


@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=IDS)
def test_a_puzzle_diagram_reads_back_to_the_same_pieces(name, position):
    problem = Problem(replace(position, to_move=None), position.colour_names[:1], "place-all")
    text = puzzle_text(problem, title=name)
    back = parse_puzzle(text)
    assert back.position.board == position.board and back.colours == problem.colours
    assert back.position.diagram() == position.diagram()
    for ours, theirs in zip(back.position.colours, position.colours):
        assert set(ours.placed) == set(theirs.placed)  # (in an order of play of their own)
        assert ours.remaining == theirs.remaining and ours.start is None
        assert ours.grid == "trigon"


def test_an_indented_diagram_reads_as_printed():
    position = load_game(TRIGON / "trigon-L1-s9100.blksgf").position(8)
    rows = "\n".join("    " + row for row in position.diagram())
    problem = parse_puzzle(f'variant = "trigon"\ndiagram = """\n{rows}\n"""\n')
    assert problem.position.diagram() == position.diagram()
    assert problem.position.occupied == position.occupied


def diagram_puzzle(rows: list[str]) -> str:
    return 'variant = "trigon"\ndiagram = """\n' + "\n".join(rows) + '\n"""\n'


def test_bad_trigon_diagrams_name_the_line_and_column(tmp_path):
    empty = start_position("trigon").diagram()
    off = [empty[0][:3] + "." + empty[0][4:], *empty[1:]]  # column d of row 18: off the board
    hole = [empty[0][:8] + " " + empty[0][9:], *empty[1:]]  # i18, a triangle, left blank
    short = empty[:-1]
    letter = [empty[0][:8] + "Q" + empty[0][9:], *empty[1:]]
    stray = [empty[0][:8] + "B" + empty[0][9:], *empty[1:]]  # one triangle is no piece... of 1
    cases = [
        (off, ["line 3, column 4", "off the trigon side 9 board"]),
        (hole, ["line 3, column 9", "a space on triangle i18"]),
        (short, ["the diagram has 17 rows", "18"]),
        (letter, ["line 3, column 9", "unknown character 'Q'"]),
    ]
    for rows, fragments in cases:
        puzzle = tmp_path / "bad.toml"
        puzzle.write_text(diagram_puzzle(rows))
        one_line_error(run_cli("solve", puzzle), "bad.toml", *fragments)
    # a monomino on i18 is a piece, but not on a starting point
    puzzle = tmp_path / "bad.toml"
    puzzle.write_text(diagram_puzzle(stray))
    one_line_error(run_cli("solve", puzzle), "bad.toml", "diagram", "a starting point")


# ---------------------------------------------------------------------------------------
# Solution files


def solo_solution(tmp_path: Path) -> dict:
    puzzle = tmp_path / "solo.toml"
    puzzle.write_text(SMALL.format(variant="trigon", blocked="[]"))
    out = tmp_path / "solo.json"
    result = run_cli("solve", puzzle, "--out", out)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_a_check_solution_of_a_game_position_verifies(tmp_path):
    out = tmp_path / "check.json"
    game = TRIGON / "trigon_3-L1-s9200.blksgf"
    result = run_cli("check", game, "--after", 30, "--colour", "red", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["variant"] == "trigon3" and (data["rows"], data["cols"]) == (16, 31)
    assert [c["start"] for c in data["colours"]] == [None, None, None]
    checked = run_cli("verify", out)
    assert checked.exit_code == 0, checked.output
    assert "replayed by the rules from the empty board" in checked.output


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (("piece", "V3"), ["colours[0].placements[0]", "unknown Trigon piece 'V3'"]),
        (("start", "r15"), ["colours[0].start", "trigon has no start squares"]),
        (("square", "a1"), ["colours[0].placements[0]", "a1"]),
        (("remaining", "P"), ["colours[2].remaining", "unknown Trigon piece 'P'"]),
        (("rows", 20), ["rows", "trigon is 18x35, not 20x35"]),
    ],
)
def test_bad_trigon_solution_files_are_one_line_errors(tmp_path, change, fragments):
    data = solo_solution(tmp_path)
    key, value = change
    if key == "piece":
        data["colours"][0]["placements"][0]["piece"] = value
    elif key == "start":
        data["colours"][0]["start"] = value
    elif key == "square":
        data["colours"][0]["placements"][0]["squares"][0] = value
    elif key == "remaining":
        data["colours"][2]["remaining"].append(value)
    else:
        data[key] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    one_line_error(run_cli("verify", bad), "bad.json", *fragments)


def test_a_false_score_in_a_trigon_solution_is_found(tmp_path):
    data = solo_solution(tmp_path)
    data["colours"][0]["score"] = 21
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run_cli("verify", bad)
    assert result.exit_code == 1, result.output
    assert "blue: the file says score 21, the rules give 20" in result.output


def test_trigon_names_mean_trigon_pieces_in_a_solution(tmp_path):
    data = solo_solution(tmp_path)
    solution = read_solution_data(tmp_path, data)
    x = next(p for p in solution.layout["blue"] if p.piece == "X")
    assert len(x.squares) == 6  # Trigon's X, not Classic's pentomino
    assert shape_name(solution.position.board, x.squares) == "X"


def read_solution_data(tmp_path: Path, data: dict):
    path = tmp_path / "again.json"
    path.write_text(json.dumps(data))
    return read_solution(path)


def test_a_triangle_to_cover_is_covered_and_checked(tmp_path):
    puzzle = tmp_path / "cover.toml"
    puzzle.write_text(
        'variant = "trigon"\ncolours = ["blue"]\ncover = ["r13"]\n[pieces]\nblue = ["I4", "2", "1"]\n'
    )
    out = tmp_path / "cover.json"
    result = run_cli("solve", puzzle, "--out", out)
    assert result.exit_code == 0 and "status: solved" in result.output, result.output
    solution = read_solution(out)
    board = solution.position.board
    assert board.names(solution.cover) == ["r13"]
    assert any(board.parse("r13") in p.squares for p in solution.layout["blue"])
    report, mismatches = verify(solution)
    assert report.legal and not report.unmet and mismatches == []
