"""The packed matmul and the direct and Winograd convolutions as objects built once and cached.

Their code (gemm.py, conv_direct.py, conv_winograd.py: tasks, micro-kernels, entry; the
Winograd object has the direct convolution it falls back to) depends on the element type,
the target and its blocking, never on the model, yet LLVM took ~0.4 s over it in every
module that has a matmul: a third of the GPT benchmark's compile. For binary artifacts the
model's module only declares the entry `PREFIX.run` (hidden), and the helper is an object of its own,
compiled on first use into the cache, keyed (and named) by the compiler's version, the
sources their code comes from (cache.source_digest of this module), the target machine and
the blocking, so two compilers or two blockings never share a symbol, and an edit elsewhere
in the compiler does not rebuild them.
`--emit llvm/asm` keeps them in the module, where a reader wants them.
"""
from __future__ import annotations

import hashlib
import os

from llvmlite import ir

from lowering.cache import cache_dir, source_digest, touch
from lowering.codegen.cpu.attention import attention_function
from lowering.codegen.cpu.conv_direct import conv_function
from lowering.codegen.cpu.conv_winograd import winograd_function
from lowering.codegen.cpu.gemm import gemm_function

VOID, PTR, I64 = ir.VoidType(), ir.PointerType(), ir.IntType(64)
MAKERS = {"gemm": gemm_function, "conv": conv_function, "winograd": winograd_function,
          "attention": attention_function}
# the entry's name after the prefix
ENTRY = {"gemm": "run", "conv": "conv_run", "winograd": "winograd_run", "attention": "run"}
# The convolutions' objects call the matmul's (patch windows multiplied as a matrix) rather
# than carry a copy of it (+2.5 s of LLVM each).
CALLS_GEMM = ("conv", "winograd")
CALLED_BY = {"aot.gemm": lambda op: ("gemm",),  # loop-stage op -> the helper its emitter calls
             "aot.attention": lambda op: ("attention",),
             "aot.conv": lambda op: ("winograd" if op.attrs.get("winograd") else "conv", "gemm"),
             # HLO ops -> the helper they are likely to call (known for sure at the loop stage;
             # a convolution's kernel, direct, Winograd or a matmul, is chosen there)
             "dot": lambda op: ("gemm",), "dot_general": lambda op: ("gemm",)}


class HelperObjects:
    """The helpers one module calls, each to be linked as its cached object. `fingerprint`
    is the compiler's version (aot.version), and a change to the helpers' own sources gives
    new objects too."""

    def __init__(self, target, fingerprint: str):
        self.target, self.fingerprint = target, fingerprint
        self.used = {}  # prefix -> (kind, elem)
        self.expected = {}  # prefix -> (kind, elem): called by the loop stage (expect)
        self.started = set()  # prefixes a child is compiling
        self.children = []  # pids compiling missing helpers (start)

    def prefix(self, kind: str, elem: str) -> str:
        """A helper's symbol prefix: kind, element type and a hash of what its code depends on."""
        t = self.target
        key = "|".join([self.fingerprint, source_digest(__name__), kind, elem, t.triple, t.cpu,
                        t.features, repr(t.blocking(elem))])
        return f"aot.{kind}.{elem}.{hashlib.sha256(key.encode()).hexdigest()[:16]}"

    def declare(self, mod: ir.Module, kind: str, elem: str) -> ir.Function:
        """`void PREFIX.ENTRY(i64 *slots)` in `mod`, defined in the helper's object."""
        prefix = self.prefix(kind, elem)
        self.used[prefix] = (kind, elem)
        if kind in CALLS_GEMM:
            self.used[self.prefix("gemm", elem)] = ("gemm", elem)
        name = f"{prefix}.{ENTRY[kind]}"
        if name in mod.globals:
            return mod.globals[name]
        f = ir.Function(mod, ir.FunctionType(VOID, [PTR]), name=name)
        f.linkage = "hidden"  # `declare hidden`: a shared library does not export it
        return f

    def expect(self, module) -> None:
        """Note the helpers `module` will call: from an HLO module, the matmul its dots likely
        need; from the loop stage, those its aot.gemm and aot.conv call
        (their third operand is the output). `start` then builds the missing ones while the
        model is still being lowered: on a fresh cache their LLVM runs beside the model's
        Python instead of after it."""
        for top in module.ops:
            for op in top.walk():
                kinds = CALLED_BY.get(op.name if op.dialect == "aot" else op.short_name)
                if kinds is None or op.dialect not in ("aot", "mhlo", "stablehlo"):
                    continue
                out = op.operands[2] if op.dialect == "aot" else op.results[0]
                elem = getattr(out.type, "elem", None)
                if elem is None or self.target.blocking(elem) is None:
                    continue
                for kind in kinds(op):
                    self.expected[self.prefix(kind, elem)] = (kind, elem)

    def start(self, tm) -> None:
        """Compile the used helpers missing from the cache in forked children, while the
        model compiles (where forking is safe: machine.parallel_jobs)."""
        from lowering.codegen.llvm.machine import parallel_jobs
        if parallel_jobs() == 1:
            return
        for prefix, (kind, elem) in sorted({**self.expected, **self.used}.items()):
            if prefix in self.started or _whole(_path(prefix)):
                continue
            self.started.add(prefix)
            pid = os.fork()
            if pid == 0:  # the child: the object into the cache, then out without Python's exit
                status = 0
                try:
                    _cached_object(prefix, kind, elem, self.target, tm, self.prefix("gemm", elem))
                except BaseException:  # noqa: BLE001  (the parent compiles it again, and says why)
                    status = 1
                os._exit(status)
            self.children.append(pid)

    def objects(self, tm) -> list:
        """The paths of the used helpers' objects in the cache, compiled there if missing."""
        for pid in self.children:
            os.waitpid(pid, 0)
        self.children = []
        return [_cached_object(prefix, kind, elem, self.target, tm, self.prefix("gemm", elem))
                for prefix, (kind, elem) in sorted(self.used.items())]


def helper_text(kind: str, elem: str, prefix: str, target, tm, gemm_prefix: str = "") -> str:
    """The helper's module: its `run` hidden and external, the rest internal; a convolution's
    declares the matmul's entry (`gemm_prefix`.run) in the matmul's object."""
    from lowering.codegen.llvm.types import llvm_type
    mod = ir.Module(name=prefix)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    parallel_for = ir.Function(mod, ir.FunctionType(VOID, [I64, PTR, PTR]), name="aot_parallel_for")
    extra = {}
    if kind in CALLS_GEMM:
        gemm = ir.Function(mod, ir.FunctionType(VOID, [PTR]), name=f"{gemm_prefix}.{ENTRY['gemm']}")
        gemm.linkage = "hidden"
        extra["gemm"] = gemm
    run = MAKERS[kind](mod, elem, llvm_type(elem), parallel_for, target.blocking(elem),
                       name=prefix, **extra)
    run.linkage = "hidden"
    return str(mod)


def _path(prefix: str) -> str:
    return os.path.join(cache_dir(), "helpers", prefix + ".o")


def _whole(path: str) -> bool:
    """A whole object file there, not an emptied or cut one (a damaged cache)."""
    from abi.elf import ET_REL, elf_problem
    return elf_problem(path, ET_REL) is None


def _cached_object(prefix: str, kind: str, elem: str, target, tm, gemm_prefix: str) -> str:
    from lowering.codegen.llvm.machine import optimize
    path = _path(prefix)
    if _whole(path):  # else (a damaged cache) built again
        touch(path)  # used now: `aotc cache --prune` keeps it
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    obj = tm.emit_object(optimize(helper_text(kind, elem, prefix, target, tm, gemm_prefix), tm))
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(obj)
    os.replace(tmp, path)  # whole or absent, for a compile running beside this one
    return path
