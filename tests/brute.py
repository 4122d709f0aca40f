"""Brute-force enumeration of final layouts, for tests: every legal sequence of moves is
replayed with the reference rules (:func:`solver.core.rules.move_problem`), independent of both
backends and of the placement tables."""

from __future__ import annotations

from solver.core.board import Board
from solver.core.pieces import MONOMINO, PIECES
from solver.core.position import Placement, Position
from solver.core.rules import corner_touches, edge_touches, move_problem


def all_placements(board: Board, piece: str) -> list[Placement]:
    """Every placement of a piece on the board, blocked squares included."""
    out = []
    for shape in PIECES[piece].orientations:
        h = max(r for r, _ in shape) + 1
        w = max(c for _, c in shape) + 1
        for r0 in range(board.rows - h + 1):
            for c0 in range(board.cols - w + 1):
                squares = frozenset(board.square(r0 + r, c0 + c) for r, c in shape)
                out.append(Placement(piece, squares))
    return out


def king_connected(board: Board, squares) -> bool:
    """Whether a set of squares is connected by king moves (for one colour: its pieces are
    one group joined by corner contact, since its pieces never share an edge)."""
    squares = set(squares)
    if not squares:
        return True
    seen = {min(squares)}
    todo = [min(squares)]
    while todo:
        r, c = board.row_col(todo.pop())
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= r + dr < board.rows and 0 <= c + dc < board.cols:
                    n = board.square(r + dr, c + dc)
                    if n in squares and n not in seen:
                        seen.add(n)
                        todo.append(n)
    return len(seen) == len(squares)


def brute_layouts(
    position: Position, colours, monomino_last=False, complete=True, cover=(), connect=()
):
    """Final layouts {colour: frozenset(placements)} as frozensets of (colour, placement).

    complete: only layouts placing every remaining piece; else every legal layout (any
    prefix of a legal sequence). monomino_last: only layouts with a sequence whose last move
    of each colour is a monomino (complete layouts only). cover: only layouts after which
    every one of these squares is covered; connect: only layouts after which each of these
    colours' squares are connected by king moves.
    """
    board = position.board
    cands = {p: all_placements(board, p) for c in colours for p in position.colour(c).remaining}
    found = set()

    def play(pos, k, acc):
        if k == len(colours):
            if any(s not in pos.occupied for s in cover):
                return
            if not all(king_connected(board, pos.colour(c).squares) for c in connect):
                return
            found.add(frozenset(acc))
            return
        colour = colours[k]
        state = pos.colour(colour)
        if not complete:
            play(pos, k + 1, acc)
        if not state.remaining:
            if complete:
                # the bonus looks at the last piece placed: a lone monomino is last too
                if monomino_last and state.last_piece != MONOMINO:
                    return
                play(pos, k + 1, acc)
            return
        for piece in sorted(set(state.remaining)):
            for pl in cands[piece]:
                if move_problem(pos, colour, pl) is None:
                    play(pos.with_placement(colour, pl), k, acc | {(colour, pl)})

    play(position, 0, frozenset())
    return found


def brute_count(position, colours, monomino_last=False, cover=(), connect=()):
    """Number of distinct complete layouts."""
    return len(brute_layouts(position, colours, monomino_last, cover=cover, connect=connect))


def orbits(layouts, perms):
    """Number of distinct layouts up to the square permutations ``perms``."""
    seen = set()
    for layout in layouts:
        forms = []
        for perm in perms:
            forms.append(
                frozenset(
                    (c, Placement(p.piece, frozenset(int(perm[s]) for s in p.squares)))
                    for c, p in layout
                )
            )
        seen.add(min(forms, key=lambda f: sorted((c, p.piece, sorted(p.squares)) for c, p in f)))
    return len(seen)


def brute_moves(position: Position, colour: str) -> set[frozenset[int]]:
    """The legal next moves of a colour, as sets of squares, by the rules with plain sets
    (:mod:`solver.core.rules`, rules 1 and 3-5; rule 2, the shape, holds by
    :func:`all_placements`): a piece the colour holds, on free squares, sharing no edge
    with the colour, touching it at a corner or, on its first move, covering its start."""
    board = position.board
    state = position.colour(colour)
    own = state.squares
    taken = position.occupied | board.blocked
    found = set()
    for piece in set(state.remaining):
        for p in _placements(board, piece):
            if p.squares & taken or edge_touches(board, p.squares, own):
                continue
            if corner_touches(board, p.squares, own) if own else state.start in p.squares:
                found.add(p.squares)
    return found


_CACHE: dict[tuple[Board, str], list[Placement]] = {}


def _placements(board: Board, piece: str) -> list[Placement]:
    key = (board, piece)
    if key not in _CACHE:
        _CACHE[key] = all_placements(board, piece)
    return _CACHE[key]


def brute_perft(position: Position, colour: int, depth: int) -> int:
    """perft by its definition (docs/perft.md) over :func:`brute_moves`: the lines of
    ``depth`` turns, colour number ``colour`` first; a colour without a move passes while
    another has one; a game with no move left ends its lines."""
    if depth == 0:
        return 1
    names = position.colour_names
    name = names[colour]
    nxt = (colour + 1) % len(names)
    moves = brute_moves(position, name)
    if not moves:
        if not any(brute_moves(position, other) for other in names if other != name):
            return 0
        return brute_perft(position, nxt, depth - 1)
    total = 0
    for squares in moves:
        piece = next(
            p for p in set(position.colour(name).remaining) if _is(position.board, p, squares)
        )
        total += brute_perft(
            position.with_placement(name, Placement(piece, squares)), nxt, depth - 1
        )
    return total


def _is(board: Board, piece: str, squares: frozenset[int]) -> bool:
    return any(p.squares == squares for p in _placements(board, piece))
