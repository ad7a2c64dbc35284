"""stablehlo.fft: FFT and IFFT (complex to complex), RFFT (real to the n/2 + 1 half-spectrum)
and IRFFT (back to real) over the last 1-3 dims, of any length, f32 and f64 parts.

A transform over several dims is one 1-D transform per dim (they are separable), each a pass
from one buffer to the next: the last dim first (RFFT's real-to-complex pass), IRFFT's
complex-to-real pass last; intermediate passes go through complex scratch buffers. The
twiddles w^t = exp(-+2 pi i t / n) come from a table of cos and sin computed once per pass at
their exact angles (indices reduced mod n in integers, so no angle is ever rounded).

A complex pass of a power-of-two length is radix-2 Cooley-Tukey (a bit-reversed copy, then
log2(n) stages of butterflies in place, in the element's precision: O(n log n) work, O(log n)
ulps of error). Any other pass is the DFT by its definition, X[k] = sum_j x[j] w^(jk), summed
in f64 (complex<f32> too): any length, O(n) work per output element (Bluestein's algorithm
for other lengths, and real-input passes at half the work, are future work). IFFT and IRFFT
scale by 1/n per dim, as numpy and XLA do; IRFFT reads the half-spectrum as the Hermitian
full one (X[n - k] = conj(X[k])), ignoring the imaginary parts of X[0] and X[n/2] as they
must be zero.
"""
from __future__ import annotations

import math

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import INDEX, EnumAttr, Operation, ScalarType, TensorType, component, is_complex
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or

TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
F64 = ScalarType("f64")
I1 = ScalarType("i1")


def fft_type(op: Operation) -> str:
    t = op.attrs.get("fft_type", op.attrs.get("type"))
    word = t.value if isinstance(t, EnumAttr) else t
    word = str(word).split()[-1] if word is not None else None
    if word not in TYPES:
        raise ShapeError(f"fft_type must be one of {', '.join(TYPES)}, got {word!r}")
    return word


def fft_lengths(op: Operation) -> tuple:
    lengths = op.attrs.get("fft_length", op.attrs.get("length"))
    try:
        lengths = tuple(int(n) for n in lengths)
    except (TypeError, ValueError):
        raise ShapeError(f"fft_length must be a list of 1 to 3 integers, got {lengths!r}") from None
    if not 1 <= len(lengths) <= 3 or any(n <= 0 for n in lengths):
        raise ShapeError(f"fft_length must be 1 to 3 positive integers, got {list(lengths)}")
    return lengths


def _out_shape(kind: str, shape: tuple, lengths: tuple) -> tuple:
    last = {"RFFT": lengths[-1] // 2 + 1, "IRFFT": lengths[-1]}.get(kind, shape[-1])
    return shape[:-1] + (last,)


def infer_fft(op: Operation):
    if len(op.operands) != 1:
        raise ShapeError("fft takes one operand")
    kind, lengths = fft_type(op), fft_lengths(op)
    t = op.operands[0].type
    m = len(lengths)
    if t.rank < m:
        raise ShapeError(f"fft over {m} dims needs an operand of rank {m} or more, got {t}")
    if kind == "RFFT":
        if t.elem not in ("f32", "f64"):
            raise ShapeError(f"RFFT takes f32 or f64, got {t}")
        out_elem = f"complex<{t.elem}>"
    else:
        if not is_complex(t.elem):
            raise ShapeError(f"{kind} takes complex<f32> or complex<f64>, got {t}")
        out_elem = component(t.elem) if kind == "IRFFT" else t.elem
    want = list(lengths)
    if kind == "IRFFT":
        want[-1] = lengths[-1] // 2 + 1
    for d, n in zip(t.shape[-m:], want):
        if d is not None and d != n:
            raise ShapeError(f"the operand's last {m} dims {list(t.shape[-m:])} do not match "
                             f"fft_length {list(lengths)} for {kind}")
    return [TensorType(_out_shape(kind, t.shape, lengths), out_elem)]


def _fft_rule(hs, op, shapes, bufs):
    kind, lengths = fft_type(op), fft_lengths(op)
    src = list(shapes[0])
    m = len(lengths)
    want = list(lengths)
    if kind == "IRFFT":
        want[-1] = lengths[-1] // 2 + 1
    for i, n in enumerate(want):
        d = len(src) - m + i
        src[d] = hs.require_equal(src[d], n, op, f"dim {d} must be the fft length")
    return [static_or(op.results[0].type.shape, list(_out_shape(kind, tuple(src), lengths)))]


def _complex_shape(op, shapes, results):
    """Shape and type of the intermediate (complex) passes' buffers."""
    kind = fft_type(op)
    if kind == "IRFFT":
        return op.operands[0].type, list(shapes[0])
    return op.results[0].type, list(results[0]) if results else list(shapes[0])


def _fft_scratch(op, shapes, hs=None, results=None):
    """The twiddle table (cos, sin of each angle, f64), and up to two complex buffers for the
    passes between the first and the last."""
    lengths = fft_lengths(op)
    t, shape = _complex_shape(op, shapes, results)
    entries = 2 * max(lengths)  # fft lengths are positive
    table = (TensorType((entries,), "f64"), [entries])
    between = min(len(lengths) - 1, 2)
    return [table] + [(TensorType(t.shape, t.elem), shape)] * between


def _to_f64(s: Scalars, x, elem: str):
    return x if elem == "f64" else s.convert(x, elem, "f64")


def _dft_pass(b, src, dst, axis: int, n: int, inverse: bool, mode: str, table) -> None:
    """One 1-D DFT of length n along `axis`, src to dst. mode: "c2c"; "r2c" (src real, dst the
    first dst-dim frequencies); "c2r" (src the half-spectrum, dst real)."""
    _fill_twiddles(b, n, table)
    if mode == "c2c" and n >= 2 and n & (n - 1) == 0:
        _radix2_pass(b, src, dst, axis, n, inverse, table)
        return
    _direct_pass(b, src, dst, axis, n, inverse, mode, table)


def _fill_twiddles(b, n: int, table) -> None:
    """table[2t], table[2t + 1] = cos, sin of 2 pi t / n: exact angles, rounded once."""
    _, tb, t, _ = b.for_(b.index(0), b.index(n))
    ts, tx = Scalars(tb), Ix(tb)
    angle = ts.v("arith.mulf", [ts.convert(tb.v("arith.index_cast", [t], ScalarType("i64")), "i64", "f64"),
                                tb.const(2 * math.pi / n, "f64")], "f64")
    tb.op("memref.store", [tb.v("math.cos", [angle], F64), table, tx.val(tx.mul(t, 2))])
    tb.op("memref.store", [tb.v("math.sin", [angle], F64), table, tx.val(tx.add(tx.mul(t, 2), 1))])
    tb.yield_([])


def _radix2_pass(b, src, dst, axis: int, n: int, inverse: bool, table) -> None:
    """Cooley-Tukey for a power-of-two n, in the element's own precision: each line copied into
    dst in bit-reversed order, then log2(n) stages of butterflies in place, twiddles from the
    table. Its error grows as O(log n) ulps; the work is O(n log n) per line."""
    elem = dst.type.elem
    part = component(elem)
    bits = n.bit_length() - 1
    ddims = buffer_dims(b, dst)
    others = [d for d in range(len(ddims)) if d != axis]
    with loop_nest(b, [Ix(b).val(ddims[d]) for d in others]) as (body, ivs):
        def at(i):
            idx = list(ivs)
            idx.insert(axis, i)
            return idx
        _, cb, j, _ = body.for_(body.index(0), body.index(n))  # the bit-reversed copy
        rev = cb.index(0)
        for k in range(bits):
            bit = cb.v("arith.andi", [cb.v("arith.shrui", [j, cb.index(k)], INDEX), cb.index(1)],
                       INDEX)
            rev = cb.v("arith.ori", [rev, cb.v("arith.shli", [bit, cb.index(bits - 1 - k)], INDEX)],
                       INDEX)
        cb.op("memref.store", [cb.v("memref.load", [src] + at(j), ScalarType(elem)), dst] + at(rev))
        cb.yield_([])
        for stage in range(1, bits + 1):
            size, half = 1 << stage, 1 << (stage - 1)
            _, gb, g, _ = body.for_(body.index(0), body.index(n // size))
            _, kb, k, _ = gb.for_(gb.index(0), gb.index(half))
            ks, kx = Scalars(kb), Ix(kb)
            turn = kx.mul(k, n // size)
            c = kb.v("memref.load", [table, kx.val(kx.mul(turn, 2))], F64)
            sn = kb.v("memref.load", [table, kx.val(kx.add(kx.mul(turn, 2), 1))], F64)
            if not inverse:
                sn = ks.v("arith.negf", [sn], "f64")
            wr, wi = (ks.convert(v, "f64", part) if part != "f64" else v for v in (c, sn))
            top = kx.add(kx.mul(g, size), k)
            bottom = kx.add(top, half)
            a = kb.v("memref.load", [dst] + at(kx.val(top)), ScalarType(elem))
            z = kb.v("memref.load", [dst] + at(kx.val(bottom)), ScalarType(elem))
            ar, ai = (ks.v(f"complex.{p}", [a], part) for p in ("re", "im"))
            zr, zi = (ks.v(f"complex.{p}", [z], part) for p in ("re", "im"))

            def mul(x, y):
                return ks.v("arith.mulf", [x, y], part)
            tr = ks.v("arith.subf", [mul(zr, wr), mul(zi, wi)], part)  # z * w
            ti = ks.v("arith.addf", [mul(zr, wi), mul(zi, wr)], part)
            for p_idx, sign in ((top, "arith.addf"), (bottom, "arith.subf")):
                out = ks.v("complex.create", [ks.v(sign, [ar, tr], part), ks.v(sign, [ai, ti], part)], elem)
                kb.op("memref.store", [out, dst] + at(kx.val(p_idx)))
            kb.yield_([])
            gb.yield_([])
        if inverse:  # 1/n, exact for a power of two
            _, sb, j, _ = body.for_(body.index(0), body.index(n))
            ss = Scalars(sb)
            v = sb.v("memref.load", [dst] + at(j), ScalarType(elem))
            scale = sb.const(1.0 / n, part)
            parts = [ss.v("arith.mulf", [ss.v(f"complex.{p}", [v], part), scale], part) for p in ("re", "im")]
            sb.op("memref.store", [ss.v("complex.create", parts, elem), dst] + at(j))
            sb.yield_([])


def _direct_pass(b, src, dst, axis: int, n: int, inverse: bool, mode: str, table) -> None:
    """The DFT by its definition, summed in f64: any length, and the real-to-complex and
    complex-to-real passes."""
    src_elem, dst_elem = src.type.elem, dst.type.elem
    part = component(dst_elem) if is_complex(dst_elem) else dst_elem
    ddims = buffer_dims(b, dst)
    others = [d for d in range(len(ddims)) if d != axis]
    scale = 1.0 / n if inverse else 1.0
    with loop_nest(b, [Ix(b).val(ddims[d]) for d in others]) as (body, ivs):
        def at(i):
            idx = list(ivs)
            idx.insert(axis, i)
            return idx
        bx = Ix(body)
        _, kb, k, _ = body.for_(body.index(0), bx.val(ddims[axis]))
        zero = kb.const(0.0, "f64")
        loop, jb, j, (acc_re, acc_im, turn) = kb.for_(kb.index(0), kb.index(n), [zero, zero, kb.index(0)])
        js, jx = Scalars(jb), Ix(jb)
        if mode == "c2r":  # the Hermitian full spectrum from its first n/2 + 1 values
            upper = jx.cmp("sgt", j, n // 2)
            jj = jx.select(upper, jx.sub(n, j), j)
        else:
            jj = j
        x = jb.v("memref.load", [src] + at(jj), ScalarType(src_elem))
        if mode == "r2c":
            xr, xi = _to_f64(js, x, src_elem), zero
        else:
            comp = component(src_elem)
            xr = _to_f64(js, js.v("complex.re", [x], comp), comp)
            xi = _to_f64(js, js.v("complex.im", [x], comp), comp)
            if mode == "c2r":
                xi = js.select(upper, js.v("arith.negf", [xi], "f64"), xi, "f64")
        c = jb.v("memref.load", [table, jx.val(jx.mul(turn, 2))], F64)
        sn = jb.v("memref.load", [table, jx.val(jx.add(jx.mul(turn, 2), 1))], F64)
        if not inverse:  # exp(-i angle)
            sn = js.v("arith.negf", [sn], "f64")
        def mul(a, b):
            return js.v("arith.mulf", [a, b], "f64")
        re = js.v("arith.subf", [mul(xr, c), mul(xi, sn)], "f64")
        im = js.v("arith.addf", [mul(xr, sn), mul(xi, c)], "f64")
        nxt = jx.add(turn, k)
        nxt = jx.select(jx.cmp("sge", nxt, n), jx.sub(nxt, n), nxt)
        jb.yield_([js.v("arith.addf", [acc_re, re], "f64"), js.v("arith.addf", [acc_im, im], "f64"),
                   jx.val(nxt)])
        ks = Scalars(kb)
        out_re, out_im = loop.results[0], loop.results[1]
        if scale != 1.0:
            out_re = ks.v("arith.mulf", [out_re, kb.const(scale, "f64")], "f64")
            out_im = ks.v("arith.mulf", [out_im, kb.const(scale, "f64")], "f64")
        if mode == "c2r":
            value = ks.convert(out_re, "f64", part) if part != "f64" else out_re
        else:
            re_p = ks.convert(out_re, "f64", part) if part != "f64" else out_re
            im_p = ks.convert(out_im, "f64", part) if part != "f64" else out_im
            value = ks.v("complex.create", [re_p, im_p], dst_elem)
        kb.op("memref.store", [value, dst] + at(k))
        kb.yield_([])


def emit_fft(k, op: Operation, b, args: list):
    kind, lengths = fft_type(op), fft_lengths(op)
    n_scratch = op.attrs.get("aot.scratch", 0)
    x, out = args[0], args[1]
    table, between = args[2], list(args[3:2 + n_scratch])
    rank = len(buffer_dims(b, out))
    m = len(lengths)
    axes = list(range(rank - m, rank))
    inverse = kind in ("IFFT", "IRFFT")
    if kind == "IRFFT":  # complex passes over the leading fft dims, then complex to real
        order = [(a, "c2c") for a in axes[:-1]] + [(axes[-1], "c2r")]
    else:  # the last dim first (RFFT: real to complex), then the others
        order = [(axes[-1], "r2c" if kind == "RFFT" else "c2c")] + [(a, "c2c") for a in reversed(axes[:-1])]
    src = x
    for i, (axis, mode) in enumerate(order):
        dst = out if i == len(order) - 1 else between[i % 2]
        _dft_pass(b, src, dst, axis, lengths[axis - (rank - m)], inverse, mode, table)
        src = dst


registry.define("fft", "kernel", "reductions and contractions", arity=1, infer=infer_fft,
                shape_rule=_fft_rule, scratch=_fft_scratch, kernel=emit_fft,
                writes=lambda op: tuple(range(1, len(op.operands))))  # the result, the scratch
registry.accept_complex("fft")
