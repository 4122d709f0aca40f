"""`verify` on tampered solution files: unknown status, format, variant or goal and values of
the wrong type are malformed files (exit 2, one line naming the file and the key); a status
that contradicts the goal or the layout is a false claim (exit 1)."""

import json

import helpers
import pytest

PUZZLES = helpers.PUZZLES


run = helpers.run_cli


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Real solution files written by `solve --out`: name -> parsed JSON."""
    folder = tmp_path_factory.mktemp("solutions")
    files = {}
    for name, puzzle in (
        ("place-all", "tiny-5x5-corner"),
        ("max-score", "max-score-5x5"),
        ("infeasible", "tiny-4x4-impossible"),
    ):
        out = folder / f"{name}.json"
        result = run("solve", PUZZLES / f"{puzzle}.toml", "--backend", "search", "--out", out)
        assert result.exit_code == 0, result.output
        files[name] = json.loads(out.read_text())
    return files


@pytest.fixture
def tamper(written, tmp_path):
    """tamper(kind, change) -> path of a copy of the written file `kind`, changed."""

    def make(kind, change=lambda d: None):
        data = json.loads(json.dumps(written[kind]))
        change(data)
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(data))
        return path

    return make


def malformed(path, *fragments):
    result = run("verify", path)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert str(path) in lines[0]
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


def false_claim(path, *claims):
    result = run("verify", path)
    assert result.exit_code == 1, result.output
    assert "ILLEGAL" not in result.output
    for claim in claims:
        assert f"{path}: FALSE CLAIM: {claim}" in result.output, result.output
    return result.output


@pytest.mark.parametrize("kind", ["place-all", "max-score", "infeasible"])
def test_untampered_solutions_verify(kind, written, tamper):
    assert written[kind]["format"] == "blokus-solo-solution/1"
    assert (
        written[kind]["status"]
        == {"place-all": "solved", "max-score": "optimal", "infeasible": "infeasible"}[kind]
    )
    result = run("verify", tamper(kind))
    assert result.exit_code == 0, result.output
    assert "FALSE CLAIM" not in result.output and "legal:" in result.output


def test_missing_optional_keys_still_verify(tamper):
    # hand-written files may leave out the format, variant, goal and status (no claim)
    drop = ("format", "variant", "goal", "status", "score", "bound", "monomino_last")
    path = tamper("place-all", lambda d: [d.pop(k) for k in drop])
    assert run("verify", path).exit_code == 0


@pytest.mark.parametrize(
    "key,value,message",
    [
        (
            "status",
            "bogus",
            "status: unknown status 'bogus' (statuses: solved, optimal, infeasible, unknown)",
        ),
        ("status", None, "status: expected str, got None"),
        ("status", "Solved", "status: unknown status 'Solved'"),
        (
            "format",
            "other/2",
            "format: unknown format 'other/2' (this version reads blokus-solo-solution/1)",
        ),
        ("format", "blokus-solo-solution/2", "format: unknown format 'blokus-solo-solution/2'"),
        ("format", None, "format: unknown format None"),
        ("variant", "clasic", "variant: unknown variant 'clasic'"),
        ("goal", "place-most", "goal: unknown goal 'place-most' (goals: place-all, max-score)"),
    ],
)
def test_unknown_names_are_malformed(tamper, key, value, message):
    malformed(tamper("place-all", lambda d: d.update({key: value})), message)


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("score", "20", "score: expected int or null, got '20'"),
        ("score", 20.0, "score: expected int or null, got 20.0"),
        ("score", True, "score: expected int or null, got True"),
        ("bound", "20", "bound: expected int or null, got '20'"),
        ("rows", "5", "rows: expected int, got '5'"),
        ("cols", 5.0, "cols: expected int, got 5.0"),
        ("monomino_last", "no", "monomino_last: expected bool, got 'no'"),
    ],
)
def test_wrong_types_are_malformed(tamper, key, value, message):
    line = malformed(tamper("place-all", lambda d: d.update({key: value})), message)
    assert "FALSE CLAIM" not in line and "the rules give" not in line


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("score", "20", "colours[0].score: expected int, got '20'"),
        ("score", None, "colours[0].score: expected int, got None"),
        ("existing", "0", "colours[0].existing: expected int, got '0'"),
        ("existing", False, "colours[0].existing: expected int, got False"),
        ("all_placed", 1, "colours[0].all_placed: expected bool, got 1"),
        ("monomino_last", "true", "colours[0].monomino_last: expected bool, got 'true'"),
        ("played", "no", "colours[0].played: expected bool, got 'no'"),
    ],
)
def test_wrong_colour_types_are_malformed(tamper, key, value, message):
    malformed(tamper("place-all", lambda d: d["colours"][0].update({key: value})), message)


def test_monomino_last_applies_to_place_all_only(tamper):
    malformed(
        tamper("max-score", lambda d: d.update(monomino_last=True)),
        "monomino_last: applies to goal place-all only",
    )


def test_optimal_is_not_a_place_all_status(tamper):
    false_claim(
        tamper("place-all", lambda d: d.update(status="optimal")),
        "status is optimal but the goal is place-all (optimal applies to max-score only",
    )


def _unplace_monomino(d):
    blue = d["colours"][0]
    mono = next(p for p in blue["placements"] if p["piece"] == "1")
    blue["placements"].remove(mono)
    blue["remaining"] = ["1"]


def test_solved_place_all_must_place_every_remaining_piece(tamper):
    out = false_claim(
        tamper("place-all", _unplace_monomino), "blue: status is solved but 1 are unplaced"
    )
    assert "blue: the file says all_placed True, the rules give False" in out


def test_infeasible_place_all_with_the_goal_met(tamper):
    # every piece already on the board (existing, nothing added): the goal is met
    def change(d):
        d["status"] = "infeasible"
        d["colours"][0]["existing"] = len(d["colours"][0]["placements"])
        del d["puzzle"]  # the pieces set up at the start: no longer the puzzle it named

    false_claim(
        tamper("place-all", change), "status is infeasible but the file's own layout meets the goal"
    )


@pytest.mark.parametrize("status", ["infeasible", "unknown"])
def test_no_layout_statuses_add_no_pieces(tamper, status):
    false_claim(
        tamper("place-all", lambda d: d.update(status=status)),
        f"status is {status} but the file adds pieces",
    )


def test_max_score_is_never_infeasible(tamper):
    def change(d):
        d.update(status="infeasible", bound=None)
        d["colours"][0]["existing"] = len(d["colours"][0]["placements"])  # adds nothing
        del d["puzzle"]  # the pieces set up at the start: no longer the puzzle it named

    out = false_claim(
        tamper("max-score", change),
        "status is infeasible but the goal is max-score, which always has a layout",
    )
    assert "adds pieces" not in out


def test_optimal_must_reach_its_bound(tamper, written):
    total = written["max-score"]["score"]
    false_claim(
        tamper("max-score", lambda d: d.update(bound=total + 3)),
        f"status is optimal but total score {total} is below the claimed upper bound {total + 3}",
    )
    # a "solved" max-score layout may stay below the bound; never above it
    assert (
        run(
            "verify", tamper("max-score", lambda d: d.update(status="solved", bound=total + 3))
        ).exit_code
        == 0
    )
    false_claim(
        tamper("max-score", lambda d: d.update(status="solved", bound=total - 1)),
        f"total score {total} is above the claimed upper bound {total - 1}",
    )


# --- claims the rules cannot check, and the puzzle a file names (issue 23, item 2) -----


OPTIMAL = "status: optimal (the solver's proof that no layout scores more)"
INFEASIBLE = "status: infeasible (the solver's proof that no layout exists)"


def _proves(path, *args):
    return run("verify", path, "--prove", *args)


def test_claims_the_rules_cannot_check_are_named(tamper, written):
    for kind, claim in (("max-score", OPTIMAL), ("infeasible", INFEASIBLE)):
        result = run("verify", tamper(kind))
        assert result.exit_code == 0, result.output
        assert "  checked: placements legal, scores, status against the layout" in result.output
        assert f"  {claim}: not checked, use --prove" in result.output
    solved = run("verify", tamper("place-all"))
    assert solved.exit_code == 0 and "not checked" not in solved.output
    # a max-score layout not claimed best, with a proven upper bound: the bound is a proof
    bound = run("verify", tamper("max-score", lambda d: d.update(status="solved")))
    assert bound.exit_code == 0
    claim = f"upper bound {written['max-score']['bound']} (the solver's proof that no layout"
    assert f"  {claim} scores more): not checked, use --prove" in bound.output


def test_prove_proves_true_claims(tamper):
    for kind, line in (
        ("max-score", f"{OPTIMAL}: proved: the best score is"),
        ("infeasible", f"{INFEASIBLE}: proved: no layout (search)"),
    ):
        result = _proves(tamper(kind))
        assert result.exit_code == 0, result.output
        assert line in result.output and "not checked" not in result.output


def _drop_last_piece(d):
    """The layout less its last placement (still legal: played last, nothing hangs on it),
    with the claims about its score left out (keys left out make no claim)."""
    colour = d["colours"][0]
    colour["remaining"].append(colour["placements"].pop()["piece"])
    for entry in (d, colour):
        for key in ("score", "all_placed", "monomino_last"):
            entry.pop(key, None)
    d["bound"] = None


def test_prove_refutes_a_forged_optimal(tamper):
    path = tamper("max-score", _drop_last_piece)
    plain = run("verify", path)  # legal, every score left out: only the proof is false
    assert plain.exit_code == 0, plain.output
    assert OPTIMAL + ": not checked, use --prove" in plain.output
    proved = _proves(path)
    assert proved.exit_code == 1, proved.output
    assert f"{path}: FALSE CLAIM: {OPTIMAL}: search finds a layout " in proved.output


def test_prove_refutes_a_forged_infeasible(tamper):
    def change(d):
        d["status"] = "infeasible"
        colour = d["colours"][0]
        colour["remaining"] += [p["piece"] for p in colour["placements"]]
        colour["placements"] = []
        for key in ("score", "all_placed", "monomino_last"):
            colour.pop(key)
        d.pop("score")

    path = tamper("place-all", change)
    assert run("verify", path).exit_code == 0
    proved = _proves(path)
    assert proved.exit_code == 1, proved.output
    assert f"FALSE CLAIM: {INFEASIBLE}: search finds a layout" in proved.output


def test_prove_not_settled_in_time_is_exit_3(tmp_path):
    # 84 pieces on 20x20: no complete search settles that in no time at all
    out = tmp_path / "classic.json"
    solved = run("solve", PUZZLES / "classic-solo-84.toml", "--backend", "search",
                 "--time-limit", 0, "--out", out)  # fmt: skip
    assert solved.exit_code == 0 and "status: unknown" in solved.output, solved.output
    data = json.loads(out.read_text())
    data["status"] = "infeasible"
    for closeness in ("partial", "fit"):  # an unknown's best partial contradicts a no
        data.pop(closeness, None)
    out.write_text(json.dumps(data))
    result = _proves(out, "--time-limit", 0)
    assert result.exit_code == 3, result.output
    assert INFEASIBLE + ": not settled (search: unknown" in result.output


def test_a_file_that_is_not_a_solution_of_the_puzzle_it_names_is_refused(tamper, tmp_path):
    # another puzzle named (same size, another start square)
    other = tamper("place-all", lambda d: d.update(puzzle=str(PUZZLES / "tiny-5x5-centre.toml")))
    line = malformed(other, "not a solution of the puzzle it names", "tiny-5x5-centre.toml")
    assert "start square differs" in line
    # the file's own board edited, the puzzle named as it was
    blocked = tamper("place-all", lambda d: d.update(blocked=["e1"]))
    assert "the blocked squares differ" in malformed(blocked, "not a solution of the puzzle")

    def more_pieces(d):
        d["colours"][0]["remaining"] = ["I3", *d["colours"][0]["remaining"]]
        d["colours"][0].pop("all_placed")
        d.pop("score")
        d["colours"][0].pop("score")

    pieces = tamper("place-all", more_pieces)
    assert "blue's pieces to place differ" in malformed(pieces, "not a solution of the puzzle")
    # a puzzle named that is not here, or that is no puzzle: said, not compared
    gone = tamper("place-all", lambda d: d.update(puzzle=str(tmp_path / "gone.toml")))
    result = run("verify", gone)
    assert result.exit_code == 0 and "is not here, not compared" in result.output
    junk = tmp_path / "junk.toml"
    junk.write_text("size = = 3\n")
    unread = run("verify", tamper("place-all", lambda d: d.update(puzzle=str(junk))))
    assert unread.exit_code == 0 and "cannot be read, not compared" in unread.output
    same = run("verify", tamper("place-all"))
    assert "  puzzle: the board, colours and pieces of " in same.output


def test_a_check_file_belongs_to_a_position_of_its_game(tmp_path):
    """check --out names the game record, not the position: verify finds the position
    among the game's; its endgame no is a proof, proved again on request."""
    game = helpers.GAMES / "junior-L7-4-s102.blksgf"
    out = tmp_path / "end.json"
    assert run("check", game, "--colour", "orange", "--out", out).exit_code == 0
    result = run("verify", out)
    assert result.exit_code == 0, result.output
    assert f"  puzzle: the position after 37 placements of the game '{game}'" in result.output
    claim = "endgame: no (the solver's proof that orange cannot place all its pieces)"
    assert f"  {claim}: not checked, use --prove" in result.output
    proved = run("verify", out, "--prove")
    assert proved.exit_code == 0, proved.output
    assert f"  {claim}: proved: no layout (search)" in proved.output
    # orange's first piece taken off the board: no position of the game has that
    data = json.loads(out.read_text())
    orange = next(c for c in data["colours"] if c["name"] == "orange")
    orange["remaining"].append(orange["placements"].pop(0)["piece"])
    orange["existing"] -= 1
    out.write_text(json.dumps(data))
    malformed(out, "not a solution of the game it names", "no position is the file's")


def test_time_limit_without_prove_is_refused(tamper):
    helpers.one_line_error(
        run("verify", tamper("max-score"), "--time-limit", 5), "--time-limit", "only with --prove"
    )
