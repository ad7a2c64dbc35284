"""The loop stage's ops and the `aot.*` attributes, declared once with one-line contracts.

The loop stage (what `--emit loops` prints) holds only these ops besides the `arith.*` and
`math.*` scalar ops, which the LLVM emitter's table lists (lowering/codegen/llvm/emitters.py;
`arith.select` also picks between buffers, a concatenation's operands read by one load);
codegen/llvm/guard.py refuses anything else before LLVM.
"""

LOOP_OPS = {
    "func.func": "a function: host entry (public), kernel (`aot.kernel`) or shape query",
    "func.return": "ends a function; host functions return nothing (results are buffers)",
    "func.call": "host calls a kernel on buffers (`aot.writes`, `aot.parallel`)",
    "scf.for": "(lb, ub, step, inits...) -> results; body(iv, iters...) ends in scf.yield",
    "scf.yield": "ends a loop or branch body, passing its carried values",
    "scf.while": "(inits...) -> results; before region ends in scf.condition, after in yield",
    "scf.condition": "(flag, values...): continue the while loop with values while flag",
    "memref.alloc": "a buffer with the given dynamic dims (`aot.stack`: a stack slot)",
    "memref.dealloc": "frees a buffer right after its last user",
    "memref.global": "module-level read-only constant data",
    "memref.get_global": "a buffer over a memref.global",
    "memref.copy": "(src, dst): copies a whole buffer",
    "aot.row_view": "(buf, row) -> buf[row] in place: one row along dim 0 of an entry argument, "
                    "never freed (host only)",
    "memref.load": "(buf, indices...) -> element",
    "memref.store": "(value, buf, indices...)",
    "memref.dim": "(buf, index) -> that dim's size",
    "aot.check": "(cond, values...): fail the call with `message` (printf-style) unless cond",
    "aot.switch": "(index) -> results: runs region `index` (the last when out of range)",
    "aot.gemm": "(lhs, rhs, out, captured...): the packed matmul; its region is the epilogue",
    "aot.conv": "(input, kernel, out): the CPU's direct 2-D convolution (NHWC, HWIO)",
    "aot.transpose": "(src, dst): dst = src transposed by `permutation`, one that moves the last "
                     "dim, in register tiles (the CPU's: codegen/cpu/transpose.py)",
    "aot.attention": "(q, k, v, out[, bias]): out = softmax(q k^T * `scale` + bias) v per "
                     "batch index, one CPU kernel (codegen/cpu/attention.py); `causal` = c: "
                     "query i reads keys j <= i + c only; `safe`: a row of -inf scores gives "
                     "zeros; the bias's dim i is the scores' dim `bias_dims`[i], broadcast; "
                     "with `fill` the bias is a boolean mask: where it is not `keep_if`, fill",
    "gpu.blas_gemm_takes": "(lhs, rhs, out) -> index: 1 when the runtime's cuBLAS runs this "
                           "strided-batched matmul, 0 when the kernel must (host only)",
    "gpu.blas_gemm": "(lhs, rhs, out): out = lhs x rhs per batch index, through cuBLAS (host only)",
    "gpu.lane_id": "() -> index: the thread's lane in its warp (device kernels only)",
    "gpu.shuffle_xor": "(x) -> x of the lane whose id is this lane's xor `offset` (a warp's lanes in step)",
    "gpu.thread_id": "() -> index: the thread's place in its block (a block per iteration)",
    "gpu.barrier": "every thread of the block waits here; all reach it the same number of times",
    "gpu.shared": "() -> a static buffer in the block's shared memory",
    "gpu.atomic_rmw": "(value, buf, indices...) -> old element; buf[indices] = old `kind` value, atomically "
                      "(add fadd max min umax umin fmax fmin or and xor; relaxed order)",
    "gpu.atomic_cas": "(expected, desired, buf, indices...) -> old element; stores desired if old is "
                      "bitwise expected, atomically (relaxed order)",
}

AOT_ATTRS = {
    "aot.kernel": "on a func.func: a kernel taking only buffers; the value names its op",
    "aot.aliased": "on a kernel whose arguments are not all distinct (in place): per argument, "
                   "the position of the first that is the same value",
    "aot.writes": "on a call: operand positions the kernel writes",
    "aot.known": "on a kernel op: (operand, flat position, value) triples of integer elements "
                 "the host knows (shape tensors it stored or folded); loads of them are constants",
    "aot.parallel": "on a kernel, its loop and its call: the outer loop may be split over "
                    "threads (on the call: the operand whose dim 0 is the extent)",
    "aot.parallel_over": "on a kernel while lowering: which output's dim 0 the loop covers",
    "aot.parallel_block": "on a call: rows per iteration of the parallel loop",
    "aot.parallel_dim": "on a parallel loop and its call: the output dim the loop runs over "
                        "(when not 0)",
    "aot.element_order": "on a kLoop fusion's outer loop: its loops' order over the output's "
                         "dims when not theirs (a tiny transposed dim innermost)",
    "aot.rows_per_iteration": "on a loop: it steps over blocks of this many rows",
    "aot.chunks": "on a loop: its iterations write disjoint pieces of the rows of the loops "
                  "outside it (a concatenation's), so the thread pool may split it with them",
    "aot.lanes_per_iteration": "on a device kernel's parallel loop: its threads per iteration",
    "aot.parallel_lanes": "on a call: the parallel loop's threads per iteration (its lanes)",
    "aot.tiles": "on a device kernel's parallel loop: it steps over tiles of this size per dim",
    "aot.parallel_tiles": "on a call: the parallel output's tile per iteration (extent: the tiles)",
    "aot.block_shape": "on a device kernel's parallel loop: the block its schedule asks for (x, y, z "
                       "threads; default: the Target's block size)",
    "aot.dynamic_shared": "on a device kernel's parallel loop: bytes of dynamic shared memory per block",
    "aot.min_blocks_per_sm": "on a device kernel's parallel loop: blocks an SM should hold at once "
                             "(ptxas caps the registers to fit them)",
    "aot.vector": "on a load/store of a device kernel's vector copy (codegen/cuda/vector.py): N on "
                  "the first of N accesses at consecutive addresses (one N-wide access), 0 on the others",
    "aot.transposed": "on gpu.blas_gemm(_takes): (lhs, rhs) stored [k, m] / [n, k]",
    "aot.scratch": "on an LHLO kernel op: its last N operands are temporaries",
    "aot.rows": "on a scatter (ops/gather.scatter_rows, set by passes/row_scatters.py): "
                "(operand dim, first row, the updates' dim) of the consecutive rows it "
                "overwrites, its indices known when the model is compiled",
    "aot.frozen_kernel": "on a convolution (codegen/cpu/conv_gemm.py): its kernel is a "
                         "constant of at most TWIN_KERNEL_BYTES, stored once, read channels-last",
    "aot.causal": "on the scores dot of an attention fusion (passes/attention.py): c of its "
                  "causal mask, query i reads keys j <= i + c only",
    "aot.safe_softmax": "on the scores dot of an attention fusion: rows of -inf scores give "
                        "zeros (PyTorch's safe softmax), not NaN",
    "aot.bias": "on the add (or select) of an attention fusion that adds a bias to its scores "
                "(or masks them): the index of its bias (or boolean mask) operand",
    "aot.keep_if": "on an attention fusion's masking select: the mask's value (0 or 1) that "
                   "keeps the score",
    "aot.fill": "on an attention fusion's masking select: the splat the masked scores become",
    "aot.arg_bounds": "on an entry function: upper bounds of its arguments' dims "
                      "((argument, dim, bound) per bounded dim), checked on every call (bounded dynamism)",
    "aot.packed_b": "on memref.global: [K, N, row stride, column stride, KC, NR], its bytes "
                    "are a matmul's B as packed panels (passes/prepack.py); on aot.gemm: B is "
                    "such a constant",
    "aot.packed_conv": "on memref.global: [kind, NR], its bytes are a convolution's HWIO kernel "
                       "as NR-feature panels (\"panels\") or followed by Winograd's transform "
                       "(\"winograd\") (passes/prepack.py)",
    "aot.packed_kernel": "on aot.conv: its kernel is such a constant",
    "channels_first": "on a Winograd aot.conv: operands 3 and 4 are the NCHW input and result "
                      "it copies from and to (input and out: channels-last scratch)",
    "aot.relayout": "on a loop nest: it copies a kernel parameter into a parameter of its dims "
                    "permuted so (conv_gemm.py's OIHW -> HWIO); prepack.py stores a constant so",
    "aot.external_data": "on memref.global: its bytes are assembled into an object of their own "
                         "(.incbin), not written into the LLVM module (big constants)",
    "aot.smallest": "on top_k: the k smallest, ascending (ApproxTopK with a < comparator)",
    "aot.stack": "on memref.alloc: small, static, never escapes: a stack slot",
    "aot.num_inputs": "on a host function: how many of its arguments are inputs",
    "aot.shape_query": "on a function: it is the shape query of the named entry",
}
