"""``blokus-solo cache``: where the compiled kernels are cached and their size; ``--clear``
removes exactly this package's folder (in a NUMBA_CACHE_DIR of the user's own, only this
copy's subfolders), and any cache files an earlier version left beside the package."""

import pytest
from helpers import one_line_error, run_cli

from solver import numba_cache


@pytest.fixture
def caches(monkeypatch, tmp_path):
    """The user's cache folder under ``tmp_path / "xdg"`` with this package's folder in use
    (two files, 1.5 MB) beside another program's, and a package folder with nothing left."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    ours = numba_cache.user_folder()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(ours))
    (ours / "search_0123").mkdir(parents=True)
    (ours / "search_0123" / "kernel.run-5.py311.nbi").write_bytes(b"i" * 500_000)
    (ours / "search_0123" / "kernel.run-5.py311.1.nbc").write_bytes(b"c" * 1_000_000)
    (tmp_path / "xdg" / "blokus-solo" / "settings.toml").write_text("kept")
    (tmp_path / "xdg" / "numba").mkdir()
    (tmp_path / "xdg" / "numba" / "other.nbi").write_text("kept")
    monkeypatch.setattr(numba_cache, "PACKAGE", tmp_path / "solver")
    (tmp_path / "solver" / "core").mkdir(parents=True)
    return ours


def test_it_says_where_and_how_big(caches):
    result = run_cli("cache")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"compiled kernels: {caches}, 1.5 MB in 2 files",
        "clear with: blokus-solo cache --clear",
    ]


def test_clear_removes_exactly_our_folder(caches, tmp_path):
    result = run_cli("cache", "--clear")
    assert result.exit_code == 0, result.output
    assert result.output == f"removed: {caches}, 1.5 MB in 2 files\n"
    assert not caches.exists()
    assert (tmp_path / "xdg" / "blokus-solo" / "settings.toml").read_text() == "kept"
    assert (tmp_path / "xdg" / "numba" / "other.nbi").read_text() == "kept"
    (tmp_path / "xdg" / "blokus-solo" / "settings.toml").unlink()
    caches.mkdir()
    assert run_cli("cache", "--clear").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "xdg").iterdir()) == ["numba"]  # none of ours
    assert run_cli("cache").output.startswith(f"compiled kernels: {caches}, 0.0 MB in 0 files")


def test_in_the_users_own_folder_only_this_copys_kernels(monkeypatch, caches, tmp_path):
    mine = tmp_path / "mine"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(mine))
    ours = numba_cache.kernel_subfolders(mine)
    for folder in (*ours, mine / "elsewhere_4567"):
        folder.mkdir(parents=True)
        (folder / "f-1.py311.nbi").write_bytes(b"x" * 1000)
    result = run_cli("cache")
    assert result.output.splitlines()[0] == (
        f"compiled kernels: {mine} (NUMBA_CACHE_DIR; this copy's kernels only), "
        f"0.0 MB in {len(ours)} files"
    )
    assert run_cli("cache", "--clear").exit_code == 0
    assert [p.name for p in mine.iterdir()] == ["elsewhere_4567"]


def test_files_left_beside_the_package_are_shown_and_cleared(caches, tmp_path):
    stale = tmp_path / "solver" / "core" / "__pycache__"
    stale.mkdir()
    (stale / "movegen_kernel.perft-9.py311.nbi").write_bytes(b"x" * 2_000_000)
    (stale / "movegen_kernel.cpython-311.pyc").write_text("kept")
    lines = run_cli("cache").output.splitlines()
    assert lines[1] == "beside the package (an earlier version's): 2.0 MB in 1 file"
    result = run_cli("cache", "--clear")
    assert result.output.splitlines()[1] == (
        "removed beside the package (an earlier version's): 2.0 MB in 1 file"
    )
    assert [p.name for p in stale.iterdir()] == ["movegen_kernel.cpython-311.pyc"]


def test_a_folder_that_cannot_be_removed_is_one_line(monkeypatch, caches):
    def refuse(paths):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(numba_cache, "remove", refuse)
    one_line_error(run_cli("cache", "--clear"), str(caches), "cannot remove it: Permission denied")
    assert caches.exists()


def test_no_folder_at_all(monkeypatch, caches):
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    result = run_cli("cache")
    assert result.output.startswith(
        "compiled kernels: no folder of ours is writable (set NUMBA_CACHE_DIR)"
    )
