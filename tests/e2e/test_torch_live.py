"""PyTorch's front door with torch installed (`make test-torch`, which installs the `torch`
extra, torch==2.13.0 CPU, and sets AOTC_TEST_TORCH=1): `aot.compile_torch` and
`aot.compile(ExportedProgram)` against eager PyTorch at several sizes from one library, a
tensor `torch.save` pickled read back without torch, and the heavier saved corpus cases
(a GPT block with dynamic batch and sequence, an LSTM+GRU, a static MLP)."""
import os

import numpy as np
import pytest

import aot

if not os.environ.get("AOTC_TEST_TORCH"):
    pytest.skip("PyTorch's live tests run in `make test-torch`", allow_module_level=True)

import lowering.torch.rules  # noqa: E402,F401  (fills the table)
import torch  # noqa: E402
from aot.import_torch import export_torch, op_names, program_bytes  # noqa: E402
from e2e.test_torch import (  # noqa: E402
    SLOW_CASES,
    c_caller,
    check_case,
    check_case_from_c,
    corpus_module,
)
from lowering.torch.archive import load_torch_save, read_pt2  # noqa: E402
from lowering.torch.lower import lower_program  # noqa: E402
from lowering.torch.table import lowerable  # noqa: E402
from torch import nn  # noqa: E402
from torch.export import Dim  # noqa: E402

corpus = corpus_module()


@pytest.mark.parametrize("name", SLOW_CASES)
def test_saved_corpus_heavier_cases(name, tmp_path):
    """From Python and from a C program (the GPT block, the LSTM+GRU, ...)."""
    check_case(name)
    check_case_from_c(name, str(tmp_path))


@pytest.mark.parametrize("cls", [corpus.GPT, corpus.RNN, corpus.CondNonzero, corpus.Encoder])
def test_corpus_models_static(cls):
    """The corpus's GPT block, LSTM+GRU, torch.cond/nonzero/unique model and BERT-like
    encoder exported without dynamic dims match eager too (the saved cases are dynamic)."""
    torch.manual_seed(5)
    model = cls().eval()
    if cls in (corpus.GPT, corpus.Encoder):
        x = torch.randint(1, 40, (3, 7))
    else:
        x = torch.randn(3, 7, 4) if cls is corpus.RNN else torch.randn(3, 4)
    lib = aot.compile_torch(model, x)
    with torch.no_grad():
        want = model(x)
    want = want if isinstance(want, tuple) else (want,)
    got = lib.main(x.numpy())
    got = got if isinstance(got, (list, tuple)) else [got]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-4, atol=1e-5)


class Block(nn.Module):
    """conv1d over a sequence, GELU, a residual linear, a mean over time."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(6, 8, 3, padding=1)
        self.fc = nn.Linear(8, 8)

    def forward(self, x):  # [b, 6, t]
        h = torch.nn.functional.gelu(self.conv(x)).transpose(1, 2)  # [b, t, 8]
        return (h + self.fc(h)).mean(dim=1)


def test_compile_torch_dynamic_batch_and_sequence():
    torch.manual_seed(0)
    model = Block().eval()
    b, t = Dim("b", min=1, max=16), Dim("t", min=3, max=40)
    lib = aot.compile_torch(model, torch.randn(2, 6, 5), dynamic_shapes={"x": {0: b, 2: t}})
    for shape in [(1, 6, 3), (4, 6, 17), (16, 6, 40)]:
        x = torch.randn(*shape)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(lib.main(x.numpy()), want, rtol=1e-4, atol=1e-5)
    with pytest.raises(RuntimeError, match="input 'x' dim 2 is 41, above its maximum 40"):
        lib.main(np.zeros((2, 6, 41), np.float32))


def test_compile_exported_program_with_params_as_args():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3)).eval()
    ep = torch.export.export(model, (torch.randn(2, 4),))
    lib = aot.compile(ep, "seq", params_as_args=True)
    x = torch.randn(2, 4)
    params = [p.detach().numpy() for p in model.parameters()]
    with torch.no_grad():
        want = model(x).numpy()
    np.testing.assert_allclose(lib.main(*params, x.numpy()), want, rtol=1e-5, atol=1e-6)


def test_torch_save_tensor_read_without_torch(tmp_path):
    """A strided view (its storage larger than the tensor) round-trips through torch.save."""
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    view = base[1:, ::2].t()
    path = tmp_path / "t.pt"
    torch.save(view, path)
    np.testing.assert_array_equal(load_torch_save(path.read_bytes(), "t"), view.numpy())


@pytest.mark.parametrize("kind", ["bert", "gpt2"])
def test_transformers_models_dynamic_batch_and_sequence(kind, tmp_path):
    """transformers' BERT and GPT-2 (the GPT-2 mask takes a cumsum and a four-tensor index
    along the dynamic sequence) from one library at three batch and sequence sizes, from
    Python and from a C program, lowered as exported: every op has a rule, so no
    run_decompositions retrace. Exported static, each matches too."""
    model = corpus.transformers_model(kind)
    ids = torch.randint(0, 100, (2, 8))
    dims = {"ids": {0: Dim("batch", min=1, max=32), 1: Dim("seq", min=2, max=64)}}
    ep = export_torch(model, (ids,), dims)
    assert [op for op in sorted(op_names(ep)) if not lowerable(op)] == []
    lower_program(read_pt2(program_bytes(ep, False), kind), kind, False)  # raises if it cannot
    lib = aot.compile(ep, kind)
    call = c_caller(lib, str(tmp_path))
    for shape in [(1, 2), (3, 9), (2, 33)]:
        x = torch.randint(0, 100, shape)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(lib.main(x.numpy()), want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(call(x.numpy())[0], want, rtol=1e-4, atol=1e-5)
    with pytest.raises(RuntimeError, match="input 'ids' dim 1 is 65, above its maximum 64"):
        call(np.zeros((1, 65), np.int64))
    static = aot.compile(export_torch(model, (ids,), None), f"{kind}_static")
    with torch.no_grad():
        want = model(ids).numpy()
    np.testing.assert_allclose(static.main(ids.numpy()), want, rtol=1e-4, atol=1e-5)


class LoopGRU(nn.Module):
    """A GRU cell stepped over a dynamic sequence by torch.while_loop (nn.GRU is exported
    unrolled over the example's length): the step reads x[:, i] at the carried counter."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 8)

    def forward(self, x):  # [b, t, 4]
        def more(i, h):
            return i < x.shape[1]

        def step(i, h):
            return i + 1, self.cell(x.index_select(1, i.reshape(1)).squeeze(1), h)

        start = (torch.zeros((), dtype=torch.int64), x.new_zeros(x.shape[0], 8))
        return torch.while_loop(more, step, start)[1]


def test_while_loop_recurrence_over_a_dynamic_sequence(tmp_path):
    """torch.while_loop as mhlo.while: one library steps a GRU cell over every sequence
    length its Dim allows, from Python and from C."""
    torch.manual_seed(6)
    model = LoopGRU().eval()
    dims = {"x": {0: Dim("batch", max=32), 1: Dim("seq", max=64)}}
    lib = aot.compile_torch(model, torch.randn(2, 5, 4), dynamic_shapes=dims)
    call = c_caller(lib, str(tmp_path))
    for shape in [(1, 2), (3, 9), (2, 33)]:
        x = torch.randn(*shape, 4)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(lib.main(x.numpy()), want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(call(x.numpy())[0], want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("cls", [corpus.TinyResNet, corpus.TinyMobileNet, corpus.TinyViT])
def test_vision_models_dynamic_batch(cls):
    torch.manual_seed(3)
    model = cls().eval()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.3, 0.3)
            m.running_var.uniform_(0.5, 1.5)
    lib = aot.compile_torch(model, torch.randn(2, 3, 16, 16),
                            dynamic_shapes={"x": {0: Dim("batch", min=1, max=32)}})
    for b in (1, 3, 8):
        x = torch.randn(b, 3, 16, 16)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(lib.main(x.numpy()), want, rtol=1e-4, atol=1e-4)


class Upsample(nn.Module):
    """Transposed convolutions: strided with output padding and groups (2-d), dilated (1-d)."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
        self.line = nn.ConvTranspose1d(6, 3, 4, stride=3, padding=2, dilation=2, bias=False)

    def forward(self, x):  # [b, 4, 5, 7]
        h = torch.relu(self.up(x))  # [b, 6, 10, 14]
        return self.line(h.mean(dim=2))  # [b, 3, 43]


def test_transposed_convolution_dynamic_batch():
    torch.manual_seed(4)
    model = Upsample().eval()
    lib = aot.compile_torch(model, torch.randn(2, 4, 5, 7),
                            dynamic_shapes={"x": {0: Dim("batch", min=1, max=8)}})
    for b in (1, 3, 8):
        x = torch.randn(b, 4, 5, 7)
        with torch.no_grad():
            want = model(x).numpy()
        np.testing.assert_allclose(lib.main(x.numpy()), want, rtol=1e-4, atol=1e-5)


def test_in_place_op_seen_through_a_view_matches_eager():
    """An ExportedProgram whose in-place op overwrites a tensor a view of which is read after
    it matches eager (the write is seen through the view)."""
    x = torch.randn(4)
    lib = aot.compile_torch(corpus.InPlaceHazard(), x)
    np.testing.assert_allclose(lib.main(x.numpy()), corpus.InPlaceHazard()(x.clone()).numpy())


class KeyCache(nn.Module):
    """A decoding step that writes into a cache buffer and counts its calls."""

    def __init__(self):
        super().__init__()
        self.register_buffer("k", torch.zeros(1, 16, 4))
        self.register_buffer("n", torch.zeros((), dtype=torch.int64))

    def forward(self, x, pos):
        self.k.index_copy_(1, pos, x)
        self.n.add_(1)
        return (self.k * 2).sum(1)


def test_state_a_library_cannot_keep_is_refused_by_name():
    """A buffer the program updates (a cache, a counter) and an input it writes into are
    errors naming them (after the decomposition aot.compile falls back to), never a library
    that silently starts from the buffer's initial value on every call."""
    from lowering.ir.core import CompileError
    ep = torch.export.export(KeyCache(), (torch.randn(1, 1, 4), torch.tensor([3])))
    with pytest.raises(CompileError, match=r"updates buffer '(k|n)' .* keeps no state between "
                                           r"calls; pass it as an input"):
        aot.compile(ep, "key_cache")
    ep = torch.export.export(corpus.InputWrite(), (torch.randn(2, 3),))
    with pytest.raises(CompileError, match=r"writes into its input 'x'"):
        aot.compile(ep, "input_write_live")


@pytest.mark.parametrize("name", ["linalg", "spectral", "dynamic_spatial", "bf16"])
def test_newer_corpus_cases_export_live(name):
    """The saved linalg, spectral, dynamic_spatial and bf16 cases were exported with a newer
    torch than this target installs: exported here by this torch, each matches eager at
    every size set from one library (bf16 within two bfloat16 units)."""
    cls, _, dynamic, sizes = corpus.CASES[name]
    torch.manual_seed(corpus.seed(name, "weights"))
    model = cls().eval()
    example = tuple(corpus.as_torch(name, a) for a in corpus.inputs(name, 0))
    lib = aot.compile(torch.export.export(model, example, dynamic_shapes=dynamic).run_decompositions())
    tol = dict(rtol=0, atol=2 ** -8) if name == "bf16" else dict(rtol=1e-4, atol=1e-5)
    for k in range(len(sizes)):
        args = [corpus.as_torch(name, a) for a in corpus.inputs(name, k)]
        with torch.no_grad():
            want = model(*args)
        want = want if isinstance(want, tuple) else (want,)
        got = lib.main(*[a.float().numpy().astype(lib_dtype(a)) for a in args])
        got = got if isinstance(got, (list, tuple)) else [got]
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w.float().numpy() if w.dtype == torch.bfloat16 else w.numpy(),
                                       **tol)


def lib_dtype(t):
    import ml_dtypes
    return ml_dtypes.bfloat16 if t.dtype == torch.bfloat16 else t.numpy().dtype


class SizeBranch(nn.Module):
    """Takes a Python branch on a size: torch.export keeps the branch it traced and records
    the condition as a guard."""

    def forward(self, x):
        n = x.shape[1]
        if n // 4 + (-n) % 4 > 3:
            return x * 2
        return x + 1


class CountCheck(nn.Module):
    """torch._check on a data-dependent size: an `_assert_scalar` node in the graph."""

    def forward(self, x):
        nz = torch.nonzero(x > 0)
        torch._check(nz.shape[0] % 5 != 0)
        return nz.sum(0)


def test_size_branches_and_checks_are_checked_on_every_call():
    """The branch traced at n=16 holds for n=13 and 9, not for n=8 (which would take the
    other branch in eager): refused by name, never the traced branch's answer. The guards
    survive run_decompositions (aot.compile_torch's fallback). A torch._check on a count of
    nonzeros fails at run time when 5 or 10 of them are positive."""
    model = SizeBranch()
    lib = aot.compile_torch(model, torch.randn(2, 16), dynamic_shapes={"x": {1: Dim.AUTO}})
    for n in (16, 13, 9):
        x = np.random.default_rng(n).standard_normal((2, n)).astype(np.float32)
        np.testing.assert_allclose(lib.main(x), model(torch.from_numpy(x)).numpy())
    with pytest.raises(RuntimeError, match=r"input 'x' dim 1 is 8: outside the sizes the program "
                                           r"was exported for"):
        lib.main(np.ones((2, 8), np.float32))
    decomposed = read_pt2(program_bytes(export_torch(model, (torch.randn(2, 16),),
                                                     {"x": {1: Dim.AUTO}}), True))
    assert any("% 4" in g for g in decomposed.guards)  # run_decompositions drops them
    counted = aot.compile_torch(CountCheck(), torch.randn(2, 16),
                                dynamic_shapes={"x": {1: Dim.AUTO}})
    x = np.ones((2, 16), np.float32)
    np.testing.assert_array_equal(counted.main(x), CountCheck()(torch.from_numpy(x)).numpy())
    x[:, 5:] = -1  # 10 positive
    with pytest.raises(RuntimeError, match=r"_assert_scalar.* failed: Runtime assertion failed "
                                           r"for expression Ne\(Mod\(u0, 5\), 0\)"):
        counted.main(x)
