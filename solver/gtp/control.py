"""Other GTP engines from Python, in the manner of python-chess's ``chess.engine``: start
an engine, give it one of our positions, ask for a move within a limit, and get one of our
placements back, checked by our rules.

    with GtpEngine.popen_pentobi(level=1) as engine:
        result = engine.play(position, Limit(time=30))
        position = position.with_placement(result.colour, result.move)

An engine is any program that speaks GTP in Pentobi's dialect (``pentobi-gtp``, ours:
``blokus-solo gtp``), run as a child process by :class:`solver.gtp.client.Client`. The
position goes to the engine as a Pentobi game record (``loadsgf`` of a temporary file,
which carries setup as well as moves; both engines read it), or as one ``play`` when it
is the position the engine holds plus one legal move. Every move an engine answers is
parsed and checked by :func:`solver.core.rules.move_problem` (and a pass by the legal
move list) before it is given back: an engine's illegal move is an :class:`IllegalMove`
naming the engine and the command.

GTP has no command that gives an engine time to think: Pentobi's strength is its
``--level`` at start-up (:meth:`GtpEngine.popen_pentobi`), ours its ``--time-limit``
(:meth:`GtpEngine.popen_blokus_solo`). A :class:`Limit`'s ``time`` is the answer's
deadline, as a referee's clock: past it the engine is ended and :class:`EngineTimeout`
raised (GTP cannot stop a search).
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.rules import move_problem, shape_name
from solver.core.variants import ALL_VARIANTS, Variant, colour_id
from solver.errors import InputError, SquareError
from solver.formats.files import write_text_atomic
from solver.formats.game import squares_text, start_position, write_sgf
from solver.gtp.client import Client, EngineError, EngineTimeout

__all__ = [
    "EngineError",
    "EngineTimeout",
    "GtpEngine",
    "IllegalMove",
    "Limit",
    "PlayResult",
    "blokus_solo_command",
    "find_pentobi",
    "pentobi_command",
]

#: seconds an engine has to answer a command that is not given a limit of its own
DEFAULT_TIMEOUT = 60.0

#: seconds an engine has, at the least, for its first answer (``name``): its start-up
STARTUP_TIMEOUT = 60.0


class IllegalMove(EngineError):
    """An engine answered a move our rules refuse: squares that are no piece of the set
    or not on the board, a piece the colour has not left, a move that breaks a rule
    (the message says which), or a pass while the colour has a legal move."""


@dataclass(frozen=True)
class Limit:
    """What one move may take.

    Attributes:
        time: seconds the engine has to answer (wall time, finite, 0 or more; None: the
            engine's ``timeout``). Past it the engine is ended and :class:`EngineTimeout`
            raised: GTP can neither tell an engine its time nor stop its search, so this
            is a deadline, not thinking time (an engine's strength is set at start-up).

    Raises:
        InputError: ``time`` is negative, not finite or not a number.
    """

    time: float | None = None

    def __post_init__(self) -> None:
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, (int, float))
            or not math.isfinite(self.time)
            or self.time < 0
        ):
            raise InputError(f"expected seconds, 0 or more, got {self.time!r}", where="time")


@dataclass(frozen=True)
class PlayResult:
    """An engine's answer to :meth:`GtpEngine.play` or :meth:`GtpEngine.genmove`.

    Attributes:
        colour: the colour that moved (our name: ``purple``, ``blue``, ...).
        move: the placement, checked by our rules in the position it was asked in; None
            for a pass (the colour had no legal move) or a resignation.
        text: the engine's answer as it printed it (``e8,d9,e9,f9,e10``, ``pass``).
        resigned: the engine resigned (Pentobi does unless started with ``--noresign``).
    """

    colour: str
    move: Placement | None
    text: str
    resigned: bool = False

    def after(self, position: Position) -> Position:
        """``position`` after this move (or pass), the next colour in turn to move (as
        python-chess's ``board.push(result.move)``).

        Raises:
            InputError: a resignation (no move to make), or ``position`` is not of a
                built-in variant.
        """
        if self.resigned:
            raise InputError(f"{self.colour} resigned: there is no move to make")
        v = ALL_VARIANTS.get(position.variant)
        if v is None:
            raise InputError(f"not a position of a built-in variant: {position.variant!r}")
        return _after(position, v, self.colour, self.move)


def find_pentobi() -> str | None:
    """Pentobi's GTP engine: ``$PENTOBI_GTP``, or ``pentobi-gtp`` on the PATH (None if
    neither is there)."""
    found = os.environ.get("PENTOBI_GTP") or shutil.which("pentobi-gtp")
    return found if found and Path(found).exists() else None


def pentobi_command(
    path: str | None = None,
    *,
    level: int = 1,
    seed: int | None = None,
    threads: int = 1,
    resign: bool = False,
) -> list[str]:
    """The command line of Pentobi's engine without its opening book (``--nobook``) and
    its log (``--quiet``).

    Args:
        path: the program (default: :func:`find_pentobi`).
        level: its playing strength, 1 to 9 (Pentobi's ``--level``; its own default is 4).
        seed: its random seed (deterministic moves with one thread); None: Pentobi's own.
        threads: search threads.
        resign: let ``genmove`` answer ``resign`` (Pentobi's default; off here).

    Raises:
        InputError: no Pentobi engine found, or a level outside 1-9.
    """
    program = path or find_pentobi()
    if program is None:
        raise InputError(
            "Pentobi's GTP engine not found (set PENTOBI_GTP or put pentobi-gtp on PATH)"
        )
    if not 1 <= level <= 9:
        raise InputError(f"Pentobi's levels are 1 to 9, not {level}", where="level")
    argv = [program, "--nobook", "--quiet", "--level", str(level), "--threads", str(threads)]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv if resign else [*argv, "--noresign"]


def blokus_solo_command(
    *, time_limit: float = 0.0, seed: int = 0, endgame_pieces: int | None = None
) -> list[str]:
    """The command line of our engine, ``blokus-solo gtp``, run by this Python.

    Args:
        time_limit: seconds of its exact endgame search per move (0, the default: its
            one-move heuristic alone, the quickest).
        seed: its random seed.
        endgame_pieces: pieces left when its endgame search starts (None: its default, 7).
    """
    argv = [sys.executable, "-c", "from solver.cli.commands import main; main()", "gtp"]
    argv += ["--time-limit", f"{time_limit:g}", "--seed", str(seed)]
    if endgame_pieces is not None:
        argv += ["--endgame-pieces", str(endgame_pieces)]
    return argv


def gtp_colour(variant: Variant, colour: str) -> str:
    """A colour as GTP names it: ``b``/``w`` with two colours, ``1``..``4`` with four."""
    return colour_id(variant, colour).lower()


def parse_move(position: Position, colour: str, text: str) -> Placement:
    """An engine's move (squares comma-separated, any order and case) in ``position``,
    checked by our rules.

    Raises:
        IllegalMove: the text is not squares of the board forming a piece of the set, or
            the move breaks a rule (the message says which; it names no engine: the
            caller adds it).
    """
    board = position.board
    try:
        squares = [board.parse(name) for name in text.split(",")]
    except SquareError as e:
        raise IllegalMove(f"not a move: {e.message}") from None
    piece = shape_name(board, squares)
    if piece is None or len(set(squares)) != len(squares):
        raise IllegalMove("not a move: its squares form no piece of the set")
    placement = Placement(piece, frozenset(squares))
    problem = move_problem(position, colour, placement)
    if problem:
        raise IllegalMove(f"an illegal move: {problem}")
    return placement


def _one_move_on(held: Position, position: Position) -> tuple[str, Placement] | None:
    """(colour, placement) when ``position`` is ``held`` plus one legal move, else None."""
    if held.variant != position.variant or held.board != position.board:
        return None
    changed = [(a, b) for a, b in zip(held.colours, position.colours) if a != b]
    if len(changed) != 1:
        return None
    before, after = changed[0]
    if len(after.placed) != len(before.placed) + 1 or after.placed[:-1] != before.placed:
        return None
    placement = after.placed[-1]
    if move_problem(held, before.name, placement):
        return None
    if held.with_placement(before.name, placement).colours != position.colours:
        return None
    return before.name, placement


def _after(position: Position, variant: Variant, colour: str, move: Placement | None) -> Position:
    """The position after ``colour``'s move (or pass), the next colour to move."""
    colours = variant.colours
    if move is not None:
        position = position.with_placement(colour, move)
    return replace(position, to_move=colours[(colours.index(colour) + 1) % len(colours)])


class GtpEngine:
    """A GTP engine in Pentobi's dialect, driven with our positions and placements.

    Use it as a context manager (``with``), or call :meth:`quit`.

    Args:
        argv: the command that starts the engine (a list, or one string split as a shell
            splits it).
        timeout: seconds any command may take (None: no limit); :class:`Limit` gives a
            move a time of its own. The first command, ``name``, has at least
            :data:`STARTUP_TIMEOUT` (the program's start-up).
        label: how error messages name the engine (default: the name it answers,
            ``Pentobi``, ``blokus-solo``).
        stderr: pass the engine's standard error through (default: discard it).

    Attributes:
        name: what the engine answers to ``name``.
        version: what it answers to ``version`` (empty if it lacks the command).
        commands: what it answers to ``list_commands``.

    Raises:
        EngineError: the engine cannot be started, or fails ``name`` or ``list_commands``.
    """

    def __init__(
        self,
        argv: str | Sequence[str],
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        label: str | None = None,
        stderr: bool = False,
    ):
        self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        if not self.argv:
            raise EngineError("no engine command given")
        self.timeout = timeout
        try:
            self.client = Client(self.argv, stderr=stderr, label=label)
        except OSError as e:
            raise EngineError(f"cannot start {self.argv[0]}: {e.strerror or e}") from None
        self._folder = tempfile.TemporaryDirectory(prefix="blokus-solo-gtp-")
        try:
            first = None if timeout is None else max(timeout, STARTUP_TIMEOUT)
            self.name = self.command("name", first)
            self.client.label = label or self.name or self.argv[0]
            known = self.client.ask("version", self.timeout)
            self.version = known[1] if known[0] else ""
            self.commands = frozenset(self.command("list_commands").split())
        except BaseException:
            self.quit()
            raise
        #: the position the engine holds, as far as we know (None: not known)
        self.held: Position | None = None

    # -- starting ---------------------------------------------------------------------

    @classmethod
    def popen(
        cls, argv: str | Sequence[str], *, timeout: float | None = DEFAULT_TIMEOUT
    ) -> GtpEngine:
        """Start any GTP engine (``GtpEngine(argv)``), as ``chess.engine``'s ``popen_uci``."""
        return cls(argv, timeout=timeout)

    @classmethod
    def popen_pentobi(
        cls,
        path: str | None = None,
        *,
        level: int = 1,
        seed: int | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> GtpEngine:
        """Start Pentobi's engine (:func:`pentobi_command`: no book, no resigning).

        Raises:
            InputError: no Pentobi engine found, or a bad level.
            EngineError: it does not start.
        """
        return cls(pentobi_command(path, level=level, seed=seed), timeout=timeout)

    @classmethod
    def popen_blokus_solo(
        cls,
        *,
        time_limit: float = 0.0,
        seed: int = 0,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> GtpEngine:
        """Start our engine, ``blokus-solo gtp`` (:func:`blokus_solo_command`; by default
        its heuristic alone, the quickest)."""
        return cls(blokus_solo_command(time_limit=time_limit, seed=seed), timeout=timeout)

    # -- commands ---------------------------------------------------------------------

    def command(self, line: str, timeout: float | None = None) -> str:
        """Send one GTP command line that must succeed; its answer's text.

        Args:
            timeout: seconds to wait for it (None: the engine's ``timeout``).

        Raises:
            EngineTimeout: no answer in time (the engine has been ended).
            EngineError: the engine answered ``?`` (the message names the engine and the
                command and gives the engine's text), or stopped.
        """
        return self.client.send(line, self.timeout if timeout is None else timeout)

    def new_game(self, variant: Variant | str) -> None:
        """A new game on the engine: ``set_game`` with the variant's Pentobi name.

        Raises:
            InputError: not a variant of ours (``duo``, ``classic``, ...).
            EngineError: the engine refuses it.
        """
        v = variant if isinstance(variant, Variant) else ALL_VARIANTS.get(variant)
        if v is None:
            raise InputError(f"unknown variant {variant!r} (variants: {', '.join(ALL_VARIANTS)})")
        self.held = None
        self.command(f"set_game {v.sgf_name}")
        self.held = start_position(v.name)

    def set_position(self, position: Position) -> None:
        """Make ``position`` the engine's: nothing if it holds it already, one ``play``
        if it is the engine's position plus one legal move, else ``loadsgf`` of a
        temporary game record (:func:`solver.formats.game.write_sgf`: the moves, or the
        pieces as setup where they do not replay as moves).

        Raises:
            InputError: not a position of a built-in variant (a custom board).
            EngineError: the engine refuses it.
        """
        held = self.held
        if held is not None and held.variant == position.variant:
            if held.board == position.board and held.colours == position.colours:
                self.held = replace(held, to_move=position.to_move)
                return
            step = _one_move_on(held, position)
            if step is not None:
                self.tell(*step)
                self.held = replace(self.held or position, to_move=position.to_move)
                return
        text = write_sgf(position)  # (InputError for a custom board, before the engine)
        path = Path(self._folder.name) / "position.blksgf"
        write_text_atomic(path, text)
        self.held = None
        self.command(f'loadsgf "{path}"' if " " in str(path) else f"loadsgf {path}")
        self.held = position

    def tell(self, colour: str, placement: Placement) -> None:
        """Tell the engine a move played in the position it holds (``play``).

        Raises:
            InputError: the engine's position is not known (no :meth:`new_game` or
                :meth:`set_position` before), or the move is illegal there (our rules).
            EngineError: the engine refuses it.
        """
        held = self._held_position()
        problem = move_problem(held, colour, placement)
        if problem:
            raise InputError(
                f"{colour}'s move {squares_text(held.board, placement.squares)}: {problem}"
            )
        variant = ALL_VARIANTS[held.variant]
        self.held = None
        self.command(
            f"play {gtp_colour(variant, colour)} {squares_text(held.board, placement.squares)}"
        )
        self.held = _after(held, variant, colour, placement)

    def genmove(self, colour: str, limit: Limit | None = None) -> PlayResult:
        """The engine's move for ``colour`` in the position it holds (``genmove``: the
        engine plays it), checked by our rules.

        Raises:
            InputError: the engine's position is not known, or no such colour.
            IllegalMove: the engine answered a move our rules refuse, or passed with a
                legal move (the message names the engine and the command).
            EngineTimeout: no answer within the limit's time (or the engine's timeout).
            EngineError: the engine failed the command or stopped.
        """
        held = self._held_position()
        variant = ALL_VARIANTS[held.variant]
        held.colour(colour)  # (InputError: not a colour here)
        line = f"genmove {gtp_colour(variant, colour)}"
        time = limit.time if limit is not None and limit.time is not None else self.timeout
        self.held = None  # (unknown until the answer is read and checked)
        text = self.client.send(line, time).strip()
        answer = text.lower()
        if answer == "resign":
            self.held = held
            return PlayResult(colour, None, text, resigned=True)
        move: Placement | None = None
        try:
            if answer == "pass":
                legal = legal_moves(held, colour)
                if legal:
                    raise IllegalMove(f"a pass, with {len(legal)} legal moves")
            else:
                move = parse_move(held, colour, text)
        except IllegalMove as e:
            raise IllegalMove(f"{self.client.label}: {line!r} answered {text!r}: {e}") from None
        self.held = _after(held, variant, colour, move)
        return PlayResult(colour, move, text)

    def play(
        self, position: Position, limit: Limit | None = None, *, colour: str | None = None
    ) -> PlayResult:
        """The engine's move in ``position`` (:meth:`set_position`, then :meth:`genmove`).

        Args:
            position: a position of a built-in variant (any: moves or setup).
            limit: the answer's deadline (None: the engine's timeout).
            colour: the colour to move (default: ``position.to_move``).

        Raises:
            InputError: no colour to move given or known, or a custom board.
            IllegalMove, EngineTimeout, EngineError: as :meth:`genmove`.
        """
        mover = colour or position.to_move
        if mover is None:
            raise InputError("no colour to move: give colour=")
        position.colour(mover)
        self.set_position(position)
        return self.genmove(mover, limit)

    def final_score(self) -> str:
        """The engine's ``final_score``: ``B+n``, ``W+n`` or ``0`` in two-player variants,
        every colour's points in the others."""
        return self.command("final_score")

    @property
    def alive(self) -> bool:
        """The engine's process is still running (False after :meth:`quit`, a crash, or a
        deadline missed: :class:`EngineTimeout` ends it)."""
        return self.client.process.poll() is None

    def _held_position(self) -> Position:
        if self.held is None:
            raise InputError(
                "the engine's position is not known: new_game() or set_position() first"
            )
        return self.held

    # -- ending -------------------------------------------------------------------------

    def quit(self) -> None:
        """End the engine (``quit``; killed if it does not end in 10 s) and remove the
        temporary folder."""
        self.client.close()
        self._folder.cleanup()

    def __enter__(self) -> GtpEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<GtpEngine {self.client.label!r} ({shlex.join(self.argv)})>"
