"""numba's cache of the compiled kernels: in the user's cache folder (never beside the
package, where ``pip uninstall`` would leave it), else in a per-user folder of the
temporary directory; a ``NUMBA_CACHE_DIR`` of the user's own always wins."""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from solver import numba_cache


@pytest.fixture
def no_cache_dir(monkeypatch, tmp_path):
    """NUMBA_CACHE_DIR unset for the test (restored after, as is numba's config); the
    temporary directory is ``tmp_path / "tmp"``."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    import numba.core.config as config

    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    return config


def _unwritable(tmp_path, name):
    """A path below a plain file: it can never be made."""
    blocker = tmp_path / name
    blocker.write_text("")
    return blocker / "below"


def test_the_user_cache_folder_is_chosen(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    chosen = numba_cache.choose_folder()
    assert chosen == str(tmp_path / "xdg" / "blokus-solo" / "numba")
    assert os.environ["NUMBA_CACHE_DIR"] == chosen and os.path.isdir(chosen)
    assert no_cache_dir.CACHE_DIR == chosen  # numba, already loaded, is told too
    assert numba_cache.ours(chosen)


def test_without_xdg_cache_home_the_home_cache(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for xdg in ("", "relative/cache"):  # unset, or not absolute: ignored, as XDG says
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        expected = tmp_path / "home" / ".cache" / "blokus-solo" / "numba"
        assert numba_cache.user_folder() == expected
    assert numba_cache.choose_folder() == str(expected)


def test_macos_and_windows_folders(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert numba_cache.user_folder() == tmp_path / "Library/Caches/blokus-solo/numba"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert numba_cache.user_folder() == tmp_path / "Local/blokus-solo/Cache/numba"


def test_the_users_own_numba_cache_dir_wins(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    before = no_cache_dir.CACHE_DIR
    assert numba_cache.choose_folder() is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")
    assert no_cache_dir.CACHE_DIR == before and not (tmp_path / "xdg").exists()
    assert not numba_cache.ours(tmp_path / "mine")


def test_an_unwritable_home_gets_the_temporary_folder(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("XDG_CACHE_HOME", str(_unwritable(tmp_path, "home")))
    chosen = numba_cache.choose_folder()
    assert chosen is not None and os.environ["NUMBA_CACHE_DIR"] == chosen
    assert chosen == str(numba_cache.temp_folder()) and os.path.isdir(chosen)
    assert Path(chosen).parent == tmp_path / "tmp" and no_cache_dir.CACHE_DIR == chosen
    assert numba_cache.ours(chosen)


def test_no_home_at_all_gets_the_temporary_folder(monkeypatch, tmp_path, no_cache_dir):
    def homeless():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", homeless)
    assert numba_cache.choose_folder() == str(numba_cache.temp_folder())


def test_nowhere_writable_changes_nothing(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("XDG_CACHE_HOME", str(_unwritable(tmp_path, "home")))
    monkeypatch.setattr(tempfile, "tempdir", str(_unwritable(tmp_path, "tmpfile")))
    assert numba_cache.choose_folder() is None and "NUMBA_CACHE_DIR" not in os.environ


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners")
def test_a_temporary_folder_of_another_user_is_refused(monkeypatch, tmp_path, no_cache_dir):
    monkeypatch.setenv("XDG_CACHE_HOME", str(_unwritable(tmp_path, "home")))
    someone = os.getuid() + 1000
    (tmp_path / "tmp" / f"blokus-solo-numba-{someone}").mkdir()  # made by us, not by them
    monkeypatch.setattr(os, "getuid", lambda: someone)
    assert numba_cache.choose_folder() is None and "NUMBA_CACHE_DIR" not in os.environ


def test_kernel_subfolders_are_numbas():
    """numba names a source folder's cache subfolder as :func:`kernel_subfolders` does, the
    user-provided folder comes before the in-tree one, and every source with a cached
    kernel is in one of :data:`KERNEL_FOLDERS`."""
    from numba.core import caching

    assert caching.CacheImpl._locator_classes[0] is caching.UserProvidedCacheLocator
    for name, folder in zip(numba_cache.KERNEL_FOLDERS, numba_cache.kernel_subfolders("/c")):
        source = str(numba_cache.PACKAGE / name / "kernel.py")
        assert folder.name == caching.UserProvidedCacheLocator.get_suitable_cache_subpath(source)
    cached = {
        path.parent.relative_to(numba_cache.PACKAGE).as_posix()
        for path in numba_cache.PACKAGE.rglob("*.py")
        if re.search(r"^@\w*jit\(.*cache=True", path.read_text(), re.MULTILINE)
    }
    assert cached == set(numba_cache.KERNEL_FOLDERS)


def test_cache_files_left_in_the_package_are_found(tmp_path):
    stale = tmp_path / "solver" / "core" / "__pycache__"
    stale.mkdir(parents=True)
    for name in ("k.f-1.py311.nbi", "k.f-1.py311.1.nbc", "blokus-solo-warmup.lock", "k.pyc"):
        (stale / name).write_text("x")
    found = numba_cache.left_in_package(tmp_path / "solver")
    assert [p.name for p in found] == [
        "blokus-solo-warmup.lock",
        "k.f-1.py311.1.nbc",
        "k.f-1.py311.nbi",
    ]


def test_a_kernel_compiled_after_the_package_caches_in_the_user_folder(tmp_path):
    """A real ``@njit(cache=True)`` function in a module beside no package, imported after
    ``solver`` in a fresh process with ``NUMBA_CACHE_DIR`` unset: its cache files are in
    the user's cache folder and none beside its source; the search kernel's cache index
    would be there too."""
    source = tmp_path / "mod" / "tiny.py"
    source.parent.mkdir()
    source.write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    code = textwrap.dedent(f"""
        import sys, solver
        sys.path.insert(0, {str(source.parent)!r})
        import tiny
        assert tiny.twice(21) == 42
        from solver.backends import warmup
        print(warmup.cache_index())
    """)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=numba_cache.PACKAGE.parent,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "xdg" / "blokus-solo" / "numba"
    written = sorted(p.name for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc"))
    assert written and all(name.startswith("tiny.twice-") for name in written)
    assert not list(source.parent.rglob("*.nb?"))  # nothing beside the source
    assert Path(run.stdout.strip()).is_relative_to(numba_cache.kernel_subfolders(folder)[0])


def test_prune_stops_at_our_folder_or_a_full_one(tmp_path):
    ours = tmp_path / "cache" / "blokus-solo" / "Cache" / "numba"
    ours.mkdir(parents=True)
    ours.rmdir()
    numba_cache.prune(ours)
    assert list((tmp_path / "cache").iterdir()) == []  # up to blokus-solo, not above
    (ours.parent / "kept").mkdir(parents=True)
    numba_cache.prune(ours)
    assert (ours.parent / "kept").is_dir()
    other = tmp_path / "tmp" / "blokus-solo-numba-0"
    other.mkdir(parents=True)
    other.rmdir()
    numba_cache.prune(other)  # not below a blokus-solo folder: nothing removed
    assert (tmp_path / "tmp").is_dir()
