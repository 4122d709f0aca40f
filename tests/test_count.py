"""Counting layouts with a limit, a time limit and up to symmetry: the number printed is
always exact or a true lower bound, and the reason given is what stopped the search."""

import math

import helpers
import pytest
from click.testing import CliRunner

from solver.backends.search import counting as search_counting
from solver.cli.commands import main
from solver.formats.puzzle import load_puzzle

PUZZLES = helpers.PUZZLES

# puzzle: (layouts, orbits, symmetries); orbits checked against Burnside by hand: the
# centre start is fixed by all 8 symmetries of the square and its 8 layouts form one
# orbit; a corner start is fixed by one diagonal mirror and no layout is its own mirror
TRUE = {
    "tiny-5x5-centre": (8, 1, 8),
    "tiny-5x5-corner": (146, 73, 2),
    "tiny-5x5-four": (104, 52, 2),
    "ring-6x6": (3226, 1613, 2),  # monomino-last: a leaf may add several layouts at once
}


def problem(name):
    return load_puzzle(PUZZLES / f"{name}.toml")


def run(*args):
    return CliRunner().invoke(main, ["count", *[str(a) for a in args]], catch_exceptions=False)


# ---------------------------------------------------------------------------------------
# the API


@pytest.mark.parametrize("name", sorted(TRUE))
def test_exact_counts(name):
    layouts, orbits, groups = TRUE[name]
    r = search_counting.count(problem(name))
    assert (r.count, r.complete, r.layouts, r.stopped_by, r.symmetries) == (
        layouts,
        True,
        layouts,
        None,
        1,
    )
    r = search_counting.count(problem(name), up_to_symmetry=True)
    assert (r.count, r.complete, r.layouts, r.stopped_by, r.symmetries) == (
        orbits,
        True,
        layouts,
        None,
        groups,
    )


@pytest.mark.parametrize("name", sorted(TRUE))
def test_limit_below_equal_and_above_the_true_count(name):
    layouts = TRUE[name][0]
    for limit in (1, 2, 7, layouts - 1):
        r = search_counting.count(problem(name), limit=limit)
        assert (r.count, r.complete, r.layouts, r.stopped_by) == (limit, False, limit, "limit")
    for limit in (layouts, layouts + 1, 10 * layouts):
        r = search_counting.count(problem(name), limit=limit)
        assert (r.count, r.complete, r.layouts, r.stopped_by) == (layouts, True, layouts, None)


def test_limit_is_exact_when_a_leaf_adds_several_layouts():
    # ring-6x6 holds its monomino back (monomino-last): one leaf of the search counts every
    # square left for it, so the kernel overshoots a limit; the result never does
    for limit in range(1, 30):
        r = search_counting.count(problem("ring-6x6"), limit=limit)
        assert (r.count, r.layouts, r.complete, r.stopped_by) == (limit, limit, False, "limit")


def test_limit_up_to_symmetry_applies_to_layouts_and_bounds_orbits():
    # centre: 8 layouts, one orbit of 8
    for limit in range(1, 8):
        r = search_counting.count(problem("tiny-5x5-centre"), limit=limit, up_to_symmetry=True)
        assert (r.count, r.layouts, r.complete, r.stopped_by, r.symmetries) == (
            1,
            limit,
            False,
            "limit",
            8,
        )
    for limit in (8, 9, 100):
        r = search_counting.count(problem("tiny-5x5-centre"), limit=limit, up_to_symmetry=True)
        assert (r.count, r.layouts, r.complete, r.stopped_by) == (1, 8, True, None)
    # corner: 146 layouts, 73 orbits of 2
    for limit, bound in ((1, 1), (2, 1), (3, 2), (100, 50), (101, 51), (145, 73)):
        r = search_counting.count(problem("tiny-5x5-corner"), limit=limit, up_to_symmetry=True)
        assert (r.count, r.layouts, r.complete, r.stopped_by) == (bound, limit, False, "limit")
    r = search_counting.count(problem("tiny-5x5-corner"), limit=146, up_to_symmetry=True)
    assert (r.count, r.layouts, r.complete) == (73, 146, True)


@pytest.mark.parametrize("name", ["tiny-5x5-corner", "ring-6x6"])
def test_every_limit_gives_a_true_lower_bound(name):
    layouts, orbits, groups = TRUE[name]
    for limit in range(1, layouts + 2, max(1, layouts // 40)):
        r = search_counting.count(problem(name), limit=limit, up_to_symmetry=True)
        assert r.count <= orbits
        assert r.count == (orbits if r.complete else math.ceil(r.layouts / groups))
        assert r.complete == (limit >= layouts)


def test_time_limit_is_named_and_gives_a_lower_bound():
    # time limit 0: the first chunk of 2000 nodes runs, then the clock stops the search
    # (ring-6x6 needs about 10 000 nodes)
    layouts, orbits, groups = TRUE["ring-6x6"]
    r = search_counting.count(problem("ring-6x6"), time_limit=0)
    assert (r.complete, r.stopped_by) == (False, "time limit")
    assert 0 < r.count == r.layouts < layouts
    r = search_counting.count(problem("ring-6x6"), time_limit=0, up_to_symmetry=True, limit=10_000)
    assert (r.complete, r.stopped_by, r.symmetries) == (False, "time limit", 2)
    assert 0 < r.layouts < layouts and r.count == math.ceil(r.layouts / groups) <= orbits
    # the limit is reached within the first chunk: the limit stopped it
    r = search_counting.count(problem("ring-6x6"), time_limit=0, limit=5)
    assert (r.count, r.complete, r.stopped_by) == (5, False, "limit")


def test_limit_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        search_counting.count(problem("tiny-5x5-centre"), limit=0)


# ---------------------------------------------------------------------------------------
# the command line


def output(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.output.split("  [")[0]  # without the time and nodes


def test_cli_exact_and_limited_counts():
    centre = PUZZLES / "tiny-5x5-centre.toml"
    corner = PUZZLES / "tiny-5x5-corner.toml"
    ring = PUZZLES / "ring-6x6.toml"
    assert output(centre) == "8 layouts"
    assert output(centre, "--limit", 8) == "8 layouts"
    assert output(centre, "--limit", 9) == "8 layouts"
    assert output(centre, "--limit", 7) == "at least 7 layouts (limit reached: count incomplete)"
    assert output(ring, "--limit", 10) == "at least 10 layouts (limit reached: count incomplete)"
    assert output(ring, "--limit", 1) == "at least 1 layout (limit reached: count incomplete)"
    assert output(corner, "--limit", 146) == "146 layouts"
    assert output(PUZZLES / "tiny-5x5-four.toml", "--limit", 104) == "104 layouts"


def test_cli_up_to_symmetry_with_a_limit():
    centre = PUZZLES / "tiny-5x5-centre.toml"
    corner = PUZZLES / "tiny-5x5-corner.toml"
    assert output(centre, "--limit", 1, "--up-to-symmetry") == (
        "at least 1 layout up to symmetry (limit reached: count incomplete; "
        "at least 1 layout, at most 8 per orbit)"
    )
    assert output(centre, "--limit", 8, "--up-to-symmetry") == "1 layout up to symmetry"
    assert output(corner, "--limit", 100, "--up-to-symmetry") == (
        "at least 50 layouts up to symmetry (limit reached: count incomplete; "
        "at least 100 layouts, at most 2 per orbit)"
    )
    assert output(corner, "--limit", 146, "--up-to-symmetry") == "73 layouts up to symmetry"


def test_cli_time_limit_reason():
    ring = PUZZLES / "ring-6x6.toml"
    text = output(ring, "--time-limit", 0, "--limit", 10_000)
    assert text.startswith("at least ")
    assert text.endswith(" layouts (time limit reached: count incomplete)")
    assert 0 < int(text.split()[2]) < 3226
    text = output(ring, "--time-limit", 0, "--up-to-symmetry")
    assert "up to symmetry (time limit reached: count incomplete; at least " in text
    assert text.endswith(", at most 2 per orbit)")
    bound, layouts = int(text.split()[2]), int(text.split("; at least ")[1].split()[0])
    assert 0 < bound == math.ceil(layouts / 2) <= 1613


def test_cli_limit_zero_is_a_usage_error():
    result = run(PUZZLES / "tiny-5x5-centre.toml", "--limit", 0)
    assert result.exit_code == 2


GAMES = helpers.GAMES


def test_count_of_one_colour_with_one_piece_left_equals_its_legal_moves():
    """With --colour and a single piece left, layouts are exactly the legal moves (counted
    here by the independent move generator of ``moves``)."""
    from solver.formats.game import load_game

    runner = CliRunner()
    seen = 0
    for path in sorted(GAMES.glob("*.blksgf")):
        game = load_game(path)
        for after in range(40, game.num_placements + 1, 5):
            for state in game.position(after).colours:
                if len(state.remaining) != 1 or seen >= 8:
                    continue
                args = [str(path), "--after", str(after), "--colour", state.name]
                moves = runner.invoke(main, ["moves", *args, "--count"])
                counted = runner.invoke(main, ["count", *args])
                assert moves.exit_code == 0 and counted.exit_code == 0
                assert int(counted.output.split()[0]) == int(moves.output), (path.name, after)
                seen += 1
    assert seen == 8
