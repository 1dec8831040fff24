"""One way a typed result becomes its `--json` document: the dataclass's fields, in order.

Every use case returns a frozen dataclass; its JSON form is built here from `dataclasses.fields`,
so a result type says its shape once (the fields and their order) instead of repeating it in a
hand-written method. Where the public shape differs from the attribute, the field says so in its
metadata (`json_field`): a different key, a key left out, a key left out when its value is `None`, an
encoder for a value JSON has no type for, fixed keys written just before it (`preceded_by`), or a nested
result whose keys join this document in its place (`flatten`). A computed key (a property) is added by
naming it in the class's `json_extra`, with the field it follows; it is left out when that field is.

Nested dataclasses, lists, tuples, sets (sorted) and dicts are converted recursively, so a result
that holds other results needs nothing more. `JsonResult` gives a class the `to_json()` method the
front ends call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

JSON_KEY = "json"


@dataclasses.dataclass(frozen=True)
class JsonRule:
    """How one field appears in JSON: under `name` (default: the attribute's), or not at all (see `json_field`)."""

    name: str | None = None
    omit: bool = False
    omit_if_none: bool = False
    encode: Callable[[Any], Any] | None = None
    preceded_by: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    flatten: bool = False

    def left_out(self, item: Any) -> bool:
        return self.omit or (self.omit_if_none and item is None)


def json_field(
    *,
    name: str | None = None,
    omit: bool = False,
    omit_if_none: bool = False,
    encode: Callable[[Any], Any] | None = None,
    preceded_by: Mapping[str, Any] | None = None,
    flatten: bool = False,
    **field_args: Any,
) -> Any:
    """A dataclass field with its JSON rule: `dataclasses.field(...)` plus the rule in the metadata.

    `preceded_by`: fixed keys and values written just before this field's key (and left out with it),
    such as what a mean is over. `flatten`: the field holds a result whose keys are written here, in
    this document, rather than under one key; a key already written keeps its place and takes the
    nested value, as in a dict update.
    """
    rule = JsonRule(
        name=name, omit=omit, omit_if_none=omit_if_none, encode=encode, preceded_by=preceded_by or {}, flatten=flatten
    )
    return dataclasses.field(metadata={JSON_KEY: rule}, **field_args)


def json_form(value: Any) -> Any:
    """`value` as JSON data: dataclasses by their fields and rules, containers element by element."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass_form(value)
    if isinstance(value, Mapping):
        return {key: json_form(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_form(item) for item in value]
    if isinstance(value, set | frozenset):
        return [json_form(item) for item in sorted(value)]
    return value


def _dataclass_form(value: Any) -> dict[str, Any]:
    extra: Mapping[str, str | None] = getattr(type(value), "json_extra", {})
    out: dict[str, Any] = {}
    _add_extra(out, value, extra, after=None)
    for field in dataclasses.fields(value):
        rule: JsonRule = field.metadata.get(JSON_KEY, _PLAIN)
        item = getattr(value, field.name)
        if rule.left_out(item):
            continue
        out.update(rule.preceded_by)
        shown = rule.encode(item) if rule.encode else json_form(item)
        if rule.flatten:
            out.update(shown)
        else:
            out[rule.name or field.name] = shown
        _add_extra(out, value, extra, after=field.name)
    return out


def _add_extra(out: dict[str, Any], value: Any, extra: Mapping[str, str | None], after: str | None) -> None:
    for key, follows in extra.items():
        if follows == after:
            out[key] = json_form(getattr(value, key))


_PLAIN = JsonRule()


class JsonResult:
    """A mixin for result dataclasses: `to_json()` is `json_form(self)`.

    `json_extra` maps a property's name to the field it follows in the document (`None`: first).
    """

    json_extra: ClassVar[Mapping[str, str | None]] = {}

    def to_json(self) -> Any:
        """The documented `--json` shape of this result."""
        return json_form(self)
