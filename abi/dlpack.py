"""DLPack for the device entry: GPU arrays in (PyTorch, JAX, CuPy hand theirs out through
`__dlpack__`) and results out (`DeviceArray.__dlpack__`), without a copy.

The unversioned protocol (a "dltensor" capsule holding a DLManagedTensor, DLPack 0.x, which
every consumer still takes): a consumer renames the capsule "used_dltensor" and calls the
tensor's deleter when done with it; an unconsumed capsule's destructor calls it.
"""
from __future__ import annotations

import ctypes

import ml_dtypes
import numpy as np

CUDA, CPU, CUDA_HOST, CUDA_MANAGED = 2, 1, 3, 13  # DLDeviceType
DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda host memory", 4: "opencl", 7: "vulkan", 8: "metal",
                10: "rocm", 13: "cuda managed memory"}
INT, UINT, FLOAT, BFLOAT, COMPLEX, BOOL = 0, 1, 2, 4, 5, 6  # DLDataTypeCode


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]

NAME, USED = ctypes.c_char_p(b"dltensor"), ctypes.c_char_p(b"used_dltensor")  # alive as long as capsules


def _api(name, restype, *argtypes):
    return ctypes.PYFUNCTYPE(restype, *argtypes)((name, ctypes.pythonapi))


_is_valid = _api("PyCapsule_IsValid", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)
_get_pointer = _api("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)
_set_name = _api("PyCapsule_SetName", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)
_new = _api("PyCapsule_New", ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
_is_valid_raw = _api("PyCapsule_IsValid", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)
_get_pointer_raw = _api("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)


def _type_code(dt: np.dtype) -> tuple:
    if dt == np.dtype(ml_dtypes.bfloat16):
        return BFLOAT, 16
    kind = {"i": INT, "u": UINT, "f": FLOAT, "c": COMPLEX, "b": BOOL}[dt.kind]
    return kind, dt.itemsize * 8


def _numpy_type(code: int, bits: int, lanes: int) -> np.dtype | None:
    if lanes != 1:
        return None
    if code == BFLOAT and bits == 16:
        return np.dtype(ml_dtypes.bfloat16)
    if code == BOOL and bits == 8:
        return np.dtype(np.bool_)
    kind = {INT: "i", UINT: "u", FLOAT: "f", COMPLEX: "c"}.get(code)
    if kind == "c":  # complex64/complex128: two floats
        return np.dtype(f"c{bits // 8}") if bits in (64, 128) else None
    return np.dtype(f"{kind}{bits // 8}") if kind and bits in (8, 16, 32, 64) else None


def device_view(value, stream, what) -> tuple:
    """(device pointer, shape, numpy dtype, release) of a CUDA array with `__dlpack__`;
    `release()` hands the tensor back to its producer (after the call). `what()` names the
    argument in an error."""
    device_type, _ = value.__dlpack_device__()
    if device_type not in (CUDA, CUDA_MANAGED):
        where = DEVICE_NAMES.get(device_type, f"device type {device_type}")
        raise TypeError(f"{what()} is in {where} memory (DLPack); the device entry takes CUDA "
                        "device memory (call the entry itself for host arrays)")
    capsule = value.__dlpack__(stream=stream if stream else None)
    if not _is_valid(capsule, NAME):
        raise TypeError(f"{what()}: __dlpack__ gave no unused 'dltensor' capsule")
    managed = DLManagedTensor.from_address(_get_pointer(capsule, NAME))
    t = managed.dl_tensor
    dt = _numpy_type(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if dt is None:
        raise TypeError(f"{what()}: DLPack type (code {t.dtype.code}, {t.dtype.bits} bits, "
                        f"{t.dtype.lanes} lanes) has no counterpart here")
    if t.strides:
        contiguous = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
        if any(n > 1 and t.strides[i] != contiguous[i] for i, n in enumerate(shape)):
            raise ValueError(f"{what()} must be C-contiguous, got strides "
                             f"{tuple(t.strides[i] for i in range(t.ndim))}")
    _set_name(capsule, USED)  # ours now: its deleter is ours to call

    def release():
        if managed.deleter:
            managed.deleter(ctypes.pointer(managed))
    return (t.data or 0) + t.byte_offset, shape, dt, release


_exported: dict = {}  # address of a DLManagedTensor -> (it, its shape, the array it shows)


@DELETER
def _delete(managed_ptr):
    _exported.pop(ctypes.addressof(managed_ptr.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    if _is_valid_raw(capsule, NAME):  # never consumed: its tensor goes back here
        managed = DLManagedTensor.from_address(_get_pointer_raw(capsule, NAME))
        managed.deleter(ctypes.pointer(managed))


def export(pointer: int, shape: tuple, dt: np.dtype, owner) -> object:
    """A 'dltensor' capsule over device memory at `pointer`; `owner` stays alive until the
    consumer calls the deleter (or the capsule dies unconsumed)."""
    managed = DLManagedTensor()
    dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    code, bits = _type_code(dt)
    managed.dl_tensor = DLTensor(pointer, DLDevice(CUDA, 0), len(shape), DLDataType(code, bits, 1),
                                 dims, None, 0)
    managed.deleter = _delete
    _exported[ctypes.addressof(managed)] = (managed, dims, owner)
    return _new(ctypes.addressof(managed), NAME, ctypes.cast(_capsule_destructor, ctypes.c_void_p))
