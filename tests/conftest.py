"""pytest's hook file: the fixtures every test file may use (their code is in
:mod:`helpers`, with the shared data and helpers, which tests import from there)."""

from helpers import fresh_first_run  # noqa: F401  (a fixture: pytest finds it here)
