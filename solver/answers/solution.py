"""Solution files (JSON): writing a checked answer and reading one back for ``verify``.

Format (keys beyond these may be added; readers ignore unknown keys)::

    {"format": "blokus-solo-solution/1", "title": "...", "puzzle": "puzzles/x.toml",
     "variant": "custom", "rows": 5, "cols": 5, "blocked": ["c3"],
     "goal": "place-all", "monomino_last": false, "cover": ["c4"], "connect": [],
     "status": "solved", "backend": "search", "seconds": 0.01, "score": 15, "bound": null,
     "colours": [{"name": "blue", "start": "a5", "played": true, "existing": 0,
                  "placements": [{"piece": "V3", "squares": ["a5", "a4", "b4"]}, ...],
                  "remaining": [], "score": 15, "all_placed": true, "monomino_last": false}]}

``placements`` are in a legal order of play: the ``existing`` pieces already on the board
first, then the ones the solver added.

A file written by ``check --out`` (and each one ``batch`` writes for a game position) also
has ``"endgame"``: the colour's endgame answer, :func:`solver.tasks.endgame.answer_record`, e.g.
``{"colour": "blue", "left": 3, "squares_left": 12, "answer": "no",
"place_all_status": "infeasible", "score": null, "best": -4, "best_status": "optimal",
"bound": -4, "seconds": 0.02, "backend": "search"}``; the file itself is then the answer's
layout: the place-all layout after a yes, the best layout (goal max-score) after a no, no
layout after unknown.

``"puzzle"`` is the puzzle's path as it was given (for display), ``"puzzle_path"`` the
same file's absolute path when it was written (a relative ``puzzle`` alone would be read
against whatever folder ``verify`` runs in).

``"made_by"`` names the command that wrote the file (``solve``, ``check``, ``check
--together``, ``count``, ``cubes join``, ``batch``, ``batch (check)``, ``batch
--together``). ``check``, ``count`` and a batch's game checks ask a question of their own
about the puzzle's position (place-all or the best score for the colours checked), so
``verify`` compares only the position with the puzzle such a file names; the other files
(and a file without ``made_by``) answer the puzzle's own question, which ``verify``
compares too (:func:`solver.trust.claims.puzzle_check`).

Reading is strict about the keys it knows (a file that breaks these is malformed, exit 2):
no object has a key twice; ``format``, if given, is exactly ``blokus-solo-solution/1``
(hand-written files may leave it out); ``variant`` is ``custom`` or a built-in variant
(then the board has its size, every colour is one of its colours and has a start square,
and the pieces are from its set); ``goal`` is place-all or max-score;
``status`` is solved, optimal, infeasible or unknown; ``rows``, ``cols``, ``existing`` and
each colour's ``score`` are integers, the total ``score`` and ``bound`` integers or null;
``played``, ``all_placed`` and both ``monomino_last`` are true or false (the top-level one
only with place-all, and then every played colour with pieces to place has a monomino
among them); ``endgame``, if given, has the keys and types above; ``cover`` is a list of
squares to cover (free, or under a played colour, never blocked) and ``connect`` a list of
played colours with two or more groups of pieces on the board, both with place-all only.
Keys left out make no claim.

On Trigon (``"variant": "trigon"``, ``trigon2``, ``trigon3``; :mod:`solver.formats.trigon`)
``rows`` x ``cols`` is the variant's naming rectangle (18 x 35, or 16 x 31), squares are
triangles named as Pentobi names them, pieces are the 22 Trigon pieces (names resolved in
that family: Trigon's ``X`` is not Classic's) and every colour's ``start`` is null: its
first placement covers one of the six shared starting points, and every placement, the
``existing`` ones included, is replayed by the rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.core.board import Board
from solver.core.checker import CheckReport, ColourReport, check_layout
from solver.core.order import order_of_play
from solver.core.pieces import family, squares_of
from solver.core.position import ColourState, Placement, Position, sorted_pieces
from solver.core.problem import (
    ANSWERS,
    check_connect,
    check_connect_groups,
    check_goal,
    check_goal_kind,
    check_monomino_last,
    check_monomino_left,
    check_star,
)
from solver.core.rules import shape_name
from solver.core.variants import (
    CUSTOM,
    FULL_SET,
    Variant,
    check_piece_counts,
    colour_name,
    set_name,
)
from solver.errors import InputError, located
from solver.formats.files import write_text_atomic
from solver.formats.structured import parse_json
from solver.formats.text import depth_limited, is_file, read_text
from solver.formats.trigon import (
    file_variant,
    is_trigon,
    no_start_square,
    starting_points,
    trigon_board,
)
from solver.pictures.picture import layout_pieces, with_layout
from solver.tasks.solve import SolveResult

# The SVG writer is imported where a solution file draws itself (_repr_svg_, Jupyter): it
# loads xml.sax.saxutils, which imports urllib.request (about 40 ms of every command that
# reads or writes a solution file).

FORMAT = "blokus-solo-solution/1"
STATUSES: tuple[str, ...] = ("solved", "optimal", "infeasible", "unknown")


def result_to_json(
    result: SolveResult,
    endgame: Mapping[str, object] | None = None,
    made_by: str | None = None,
) -> dict[str, Any]:
    """A checked :class:`SolveResult` as the JSON-ready dictionary described above, with
    ``endgame`` (:func:`solver.tasks.endgame.answer_record`) under that key and ``made_by`` (the
    command that writes it) if given."""
    problem = result.problem
    pos = problem.position
    board = pos.board
    final = result.report.final if result.report and result.report.final else pos
    colours = []
    for state in pos.colours:
        added = (result.layout or {}).get(state.name, [])
        end = final.colour(state.name)
        report = result.report.report(state.name) if result.report else None
        colours.append(
            {
                "name": state.name,
                "start": board.name(state.start) if state.start is not None else None,
                "played": state.name in problem.colours,
                "existing": len(state.placed),
                "placements": [_placement_json(board, p) for p in (*state.placed, *added)],
                "remaining": list(end.remaining),
                "score": report.score if report else pos.score(state.name),
                "all_placed": not end.remaining,
                "monomino_last": report.monomino_last if report else state.last_piece == "1",
            }
        )
    data = {
        "format": FORMAT,
        "title": problem.title,
        "puzzle": problem.name,
        "variant": pos.variant,
        "rows": board.rows,
        "cols": board.cols,
        "blocked": board.names(board.blocked),
        "goal": problem.goal,
        "monomino_last": problem.monomino_last,
        "cover": board.names(problem.cover),
        "connect": list(problem.connect),
        "status": result.status,
        "backend": result.backend,
        "seconds": round(result.wall_time, 4),
        "score": result.score,
        "bound": result.bound,
        "colours": colours,
    }
    if result.partial is not None:
        data["partial"] = _partial_json(result)
    if result.fit is not None:
        fit = result.fit
        data["fit"] = {"most": round(fit.most, 3), "need": fit.need, "by": fit.by}
    if endgame is not None:
        data["endgame"] = endgame
    if made_by is not None:
        data["made_by"] = made_by
    if problem.name and is_file(problem.name):
        data["puzzle_path"] = str(Path(problem.name).resolve())
    return data


def _partial_json(result: SolveResult) -> dict[str, Any]:
    """An unknown's best partial layout: per played colour the placements it adds (in a
    legal order of play) and the pieces it leaves, and the squares left in all."""
    board = result.problem.position.board
    assert result.partial is not None and result.partial_report is not None
    left = {c: list(result.partial_report.report(c).remaining) for c in result.problem.colours}
    return {
        "placements": {
            c: [_placement_json(board, p) for p in result.partial.get(c, [])]
            for c in result.problem.colours
        },
        "remaining": left,
        "squares_left": sum(squares_of(v, board.grid) for v in left.values()),
        "short": [c for c in result.problem.colours if left[c]],
    }


def _placement_json(board: Board, p: Placement) -> dict[str, Any]:
    return {"piece": p.piece, "squares": board.names(p.squares)}


def solution_text(
    result: SolveResult,
    endgame: Mapping[str, object] | None = None,
    compact: bool = False,
    made_by: str | None = None,
) -> str:
    """A result as the text of a solution file (``compact``: no indentation; ``made_by``:
    the command that writes it)."""
    data = result_to_json(result, endgame, made_by)
    if compact:
        return json.dumps(data, separators=(",", ":")) + "\n"
    return json.dumps(data, indent=1) + "\n"


def write_json(
    result: SolveResult,
    path: str | Path,
    endgame: Mapping[str, object] | None = None,
    made_by: str | None = None,
) -> None:
    """Write a result as a solution file (atomically), with an endgame record and the
    command that writes it if given."""
    write_text_atomic(path, solution_text(result, endgame, made_by=made_by))


@dataclass(frozen=True)
class SolutionFile:
    """A solution file read back.

    Attributes:
        empty: the board before any piece: colours with a start square have placed nothing
            (every piece in the file is theirs to place); a colour without a start square
            (a frozen colour of a custom board) has its ``existing`` pieces set up.
        replay: colour -> every placement to replay from ``empty`` by the rules, in order.
        position: the board with each colour's ``existing`` pieces placed.
        layout: colour -> the placements added after the existing ones, in order.
        data: the JSON as read (claims to compare with the checker's findings).
        cover: squares the layout must cover (``cover``).
        connect: colours whose pieces must end as one group (``connect``).
    """

    empty: Position
    replay: dict[str, list[Placement]]
    position: Position
    layout: dict[str, list[Placement]]
    data: dict[str, Any]
    cover: frozenset[int] = frozenset()
    connect: tuple[str, ...] = ()
    partial: dict[str, list[Placement]] | None = None

    def _repr_svg_(self) -> str:
        """The board with every placement as SVG (:func:`solver.pictures.svg.board`), the
        ``existing`` pieces paler than the added ones, for Jupyter."""
        from solver.pictures.svg import board

        final = with_layout(self.position, self.layout)
        return board(final, new=layout_pieces(self.layout))


def read_solution(path: str | Path) -> SolutionFile:
    """Read a solution file written by :func:`write_json` (or by hand).

    Raises:
        InputError: unreadable, not UTF-8, not JSON, a key given twice in one object,
            a number out of range (:mod:`solver.formats.structured`), missing or malformed
            keys, unknown piece, colour or square, a colour listed
            twice, a size, colours or pieces that the variant does not have, placements
            that are not pieces of the set or overlap.
    """
    path = str(path)
    return read_solution_text(read_text(path), path)


def read_solution_text(text: str, path: str = "<solution>") -> SolutionFile:
    """Read the text of a solution file (see :func:`read_solution`; ``path`` names it in
    messages). Raises InputError."""
    data = parse_json(text, path)
    with located(path=path), depth_limited(path):
        return _parse(data)


def _expect(value: Any, kind: type, where: str, *, null: bool = False) -> Any:
    """``value`` if it is a ``kind`` (a bool is not an int), or None if ``null`` allows it."""
    if value is None and null:
        return value
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(
            f"expected {kind.__name__}{' or null' if null else ''}, got {value!r}"[:120],
            where=where,
        )
    return value


def _expect_keys(
    entry: dict[str, Any], kinds: dict[str, tuple[type, bool]], where: str = ""
) -> None:
    """Type-check the keys of ``entry`` that are present: name -> (type, null allowed)."""
    for key, (kind, null) in kinds.items():
        if key in entry:
            _expect(entry[key], kind, f"{where}.{key}" if where else key, null=null)


_TOP_CLAIMS = {"score": (int, True), "bound": (int, True), "monomino_last": (bool, False)}
_COLOUR_CLAIMS = {
    "score": (int, False),
    "all_placed": (bool, False),
    "monomino_last": (bool, False),
    "played": (bool, False),
}


def _check_header(data: dict[str, Any]) -> Variant | None:
    """Check the format, variant, goal, status and the top-level claims' types.

    Returns:
        the built-in variant, or None for a custom board.
    """
    if "format" in data and data["format"] != FORMAT:
        raise InputError(
            f"unknown format {data['format']!r}"[:100] + f" (this version reads {FORMAT})",
            where="format",
        )
    with located(where="variant"):
        variant = file_variant(_expect(data.get("variant", CUSTOM), str, "variant"))
    goal = _expect(data.get("goal", "place-all"), str, "goal")
    with located(where="goal"):
        check_goal(goal)
    if "status" in data:
        status = _expect(data["status"], str, "status")
        if status not in STATUSES:
            raise InputError(
                f"unknown status {status!r} (statuses: {', '.join(STATUSES)})"[:160], where="status"
            )
    _expect_keys(data, _TOP_CLAIMS)
    if "endgame" in data:
        _check_endgame(data["endgame"])
    with located(where="monomino_last"):
        check_monomino_last(goal, bool(data.get("monomino_last")))
    return variant


_ENDGAME_CLAIMS = {
    "colour": (str, False),
    "left": (int, False),
    "squares_left": (int, False),
    "score": (int, True),
    "best": (int, True),
    "bound": (int, True),
    "best_left": (int, False),
    "fit": (str, False),
}


def _check_endgame(record: Any) -> None:
    """The endgame record's types: a known answer and statuses, integers where claimed."""
    _expect(record, dict, "endgame")
    if "colour" not in record or "answer" not in record:
        raise InputError("needs at least 'colour' and 'answer'", where="endgame")
    _expect_keys(record, _ENDGAME_CLAIMS, "endgame")
    answer = _expect(record["answer"], str, "endgame.answer")
    if answer not in ANSWERS:
        raise InputError(
            f"unknown answer {answer!r} (answers: {', '.join(ANSWERS)})"[:160],
            where="endgame.answer",
        )
    for key in ("place_all_status", "best_status"):
        value = _expect(record.get(key), str, f"endgame.{key}", null=True)
        if value is not None and value not in STATUSES:
            raise InputError(
                f"unknown status {value!r} (statuses: {', '.join(STATUSES)})"[:160],
                where=f"endgame.{key}",
            )


def _parse(data: Any) -> SolutionFile:
    _expect(data, dict, "top level")
    for key in ("rows", "cols", "colours"):
        if key not in data:
            raise InputError(f"missing key {key!r}")
    variant = _check_header(data)
    rows, cols = _expect(data["rows"], int, "rows"), _expect(data["cols"], int, "cols")
    if variant:
        with located(where="rows"):
            variant.check_size(rows, cols)
    board = trigon_board(variant) if variant and is_trigon(variant) else Board(rows, cols)
    blocked = _squares(board, _expect(data.get("blocked", []), list, "blocked"), "blocked")
    board = Board(board.rows, board.cols, frozenset(blocked), board.grid)
    grid = board.grid
    empty: list[ColourState] = []
    states: list[ColourState] = []
    replay: dict[str, list[Placement]] = {}
    layout: dict[str, list[Placement]] = {}
    for k, entry in enumerate(_expect(data["colours"], list, "colours")):
        where = f"colours[{k}]"
        _expect(entry, dict, where)
        _expect_keys(entry, _COLOUR_CLAIMS, where)
        name = _colour(entry.get("name"), f"{where}.name", variant)
        if name in layout:
            raise InputError(f"colour {name} is listed twice", where=f"{where}.name")
        start = entry.get("start")
        if variant and is_trigon(variant) and start is not None:
            raise no_start_square(variant, f"{where}.start")
        start_sq = _squares(board, [start], f"{where}.start")[0] if start is not None else None
        if variant and start_sq is None and not is_trigon(variant):
            raise InputError(
                f"a colour of {variant.name} needs a start square", where=f"{where}.start"
            )
        placements = [
            _placement(board, p, f"{where}.placements[{j}]")
            for j, p in enumerate(_expect(entry.get("placements", []), list, f"{where}.placements"))
        ]
        existing = _expect(entry.get("existing", 0), int, f"{where}.existing")
        if not 0 <= existing <= len(placements):
            raise InputError(
                f"existing = {existing} but {len(placements)} placements", where=f"{where}.existing"
            )
        remaining = _pieces(entry.get("remaining", []), f"{where}.remaining", grid)
        # a colour without a start square is frozen (set up as given), but not on Trigon
        setup = placements[:existing] if start_sq is None and board.square_grid else []
        with located(where=where):
            # the setup of a colour without a start is printed on the card, not from the set
            check_piece_counts(
                variant.pieces if variant else FULL_SET,
                {
                    "in placements": [p.piece for p in placements[len(setup) :]],
                    "in remaining": remaining,
                },
                set_name(variant),
                printed=[p.piece for p in setup],
            )
        _setup_shapes(board, setup, where)
        empty.append(
            ColourState(
                name,
                start_sq,
                tuple(setup),
                sorted_pieces(remaining + [p.piece for p in placements[len(setup) :]], grid),
                grid,
            )
        )
        replay[name] = placements[len(setup) :]
        states.append(
            ColourState(
                name,
                start_sq,
                tuple(placements[:existing]),
                sorted_pieces(remaining + [p.piece for p in placements[existing:]], grid),
                grid,
            )
        )
        layout[name] = placements[existing:]
    bonus = variant.bonus if variant else True
    name = variant.name if variant else CUSTOM
    starts = starting_points(board)
    position = Position(board, tuple(states), bonus=bonus, variant=name, starting_points=starts)
    played = [colour_name(e["name"]) for e in data["colours"] if e.get("played", True)]
    if data.get("monomino_last"):
        with located(where="monomino_last"):
            check_monomino_left(position, played)
    goal = data.get("goal", "place-all")
    return SolutionFile(
        Position(board, tuple(empty), bonus=bonus, variant=name, starting_points=starts),
        replay,
        position,
        layout,
        data,
        _cover(data, position, played, goal),
        _connect(data, position, played, goal),
        _partial(data, board, variant),
    )


def _partial(
    data: dict[str, Any], board: Board, variant: Variant | None
) -> dict[str, list[Placement]] | None:
    """The ``partial`` layout of an unknown (colour -> placements), and the types of its
    and of ``fit``'s claims; None when the file has none."""
    if "fit" in data:
        fit = _expect(data["fit"], dict, "fit")
        most = fit.get("most")
        if isinstance(most, bool) or not isinstance(most, int | float):
            raise InputError(f"expected a number, got {most!r}"[:120], where="fit.most")
        _expect(fit.get("need"), int, "fit.need")
    if "partial" not in data:
        return None
    record = _expect(data["partial"], dict, "partial")
    _expect(record.get("squares_left", 0), int, "partial.squares_left")
    for key, pieces in _expect(record.get("remaining", {}), dict, "partial.remaining").items():
        _pieces(pieces, f"partial.remaining.{key}", board.grid)
    placements = _expect(record.get("placements", {}), dict, "partial.placements")
    out: dict[str, list[Placement]] = {}
    for key, entries in placements.items():
        where = f"partial.placements.{key}"
        colour = _colour(key, where, variant)
        out[colour] = [
            _placement(board, p, f"{where}[{j}]")
            for j, p in enumerate(_expect(entries, list, where))
        ]
    return out


def _cover(
    data: dict[str, Any], position: Position, played: list[str], goal: str
) -> frozenset[int]:
    """The ``cover`` squares, each checked as a puzzle's stars are."""
    names = _expect(data.get("cover", []), list, "cover")
    out: set[int] = set()
    for k, square in enumerate(_squares(position.board, names, "cover")):
        with located(where=f"cover[{k}]"):
            check_goal_kind(goal, "cover", True)
            if square in out:
                raise InputError(f"star {position.board.name(square)} is given twice")
            check_star(position, played, square)
        out.add(square)
    return frozenset(out)


def _connect(
    data: dict[str, Any], position: Position, played: list[str], goal: str
) -> tuple[str, ...]:
    """The ``connect`` colours, each checked as a puzzle's are."""
    out: list[str] = []
    for k, text in enumerate(_expect(data.get("connect", []), list, "connect")):
        where = f"connect[{k}]"
        colour = _colour(text, where, None)
        with located(where=where):
            check_goal_kind(goal, "connect", True)
            if colour in out:
                raise InputError(f"{colour} is given twice")
            position.colour(colour)
            check_connect(position, played, colour)
            check_connect_groups(position, colour)
        out.append(colour)
    return tuple(out)


def _colour(text: object, where: str, variant: Variant | None) -> str:
    with located(where=where):
        name = colour_name(str(_expect(text, str, where)))
        if variant:
            variant.check_colour(name)
    return name


def _pieces(names: object, where: str, grid: str) -> list[str]:
    """Piece names of the grid's family (:func:`solver.core.pieces.family`)."""
    with located(where=where):
        return [family(grid).canonical(str(p)) for p in _expect(names, list, where)]


def _squares(board: Board, names: list[object], where: str) -> list[int]:
    with located(where=where):
        return [board.parse(str(n)) for n in names]


def _placement(board: Board, entry: object, where: str) -> Placement:
    fields: dict[str, Any] = _expect(entry, dict, where)
    with located(where=where):
        piece = family(board.grid).canonical(str(fields.get("piece")))
    names = _expect(fields.get("squares"), list, f"{where}.squares")
    squares = frozenset(_squares(board, names, where))
    if len(squares) != len(names):
        raise InputError(f"a square is listed twice in {','.join(map(str, names))}", where=where)
    return Placement(piece, squares)


def _setup_shapes(board: Board, placements: list[Placement], where: str) -> None:
    """Pieces set up without a replay (frozen colours) must at least have their shapes."""
    for j, p in enumerate(placements):
        if shape_name(board, p.squares) != p.piece:
            raise InputError(
                f"squares {','.join(board.names(p.squares))} do not form piece {p.piece}",
                where=f"{where}.placements[{j}]",
            )


def verify(solution: SolutionFile) -> tuple[CheckReport, list[str]]:
    """Run the rule checker on a solution file and compare its claims.

    Every placement is replayed by the rules from the empty board (the pieces of a frozen
    colour without a start square are set up as they are). Scores are judged as the
    solver does: the monomino bonus of pieces already on the board follows their order
    in the file; for added pieces, whether some legal order ends with the monomino.

    Returns:
        (report, mismatches): the checker's report (``problem`` names the first broken
        rule), and the claims of the file that the checker contradicts: per colour score,
        all_placed, monomino_last, played; the total score, the status, the bound. The
        status must fit the goal and the layout: solved (place-all) places every remaining
        piece of the played colours; optimal is max-score only and reaches its bound;
        infeasible and unknown add no piece; infeasible is never max-score, nor a place-all
        position whose goal is already met; a solved place-all layout meets the card goals
        (``cover``, ``connect``).
    """
    legal = check_layout(solution.empty, solution.replay)
    if not legal.legal:
        return legal, []
    report = check_layout(solution.position, solution.layout, solution.cover, solution.connect)
    return report, _false_claims(solution, report)


def _false_claims(solution: SolutionFile, report: CheckReport) -> list[str]:
    data = solution.data
    out: list[str] = []
    played = []
    for entry in data["colours"]:
        r = report.report(colour_name(str(entry["name"])))
        for key, actual in (
            ("score", r.score),
            ("all_placed", r.all_placed),
            ("monomino_last", r.monomino_last),
        ):
            if key in entry and entry[key] != actual:
                out.append(f"{r.colour}: the file says {key} {entry[key]}, the rules give {actual}")
        if entry.get("played", True):
            played.append(r)
        elif r.added:
            out.append(f"{r.colour}: marked as not played but {r.added} pieces were added")
    status, goal = data.get("status"), data.get("goal", "place-all")
    total = sum(r.score for r in played)
    if data.get("score") is not None and data.get("score") != total:
        out.append(f"the file says total score {data['score']}, the rules give {total}")
    if status == "optimal" and goal != "max-score":
        out.append(
            f"status is optimal but the goal is {goal} (optimal applies to max-score only; "
            f"a {goal} layout is solved)"
        )
    if status in ("solved", "optimal") and goal == "place-all":
        for r in played:
            if r.remaining:
                out.append(
                    f"{r.colour}: status is {status} but {', '.join(r.remaining)} are unplaced"
                )
            elif data.get("monomino_last") and not r.monomino_last:
                out.append(f"{r.colour}: monomino-last is required but not possible")
        out += [f"status is {status} but {goal}" for goal in report.unmet]
    if status == "infeasible" and goal == "max-score":
        out.append(
            "status is infeasible but the goal is max-score, which always has a layout "
            "(if only the one that adds nothing)"
        )
    elif (
        status == "infeasible"
        and not report.unmet
        and all(
            not r.remaining and (r.monomino_last or not data.get("monomino_last")) for r in played
        )
    ):
        out.append("status is infeasible but the file's own layout meets the goal")
    if status in ("infeasible", "unknown") and any(r.added for r in played):
        out.append(f"status is {status} but the file adds pieces")
    if "endgame" in data:
        out += _false_endgame_claims(solution, report, played, total)
    if solution.partial is not None:
        out += _false_partial_claims(solution)
    bound = data.get("bound")
    if bound is not None and total > bound:
        out.append(f"total score {total} is above the claimed upper bound {bound}")
    elif bound is not None and status == "optimal" and goal == "max-score" and total < bound:
        out.append(
            f"status is optimal but total score {total} is below the claimed upper bound {bound}"
        )
    return out


def _false_partial_claims(solution: SolutionFile) -> list[str]:
    """An unknown's best partial layout must be a legal partial layout from the file's
    position (every piece legal, each colour's pieces connected to its start or its
    pieces on the board), leave the pieces and squares it says, and place no more squares
    than the bound ``fit`` allows."""
    data, partial = solution.data, solution.partial
    assert partial is not None
    out = []
    if data.get("status") != "unknown":
        out.append(f"a partial layout is given but the status is {data.get('status')}")
    ordered = {}
    for colour, placements in partial.items():
        grown = order_of_play(solution.position, colour, placements)
        if grown is None:
            return out + [f"partial layout: {colour}'s pieces are not connected to its start"]
        ordered[colour] = grown
    report = check_layout(solution.position, ordered)
    if not report.legal:
        return out + [f"partial layout breaks a rule: {report.problem}"]
    record = data["partial"]
    left = 0
    for colour, pieces in record.get("remaining", {}).items():
        actual = list(report.report(colour_name(str(colour))).remaining)
        left += squares_of(actual, solution.position.board.grid)
        grid = solution.position.board.grid
        if sorted_pieces(_pieces(pieces, "partial.remaining", grid), grid) != sorted_pieces(
            actual, grid
        ):
            out.append(
                f"partial layout: the file says {colour} leaves {pieces}, the rules give {actual}"
            )
    if "squares_left" in record and "remaining" in record and record["squares_left"] != left:
        out.append(
            f"partial layout: the file says {record['squares_left']} squares left, "
            f"the rules give {left}"
        )
    fit = data.get("fit")
    placed = sum(len(p.squares) for v in partial.values() for p in v)
    if fit is not None and placed > fit["most"]:
        out.append(f"partial layout places {placed} squares, over the claimed bound {fit['most']}")
    return out


# what the place-all solve's status is for each answer
_PLACE_ALL_STATUS = {"yes": "solved", "no": "infeasible", "unknown": "unknown"}


def _false_endgame_claims(
    solution: SolutionFile, report: CheckReport, played: list[ColourReport], total: int
) -> list[str]:
    """The endgame record's claims that the file contradicts: it is about the one played
    colour and its pieces left; yes is a place-all layout that the file holds (solved), no
    leaves a piece unplaced and its best is the file's layout, unknown adds nothing."""
    data, record = solution.data, solution.data["endgame"]
    answer, status = record["answer"], data.get("status")
    try:
        colour = colour_name(record["colour"])
        state = solution.position.colour(colour)
    except InputError:
        return [f"endgame: the file has no colour {record['colour']!r}"]
    out = []
    if [r.colour for r in played] != [colour]:
        out.append(f"endgame: {colour} is not the only played colour")
    for key, actual in (("left", len(state.remaining)), ("squares_left", state.remaining_squares)):
        if key in record and record[key] != actual:
            out.append(f"endgame: the file says {key} {record[key]}, the position has {actual}")
    if record.get("place_all_status") not in (None, _PLACE_ALL_STATUS[answer]):
        out.append(
            f"endgame: answer {answer} but place_all_status {record['place_all_status']} "
            f"(a {answer} is {_PLACE_ALL_STATUS[answer]})"
        )
    mine = report.report(colour)
    if answer == "yes":
        if status != "solved" or data.get("goal", "place-all") != "place-all":
            out.append(f"endgame: answer yes but the file is not a place-all layout ({status})")
        if record.get("score") is not None and record["score"] != mine.score:
            out.append(
                f"endgame: the file says score {record['score']}, the rules give {mine.score}"
            )
        return out
    if answer == "unknown":
        if status != "unknown":
            out.append(f"endgame: answer unknown but the file's status is {status}")
        return out
    if not mine.remaining:
        out.append("endgame: answer no but the file's own layout places every piece")
    if record.get("best") is not None:
        if status not in ("solved", "optimal"):
            out.append(f"endgame: a best score is claimed but the file's status is {status}")
        elif record["best"] != total:
            out.append(f"endgame: the file says best {record['best']}, the rules give {total}")
    for key, top in (("best_status", "status"), ("bound", "bound")):
        if record.get(key) is not None and record[key] != data.get(top):
            out.append(f"endgame: {key} {record[key]} but the file's {top} is {data.get(top)}")
    return out
