"""The page's typed questions and answers (solver/web/kinds.py): each kind of answer turns
into the JSON the page has always received, key for key and in the same order, and the
server builds them without loading a solver."""

from __future__ import annotations

import json
import subprocess
import sys

from solver.companion.page import Known
from solver.web.kinds import (
    KINDS,
    ColourAnswer,
    ColourReview,
    ErrorAnswer,
    HintAnswer,
    JointAnswer,
    LossMark,
    ReviewAnswer,
    SolutionAnswer,
    answer_json,
)

ROWS = (("blue", "I2", (0, 1)), ("yellow", "V3", (18, 19, 24)))
PAGE_ROWS = [["blue", "I2", [0, 1]], ["yellow", "V3", [18, 19, 24]]]


def test_the_kinds_are_the_pages_five_in_its_order():
    assert KINDS == ("colour", "joint", "hint", "solution", "review")


def test_layout_answers_send_rows_as_lists_and_whether_the_page_draws_them():
    colour = answer_json(ColourAnswer("yes", 0.5, "blue: yes  [search, 0.50 s]", ROWS))
    assert json.dumps(colour) == json.dumps(
        {
            "answer": "yes",
            "seconds": 0.5,
            "text": "blue: yes  [search, 0.50 s]",
            "layout": PAGE_ROWS,
            "shows": False,
        }
    )
    hint = answer_json(HintAnswer("yes", 0.25, "try blue I2 on a1,b1", ROWS[:1]))
    assert list(hint) == ["answer", "seconds", "text", "layout", "shows"]
    assert hint["layout"] == PAGE_ROWS[:1] and hint["shows"] is True
    none = answer_json(SolutionAnswer("no", 1.0, "no solution from here (proven)"))
    assert none["layout"] == [] and none["shows"] is True and none["answer"] == "no"


def test_a_joint_answer_adds_alone_or_how_and_never_sends_what_is_known():
    known = ("key", Known("yes", ROWS))
    scratch = answer_json(
        JointAnswer("unknown", 2.0, "t", alone={"blue": "yes", "yellow": "unknown"}, known=None)
    )
    assert list(scratch) == ["answer", "seconds", "text", "layout", "alone", "shows"]
    assert scratch["alone"] == {"blue": "yes", "yellow": "unknown"}
    companion = answer_json(JointAnswer("yes", 0.1, "t", ROWS, how="pool", known=known))
    assert list(companion) == ["answer", "how", "seconds", "text", "layout", "shows"]
    assert companion["how"] == "pool" and companion["layout"] == PAGE_ROWS
    placed = answer_json(JointAnswer("yes", 0.0, "every piece is placed"))
    assert placed == {
        "answer": "yes",
        "seconds": 0.0,
        "text": "every piece is placed",
        "layout": [],
        "shows": False,
    }


def test_a_review_answer_is_the_charts_json():
    lost = LossMark(first=3, last_possible=1, exact=False, regained=None)
    colours = {
        "purple": ColourReview(("yes", "yes", "no", "no"), bonus=lost),
        "orange": ColourReview(("yes", "yes", "yes", "done")),
    }
    out = answer_json(ReviewAnswer(4.5, "purple lost the +5", colours, 3))
    assert json.dumps(out) == json.dumps(
        {
            "answer": "done",
            "kind": "review",
            "seconds": 4.5,
            "text": "purple lost the +5",
            "review": {
                "colours": {
                    "purple": {
                        "answers": ["yes", "yes", "no", "no"],
                        "all": None,
                        "bonus": {"first": 3, "last_possible": 1, "exact": False, "regained": None},
                    },
                    "orange": {
                        "answers": ["yes", "yes", "yes", "done"],
                        "all": None,
                        "bonus": None,
                    },
                },
                "placements": 3,
            },
            "shows": False,
        }
    )


def test_an_error_is_its_line_and_nothing_drawn():
    assert answer_json(ErrorAnswer("no pieces left", 0.01)) == {
        "answer": "error",
        "seconds": 0.01,
        "text": "no pieces left",
    }
    assert answer_json(ErrorAnswer("internal error: x"))["seconds"] is None


def test_the_server_builds_questions_without_loading_the_api_or_the_questions():
    """The server (the whole application: its handlers build the questions, its jobs read
    the answers) loads neither solver.api, the worker's solver/web/questions.py, OR-tools
    nor Pillow (docs/benchmarks.md); its workers do."""
    code = (
        "import sys\n"
        "import solver.web.app, solver.web.kinds\n"
        "print(*[m for m in ('solver.api', 'solver.web.questions', 'ortools', 'PIL')"
        " if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
