"""numba's cache of the compiled kernels: a read-only install without a writable home gets a
folder of the temporary directory (numba would refuse to import the kernels); otherwise
nothing changes."""

import os
import tempfile

import pytest

from solver import numba_cache


@pytest.fixture
def no_cache_dir(monkeypatch, tmp_path):
    """NUMBA_CACHE_DIR unset for the test (and numba's config, if loaded, restored after);
    the temporary directory is ``tmp_path``."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    try:
        import numba.core.config as config
    except ImportError:  # pragma: no cover - numba is a dependency
        return
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)


def _unwritable(tmp_path, name):
    """A path below a plain file: it can never be made."""
    blocker = tmp_path / name
    blocker.write_text("")
    return blocker / "below"


def test_read_only_install_and_home_get_a_temporary_folder(monkeypatch, tmp_path, no_cache_dir):
    package = _unwritable(tmp_path, "package")
    monkeypatch.setenv("XDG_CACHE_HOME", str(_unwritable(tmp_path, "home")))
    chosen = numba_cache.ensure_writable(package)
    assert chosen is not None and os.environ["NUMBA_CACHE_DIR"] == chosen
    assert os.path.dirname(chosen) == str(tmp_path) and os.path.isdir(chosen)
    import numba.core.config as config

    assert config.CACHE_DIR == chosen  # numba, already loaded, is told too


def test_a_writable_install_or_home_changes_nothing(monkeypatch, tmp_path, no_cache_dir):
    package = tmp_path / "solver"  # can be made: numba's __pycache__ goes there
    assert numba_cache.ensure_writable(package) is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert numba_cache.ensure_writable(_unwritable(tmp_path, "package")) is None
    assert "NUMBA_CACHE_DIR" not in os.environ
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))  # the user's own choice
    monkeypatch.setenv("XDG_CACHE_HOME", str(_unwritable(tmp_path, "home")))
    assert numba_cache.ensure_writable(_unwritable(tmp_path, "other")) is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")
