"""The commands for puzzle players and makers: ``hint``, ``rate`` and ``generate``.

Registered on the ``blokus-solo`` group by :mod:`solver.cli.commands`; bad input ends as
there (one line naming the file and the place, exit status 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import click
from rich.console import Console

from solver.cli.options import out_option, plain_option, seed_option, time_limit_option
from solver.cli.output import describe_problem, make_console
from solver.cli.params import Command
from solver.cli.render import print_position
from solver.core.problem import Problem
from solver.errors import InputError, located
from solver.formats.sources import is_game_file, load_source
from solver.quoting import shown

if TYPE_CHECKING:
    from solver.tasks.generate import Card

#: ``rate --playouts`` and ``generate --playouts``: at most a million.
PLAYOUTS = click.IntRange(0, 1_000_000)


def playouts_option(text: str) -> Callable[[Command], Command]:
    """The ``--playouts`` option (default 1000)."""
    return click.option(
        "--playouts", type=PLAYOUTS, default=1000, show_default=True, metavar="N", help=text
    )


def load_card(path: str) -> Problem:
    """A puzzle file's problem for hint and rate (goal place-all). Raises InputError for a
    game record or a max-score puzzle."""
    if is_game_file(path):
        raise InputError("a game record: hint and rate read puzzle files (.toml)", path=path)
    problem = load_source(path)
    if problem.goal != "place-all":
        raise InputError(
            "hints and ratings follow place-all solutions; this puzzle's goal is max-score",
            path=path,
            where="goal",
        )
    return problem


@click.command("hint")
@click.argument("puzzle")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    metavar="N",
    help="Show the N best moves (0: all of them).",
)
@click.option(
    "--reveal",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Also show the first N pieces of one solution, in order of play.",
)
@click.option(
    "--move",
    "moves",
    multiple=True,
    metavar="SQUARES",
    help="A piece you have placed, by its squares (c4,c5,d5,d6; red:c4,c5,d5,d6 when "
    "several colours play), checked by the rules; repeat it in order of play.",
)
@time_limit_option(
    "the solutions, then those each legal move keeps; counts stopped by it are lower bounds.",
    per="counts",
)
@plain_option()
def hint_command(
    puzzle: str,
    top: int,
    reveal: int | None,
    moves: tuple[str, ...],
    time_limit: float | None,
    plain: bool,
) -> None:
    """Which placements still lead to a solution from the puzzle's position (after your
    --move pieces): every legal next move that keeps at least one solution, ranked by how
    many it keeps. "No placement does" comes with its proof."""
    from solver.tasks.hints import hints, play

    problem = load_card(puzzle)
    with located(path=puzzle):
        problem = play(problem, list(moves))
    console = make_console(plain)
    describe_problem(console, problem)
    print_position(console, problem.position, plain, stars=problem.cover)
    found = hints(problem, time_limit)
    board = problem.position.board
    total = found.total
    left = sum(len(problem.position.colour(c).remaining) for c in problem.colours)
    if left == 0:
        met = "the goal is met" if total.count else "the goal is not met"
        console.print(f"Nothing left to place: {met}.")
    elif total.complete and total.count == 0:
        console.print(
            "No placement leads to a solution: the position has none (proven: the search "
            f"visited all {total.nodes} nodes of its tree)."
        )
    elif not found.hints:
        console.print(
            f"No hint found before the time limit ({found.moves} legal moves; not a proof)."
        )
    else:
        solutions = f"{total.count} solution{'s' if total.count != 1 else ''}"
        if not total.complete:
            solutions = f"at least {solutions}"
        console.print(
            f"{len(found.hints)} of {found.moves} legal moves still lead to a solution "
            f"({solutions} in all):"
        )
        listed = found.hints if top == 0 else found.hints[:top]
        for k, h in enumerate(listed, start=1):
            where = ",".join(board.names(h.placement.squares))
            keeps = f"{'at least ' if not h.complete else ''}{h.keeps}"
            console.print(f"{k:4}  {h.colour:7} {h.placement.piece:3} at {where:<20} keeps {keeps}")
        if len(listed) < len(found.hints):
            console.print(f"      ... and {len(found.hints) - len(listed)} more (--top 0: all)")
        if not found.complete:
            console.print(
                "(time limit reached: counts are lower bounds; a move left out is not proven bad)"
            )
    if reveal:
        _reveal(console, problem, reveal, plain)


def _reveal(console: Console, problem: Problem, n: int, plain: bool) -> None:
    """The first ``n`` pieces of one solution (the exact search's), in order of play."""
    from solver.backends.base import SolveOptions
    from solver.pictures.picture import play_order, with_layout
    from solver.tasks.solve import solve

    result = solve(problem, SolveOptions(backend="search", workers=1))
    if result.layout is None:
        console.print("No solution to reveal.")
        return
    final = with_layout(problem.position, result.layout)
    added = {id(p) for ps in result.layout.values() for p in ps}
    order = [(c, p) for c, p in play_order(final) if id(p) in added][:n]
    revealed = with_layout(
        problem.position, {c: [p for d, p in order if d == c] for c in problem.colours}
    )
    console.print(f"One solution, its first {len(order)} piece{'s' if len(order) != 1 else ''}:")
    new = frozenset().union(*(p.squares for _, p in order))
    print_position(console, revealed, plain, new, stars=problem.cover)
    board = problem.position.board
    for k, (colour, p) in enumerate(order, start=1):
        console.print(f"{k:4}  {colour:7} {p.piece:3} at {','.join(board.names(p.squares))}")


@click.command("rate")
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@playouts_option("Random playouts per puzzle.")
@seed_option("The playouts' seed.", metavar="N")
@time_limit_option(
    "each of two: the solutions up to symmetry, then the first moves that keep one (their "
    "counts together); a stopped count is marked.",
    per="count",
)
def rate_command(
    puzzles: tuple[str, ...], playouts: int, seed: int, time_limit: float | None
) -> None:
    """Rate puzzles: solutions up to symmetry, the share of legal first moves that keep a
    solution, the success rate of random playouts (fixed seed), search nodes, and the
    difficulty they give (easy, medium, hard, expert)."""
    from solver.tasks.rating import rate

    problems = [load_card(p) for p in puzzles]  # every file read before any work
    names = [shown(p) for p in puzzles]
    width = max(36, *(len(p) for p in names))  # the columns line up under long paths
    click.echo(
        f"{'puzzle':<{width}} {'solutions':>9} {'first moves':>12} {'playouts':>14} "
        f"{'nodes':>8} {'score':>5}  difficulty  time"
    )
    for path, problem in zip(names, problems):
        r = rate(problem, playouts, seed, time_limit)
        score = "-" if r.score is None else f"{r.score:.2f}"
        solutions = f"{'>=' if not r.complete else ''}{r.solutions}"
        click.echo(
            f"{path:<{width}} {solutions:>9} {r.good_first_moves:>5} of {r.first_moves:<3} "
            f"{r.successes:>5} of {r.playouts:<5} {r.nodes:>8} {score:>5}  {r.label:<10}  "
            f"{r.seconds:.2f} s"
        )


#: ``generate --size``: the sides of a card's board (the generator's tables are sized for
#: up to 20x20, and a card needs room for a printed piece and the pieces to place)
MIN_SIDE, MAX_SIDE = 4, 20


def parse_size(text: str) -> tuple[int, int]:
    """``"8x8"`` as (rows, columns). Raises InputError."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*[xX]\s*(\d{1,3})\s*", text)
    if not match:
        raise InputError(f"expected ROWSxCOLUMNS, e.g. 8x8, got {text!r}", where="--size")
    rows, cols = int(match.group(1)), int(match.group(2))
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise InputError(
            f"board size {rows}x{cols}: rows and columns are each {MIN_SIDE} to {MAX_SIDE}",
            where="--size",
        )
    return rows, cols


@click.command("generate")
@click.option(
    "--goal",
    "kind",
    type=click.Choice(["avoid", "cover", "connect"]),
    required=True,
    help="avoid: Avoid the Xs; cover: Cover the Stars; connect: Connect the Blocks.",
)
@click.option(
    "--pieces",
    type=click.IntRange(1, 19),
    default=5,
    show_default=True,
    metavar="N",
    help="Pieces to place (1 to 19).",
)
@click.option(
    "--size",
    default="8x8",
    show_default=True,
    metavar="RxC",
    help=f"Board size: rows and columns, each {MIN_SIDE} to {MAX_SIDE}.",
)
@click.option(
    "--count",
    "cards",
    type=click.IntRange(1, 1000),
    default=1,
    show_default=True,
    metavar="K",
    help="Puzzles to make.",
)
@seed_option("The first candidate's seed.", metavar="N")
@out_option(
    "Folder for the puzzle files (GOAL-RxC-sSEED.toml), made if need be.",
    metavar="DIR",
    default=".",
)
@playouts_option("Random playouts for each puzzle's rating (seed 0, as rate).")
def generate_command(
    kind: str, pieces: int, size: str, cards: int, seed: int, out: str, playouts: int
) -> None:
    """Make Blokus Puzzle cards: each has exactly one solution up to symmetry (proved by
    count), is rated, and is written as a puzzle file."""
    from solver.formats.files import check_output_folder, write_text_atomic
    from solver.formats.puzzle import puzzle_text
    from solver.tasks.generate import TITLES, generate

    rows, cols = parse_size(size)
    folder = check_output_folder(out)
    try:  # made if need be, as batch and cubes split make theirs
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder: {e.strerror or e}", where="--out") from None
    for card in generate(kind, pieces, rows, cols, cards, seed, playouts=playouts):
        name = folder / f"{kind}-{rows}x{cols}-s{card.seed}.toml"
        title = f"{TITLES[kind]}: {pieces} pieces on {rows}x{cols} (seed {card.seed})"
        write_text_atomic(name, puzzle_text(card.problem, title, describe_card(card)))
        r = card.rating
        tried = f"{card.candidates} candidate{'s' if card.candidates != 1 else ''}"
        click.echo(
            f"wrote {name}: 1 solution up to symmetry, {r.label} (score {r.score:.2f}), "
            f"{len(card.problem.position.board.blocked)} X, {_stars(len(card.problem.cover))}  "
            f"[{card.seconds:.2f} s, {tried}]"
        )


def _stars(n: int) -> str:
    return f"{n} star{'s' if n != 1 else ''}"


def describe_card(card: Card) -> str:
    """A generated card's description: its goal, its count and its rating."""
    r = card.rating
    goal = {
        "avoid": "place every piece without covering an X (#)",
        "cover": "place every piece so that together they cover every star (*)",
        "connect": "place every piece so that they join the printed pieces into one group",
    }[card.kind]
    return (
        f"Blue's pieces touch only at corners and build off the printed blue piece(s); "
        f"{goal}. 1 solution up to symmetry (count --up-to-symmetry). Rated {r.label} "
        f"(score {r.score:.2f}): {r.good_first_moves} of {r.first_moves} first moves keep "
        f"a solution, {r.successes} of {r.playouts} random playouts (seed {r.seed}) "
        f"solve it, {r.nodes} search nodes."
    )
