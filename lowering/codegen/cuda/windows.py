"""The cuda target's kernels for windows, convolution and scatter (being written)."""
