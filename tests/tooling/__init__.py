"""Test tooling that never goes into artifacts: ptxas, the emulated GPU grid."""
