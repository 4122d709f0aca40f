"""Puzzle files: the documented keys, the shipped puzzles, and one-line errors for bad input."""

import helpers
import pytest

from solver.errors import InputError
from solver.formats.puzzle import load_puzzle, parse_puzzle

PUZZLES = helpers.PUZZLES

ISSUE_EXAMPLE = '''
variant = "custom"        # classic | duo | junior | custom
size = [5, 5]             # rows, columns (custom boards; default from the variant)
colours = ["blue"]        # colours the solver plays (default: all of the variant's)
goal = "place-all"        # or "max-score"
monomino-last = false
diagram = """
.....
.....
..#..
.....
.....
"""
[start]
blue = "a5"               # default: the variant's start square; custom boards need one
[pieces]
blue = ["1", "2", "V3"]   # default: all 21 minus those already on the board
'''


def test_issue_example_exactly_as_shown():
    p = parse_puzzle(ISSUE_EXAMPLE)
    board = p.position.board
    assert (board.rows, board.cols) == (5, 5)
    assert board.names(board.blocked) == ["c3"]
    assert p.colours == ("blue",)
    assert p.position.colour("blue").start == board.parse("a5") == 0
    assert p.position.colour("blue").remaining == ("1", "2", "V3")
    assert p.goal == "place-all" and p.monomino_last is False


def test_diagram_rows_may_be_indented():
    text = ISSUE_EXAMPLE.replace("\n.....\n", "\n   .....  \n", 1)
    assert parse_puzzle(text).position.board.names(parse_puzzle(text).position.board.blocked) == [
        "c3"
    ]


def test_classic_defaults_and_pieces_on_board():
    p = parse_puzzle('''
variant = "classic"
colours = ["blue"]
diagram = """
BB..................
..B.................
..BB................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
....................
...................R
..................RR
"""
''')
    blue = p.position.colour("blue")
    assert [pl.piece for pl in blue.placed] == ["2", "V3"]  # legal order from a20
    assert len(blue.remaining) == 19 and "2" not in blue.remaining
    assert p.position.colour("red").placed[0].piece == "V3"
    assert p.position.colour("yellow").start == p.position.board.parse("t20")
    assert p.colours == ("blue",)


def test_aliases_accepted():
    p = parse_puzzle(
        'variant = "duo"\ncolours = ["purple"]\n[pieces]\npurple = ["L3", "O4", "S4", "I1"]\n'
    )
    assert p.position.colour("purple").remaining == ("1", "V3", "O", "Z4")
    assert p.position.colour("orange").remaining == p.position.colour("orange").remaining[:21]


@pytest.mark.parametrize("path", sorted(PUZZLES.glob("*.toml")), ids=lambda p: p.name)
def test_shipped_puzzles_load(path):
    p = load_puzzle(path)
    assert p.colours
    for c in p.colours:
        assert p.position.colour(c).remaining


BAD = [
    ('variant = "hexagon"\n', "variant: unknown variant 'hexagon'"),
    (
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\n[pieces]\nblue = ["1", "Q7"]\n',
        "[pieces].blue: unknown piece 'Q7'",
    ),
    (
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "f9"\n',
        "[start].blue: square 'f9' is off the 5x5 board",
    ),
    (
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\n[pieces]\nblue = ["1", "V3", "1"]\n',
        "[pieces].blue: piece 1 is listed twice",
    ),
    (
        'variant = "custom"\ndiagram = """\n.....\n....\n.....\n"""\n[start]\nblue = "a3"\n',
        "line 4: row has 4 squares, expected 5",
    ),
    (
        'variant = "custom"\ndiagram = """\n.....\n..Q..\n"""\n[start]\nblue = "a2"\n',
        "line 4, column 3: unknown character 'Q'",
    ),
    (
        'variant = "custom"\ndiagram = """\nBB...\n.BB..\n.BB..\n"""\n[start]\nblue = "a3"\n',
        "line 3, column 1: the blue squares b1,c1,b2,c2,a3,b3 form no piece",
    ),
    (
        'variant = "custom"\ndiagram = """\nB.B..\nBBB..\n.....\n"""\n[start]\nblue = "a3"\n'
        '[pieces]\nblue = ["U"]\n',
        "[pieces].blue: piece U is on the board once and listed once; the set has it once",
    ),
    (
        'variant = "custom"\ndiagram = """\nB....\n.BB..\n.....\n"""\n[start]\nblue = "a3"\n[pieces]\nblue = ["2", "V3"]\n',
        "[pieces].blue: piece 2 is on the board once and listed once",
    ),
    (
        'variant = "custom"\ndiagram = """\nB....\n.....\n...BB\n"""\n[start]\nblue = "a3"\n',
        "diagram: blue's pieces on the board are not all connected",
    ),
    ('variant = "custom"\nsize = [5, 5]\n', "start: a custom board needs a start square"),
    ('variant = "custom"\nsize = [5, 5]\ncolour = ["blue"]\n', "colour: unknown key"),
    ('variant = "classic"\ncolours = ["purple"]\n', "colours[0]: no colour 'purple' on this board"),
    ('variant = "classic"\ngoal = "win"\n', "goal: unknown goal 'win'"),
    ('variant = "classic"\nmonomino-last = "yes"\n', "monomino-last: expected bool"),
    ('variant = "classic\n', "invalid TOML"),
    ('variant = "custom"\nsize = [true, 5]\n', "size: expected [rows, columns]"),
    ('variant = "classic"\ncolours = []\n', "colours: no colour to play"),
    (
        'variant = "custom"\nsize = [5, 5]\n[start]\nblue = "a5"\nB = "a1"\n',
        "[start].B: blue is given twice",
    ),
    (
        'variant = "duo"\ndiagram = """\n'
        + "." * 14
        + "\n"
        + "..BB"
        + "." * 10
        + "\n"
        + ("." * 14 + "\n") * 12
        + '"""\n',
        "line 4, column 3: duo has no colour blue",
    ),
    (
        'variant = "classic"\n[pieces]\npurple = ["1"]\n',
        "[pieces].purple: classic has no colour purple",
    ),
    (
        'variant = "custom"\nsize = [3, 3]\ncolours = ["red"]\n[start]\nblue = "c1"\n[pieces]\nred = ["1"]\n',
        "colours: colour red has no start square",
    ),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_bad_input_names_the_place(text, message, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_puzzle(path)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"{path}: ")
    assert message in text


def test_missing_file():
    with pytest.raises(InputError, match="nope.toml: cannot read: No such file"):
        load_puzzle("nope.toml")


def test_diagram_pieces_get_an_order_ending_with_the_monomino_when_legal():
    # V3 on the start square, the monomino and the domino both lean on the V3: all placed,
    # and an order ending with the monomino exists, so the score is 15 + 5.
    p = parse_puzzle('''
variant = "custom"
colours = ["blue"]
diagram = """
B.B....
BB.....
..BB...
.......
"""
[start]
blue = "a4"
[pieces]
blue = []
''')
    blue = p.position.colour("blue")
    assert blue.last_piece == "1"
    assert p.position.score("blue") == 20


JUNIOR_BAD = [
    (
        '[pieces]\npurple = ["1", "1", "1"]\n',
        "[pieces].purple: piece 1 is listed 3 times; junior has it twice",
    ),
    ('[pieces]\npurple = ["X", "F"]\n', "[pieces].purple: junior has no piece X"),
    (
        'monomino-last = true\n[pieces]\npurple = ["2", "V3"]\n',
        "monomino-last: purple has no monomino left",
    ),
    ('monomino-last = true\ngoal = "max-score"\n', "monomino-last: applies to goal place-all only"),
]


@pytest.mark.parametrize("text,message", JUNIOR_BAD, ids=[m for _, m in JUNIOR_BAD])
def test_junior_piece_lists(text, message, tmp_path):
    path = tmp_path / "junior.toml"
    path.write_text('variant = "junior"\ncolours = ["purple"]\n' + text)
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_puzzle(path)


def test_junior_accepts_two_monominoes():
    p = parse_puzzle(
        'variant = "junior"\ncolours = ["purple"]\n[pieces]\npurple = ["1", "1", "O"]\n'
    )
    assert p.position.colour("purple").remaining == ("1", "1", "O")
    assert not p.position.bonus
