"""Host code every target shares: the entry points' C ABI and metadata (entry_abi), and the
host ops with their failure exit (buffers). A target's folder adds how its host code calls a
kernel; codegen/cpu and codegen/cuda import this, never each other."""
