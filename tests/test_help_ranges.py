"""Every numeric option states its accepted range in --help, and the range it states is
the one it enforces."""

from __future__ import annotations

import click
import pytest
from helpers import run_cli

from solver.cli.commands import main

#: options that take numbers in a text form (not a click number type), with a value just
#: outside the range their help states
TEXT_NUMBERS = {("generate", "--size"): "3x8"}


def _commands(group: click.Group = main, path: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def _numeric_options():
    for path, command in _commands():
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            numeric = isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))
            if numeric or (path[-1], param.opts[0]) in TEXT_NUMBERS:
                yield pytest.param(path, command, param, id=f"{' '.join(path)} {param.opts[0]}")


def _stated_range(number: click.IntRange | click.FloatRange) -> str:
    """A range as click's help states it: "1<=x<=256", "x>=0", "0<x<1"."""
    if number.min is None:
        return f"x{'<' if number.max_open else '<='}{number.max}"
    if number.max is None:
        return f"x{'>' if number.min_open else '>='}{number.min}"
    low, high = ("<" if number.min_open else "<="), ("<" if number.max_open else "<=")
    return f"{number.min}{low}x{high}{number.max}"


def _help_text(path, param: click.Option) -> str:
    ctx = click.Context(main)
    for name in path:
        ctx = click.Context(ctx.command.commands[name], parent=ctx, info_name=name)  # type: ignore[attr-defined]
    record = param.get_help_record(ctx)
    assert record is not None
    return " ".join(record[1].split())


@pytest.mark.parametrize("path, command, param", list(_numeric_options()))
def test_every_numeric_option_states_its_range(path, command, param):
    text = _help_text(path, param)
    if isinstance(param.type, (click.IntRange, click.FloatRange)):
        low, high = param.type.min, param.type.max
        assert low is not None or high is not None, "a number with no bound at all"
        assert _stated_range(param.type) in text, text
        # and it is the range enforced: the value just past each end is refused
        ends = ([low - 1] if low is not None else []) + ([high + 1] if high is not None else [])
        for bad in ends:
            with pytest.raises(click.BadParameter):
                param.type.convert(str(bad), param, None)
    else:
        key = (path[-1], param.opts[0])
        assert key in TEXT_NUMBERS, "a number option without a range (use click.IntRange)"
        outside = TEXT_NUMBERS[key]
        assert " to " in text, text
        result = run_cli(*path, "--goal", "avoid", param.opts[0], outside)
        assert result.exit_code == 2 and " to " in result.output


def test_every_numeric_option_is_found():
    """The walk sees the options the issue named (no silent empty parametrisation)."""
    found = {(p.values[0][-1], p.values[2].opts[0]) for p in _numeric_options()}
    for expected in [
        ("count", "--limit"),
        ("solve", "--workers"),
        ("solve", "--seed"),
        ("solve", "--time-limit"),
        ("check", "--after"),
        ("batch", "--jobs"),
        ("show", "--size"),
        ("generate", "--size"),
        ("split", "--depth"),
    ]:
        assert expected in found


#: what one --time-limit bounds in each command (the five meanings, TIME_LIMIT_MEANINGS)
TIME_LIMITS = {
    "solve": "Seconds per solve",
    "check": "Seconds per solve",
    "batch": "Seconds per solve",
    "join": "With --recheck: seconds per solve",
    "review": "Seconds per check",
    "count": "Seconds per count",
    "rate": "Seconds per count",
    "hint": "Seconds for all counts together",
    "verify": "With --prove: seconds per proof",
    "gtp": "Seconds per genmove",
}


def test_every_time_limit_says_what_it_bounds():
    """--time-limit has six meanings (per solve, per check, per count, all counts, per
    proof, per genmove): each command's help begins with its own."""
    seen = set()
    for path, command in _commands():
        for param in command.params:
            if isinstance(param, click.Option) and param.opts[0] == "--time-limit":
                seen.add(path[-1])
                assert _help_text(path, param).startswith(TIME_LIMITS[path[-1]]), path
    assert seen == set(TIME_LIMITS)
