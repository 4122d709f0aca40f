"""Games between two GTP engines, refereed by our rules, in the manner of Pentobi's
``twogtp``: ``blokus-solo match`` (docs/commands.md).

The engines are *black* and *white*, as twogtp names them. In game ``n`` (from 1) black
plays the colours of player ``(n - 1) mod P`` and white those of every other player, P
being the variant's players: two in Duo, Junior and Two-Player (there the colours of a
player: blue and red, or yellow and green), four in Classic (a colour each), three in
Three-Player (blue, yellow, red; green is played in turn by each, as its pieces on the
board number, Pentobi's ``get_alt_player``). So the engines take turns at moving first.

The colour to move is the next colour in turn order that has a legal move (Pentobi's
``get_effective_to_play``); the game ends when no colour has one. The engine of that colour
is asked ``genmove``, its answer is parsed and checked by our rules
(:meth:`solver.gtp.control.GtpEngine.genmove`), and the other engine is told it with
``play``. Points are Pentobi's (squares on the board, +15 for a colour with every piece
placed, +5 more if its last was the monomino; no bonus in Junior). A game's result for
black is Pentobi's: in two-player variants 1, 0.5 or 0 (win, draw, loss); with more
players the rank of black's player among the players' points from 0 (last) to 1 (first),
tied ranks averaged (``get_multiplayer_result``), which counts as a win above 0.5, a loss
below. White's result is 1 less black's. A resignation (two-player variants only, as in
twogtp) loses the game.

An engine's fault *forfeits* the game: a move our rules refuse (or a pass with a legal
move, or squares that are no move), a ``?`` answer to ``genmove``, a legal move refused by
the engine told it (``play``), a resignation where there are more than two players, no
answer in time, or an engine that stops. The game ends there, lost by the side at fault
(result 0, whatever the points), and its record and rows are written with the reason
(the error's message, naming the engine and the command). Where twogtp stops at the first
illegal move, the match goes on to its next game while the engine at fault still runs; an
engine that has stopped (or was stopped past its time) ends the match after its
forfeited game is written (:class:`EngineFailed`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from solver.core.pieces import MONOMINO
from solver.core.placements import legal_moves
from solver.core.position import Placement, Position
from solver.core.variants import ALL_VARIANTS, Variant
from solver.errors import InputError
from solver.formats.files import write_text_atomic
from solver.formats.game import start_position, write_moves
from solver.gtp.control import EngineError, GtpEngine, Limit

#: ``--game``: Pentobi's variant ids and abbreviations (its GM names and ours are read too)
PENTOBI_IDS: dict[str, str] = {i: v.name for v in ALL_VARIANTS.values() for i in v.pentobi_ids}

#: the two engines' names in the results, in order
SIDES = ("black", "white")


class EngineFailed(EngineError):
    """An engine stopped (crashed, or was ended past its time) in a game of a match: that
    game is written, forfeited, and the match can go no further.

    Attributes:
        games: the games played, this one (forfeited) last.
    """

    def __init__(self, message: str, games: Sequence[GameResult]):
        super().__init__(message)
        self.games = list(games)


def variant_named(text: str) -> Variant:
    """The variant ``text`` names: ours (``duo``, ``classic2``, ``trigon3``), Pentobi's GM
    name (``Blokus Duo``, ``Blokus Trigon``) or its id (``classic_2``, ``d``, ``t3``), in
    any case.

    Raises:
        InputError: no such variant (``where="--game"``).
    """
    key = " ".join(text.split()).lower()
    for v in ALL_VARIANTS.values():
        if key in (v.name, v.sgf_name.lower()):
            return v
    if key in PENTOBI_IDS:
        return ALL_VARIANTS[PENTOBI_IDS[key]]
    raise InputError(
        f"unknown variant {text!r} (ours: {', '.join(ALL_VARIANTS)}; or Pentobi's names and ids)",
        where="--game",
    )


def points(position: Position, colour: str) -> int:
    """Pentobi's points of a colour: its squares, +15 if it placed every piece and +5 more
    if its last piece was the monomino (none in a variant without the bonus)."""
    state = position.colour(colour)
    bonus = 0
    if position.bonus and not state.remaining and state.placed:
        bonus = 15 + (5 if state.last_piece == MONOMINO else 0)
    return len(state.squares) + bonus


def player_of(variant: Variant, position: Position, colour: str) -> int:
    """The player (0 to P - 1) who moves ``colour`` now (Three-Player's green: by its
    pieces on the board)."""
    k = variant.colours.index(colour)
    if variant.name == "classic3" and k == 3:
        return len(position.colour(colour).placed) % 3
    return k % variant.players


def player_points(variant: Variant, position: Position) -> list[int]:
    """Each player's points (Three-Player's green counts for no one)."""
    out = [0] * variant.players
    for k, colour in enumerate(variant.colours):
        if variant.name != "classic3" or k < 3:
            out[k % len(out)] += points(position, colour)
    return out


def rank_result(scores: Sequence[int], player: int) -> float:
    """Pentobi's result of a player: 1, 0.5, 0 with two players; with more, its rank
    among the points from 0 (last) to 1 (first), tied ranks averaged."""
    ranked = sorted(scores)
    tied = [k for k, s in enumerate(ranked) if s == scores[player]]
    return sum(tied) / len(tied) / (len(scores) - 1)


@dataclass(frozen=True)
class GameResult:
    """One finished game.

    Attributes:
        number: the game's number, from 1.
        variant: the variant.
        black_player: the player black moved (0 to P - 1; white moved the others).
        moves: (colour, placement) in order of play, each checked by our rules.
        movers: the side of each move: 0 black, 1 white.
        final: the last position.
        points: (black's, white's) points: the sums over the players each moved.
        result: black's result, 0 to 1 (white's is 1 less it).
        resigned: the side that resigned ("black", "white"), or None.
        forfeit: the side that forfeited the game by a fault ("black", "white"), or None.
        reason: why the game ended early: the fault's message (naming the engine and the
            command), or "black resigned" / "white resigned"; empty for a game played out.
        record: the game record's file, if written.
    """

    number: int
    variant: Variant
    black_player: int
    moves: tuple[tuple[str, Placement], ...]
    movers: tuple[int, ...]
    final: Position
    points: tuple[int, int]
    result: float
    resigned: str | None
    forfeit: str | None = None
    reason: str = ""
    record: Path | None = None

    def colours_of(self, side: str) -> tuple[str, ...]:
        """The colours a side plays, in turn order: those of its player(s); Three-Player's
        green where the side moved it (either may)."""
        k = SIDES.index(side)
        players = self.variant.players
        moved = {colour for (colour, _), mover in zip(self.moves, self.movers) if mover == k}
        out = []
        for i, colour in enumerate(self.variant.colours):
            if self.variant.name == "classic3" and i == 3:
                if colour in moved:
                    out.append(colour)
            elif (i % players == self.black_player) == (k == 0):
                out.append(colour)
        return tuple(out)


def effective_to_play(position: Position, variant: Variant, stuck: set[str]) -> str | None:
    """The next colour in turn order from ``position.to_move`` with a legal move (None:
    the game is over); colours found without one are added to ``stuck`` (a placement
    never gives a colour a move back)."""
    colours = variant.colours
    first = colours.index(position.to_move or colours[0])
    for i in range(len(colours)):
        colour = colours[(first + i) % len(colours)]
        if colour in stuck:
            continue
        if legal_moves(position, colour):
            return colour
        stuck.add(colour)
    return None


def play_game(
    black: GtpEngine, white: GtpEngine, variant: Variant, number: int, limit: Limit | None = None
) -> GameResult:
    """Play game ``number`` (from 1) between the engines, every move checked.

    An engine's fault in the game (a move our rules refuse, a failed ``genmove`` or
    ``play``, a resignation with more than two players, no answer in time, a crash) is
    not raised: the game ends there, forfeited by that engine (:attr:`GameResult.forfeit`,
    :attr:`GameResult.reason`).

    Raises:
        EngineError: an engine refused the new game (``set_game``).
    """
    players = variant.players
    seat = (number - 1) % players
    for engine in (black, white):
        engine.new_game(variant)
    position = start_position(variant.name)
    moves: list[tuple[str, Placement]] = []
    movers: list[int] = []
    stuck: set[str] = set()
    resigned: str | None = None
    fault: tuple[int, str] | None = None  # (the side at fault, why)
    while (colour := effective_to_play(position, variant, stuck)) is not None:
        side = 0 if player_of(variant, position, colour) == seat else 1
        mover, other = (black, white) if side == 0 else (white, black)
        try:
            answer = mover.genmove(colour, limit)
        except EngineError as e:  # (IllegalMove, EngineTimeout, a "?" answer, a crash)
            fault = (side, str(e))
            break
        if answer.resigned:
            if players > 2:
                fault = (
                    side,
                    f"{mover.client.label}: resigned in {variant.sgf_name}, where there are "
                    f"{players} players (a resignation counts only with two)",
                )
            else:
                resigned = SIDES[side]
            break
        assert answer.move is not None  # (a pass of a colour with a legal move is refused)
        try:
            other.tell(colour, answer.move)
        except EngineError as e:  # a legal move refused, or the engine stopped
            fault = (1 - side, f"{e} (a legal move)")
            break
        moves.append((colour, answer.move))
        movers.append(side)
        position = answer.after(position)
    scores = player_points(variant, position)
    mine = scores[seat]
    theirs = sum(scores) - mine
    forfeit, reason = None, ""
    if fault is not None:
        forfeit, reason = SIDES[fault[0]], fault[1]
        result = 0.0 if forfeit == "black" else 1.0
    elif resigned is not None:
        result = 0.0 if resigned == "black" else 1.0
        reason = f"{resigned} resigned"
    else:
        result = rank_result(scores, seat)
    return GameResult(
        number,
        variant,
        seat,
        tuple(moves),
        tuple(movers),
        position,
        (mine, theirs),
        result,
        resigned,
        forfeit,
        reason,
    )


def record_text(game: GameResult, names: Sequence[str]) -> str:
    """The game as a ``.blksgf`` record (``GN``: the game's number and the engines; a
    game that ended early says why in a comment, ``C``, on its last node)."""
    title = f"game {game.number}: black {names[0]}, white {names[1]}"
    comment = None
    if game.forfeit is not None:
        comment = f"{game.forfeit} forfeits: {game.reason}"
    elif game.resigned is not None:
        comment = game.reason
    return write_moves(start_position(game.variant.name), game.moves, name=title, comment=comment)


@dataclass(frozen=True)
class Standing:
    """One engine's results so far.

    Attributes:
        side: "black" or "white".
        name: the engine's name (its answer to ``name``) and its command.
        games, wins, draws, losses: counts (a win: a result above 0.5).
        forfeits: the games it lost by a fault of its own (among the losses).
        result: the mean result, 0 to 1 (twogtp's ``Res``).
        points: the mean points of the players it moved, per game.
    """

    side: str
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    result: float
    points: float


def standings(games: Sequence[GameResult], names: Sequence[str]) -> list[Standing]:
    """Each engine's results over ``games`` (black first)."""
    out = []
    for k, side in enumerate(SIDES):
        results = [g.result if k == 0 else 1 - g.result for g in games]
        n = len(games)
        out.append(
            Standing(
                side,
                names[k],
                n,
                sum(r > 0.5 for r in results),
                sum(r == 0.5 for r in results),
                sum(r < 0.5 for r in results),
                sum(g.forfeit == side for g in games),
                sum(results) / n if n else 0.0,
                sum(g.points[k] for g in games) / n if n else 0.0,
            )
        )
    return out


def table_text(rows: Sequence[Standing]) -> str:
    """The standings as a text table, one engine a line."""
    head = ("engine", "name", "games", "wins", "draws", "losses", "forfeits", "result", "points")
    body = [
        (
            r.side,
            r.name,
            str(r.games),
            str(r.wins),
            str(r.draws),
            str(r.losses),
            str(r.forfeits),
            f"{100 * r.result:.1f}%",
            f"{r.points:.1f}",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    lines = []
    for row in (head, *body):
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def games_csv(games: Sequence[GameResult]) -> str:
    """One row per game: its number, record file, the colours each engine moved, moves,
    points, black's result, who resigned, who forfeited and why the game ended early."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "game",
            "record",
            "black_colours",
            "white_colours",
            "moves",
            "black_points",
            "white_points",
            "black_result",
            "resigned",
            "forfeit",
            "reason",
        ]
    )
    for g in games:
        writer.writerow(
            [
                g.number,
                g.record.name if g.record else "",
                " ".join(g.colours_of("black")),
                " ".join(g.colours_of("white")),
                len(g.moves),
                g.points[0],
                g.points[1],
                f"{g.result:g}",
                g.resigned or "",
                g.forfeit or "",
                g.reason,
            ]
        )
    return out.getvalue()


def standings_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV (the table's columns)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["engine", "name", "games", "wins", "draws", "losses", "forfeits", "result", "points"]
    )
    for r in rows:
        writer.writerow(
            [
                r.side,
                r.name,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.forfeits,
                f"{r.result:.4f}",
                f"{r.points:.2f}",
            ]
        )
    return out.getvalue()


def record_name(number: int) -> str:
    """The file name of game ``number``'s record."""
    return f"game-{number:04d}.blksgf"


def run_match(
    black: GtpEngine,
    white: GtpEngine,
    variant: Variant,
    games: int,
    out: Path,
    limit: Limit | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games, writing after each (atomically) its record
    (``game-0001.blksgf``, ...) and the tables so far (``games.csv``, ``results.csv``)
    into the folder ``out`` (made if missing).

    Args:
        progress: called with each game as it ends.

    Returns:
        The games, in order.

    Raises:
        EngineFailed: an engine stopped in a game (crashed, or was ended past its time):
            that game is written, forfeited, with those before it.
        EngineError: an engine refused a new game (the games before it are written).
    """
    names = [f"{e.name} {e.version}".strip() for e in (black, white)]
    out.mkdir(parents=True, exist_ok=True)
    done: list[GameResult] = []
    for number in range(1, games + 1):
        game = play_game(black, white, variant, number, limit)
        path = out / record_name(number)
        write_text_atomic(path, record_text(game, names))
        game = replace(game, record=path)
        done.append(game)
        write_text_atomic(out / "games.csv", games_csv(done))
        write_text_atomic(out / "results.csv", standings_csv(standings(done, names)))
        if progress is not None:
            progress(game)
        at_fault = {"black": black, "white": white}.get(game.forfeit or "")
        if at_fault is not None and not at_fault.alive:
            raise EngineFailed(f"game {number}: {game.reason}", done)
    return done
