"""`aotc import-tf SAVED_MODEL_DIR [--signature serving_default] -o model.tf.mlir`: a
SavedModel's signature as the `tf` dialect aotc compiles, its variables frozen into
constants and its control flow kept functional. Needs TensorFlow, which nothing else of aotc
does (it is imported here only, when the command runs):

    aotc import-tf saved_model/ -o model.tf.mlir
    aotc compile model.tf.mlir -o out/libmodel.so

This module imports nothing of aotc, so TensorFlow's environment can run it alone:
`python aot/import_tf.py saved_model/ -o model.tf.mlir`.
"""
from __future__ import annotations

import argparse
import os
import sys

NEEDS_TF = ("aotc import-tf needs TensorFlow (pip install tensorflow-cpu); the compiler "
            "itself never does")


def import_saved_model(path: str, signature: str = "serving_default") -> str:
    """The signature's function, variables frozen, as the text of the tf dialect."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        import tensorflow as tf
        from tensorflow.python.framework.convert_to_constants import (
            convert_variables_to_constants_v2,
        )
    except ImportError as e:
        raise RuntimeError(NEEDS_TF) from e
    loaded = tf.saved_model.load(path)
    if signature not in loaded.signatures:
        known = ", ".join(loaded.signatures) or "none"
        raise RuntimeError(f"{path} has no signature {signature!r} (signatures: {known})")
    fn = loaded.signatures[signature]
    frozen = convert_variables_to_constants_v2(fn, lower_control_flow=False)
    return tf.mlir.experimental.convert_function(frozen)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="aotc import-tf", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return run(p.parse_args(argv))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("saved_model", help="a SavedModel directory")
    p.add_argument("--signature", default="serving_default", help="the signature to import")
    p.add_argument("-o", "--output", default="-", help="the .mlir to write ('-': stdout)")


def run(args) -> int:
    try:
        text = import_saved_model(args.saved_model, args.signature)
    except (RuntimeError, OSError, ValueError) as e:
        print(f"aotc: error: {e}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
