"""Writes the XLA fixtures of tests/data/xla/ with the real jax/jaxlib (see README.md).

Run with a venv holding the pinned versions:
    python3 -m venv /work/venvs/xla && /work/venvs/xla/bin/pip install jax==0.10.2 jaxlib==0.10.2
    /work/venvs/xla/bin/python tests/data/xla/gen.py

Two small models built here with random weights (no download): a CNN with a residual
block and a dense head, and a recurrent cell run by lax.scan (a while loop: tuples and
called computations). Each is jitted on CPU with XLA_FLAGS=--xla_dump_to=DIR, and its
dump files are copied here under the model's name, keeping XLA's suffixes:
NAME.cpu_after_optimizations-buffer-assignment.txt (allocations, values, offsets),
NAME.cpu_after_optimizations-live-range.txt (the schedule and BufferLiveRange lines),
NAME.cpu_after_optimizations-memory-usage-report.txt (XLA's own total, for the tests),
NAME.cpu_after_optimizations-buffer-assignment-values.txt (the values, no plan: a file the
page notes when a dump folder is dropped). cnn.stablehlo.mlir is the StableHLO jax lowers
the CNN to (what XLA compiles, and what IREE compiles from a JAX program): no plan either.
"""
import glob
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DUMP = tempfile.mkdtemp(prefix="xla-dump-")
os.environ["XLA_FLAGS"] = f"--xla_dump_to={DUMP}"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402  (XLA_FLAGS must be set first)
import jax.numpy as jnp  # noqa: E402

PINNED = {"jax": "0.10.2", "jaxlib": "0.10.2"}
for name, version in PINNED.items():
    got = __import__(name).__version__
    if got != version:
        sys.exit(f"{name} {got} installed, the fixtures are made with {version}")


def conv(x, w):
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def cnn(p, x):
    x = pool(jax.nn.relu(conv(x, p["c1"])))
    y = conv(jax.nn.relu(conv(x, p["c2"])), p["c3"])
    x = pool(jax.nn.relu(x + y))
    x = jax.nn.relu(conv(x, p["c4"]))
    x = jax.nn.relu(x.reshape(x.shape[0], -1) @ p["d1"])
    return jax.nn.softmax(x @ p["d2"])


def rnn(p, xs):
    def cell(h, x):
        h = jnp.tanh(x @ p["wx"] + h @ p["wh"])
        return h, h @ p["wo"]

    h, ys = jax.lax.scan(cell, jnp.zeros((xs.shape[1], p["wh"].shape[0])), xs)
    return h, ys


def main():
    k = jax.random.split(jax.random.PRNGKey(0), 10)
    shapes = {"c1": (3, 3, 3, 16), "c2": (3, 3, 16, 16), "c3": (3, 3, 16, 16), "c4": (3, 3, 16, 32),
              "d1": (8 * 8 * 32, 64), "d2": (64, 10)}
    p = {n: jax.random.normal(k[i], s) for i, (n, s) in enumerate(shapes.items())}
    x = jax.random.normal(k[6], (2, 32, 32, 3))
    jax.jit(cnn)(p, x).block_until_ready()
    with open(f"{HERE}/cnn.stablehlo.mlir", "w") as f:
        f.write(jax.jit(cnn).lower(p, x).as_text())
    q = {"wx": jax.random.normal(k[7], (16, 32)), "wh": jax.random.normal(k[8], (32, 32)),
         "wo": jax.random.normal(k[9], (32, 8))}
    jax.block_until_ready(jax.jit(rnn)(q, jnp.ones((12, 4, 16))))
    for model in ["cnn", "rnn"]:
        for suffix in ["buffer-assignment.txt", "live-range.txt", "memory-usage-report.txt",
                       "buffer-assignment-values.txt"]:
            (src,) = glob.glob(f"{DUMP}/module_*.jit_{model}.cpu_after_optimizations-{suffix}")
            dst = f"{HERE}/{model}.cpu_after_optimizations-{suffix}"
            shutil.copyfile(src, dst)
            print(dst)
    shutil.rmtree(DUMP)


main()
