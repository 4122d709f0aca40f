"""The Python examples of docs/agents.md run as written: the page's ```python blocks, in
order, in one namespace, from the project root (each block asserts what it shows)."""

import re

import helpers
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

PAGE = helpers.TESTS.parent / "docs" / "agents.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def test_the_agents_page_examples_run(monkeypatch, capsys):
    monkeypatch.chdir(PAGE.parent.parent)
    blocks = BLOCK.findall(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) == 6  # a page that lost its examples would pass with nothing run
    namespace: dict[str, object] = {}
    for k, code in enumerate(blocks):
        exec(compile(code, f"{PAGE.name} block {k + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert out.startswith("game over\n") and out.count("Passed API test") == 8
