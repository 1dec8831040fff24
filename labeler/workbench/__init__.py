"""Use cases in domain words, the one place both front ends call.

Each module holds the use cases of one feature (`labeler.workbench.corpus`, `.pools`, `.snapshots`,
...): a function that takes an open `Store` (or a path, for `init`), does one thing a user asked for
and returns a typed result. The CLI formats it; the TUI shows it. Nothing here parses arguments or
draws anything. Front ends import each use case from its module, and the `Store` handle from
`labeler.workbench.setup` (with `open_workbench`): they open it, pass it to the use cases and close it,
and call none of its methods (the import-linter contracts in pyproject.toml forbid them `labeler.store`).

This package imports nothing itself, so a command loads only the use cases it calls.
"""
