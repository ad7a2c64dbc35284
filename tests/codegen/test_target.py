"""The Target: one object for what passes and codegen ask about the machine. Another CPU's
triple and features pick that CPU's matmul blocking, not this machine's."""
import pytest

from aot.driver import Compilation, Options
from lowering.target import (
    GEMM_BLOCKING,
    GEMM_BLOCKING_32_REGISTERS,
    GEMM_BLOCKING_SCALAR,
    cpu_target,
    host_target,
    vector_bytes_of,
)

DOT = """func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}"""  # noqa: E501


@pytest.mark.parametrize("triple, features, width, blocking", [
    ("x86_64-unknown-linux-gnu", "+sse2", 16, GEMM_BLOCKING[16]),
    ("x86_64-unknown-linux-gnu", "+avx,+avx2,+fma", 32, GEMM_BLOCKING[32]),
    ("x86_64-unknown-linux-gnu", "+avx2,+avx512f", 64, GEMM_BLOCKING[64]),
    # 32 vector registers: a larger register tile than x86's 16 allow
    ("aarch64-unknown-linux-gnu", "+neon", 16, GEMM_BLOCKING_32_REGISTERS),
    ("riscv64-unknown-linux-gnu", "+m,+a,+f,+d,+c,+v", 16, GEMM_BLOCKING_32_REGISTERS),
    ("riscv64-unknown-linux-gnu", "+m,+a,+f,+d,+c", 0, GEMM_BLOCKING_SCALAR),  # no vector unit
])
def test_vector_width_from_features(triple, features, width, blocking):
    assert vector_bytes_of(triple, features) == width
    t = cpu_target(triple, features=features)
    assert t.blocking("f32") == blocking["f32"] and t.blocking("f64") == blocking["f64"]


@pytest.mark.parametrize("blocking", [*GEMM_BLOCKING.values(), GEMM_BLOCKING_32_REGISTERS,
                                      GEMM_BLOCKING_SCALAR])
def test_blockings_fit_the_packed_matmul(blocking):
    """What codegen/cpu/gemm.py assumes: whole vectors per panel row, whole panels per block
    (the packed B block's scratch is sized kc * nb)."""
    for b in [tile for b in blocking.values() for tile in (b, b.wide) if tile]:
        assert b.nr % b.vec == 0 and b.nb % b.nr == 0 and b.mc % b.mr == 0 and b.nc % b.nr == 0


def test_riscv64_linux_defaults_to_its_distributions_baseline():
    """LLVM's generic riscv64 has no float unit (a soft-float ABI no system library links
    with); the triple alone means rv64gc, as Debian and Fedora build for."""
    assert host_target("riscv64-unknown-linux-gnu").features == "+m,+a,+f,+d,+c"
    assert host_target("aarch64-unknown-linux-gnu").features == ""


def test_host_target_describes_this_machine():
    t = host_target()
    assert t.name == "cpu" and t.triple and t.blocking("f32") is not None


@pytest.mark.parametrize("triple, features, lanes", [
    ("aarch64-unknown-linux-gnu", None, 4),
    ("riscv64-unknown-linux-gnu", None, 1),
    ("x86_64-unknown-linux-gnu", "+avx2,+fma", 8),
])
def test_another_cpu_gets_its_own_matmul_blocking(triple, features, lanes):
    opts = Options(name="m", emit="llvm", target_triple=triple, target_features=features)
    _, text, _, _ = Compilation(DOT, "dot.mlir", opts).llvm()
    assert f"llvm.fmuladd.v{lanes}f32" in text
    for other in {1, 4, 8} - {lanes}:
        assert f"llvm.fmuladd.v{other}f32" not in text


COLUMN_SUM = """func.func @main(%x: tensor<512x256xf32>) -> tensor<256xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x256xf32>, tensor<f32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}"""  # noqa: E501


def test_column_reduction_schedule_follows_the_target():
    from dataclasses import replace

    from lowering.frontend.parser import parse_module
    from lowering.frontend.printer import print_module
    from lowering.passes.pipeline import run_pipeline
    cpu = cpu_target("x86_64-unknown-linux-gnu", features="+avx2")

    def lhlo(target):
        return print_module(run_pipeline(parse_module(COLUMN_SUM), "lhlo", target=target))
    assert "aot.scratch" in lhlo(cpu)  # rows cut into chunks reduced in parallel
    assert "aot.scratch" not in lhlo(replace(cpu, column_chunks=0))
    assert "aot.scratch" not in lhlo(replace(cpu, memory_order_columns=False))


def test_column_sum_without_the_cpu_schedule_is_right(tmp_path):
    """A target without memory-order walks and chunks (as a GPU's will be) gets the generic
    reduction loops: the same numbers."""
    from dataclasses import replace

    import numpy as np

    import aot
    c = Compilation(COLUMN_SUM, "colsum.mlir", Options(name="colsum", emit="shared"))
    c.target = replace(c.target, memory_order_columns=False, column_chunks=0)
    c.build(str(tmp_path / "libcolsum.so"))
    x = np.random.default_rng(0).standard_normal((512, 256)).astype(np.float32)
    got = aot.load(str(tmp_path / "libcolsum.so")).main(x)
    np.testing.assert_allclose(got, x.astype(np.float64).sum(0), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("triple, features, want", [
    ("x86_64-unknown-linux-gnu", "+avx2,+fma", "+avx2,+fma,+prefer-no-gather"),
    ("x86_64-unknown-linux-gnu", "+avx2,-prefer-no-gather", "+avx2,-prefer-no-gather"),  # the user's
    ("aarch64-unknown-linux-gnu", "+neon", "+neon"),
])
def test_x86_code_prefers_scalar_loads_to_gathers(triple, features, want):
    assert cpu_target(triple, features=features).features == want


# a depthwise 3x3 convolution at stride 2, channels first (EfficientNet's): its window taps
# are stride-2 loads along the row, which LLVM vectorised as gathers (3.4x slower on znver4)
DEPTHWISE_STRIDE_2 = """func.func @main(%x: tensor<1x8x16x16xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}"""  # noqa: E501


def test_strided_loads_are_not_gathered(tmp_path):
    opts = Options(name="dw", emit="asm", target_triple="x86_64-unknown-linux-gnu",
                   target_cpu="znver4", target_features="+avx2,+fma,+avx512f")
    out = tmp_path / "dw.s"
    Compilation(DEPTHWISE_STRIDE_2, "dw.mlir", opts).build(str(out))
    asm = out.read_text()
    assert "vfmadd" in asm and "gather" not in asm
