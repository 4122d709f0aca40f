"""The engines have one description, in the registry (solver/backends/registry.py):
``--help`` is written from it, and the table of docs/engines.md must equal it. After
changing the registry, ``python tests/test_docs.py`` rewrites the table."""

import re
from pathlib import Path

from solver.backends.registry import AUTO_ONLY, BACKENDS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "engines.md"
BEGIN = "<!-- engines: generated from solver.backends.registry; tests/test_docs.py checks it -->"
END = "<!-- /engines -->"


def engine_table() -> str:
    """The markdown table of every engine, from the registry."""
    rows = [
        "| `--backend` | what it is | answers | `check`, `review` | compiled kernel |",
        "|---|---|---|---|---|",
    ]
    for b in (*BACKENDS.values(), *AUTO_ONLY):
        name = f"`{b.name}`" if b.name in BACKENDS else f"({b.name}: run by `auto` only)"
        answers = "yes or unknown" if b.layouts_only else "yes, no or unknown"
        if b in AUTO_ONLY:
            answers = "no or unknown"
        endgames = ("yes" if b.endgames else "no") if b.choice else "(by `auto`)"
        kernel = f"`{b.kernel.split('.')[-2]}`" if b.kernel else "none"
        rows.append(f"| {name} | {b.summary} | {answers} | {endgames} | {kernel} |")
    return "\n".join(rows)


def _between(text: str) -> str:
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()


def test_the_engines_page_is_the_registry():
    assert _between(PAGE.read_text()) == engine_table()


def test_help_is_the_registry():
    from helpers import run_cli

    text = run_cli("solve", "--help").output
    choices = re.search(r"--backend \[([a-z|]+)\]", text)
    assert choices is not None and choices.group(1).split("|") == list(BACKENDS)
    bare = "".join(text.split())  # click wraps lines, also after a hyphen
    for b in BACKENDS.values():
        assert "".join(f"{b.name}: {b.summary}".split()) in bare


if __name__ == "__main__":  # rewrite the table
    text = PAGE.read_text()
    head, rest = text.split(BEGIN, 1)
    PAGE.write_text(f"{head}{BEGIN}\n{engine_table()}\n{END}{rest.split(END, 1)[1]}")


#: pages other branches write (issue 23-26); checked once they exist
WRITTEN_ELSEWHERE = {"docs/guarantees.md", "docs/companion.md", "docs/serve.md"}


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings (lower case, punctuation dropped, spaces to -)."""
    heads = re.findall(r"(?m)^#+ (.+)$", re.sub(r"(?ms)^```.*?^```", "", page.read_text()))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_links_between_the_pages_lead_somewhere():
    """Every relative link of the README, CONTRIBUTING.md, docs/ and research/README.md
    names a file that exists, and an anchor its page has."""
    root = PAGE.parent.parent
    pages = [root / "README.md", root / "CONTRIBUTING.md", root / "research" / "README.md"]
    pages += sorted((root / "docs").glob("*.md"))
    checked = 0
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            name, _, anchor = target.partition("#")
            path = (page.parent / name).resolve() if name else page
            if str(path.relative_to(root)) in WRITTEN_ELSEWHERE and not path.exists():
                continue
            assert path.exists(), (page.name, target)
            if anchor:
                assert anchor in _anchors(path), (page.name, target)
            checked += 1
    assert checked >= 50


def test_how_auto_picks_quotes_the_tuning():
    """The times and sizes that docs/engines.md and the registry's description of auto
    quote are auto's settings (solver/backends/tuning.py), not copies that drift."""
    from solver.backends.registry import AUTO
    from solver.backends.tuning import AutoTuning

    t = AutoTuning()
    section = PAGE.read_text().split("## How `auto` picks", 1)[1].split("\n## ", 1)[0]
    section = " ".join(section.split())
    assert f"(at most {t.greedy_first:g} s)" in section
    assert f"alone for {t.search_alone:g} s" in section
    assert f"more than {t.many_pieces} pieces" in section
    assert f"alone for only {t.many_alone:g} s" in section
    assert f"(under {t.greedy_first:g} s)" in AUTO.summary
    assert f"alone for {t.search_alone:g} s" in AUTO.summary
    assert f"over {t.many_pieces} pieces" in AUTO.summary


GLOSSARY = PAGE.parent / "glossary.md"


def _glossary_entries() -> list[str]:
    """The glossary's entries: its ``###`` headings, in page order."""
    return re.findall(r"(?m)^### (.+)$", GLOSSARY.read_text())


def _anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_glossary_defines_each_word_once_in_order():
    """One entry per word, alphabetical, each with its own anchor, and the index at the
    top links every entry (and nothing else)."""
    entries = _glossary_entries()
    assert len(entries) >= 40
    assert entries == sorted(entries, key=str.lower)
    anchors = [_anchor(e) for e in entries]
    assert len(set(anchors)) == len(anchors)
    index = GLOSSARY.read_text().split("\n### ", 1)[0]
    assert re.findall(r"\]\(#([\w-]+)\)", index) == anchors


def test_every_link_to_the_glossary_leads_to_an_entry():
    """Every link to docs/glossary.md, from any page or from the glossary itself, names
    an entry's anchor; none sits in code (where it would print as text); every entry is
    linked from some other page, and the README and every page of docs/ link the glossary."""
    root = PAGE.parent.parent
    anchors = {_anchor(e) for e in _glossary_entries()}
    pages = [root / "README.md", root / "CONTRIBUTING.md", root / "research" / "README.md"]
    pages += sorted((root / "docs").glob("*.md"))
    used: set[str] = set()
    for page in pages:
        text = page.read_text()
        if page == GLOSSARY:
            targets = re.findall(r"\]\(#([^)]*)\)", text)
        else:
            targets = re.findall(r"\]\((?:docs/)?glossary\.md#([^)]*)\)", text)
            used.update(targets)
            if page.parent.name == "docs" or page == root / "README.md":
                assert "glossary.md" in text, page.name
        for anchor in targets:
            assert anchor in anchors, (page.name, anchor)
        for code in re.findall(r"(?ms)^[ \t]*```.*?^[ \t]*```|`[^`]*`", text):
            assert "glossary.md#" not in code, (page.name, code[:80])
    assert anchors - used == set()
