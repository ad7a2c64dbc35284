"""Imports every rule module, so that the table is full (as lowering/tf/rules does)."""
from lowering.torch import (  # noqa: F401
    composite,
    control,
    fft_ops,
    indexing,
    linalg_ops,
    math_ops,
    nn_ops,
    rnn_ops,
    scatter,
    shapes,
    sorting,
)
