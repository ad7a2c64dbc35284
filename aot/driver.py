"""The compile driver: text in, every stage in order, artifacts out."""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field

from lowering.cache import cache_dir
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import STAGE_NAMES, run_pipeline
from lowering.target import Target, cuda_target, host_target

EMIT_KINDS = STAGE_NAMES + ["llvm", "asm", "ptx", "obj", "static", "shared"]
TARGETS = ("cpu", "cuda", "cuda,cpu")
DEVICE_SUFFIX = "__cuda"  # a two-target artifact's device entries: NAME_F__cuda
DUMP_STAGES = STAGE_NAMES + ["llvm", "llvm-opt"]


EXTERNAL_DATA_BYTES = 1 << 16  # constants from this size on are assembled, not put in LLVM IR


@dataclass
class Options:
    name: str = "model"
    emit: str = "shared"
    target_triple: str | None = None
    target_cpu: str | None = None
    target_features: str | None = None
    target: str = "cpu"  # or "cuda": kernels as PTX (--gpu-arch); "cuda,cpu": both, one artifact
    gpu_arch: str = "sm_80"
    dump_after: list = field(default_factory=list)  # stage names, or ["all"]
    dump_dir: str | None = None
    cpp_class: str | None = None  # "ns::MyModel": also write NAME.hpp, a C++ class per entry
    cc: str | None = None  # the C compiler for the runtime (default: found for the target)
    runtime: bool = True  # False (--no-runtime, with --emit obj): the model's object alone
    sanitize: str | None = None  # "address,undefined": the runtime's C (None: $AOTC_SANITIZE)
    feeds: list = field(default_factory=list)  # TF GraphDef nodes made arguments (--feed)
    fetches: list = field(default_factory=list)  # TF GraphDef nodes made results (--fetch)
    freeze: str | None = None  # a .npz of TF resource arguments' values (--freeze): constants


def sanitize_name(name: str) -> str:
    """A C identifier for symbol prefixes: `my-model.v2` becomes `my_model_v2`."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return name if name and not name[0].isdigit() else "m_" + name


def default_output(opts: Options, out_dir: str = ".") -> str:
    suffix = {"static": f"lib{opts.name}.a", "shared": f"lib{opts.name}.so", "obj": f"{opts.name}.o",
              "asm": f"{opts.name}.s", "llvm": f"{opts.name}.ll", "ptx": f"{opts.name}.ptx"}
    return os.path.join(out_dir, suffix.get(opts.emit, f"{opts.name}.{opts.emit}.mlir"))


@contextlib.contextmanager
def fewer_collections():
    """The IR is a great many small objects that live as long as the compile: at its default
    thresholds Python's cyclic collector walked them again and again (30-40% of the parse's
    and the passes' CPU on a 4k-op program). Young generations are collected less often
    while compiling; the caller's settings come back after."""
    saved = gc.get_threshold()
    gc.set_threshold(*(max(n, least) for n, least in zip(saved, (50000, 20, 1000))))
    try:
        yield
    finally:
        gc.set_threshold(*saved)


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
    def target(self) -> Target:
        o = self.opts
        if o.target in ("cuda", "cuda,cpu"):
            if o.target_triple or o.target_cpu or o.target_features:
                raise CompileError("--target-triple/-cpu/-features describe a CPU; the cuda "
                                   "target takes --gpu-arch", None)
            try:
                return cuda_target(o.gpu_arch)
            except ValueError as e:
                raise CompileError(str(e), None)
        if o.target != "cpu":
            raise CompileError(f"unknown target '{o.target}' (known: {', '.join(TARGETS)})", None)
        try:
            return host_target(o.target_triple, o.target_cpu, o.target_features)
        except ValueError as e:  # a triple LLVM does not know, or a 32-bit one
            raise CompileError(str(e), None)

    @functools.cached_property
    def toolchain(self):
        """The C toolchain for the runtime: the target CPU's (the host's, for cuda)."""
        from .toolchain import find_toolchain
        return find_toolchain(self.target.triple if self.target.name == "cpu" else None,
                              self.opts.cc, self.opts.sanitize)

    def run_stages(self, until: str):
        return run_pipeline(self.module, until,
                            dump=lambda name, m: self.dump(name, print_module(m))
                            if self.opts.dump_after else None, target=self.target)

    @functools.cache  # noqa: B019  (one Compilation, one result; the stages run once)
    @_shows_source
    def loops(self):
        """The loop-stage module, made once (the device and the host code both read it)."""
        return self.run_stages("loops")

    @functools.cache  # noqa: B019
    @_shows_source
    def llvm(self):
        """(target machine, LLVM IR text, optimised module, entries): the stages run once.
        For the cuda target: the device module, and its kernels (device.DeviceKernel)."""
        from lowering.codegen.llvm.gen import generate
        from lowering.codegen.llvm.machine import optimize, target_machine
        module = self.loops()
        tm = target_machine(self.target)
        if self.target.name == "cuda":
            from lowering.codegen.cuda.device import generate_device
            text, entries = generate_device(module, self.opts.name, self.target)
        else:
            for op in self.external_data():
                op.attrs["aot.external_data"] = True
            text, entries = generate(module, self.opts.name, tm, self.target,
                                     helpers=self.helpers())
        self.dump("llvm", text)
        optimized = optimize(text, tm)
        self.dump("llvm-opt", str(optimized))
        return tm, text, optimized, entries

    @functools.cache  # noqa: B019
    @_shows_source
    def cpu_model(self):
        """(target machine, the model's module, entries) of a cpu artifact. The module is the
        optimised ModuleRef, or, when the module is cut into partitions compiled on several
        cores (llvm/partition.py), a Partitions that build_binary compiles and joins."""
        from lowering.codegen.llvm.gen import generate_parts
        from lowering.codegen.llvm.machine import optimize, parallel_jobs, target_machine
        jobs = parallel_jobs() if self.can_partition() else 1
        self.start_helpers(self.loops())  # any the HLO did not foretell, beside the model's IR
        if jobs == 1:
            tm, _, optimized, entries = self.llvm()
            return tm, optimized, entries
        tm = target_machine(self.target)
        for op in self.external_data():
            op.attrs["aot.external_data"] = True
        texts, hidden, entries = generate_parts(self.loops(), self.opts.name, tm, self.target, jobs,
                                                helpers=self.helpers())
        if len(texts) == 1:
            return tm, optimize(texts[0], tm), entries
        return tm, Partitions(texts, hidden), entries

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
        """The matmul and convolution helpers as cached objects (cpu/helpers.py) for the cpu
        target's libraries (None: in the module itself). Not for `--emit obj`: one merged
        object would define them globally, and two models' objects would clash; an archive
        member is only pulled in where no earlier one defined them."""
        if self.target.name != "cpu" or self.opts.emit not in ("static", "shared"):
            return None
        from lowering.codegen.cpu.helpers import HelperObjects

        from .version import compiler_fingerprint
        return HelperObjects(self.target, compiler_fingerprint())

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
        of a frozen model): for binary artifacts of the cpu target that link the runtime."""
        if (self.target.name != "cpu" or self.opts.emit not in ("obj", "static", "shared")
                or not self.opts.runtime):
            return []
        return [op for op in self.loops().ops if op.name == "memref.global"
                and op.attrs["initial_value"].array.nbytes >= EXTERNAL_DATA_BYTES]

    def data_objects(self, tmp: str) -> list:
        """One object per external constant: its bytes, 64-byte aligned, read-only, hidden."""
        from lowering.codegen.llvm.gen import global_bytes, global_symbol

        from . import toolchain
        objects = []
        for i, op in enumerate(self.external_data()):
            blob, asm = (os.path.join(tmp, f"data{i}.{ext}") for ext in ("bin", "S"))
            with open(blob, "wb") as f:
                f.write(global_bytes(op))
            symbol = global_symbol(self.opts.name, op)
            with open(asm, "w") as f:
                f.write(f'\t.section .rodata.aot_data,"a"\n\t.balign 64\n\t.globl "{symbol}"\n'
                        f'\t.hidden "{symbol}"\n"{symbol}":\n\t.incbin "{blob}"\n')
            objects.append(os.path.join(tmp, f"data{i}.o"))
            toolchain.run([*self.toolchain.cc, "-c", asm, "-o", objects[-1]])
        return objects

    @_shows_source
    def build(self, output: str) -> dict:
        """Write the artifact of `opts.emit` to `output`; returns the paths written."""
        emit = self.opts.emit
        if emit in ("obj", "static", "shared"):  # before any compile work: no compiler, no build
            self.check_toolchain()
        if emit in STAGE_NAMES:
            return _write(output, print_module(self.run_stages(emit)))
        if emit == "ptx" and self.target.name != "cuda":
            raise CompileError("--emit ptx needs --target cuda", None)
        if emit == "asm" and self.target.name == "cuda":
            raise CompileError("--target cuda: the kernels' assembly is --emit ptx", None)
        if emit in ("llvm", "asm", "ptx"):
            tm, _, optimized, _ = self.llvm()
            return _write(output, str(optimized) if emit == "llvm" else tm.emit_assembly(optimized))
        runtime = None
        if self.opts.runtime:  # compiled meanwhile, on a core the model's compile leaves free
            from .toolchain import start_runtime_objects
            runtime = start_runtime_objects(cache_dir(), self.target.name, self.toolchain)
        self.start_helpers(self.module)  # likewise the helper objects its matmuls will need
        try:
            if self.target.name == "cuda":
                tm, optimized, entries = self.cuda_host()
            else:
                tm, optimized, entries = self.cpu_model()
            return self.build_binary(output, tm, optimized, entries, runtime)
        finally:
            if runtime is not None:
                runtime.close()

    def check_toolchain(self) -> None:
        from .toolchain import ToolchainError
        if not self.opts.runtime and self.opts.emit != "obj":
            raise ToolchainError("--no-runtime needs --emit obj (the model's object alone)")
        if self.opts.runtime or self.opts.target == "cuda,cpu":  # its two objects are merged
            self.toolchain  # noqa: B018  (resolved now: a missing compiler is an error now)

    @functools.cache  # noqa: B019
    @_shows_source
    def cpu_fallback(self):
        """For --target cuda,cpu: (machine, optimised module) of the CPU build, whose entries
        run the device build's when the runtime finds a GPU."""
        from lowering.codegen.llvm.gen import generate
        from lowering.codegen.llvm.machine import optimize, target_machine
        target = host_target()
        module = run_pipeline(self.parse(), "loops", target=target)
        tm = target_machine(target)
        text, _ = generate(module, self.opts.name, tm, target, dispatch_suffix=DEVICE_SUFFIX)
        return tm, optimize(text, tm)

    @functools.cache  # noqa: B019
    def ptx(self) -> str:
        tm, _, optimized, _ = self.llvm()
        return tm.emit_assembly(optimized)

    @functools.cache  # noqa: B019
    def cuda_host(self):
        """(host machine, optimised host module, entries) of a cuda artifact: this machine's
        host code, launching the kernels of the embedded PTX."""
        from lowering.codegen.cuda.host import generate_host
        from lowering.codegen.llvm.machine import optimize, target_machine
        ptx = self.ptx()
        host_tm = target_machine(host_target())
        suffix = DEVICE_SUFFIX if self.opts.target == "cuda,cpu" else ""
        text, entries = generate_host(self.loops(), self.opts.name, host_tm, self.target, ptx, suffix)
        return host_tm, optimize(text, host_tm), entries

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
                    cache_dir(), self.target.name, self.toolchain)).wait()
            if self.opts.target == "cuda,cpu":
                cpu_tm, cpu_module = self.cpu_fallback()
                objects.append(os.path.join(tmp, f"{self.opts.name}.cpu.o"))
                with open(objects[-1], "wb") as f:
                    f.write(cpu_tm.emit_object(cpu_module))
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
            paths["runtime_sources"] = toolchain.write_runtime_sources(out_dir, self.target.name)
        header = os.path.join(out_dir, f"{self.opts.name}.h")
        with open(header, "w") as f:
            f.write(generate_header(self.opts.name, entries, device=self.target.name == "cuda",
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


    def launch_report(self) -> str:
        """For a cuda build: each kernel's launch, registers and shared memory, and the time
        model's estimate (codegen/cuda/timing.py)."""
        from lowering.codegen.cuda import ptxas
        from lowering.codegen.cuda.device import launch_report
        tm, _, optimized, kernels = self.llvm()
        resources = None
        if ptxas.find_ptxas() is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "kernels.ptx")
                with open(path, "w") as f:
                    f.write(tm.emit_assembly(optimized))
                resources = ptxas.resources(ptxas.assemble(path, self.target.cpu).stderr)
        from lowering.codegen.cuda.timing import report_estimates
        timing = report_estimates(self.loops(), self.opts.name, kernels, resources, self.target)
        return launch_report(kernels, resources, timing)


@dataclass
class Partitions:
    """A cpu module cut into partitions (llvm/partition.py): their IR texts, and the internal
    functions they share, made local again once their objects are one."""
    texts: list
    hidden: list

    def compile(self, tm, output: str, tmp: str, tc, first) -> None:
        from lowering.codegen.llvm.machine import compile_objects

        from .toolchain import join_partitions
        paths = [os.path.join(tmp, f"part{i}.o") for i in range(len(self.texts))]
        compile_objects(self.texts, tm, paths, first)
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
