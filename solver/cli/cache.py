"""``blokus-solo cache``: where the compiled kernels are cached, their size; ``--clear``."""

from __future__ import annotations

import os
from pathlib import Path

import click

from solver import numba_cache
from solver.errors import InputError


@click.command("cache")
@click.option(
    "--clear",
    is_flag=True,
    help="Remove the cache (only this package's folder, or, in a NUMBA_CACHE_DIR of your "
    "own, only this copy's kernels); the next command compiles them again (10-30 s each).",
)
def cache_command(clear: bool) -> None:
    """Show where the compiled kernels (numba) are cached and their size, or clear them.
    They live in the user's cache folder (~/.cache/blokus-solo/numba on Linux), never in
    the installed package, so after --clear, pip uninstall leaves nothing behind.
    NUMBA_CACHE_DIR, if you set it, chooses the folder."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    owned: list[Path] = []
    if not chosen:
        place = "no folder of ours is writable (set NUMBA_CACHE_DIR)"
    elif numba_cache.ours(chosen):
        place, owned = chosen, [Path(chosen)]
    else:
        place = f"{chosen} (NUMBA_CACHE_DIR; this copy's kernels only)"
        owned = numba_cache.kernel_subfolders(chosen)
    left = numba_cache.left_in_package()
    sized, left_sized = _sized(owned), _sized(left)
    if clear:
        for path in (*owned, *left):
            try:
                numba_cache.remove([path])
            except OSError as e:
                raise InputError(f"cannot remove it: {e.strerror}", path=str(path)) from None
        if chosen and numba_cache.ours(chosen):  # our folder: its empty parents too
            numba_cache.prune(Path(chosen))
    click.echo(f"{'removed' if clear else 'compiled kernels'}: {place}, {sized}")
    if left:
        where = "beside the package (an earlier version's)"
        click.echo(f"removed {where}: {left_sized}" if clear else f"{where}: {left_sized}")
    if not clear:
        click.echo("clear with: blokus-solo cache --clear")


def _sized(paths: list[Path]) -> str:
    """The size of ``paths`` in words: "12.3 MB in 40 files"."""
    total, files = numba_cache.size(paths)
    return f"{total / 1e6:.1f} MB in {files:,} file{'s' * (files != 1)}"
