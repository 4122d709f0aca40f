"""The options several commands share, each declared once as a decorator: the solving
options (``--backend``, ``--time-limit``, ``--workers``, ``--seed``, ``--params``), and
``--after``, ``--colour``, ``--out``, ``--plain``, ``--together``. An option keeps its
name, type and parameter everywhere; what differs between commands (the help text, where
its meaning differs; a metavar, a default, required) is an argument of its decorator.

Also the checks and notices of the solving options (:func:`check_params`,
:func:`announce_compile`) and what ``--colour`` names (:func:`chosen_colours`,
:func:`with_colours`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any, Literal

import click

from solver.backends import warmup
from solver.backends.base import SolveOptions
from solver.backends.registry import BACKENDS
from solver.backends.registry import backend as engine
from solver.cli.params import PLACEMENTS, SECONDS, SEED, WORKERS, Command
from solver.core.position import Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS, read_colour
from solver.errors import InputError, located
from solver.ranges import MAX_SEED, MAX_WORKERS

# CP-SAT's parameters are parsed by OR-tools, imported where --params is given: every
# command imports this module, and OR-tools takes about half a second to load.

#: the backends of ``check`` and ``review``: their solves include max-score after a "no",
#: which not every engine answers (the registry's ``endgames``)
ENDGAME_BACKENDS = tuple(name for name, b in BACKENDS.items() if b.endgames)

#: ``--after``'s help where it takes a game record's or a puzzle's position
AFTER_HELP = "Game records: the position after N placements."

#: ``--colour``'s help where it chooses the colours that play
PLAY_HELP = (
    "Colour to play (repeatable; default: the played colours of a puzzle, "
    "every colour of a game); the others stay frozen."
)


def after_option(text: str = AFTER_HELP) -> Callable[[Command], Command]:
    """``--after N``: the position after N placements (default None: the end)."""
    return click.option("--after", type=PLACEMENTS, default=None, metavar="N", help=text)


def colour_option(text: str, required: bool = False) -> Callable[[Command], Command]:
    """``--colour`` (or ``--color``), repeatable, into the parameter ``colours`` (a tuple
    of the texts given; :func:`chosen_colours` reads them)."""
    return click.option(
        "--colour", "--color", "colours", required=required, multiple=True, help=text
    )


def out_option(
    text: str, metavar: str = "FILE", required: bool = False, default: str | None = None
) -> Callable[[Command], Command]:
    """``--out FILE`` (or DIR): where a command writes (default None: nothing written)."""
    return click.option(
        "--out",
        "out",
        required=required,
        default=default,
        show_default=default is not None,
        metavar=metavar,
        help=text,
    )


def plain_option(
    text: str = "Plain text board even in a terminal.",
) -> Callable[[Command], Command]:
    """``--plain``: no colours, even in a terminal."""
    return click.option("--plain", is_flag=True, help=text)


def together_option(text: str) -> Callable[[Command], Command]:
    """``--together``: one joint answer for the colours instead of one each."""
    return click.option("--together", is_flag=True, help=text)


#: what one ``--time-limit`` bounds; its help begins with the phrase, so that each command
#: says which of them it means
TIME_LIMIT_MEANINGS = {
    "solve": "seconds per solve",
    "check": "seconds per check",
    "count": "seconds per count",
    "counts": "seconds for all counts together",
    "proof": "seconds per proof",
    "genmove": "seconds per genmove",
}
TimeLimitMeaning = Literal["solve", "check", "count", "counts", "proof", "genmove"]


def time_limit_option(
    text: str,
    default: float | None = None,
    *,
    per: TimeLimitMeaning | None = None,
    only_with: str | None = None,
) -> Callable[[Command], Command]:
    """``--time-limit SECONDS`` (finite, 0 or more; default None: no limit). ``per``: what
    one limit bounds (:data:`TIME_LIMIT_MEANINGS`), said first in the help, then the
    default, then ``text``; ``only_with``: the option without which it bounds nothing.
    Without ``per``, ``text`` is the whole help (it must say the meaning itself)."""
    if per is not None:
        meaning = TIME_LIMIT_MEANINGS[per]
        lead = f"With {only_with}: {meaning}" if only_with else meaning.capitalize()
        text = f"{lead} (default: no limit): {text}" if default is None else f"{lead}: {text}"
    return click.option(
        "--time-limit",
        type=SECONDS,
        default=default,
        show_default=default is not None,
        metavar="SECONDS",
        help=text,
    )


def seed_option(
    text: str = f"Random seed, 0 to {MAX_SEED}.", metavar: str | None = None
) -> Callable[[Command], Command]:
    """``--seed`` (0 to 2^31 - 1, default 0)."""
    return click.option(
        "--seed", type=SEED, default=0, show_default=True, metavar=metavar, help=text
    )


def solver_options(
    backends: Iterable[str],
    time_help: str,
    time_default: float | None = None,
    workers: int = 2,
    time_per: TimeLimitMeaning = "solve",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options shared by every command that solves (as a decorator), given to the
    command as one parameter, ``options`` (a :class:`SolveOptions`; nothing checked or
    said yet: the command calls :func:`check_params` and :func:`announce_compile` in its
    own order); ``time_default`` and ``workers``: the defaults of --time-limit and
    --workers; ``time_per`` and ``time_help``: what one --time-limit bounds and the rest of
    its help (:func:`time_limit_option`); ``backends``: the names ``--backend`` takes, "auto"
    (the default) first."""
    backends = tuple(backends)
    options = [
        click.option(
            "--backend",
            type=click.Choice(backends),
            default="auto",
            show_default=True,
            help="; ".join(f"{b}: {engine(b).summary}" for b in backends[1:] + backends[:1]) + ".",
        ),
        time_limit_option(time_help, time_default, per=time_per),
        click.option(
            "--workers",
            type=WORKERS,
            default=workers,
            show_default=True,
            help=f"Threads, 1 to {MAX_WORKERS}: CP-SAT workers, or the search's portfolio "
            "members, or the domain search's seed streams (at most 8) (auto: the search "
            "keeps N, CP-SAT gets N-1).",
        ),
        seed_option(),
        click.option(
            "--params",
            default="",
            metavar="TEXT",
            help='Extra CP-SAT parameters, protobuf text format, e.g. "log_search_progress: '
            'true". With "linearization_level:2" (or more) the model also gets the 2x2-block '
            "rows (strong for proofs of no; slower otherwise). A no or a proven best counts "
            "as a proof only if every field set is harmless (threads, seed, time, logging, "
            "linearization_level, root_lp_iterations); with any other field a no is "
            "unknown (docs/guarantees.md).",
        ),
    ]

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)  # (its __click_params__ too: the options declared below it)
        def command(
            *args: Any,
            backend: str,
            time_limit: float | None,
            workers: int,
            seed: int,
            params: str,
            **kwargs: Any,
        ) -> Any:
            options = SolveOptions(
                backend=backend, time_limit=time_limit, workers=workers, seed=seed, params=params
            )
            return f(*args, options=options, **kwargs)

        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def announce_compile(options: SolveOptions) -> None:
    """Say what a first run waits for, before the command solves with ``options``. With
    ``auto``, the first run after installing (no compiled search kernel cached) compiles
    the kernel in the background once auto needs it, and says so then (see
    :mod:`solver.backends.warmup`); with a backend whose kernel must first compile in
    this command, says that now."""
    if options.backend == "auto":
        warmup.on_background_compile = _compile_notice
    else:
        wait = warmup.compile_wait(options.backend)
        if wait is not None:  # say what the first answer waits for
            click.echo(wait, err=True)


def check_params(options: SolveOptions) -> None:
    """Refuse CP-SAT parameters given to the search backend (they would be ignored), and
    parameters that do not parse, before solving (auto may never start CP-SAT). Raises
    InputError (``where="--params"``)."""
    if not options.params:
        return
    if options.backend == "search":
        raise InputError(
            "--params sets CP-SAT parameters; the search backend has none", where="--params"
        )
    from solver.backends.cpsat import parse_params

    parse_params(options.params)


def _compile_notice(since: float | None) -> None:
    """What a first run tells while the kernels compile in the background (``since``:
    seconds since another command started that compile; None: this one did)."""
    meanwhile = (
        "greedy play, CP-SAT and, where it applies, the domain search answer meanwhile, "
        "and the search joins them once compiled"
    )
    if since is None:
        said = "first run: compiling the exact search kernels in the background (once, 10-30 s)"
    else:
        said = (
            "first run: the exact search kernels are still compiling in the background "
            f"(started {since:.0f} s ago by another command; 10-30 s in all)"
        )
    click.echo(f"{said}; {meanwhile}", err=True)


def chosen_colours(source: str, position: Position, texts: tuple[str, ...]) -> tuple[str, ...]:
    """The colours of repeated ``--colour`` options, each once, in the order first given:
    ``--colour blue --colour B`` is blue. Read by the one colour rule
    (:func:`solver.core.variants.read_colour`: names, letters, and on a built-in variant
    Pentobi's ids: ``B`` is purple in Duo).

    Raises:
        InputError: a colour the position does not have (``where="--colour"``).
    """
    variant = ALL_VARIANTS.get(position.variant)
    with located(path=source, where="--colour"):
        names = [read_colour(t, position.colour_names, variant) for t in texts]
    return tuple(dict.fromkeys(names))


def with_colours(problem: Problem, source: str, colours: tuple[str, ...]) -> Problem:
    """The problem with ``--colour`` choices as its played colours (unchanged without any).
    Raises InputError for an unknown colour, or one the problem's rules refuse (e.g. a
    colour with no monomino left in a monomino-last puzzle)."""
    if not colours:
        return problem
    chosen = chosen_colours(source, problem.position, colours)
    with located(path=source, where="--colour"):
        return dataclasses.replace(problem, colours=chosen)
