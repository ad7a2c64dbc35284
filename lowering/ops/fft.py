"""stablehlo.fft: FFT and IFFT (complex to complex), RFFT (real to the n/2 + 1 half-spectrum)
and IRFFT (back to real) over the last 1-3 dims, of any length, f32 and f64 parts.

A transform over several dims is one 1-D transform per dim (they are separable), each a pass
from one buffer to the next: the last dim first (RFFT's real-to-complex pass), IRFFT's
complex-to-real pass last; intermediate passes go through complex scratch buffers. The
twiddles w^t = exp(-+2 pi i t / n) come from a table of cos and sin computed once per pass at
their exact angles (indices reduced mod n in integers, so no angle is ever rounded).

Every pass computes in f64, and a transform of f32 parts keeps its intermediate results in
complex<f64> buffers, so an f32 result is the f64 transform rounded once: within 1 ulp of
each element of numpy's f64 FFT, not only of the largest output. (Passes in f32 with f32
buffers between them were within 1 ulp of the largest output but, on outputs near zero,
160,000 ulps of their own value from XLA's: 14x15x16x17 IRFFT over [15, 16, 32], issue 31.)
A complex<f64> pass of a power-of-two length is radix-2 Cooley-Tukey in place (a
bit-reversed copy, then log2(n) stages of butterflies: O(n log n) work, O(log n) ulps of
error). Other lengths past DIRECT_MAX, and the power-of-two passes of complex<f32> and real
transforms, go line by line through f64 radix-2 transforms of a power-of-two length: the
line itself for a power of two, else Bluestein's chirp-z algorithm, the DFT as a cyclic
convolution of length >= 2n - 1 (O(n log n) work, O(log n) ulps of the largest output,
measured). Short other lengths are the DFT by its definition, X[k] = sum_j x[j] w^(jk),
summed in f64. IFFT and IRFFT scale by 1/n per dim, as numpy and XLA do; IRFFT reads the
half-spectrum as the Hermitian full one (X[n - k] = conj(X[k])), ignoring the imaginary
parts of X[0] and X[n/2] as they must be zero. (Real passes do the complex work of their
length: the half-length packing trick is future work.)
"""
from __future__ import annotations

import math
from contextlib import contextmanager

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import INDEX, EnumAttr, Operation, ScalarType, TensorType, component, is_complex
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or

TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
DIRECT_MAX = 40  # other lengths up to this: the direct DFT is faster than Bluestein (measured)
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


def _line_length(n: int, mode: str, in_place: bool) -> int:
    """The power-of-two length of a pass's f64 line transforms: n itself for a power of two
    (unless the pass is radix-2 in place, `in_place`: complex<f64> in and out), the padded
    convolution of Bluestein's algorithm for other lengths past DIRECT_MAX; 0 where the pass
    needs no line (radix-2 in place, or the direct DFT)."""
    if _is_pow2(n):
        return 0 if (mode == "c2c" and in_place) or n == 1 else n
    return 0 if n <= DIRECT_MAX else 1 << (2 * n - 2).bit_length()


def _passes(kind: str, lengths: tuple) -> list:
    """(index into lengths, mode) of each 1-D pass, in order: the last dim first (RFFT: real
    to complex), IRFFT's complex-to-real pass last."""
    m = len(lengths)
    if kind == "IRFFT":
        return [(i, "c2c") for i in range(m - 1)] + [(m - 1, "c2r")]
    return [(m - 1, "r2c" if kind == "RFFT" else "c2c")] + [(i, "c2c") for i in reversed(range(m - 1))]


def _steps(kind: str, lengths: tuple, src_elem: str, dst_elem: str) -> list:
    """(index into lengths, mode, in place) of each pass: a pass may be radix-2 in place when
    its source and destination are both complex<f64> (the buffers between passes are)."""
    order = _passes(kind, lengths)
    elems = [src_elem] + ["complex<f64>"] * (len(order) - 1) + [dst_elem]
    return [(d, mode, elems[i] == elems[i + 1] == "complex<f64>") for i, (d, mode) in enumerate(order)]


def _fft_scratch(op, shapes, hs=None, results=None):
    """The twiddle table (cos, sin of each angle, f64), up to two complex buffers for the
    passes between the first and the last, and for line transforms a table (the line's
    twiddles, then the chirp) and three complex<f64> lines (two to work in, and the chirp
    filter's transform)."""
    lengths = fft_lengths(op)
    t, shape = _complex_shape(op, shapes, results)
    entries = 2 * max(lengths)  # fft lengths are positive
    table = (TensorType((entries,), "f64"), [entries])
    between = min(len(lengths) - 1, 2)
    scratch = [table] + [(TensorType(t.shape, "complex<f64>"), shape)] * between
    steps = _steps(fft_type(op), lengths, op.operands[0].type.elem, op.results[0].type.elem)
    lines = [(_line_length(lengths[i], mode, in_place), lengths[i]) for i, mode, in_place in steps]
    big = max(m for m, _ in lines)
    if big:
        chirp = max(2 * n for m, n in lines if m)
        scratch += [(TensorType((big + chirp,), "f64"), [big + chirp]),
                    (TensorType((3 * big,), "complex<f64>"), [3 * big])]
    return scratch


def _to_f64(s: Scalars, x, elem: str):
    return x if elem == "f64" else s.convert(x, elem, "f64")


def _is_pow2(n: int) -> bool:
    return n & (n - 1) == 0


def _dft_pass(b, src, dst, axis: int, n: int, inverse: bool, mode: str, table, lines) -> None:
    """One 1-D DFT of length n along `axis`, src to dst. mode: "c2c"; "r2c" (src real, dst the
    first dst-dim frequencies); "c2r" (src the half-spectrum, dst real)."""
    if _line_length(n, mode, src.type.elem == dst.type.elem == "complex<f64>"):
        _line_pass(b, src, dst, axis, n, inverse, mode, *lines)
        return
    _fill_twiddles(b, n, n, table)
    if mode == "c2c" and n >= 2 and _is_pow2(n):
        _radix2_pass(b, src, dst, axis, n, inverse, table)
        return
    _direct_pass(b, src, dst, axis, n, inverse, mode, table)


def _fill_twiddles(b, count: int, n: int, table) -> None:
    """table[2t], table[2t + 1] = cos, sin of 2 pi t / n for t < count: exact angles,
    rounded once."""
    _, tb, t, _ = b.for_(b.index(0), b.index(count))
    ts, tx = Scalars(tb), Ix(tb)
    angle = ts.v("arith.mulf", [ts.convert(tb.v("arith.index_cast", [t], ScalarType("i64")), "i64", "f64"),
                                tb.const(2 * math.pi / n, "f64")], "f64")
    tb.op("memref.store", [tb.v("math.cos", [angle], F64), table, tx.val(tx.mul(t, 2))])
    tb.op("memref.store", [tb.v("math.sin", [angle], F64), table, tx.val(tx.add(tx.mul(t, 2), 1))])
    tb.yield_([])


def _bit_reversed(b, j, bits: int):
    """j's low `bits` bits in reverse order (an index value)."""
    rev = b.index(0)
    for k in range(bits):
        bit = b.v("arith.andi", [b.v("arith.shrui", [j, b.index(k)], INDEX), b.index(1)], INDEX)
        rev = b.v("arith.ori", [rev, b.v("arith.shli", [bit, b.index(bits - 1 - k)], INDEX)], INDEX)
    return rev


def _butterflies(body, at, elem: str, n: int, inverse: bool, table) -> None:
    """log2(n) stages of radix-2 butterflies in place over the n elements at(0..n-1) (given in
    bit-reversed order, left in natural order; at(builder, i) is the buffer and indices of
    element i), in `elem`'s precision; the twiddle of turn t is table[2t] and the next (cos
    and sin of 2 pi t / n, f64). No 1/n scaling."""
    part = component(elem)
    for stage in range(1, n.bit_length()):
        size, half = 1 << stage, 1 << (stage - 1)
        _, gb, g, _ = body.for_(body.index(0), body.index(n // size))
        _, kb, k, _ = gb.for_(gb.index(0), gb.index(half))
        ks, kx = Scalars(kb), Ix(kb)
        turn = kx.mul(kx.mul(k, n // size), 2)
        c = kb.v("memref.load", [table, kx.val(turn)], F64)
        sn = kb.v("memref.load", [table, kx.val(kx.add(turn, 1))], F64)
        if not inverse:
            sn = ks.v("arith.negf", [sn], "f64")
        wr, wi = (ks.convert(v, "f64", part) if part != "f64" else v for v in (c, sn))
        top = kx.add(kx.mul(g, size), k)
        bottom = kx.add(top, half)
        a = kb.v("memref.load", at(kb, top), ScalarType(elem))
        z = kb.v("memref.load", at(kb, bottom), ScalarType(elem))
        ar, ai = (ks.v(f"complex.{p}", [a], part) for p in ("re", "im"))
        zr, zi = (ks.v(f"complex.{p}", [z], part) for p in ("re", "im"))

        def mul(x, y):
            return ks.v("arith.mulf", [x, y], part)
        tr = ks.v("arith.subf", [mul(zr, wr), mul(zi, wi)], part)  # z * w
        ti = ks.v("arith.addf", [mul(zr, wi), mul(zi, wr)], part)
        for p_idx, sign in ((top, "arith.addf"), (bottom, "arith.subf")):
            out = ks.v("complex.create", [ks.v(sign, [ar, tr], part), ks.v(sign, [ai, ti], part)], elem)
            kb.op("memref.store", [out] + at(kb, p_idx))
        kb.yield_([])
        gb.yield_([])


@contextmanager
def _lines(b, buf, axis: int):
    """A loop over every line of `buf` along `axis`: yields (the loop body's builder,
    at(i): the index of element i of the current line, the buffer's dims)."""
    dims = buffer_dims(b, buf)
    others = [d for d in range(len(dims)) if d != axis]
    with loop_nest(b, [Ix(b).val(dims[d]) for d in others]) as (body, ivs):
        def at(i):
            idx = list(ivs)
            idx.insert(axis, i)
            return idx
        yield body, at, dims


def _radix2_pass(b, src, dst, axis: int, n: int, inverse: bool, table) -> None:
    """Cooley-Tukey for a power-of-two n, in the element's precision: each line copied into
    dst in bit-reversed order, then log2(n) stages of butterflies in place, twiddles from the
    table. Its error grows as O(log n) ulps; the work is O(n log n) per line."""
    elem = dst.type.elem
    part = component(elem)
    with _lines(b, dst, axis) as (body, at, ddims):
        _, cb, j, _ = body.for_(body.index(0), body.index(n))  # the bit-reversed copy
        rev = _bit_reversed(cb, j, n.bit_length() - 1)
        cb.op("memref.store", [cb.v("memref.load", [src] + at(j), ScalarType(elem)), dst] + at(rev))
        cb.yield_([])
        _butterflies(body, lambda bb, i: [dst] + at(Ix(bb).val(i)), elem, n, inverse, table)
        if inverse:  # 1/n, exact for a power of two
            _, sb, j, _ = body.for_(body.index(0), body.index(n))
            ss = Scalars(sb)
            v = sb.v("memref.load", [dst] + at(j), ScalarType(elem))
            scale = sb.const(1.0 / n, part)
            parts = [ss.v("arith.mulf", [ss.v(f"complex.{p}", [v], part), scale], part) for p in ("re", "im")]
            sb.op("memref.store", [ss.v("complex.create", parts, elem), dst] + at(j))
            sb.yield_([])


def _cmul64(s: Scalars, ar, ai, br, bi) -> tuple:
    """(ar + ai i)(br + bi i) in f64, as parts."""
    def mul(x, y):
        return s.v("arith.mulf", [x, y], "f64")
    return (s.v("arith.subf", [mul(ar, br), mul(ai, bi)], "f64"),
            s.v("arith.addf", [mul(ar, bi), mul(ai, br)], "f64"))


def _fill_line_tables(b, n: int, size: int, table, chirp: bool) -> None:
    """The line's twiddles (cos, sin of 2 pi t / size at table[2t], t < size/2) and, for
    Bluestein, the chirp's angles pi (j^2 mod 2n) / n at table[size + 2j], j < n: j^2 reduced
    in integers, so each angle is exact before its one rounding, however large n."""
    _fill_twiddles(b, size // 2, size, table)
    if not chirp:
        return
    _, cb, j, _ = b.for_(b.index(0), b.index(n))
    cs, cx = Scalars(cb), Ix(cb)
    j64 = cb.v("arith.index_cast", [j], ScalarType("i64"))
    turn = cs.v("arith.remui", [cs.v("arith.muli", [j64, j64], "i64"), cs.const(2 * n, "i64")], "i64")
    angle = cs.v("arith.mulf", [cs.convert(turn, "i64", "f64"), cb.const(math.pi / n, "f64")], "f64")
    at = cx.add(cx.mul(j, 2), size)
    cb.op("memref.store", [cb.v("math.cos", [angle], F64), table, cx.val(at)])
    cb.op("memref.store", [cb.v("math.sin", [angle], F64), table, cx.val(cx.add(at, 1))])
    cb.yield_([])


def _line_pass(b, src, dst, axis: int, n: int, inverse: bool, mode: str, table, work) -> None:
    """A pass through f64 lines of a power-of-two length M (complex<f32> too, so the error
    stays O(log n) ulps of the largest output): each line loaded (a real or half-spectrum
    line made complex), transformed by radix-2 and stored (its first n/2 + 1 values, or its
    real parts). A power-of-two n is its own line; any other n is Bluestein's chirp-z
    algorithm: with c[j] = exp(-+i pi j^2 / n), X[k] = c[k] sum_j (x[j] c[j]) conj(c[k-j]),
    a cyclic convolution of length M >= 2n - 1 done as two radix-2 transforms and a product
    with the chirp's transform (made once per pass): O(M log M) work per line instead of
    the direct DFT's n^2. The lines live in one scratch buffer, so lines run one at a time."""
    size = _line_length(n, mode, False)
    bluestein = size != n
    bits = size.bit_length() - 1
    first, second, filt = 0, size, 2 * size  # offsets in `work`: two lines, the chirp's transform
    src_elem, dst_elem = src.type.elem, dst.type.elem
    part = component(dst_elem) if is_complex(dst_elem) else dst_elem
    c128 = ScalarType("complex<f64>")
    _fill_line_tables(b, n, size, table, bluestein)

    def at(offset):
        return lambda bb, i: [work, Ix(bb).val(Ix(bb).add(i, offset))]

    def put(bb, offset, i, re, im):
        bb.op("memref.store", [bb.v("complex.create", [re, im], c128)] + at(offset)(bb, i))

    def get(bb, offset, i):
        v = bb.v("memref.load", at(offset)(bb, i), c128)
        return bb.v("complex.re", [v], F64), bb.v("complex.im", [v], F64)

    def chirp(bb, j):
        """exp(-+i pi j^2 / n) as f64 parts, from the table."""
        x = Ix(bb)
        k = x.add(x.mul(j, 2), size)
        c = bb.v("memref.load", [table, x.val(k)], F64)
        sn = bb.v("memref.load", [table, x.val(x.add(k, 1))], F64)
        return c, (sn if inverse else Scalars(bb).v("arith.negf", [sn], "f64"))

    def zero(bb, offset):
        _, zb, i, _ = bb.for_(bb.index(0), bb.index(size))
        put(zb, offset, i, zb.const(0.0, "f64"), zb.const(0.0, "f64"))
        zb.yield_([])

    if bluestein:  # the filter conj(c[m]) at m and at size - m, transformed once per pass
        zero(b, filt)
        _, fb, m, _ = b.for_(b.index(0), b.index(n))
        fx = Ix(fb)
        c, sn = chirp(fb, m)
        neg = Scalars(fb).v("arith.negf", [sn], "f64")
        put(fb, filt, _bit_reversed(fb, m, bits), c, neg)
        mirror = fx.select(fx.cmp("eq", m, 0), 0, fx.sub(size, m))
        put(fb, filt, _bit_reversed(fb, mirror, bits), c, neg)
        fb.yield_([])
        _butterflies(b, at(filt), "complex<f64>", size, inverse, table)

    with _lines(b, dst, axis) as (body, line, ddims):
        if bluestein:
            zero(body, first)
        _, lb, j, _ = body.for_(body.index(0), body.index(n))  # load, bit-reversed
        ls, lx = Scalars(lb), Ix(lb)
        if mode == "c2r":  # the Hermitian full spectrum from its first n/2 + 1 values
            upper = lx.cmp("sgt", j, n // 2)
            x = lb.v("memref.load", [src] + line(lx.select(upper, lx.sub(n, j), j)), ScalarType(src_elem))
        else:
            x = lb.v("memref.load", [src] + line(j), ScalarType(src_elem))
        if mode == "r2c":
            xr, xi = _to_f64(ls, x, src_elem), lb.const(0.0, "f64")
        else:
            comp = component(src_elem)
            xr, xi = (_to_f64(ls, ls.v(f"complex.{p}", [x], comp), comp) for p in ("re", "im"))
            if mode == "c2r":
                xi = ls.select(upper, ls.v("arith.negf", [xi], "f64"), xi, "f64")
        if bluestein:
            xr, xi = _cmul64(ls, xr, xi, *chirp(lb, j))
        put(lb, first, _bit_reversed(lb, j, bits), xr, xi)
        lb.yield_([])
        _butterflies(body, at(first), "complex<f64>", size, inverse, table)
        result, scale = first, 1.0 / n if inverse else 1.0
        if bluestein:  # times the filter's transform, back (bit-reversed) to the second line
            _, pb, k, _ = body.for_(body.index(0), body.index(size))
            ps = Scalars(pb)
            put(pb, second, _bit_reversed(pb, k, bits), *_cmul64(ps, *get(pb, first, k), *get(pb, filt, k)))
            pb.yield_([])
            _butterflies(body, at(second), "complex<f64>", size, not inverse, table)
            result, scale = second, scale / size
        bx = Ix(body)
        count = bx.val(ddims[axis]) if mode != "c2r" else body.index(n)
        _, sb, k, _ = body.for_(body.index(0), count)  # store
        ss = Scalars(sb)
        re, im = get(sb, result, k)
        if bluestein:
            re, im = _cmul64(ss, re, im, *chirp(sb, k))
        if scale != 1.0:
            re, im = (ss.v("arith.mulf", [v, sb.const(scale, "f64")], "f64") for v in (re, im))
        if part != "f64":
            re, im = (ss.convert(v, "f64", part) for v in (re, im))
        value = re if mode == "c2r" else ss.v("complex.create", [re, im], dst_elem)
        sb.op("memref.store", [value, dst] + line(k))
        sb.yield_([])


def _direct_pass(b, src, dst, axis: int, n: int, inverse: bool, mode: str, table) -> None:
    """The DFT by its definition, summed in f64: any length, and the real-to-complex and
    complex-to-real passes."""
    src_elem, dst_elem = src.type.elem, dst.type.elem
    part = component(dst_elem) if is_complex(dst_elem) else dst_elem
    scale = 1.0 / n if inverse else 1.0
    with _lines(b, dst, axis) as (body, at, ddims):
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
    x, out, table = args[0], args[1], args[2]
    m = len(lengths)
    between = list(args[3:3 + min(m - 1, 2)])
    lines = args[3 + len(between):5 + len(between)]
    rank = len(buffer_dims(b, out))
    inverse = kind in ("IFFT", "IRFFT")
    order = _passes(kind, lengths)
    src = x
    for i, (d, mode) in enumerate(order):
        dst = out if i == len(order) - 1 else between[i % 2]
        _dft_pass(b, src, dst, rank - m + d, lengths[d], inverse, mode, table, lines)
        src = dst


registry.define("fft", "kernel", "reductions and contractions", arity=1, infer=infer_fft,
                shape_rule=_fft_rule, scratch=_fft_scratch, kernel=emit_fft,
                writes=lambda op: tuple(range(1, len(op.operands))))  # the result, the scratch
registry.accept_complex("fft")
