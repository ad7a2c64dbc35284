"""Recurrent layers as torch.export leaves them (`aten.lstm.input`, `aten.gru.input`, at the
sequence length of the example: export fixes it): per layer and direction, the input's
projection for every step as one matrix product, then one mhlo.while over the steps carrying
the state and writing each step's output into its row. The decomposition aot.compile would
fall back to unrolls the steps instead (its ops, and the compile time, growing with the
length)."""
from __future__ import annotations

from lowering.ir.core import Block, Operation, Region, TensorType
from lowering.torch import nn_ops
from lowering.torch.shapes import slice_dim
from lowering.torch.table import aten

# gates per cell: how many blocks of `hidden` rows its weights stack
GATES = {"lstm": 4, "gru": 3}


@aten("lstm.input", "gru.input", group=nn_ops.W)
def rnn(e, n):
    """nn.LSTM / nn.GRU over [T, B, I] (or batch_first, or one unbatched sequence): layers
    stacked, bidirectional ones concatenating both directions' outputs; returns the output
    and the last state of each layer and direction (LSTM: h and c)."""
    kind = "lstm" if e.target.startswith("aten.lstm") else "gru"
    x, params = n.arg("input"), list(n.arg("params"))
    state = list(n.arg("hx")) if kind == "lstm" else [n.arg("hx")]
    layers, bidirectional = n.arg("num_layers"), n.arg("bidirectional")
    if n.arg("train") and n.arg("dropout"):
        raise e.error("dropout between recurrent layers in training mode: export in eval mode")
    dirs, per = 2 if bidirectional else 1, 4 if n.arg("has_biases") else 2
    if len(params) != layers * dirs * per:
        raise e.error(f"{len(params)} weights for {layers} layers of {dirs} directions: "
                      "a projection (proj_size) is not supported")
    unbatched = x.type.rank == 2
    if unbatched:
        x = e.reshape(x, [e.dims(x)[0], 1, e.dims(x)[1]])
        state = [e.reshape(s, [e.dims(s)[0], 1, e.dims(s)[1]]) for s in state]
    batch_first = n.arg("batch_first") and not unbatched
    seq = e.v("transpose", [x], {"permutation": (1, 0, 2)}) if batch_first else x
    if seq.type.shape[0] is None:
        raise e.error("a recurrent layer over a dynamic sequence length is not supported")
    last: list = [[] for _ in state]
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            weights = params[k * per:(k + 1) * per] + [None] * (4 - per)
            first = [e.reshape(slice_dim(e, s, 0, k, k + 1, 1), e.dims(s)[1:]) for s in state]
            out, *ends = _direction(e, kind, seq, weights, first, reverse=d == 1)
            outs.append(out)
            for acc, end in zip(last, ends):
                acc.append(e.reshape(end, [1] + e.dims(end)))
        seq = outs[0] if dirs == 1 else e.v("concatenate", outs, {"dimension": 2})
    out = e.v("transpose", [seq], {"permutation": (1, 0, 2)}) if batch_first else seq
    ends = [e.v("concatenate", acc, {"dimension": 0}) for acc in last]
    if unbatched:
        out = e.reshape(out, [e.dims(out)[0], e.dims(out)[2]])
        ends = [e.reshape(s, [e.dims(s)[0], e.dims(s)[2]]) for s in ends]
    return [out, *ends]


def _direction(e, kind: str, seq, weights: list, state: list, reverse: bool) -> list:
    """One layer in one direction over seq [T, B, I] from state ([B, H] each): [output
    [T, B, H], the last state...]."""
    w_ih, w_hh, b_ih, b_hh = weights
    steps, batch, width = e.dims(seq)
    hidden = w_hh.type.shape[1]
    gates = GATES[kind] * hidden
    rows = e.reshape(seq, [e.product([steps, batch]), width])
    xp = nn_ops.dot(e, rows, e.v("transpose", [w_ih], {"permutation": (1, 0)}), 0)
    if b_ih is not None:
        xp = e.binary("add", xp, b_ih if kind == "gru" else e.v("add", [b_ih, b_hh]))
    xp = e.reshape(xp, [steps, batch, gates])
    w_hh_t = e.v("transpose", [w_hh], {"permutation": (1, 0)})
    el = seq.type.elem
    out0 = e.broadcast_to(e.scalar(0, el), [steps, batch, hidden])
    i32 = TensorType((), "i32")
    carried = [e.const(0, "i32", ()), *state, out0]
    types = [i32] + [v.type for v in carried[1:]]
    cond, body = Block(types), Block(types)
    c = type(e)(cond, e.loc, e.target, e.code)
    more = c.compare(cond.args[0], c.const(steps, "i32", ()), "LT")
    cond.append(Operation("mhlo.return", [more], (), {}, (), e.loc))
    b = type(e)(body, e.loc, e.target, e.code)
    t, *now, out = body.args
    step = b.v("subtract", [b.const(steps - 1, "i32", ()), t]) if reverse else t
    zero = b.const(0, "i32", ())
    given = b.slice(xp, [step, 0, 0], [b.v("add", [step, b.const(1, "i32", ())]), batch, gates])
    given = b.reshape(given, [batch, gates])
    mixed = nn_ops.dot(b, now[0], w_hh_t, 0)
    if kind == "gru" and b_hh is not None:
        mixed = b.binary("add", mixed, b_hh)
    new = (_lstm_cell if kind == "lstm" else _gru_cell)(b, given, mixed, now, hidden)
    h = new[0]
    row = b.reshape(h, [1, batch, hidden])
    out = b.v("dynamic_update_slice", [out, row, step, zero, zero], result_type=out.type)
    body.append(Operation("mhlo.return", [b.v("add", [t, b.const(1, "i32", ())]), *new, out],
                          (), {}, (), e.loc))
    loop = e.op("while", carried, {}, types, [Region([cond]), Region([body])])
    return [loop.results[-1], *loop.results[1:-1]]


def _part(e, x, i: int, hidden: int):
    return slice_dim(e, x, 1, i * hidden, (i + 1) * hidden, 1)


def _lstm_cell(e, given, mixed, now, hidden: int) -> list:
    """Gates i, f, g, o: c' = f c + i g, h' = o tanh(c')."""
    z = e.v("add", [given, mixed])
    i, f, o = (e.v("logistic", [_part(e, z, k, hidden)]) for k in (0, 1, 3))
    g = e.v("tanh", [_part(e, z, 2, hidden)])
    c = e.v("add", [e.v("multiply", [f, now[1]]), e.v("multiply", [i, g])])
    return [e.v("multiply", [o, e.v("tanh", [c])]), c]


def _gru_cell(e, given, mixed, now, hidden: int) -> list:
    """Gates r, z, n: n = tanh(x_n + r (W_hn h + b_hn)), h' = n + z (h - n)."""
    r, z = (e.v("logistic", [e.v("add", [_part(e, given, k, hidden), _part(e, mixed, k, hidden)])])
            for k in (0, 1))
    cand = e.v("tanh", [e.v("add", [_part(e, given, 2, hidden),
                                    e.v("multiply", [r, _part(e, mixed, 2, hidden)])])])
    return [e.v("add", [cand, e.v("multiply", [z, e.v("subtract", [now[0], cand])])])]
