"""One colour rule (issue 31, item 8): a colour's name, letter or Pentobi id reads the
same on the command line, in the Python API and on the page
(solver/core/variants.py: read_colour)."""

from __future__ import annotations

import pytest
from helpers import GAMES, PUZZLES, SGF_FIXTURES, one_line_error, run_cli

import solver.api as blokus
from solver.errors import InputError
from solver.web.files import read_upload

DUO_GAME = SGF_FIXTURES / "setup-duo.blksgf"
CLASSIC_GAME = GAMES / "classic-L1-s56.blksgf"
PUZZLE = PUZZLES / "tiny-5x5-corner.toml"

# (file, text typed, the colour it names or None for refused)
COLOURS = [
    (DUO_GAME, "B", "purple"),  # the case: Pentobi's id in a Duo game
    (DUO_GAME, " b ", "purple"),
    (DUO_GAME, "W", "orange"),
    (DUO_GAME, "2", "orange"),
    (DUO_GAME, "P", "purple"),
    (DUO_GAME, "Orange", "orange"),
    (DUO_GAME, "blue", None),
    (DUO_GAME, "3", None),
    (DUO_GAME, "Y", None),
    (DUO_GAME, "", None),
    (CLASSIC_GAME, "B", "blue"),  # a letter here: blue is a Classic colour
    (CLASSIC_GAME, "4", "green"),
    (CLASSIC_GAME, "y", "yellow"),
    (CLASSIC_GAME, "W", None),  # B/W are players in Classic, not colours
    (CLASSIC_GAME, "purple", None),
]


#: a position of each game where each colour has its own number of legal moves, so the
#: number names the colour
AFTER = {DUO_GAME: 1, CLASSIC_GAME: 16}


@pytest.fixture(scope="module")
def move_counts():
    counts = {}
    for path, colours in ((DUO_GAME, ("purple", "orange")), (CLASSIC_GAME, ("blue", "yellow", "red", "green"))):  # fmt: skip
        for colour in colours:
            result = run_cli("moves", path, "--after", AFTER[path], "--colour", colour, "--count")
            counts[path, colour] = int(result.output)
        assert len({counts[path, c] for c in colours}) == len(colours)
    return counts


@pytest.mark.parametrize("path, text, colour", COLOURS)
def test_a_colour_reads_the_same_everywhere(path, text, colour, move_counts):
    # the command line
    cli = run_cli("moves", path, "--after", AFTER[path], "--colour", text, "--count")
    # the API
    position = blokus.load_game(path).position(AFTER[path])
    # the page (the session the page's /api/select and /api/ask read colours with)
    session = read_upload(path.name, path.read_bytes())
    if colour is None:
        one_line_error(cli, "--colour", "is not a colour of")
        with pytest.raises(InputError, match="is not a colour of"):
            blokus.check(position, text, time_limit=0)
        with pytest.raises(InputError, match="is not a colour of"):
            session.played(text)
        return
    assert int(cli.output) == move_counts[path, colour]
    assert blokus.check(position, text, time_limit=0).colour == colour
    assert session.played(text) == colour


def test_review_takes_the_colours_the_command_line_takes():
    """The issue's case: blokus.review(game, colours=["B"]) in a Duo game is purple."""
    review = blokus.review(DUO_GAME, colours=["B", "purple"], time_limit=0)
    assert review.colours == ("purple",)
    with pytest.raises(InputError, match="'blue' is not a colour of Blokus Duo"):
        blokus.review(DUO_GAME, colours=["blue"], time_limit=0)


def test_puzzles_of_a_built_in_variant_and_custom_boards(tmp_path):
    """A Duo puzzle reads B as purple too; a custom board has no Pentobi ids, only names
    and letters; the colours of hint's moves ("B:a5") are read the same way."""
    duo = tmp_path / "duo.toml"
    duo.write_text(
        'variant = "duo"\ncolours = ["purple", "orange"]\n'
        '[pieces]\npurple = ["1", "2"]\norange = ["1"]\n'
    )
    first = run_cli("export", duo, "--colour", "B", "--colour", "w").output.splitlines()[0]
    assert first.endswith("colours purple, orange")
    one_line_error(run_cli("export", duo, "--colour", "blue"), "not a colour of Blokus Duo")
    custom = PUZZLES / "two-colours-7x7.toml"
    first = run_cli("export", custom, "--colour", "Y").output.splitlines()[0]
    assert first.endswith("colours yellow")
    one_line_error(
        run_cli("export", custom, "--colour", "1"), "'1' is not a colour here (colours: blue,"
    )
    problem = blokus.load(PUZZLE)
    by_letter = blokus.hint(problem, moves=["B:a5"])  # blue's monomino on its start
    by_name = blokus.hint(problem, moves=["blue:a5"])
    assert [h.placement for h in by_letter.hints] == [h.placement for h in by_name.hints]
    assert by_letter.total.complete and by_letter.total.count == by_name.total.count > 0
    with pytest.raises(InputError, match="'Y' is not a colour here"):
        blokus.hint(problem, moves=["Y:a5"])
