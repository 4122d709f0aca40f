"""Colours and the built-in game variants.

Sources: Pentobi ``libpentobi_base/Variant.cpp`` and ``StartingPoints.cpp``; the
Mattel/Educational Insights rule sheets. Classic colours play in the order blue, yellow,
red, green from the corners a20, t20, t1, a1; Duo and Junior colours purple and orange start
on e10 and j5 of a 14x14 board. Junior uses two copies of 12 shapes and scores no bonus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from solver.core.pieces import PIECE_NAMES, family
from solver.errors import InputError

#: Colour names and the letter each one has in board diagrams.
COLOUR_LETTERS: dict[str, str] = {
    "blue": "B",
    "yellow": "Y",
    "red": "R",
    "green": "G",
    "purple": "P",
    "orange": "O",
}
LETTER_COLOURS: dict[str, str] = {v: k for k, v in COLOUR_LETTERS.items()}

FULL_SET: Counter[str] = Counter({name: 1 for name in PIECE_NAMES})
JUNIOR_SET: Counter[str] = Counter(
    {name: 2 for name in ("1", "2", "I3", "V3", "I4", "L4", "T4", "O", "Z4", "I5", "L5", "P")}
)
#: the 22 Trigon pieces, one each (Pentobi ``BoardConst.cpp`` ``create_pieces_trigon``)
TRIGON_SET: Counter[str] = Counter({name: 1 for name in family("trigon").names})


@dataclass(frozen=True)
class Variant:
    """A built-in game variant.

    Attributes:
        name: our name ("classic", "classic2", "classic3", "duo", "junior").
        sgf_name: Pentobi's ``GM`` value, e.g. "Blokus Duo".
        rows, cols: board size.
        colours: colour names in turn order.
        starts: each colour's start square name, same order.
        pieces: each colour's piece multiset (name -> count).
        bonus: whether +15 (all placed) and +5 (monomino last) are scored.
        seats: each colour's player (same order as ``colours``); -1 for the colour the
            players take turns with and no one scores (Three-Player's green). Source:
            Pentobi's ``get_nu_players`` and its rules of Two- and Three-Player.
        pentobi_ids: Pentobi's id of the variant and its abbreviation (``--game`` of
            ``pentobi-gtp``, e.g. "classic_2", "c2").
        grid: ``"square"``, or ``"trigon"``: then ``rows`` x ``cols`` is the naming
            rectangle of the hexagon (18 x 35 for side 9), ``starts`` is empty and the six
            starting points are shared (:attr:`Position.starting_points`).
    """

    name: str
    sgf_name: str
    rows: int
    cols: int
    colours: tuple[str, ...]
    starts: tuple[str, ...]
    pieces: Counter[str]
    bonus: bool = True
    seats: tuple[int, ...] = ()
    pentobi_ids: tuple[str, ...] = ()
    grid: str = "square"

    @property
    def players(self) -> int:
        """How many players the variant has (Pentobi's ``get_nu_players``)."""
        return len({p for p in self.seats if p >= 0})

    @property
    def shared(self) -> int | None:
        """The index of the colour the players take turns with, or None."""
        return self.seats.index(-1) if -1 in self.seats else None

    def check_size(self, rows: int, cols: int) -> None:
        """Raises InputError unless the board is this variant's size."""
        if (rows, cols) != (self.rows, self.cols):
            raise InputError(f"{self.name} is {self.rows}x{self.cols}, not {rows}x{cols}")

    def check_colour(self, colour: str) -> None:
        """Raises InputError unless ``colour`` (a colour name) is one of this variant's."""
        if colour not in self.colours:
            raise InputError(
                f"{self.name} has no colour {colour} (colours: {', '.join(self.colours)})"
            )


class _Board(TypedDict):
    rows: int
    cols: int
    colours: tuple[str, ...]
    starts: tuple[str, ...]


_CLASSIC = _Board(
    rows=20, cols=20, colours=("blue", "yellow", "red", "green"), starts=("a20", "t20", "t1", "a1")
)
_DUO = _Board(rows=14, cols=14, colours=("purple", "orange"), starts=("e10", "j5"))

VARIANTS: dict[str, Variant] = {
    "classic": Variant(
        "classic", "Blokus", pieces=FULL_SET, seats=(0, 1, 2, 3), pentobi_ids=("classic", "c"),
        **_CLASSIC,
    ),
    "classic2": Variant(
        "classic2", "Blokus Two-Player", pieces=FULL_SET, seats=(0, 1, 0, 1),
        pentobi_ids=("classic_2", "c2"), **_CLASSIC,
    ),
    "classic3": Variant(
        "classic3", "Blokus Three-Player", pieces=FULL_SET, seats=(0, 1, 2, -1),
        pentobi_ids=("classic_3", "c3"), **_CLASSIC,
    ),
    "duo": Variant(
        "duo", "Blokus Duo", pieces=FULL_SET, seats=(0, 1), pentobi_ids=("duo", "d"), **_DUO
    ),
    "junior": Variant(
        "junior", "Blokus Junior", pieces=JUNIOR_SET, bonus=False, seats=(0, 1),
        pentobi_ids=("junior", "j"), **_DUO,
    ),
}  # fmt: skip

#: The Trigon variants (Pentobi ``Variant.cpp``: hexagon side 9, or 8 for three colours;
#: colours blue, yellow, red, green in turn). Not in :data:`VARIANTS` yet: the commands
#: that know them read :data:`ALL_VARIANTS` (issue 43 moves the rest onto the geometry).
_TRIGON_COLOURS = ("blue", "yellow", "red", "green")
TRIGON_VARIANTS: dict[str, Variant] = {
    "trigon": Variant(
        "trigon", "Blokus Trigon", 18, 35, _TRIGON_COLOURS, (), TRIGON_SET, seats=(0, 1, 2, 3),
        pentobi_ids=("trigon", "t"), grid="trigon",
    ),
    "trigon2": Variant(
        "trigon2", "Blokus Trigon Two-Player", 18, 35, _TRIGON_COLOURS, (), TRIGON_SET,
        seats=(0, 1, 0, 1), pentobi_ids=("trigon_2", "t2"), grid="trigon",
    ),
    "trigon3": Variant(
        "trigon3", "Blokus Trigon Three-Player", 16, 31, _TRIGON_COLOURS[:3], (), TRIGON_SET,
        seats=(0, 1, 2), pentobi_ids=("trigon_3", "t3"), grid="trigon",
    ),
}  # fmt: skip

#: every variant: :data:`VARIANTS` and :data:`TRIGON_VARIANTS`
ALL_VARIANTS: dict[str, Variant] = {**VARIANTS, **TRIGON_VARIANTS}


#: The variant name of a board that is none of the built-in ones (files may say so).
CUSTOM = "custom"


def variant_or_custom(name: str) -> Variant | None:
    """The built-in variant with this name (case-insensitive), or None for ``custom``.

    Every file format that names a variant (puzzle TOML, solution JSON) reads it here.

    Raises:
        InputError: any other name.
    """
    key = name.strip().lower()
    if key == CUSTOM:
        return None
    if key not in VARIANTS:
        raise InputError(
            f"unknown variant {name!r} (variants: {', '.join(VARIANTS)}, {CUSTOM})"[:200]
        )
    return VARIANTS[key]


def set_name(v: Variant | None) -> str:
    """How messages name a variant's piece set: its name, or "the set" on a custom board."""
    return v.name if v is not None else "the set"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times`` (``no times`` for 0)."""
    return {0: "no times", 1: "once", 2: "twice"}.get(n, f"{n} times")


def check_piece_counts(
    pieces: Counter[str],
    sources: Mapping[str, Iterable[str]],
    name: str,
    printed: Iterable[str] = (),
) -> None:
    """Refuse a colour's pieces that its set does not have, or not that often.

    Every reader counts a colour's pieces here: a puzzle's pieces on the board and in
    ``[pieces]``, a solution file's ``placements`` and ``remaining``.

    Args:
        pieces: the set (piece name -> how often it has it).
        sources: where the colour's pieces are, e.g. ``{"on the board": [...], "listed":
            [...]}``; each label is how messages say where a piece is.
        name: how messages name the set (:func:`set_name`).
        printed: pieces printed on a puzzle card (a colour's pieces on the board when it
            has no start square: they are its start). Each must be a shape of the set,
            but they are not taken from it: a card may print a piece whose shape is also
            in hand (Mattel's Blokus Puzzle cards do), or print one shape twice.

    Raises:
        InputError: the first piece (in the order given) that the set lacks
            ("junior has no piece X") or that appears more often than the set has it
            ("piece 1 is on the board once and listed once; classic has it once").
    """
    for piece in printed:
        if not pieces[piece]:
            raise InputError(f"{name} has no piece {piece}")
    counts = {label: Counter(found) for label, found in sources.items()}
    for piece in dict.fromkeys(p for c in counts.values() for p in c):
        have = pieces[piece]
        if not have:
            raise InputError(f"{name} has no piece {piece}")
        where = [(label, c[piece]) for label, c in counts.items() if c[piece]]
        if sum(n for _, n in where) > have:
            found = " and ".join(f"{label} {times(n)}" for label, n in where)
            raise InputError(f"piece {piece} is {found}; {name} has it {times(have)}")


def colour_name(text: str) -> str:
    """Colour name from a name or diagram letter, case-insensitively (as files name
    colours). Raises InputError."""
    key = text.strip().lower()
    if key in COLOUR_LETTERS:
        return key
    if key.upper() in LETTER_COLOURS:
        return LETTER_COLOURS[key.upper()]
    raise InputError(f"unknown colour {text!r} (colours: {', '.join(COLOUR_LETTERS)})")


def colour_id(v: Variant, colour: str) -> str:
    """The id Pentobi writes for a colour of a variant (SGF moves, ``PL``): ``B``/``W`` in
    two-colour variants, ``1``..``4`` in the others."""
    k = v.colours.index(colour)
    return ("B", "W")[k] if len(v.colours) == 2 else str(k + 1)


def colour_ids(v: Variant) -> dict[str, str]:
    """Every id Pentobi reads for a variant's colours (``PL`` values, Pentobi
    ``NodeUtil.cpp::get_player``): ``1``..``4`` in turn order, and with two colours ``B``
    (the first) and ``W`` (the second) -> colour name."""
    ids = {str(k + 1): c for k, c in enumerate(v.colours)}
    if len(v.colours) == 2:
        ids.update({"B": v.colours[0], "W": v.colours[1]})
    return ids


def read_colour(text: object, colours: Sequence[str], variant: Variant | None = None) -> str:
    """The colour among ``colours`` (a position's, in turn order) that ``text`` names: the
    one rule for a colour a person types, on the command line (``--colour``), in the API
    and on the page (``text``: any value, as the page's JSON may hold). Case-insensitive,
    spaces around ignored:

    1. a colour name, or its diagram letter (:data:`COLOUR_LETTERS`: ``B`` blue, ``P``
       purple...), if that colour is one of ``colours``;
    2. else, on a built-in ``variant``, Pentobi's id of a colour (:func:`colour_ids`, as in
       its game records): ``B`` is blue in Classic but purple in Duo, which has no blue;
       ``W`` is orange; ``2`` is yellow in Classic.

    Raises:
        InputError: not text, or no colour of ``colours``.
    """
    if not isinstance(text, str):  # (from the API or the page: any JSON value)
        raise InputError(f"expected a colour's name or letter, got {type(text).__name__}")
    key = text.strip()
    name = key.lower() if key.lower() in COLOUR_LETTERS else LETTER_COLOURS.get(key.upper())
    if name not in colours and variant is not None:
        name = colour_ids(variant).get(key.upper())
    if name is None or name not in colours:
        if variant is not None:
            choices = ", ".join(f"{colour_id(variant, c)}/{c}" for c in variant.colours)
            raise InputError(f"{text!r} is not a colour of {variant.sgf_name} (colours: {choices})")
        raise InputError(f"{text!r} is not a colour here (colours: {', '.join(colours)})")
    return name
