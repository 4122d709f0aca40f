"""Where numba keeps the compiled kernels: this package's folder of the user's cache folder.

The kernels (``@njit(cache=True)``: the search's, the domain search's, the repair search's,
the move generator's) are compiled once, 10-30 s each, and loaded from numba's on-disk
cache afterwards (:mod:`solver.backends.warmup`). Left to itself, numba writes that cache
in ``__pycache__`` beside the kernels' sources whenever it can (numba/numba#9312), that is
inside site-packages, where ``pip uninstall`` leaves it behind. So, unless the user set
``NUMBA_CACHE_DIR``, :func:`choose_folder` points numba at :func:`user_folder`
(``~/.cache/blokus-solo/numba`` on Linux), or, when that cannot be written (a read-only
home, no home at all), at :func:`temp_folder` (one per user). numba keeps each source
folder's kernels in a subfolder named after that folder's full path
(:func:`kernel_subfolders`), so two copies of the package never share cache files. It runs
when the ``solver`` package is imported, before numba is: a folder made if missing and one
file made and removed in it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

#: the folders of the compiled kernels' sources, below the package (numba names a cache
#: subfolder after each: :func:`kernel_subfolders`)
KERNEL_FOLDERS = ("backends/search", "backends/domain", "backends/repair", "core")
#: the file endings of numba's cache files (an index and the compiled code)
CACHE_FILES = (".nbi", ".nbc")
#: this copy of the ``solver`` package
PACKAGE = Path(__file__).resolve().parent


def choose_folder() -> str | None:
    """Point numba at this package's cache folder: :func:`user_folder`, else
    :func:`temp_folder`, the first in which a file can be made (made if missing), set as
    ``NUMBA_CACHE_DIR`` in the environment (worker processes inherit it) and in numba's
    config if numba is already imported. A ``NUMBA_CACHE_DIR`` already set (the user's own
    choice, or this function's in a parent process) is left as it is.

    Returns:
        the folder chosen, or None when it changed nothing (``NUMBA_CACHE_DIR`` already
        set, or neither folder can be written: numba then says so itself when it caches).
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    for candidate in (user_folder, temp_folder):
        try:
            folder = candidate()
        except (RuntimeError, KeyError):  # no home folder to be found
            continue
        if _can_write_in(folder):
            os.environ["NUMBA_CACHE_DIR"] = str(folder)
            config = sys.modules.get("numba.core.config")
            if config is not None:  # numba read the environment already: tell it too
                config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # (a module global)
            return str(folder)
    return None


def user_folder() -> Path:
    """This package's folder of the user's cache folder, for numba: on Linux and other
    Unixes ``$XDG_CACHE_HOME/blokus-solo/numba`` (``XDG_CACHE_HOME`` when it is an absolute
    path), else ``~/.cache/blokus-solo/numba``; on macOS
    ``~/Library/Caches/blokus-solo/numba``; on Windows
    ``%LOCALAPPDATA%\\blokus-solo\\Cache\\numba``. As ``platformdirs.user_cache_dir`` places
    them, written out here: platformdirs is not among our dependencies' dependencies, and
    numba's copy of appdirs would import numba before its cache folder is chosen.

    Raises:
        RuntimeError (or KeyError): no home folder can be found.
    """
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "blokus-solo" / "Cache" / "numba"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "blokus-solo" / "numba"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "blokus-solo" / "numba"


def temp_folder() -> Path:
    """The fallback cache folder in the system's temporary directory, one per user:
    ``$TMPDIR/blokus-solo-numba-UID`` (``USERNAME`` in place of the id on Windows)."""
    try:
        user = str(os.getuid())
    except AttributeError:  # Windows
        user = os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"blokus-solo-numba-{user}"


def ours(folder: str | Path) -> bool:
    """Whether ``folder`` (a ``NUMBA_CACHE_DIR``) is one :func:`choose_folder` chooses, and so
    holds nothing but this package's kernels; False for a folder the user chose."""
    mine = [temp_folder()]
    try:
        mine.append(user_folder())
    except (RuntimeError, KeyError):
        pass
    return Path(folder).absolute() in [p.absolute() for p in mine]


def kernel_subfolders(cache_dir: str | Path, package: Path | None = None) -> list[Path]:
    """The subfolders of ``cache_dir`` (a ``NUMBA_CACHE_DIR``) in which numba keeps the
    kernels of ``package`` (default: this copy of ``solver``), one per folder of
    :data:`KERNEL_FOLDERS`: the folder's name, "_", and the SHA-1 of its full path (numba's
    ``UserProvidedCacheLocator.get_suitable_cache_subpath``, which a test compares)."""
    found = []
    for name in KERNEL_FOLDERS:
        source = os.path.abspath((package or PACKAGE) / name)
        digest = hashlib.sha1(source.encode()).hexdigest()
        found.append(Path(cache_dir) / f"{os.path.basename(source)}_{digest}")
    return found


def left_in_package(package: Path | None = None) -> list[Path]:
    """numba's cache files (and the first run's compile locks,
    :mod:`solver.backends.warmup`) in ``package``'s ``__pycache__`` folders: written there
    by a version that let numba cache beside the sources (default: this copy's)."""
    return sorted(
        p
        for p in (package or PACKAGE).rglob("__pycache__/*")
        if p.suffix in CACHE_FILES or p.name == "blokus-solo-warmup.lock"
    )


def size(paths: list[Path]) -> tuple[int, int]:
    """The bytes and the number of files in ``paths`` (files, or folders counted with
    everything below them); paths that do not exist count nothing."""
    total = count = 0
    for path in paths:
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        for file in files:
            total += file.stat().st_size
            count += 1
    return total, count


def remove(paths: list[Path]) -> None:
    """Remove ``paths`` (files, or folders with everything in them); missing ones are
    skipped.

    Raises:
        OSError: one could not be removed.
    """
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def prune(folder: Path) -> None:
    """Remove the folders above ``folder`` (one :func:`remove` removed) up to this package's
    own folder of the user's cache folder (``blokus-solo``) while they are empty, so that
    nothing of ours is left; nothing when no folder above is called ``blokus-solo`` (the
    temporary folder, a folder of the user's own)."""
    names = [parent.name for parent in folder.parents]
    if "blokus-solo" not in names:
        return
    for parent in folder.parents[: names.index("blokus-solo") + 1]:
        try:
            parent.rmdir()
        except OSError:  # not empty (or already gone): keep it and those above it
            return


def _can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (made if missing, private to the user, as
    numba would make it): tried, not asked, since some folders say they are writable and
    are not (a home on sysfs, a read-only bind mount seen from outside it). A folder that
    another user owns is refused (numba would load code from it)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
            return False
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False
