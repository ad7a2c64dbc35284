"""Attention as one kernel: softmax(q k^T * scale) v, per block of queries, nothing materialised.

Run as three kernels (q k^T, the row softmax, p v) attention writes its [s, s] scores and
probabilities to memory and reads them back twice, and the softmax walks each row three times
(max, exp and sum, divide). Here (passes/attention.py makes the fusion, `emit_attention` its
`aot.attention` op) each task takes one batch index (e.g. one head) and a range of its queries:

- It packs k as the NR-column panels of k^T (gemm's transposing pack) and v as NR-column
  panels (row-major pack), once for every task of the same batch index it runs in a row.
- For each block of QUERY_PANELS x MR queries, the scores S = q k^T go into a block in the
  thread's scratch (L1/L2): each k^T panel stays in L1 while the block's q panels (read in
  place, gemm's "b" micro-kernel) go by.
- Each row of S (SOFTMAX_ROWS side by side): its max, then e = exp(s * scale - max), stored
  in place, and its sum; the exp is fastmath's polynomial on vectors of the row (bounded
  above by 0: the short scaling).
- O = E v by the same micro-kernel (E's rows in place, v's panels packed; keys in KC blocks),
  straight into the output, whose rows are then multiplied by 1 / sum: the division of the
  softmax moves from s x s probabilities to s x dv outputs.
- A task of at most FEW_QUERIES queries (a decoding step) packs nothing: gemm's few-row
  kernels read k and v in place, FEW_ROWS_GROUP queries at a time.
- Causal (slot `causal` = c: query i reads keys j <= i + c; c = sk when nothing is masked):
  a block of queries computes, packs and multiplies only the keys its last query reads, and
  the scores past each row's diagonal within them are set to -inf before the softmax (exp 0):
  the key blocks past the diagonal are never touched, half the work at long sequences.
- Slot `safe` (PyTorch's safe softmax): a row whose scores are all -inf gives zeros (its
  exps taken against 0 instead of -inf are all 0, and a sum of 0 gives a reciprocal of 0).
- Slot `bias` (an additive mask or position bias, e.g. BERT's padding mask of 0 and the
  float's minimum): each computed row of scores becomes s * scale + bias, the same two
  roundings as the ops it replaces, before the softmax (which then scales by 1). Batch index
  bi = (b, h) reads bias + b * bias_sb + h * bias_sh (h = bi % bias_heads), query i its row i
  * bias_sq, key j its element j * bias_sk: a stride of 0 is a broadcast dim. With slot
  `mask` = 1 + v the bias is a boolean mask (a byte each): s * scale where it is v, else
  `fill` (its bits as a double), as jnp.where(mask, s, fill) gives.

The products round as the packed matmul's do; e / sum becomes (e v) / sum, a few ulps from the
three-kernel result (tests/codegen/test_attention.py checks against numpy)."""
from __future__ import annotations

from llvmlite import ir

from lowering.codegen.cpu import gemm
from lowering.codegen.cpu.gemm import _ceil_div, _ceil_div_v, _for, _i, _max, _min, _splat
from lowering.codegen.llvm import fastmath
from lowering.ir.core import Operation, ScalarType
from lowering.ops import registry

I1, I32, I64, PTR, VOID = ir.IntType(1), ir.IntType(32), ir.IntType(64), ir.PointerType(), ir.VoidType()

# Queries per block, in register-tile panels: each k^T panel is read from L2 once per block
# and reused by its panels from L1; the block's scores (QUERY_PANELS * MR rows of s keys) stay
# in L1/L2 for the softmax and the second product.
QUERY_PANELS = 4
# Elements past the last k^T panel in each row of the scores block: rows 1 KB apart (256
# keys) put the E panel's rows and the v panel the second product reads in the same few L1
# sets (4 KB aliasing); a row stride one cache line longer spreads them.
SCORES_PAD = 16
# A task with at most this many queries reads k and v in place by the few-row kernels
# (decoding: one query against a long cache): packing them costs a pass over each that so
# few queries cannot pay back (one query, 2048 keys, 8 heads: 2.6x the three kernels' time).
FEW_QUERIES = gemm.FEW_ROWS_MAX
# Rows the softmax takes side by side (independent exp chains in flight, and the rows'
# reductions overlapped). 1, 2, 3 and 4 measured within noise of each other (one core, load
# 5: b8 h8 s256 0.82-0.87 of the three kernels' time, 4 x 8 heads at s64 1.00-1.10).
SOFTMAX_ROWS = 2
# The task context: i64 slots (pointers as integers; the scale as the bits of a double).
SLOTS = ("batch", "sq", "sk", "d", "dv", "q", "k", "v", "out", "scale", "causal", "safe",
         "chunks", "chunk_rows", "bias", "bias_heads", "bias_sb", "bias_sh", "bias_sq", "bias_sk",
         "mask", "fill")


class _VectorOps:
    """The loop-stage op spellings fastmath's Ops emits, as llvmlite vector (or scalar)
    instructions: so its exp runs on a row's vectors in a kernel written in LLVM IR."""

    TYPES = {"f32": ir.FloatType(), "f64": ir.DoubleType(), "i32": I32, "i64": I64, "i1": I1}
    BINARY = {"arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul", "arith.divf": "fdiv",
              "arith.addi": "add", "arith.subi": "sub", "arith.andi": "and_", "arith.ori": "or_",
              "arith.shli": "shl", "arith.shrui": "lshr", "arith.shrsi": "ashr"}
    FCMP = {"olt": "<", "ogt": ">", "ole": "<=", "oge": ">=", "oeq": "==", "one": "!="}
    ICMP = {"slt": "<", "sgt": ">", "sle": "<=", "sge": ">=", "eq": "==", "ne": "!="}

    def __init__(self, builder: ir.IRBuilder, lanes: int):
        self.ir, self.lanes, self.b = builder, lanes, self

    def type(self, name: str) -> ir.Type:
        t = self.TYPES[name]
        return ir.VectorType(t, self.lanes) if self.lanes > 1 else t

    def const(self, value, elem: str):
        t = self.TYPES[elem]
        c = ir.Constant(t, value if elem in ("f32", "f64") else int(value))
        return ir.Constant(ir.VectorType(t, self.lanes), [c] * self.lanes) if self.lanes > 1 else c

    def v(self, name: str, args: list, t: ScalarType, **attrs):
        b = self.ir
        if name in self.BINARY:
            flags = (attrs["fastmath"],) if "fastmath" in attrs and name.endswith("f") else ()
            method = getattr(b, self.BINARY[name])
            return method(*args, flags=flags) if flags else method(*args)
        if name == "arith.cmpf":
            return b.fcmp_ordered(self.FCMP[attrs["predicate"]], *args)
        if name == "arith.cmpi":
            return b.icmp_signed(self.ICMP[attrs["predicate"]], *args)
        if name == "arith.select":
            return b.select(*args)
        if name == "arith.bitcast":
            return b.bitcast(args[0], self.type(t.name))
        raise NotImplementedError(f"attention's vector ops have no {name}")


def _exp_nonpositive(b: ir.IRBuilder, x, elem: str, lanes: int):
    """exp(x) for x <= 0 (a softmax's s - max s), fastmath's polynomial on `lanes` lanes."""
    return fastmath.exp(fastmath.Ops(_VectorOps(b, lanes), elem), x, rng=(float("-inf"), 0.0))


class _Attention:
    """Emits one element type's attention kernel (entry, task, row softmax) into a module,
    with the packed matmul's micro-kernels and packs (gemm._Emitter) under its own name."""

    def __init__(self, mod, elem, t, blocking, name):
        self.g = gemm._Emitter(mod, elem, t, name, blocking)
        self.mod, self.elem, self.t, self.name = mod, elem, t, name
        self.vec, self.mr, self.nr, self.kc = blocking.vec, blocking.mr, blocking.nr, blocking.kc
        self.vt = ir.VectorType(t, self.vec)
        self.size = 8 if elem == "f64" else 4
        self.block = QUERY_PANELS * self.mr

    def fn(self, suffix, ftype):
        return self.g.fn(suffix, ftype)

    def at(self, b, base, offset):
        return self.g.at(b, base, offset)

    # ------------------------------------------------------------------ one row's softmax
    def scaled_less(self, b, x, scale, minus_peak):
        """x * scale - peak in one multiply-add (fused where the target has FMA): the same
        bits as the product then the difference when the scale is a power of two (1/sqrt(64),
        the product exact), one rounding fewer otherwise."""
        name = f"llvm.fmuladd.{'v%d' % self.vec if isinstance(x.type, ir.VectorType) else ''}{self.elem}"
        f = self.mod.globals.get(name) or ir.Function(self.mod, ir.FunctionType(x.type, [x.type] * 3),
                                                      name=name)
        return b.call(f, [x, scale, minus_peak])

    def softmax_row(self, count: int):
        """void row_softmax{count}(row, stride, n, scale, sums, safe): for `count` rows
        (stride elements apart) row[j] = exp(row[j] * scale - max) for j < n, max over the
        scaled row (0 for a row of -inf when `safe`), and sums[r] = the row's sum of exps
        (NaN in, NaN out, as the three-op form gives). The rows go side by side, a vector
        of each at a time: one exp is a chain of ~20 dependent ops, and a row at a time left
        the core waiting on it (and on each row's reductions, at every row of a short
        sequence)."""
        t, vt, vec = self.t, self.vt, self.vec
        f = self.fn(f"row_softmax{count}", ir.FunctionType(VOID, [PTR, I64, I64, t, PTR, I1]))
        base, stride, n, scale, out, safe = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))
        ninf = ir.Constant(t, float("-inf"))
        n_vec = b.mul(b.sdiv(n, _i(vec)), _i(vec))
        rows = [self.at(b, base, b.mul(_i(r), stride)) for r in range(count)]
        accs = [b.alloca(vt) for _ in rows]
        tops = [b.alloca(t) for _ in rows]

        def splat(x):
            return _splat(b, x, vt)

        def vmax(x, y):  # x > y ? x : y; a NaN score makes every exp NaN below anyway
            return b.select(b.fcmp_ordered(">", x, y), x, y)
        # the max of the raw row, then scaled: x -> x * scale is monotonic for scale > 0, so
        # the max of the scaled row is the scaled max, the same bits
        for acc in accs:
            b.store(ir.Constant(vt, [ninf] * vec), acc)
        with _for(b, _i(0), b.sdiv(n_vec, _i(vec)), "smx") as j:
            for row, acc in zip(rows, accs):
                x = b.load(b.bitcast(self.at(b, row, b.mul(j, _i(vec))), vt.as_pointer()), typ=vt,
                           align=self.size)
                b.store(vmax(x, b.load(acc)), acc)
        for row, acc, top in zip(rows, accs, tops):
            lanes, width = b.load(acc), vec
            while width > 1:  # halves folded onto each other: log2(VEC) steps
                width //= 2
                mask = [i + width if i < width else i for i in range(vec)]
                lanes = vmax(lanes, b.shuffle_vector(lanes, ir.Constant(vt, ir.Undefined),
                                                     ir.Constant(ir.VectorType(I32, vec), mask)))
            b.store(b.extract_element(lanes, _i(0)), top)
            with _for(b, n_vec, n, "smt", scalar=True) as j:
                b.store(vmax(b.load(self.at(b, row, j), typ=t), b.load(top)), top)
        minus = [b.select(b.and_(safe, b.fcmp_ordered("==", b.load(top), ninf)), ir.Constant(t, 0.0),
                          b.fneg(b.fmul(b.load(top), scale))) for top in tops]
        vminus, vscale = [splat(x) for x in minus], splat(scale)
        for acc in accs:
            b.store(ir.Constant(vt, None), acc)
        with _for(b, _i(0), b.sdiv(n_vec, _i(vec)), "sme") as j:
            for row, acc, vm in zip(rows, accs, vminus):
                p = b.bitcast(self.at(b, row, b.mul(j, _i(vec))), vt.as_pointer())
                e = _exp_nonpositive(b, self.scaled_less(b, b.load(p, typ=vt, align=self.size),
                                                         vscale, vm), self.elem, vec)
                b.store(e, p, align=self.size)
                b.store(b.fadd(b.load(acc), e), acc)
        for r, (row, acc, m) in enumerate(zip(rows, accs, minus)):
            total = tops[r]  # reused: the row's sum from here on
            b.store(gemm._pairwise_sum(b, b.load(acc), vec), total)
            with _for(b, n_vec, n, "smu", scalar=True) as j:
                p = self.at(b, row, j)
                e = _exp_nonpositive(b, self.scaled_less(b, b.load(p, typ=t), scale, m), self.elem, 1)
                b.store(e, p)
                b.store(b.fadd(b.load(total), e), total)
            b.store(b.load(total), self.at(b, out, _i(r)))
        b.ret_void()
        return f

    def row_pass(self, suffix, other_t, extra_types, combine):
        """void NAME.suffix(row, other, n, scale, stride, extras...): row[j] = combine(row[j]
        * scale, other[j * stride], extras) for j < n, on vectors where other's row is
        contiguous (combine gets vectors then, scalars in the tail)."""
        t, vt, vec = self.t, self.vt, self.vec
        f = self.fn(suffix, ir.FunctionType(VOID, [PTR, PTR, I64, t, I64] + extra_types))
        row, other, n, scale, stride, *extras = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))
        ov, align = ir.VectorType(other_t, vec), (self.size if other_t == t else 1)
        vscale = _splat(b, scale, vt)
        vextras = [_splat(b, x, ir.VectorType(x.type, vec)) for x in extras]
        n_vec = b.select(b.icmp_signed("==", stride, _i(1)), b.mul(b.sdiv(n, _i(vec)), _i(vec)), _i(0))
        with _for(b, _i(0), b.sdiv(n_vec, _i(vec)), "rv") as j:
            p = b.bitcast(self.at(b, row, b.mul(j, _i(vec))), vt.as_pointer())
            x = b.load(b.bitcast(b.gep(other, [b.mul(j, _i(vec))], source_etype=other_t),
                                 ov.as_pointer()), typ=ov, align=align)
            scaled = b.fmul(b.load(p, typ=vt, align=self.size), vscale)
            b.store(combine(b, scaled, x, vextras), p, align=self.size)
        with _for(b, n_vec, n, "rs", scalar=True) as j:
            p = self.at(b, row, j)
            x = b.load(b.gep(other, [b.mul(j, stride)], source_etype=other_t), typ=other_t)
            b.store(combine(b, b.fmul(b.load(p, typ=t), scale), x, extras), p)
        b.ret_void()
        return f

    def row_bias(self):
        """void row_bias(row, bias, n, scale, stride): row[j] = row[j] * scale + bias[j *
        stride], a multiply then an add (two roundings, as the scaled scores plus the bias
        give them)."""
        return self.row_pass("row_bias", self.t, [], lambda b, scaled, x, _: b.fadd(scaled, x))

    def row_mask(self):
        """void row_mask(row, mask, n, scale, stride, keep_if, fill): row[j] = row[j] * scale
        where the byte mask[j * stride] (as 0 or 1) is keep_if, else fill."""
        i8 = ir.IntType(8)

        def combine(b, scaled, m, extras):
            keep_if, fill = extras
            one = ir.Constant(m.type, [1] * m.type.count) if isinstance(m.type, ir.VectorType) \
                else ir.Constant(i8, 1)
            return b.select(b.icmp_unsigned("==", b.and_(m, one), keep_if), scaled, fill)
        return self.row_pass("row_mask", i8, [i8, self.t], combine)

    def add_bias(self, b, bias, scores, s_row, i0, rows, keys, scale):
        """Rows [i0, i0 + rows) of the scores block, keys [0, keys), scaled and biased (or
        masked) in place, when the kernel has a bias (bias = (has, the batch index's base,
        sq, sk, mask slot, fill))."""
        has, base, sq_stride, sk_stride, mask, fill = bias
        with b.if_then(has):
            with b.if_else(b.icmp_signed("==", mask, _i(0))) as (additive, masked):
                with additive:
                    with _for(b, _i(0), rows, "br") as r:
                        b.call(self.row_bias_fn, [self.at(b, scores, b.mul(r, s_row)),
                                                 self.at(b, base, b.mul(b.add(i0, r), sq_stride)),
                                                 keys, scale, sk_stride])
                with masked:
                    keep_if = b.trunc(b.sub(mask, _i(1)), ir.IntType(8))
                    with _for(b, _i(0), rows, "bm") as r:
                        b.call(self.row_mask_fn, [self.at(b, scores, b.mul(r, s_row)),
                                                 b.gep(base, [b.mul(b.add(i0, r), sq_stride)],
                                                       source_etype=ir.IntType(8)),
                                                 keys, scale, sk_stride, keep_if, fill])

    # ------------------------------------------------------------------ task
    def task(self):
        """void task(ctx, begin, end): tiles [begin, end), tile = batch index x query chunk."""
        g, t, nr = self.g, self.t, self.nr
        f = self.fn("task", ir.FunctionType(VOID, [PTR, I64, I64]))
        ctx, begin, end = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))
        s = gemm.load_slots(b, ctx, SLOTS)
        sq, sk, d, dv = s["sq"], s["sk"], s["d"], s["dv"]
        safe = b.icmp_signed("!=", s["safe"], _i(0))
        scale = b.bitcast(s["scale"], ir.DoubleType())
        scale = b.fptrunc(scale, t) if self.elem == "f32" else scale
        has_bias = b.icmp_signed("!=", s["bias"], _i(0))
        # with a bias the rows are scaled when it is added; the softmax then scales by 1
        soft_scale = b.select(has_bias, ir.Constant(t, 1.0), scale)
        fill = b.bitcast(s["fill"], ir.DoubleType())
        fill = b.fptrunc(fill, t) if self.elem == "f32" else fill
        q, k, v, out = (b.inttoptr(s[x], PTR) for x in ("q", "k", "v", "out"))
        sk_pad = b.mul(_ceil_div(b, sk, nr), _i(nr))
        dv_pad = b.mul(_ceil_div(b, dv, nr), _i(nr))
        k_elems, v_elems = b.mul(sk_pad, d), b.mul(dv_pad, sk)
        s_row = b.add(sk_pad, _i(SCORES_PAD))  # a scores row's stride
        s_elems = b.mul(_i(self.block), s_row)
        total = b.mul(b.add(b.add(k_elems, v_elems), s_elems), _i(self.size))
        scratch = b.call(gemm.thread_scratch(self.mod), [total])
        own = b.icmp_unsigned("==", scratch, ir.Constant(PTR, None))
        alloc = self.mod.globals.get("aligned_alloc") or ir.Function(
            self.mod, ir.FunctionType(PTR, [I64, I64]), name="aligned_alloc")
        free = self.mod.globals.get("free") or ir.Function(
            self.mod, ir.FunctionType(VOID, [PTR]), name="free")
        work, packed_for, inv = b.alloca(PTR), b.alloca(I64), b.alloca(t, size=_i(self.block))
        packed_keys = b.alloca(I64)
        b.store(scratch, work)
        with b.if_then(own):  # AOT_KERNEL_SCRATCH=off: a buffer of the task's own, aligned
            mem = b.call(alloc, [_i(64), b.mul(_ceil_div(b, _max(b, total, _i(1)), 64), _i(64))])
            with b.if_then(b.icmp_unsigned("==", mem, ir.Constant(PTR, None))):
                trap = self.mod.globals.get("llvm.trap") or ir.Function(
                    self.mod, ir.FunctionType(VOID, []), name="llvm.trap")
                b.call(trap, [])
            b.store(mem, work)
        base = b.load(work)
        k_pack = base
        v_pack = self.at(b, base, k_elems)
        scores = self.at(b, base, b.add(k_elems, v_elems))
        row_softmax = {count: self.softmax_row(count) for count in sorted({1, SOFTMAX_ROWS})}
        self.row_bias_fn, self.row_mask_fn = self.row_bias(), self.row_mask()
        micros = g.micro_kernels(packed="b", variants=gemm.MATMUL_ROW_VARIANTS)
        b.store(_i(-1), packed_for)
        with _for(b, begin, end, "tile") as tile:
            bi = b.sdiv(tile, s["chunks"])
            chunk = b.srem(tile, s["chunks"])
            q0 = b.mul(chunk, s["chunk_rows"])
            q1 = _min(b, sq, b.add(q0, s["chunk_rows"]))
            q_base = self.at(b, q, b.mul(bi, b.mul(sq, d)))
            o_base = self.at(b, out, b.mul(bi, b.mul(sq, dv)))
            k_base = self.at(b, k, b.mul(bi, b.mul(sk, d)))
            v_base = self.at(b, v, b.mul(bi, b.mul(sk, dv)))
            heads = _max(b, s["bias_heads"], _i(1))  # 0 (absent) without a bias
            offset = b.add(b.mul(b.sdiv(bi, heads), s["bias_sb"]), b.mul(b.srem(bi, heads), s["bias_sh"]))
            masked = b.icmp_signed("!=", s["mask"], _i(0))  # a byte mask: offsets in bytes
            bias_base = b.select(masked, b.gep(b.inttoptr(s["bias"], PTR), [offset],
                                               source_etype=ir.IntType(8)),
                                 self.at(b, b.inttoptr(s["bias"], PTR), offset))
            bias = (has_bias, bias_base, s["bias_sq"], s["bias_sk"], s["mask"], fill)
            few = b.icmp_signed("<=", b.sub(q1, q0), _i(FEW_QUERIES))
            with b.if_else(few) as (by_rows, packed):
                with by_rows:
                    self.few_queries(b, row_softmax, q_base, o_base, k_base, v_base, scores, inv,
                                     q0, q1, sk, s_row, d, dv, scale, s["causal"], safe, bias,
                                     soft_scale)
                with packed:
                    keys = self.keys_read(b, q1, sk, s["causal"])  # by the chunk's last query
                    stale = b.or_(b.icmp_signed("!=", b.load(packed_for), bi),
                                  b.icmp_signed("<", b.load(packed_keys), keys))
                    with b.if_then(stale):
                        # k^T: row kk (of d) is k's column kk: rows 1 apart, columns d apart
                        g.pack_b(b, k_base, k_pack, {"b_row": _i(1), "b_col": d}, _i(0), d, _i(0), keys)
                        g.pack_b(b, v_base, v_pack, {"b_row": dv, "b_col": _i(1)}, _i(0), keys, _i(0), dv)
                        b.store(bi, packed_for)
                        b.store(keys, packed_keys)
                    blocks = _ceil_div_v(b, b.sub(q1, q0), _i(self.block))
                    with _for(b, _i(0), _max(b, blocks, _i(0)), "qb") as qb:
                        i0 = b.add(q0, b.mul(qb, _i(self.block)))
                        rows = _min(b, _i(self.block), b.sub(q1, i0))
                        self.query_block(b, micros, row_softmax, q_base, o_base, k_pack, v_pack,
                                         b.load(packed_keys), scores, inv, i0, rows, sk, s_row, d,
                                         dv, scale, s["causal"], safe, bias, soft_scale)
        with b.if_then(own):
            b.call(free, [base])
        b.ret_void()
        return f

    def keys_read(self, b, q_end, sk, causal):
        """Keys the queries before q_end read: all sk, or up to the last one's diagonal."""
        return _min(b, sk, b.add(q_end, causal))

    def mask_rows(self, b, scores, s_row, i0, rows, keys, causal):
        """Scores of queries [i0, i0 + rows) past their diagonal (key > query + causal), up
        to `keys`, set to -inf: their exp is 0 (fastmath's clamp), the max is the kept keys'."""
        ninf = ir.Constant(self.t, float("-inf"))
        with _for(b, _i(0), rows, "mr") as r:
            first = b.add(b.add(i0, r), b.add(causal, _i(1)))
            row = self.at(b, scores, b.mul(r, s_row))
            with _for(b, first, keys, "mc", scalar=True) as j:
                b.store(ninf, self.at(b, row, j))

    def few_queries(self, b, row_softmax, q_base, o_base, k_base, v_base, scores, inv, q0, q1,
                    sk, s_row, d, dv, scale, causal, safe, bias, soft_scale):
        """Queries [q0, q1), at most FEW_QUERIES of them (a decoding step): k and v read in
        place once, not packed, by gemm's few-row kernels, FEW_ROWS_GROUP queries at a time:
        the scores as dot products down k's rows, then E v over blocks of FEW_ROWS_KC keys
        (causal: the keys the group's last query reads)."""
        g = self.g
        dots, sums = g.few_rows_t_kernels(), g.few_rows_kernels()
        group = gemm.FEW_ROWS_GROUP
        with _for(b, _i(0), _ceil_div(b, b.sub(q1, q0), group), "fq") as gi:
            i0 = b.add(q0, b.mul(gi, _i(group)))
            rows = _min(b, _i(group), b.sub(q1, i0))
            keys = self.keys_read(b, b.add(i0, rows), sk, causal)
            gemm.call_by_rows(b, dots, rows, [d, self.at(b, q_base, b.mul(i0, d)), d, k_base, d, scores,
                                     s_row, keys])
            self.add_bias(b, bias, scores, s_row, i0, rows, keys, scale)
            self.mask_rows(b, scores, s_row, i0, rows, keys, causal)
            self.softmax_rows(b, row_softmax, scores, inv, rows, keys, s_row, soft_scale, safe)
            with _for(b, _i(0), _max(b, _ceil_div(b, keys, gemm.FEW_ROWS_KC), _i(1)), "fk") as kb:
                p0 = b.mul(kb, _i(gemm.FEW_ROWS_KC))
                kc = _min(b, _i(gemm.FEW_ROWS_KC), b.sub(keys, p0))
                gemm.call_by_rows(b, sums, rows, [kc, self.at(b, scores, p0), s_row, _i(1),
                                         self.at(b, v_base, b.mul(p0, dv)), dv,
                                         self.at(b, o_base, b.mul(i0, dv)), dv, dv,
                                         b.icmp_signed(">", kb, _i(0))])
            self.normalize(b, o_base, inv, i0, rows, dv)

    def softmax_rows(self, b, row_softmax, scores, inv, rows, sk, s_row, scale, safe):
        """Each row's softmax in place (SOFTMAX_ROWS at a time, then one by one), its sum's
        reciprocal kept in inv (0 for a sum of 0: no keys, or a safe row of -inf; then the
        product is 0, as the three kernels give)."""
        t = self.t
        groups = b.sdiv(rows, _i(SOFTMAX_ROWS))
        with _for(b, _i(0), groups, "sg") as gi:
            r = b.mul(gi, _i(SOFTMAX_ROWS))
            b.call(row_softmax[SOFTMAX_ROWS], [self.at(b, scores, b.mul(r, s_row)), s_row, sk,
                                               scale, self.at(b, inv, r), safe])
        with _for(b, b.mul(groups, _i(SOFTMAX_ROWS)), rows, "sr") as r:
            b.call(row_softmax[1], [self.at(b, scores, b.mul(r, s_row)), s_row, sk, scale,
                                    self.at(b, inv, r), safe])
        with _for(b, _i(0), rows, "si") as r:
            p = self.at(b, inv, r)
            total = b.load(p, typ=t)
            b.store(b.select(b.fcmp_ordered("==", total, ir.Constant(t, 0.0)), ir.Constant(t, 0.0),
                             b.fdiv(ir.Constant(t, 1.0), total)), p)

    def normalize(self, b, o_base, inv, i0, rows, dv):
        """Output rows [i0, i0 + rows) times their 1 / sum."""
        with _for(b, _i(0), rows, "nr") as r:
            row = self.at(b, o_base, b.mul(b.add(i0, r), dv))
            x = b.load(self.at(b, inv, r), typ=self.t)
            with _for(b, _i(0), dv, "nc") as c:
                p = self.at(b, row, c)
                b.store(b.fmul(b.load(p, typ=self.t), x), p)

    def query_block(self, b, micros, row_softmax, q_base, o_base, k_pack, v_pack, v_keys, scores,
                    inv, i0, rows, sk, s_row, d, dv, scale, causal, safe, bias, soft_scale):
        """Queries [i0, i0 + rows) of one batch index: scores, softmax, the second product,
        over the keys the block's last query reads (v_keys: the keys in v's packed panels)."""
        g, mr, nr = self.g, self.mr, self.nr
        panels = _ceil_div(b, rows, mr)
        false = ir.Constant(I1, 0)
        sk = self.keys_read(b, b.add(i0, rows), sk, causal)
        # S = q k^T: each k^T panel (d x NR, L1) across the block's q panels
        with _for(b, _i(0), _ceil_div(b, sk, nr), "sj") as j:
            cols = _min(b, _i(nr), b.sub(sk, b.mul(j, _i(nr))))
            b_panel = self.at(b, k_pack, b.mul(j, b.mul(_i(nr), d)))
            with _for(b, _i(0), panels, "sp") as pa:
                r0 = b.mul(pa, _i(mr))
                n = _min(b, _i(mr), b.sub(rows, r0))
                a = self.at(b, q_base, b.mul(b.add(i0, r0), d))
                c = self.at(b, scores, b.add(b.mul(r0, s_row), b.mul(j, _i(nr))))
                g.call_micro(b, micros, n, [d, a, _i(1), d, b_panel, _i(nr), c, s_row, n, cols,
                                            false])
        self.add_bias(b, bias, scores, s_row, i0, rows, sk, scale)
        self.mask_rows(b, scores, s_row, i0, rows, sk, causal)
        self.softmax_rows(b, row_softmax, scores, inv, rows, sk, s_row, soft_scale, safe)
        # O = E v: keys in KC blocks; each v panel block (kc x NR) across the block's E panels
        k_blocks = _max(b, _ceil_div(b, sk, self.kc), _i(1))
        with _for(b, _i(0), k_blocks, "ok") as kb:
            p0 = b.mul(kb, _i(self.kc))
            kc = _min(b, _i(self.kc), b.sub(sk, p0))
            with _for(b, _i(0), _ceil_div(b, dv, nr), "oj") as j:
                cols = _min(b, _i(nr), b.sub(dv, b.mul(j, _i(nr))))
                b_panel = self.at(b, v_pack, b.add(b.mul(j, b.mul(_i(nr), v_keys)), b.mul(p0, _i(nr))))
                with _for(b, _i(0), panels, "op") as pa:
                    r0 = b.mul(pa, _i(mr))
                    n = _min(b, _i(mr), b.sub(rows, r0))
                    a = self.at(b, scores, b.add(b.mul(r0, s_row), p0))
                    c = self.at(b, o_base, b.add(b.mul(b.add(i0, r0), dv), b.mul(j, _i(nr))))
                    g.call_micro(b, micros, n, [kc, a, _i(1), s_row, b_panel, _i(nr), c, dv, n,
                                                cols, b.icmp_signed(">", kb, _i(0))])
        self.normalize(b, o_base, inv, i0, rows, dv)

    # ------------------------------------------------------------------ entry
    def entry(self, task, parallel_for, get_threads):
        """void run(i64 slots[...]): the query chunks per batch index, then the tasks. With
        fewer batch indices than threads, each one's queries are cut into chunks (whole
        register-tile panels) so that every thread has a task."""
        f = self.fn("run", ir.FunctionType(VOID, [PTR]))
        f.linkage = "internal"
        (ctx,) = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))

        def slot(name):
            return b.gep(ctx, [_i(SLOTS.index(name))], inbounds=True, source_etype=I64)
        batch, sq, sk, d, dv = (b.load(slot(x), typ=I64) for x in ("batch", "sq", "sk", "d", "dv"))
        threads = b.sext(b.call(get_threads, []), I64)
        wanted = _ceil_div_v(b, threads, batch)
        chunks = _max(b, _min(b, wanted, _ceil_div(b, sq, self.mr)), _i(1))
        chunk_rows = b.mul(_ceil_div(b, _ceil_div_v(b, sq, chunks), self.mr), _i(self.mr))
        chunks = _max(b, _ceil_div_v(b, sq, chunk_rows), _i(1))
        b.store(chunks, slot("chunks"))
        b.store(chunk_rows, slot("chunk_rows"))
        flops = b.mul(b.mul(b.mul(batch, sq), sk), b.add(d, dv))
        gemm.run_tasks(b, flops, b.mul(batch, chunks), task, ctx, parallel_for)
        b.ret_void()
        return f


def attention_function(mod: ir.Module, elem: str, t: ir.Type, parallel_for, blocking,
                       name: str | None = None) -> ir.Function:
    """The module's `void NAME.run(i64 *slots)` (slots: SLOTS) for element type `elem`."""
    name = name or f"aot.attention.{elem}"
    existing = mod.globals.get(f"{name}.run")
    if existing is not None:
        return existing
    e = _Attention(mod, elem, t, blocking, name)
    return e.entry(e.task(), parallel_for, gemm.get_num_threads(mod))


# ---------------------------------------------------------------------- the loop stage
def is_attention(target, op) -> bool:
    """A dot_general that passes/attention.py marked as the scores of a fused attention."""
    return "aot.attention" in op.attrs


def _constant(value) -> bool:
    """A splat the region computes (a constant, its broadcasts): a scaling's, not an operand."""
    op = value.owner
    while isinstance(op, Operation) and op.key in ("broadcast_in_dim", "dynamic_broadcast_in_dim"):
        op = op.operands[0].owner
    return isinstance(op, Operation) and op.key == "constant"


def emit_attention(b, region_block, inputs: dict, out, env: dict):
    """The attention fusion (passes/attention.py) as one `aot.attention` op over its q, k, v
    buffers and the output; the region's other ops are its meaning, not code (views of
    unit dims; k's transpose, whose input is k as the kernel reads it)."""
    def source(value):  # the fusion's input a dot reads, past views, k's transpose, a scaling
        if value in inputs:
            return inputs[value]
        found = [source(x) for x in value.owner.operands if not _constant(x)]
        return found[0] if found else None
    dots = [o for o in region_block.ops if o.key == "dot_general"]
    scores, product = dots[0], dots[-1]
    q, k = (source(x) for x in scores.operands)
    v = source(product.operands[1])
    attrs = {"scale": float(scores.attrs["aot.attention"])}
    if "aot.causal" in scores.attrs:
        attrs["causal"] = int(scores.attrs["aot.causal"])
    if scores.attrs.get("aot.safe_softmax"):
        attrs["safe"] = 1
    operands = [q, k, v, out]
    biased = next((o for o in region_block.ops if "aot.bias" in o.attrs), None)
    if biased is not None:  # the bias or mask: an input, or a broadcast of one
        bias = biased.operands[biased.attrs["aot.bias"]]
        if "aot.fill" in biased.attrs:
            attrs["keep_if"], attrs["fill"] = biased.attrs["aot.keep_if"], biased.attrs["aot.fill"]
        attrs["bias_dims"] = list(range(bias.type.rank))
        if bias not in inputs:
            attrs["bias_dims"] = list(bias.owner.attrs["broadcast_dimensions"])
            bias = bias.owner.operands[0]
        operands.append(inputs[bias])
    b.op("aot.attention", operands, attrs=attrs)


registry.override("dot_general", "epilogue", emit_attention, target="cpu", when=is_attention)
