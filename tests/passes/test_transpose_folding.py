"""Transposes folded into the dots that read them (lowering/passes/transpose_folding.py):
which are folded (checked on the fused stage's text) and that the products equal numpy's,
for a transposed rhs (attention's K^T), lhs, both, a permuted batch dim, a transpose that
is also read elsewhere, and the cases left alone: free dims that would change order, a dot
the loop form computes, a target without the packed matmul."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline
from lowering.target import cuda_target


def t(shape, elem="f32"):
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def program(a_shape, a_perm, b_shape, b_perm, dims, out_shape, elem="f32", extra_use=False):
    """dot_general(transpose(a) or a, transpose(b) or b); with `extra_use` the transposed b
    is also added to itself and returned."""
    lines, ops = [], {}
    for name, shape, perm in (("a", a_shape, a_perm), ("b", b_shape, b_perm)):
        if perm is None:
            ops[name] = (f"%{name}", shape)
            continue
        tshape = [shape[p] for p in perm]
        lines.append(f"  %{name}t = stablehlo.transpose %{name}, dims = {list(perm)} : "
                     f"({t(shape, elem)}) -> {t(tshape, elem)}")
        ops[name] = (f"%{name}t", tshape)
    (a, at), (b, bt) = ops["a"], ops["b"]
    lines.append(f"  %y = stablehlo.dot_general {a}, {b}, {dims} : ({t(at, elem)}, {t(bt, elem)}) "
                 f"-> {t(out_shape, elem)}")
    results, types = ["%y"], [t(out_shape, elem)]
    if extra_use:
        lines.append(f"  %z = stablehlo.add {b}, {b} : {t(bt, elem)}")
        results.append("%z")
        types.append(t(bt, elem))
    return (f"func.func @main(%a: {t(a_shape, elem)}, %b: {t(b_shape, elem)}) -> "
            f"({', '.join(types)}) {{\n" + "\n".join(lines)
            + f"\n  return {', '.join(results)} : {', '.join(types)}\n}}")


ATTENTION = ((2, 24, 16), None, (2, 20, 16), (0, 2, 1),
             "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (2, 24, 20))
# (program args, einsum on the untransposed operands, folded?)
CASES = {
    "rhs_transposed": (ATTENTION, "bsd,btd->bst", True),
    "lhs_transposed": (((37, 29), (1, 0), (37, 41), None, "contracting_dims = [1] x [0]",
                        (29, 41)), "km,kn->mn", True),
    "both_transposed": (((37, 29), (1, 0), (41, 37), (1, 0), "contracting_dims = [1] x [0]",
                         (29, 41)), "km,nk->mn", True),
    "batch_permuted": (((24, 3, 16), (1, 0, 2), (3, 16, 20), None,
                        "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (3, 24, 20)),
                       "sbd,bdt->bst", True),
    # rhs (k, n1, n2) transposed to (k, n2, n1): folding would swap the result's last dims
    "free_dims_reordered": (((5, 7), None, (7, 3, 4), (0, 2, 1), "contracting_dims = [1] x [0]",
                             (5, 4, 3)), "mk,kab->mba", False),
}


def fused_text(text, target=None):
    return print_module(run_pipeline(parse_module(text, "test.mlir"), "fused", target=target))


@pytest.mark.parametrize("name", sorted(CASES))
def test_folded_products_match_numpy(name):
    args, spec, folded = CASES[name]
    text = program(*args)
    fused = fused_text(text)
    assert ("transpose" not in fused) == folded, fused
    rng = np.random.default_rng(1)
    a = rng.standard_normal(args[0]).astype(np.float32)
    b = rng.standard_normal(args[2]).astype(np.float32)
    got = aot.compile(text, name=f"fold_{name}").main(a, b)
    np.testing.assert_allclose(got, np.einsum(spec, a.astype(np.float64), b), rtol=1e-5,
                               atol=1e-5)


def test_a_transpose_read_elsewhere_stays_for_that_reader():
    text = program(*ATTENTION, extra_use=True)
    fused = fused_text(text)
    assert fused.count("transpose") == 1 and "rhs_contracting_dimensions = array<i64: 2>" in fused
    rng = np.random.default_rng(2)
    a = rng.standard_normal(ATTENTION[0]).astype(np.float32)
    b = rng.standard_normal(ATTENTION[2]).astype(np.float32)
    y, z = aot.compile(text, name="fold_shared").main(a, b)
    np.testing.assert_allclose(y, np.einsum("bsd,btd->bst", a.astype(np.float64), b),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(z, 2 * b.transpose(0, 2, 1))


def test_loop_form_dots_and_other_targets_keep_their_transposes():
    f16 = program(*ATTENTION, elem="f16")  # no packed matmul for f16: the loop-form dot
    assert "transpose" in fused_text(f16)
    assert "transpose" in fused_text(program(*ATTENTION), target=cuda_target())
