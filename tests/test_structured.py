"""The shape of a JSON record read back (solver.formats.structured.shape_problem): every
field a TypedDict declares has its JSON type, or the record is refused naming the field."""

from __future__ import annotations

from typing import NotRequired, TypedDict

import pytest

from solver.formats.structured import shape_problem
from solver.trust.rows import read_row, row_problem


class Inner(TypedDict):
    x: int


class Shape(TypedDict):
    name: str
    count: int
    seconds: float
    flag: bool
    maybe: str | None
    names: list[str]
    table: dict[str, list[int]]
    key: tuple[str, int | None]
    inner: NotRequired[Inner]


GOOD = {
    "name": "a", "count": 3, "seconds": 2, "flag": False, "maybe": None, "names": ["b"],
    "table": {"c": [1, 2]}, "key": ["d", None], "inner": {"x": "not checked here"},
    "other": object(),
}  # fmt: skip


def test_a_record_of_the_declared_types_passes_and_missing_fields_are_left_alone():
    assert shape_problem(GOOD, Shape) is None
    assert shape_problem({}, Shape) is None  # a reader checks the fields it needs are there


@pytest.mark.parametrize(
    "field, value, why",
    [
        ("name", 1, "name is not text"),
        ("count", True, "count is not a whole number"),  # JSON true is no number
        ("count", 2.5, "count is not a whole number"),
        ("seconds", "1", "seconds is not a number"),
        ("flag", 0, "flag is not true or false"),
        ("maybe", 5, "maybe is not text"),
        ("names", "b", "names is not a list"),
        ("names", [1], "names is not a list"),
        ("table", {"c": [1, "2"]}, "table is not an object"),
        ("key", ["d"], "key is not a list"),  # a tuple: a list of its length
        ("key", ["d", "e"], "key is not a list"),
        ("inner", [], "inner is not an object"),
    ],
)
def test_a_field_of_another_type_is_named(field, value, why):
    assert shape_problem({**GOOD, field: value}, Shape) == why


def test_results_rows_are_read_through_their_shape():
    row = {"item": "a.toml", "kind": "puzzle", "seconds": 0.5, "colours": [{"colour": "blue"}]}
    assert read_row(row) == row
    assert read_row([row]) == "not an object"
    assert row_problem({**row, "nodes": "many"}) == "nodes is not a whole number"
    assert row_problem({**row, "colours": [{"colour": "blue", "score": "3"}]}) == (
        "colours: score is not a whole number"
    )
    assert row_problem({**row, "answer": "solved"}) == "a solved puzzle row names no solution file"
