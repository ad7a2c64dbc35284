"""Ops the compiler recognises but does not compile yet: each is a compile-time error that
names the op, its location and what is missing (and a line of the op table, docs/ops.md)."""
from lowering.ops import registry

registry.not_yet("a tuple that is not taken apart in the same function", "tuple", "get_tuple_element")
registry.not_yet("stateful random numbers (rng_bit_generator is supported)", "rng")
registry.not_yet("collectives", "all_reduce", "all_gather", "all_to_all")
registry.not_yet("custom calls", "custom_call")
