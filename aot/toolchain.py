"""Object code to artifacts: the runtime built with a C compiler for the target, then objects
linked into a shared library, archived into a static one, or merged into one relocatable
object. Runtime objects are cached per compiler and flags.

For this machine the compiler is `--cc`, `$CC`, or cc/gcc/clang. For another CPU
(`--target-triple`) it is `--cc`, `$CC` when that builds for the target, or the GNU cross
compiler the triple names (`aarch64-linux-gnu-gcc` for aarch64-unknown-linux-gnu); its
archiver comes with it. `find_toolchain` settles all of this before any compile work, and
every object of an artifact is checked to be for one machine before it is linked.

`AOTC_SANITIZE=address,undefined` (or `--sanitize`) builds the runtime's C with those
sanitizers and links shared libraries with them; the model's own code (LLVM IR) is not
instrumented."""
from __future__ import annotations

import dataclasses
import functools
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

import abi
import runtime_c
from abi.elf import elf_machine, machine_name  # also aot.toolchain's names (aot.api)
from lowering.cache import touch

RUNTIME_DIR = os.path.dirname(runtime_c.__file__)
CFLAGS = ["-O2", "-fPIC", "-std=c11", "-pthread", "-fvisibility=default"]
LINK_LIBS = ["-lm", "-lpthread", "-ldl"]
SANITIZERS = ("address", "undefined", "leak", "thread")  # what --sanitize / AOTC_SANITIZE may name


class ToolchainError(RuntimeError):
    pass


def run(cmd: list) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolchainError(f"command failed: {' '.join(cmd)}\n{proc.stderr.strip()}")


# ------------------------------------------------------------------ triples

_ARCH_ALIASES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64", "i386": "x86",
                 "i486": "x86", "i586": "x86", "i686": "x86"}


def arch_of(triple: str) -> str:
    """The CPU family of a triple, one spelling per family (arm64 is aarch64, armv7 arm)."""
    arch = triple.split("-")[0].lower()
    if re.match(r"(arm|thumb)(v\d.*)?(eb|hf)?$", arch):
        return "arm"
    return _ARCH_ALIASES.get(arch, arch)


def _system_of(triple: str) -> str:
    t = triple.lower()
    for system in ("linux", "darwin", "macos", "ios", "windows", "mingw", "freebsd"):
        if system in t:
            return {"macos": "darwin", "mingw": "windows"}.get(system, system)
    return t.split("-", 2)[-1]


def same_platform(a: str, b: str) -> bool:
    """Whether code for triple `a` runs where code for triple `b` does (CPU family and system)."""
    return arch_of(a) == arch_of(b) and _system_of(a) == _system_of(b)


def gnu_triple(triple: str) -> str:
    """The GNU spelling of an LLVM triple, as cross compilers are named:
    aarch64-unknown-linux-gnu is aarch64-linux-gnu, armv7-unknown-linux-gnueabihf arm-...."""
    parts = triple.split("-")
    if len(parts) >= 4 and parts[1] in ("unknown", "pc", "none"):
        parts = [parts[0]] + parts[2:]
    if arch_of(parts[0]) == "arm" and not parts[0].endswith("eb"):
        parts[0] = "arm"
    return "-".join(parts)


def cross_package(triple: str) -> str:
    """The Debian/Ubuntu package of the GNU cross compiler for a triple."""
    return "gcc-" + gnu_triple(triple).replace("_", "-")


def host_triple() -> str:
    from llvmlite import binding as llvm
    return llvm.get_process_triple()


# ------------------------------------------------------------------ the toolchain

@dataclass(frozen=True)
class Toolchain:
    """A C compiler (an argument list: `clang --target=...` is one) and the archiver that
    goes with it, for one target."""
    cc: tuple
    machine: str  # what the compiler says it builds for (`-dumpmachine`), "" if it would not
    ar: str
    sanitize: tuple = ()  # sanitizers the runtime is built and linked with: ("address", ...)

    def describe(self) -> str:
        return " ".join(self.cc)

    def runtime_cflags(self) -> list[str]:
        """CFLAGS for the runtime's C: CFLAGS, plus the sanitizers' flags."""
        return CFLAGS + sanitize_cflags(self.sanitize)

    def link_flags(self) -> list[str]:
        return sanitize_link_flags(self.sanitize)


def parse_sanitize(spec: str | None) -> tuple:
    """`address,undefined` as ("address", "undefined"); "" or None is none. Raises
    ToolchainError for a name not in SANITIZERS."""
    names = tuple(dict.fromkeys(s.strip() for s in (spec or "").split(",") if s.strip()))
    bad = [n for n in names if n not in SANITIZERS]
    if bad:
        raise ToolchainError(f"unknown sanitizer '{bad[0]}' (known: {', '.join(SANITIZERS)})")
    if "thread" in names and {"address", "leak"} & set(names):
        raise ToolchainError("the thread sanitizer cannot be combined with address or leak "
                             "(GCC and Clang refuse it): build with one or the other")
    return names


def env_sanitize() -> tuple:
    """The sanitizers $AOTC_SANITIZE names (the default of --sanitize)."""
    return parse_sanitize(os.environ.get("AOTC_SANITIZE"))


def sanitize_cflags(sanitize: tuple) -> list[str]:
    """Compile flags for C built with `sanitize` (the runtime, a test's C program): any
    undefined behaviour ends the program, frames and debug lines make the reports
    readable."""
    if not sanitize:
        return []
    flags = [f"-fsanitize={','.join(sanitize)}", "-fno-omit-frame-pointer", "-g"]
    if "undefined" in sanitize:
        flags.append("-fno-sanitize-recover=undefined")
    return flags


def sanitize_link_flags(sanitize: tuple) -> list[str]:
    return [f"-fsanitize={','.join(sanitize)}"] if sanitize else []


@functools.lru_cache(maxsize=None)
def _dumpmachine(cc: tuple) -> str | None:
    """What `cc -dumpmachine` prints; None when it cannot run, "" when it will not say."""
    try:
        proc = subprocess.run([*cc, "-dumpmachine"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else ""


def _split(cc: str) -> tuple:
    return tuple(shlex.split(cc))


@functools.lru_cache(maxsize=None)
def _prog(cc: tuple, tool: str) -> str | None:
    """The `tool` (ar) that goes with compiler `cc`: where the compiler finds its own
    (`-print-prog-name`, a GNU cross compiler's binutils), else beside it by name
    (aarch64-linux-gnu-gcc, aarch64-linux-gnu-ar)."""
    try:
        proc = subprocess.run([*cc, f"-print-prog-name={tool}"], capture_output=True, text=True,
                              timeout=30)
        named = proc.stdout.strip() if proc.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        named = ""
    if os.path.isabs(named) and os.access(named, os.X_OK):
        return os.path.normpath(named)
    m = re.match(r"(.*-)(gcc|cc|clang)(-[\d.]+)?$", os.path.basename(cc[0]))
    if m:
        found = shutil.which(os.path.join(os.path.dirname(cc[0]), m.group(1) + tool))
        if found:
            return found
    return None


def find_toolchain(triple: str | None = None, cc: str | None = None,
                   sanitize: str | None = None) -> Toolchain:
    """The toolchain that builds the runtime for `triple` (None or this machine's: the system
    compiler). `cc` (the --cc option) wins; then $CC, for another CPU only when it builds for
    that CPU; then the GNU cross compiler the triple names. Raises ToolchainError, saying
    what to install, when there is none. `sanitize` (--sanitize; None: $AOTC_SANITIZE)
    names the sanitizers the runtime is built with."""
    sanitizers = env_sanitize() if sanitize is None else parse_sanitize(sanitize)
    tc = _find_toolchain(triple, cc)
    return dataclasses.replace(tc, sanitize=sanitizers) if sanitizers else tc


def _find_toolchain(triple: str | None, cc: str | None) -> Toolchain:
    host = host_triple()
    target = triple or host
    cross = not same_platform(target, host)
    env_cc = os.environ.get("CC")

    def builds_for_target(argv: tuple) -> bool | None:
        machine = _dumpmachine(argv)
        if machine is None:
            return None  # cannot run at all
        return not machine or same_platform(machine, target)  # silent compilers are trusted

    if cc:
        argv = _split(cc)
        ok = builds_for_target(argv)
        if ok is None:
            raise ToolchainError(f"--cc {cc}: cannot run it")
        if not ok:
            raise ToolchainError(f"--cc {cc} builds for {_dumpmachine(argv)}, not {target}")
        return _toolchain(argv, target, cross)
    if not cross:
        argv = _split(env_cc) if env_cc else None
        if argv is None:
            found = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
            if not found:
                raise ToolchainError("no C compiler found: install gcc or clang, or set CC")
            argv = (found,)
        ok = builds_for_target(argv)
        if ok is None:
            raise ToolchainError(f"CC={env_cc}: cannot run it")
        if not ok:
            raise ToolchainError(f"CC={env_cc} builds for {_dumpmachine(argv)}, not this machine "
                                 f"({host}): unset CC, or pass --cc")
        return _toolchain(argv, target, cross)
    if env_cc and _dumpmachine(_split(env_cc)) and builds_for_target(_split(env_cc)):
        return _toolchain(_split(env_cc), target, cross)  # $CC that says it builds for the target
    gnu = gnu_triple(target)
    for name in dict.fromkeys([f"{gnu}-gcc", f"{target}-gcc", f"{gnu}-cc", f"{target}-cc"]):
        found = shutil.which(name)
        if found and builds_for_target((found,)):
            return _toolchain((found,), target, cross)
    note = f" (CC={env_cc} builds for {_dumpmachine(_split(env_cc)) or 'another CPU'})" if env_cc else ""
    raise ToolchainError(f"no C compiler for {target}{note}: install {cross_package(target)} "
                         f"(Debian/Ubuntu) or pass --cc")


def _toolchain(argv: tuple, target: str, cross: bool) -> Toolchain:
    env_ar = os.environ.get("AR")
    if cross:
        ar = _prog(argv, "ar") or env_ar
        if ar is None:
            raise ToolchainError(f"no archiver for {target} beside {' '.join(argv)}: install "
                                 f"binutils-{gnu_triple(target).replace('_', '-')} (Debian/Ubuntu) "
                                 "or set AR")
    else:
        ar = env_ar or _prog(argv, "ar") or shutil.which("ar") or "ar"
    return Toolchain(cc=argv, machine=_dumpmachine(argv) or "", ar=ar)


def c_compiler() -> str:
    """This machine's C compiler, as one string (tools that build test helpers)."""
    return " ".join(find_toolchain().cc)


# ------------------------------------------------------------------ the runtime

def runtime_sources(device: str = "cpu") -> list[str]:
    """The runtime's C: every target's, then the part of the target named `device`
    (its backend's runtime_sources, lowering/backends)."""
    from lowering.backends import get
    return [str(p) for p in abi.runtime_sources()] + [os.path.join(RUNTIME_DIR, s)
                                                       for s in get(device).runtime_sources]


def runtime_headers(sources: list[str]) -> list[str]:
    """The headers beside the runtime's sources: runtime_c/*.h, and a device part's own."""
    folders = {os.path.dirname(s) for s in sources}
    return sorted(h for d in folders for h in glob.glob(os.path.join(d, "*.h")))


def runtime_objects(cache_dir: str, device: str = "cpu", tc: Toolchain | None = None) -> list[str]:
    """Compile runtime_c/*.c (and the target's device part) once per source content,
    compiler and flags (the sanitizers' included)."""
    return start_runtime_objects(cache_dir, device, tc).wait()


def start_runtime_objects(cache_dir: str, device: str = "cpu",
                          tc: Toolchain | None = None) -> RuntimeBuild:
    """runtime_objects, its compilers started and not waited for: a build starts them before
    the model's own compile, whose Python and LLVM leave a core free at times (a fresh
    cache's runtime is 0.4 s of C)."""
    tc = tc or find_toolchain()
    sources = runtime_sources(device)
    cflags = tc.runtime_cflags()
    h = hashlib.sha256(" ".join([*tc.cc, tc.machine] + cflags).encode())
    for path in sources + runtime_headers(sources):
        with open(path, "rb") as f:
            h.update(path.encode() + f.read())
    out_dir = os.path.join(cache_dir, "runtime-" + h.hexdigest()[:16])
    objs = [os.path.join(out_dir, os.path.basename(s)[:-2] + ".o") for s in sources]
    from abi.elf import ET_REL, elf_problem

    def whole() -> bool:  # every object there, a whole ELF object, all for one machine
        return not any(elf_problem(o, ET_REL) for o in objs) and \
            len({elf_machine(o) for o in objs}) == 1
    if whole():
        touch(out_dir)  # used now: `aotc cache --prune` keeps it
        return RuntimeBuild(objs)
    if os.path.isdir(out_dir) and not whole():  # damaged, not just installed: set aside
        stale = out_dir + f".stale{os.getpid()}"
        try:
            os.replace(out_dir, stale)
        except OSError:  # another process set it aside first
            pass
        shutil.rmtree(stale, ignore_errors=True)
    tmp = out_dir + f".tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)  # a dead process's of the same pid
    os.makedirs(tmp)
    build = RuntimeBuild(objs, tmp=tmp)
    for src in sources:  # all at once: each is one core's work
        cmd = [*tc.cc, *cflags, "-I", RUNTIME_DIR, "-c", src, "-o",
               os.path.join(tmp, os.path.basename(src)[:-2] + ".o")]
        err = tempfile.TemporaryFile()
        build.jobs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err), err))
    return build


@dataclass
class RuntimeBuild:
    """The runtime's objects, and the compilers still making them into `tmp`."""
    objects: list
    tmp: str | None = None
    jobs: list = dataclasses.field(default_factory=list)  # (command, process, its stderr)

    def wait(self) -> list[str]:
        """The objects, once every compiler is done; raises ToolchainError if one failed."""
        failed = []
        for cmd, proc, err in self.jobs:
            if proc.wait() != 0:
                err.seek(0)
                failed.append(f"command failed: {' '.join(cmd)}\n"
                              f"{err.read().decode(errors='replace').strip()}")
            err.close()
        self.jobs, tmp, self.tmp = [], self.tmp, None
        if tmp is not None and failed:
            shutil.rmtree(tmp, ignore_errors=True)
        if failed:
            raise ToolchainError(failed[0])
        if tmp is not None:
            try:
                os.replace(tmp, os.path.dirname(self.objects[0]))
            except OSError:  # another process won the race; its objects are the same
                shutil.rmtree(tmp, ignore_errors=True)
        return self.objects

    def close(self) -> None:
        """Wait, errors and all, when the build stopped before it needed the objects."""
        try:
            self.wait()
        except ToolchainError:
            pass


def write_runtime_sources(out_dir: str, device: str = "cpu") -> str:
    """The runtime as C sources in `out_dir/aot_runtime/` (its .c files and headers, the
    layout of runtime_c/), for a build system of the user's own; returns the folder."""
    dest = os.path.join(out_dir, "aot_runtime")
    sources = runtime_sources(device)
    files = sources + runtime_headers(sources)
    for src in files:
        path = os.path.join(dest, os.path.relpath(src, RUNTIME_DIR))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(src, path)
    return dest


# ------------------------------------------------------------------ one machine per artifact

def check_one_machine(objects: list[str], tc: Toolchain) -> None:
    """Every object is for the machine of the first (the model's): a runtime built by a
    compiler for another CPU is an error here, never a mixed archive or a linker's message."""
    want = elf_machine(objects[0])
    if want is None:
        return
    for obj in objects[1:]:
        got = elf_machine(obj)
        if got != want:
            raise ToolchainError(
                f"{os.path.basename(obj)} is for {machine_name(got)} but the model is for "
                f"{machine_name(want)}: the runtime was built with {tc.describe()}"
                f" ({tc.machine or 'unknown target'}); pass --cc with a compiler for the target")


def link_shared(objects: list[str], out: str, tc: Toolchain | None = None) -> None:
    # -Bsymbolic-functions: the model always calls its own copy of the runtime, even when
    # another artifact loaded with RTLD_GLOBAL exports the same names
    tc = tc or find_toolchain()
    run([*tc.cc, "-shared", *tc.link_flags(), "-Wl,-Bsymbolic-functions", "-o", out, *objects,
         *LINK_LIBS])


def archive(objects: list[str], out: str, tc: Toolchain | None = None) -> None:
    if os.path.exists(out):
        os.remove(out)
    tc = tc or find_toolchain()
    run([tc.ar, "rcs", out, *objects])


def objcopy(tc: Toolchain) -> str | None:
    """The binutils objcopy that goes with the toolchain's compiler (beside it, or this
    machine's when it builds for this machine), or None."""
    found = _prog(tuple(tc.cc), "objcopy")
    if found is None and same_platform(tc.machine, host_triple()):
        found = shutil.which("objcopy")
    return found


def join_partitions(objects: list[str], hidden: list[str], out: str, tc: Toolchain) -> None:
    """The objects of one module's partitions as one object whose `hidden` symbols (the
    internal functions the partitions shared) are local again, as in a single module."""
    merge_objects(objects, out + ".joined.o", tc)
    names = out + ".local"
    with open(names, "w") as f:
        f.write("".join(n + "\n" for n in hidden))
    run([objcopy(tc), f"--localize-symbols={names}", out + ".joined.o", out])


def merge_objects(objects: list[str], out: str, tc: Toolchain | None = None) -> None:
    """One relocatable object holding the model and the runtime (the compiler driving its
    own linker: `ld -r` of the right machine)."""
    tc = tc or find_toolchain()
    run([*tc.cc, "-r", "-nostdlib", "-o", out, *objects])
