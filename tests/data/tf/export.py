"""Export the TensorFlow corpus: for each case, the `tf` dialect module (what
`tf.mlir.experimental.convert_function` prints with its standard pipeline), the raw
`tf_executor` import (`pass_pipeline=''`), and inputs with TensorFlow's outputs.

TensorFlow is NOT a dependency of the project: only this script imports it, run with a
separate environment (the tests read the files it writes):

    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu numpy
    /tmp/tfvenv/bin/python tests/data/tf/export.py            # all cases
    /tmp/tfvenv/bin/python tests/data/tf/export.py NAME ...   # some cases
    /tmp/tfvenv/bin/python tests/data/tf/export.py --list

Files per case, with tests/data/export_util.py's conventions (that module imports JAX, so
its few helpers are restated here):
  NAME.tf.mlir        the tf dialect module exactly as TensorFlow prints it
  NAME.executor.mlir  the tf_executor module of the raw import, exactly as printed
  NAME.hlo.mlir       TensorFlow's own lowering (pass_pipeline='tf-lower-to-mlprogram-and-
                      hlo'), where it makes one: StableHLO with shape/tensor/arith ops and
                      any tf ops it left
  NAME.npz            arg0.., out0.. for a static case; s0_arg0.., s0_out0.., s1_...
                      for each size set of a case with `?` dims
Inputs come from numpy.random.default_rng(crc32("NAME/sK")), so one case's data does
not depend on the others. Keras models are frozen (variables become constants, as
tfcompile's graphs are) with convert_variables_to_constants_v2.
"""
import os
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2,
)

OUT = os.path.dirname(os.path.abspath(__file__))
FORBIDDEN = ("dense_resource", "__elided__", "loc(")


def seed(name, tag):
    return zlib.crc32(f"{name}/{tag}".encode())


def spec(shape, dtype=tf.float32):
    return tf.TensorSpec(shape, dtype)


def keras_model(layers, input_shape, seed_value):
    tf.keras.utils.set_random_seed(seed_value)
    return tf.keras.Sequential([tf.keras.Input(input_shape)] + layers)


# ---------------------------------------------------------------- the cases
# name -> (function builder returning (tf.function, [TensorSpec]), input makers, size sets)
# A maker is rng, dims -> array; size sets are dicts of the `?` dims' values.

def uniform(shape, lo=-2.0, hi=2.0, dtype=np.float32):
    return lambda rng, d: rng.uniform(lo, hi, size=[d.get(s, s) for s in shape]).astype(dtype)


def integers(shape, lo, hi, dtype=np.int32):
    return lambda rng, d: rng.integers(lo, hi, size=[d.get(s, s) for s in shape],
                                       endpoint=True).astype(dtype)


def case_mlp():
    m = keras_model([tf.keras.layers.Dense(16, activation="relu"),
                     tf.keras.layers.Dense(4)], (8,), 1)
    return (lambda x: m(x)), [spec([None, 8])]


def case_mlp_variables():
    """The MLP with its variables left as resource arguments (tfcompile's unfrozen graph):
    compiled with --freeze NAME.vars.npz."""
    m = keras_model([tf.keras.layers.Dense(16, activation="relu"),
                     tf.keras.layers.Dense(4)], (8,), 7)
    return (lambda x: m(x)), [spec([None, 8])]


def case_keras_lstm():
    """Keras LSTM (its loop a tf.While over TensorLists: reserved, read, written, stacked)
    with a fixed batch: a TensorList's buffer needs a static element shape."""
    m = keras_model([tf.keras.layers.LSTM(4), tf.keras.layers.Dense(2)], (5, 3), 12)
    return (lambda x: m(x)), [spec([2, 5, 3])]


def case_keras_gru_sequences():
    """Keras GRU returning every step's state (a TensorList of all steps, stacked)."""
    m = keras_model([tf.keras.layers.GRU(3, return_sequences=True)], (4, 2), 13)
    return (lambda x: m(x)), [spec([3, 4, 2])]


def case_keras_rnn_dynamic():
    """Keras SimpleRNN on a ? batch and a ? number of steps: its TensorList's element shape
    is unknown when reserved, sized by the first SetItem."""
    m = keras_model([tf.keras.layers.SimpleRNN(4)], (None, 3), 15)
    return (lambda x: m(x)), [spec([None, None, 3])]


def case_keras_lstm_sequences_dynamic():
    m = keras_model([tf.keras.layers.LSTM(3, return_sequences=True)], (None, 2), 16)
    return (lambda x: m(x)), [spec([None, None, 2])]


def case_cnn():
    m = keras_model([tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
                     tf.keras.layers.MaxPooling2D(2),
                     tf.keras.layers.Flatten(),
                     tf.keras.layers.Dense(3),
                     tf.keras.layers.Softmax()], (8, 8, 2), 2)
    return (lambda x: m(x)), [spec([None, 8, 8, 2])]


def case_elementwise():
    def f(x, y, k):
        a = tf.exp(x) + tf.math.log(tf.abs(y) + 1.0) - tf.tanh(x) * tf.sigmoid(y)
        b = tf.math.rsqrt(tf.abs(x) + 0.5) + tf.square(y) + tf.math.squared_difference(x, y)
        c = tf.maximum(x, y) - tf.minimum(x, 0.25) + tf.where(x > y, x, -y)
        d = tf.nn.relu6(x * 4.0) + tf.nn.elu(y) + tf.nn.leaky_relu(x, 0.2) + tf.nn.softplus(y)
        e = tf.math.floordiv(k, 3) + tf.math.floormod(k, 4) + tf.cast(x > 0.0, tf.int32)
        g = tf.pow(tf.abs(x) + 0.5, y) + tf.cast(k, tf.float32) / (tf.abs(y) + 1.0)
        return a, b, c, d, e, g
    return f, [spec([3, 5]), spec([3, 5]), spec([3, 5], tf.int32)]


def case_reductions():
    def f(x):
        return (tf.reduce_sum(x, axis=1), tf.reduce_mean(x, axis=0), tf.reduce_max(x),
                tf.reduce_min(x, axis=1, keepdims=True), tf.reduce_prod(x[:, :3], axis=[0, 1]),
                tf.argmax(x, axis=1), tf.argmin(x, axis=0, output_type=tf.int32),
                tf.reduce_any(x > 1.5, axis=1), tf.reduce_all(x > -1.9, axis=0))
    return f, [spec([4, 6])]


def case_shape_ops():
    def f(x):
        n = tf.shape(x)[0]
        r = tf.reshape(x, [n, 2, 3])
        s = tf.slice(x, [1, 0], [n - 1, 4])
        t = x[:, ::2]
        c = tf.concat([x, x * 2.0], axis=1)
        e = tf.squeeze(tf.expand_dims(x, 1), axis=1) + 1.0
        p = tf.transpose(x)
        k = tf.stack([x, -x], axis=0)
        flat = tf.reshape(x, [-1])
        h1, h2 = tf.split(tf.concat([x, -x], 0), 2, axis=0)  # ? dims split at run time
        v1, v2 = tf.split(x, [1, -1], axis=0)
        return r, s, t, c, e, p, k, flat, tf.shape(c), h1 - h2, v2
    return f, [spec([None, 6])]


def case_while_loop():
    def f(x):
        def body(i, acc):
            return i + 1, acc * 0.5 + tf.reduce_sum(x)
        _, acc = tf.while_loop(lambda i, a: i < 5, body, [tf.constant(0), x])
        return acc
    return f, [spec([None])]


def case_cond():
    def f(x):
        return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: x - 1.0)
    return f, [spec([None])]


def case_unique_where():
    def f(x, k):
        u, idx = tf.unique(k)
        return u, idx, tf.where(x > 0.0)
    return f, [spec([None]), spec([None], tf.int32)]


def case_rnn():
    """An Elman RNN over time-major steps in a tf.while_loop (a functional tf.While): the
    step's input read with tf.gather at the loop counter, the state carried."""
    tf.keras.utils.set_random_seed(4)
    wx = tf.constant(np.random.default_rng(4).uniform(-0.5, 0.5, (3, 4)).astype(np.float32))
    wh = tf.constant(np.random.default_rng(5).uniform(-0.5, 0.5, (4, 4)).astype(np.float32))

    def f(x):
        xt = tf.transpose(x, [1, 0, 2])
        steps = tf.shape(xt)[0]
        h0 = tf.zeros([tf.shape(x)[0], 4])

        def body(t, h):
            return t + 1, tf.tanh(tf.matmul(tf.gather(xt, t), wx) + tf.matmul(h, wh))
        _, h = tf.while_loop(lambda t, h: t < steps, body, [tf.constant(0), h0])
        return h
    return f, [spec([None, None, 3])]


def case_nn_ops():
    rng = np.random.default_rng(6)
    dw = tf.constant(rng.uniform(-1, 1, (3, 3, 2, 2)).astype(np.float32))
    table = tf.constant(rng.uniform(-1, 1, (7, 3)).astype(np.float32))

    def f(x, m, idx):
        d = tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME")
        a = tf.nn.avg_pool2d(x, 3, 2, "SAME")
        b = tf.matmul(m, tf.transpose(m, [0, 2, 1]))
        t = tf.tile(m, [1, 2, 1])
        p = tf.pad(m, [[0, 0], [1, 2], [0, 1]], constant_values=0.5)
        o = tf.one_hot(idx, 7, on_value=2.0, off_value=-1.0)
        z = tf.zeros_like(idx) + tf.fill([4], 3)
        u0, u1 = tf.unstack(m[:, :2, :], axis=1)
        bt = tf.broadcast_to(tf.constant([1.0, 2.0, 3.0]), [2, 3])
        g = tf.gather(table, idx)
        s1, s2 = tf.split(m, [1, 2], axis=1)
        c = tf.math.cumsum(m, axis=2)
        tk, ti = tf.math.top_k(tf.reshape(m, [-1]), 3)
        return (d, a, b, t, p, o, z, u0 + u1, bt, g, s1, s2, tf.nn.log_softmax(m),
                tf.nn.selu(m), c, tk, ti)
    return f, [spec([1, 5, 5, 2]), spec([2, 3, 3]), spec([4], tf.int32)]


def case_strided_slices():
    def f(x):
        n = tf.shape(x)[0]  # computed bounds: read at run time, negative ones too
        return (x[1:-1, ::2], x[..., 0], x[:, tf.newaxis, 2:], x[-2:], x[:, -3:-1],
                x[0], tf.range(tf.shape(x)[0]) * 2, x[: n // 2], x[n - 1], x[-n + 1:, 1:n],
                x[:, n - 5])
    return f, [spec([None, 6, 4])]


def case_more_ops():
    """FusedBatchNormV3 for inference, GELU, a nested tf.function (a call), einsum,
    gather_nd, scatter_nd, mirror pads and a switch_case (tf.Case)."""
    rng = np.random.default_rng(9)
    bn = [tf.constant(v.astype(np.float32)) for v in
          (np.linspace(0.5, 1.5, 2), np.linspace(-0.2, 0.2, 2), rng.uniform(-0.1, 0.1, 2),
           np.linspace(0.5, 2.0, 2))]

    @tf.function
    def inner(a, b):
        return tf.einsum("bij,bjk->bki", a, b) * 2.0

    def f(img, a, b, idx, k):
        y = tf.raw_ops.FusedBatchNormV3(x=img, scale=bn[0], offset=bn[1], mean=bn[2],
                                        variance=bn[3], epsilon=1e-3, is_training=False)[0]
        gelu = tf.nn.gelu(y)
        ein = inner(a, b)
        gn = tf.gather_nd(a, idx)
        sn = tf.scatter_nd(idx, tf.ones([3, 4]), [2, 3, 4])
        mp = tf.pad(a, [[0, 0], [1, 2], [2, 1]], mode="REFLECT")
        sp = tf.pad(a, [[0, 0], [2, 1], [0, 0]], mode="SYMMETRIC")
        sc = tf.switch_case(k, [lambda: a[0] + 1.0, lambda: a[1] * 2.0, lambda: a[0] - a[1]])
        return gelu, ein, gn, sn, mp, sp, sc
    return f, [spec([None, 4, 4, 2]), spec([2, 3, 4]), spec([2, 4, 5]), spec([3, 2], tf.int32),
               spec([], tf.int32)]


def case_images():
    """Image resizing, every scaler: TF2's half-pixel bilinear and nearest (up and down),
    TF1's align_corners and legacy forms, and transposed convolutions (Conv2DBackpropInput,
    SAME and VALID, the output batch computed), on a ? batch."""
    filt = np.random.default_rng(11).uniform(-1, 1, (3, 3, 5, 2)).astype(np.float32)
    filt = tf.constant(filt)

    def f(x):
        v1 = tf.compat.v1.image
        b = tf.shape(x)[0]
        return (tf.nn.conv2d_transpose(x, filt, [b, 8, 12, 5], 2, "SAME"),
                tf.nn.conv2d_transpose(x, filt, [b, 9, 13, 5], 2, "VALID"),
                tf.nn.conv2d_transpose(x, filt[:2], [b, 4, 6, 5], 1, "SAME"),
                tf.image.resize(x, [7, 5], method="bilinear"),
                tf.image.resize(x, [3, 9], method="nearest"),
                v1.resize_bilinear(x, [6, 11], align_corners=True),
                v1.resize_nearest_neighbor(x, [8, 4], align_corners=True),
                v1.resize_bilinear(x, [2, 3]),
                v1.resize_nearest_neighbor(x, [5, 13]))
    return f, [spec([None, 4, 6, 2])]


def case_nms():
    """Non-max suppression (V3, V4 padded, V5 with scores): overlapping random boxes, some
    with flipped corners, a score threshold; the result sizes depend on the data."""
    def f(boxes, scores):
        img = tf.image
        v3 = img.non_max_suppression(boxes, scores, 20, iou_threshold=0.3, score_threshold=0.2)
        v4, n4 = tf.raw_ops.NonMaxSuppressionV4(boxes=boxes, scores=scores, max_output_size=5,
                                                iou_threshold=0.5, score_threshold=0.1,
                                                pad_to_max_output_size=True)
        v5, s5 = img.non_max_suppression_with_scores(boxes, scores, 24, iou_threshold=0.2)
        return v3, v4, n4, v5, s5
    return f, [spec([24, 4]), spec([24])]


CASES = {
    "mlp": (case_mlp, [uniform(["b", 8])], [{"b": 1}, {"b": 5}, {"b": 33}]),
    "mlp_variables": (case_mlp_variables, [uniform(["b", 8])], [{"b": 2}, {"b": 3}, {"b": 16}]),
    "keras_lstm": (case_keras_lstm, [uniform([2, 5, 3])], None),
    "keras_gru_sequences": (case_keras_gru_sequences, [uniform([3, 4, 2])], None),
    "keras_rnn_dynamic": (case_keras_rnn_dynamic, [uniform(["b", "t", 3])],
                          [{"b": 1, "t": 1}, {"b": 3, "t": 5}, {"b": 2, "t": 9}]),
    "keras_lstm_sequences_dynamic": (case_keras_lstm_sequences_dynamic, [uniform(["b", "t", 2])],
                                     [{"b": 2, "t": 1}, {"b": 1, "t": 4}, {"b": 5, "t": 6}]),
    "cnn": (case_cnn, [uniform(["b", 8, 8, 2])], [{"b": 1}, {"b": 3}, {"b": 4}]),
    "elementwise": (case_elementwise, [uniform([3, 5]), uniform([3, 5]),
                                       integers([3, 5], -9, 9)], None),
    "reductions": (case_reductions, [uniform([4, 6])], None),
    "shape_ops": (case_shape_ops, [uniform(["n", 6])], [{"n": 2}, {"n": 5}, {"n": 9}]),
    "while_loop": (case_while_loop, [uniform(["n"])], [{"n": 1}, {"n": 4}, {"n": 17}]),
    "cond": (case_cond, [uniform(["n"], 0.1, 2.0)], [{"n": 3}, {"n": 6}, {"n": 2}]),
    "unique_where": (case_unique_where, [uniform(["n"]), integers(["n"], 0, 5)],
                     [{"n": 1}, {"n": 8}, {"n": 30}]),
    "rnn": (case_rnn, [uniform(["b", "t", 3])], [{"b": 1, "t": 1}, {"b": 2, "t": 5},
                                                   {"b": 7, "t": 3}]),
    "nn_ops": (case_nn_ops, [uniform([1, 5, 5, 2]), uniform([2, 3, 3]), integers([4], 0, 6)],
               None),
    "strided_slices": (case_strided_slices, [uniform(["n", 6, 4])], [{"n": 3}, {"n": 4}, {"n": 8}]),
    "images": (case_images, [uniform(["b", 4, 6, 2])], [{"b": 1}, {"b": 2}, {"b": 3}]),
    "nms": (case_nms, [uniform([24, 4], 0.0, 1.0), uniform([24], 0.0, 1.0)], None),
    "more_ops": (case_more_ops, [uniform(["b", 4, 4, 2]), uniform([2, 3, 4]), uniform([2, 4, 5]),
                                 lambda rng, d: np.array([[0, 1], [1, 2], [0, 1]], np.int32),
                                 lambda rng, d: np.array(d["k"], np.int32)],
                 [{"b": 1, "k": 0}, {"b": 2, "k": 1}, {"b": 3, "k": 2}, {"b": 2, "k": 7}]),
}
# TF1 GraphDefs, tfcompile's input: name -> (graph builder, feeds, fetches, makers, size sets).
# Their executor form is the raw import with node names (show_debug_info=True) and no
# signature, compiled with --feed/--fetch; their tf form is TensorFlow's import with the
# feeds and fetches given (ImportGraphDef's input and output arrays). NAME.feeds.json says
# which nodes.


def graph_tfcompile_matmul():
    """The tfcompile tutorial's graph: x_y_prod = x_hold @ y_hold."""
    x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x_hold")
    y = tf.compat.v1.placeholder(tf.float32, [3, 2], name="y_hold")
    tf.matmul(x, y, name="x_y_prod")


def graph_v1_control_flow():
    """TF1 (v1) control flow: a cond (Switch/Merge) and a while_loop (Enter, Merge, Switch,
    LoopCond, NextIteration, Exit) over a ? vector, the loop reading the input (a constant
    Enter) and the cond's result."""
    tf.compat.v1.disable_control_flow_v2()
    try:
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        y = tf.compat.v1.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: x - 1.0)
        _, acc = tf.compat.v1.while_loop(lambda i, a: i < 3,
                                         lambda i, a: (i + 1, a * 0.5 + tf.reduce_sum(x)),
                                         [tf.constant(0), y])
        tf.identity(acc, name="out")
    finally:
        tf.compat.v1.enable_control_flow_v2()


def graph_tf1_variables():
    """A TF1 dense layer with resource variables (VarHandleOp, ReadVariableOp), compiled
    with the variables' values frozen by name (--freeze NAME.vars.npz)."""
    x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
    init = tf.compat.v1.random_uniform_initializer(-1.0, 1.0, seed=14)
    w = tf.compat.v1.get_variable("w", [3, 2], initializer=init, use_resource=True)
    b = tf.compat.v1.get_variable("b", [2], initializer=init, use_resource=True)
    tf.nn.relu(tf.matmul(x, w) + b, name="y")


GRAPHS = {
    "tf1_variables": (graph_tf1_variables, ["x"], ["y"], [uniform(["b", 3])],
                      [{"b": 1}, {"b": 4}, {"b": 6}]),
    "v1_control_flow": (graph_v1_control_flow, ["x"], ["out"], [uniform(["n"])],
                        [{"n": 3}, {"n": 1}, {"n": 12}]),
    "tfcompile_matmul": (graph_tfcompile_matmul, ["x_hold", "y_hold"], ["x_y_prod"],
                         [uniform(["b", 3]), uniform([3, 2])], [{"b": 2}, {"b": 1}, {"b": 9}]),
}
NEGATE = {("cond", 1)}  # size sets whose inputs are negated, to take the other branch
VARIABLES = {"mlp_variables"}  # not frozen: NAME.vars.npz holds the resource arguments' values


def concrete(name):
    build = CASES[name][0]
    fn, specs = build()
    cf = tf.function(fn, input_signature=specs).get_concrete_function()
    if cf.captured_inputs and name not in VARIABLES:  # Keras variables: freeze them
        cf = convert_variables_to_constants_v2(cf, lower_control_flow=False)
    return cf


def export_graph(name):
    import json

    from tensorflow.core.framework import types_pb2
    from tensorflow.python import _pywrap_mlir
    build, feeds, fetches, makers, sizes = GRAPHS[name]
    g = tf.Graph()
    with g.as_default():
        build()
    gd = g.as_graph_def()
    phs = {n.name: n for n in gd.node if n.op == "Placeholder"}
    shapes = ":".join(",".join("?" if d.size < 0 else str(d.size)
                               for d in phs[f].attr["shape"].shape.dim) for f in feeds)
    dtypes = ",".join(types_pb2.DataType.Name(phs[f].attr["dtype"].type) for f in feeds)
    texts = {"tf": _pywrap_mlir.ImportGraphDef(gd.SerializeToString(), "tf-standard-pipeline",
                                               False, ",".join(feeds), dtypes, shapes,
                                               ",".join(fetches)),
             "executor": tf.mlir.experimental.convert_graph_def(gd, pass_pipeline="",
                                                                show_debug_info=True)}
    for form, text in texts.items():
        for bad in FORBIDDEN[:2]:
            assert bad not in text, f"{name}: {bad!r} in the {form} module"
        with open(os.path.join(OUT, f"{name}.{form}.mlir"), "w") as f:
            f.write(text)
    with open(os.path.join(OUT, f"{name}.feeds.json"), "w") as f:
        json.dump({"feeds": feeds, "fetches": fetches}, f)
    arrays = {}
    with tf.compat.v1.Session(graph=g) as sess:
        variables = g.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES)
        if variables:  # frozen by name: NAME.vars.npz
            sess.run(tf.compat.v1.global_variables_initializer())
            np.savez(os.path.join(OUT, name + ".vars.npz"),
                     **{v.op.name: sess.run(v) for v in variables})
        for k, dims in enumerate(sizes):
            rng = np.random.default_rng(seed(name, f"s{k}"))
            args = [m(rng, dims) for m in makers]
            outs = sess.run([f + ":0" for f in fetches],
                            {f + ":0": a for f, a in zip(feeds, args)})
            for i, a in enumerate(args):
                arrays[f"s{k}_arg{i}"] = a
            for i, o in enumerate(outs):
                arrays[f"s{k}_out{i}"] = np.asarray(o)
    np.savez(os.path.join(OUT, name + ".npz"), **arrays)
    print("exported", name)


def export_case(name):
    if name in GRAPHS:
        return export_graph(name)
    _, makers, sizes = CASES[name]
    cf = concrete(name)
    texts = {"tf": tf.mlir.experimental.convert_function(cf),
             "executor": tf.mlir.experimental.convert_function(cf, pass_pipeline="")}
    try:  # TensorFlow's own lowering, where it can make one (StableHLO, shape and arith ops)
        texts["hlo"] = tf.mlir.experimental.convert_function(
            cf, pass_pipeline="tf-lower-to-mlprogram-and-hlo")
    except Exception as e:  # noqa: BLE001  (TF raises its own error types)
        print(f"{name}: no StableHLO from TensorFlow's lowering ({str(e).splitlines()[0][:80]})")
        stale = os.path.join(OUT, f"{name}.hlo.mlir")
        if os.path.exists(stale):
            os.remove(stale)
    for form, text in texts.items():
        for bad in FORBIDDEN:
            assert bad not in text, f"{name}: {bad!r} in the {form} module"
        with open(os.path.join(OUT, f"{name}.{form}.mlir"), "w") as f:
            f.write(text)
    if name in VARIABLES:  # argN: the resource arguments after the inputs, in order
        first = len(makers)
        values = {f"arg{first + i}":
                  tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32).numpy()
                  for i, h in enumerate(cf.captured_inputs)}
        np.savez(os.path.join(OUT, name + ".vars.npz"), **values)
    arrays = {}
    for k, dims in enumerate(sizes or [{}]):
        rng = np.random.default_rng(seed(name, f"s{k}"))
        args = [m(rng, dims) for m in makers]
        if (name, k) in NEGATE:
            args = [-a for a in args]
        outs = [np.asarray(o) for o in tf.nest.flatten(cf(*[tf.constant(a) for a in args]))]
        prefix = f"s{k}_" if sizes else ""
        for i, a in enumerate(args):
            arrays[f"{prefix}arg{i}"] = a
        for i, o in enumerate(outs):
            arrays[f"{prefix}out{i}"] = o
    np.savez(os.path.join(OUT, name + ".npz"), **arrays)
    print("exported", name)


def main(argv):
    if "--list" in argv:
        print("\n".join(list(CASES) + list(GRAPHS)))
        return
    names = [a for a in argv if not a.startswith("--")] or list(CASES) + list(GRAPHS)
    for n in names:
        if n not in CASES and n not in GRAPHS:
            sys.exit(f"unknown case {n!r}")
    for n in names:
        export_case(n)


if __name__ == "__main__":
    main(sys.argv[1:])
