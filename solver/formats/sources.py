"""Where positions come from: a puzzle file (TOML) or a game record (.blksgf)."""

from __future__ import annotations

from pathlib import Path

from solver.core.problem import Problem
from solver.errors import InputError

# Each reader is imported for the file that needs it: a game record's command does not load
# the TOML reader (about 20 ms), nor a puzzle's the SGF reader.

GAME_SUFFIXES = (".blksgf", ".sgf")


def is_game_file(path: str | Path) -> bool:
    """Whether a path names a game record (by its suffix: .blksgf or .sgf)."""
    return Path(path).suffix.lower() in GAME_SUFFIXES


def load_source(path: str | Path, after: int | None = None) -> Problem:
    """The problem a file describes, ready to solve or to check.

    A puzzle file gives its own problem. A game record gives the position after ``after``
    placements (default: the end) with every colour that still has pieces as a played
    colour, goal place-all.

    Raises:
        InputError: a bad file, or ``after`` given for a puzzle or past the game's end.
    """
    path = str(path)
    if Path(path).suffix.lower() == ".json":
        raise InputError(
            "a solution file (JSON): use blokus-solo verify; this command reads "
            "puzzles (.toml) and game records (.blksgf)",
            path=path,
        )
    if is_game_file(path):
        from solver.formats.game import load_game

        position = load_game(path).position(after)
        colours = tuple(c.name for c in position.colours if c.remaining)
        when = "the end" if after is None else f"{after} placements"
        return Problem(
            position, colours, "place-all", False, name=path, title=f"position after {when}"
        )
    if after is not None:
        raise InputError(
            "--after applies to game records (.blksgf), not to puzzles", path=path, where="--after"
        )
    from solver.formats.puzzle import load_puzzle

    return load_puzzle(path)
