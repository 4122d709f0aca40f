"""Where numba keeps the compiled kernels: a place it can write, even from a read-only install.

The kernels (``@njit(cache=True)``: the search's, the domain search's, the move
generator's) are compiled once, 10-30 s, and loaded from numba's on-disk cache afterwards
(:mod:`solver.backends.warmup`). numba looks for a writable cache folder in this order:
``NUMBA_CACHE_DIR`` if set; ``__pycache__`` beside the kernel's source (an editable or
user install); the user's cache folder (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``,
e.g. for a system-wide install). When none is writable (a read-only install run by a
service account without a home, a read-only container), numba refuses to import a kernel
at all (``RuntimeError: cannot cache function ...: no locator available``).
:func:`ensure_writable` then points ``NUMBA_CACHE_DIR`` at a folder of the system's
temporary directory (one per user), so the command works and later runs still find the
cache. It runs when the ``solver`` package is imported: a few ``os.access`` calls, numba
not imported.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

#: the folders of the compiled kernels' sources (numba's in-tree cache goes beside them)
KERNEL_FOLDERS = ("backends/search", "backends/domain", "core")


def ensure_writable(package: Path | None = None) -> str | None:
    """Set ``NUMBA_CACHE_DIR`` (and numba's config, if numba is already imported) to a
    folder of the temporary directory when numba would find no writable cache folder for
    the kernels of ``package`` (default: this copy of ``solver``); leave everything as it
    is otherwise (an already set ``NUMBA_CACHE_DIR`` included).

    Returns:
        the folder it chose, or None when it changed nothing.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    root = package if package is not None else Path(__file__).resolve().parent
    in_tree = all(_writable(root / folder / "__pycache__") for folder in KERNEL_FOLDERS)
    if in_tree:
        return None
    try:
        if _can_write_in(user_cache_folder()):
            return None
    except (RuntimeError, KeyError):  # no home folder to be found
        pass
    chosen = Path(tempfile.gettempdir()) / f"blokus-solo-numba-{_user()}"
    try:
        chosen.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None  # nowhere to write: numba says so itself
    os.environ["NUMBA_CACHE_DIR"] = str(chosen)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba read the environment already: tell it too
        config.CACHE_DIR = str(chosen)  # type: ignore[attr-defined]  # (a module global)
    return str(chosen)


def user_cache_folder() -> Path:
    """numba's user-wide cache folder (``numba.misc.appdirs.user_cache_dir("numba")`` on
    Linux: ``$XDG_CACHE_HOME/numba``, else ``~/.cache/numba``; on macOS
    ``~/Library/Caches/numba``; on Windows under ``LOCALAPPDATA``)."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "numba"
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "numba" / "numba" / "Cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "numba"


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists and is writable, or could be made (its nearest existing
    parent is writable)."""
    path = folder
    while not path.exists():
        if path.parent == path:
            return False
        path = path.parent
    return path.is_dir() and os.access(path, os.W_OK | os.X_OK)


def _can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (made if missing, as numba would make it):
    tried, not asked, since some folders say they are writable and are not (a home on
    sysfs, a read-only bind mount seen from outside it). Only asked when the package's
    own folders cannot be written, so a usual install never gets here."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _user() -> str:
    try:
        return str(os.getuid())
    except AttributeError:  # Windows
        return os.environ.get("USERNAME", "user")
