"""PyTorch programs in, without torch: the `.pt2` files tests/data/torch/export.py saved
(torch.export + run_decompositions, small models written there) compile and match PyTorch's
eager outputs saved beside them, static and with dynamic batch (and sequence) dims at three
sizes or more from one library; a dim outside its torch.export.Dim range is an error naming
the input and the bound; an ATen op without a rule is a compile error naming the op and the
model's file:line. The heavier corpus cases (gpt, rnn) run in `make test-torch`
(tests/e2e/test_torch_live.py), with the tests that export live from torch."""
import functools
import io
import json
import os
import pickle
import re
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import aot
from lowering.ir.core import CompileError
from lowering.torch.archive import Pt2Error, _strided, load_torch_save, read_pt2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "torch")
DEFAULT_CASES = ["mlp", "cnn", "misc", "encoder", "ops", "cond_nonzero", "composite",
                 "masks", "common", "attention", "sorting", "scatter_writes", "setitem",
                 "more_ops", "composite_more", "while_grid", "mask_put", "linalg",
                 "spectral", "dynamic_spatial", "shifted_windows",
                 "pools_any_size", "zoo_ops", "video_ops", "detection_ops",
                 "views_and_heads", "timm_ops", "recurrent"]
# make test-torch; scatter_core and more_ops_core are scatter_writes and more_ops decomposed
# (index_add/copy/fill as index_put; embedding_bag, instance_norm, repeat_interleave as
# their core ATen forms)
SLOW_CASES = ["gpt", "rnn", "mlp_static", "scatter_core", "more_ops_core"]


def corpus_module():
    """tests/data/torch/export.py as a module (its model classes; needs torch)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("torch_corpus", os.path.join(DATA, "export.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # torch.cond's tracing (torch 2.13) imports it by name
    spec.loader.exec_module(module)
    return module


@functools.cache
def library(name: str, params_as_args: bool = False):
    return aot.compile(os.path.join(DATA, f"{name}.pt2"), params_as_args=params_as_args)


def size_sets(name: str) -> list:
    """[(inputs, eager outputs)] per size set the export saved."""
    data = np.load(os.path.join(DATA, f"{name}.npz"))
    out, k = [], 0
    while f"s{k}_arg0" in data:
        args = [data[f"s{k}_arg{i}"] for i in range(len(data.files)) if f"s{k}_arg{i}" in data]
        outs = [data[f"s{k}_out{i}"] for i in range(len(data.files)) if f"s{k}_out{i}" in data]
        out.append((args, outs))
        k += 1
    return out


def check_case(name: str) -> None:
    lib = library(name)
    for args, want in size_sets(name):
        got = lib.main(*args)
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"{name} {args[0].shape}")


@pytest.mark.parametrize("name", DEFAULT_CASES)
def test_corpus_matches_eager(name):
    """Each saved model at every saved size (batch 1 and three more; misc and encoder take
    integer and index inputs, encoder and gpt a dynamic sequence too; cond_nonzero takes
    both torch.cond branches and returns nonzero's data-dependent count of rows)."""
    assert len(size_sets(name)) >= 4
    check_case(name)


def test_in_place_op_on_a_tensor_a_view_shares_is_seen_by_the_view():
    """relu_ on a tensor a view was taken of (saved as exported, not decomposed): the view,
    read after it, sees the change, as in PyTorch (views_and_heads holds more such writes)."""
    check_case("inplace_hazard")
    x = size_sets("inplace_hazard")[0][0][0]
    np.testing.assert_allclose(library("inplace_hazard").main(x),
                               np.maximum(x * 2, 0).reshape(2, 2) + 1)


def test_in_place_write_into_an_input_is_refused():
    """`x[:, 0] += 1` on an input (saved as exported): an error at the model's line naming
    the input, which aot.compile answers by decomposing the program."""
    with pytest.raises(CompileError, match=r"aten\.add_\.Tensor: in-place op \(node '\w+'\) "
                                           r"overwrites '\w+', which is \(a view of\) input or "
                                           r"weight 'x'") as info:
        aot.compile(os.path.join(DATA, "input_write.pt2"))
    assert "export.py" in str(info.value.loc.file)


def test_mask_put_count_is_checked_on_every_call():
    """`y[x > 0] = v` with v another input: a count of rows other than the mask's true
    elements is refused at the model's line (PyTorch refuses it too), never a wrong answer;
    one row is broadcast to every true element, as PyTorch does."""
    lib = library("mask_put")
    line, = _model_lines("    y[x > 0] = v")
    x = np.array([1.0, -1.0, 2.0, -3.0], np.float32)
    y, _ = lib.main(x, np.array([7.0], np.float32))
    np.testing.assert_array_equal(y, [7.0, -1.0, 7.0, -3.0])
    for rows in (3, 0):
        with pytest.raises(RuntimeError, match=rf"aten\.index_put\.default: x\[mask\] = "
                                               rf"values: values has {rows} rows, the mask 2 "
                                               rf"true elements \(.*export\.py:{line}\)"):
            lib.main(x, np.ones(rows, np.float32))


def test_bfloat16_model_matches_eager_within_its_rounding():
    """A bfloat16 model (weights, input and arithmetic): from one library at four batch
    sizes, within a few bfloat16 units of eager (the two round intermediates differently:
    PyTorch after every op, the compiled library where its fusions store)."""
    import ml_dtypes
    lib = library("bf16")
    for args, want in size_sets("bf16"):
        got = lib.main(args[0].astype(ml_dtypes.bfloat16))
        assert got.dtype == np.float32 and got.shape == want[0].shape
        np.testing.assert_allclose(got, want[0], rtol=0, atol=2 ** -8)  # 2 units at 0.25-0.5
        np.testing.assert_allclose(got.sum(-1), 1.0, atol=1e-2)


def test_linalg_errors_are_checked_on_every_call():
    """torch.linalg.solve and inv raise on a singular matrix, cholesky on one that is not
    positive-definite (their `_linalg_check_errors`): so does the library, naming the
    function, what failed and the model's line; a NaN is not positive-definite."""
    lib = library("linalg")
    b = np.ones((2, 4, 3), np.float32)
    singular = np.zeros((2, 4, 4), np.float32)
    singular[1] = np.eye(4)
    line, = _model_lines("        x = torch.linalg.solve(a, b)")
    with pytest.raises(RuntimeError, match=rf"torch\.linalg\.solve: the input is singular "
                                           rf"\(U's diagonal element 1 is zero\) \(.*export\.py:{line}\)"):
        lib.main(singular, b)
    line, = _model_lines("        chol = torch.linalg.cholesky(spd)")
    with pytest.raises(RuntimeError, match=rf"linalg\.cholesky: the input is not positive-definite "
                                           rf"\(the leading minor of order 1 .*export\.py:{line}\)"):
        lib.main(np.full((2, 4, 4), np.nan, np.float32), b)


def test_dim_range_is_checked_by_name():
    lib = library("mlp")
    with pytest.raises(RuntimeError, match=r"input 'x' dim 0 is 0, below its minimum 1"):
        lib.main(np.zeros((0, 16), np.float32))
    with pytest.raises(RuntimeError, match=r"input 'x' dim 0 is 65, above its maximum 64"):
        lib.main(np.zeros((65, 16), np.float32))
    assert lib.main(np.zeros((64, 16), np.float32)).shape == (64, 10)  # the bound itself runs


def test_dynamic_sequence_range_is_checked():
    lib = library("encoder")
    with pytest.raises(RuntimeError, match=r"input 'ids' dim 1 is 1, below its minimum 2"):
        lib.main(np.ones((2, 1), np.int64))


def test_unknown_op_names_the_aten_op_and_model_line():
    line = next(i for i, text in enumerate(open(os.path.join(DATA, "export.py")), 1)
                if "torch.special.bessel_j0(x)" in text)
    with pytest.raises(CompileError) as info:
        aot.compile(os.path.join(DATA, "unknown_op.pt2"))
    message = str(info.value)
    assert "aten.special_bessel_j0.default" in message
    assert f"export.py:{line}:" in message
    assert "torch.special.bessel_j0(x) + 1" in message  # the model's source line


def _model_lines(*snippets) -> list:
    """The lines of tests/data/torch/export.py holding each snippet."""
    lines = open(os.path.join(DATA, "export.py")).read().split("\n")
    return [next(i for i, text in enumerate(lines, 1) if s in text) for s in snippets]


MLP_LINES = ("h = F.gelu(self.fc1(x))", "h = self.norm(F.silu(self.fc2(h)) + h)",
             "return torch.softmax(self.fc3(torch.relu(h)), dim=-1)")


def test_printed_program_carries_the_model_lines():
    """The text handed to the driver ends each op with its node's loc("file":line:col) (the
    model's frame, not nn.Linear's inside torch) and the parser makes it the op's location."""
    from aot.import_torch import torch_to_mlir
    from lowering.frontend.parser import parse_module
    text, filename = torch_to_mlir(os.path.join(DATA, "mlp.pt2"))
    lines = _model_lines(*MLP_LINES)
    where = {(m.group(1), int(m.group(2))) for m in re.finditer(r'loc\("([^"]+)":(\d+):0\)', text)}
    assert {line for _, line in where} == set(lines), where
    assert all(file.endswith(os.path.join("torch", "export.py")) for file, _ in where)
    ops = [op for f in parse_module(text, filename).functions() for op in f.walk()]
    dots = [op for op in ops if op.name == "mhlo.dot_general"]
    assert [op.loc.line for op in dots] == lines and dots[0].loc.file.endswith("export.py")
    assert any(op.loc.file == filename for op in ops)  # ops without a node: the text's line


def test_profile_and_report_name_the_model_lines(tmp_path):
    """AOT_PROFILE's kernels and `aotc --report`'s are named by the model's file:line."""
    so = str(tmp_path / "libmlp.so")
    built = subprocess.run([sys.executable, "-m", "aot.cli", "compile", os.path.join(DATA, "mlp.pt2"),
                            "--report", "-o", so], capture_output=True, text=True, cwd=ROOT)
    assert built.returncode == 0, built.stderr
    lines = _model_lines(*MLP_LINES)
    reported = re.findall(r"^kernel \d+: .* at (.*):(\d+):\d+ \(", built.stdout, re.M)
    assert {int(line) for file, line in reported if file.endswith("export.py")} == set(lines)
    calls = ("import sys, numpy as np, aot; lib = aot.load(sys.argv[1]); "
             "[lib.main(np.ones((n, 16), np.float32)) for n in (1, 5)]")
    run = subprocess.run([sys.executable, "-c", calls, so], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, AOT_PROFILE="1"), timeout=120)
    assert run.returncode == 0, run.stderr
    rows = [row for row in run.stderr.splitlines() if " mlp.main_kernel_" in row]
    profiled = [re.search(r" at (.*):(\d+):\d+$", row).groups() for row in rows]
    assert {int(line) for file, line in profiled if file.endswith("export.py")} == set(lines), \
        run.stderr  # the rest: the Dim range checks, at the printed text's lines
    assert all(file.endswith(("export.py", "mlp.pt2")) for file, _ in profiled), run.stderr


def test_header_and_inspect_use_the_signature_names():
    lib = library("encoder")
    out = subprocess.run([sys.executable, "-m", "aot.cli", "inspect", lib.path],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "main(ids: i64[?,?])" in out


def test_call_errors_name_the_input():
    """A wrong dtype or shape at call time names the model's input, as its signature does."""
    lib = library("mlp")
    assert str(lib.main.signature).startswith("main(x: f32[?,16])")
    with pytest.raises(TypeError, match=r"argument 'x' \(#0\) expects f32\[\?,16\], got f64"):
        lib.main(np.zeros((2, 16), np.float64))
    with pytest.raises(ValueError, match=r"argument 'x' \(#0\) expects f32\[\?,16\]"):
        lib.main(np.zeros((2, 15), np.float32))


def test_cli_compiles_pt2_without_torch(tmp_path):
    """`aotc compile model.pt2` in a process where importing torch fails."""
    code = ("import sys; sys.modules['torch'] = None; from aot.cli import main; "
            f"sys.exit(main(['compile', {os.path.join(DATA, 'mlp.pt2')!r}, '--emit', 'hlo', "
            f"'-o', {str(tmp_path / 'mlp.hlo.mlir')!r}]))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "dot_general" in (tmp_path / "mlp.hlo.mlir").read_text()


def test_params_as_leading_arguments():
    """With params_as_args the weights are arguments, in the signature's order, named by
    their module paths; fed the saved weights, the result is the frozen library's."""
    prog = read_pt2(os.path.join(DATA, "mlp.pt2"))
    lib = library("mlp", params_as_args=True)
    names = [s["parameter"]["parameter_name"] for s in prog.signature["input_specs"]
             if "parameter" in s]
    weights = [prog.weights[n] for n in names]
    (args, want), = size_sets("mlp")[:1]
    np.testing.assert_allclose(lib.main(*weights, *args), want[0], rtol=1e-4, atol=1e-5)
    out = subprocess.run([sys.executable, "-m", "aot.cli", "inspect", lib.path],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "main(fc1.weight: f32[32,16], fc1.bias: f32[32]" in out


def test_weights_are_strided_views_of_their_storage():
    """Tensors sharing one storage file: each read at its offset with its strides."""
    data = np.arange(12, dtype="<f4").tobytes()
    meta = {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}],
            "strides": [{"as_int": 1}, {"as_int": 2}], "storage_offset": {"as_int": 5}}
    np.testing.assert_array_equal(_strided(data, meta, "w"), [[5, 7, 9], [6, 8, 10]])
    meta["storage_offset"] = {"as_int": 8}
    with pytest.raises(Pt2Error, match="reach past"):
        _strided(data, meta, "w")


def edited_pt2(name: str, edit) -> bytes:
    """The saved case's .pt2 with `edit` applied to its program (models/model.json)."""
    src = zipfile.ZipFile(os.path.join(DATA, f"{name}.pt2"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("models/model.json"):
                program = json.loads(data)
                edit(program)
                data = json.dumps(program).encode()
            out.writestr(info, data)
    return buf.getvalue()


def test_as_strided_that_reinterprets_storage_is_refused():
    """shifted_windows' as_strided (a restride of a mean's [?, 16, 1, 1]) with its strides
    edited to read the batch dim innermost: no longer a dense view of its input, so a
    located error naming the sizes and strides, never a wrong answer."""
    def restride(program: dict) -> None:
        node, = [n for n in program["graph_module"]["graph"]["nodes"]
                 if "as_strided" in n["target"]]
        stride, = [i["arg"] for i in node["inputs"] if i["name"] == "stride"]
        assert stride["as_ints"] == [16, 1, 16, 16]
        stride["as_ints"] = [1, 16, 16, 16]
    with pytest.raises(CompileError, match=r"as_strided with sizes \[\?, 16, 1, 1\] and "
                                           r"strides \[1, 16, 16, 16\] reinterprets"):
        aot.compile(edited_pt2("shifted_windows", restride))


def test_a_size_torch_export_specialised_is_checked_on_every_call():
    """torch.export may record a size derived from a dynamic one as a constant (Inception's
    last maps are 1x1 at the size it was exported at, 2x2 larger). The mlp case with its
    gelu's batch dim recorded as 2, as if export had specialised it: batch 2 runs, batch 3
    is refused naming the node, the model's line and the recorded size."""
    def specialise(program: dict) -> None:
        sizes = program["graph_module"]["graph"]["tensor_values"]["gelu"]["sizes"]
        assert "as_expr" in sizes[0]
        sizes[0] = {"as_int": 2}
    lib = aot.compile(edited_pt2("mlp", specialise), name="mlp_specialised")
    (args, (want,)), = [(a, w) for a, w in size_sets("mlp") if a[0].shape[0] == 2]
    np.testing.assert_allclose(lib.main(*args), want, rtol=1e-4, atol=1e-5)
    with pytest.raises(RuntimeError, match=r"aten\.gelu\.default at .*export\.py:\d+: dim 0 of "
                                           r"its result is 5, but torch\.export recorded it as "
                                           r"2 \(it specialised this size"):
        lib.main(np.ones((5, 16), np.float32))


GUARDS = [  # Python's floor // and % of negatives, sym_max/min, chains, not, and/or
    "((-1)*L['x'].size()[0]) % 3 != 2",
    "((-1)*L['x'].size()[0]) // 4 + torch.sym_max(1, L['x'].size()[0] // 5) >= -1",
    "not (5 < L['x'].size()[0] <= 6) or torch.sym_min(L['x'].size()[0], 2) == 3",
    # a run-time zero divisor raises in Python (refused) unless and/or or a chain stops first
    "24 // (L['x'].size()[0] - 8) != 5",
    "L['x'].size()[0] == 12 or 3 % (L['x'].size()[0] - 12) >= 0",
    "not (L['x'].size()[0] != 11 and 1 < 9 // (L['x'].size()[0] - 11) < 2)",
    "max(3, L['x'].size()[0]) * min(2, L['x'].size()[0]) != 6",  # sympy's Max/Min (Falcon)
]


def python_guard_holds(guard: str, b: int) -> bool:
    """Python's own evaluation of a guard at batch b; one that raises refuses the call."""
    names = {"torch": type("T", (), {"sym_max": staticmethod(max), "sym_min": staticmethod(min)})}
    shape = type("X", (), {"size": lambda self: (b, 16)})()
    try:
        return bool(eval(guard, dict(names, L={"x": shape})))
    except ZeroDivisionError:
        return False


def test_torch_export_guards_are_checked_on_every_call():
    """A branch the model takes on a size is traced once and recorded as a guard
    (`guards_code`), a Python expression over the input sizes. The mlp case with GUARDS
    added: each batch runs exactly when Python's own evaluation of every guard holds, else
    the call is refused naming the input's dim and the first guard that fails."""
    def add_guards(program: dict) -> None:
        program["guards_code"] = list(program.get("guards_code") or []) + GUARDS
    lib = aot.compile(edited_pt2("mlp", add_guards), name="mlp_guarded")
    ran = []
    for b in range(1, 13):
        x = np.ones((b, 16), np.float32)
        failing = [g for g in GUARDS if not python_guard_holds(g, b)]
        if not failing:
            assert lib.main(x).shape == (b, 10)
            ran.append(b)
            continue
        with pytest.raises(RuntimeError, match=rf"input 'x' dim 0 is {b}: outside the sizes the "
                                               r"program was exported for \(torch\.export "
                                               rf"assumed {re.escape(failing[0])},"):
            lib.main(x)
    assert ran == [11, 12]  # every guard but the last fails somewhere in 1..12; 8 divides by zero


@pytest.mark.parametrize("guard, why", [
    ("L['x'].stride()[0] == 16", "is not a size expression it knows"),
    ("L['y'].size()[0] == 2", "reads L['y'], not an input tensor"),
])
def test_a_guard_that_cannot_be_checked_is_a_compile_error(guard, why):
    def add_guard(program: dict) -> None:
        program["guards_code"] = [guard]
    with pytest.raises(CompileError, match=rf"guard on the input sizes that cannot be checked "
                                           rf"at run time \(.*{re.escape(why)}"):
        aot.compile(edited_pt2("mlp", add_guard), name="mlp_unguardable")


def test_pickled_weights_refuse_other_globals():
    """A torch.save archive whose pickle names anything but a tensor's parts is refused."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps(os.system))
    with pytest.raises(Pt2Error, match="refused"):
        load_torch_save(buf.getvalue(), "evil")


def test_not_a_pt2_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.pt2"
    bad.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(Pt2Error, match="not a .pt2 archive"):
        aot.compile(str(bad))


def test_c_program_calls_the_dynamic_library(tmp_path):
    """A C program, no Python inside, calls the .pt2's library at two batch sizes (the
    result allocated by the runtime) and sees a batch of 0 refused by name."""
    lib = library("mlp")
    folder = os.path.dirname(lib.path)
    exe = str(tmp_path / "batch_main")
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", '-DHEADER="mlp.h"', "-DENTRY=mlp_main",
                    "-o", exe, os.path.join(DATA, "batch_main.c"),
                    "-I", folder, lib.path, f"-Wl,-rpath,{folder}", "-lm", "-lpthread", "-ldl"],
                   check=True, capture_output=True)
    for args, (want,) in size_sets("mlp")[1:3]:
        x = args[0]
        x.tofile(tmp_path / "x.bin")
        run = subprocess.run([exe, str(len(x)), str(tmp_path / "x.bin"), str(tmp_path / "y.bin")],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        got = np.fromfile(tmp_path / "y.bin", np.float32).reshape(want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        assert "refused: input 'x' dim 0 is 0, below its minimum 1" in run.stdout


NUMPY_OF = {"f32": np.float32, "f64": np.float64, "i64": np.int64, "i32": np.int32,
            "i1": np.bool_, "i8": np.int8, "ui8": np.uint8, "f16": np.float16,
            "complex<f32>": np.complex64, "complex<f64>": np.complex128}


def c_caller(lib, folder: str):
    """A function calling lib's entry from a C program (tests/data/torch/run_main.c, no
    Python inside; the runtime allocates every result): numpy arrays in, arrays out."""
    exe = os.path.join(folder, "run_main")
    here = os.path.dirname(lib.path)
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", "-o", exe, os.path.join(DATA, "run_main.c"),
                    "-I", here, lib.path, f"-Wl,-rpath,{here}", "-lm", "-lpthread", "-ldl"],
                   check=True, capture_output=True)

    def call(*args):
        work = os.path.join(folder, "call")
        os.makedirs(work, exist_ok=True)
        for k, a in enumerate(args):
            a = np.ascontiguousarray(a)
            with open(os.path.join(work, f"arg{k}.dims"), "w") as f:
                f.write(" ".join(str(d) for d in (a.ndim, *a.shape)))
            a.tofile(os.path.join(work, f"arg{k}.bin"))
        run = subprocess.run([exe, work], capture_output=True, text=True, timeout=600)
        if run.returncode == 1:
            raise RuntimeError(run.stdout.strip())
        assert run.returncode == 0, run.stderr
        outs, k = [], 0
        while os.path.exists(os.path.join(work, f"result{k}.dims")):
            elem, _, *dims = open(os.path.join(work, f"result{k}.dims")).read().split()
            outs.append(np.fromfile(os.path.join(work, f"result{k}.bin"), NUMPY_OF[elem])
                        .reshape([int(d) for d in dims]))
            os.remove(os.path.join(work, f"result{k}.dims"))
            k += 1
        return outs
    return call


def check_case_from_c(name: str, folder: str) -> None:
    """check_case's comparisons with the library called from C, and batch 0 refused."""
    call = c_caller(library(name), folder)
    for args, want in size_sets(name):
        got = call(*args)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"{name} {args[0].shape}")
    if all(a.ndim for a in size_sets(name)[0][0]) and not name.endswith("static"):
        with pytest.raises(RuntimeError, match=r"failed: .*input '\w+' dim 0 is 0, below its minimum 1"):
            call(*[np.zeros((0,) + a.shape[1:], a.dtype) for a in size_sets(name)[0][0]])


@pytest.mark.parametrize("name", ["cond_nonzero", "encoder", "while_grid", "spectral", "linalg"])
def test_c_program_runs_the_corpus(name, tmp_path):
    """A C program calls the saved cases' libraries at every saved size and gets eager's
    outputs: torch.cond, nonzero's and unique's run-time counts (results the runtime
    allocates), the BERT-like encoder's dynamic batch and sequence, torch.while_loop,
    complex results (torch.fft), torch.linalg with its error checks."""
    check_case_from_c(name, str(tmp_path))


def test_docs_op_table_is_generated_from_the_rules():
    """docs/pytorch.md's ATen table is the rule table's (python -m lowering.torch.docs --write)."""
    from lowering.torch.docs import rewrite
    text = open(os.path.join(ROOT, "docs", "pytorch.md")).read()
    assert rewrite(text) == text
