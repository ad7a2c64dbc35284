"""Load a compiled shared library and call its entries with numpy arrays.

cffi in ABI mode (ffi.dlopen): no C compiler is needed at load time, and the
declarations come from aot_runtime.h itself (see header.runtime_cdef).  Each
library describes its own entries through aot_library_metadata(), so nothing
about a model has to be known in Python beforehand.

    lib = Library("libmodel.so")
    y = lib.main(x)                  # numpy in, numpy out
    print(lib.main.signature)        # main(x: f32[4,?]) -> (f32[4,10])
"""
from __future__ import annotations

import ctypes
import dataclasses
import math
import os

import cffi
import numpy as np

from . import dlpack, dtypes
from .header import abi_version, runtime_cdef
from .signature import EntrySig, ValueSig, format_shape

ABI_VERSION = abi_version()  # aot_runtime.h's AOT_ABI_VERSION

ffi = cffi.FFI()
ffi.cdef(runtime_cdef())
# Results of at most this many bytes are copied out of the runtime's block, which is freed at
# once; bigger ones are wrapped in place (Entry._take).
_COPY_RESULTS_UP_TO = 4096
# The call path's C types, looked up once: ffi.new("...") parses its string on every call.
_TENSORS, _DIMS, _INT64_PTR, _CHAR_PTR = (
    ffi.typeof(t) for t in ("aot_tensor[]", "int64_t[]", "int64_t *", "char *"))


class AotRuntimeError(RuntimeError):
    """An entry function returned an error code; the message is the runtime's."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


# Which Python values may become which element kinds without losing meaning:
# bools anywhere, ints into ints and floats, floats only into floats, complex numbers
# (Python's complex, lists of them) only into complex arrays, which take reals too.
_CONVERTIBLE_KINDS = {"b": "b", "i": "biu", "u": "biu", "f": "biuf", "V": "biuf", "c": "biufc"}


def _string(p) -> str:
    return ffi.string(p).decode() if p != ffi.NULL else ""


def _value_sig(info) -> ValueSig:
    dims = tuple(None if info.dims[d] < 0 else info.dims[d] for d in range(info.rank))
    return ValueSig(_string(info.name), dtypes.from_code(info.dtype).name, dims)


def _labelled(sigs: list, labels) -> list:
    """The values named by the program's own labels (`x`, as the header and `aotc inspect`
    name them) where it has them, instead of the positional names of the runtime's tables
    (`arg0`); a label list that does not match the values is ignored."""
    if len(labels) != len(sigs):
        return sigs
    return [dataclasses.replace(s, name=label) if label else s for s, label in zip(sigs, labels)]


def _describe(entry: str, kind: str, index: int, sig: ValueSig) -> str:
    return f"{entry}: {kind} '{sig.name}' (#{index})" if sig.name else f"{entry}: {kind} #{index}"


def _shape_text(arr: np.ndarray) -> str:
    """'f64[2,3]' for an array, in the C runtime's spelling where it can."""
    dt = dtypes.from_numpy(arr.dtype)
    return format_shape(dt.name if dt else str(arr.dtype), arr.shape)


class OutputShapes(tuple):
    """(shapes, peak_bytes): each result's dims (-1 where the data decides) and the peak
    bytes the call allocates (-1 where the data decides)."""

    def __new__(cls, shapes, peak_bytes):
        return super().__new__(cls, (shapes, peak_bytes))

    @property
    def shapes(self):
        return self[0]

    @property
    def peak_bytes(self):
        return self[1]


class _Value:
    """What the call path needs of one argument or result, worked out once."""

    def __init__(self, sig: ValueSig):
        dt = dtypes.dtype(sig.dtype)
        self.sig, self.numpy, self.code, self.rank = sig, dt.numpy, dt.code, sig.rank
        self.shape = tuple(sig.dims) if sig.is_static else None  # static results


class Entry:
    """One entry function of a loaded library, callable with numpy arrays.

    Holds no per-call state, so one Entry may be called from several threads
    at once (the library's runtime is thread-safe and the GIL is released
    during the call)."""

    def __init__(self, library: "Library", info, labels=None):
        self._library = library
        self._fn = info.fn
        self._query = info.output_shapes  # NULL when the library has no shape query
        arg_labels, result_labels = labels or ((), ())
        self.signature = EntrySig(
            _string(info.name), _string(info.symbol),
            _labelled([_value_sig(info.args[i]) for i in range(info.num_args)], arg_labels),
            _labelled([_value_sig(info.results[i]) for i in range(info.num_results)],
                      result_labels))
        self._args = [_Value(a) for a in self.signature.args]
        self._results = [_Value(r) for r in self.signature.results]
        self._arg_frame, self._static_dims = self._frame(self._args)
        self._out_frame, self._out_dims = self._frame(self._results)
        self._dynamic_args = [(i, v.rank) for i, v in enumerate(self._args) if v.shape is None]
        self._dynamic_rank = max(1, sum(rank for _, rank in self._dynamic_args))

    @staticmethod
    def _frame(values) -> tuple:
        """An aot_tensor array for `values` with everything but the data pointers filled
        (rank, dtype, and the dims of static values, in an array held beside it): a call
        copies it and sets the pointers, instead of writing every field through cffi
        (which cost most of a small call's ~17 us)."""
        frame = ffi.new(_TENSORS, max(1, len(values)))
        dims = ffi.new(_DIMS, max(1, sum(v.rank for v in values if v.shape is not None)))
        at = 0
        for tensor, v in zip(frame, values):
            tensor.rank, tensor.dtype = v.rank, v.code
            if v.shape:
                dims[at:at + v.rank] = v.shape
                tensor.dims, at = dims + at, at + v.rank
        return frame, dims

    def _pack(self, arrays: list, frame, keep: list, dynamic=()):
        """A copy of `frame` (_frame) pointing at `arrays`' data, and at their dims for the
        (index, rank) of `dynamic` (the arguments the signature leaves dynamic); `keep` holds
        the cffi views until the call returns."""
        tensors = ffi.new(_TENSORS, len(frame))
        ffi.memmove(tensors, frame, ffi.sizeof(frame))
        for i, arr in enumerate(arrays):
            if arr.size:  # an empty array's data stays NULL
                data = ffi.from_buffer(arr)
                keep.append(data)
                tensors[i].data = data
        if dynamic:
            dims, at = ffi.new(_DIMS, self._dynamic_rank), 0
            keep.append(dims)
            for i, rank in dynamic:
                if rank:
                    dims[at:at + rank] = arrays[i].shape
                    tensors[i].dims, at = dims + at, at + rank
        return tensors

    @property
    def name(self) -> str:
        return self.signature.name

    def __repr__(self) -> str:
        return f"<aot entry {self.signature}>"

    def _as_array(self, index: int, value) -> np.ndarray:
        """value as a C-contiguous array of the argument's exact dtype and dims."""
        spec = self._args[index]
        sig, want = spec.sig, spec.numpy
        if isinstance(value, (np.ndarray, np.generic)):
            arr = np.asarray(value)
            if arr.dtype != want:
                raise TypeError(f"{_describe(self.name, 'argument', index, sig)} expects "
                                f"{sig}, got {_shape_text(arr)}")
        else:
            arr = np.asarray(value)
            if arr.dtype.kind not in _CONVERTIBLE_KINDS.get(want.kind, ""):
                raise TypeError(f"{_describe(self.name, 'argument', index, sig)} expects "
                                f"{sig}, got {type(value).__name__} of {arr.dtype}")
            arr = arr.astype(want)
        if arr.shape != spec.shape and (arr.ndim != spec.rank or any(
                d is not None and d != n for d, n in zip(sig.dims, arr.shape))):
            raise ValueError(f"{_describe(self.name, 'argument', index, sig)} expects "
                             f"{sig}, got {_shape_text(arr)}")
        if not arr.flags.c_contiguous:
            arr = np.require(arr, requirements="C")  # ascontiguousarray would make 0-d arrays 1-d
        return arr

    def _arrays(self, values) -> list:
        if len(values) != len(self._args):
            names = ", ".join(a.name or f"#{i}" for i, a in enumerate(self.signature.args))
            raise TypeError(f"{self.name}() takes {len(self._args)} arguments ({names}), "
                            f"got {len(values)}")
        return [self._as_array(i, v) for i, v in enumerate(values)]

    def _outputs(self, out) -> list:
        """Result arrays to write into: the caller's (`out=`), or None for each result the
        runtime allocates (from its caching allocator, see `_take`)."""
        if out is None:
            return [None] * len(self._results)
        given = list(out) if isinstance(out, (tuple, list)) else [out]
        if len(given) != len(self._results):
            raise TypeError(f"{self.name}: out= needs {len(self._results)} arrays, got {len(given)}")
        for i, (arr, r) in enumerate(zip(given, self._results)):
            what = _describe(self.name, "result", i, r.sig) if r.shape is None or not (
                type(arr) is np.ndarray and arr.dtype == r.numpy and arr.shape == r.shape
                and arr.flags.c_contiguous and arr.flags.writeable) else None
            if what is None:  # the message is only formatted for a refusal
                continue
            if r.shape is None:
                raise ValueError(f"{what} has a dynamic shape: the library allocates it, "
                                 "out= cannot hold it")
            if not isinstance(arr, np.ndarray) or arr.dtype != r.numpy or arr.shape != r.shape \
                    or not arr.flags.c_contiguous or not arr.flags.writeable:
                raise ValueError(f"{what} expects a writeable C-contiguous {r.sig} array, got "
                                 f"{_shape_text(arr) if isinstance(arr, np.ndarray) else type(arr).__name__}")
        return given

    def _check_no_overlap(self, arrays, outs) -> None:
        """Kernels read their arguments while they write their results (a matmul reads A
        after writing the first tiles of C): an `out=` array sharing memory with an
        argument, or with another result, would give wrong numbers, so it is refused."""
        for i, o in enumerate(outs):
            what = lambda i=i: _describe(self.name, "result", i, self._results[i].sig)  # noqa: E731
            for j, a in enumerate(arrays):
                if np.may_share_memory(o, a):
                    name = self.signature.args[j].name
                    arg = f"argument '{name}' (#{j})" if name else f"argument #{j}"
                    raise ValueError(f"{what()}: the out= array shares memory with {arg}")
            for j in range(i):
                if np.may_share_memory(o, outs[j]):
                    raise ValueError(f"{what()}: the out= array shares memory with result #{j}")

    def output_shapes(self, *values) -> "OutputShapes":
        """The dims of every result and the peak bytes a call with these arguments
        allocates, computed without running the data kernels; -1 marks what depends
        on the data (the size of a `where`)."""
        if self._query == ffi.NULL:
            raise NotImplementedError(f"{self.name}: this library has no shape query")
        keep = []
        args = self._pack(self._arrays(values), self._arg_frame, keep, self._dynamic_args)
        result_dims = ffi.new(_DIMS, max(1, sum(r.rank for r in self._results)))
        peak = ffi.new(_INT64_PTR)
        rc = self._query(args, result_dims, peak)
        if rc != 0:
            message = _string(self._library._lib.aot_last_error())
            raise AotRuntimeError(rc, message or f"{self.name} shape query failed with code {rc}")
        shapes, at = [], 0
        for r in self._results:
            shapes.append(tuple(result_dims[at + d] for d in range(r.rank)))
            at += r.rank
        return OutputShapes(shapes, peak[0])

    def __call__(self, *values, out=None):
        """Run the entry. `out=` (an array, or a tuple of arrays) receives static results in
        place, with no allocation; otherwise static results are new arrays."""
        arrays = self._arrays(values)
        outs = self._outputs(out)
        if out is not None:
            self._check_no_overlap(arrays, outs)
        keep = []  # cffi views of the arrays' data, alive until the call returns
        args = self._pack(arrays, self._arg_frame, keep, self._dynamic_args)
        if out is None:  # every result's data NULL: the runtime allocates it
            results = ffi.new(_TENSORS, max(len(outs), 1))
        else:
            results = self._pack(outs, self._out_frame, keep)

        rc = self._fn(args, results)
        if rc != 0:
            message = _string(self._library._lib.aot_last_error())
            self._free_runtime_results(results, outs)
            raise AotRuntimeError(rc, message or f"{self.name} failed with code {rc}")
        outs = [out if out is not None else self._take(results[i], self._results[i])
                for i, out in enumerate(outs)]
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _take(self, tensor, spec: _Value) -> np.ndarray:
        """A runtime-allocated result as a numpy array over the runtime's block, no copy:
        the block goes back to the runtime's caching allocator when the array dies, so the
        next call's result reuses memory already mapped instead of faulting in fresh pages
        (a 64 MiB result costs 2-5 ms of page faults otherwise). The finalizer holds the
        Library, so the code that frees the block stays loaded while arrays live."""
        shape = spec.shape
        if shape is None:
            shape = tuple(ffi.unpack(tensor.dims, tensor.rank)) if tensor.rank else ()
        dt = spec.numpy
        nbytes = math.prod(shape) * dt.itemsize
        if nbytes == 0:
            self._library._lib.aot_tensor_free(ffi.addressof(tensor))
            return np.empty(shape, dt)
        if nbytes <= _COPY_RESULTS_UP_TO:  # a copy costs less than a finalizer
            arr = np.empty(shape, dt)
            ffi.memmove(ffi.from_buffer(arr), tensor.data, nbytes)
            self._library._lib.aot_tensor_free(ffi.addressof(tensor))
            return arr
        library = self._library
        data = ffi.gc(ffi.cast(_CHAR_PTR, tensor.data), lambda p: library._lib.aot_free(p),
                      size=nbytes)  # aot_free also frees the result's runtime-owned dims
        return np.frombuffer(ffi.buffer(data, nbytes), dt).reshape(shape)

    def device(self, *values, stream=None):
        """Run the entry on device memory (a cuda build's NAME_F_device): each argument is
        an object with `__cuda_array_interface__` or `__dlpack__` (CuPy, PyTorch, JAX,
        Numba, a DeviceArray), used in place; each result is a DeviceArray the library's
        device allocator owns.
        `stream` is a CUstream handle as an int (None: the calling thread's own stream);
        the work may still run when this returns, on that stream."""
        fn = self.__dict__.get("_device_fn")
        if fn is None:  # looked up once per entry
            fn = self._device_fn = self._library._device_entry(self.signature.symbol)
        if len(values) != len(self._args):
            raise TypeError(f"{self.name}.device() takes {len(self._args)} arguments, got {len(values)}")
        args = ffi.new(_TENSORS, max(len(values), 1))
        dims = ffi.new(_DIMS, max(1, sum(v.rank for v in self._args)))
        releases = []
        try:
            return self._device_call(fn, values, args, dims, stream, releases)
        finally:
            for release in releases:  # DLPack arguments back to their producers
                release()

    def _device_call(self, fn, values, args, dims, stream, releases):
        offset = 0
        for i, (value, spec) in enumerate(zip(values, self._args)):
            name = lambda i=i, sig=spec.sig: _describe(self.name, "argument", i, sig)  # noqa: E731
            ptr, shape = _device_view(value, spec.numpy, name, stream, releases)
            if len(shape) != spec.rank or any(d is not None and d != n for d, n in zip(spec.sig.dims, shape)):
                raise ValueError(f"{name()} expects {spec.sig}, "
                                 f"got a device array of shape {tuple(shape)}")
            args[i].data = ffi.cast("void *", ptr)
            if shape:
                dims[offset:offset + len(shape)] = list(shape)
                args[i].dims = dims + offset
            args[i].rank, args[i].dtype = len(shape), spec.code
            offset += len(shape)
        results = ffi.new(_TENSORS, max(len(self._results), 1))
        rc = fn(args, results, ffi.cast("void *", stream or 0))
        if rc != 0:
            message = _string(self._library._lib.aot_last_error())
            raise AotRuntimeError(rc, message or f"{self.name} failed with code {rc}")
        outs = [DeviceArray(self._library, results[i]) for i in range(len(self._results))]
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _free_runtime_results(self, results, outs) -> None:
        """On failure the runtime has freed what it allocated; this frees
        anything a non-conforming entry left behind."""
        for i, out in enumerate(outs):
            if out is None and results[i].data != ffi.NULL:
                self._library._lib.aot_tensor_free(ffi.addressof(results[i]))


def _device_view(value, want: np.dtype, what, stream=None, releases=None) -> tuple:
    """(device pointer, shape) of a C-contiguous device array of dtype `want`: an object
    with `__cuda_array_interface__` (version 2 or 3) or with `__dlpack__` (whose tensor's
    release goes into `releases`); `what()` names the argument in an error."""
    face = getattr(value, "__cuda_array_interface__", None)
    if face is None and hasattr(value, "__dlpack__"):
        ptr, shape, dt, release = dlpack.device_view(value, stream, what)
        releases.append(release)
        if dt != want:
            raise TypeError(f"{what()} expects {want}, got a device array of {dt}")
        return ptr, shape
    if face is None:
        raise TypeError(f"{what()} must be a device array (an object with __cuda_array_interface__ "
                        f"or __dlpack__), got {type(value).__name__}")
    shape, dt = tuple(face["shape"]), np.dtype(face["typestr"])
    if dt != want:
        raise TypeError(f"{what()} expects {want}, got a device array of {dt}")
    strides = face.get("strides")
    contiguous = tuple(int(np.prod(shape[i + 1:], dtype=np.int64)) * dt.itemsize for i in range(len(shape)))
    if strides is not None and tuple(strides) != contiguous and math.prod(shape) > 1:
        raise ValueError(f"{what()} must be C-contiguous, got strides {tuple(strides)}")
    return face["data"][0], shape


class DeviceArray:
    """A device entry's result: device memory owned by the library's runtime, freed when the
    object dies (aot_gpu_tensor_free). `__cuda_array_interface__` and `__dlpack__` hand it to
    CuPy, PyTorch, JAX or Numba without a copy; `to_numpy()` copies it to the host."""

    def __init__(self, library: "Library", tensor):
        self._library = library
        self._tensor = ffi.new("aot_tensor *", tensor)
        self.shape = tuple(ffi.unpack(tensor.dims, tensor.rank)) if tensor.rank else ()
        self.dtype = dtypes.from_code(tensor.dtype).numpy
        self._owner = ffi.gc(self._tensor, lambda t: library._lib.aot_gpu_tensor_free(t))

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "typestr": self.dtype.str, "version": 3, "strides": None,
                "data": (int(ffi.cast("uintptr_t", self._tensor.data)), False)}

    def __dlpack__(self, stream=None, **_):
        """A DLPack capsule over this array (torch.from_dlpack, jax.dlpack, cupy.from_dlpack);
        this array stays alive until the consumer is done with it. The library's work is on
        the stream the call ran on: synchronize it before another stream reads the data."""
        return dlpack.export(int(ffi.cast("uintptr_t", self._tensor.data)), self.shape, self.dtype, self)

    def __dlpack_device__(self) -> tuple:
        return dlpack.CUDA, 0

    def to_numpy(self) -> np.ndarray:
        out = np.empty(self.shape, self.dtype)
        if out.nbytes:
            rc = self._library._lib.aot_gpu_copy_to_host(ffi.from_buffer(out), self._tensor.data, out.nbytes)
            if rc != 0:
                raise AotRuntimeError(rc, _string(self._library._lib.aot_last_error()))
        return out

    def __repr__(self) -> str:
        return f"<device array {self.dtype}{list(self.shape)}>"


def wheel_cublas() -> str | None:
    """libcublas from an installed `nvidia-cublas` wheel (its `nvidia/*/lib`), if any."""
    import glob
    import importlib.util
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        found = sorted(glob.glob(os.path.join(root, "*", "lib", "libcublas.so.*[0-9]")))
        if found:
            return found[-1]
    return None


class LoadError(OSError):
    """A file that does not load as an aotc library: missing, not a shared library, truncated,
    not built by aotc, or built for another ABI version. The message names the file and says
    which, in plain words."""


def _open(path: str):
    """(cffi library, its aot_library_info) of the aotc library at `path`, else LoadError.
    The file's headers are checked before dlopen (a truncated file would be mapped and die
    of SIGBUS on first touch); a library that loads but is not aotc's is closed again, so a
    rebuilt file at the same path is loaded afresh rather than found already open."""
    from .elf import elf_problem
    problem = elf_problem(path)
    if problem:
        raise LoadError(f"cannot load {path}: {problem}")
    try:
        lib = ffi.dlopen(path)
    except OSError as e:
        reason = str(e).split(".  Additionally, ctypes", 1)[0]  # cffi's words around dlerror
        for prefix in (f"cannot load library '{path}': ", f"{path}: "):
            reason = reason[len(prefix):] if reason.startswith(prefix) else reason
        raise LoadError(f"cannot load {path}: the dynamic loader refused it: {reason}") from None
    try:
        try:
            get = lib.aot_library_metadata
        except AttributeError:
            raise LoadError(f"cannot load {path}: not built by aotc: it has no "
                            "aot_library_metadata (aotc's shared libraries define it; "
                            "static artifacts and other libraries do not)") from None
        info = get()
        if info == ffi.NULL:
            raise LoadError(f"cannot load {path}: corrupt: its aot_library_metadata() "
                            "returned NULL")
        if info.abi_version != ABI_VERSION:
            raise LoadError(f"cannot load {path}: built for ABI version {info.abi_version}; "
                            f"this aotc reads version {ABI_VERSION}: rebuild it with this aotc")
    except BaseException:
        ffi.dlclose(lib)
        raise
    return lib, info


class Library:
    """A shared library built by aotc, with one Entry per entry function.

    Entries are attributes (lib.main) and items of lib.entries; lib.name is
    the library's name from its metadata."""

    def __init__(self, path, labels: dict | None = None):
        """`labels`: entry name -> (argument labels, result labels), from the artifact's
        manifest (`aot.load` reads it), so that call errors use the program's names."""
        self.path = os.path.abspath(os.fspath(path))
        self._lib, info = _open(self.path)
        self.name = _string(info.name)
        if (hasattr(self._lib, "aot_gpu_gemm") and not os.environ.get("AOT_CUBLAS_LIBRARY")
                and os.environ.get("AOT_CUBLAS") != "0"):
            wheel = wheel_cublas()
            if wheel:
                os.environ["AOT_CUBLAS_LIBRARY"] = wheel  # read by the runtime's first matmul
        labels = labels or {}
        entries = [info.entries[i] for i in range(info.num_entries)]
        self.entries = {e.name: e for e in
                        (Entry(self, raw, labels.get(_string(raw.name))) for raw in entries)}

    def __getattr__(self, name):
        entries = self.__dict__.get("entries", {})
        if name in entries:
            return entries[name]
        raise AttributeError(f"library {self.__dict__.get('name', '?')!r} has no entry "
                             f"{name!r}; entries: {', '.join(entries) or 'none'}")

    def __dir__(self):
        return list(super().__dir__()) + list(self.entries)

    def __repr__(self) -> str:
        return f"<aot library {self.name!r} from {self.path}: {', '.join(self.entries)}>"

    def alloc_stats(self, device: bool = False) -> dict[str, int]:
        """This library's allocator counters (each artifact has its own runtime): the host's,
        or with device=True the GPU allocator's."""
        stats = ffi.new("aot_alloc_stats *")
        self._device_call("aot_gpu_get_alloc_stats" if device else "aot_get_alloc_stats")(stats)
        return {field: getattr(stats, field) for field, _ in ffi.typeof(stats[0]).fields}

    def reset_alloc_stats(self, device: bool = False) -> None:
        self._device_call("aot_gpu_reset_alloc_stats" if device else "aot_reset_alloc_stats")()

    @property
    def device(self) -> str:
        """Where this library's entries run in this process: "cpu" for a cpu build, "cuda"
        for a cuda build, and for a cuda,cpu build the GPU when its runtime found one (or
        AOT_DEVICE said so), else the CPU."""
        try:
            use_device = self._lib.aot_gpu_use_device
        except AttributeError:
            return "cpu"
        first = next(iter(self.entries.values()), None)
        two_targets = first is not None and hasattr(ctypes.CDLL(self.path), first.signature.symbol + "__cpu")
        return "cuda" if not two_targets or use_device() else "cpu"

    @property
    def blas_library(self) -> str | None:
        """The cuBLAS a cuda build's matmuls go to; None when they run its own tiled kernels
        (no cuBLAS found, AOT_CUBLAS=0) or for a cpu build."""
        try:
            name = self._lib.aot_gpu_blas_library()
        except AttributeError:
            return None
        return _string(name) if name != ffi.NULL else None

    def _device_entry(self, symbol: str):
        """The C function NAME_F_device of a cuda build."""
        self._device_call("aot_gpu_get_alloc_stats")  # a clear error for a cpu build
        address = ctypes.cast(getattr(ctypes.CDLL(self.path), symbol + "_device"), ctypes.c_void_p).value
        return ffi.cast("int (*)(const aot_tensor *, aot_tensor *, void *)", address)

    def _device_call(self, symbol: str):
        try:
            return getattr(self._lib, symbol)
        except AttributeError:
            raise ValueError(f"library {self.name!r} has no device allocator: it was built for "
                             "the cpu target (--target cuda builds have one)") from None

    def release_cached_memory(self) -> None:
        """The host allocator's cached blocks back to the system (and a GPU build's device
        blocks back to the driver)."""
        self._lib.aot_release_cached_memory()
        try:
            self._lib.aot_gpu_release_cached_memory()
        except AttributeError:  # a cpu build
            pass

    def set_num_threads(self, n: int) -> None:
        self._lib.aot_set_num_threads(n)

    def get_num_threads(self) -> int:
        return self._lib.aot_get_num_threads()

    def set_memory_limit(self, nbytes: int, device: bool = False) -> None:
        """Caps the bytes this library's host allocator holds, live plus cached (0 or less:
        no cap; the default is env AOT_MEMORY_LIMIT). A call that needs more fails with
        AotRuntimeError code 2, "out of memory: needs N bytes for ...". With device=True,
        a cuda build's device allocator (default: env AOT_GPU_MEMORY_LIMIT)."""
        if device:
            self._device_call("aot_gpu_set_memory_limit")(nbytes)
        else:
            self._lib.aot_set_memory_limit(nbytes)

    def get_memory_limit(self, device: bool = False) -> int:
        """The cap set by set_memory_limit or the environment; 0 when there is none."""
        if device:
            return self._device_call("aot_gpu_get_memory_limit")()
        return self._lib.aot_get_memory_limit()

    def held_bytes(self, device: bool = False) -> int:
        """Bytes the host allocator (device=True: the device allocator) holds as the cap
        counts them: live blocks (at their size-class capacity) plus the cached ones."""
        if device:
            return self._device_call("aot_gpu_get_held_bytes")()
        return self._lib.aot_get_held_bytes()
