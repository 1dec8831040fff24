"""Use cases return typed values, and their JSON comes from one mechanism (`labeler.json_form`).

Two lines held here, read from the source (no import, so a module that is never loaded is checked too):
no function in labeler/workbench says it returns `dict[str, Any]` (nor a list or a tuple of them)
unless it hands back a document that is free-form on purpose (named below with the reason), and the
package keeps fewer than `MAX_TO_JSON` hand-written `to_json` methods.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "labeler"
WORKBENCH = PACKAGE / "workbench"

# a mapping of text keys to anything, however it is spelt: dict[str, Any], Dict[str, typing.Any], ...
UNTYPED = re.compile(r"\b(?:typing\.)?[Dd]ict\[str, (?:typing\.)?Any\]")

# "path under labeler/:qualified name" -> why the function returns a free-form document
FREE_FORM = {
    "workbench/alignment.py:reopened_topics": "a snapshot manifest's reopened rows, as the manifest stores them",
    "workbench/eval_results.py:RunTopics.left_out_reopened": "the same stored reopened rows, a subset of them",
    "workbench/retrieve.py:_policies": "the policies a run stores: keys differ by retriever kind, params are its own",
}

MAX_TO_JSON = 10


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method in `tree` with its qualified name (`Class.method`, `outer.inner`)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield prefix + child.name, child
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    return walk(tree, "")


def untyped_returns(source: str, where: str) -> list[str]:
    """`where:name -> annotation` for each function of `source` whose return annotation holds `dict[str, Any]`."""
    found = []
    for name, function in _functions(ast.parse(source)):
        annotation = ast.unparse(function.returns) if function.returns is not None else ""
        if UNTYPED.search(annotation):
            found.append(f"{where}:{name} -> {annotation}")
    return found


def _workbench_untyped() -> list[str]:
    return [
        hit
        for path in sorted(WORKBENCH.rglob("*.py"))
        for hit in untyped_returns(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    ]


def to_json_methods(source: str, where: str) -> list[str]:
    """`where:Class.to_json` (line) for each function named `to_json` in `source`."""
    return [
        f"{where}:{name} (line {function.lineno})"
        for name, function in _functions(ast.parse(source))
        if function.name == "to_json"
    ]


def test_no_workbench_function_returns_an_untyped_mapping():
    found = [hit for hit in _workbench_untyped() if hit.split(" -> ")[0] not in FREE_FORM]
    assert not found, (
        "return a frozen dataclass (with labeler.json_form.JsonResult when it reaches --json), or a precise "
        "type; a document free-form on purpose goes in FREE_FORM with its reason:\n" + "\n".join(found)
    )


def test_every_free_form_entry_is_still_needed():
    """An entry whose function was typed (or renamed) leaves the list, so the list cannot excuse a new one."""
    returned = {hit.split(" -> ")[0] for hit in _workbench_untyped()}
    stale = sorted(set(FREE_FORM) - returned)
    assert not stale, "no longer returns dict[str, Any]; drop from FREE_FORM: " + ", ".join(stale)


def test_fewer_than_ten_hand_written_to_json_methods():
    methods = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        for hit in to_json_methods(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    ]
    assert len(methods) < MAX_TO_JSON, (
        f"{len(methods)} `to_json` methods; give the result class labeler.json_form.JsonResult "
        "(json_field rules, json_extra) instead:\n" + "\n".join(methods)
    )


def test_the_scan_sees_every_spelling_of_an_untyped_mapping():
    source = '''
from typing import Any, Dict
import typing

def plain() -> dict[str, Any]: ...
def listed() -> list[dict[str, Any]]: ...
def paired() -> tuple[int, dict[str, Any]]: ...
def old() -> Dict[str, typing.Any]: ...
async def waited() -> "dict[str, Any]": ...
def typed() -> dict[str, int]: ...
def keyed_by_any() -> dict[Any, str]: ...
class Result:
    @property
    def shape(self) -> dict[str, Any]: ...
    def to_json(self) -> dict[str, Any]: ...
'''
    assert [hit.split(" -> ")[0] for hit in untyped_returns(source, "m.py")] == [
        "m.py:plain",
        "m.py:listed",
        "m.py:paired",
        "m.py:old",
        "m.py:waited",
        "m.py:Result.shape",
        "m.py:Result.to_json",
    ]
    assert to_json_methods(source, "m.py") == ["m.py:Result.to_json (line 15)"]
