"""Builds the small CNNs of tests/data/tflm/ as int8 .tflite files (random weights,
no download), with the real TensorFlow converter.

Run outside CI, in a venv of its own (TensorFlow is large; CI reads only the .tflite
files this writes):

    python3 -m venv ../venvs/tf
    ../venvs/tf/bin/pip install tensorflow-cpu==2.21.0
    ../venvs/tf/bin/python tests/data/tflm/make_models.py

Each model has branches whose tensors outlive their neighbours (residual adds,
concatenations of earlier layers): the shapes where the order TFLM's greedy planner
places buffers in (largest first) can leave holes. TFLM's planner is at the lower
bound on most small CNNs (ResNet-, Inception-, U-Net-, MobileNetV2- and
DenseNet-like ones were tried): `resnet_tiny` is such a control.
"""

import pathlib
import random
import sys

import numpy as np
import tensorflow as tf

HERE = pathlib.Path(__file__).resolve().parent
L = tf.keras.layers


def conv(x, ch, k=3, stride=1):
    return L.Conv2D(ch, k, strides=stride, padding="same", activation="relu")(x)


def resnet_tiny():
    """Two residual stages: each block's input lives across two convolutions."""
    x = inp = L.Input((32, 32, 3), batch_size=1)
    x = conv(x, 16)
    for ch, stride in ((16, 1), (24, 2), (24, 1)):
        y = conv(x, ch, stride=stride)
        y = L.Conv2D(ch, 3, padding="same")(y)
        if stride != 1 or x.shape[-1] != ch:
            x = L.Conv2D(ch, 1, strides=stride)(x)
        x = L.ReLU()(L.Add()([x, y]))
    x = L.GlobalAveragePooling2D()(x)
    out = L.Dense(10, activation="softmax")(x)
    return tf.keras.Model(inp, out)


def dag(seed):
    """A random small CNN: each layer reads the previous tensor or any earlier one of
    its resolution (convolution, concatenation or addition), so tensors of many sizes
    outlive their neighbours, as in real multi-branch models. Seeds 6, 10 and 21 are
    kept from 40 tried (`dag(0..40)`) as those where memplan's plan beats TFLM's own;
    on the others both reach the lower bound."""
    r = random.Random(seed)
    inp = L.Input((24, 24, r.choice([3, 4, 8])), batch_size=1)
    ts = [conv(inp, r.choice([8, 16, 24]))]
    for _ in range(r.randint(8, 14)):
        k = r.random()
        src = ts[-1] if r.random() < 0.5 else r.choice(ts)
        if k < 0.55:
            stride = 2 if (src.shape[1] > 6 and r.random() < 0.25) else 1
            ts.append(conv(src, r.choice([4, 8, 12, 16, 24, 32, 48]), r.choice([1, 3]), stride))
        else:
            same = [t for t in ts if t.shape[1] == src.shape[1] and t is not src]
            if not same:
                continue
            other = r.choice(same)
            if k < 0.85:
                ts.append(L.Concatenate()([src, other]))
            elif other.shape[-1] == src.shape[-1]:
                ts.append(L.Add()([src, other]))
    x = L.GlobalAveragePooling2D()(ts[-1])
    return tf.keras.Model(inp, L.Dense(10)(x))


MODELS = {
    "resnet_tiny": (0, resnet_tiny),
    "dag6": (6, lambda: dag(6)),
    "dag10": (10, lambda: dag(10)),
    "dag21": (21, lambda: dag(21)),
}


def convert(model, seed):
    rng = np.random.default_rng(seed)
    shape = (1,) + tuple(model.inputs[0].shape[1:])

    def representative():
        for _ in range(8):
            yield [rng.uniform(-1, 1, shape).astype(np.float32)]

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def main():
    for name, (seed, build) in MODELS.items():
        tf.keras.utils.set_random_seed(seed)
        data = convert(build(), seed)
        (HERE / f"{name}.tflite").write_bytes(data)
        print(f"{name}.tflite: {len(data)} bytes")
    print(f"tensorflow {tf.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
