"""Pairwise collision queries: one module per shape pair, plus the dispatch table."""
