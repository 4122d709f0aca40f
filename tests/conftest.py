"""pytest's hook file: the shared test data and helpers live in :mod:`helpers`; re-exported
here so that tests written as ``import conftest`` / ``from conftest import ...`` still run,
and so that pytest finds the fixtures among them (``fresh_first_run``)."""

from helpers import (  # noqa: F401
    CORNER_COLOURS,
    GAMES,
    PUZZLES,
    ROOT,
    SGF_FIXTURES,
    TESTS,
    corner_problem,
    fresh_first_run,
    one_line_error,
    run_cli,
)
