"""Judges: programs that give a pair a grade (and a probability per grade) for a person to check.

A judge's labels are a model's (`source` `model` in the log): kept out of the human labels,
read apart (`labeler.workbench.read_labels`).
"""
