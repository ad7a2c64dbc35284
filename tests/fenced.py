"""The fenced-input driver shared by the memory-safety tests (e2e/test_memory_safety.py,
ops/test_gather_scatter.py, ops/test_sort_conv_window.py): a Python program, run in a
subprocess as `python -c DRIVER TEXT ARGS WANT`, that compiles TEXT and calls it on
inputs whose first or last byte touches a PROT_NONE page, so a stray read is a segfault."""
import os
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = textwrap.dedent('''
    import ctypes, mmap, sys
    import numpy as np
    import aot

    libc = ctypes.CDLL(None)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    keep = []

    def fenced(values, at_end):
        """An array whose first (or last) byte touches a PROT_NONE page."""
        values = np.require(values, requirements='C')
        page = mmap.PAGESIZE
        nbytes = values.nbytes
        pages = (nbytes + page - 1) // page + 2
        buf = mmap.mmap(-1, pages * page)
        base = ctypes.addressof(ctypes.c_char.from_buffer(buf))
        assert libc.mprotect(base, page, 0) == 0
        assert libc.mprotect(base + (pages - 1) * page, page, 0) == 0
        offset = (pages - 1) * page - nbytes if at_end else page
        keep.append(buf)
        arr = np.frombuffer(buf, values.dtype, values.size, offset).reshape(values.shape)
        arr[...] = values
        return arr

    text, args, want = sys.argv[1], eval(sys.argv[2]), eval(sys.argv[3])
    lib = aot.compile(text, name="fenced")
    for at_end in (False, True):
        got = lib.main(*[fenced(np.asarray(a), at_end) for a in args])
        np.testing.assert_array_equal(got, want)
    print("ok")
''')
