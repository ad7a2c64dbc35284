"""rng_bit_generator: random bits from a key and a counter, the same bits XLA's CPU and GPU
backends give (so a JAX program's numbers are reproduced exactly).

XLA expands the DEFAULT algorithm to Philox-4x32-10 (xla/hlo/builder/lib/prng.cc): the state
is [key, counter] (or [key, counter low, counter high]), a 128-bit counter whose low word is
the state's second element. Vector j of the output is Philox(counter + j, key), four 32-bit
words; 32-bit (and narrower) outputs take them round-robin in row-major order (element i is
word i % 4 of vector i / 4, truncated when narrower), 64-bit outputs two words each, low
first. The new state is the counter advanced by the vectors used. Philox is counter-based,
so every element is computed on its own (a kernel over the output's elements, computing its
vector's four words and keeping one).

THREE_FRY is XLA's Threefry-2x32 (20 rounds, Salmon et al.) under the key state[0], on
64-bit counters state[1] + i (low word first). A 64-bit output's element i (row-major) is
the pair of words of counter i, low first. 32-bit (and narrower) outputs halve one dim, the
first even one (else the first largest): counter h (row-major over the halved shape) gives
the elements 2h' and 2h' + 1 of that dim, its first word and its second. The new state is
[key, counter + the counters used].

`@stablehlo.dynamic_rng_bit_generator(%state, %shape)` (jax.export, random numbers of a
symbolic shape) is the same op with its output dims read from a shape operand.
"""
from __future__ import annotations

import math

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import Operation, ScalarType, bit_width
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or

ALGORITHMS = ("DEFAULT", "PHILOX", "THREE_FRY")  # DEFAULT is Philox on XLA's CPU and GPU backends
THREE_FRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))  # of the even and odd groups of 4 rounds
PHILOX_M = (0xD2511F53, 0xCD9E8D57)  # round multipliers
PHILOX_W = (0x9E3779B9, 0xBB67AE85)  # key increments per round
OUTPUT_TYPES = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64")


def _algorithm(op: Operation) -> str:
    """`rng_algorithm = #stablehlo<rng_algorithm X>` (generic form), `algorithm = X` (pretty)."""
    a = op.attrs.get("rng_algorithm", op.attrs.get("algorithm"))
    name = getattr(a, "value", a) or "DEFAULT"
    return str(name).split()[-1]


def infer_rng_bit_generator(op: Operation):
    if len(op.operands) not in (1, 2) or len(op.results) != 2:
        raise ShapeError("rng_bit_generator takes a state (and, in its dynamic form, a shape) "
                         "and has two results (new state, bits)")
    algorithm = _algorithm(op)
    if algorithm not in ALGORITHMS:
        raise ShapeError(f"unknown rng_algorithm {algorithm} (DEFAULT, PHILOX or THREE_FRY)")
    state = op.operands[0].type
    if algorithm == "THREE_FRY":
        if state.elem != "ui64" or state.shape != (2,):
            raise ShapeError(f"the Threefry state must be tensor<2xui64>, got {state}")
    elif state.elem != "ui64" or state.shape not in ((2,), (3,)):
        raise ShapeError(f"the Philox state must be tensor<2xui64> or tensor<3xui64>, got {state}")
    out = op.results[1].type
    if out.elem not in OUTPUT_TYPES:
        raise ShapeError(f"cannot generate random bits of {out.elem}")
    if len(op.operands) == 2:
        shape = op.operands[1].type
        if shape.rank != 1 or shape.shape[0] != out.rank or shape.elem not in ("i32", "i64"):
            raise ShapeError(f"the shape operand must be a tensor<{out.rank}xi32> or i64, got {shape}")
    elif not out.is_static:
        raise ShapeError(f"rng_bit_generator's result {out} needs static dims (its dynamic "
                         "form takes a shape operand)")
    return [state, out]


def _rng_dims(hs, op, shapes, bufs):
    bits = op.results[1].type
    if len(op.operands) == 1:
        return [list(op.operands[0].type.shape), list(bits.shape)]
    out = static_or(bits.shape, [hs.load_index(bufs[1], i) for i in range(bits.rank)])
    for d, n in enumerate(out):
        if not isinstance(n, int):
            hs.require("sge", n, 0, op, f"dim {d} of the shape is negative")
    return [list(op.operands[0].type.shape), out]


def _i32(value: int) -> int:
    """A 32-bit pattern as the signed value an i32 constant holds."""
    return value - (1 << 32) if value >= 1 << 31 else value


def philox(s: Scalars, counter: list, key: list) -> list:
    """Philox-4x32-10 of four i32 words under a two-word key."""
    x, k = list(counter), list(key)
    for _ in range(10):
        products = []
        for word, m in ((x[0], PHILOX_M[0]), (x[2], PHILOX_M[1])):
            p = s.v("arith.muli", [s.v("arith.extui", [word], "i64"), s.const(m, "i64")], "i64")
            products.append((s.v("arith.trunci", [s.v("arith.shrui", [p, s.const(32, "i64")], "i64")], "i32"),
                             s.v("arith.trunci", [p], "i32")))
        (hi0, lo0), (hi1, lo1) = products
        x = [s.v("arith.xori", [s.v("arith.xori", [hi1, x[1]], "i32"), k[0]], "i32"), lo1,
             s.v("arith.xori", [s.v("arith.xori", [hi0, x[3]], "i32"), k[1]], "i32"), lo0]
        k = [s.v("arith.addi", [k[i], s.const(_i32(PHILOX_W[i]), "i32")], "i32") for i in (0, 1)]
    return x


def _words(s: Scalars, v64) -> list:
    return [s.v("arith.trunci", [v64], "i32"),
            s.v("arith.trunci", [s.v("arith.shrui", [v64, s.const(32, "i64")], "i64")], "i32")]


def _joined(s: Scalars, low, high):
    """Two i32 words as one i64, the first low."""
    high = s.v("arith.shli", [s.v("arith.extui", [high], "i64"), s.const(32, "i64")], "i64")
    return s.v("arith.ori", [s.v("arith.extui", [low], "i64"), high], "i64")


def threefry(s: Scalars, x: list, key: list) -> list:
    """Threefry-2x32 with 20 rounds of two i32 words under a two-word key."""
    ks = [key[0], key[1], s.v("arith.xori", [s.v("arith.xori", [key[0], key[1]], "i32"),
                                               s.const(0x1BD11BDA, "i32")], "i32")]

    def add(a, c):
        return s.v("arith.addi", [a, c], "i32")
    x = [add(x[0], ks[0]), add(x[1], ks[1])]
    for group in range(5):
        for r in THREE_FRY_ROTATIONS[group % 2]:
            x0 = add(x[0], x[1])
            rot = s.v("arith.ori", [s.v("arith.shli", [x[1], s.const(r, "i32")], "i32"),
                                    s.v("arith.shrui", [x[1], s.const(32 - r, "i32")], "i32")], "i32")
            x = [x0, s.v("arith.xori", [x0, rot], "i32")]
        x = [add(x[0], ks[(group + 1) % 3]), add(add(x[1], ks[(group + 2) % 3]), s.const(group + 1, "i32"))]
    return x


def _split_dim(ix: Ix, dims: list):
    """The dim XLA halves for 32-bit Threefry bits: the first even one, else the first largest
    (an int for static dims, an index value otherwise)."""
    if all(isinstance(n, int) for n in dims):
        even = [d for d, n in enumerate(dims) if n % 2 == 0]
        return even[0] if even else dims.index(max(dims))
    first_even = -1
    for d in reversed(range(len(dims))):
        first_even = ix.select(ix.cmp("eq", ix.rem(dims[d], 2), 0), d, first_even)
    best, largest = dims[0], 0
    for d in range(1, len(dims)):
        bigger = ix.cmp("sgt", dims[d], best)
        best, largest = ix.select(bigger, dims[d], best), ix.select(bigger, d, largest)
    return ix.select(ix.cmp("sge", first_even, 0), first_even, largest)


def _pick(ix: Ix, flag, a, c):
    """a where `flag` (a bool, or an i1 value), else c."""
    if isinstance(flag, bool):
        return a if flag else c
    return ix.select(flag, a, c)


def _store_bits(t: Scalars, inner, value, elem: str, out, ivs) -> None:
    """32- or 64-bit random bits stored as `elem`: truncated when narrower, then bitcast."""
    width = bit_width(elem)
    if width < 32:
        value = t.v("arith.trunci", [value], f"i{width}")
    if elem != f"i{width}":
        value = t.v("arith.bitcast", [value], elem)
    inner.op("memref.store", [value, out] + ivs)


def emit_three_fry(op: Operation, b, args: list):
    state, *_, new_state, out = args
    s, ix = Scalars(b), Ix(b)
    key, base = (s.v("arith.bitcast", [b.v("memref.load", [state, b.index(i)], ScalarType("ui64"))], "i64")
                 for i in (0, 1))
    key_words = _words(s, key)
    wide = bit_width(out.type.elem) == 64
    dims = buffer_dims(b, out)
    split = None if wide or not dims else _split_dim(ix, dims)
    flags = [False if split is None else d == split if isinstance(split, int) else ix.cmp("eq", split, d)
             for d in range(len(dims))]
    halved = [_pick(ix, f, ix.div(ix.add(n, 1), 2), n) for f, n in zip(flags, dims)]
    with loop_nest(b, [ix.val(n) for n in dims]) as (inner, ivs):
        t, tx = Scalars(inner), Ix(inner)
        flat, second = 0, 0
        for n, f, iv in zip(halved, flags, ivs):
            flat = tx.add(tx.mul(flat, n), _pick(tx, f, tx.div(iv, 2), iv))
            second = tx.add(second, _pick(tx, f, tx.rem(iv, 2), 0))
        offset = inner.v("arith.index_cast", [tx.val(flat)], ScalarType("i64"))
        x = threefry(t, _words(t, t.v("arith.addi", [base, offset], "i64")), key_words)
        if wide:
            value = _joined(t, x[0], x[1])
        else:
            value = x[0] if isinstance(second, int) else t.select(tx.cmp("eq", second, 1), x[1], x[0], "i32")
        _store_bits(t, inner, value, out.type.elem, out, ivs)
    used = 1
    for n in halved:
        used = ix.mul(used, n)
    advanced = s.v("arith.addi", [base, b.v("arith.index_cast", [ix.val(used)], ScalarType("i64"))], "i64")
    for i, v in enumerate((key, advanced)):
        b.op("memref.store", [s.v("arith.bitcast", [v], "ui64"), new_state, b.index(i)])


def emit_rng_bit_generator(k, op: Operation, b, args: list):
    if _algorithm(op) == "THREE_FRY":
        return emit_three_fry(op, b, args)
    state, *_, new_state, out = args  # (state, shape if dynamic, new state, bits)
    s = Scalars(b)
    ix = Ix(b)
    loads = [s.v("arith.bitcast", [b.v("memref.load", [state, b.index(i)], ScalarType("ui64"))], "i64")
             for i in range(state.type.shape[0])]
    key, low = loads[0], loads[1]
    high = loads[2] if len(loads) == 3 else loads[0]  # XLA reverses a 2-word state: [counter, key]
    key_words = _words(s, key)
    elem = out.type.elem
    wide = bit_width(elem) == 64
    per_vector = 2 if wide else 4
    dims = buffer_dims(b, out)
    count = math.prod(d for d in dims if isinstance(d, int))
    for d in dims:
        if not isinstance(d, int):
            count = ix.mul(count, d)
    vectors = ix.div(ix.add(count, per_vector - 1), per_vector)

    with loop_nest(b, [ix.val(d) for d in dims]) as (inner, ivs):
        t = Scalars(inner)
        tx = Ix(inner)
        flat = 0
        for d, iv in zip(dims, ivs):
            flat = tx.add(tx.mul(flat, d), iv)
        flat = inner.v("arith.index_cast", [tx.val(flat)], ScalarType("i64"))
        j = t.v("arith.divui", [flat, t.const(per_vector, "i64")], "i64")
        lane = t.v("arith.remui", [flat, t.const(per_vector, "i64")], "i64")
        c = t.v("arith.addi", [low, j], "i64")
        carry = t.v("arith.extui", [t.v("arith.cmpi", [c, low], "i1", predicate="ult")], "i64")
        h = t.v("arith.addi", [high, carry], "i64")
        words = philox(t, _words(t, c) + _words(t, h), key_words)
        if wide:  # two 64-bit numbers per vector: words (0, 1) and (2, 3), low word first
            pairs = [_joined(t, words[2 * p], words[2 * p + 1]) for p in (0, 1)]
            bits, kind = pairs, "i64"
        else:
            bits, kind = words, "i32"
        value = bits[0]
        for n in range(1, per_vector):
            pick = t.v("arith.cmpi", [lane, t.const(n, "i64")], "i1", predicate="eq")
            value = t.v("arith.select", [pick, bits[n], value], kind)
        _store_bits(t, inner, value, elem, out, ivs)

    advanced = s.v("arith.addi", [low, b.v("arith.index_cast", [ix.val(vectors)], ScalarType("i64"))], "i64")
    updated = [key, advanced]
    if len(loads) == 3:
        carry = s.v("arith.extui", [s.v("arith.cmpi", [advanced, low], "i1", predicate="ult")], "i64")
        updated.append(s.v("arith.addi", [high, carry], "i64"))
    for i, v in enumerate(updated):
        b.op("memref.store", [s.v("arith.bitcast", [v], "ui64"), new_state, b.index(i)])


registry.define("rng_bit_generator", "kernel", "random numbers", attrs=(),
                infer=infer_rng_bit_generator, shape_rule=_rng_dims, shape_operands=(1,),
                kernel=emit_rng_bit_generator, writes=lambda op: registry.last_operands(op, 2))
