"""labeler: a relevance-labeling and pooling workbench for IR and RAG evaluation."""

__version__ = "0.1.0"
