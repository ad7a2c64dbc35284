"""Imports every rule module, so that the table is full (as lowering/ops/__init__ does for
the HLO op families)."""
from lowering.tf import control, linalg, math_ops, mixed, shapes, spectral  # noqa: F401
