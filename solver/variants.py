"""Colours and the built-in game variants.

Sources: Pentobi ``libpentobi_base/Variant.cpp`` and ``StartingPoints.cpp``; the
Mattel/Educational Insights rule sheets. Classic colours play in the order blue, yellow,
red, green from the corners a20, t20, t1, a1; Duo and Junior colours purple and orange start
on e10 and j5 of a 14x14 board. Junior uses two copies of 12 shapes and scores no bonus.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.errors import InputError
from solver.pieces import PIECE_NAMES

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
    """

    name: str
    sgf_name: str
    rows: int
    cols: int
    colours: tuple[str, ...]
    starts: tuple[str, ...]
    pieces: Counter[str]
    bonus: bool = True

    def start_of(self, colour: str) -> str:
        """Start square name of one of this variant's colours."""
        return self.starts[self.colours.index(colour)]


_CLASSIC = dict(
    rows=20,
    cols=20,
    colours=("blue", "yellow", "red", "green"),
    starts=("a20", "t20", "t1", "a1"),
    pieces=FULL_SET,
)
_DUO = dict(rows=14, cols=14, colours=("purple", "orange"), starts=("e10", "j5"))

VARIANTS: dict[str, Variant] = {
    "classic": Variant("classic", "Blokus", **_CLASSIC),
    "classic2": Variant("classic2", "Blokus Two-Player", **_CLASSIC),
    "classic3": Variant("classic3", "Blokus Three-Player", **_CLASSIC),
    "duo": Variant("duo", "Blokus Duo", pieces=FULL_SET, **_DUO),
    "junior": Variant("junior", "Blokus Junior", pieces=JUNIOR_SET, bonus=False, **_DUO),
}


def variant(name: str) -> Variant:
    """The built-in variant with this name (case-insensitive). Raises InputError."""
    key = name.strip().lower()
    if key not in VARIANTS:
        raise InputError(f"unknown variant {name!r} (variants: {', '.join(VARIANTS)}, custom)")
    return VARIANTS[key]


def colour_name(text: str) -> str:
    """Colour name from a name or diagram letter, case-insensitively. Raises InputError."""
    key = text.strip().lower()
    if key in COLOUR_LETTERS:
        return key
    if key.upper() in LETTER_COLOURS:
        return LETTER_COLOURS[key.upper()]
    raise InputError(f"unknown colour {text!r} (colours: {', '.join(COLOUR_LETTERS)})")
