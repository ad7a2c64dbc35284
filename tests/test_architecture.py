"""The layers of lowering/ as ARCHITECTURE.md draws them: no import cycles (imports inside
functions count), and no import that points up a layer."""
import ast
import os
import re

from lowering.ir.dialect import AOT_ATTRS, LOOP_OPS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("lowering", "aot", "abi")

# The modules of lowering/ops/ that are not an op family: the registry and what every family
# and stage shares. Every other file there is a family, which lowering/ops/__init__.py imports.
OPS_SHARED = {"__init__", "registry", "elemental", "verify", "custom_calls", "ranges", "table"}
FAMILIES = tuple(sorted(f"lowering.ops.{f[:-3]}" for f in os.listdir(os.path.join(ROOT, "lowering", "ops"))
                        if f.endswith(".py") and f[:-3] not in OPS_SHARED))
# module prefix -> prefixes it must not import (the layers above it, and the op families
# for everything but the package that gathers them and the targets that override them)
FORBIDDEN = {
    "lowering.ir": ("lowering.frontend", "lowering.ops", "lowering.passes", "lowering.codegen"),
    "lowering.target": ("lowering.",),
    "lowering.ops.registry": ("lowering.frontend", "lowering.ops.", "lowering.passes",
                              "lowering.codegen"),
    "lowering.frontend": ("lowering.ops", "lowering.passes", "lowering.codegen"),
    "lowering.ops": ("lowering.passes", "lowering.frontend", "lowering.codegen", "lowering.backends"),
    "lowering.tf": ("lowering.passes", "lowering.frontend", "lowering.codegen") + FAMILIES,
    "lowering.torch": ("lowering.passes", "lowering.frontend", "lowering.codegen") + FAMILIES,
    "lowering.passes": FAMILIES + ("lowering.codegen",),
    "lowering.codegen": ("lowering.backends",),
    "lowering.backends": ("lowering.passes", "aot"),  # the driver hands a backend its stages
    "lowering.codegen.llvm": ("lowering.passes",),
    "lowering.codegen.cpu": ("lowering.passes",),
    "lowering.codegen.cuda": ("lowering.passes", "lowering.codegen.cpu"),
    "lowering.codegen.host": ("lowering.passes", "lowering.codegen.cpu", "lowering.codegen.cuda"),
}


def modules() -> dict:
    out = {}
    for pkg in PACKAGES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, pkg)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, f), ROOT)[:-3].replace(os.sep, ".")
                    out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = \
                        os.path.join(dirpath, f)
    return out


def imports(mods: dict) -> dict:
    """Module -> the project modules it imports anywhere in its file."""
    graph = {}
    for name, path in mods.items():
        package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(open(path).read())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for t in targets:
                while t and t not in mods:
                    t = t.rsplit(".", 1)[0] if "." in t else ""
                if t and t != name and not name.startswith(t + "."):
                    found.add(t)
        graph[name] = found
    return graph


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert cycles(imports(modules())) == []


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_points_up_a_layer():
    bad = []
    for name, deps in imports(modules()).items():
        for prefix, forbidden in FORBIDDEN.items():
            if name != prefix and not name.startswith(prefix + "."):
                continue
            if name.startswith("lowering.ops.registry") and prefix == "lowering.ops":
                continue
            if name == "lowering.passes.pipeline":  # runs every stage, the guard before LLVM too
                continue
            if name == "lowering.ops.table":  # the op table shows every target's rules
                deps = deps - {"lowering.backends"}
            bad += [f"{name} imports {d}" for d in deps
                    if any(d == f or d.startswith(f if f.endswith(".") else f + ".") for f in forbidden)
                    and not d.startswith(name)]
    assert bad == []


def test_only_the_ops_package_imports_the_families():
    importers = {(name, d) for name, deps in imports(modules()).items() for d in deps
                 if d in FAMILIES and not name.startswith(("lowering.ops", "lowering.codegen"))}
    assert importers == set()


def test_every_family_is_imported_by_the_ops_package():
    """A new file in lowering/ops/ is a family (registered by the package) or named shared."""
    assert {d for d in imports(modules())["lowering.ops"]} == set(FAMILIES)


def test_every_aot_name_is_declared_once_with_its_contract():
    used = set()
    for path in modules().values():
        if path.endswith("dialect.py"):
            continue
        used |= set(re.findall(r'"(aot\.[a-z_]+)"', open(path).read()))
    assert used - set(LOOP_OPS) - set(AOT_ATTRS) == set()
    assert not set(LOOP_OPS) & set(AOT_ATTRS)


def test_the_driver_and_the_passes_never_ask_which_target():
    """What differs per target is its Backend's (lowering/backends) or its Target's to say:
    the driver, the manifest and the passes never test a target's name."""
    asks = re.compile(r"\b(?:target\.name|opts\.target|args\.target)\s*(?:==|!=|in\b)")
    bad = [f"{name}: {line.strip()}" for name, path in modules().items()
           if name in ("aot.driver", "aot.manifest", "aot.cli", "aot.api")
           or name.startswith("lowering.passes.")
           for line in open(path) if asks.search(line)]
    assert bad == []
