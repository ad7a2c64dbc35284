"""A module cut into partitions that LLVM optimises and compiles on separate cores.

LLVM optimises and generates code for one module on one core, and that is most of a
compile (the GPT benchmark: 1 s of its 1.6 s). The generated module is therefore printed
as several modules, each defining a share of the functions and declaring the rest:

- A unit is what must stay together for the optimiser to see it whole: a kernel with its
  thread-pool task and its matmul epilogues (`K`, `K.task`, `K.epilogue7`), or one family of
  the module's own helpers (`aot.gemm.f32.run`, `.task`, `.micro_kernel`). The host code
  (entries, shape queries, metadata: every function that is not internal) is one unit and
  always in the first partition, which the caller links the manifest into.
- With `host_alone` (the CPU build: its jobs + 1 partitions), the host unit is partition 0 by
  itself: its entries are optnone, and LLVM's quick code generator (a target machine at -O0)
  makes their object (machine.compile_objects) while the kernels' partitions compile. O3's
  code generator (its register allocator on one function of thousands of calls) took most
  of a big program's LLVM time there: the 4k-op program of benchmarks/compile_time.py,
  dynamic, 0.61 s against 0.10 s at -O0.
- Units go to the partition with the least work so far, biggest first. Work is counted in
  LLVM instructions, those of an internal function with loops (more than one block) as
  KERNEL_COST host ones: loops are what LLVM vectorises, unrolls and schedules (measured on
  the benchmark models: 200-600 us per instruction of such a function, the packed matmul's
  included, 3700 for a reduction LLVM unrolls fully; 45 us per instruction of host code, and
  of a kernel that only calls the matmul).
- A function called across partitions cannot stay `internal`: such a function is printed
  `hidden` (defined in its partition, declared in the others). `promoted` lists them, so
  that after the partitions' objects are linked into one the caller makes them local again
  (`objcopy --localize-symbols`): the artifact's symbols are the single module's.
- Globals are all private constants (names, shapes, small tables): each partition carries
  them, and LLVM drops those it does not use.
"""
from __future__ import annotations

from llvmlite import ir

INTERNAL = ("internal", "private")
KERNEL_COST = 10
# Below this much work (about 0.35 s of LLVM here) one module is quicker: a partition costs a
# fork, and joining them an `ld -r` and an objcopy (about 40 ms together).
PARALLEL_MIN_WORK = 8000
# A host of this many instructions is worth an object of its own (about 0.1 s of O3's code
# generation, against the 40 ms of the join)
HOST_ALONE_MIN_WORK = 1500


def work(fn: ir.Function) -> int:
    n = sum(len(block.instructions) for block in fn.blocks)
    return n * KERNEL_COST if fn.linkage in INTERNAL and len(fn.blocks) > 1 else n


def _unit(name: str, defined: set) -> str:
    """The unit of an internal function: the longest other defined function its name
    extends (`K.task` -> `K`), else for the module's helpers `aot.FAMILY.TYPE`."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in defined:
            return prefix
    return ".".join(parts[:3]) if parts[0] == "aot" else name


def split(mod: ir.Module, parts: int, host_alone: bool = False) -> tuple[list[str], list[str]]:
    """(IR text of each partition, names of the functions made hidden). Fewer texts than
    `parts` when there are fewer units; one text (the module as it is) when there is too
    little work to share. With `host_alone`, the first of several texts holds the host unit
    only (the kernels share the other `parts` - 1)."""
    functions = [g for g in mod.globals.values() if isinstance(g, ir.Function) and g.blocks]
    internal = [f for f in functions if f.linkage in INTERNAL]
    names = {f.name for f in internal}
    units: dict[str, list] = {}
    for f in internal:
        units.setdefault(_unit(f.name, names), []).append(f)
    host = [f for f in functions if f.linkage not in INTERNAL]
    load = [sum(map(work, host))] + [0] * (parts - 1)
    owner = {f.name: 0 for f in host}
    for unit in sorted(units.values(), key=lambda u: -sum(map(work, u))):
        i = min(range(1 if host_alone else 0, parts), key=load.__getitem__)
        load[i] += sum(map(work, unit))
        owner.update((f.name, i) for f in unit)
    used = sorted(set(owner.values()))
    worth = sum(load) >= PARALLEL_MIN_WORK or (host_alone and load[0] >= HOST_ALONE_MIN_WORK)
    if len(used) < 2 or not worth:
        return [str(mod)], []
    shared = _shared(mod, functions, internal, owner)
    return _print(mod, [{n for n, i in owner.items() if i == p} for p in used], shared), sorted(shared)


def _shared(mod: ir.Module, functions: list, internal: list, owner: dict) -> set:
    """The internal functions that code in another partition refers to (a call, a task's
    address) or a global does (each partition has every global). The others stay internal,
    so that LLVM drops those it inlined everywhere: a matmul's micro-kernels are otherwise
    compiled twice, in the task and alone."""
    names = {f.name for f in internal}
    shared = set()
    for f in functions:  # a callee or an address is an instruction's operand
        for block in f.blocks:
            for ins in block.instructions:
                for o in ins.operands:
                    if isinstance(o, ir.Function) and o.name in names and owner[o.name] != owner[f.name]:
                        shared.add(o.name)
    pointers = "".join(str(g) for g in mod.globals.values()
                       if isinstance(g, ir.GlobalVariable) and "ptr" in str(g.value_type))
    return shared | {f.name for f in internal if f.get_reference() in pointers}


def _print(mod: ir.Module, parts: list, shared: set) -> list:
    """Each partition's text: the module with the functions not in its set of `parts`
    printed as declarations, and the internal functions in `shared` hidden instead. Every
    global, definition and declaration is printed once and the texts joined from the
    pieces (printing the whole module per partition printed its constants and the host's
    thousands of lines three times: 0.1-0.4 s of a model's compile)."""
    header = [f'; ModuleID = "{mod.name}"', f'target triple = "{mod.triple}"',
              f'target datalayout = "{mod.data_layout}"', '']
    header += [t.get_declaration() for t in mod.get_identified_types().values()]
    pieces = []  # per global: (name, definition, declaration); name None: the same text in all
    for g in mod.globals.values():
        if not (isinstance(g, ir.Function) and g.blocks):
            pieces.append((None, str(g), None))
            continue
        blocks, linkage = g.blocks, g.linkage
        try:
            if linkage in INTERNAL and g.name in shared:
                g.linkage = "hidden"
            definition = str(g)
            g.blocks = []
            if g.linkage not in ("", "hidden"):  # weak, ...: a declaration has none
                g.linkage = ""
            pieces.append((g.name, definition, str(g)))
        finally:
            g.blocks, g.linkage = blocks, linkage
    metadata = [f"!{k} = !{{ {', '.join(o.get_reference() for o in v.operands)} }}"
                for k, v in mod.namedmetadata.items()] + [str(md) for md in mod.metadata]
    return ["\n".join(header + [text if name is None or name in defines else declaration
                                 for name, text, declaration in pieces] + metadata)
            for defines in parts]
