"""TF1 (v1) control flow made functional, as TensorFlow's functionalize_control_flow does:
in a flattened executor graph, a cond (Switch nodes on one predicate, Merge nodes joining
the branches) becomes a tf.If, a case (_SwitchN nodes on one branch index) a tf.Case, and a
while loop (one frame's Enter, Merge, Switch on a LoopCond, NextIteration and Exit nodes) a
tf.While, each with new private functions holding the branch, cond and body subgraphs; the
existing rules then lower those to mhlo if/case/while.

Every TF op lowered here is pure, so values that do not depend on a branch's or a loop's
own values (constants tied to a pivot only by a control edge) are computed outside, once.
Innermost structures go first; what remains is an error naming a node."""
from __future__ import annotations

from lowering.ir.core import (
    Block,
    CompileError,
    FunctionType,
    Module,
    Operation,
    Region,
    SymbolRef,
    replace_all_uses,
)

V1 = "tf_executor."
SWITCH, MERGE, ENTER, EXIT = (V1 + n for n in ("Switch", "Merge", "Enter", "Exit"))
SWITCH_N = V1 + "_SwitchN"  # tf.Case lowered: one output per branch
SOURCE, SINK, LOOP_COND = V1 + "NextIteration.Source", V1 + "NextIteration.Sink", V1 + "LoopCond"


def _owner(v):
    return v.owner if isinstance(v.owner, Operation) else None


def _users(block):
    table: dict = {}
    for op in block.ops:
        for v in op.operands:
            table.setdefault(v, []).append(op)
    return table


def _forward(starts, users, stop) -> set:
    """Ops reachable from the values `starts` through data edges, not entering `stop` ops."""
    seen, todo = set(), list(starts)
    while todo:
        v = todo.pop()
        for op in users.get(v, ()):
            if op in seen or stop(op):
                continue
            seen.add(op)
            todo.extend(op.results)
    return seen


class _Builder:
    """Clones backward slices into a new function: values in `args` become its arguments,
    ops in `inside` and constants are cloned, any other value is captured (an extra
    argument)."""

    def __init__(self, inside: set, args: dict):
        self.inside, self.args = inside, args
        self.captured: list = []
        self.block = Block()
        self.mapping: dict = {}

    def value(self, v):
        if v in self.mapping:
            return self.mapping[v]
        if v in self.args:
            out = self.args[v]
        elif _owner(v) in self.inside or (_owner(v) is not None and _owner(v).name == "tf.Const"):
            # (constants are copied in, so rules that need them constant still see them)
            op = _owner(v)
            for w in op.operands:
                self.value(w)
            new = Operation(op.name, [self.mapping[w] for w in op.operands],
                            [r.type for r in op.results], dict(op.attrs), (), op.loc)
            self.block.append(new)
            for a, b in zip(op.results, new.results):
                self.mapping[a] = b
            out = self.mapping[v]
        else:
            self.captured.append(v)
            out = None
        if out is None:
            out = _Placeholder(v)
        self.mapping[v] = out
        return out


class _Placeholder:
    """A captured value, bound to a block argument once all captures are known."""

    def __init__(self, v):
        self.v = v
        self.type = v.type


def _finish(builder: _Builder, head: list, captures: list, results: list, loc, name):
    """The function: arguments `head` then `captures`, returning `results`."""
    block = Block([v.type for v in head] + [v.type for v in captures])
    bind = dict(zip(head, block.args[:len(head)]))
    bind.update(zip(captures, block.args[len(head):]))
    for op in builder.block.ops:
        op.operands = [bind[o.v] if isinstance(o, _Placeholder) else bind.get(o, o)
                       for o in op.operands]
        block.append(op)
    rets = [bind[r.v] if isinstance(r, _Placeholder) else bind.get(r, r) for r in results]
    block.append(Operation("func.return", rets, (), {}, (), loc))
    fn = Operation("func.func", [], [], {
        "sym_name": name, "sym_visibility": "private",
        "function_type": FunctionType(tuple(a.type for a in block.args),
                                      tuple(r.type for r in rets))}, [Region([block])], loc)
    return fn


def _prune(block: Block) -> None:
    """Drop ops nothing uses; NextIteration.Sink nodes (no results) are kept for their loops."""
    while True:
        used = {v for op in block.ops for v in op.operands}
        keep = [op for op in block.ops if op.name in ("func.return", "return", SINK)
                or any(r in used for r in op.results)]
        if len(keep) == len(block.ops):
            return
        block.ops = keep


def _topo_sort(block: Block) -> None:
    """Producers before users, otherwise in the block's order (TF graphs are DAGs)."""
    order, done, index = [], set(), {op: i for i, op in enumerate(block.ops)}
    term = [op for op in block.ops if op.name in ("func.return", "return")]
    for root in block.ops:
        if root in done or root in term:
            continue
        stack = [(root, False)]
        while stack:
            op, expanded = stack.pop()
            if op in done:
                continue
            if expanded:
                done.add(op)
                order.append(op)
                continue
            stack.append((op, True))
            deps = [_owner(v) for v in op.operands]
            for d in sorted({d for d in deps if d in index and d not in done},
                            key=lambda d: -index[d]):
                stack.append((d, False))
    block.ops = order + term


class Functionalizer:
    def __init__(self, module: Module, func: Operation):
        self.module, self.func = module, func
        self.block = func.regions[0].blocks[0]
        self.count = 0

    def fresh(self, kind: str) -> str:
        self.count += 1
        return f"{self.func.attrs['sym_name']}__v1_{kind}_{self.count}"

    def run(self) -> None:
        while True:
            if not any(op.name.startswith(V1) for op in self.block.ops):
                return
            if not (self.one_cond() or self.one_loop()):
                bad = next(op for op in self.block.ops if op.name.startswith(V1))
                raise CompileError(f"'{bad.name}': this form of TF1 (v1) control flow is not "
                                   "supported (conds and while loops are, innermost first)",
                                   bad.loc)
            _prune(self.block)
            _topo_sort(self.block)

    # ------------------------------------------------------------ conds

    def one_cond(self) -> bool:
        users = _users(self.block)
        loop_preds = {op.results[0] for op in self.block.ops if op.name == LOOP_COND}
        keys = []  # (switch kind, predicate or branch index)
        for op in self.block.ops:
            if op.name in (SWITCH, SWITCH_N) and op.operands[1] not in loop_preds \
                    and (op.name, op.operands[1]) not in keys:
                keys.append((op.name, op.operands[1]))
        for kind, p in keys:
            switches = [op for op in self.block.ops if op.name == kind and op.operands[1] is p]
            n = len(switches[0].results) - 1
            if any(len(s.results) - 1 != n for s in switches):
                continue
            outputs = [1, 0] if kind == SWITCH else list(range(n))  # then/else; branch k
            is_merge = lambda op: op.name == MERGE  # noqa: E731
            sides = [_forward([s.results[k] for s in switches], users, is_merge) for k in outputs]
            merges = []
            for side in sides:
                for op in side | set(switches):
                    merges += [u for r in op.results for u in users.get(r, ())
                               if u.name == MERGE and u not in merges]
            inner = set().union(*sides) - set(switches)
            if any(op.name.startswith(V1) for op in inner) or not merges:
                continue  # a structure nested inside: that one first
            self.make_branches(kind, p, switches, sides, outputs, merges)
            return True
        return False

    def make_branches(self, kind, p, switches, sides, outputs, merges) -> None:
        """A tf.If (Switch: then is the true output) or a tf.Case (_SwitchN: branch k is
        output k) whose branches return, per Merge, the input coming from that branch."""
        loc = merges[0].loc
        picks = []  # per merge: the value each branch gives it
        for m in merges:
            which = []
            for side, k in zip(sides, outputs):
                outs = {s.results[k] for s in switches}
                hit = [v for v in m.operands if _owner(v) in side or v in outs]
                if len(hit) != 1:
                    raise CompileError(f"'{m.name}' does not join the branches of one cond",
                                       m.loc)
                which.append(hit[0])
            picks.append(which)
        funcs, captures, builders = [], [], []
        for i, (side, k) in enumerate(zip(sides, outputs)):
            b = _Builder(side, {})
            for s in switches:  # a branch reads the switched value itself
                b.mapping[s.results[k]] = b.value(s.operands[0])
            rets = [b.value(pick[i]) for pick in picks]
            builders.append((b, rets))
            for v in b.captured:
                if v not in captures:
                    captures.append(v)
        names = ["then", "else"] if kind == SWITCH else [f"branch{i}" for i in outputs]
        for (b, rets), name in zip(builders, names):
            funcs.append(_finish(b, [], captures, rets, loc, self.fresh(name)))
        self.module.ops.extend(funcs)
        refs = [SymbolRef(f.attrs["sym_name"]) for f in funcs]
        attrs = ({"then_branch": refs[0], "else_branch": refs[1]} if kind == SWITCH
                 else {"branches": refs})
        new = Operation("tf.If" if kind == SWITCH else "tf.Case", [p] + captures,
                        [m.results[0].type for m in merges], attrs, (), loc)
        self.replace(merges, new, [m.results[0] for m in merges])

    # ------------------------------------------------------------ loops

    def one_loop(self) -> bool:
        frames = []
        for op in self.block.ops:
            if op.name == ENTER and op.attrs.get("frame_name") not in frames:
                frames.append(op.attrs.get("frame_name"))
        users = _users(self.block)
        for frame in frames:
            enters = [op for op in self.block.ops if op.name == ENTER
                      and op.attrs.get("frame_name") == frame]
            loop = self.loop_parts(enters, users)
            if loop is not None:
                self.make_while(*loop)
                return True
        return False

    def loop_parts(self, enters, users):
        """(carried [(enter, merge, switch, exit, next)], constant enters, loop cond op,
        ops of the loop), or None when another structure is nested inside."""
        carried = []
        consts = [e for e in enters if e.attrs.get("is_constant")]
        lc = None
        for e in enters:
            if e in consts:
                continue
            merge = next((u for u in users.get(e.results[0], ()) if u.name == MERGE), None)
            if merge is None:
                raise CompileError(f"'{e.name}': a loop variable without a Merge", e.loc)
            src = next((_owner(v) for v in merge.operands if _owner(v) is not None
                        and _owner(v).name == SOURCE), None)
            sw = next((u for u in users.get(merge.results[0], ()) if u.name == SWITCH), None)
            if src is None or sw is None:
                raise CompileError(f"'{merge.name}': a loop Merge without NextIteration and "
                                   "Switch", merge.loc)
            sink = next((u for u in users.get(src.results[1], ()) if u.name == SINK), None)
            exits = [u for u in users.get(sw.results[0], ()) if u.name == EXIT]
            if sink is None:
                raise CompileError(f"'{src.name}': no NextIteration.Sink for it", src.loc)
            lc = _owner(sw.operands[1])
            carried.append((e, merge, sw, exits[0] if exits else None, sink.operands[-1],
                            src, sink))
        if lc is None or lc.name != LOOP_COND:
            raise CompileError(f"'{enters[0].name}': a loop without a LoopCond", enters[0].loc)
        starts = [c[1].results[0] for c in carried] + [e.results[0] for e in consts]
        stop = lambda op: op.name in (EXIT, SINK)  # noqa: E731
        inside = _forward(starts, users, stop)
        mine = {op for c in carried for op in c[1:3]} | {lc} | {c[5] for c in carried}
        if any(op.name.startswith(V1) and op not in mine for op in inside):
            return None
        return carried, consts, lc, inside

    def make_while(self, carried, consts, lc, inside) -> None:
        loc = lc.loc
        cond_b = _Builder(inside, {})
        merged = [c[1].results[0] for c in carried]
        for e in consts:
            cond_b.mapping[e.results[0]] = cond_b.value(e.operands[0])
        cond_ret = cond_b.value(lc.operands[0])
        body_b = _Builder(inside, {})
        for e in consts:
            body_b.mapping[e.results[0]] = body_b.value(e.operands[0])
        for c in carried:  # the body reads a variable through its Switch's true output
            body_b.mapping[c[2].results[1]] = c[1].results[0]
        nexts = [body_b.value(c[4]) for c in carried]
        captures = []
        for v in cond_b.captured + body_b.captured:
            if v not in captures and v not in merged:
                captures.append(v)
        for b in (cond_b, body_b):  # merges are the loop's arguments, not captures
            b.captured = [v for v in b.captured if v not in merged]
        cond_f = _finish(cond_b, merged, captures, [cond_ret], loc, self.fresh("cond"))
        body_f = _finish(body_b, merged, captures, nexts + [_Placeholder(v) for v in captures],
                         loc, self.fresh("body"))
        self.module.ops.extend([cond_f, body_f])
        inits = [c[0].operands[0] for c in carried]
        new = Operation("tf.While", inits + captures,
                        [v.type for v in merged] + [v.type for v in captures],
                        {"cond": SymbolRef(cond_f.attrs["sym_name"]),
                         "body": SymbolRef(body_f.attrs["sym_name"])}, (), loc)
        exits = [c[3] for c in carried]
        self.replace([x for x in exits if x is not None], new,
                     [x.results[0] for x in exits if x is not None],
                     [new.results[i] for i, x in enumerate(exits) if x is not None])
        sinks = {c[6] for c in carried}
        self.block.ops = [op for op in self.block.ops if op not in sinks]

    # ------------------------------------------------------------ shared

    def replace(self, anchors, new, olds, news=None) -> None:
        """Put `new` in the block and point the uses of `olds` at its results."""
        news = news if news is not None else new.results
        i = min(self.block.ops.index(a) for a in anchors) if anchors else len(self.block.ops) - 1
        self.block.ops.insert(i, new)
        new.parent = self.block
        for old, v in zip(olds, news):
            replace_all_uses(old, v)


def functionalize_v1(module: Module, func: Operation) -> None:
    """Replace the v1 control flow nodes of func's (flattened) body by tf.If/tf.While."""
    v1 = [op for op in func.regions[0].blocks[0].ops if op.name.startswith(V1)]
    if not v1:
        return
    try:
        Functionalizer(module, func).run()
    except (IndexError, KeyError, TypeError, ValueError, AttributeError) as e:  # mutated text
        raise CompileError(f"TF1 control flow ('{v1[0].name}' and the nodes around it) is not "
                           "in the form TensorFlow writes it: a node has the wrong number of "
                           "operands or results, so it cannot be turned into tf.If/tf.While",
                           v1[0].loc) from e
