"""Readers and writers for the files users bring: runs, topics, corpora, mappings, qrels, scales.

Pure functions over paths and text; no SQL, no UI. Each reader names the file,
line and reason in the `FormatError` it raises.
"""
