"""The SGF grammar layer: a small reader and writer for Pentobi's ``.blksgf`` files.

Grammar (SGF FF[4], https://www.red-bean.com/sgf/sgf4.html)::

    Collection = GameTree+
    GameTree   = "(" Node+ GameTree* ")"
    Node       = ";" Property*
    Property   = Ident Value+        Ident = [A-Za-z0-9]+     Value = "[" text "]"

Identifiers may contain digits because Pentobi uses ``1``..``4`` and ``A1``..``A4``
(``libpentobi_base/Pentobi-SGF.md``); generic Go SGF libraries reject them, hence this
module. Inside a value, ``\\`` escapes the next character (so ``\\]`` is ``]`` and
``\\\\`` is ``\\``) and ``\\`` before a line break removes the break (a "soft" line break).
Whitespace is allowed anywhere between tokens. Nothing here knows about Blokus: the
meaning of the properties is in :mod:`solver.formats.game`.

Every node and property keeps its :class:`Location` (1-based line and column of its first
character) so that errors, here and in :mod:`solver.formats.game`, can name the place. All errors
are :class:`~solver.errors.InputError` with ``where="line L, column C"``. The parser is
iterative, so deeply nested variations cannot exhaust the Python stack.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from solver.errors import InputError

_WHITESPACE = frozenset(" \t\r\n\f\v\ufeff")


@dataclass(frozen=True)
class Location:
    """A place in a text: 1-based line and column (columns count characters)."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}"


@dataclass(frozen=True)
class Property:
    """One property of a node.

    Attributes:
        ident: the identifier as written, e.g. ``"A1"`` (case-sensitive).
        values: the values with escapes resolved, in file order (at least one).
        location: where the identifier starts.
        value_locations: where each value's ``[`` is, same order as ``values``.
    """

    ident: str
    values: tuple[str, ...]
    location: Location
    value_locations: tuple[Location, ...]

    @property
    def value(self) -> str:
        """The first value (most properties have exactly one)."""
        return self.values[0]


@dataclass(frozen=True)
class Node:
    """A node: its properties in file order and where its ``;`` is."""

    properties: tuple[Property, ...]
    location: Location

    def get(self, ident: str) -> Property | None:
        """The property with this identifier, or None."""
        for prop in self.properties:
            if prop.ident == ident:
                return prop
        return None

    def __contains__(self, ident: str) -> bool:
        return self.get(ident) is not None


@dataclass(frozen=True)
class GameTree:
    """A game tree: a sequence of nodes, then the variations that follow it.

    Attributes:
        nodes: the sequence (at least one node).
        children: the variations after the last node; the first is the main line.
        location: where its ``(`` is.
    """

    nodes: tuple[Node, ...]
    children: tuple[GameTree, ...]
    location: Location

    def main_line(self) -> list[Node]:
        """The nodes from the root to the end, always following the first variation."""
        nodes: list[Node] = []
        tree: GameTree | None = self
        while tree is not None:
            nodes.extend(tree.nodes)
            tree = tree.children[0] if tree.children else None
        return nodes


class _Text:
    """A text with a fast index -> (line, column) lookup."""

    def __init__(self, text: str, path: str | None):
        self.text = text
        self.path = path
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def location(self, index: int) -> Location:
        line = bisect_right(self._line_starts, index)
        return Location(line, index - self._line_starts[line - 1] + 1)

    def index(self, location: Location) -> int:
        """The index of a location (the inverse of :meth:`location`)."""
        return self._line_starts[location.line - 1] + location.column - 1

    def error(self, message: str, index: int) -> InputError:
        return InputError(message, path=self.path, where=str(self.location(index)))


@dataclass
class _TreeBuilder:
    nodes: list[Node]
    children: list[GameTree]
    start: int


def parse(text: str, path: str | None = None) -> tuple[GameTree, ...]:
    """Parse an SGF collection.

    Args:
        text: the whole file as text (a leading byte order mark is allowed; files are read
            with :func:`solver.formats.text.read_text`, which drops it).
        path: the file name, for error messages.

    Returns:
        The game trees of the collection, in file order (at least one).

    Raises:
        InputError: with ``where="line L, column C"``: text outside a game tree, a game
            tree without a node, a node after a variation, a property without a value, a
            property twice in one node, an unclosed ``[`` or ``(``, an unmatched ``)``.
    """
    src = _Text(text, path)
    n = len(text)
    i = 0
    stack: list[_TreeBuilder] = []
    trees: list[GameTree] = []
    while True:
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i >= n:
            break
        ch = text[i]
        if ch == "(":
            if stack and not stack[-1].nodes:
                raise src.error("expected ';' (a node) after '(', found '('", i)
            stack.append(_TreeBuilder([], [], i))
            i += 1
        elif ch == ";":
            if not stack:
                raise src.error("';' outside a game tree (expected '(')", i)
            if stack[-1].children:
                raise src.error("a node after a variation (nodes must come before '(')", i)
            node, i = _parse_node(src, i)
            stack[-1].nodes.append(node)
        elif ch == ")":
            if not stack:
                raise src.error("unmatched ')'", i)
            built = stack.pop()
            if not built.nodes:
                raise src.error("empty game tree '()'", built.start)
            tree = GameTree(tuple(built.nodes), tuple(built.children), src.location(built.start))
            (stack[-1].children if stack else trees).append(tree)
            i += 1
        else:
            expected = "'(' or end of file" if not stack else "';', '(' or ')'"
            if stack and (ch.isalnum() and ch.isascii()):
                expected = "';' before a property"
            raise src.error(f"unexpected {ch!r} (expected {expected})", i)
    if stack:
        raise src.error("the file ends inside a game tree: '(' is never closed", stack[-1].start)
    if not trees:
        raise InputError(
            "no game tree in the file (expected '(')", path=path, where="line 1, column 1"
        )
    return tuple(trees)


def _parse_node(src: _Text, i: int) -> tuple[Node, int]:
    """Parse the node whose ``;`` is at ``i``; return it and the index after it."""
    text, n = src.text, len(src.text)
    start = i
    i += 1
    props: list[Property] = []
    seen: set[str] = set()
    while True:
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i >= n or not (text[i].isascii() and text[i].isalnum()):
            return Node(tuple(props), src.location(start)), i
        id_start = i
        while i < n and text[i].isascii() and text[i].isalnum():
            i += 1
        ident = text[id_start:i]
        if ident in seen:
            raise src.error(f"property {ident} appears twice in one node", id_start)
        seen.add(ident)
        values: list[str] = []
        locations: list[Location] = []
        while True:
            while i < n and text[i] in _WHITESPACE:
                i += 1
            if i >= n or text[i] != "[":
                break
            value, end = _parse_value(src, i)
            values.append(value)
            locations.append(src.location(i))
            i = end
        if not values:
            found = repr(text[i]) if i < n else "the end of the file"
            raise src.error(
                f"property {ident} has no value (expected '[', found {found})", id_start
            )
        props.append(Property(ident, tuple(values), src.location(id_start), tuple(locations)))


def _parse_value(src: _Text, i: int) -> tuple[str, int]:
    """Parse the value whose ``[`` is at ``i``; return its text and the index after ``]``."""
    text, n = src.text, len(src.text)
    out: list[str] = []
    j = i + 1
    while j < n:
        ch = text[j]
        if ch == "]":
            return "".join(out), j + 1
        if ch == "\\":
            if j + 1 >= n:
                break
            nxt = text[j + 1]
            if nxt == "\r" and j + 2 < n and text[j + 2] == "\n":
                j += 3  # soft line break (CR LF)
            elif nxt in "\r\n":
                j += 2  # soft line break
            else:
                out.append(nxt)
                j += 2
            continue
        out.append(ch)
        j += 1
    raise src.error("'[' is never closed (the file ends inside a property value)", i)


def escape(value: str) -> str:
    """A value's text with ``\\`` and ``]`` escaped, ready to write between brackets."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def format_property(ident: str, values: Iterable[str]) -> str:
    """One property as written: ``format_property("AB", ["a1", "b2"]) == "AB[a1][b2]"``."""
    values = list(values)
    if not values:
        raise ValueError(f"property {ident} needs at least one value")
    return ident + "".join(f"[{escape(v)}]" for v in values)


def add_comments(text: str, comments: Mapping[Location, str], path: str | None = None) -> str:
    """``text`` with comments added to some of its nodes, everything else kept as it is.

    Args:
        text: an SGF text (as :func:`parse` reads it).
        comments: the location of a node's ``;`` (:attr:`Node.location`) -> the comment
            to add. A node with a ``C`` property gets it appended to the (last) ``C``
            value after a blank line; a node without one gets a ``C`` property after its
            last property. Characters that need it (``]``, ``\\``) are escaped.
        path: the file name, for error messages.

    Raises:
        InputError: the text is not well-formed SGF (see :func:`parse`).
        KeyError: a location that is no node's.
    """
    src = _Text(text, path)
    nodes = {node.location: node for tree in parse(text, path) for node in _nodes(tree)}
    inserts: list[tuple[int, str]] = []
    for location, comment in comments.items():
        node = nodes[location]
        existing = node.get("C")
        if existing is not None:
            _, end = _parse_value(src, src.index(existing.value_locations[-1]))
            separator = "\n\n" if existing.values[-1] else ""
            inserts.append((end - 1, escape(separator + comment)))
        elif node.properties:
            last = node.properties[-1]
            _, end = _parse_value(src, src.index(last.value_locations[-1]))
            inserts.append((end, format_property("C", [comment])))
        else:
            inserts.append((src.index(node.location) + 1, format_property("C", [comment])))
    out = text
    for index, insert in sorted(inserts, reverse=True):
        out = out[:index] + insert + out[index:]
    return out


def _nodes(tree: GameTree) -> Iterable[Node]:
    """Every node of a game tree, variations included (iteratively: no recursion limit)."""
    stack = [tree]
    while stack:
        current = stack.pop()
        yield from current.nodes
        stack.extend(current.children)
