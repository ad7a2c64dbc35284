"""The calling convention between compiled artifacts and their users: dtype
codes, entry signatures, the generated C header, and the cffi loader."""
from .dtypes import DTYPES, DType, dtype, from_code, from_numpy
from .header import generate_header, runtime_cdef, runtime_dir, runtime_header_path, runtime_sources
from .loader import ABI_VERSION, AotRuntimeError, Entry, Library
from .signature import EntrySig, ValueSig, format_shape

__all__ = [
    "ABI_VERSION", "AotRuntimeError", "DTYPES", "DType", "Entry", "EntrySig", "Library",
    "ValueSig", "dtype", "format_shape", "from_code", "from_numpy", "generate_header",
    "runtime_cdef", "runtime_dir", "runtime_header_path", "runtime_sources",
]
