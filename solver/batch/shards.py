"""Job arrays: a batch split into N shards (``batch --shard I/N``), and the shards' output
folders merged into one (``blokus-solo batch-merge``).

Shard I of N takes a fixed share of the items, the same whatever order the files were
found or named in: the items are grouped by file and position (a seed sweep's seeds stay
together, so one shard settles its puzzle as a single run would), the groups sorted by
(item name, position), and group k (from 0) goes to shard (k mod N) + 1. The shards are
disjoint and together hold every item; their sizes differ by at most one group.

Each shard's folder gets ``shard.json``: I, N, the fingerprint of the whole input (every
item's name, position, seed and content hash: :func:`fingerprint`), the settings that can
change an answer, and the shard's own items. ``batch-merge`` refuses folders whose
fingerprints, N or settings differ, a shard given twice or missing, records that are not
one split of the batch (an item in two shards, or dealt to another, fewer items than the
batch has), and (without ``--partial``) a shard whose items do not all have a result it
can keep: a shard's folder is only files, so a row is copied only if a resumed batch would
keep it (:func:`solver.batch.store.keep_problem`). It writes one folder as a single run
would have (the same rows, solution files, ``summary.csv`` and ``README.md``; the Runs
table lists the shards' runs and the merge), after every check, built beside ``--out``
and renamed into place when new.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import NotRequired, TypedDict, cast

from solver.batch import report
from solver.batch.items import Item, Kind, Source
from solver.batch.store import (
    RESULTS,
    Key,
    Store,
    keep_problem,
    row_files,
    row_key,
    settings_differ,
    settles,
)
from solver.batch.work import BatchSettings, SettingsKey, settings_for
from solver.errors import InputError
from solver.formats.files import check_output_folder, write_text_atomic
from solver.formats.structured import shape_problem
from solver.formats.text import is_file
from solver.quoting import shown
from solver.trust.rows import Row, inside, read_line

SHARD_FILE = "shard.json"


class ShardRecord(TypedDict):
    """What ``shard.json`` holds (:func:`record`)."""

    shard: int  # I
    of: int  # N
    inputs: str  # the fingerprint of the whole input (:func:`fingerprint`)
    items: NotRequired[int]  # of the whole input
    settings: NotRequired[SettingsKey]
    keys: list[tuple[str, int | None, int | None]]  # the shard's items: name, after, seed


#: the most shards (``--shard I/N`` takes up to 9 digits)
MAX_SHARDS = 999_999_999

_SHARD_RE = re.compile(r"^\s*(\d{1,9})\s*/\s*(\d{1,9})\s*$")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (1 <= index <= count)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``I/N`` (``--shard``), e.g. ``3/8``. Raises InputError (``where="--shard"``)."""
        m = _SHARD_RE.match(text)
        if not m:
            raise InputError(f"{shown(text)} is not I/N (e.g. 3/8)", where="--shard")
        index, count = int(m.group(1)), int(m.group(2))
        if not 1 <= index <= count:
            raise InputError(f"shard {index}/{count}: I must be 1..{count}", where="--shard")
        return cls(index, count)


def _group(item: Item) -> tuple[str, int]:
    return (item.source.name, -1 if item.after is None else item.after)


def select(items: Sequence[Item], shard: Shard) -> list[Item]:
    """The items of one shard (module docstring), in their given order."""
    groups = sorted({_group(i) for i in items})
    mine = {g for k, g in enumerate(groups) if k % shard.count == shard.index - 1}
    return [i for i in items if _group(i) in mine]


def fingerprint(items: Sequence[Item]) -> str:
    """SHA-256 (hex) of the whole input: every item's name, position, seed and content
    hash, sorted (the same for the same files, in any order)."""
    lines = sorted(
        json.dumps([i.source.name, i.after, i.seed, i.sha256, i.error is not None]) for i in items
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def record(shard: Shard, items: Sequence[Item], settings: BatchSettings) -> ShardRecord:
    """What ``shard.json`` holds for one shard of these items (all of the batch's)."""
    own = select(items, shard)
    return {
        "shard": shard.index,
        "of": shard.count,
        "inputs": fingerprint(items),
        "items": len(items),
        "settings": settings.key(),
        "keys": [(i.source.name, i.after, i.seed) for i in own],
    }


def _read_record(folder: Path) -> ShardRecord | None:
    path = folder / SHARD_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not {"shard", "of", "inputs", "keys"} <= set(data):
            raise ValueError
        if shape_problem(data, ShardRecord) is not None:
            raise ValueError
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        why = "not a shard record (JSON with shard, of, inputs, keys)"
        raise InputError(why, path=str(path)) from None
    if not 1 <= data["shard"] <= data["of"] <= MAX_SHARDS or data.get("items", 0) < 0:
        raise InputError(
            f"not a shard record: shard {data['shard']} of {data['of']} (I/N: 1 <= I <= N <= "
            f"{MAX_SHARDS}), items {data.get('items')}",
            path=str(path),
        )
    # its fields were just checked against ShardRecord's types (the keys as JSON lists)
    return cast(ShardRecord, data)


def check_folder(out: Path, wanted: ShardRecord | None) -> None:
    """Refuse, before anything is written, a batch into a folder that holds other work: a
    shard's folder for another shard or input (or for a run without ``--shard``), or a
    run's results for a shard. ``wanted``: this run's :func:`record`, None without
    ``--shard``.

    Raises:
        InputError: one line naming the folder and what it holds.
    """
    held = _read_record(out) if out.is_dir() else None
    if held is None:
        if wanted is not None and (out / RESULTS).is_file() and (out / RESULTS).stat().st_size:
            raise InputError(
                "holds results of a batch without --shard: give each shard its own folder",
                path=str(out),
                where="--out",
            )
        return
    this = f"shard {held['shard']}/{held['of']}"
    if wanted is None:
        raise InputError(
            f"holds {this} of a job array: give --shard {held['shard']}/{held['of']} "
            "or another --out",
            path=str(out),
            where="--out",
        )
    if (held["shard"], held["of"]) != (wanted["shard"], wanted["of"]):
        raise InputError(
            f"holds {this}, not {wanted['shard']}/{wanted['of']}", path=str(out), where="--out"
        )
    if held["inputs"] != wanted["inputs"] or held.get("settings") != wanted["settings"]:
        raise InputError(
            f"holds {this} of other inputs or settings: use another --out",
            path=str(out),
            where="--out",
        )


def write_record(out: Path, data: ShardRecord) -> None:
    """Write ``shard.json`` (atomically)."""
    write_text_atomic(out / SHARD_FILE, json.dumps(data, indent=1) + "\n")


@dataclass(frozen=True)
class MergeReport:
    """What ``batch-merge`` did: shards merged, rows written, items without a row it could
    keep (left out with ``--partial``), and a line per thing worth saying (a row not kept
    and why; results replayed without their input files)."""

    shards: int
    rows: int
    missing: int
    notes: tuple[str, ...] = ()


def merge(
    folders: Sequence[str | Path], out: str | Path, partial: bool = False, command: str = ""
) -> MergeReport:
    """Merge the output folders of shards 1..N of one batch into ``out``.

    Every shard's row is read as a resumed batch reads it (:func:`solver.trust.rows.read_row`)
    and copied only if it holds up as a resumed batch would keep it
    (:func:`solver.batch.store.keep_problem`: its files there and inside the shard's
    folder, its claims of a proof from a backend that can prove, each solution file
    replayed by the rule checker, against the item's file when it is at the row's
    ``path`` with the row's content) and was run with the shard's settings. Everything is
    read and checked before anything is written; a new ``out`` (or an empty one) is built
    beside it and renamed into place whole.

    Raises:
        InputError: a folder that is no shard's; shards of different inputs, shard counts
            or settings; a shard given twice or missing; shard records that do not hold
            the batch's items (an item in two shards, fewer items than the batch has, an
            item dealt to another shard); (without ``partial``) a shard with items
            without a result it can keep, each named with why; ``out`` one of the shards
            or not writable. Nothing is written then.
    """
    shards = [Path(f) for f in folders]
    records = []
    for folder in shards:
        data = _read_record(folder) if folder.is_dir() else None
        if data is None:
            raise InputError(f"not a shard's folder (no {SHARD_FILE})", path=str(folder))
        records.append(data)
    _check_same(shards, records)
    _check_cover(shards, records)
    out = check_output_folder(out)
    if any(out.resolve() == f.resolve() for f in shards):
        raise InputError("is one of the shards: merge into a new folder", path=str(out))
    kept: list[tuple[Row, dict[str, str]]] = []
    notes: list[str] = []
    missing = 0
    blind = 0  # rows whose solution files were replayed without the item's file
    _input.cache_clear()  # the inputs as they are now
    for folder, data in zip(shards, records):
        found = _shard_rows(folder, data, partial)
        kept += found.kept
        notes += found.notes
        missing += found.missing
        blind += found.blind
    if blind:
        notes.append(
            f"{blind} result(s) replayed without their input file (not at the row's path, "
            "or changed since): their solution files were checked by the rules and "
            "against their rows, not against the puzzles or games"
        )
    order = {id(r): k for k, r in enumerate(report.ordered([r for r, _ in kept]))}
    kept.sort(key=lambda pair: order[id(pair[0])])  # the reading order of the report
    _write(out, shards, kept, command)
    return MergeReport(len(shards), len(kept), missing, tuple(notes))


def _write(
    out: Path, shards: list[Path], kept: list[tuple[Row, dict[str, str]]], command: str
) -> None:
    """Write the merged folder: rows and files checked already. A new (or empty) ``out``
    is built in a hidden folder beside it (``.NAME.XXXXXXXX``) and renamed into place at
    the end, so a merge stopped on the way (a full disk, Ctrl-C) leaves no part of one;
    into a folder with results already, the rows are added as a batch adds them."""
    target = Path(os.path.realpath(out))
    fresh = not target.exists() or (target.is_dir() and not any(target.iterdir()))
    building = target
    try:
        if fresh:
            target.parent.mkdir(parents=True, exist_ok=True)
            building = Path(tempfile.mkdtemp(prefix=f".{target.name[-100:]}.", dir=target.parent))
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", path=str(out)) from None
    try:
        store = Store(building)
        store.open()
        try:
            for row, files in kept:
                store.add(row, files)
            store.compact()
            for folder in shards:
                for run in Store(folder).runs():
                    store.add_run(run)
            store.add_run(
                {
                    "finished": datetime.now(UTC).isoformat(timespec="seconds"),
                    "command": command,
                    "ran": 0,
                    "skipped": 0,
                    "seconds": 0.0,
                    "on": f"merge of {len(shards)} shards",
                    "interrupted": False,
                    "version": _version(),
                }
            )
            store.write_reports()
        finally:
            store.close()
        if fresh:
            try:
                os.rename(building, target)  # over an empty folder too
            except OSError as e:
                raise InputError(f"cannot write: {e.strerror or e}", path=str(out)) from None
    except BaseException:
        if fresh:
            shutil.rmtree(building, ignore_errors=True)
        raise


def _version() -> str:
    try:
        return metadata.version("blokus-solo")
    except metadata.PackageNotFoundError:
        return "unknown"


def _check_same(shards: list[Path], records: list[ShardRecord]) -> None:
    first, where = records[0], str(shards[0])
    for folder, data in zip(shards[1:], records[1:]):
        if data["inputs"] != first["inputs"] or data["of"] != first["of"]:
            raise InputError(
                f"shards of different inputs: {shown(str(folder))} is shard "
                f"{data['shard']}/{data['of']} of other files or positions than {shown(where)}",
                path=str(folder),
            )
        if data.get("settings") != first.get("settings"):
            raise InputError(
                f"shards run with different settings than {shown(where)}", path=str(folder)
            )
    seen: dict[int, Path] = {}
    for folder, data in zip(shards, records):
        if data["shard"] in seen:
            also = shown(str(seen[data["shard"]]))
            raise InputError(
                f"shard {data['shard']}/{data['of']} given twice (also {also})", path=str(folder)
            )
        seen[data["shard"]] = folder
    if len(seen) < first["of"]:  # (the first few missing: N may be large)
        lacking = islice((k for k in range(1, first["of"] + 1) if k not in seen), 5)
        which = ", ".join(f"{k}/{first['of']}" for k in lacking)
        more = first["of"] - len(seen) - min(5, first["of"] - len(seen))
        also = f" and {more} more" if more else ""
        raise InputError(f"shard {which}{also} missing: give every shard's folder")


def _check_cover(shards: list[Path], records: list[ShardRecord]) -> None:
    """Refuse shard records (of one input, every shard given: :func:`_check_same`) that do
    not hold the batch's items as :func:`select` deals them: an item in two shards, fewer
    or more items than the batch has (``items``: an edited ``shard.json``, e.g. ``"of": 1``
    for a shard of 14), an item listed by another shard than the one it is dealt to."""
    count = records[0]["of"]
    folders = {data["shard"]: folder for folder, data in zip(shards, records)}
    holder: dict[tuple[str, int | None, int | None], int] = {}
    for folder, data in zip(shards, records):
        for name, after, seed in data["keys"]:
            if (name, after, seed) in holder:
                raise InputError(
                    f"{shown(name)} is listed by shard {holder[name, after, seed]}/{count} and "
                    f"shard {data['shard']}/{count}: not one split (a shard.json edited?)",
                    path=str(folder / SHARD_FILE),
                )
            holder[name, after, seed] = data["shard"]
    total = records[0].get("items")
    if total is not None and len(holder) != total:
        lack = f"{total - len(holder)} of them are in no shard given"
        if len(holder) > total:
            lack = "more than it has"
        raise InputError(
            f"the batch has {total} items (shard.json), the shards given list {len(holder)}: "
            f"{lack} (a shard missing, or a shard.json edited: give every shard's folder)",
            path=str(shards[0] / SHARD_FILE),
        )
    groups: dict[tuple[str, int], set[int]] = {}
    for (name, after, _), shard in holder.items():
        groups.setdefault((name, -1 if after is None else after), set()).add(shard)
    for k, group in enumerate(sorted(groups)):
        dealt = k % count + 1
        if groups[group] != {dealt}:
            other = min(groups[group] - {dealt})
            raise InputError(
                f"shard {other}/{count} lists {shown(group[0])}, which the split deals to "
                f"shard {dealt}/{count}: not one split (a shard.json edited?)",
                path=str(folders[other] / SHARD_FILE),
            )


@dataclass
class _ShardRows:
    """What one shard gives the merge: its rows that hold up, with their files' text; its
    items without such a row; lines to say; rows replayed without their input file."""

    kept: list[tuple[Row, dict[str, str]]]
    missing: int
    notes: list[str]
    blind: int


def _shard_rows(folder: Path, data: ShardRecord, partial: bool) -> _ShardRows:
    """Each shard's latest row of each of its own items, kept only if it holds up
    (:func:`_merge_problem`), and how many of its items have none (refused unless
    ``partial``, naming them and why).

    Raises:
        InputError: (without ``partial``) items without a row that holds up; the results
            file cannot be read.
    """
    this = f"shard {data['shard']}/{data['of']}"
    keys = {(name, after, seed) for name, after, seed in data["keys"]}
    notes: list[str] = []
    latest, dropped = _latest_rows(folder, keys, notes)
    kept: list[tuple[Row, dict[str, str]]] = []
    lacking: dict[tuple[str, int | None, int | None], str] = {}
    blind = 0
    for key, row in latest.items():
        item = _item_of(row)
        why = _merge_problem(folder, row, item, data)
        files: dict[str, str] = {}
        if why is None:
            why, files = _texts(folder, row)
        if why is not None:
            lacking[key[:3]] = why
            continue
        kept.append((row, files))
        if item.data is None and row.get("status") == "done" and row_files(row):
            blind += 1
    settled = {r["item"] for r, _ in kept if r.get("sweep") and settles(r)}
    for name, after, seed in keys - {k[:3] for k in latest}:
        if seed is None or name not in settled:  # (a sweep's seeds dropped: not run)
            why = dropped.get(name)
            lacking[name, after, seed] = "no result" if why is None else f"its row dropped: {why}"
    for (name, after, _), why in sorted(lacking.items(), key=str)[:10]:
        at = "" if after is None else f" after {after}"
        notes.append(f"{this}: {shown(name)}{at}: not merged ({shown(why)})")
    if lacking and not partial:
        (name, after, _), why = min(lacking.items(), key=str)
        at = "" if after is None else f" after {after}"
        raise InputError(
            f"{this}: {len(lacking)} of its {len(keys)} items have no result it can keep "
            f"(e.g. {shown(name)}{at}: {shown(why)}); run it again to finish it, or merge "
            "with --partial",
            path=str(folder),
        )
    return _ShardRows(kept, len(lacking), notes, blind)


def _latest_rows(
    folder: Path, keys: set[tuple[str, int | None, int | None]], notes: list[str]
) -> tuple[dict[Key, Row], dict[str, str]]:
    """The shard's latest row of each of its own items (``keys``), each line read as a
    resumed batch reads it; a line that is no results row is dropped with a line in
    ``notes`` (one cut short by a crash silently), and why, by the item it names if any.

    Raises:
        InputError: ``results.jsonl`` cannot be read.
    """
    path = folder / RESULTS
    try:
        lines = path.read_bytes().splitlines() if path.exists() else []
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}", path=str(path)) from None
    latest: dict[Key, Row] = {}
    dropped: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        row = read_line(line)
        if row is None:
            continue  # a line cut short by a crash
        if isinstance(row, str):
            notes.append(f"{shown(str(path))} line {number}: dropped ({shown(row)})")
            if (item := _item_named(line)) is not None:
                dropped[item] = row
            continue
        key = row_key(row)
        if key[:3] in keys:
            latest[key] = row
    return latest, dropped


def _item_named(line: bytes) -> str | None:
    """The item a line that is no results row names, if it names one (for a message)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    item = value.get("item") if isinstance(value, dict) else None
    return item if isinstance(item, str) else None


def _item_of(row: Row) -> Item:
    """The item a row answers, as far as the row says: its name, position, sweep seed and
    kind, with the bytes of the file at the row's ``path`` when that file is here and has
    the row's content (SHA-256), else without (``data`` None)."""
    given = row.get("kind")
    kind: Kind = "puzzle" if given == "puzzle" else "game" if given == "game" else "unknown"
    where = Path(row.get("path") or row["item"])
    data = _input(str(where), row.get("sha256"))
    seed = row.get("seed") if row.get("sweep") else None
    source = Source(where, row["item"], kind)
    return Item(source, data, row.get("sha256"), row.get("after"), bool(row.get("end")), seed=seed)


@lru_cache(maxsize=16)  # a game record's positions are rows of one file (cleared per merge)
def _input(path: str, sha256: str | None) -> bytes | None:
    """The bytes of the file at ``path`` if it is here and has this SHA-256, else None."""
    try:
        data = Path(path).read_bytes() if is_file(path) else None
    except OSError:  # gone since, or not readable
        return None
    return data if data is not None and hashlib.sha256(data).hexdigest() == sha256 else None


def _merge_problem(folder: Path, row: Row, item: Item, data: ShardRecord) -> str | None:
    """Why a shard's latest row of an item cannot be merged, or None: it must be run with
    the shard's settings, and be an error row or a done row that a resumed batch would
    keep (:func:`solver.batch.store.keep_problem`)."""
    held = data.get("settings")
    if held is not None:
        differ = settings_differ(row, settings_for(item, BatchSettings(**held)))
        if differ:
            return f"not run with the shard's settings ({', '.join(differ)} differ)"
    status = row.get("status")
    if status == "error":
        return None
    if status != "done":
        return f"status {shown(str(status))}, neither done nor error"
    return keep_problem(folder, row, item if item.data is not None else None)


def _texts(folder: Path, row: Row) -> tuple[str | None, dict[str, str]]:
    """The text of every file the row names (checked inside the folder), or why one
    cannot be read."""
    files: dict[str, str] = {}
    for name in sorted(row_files(row)):
        path = inside(folder, name)
        try:
            if path is None:
                return f"{name} leads out of the folder", {}
            files[name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8"
            return f"{name} cannot be read ({why or e})", {}
    return None, files
