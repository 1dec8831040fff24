"""Creating a workbench (or upgrading one) and setting its grade scale: `labeler init`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labeler import installed_version
from labeler.errors import ConflictError
from labeler.json_form import JsonResult, json_field
from labeler.scales import GradeScale, load_scale
from labeler.store import Store
from labeler.store.schema import SCHEMA_VERSION
from labeler.workbench.setup import now


@dataclass(frozen=True)
class WorkbenchInit(JsonResult):
    """`init_workbench`'s result: the workbench file, whether this made it, its schema version and grade scale."""

    path: str
    created: bool
    schema_version: int
    scale: GradeScale = json_field(encode=GradeScale.to_dict)


def init_workbench(path: str | Path, scale: str | None = None) -> WorkbenchInit:
    """Create the workbench (or upgrade an existing one) and set its grade scale."""
    path = Path(path)
    # Read the scale before opening the workbench: a bad scale file must leave it untouched (not created).
    requested = load_scale(scale) if scale is not None else None
    existed = path.exists() and path.stat().st_size > 0
    with Store(path, create=True) as store:
        current = store.get_meta("scale")
        if scale is not None or current is None:
            chosen = requested or load_scale("default")
            if current is not None and store.scale() != chosen and store.has_labels():
                raise ConflictError(
                    f"the workbench already has judgments on scale {store.scale().name!r}; "
                    "a new scale needs a new workbench"
                )
            with store.transaction():
                store.set_scale(chosen)
                if store.get_meta("created") is None:
                    store.set_meta("created", now())
                store.set_meta("labeler_version", installed_version())
        return WorkbenchInit(path=str(path), created=not existed, schema_version=SCHEMA_VERSION, scale=store.scale())
