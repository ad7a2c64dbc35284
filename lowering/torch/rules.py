"""Imports every rule module, so that the table is full (as lowering/tf/rules does)."""
from lowering.torch import composite, control, math_ops, nn_ops, shapes  # noqa: F401
