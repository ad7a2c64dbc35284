"""In-place ops as export leaves them (`x[:, :, 0] += 1`, `z[1:, 1:] = s`, `y.relu_()` after
`v = y.view(...)`), made functional while the graph is lowered: the op's functional value is
written back through the chain of views it was applied to, into the tensor that owns the
memory, and every view of that tensor taken before the op is taken again from the new value.
What cannot be told from the graph (whether a reshape of a strided tensor copied, a write
through a view with no inverse here, an input or weight overwritten) is a TorchLoweringError:
aot.compile then decomposes the program, which makes it functional (import_torch)."""
from __future__ import annotations

import numpy as np

from lowering.torch.archive import flat_outputs
from lowering.torch.emitter import TorchEmitter
from lowering.torch.scatter import write_rows

# Ops whose result may share its input's memory (a view, or the input itself).
ALIASING = frozenset(
    "view _unsafe_view reshape permute transpose t numpy_T expand expand_as select slice squeeze "
    "unsqueeze alias flatten unflatten split split_with_sizes chunk unbind as_strided detach "
    "narrow diagonal movedim view_as reshape_as contiguous to type_as dropout dropout_ swapaxes swapdims "
    "lift_fresh".split())

# Of those, the ones that share memory only sometimes: a reshape (or contiguous) of a
# contiguous tensor, a cast to the same element type.
RESHAPES = frozenset("reshape reshape_as flatten unflatten contiguous".split())
CASTS = frozenset("to type_as".split())


def op_base(target: str) -> str:
    """`view` for `torch.ops.aten.view.default`."""
    parts = target.split(".")
    return parts[-2] if len(parts) >= 2 else target


def _slice_back(e, n, parent, value):
    axis = e.axis(n.arg("dim", 0), parent.type.rank)
    start = n.arg("start", None)
    return write_rows(e, parent, value, axis, 0 if start is None else start, n.arg("step", 1))


def _select_back(e, n, parent, value):
    axis = e.axis(n.arg("dim"), parent.type.rank)
    value = e.reshape(value, e.dims(value)[:axis] + [1] + e.dims(value)[axis:])
    return write_rows(e, parent, value, axis, n.arg("index"), 1, clamp=False)


def _narrow_back(e, n, parent, value):
    return write_rows(e, parent, value, e.axis(n.arg("dim"), parent.type.rank), n.arg("start"), 1)


def _reshape_back(e, n, parent, value):
    return e.reshape(value, e.dims(parent))


def _permute_back(e, n, parent, value):
    perm = [e.axis(d, parent.type.rank) for d in n.arg("dims")]
    return e.v("transpose", [value], {"permutation": tuple(int(i) for i in np.argsort(perm))})


def _transpose_back(e, n, parent, value):
    r = parent.type.rank
    if r < 2:
        return value
    names = next((k for k in (("dim0", "dim1"), ("axis0", "axis1")) if k[0] in n.inputs), None)
    a, b = (e.axis(n.arg(names[0]), r), e.axis(n.arg(names[1]), r)) if names else (0, r - 1)
    perm = list(range(r))
    perm[a], perm[b] = b, a
    return e.v("transpose", [value], {"permutation": tuple(perm)})


def _reverse_back(e, n, parent, value):
    return e.v("transpose", [value], {"permutation": tuple(reversed(range(parent.type.rank)))})


def same_value(e, n, parent, value):
    return e.convert(value, parent.type.elem)


# view op -> its inverse: (emitter, the view's Node, the tensor it was taken of, the view's new
# value) -> that tensor's new value. In-place ops' own results (`add_` returns self) are
# `same_value` too (lower.py).
WRITE_BACK = {
    "slice": _slice_back, "select": _select_back, "narrow": _narrow_back,
    **{op: _reshape_back for op in ("view _unsafe_view reshape flatten unflatten squeeze "
                                    "unsqueeze view_as reshape_as").split()},
    "permute": _permute_back, "transpose": _transpose_back, "t": _transpose_back,
    "swapaxes": _transpose_back, "swapdims": _transpose_back,
    "numpy_T": _reverse_back,
    **{op: same_value for op in "alias detach lift_fresh contiguous to type_as dropout".split()},
}


def _contiguous(tv: dict) -> bool | None:
    """Whether a tensor's recorded strides are row-major (None: symbolic, cannot tell)."""
    sizes, strides = tv.get("sizes", []), tv.get("strides")
    if strides is None or any("as_int" not in s for s in sizes + strides):
        return None
    expected = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size["as_int"] != 1 and stride["as_int"] != expected:
            return False
        expected *= size["as_int"]
    return True


class Views:
    """Which tensor names share memory, from the main graph's nodes (each node's parent and
    the nodes taken of each tensor, found once), and the write-back of an in-place op's
    value (Lowerer.node); `in_place(node)` tells an in-place op."""

    def __init__(self, graph: dict, producers: dict, readers: dict, in_place):
        self.graph, self.producers, self.readers, self.in_place = graph, producers, readers, in_place
        self.nodes = graph.get("nodes", [])
        self.index = {id(raw): i for i, raw in enumerate(self.nodes)}
        self.up = {id(raw): self._parent(raw) for raw in self.nodes}
        self.taken: dict = {}  # tensor -> the nodes that may share its memory, in order
        for raw in self.nodes:
            if self.up[id(raw)] is not None:
                self.taken.setdefault(first_input(raw), []).append(raw)

    def parent(self, raw: dict):
        """The tensor whose memory raw's output shares: its first tensor input, when raw is
        a view (or an in-place op, which returns its input); None when it owns its memory;
        _UNKNOWN when that cannot be told (a reshape of symbolic strides)."""
        return self.up[id(raw)]

    def _parent(self, raw: dict):
        base = op_base(raw.get("target", ""))
        first = first_input(raw)
        if base not in ALIASING and not self.in_place(raw) or first is None:
            return None
        tvs = self.graph.get("tensor_values", {})
        src, out = tvs.get(first, {}), tvs.get(_first_output(raw), {})
        if base in RESHAPES:
            shares = _contiguous(src)
        elif base in CASTS:
            shares = src.get("dtype") == out.get("dtype")
        else:
            shares = True
        return first if shares else None if shares is False else _UNKNOWN

    def chain(self, e: TorchEmitter, raw: dict, name: str) -> list:
        """[(view name, the tensor it was taken of, its node)] from `name` up to the tensor
        that owns the memory; an error where that cannot be told or written back. A reshape
        that may or may not have copied (strides PyTorch recorded as symbols) ends the chain
        when no tensor it may share memory with is read after the op: then nothing can tell."""
        what = f"in-place op (node '{raw.get('name')}') overwrites '{name}'"
        me, links = self.index[id(raw)], []
        while True:
            maker = self.producers.get(name)
            if maker is None:
                raise e.error(f"{what}, which is (a view of) input or weight '{name}': not "
                              "supported (run_decompositions() makes it functional)")
            up = self.parent(maker)
            if up is None or up is _UNKNOWN and not self.read_later(maker, me):
                return links
            base = op_base(maker.get("target", ""))
            if up is _UNKNOWN or (base not in WRITE_BACK and not self.in_place(maker)):
                raise e.error(f"{what}, which shares memory with '{name}' through "
                              f"{maker.get('target')} in a way not written back here: not "
                              "supported (run_decompositions() makes it functional)")
            links.append((name, up, maker))
            name = up

    def shared(self, root: str, skip=None, before: int | None = None) -> list:
        """The nodes (before index `before`, other than `skip`) whose outputs may share
        `root`'s memory, through any chain of views, in graph order."""
        found, todo = [], [root]
        while todo:
            for raw in self.taken.get(todo.pop(), []):
                if raw is not skip and (before is None or self.index[id(raw)] < before):
                    found.append(raw)
                    todo += [n for n in _outputs(raw) if n]
        return sorted(found, key=lambda raw: self.index[id(raw)])

    def read_later(self, cut: dict, me: int) -> bool:
        """Whether a tensor sharing memory with cut's input, other than through cut's
        output, is read after node `me` (every link that may share counted as sharing)."""
        name = first_input(cut)
        while (maker := self.producers.get(name)) is not None and self.parent(maker):
            name = first_input(maker)
        names = [name] + [n for raw in self.shared(name, skip=cut) for n in _outputs(raw) if n]
        return any(i > me for n in names for i in self.readers.get(n, []))

    def family(self, e: TorchEmitter, root: str, before: int) -> list:
        """The nodes before index `before` whose outputs share `root`'s memory, in order."""
        names, out = {root}, []
        for raw in self.shared(root, before=before):
            up = self.parent(raw)
            if up in names:
                out.append(raw)
                names.update(n for n in _outputs(raw) if n)
            elif up is _UNKNOWN and first_input(raw) in names and any(
                    i >= before for n in _outputs(raw) for i in self.readers.get(n, [])):
                raise e.error(f"'{_first_output(raw)}' ({raw.get('target')}) may share memory "
                              f"with '{root}', which this in-place op overwrites, and is read "
                              "later: not supported (run_decompositions() makes it functional)")
        return out


_UNKNOWN = object()


def first_input(raw: dict) -> str | None:
    """The name of a node's first tensor argument (the tensor a view or in-place op is of)."""
    return (raw.get("inputs") or [{}])[0].get("arg", {}).get("as_tensor", {}).get("name")


def _outputs(raw: dict) -> list:
    return flat_outputs(raw.get("outputs", []))


def _first_output(raw: dict) -> str | None:
    outs = _outputs(raw)
    return outs[0] if outs else None
