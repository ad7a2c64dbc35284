"""What the JAX export scripts (tests/data/*/export.py) share: seeding, input makers,
module text checks, lowering and exporting, writing NAME.mlir + NAME.npz, and the
command line.

JAX is NOT a dependency of the project: only the export scripts import this module,
run with a separate environment:

    python3 -m venv /tmp/jaxenv
    /tmp/jaxenv/bin/pip install jax jaxlib numpy ml_dtypes   # and mpmath for chlo
    /tmp/jaxenv/bin/python tests/data/FAMILY/export.py              # all cases
    /tmp/jaxenv/bin/python tests/data/FAMILY/export.py NAME ...     # some cases
    /tmp/jaxenv/bin/python tests/data/FAMILY/export.py --list       # case names

Conventions of every corpus (read back by tests/corpus.py):
  NAME.mlir  the module exactly as JAX prints it, nothing stripped or rewritten
  NAME.npz   inputs arg0, arg1, ... in @main's argument order and outputs out0,
             out1, ... (the flattened result pytree), with a prefix such as `s0_`
             for each size set of a dynamic case. bfloat16 arrays are stored as
             their uint16 bit patterns under the key with a `__bf16` suffix
             (`arg0__bf16`), since npz has no bfloat16; other dtypes natively.
Each case's inputs come from numpy.random.default_rng(seed(NAME[, TAG])), so adding
or removing a case leaves the data of the others unchanged.
"""

import contextlib
import os
import re
import sys
import zlib

import jax
import ml_dtypes
import numpy as np
from jax import export

BF16 = ml_dtypes.bfloat16

# Text no module may contain: elided or resource-backed constants, debug locations.
FORBIDDEN = ("dense_resource", "{...}", "__elided__", "loc(")
# The same with any "..." at all (the jax.export corpora).
FORBIDDEN_ELLIPSIS = ("dense_resource", "...", "__elided__", "loc(")


# ---------------------------------------------------------------- seeds and inputs

def seed(name, tag=None):
    """crc32 of the case name, or of "NAME/TAG" (one stream per size set)."""
    return zlib.crc32((name if tag is None else f"{name}/{tag}").encode())


def make_args(specs, rng):
    """Arguments from specs that are arrays or makers rng -> array, in order."""
    return [s(rng) if callable(s) else np.asarray(s) for s in specs]


def U(shape, lo=-2.0, hi=2.0, dtype=np.float32):
    """Uniform floats in [lo, hi)."""
    return lambda rng: rng.uniform(lo, hi, size=shape).astype(dtype)


def I(shape, lo=-10, hi=10, dtype=np.int32):  # noqa: E743  (U, I, B: the makers' short names)
    """Uniform integers in [lo, hi] (inclusive)."""
    return lambda rng: rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def B(shape):
    """Random booleans."""
    return lambda rng: rng.integers(0, 2, size=shape).astype(np.bool_)


def SMALLF(shape, dtype=np.float32):
    """Floats drawn from {-2,-1,0,1,2}, so comparisons hit equality and ties happen."""
    return lambda rng: rng.integers(-2, 2, size=shape, endpoint=True).astype(dtype)


def concrete_shape(spec, dims):
    """The shape of a spec such as "b, 16" or "b, n, 4" for dim values {"b": 3, ...}
    (each entry an int or an expression of the dim variables)."""
    return tuple(int(d) if d.isdigit() else int(eval(d, {}, dict(dims)))
                 for d in (s.strip() for s in spec.split(",")) if d)


class Arg:
    """One argument of a case with symbolic dims: a shape spec such as "b, 16", a maker
    (rng, concrete shape, dims) -> array, and its dtype."""

    def __init__(self, spec, make, dtype=np.float32):
        self.spec, self.make, self.dtype = spec, make, np.dtype(dtype)

    def concrete(self, dims):
        return concrete_shape(self.spec, dims)

    def __call__(self, rng, dims):
        return self.make(rng, self.concrete(dims), dims)


# ---------------------------------------------------------------- JAX

@contextlib.contextmanager
def x64(enabled):
    """jax_enable_x64 set for the block, restored after it."""
    prev = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", enabled)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", prev)


def lower(fn, args, x64_enabled=False, keep_unused=False, platform=None):
    """(text of `jax.jit(fn).lower(*args).as_text()`, flattened outputs of jax.jit(fn)).

    `platform` lowers for another backend than this machine's (the outputs are still this
    machine's): JAX lowers some primitives to a LAPACK custom call on the CPU but to the
    StableHLO op elsewhere (triangular_solve, cholesky for "tpu")."""
    with x64(x64_enabled):
        jitted = jax.jit(fn, keep_unused=keep_unused)
        if platform is None:
            text = jitted.lower(*args).as_text()
        else:
            text = jitted.trace(*args).lower(lowering_platforms=(platform,)).as_text()
        outs = jax.tree_util.tree_leaves(jitted(*args))
    return text, outs


def export_symbolic(fn, specs, platform=None):
    """`jax.export.export(jax.jit(fn))` for [(shape spec, dtype)], the specs' dim
    variables (`b`, `n`, ...) in one symbolic scope; for `platform` instead of this
    machine's backend if given (see `lower`)."""
    scope = export.SymbolicScope()
    structs = [jax.ShapeDtypeStruct(export.symbolic_shape(spec, scope=scope), dtype)
               for spec, dtype in specs]
    platforms = None if platform is None else (platform,)
    return export.export(jax.jit(fn), platforms=platforms)(*structs)


def run_sizes(name, exp, fn, argspecs, sizes, compare, d):
    """Call the export at each size set (seeded per name and set), check it against jax.jit
    with `compare(got, want, err_msg)`, and pack the inputs and outputs as `s{k}_...`.
    An export for another backend cannot be called here: its outputs are jax.jit's."""
    here = jax.default_backend() in exp.platforms
    for k, dims in enumerate(sizes):
        rng = np.random.default_rng(seed(name, f"s{k}"))
        args = [a(rng, dims) for a in argspecs]
        ref = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
        outs = jax.tree_util.tree_leaves(exp.call(*args)) if here else ref
        assert len(outs) == len(ref)
        for o, r in zip(outs, ref):
            assert o.shape == r.shape and o.dtype == r.dtype, name
            compare(np.asarray(o), np.asarray(r), err_msg=name)
        pack(args, outs, f"s{k}_", d)


# ---------------------------------------------------------------- checks

def check_text(name, text, expect=(), forbidden=FORBIDDEN, public_main=True):
    """Nothing forbidden in the module, a public @main (unless public_main=False), and
    every `expect` substring (whitespace collapsed on both sides)."""
    for bad in forbidden:
        assert bad not in text, f"{name}: {bad!r} in module text"
    if public_main:
        assert "func.func public @main(" in text, name
    norm = re.sub(r"\s+", " ", text)
    for e in expect:
        assert re.sub(r"\s+", " ", e) in norm, f"{name}: expected {e!r} in module text"


def check_input_sizes(name, args, limit):
    for a in args:
        assert a.size <= limit, f"{name}: input too large"


# ---------------------------------------------------------------- writing

def store(d, key, arr):
    """d[key] = arr, or its uint16 bits under key + "__bf16" for bfloat16."""
    arr = np.asarray(arr)
    if arr.dtype == BF16:
        d[key + "__bf16"] = arr.view(np.uint16)
    else:
        d[key] = arr


def pack(args, outs, prefix="", d=None):
    """d (a new dict by default) with PREFIXarg{i} and PREFIXout{j} stored."""
    d = {} if d is None else d
    for i, a in enumerate(args):
        store(d, f"{prefix}arg{i}", a)
    for j, o in enumerate(outs):
        store(d, f"{prefix}out{j}", o)
    return d


def write_case(out_dir, name, text, arrays):
    """NAME.mlir and NAME.npz in out_dir; returns their total size in bytes."""
    mlir, npz = os.path.join(out_dir, name + ".mlir"), os.path.join(out_dir, name + ".npz")
    with open(mlir, "w") as f:
        f.write(text)
    np.savez(npz, **arrays)
    return os.path.getsize(mlir) + os.path.getsize(npz)


# ---------------------------------------------------------------- command line

def main(argv, cases, export_case, out_dir, keep_going=False, prune=False):
    """`export.py [NAME ...] [--list]`: export the named cases (all by default) with
    export_case(name). keep_going: report every failing case, then exit non-zero,
    instead of stopping at the first. prune: accept `--prune`, which deletes the
    .mlir/.npz files of cases no longer in `cases`."""
    if "--list" in argv:
        print("\n".join(cases))
        return
    options = {a for a in argv if a.startswith("--")}
    if options - ({"--prune"} if prune else set()):
        sys.exit(f"unknown option(s): {' '.join(sorted(options))}")
    names = [a for a in argv if not a.startswith("--")] or list(cases)
    for n in names:
        if n not in cases:
            sys.exit(f"unknown case {n!r}")
    failed = []
    for n in names:
        if not keep_going:
            export_case(n)
            continue
        try:
            export_case(n)
        except Exception as e:  # report every broken case, not just the first
            failed.append(n)
            print(f"FAILED {n}: {type(e).__name__}: {e}", file=sys.stderr)
    if failed:
        sys.exit(f"{len(failed)} case(s) failed: {' '.join(failed)}")
    if "--prune" in options:
        for f in sorted(os.listdir(out_dir)):
            base, ext = os.path.splitext(f)
            if ext in (".mlir", ".npz") and base not in cases:
                os.remove(os.path.join(out_dir, f))
                print("removed", f)
    print(f"exported {len(names)} cases to {out_dir}")
