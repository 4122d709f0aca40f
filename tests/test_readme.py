"""The README's Python examples run as written (doctest), from the project root."""

import doctest

import conftest


def test_readme_examples_run(monkeypatch):
    root = conftest.TESTS.parent
    monkeypatch.chdir(root)
    failed, attempted = doctest.testfile(
        str(root / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= 10  # the Python API section is there and was run
    assert failed == 0
