"""Move modules to the layout of issue 34 ("one room per idea, round 3") and rewrite every
dotted name and path that points at them, in code, tests, docs, benchmarks, research and
pyproject.toml.

Run it from anywhere inside a checkout (it works on the repository it stands in)::

    python scripts/relayout.py            # git mv what is still in its old place, then rewrite
    python scripts/relayout.py --check    # print what would change; change nothing (exit 1 if any)
    python scripts/relayout.py --no-move  # rewrite names and paths only
    python scripts/relayout.py --move-only  # git mv only (a commit of pure moves)
    python scripts/relayout.py --ours-imports  # first settle import-only merge conflicts

On a branch made from the layout before issue 34: merge the branch that made the moves (git
carries your edits of a moved file to its new place); where the merge stops on conflicts
that are only import lines (your side adds or moves imports, the other renamed them), run
the script with ``--ours-imports``: such a conflict keeps your side's imports and adds the
names only the other side imports, and the rewrite then brings them all to the new layout
(setuptools' ``packages`` line too), and code you added to a package's __init__.py that
moved to a module goes to that module; settle the other conflicts by
hand (the import-linter contracts in pyproject.toml, say). Else run it after the merge. Look
at the diff, run the checks and commit. Running it again changes nothing (it is
idempotent); a file it does not know is left as it is. It ends by running ruff (import
order, format) on the Python files it changed, when ruff is installed.

What it rewrites (the maps are :data:`MODULES` and :data:`NAMES` below):

* ``from A import x, y`` statements: each name goes to the module that now holds it (one
  statement per module; a moved module imported from its package keeps its local name:
  ``from solver.backends import search`` becomes
  ``from solver.backends.search import exact as search``);
* dotted names anywhere (``import A``, strings given to monkeypatch, ``:mod:`` and
  ``:func:`` references, prose, the import-linter contracts and mypy overrides);
* file paths (``solver/backends/search.py``) anywhere.

A moved module whose new home is a package of the same name (``solver.backends.search`` is
now the package holding ``exact`` and ``kernel``): a dotted name that goes on with one of
the package's modules is already new and is left alone; ``solver.backends.search`` alone is
taken in its old meaning (the module), except in pyproject.toml, where it names the package.
So in new prose name such a package by its path (``solver/backends/search/``).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: old module -> new module: the whole file moves (``git mv``)
MODULES: dict[str, str] = {
    # issue 34 item 1: the engines grouped by engine
    "solver.backends.search": "solver.backends.search.exact",
    "solver.backends.search_kernel": "solver.backends.search.kernel",
    "solver.backends.domain": "solver.backends.domain.quadrants",
    "solver.backends.domain_kernel": "solver.backends.domain.kernel",
    "solver.backends.cpsat": "solver.backends.cpsat.model",
    "solver.backends.symmetric": "solver.backends.cpsat.symmetric",
    "solver.backends.sat_params": "solver.backends.cpsat.params",
    "solver.backends.repair": "solver.backends.repair.repairer",
    "solver.backends.greedy": "solver.backends.repair.greedy",
    "solver.backends.lp": "solver.backends.bounds.lp",
    "solver.backends.relaxation": "solver.backends.bounds.relaxation",
    # the exact-cover formulation and its DLX export: a file format (only `export` uses it)
    "solver.backends.exact_cover": "solver.formats.exact_cover",
    # issue 34 item 6: the cube-and-conquer split is a way of solving (its join, which reads
    # the cubes' answers back, stays in trust/ as cube_join: see NAMES)
    "solver.trust.cubes": "solver.tasks.cubes",
}

#: (old module, name) -> "new module" or "new module:new name": one name moves (a
#: definition moved between modules, or a second home of a name dropped)
NAMES: dict[tuple[str, str], str] = {
    # issue 34 item 2: one home each
    ("solver.tasks.solve", "SolveOptions"): "solver.backends.base",
    ("solver.tasks.solve", "BACKENDS"): "solver.backends.registry",  # (a dict of entries)
    ("solver.tasks.solve", "SolverBug"): "solver.errors",
    ("solver.tasks.follow", "DEFAULT_TIME_LIMIT"): "solver.backends.base",
    ("solver.companion.follow", "DEFAULT_TIME_LIMIT"): "solver.backends.base",
    # issue 42 item 3: the default time limit beside SolveOptions
    ("solver.tasks.review", "DEFAULT_TIME_LIMIT"): "solver.backends.base",
    # issue 34 item 5: no cycles (a package's __init__ re-exporting a module that imports it)
    ("solver.batch", "BatchOptions"): "solver.batch.runner",
    ("solver.batch", "run_batch"): "solver.batch.runner",
    ("solver.cli.review", "STYLES"): "solver.cli.output:ANSWER_STYLES",
    # issue 34 item 6: the join of the cubes' answers (answers read back) stays in trust/
    **{
        ("solver.trust.cubes", name): "solver.trust.cube_join"
        for name in (
            "JoinResult",
            "Recheck",
            "join",
            "named_puzzle",
            "read_rows",
            "row_proves_no",
            "_best",
            "_count",
            "_count_layout",
            "_count_lifted",
            "_join_cube",
            "_listed",
            "_on_disk",
            "_recheck",
        )
    },
    ("solver.trust.cubes", "_read_manifest"): "solver.tasks.cubes:read_manifest",
}

#: package -> module: the code of the package's __init__.py moved to that module, so every
#: name taken from the package that is none of its modules now comes from the module
#: (issue 34 item 6: the warm-start library's code out of its __init__.py)
PACKAGE_CODE: dict[str, str] = {"solver.library": "solver.library.layouts"}

#: file moves that are not whole modules: (old path, new path); the old file's package
#: keeps an __init__.py holding :data:`PACKAGES`' docstring
FILES: list[tuple[str, str]] = [
    ("solver/library/__init__.py", "solver/library/layouts.py"),
]

#: the __init__.py of each package the moves make or empty: its docstring
PACKAGES: dict[str, str] = {
    "solver/backends/search": (
        "The exact search: a Blokus-aware depth-first search (``exact``: solve, count,\n"
        "list layouts) and its numba kernel (``kernel``)."
    ),
    "solver/backends/domain": (
        "The fundamental-domain search: Gottfried's quadrant method (``quadrants``) and its\n"
        "numba kernel (``kernel``)."
    ),
    "solver/backends/cpsat": (
        "CP-SAT: the model with its lazy connectivity cuts (``model``), symmetric layouts\n"
        "solved on it (``symmetric``), and which parameters keep a proof (``params``)."
    ),
    "solver/backends/repair": (
        "Layouts by construction: greedy play (``greedy``), then repairs, a large-neighbourhood\n"
        "search that re-places pieces exactly (``repairer``)."
    ),
    "solver/backends/bounds": (
        'Proofs of "no" by bounds: the linear relaxation of place-all (``relaxation``) and the\n'
        "engine that runs it (``lp``)."
    ),
    "solver/library": (
        "The warm-start library: verified layouts shipped with the package (``layouts.json``)\n"
        "and the start they give a position (``layouts``)."
    ),
}

#: text files rewritten, by suffix (and a few by name)
SUFFIXES = {".py", ".md", ".toml", ".rst", ".txt", ".cfg", ".ini", ".sh", ".js", ".html", ".yml"}
NAMED = {".ci/run"}
#: never rewritten: this script (it holds the maps) and generated or installed trees
SKIP_PARTS = {".git", ".venv", "node_modules", "__pycache__"}
THIS = Path(__file__).resolve()

DOTTED = re.compile(r"(?<![\w.])solver(?:\.\w+)+")
FROM_IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from[ \t]+(?P<mod>solver(?:\.\w+)*)[ \t]+import[ \t]+"
    r"(?:\((?P<paren>[^)]*)\)|(?P<plain>[^\n#()\\]*[^\s#()\\]))(?P<comment>[ \t]*#[^\n]*)?$",
    re.M,
)


def module_path(module: str, root: Path) -> Path:
    """The file of ``module`` in the checkout: a package's __init__.py, else NAME.py."""
    base = root.joinpath(*module.split("."))
    return (
        base / "__init__.py"
        if base.is_dir() and not base.with_suffix(".py").exists()
        else (base.with_suffix(".py"))
    )


def new_packages() -> set[str]:
    """Dotted names of the packages the new modules sit in."""
    return {new.rsplit(".", 1)[0] for new in MODULES.values()}


#: a moved module whose new home is a package of its own name -> that package's modules
SAME_NAME: dict[str, set[str]] = {
    old: {n[len(old) + 1 :].split(".")[0] for n in MODULES.values() if n.startswith(old + ".")}
    for old in MODULES
    if any(new.startswith(old + ".") for new in MODULES.values())
}


def _moved_name(module: str, name: str) -> str | None:
    """Where ``name`` of ``module`` went (:data:`NAMES`, :data:`PACKAGE_CODE`), or None."""
    if (module, name) in NAMES:
        return NAMES[(module, name)]
    package = PACKAGE_CODE.get(module)
    if package is not None and name not in _modules_of(module):
        return package
    return None


@functools.cache
def _modules_of(package: str) -> set[str]:
    """The modules and subpackages of ``package`` in the checkout (the current folder: the
    root, :func:`main` goes there) and its new ones."""
    folder = Path.cwd().joinpath(*package.split("."))
    found = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.glob("*/")}
    return found | {n.rsplit(".", 1)[1] for n in MODULES.values() if n.rsplit(".", 1)[0] == package}


def _split_target(target: str, name: str) -> tuple[str, str]:
    module, _, new_name = target.partition(":")
    return module, new_name or name


def rewrite_dotted(match: re.Match[str], in_pyproject: bool) -> str:
    """One dotted name ``solver.a.b.c``, with its longest moved prefix rewritten."""
    text = match.group(0)
    parts = text.split(".")
    for k in range(len(parts), 1, -1):
        prefix, rest = ".".join(parts[:k]), parts[k:]
        parent, last = ".".join(parts[: k - 1]), parts[k - 1]
        if (moved := _moved_name(parent, last)) is not None:
            module, name = _split_target(moved, last)
            return ".".join([module, name, *rest])
        if prefix in MODULES:
            if prefix in SAME_NAME:
                if rest and rest[0] in SAME_NAME[prefix]:
                    return text  # already the new layout
                if not rest and in_pyproject:
                    return text  # the package
            return ".".join([MODULES[prefix], *rest])
    return text


def regroup(mod: str, names: list[str]) -> dict[str, list[str]] | None:
    """The names of ``from mod import names`` ("name" or "name as alias") by the module
    that now holds each, in order; None when nothing they name has moved."""
    groups: dict[str, list[str]] = {}
    changed = False
    for item in names:
        name, _, alias = (p.strip() for p in item.partition(" as "))
        module, shown = mod, item
        if (moved := _moved_name(mod, name)) is not None:
            module, new_name = _split_target(moved, name)
            local = alias or name
            shown = new_name if new_name == local else f"{new_name} as {local}"
        elif mod in MODULES and not (mod in SAME_NAME and name in SAME_NAME[mod]):
            module = MODULES[mod]
        elif f"{mod}.{name}" in MODULES:
            module, base = MODULES[f"{mod}.{name}"].rsplit(".", 1)
            local = alias or name
            shown = base if base == local else f"{base} as {local}"
        changed = changed or module != mod or shown != item
        groups.setdefault(module, []).append(shown)
    return groups if changed else None


def rewrite_import(match: re.Match[str]) -> str:
    """One ``from solver... import ...`` statement, split into one per module that now
    holds its names; unchanged when nothing it names has moved."""
    mod = match.group("mod")
    body = match.group("paren") if match.group("paren") is not None else match.group("plain")
    if "*" in body:
        return match.group(0)
    bare = re.sub(r"#[^\n]*", "", body)  # comments inside the parentheses
    names = [n.strip() for n in bare.replace("\n", " ").split(",") if n.strip()]
    groups = regroup(mod, names)
    if groups is None:
        return match.group(0)
    if len(groups) == 1 and [s for g in groups.values() for s in g] == names:
        # one new module, the same names: only the module changes (comments kept)
        start, end = match.span("mod")
        whole = match.group(0)
        offset = match.start()
        return whole[: start - offset] + next(iter(groups)) + whole[end - offset :]
    if "#" in body:
        print(f"note: comments inside a split import dropped: from {mod} import", file=sys.stderr)
    indent, comment = match.group("indent"), match.group("comment") or ""
    return "\n".join(
        f"{indent}from {module} import {', '.join(shown)}{comment}"
        for module, shown in groups.items()
    )


#: an import inside a string of code (``python -c "...; from A import x; ..."``, or a
#: line ``"from A import x\n"`` of a program written for a subprocess)
EMBEDDED = re.compile(
    r"(?P<pre>[\"']|; )from (?P<mod>solver(?:\.\w+)*) import "
    r"(?P<names>\w+(?: as \w+)?(?:, \w+(?: as \w+)?)*)(?P<end>\\n|;|[\"'])"
)


def rewrite_embedded(match: re.Match[str]) -> str:
    """An import inside a string, as :func:`rewrite_import` would split it, the statements
    joined as the string joins them (``\\n`` or ``; ``)."""
    mod, end = match.group("mod"), match.group("end")
    groups = regroup(mod, [n.strip() for n in match.group("names").split(",")])
    if groups is None:
        return match.group(0)
    joint = "\\n" if end == "\\n" else "; "
    body = joint.join(f"from {m} import {', '.join(shown)}" for m, shown in groups.items())
    return match.group("pre") + body + end


CONFLICT = re.compile(
    r"^<<<<<<< [^\n]*\n(?P<ours>.*?)^(?:\|\|\|\|\|\|\|[^\n]*\n.*?)?=======\n"
    r"(?P<theirs>.*?)^>>>>>>> [^\n]*\n",
    re.M | re.S,
)
IMPORT_LINE = re.compile(
    r"\s*$|\s*(from \S+ import |import \S)|\s+\w+( as \w+)?(, \w+( as \w+)?)*,?\s*(#.*)?$"
    r"|\s*\)\s*(#.*)?$|packages = \["
)


def ours_imports(text: str) -> str:
    """The text with each merge conflict whose two sides are only import lines (and blank
    lines, or setuptools' ``packages`` line) settled: our side, then the names the other
    side imports that ours does not (the rewrite that follows brings all to the new layout;
    a name both sides import comes as ours imports it)."""

    # every name our side imports, in any conflict or outside them
    have = {_local(item) for _, _, item in _imported(CONFLICT.sub(r"\g<ours>", text))}

    def settle(m: re.Match[str]) -> str:
        ours, theirs = m.group("ours"), m.group("theirs")
        if not all(IMPORT_LINE.match(line) for line in (ours + theirs).splitlines()):
            return m.group(0)
        if "packages = [" in ours:  # both sides' packages, ours first
            listed = re.findall(r'"([^"]+)"', ours)
            listed += [n for n in re.findall(r'"([^"]+)"', theirs) if n not in listed]
            return "packages = [" + ", ".join(f'"{n}"' for n in listed) + "]\n"
        extra = [(i, mod, name) for i, mod, name in _imported(theirs) if _local(name) not in have]
        return ours + "".join(f"{i}from {mod} import {name}\n" for i, mod, name in extra)

    return CONFLICT.sub(settle, text)


def _imported(text: str) -> list[tuple[str, str, str]]:
    """(indent, module, "name" or "name as alias") of each ``from`` import in ``text``."""
    found = []
    for m in FROM_IMPORT.finditer(text):
        body = m.group("paren") if m.group("paren") is not None else m.group("plain")
        body = re.sub(r"#[^\n]*", "", body)
        for item in body.replace("\n", " ").split(","):
            if item.strip():
                found.append((m.group("indent"), m.group("mod"), " ".join(item.split())))
    return found


def _local(item: str) -> str:
    """The name an import item binds: "a as b" -> b, "a" -> a."""
    return item.split(" as ")[-1].strip()


def rewrite_text(text: str, in_pyproject: bool = False) -> str:
    """The text with its imports, dotted names and paths moved."""
    text = FROM_IMPORT.sub(rewrite_import, text)
    text = EMBEDDED.sub(rewrite_embedded, text)

    def dotted(m: re.Match[str]) -> str:
        # a ``from A import`` module was settled above (its names decide what it means)
        if re.match(r"[ \t]+import\b", text[m.end() : m.end() + 12]) and re.search(
            r"\bfrom[ \t]+$", text[max(0, m.start() - 12) : m.start()]
        ):
            return m.group(0)
        return rewrite_dotted(m, in_pyproject)

    text = DOTTED.sub(dotted, text)
    for old, new in path_moves():
        text = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w])", new, text)
    return text


def path_moves() -> list[tuple[str, str]]:
    """(old path, new path) of every moved file, as text in the project's own paths."""
    moves = [(_path(old), _path(new)) for old, new in MODULES.items()]
    return moves + FILES


def _path(module: str) -> str:
    return module.replace(".", "/") + ".py"


def tracked_files(root: Path) -> list[Path]:
    """The files git tracks, and the untracked ones it does not ignore."""
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    files = []
    for name in out.split("\0"):
        path = root / name
        if not name or SKIP_PARTS & set(Path(name).parts) or path.resolve() == THIS:
            continue
        if (path.suffix in SUFFIXES or name in NAMED) and path.is_file():
            files.append(path)
    return files


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True)


def move_files(root: Path, check: bool) -> list[str]:
    """``git mv`` each file still in its old place; the packages' __init__.py written.
    Returns what was (or, with ``check``, would be) done."""
    done = []
    moves = [(module_path(old, root), root / _path(new)) for old, new in MODULES.items()]
    moves += [(root / old, root / new) for old, new in FILES]
    for old, new in moves:
        rel_old, rel_new = old.relative_to(root), new.relative_to(root)
        if old.name == "__init__.py" and old.exists() and new.exists():
            continue  # a package's __init__ beside the module its code went to: done
        if not old.exists():
            if not new.exists():
                print(f"warning: neither {rel_old} nor {rel_new} exists", file=sys.stderr)
            continue
        if new.exists():
            print(f"warning: both {rel_old} and {rel_new} exist: left as they are", file=sys.stderr)
            continue
        done.append(f"git mv {rel_old} {rel_new}")
        if not check:
            new.parent.mkdir(parents=True, exist_ok=True)
            git(root, "mv", str(rel_old), str(rel_new))
    for package, doc in PACKAGES.items():
        init = root / package / "__init__.py"
        text = f'"""{doc}"""\n'
        if (root / package).is_dir() and (not init.exists() or init.read_text() == ""):
            done.append(f"write {init.relative_to(root)}")
            if not check:
                init.write_text(text, encoding="utf-8")
                git(root, "add", str(init.relative_to(root)))
    return done


def settle_moved_code(root: Path, check: bool) -> list[str]:
    """A package's __init__.py whose code moved to a module (:data:`FILES`) and that our
    side edited meanwhile: the merge leaves it in conflict (our code against the other
    side's docstring). Our side goes to the module, the __init__.py gets the docstring."""
    done = []
    for old, new in FILES:
        path = root / old
        if not path.exists() or not CONFLICT.search(text := path.read_text(encoding="utf-8")):
            continue
        done.append(f"our {old} to {new}, {old} the package's docstring")
        if not check:
            (root / new).write_text(CONFLICT.sub(r"\g<ours>", text), encoding="utf-8")
            path.write_text(f'"""{PACKAGES[str(Path(old).parent)]}"""\n', encoding="utf-8")
            git(root, "add", old, new)
    return done


def add_packages(text: str) -> str:
    """pyproject.toml with every new package in setuptools' ``packages`` list."""
    match = re.search(r"^packages = \[(.*)\]$", text, re.M)
    if match is None:
        return text
    listed = re.findall(r'"([^"]+)"', match.group(1))
    for package in sorted(new_packages()):
        if package in listed:
            continue
        parent = package.rsplit(".", 1)[0]
        at = listed.index(parent) + 1 if parent in listed else len(listed)
        while at < len(listed) and listed[at].startswith(parent + "."):
            at += 1
        listed.insert(at, package)
    line = "packages = [" + ", ".join(f'"{p}"' for p in listed) + "]"
    return text[: match.start()] + line + text[match.end() :]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if anything would change"
    )
    parser.add_argument("--no-move", action="store_true", help="rewrite only, move no file")
    parser.add_argument("--move-only", action="store_true", help="move files only, rewrite nothing")
    parser.add_argument(
        "--ours-imports",
        action="store_true",
        help="first settle merge conflicts made only of import lines as our side",
    )
    args = parser.parse_args()
    root = Path(
        subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    os.chdir(root)
    todo = [] if args.no_move else move_files(root, args.check)
    if args.ours_imports:
        todo += settle_moved_code(root, args.check)
    changed, settled = [], []
    for path in [] if args.move_only else tracked_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        new = ours_imports(text) if args.ours_imports else text
        if new != text:
            settled.append(str(path))
        new = rewrite_text(new, in_pyproject=path.name == "pyproject.toml")
        if path.name == "pyproject.toml" and path.parent == root:
            new = add_packages(new)
        if new != text:
            changed.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for line in todo:
        print(line)
    for path in changed:
        print(f"{'would rewrite' if args.check else 'rewrote'} {path.relative_to(root)}")
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not args.check and Path(ruff).exists():
        # one file at a time: a file still in conflict (markers) does not stop the others
        for path in changed:
            if path.suffix != ".py" or CONFLICT.search(path.read_text(encoding="utf-8")):
                continue
            # a settled conflict may import a name under two names: drop the one left unused
            select = "I,F401" if str(path) in settled else "I"
            subprocess.run([ruff, "check", "-q", "--select", select, "--fix", str(path)], cwd=root)
            subprocess.run([ruff, "format", "-q", str(path)], cwd=root)
    return 1 if args.check and (todo or changed) else 0


if __name__ == "__main__":
    sys.exit(main())
