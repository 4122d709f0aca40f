"""``blokus-solo verify``: a solution file checked by the independent rule checker, its
claims named, and with ``--prove`` the claims the rules cannot check proved again."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from solver.answers.solution import read_solution, verify
from solver.cli.options import time_limit_option
from solver.errors import InputError, located
from solver.formats.sources import is_game_file
from solver.quoting import shown

if TYPE_CHECKING:
    from solver.answers.solution import SolutionFile
    from solver.core.checker import CheckReport


@click.command("verify")
@click.argument("solution")
@click.option(
    "--prove",
    is_flag=True,
    help="Also prove the claims the rules cannot check (status optimal or infeasible, an "
    "upper bound, an endgame no) again with the exact search.",
)
@time_limit_option(
    "each claim the rules cannot check, proved again.", per="proof", only_with="--prove"
)
def verify_command(solution: str, prove: bool, time_limit: float | None) -> None:
    """Check a solution file (JSON) with the independent rule checker: every placement
    legal, the scores, the status against the layout, the goals; the puzzle it names (if
    that file is here) must have its board, colours and pieces. Optimality and
    infeasibility are proofs the rules cannot check: verify says so, and --prove proves
    them again.

    Exit status 0 if every placement is legal and every claim checked holds, 1 if a rule
    is broken or a claim is false (--prove: the search refutes it), 2 if the file cannot
    be read or is not a solution of the puzzle it names, 3 if --prove could not settle a
    claim within --time-limit.
    """
    from solver.trust.claims import puzzle_check

    if time_limit is not None and not prove:
        raise InputError("applies only with --prove", where="--time-limit")
    if is_game_file(solution):
        raise InputError(
            "a game record: verify reads solution files (.json); use blokus-solo "
            "check or moves for game records",
            path=solution,
        )
    loaded = read_solution(solution)
    with located(path=solution):
        compared = puzzle_check(loaded, Path(solution).parent)
    report, mismatches = verify(loaded)
    if not report.legal:
        click.echo(f"{shown(solution)}: ILLEGAL: {report.problem}")
        sys.exit(1)
    total = sum(len(v) for v in loaded.replay.values())
    added = sum(len(v) for v in loaded.layout.values())
    click.echo(
        f"{shown(solution)}: legal: {total} placements replayed by the rules from the empty "
        f"board ({added} added by the solver)"
    )
    played = {e.get("name"): e.get("played", True) for e in loaded.data["colours"]}
    for r in report.colours:
        extra = ", monomino last" if r.monomino_last and r.all_placed else ""
        n = len(r.remaining)
        left = f"{n} piece{'s' if n != 1 else ''} left" if n else "all pieces placed"
        frozen = "" if played.get(r.colour, True) else " (not played)"
        click.echo(f"  {r.colour:7} {left}, score {r.score}{extra}{frozen}")
    if "endgame" in loaded.data:
        click.echo(f"  endgame: {_endgame_claim(loaded.data['endgame'])}")
    if loaded.data.get("status") == "unknown":  # a stopped run: nothing claimed either way
        click.echo("  status: unknown (the run stopped without an answer: no claim to check)")
        if loaded.partial is not None:
            partial = loaded.data["partial"]
            placed = sum(len(v) for v in loaded.partial.values())
            click.echo(
                f"  partial layout: {placed} placements checked as a partial layout "
                f"(legal, connected), {partial.get('squares_left', '?')} squares left"
            )
        if "fit" in loaded.data:
            fit = loaded.data["fit"]
            click.echo(
                f"  bound (claimed, {fit.get('by', '?')}): at most {fit['most']} of the "
                f"{fit['need']} squares fit"
            )
    if loaded.cover or loaded.connect:
        asked = [f"cover {s}" for s in loaded.position.board.names(loaded.cover)]
        asked += [f"connect {c}" for c in loaded.connect]
        missed = "; not met: " + "; ".join(report.unmet) if report.unmet else ""
        click.echo(f"  goals: {', '.join(asked)}{missed or ' (all met)'}")
    goals = ", goals" if loaded.cover or loaded.connect else ""
    click.echo(f"  checked: placements legal, scores, status against the layout{goals}")
    click.echo(f"  {compared}")
    for m in mismatches:
        click.echo(f"{shown(solution)}: FALSE CLAIM: {m}")
    if mismatches:
        sys.exit(1)
    _verify_proofs(solution, loaded, report, prove, time_limit)


def _verify_proofs(
    solution: str,
    loaded: SolutionFile,
    report: CheckReport,
    prove: bool,
    time_limit: float | None,
) -> None:
    """verify's last lines: the claims the rules cannot check, named (without --prove) or
    proved again (exit 1 if one is refuted, 3 if one is not settled in time)."""
    from solver.trust.claims import prove as prove_claims
    from solver.trust.claims import unproved_claims

    if not prove:
        for _, claim in unproved_claims(loaded):
            click.echo(f"  {claim}: not checked, use --prove")
        return
    with located(path=solution):
        proofs = prove_claims(loaded, report, time_limit)
    for p in proofs:
        if p.held is False:
            click.echo(f"{solution}: FALSE CLAIM: {p.claim}: {p.line}")
        else:
            click.echo(f"  {p.claim}: {p.line}")
    if any(p.held is False for p in proofs):
        sys.exit(1)
    if any(p.held is None for p in proofs):
        sys.exit(3)


def _endgame_claim(record: dict) -> str:
    """What a solution file's endgame record claims, in words."""
    if record.get("left") == 0:
        return f"{record['colour']} has already placed all its pieces"
    text = f"{record['colour']} can place all its {record.get('left', '?')} pieces left: "
    text += {"no": "no (proven)"}.get(record["answer"], record["answer"])
    if record["answer"] == "no" and record.get("best") is not None:
        proven = record.get("best_status") == "optimal"
        text += f"; best score {record['best']}" + (" (proven best)" if proven else "")
    return text
