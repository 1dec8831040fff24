"""RAG answers judged by nuggets and citation support: the domain, plain Python.

A generated answer is a list of sentences, each citing units of the workbench
(documents or chunks). Nuggets are short facts a good answer to a topic
contains, each `vital` or `okay`; people (or a model) judge, for every answer,
which nuggets it supports, and whether each sentence's first cited unit
supports the sentence. Both kinds of judgment live in the one judgment log, in
unit spaces of their own (`labeler.answers.spaces`), so the log's chain,
merges, exports, leases, overlap and blind second judgments apply to them as to
relevance labels.
"""
