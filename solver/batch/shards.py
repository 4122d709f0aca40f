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
fingerprints, N or settings differ, a shard given twice or missing, and (without
``--partial``) a shard whose items are not all done; it writes one folder as a single run
would have (the same rows, solution files, ``summary.csv`` and ``README.md``; the Runs
table lists the shards' runs and the merge).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from solver.batch import report
from solver.batch.items import Item
from solver.batch.store import RESULTS, Store, row_files, row_key
from solver.batch.work import Settings
from solver.errors import InputError
from solver.formats.files import check_output_folder, write_text_atomic
from solver.quoting import shown
from solver.trust.rows import row_problem

SHARD_FILE = "shard.json"

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


def record(shard: Shard, items: Sequence[Item], settings: Settings) -> dict:
    """What ``shard.json`` holds for one shard of these items (all of the batch's)."""
    own = select(items, shard)
    return {
        "shard": shard.index,
        "of": shard.count,
        "inputs": fingerprint(items),
        "items": len(items),
        "settings": settings.key(),
        "keys": [[i.source.name, i.after, i.seed] for i in own],
    }


def _read_record(folder: Path) -> dict | None:
    path = folder / SHARD_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not {"shard", "of", "inputs", "keys"} <= set(data):
            raise ValueError
        return data
    except (OSError, ValueError, UnicodeDecodeError):
        why = "not a shard record (JSON with shard, of, inputs, keys)"
        raise InputError(why, path=str(path)) from None


def check_folder(out: Path, wanted: dict | None) -> None:
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


def write_record(out: Path, data: dict) -> None:
    """Write ``shard.json`` (atomically)."""
    write_text_atomic(out / SHARD_FILE, json.dumps(data, indent=1) + "\n")


@dataclass(frozen=True)
class MergeReport:
    """What ``batch-merge`` did: shards merged, rows written, items without a row."""

    shards: int
    rows: int
    missing: int


def merge(
    folders: Sequence[str | Path], out: str | Path, partial: bool = False, command: str = ""
) -> MergeReport:
    """Merge the output folders of shards 1..N of one batch into ``out``.

    Raises:
        InputError: a folder that is no shard's; shards of different inputs, shard counts
            or settings; a shard given twice or missing; (without ``partial``) a shard
            with items not done; ``out`` one of the shards or not writable. Nothing is
            written then.
    """
    shards = [Path(f) for f in folders]
    records = []
    for folder in shards:
        data = _read_record(folder) if folder.is_dir() else None
        if data is None:
            raise InputError(f"not a shard's folder (no {SHARD_FILE})", path=str(folder))
        records.append(data)
    _check_same(shards, records)
    out = check_output_folder(out)
    if any(out.resolve() == f.resolve() for f in shards):
        raise InputError("is one of the shards: merge into a new folder", path=str(out))
    rows, missing = _rows(shards, records, partial)
    order = {id(r): k for k, r in enumerate(report.ordered([r for r, _ in rows]))}
    rows.sort(key=lambda pair: order[id(pair[0])])  # the reading order of the report
    store = Store(out)
    store.open()
    try:
        for row, folder in rows:
            files = {name: (folder / name).read_text(encoding="utf-8") for name in row_files(row)}
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
    return MergeReport(len(shards), len(rows), missing)


def _version() -> str:
    try:
        return metadata.version("blokus-solo")
    except metadata.PackageNotFoundError:
        return "unknown"


def _check_same(shards: list[Path], records: list[dict]) -> None:
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
    lacking = [k for k in range(1, first["of"] + 1) if k not in seen]
    if lacking:
        which = ", ".join(f"{k}/{first['of']}" for k in lacking[:5])
        raise InputError(f"shard {which} missing: give every shard's folder")


def _rows(
    shards: list[Path], records: list[dict], partial: bool
) -> tuple[list[tuple[dict, Path]], int]:
    """Each shard's rows of its own items (the latest per item), and how many of its items
    have none (refused unless ``partial``)."""
    found: list[tuple[dict, Path]] = []
    missing = 0
    for folder, data in zip(shards, records):
        keys = {(name, after, seed) for name, after, seed in data["keys"]}
        latest: dict[tuple, dict] = {}
        path = folder / RESULTS
        lines = path.read_bytes().splitlines() if path.exists() else []
        for line in lines:
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):
                continue  # a line cut short by a crash
            if row_problem(row) is not None:
                continue
            name, after, seed, _ = row_key(row)
            if (name, after, seed) in keys:
                latest[row_key(row)] = row
        done = {(k[0], k[1], k[2]) for k in latest}
        lack = len(keys - done)
        if lack and not partial:
            raise InputError(
                f"shard {data['shard']}/{data['of']}: {lack} of its {len(keys)} items have no "
                "result (run it again to finish it, or merge with --partial)",
                path=str(folder),
            )
        missing += lack
        found += [(row, folder) for row in latest.values()]
    return found, missing
