"""The custom calls of exported programs that are ops in disguise: jax.export writes
`stablehlo.dynamic_top_k`, `stablehlo.dynamic_reduce_window`, `ApproxTopK` and friends as
custom calls, since StableHLO has no op for their dynamic or approximate forms. Each is
rewritten in place into the op it means (`REWRITES`, call target -> rule); any other target
stays a custom call, which the verifier refuses by name."""
from __future__ import annotations

from lowering.ir.attrs import dense_to_ints
from lowering.ir.core import Block, Operation, Region, SymbolRef, TensorType, Value, clone_op

# (@shape_assertion is kept as it is: the host checks it, lowering/passes/bufferize.py)


def _called(op: Operation, funcs: dict, what: str) -> Operation:
    """The one function of `called_computations`."""
    called = op.attrs.get("called_computations")
    refs = called if isinstance(called, (list, tuple)) else [called]
    if len(refs) != 1 or not isinstance(refs[0], SymbolRef) or refs[0].name not in funcs:
        raise op.error(f"@{op.attrs['call_target_name']} needs one function in "
                       f"called_computations, its {what}")
    return funcs[refs[0].name]


def _become(op: Operation, name: str, operands: list, attrs: dict) -> None:
    op.name, op.operands = name, list(operands)
    op.attrs = attrs


def _dynamic_top_k(op: Operation, funcs: dict) -> None:
    """`@stablehlo.dynamic_top_k(%x, %k)`: top_k whose k is a 0-d tensor."""
    if len(op.operands) != 2:
        raise op.error("@stablehlo.dynamic_top_k takes an operand and k")
    _become(op, "mhlo.top_k", op.operands, {})


def _comparator_direction(op: Operation, fn: Operation) -> str:
    """GT or LT: a comparator that compares its first two arguments and returns that."""
    body = fn.regions[0].blocks[0] if fn.regions else None
    if body is not None and len(body.ops) == 2:
        cmp, ret = body.ops
        if (cmp.key == "compare" and ret.name == "func.return" and ret.operands == cmp.results
                and cmp.operands == body.args[:2]):
            direction = cmp.attrs["comparison_direction"].value
            if direction in ("GT", "LT"):
                return direction
    raise op.error(f"@{op.attrs['call_target_name']}: only a comparator that is one > or < of "
                   f"the values is supported, not @{fn.attrs['sym_name']}")


def _mhlo_topk(op: Operation, funcs: dict) -> None:
    """`@mhlo.topk(%x) {mhlo.attributes = {k, largest = true}}` (TensorFlow's lowering of
    tf.TopKV2): top_k."""
    attrs = op.attrs.get("mhlo.attributes") or {}
    if not isinstance(attrs, dict) or not isinstance(attrs.get("k"), int) or len(op.operands) != 1:
        raise op.error("@mhlo.topk needs one operand and mhlo.attributes = {k = ...}")
    if attrs.get("largest", True) is not True:
        raise op.error("@mhlo.topk with largest = false is not supported")
    _become(op, "mhlo.top_k", op.operands, {"k": attrs["k"]})


def _approx_top_k(op: Operation, funcs: dict) -> None:
    """`@ApproxTopK(%x, %iota, %init, %init_index)` (and `@stablehlo.dynamic_approx_top_k`,
    k last): approx_max_k / approx_min_k. Computed exactly, which meets any recall target; on
    the CPU XLA does the same (is_fallback). One operand, its indices an iota along the
    reduced dim, which must be the last."""
    target = op.attrs["call_target_name"]
    dynamic = target == "stablehlo.dynamic_approx_top_k"
    operands = op.operands[:-1] if dynamic else op.operands
    if len(operands) != 4 or len(op.results) != 2:
        raise op.error(f"@{target} is supported for one operand with its indices: "
                       f"(operand, iota, init value, init index){' and k' if dynamic else ''}")
    x, indices = operands[:2]
    config = op.attrs.get("mhlo.backend_config")
    if not isinstance(config, dict) or "reduction_dim" not in config or \
            (not dynamic and "top_k" not in config):
        raise op.error(f"@{target} needs mhlo.backend_config with reduction_dim and top_k")
    rank = x.type.rank
    dim = int(config["reduction_dim"]) % max(rank, 1)
    if dim != rank - 1:
        raise op.error(f"@{target} over dim {dim} is not supported yet (only the last, "
                       f"{rank - 1}: approx_max_k's default)")
    iota = indices.owner
    if not (isinstance(iota, Operation) and iota.key in ("iota", "dynamic_iota")
            and iota.attrs.get("iota_dimension") == dim):
        raise op.error(f"@{target}: the indices operand must be an iota along dim {dim}")
    if config.get("aggregate_to_topk") is False:
        raise op.error(f"@{target} with aggregate_to_topk = false is not supported")
    smallest = _comparator_direction(op, _called(op, funcs, "comparator")) == "LT"
    attrs = {} if dynamic else {"k": int(config["top_k"])}
    if smallest:
        attrs["aot.smallest"] = True
    _become(op, "mhlo.top_k", [x] + ([op.operands[-1]] if dynamic else []), attrs)


def _dynamic_reduce_window(op: Operation, funcs: dict) -> None:
    """`@stablehlo.dynamic_reduce_window(inputs..., inits..., window_dimensions,
    window_strides, base_dilations, window_dilations, padding)` with its body in
    called_computations: reduce_window whose window is read at run time."""
    body = _called(op, funcs, "body")
    block = body.regions[0].blocks[0] if body.regions else None
    if block is None:
        raise op.error(f"@stablehlo.dynamic_reduce_window: body @{body.attrs['sym_name']} "
                       "has no body")
    copy = Block([a.type for a in block.args])
    mapping = dict(zip(block.args, copy.args))
    for inner in block.ops:
        copy.append(clone_op(inner, mapping))
    _become(op, "mhlo.dynamic_reduce_window", op.operands, {})
    op.regions = [Region([copy])]
    op.regions[0].parent = op


def _dynamic_rng_bit_generator(op: Operation, funcs: dict) -> None:
    """`@stablehlo.dynamic_rng_bit_generator(%state, %shape) {rng_algorithm}`: random bits
    of a shape given at run time."""
    if len(op.operands) != 2:
        raise op.error("@stablehlo.dynamic_rng_bit_generator takes a state and a shape")
    _become(op, "mhlo.rng_bit_generator", op.operands,
            {k: v for k, v in op.attrs.items() if k == "rng_algorithm"})


# LAPACK's flag characters as the ui8 codes backend_config holds
LAPACK_FLAGS = {"L": 76, "U": 85, "N": 78, "T": 84, "C": 67, "R": 82, "V": 86, "A": 65, "S": 83}


def _lapack_config(op: Operation, keys: tuple) -> dict:
    """LAPACK's flag characters from mhlo.backend_config (`uplo = 76 : ui8` is 'L'), and
    the batch dims, which must be all but the last two (the matrices)."""
    target = op.attrs["call_target_name"]
    config = op.attrs.get("mhlo.backend_config")
    codes = {v: k for k, v in LAPACK_FLAGS.items()}
    if keys and (not isinstance(config, dict) or any(k not in config for k in keys)):
        raise op.error(f"@{target} needs mhlo.backend_config with {', '.join(keys)}")
    flags = {k: codes.get(int(config[k]), "?") for k in keys} if keys else {}
    batch = (op.attrs.get("mhlo.frontend_attributes") or {}).get("num_batch_dims")
    rank = op.operands[0].type.rank
    if batch is not None and str(batch) != str(rank - 2):
        raise op.error(f"@{target} with num_batch_dims = {batch} on rank {rank} is not supported")
    return flags


def _lapack_potrf(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}potrf_ffi(%a) {uplo}` -> (factor, info): JAX's CPU Cholesky."""
    flags = _lapack_config(op, ("uplo",))
    if flags["uplo"] not in "LU" or len(op.operands) != 1 or len(op.results) != 2:
        raise op.error(f"@{op.attrs['call_target_name']}: expected one matrix operand, "
                       "(factor, info) results and uplo 'L' or 'U'")
    _become(op, "mhlo.cholesky", op.operands, {"lower": flags["uplo"] == "L"})


def _lapack_trsm(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}trsm_ffi(%a, %b) {side, uplo, trans_x, diag}`: JAX's CPU
    triangular_solve (solve_triangular, and the two solves of jnp.linalg.solve)."""
    flags = _lapack_config(op, ("side", "uplo", "trans_x", "diag"))
    if (len(op.operands) != 2 or len(op.results) != 1 or flags["side"] not in "LR"
            or flags["uplo"] not in "LU" or flags["trans_x"] not in "NTC" or flags["diag"] not in "NU"):
        raise op.error(f"@{op.attrs['call_target_name']}: expected (a, b) and LAPACK's flags "
                       f"side L/R, uplo L/U, trans_x N/T/C, diag N/U; got {flags}")
    transpose = {"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}[flags["trans_x"]]
    _become(op, "mhlo.triangular_solve", op.operands,
            {"left_side": flags["side"] == "L", "lower": flags["uplo"] == "L",
             "unit_diagonal": flags["diag"] == "U", "transpose_a": transpose})


def _lapack_getrf(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}getrf_ffi(%a)` -> (lu, pivots, info): JAX's CPU LU (jnp.linalg.solve,
    det, inv, lu_factor)."""
    _lapack_config(op, ())
    if len(op.operands) != 1 or len(op.results) != 3:
        raise op.error(f"@{op.attrs['call_target_name']}: expected one matrix operand and "
                       "(lu, pivots, info) results")
    _become(op, "mhlo.lu", op.operands, {})


def _lapack_geqrf(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}geqrf_ffi(%a)` -> (qr, tau) and `@lapack_{s,d}orgqr_ffi(%qr, %tau)` ->
    q: JAX's CPU QR (jnp.linalg.qr), as geqrf and householder_product."""
    _lapack_config(op, ())
    if len(op.operands) != 1 or len(op.results) != 2:
        raise op.error(f"@{op.attrs['call_target_name']}: expected one matrix operand and "
                       "(qr, tau) results")
    _become(op, "mhlo.geqrf", op.operands, {})


def _lapack_orgqr(op: Operation, funcs: dict) -> None:
    _lapack_config(op, ())
    if len(op.operands) != 2 or len(op.results) != 1:
        raise op.error(f"@{op.attrs['call_target_name']}: expected (qr, tau) and one result")
    _become(op, "mhlo.householder_product", op.operands, {})


def _lapack_syevd(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}syevd_ffi(%a) {mode, uplo}` -> (vectors, values, info): JAX's CPU
    jnp.linalg.eigh, as eigh (with its working matrix as an extra result)."""
    flags = _lapack_config(op, ("mode", "uplo"))
    if (len(op.operands) != 1 or len(op.results) != 3 or flags["uplo"] not in "LU"
            or flags["mode"] not in "NV"):
        raise op.error(f"@{op.attrs['call_target_name']}: expected one matrix operand, "
                       f"(vectors, values, info) results, mode N/V and uplo L/U; got {flags}")
    _become(op, "mhlo.eigh", op.operands, {"lower": flags["uplo"] == "L"})
    op.results.append(Value(op.results[0].type, op, 3))


def _lapack_gesdd(op: Operation, funcs: dict) -> None:
    """`@lapack_{s,d}gesdd_ffi(%a) {mode}` -> (a, s, u, vt, info): JAX's CPU jnp.linalg.svd;
    mode A (full u and vt), S (reduced) or N (values only: u and vt still computed, full or
    reduced as the result types are: jax writes either)."""
    flags = _lapack_config(op, ("mode",))
    if len(op.operands) != 1 or len(op.results) != 5 or flags["mode"] not in "ASN":
        raise op.error(f"@{op.attrs['call_target_name']}: expected one matrix operand, "
                       f"(a, s, u, vt, info) results and mode A/S/N; got {flags}")
    u_cols, m = op.results[2].type.shape[-1], op.operands[0].type.shape[-2]
    full = flags["mode"] == "A" or (flags["mode"] == "N" and u_cols == m)  # N: the types say
    _become(op, "mhlo.svd", op.operands, {"full": full})


REWRITES = {
    "stablehlo.dynamic_reduce_window": _dynamic_reduce_window,
    "stablehlo.dynamic_rng_bit_generator": _dynamic_rng_bit_generator,
    "stablehlo.dynamic_top_k": _dynamic_top_k,
    "mhlo.topk": _mhlo_topk,
    "ApproxTopK": _approx_top_k,
    "lapack_sgetrf_ffi": _lapack_getrf,
    "lapack_dgetrf_ffi": _lapack_getrf,
    "lapack_spotrf_ffi": _lapack_potrf,
    "lapack_dpotrf_ffi": _lapack_potrf,
    "lapack_strsm_ffi": _lapack_trsm,
    "lapack_sgesdd_ffi": _lapack_gesdd,
    "lapack_dgesdd_ffi": _lapack_gesdd,
    "lapack_ssyevd_ffi": _lapack_syevd,
    "lapack_dsyevd_ffi": _lapack_syevd,
    "lapack_sgeqrf_ffi": _lapack_geqrf,
    "lapack_dgeqrf_ffi": _lapack_geqrf,
    "lapack_sorgqr_ffi": _lapack_orgqr,
    "lapack_dorgqr_ffi": _lapack_orgqr,
    "lapack_dtrsm_ffi": _lapack_trsm,
    "stablehlo.dynamic_approx_top_k": _approx_top_k,
}


def rewrite_custom_call(op: Operation, funcs: dict) -> None:
    """`op` (an mhlo.custom_call) becomes the op its target means, if it is one of REWRITES."""
    rule = REWRITES.get(op.attrs.get("call_target_name"))
    if rule is None or not all(isinstance(v.type, TensorType)
                               for v in list(op.operands) + list(op.results)):
        return  # another target, or a type the verifier will name
    shape_operands = op.attrs.get("indices_of_shape_operands")
    if shape_operands is not None:  # jax's result shapes, for XLA: the ops here derive them
        drop = {int(i) for i in dense_to_ints(shape_operands)}
        op.operands = [v for i, v in enumerate(op.operands) if i not in drop]
    rule(op, funcs)
