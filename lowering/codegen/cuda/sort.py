"""The cuda target's sort and top_k kernels (being written)."""
