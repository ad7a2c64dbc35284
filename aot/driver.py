"""The compile driver: text in, every stage in order, artifacts out."""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import shutil
import tempfile
from dataclasses import dataclass, field

from lowering import backends
from lowering.cache import cache_dir
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import STAGE_NAMES, run_pipeline
from lowering.target import DEFAULT_GPU_ARCH, Target

ASSEMBLY_KINDS = list(dict.fromkeys(b.assembly for b in backends.BACKENDS.values()))
EMIT_KINDS = STAGE_NAMES + ["llvm", *ASSEMBLY_KINDS, "obj", "static", "shared"]
DUMP_STAGES = STAGE_NAMES + ["llvm", "llvm-opt"]


EXTERNAL_DATA_BYTES = 1 << 16  # constants from this size on are assembled, not put in LLVM IR


@dataclass
class Options:
    name: str = "model"
    emit: str = "shared"
    target_triple: str | None = None
    target_cpu: str | None = None
    target_features: str | None = None
    target: str = "cpu"  # a lowering.backends.BACKENDS key: "cpu", "cuda" (--gpu-arch), "cuda,cpu"
    gpu_arch: str = DEFAULT_GPU_ARCH
    dump_after: list = field(default_factory=list)  # stage names, or ["all"]
    dump_dir: str | None = None
    cpp_class: str | None = None  # "ns::MyModel": also write NAME.hpp, a C++ class per entry
    cc: str | None = None  # the C compiler for the runtime (default: found for the target)
    runtime: bool = True  # False (--no-runtime, with --emit obj): the model's object alone
    sanitize: str | None = None  # "address,undefined": the runtime's C (None: $AOTC_SANITIZE)
    feeds: list = field(default_factory=list)  # TF GraphDef nodes made arguments (--feed)
    fetches: list = field(default_factory=list)  # TF GraphDef nodes made results (--fetch)
    freeze: str | None = None  # a .npz of TF resource arguments' values (--freeze): constants
    shape_hint: str | None = None  # --report's shapes for run-time dims (--shape-hint; cuda)


def default_output(opts: Options, out_dir: str = ".") -> str:
    suffix = {"static": f"lib{opts.name}.a", "shared": f"lib{opts.name}.so", "obj": f"{opts.name}.o",
              "asm": f"{opts.name}.s", "llvm": f"{opts.name}.ll", "ptx": f"{opts.name}.ptx"}
    return os.path.join(out_dir, suffix.get(opts.emit, f"{opts.name}.{opts.emit}.mlir"))


@contextlib.contextmanager
def fewer_collections():
    """The IR is a great many small objects that live as long as the compile: Python's cyclic
    collector walked them again and again (at its default thresholds 30-40% of the parse's
    and the passes' CPU on a 4k-op program; at raised ones still 3.4 of 14 s on the 16k-op
    dynamic program of benchmarks/compile_time.py). It is off while compiling, and the
    caller's setting comes back after: what a compile drops in cycles waits for the next
    collection (that program's peak memory 246 -> 270 MB)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _shows_source(method):
    """A CompileError out of `method` shows the source line its location points at."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        try:
            with fewer_collections():
                return method(self, *args, **kwargs)
        except CompileError as e:
            raise e.with_source(self.text, self.filename) from None
    return run


class Compilation:
    """One compile of one module: stage texts on demand, artifacts written to disk."""

    def __init__(self, text: str, filename: str, opts: Options):
        self.opts = opts
        self.filename = filename
        self.text = text
        self.dumps: dict[str, str] = {}

    @functools.cached_property
    def module(self):  # parsed on first use: option and toolchain errors come first
        from abi.naming import program_labels
        module = self.parse()
        self.labels = program_labels(module)  # names of values, before the stages drop them
        return module

    def parse(self):
        """The parsed module, with a TF GraphDef import's feeds and fetches applied."""
        module = parse_module(self.text, self.filename)
        if self.opts.feeds or self.opts.fetches:
            from lowering.tf.graphdef import apply_feeds_fetches
            apply_feeds_fetches(module, self.opts.feeds, self.opts.fetches)
        if self.opts.freeze:
            import numpy as np

            from lowering.tf.graphdef import freeze_variables
            with np.load(self.opts.freeze) as values:
                freeze_variables(module, dict(values))
        return module

    def dump(self, stage: str, text: str) -> None:
        wanted = self.opts.dump_after
        if "all" in wanted or stage in wanted:
            self.dumps[stage] = text
            if self.opts.dump_dir:
                os.makedirs(self.opts.dump_dir, exist_ok=True)
                index = DUMP_STAGES.index(stage) if stage in DUMP_STAGES else 99
                ext = "ll" if stage.startswith("llvm") else "mlir"
                with open(os.path.join(self.opts.dump_dir, f"{index}-{stage}.{ext}"), "w") as f:
                    f.write(text)

    @functools.cached_property
    def backend(self) -> backends.Backend:
        """The door to the target: everything the driver does differently per target."""
        try:
            return backends.get(self.opts.target)
        except ValueError as e:
            raise CompileError(str(e), None) from None

    @functools.cached_property
    def target(self) -> Target:
        return self.backend.make_target(self.opts)  # the options checked, a CompileError

    @functools.cached_property
    def toolchain(self):
        """The C toolchain for the runtime: the target CPU's (this machine's, for a GPU)."""
        from .toolchain import find_toolchain
        return find_toolchain(self.backend.toolchain_triple(self.target), self.opts.cc,
                              self.opts.sanitize)

    def run_stages(self, until: str):
        return run_pipeline(self.module, until,
                            dump=lambda name, m: self.dump(name, print_module(m))
                            if self.opts.dump_after else None, target=self.target)

    def loops_for(self, target: Target):
        """The loop stage of the same program for another target (a second build of it)."""
        return run_pipeline(self.parse(), "loops", target=target)

    @functools.cache  # noqa: B019  (one Compilation, one result; the stages run once)
    @_shows_source
    def loops(self):
        """The loop-stage module, made once (the device and the host code both read it)."""
        return self.run_stages("loops")

    @functools.cache  # noqa: B019
    @_shows_source
    def llvm(self):
        """(target machine, LLVM IR text, optimised module, entries) of the target's codegen
        (for a GPU: the device module and its kernels): the stages run once."""
        from lowering.codegen.llvm.machine import optimize, target_machine
        tm = target_machine(self.target)
        text, entries = self.backend.generate(self, tm)
        self.dump("llvm", text)
        optimized = optimize(text, tm)
        self.dump("llvm-opt", str(optimized))
        return tm, text, optimized, entries

    @functools.cache  # noqa: B019
    @_shows_source
    def model(self):
        """(machine, the model's module, entries) of a binary artifact, as the backend makes
        it. The module is an optimised ModuleRef, or a Partitions that build_binary compiles
        and joins."""
        return self.backend.model(self)

    def partitions(self, texts: list, hidden: list, host_tm=None) -> Partitions:
        return Partitions(texts, hidden, host_tm)

    def start_helpers(self, module) -> None:
        """Build the helper objects `module` (HLO or loop stage) calls and the cache lacks, in
        forked children, while this process goes on lowering the model: a fresh machine's
        first compile then pays little more than a warm one."""
        if self.helpers() is not None:
            from lowering.codegen.llvm.machine import target_machine
            self.helpers().expect(module)
            self.helpers().start(target_machine(self.target))

    @functools.cache  # noqa: B019
    def helpers(self):
        """The matmul and convolution helpers as cached objects (cpu/helpers.py) for the
        libraries of a target that has them (None: in the module itself). Not for `--emit
        obj`: one merged object would define them globally, and two models' objects would
        clash; an archive member is only pulled in where no earlier one defined them."""
        if self.opts.emit not in ("static", "shared"):
            return None
        from .version import COMPILER_VERSION  # the helpers key their own sources
        return self.backend.helper_objects(self.target, COMPILER_VERSION)

    def can_partition(self) -> bool:
        """Partitions are joined with the toolchain's `ld -r` and objcopy, and LLVM stage
        dumps want the module whole."""
        from .toolchain import objcopy
        return (self.opts.runtime and not {"all", "llvm", "llvm-opt"} & set(self.opts.dump_after)
                and objcopy(self.toolchain) is not None)

    @functools.cache  # noqa: B019
    def external_data(self) -> list:
        """The big constants (memref.global) whose bytes go into the artifact through an
        object of their own (`.incbin`, assembled by the target's C compiler) instead of the
        LLVM module, where LLVM would print, parse and carry every byte (seconds for the MBs
        of a frozen model): for binary artifacts that link the runtime, of a target that
        takes them so (the cpu target)."""
        if (not self.backend.external_data or self.opts.emit not in ("obj", "static", "shared")
                or not self.opts.runtime):
            return []
        return [op for op in self.loops().ops if op.name == "memref.global"
                and op.attrs["initial_value"].array.nbytes >= EXTERNAL_DATA_BYTES]

    def data_objects(self, tmp: str) -> list:
        """One object holding every external constant: its bytes, 64-byte aligned, read-only,
        hidden. One assembly file for all of them: a C compiler run per constant cost
        DenseNet-121 (120 constants) 1.3 s of CPU and 3 s of wall time after its LLVM."""
        from lowering.codegen.llvm.gen import global_bytes, global_symbol

        from . import toolchain
        if not self.external_data():
            return []
        asm = ['\t.section .rodata.aot_data,"a"\n']
        for i, op in enumerate(self.external_data()):
            blob = os.path.join(tmp, f"data{i}.bin")
            with open(blob, "wb") as f:
                f.write(global_bytes(op))
            symbol = global_symbol(self.opts.name, op)
            asm.append(f'\t.balign 64\n\t.globl "{symbol}"\n\t.hidden "{symbol}"\n"{symbol}":\n'
                       f'\t.incbin "{blob}"\n')
        source, obj = os.path.join(tmp, "data.S"), os.path.join(tmp, "data.o")
        with open(source, "w") as f:
            f.write("".join(asm))
        toolchain.run([*self.toolchain.cc, "-c", source, "-o", obj])
        return [obj]

    @_shows_source
    def build(self, output: str) -> dict:
        """Write the artifact of `opts.emit` to `output`; returns the paths written."""
        emit = self.opts.emit
        if emit in ("obj", "static", "shared"):  # before any compile work: no compiler, no build
            self.check_toolchain()
        if emit in STAGE_NAMES:
            return _write(output, print_module(self.run_stages(emit)))
        backend = self.backend
        if emit in ASSEMBLY_KINDS and emit != backend.assembly:
            if backend.device_entries:  # a GPU's kernels have an assembly of their own
                raise CompileError(f"--target {backend.name}: the kernels' assembly is --emit "
                                   f"{backend.assembly}", None)
            raise CompileError(f"--emit {emit} needs --target {backends.assembly_target(emit)}", None)
        if emit == "llvm" or emit in ASSEMBLY_KINDS:
            return _write(output, str(self.llvm()[2]) if emit == "llvm" else self.assembly())
        runtime = None
        if self.opts.runtime:  # compiled meanwhile, on a core the model's compile leaves free
            from .toolchain import start_runtime_objects
            runtime = start_runtime_objects(cache_dir(), backend.name, self.toolchain)
        self.start_helpers(self.module)  # likewise the helper objects its matmuls will need
        try:
            tm, optimized, entries = self.model()
            return self.build_binary(output, tm, optimized, entries, runtime)
        finally:
            if runtime is not None:
                runtime.close()

    def check_toolchain(self) -> None:
        from .toolchain import ToolchainError
        if not self.opts.runtime and self.opts.emit != "obj":
            raise ToolchainError("--no-runtime needs --emit obj (the model's object alone)")
        if self.opts.runtime or self.backend.two_objects:  # two builds' objects are merged
            self.toolchain  # noqa: B018  (resolved now: a missing compiler is an error now)

    @_shows_source
    def extra_objects(self, tmp: str) -> list:
        """Objects of the target's beside the model's (cuda,cpu: the CPU build)."""
        return self.backend.extra_objects(self, tmp)

    @functools.cache  # noqa: B019
    def assembly(self) -> str:
        """The kernels' assembly (`--emit asm`, or PTX for a GPU)."""
        tm, _, optimized, _ = self.llvm()
        return tm.emit_assembly(optimized)

    def build_binary(self, output: str, tm, optimized, entries, runtime=None) -> dict:
        from abi.header import generate_header, runtime_header_path

        from . import toolchain
        out_dir = os.path.dirname(os.path.abspath(output))
        os.makedirs(out_dir, exist_ok=True)
        paths = {}
        if self.helpers() is not None:  # the missing ones compile beside the model
            self.helpers().start(tm)
        with tempfile.TemporaryDirectory() as tmp:
            model_obj = os.path.join(tmp, f"{self.opts.name}.model.o")
            from .manifest import embed
            if isinstance(optimized, Partitions):
                optimized.compile(tm, model_obj, tmp, self.toolchain,
                                  lambda first: embed(self, tm, first, entries))
            else:
                embed(self, tm, optimized, entries)  # what `aotc inspect` reads back
                with open(model_obj, "wb") as f:
                    f.write(tm.emit_object(optimized))
            objects = [model_obj] + self.data_objects(tmp)
            if self.helpers() is not None:
                objects += self.helpers().objects(tm)
            if self.opts.runtime:
                objects += (runtime or toolchain.start_runtime_objects(
                    cache_dir(), self.backend.name, self.toolchain)).wait()
            objects += self.extra_objects(tmp)
            if len(objects) > 1:
                toolchain.check_one_machine(objects, self.toolchain)
            if self.opts.emit == "shared":
                toolchain.link_shared(objects, output, self.toolchain)
            elif self.opts.emit == "static":
                toolchain.archive(objects, output, self.toolchain)
            elif len(objects) > 1:
                toolchain.merge_objects(objects, output, self.toolchain)
            else:  # --no-runtime: the model alone
                shutil.copyfile(model_obj, output)
        paths[self.opts.emit] = output
        if not self.opts.runtime:  # the runtime as C sources beside it
            paths["runtime_sources"] = toolchain.write_runtime_sources(out_dir, self.backend.name)
        header = os.path.join(out_dir, f"{self.opts.name}.h")
        with open(header, "w") as f:
            f.write(generate_header(self.opts.name, entries, device=self.backend.device_entries,
                                    labels=self.labels))
        paths["header"] = header
        if self.opts.cpp_class:
            from abi.cpp import generate_cpp_header
            paths["cpp_header"] = os.path.join(out_dir, f"{self.opts.name}.hpp")
            with open(paths["cpp_header"], "w") as f:
                f.write(generate_cpp_header(self.opts.name, entries, self.opts.cpp_class, self.labels))
        runtime_h = os.path.join(out_dir, "aot_runtime.h")
        with open(runtime_header_path()) as src, open(runtime_h, "w") as dst:
            dst.write(src.read())
        paths["runtime_header"] = runtime_h
        paths["pkg_config"] = os.path.join(out_dir, "aot_runtime.pc")
        with open(paths["pkg_config"], "w") as f:
            f.write(pkg_config(out_dir))
        return paths

    def report(self) -> str:
        """What the target adds to `aotc --report` (for a GPU: each kernel's launch,
        registers, shared memory and estimated time)."""
        return self.backend.report(self)



@dataclass
class Partitions:
    """A cpu module cut into partitions (llvm/partition.py): their IR texts, and the internal
    functions they share, made local again once their objects are one."""
    texts: list
    hidden: list
    host_tm: object = None  # the first partition is host code alone, made by this machine

    def compile(self, tm, output: str, tmp: str, tc, first) -> None:
        from lowering.codegen.llvm.machine import compile_objects

        from .toolchain import join_partitions
        paths = [os.path.join(tmp, f"part{i}.o") for i in range(len(self.texts))]
        compile_objects(self.texts, tm, paths, first, self.host_tm)
        join_partitions(paths, self.hidden, output, tc)


def pkg_config(out_dir: str) -> str:
    """aot_runtime.pc, written beside the headers: `PKG_CONFIG_PATH=OUT pkg-config --cflags
    --libs aot_runtime` gives the include directory and the runtime's link libraries (the
    model's own library is named by the caller: -LOUT -lNAME, or OUT/libNAME.a)."""
    from .version import COMPILER_VERSION
    prefix = os.path.abspath(out_dir).replace(" ", "\\ ")
    return (f"prefix={prefix}\n"
            "includedir=${prefix}\n"
            "libdir=${prefix}\n"
            "\n"
            "Name: aot_runtime\n"
            "Description: runtime of the libraries aotc compiles (aot_runtime.h)\n"
            f"Version: {COMPILER_VERSION}\n"
            "Cflags: -I${includedir}\n"
            "Libs: -L${libdir} -lm -lpthread -ldl\n"
            "Libs.private: -lm -lpthread -ldl\n")


def _write(path: str, text: str) -> dict:
    if path == "-":
        import sys
        sys.stdout.write(text)
        return {"stdout": "-"}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return {"text": path}


__all__ = ["Options", "Compilation", "CompileError", "EMIT_KINDS", "cache_dir"]
