"""The Python API: `aot.compile(text_or_path)` builds (cached) and loads; `aot.load(path)` loads."""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile

from abi.naming import identifier
from lowering.cache import touch
from lowering.frontend.source import read_source

from .driver import Compilation, Options, cache_dir
from .version import COMPILER_VERSION, compiler_fingerprint  # noqa: F401  (aot.api's names)


def _read_source(source, params_as_args: bool = False) -> tuple[str, str, str | None]:
    """(text, filename, default name) of MLIR text, a file path, an object whose
    `mlir_module()` returns MLIR text (a `jax.export.Exported`), or a PyTorch program (a
    `.pt2` path or its bytes, a `torch.export.ExportedProgram`: aot/import_torch.py)."""
    from .import_torch import default_name, is_exported_program, is_pt2, torch_to_mlir
    if is_exported_program(source) or is_pt2(source):
        text, filename = torch_to_mlir(source, params_as_args=params_as_args)
        return text, filename, default_name(source)
    mlir_module = getattr(source, "mlir_module", None)
    if callable(mlir_module):
        text = mlir_module()
        if not isinstance(text, str):
            raise TypeError(f"{type(source).__name__}.mlir_module() returned "
                            f"{type(text).__name__}, not MLIR text (str)")
        fun_name = getattr(source, "fun_name", None)  # jax.export.Exported's
        return text, f"<{type(source).__name__}.mlir_module()>", \
            fun_name if isinstance(fun_name, str) and fun_name else "model"
    if not isinstance(source, str):
        raise TypeError("aot.compile takes MLIR text, a path to it, an object with an "
                        "mlir_module() method such as a jax.export.Exported, or a PyTorch "
                        "program (.pt2 path or bytes, ExportedProgram); got "
                        f"{type(source).__name__}")
    if "\n" not in source and len(source) < 4096 and os.path.exists(source):
        # not UTF-8: a located CompileError
        return read_source(source), source, os.path.basename(source).split(".")[0]
    return source, "<string>", "model"


def compile(source, name: str | None = None, *, output_dir: str | None = None,
            target: str = "cpu", target_cpu: str | None = None, dump_after=(),
            dump_dir: str | None = None, feeds=(), fetches=(), freeze: str | None = None,
            params_as_args: bool = False):
    """Compile MLIR text, a file path, an exported JAX function (anything whose
    `mlir_module()` returns MLIR text: `aot.compile(jax.export.export(jax.jit(f))(*specs))`)
    or a PyTorch program (`torch.export.ExportedProgram`, a `.pt2` path or its bytes; its
    parameters and buffers frozen in as constants, or leading arguments with
    `params_as_args=True`) into a shared library and load it. `feeds`/`fetches` name the nodes of a TensorFlow
    GraphDef import that become its arguments and results (`aotc --feed/--fetch`); `freeze`
    is a .npz of a TF function's resource arguments' values (`argN`), made constants.

    The build lands in a cache keyed by the source text, the options and the
    compiler version, so a second call with the same program is only a load.
    `target="cuda"` builds kernels as PTX and host code that launches them through the
    CUDA driver (runtime_c/device); calls need a driver and a GPU (or AOT_CUDA_LIBRARY
    naming the tests' driver double).
    A cached library that no longer loads (truncated, emptied or overwritten on disk) is
    built again, once.
    """
    from abi.loader import LoadError
    text, filename, default_name = _read_source(source, params_as_args)
    name = identifier(name if name is not None else default_name, artifact=True)
    key = hashlib.sha256("\0".join([compiler_fingerprint(), name, target, str(target_cpu),
                                    os.environ.get("AOTC_SANITIZE", ""), ",".join(feeds),
                                    ",".join(fetches), _file_digest(freeze),
                                    getattr(text, "digest", text)]).encode())  # a SourceText's file
    out_dir = output_dir or os.path.join(cache_dir(), "build", key.hexdigest()[:24])
    so_path = os.path.join(out_dir, f"lib{name}.so")

    def build():
        opts = Options(name=name, emit="shared", target=target, target_cpu=target_cpu,
                       dump_after=list(dump_after), dump_dir=dump_dir, feeds=list(feeds),
                       fetches=list(fetches), freeze=freeze)
        tmp_so = so_path + f".tmp{os.getpid()}"
        try:
            Compilation(text, filename, opts).build(tmp_so)
            os.replace(tmp_so, so_path)  # whole or not at all, for a process loading it now
        finally:
            if os.path.exists(tmp_so):
                os.remove(tmp_so)

    if output_dir is not None or not os.path.exists(so_path) or dump_after:
        build()
        return load(so_path)
    try:
        lib = load(so_path)
        touch(out_dir)  # used now: `aotc cache --prune` keeps it
        return lib
    except LoadError:  # a damaged cache entry (truncated, emptied, overwritten): built again
        build()
        return load(so_path)


# A small program whose compile builds what a first compile on this machine builds besides
# the model: the runtime's objects, the f32 matmul's and both f32 convolutions' helper
# objects (direct, Winograd) and the parser's tables (warm_cache).
_WARM_PROGRAM = """
func.func @main(%x: tensor<1x16x16x64xf32>, %w: tensor<3x3x64x64xf32>, %a: tensor<64x64xf32>,
                %q: tensor<1x2x8x16xf32>)
    -> (tensor<1x16x16x64xf32>, tensor<1x8x8x64xf32>, tensor<64x64xf32>, tensor<1x2x8x16xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x16x16x64xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 2], pad = [[1, 1], [1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x8x8x64xf32>
  %2 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0]
      : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = stablehlo.dot_general %q, %q, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]
      : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x8xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [3]
      : (tensor<1x2x8x8xf32>, tensor<f32>) -> tensor<1x2x8xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<1x2x8xf32>) -> tensor<1x2x8x8xf32>
  %d = stablehlo.subtract %s, %mb : tensor<1x2x8x8xf32>
  %e = stablehlo.exponential %d : tensor<1x2x8x8xf32>
  %t = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3]
      : (tensor<1x2x8x8xf32>, tensor<f32>) -> tensor<1x2x8xf32>
  %tb = stablehlo.broadcast_in_dim %t, dims = [0, 1, 2] : (tensor<1x2x8xf32>) -> tensor<1x2x8x8xf32>
  %p = stablehlo.divide %e, %tb : tensor<1x2x8x8xf32>
  %3 = stablehlo.dot_general %p, %q, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]
      : (tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return %0, %1, %2, %3 : tensor<1x16x16x64xf32>, tensor<1x8x8x64xf32>, tensor<64x64xf32>,
                          tensor<1x2x8x16xf32>
}
"""


def warm_cache() -> str:
    """Build into the cache what does not depend on a model (`aotc cache --warm`, run by
    `make venv`): the runtime and the f32 matmul, convolution and attention helpers for this
    machine.
    A first compile on a fresh machine otherwise builds them: ~2 s more than a warm one.
    Returns the cache's path."""
    with tempfile.TemporaryDirectory() as d:
        opts = Options(name="warm", emit="shared")
        Compilation(_WARM_PROGRAM, "<aotc cache --warm>", opts).build(os.path.join(d, "libwarm.so"))
    return cache_dir()


def _file_digest(path) -> str:
    """The contents' hash of a file the build reads (so a changed file is a new build)."""
    if not path:
        return ""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def compile_jax(fn, *example_args, dynamic: dict | None = None, name: str | None = None,
                **options):
    """Export `fn` with `jax.export` and compile it: `aot.compile_jax(f, x, w,
    dynamic={"x": "b, 1024"})`. Each example argument is an array or a
    `jax.ShapeDtypeStruct` giving its dtype and shape; `dynamic` maps an argument's
    name in `fn`'s signature (or its position) to a symbolic shape, `jax.export`'s
    spelling, its symbols shared by all arguments. `name` defaults to `fn`'s name;
    other keywords are `aot.compile`'s. Needs JAX, which aotc never requires."""
    try:
        import jax
        from jax import export as jax_export
    except ImportError as e:
        raise ImportError("aot.compile_jax needs JAX: pip install jax "
                          "(or pip install 'aotc[jax]')") from e
    specs = _jax_specs(jax, jax_export, fn, example_args, dict(dynamic or {}))
    jitted = fn if hasattr(fn, "lower") else jax.jit(fn)
    exported = jax_export.export(jitted)(*specs)
    if name is None:
        name = getattr(fn, "__name__", None) or getattr(exported, "fun_name", None) or "model"
    return compile(exported, name, **options)


def compile_torch(model, *example_args, dynamic_shapes=None, name: str | None = None,
                  strict: bool = False, **options):
    """Export a `torch.nn.Module` (or function) with `torch.export` and compile it:
    `aot.compile_torch(model, x, dynamic_shapes={"x": {0: torch.export.Dim("batch",
    max=64)}})`. A Dim is a `?` dim of the library, its range checked on every call.
    `name` defaults to the model's class name; other keywords are `aot.compile`'s
    (`params_as_args=True`: weights as leading arguments). Needs PyTorch, which aotc
    never requires."""
    from .import_torch import export_torch
    ep = export_torch(model, example_args, dynamic_shapes, strict)
    if name is None:
        name = type(model).__name__ if hasattr(model, "forward") else \
            getattr(model, "__name__", "model")
    return compile(ep, name, **options)


def _jax_specs(jax, jax_export, fn, example_args, dynamic: dict) -> list:
    """One jax.ShapeDtypeStruct per example argument, symbolic where `dynamic` says."""
    import inspect
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # no signature to read: positions only
        params = []
    positions = {}
    for key in dynamic:
        if isinstance(key, int) and 0 <= key < len(example_args):
            positions[key] = key
        elif isinstance(key, str) and key in params[:len(example_args)]:
            positions[key] = params.index(key)
        else:
            known = ", ".join(repr(p) for p in params[:len(example_args)]) or "none"
            raise ValueError(f"dynamic: {key!r} is not an argument of {getattr(fn, '__name__', fn)} "
                             f"given an example (names: {known}; or a position "
                             f"0..{len(example_args) - 1})")
    scope = jax_export.SymbolicScope() if dynamic else None
    specs = []
    for i, arg in enumerate(example_args):
        if not (hasattr(arg, "shape") and hasattr(arg, "dtype")):
            arg = jax.numpy.asarray(arg)
        shape = tuple(arg.shape)
        keys = [k for k, pos in positions.items() if pos == i]
        if len(keys) > 1:
            raise ValueError(f"dynamic: {keys[0]!r} and {keys[1]!r} both name argument {i}")
        if keys:
            spelled = dynamic[keys[0]]
            shape = tuple(jax_export.symbolic_shape(spelled, scope=scope))
            if len(shape) != len(arg.shape):
                raise ValueError(f"dynamic: {keys[0]!r} is {spelled!r}, {len(shape)} dims, but "
                                 f"its example has {len(arg.shape)} ({tuple(arg.shape)})")
        specs.append(jax.ShapeDtypeStruct(shape, arg.dtype))
    return specs


def load(path: str):
    """Load a shared library built by `aotc compile --emit shared`. A file that does not
    load is an `aot.LoadError` (an OSError) naming it and saying why: missing, a directory,
    not a shared library, truncated, not built by aotc, built for another ABI version, or
    built for another CPU (`--target-triple`: it runs only there, or under qemu-user)."""
    from abi.loader import Library, LoadError

    from .toolchain import elf_machine, host_triple, machine_name
    if os.path.isfile(path) and os.path.isfile(sys.executable):
        try:
            ours, theirs = elf_machine(sys.executable), elf_machine(path)
        except OSError:  # unreadable: Library says so
            ours = theirs = None
        if ours is not None and theirs is not None and theirs != ours:
            raise LoadError(f"cannot load {os.path.abspath(path)}: built for "
                            f"{machine_name(theirs)}, not for this machine "
                            f"({host_triple()}): it loads only where {machine_name(theirs)} "
                            "code runs (here, a C program linked against it can run under "
                            "qemu-user)")
    return Library(path, _manifest_labels(path))


def _manifest_labels(path: str) -> dict:
    """Entry name -> (argument labels, result labels) from the artifact's manifest; none
    when it has no readable manifest (the loader then names values by position)."""
    from .manifest import read_manifests
    try:
        _, manifests = read_manifests(path)
    except Exception:  # noqa: BLE001  (not an artifact, unreadable: Library says why)
        return {}
    labels = {}
    for _, info in manifests:
        for e in info.get("entries", []):
            labels[e["name"]] = ([a.get("label", "") for a in e.get("args", [])],
                                 [r.get("label", "") for r in e.get("results", [])])
    return labels
