"""The Python examples of the README and of every page in docs/ run as written (doctest),
from the project root."""

import doctest

import helpers
import pytest

ROOT = helpers.TESTS.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: pages whose examples must be there: a page that lost them would pass with nothing run
AT_LEAST = {"README.md": 5, "api.md": 10, "engine-api.md": 4}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_examples_run(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, attempted = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted >= AT_LEAST.get(page.name, 0)
    assert failed == 0
