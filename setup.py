"""The package list, found rather than listed, so that a new engine or layer needs no line
here: every package under ``solver/``, plus ``solver.puzzles`` and ``solver.puzzles.cards``,
mapped from the checkout's ``puzzles/`` folder by pyproject.toml's ``package-dir``
(pyproject's ``[tool.setuptools]`` cannot mix found packages with mapped ones)."""

from setuptools import find_packages, setup

PACKAGES = [
    *find_packages(include=["solver", "solver.*"]),
    "solver.puzzles",
    "solver.puzzles.cards",
]

if __name__ == "__main__":
    setup(packages=PACKAGES)
