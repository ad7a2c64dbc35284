"""Reading a `.pt2` file (what `torch.export.save` writes) without torch: a zip archive
holding the exported program as JSON (torch._export.serde's schema: the graph's nodes with
their ATen targets, arguments, tensor metadata and stack traces; the signature; the range
constraints of the symbolic dims) and the weights and constants.

A weight is either raw little-endian bytes (tensors sharing a storage share one file; each
is a strided view of it, per its `tensor_meta`), or, for tensor subclasses, a `torch.save`
archive: a pickle whose persistent ids name storage files beside it. `TensorUnpickler`
reads those with a closed list of globals mapped to numpy (torch's rebuild functions and
storage classes), so a weights file can run no other code."""
from __future__ import annotations

import io
import json
import pickle
import zipfile
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from lowering.ir.core import CompileError, numpy_dtype

# torch._export.serde.schema.ScalarType -> element type
ELEMS = {1: "ui8", 2: "i8", 3: "i16", 4: "i32", 5: "i64", 6: "f16", 7: "f32", 8: "f64",
         10: "complex<f32>", 11: "complex<f64>", 12: "i1", 13: "bf16", 28: "ui16", 34: "ui32",
         35: "ui64"}
SCALAR_NAMES = {0: "unknown", 9: "complex32",
                29: "float8_e4m3fn", 30: "float8_e5m2", 31: "float8_e4m3fnuz",
                32: "float8_e5m2fnuz", 33: "float8_e8m0fnu"}
# torch.save's storage classes -> numpy dtypes
STORAGES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
            "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
            "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
            "ComplexFloatStorage": np.complex64, "ComplexDoubleStorage": np.complex128,
            "BFloat16Storage": ml_dtypes.bfloat16}


class Pt2Error(CompileError):
    """A .pt2 file this reader cannot read: not a zip, no program, an unknown format. Its
    message starts with the file's name (it has no line to point at)."""

    def render(self) -> str:
        return f"aotc: error: {self.message}" if self.loc.line == 0 else super().render()


def elem_of(dtype: int, what: str) -> str:
    if dtype not in ELEMS:
        raise Pt2Error(f"{what}: dtype {SCALAR_NAMES.get(dtype, dtype)} is not supported "
                       f"(supported: float16/32/64, bfloat16, complex64/128, int8..64, uint8, bool)")
    return ELEMS[dtype]


@dataclass
class Program:
    """An exported program as the archive holds it (JSON dicts), its tensors as numpy."""
    graph: dict
    signature: dict
    range_constraints: dict
    weights: dict = field(default_factory=dict)  # parameter/buffer name -> ndarray
    constants: dict = field(default_factory=dict)  # tensor constant name -> ndarray
    filename: str = "<pt2>"
    torch_version: str = ""
    guards: list = field(default_factory=list)  # torch.export's guards_code (lowering/torch/guards.py)


def read_pt2(source, filename: str | None = None) -> Program:
    """The program of a .pt2 file (a path) or of its bytes."""
    name = filename or (source if isinstance(source, str) else "<pt2 bytes>")
    try:
        z = zipfile.ZipFile(source if isinstance(source, str) else io.BytesIO(source))
    except (OSError, zipfile.BadZipFile) as e:
        raise Pt2Error(f"{name}: not a .pt2 archive (torch.export.save's zip): {e}") from None
    with z:
        names = z.namelist()
        models = [n for n in names if n.endswith("/models/model.json")
                  or n.split("/")[-2:] == ["models", "model.json"]]
        if not models:
            raise Pt2Error(f"{name}: no exported program (models/model.json) in the archive; "
                           "was it written by torch.export.save?")
        root = models[0][:-len("models/model.json")]
        doc = json.loads(z.read(models[0]))
        try:
            gm = doc["graph_module"]
            prog = Program(gm["graph"], gm["signature"], doc.get("range_constraints", {}),
                           filename=name, torch_version=doc.get("torch_version", ""),
                           guards=list(doc.get("guards_code") or []))
        except (KeyError, TypeError) as e:
            raise Pt2Error(f"{name}: the program's JSON lacks {e}") from None
        prog.weights = _payload(z, root, "data/weights/", "model_weights_config.json", name)
        prog.constants = _payload(z, root, "data/constants/", "model_constants_config.json", name)
    return prog


def _payload(z: zipfile.ZipFile, root: str, folder: str, config: str, name: str) -> dict:
    """name -> ndarray of one payload folder, per its config (path, pickled or raw, meta)."""
    path = root + folder + config
    if path not in z.namelist():
        return {}
    out = {}
    for fqn, meta in json.loads(z.read(path)).get("config", {}).items():
        data = z.read(root + folder + meta["path_name"])
        tm = meta.get("tensor_meta")
        if tm is None:
            raise Pt2Error(f"{name}: constant '{fqn}' is a script object, not a tensor "
                           "(custom objects are not supported)")
        if meta.get("use_pickle"):
            out[fqn] = load_torch_save(data, f"{name}: {fqn}")
        else:
            out[fqn] = _strided(data, tm, f"{name}: weight '{fqn}'")
    return out


def _ints(sym_ints: list, what: str) -> list:
    if any("as_int" not in s for s in sym_ints):
        raise Pt2Error(f"{what} has a symbolic size or stride")
    return [s["as_int"] for s in sym_ints]


def _strided(data: bytes, tm: dict, what: str) -> np.ndarray:
    """The tensor `tm` describes as a view of a storage file's raw little-endian bytes."""
    dtype = numpy_dtype(elem_of(tm["dtype"], what)).newbyteorder("<")
    sizes, strides = _ints(tm["sizes"], what), _ints(tm["strides"], what)
    offset = tm.get("storage_offset", {"as_int": 0}).get("as_int", 0)
    flat = np.frombuffer(data, dtype)
    if sizes and min(sizes) == 0:
        return np.zeros(sizes, dtype.newbyteorder("="))
    last = offset + sum((n - 1) * s for n, s in zip(sizes, strides))
    if offset < 0 or last >= flat.size or min(strides, default=0) < 0:
        raise Pt2Error(f"{what}: sizes {sizes} and strides {strides} at offset {offset} reach "
                       f"past its {flat.size} stored elements")
    view = np.lib.stride_tricks.as_strided(flat[offset:], sizes,
                                           [s * dtype.itemsize for s in strides])
    return np.array(view, dtype.newbyteorder("="), order="C")  # not ascontiguousarray: 0-d stays 0-d


# ---------------------------------------------------------------- torch.save archives

def _rebuild_tensor(storage, offset, size, stride, *_rest):
    n = len(storage)
    last = offset + sum((a - 1) * b for a, b in zip(size, stride)) if all(size) else offset - 1
    if offset < 0 or last >= n or min(stride, default=0) < 0:
        raise pickle.UnpicklingError(f"a tensor of size {tuple(size)} reaches past its storage")
    if not all(size):
        return np.zeros(size, storage.dtype)
    item = storage.dtype.itemsize
    return np.array(np.lib.stride_tricks.as_strided(
        storage[offset:], tuple(size), tuple(s * item for s in stride)), order="C")


def _rebuild_parameter(data, *_rest):
    return data


class _StorageType:
    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)


class TensorUnpickler(pickle.Unpickler):
    """torch.save's data.pkl with torch's globals mapped to numpy and nothing else allowed."""

    GLOBALS = {("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
               ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
               ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
               ("collections", "OrderedDict"): dict}

    def __init__(self, data: bytes, read_storage):
        super().__init__(io.BytesIO(data))
        self.read_storage = read_storage

    def find_class(self, module, name):
        if module == "torch" and name in STORAGES:
            return _StorageType(STORAGES[name])
        if (module, name) in self.GLOBALS:
            return self.GLOBALS[(module, name)]
        raise pickle.UnpicklingError(f"{module}.{name} is not a tensor's part (refused)")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 3 and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        kind, key = pid[1], str(pid[2])
        if not isinstance(kind, _StorageType):
            raise pickle.UnpicklingError(f"storage of unknown type {kind!r}")
        return np.frombuffer(self.read_storage(key), kind.dtype.newbyteorder("<")).astype(kind.dtype)


def load_torch_save(data: bytes, what: str) -> np.ndarray:
    """A tensor `torch.save` wrote (its zip format), as a numpy array."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            pkl = [n for n in z.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
            if not pkl:
                raise pickle.UnpicklingError("no data.pkl")
            root = pkl[0][:-len("data.pkl")]
            result = TensorUnpickler(z.read(pkl[0]), lambda key: z.read(f"{root}data/{key}")).load()
    except (zipfile.BadZipFile, pickle.UnpicklingError, KeyError, EOFError, ValueError,
            TypeError) as e:
        raise Pt2Error(f"{what}: cannot read the pickled tensor: {e}") from None
    if not isinstance(result, np.ndarray):
        raise Pt2Error(f"{what}: the pickle holds a {type(result).__name__}, not a tensor")
    return result


def flat_outputs(outputs: list) -> list:
    """The names a node's outputs bind, in order (None for an output bound to nothing)."""
    names = []
    for out in outputs:
        (kind, body), = out.items()
        if kind == "as_tensor":
            names.append(body["name"])
        elif kind == "as_tensors":
            names += [t["name"] for t in body]
        elif kind in ("as_sym_int", "as_sym_float", "as_sym_bool"):
            names.append(body.get("as_name"))
        elif kind == "as_optional_tensors":
            names += [t.get("as_tensor", {}).get("name") for t in body]
        else:
            names.append(None)
    return names
