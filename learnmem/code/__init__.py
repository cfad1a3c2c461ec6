"""Code intelligence: tree-sitter code units, the call graph, incremental indexing, code search."""
