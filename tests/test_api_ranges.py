"""The Python API reads its numbers as the command line reads its options (issue 31,
item 7): against the same ranges (solver/ranges.py, from which the command line's option
types are made), before any work."""

from __future__ import annotations

import math

import click
import numpy as np
import pytest
from helpers import PUZZLES, SGF_FIXTURES
from hypothesis import given
from hypothesis import strategies as st

import solver.api as blokus
from solver import ranges
from solver.cli.params import option_type
from solver.errors import InputError

DUO_GAME = SGF_FIXTURES / "setup-duo.blksgf"
PUZZLE = PUZZLES / "tiny-5x5-corner.toml"
SHARED = [
    ranges.SECONDS,
    ranges.WORKERS,
    ranges.SEED,
    ranges.PLACEMENTS,
    ranges.LIMIT,
    ranges.DEPTH,
]


def _cli_refuses(shared: ranges.Range, value: object) -> bool:
    """Whether the command line's option type refuses ``value`` as typed on a command
    line (its text; a whole number past Python's 4300 digits typed as digits)."""

    if isinstance(value, int) and value.bit_length() > 14_000:
        text = "9" * 5000
    else:
        text = repr(value) if isinstance(value, float) else str(value)
    try:
        option_type(shared).convert(text, None, None)
    except click.BadParameter:
        return True
    return False


def _api_refuses(shared: ranges.Range, value: object) -> bool:
    try:
        shared.check(value)
    except InputError as e:
        assert e.where == shared.name
        return True
    return False


NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**400), 10**400),
    st.integers(-3, 300),
    st.sampled_from([2**31 - 1, 2**31, 2**62, 2**62 + 1, 10**5000, -(10**5000)]),
)


@given(value=NUMBERS, shared=st.sampled_from(SHARED))
def test_the_api_and_the_command_line_refuse_the_same_numbers(value, shared):
    assert _api_refuses(shared, value) == _cli_refuses(shared, value)


def test_a_number_is_a_number():
    """Not text, not true/false (the command line only ever gets text: these are the API's
    own mistakes); NumPy's numbers are numbers."""
    for shared in SHARED:
        for value in ("5", True, None, [1]):
            assert _api_refuses(shared, value)
        assert shared.check(np.int64(5)) == 5 and type(shared.check(np.int64(5))) in (int, float)
    assert ranges.SECONDS.check(np.float32(0.5)) == 0.5
    assert _api_refuses(ranges.WORKERS, np.float64(2.0))


@pytest.fixture(scope="module")
def subjects():
    game = blokus.load_game(DUO_GAME)
    return {"problem": blokus.load(PUZZLE), "game": game, "position": game.position()}


# every function of the API with each numeric argument it takes, and values the command
# line refuses for that option
CALLS = {
    "solve": (lambda s, **kw: blokus.solve(s["problem"], **kw), ["time_limit", "workers", "seed"]),
    "check": (lambda s, **kw: blokus.check(s["position"], "purple", **kw), ["time_limit", "seed"]),
    "review": (lambda s, **kw: blokus.review(s["game"], **kw), ["time_limit", "workers"]),
    "follow": (lambda s, **kw: blokus.follow(s["game"], **kw), ["time_limit", "seed"]),
    "review_together": (lambda s, **kw: blokus.review_together(s["game"], **kw), ["time_limit"]),
    "count": (lambda s, **kw: blokus.count(s["problem"], **kw), ["limit", "time_limit"]),
    "hint": (lambda s, **kw: blokus.hint(s["problem"], **kw), ["time_limit"]),
    "load": (lambda s, **kw: blokus.load(DUO_GAME, **kw), ["after"]),
    "Companion": (lambda s, **kw: blokus.Companion(s["position"], **kw), ["time_limit", "seed"]),
    "Companion.answer": (
        lambda s, **kw: blokus.Companion(s["position"], book=False).answer(**kw),
        ["time_limit"],
    ),
}
REFUSED = {
    "time_limit": [math.nan, math.inf, -1, -1e-9, "10", 10**5000],
    "workers": [0, 257, 1.5, -1, True],
    "seed": [-1, 2**31, 0.5, math.nan],
    "limit": [0, 2**62 + 1, -5, 10**5000],
    "after": [-1, 0.5, math.inf],
}


@pytest.mark.parametrize(
    "function, option",
    [(f, o) for f, (_, options) in CALLS.items() for o in options],
)
def test_every_api_function_refuses_what_the_command_line_refuses(subjects, function, option):
    call, _ = CALLS[function]
    shared = next(r for r in SHARED if r.name == option)
    for value in REFUSED[option]:
        if not isinstance(value, str | bool):
            assert _cli_refuses(shared, value), value  # (the command line does)
        with pytest.raises(InputError) as refused:
            call(subjects, **{option: value})
        assert refused.value.where == option, (value, str(refused.value))


def test_the_issue_cases_and_the_edges_that_are_taken(subjects):
    for bad in (math.nan, -1):  # the issue's follow: nan answered "yes", -1 "unknown"
        with pytest.raises(InputError, match="time_limit"):
            blokus.follow(subjects["game"], time_limit=bad)
    with pytest.raises(InputError, match="backend"):
        blokus.solve(subjects["problem"], backend="magic")
    # the ends of each range are taken, NumPy's numbers too
    result = blokus.solve(subjects["problem"], time_limit=0, workers=np.int64(1), seed=2**31 - 1)
    assert result.status in ("solved", "unknown")
    assert blokus.count(subjects["problem"], limit=2**62).count == 146
    start, end = blokus.load(DUO_GAME, after=0), blokus.load(DUO_GAME)
    assert len(start.position.occupied) < len(end.position.occupied)


def test_the_companion_refuses_the_issue_numbers_before_any_work(subjects):
    """Issue 41 item 6: blokus.Companion checked none of its numbers: time_limit nan
    answered "yes", -1 "unknown", True was 1 second; seed -1 and 1.5 raised NumPy's
    errors from inside a search and 2**70 was taken; answer(time_limit=...) and
    ponder(seconds) likewise. Each is refused as the command line refuses it, before any
    work: the companion keeps its position and answers after."""
    position = subjects["position"]
    for kw in (
        {"time_limit": math.nan},
        {"time_limit": -1},
        {"time_limit": math.inf},
        {"time_limit": True},
        {"seed": -1},
        {"seed": 1.5},
        {"seed": 2**70},
    ):
        with pytest.raises(InputError) as refused:
            blokus.Companion(position, **kw)
        (where,) = kw
        assert refused.value.where == where
    companion = blokus.Companion(position, time_limit=np.float64(2), seed=np.int64(3), book=False)
    for bad in (math.nan, -1, math.inf, True, "1"):
        with pytest.raises(InputError) as refused:
            companion.answer(time_limit=bad)
        assert refused.value.where == "time_limit"
        with pytest.raises(InputError, match="expected a finite number, 0 or more") as refused:
            companion.ponder(bad)
        assert refused.value.where == "seconds"
    assert companion.moves == [] and companion.pool is None  # nothing was answered
    first = companion.answer(time_limit=np.float32(2))
    assert first.answer in ("yes", "unknown")
    with pytest.raises(InputError):  # an answer known already does not skip the check
        companion.answer(time_limit=math.nan)
    assert companion.answer() is first


def test_a_game_position_is_asked_by_a_whole_number(subjects):
    """game.position(n), the API's way to a game's positions (docs/api.md): True was
    position 1, 1.5 a TypeError, and a number of 5000 digits a ValueError from the
    message that printed it; the range of --after applies, as blokus.load(after=...)."""
    game = subjects["game"]
    assert game.position(np.int64(1)) == game.position(1)
    for bad in (True, 1.5, "1", np.float64(1)):
        with pytest.raises(InputError, match="expected a whole number") as refused:
            game.position(bad)
        assert refused.value.where == "after"
    for past in (-1, 999, 10**5000, -(10**5000)):
        with pytest.raises(InputError, match="there is no position after") as refused:
            game.position(past)
        assert len(str(refused.value)) < 300
    assert refused.value.where.startswith("--after a whole number of about 500")
