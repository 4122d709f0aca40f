"""The ``batch`` command's work: find the items, skip those already done, run the rest in
parallel with a progress display, store each result as it comes, then write the summary.

Every check of the command line (paths, output folder, scheduler) happens before the
output folder is touched, so bad input changes nothing there.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from types import FrameType
from typing import NoReturn

from rich.console import Console

from solver.batch import shards
from solver.batch.display import Display, make_display
from solver.batch.items import Item, find_sources, make_items
from solver.batch.pools import (
    DaskPool,
    DaskUnavailable,
    LocalPool,
    dask_client,
    signal_handled,
)
from solver.batch.report import COUNTED
from solver.batch.store import README, RESULTS, SUMMARY, Store
from solver.batch.work import BatchSettings, Outcome, picture_name, solution_name
from solver.core.variants import COLOUR_LETTERS
from solver.errors import InputError
from solver.formats.files import check_names_inside, check_output_folder
from solver.ranges import MAX_SEED
from solver.trust.rows import Row

#: the worker pool (docs/glossary.md#pool) the items run in: local worker processes or a
#: Dask cluster
WorkerPool = LocalPool | DaskPool


@dataclass(frozen=True)
class BatchOptions:
    """What ``blokus-solo batch`` was asked.

    Attributes:
        paths: files and folders to take puzzles and game records from.
        out: the output folder.
        settings: backend, time limit per solve, seed, threads per solve, CP-SAT parameters.
        every: check each game after every N-th placement (and at its end).
        after: check each game after N placements (default: its end).
        jobs: worker processes (default: this machine's cores); with ``scheduler="local"``
            the local Dask cluster's workers.
        scheduler: a Dask scheduler address, "local" for a new local cluster, or None for
            local worker processes.
        force: redo items already done.
        command: the command line, recorded in the README.
        seeds: a seed sweep when over 1: each puzzle runs as this many items, with seeds
            ``settings.seed``, ``settings.seed + 1``, ...; once one of them answers the
            puzzle (solved or no), its seeds not yet started are not run.
        shard: run only this shard of the items (a job array's task:
            :mod:`solver.batch.shards`), or None for all.
    """

    paths: Sequence[str | Path]
    out: Path
    settings: BatchSettings = field(default_factory=BatchSettings)
    every: int | None = None
    after: int | None = None
    jobs: int | None = None
    scheduler: str | None = None
    force: bool = False
    command: str = ""
    seeds: int = 1
    shard: shards.Shard | None = None


@dataclass
class BatchReport:
    """What a batch run did: items run and skipped, the counts over every row of the output
    folder, wall time."""

    ran: int
    skipped: int
    counts: Counter[str]
    seconds: float
    interrupted: bool = False
    not_run: int = 0  # seeds of a sweep whose puzzle another seed answered during the run


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run_batch(options: BatchOptions, console: Console | None = None) -> BatchReport:
    """Run a batch (see :class:`BatchOptions`) and write its output folder.

    Raises:
        InputError: bad input found before anything ran (missing path, empty folder,
            output path that is a file, --every with --after, unreachable scheduler,
            another batch writing to the folder): the folder is left as it was.
        KeyboardInterrupt: Ctrl-C (or SIGTERM); every finished result is kept and the
            summary written for them.
    """
    console = console or Console(highlight=False, soft_wrap=True)
    if options.every is not None and options.after is not None:
        raise InputError("give --every or --after, not both", where="--every")
    out = Path(options.out)
    check_output_folder(out)
    sources = find_sources(options.paths, skip=out if out.exists() else None)
    settings = options.settings
    if settings.backend == "symmetric" and any(s.kind == "game" for s in sources):
        raise InputError(
            "--backend symmetric cannot check game records (it finds layouts only, never "
            "a no); use auto, search or cpsat",
            where="--backend",
        )
    sweep_seeds(options)  # a bad --seeds is refused before the pool starts
    jobs = options.jobs or default_jobs()
    pool = _pool(options.scheduler, jobs, settings)
    try:
        items = make_items(sources, options.every, options.after, sweep_seeds(options))
        items = [_output_checked(item, out) for item in items]
        record = None
        if options.shard is not None:
            record = shards.record(options.shard, items, settings)
            items = shards.select(items, options.shard)
        shards.check_folder(out, record)  # a folder of other shards or inputs: refused
        return _run(options, out, pool, items, console, record)
    finally:
        pool.close()


def sweep_seeds(options: BatchOptions) -> range | None:
    """The seeds of a seed sweep (None without one): ``options.seeds`` of them from
    ``--seed``, a step of ``--workers`` apart, since the repair and symmetric backends give
    their thread k the seed S + k (so the sweep's runs never repeat one another's threads).

    Raises:
        InputError: the last seed would pass :data:`solver.ranges.MAX_SEED`.
    """
    if options.seeds <= 1:
        return None
    step = max(1, options.settings.workers)
    seeds = range(options.settings.seed, options.settings.seed + options.seeds * step, step)
    if seeds[-1] + step - 1 > MAX_SEED:
        raise InputError(f"the sweep's last seed would pass {MAX_SEED}", where="--seeds")
    return seeds


#: the longest colour name a game's solution file can carry (``-yellow``)
_LONGEST_COLOUR = max(len(c) for c in COLOUR_LETTERS)


def _output_checked(item: Item, out: Path) -> Item:
    """The item, or, when its solution file (or the picture beside it) would have a name
    the file system refuses, an error row decided before any solve: the batch goes on
    and no work is lost to a write that cannot succeed."""
    if item.error is not None:
        return item
    colour = "x" * _LONGEST_COLOUR if item.source.kind == "game" else None
    name = solution_name(item.source.name, item.after, colour, item.seed)
    try:
        check_names_inside(out, max(name, picture_name(name), key=len))
    except InputError as e:
        return dataclasses.replace(item, error=f"{item.source.path}: {e.message}")
    return item


def _pool(scheduler: str | None, jobs: int, settings: BatchSettings) -> WorkerPool:
    if scheduler is None:
        return LocalPool(jobs, settings)
    try:
        return DaskPool(dask_client(scheduler, jobs), settings)
    except DaskUnavailable as e:
        raise InputError(str(e), where="--scheduler") from None


def _run(
    options: BatchOptions,
    out: Path,
    pool: WorkerPool,
    items: list[Item],
    console: Console,
    shard: shards.ShardRecord | None = None,
) -> BatchReport:
    store = Store(out)
    store.open()
    try:
        if shard is not None:
            shards.write_record(out, shard)
        settings = options.settings
        todo = dispatch_order(
            [
                i
                for i in items
                if options.force
                or not (store.is_done(i, settings) or store.settled(i, settings) is not None)
            ]
        )
        skipped = len(items) - len(todo)
        if shard is not None:
            console.print(
                f"shard {shard['shard']}/{shard['of']}: {len(items)} of the batch's "
                f"{shard['items']} items",
                markup=False,
            )
        _describe(console, items, skipped, store)
        if any(i.error is None for i in todo):
            _warm(console, pool)
        started = time.perf_counter()
        display = make_display(console, len(todo))
        if todo:
            console.print(f"running {_count(len(todo), 'item')} on {pool.describe()}", markup=False)
        interrupted = False
        try:
            with _sigterm_as_interrupt(), display:
                pool.run(
                    todo,
                    lambda item, outcome: _finish(store, display, item, outcome, settings),
                    lambda item: store.settled(item, settings, options.force) is not None,
                )
        except KeyboardInterrupt:
            interrupted = True
        seconds = time.perf_counter() - started
        ran = display.done
        counts = _write_summary(
            store, options, ran, skipped, seconds, pool, interrupted, display.not_run
        )
        result = BatchReport(ran, skipped, counts, seconds, interrupted, display.not_run)
        _closing(console, result, len(todo), out)
        if interrupted:
            raise KeyboardInterrupt
        return result
    finally:
        store.close()


def dispatch_order(items: list[Item]) -> list[Item]:
    """The order items are sent to the workers: puzzles (and files that failed) as found,
    then game positions by placements (every game after 10, then after 20, ...). The
    middle of a game is where checks are slow (the no proofs) and its start and end quick,
    so this spreads the slow ones over the batch instead of leaving a game's slow
    positions for last, when the other workers would wait (measured on the 55 real games,
    --every 10, 2 workers: 2.0x the one-worker speed with this order against 1.83x in file
    order, from the items' recorded times)."""
    games = sorted((i for i in items if i.after is not None), key=lambda i: i.after or 0)
    return [i for i in items if i.after is None] + games


def _describe(console: Console, items: list[Item], skipped: int, store: Store) -> None:
    kinds = Counter(i.source.kind for i in items)
    games = len({i.source.name for i in items if i.source.kind == "game"})
    parts = [_count(kinds["puzzle"], "puzzle")] if kinds["puzzle"] else []
    if games:
        parts.append(f"{_count(games, 'game record')}: {_count(kinds['game'], 'position')}")
    if kinds["unknown"]:
        parts.append(_count(kinds["unknown"], "file") + " of unknown type")
    console.print(f"{_count(len(items), 'item')} ({', '.join(parts)})", markup=False)
    if store.dropped:
        console.print(
            f"{RESULTS}: dropped {store.dropped} line(s) cut short by an earlier crash "
            "(their items are done again)",
            markup=False,
        )
    for line in store.notes[:10]:
        console.print(f"note: {line}", markup=False)
    if len(store.notes) > 10:
        console.print(f"note: and {len(store.notes) - 10} more", markup=False)
    if skipped:
        console.print(
            f"{skipped} already done in {store.folder} with the same content and settings "
            "(or, in a seed sweep, answered by another seed): skipped (--force redoes them)",
            markup=False,
        )


def _warm(console: Console, pool: WorkerPool) -> None:
    """Load (or compile, once) the search kernel before any worker starts, and say so."""
    with console.status("search kernel: loading (the first run compiles it: 10-30 s)"):
        how, seconds = pool.warm()
    if how == "not used":
        return
    where = " on the cluster" if isinstance(pool, DaskPool) else ""
    note = " (once: later runs load it from the cache)" if how == "compiled" else ""
    console.print(f"search kernel{where}: {how} in {seconds:.1f} s{note}", markup=False)


def _finish(
    store: Store, display: Display, item: Item, outcome: Outcome | None, settings: BatchSettings
) -> None:
    if outcome is None:  # a sweep's seed not run: another seed answered its puzzle
        by: Row = (
            store.settled(item, settings, this_run=True)
            or store.settled(item, settings)
            or {"item": item.source.name}
        )
        what = "found bad input" if by.get("status") == "error" else f"answered {by.get('answer')}"
        display.skip(f"{item.source.name} seed {item.seed}: dropped (seed {by.get('seed')} {what})")
        return
    with _signals_held():  # a Ctrl-C now waits until the item is stored and counted
        store.add(outcome["row"], outcome["files"])
        display.finished(outcome["row"])


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM (POSIX) while a result is written: one that arrives is
    handled right after, so the files and the rows in memory always agree."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # no pthread_sigmask here
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _sigterm_as_interrupt() -> AbstractContextManager[None]:
    """SIGTERM (e.g. from ``timeout``) ends the batch like Ctrl-C: the summary is written."""

    def interrupt(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt

    return signal_handled(signal.SIGTERM, interrupt)


def _write_summary(
    store: Store,
    options: BatchOptions,
    ran: int,
    skipped: int,
    seconds: float,
    pool: WorkerPool,
    interrupted: bool,
    dropped: int,
) -> Counter[str]:
    store.compact()
    store.add_run(
        {
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": options.command,
            "ran": ran,
            "skipped": skipped,
            "seeds_dropped": dropped,
            "seconds": round(seconds, 3),
            "on": pool.describe(),
            "interrupted": interrupted,
            "version": _version(),
        }
    )
    return store.write_reports()  # rows of items not run this time too


def _version() -> str:
    try:
        return metadata.version("blokus-solo")
    except metadata.PackageNotFoundError:
        return "unknown"


def _closing(console: Console, result: BatchReport, todo: int, out: Path) -> None:
    counts = result.counts
    totals = ", ".join(f"{k.replace('error', 'errors')} {counts[k]}" for k in COUNTED)
    if result.interrupted:
        console.print(
            f"interrupted: {result.ran} of {todo} items done and kept; run the same command "
            "again to do the rest",
            markup=False,
        )
    if result.not_run:
        console.print(
            f"{_count(result.not_run, 'seed')} dropped: another seed had settled the puzzle",
            markup=False,
        )
    console.print(
        f"{_count(result.ran, 'item')} run, {result.skipped} skipped in {result.seconds:.1f} s; "
        f"in {out}: {totals}",
        markup=False,
    )
    console.print(f"wrote {out / RESULTS}, {out / SUMMARY}, {out / README}", markup=False)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
