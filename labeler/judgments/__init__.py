"""Judgments and labels: what the append-only log of judgment events means.

- `log`: the events (kinds, sources, the logical clock, log order) and the current label of each pair
  derived from them (conflicts, staleness, review marks), as pure functions over plain values.
- `model_labels`: a model's label of one pair, as the log holds it, kept apart from the people's.

Recording a judgment is `labeler.workbench.record_judgments`; reading the labels of a workbench is
`labeler.workbench.read_labels`.
"""
