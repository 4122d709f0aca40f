"""An engine package's front door: the names other layers may use, each imported from its
home module on first use.

Each engine package (``search``, ``cpsat``, ``repair``, ``domain``, ``symmetric``,
``bounds``) lists its public names in its ``__init__`` and hands them out with
:func:`lazy`, the module ``__getattr__`` of PEP 562 (the lazy loading of Scientific Python's
SPEC 1): ``from solver.backends.search import count`` loads the search (and numba) only
then, so that importing the package, as every command does for ``--backend``, loads
neither numba nor OR-tools. The import contracts (``[tool.importlinter]`` in
pyproject.toml) forbid other layers to import an engine's inner modules; the engines'
faces are the only way in (CONTRIBUTING.md, "A new engine").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package`` (its ``__name__``): ``homes`` maps each
    public name to its home module's name inside the package (``"count": "counting"``).

    The returned function imports the home on first use (later uses find it in
    ``sys.modules``) and reads the name from it each time, so that the front door always
    hands out what the home holds now (a test's monkeypatch of the home included).

    Raises (from the returned function):
        AttributeError: a name not in ``homes``, as a module without it would.
    """

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home}"), name)

    return __getattr__
