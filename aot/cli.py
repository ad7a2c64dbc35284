"""`aotc`: the command line."""
from __future__ import annotations

import argparse
import os
import sys

from lowering import backends

from .driver import DUMP_STAGES, EMIT_KINDS, Options


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="aotc", description="Ahead-of-time compiler for HLO-family MLIR")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="compile an MLIR file")
    c.add_argument("input", help="StableHLO / MHLO / LHLO text (.mlir), or a PyTorch program "
                                 "written by torch.export.save (.pt2; torch not needed)")
    c.add_argument("-o", "--output", help="output path ('-' for stdout with text stages)")
    c.add_argument("--emit", choices=EMIT_KINDS, default="shared")
    c.add_argument("--name", help="artifact name, the prefix of every exported symbol "
                                  "(default: the input file's stem)")
    c.add_argument("--dump-ir-after", default="",
                   help=f"comma-separated stages to print, or 'all' ({', '.join(DUMP_STAGES)})")
    c.add_argument("--dump-dir", help="directory for --dump-ir-after files (default: stderr)")
    c.add_argument("--target", choices=list(backends.BACKENDS), default="cpu",
                   metavar="{" + " | ".join(backends.BACKENDS) + "}", help=backends.target_help())
    c.add_argument("--gpu-arch", default=backends.DEFAULT_GPU_ARCH, choices=backends.GPU_ARCHS,
                   help=f"the GPU for --target cuda (default: {backends.DEFAULT_GPU_ARCH})")
    c.add_argument("--target-triple", help="LLVM target triple (default: this machine)")
    c.add_argument("--target-cpu", help="LLVM CPU name (default: this machine's)")
    c.add_argument("--target-features", help="LLVM CPU features (default: this machine's)")
    c.add_argument("--cc", help="C compiler for the runtime (default: $CC or cc; for another "
                                "--target-triple, the GNU cross compiler it names, e.g. "
                                "aarch64-linux-gnu-gcc)")
    c.add_argument("--sanitize", metavar="LIST",
                   help="build the runtime's C with these sanitizers and link a shared library "
                        "with them: address,undefined or thread (default: $AOTC_SANITIZE; the "
                        "model's own code is not instrumented)")
    c.add_argument("--no-runtime", action="store_true",
                   help="with --emit obj: the model's object alone, the runtime as C sources "
                        "in aot_runtime/ beside it")
    c.add_argument("--report", action="store_true",
                   help="print every kernel, the ops it holds, and why neighbours were not fused")
    c.add_argument("--shape-hint", metavar="N|SHAPE,...",
                   help="with --report on --target cuda: predict kernels with run-time dims at "
                        "these argument shapes (N: every ? dim; or one shape per argument, "
                        "e.g. 2048x1024,2048x1024); default: the largest the bounds allow")
    c.add_argument("--feed", action="append", default=[], metavar="NODE[:k]",
                   help="a TensorFlow GraphDef import's node whose output is an argument, in "
                        "order (tfcompile's feeds; the import needs show_debug_info=True)")
    c.add_argument("--fetch", action="append", default=[], metavar="NODE[:k]",
                   help="a TensorFlow GraphDef import's node whose output is a result, in order")
    c.add_argument("--freeze", metavar="VARS.npz",
                   help="values of a TensorFlow function's resource (variable) arguments, "
                        "keyed argN by position: they become constants")
    c.add_argument("--params-as-args", action="store_true",
                   help="a .pt2 program's parameters and buffers as leading arguments "
                        "(default: frozen into the library as constants)")
    c.add_argument("--cpp-class", metavar="NS::CLASS",
                   help="also write NAME.hpp: a header-only C++ class per entry, tfcompile "
                        "style (the main entry's is CLASS, entry F's CLASS_F)")
    i = sub.add_parser("inspect", help="print what an artifact (.so, .a, .o) holds, from its "
                                       "metadata, without loading it")
    i.add_argument("artifact", help="a library, archive or object aotc built")
    i.add_argument("--json", action="store_true", help="the metadata as JSON")
    k = sub.add_parser("cache", help="what the compile cache holds ($AOTC_CACHE_DIR, else "
                                     "~/.cache/aotc), and removing it")
    drop = k.add_mutually_exclusive_group()
    drop.add_argument("--prune", type=float, metavar="DAYS",
                      help="remove libraries, runtime and helper objects no compile has used "
                           "for DAYS days")
    drop.add_argument("--clear", action="store_true", help="remove everything in the cache")
    drop.add_argument("--warm", action="store_true",
                      help="build the runtime and the matmul/convolution helper objects for "
                           "this machine now, so the first compile is as fast as later ones")
    t = sub.add_parser("import-tf", help="a TensorFlow SavedModel's signature as tf dialect "
                                         "MLIR, variables frozen (needs TensorFlow)")
    from .import_tf import add_arguments as import_tf_arguments
    import_tf_arguments(t)
    args = p.parse_args(argv)
    if args.command == "import-tf":
        from .import_tf import run as import_tf
        return import_tf(args)
    if args.command == "cache":
        return cache_main(args.prune, args.clear, args.warm)
    if args.command == "inspect":
        from .manifest import inspect_main
        return inspect_main(args.artifact, as_json=args.json)
    if args.cpp_class:
        from abi.naming import parse_cpp_class
        try:
            parse_cpp_class(args.cpp_class)
        except ValueError as e:
            p.error(str(e))
        if args.emit not in ("shared", "static", "obj"):
            p.error("--cpp-class goes with --emit shared, static or obj (it wraps their header)")

    from abi.naming import identifier
    name = identifier(args.name or os.path.basename(args.input).split(".")[0], artifact=True)
    dump = [s for s in args.dump_ir_after.split(",") if s]
    for s in dump:
        if s != "all" and s not in DUMP_STAGES:
            p.error(f"unknown stage '{s}' in --dump-ir-after; stages: all, {', '.join(DUMP_STAGES)}")
    opts = Options(name=name, emit=args.emit, target=args.target, gpu_arch=args.gpu_arch,
                   target_triple=args.target_triple,
                   target_cpu=args.target_cpu, target_features=args.target_features,
                   dump_after=dump, dump_dir=args.dump_dir, cc=args.cc,
                   runtime=not args.no_runtime, cpp_class=args.cpp_class, sanitize=args.sanitize,
                   feeds=args.feed, fetches=args.fetch, freeze=args.freeze,
                   shape_hint=args.shape_hint)
    from lowering.cache import CacheError
    from lowering.ir.core import CompileError

    from .toolchain import ToolchainError
    try:
        from .driver import Compilation
        if not os.path.exists(args.input):
            print(f"aotc: error: no such file: {args.input}", file=sys.stderr)
            return 2
        from lowering.frontend.source import read_source

        from .import_torch import is_pt2, torch_to_mlir
        if is_pt2(args.input):  # read and lowered without torch (lowering/torch)
            text, _ = torch_to_mlir(args.input, params_as_args=args.params_as_args)
        else:
            text = read_source(args.input)  # not UTF-8: a located CompileError
        comp = Compilation(text, args.input, opts)
        from .driver import default_output
        paths = comp.build(args.output or default_output(opts))
        if args.report:
            from lowering.passes.fusion import format_report
            print(format_report(comp.module), end="")
            print(comp.report(), end="")
        if dump and not args.dump_dir:
            for stage, body in comp.dumps.items():
                print(f"// ----- IR after {stage} -----\n{body}", file=sys.stderr)
    except CompileError as e:
        print(e.render(), file=sys.stderr)
        return 1
    except (ToolchainError, CacheError) as e:
        print(f"aotc: error: {e}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"{args.input}: error: program nested too deeply", file=sys.stderr)
        return 1
    except Exception as e:  # a bug in the compiler: say so plainly, without a traceback
        print(f"{args.input}: internal compiler error: {type(e).__name__}: {e}\n"
              "please report this with the input file (set AOTC_TRACEBACK=1 for details)",
              file=sys.stderr)
        if os.environ.get("AOTC_TRACEBACK"):
            raise
        return 3
    for kind, path in paths.items():
        if path != "-":
            print(f"wrote {path}", file=sys.stderr)
    return 0


def cache_main(prune_days: float | None, clear: bool, warm: bool = False) -> int:
    """`aotc cache`: the cache's location and contents by kind; --prune / --clear remove,
    --warm builds what every model's first compile would (aot.api.warm_cache)."""
    from lowering import cache

    from .toolchain import ToolchainError
    try:
        root = cache.cache_dir()
        if warm:
            from .api import warm_cache
            warm_cache()
    except (cache.CacheError, ToolchainError) as e:  # unwritable cache, no C compiler
        print(f"aotc: error: {e}", file=sys.stderr)
        return 1
    if prune_days is not None and prune_days < 0:
        print("aotc cache: --prune takes a number of days, 0 or more", file=sys.stderr)
        return 2
    if clear or prune_days is not None:
        count, freed = cache.prune(None if clear else prune_days, root)
        print(f"removed {count} entries, {freed / 2**20:.1f} MiB, from {root}")
    print(root)
    for what, count, size in cache.usage(root):
        print(f"  {size / 2**20:9.1f} MiB  {what}" + (f" ({count})" if count else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
