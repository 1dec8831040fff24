"""The helpers the commands share print exactly what each command printed on its own."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from labeler.cli.common.context import comma_list
from labeler.cli.common.printing import listing, print_result
from labeler.errors import BadArgumentError


def test_comma_list_reads_names_and_gives_none_for_nothing() -> None:
    assert comma_list(" a, b,c ", "runs", "run name") == ["a", "b", "c"]
    assert comma_list(None, "runs", "run name") is None
    assert comma_list("", "runs", "run name") is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [("a,b,a", "run name 'a' is given twice"), ("a,,b", "run name '' is empty"), ("a,", "is empty")],
)
def test_comma_list_refuses_a_repeat_or_an_empty_name(text: str, reason: str) -> None:
    with pytest.raises(BadArgumentError) as refused:
        comma_list(text, "runs", "run name")
    assert refused.value.argument == "runs" and reason in refused.value.reason


@dataclass(frozen=True)
class Row:
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name}


def test_listing_prints_json_without_building_rows(capsys: pytest.CaptureFixture[str]) -> None:
    def no_row(item: Row) -> list[Any]:
        raise AssertionError("rows are for the table only")

    listing([Row("a"), Row("b")], True, ["name"], no_row, to_json=Row.to_json)
    assert json.loads(capsys.readouterr().out) == [{"name": "a"}, {"name": "b"}]


def test_listing_prints_a_table_row_per_item(capsys: pytest.CaptureFixture[str]) -> None:
    listing([{"name": "first"}, {"name": "second"}], False, ["name"], lambda r: [r["name"]])
    out = capsys.readouterr().out
    assert "name" in out and out.index("first") < out.index("second")


def test_print_result_is_json_or_words(capsys: pytest.CaptureFixture[str]) -> None:
    said: list[Row] = []
    print_result(Row("x"), True, said.append)
    assert json.loads(capsys.readouterr().out) == {"name": "x"} and said == []
    print_result(Row("y"), False, said.append)
    assert capsys.readouterr().out == "" and said == [Row("y")]
