"""The GTP engine: a game of a built-in variant, and the commands of Pentobi's engine.

Commands, their arguments and their answers follow Pentobi's ``pentobi-gtp``
(``libpentobi_gtp/GtpEngine.cpp``, ``pentobi_gtp/GtpEngine.cpp``, ``Pentobi-GTP.md``);
docs/gtp.md lists them with the few differences. Colours are written as in Pentobi's SGF
move properties: ``b``/``w`` (also ``blue``/``black``, ``green``/``white``) in the
two-colour variants, ``1``-``4`` (also ``blue``, ``yellow``, ``red``, ``green``) in the
four-colour ones; a move is its squares, comma-separated (``e8,d9,e9,f9,e10``), written
by us in Pentobi's order (a1, b1, ..., a2, ...).

The game is a start position (the variant's empty board, or the setup of a loaded file)
and the moves played from it, each with the position after it, so ``undo`` steps back one
move exactly as Pentobi does.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version

from solver.core.pieces import MONOMINO
from solver.core.position import Placement, Position
from solver.core.rules import move_problem, shape_name
from solver.core.variants import ALL_VARIANTS, VARIANTS, Variant
from solver.errors import InputError, SquareError
from solver.formats.files import check_output, write_text_atomic
from solver.formats.game import Game, load_game, squares_text, start_position, write_moves
from solver.gtp.board_text import BoardInfo, board_text
from solver.gtp.genmove import DEFAULT_SETTINGS, GenmoveSettings, choose
from solver.gtp.moves import has_moves, legal_texts
from solver.gtp.protocol import Command, GtpError, failure_text, parse_line

NAME = "blokus-solo"

#: ``set_random_seed``'s largest seed: Pentobi's (its random generator's ``uint32_t``)
SEED_MAX = 2**32 - 1

#: ``set_game`` and ``--game``: Pentobi's GM names (case-insensitive), its variant ids and
#: abbreviations, and our variant names; the square variants and Trigon's
GAME_NAMES: dict[str, str] = {
    **{v.sgf_name.lower(): v.name for v in ALL_VARIANTS.values()},
    **{i: v.name for v in ALL_VARIANTS.values() for i in v.pentobi_ids},
    **{name: name for name in ALL_VARIANTS},
}

#: variants Pentobi plays that we do not (their GM names, lower case)
OTHER_GAMES = (
    "nexos",
    "nexos two-player",
    "callisto",
    "callisto two-player",
    "callisto two-player four-color",
    "callisto three-player",
    "gembloq",
    "gembloq two-player",
    "gembloq two-player four-color",
    "gembloq three-player",
)


def parse_game(text: str) -> Variant:
    """The variant a ``set_game`` argument or ``--game`` names.

    Raises:
        GtpError: an unknown name ("invalid argument", as Pentobi) or one of Pentobi's
            variants that this program does not play (Nexos, Callisto, GembloQ).
    """
    key = " ".join(text.split()).lower()
    if key in GAME_NAMES:
        return ALL_VARIANTS[GAME_NAMES[key]]
    if key in OTHER_GAMES:
        supported = ", ".join(v.sgf_name for v in ALL_VARIANTS.values())
        raise GtpError(f"variant not supported: {text.strip()} (supported: {supported})")
    raise GtpError("invalid argument")


def package_version() -> str:
    """This program's version, as installed."""
    try:
        return version("blokus-solo")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


@dataclass(frozen=True)
class Played:
    """A move of the game and the position after it."""

    colour: str
    placement: Placement
    after: Position


class Engine:
    """A GTP engine in Pentobi's dialect.

    Args:
        variant: the variant at start-up (Pentobi's default is Classic).
        seed: the random seed of ``genmove``.
        settings: how ``genmove`` chooses (:class:`solver.gtp.genmove.GenmoveSettings`).
    """

    def __init__(
        self,
        variant: Variant = VARIANTS["classic"],
        seed: int = 0,
        settings: GenmoveSettings = DEFAULT_SETTINGS,
    ):
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.quit = False
        self.commands: dict[str, Callable[[Command], str]] = {
            "all_legal": self.all_legal,
            "clear_board": self.clear_board,
            "cputime": self.cputime,
            "final_score": self.final_score,
            "g": self.g,
            "genmove": self.genmove,
            "known_command": self.known_command,
            "list_commands": self.list_commands,
            "loadsgf": self.loadsgf,
            "name": self.name,
            "p": self.p,
            "play": self.play,
            "protocol_version": self.protocol_version,
            "quit": self.do_quit,
            "reg_genmove": self.reg_genmove,
            "savesgf": self.savesgf,
            "set_game": self.set_game,
            "set_random_seed": self.set_random_seed,
            "showboard": self.showboard,
            "undo": self.undo,
            "version": self.version,
        }
        self.new_game(variant)

    # -- the game --------------------------------------------------------------------

    def new_game(self, variant: Variant, start: Position | None = None) -> None:
        """Start a game: the variant's empty board, or ``start`` (a loaded setup)."""
        self.variant = variant
        self.start = start if start is not None else start_position(variant.name)
        if self.start.to_move is None:
            self.start = replace(self.start, to_move=variant.colours[0])
        self.played: list[Played] = []

    @property
    def position(self) -> Position:
        """The current position (``to_move``: the colour after the last mover)."""
        return self.played[-1].after if self.played else self.start

    def put(self, colour: str, placement: Placement) -> None:
        """Play a legal move (not checked here)."""
        colours = self.variant.colours
        after = self.position.with_placement(colour, placement)
        after = replace(after, to_move=colours[(colours.index(colour) + 1) % len(colours)])
        self.played.append(Played(colour, placement, after))

    def points(self, colour: str) -> int:
        """Pentobi's points of a colour: its squares on the board, +15 when it has placed
        every piece and +5 more when its last move was the monomino (none in Junior)."""
        state = self.position.colour(colour)
        points = len(state.squares)
        if self.position.bonus and not state.remaining:
            points += 15
            mine = [p for p in self.played if p.colour == colour]
            if mine and mine[-1].placement.piece == MONOMINO:
                points += 5
        return points

    def opponents(self, colour: str) -> tuple[str, ...]:
        """The colours of the other players (all others in Three-Player)."""
        colours = self.variant.colours
        players = self.variant.seats  # Three-Player's green (-1) is everyone's opponent
        mine = players[colours.index(colour)]
        return tuple(c for c, p in zip(colours, players) if p != mine)

    def colour_arg(self, text: str) -> str:
        """A colour argument as Pentobi reads it (lower-cased; see the module docstring),
        also our own names (``purple``, ``orange`` in Duo and Junior).

        Raises:
            GtpError: "invalid color argument 'x'".
        """
        s = text.lower()
        colours = self.variant.colours
        if len(colours) == 2:
            ids = {"blue": 0, "black": 0, "b": 0, "green": 1, "white": 1, "w": 1}
        else:  # Trigon Three-Player has three colours: no 4, no green
            ids = {str(k + 1): k for k in range(4)} | {"blue": 0, "yellow": 1, "red": 2, "green": 3}
            ids = {name: k for name, k in ids.items() if k < len(colours)}
        if s in ids:
            return colours[ids[s]]
        if s in colours:
            return s
        raise GtpError(f"invalid color argument '{s}'")

    def one_colour(self, command: Command) -> str:
        """The single colour argument of ``all_legal``, ``genmove``, ``reg_genmove``."""
        if len(command.words) > 1:
            raise GtpError("too many arguments")
        return self.colour_arg(command.arg(0))

    def parse_move(self, colour: str, text: str) -> Placement:
        """A move's text as ``play`` reads it: squares comma-separated, any order, any
        case, spaces around a square allowed.

        Raises:
            GtpError: "invalid move" (not squares of this board forming a piece of the
                set), "play pass not supported (anymore)" (``null``), "piece already
                played", "illegal move: ..." (the rule it breaks).
        """
        if text.strip().lower() == "null":
            raise GtpError("play pass not supported (anymore)")
        board = self.position.board
        try:
            squares = [board.parse(name) for name in text.split(",")]
        except SquareError:
            raise GtpError("invalid move") from None
        piece = shape_name(board, squares)
        if len(set(squares)) != len(squares) or piece is None or piece not in self.variant.pieces:
            raise GtpError("invalid move")
        placement = Placement(piece, frozenset(squares))
        if piece not in self.position.colour(colour).remaining:
            raise GtpError("piece already played")
        problem = move_problem(self.position, colour, placement)
        if problem:
            raise GtpError(f"illegal move: {problem}")
        return placement

    def move_text(self, placement: Placement) -> str:
        """A move as we print it: its squares in Pentobi's order, comma-separated."""
        return squares_text(self.position.board, placement.squares)

    def board_info(self) -> BoardInfo:
        """What ``showboard`` shows besides the squares."""
        position = self.position
        colours = self.variant.colours
        movable = {c: has_moves(position, c) for c in colours}
        k = colours.index(position.to_move or colours[0])
        turns = [colours[(k + i) % len(colours)] for i in range(len(colours))]
        to_play = next((c for c in turns if movable[c]), None)
        last = (self.played[-1].colour, self.played[-1].placement) if self.played else None
        points = {c: self.points(c) for c in colours}
        return BoardInfo(last, len(self.played), points, movable, to_play)

    # -- commands ---------------------------------------------------------------------

    def handle(self, command: Command) -> tuple[bool, str]:
        """Run a command: (success, the response text). Every failure's text is one line,
        escaped and cut (:func:`solver.gtp.protocol.failure_text`)."""
        try:
            handler = self.commands.get(command.name)
            if handler is None:
                raise GtpError(f"unknown command ({command.name})")
            return True, handler(command)
        except (GtpError, InputError) as e:
            message = str(e)
        except Exception as e:  # a bug: answered, the engine goes on (BLOKUS_DEBUG=1 raises)
            if os.environ.get("BLOKUS_DEBUG"):
                raise
            message = f"internal error (please report): {type(e).__name__}: {e}"
        return False, failure_text(message)

    def ask(self, line: str) -> tuple[bool, str]:
        """Run one command line, as a controller would send it: (success, response text).

        Raises:
            ValueError: the line is blank or a comment (GTP gives it no response).
        """
        command = parse_line(line)
        if command is None:
            raise ValueError(f"not a command: {line!r}")
        return self.handle(command)

    def all_legal(self, command: Command) -> str:
        """``all_legal COLOUR``: every legal move, one a line."""
        colour = self.one_colour(command)
        return "".join(m + "\n" for m in legal_texts(self.position, colour))

    def clear_board(self, command: Command) -> str:
        """``clear_board``: a new game of the current variant."""
        command.check_size(0)
        self.new_game(self.variant)
        return ""

    def cputime(self, command: Command) -> str:
        """``cputime``: CPU seconds used by this process (as C++ prints a double)."""
        command.check_size(0)
        return f"{time.process_time():.6g}"

    def final_score(self, command: Command) -> str:
        """``final_score``: ``B+n``, ``W+n`` or ``0`` in two-player variants (player 1's
        colours' points less player 2's), else every colour's points."""
        command.check_size(0)
        colours = self.variant.colours
        players = self.variant.seats
        if len(set(players)) > 2:
            return "".join(f"{self.points(c)} " for c in colours)
        score = sum(self.points(c) * (1 if p == 0 else -1) for c, p in zip(colours, players))
        return f"B+{score}" if score > 0 else f"W+{-score}" if score < 0 else "0"

    def generate(self, colour: str, play: bool) -> str:
        """A move for ``colour`` (``pass`` if it has none), played if ``play``."""
        move = choose(
            self.position,
            colour,
            self.opponents(colour),
            self.rng,
            self.settings,
            self.rng.randrange(2**31 - 1),
        )
        if move is None:
            return "pass"
        text = self.move_text(move)
        if play:
            self.put(colour, move)
        return text

    def genmove(self, command: Command) -> str:
        """``genmove COLOUR``: choose a move and play it."""
        return self.generate(self.one_colour(command), play=True)

    def reg_genmove(self, command: Command) -> str:
        """``reg_genmove COLOUR``: choose a move, do not play it."""
        return self.generate(self.one_colour(command), play=False)

    def g(self, command: Command) -> str:
        """``g``: ``genmove`` for the colour to play (the next one that has a move)."""
        command.check_size(0)
        return self.generate(self.board_info().to_play or self.variant.colours[0], play=True)

    def known_command(self, command: Command) -> str:
        """``known_command NAME``: ``true`` or ``false``."""
        command.check_size(1)
        return "true" if command.arg(0) in self.commands else "false"

    def list_commands(self, command: Command) -> str:
        """``list_commands``: the commands, one a line, sorted."""
        command.check_size(0)
        return "".join(name + "\n" for name in sorted(self.commands))

    def loadsgf(self, command: Command) -> str:
        """``loadsgf FILE [N]``: the position before the N-th placement (default: the end
        of the main line; an N past the end also gives the end)."""
        command.check_at_most(2)
        path = command.arg(0)
        number = command.int_arg(1, least=1) if len(command.words) == 2 else None  # an int
        self.load(load_game(path), number)
        return ""

    def load(self, game: Game, number: int | None = None) -> None:
        """Set up a game record at the position before its ``number``-th placement (from
        1; None or past the end: the end), its earlier moves ready for ``undo``."""
        end = game.num_placements
        upto = end if number is None else min(number - 1, end)
        self.new_game(game.variant, game.position(0))
        placements = [m for m in game.moves if m.placement is not None]
        for k in range(upto):
            move = placements[k]
            assert move.placement is not None
            self.played.append(Played(move.colour, move.placement, game.position(k + 1)))

    def name(self, command: Command) -> str:
        """``name``: this program's name."""
        command.check_size(0)
        return NAME

    def play(self, command: Command) -> str:
        """``play COLOUR MOVE``."""
        colour = self.colour_arg(command.arg(0))
        self.put(colour, self.parse_move(colour, command.rest_after(0)))
        return ""

    def p(self, command: Command) -> str:
        """``p MOVE``: ``play`` for the colour to play."""
        colour = self.position.to_move or self.variant.colours[0]
        self.put(colour, self.parse_move(colour, command.rest))
        return ""

    def protocol_version(self, command: Command) -> str:
        """``protocol_version``: 2 (GTP version 2)."""
        command.check_size(0)
        return "2"

    def do_quit(self, command: Command) -> str:
        """``quit``: end the command loop."""
        command.check_size(0)
        self.quit = True
        return ""

    def savesgf(self, command: Command) -> str:
        """``savesgf FILE``: the game so far as Pentobi SGF: its start, every move, and a
        loaded file's setup in mid-game where it was (after the move it followed)."""
        command.check_size(1)
        moves = [(p.colour, p.placement) for p in self.played]
        text = write_moves(self.start, moves, after=[p.after for p in self.played])
        path = command.arg(0)
        check_output(path, where="savesgf")  # one line naming the file, as --out's
        write_text_atomic(path, text)
        return ""

    def set_game(self, command: Command) -> str:
        """``set_game VARIANT``: a new game of that variant (``Blokus Duo``, ...)."""
        self.new_game(parse_game(command.rest))
        return ""

    def set_random_seed(self, command: Command) -> str:
        """``set_random_seed N``: restart ``genmove``'s random generator."""
        command.check_size(1)
        self.seed = command.int_arg(0, least=0, most=SEED_MAX)
        self.rng = random.Random(self.seed)
        return ""

    def showboard(self, command: Command) -> str:
        """``showboard``: the board as Pentobi prints it."""
        command.check_size(0)
        return "\n" + board_text(self.position, self.board_info())

    def undo(self, command: Command) -> str:
        """``undo``: take back the last move."""
        command.check_size(0)
        if not self.played:
            raise GtpError("cannot undo")
        self.played.pop()
        return ""

    def version(self, command: Command) -> str:
        """``version``: this program's version."""
        command.check_size(0)
        return package_version()
