"""The command line's jobs from Python, in one import (in the spirit of python-chess).

::

    import solver.api as blokus

    problem = blokus.load("puzzles/tiny-5x5-corner.toml")     # a puzzle, or a game position
    result = blokus.solve(problem, time_limit=10)               # SolveResult: status, layout
    game = blokus.load_game("game.blksgf")                      # a Pentobi game record
    answer = blokus.check(game.position(40), "blue")            # EndgameAnswer: yes/no/unknown
    blokus.count(problem).count                                  # number of layouts
    blokus.hint(problem, moves=["a5,a4,b4"]).hints               # next moves that still work
    review = blokus.review(game)                                 # every move, every colour
    for step in blokus.follow(game): print(step.answer)         # all colours at once, live
    companion = blokus.Companion(game.position(10))             # a game in progress
    companion.play("red:c4,c5,d5,d6"); companion.answer()        # after each move, at once
    followed = blokus.review_together(game)                      # the same, whole game known
    text = blokus.reviewed_sgf(review)                           # the game with comments

Every function here is a thin layer over the modules that do the work (named in each
docstring); their results are those modules' typed values. Solving options are keyword
arguments (:class:`Options`): ``backend`` (a name of
:data:`solver.backends.registry.BACKENDS`, default "auto"),
``time_limit`` (seconds per solve, None for none), ``workers``, ``seed``. Bad input raises
:class:`~solver.errors.InputError` (a ``ValueError``) naming the file and the place; so
does a number the command line would refuse (NaN, a negative time limit, 0 workers...:
every numeric argument is checked against the command line's ranges,
:mod:`solver.ranges`, before any work).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypedDict, Unpack

from solver.answers.annotate import annotated_sgf
from solver.backends.base import DEFAULT_TIME_LIMIT, SolveOptions
from solver.backends.registry import BACKENDS
from solver.backends.search import CountResult
from solver.backends.search import count as _count
from solver.companion.follow import Followed, JointStep, follow_game
from solver.companion.follow import follow as _follow
from solver.companion.live import Companion, Focus
from solver.core.movegen import legal_placements
from solver.core.position import Placement, Position
from solver.core.problem import Problem
from solver.core.variants import ALL_VARIANTS, read_colour
from solver.errors import InputError
from solver.formats.game import Game
from solver.formats.game import load_game as _load_game
from solver.formats.sources import load_source
from solver.formats.text import read_text
from solver.quoting import shown
from solver.ranges import JOBS, LIMIT, PERFT_DEPTH, PLACEMENTS, SECONDS, SEED, WORKERS
from solver.tasks.endgame import EndgameAnswer, endgame_check
from solver.tasks.hints import Hints, hints, play
from solver.tasks.perft import PerftResult
from solver.tasks.perft import perft as _perft
from solver.tasks.review import Review, review_game
from solver.tasks.solve import SolveResult
from solver.tasks.solve import solve as _solve

__all__ = [
    "Companion",
    "Focus",
    "Options",
    "check",
    "count",
    "hint",
    "legal_moves",
    "load",
    "load_game",
    "follow",
    "perft",
    "review",
    "review_together",
    "reviewed_sgf",
    "solve",
]


def load(path: str | Path, after: int | None = None) -> Problem:
    """The problem a file describes (:func:`solver.formats.sources.load_source`): a
    puzzle (TOML) as written, or a game record (``.blksgf``) after ``after`` placements
    (default: the end) with every colour that has pieces left to play, goal place-all.

    Raises:
        InputError: a bad file, or ``after`` given for a puzzle, past the game's end or
            not a whole number 0 or more.
    """
    checked = PLACEMENTS.optional(after)
    return load_source(path, None if checked is None else int(checked))


def load_game(path: str | Path) -> Game:
    """A Pentobi game record (:func:`solver.formats.game.load_game`); ``game.position(n)``
    is the position after n placements, ``game.moves`` the moves.

    Raises:
        InputError: a bad file or an illegal move (naming the line and column).
    """
    return _load_game(path)


class Options(TypedDict, total=False):
    """The solving options every function here takes as keyword arguments (see
    :class:`~solver.backends.base.SolveOptions`)."""

    backend: str
    time_limit: float | None
    workers: int
    seed: int


#: the solving options that take numbers, by keyword
_NUMERIC = {shared.name: shared for shared in (SECONDS, WORKERS, SEED)}


def _solve_options(options: Options) -> SolveOptions:
    """The solving options, each number checked as the command line checks it and the
    backend's name known. Raises InputError (``where`` is the keyword)."""
    checked: dict[str, Any] = dict(options)
    for name, value in options.items():
        if name in _NUMERIC and not (name == "time_limit" and value is None):
            checked[name] = _NUMERIC[name].check(value)
    backend = checked.get("backend", "auto")
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InputError(
            f"unknown backend {shown(backend)!r} (backends: {', '.join(BACKENDS)})", where="backend"
        )
    return SolveOptions(**checked)


def solve(problem: Problem, **options: Unpack[Options]) -> SolveResult:
    """Solve a problem (:func:`solver.tasks.solve.solve`): its status ("solved", "optimal",
    "infeasible" or "unknown"), the layout in a legal order of play, checked by the rule
    checker, and the score.

    Raises:
        InputError: an unknown backend, or a number out of range (``where`` names it).
    """
    return _solve(problem, _solve_options(options))


def check(position: Position, colour: str, **options: Unpack[Options]) -> EndgameAnswer:
    """The endgame check (:func:`solver.tasks.endgame.endgame_check`): can ``colour`` (a name,
    letter or Pentobi id, read as the command line reads ``--colour``:
    :func:`solver.core.variants.read_colour`) place all its remaining pieces, with the other
    colours as they stand?
    ``answer.answer`` is "yes" (``answer.place_all.layout``), "no" (proven; then
    ``answer.best`` is the best it can still do) or "unknown" (time limit: not a "no").

    Raises:
        InputError: an unknown colour, or one with nothing left to place.
    """
    name = read_colour(colour, position.colour_names, ALL_VARIANTS.get(position.variant))
    if not position.colour(name).remaining:
        raise InputError(f"{name} has no pieces left to place")
    return endgame_check(position, name, _solve_options(options))


def count(
    problem: Problem,
    *,
    limit: int | None = None,
    up_to_symmetry: bool = False,
    time_limit: float | None = None,
) -> CountResult:
    """The number of distinct final layouts that place every remaining piece of the
    problem's colours (:func:`solver.backends.search.counting.count`); ``result.complete`` says
    whether the count is exact or a lower bound (stopped by ``limit`` or ``time_limit``).

    Raises:
        InputError: ``limit`` or ``time_limit`` out of range (as ``count --limit`` and
            ``--time-limit``).
    """
    checked = LIMIT.optional(limit)
    seconds = SECONDS.optional(time_limit)
    return _count(
        problem,
        limit=None if checked is None else int(checked),
        up_to_symmetry=up_to_symmetry,
        time_limit=seconds,
    )


def hint(problem: Problem, moves: Iterable[str] = (), *, time_limit: float | None = None) -> Hints:
    """Hints (:func:`solver.tasks.hints.hints`), as ``blokus-solo hint``: every legal next move
    that still leads to a solution, after the player's own ``moves``, ranked by the number
    of solutions each keeps (``hints.hints``, most first; ``hint.placement`` its piece and
    squares, ``hint.keeps`` the count). ``hints.total`` counts the solutions from the
    position: when it is 0 and complete, no move leads to one (proven).

    Args:
        problem: a place-all problem (a puzzle with card goals, for instance).
        moves: pieces already placed, in order of play, each by its squares
            (``"c4,c5,d5,d6"``, or ``"red:c4,c5,d5,d6"`` when several colours play),
            checked by the rules.
        time_limit: seconds for all the counts together (they are then lower bounds).

    Raises:
        InputError: a move the rules refuse (``where`` is "move N", 1 for the first), a
            max-score problem, or ``time_limit`` out of range.
    """
    seconds = SECONDS.optional(time_limit)
    return hints(play(problem, list(moves), label="move"), seconds)


def review(
    game: Game | str | Path,
    colours: Iterable[str] | None = None,
    **options: Unpack[Options],
) -> Review:
    """Review a game (:func:`solver.tasks.review.review_game`): every colour's endgame answer
    and best score after every placement, and ``review.losses()``, the moves after which
    each colour lost the chance to place everything (or to end with the monomino; more than
    one only when setup in mid-game gave a chance back: ``Loss.regained``).

    Args:
        game: a :class:`~solver.formats.game.Game` or the path of a ``.blksgf`` file.
        colours: names, letters or Pentobi ids, read as the command line reads
            ``--colour`` (:func:`solver.core.variants.read_colour`: ``"B"`` is purple in
            Duo); default: every colour of the variant.
        options: as everywhere here; ``time_limit`` is the budget of each check (one
            colour after one placement, all its solves), 10 seconds unless given (a
            time-out answers "unknown").

    Raises:
        InputError: a bad file or an unknown colour.
    """
    record, opts = _game_and_options(game, options)
    v = record.variant
    names = None if colours is None else [read_colour(c, v.colours, v) for c in colours]
    return review_game(record, names, opts)


def reviewed_sgf(review: Review, text: str | None = None) -> str:
    """The reviewed game record as SGF text with the review as Pentobi comments
    (:func:`solver.answers.annotate.annotated_sgf`). ``text`` is the game's original
    file text (default: read from ``review.game.path``).

    Raises:
        InputError: no text given and the game was not read from a file.
    """
    if text is None:
        if review.game.path is None:
            raise InputError("the game was not read from a file: pass its text")
        text = read_text(review.game.path)
    return annotated_sgf(text, review, review.game.path)


def _game_and_options(game: Game | str | Path, options: Options) -> tuple[Game, SolveOptions]:
    record = game if isinstance(game, Game) else _load_game(game)
    opts = _solve_options(options)
    if "time_limit" not in options:
        opts = replace(opts, time_limit=DEFAULT_TIME_LIMIT)
    return record, opts


def follow(game: Game | str | Path, **options: Unpack[Options]) -> Iterator[JointStep]:
    """Follow a game live (:func:`solver.companion.follow.follow`): after the start and after each
    placement, one :class:`~solver.companion.follow.JointStep` as soon as it is answered: can every
    colour with pieces left still place all of them at once? ``step.answer`` is "yes"
    (``step.layout``, checked by the rule checker), "no" (proven; every later answer is
    "no" too, without another solve, until setup in the game record (``AE``, ``AB``, ...)
    changes the board after a move: from there on nothing is carried over and each
    position is checked afresh), "unknown" (the budget ran out: not a "no"; ``step.partial``
    is the best partial layout found, ``step.short`` the pieces it leaves per colour,
    ``step.fit`` the best bound proved) or "done". A layout is carried from one move to
    the next; ``time_limit`` is the budget of each check (10 seconds unless given; a check
    may run over it by about a second, see docs/companion.md).

    Raises:
        InputError: a bad file.
    """
    record, opts = _game_and_options(game, options)
    return _follow(record, opts)


def review_together(game: Game | str | Path, **options: Unpack[Options]) -> Followed:
    """``blokus-solo review --together`` (:func:`solver.companion.follow.follow_game`): the joint
    answer after every placement, the whole game known (a later "yes" settles earlier
    moves), ``followed.losses()``, every move after which every piece of every colour
    could no longer be placed (more than one only when setup in mid-game gave the chance
    back: ``Loss.regained``), and ``followed.loss()``, the one that stands at the end.

    Raises:
        InputError: a bad file.
    """
    record, opts = _game_and_options(game, options)
    return follow_game(record, opts)


def legal_moves(position: Position, colour: str) -> list[Placement]:
    """A colour's legal next moves (``colour`` read as :func:`check` reads it), in the
    order of the placement index (:func:`solver.core.movegen.legal_placements`; numbers,
    masks and a position kept along a game: docs/movegen.md).

    Raises:
        InputError: no such colour.
    """
    name = read_colour(colour, position.colour_names, ALL_VARIANTS.get(position.variant))
    return legal_placements(position, name)


def perft(position: Position, depth: int, colour: str | None = None, jobs: int = 1) -> PerftResult:
    """``blokus-solo perft`` (:func:`solver.tasks.perft.perft`): the lines of play of
    ``depth`` turns (``result.leaves``), ``result.seconds``, ``result.divide`` (the count
    below each first move); a colour without a move passes (docs/perft.md). ``colour``:
    the colour to move first (default: the position's colour to move, else its first).

    Raises:
        InputError: ``depth`` or ``jobs`` out of the command line's ranges, or no such
            colour.
    """
    first = None
    if colour is not None:
        first = read_colour(colour, position.colour_names, ALL_VARIANTS.get(position.variant))
    return _perft(position, int(PERFT_DEPTH.check(depth)), first, int(JOBS.check(jobs)))
