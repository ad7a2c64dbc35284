"""The C++ header of `--cpp-class ns::MyModel`: a header-only class per entry, in
tfcompile's style, over the C entries of NAME.h.

    ns::MyModel m;                    // owns a buffer for each argument and static result
    std::copy(x, x + n, m.arg_x_data());
    m.set_arg_x_shape({batch, 64});   // only for an argument with a '?' dim
    if (!m.Run()) puts(m.error_msg());
    const float *y = m.result_y_data();

Names (arg_x, arg0, ...) follow abi/naming.py, as the C header's constants do. The class of
the main entry (named `main`, else the first) is `MyModel`; every other entry F gets its own
class `MyModel_F` in the same header. Plain C++11, no exceptions: failures are `false`
with `error_msg()` set.
"""
from __future__ import annotations

from .dtypes import dtype as _dtype
from .header import _comment_safe, c_string
from .naming import ValueName, check_ident, entry_class_names, entry_names, parse_cpp_class
from .signature import EntrySig

# Shared by every generated class, also of other artifacts in the same program: one copy.
_DETAIL = """\
#ifndef AOTC_CPP_DETAIL_V1
#define AOTC_CPP_DETAIL_V1
namespace aotc_detail {
/* Elements of a tensor, or -1 while one of its dims is not known yet. */
inline int64_t count(const aot_tensor &t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t.rank; ++d) {
    if (t.dims[d] < 0) return -1;
    n *= t.dims[d];
  }
  return n;
}
inline size_t bytes(const aot_tensor &t) {
  int64_t n = count(t);
  return n < 0 ? 0 : static_cast<size_t>(n) * aot_dtype_size(t.dtype);
}
/* Points t at the class's own buffer `own`, grown to t's dims; false when out of memory. */
inline bool fit(aot_tensor &t, void *&own, size_t &capacity) {
  size_t need = bytes(t);
  if (own == nullptr || capacity < need) {
    aot_free(own);
    own = aot_alloc(static_cast<int64_t>(need));
    capacity = own != nullptr ? need : 0;
  }
  t.data = own;
  return own != nullptr;
}
}  // namespace aotc_detail
#endif  // AOTC_CPP_DETAIL_V1
"""


def _ctype(dtype: str) -> str:
    if dtype.startswith("complex<"):  # (re, im) pairs: layout-compatible with std::complex
        return "std::complex<" + ("float" if dtype == "complex<f32>" else "double") + ">"
    return _dtype(dtype).ctype.split()[0]  # "uint16_t (f16 bits)" -> "uint16_t"


def _index(tensor: str, dims) -> str:
    """The row-major offset of element (i0, i1, ...) of a tensor with these dims."""
    if not dims:
        return "0"
    expr = "i0"
    for d in range(1, len(dims)):
        size = str(dims[d]) if dims[d] is not None else f"{tensor}.dims[{d}]"
        expr = f"({expr}) * {size} + i{d}" if d > 1 else f"{expr} * {size} + i{d}"
    return expr


def _value_members(v: ValueName, stem: str) -> list[str]:
    """The typed members of one argument or result under one stem (its name, or positional)."""
    t = _ctype(v.value.dtype)
    arr = "args_" if v.kind == "arg" else "results_"
    slot = f"{arr}[{v.index}]"
    params = ", ".join(f"int64_t i{d}" for d in range(v.value.rank))
    at = _index(slot, v.value.dims)
    out = [
        f"  {t} *{stem}_data() {{ return static_cast<{t} *>({slot}.data); }}",
        f"  const {t} *{stem}_data() const {{ return static_cast<const {t} *>({slot}.data); }}",
        f"  {t} &{stem}({params}) {{ return {stem}_data()[{at}]; }}",
        f"  const {t} &{stem}({params}) const {{ return {stem}_data()[{at}]; }}",
        f"  const int64_t *{stem}_shape() const {{ return {slot}.dims; }}",
        f"  int64_t {stem}_count() const {{ return aotc_detail::count({slot}); }}",
        f"  size_t {stem}_size() const {{ return aotc_detail::bytes({slot}); }}",
    ]
    if v.kind == "arg":
        out.append(f"  void set_{stem}_data(const void *data) {{ set_arg_data({v.index}, data); }}")
        if not v.value.is_static:
            out.append(f"  bool set_{stem}_shape(std::initializer_list<int64_t> dims) {{\n"
                       f"    return set_arg_shape({v.index}, dims.begin(), "
                       "static_cast<int>(dims.size()));\n  }")
    return out


def _class(library: str, entry: EntrySig, class_name: str, labels) -> str:
    args, results = entry_names(entry, labels)
    n_args, n_results = len(args), len(results)
    n_dims = sum(v.value.rank for v in args + results)
    sym = entry.symbol
    ctor, run_checks, run_results, dtor = [], [], [], []
    offset = 0
    for v in args + results:
        arr = "args_" if v.kind == "arg" else "results_"
        slot = f"{arr}[{v.index}]"
        ctor.append(f"    {slot}.dims = dims_ + {offset};")
        ctor.append(f"    {slot}.rank = {v.value.rank};")
        ctor.append(f"    {slot}.dtype = {_dtype(v.value.dtype).enum};")
        ctor += [f"    dims_[{offset + d}] = {n};" for d, n in enumerate(v.value.c_dims)]
        if v.kind == "arg":
            if v.value.is_static:
                ctor.append(f"    aotc_detail::fit({slot}, own_args_[{v.index}], "
                            f"capacity_[{v.index}]);")
            else:
                msg = (f"{entry.name}: argument '{v.display}' (#{v.index}) has a dim known only "
                       f"at run time: set it with set_{v.stem}_shape() before Run()")
                run_checks.append(f"    if (aotc_detail::count({slot}) < 0) "
                                  f"return Fail({c_string(msg)});")
        elif v.value.is_static:
            ctor.append(f"    {slot}.data = own_results_[{v.index}] = "
                        f"aot_alloc(static_cast<int64_t>(aotc_detail::bytes({slot})));")
            msg = f"{entry.name}: out of memory for result '{v.display}' (#{v.index})"
            run_checks.append(f"    if ({slot}.data == nullptr) return Fail({c_string(msg)});")
            dtor.append(f"    aot_free(own_results_[{v.index}]);")
        else:  # the runtime allocates it on each call: the last call's goes back first
            run_results.append(f"    aot_tensor_free(&{slot});")
            run_results += [f"    dims_[{offset + d}] = {n};" for d, n in enumerate(v.value.c_dims)]
            dtor.append(f"    aot_tensor_free(&{slot});")
        offset += v.value.rank

    def names(values):
        return ", ".join(c_string(v.display) for v in values) or "nullptr"

    members = []
    for v in args + results:
        members.append(f"  /* {v.kind} {v.index} '{_comment_safe(v.display)}': {v.value} */")
        members += _value_members(v, v.stem)
        if v.stem != v.positional:
            members.append(f"  /* ... and by position, as {v.positional} */")
            members += _value_members(v, v.positional)
    sig = _comment_safe(str(entry))
    body = f"""\
/* Entry '{_comment_safe(entry.name)}' of '{library}': {sig}
 * Runs {sym}() of {library}.h. */
class {class_name} {{
 public:
  enum {{ kNumArgs = {n_args}, kNumResults = {n_results} }};

  {class_name}() {{
    std::memset(args_, 0, sizeof args_);
    std::memset(results_, 0, sizeof results_);
    std::memset(own_args_, 0, sizeof own_args_);
    std::memset(capacity_, 0, sizeof capacity_);
    std::memset(own_results_, 0, sizeof own_results_);
{chr(10).join(ctor)}
  }}
  ~{class_name}() {{
    for (int i = 0; i < kNumArgs; ++i) aot_free(own_args_[i]);
{chr(10).join(dtor)}
  }}
  {class_name}(const {class_name} &) = delete;
  {class_name} &operator=(const {class_name} &) = delete;

  /* Calls {sym} on the arguments; false on failure, with error_msg() saying why.
   * Results of dynamic shape from the previous call are freed first. */
  bool Run() {{
{chr(10).join(run_checks + run_results)}
    if ({sym}(args_, results_) != AOT_OK) return Fail(aot_last_error());
    error_.clear();
    return true;
  }}
  /* Why the last Run() or set_*_shape() failed ("" after a success). */
  const char *error_msg() const {{ return error_.c_str(); }}

  /* By position, as tfcompile's classes have them. An argument's data is the class's
   * own buffer until set_arg_data() points it at the caller's memory (read, never
   * written or freed; nullptr goes back to the class's buffer). */
  void *arg_data(int i) {{ return args_[i].data; }}
  const void *arg_data(int i) const {{ return args_[i].data; }}
  void set_arg_data(int i, const void *data) {{
    user_data_[i] = data != nullptr;
    args_[i].data = const_cast<void *>(data);
    if (data == nullptr && aotc_detail::count(args_[i]) >= 0)
      aotc_detail::fit(args_[i], own_args_[i], capacity_[i]);
  }}
  const int64_t *arg_shape(int i) const {{ return args_[i].dims; }}
  int arg_rank(int i) const {{ return args_[i].rank; }}
  /* The dims of argument i for the next Run(); the class's own buffer grows to fit. The
   * runtime checks them against the signature when Run() is called. */
  bool set_arg_shape(int i, const int64_t *dims, int rank) {{
    if (i < 0 || i >= kNumArgs || rank != args_[i].rank) return Fail("set_arg_shape: wrong rank");
    for (int d = 0; d < rank; ++d) {{
      if (dims[d] < 0) return Fail("set_arg_shape: a dim is negative");
      args_[i].dims[d] = dims[d];
    }}
    if (!user_data_[i] && !aotc_detail::fit(args_[i], own_args_[i], capacity_[i]))
      return Fail("set_arg_shape: out of memory");
    return true;
  }}
  void *result_data(int i) {{ return results_[i].data; }}
  const void *result_data(int i) const {{ return results_[i].data; }}
  const int64_t *result_shape(int i) const {{ return results_[i].dims; }}
  int result_rank(int i) const {{ return results_[i].rank; }}
  static const char *ArgName(int i) {{
    static const char *const names[] = {{{names(args)}}};
    return i >= 0 && i < kNumArgs ? names[i] : nullptr;
  }}
  static const char *ResultName(int i) {{
    static const char *const names[] = {{{names(results)}}};
    return i >= 0 && i < kNumResults ? names[i] : nullptr;
  }}
  /* The position of the argument (result) with this name, or -1. */
  static int LookupArgIndex(const char *name) {{
    for (int i = 0; i < kNumArgs; ++i)
      if (std::strcmp(ArgName(i), name) == 0) return i;
    return -1;
  }}
  static int LookupResultIndex(const char *name) {{
    for (int i = 0; i < kNumResults; ++i)
      if (std::strcmp(ResultName(i), name) == 0) return i;
    return -1;
  }}

{chr(10).join(members)}

 private:
  bool Fail(const char *message) {{
    error_ = message;
    return false;
  }}
  aot_tensor args_[{max(n_args, 1)}];
  aot_tensor results_[{max(n_results, 1)}];
  int64_t dims_[{max(n_dims, 1)}];
  void *own_args_[{max(n_args, 1)}];
  size_t capacity_[{max(n_args, 1)}];
  bool user_data_[{max(n_args, 1)}] = {{}};
  void *own_results_[{max(n_results, 1)}];
  std::string error_;
}};
"""
    return "\n".join(line.rstrip() if line.strip() else "" for line in body.split("\n"))


def generate_cpp_header(library_name: str, entries: list[EntrySig], cpp_class: str,
                        labels: dict | None = None) -> str:
    """NAME.hpp: one class per entry (see the module's docstring); `labels`:
    naming.program_labels of the program."""
    check_ident("library name", library_name)
    namespaces, class_name = parse_cpp_class(cpp_class)
    classes = "\n".join(_class(library_name, e, c, labels)
                        for e, c in zip(entries, entry_class_names(class_name, entries)))
    guard = f"AOT_{library_name.upper()}_HPP"
    opens = "".join(f"namespace {n} {{\n" for n in namespaces)
    closes = "".join(f"}}  // namespace {n}\n" for n in reversed(namespaces))
    return f"""\
/* {library_name}.hpp - generated by aotc (--cpp-class {cpp_class}); do not edit.
 *
 * A C++ class for each entry of the library '{library_name}', over the C entries of
 * {library_name}.h (tfcompile's style). An object owns a buffer for each argument of
 * static shape and each result of static shape; an argument with a '?' dim gets its
 * buffer from set_arg_<name>_shape({{...}}), which must be called before Run(); a result
 * whose shape the call decides is allocated by the runtime on each Run() and freed by the
 * next one or by the destructor. Pointers from *_data() stay valid until then. Objects
 * are neither copied nor moved; one object is for one thread at a time. */
#ifndef {guard}
#define {guard}

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include "{library_name}.h"

{_DETAIL}
{opens}
{classes}
{closes}
#endif  // {guard}
"""
