"""The results of a batch in its output folder, kept so that a batch killed at any moment
(Ctrl-C, ``kill -9``, a power cut) loses no finished result and leaves no file half
written.

- ``results.jsonl``: one JSON line per finished item, appended as soon as it finishes, in
  one ``write`` of the whole line, then flushed to disk (``fsync``). A line cut short by a
  crash in the middle of that write is the only damage possible: it is dropped when the
  folder is opened again (its item is simply done again).
- ``solutions/...``: the solution files and their pictures, each written to a temporary
  file, synced, then renamed over its name (so a reader sees the old file or the new one,
  never a part), and always before the line that names it.
- When an item is done again (``--force``, new content or settings, or a crashed item),
  its new line supersedes the old one; solution files only the old one named are removed,
  and at the end ``results.jsonl`` is rewritten (write-then-rename) with one line per item.

One batch at a time may write to a folder (an advisory lock on the folder; a second one is
refused with a one-line error).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from solver.batch import report
from solver.batch.items import Item
from solver.batch.replay import replay_problem
from solver.batch.report import RunRecord
from solver.batch.work import PICTURE_SUFFIX, BatchSettings, base_row, settings_for
from solver.errors import InputError
from solver.formats.files import check_output, write_text_atomic
from solver.formats.structured import parse_json, shape_problem
from solver.quoting import shown
from solver.trust.proofs import as_trusted, untrusted_claim
from solver.trust.rows import SOLUTIONS, SWEEPS, Row, inside, read_line

RESULTS = "results.jsonl"
RUNS = "runs.jsonl"
SUMMARY = "summary.csv"
README = "README.md"

#: a result's place in the folder: item name, position, sweep seed (None outside a seed
#: sweep: a run with another ``--seed`` then replaces the result), and whether it is the
#: joint check (``--together``), which answers another question than the per-colour checks
#: and is kept beside them
Key = tuple[str, int | None, int | None, bool]

# the temporary files of write_text_atomic (tempfile.mkstemp(prefix=".NAME.")) for our files
_TEMPORARY = re.compile(r"^\..+\.(json|jsonl|csv|md|svg)\.[A-Za-z0-9_]{8}$")


def row_key(row: Row) -> Key:
    """A row's :data:`Key`.

    Raises:
        TypeError: the row is not a results row (not an object, or a sweep row whose seed
            is not a number).
        KeyError: it has no item.
    """
    if not isinstance(row, dict):
        raise TypeError("not a results row")
    seed = row["seed"] if row.get("sweep") else None
    if seed is not None and not isinstance(seed, int):
        raise TypeError("a sweep row's seed is not a number")
    return (row["item"], row.get("after"), seed, bool(row.get("together")))


#: settings that rows written before they existed lack, with the value those rows had
_OLD_DEFAULTS = {"together": False}

#: what a seed sweep's rows have in common (:func:`sweep_question`): item, SHA-256,
#: backend, time limit, CP-SAT parameters, joint check
SweepQuestion = tuple[str, str | None, str | None, float | None, str | None, bool]


def sweep_question(row: Row) -> SweepQuestion:
    """What a seed sweep's rows have in common: the item, its content and every setting
    but the seed (rows of one sweep answer one question, each with its own seed)."""
    return (
        row["item"],
        row.get("sha256"),
        row.get("backend"),
        row.get("time_limit"),
        row.get("params"),
        bool(row.get("together")),
    )


def settles(row: Row) -> bool:
    """A sweep row that makes the puzzle's other seeds moot: a proven answer (a layout of
    a place-all puzzle, a proven best layout, a proof of no, from a backend that can prove:
    :func:`solver.trust.proofs.untrusted_claim`), or bad input. A max-score layout not proven best
    does not: another seed may score more."""
    status = row.get("solve_status")
    proven = status in ("optimal", "infeasible") and untrusted_claim(row) is None
    return (
        proven
        or (status == "solved" and row.get("goal") != "max-score")
        or (row.get("error_kind") == "input")
    )


def row_files(row: Row) -> set[str]:
    """The solution files and pictures a row names."""
    names: set[str | None] = set()
    for record in (row, *row.get("colours", [])):
        names |= {record.get("solution"), record.get("picture")}
    return {n for n in names if n}


def settings_differ(row: Row, settings: BatchSettings) -> list[str]:
    """The settings (:meth:`solver.batch.work.BatchSettings.key`: backend, time limit, seed,
    CP-SAT parameters, joint check) in which ``row`` differs from ``settings`` (an item's:
    :func:`solver.batch.work.settings_for`); empty: it was run with them."""
    return [k for k, v in settings.key().items() if row.get(k, _OLD_DEFAULTS.get(k)) != v]


def keep_problem(folder: Path, row: Row, item: Item | None) -> str | None:
    """Why a done row of the results folder ``folder`` cannot be kept (by a resumed batch,
    for a sweep's other seeds, by ``batch-merge``), or None: every file it names must be
    there, inside the folder (:func:`solver.trust.rows.inside`); any proof it claims (a
    no, a proven best) must be from a backend that can prove
    (:func:`solver.trust.proofs.untrusted_claim`); and each solution file must replay for
    ``item`` (:func:`solver.batch.replay.replay_problem`; None: the item's file is not at
    hand, each file is replayed against the row alone)."""
    for name in sorted(row_files(row)):
        path = inside(folder, name)
        if path is None:
            return f"{name} leads out of the folder"
        if not path.is_file():
            return f"{name} is not there"
    why = untrusted_claim(row)
    if why is not None:
        return f"its claim is not trusted: {why}"
    return replay_problem(folder, row, item)


class Store:
    """An output folder: the rows in it and the way to add more.

    Attributes:
        folder: the output folder.
        rows: the latest row of each item (key: item name, position and whether it is a
            joint check), in the order the items were first finished.
        dropped: lines of ``results.jsonl`` that were not whole results when it was opened
            (a line cut short by a crash): they are dropped.
        notes: one line per row that was read but is not kept (a field of the wrong type
            or a file name out of the folder, :func:`solver.trust.rows.row_problem`; a
            row that does not hold up, :func:`keep_problem`): its item is done again.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.rows: dict[Key, Row] = {}
        #: per sweep question (:func:`sweep_question`), a row that settled it, and whether
        #: that row was written by this run
        self._settled: dict[SweepQuestion, tuple[Row, bool]] = {}
        self._sweeps: dict[str, set[Key]] = {}  # the keys of each item's sweep rows
        self._named: Counter[str] = Counter()  # how many rows name each file
        self.dropped = 0
        self.notes: list[str] = []
        self._noted: set[Key] = set()
        self._superseded = False
        self._lock: int | None = None
        self._log: int | None = None

    def open(self) -> None:
        """Make the folder, lock it, read its rows, cut a torn last line.

        Raises:
            InputError: another batch is writing to this folder; it cannot be made.
        """
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            why = e.strerror or e
            raise InputError(f"cannot make the folder: {why}", path=str(self.folder)) from None
        self._take_lock()
        try:
            self._check_outputs()
            self._remove_temporary_files()
            path = self.folder / RESULTS
            if path.exists():
                self._read(path)
            self._remove_unnamed_solutions()
            self._log = _open_log(path)
        except BaseException:  # the lock is let go: the same folder may be tried again
            self.close()
            raise

    def _check_outputs(self) -> None:
        """Refuse, before any work, a folder whose files cannot be written: one of them a
        folder (``results.jsonl/``), a link to nothing writable, ``solutions`` a file.

        Raises:
            InputError: naming the file; nothing in the folder is changed.
        """
        for name in (RESULTS, RUNS, SUMMARY, README):
            check_output(self.folder / name, where="")
        for name in (SOLUTIONS, SWEEPS):
            path = self.folder / name
            if (path.exists() or path.is_symlink()) and not path.is_dir():
                raise InputError("is a file, not a folder", path=str(path))
            if path.is_dir() and inside(self.folder, name + "/x") is None:
                raise InputError(
                    "is a link out of the results folder: its files would be written and "
                    "removed elsewhere",
                    path=str(path),
                )

    def _take_lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # not on POSIX: no lock
            return
        self._lock = os.open(self.folder, os.O_RDONLY)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._lock)
            self._lock = None
            raise InputError(
                "another batch is writing to this folder (wait for it, or use another --out)",
                path=str(self.folder),
            ) from None

    def _remove_temporary_files(self) -> None:
        """Remove what a write-then-rename killed before its rename left behind (a
        temporary ``.NAME.XXXXXXXX`` beside the file it was for): never a result."""
        inside = [self.folder / name for name in (SOLUTIONS, SWEEPS)]
        for folder in (self.folder, *inside, *(f for top in inside for f in top.rglob("*"))):
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                if _TEMPORARY.match(path.name) and path.is_file() and self._inside(path):
                    path.unlink()

    def _remove_unnamed_solutions(self) -> None:
        """Remove solution files and pictures that no row names: written by a batch
        stopped before it could append the row (the item is done again)."""
        named = set().union(*map(row_files, self.rows.values()))
        for folder in (self.folder / SOLUTIONS, self.folder / SWEEPS):
            if not folder.is_dir():
                continue
            for pattern in ("*.json", "*" + PICTURE_SUFFIX):
                for path in folder.rglob(pattern):
                    if path.relative_to(self.folder).as_posix() not in named and self._inside(path):
                        path.unlink()

    def _inside(self, path: Path) -> bool:
        """Whether ``path`` (under the folder, as found) is the folder's own: it does not
        lead out of it through a symbolic link (:func:`solver.trust.rows.inside`)."""
        if path.parent == self.folder:
            return True
        return inside(self.folder, path.relative_to(self.folder).as_posix()) is not None

    def _read(self, path: Path) -> None:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", path=str(path)) from None
        latest: dict[str, SweepQuestion] = {}  # per item, the question of its last sweep line
        sweeps: dict[str, set[Key]] = {}  # per item, the keys of its sweep rows so far
        whole = data.rfind(b"\n") + 1
        if whole < len(data):  # a line cut short by a crash: drop it
            self.dropped += 1
            os.truncate(path, whole)
        for number, line in enumerate(data[:whole].splitlines(), start=1):
            row = read_line(line)
            if row is None:  # not JSON: a line cut short
                self.dropped += 1
                self._superseded = True  # rewritten without it at the end
                continue
            if isinstance(row, str):  # not UTF-8, a number out of range, the wrong shape
                self.notes.append(f"{RESULTS} line {number}: dropped ({row}): done again")
                self._superseded = True
                continue
            key = row_key(row)
            if key in self.rows:
                self._superseded = True
            if row.get("sweep"):  # a sweep of other content or settings: as in add()
                question = sweep_question(row)
                if latest.get(row["item"], question) != question:
                    for k in sweeps.pop(row["item"], set()):
                        self.rows.pop(k, None)
                    self._superseded = True
                latest[row["item"]] = question
                sweeps.setdefault(row["item"], set()).add(key)
            self.rows[key] = row
        for key, row in self.rows.items():
            self._named.update(row_files(row))
            if row.get("sweep"):
                self._sweeps.setdefault(row["item"], set()).add(key)
                if settles(row):
                    self._settled.setdefault(sweep_question(row), (row, False))

    def is_done(self, item: Item, settings: BatchSettings) -> bool:
        """Whether the folder holds a result for this item that can be kept: same content
        (the SHA-256 of the file now) and settings, and finished (an error row counts only
        for bad input, which would fail again; a crash or an internal error is worth
        another try). A done row is kept only if it holds up (:func:`keep_problem`: its
        files there, its claims of a proof trusted, its solution files replayed for the
        item); if not, a note says why: an edited row is done again, not trusted."""
        row = self.rows.get((*item.key, settings_for(item, settings).together))
        if row is None or row.get("sha256") != item.sha256:
            return False
        if settings_differ(row, settings_for(item, settings)):
            return False
        if row.get("status") == "done":
            return self._kept(row, item)
        return row.get("error_kind") == "input"

    def _kept(self, row: Row, item: Item) -> bool:
        """Whether the done row holds up for the item as it is now (:func:`keep_problem`);
        if not, a note says why."""
        why = keep_problem(self.folder, row, item)
        if why is not None and row_key(row) not in self._noted:
            self._noted.add(row_key(row))
            self.notes.append(f"{shown(row['item'])}: not kept ({shown(why)}): done again")
        return why is None

    def settled(self, item: Item, settings: BatchSettings, this_run: bool = False) -> Row | None:
        """For one seed of a seed sweep: the row of another run of the same puzzle (same
        content and settings but the seed) that answered it ("solved" or "no") or found
        it bad input (every seed would), so that this one need not run; None if there is
        none (or the item is not a sweep's). ``this_run``: only a row written since the
        folder was opened counts (``--force`` redoes the rest)."""
        if item.seed is None:
            return None
        question = sweep_question(base_row(item, settings))
        found = self._settled.get(question)
        if found is None or (this_run and not found[1]):
            return None
        return found[0] if found[1] or self._kept(found[0], item) else None

    def add(self, row: Row, files: dict[str, str]) -> None:
        """Write an item's solution files, then append its row (synced to disk).

        Raises:
            InputError: a file cannot be written (e.g. the disk is full).
        """
        for name, text in files.items():
            target = inside(self.folder, name)
            if target is None:
                raise InputError("not a file of this results folder", path=str(self.folder / name))
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:  # e.g. a file where the folder should be
                why = e.strerror or e
                raise InputError(f"cannot make its folder: {why}", path=str(target)) from None
            write_text_atomic(target, text)
        assert self._log is not None, "open() first"
        _append_line(self._log, row, self.folder / RESULTS)
        key = row_key(row)
        gone = [key] if key in self.rows else []
        if row.get("sweep"):  # a sweep of other content or settings: its rows are stale
            question = sweep_question(row)
            sweeps = self._sweeps.setdefault(row["item"], set())
            gone += [k for k in sweeps if k != key and sweep_question(self.rows[k]) != question]
            for k in gone:
                if sweep_question(self.rows[k]) != question:
                    self._settled.pop(sweep_question(self.rows[k]), None)
                sweeps.discard(k)
            sweeps.add(key)
            if settles(row):
                self._settled[question] = (row, True)
            elif key in gone:
                held = self._settled.get(question)
                if held is not None and row_key(held[0]) == key:
                    del self._settled[question]  # its settling row is being replaced
        if gone:
            self._superseded = True
        old_files: set[str] = set()
        for k in gone:
            files_of = row_files(self.rows.pop(k))
            self._named.subtract(files_of)
            old_files |= files_of
        self.rows[key] = row
        self._named.update(row_files(row))
        self._remove({n for n in old_files if self._named[n] <= 0})  # none another row names

    def runs(self) -> list[RunRecord]:
        """The runs recorded in ``runs.jsonl`` (one line per batch run), oldest first; a
        line that is no run record (cut short by a crash, or edited: a field of the wrong
        type, a number out of range) is left out: it only feeds the README's table."""
        path = self.folder / RUNS
        try:
            data = path.read_bytes() if path.exists() else b""
        except OSError:  # checked writable when the folder was opened: gone since
            return []
        out: list[RunRecord] = []
        for line in data.splitlines():
            try:
                run = parse_json(line.decode("utf-8"))
            except (UnicodeDecodeError, InputError):
                continue
            if shape_problem(run, RunRecord) is None:
                out.append(run)
        return out

    def add_run(self, record: RunRecord) -> None:
        """Append a line about this run to ``runs.jsonl`` (synced to disk)."""
        path = self.folder / RUNS
        fd = _open_log(path)
        try:
            _append_line(fd, record, path)
        finally:
            os.close(fd)

    def write_reports(self) -> Counter[str]:
        """Write ``summary.csv`` and ``README.md`` for every row in the folder (claims that
        cannot be trusted shown as unknown: :func:`solver.trust.proofs.as_trusted`);
        returns the counts (:func:`solver.batch.report.tally`)."""
        rows = [as_trusted(r) for r in self.rows.values()]
        write_text_atomic(self.folder / SUMMARY, report.summary_csv(rows))
        write_text_atomic(self.folder / README, report.readme(rows, self.runs()))
        return report.tally(rows)

    def _remove(self, names: set[str]) -> None:
        for name in names:
            path = inside(self.folder, name)  # never a file out of the folder
            if path is not None and path.is_file():
                path.unlink()

    def compact(self) -> None:
        """Rewrite ``results.jsonl`` with one line per item (write-then-rename), if lines
        were superseded or dropped; appending goes on in the new file."""
        if not self._superseded:
            return
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.rows.values())
        write_text_atomic(self.folder / RESULTS, text)
        if self._log is not None:
            os.close(self._log)
        self._log = os.open(self.folder / RESULTS, os.O_WRONLY | os.O_APPEND)
        self._superseded = False

    def close(self) -> None:
        for fd in (self._log, self._lock):
            if fd is not None:
                os.close(fd)
        self._log = self._lock = None


def _open_log(path: Path) -> int:
    """``path`` opened to append lines (made if missing).

    Raises:
        InputError: it cannot be (a folder, a link to nothing, no permission).
    """
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", path=str(path)) from None


def _append_line(fd: int, data: Mapping[str, object], path: Path) -> None:
    """Append ``data`` as one JSON line in one write, then sync it to disk.

    Raises:
        InputError: it cannot be written (e.g. the disk is full).
    """
    line = (json.dumps(data, separators=(",", ":")) + "\n").encode()
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", path=str(path)) from None
