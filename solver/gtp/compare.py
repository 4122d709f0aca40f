"""Comparing two engines' move lists: a set of moves as one short key.

Two engines may print a move's squares in different orders (Pentobi prints them in its
own order; we print a1, b1, ..., a2) and the moves in different orders; the key of a
move list ignores both. Pentobi's ``all_legal`` answers are stored as keys
(tests/data/gtp) so that the tests compare against them without Pentobi.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def normalised(move: str) -> str:
    """A move's squares in one order (sorted as text), lower case, spaces removed:
    ``E10, e8,e9`` -> ``e10,e8,e9``."""
    return ",".join(sorted(s.strip().lower() for s in move.split(",")))


def move_set_key(moves: Iterable[str]) -> str:
    """``COUNT:HASH`` of a move list: the number of distinct moves and the first 10 hex
    digits of the SHA-1 of their normalised texts, sorted, one per line."""
    unique = sorted({normalised(m) for m in moves if m.strip()})
    digest = hashlib.sha1("\n".join(unique).encode()).hexdigest()[:10]
    return f"{len(unique)}:{digest}"
