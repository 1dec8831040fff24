"""The one mechanism that turns result dataclasses into their `--json` documents."""

from __future__ import annotations

import json
from dataclasses import dataclass

from labeler.json_form import JsonResult, json_field, json_form


@dataclass(frozen=True)
class Inner(JsonResult):
    unit: str
    grade: int


@dataclass(frozen=True)
class Outer(JsonResult):
    json_extra = {"total": "old", "first": None}

    old: str = json_field(name="from")
    hidden: str = json_field(omit=True, default="x")
    maybe: int | None = json_field(omit_if_none=True, default=None)
    items: tuple[Inner, ...] = ()
    by_topic: dict[str, Inner] = json_field(default_factory=dict)
    seen: frozenset[str] = frozenset()
    ratio: float = json_field(encode=lambda v: round(v, 2), default=0.0)

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def first(self) -> str:
        return "yes"


def test_fields_in_order_with_renames_omissions_extras_and_nesting():
    value = Outer(
        old="v1", items=(Inner("d1", 2),), by_topic={"2": Inner("d3", 0)}, seen=frozenset({"b", "a"}), ratio=1 / 3
    )
    assert json.dumps(value.to_json()) == json.dumps(
        {
            "first": "yes",
            "from": "v1",
            "total": 1,
            "items": [{"unit": "d1", "grade": 2}],
            "by_topic": {"2": {"unit": "d3", "grade": 0}},
            "seen": ["a", "b"],
            "ratio": 0.33,
        }
    )


def test_a_none_is_kept_unless_the_field_says_to_leave_it_out():
    assert "maybe" not in Outer(old="v").to_json()
    assert Outer(old="v", maybe=0).to_json()["maybe"] == 0
    assert json_form([Inner("d", 1), None, (1, 2)]) == [{"unit": "d", "grade": 1}, None, [1, 2]]


@dataclass(frozen=True)
class Decision(JsonResult):
    rule: str
    stop: bool


@dataclass(frozen=True)
class Flattened(JsonResult):
    json_extra = {"note": "decision"}

    decision: Decision | None = json_field(flatten=True, omit_if_none=True)
    rule: str = json_field(encode=str.upper)
    count: int | None = json_field(preceded_by={"count_over": "all"}, omit_if_none=True, default=None)

    @property
    def note(self) -> str:
        return "after the decision"


def test_a_flattened_result_joins_the_document_and_a_later_key_of_the_same_name_keeps_its_place():
    shown = Flattened(Decision("name", True), "window:3").to_json()
    assert json.dumps(shown) == json.dumps({"rule": "WINDOW:3", "stop": True, "note": "after the decision"})


def test_fixed_keys_precede_their_field_and_are_left_out_with_it():
    assert list(Flattened(Decision("n", False), "r", count=4).to_json().items())[-2:] == [
        ("count_over", "all"),
        ("count", 4),
    ]
    assert "count_over" not in Flattened(Decision("n", False), "r").to_json()


def test_a_computed_key_is_left_out_with_the_field_it_follows():
    assert Flattened(None, "r").to_json() == {"rule": "R"}
