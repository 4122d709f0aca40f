"""What a batch's rows add up to: counts, ``summary.csv`` and ``README.md``.

Counting: a puzzle gives one answer (solved: its goal is met; no: proven impossible;
unknown: time limit); a game position gives one answer per colour that still had pieces
to place (solved: it can place them all; no; unknown), or with ``--together`` one joint
answer for all of them, recorded as the colour "together". Colours that had already placed
everything are listed but not counted. An item that failed counts once as an error.

The point of no return of a colour in a game checked at several positions (``--every``):
the last placement after which it could still place all its pieces. The checks bracket it:
it is at or after the last position answered yes and before the first answered no (a "no"
stays a "no" later in the game: a layout that places everything at a later position,
together with the colour's own moves in between, would place everything earlier, when
the board had fewer pieces on it; the same holds for a joint answer). Setup in mid-game
that changes the board (``AE`` taking a piece away, say) can give a chance back, so the
reckoning starts afresh after it: a yes after a no with such setup between is consistent
and said so ("given back by setup after N"); without it, the answers disagree.
"""

from __future__ import annotations

import csv
import io
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict
from urllib.parse import quote
from xml.sax.saxutils import quoteattr

from solver.quoting import escaped
from solver.trust.rows import ColourRecord, Row

COUNTED = ("solved", "no", "unknown", "error")


class RunRecord(TypedDict, total=False):
    """A line of ``runs.jsonl``: one batch run (or merge) into the folder, for the README's
    table of runs; lines read back have these types where present
    (:func:`solver.formats.structured.shape_problem`, in :meth:`solver.batch.store.Store.runs`)."""

    finished: str  # UTC, ISO 8601
    command: str
    on: str  # where it ran: "2 local processes", a Dask scheduler, a merge
    version: str
    interrupted: bool
    ran: int
    skipped: int
    seeds_dropped: int
    seconds: float


def answers(row: Row) -> list[str]:
    """The answers a row counts for (see the module docstring)."""
    if row.get("status") == "error":
        return ["error"]
    if row.get("kind") == "puzzle":
        return [row.get("answer") or "unknown"]
    return [
        {"yes": "solved"}.get(c["answer"], c["answer"]) for c in row["colours"] if c.get("left")
    ]


def tally(rows: Iterable[Row]) -> Counter[str]:
    """Counts of solved / no / unknown / error answers."""
    counts: Counter[str] = Counter({k: 0 for k in COUNTED})
    for row in rows:
        counts.update(answers(row))
    return counts


@dataclass(frozen=True)
class NoReturn:
    """Where a colour's point of no return lies: after ``last_yes`` placements it could
    still place everything (None: at no position checked), after ``first_no`` it could
    not (None: at no position checked), both counted since the last setup in mid-game
    that changed the board; ``given_back``: (first no, setup) for each chance lost and
    then given back by setup after that placement; ``broken``: a yes after a no with no
    setup between (cannot happen: the answers disagree)."""

    last_yes: int | None
    first_no: int | None
    broken: bool = False
    given_back: tuple[tuple[int, int], ...] = ()

    def text(self) -> str:
        if self.broken:
            return "inconsistent (yes after no, no setup between)"
        back = "".join(
            f"; no by {no}, given back by setup after {setup}" for no, setup in self.given_back
        )
        return self._point() + back

    def _point(self) -> str:
        if self.first_no is None:
            return "not reached" if self.last_yes is not None else "unknown"
        if self.last_yes is None:
            return f"before {self.first_no}"
        return f"{self.last_yes} (no by {self.first_no})"


def no_return(checks: dict[int, str], setup_after: Sequence[int] = ()) -> NoReturn:
    """The point of no return from a colour's answers by position (placements -> answer).

    ``setup_after``: the placements after which setup in mid-game changed the board (a
    game row's ``setup_after``). Setup can give a chance back, so each stretch of the game
    between two such setups is reckoned on its own: a yes after a no is consistent when
    setup lies between them, and the point of no return is that of the last stretch.
    """
    stretches: dict[int, dict[int, str]] = defaultdict(dict)
    for n, answer in checks.items():
        stretches[_stretch(n, setup_after)][n] = answer
    last = max(stretches)
    given_back = []
    for s in sorted(stretches)[:-1]:
        no = [n for n, a in stretches[s].items() if a == "no"]
        later_yes = any(a == "yes" for t in stretches if t > s for a in stretches[t].values())
        if no and later_yes:
            given_back.append((min(no), sorted(setup_after)[s]))
    point = _plain(stretches[last])
    broken = any(_plain(stretches[s]).broken for s in stretches)
    return NoReturn(point.last_yes, point.first_no, broken, tuple(given_back))


def _stretch(n: int, setup_after: Sequence[int]) -> int:
    """Which stretch position ``n`` is in: how many setups came at or before it (the
    position after placement k includes the setup after it)."""
    return sum(k <= n for k in setup_after)


def _plain(checks: dict[int, str]) -> NoReturn:
    """The point of no return of answers with no setup between them."""
    yes = [n for n, a in checks.items() if a == "yes"]
    no = [n for n, a in checks.items() if a == "no"]
    last_yes = max(yes) if yes else None
    first_no = min(no) if no else None
    broken = last_yes is not None and first_no is not None and last_yes > first_no
    return NoReturn(last_yes, first_no, broken)


#: game -> colour -> placements -> colour record
Checks = dict[str, dict[str, dict[int, ColourRecord]]]


def game_checks(rows: Iterable[Row]) -> Checks:
    """game -> colour -> placements -> colour record, for game rows that ran."""
    out: Checks = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        after = row.get("after")
        if row.get("kind") == "game" and row.get("status") == "done" and after is not None:
            for c in row["colours"]:
                out[row["item"]][c["colour"]][after] = c
    return out


def game_setups(rows: Iterable[Row]) -> dict[str, list[int]]:
    """game -> the placements after which setup in mid-game changed its board (the rows'
    ``setup_after``; rows written before it was recorded have none)."""
    return {
        row["item"]: row.get("setup_after") or []
        for row in rows
        if row.get("kind") == "game" and row.get("status") == "done"
    }


def points_of_no_return(rows: Iterable[Row]) -> dict[tuple[str, str], NoReturn]:
    """(game, colour) -> its point of no return, for games checked at two or more
    positions."""
    rows = list(rows)
    setups = game_setups(rows)
    out: dict[tuple[str, str], NoReturn] = {}
    for game, colours in game_checks(rows).items():
        for colour, checks in colours.items():
            if len(checks) > 1:
                answers = {n: c["answer"] for n, c in checks.items()}
                out[game, colour] = no_return(answers, setups[game])
    return out


def ordered(rows: Iterable[Row]) -> list[Row]:
    """Rows in a stable reading order: by item name, then position, then sweep seed."""
    return sorted(
        rows,
        key=lambda r: (
            r["item"],
            r.get("after") is None,
            r.get("after") or 0,
            r.get("seed", -1) if r.get("sweep") else -1,
        ),
    )


SUMMARY_FIELDS = [
    "item",
    "kind",
    "after",
    "end",
    "colour",
    "left",
    "answer",
    "score",
    "best",
    "best_status",
    "bound",
    "reason",
    "best_left",
    "short",
    "fit",
    "point_of_no_return",
    "item_status",
    "item_answer",
    "seconds",
    "answered_by",
    "backend",
    "time_limit",
    "seed",
    "sweep",
    "solution",
    "picture",
    "error",
    "sha256",
]

#: the width (pixels) at which the README's puzzle table shows each solution's picture
THUMBNAIL_WIDTH = 160


def summary_csv(rows: Iterable[Row]) -> str:
    """``summary.csv``: one row per item and colour (one row for an item without colours)."""
    rows = ordered(rows)
    ponr = points_of_no_return(rows)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, SUMMARY_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        shared: dict[str, object] = {
            "item": row["item"],
            "kind": row.get("kind"),
            "after": row.get("after"),
            "end": row.get("end"),
            "item_status": row.get("status"),
            "item_answer": row.get("answer"),
            "seconds": row.get("seconds"),
            "answered_by": row.get("answered_by"),
            "backend": row.get("backend"),
            "time_limit": row.get("time_limit"),
            "seed": row.get("seed"),
            "sweep": bool(row.get("sweep")),
            "error": row.get("error"),
            "sha256": row.get("sha256"),
            "solution": row.get("solution"),
            "picture": row.get("picture"),
            "best_left": row.get("best_left"),
            "short": _short_cell(row.get("short")),
            "fit": row.get("fit"),
        }
        if not row.get("colours"):
            writer.writerow(shared)
        for c in row.get("colours", []):
            point = ponr.get((row["item"], c["colour"]))
            writer.writerow(
                {
                    **shared,
                    **{k: c.get(k) for k in ("colour", "left", "answer", "score", "best")},
                    **{k: c.get(k) for k in ("best_status", "bound", "reason")},
                    **{k: c[k] for k in ("best_left", "fit") if c.get(k) is not None},
                    **({"short": _short_cell(c["short"])} if c.get("short") else {}),
                    "point_of_no_return": point.text() if point else None,
                    "seconds": c.get("seconds", row.get("seconds")),
                    "solution": c.get("solution") or row.get("solution"),
                    "picture": c.get("picture") or row.get("picture"),
                }
            )
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------
# README.md


def readme(rows: Iterable[Row], runs: list[RunRecord]) -> str:
    """``README.md``: the command, totals, then a table of the puzzles, one of the game
    checks (one row per game and colour, one column per position, with the point of no
    return), the errors, and the runs that made the folder (``runs``: oldest first)."""
    rows = ordered(rows)
    command = runs[-1].get("command", "") if runs else ""
    counts = tally(rows)
    times = [r["seconds"] for r in rows if r.get("seconds") is not None]
    swept = _sweep_seeds(rows)
    settings = sorted({_settings_of(r, swept) for r in rows}, key=str)
    out = ["# Batch results", ""]
    out += [
        f"Made by {_code(command, cell=False)}"
        + (" and the earlier runs listed at the end" if len(runs) > 1 else "")
        if command
        else "Made by blokus-solo batch",
        "",
    ]
    out.append(
        "Settings: "
        + "; ".join(
            f"backend {b}, time limit {_limit(t)} per solve, {s}"
            + (f", CP-SAT parameters `{p}`" if p else "")
            for b, t, s, p in settings
        )
        + "."
    )
    out += ["", "## Totals", ""]
    out += _table(
        [
            "items",
            "solved",
            "no",
            "unknown",
            "errors",
            "time (items added up)",
            "median time per item",
        ],
        [
            [
                str(len(rows)),
                *(str(counts[k]) for k in COUNTED),
                _seconds(sum(times)),
                _seconds(statistics.median(times)) if times else "-",
            ]
        ],
    )
    out += [
        "",
        "A puzzle counts once (solved: goal met, no: proven impossible, unknown: time "
        "limit, never a no); a game position counts once per colour with pieces left "
        "(solved: it can still place them all), or once with `--together` (solved: they "
        "can all place them all at once). `results.jsonl` has every detail, "
        "`summary.csv` one row per item and colour, `solutions/` the layouts "
        "(`blokus-solo verify FILE` checks one) and beside each layout its picture (`.svg`).",
    ]
    if swept:
        out[-1] += (
            " In a seed sweep (`--seeds`) each seed that ran counts as an item; a seed not "
            "run because another seed had answered its puzzle has no row."
        )
    puzzles = [r for r in rows if r.get("kind") == "puzzle" and r.get("status") == "done"]
    if puzzles:
        out += ["", "## Puzzles", ""] + _puzzle_table(puzzles)
    games = game_checks(rows)
    if games:
        ends = {
            r["item"]: after
            for r in rows
            if r.get("kind") == "game" and r.get("end") and (after := r.get("after")) is not None
        }
        out += ["", "## Game checks", ""] + _game_table(games, ends, game_setups(rows))
    errors = [r for r in rows if r.get("status") == "error"]
    if errors:
        out += ["", "## Errors", ""]
        out += _table(
            ["item", "after", "error"],
            [[_item_cell(r), _after(r), _cell(r.get("error") or "")] for r in errors],
        )
    if runs:
        out += ["", "## Runs", ""]
        out += _table(
            ["finished (UTC)", "items run", "skipped", "time", "on", "version", "command"],
            [
                [
                    str(r.get("finished", "")),
                    str(r.get("ran", "")) + (" (interrupted)" if r.get("interrupted") else ""),
                    str(r.get("skipped", "")),
                    _seconds(r.get("seconds", 0.0)),
                    _cell(str(r.get("on", ""))),
                    str(r.get("version", "")),
                    _code(r.get("command", "")),
                ]
                for r in runs[-10:]
            ],
        )
        if len(runs) > 10:
            out += ["", f"(the last 10 of {len(runs)} runs: all are in `runs.jsonl`)"]
    return "\n".join(out) + "\n"


def _item_cell(row: Row) -> str:
    """The item's name, with its seed for a seed sweep's row."""
    return _code(row["item"]) + _item_name(row)[len(row["item"]) :]


def _item_name(row: Row) -> str:
    return row["item"] + (f" seed {row.get('seed')}" if row.get("sweep") else "")


#: what the rows of one seed sweep share, the settings of a row but its seed: backend,
#: time limit, CP-SAT parameters
SweepKey = tuple[str | None, float | None, str]


def _sweep_seeds(rows: list[Row]) -> dict[SweepKey, list[int]]:
    """The seeds of the sweep rows, by (backend, time limit, CP-SAT parameters)."""
    out: dict[SweepKey, list[int]] = {}
    for r in rows:
        if r.get("sweep"):
            same: SweepKey = (r.get("backend"), r.get("time_limit"), r.get("params") or "")
            out.setdefault(same, []).append(r["seed"])
    return out


def _settings_of(
    row: Row, swept: dict[SweepKey, list[int]]
) -> tuple[str | None, float | None, str, str]:
    """(backend, time limit, seed text, CP-SAT parameters) of a row; the seed text is
    "seed S", or for a seed sweep's row "a seed sweep (seeds A-B ran)" over the sweep rows
    with its settings (``swept``: :func:`_sweep_seeds`)."""
    same: SweepKey = (row.get("backend"), row.get("time_limit"), row.get("params") or "")
    if not row.get("sweep"):
        return (same[0], same[1], f"seed {row.get('seed')}", same[2])
    seeds = swept[same]
    return (same[0], same[1], f"a seed sweep (seeds {min(seeds)}-{max(seeds)} ran)", same[2])


def _puzzle_table(rows: list[Row]) -> list[str]:
    body = []
    for r in rows:
        status = r.get("solve_status") or r.get("answer") or ""
        scores = ", ".join(
            f"{c['colour']} {c['score']}" for c in r["colours"] if c.get("score") is not None
        )
        score = r.get("score")
        total = "" if score is None else str(score)
        if r.get("goal") == "max-score" and r.get("bound") is not None and status != "optimal":
            total = f"{score} (bound {r['bound']})"
        body.append(
            [
                _item_cell(r),
                r.get("goal") or "",
                f"**{status}**" if status in ("infeasible", "unknown") else status,
                total,
                scores,
                _seconds(r["seconds"]),
                r.get("answered_by") or "",
                _code(solution) if (solution := r.get("solution")) else "",
                _thumbnail(picture, _item_name(r)) if (picture := r.get("picture")) else "",
            ]
        )
    head = ["puzzle", "goal", "status", "score", "per colour", "time", "backend", "solution"]
    return _table([*head, "picture"], body)


def _yes_by(n: int, checks: dict[int, ColourRecord], setup: Sequence[int]) -> int | None:
    """The last position after ``n`` answered yes with no setup between (an unknown at
    ``n`` was a yes too: that layout with the moves in between places everything), or
    None."""
    later = [
        m
        for m, c in checks.items()
        if m > n and c["answer"] == "yes" and _stretch(m, setup) == _stretch(n, setup)
    ]
    return max(later) if later else None


def _game_table(
    games: Checks,
    ends: dict[str, int],
    setups: dict[str, list[int]],
) -> list[str]:
    columns = sorted(
        {n for game, cs in games.items() for c in cs.values() for n in c if n != ends.get(game)}
    )
    with_end = any(game in ends for game in games)
    several = any(len(c) > 1 for cs in games.values() for c in cs.values())
    head = ["game", "placements", "colour", *(f"after {n}" for n in columns)]
    head += ["end"] if with_end else []
    head += ["point of no return"] if several else []
    body = []
    for game in sorted(games):
        end = ends.get(game)
        setup = setups.get(game, [])
        for colour, checks in games[game].items():
            cells = [
                _check_cell(checks[n], _yes_by(n, checks, setup)) if n in checks else ""
                for n in columns
            ]
            if with_end:
                cells.append(_check_cell(checks[end]) if end in checks else "")
            row = [_code(game), "" if end is None else str(end), colour, *cells]
            if several:
                answers = {n: c["answer"] for n, c in checks.items()}
                row.append(no_return(answers, setup).text())
            body.append(row)
    lines = _table(head, body)
    lines += [
        "",
        "Cells: **yes**: it can still place all its pieces (layout checked); **no -7**: it "
        "cannot, and -7 is its best score still reachable (proven), **no -9..-7** the best "
        "found and the proven bound; unknown: time limit, not a no; done: nothing left to "
        "place; yes (by 30): unknown here, but a yes after 30 placements, with the moves "
        "played in between, places everything here too. Colour together (`--together`): "
        "one answer for every colour with pieces left at once. Placements: the game's "
        "length (end: its last position). Point of no return: the last position checked at "
        "which the colour could still place everything (no by: the first at which it could "
        "not; not reached: it could at every position checked; before N: no position "
        "checked was a proven yes, and after N it could not, so it was lost somewhere "
        "before N, possibly from the start; no by N, given back by setup after M: lost, then "
        "given back when setup after placement M changed the board, and reckoned afresh "
        "from there). A yes or no links to the picture of its "
        "layout (for a no, the best found).",
    ]
    return lines


def _check_cell(record: ColourRecord, yes_by: int | None = None) -> str:
    """A colour's answer at one position, linked to its picture if it has one; an unknown
    before a position answered yes (``yes_by``) reads "yes (by N)": that layout, after the
    moves played in between, places everything here too."""
    if record["answer"] == "unknown" and record.get("left") and yes_by is not None:
        return f"yes (by {yes_by})"
    text = _answer_text(record)
    picture = record.get("picture")
    return f"[{text}]({_url(picture)})" if picture and record.get("left") else text


def _answer_text(record: ColourRecord) -> str:
    answer = record["answer"]
    if not record.get("left"):
        return "done"
    if answer == "yes":
        return "**yes**"
    if answer == "no":
        best, bound = record.get("best"), record.get("bound")
        if best is None:
            return "no"
        if record.get("best_status") == "optimal" or bound in (None, best):
            return f"no {best}"
        return f"no {best}..{bound}"
    if record.get("best_left") is not None:
        return f"unknown (at best {record['best_left']} left)"
    return "unknown"


def _short_cell(short: dict[str, list[str]] | None) -> str | None:
    """An unknown's short colours for the CSV, e.g. "blue: I4 V5; red: 1"."""
    if not short:
        return None
    return "; ".join(f"{c}: {' '.join(v)}" for c, v in short.items())


def _table(head: list[str], body: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return lines


def _url(name: str) -> str:
    """A file in the results folder as a relative URL (spaces and the like escaped)."""
    return quote(name)


def _thumbnail(name: str, item: str) -> str:
    """A picture shown in a table cell, :data:`THUMBNAIL_WIDTH` pixels wide (HTML, as
    Markdown images cannot be given a size)."""
    return f'<img src="{_url(name)}" width="{THUMBNAIL_WIDTH}" alt={quoteattr(_cell(item))}>'


def _code(text: str, cell: bool = True) -> str:
    """``text`` (a file name, a command: text a file gave) as a code span that stays on
    its line (``cell``: in its table cell): control characters escaped, ``|`` escaped in
    a cell, fenced by one backtick more than the longest run of them in it (CommonMark)."""
    text = _cell(text) if cell else escaped(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """``text`` for a table cell: control characters escaped (a newline would end the
    table), ``|`` escaped."""
    return escaped(text).replace("|", "\\|")


def _after(row: Row) -> str:
    return "" if row.get("after") is None else str(row["after"])


def _limit(seconds: float | None) -> str:
    return "none" if seconds is None else f"{seconds:g} s"


def _seconds(seconds: float) -> str:
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.2f} s" if seconds >= 0.1 else f"{seconds * 1000:.0f} ms"
