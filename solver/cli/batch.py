"""``blokus-solo batch``: every puzzle solved and every game record checked under some
paths, in parallel, into a crash-safe results folder (:mod:`solver.batch`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from solver.backends.base import SolveOptions
from solver.backends.registry import BACKENDS
from solver.batch.runner import BatchOptions, run_batch
from solver.batch.shards import Shard, merge
from solver.batch.work import BatchSettings
from solver.cli.options import (
    after_option,
    check_params,
    out_option,
    plain_option,
    solver_options,
    together_option,
)

if TYPE_CHECKING:
    from solver.batch.shards import Shard
    from solver.batch.work import BatchSettings


@click.command("batch")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@out_option(
    "Output folder: results.jsonl, summary.csv, README.md, solutions/ (each layout as "
    ".json and an .svg picture; made if needed; a batch run again into it skips what is done).",
    metavar="DIR",
    required=True,
)
@click.option(
    "--every",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Game records: check after every N-th placement and at the end (default: the end).",
)
@after_option("Game records: check the position after N placements.")
@solver_options(
    BACKENDS,
    "a game colour runs place-all, then max-score after a 'no'. Time-outs answer 'unknown' "
    "(never 'no').",
    workers=1,
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes (default: this machine's cores).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a "
    "new local cluster of --jobs workers (needs Dask: pip install '.[cluster]').",
)
@together_option(
    "Game records: one joint check per position (as check --together: can every "
    "colour with pieces left place all of them at once?) instead of one per colour."
)
@click.option(
    "--seeds",
    type=click.IntRange(1, 100_000),
    default=1,
    show_default=True,
    metavar="N",
    help="Puzzles: a seed sweep. Each puzzle runs N times as separate items, with seeds "
    "SEED, SEED+W, ..., SEED+(N-1)W (W: --workers; spread over the worker processes or the "
    "cluster); once one answers it (a layout; for max-score a proven best; a proof of "
    "no), its other seeds are dropped (local "
    "workers running one are stopped; on Dask one already running runs on to its time "
    "limit: give --time-limit). For hard "
    "layouts with the restarting searches (--backend domain or repair): many independent "
    "runs.",
)
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Run only shard I of N (1 <= I <= N): a fixed, disjoint share of the items, the "
    "same in any file order, for a job array (e.g. --shard $SLURM_ARRAY_TASK_ID/8 with "
    "--array=1-8); give each shard its own --out and join them with batch-merge.",
)
@click.option("--force", is_flag=True, help="Redo items already done in DIR.")
@plain_option("One line per item even in a terminal.")
def batch_command(
    paths: tuple[str, ...],
    out: str,
    every: int | None,
    after: int | None,
    options: SolveOptions,
    jobs: int | None,
    scheduler: str | None,
    together: bool,
    seeds: int,
    shard: str | None,
    force: bool,
    plain: bool,
) -> None:
    """Solve every puzzle (.toml) and check every game record (.blksgf) under PATH...
    (folders walked recursively, sorted), in parallel, into a results folder.

    A puzzle is solved as `solve` does; a game record is checked as `check` does (with
    --together as `check --together`), at its end, --after N or --every N. Each result is
    saved as soon as it is found: a batch stopped at any moment (Ctrl-C, kill -9) keeps
    what it finished, and the same command run again does only the rest. Bad files become
    error rows; the batch goes on.
    """
    check_params(options)
    part = Shard.parse(shard) if shard is not None else None
    settings = BatchSettings(
        options.backend,
        options.time_limit,
        options.seed,
        options.workers,
        options.params,
        together,
    )
    batch = BatchOptions(
        paths=paths,
        out=Path(out),
        settings=settings,
        every=every,
        after=after,
        jobs=jobs,
        scheduler=scheduler,
        force=force,
        command=_batch_command_line(
            paths, out, every, after, settings, jobs, scheduler, seeds, part
        ),
        seeds=seeds,
        shard=part,
    )
    console = Console(
        markup=False,
        emoji=False,
        highlight=False,
        soft_wrap=True,
        force_terminal=False if plain else None,
    )
    run_batch(batch, console)


def _batch_command_line(
    paths: tuple[str, ...],
    out: str,
    every: int | None,
    after: int | None,
    settings: BatchSettings,
    jobs: int | None,
    scheduler: str | None,
    seeds: int = 1,
    shard: Shard | None = None,
) -> str:
    """The batch command as it could be typed again (options left at their defaults are
    left out; --jobs too: it changes no answer)."""
    import shlex

    words = ["blokus-solo", "batch", *paths, "--out", out]
    for flag, value, default in (
        ("--every", every, None),
        ("--after", after, None),
        ("--backend", settings.backend, "auto"),
        ("--time-limit", settings.time_limit, None),
        ("--seed", settings.seed, 0),
        ("--seeds", seeds, 1),
        ("--workers", settings.workers, 1),
        ("--params", settings.params, ""),
        ("--scheduler", scheduler, None),
        ("--shard", shard, None),
    ):
        if value != default:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if settings.together:
        words.append("--together")
    return shlex.join(str(w) for w in words)


@click.command("batch-merge")
@click.argument("shards", nargs=-1, required=True, metavar="SHARD_DIR...")
@out_option(
    "The merged folder (made if needed): results.jsonl, summary.csv, README.md, solutions/, "
    "as one batch run of every shard's items would have written them.",
    metavar="DIR",
    required=True,
)
@click.option(
    "--partial",
    is_flag=True,
    help="Merge even when a shard has items without a result (an interrupted task); they "
    "are left out.",
)
def batch_merge_command(shards: tuple[str, ...], out: str, partial: bool) -> None:
    """Merge the output folders of `batch --shard I/N`, shards 1..N, into one results
    folder equal to a single run's (the same rows and summary). A row is copied only as a
    resumed batch would keep it (its files inside its folder, its solution files replayed
    by the rule checker, a no only from an engine that proves it). Refuses (exit status 2,
    nothing written) shards of different inputs or settings, a shard missing or given
    twice, records that are not one split, and unless --partial a shard with items
    without a result it can keep."""
    import shlex

    command = shlex.join(["blokus-solo", "batch-merge", *shards, "--out", out])
    done = merge(shards, Path(out), partial=partial, command=command)
    for line in done.notes[:10]:
        click.echo(f"note: {line}")
    if len(done.notes) > 10:
        click.echo(f"note: and {len(done.notes) - 10} more")
    left = f"; {done.missing} items without a result left out" if done.missing else ""
    click.echo(f"merged {done.shards} shards: {done.rows} results{left}")
    folder = Path(out)
    names = (folder / n for n in ("results.jsonl", "summary.csv", "README.md"))
    click.echo(f"wrote {', '.join(map(str, names))}")
