"""Builds the TFLM corpus of tests/data/tflm/corpus/: real model architectures at
microcontroller sizes, converted by the real TensorFlow converter (random weights,
seeded, no download), int8 and float. Run outside CI (TensorFlow is large); CI reads
the gzipped .tflite files this writes:

    python3 -m venv ../venvs/tflm
    ../venvs/tflm/bin/pip install tensorflow-cpu==2.21.0 tflite-micro==0.dev20261023182759
    nice -n 10 ../venvs/tflm/bin/python tests/data/tflm/make_corpus.py

Models (Keras 3 as TensorFlow 2.21.0 ships it):
- mobilenet_v1_025_96: Keras MobileNet, alpha 0.25, 96×96×3 (TFLM's person
  detection model is this network on 96×96×1: person_detect_025_96);
- mobilenet_v2_035_96: Keras MobileNetV2, alpha 0.35, 96×96×3;
- ds_cnn_kws: the DS-CNN keyword spotter of "Hello Edge" (49×10 MFCC, 64 channels,
  four depthwise-separable blocks, 12 classes), as in the MLPerf Tiny benchmark;
- transformer_block: one encoder block (2-head self-attention over 16 tokens of 32,
  layer norms, a 64-wide feed-forward layer).
A model TFLM cannot run (an operator its reference kernels lack) is skipped, with a
line saying which.
"""

import gzip
import pathlib
import sys

import numpy as np
import tensorflow as tf

HERE = pathlib.Path(__file__).resolve().parent / "corpus"
L = tf.keras.layers
A = tf.keras.applications


def head(base):
    """Keras' network without its own top, with a 2-class dense head and no softmax:
    with random weights the logits' scale makes the int8 SOFTMAX kernel's multiplier
    exceed what TFLM accepts (it aborts in QuantizeMultiplierGreaterThanOne)."""
    return tf.keras.Model(base.input, L.Dense(2)(base.output))


def mobilenet_v1(channels=3):
    return head(A.MobileNet(input_shape=(96, 96, channels), alpha=0.25, weights=None, include_top=False, pooling="avg"))


def mobilenet_v2():
    return head(A.MobileNetV2(input_shape=(96, 96, 3), alpha=0.35, weights=None, include_top=False, pooling="avg"))


def ds_cnn():
    x = inp = L.Input((49, 10, 1), batch_size=1)
    x = L.Conv2D(64, (10, 4), strides=(2, 2), padding="same", use_bias=False)(x)
    x = L.ReLU()(L.BatchNormalization()(x))
    for _ in range(4):
        x = L.DepthwiseConv2D(3, padding="same", use_bias=False)(x)
        x = L.ReLU()(L.BatchNormalization()(x))
        x = L.Conv2D(64, 1, use_bias=False)(x)
        x = L.ReLU()(L.BatchNormalization()(x))
    x = L.GlobalAveragePooling2D()(x)
    return tf.keras.Model(inp, L.Dense(12, activation="softmax")(x))


def transformer_block():
    x = inp = L.Input((16, 32), batch_size=1)
    a = L.MultiHeadAttention(num_heads=2, key_dim=16)(x, x)
    x = L.LayerNormalization()(L.Add()([x, a]))
    f = L.Dense(64, activation="relu")(x)
    f = L.Dense(32)(f)
    x = L.LayerNormalization()(L.Add()([x, f]))
    x = L.GlobalAveragePooling1D()(x)
    return tf.keras.Model(inp, L.Dense(4)(x))


MODELS = {
    "mobilenet_v1_025_96": lambda: mobilenet_v1(3),
    "person_detect_025_96": lambda: mobilenet_v1(1),
    "mobilenet_v2_035_96": mobilenet_v2,
    "ds_cnn_kws": ds_cnn,
    "transformer_block": transformer_block,
}


def convert(model, seed, int8):
    rng = np.random.default_rng(seed)
    shape = (1,) + tuple(model.inputs[0].shape[1:])

    def representative():
        for _ in range(8):
            yield [rng.uniform(-1, 1, shape).astype(np.float32)]

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if int8:
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def runs_in_tflm(data):
    """The model runs in the tflite-micro wheel (its reference kernels). In a child
    process: TensorFlow and the wheel's native libraries abort when loaded together."""
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".tflite") as f:
        f.write(data)
        f.flush()
        code = (
            "import sys\n"
            "from tflite_micro.python.tflite_micro import runtime\n"
            "it = runtime.Interpreter.from_bytes(open(sys.argv[1], 'rb').read(), arena_size=16 << 20)\n"
            "it.invoke()\n"
        )
        run = subprocess.run([sys.executable, "-c", code, f.name], capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["?"])[-1]
        print(f"  not run by TFLM: {last[:300]}", file=sys.stderr)
    return run.returncode == 0


def main():
    HERE.mkdir(exist_ok=True)
    wanted = set(sys.argv[1:])
    for seed, (name, build) in enumerate(MODELS.items()):
        if wanted and name not in wanted:
            continue
        for int8 in (True, False):
            if name == "person_detect_025_96" and not int8:
                continue
            tf.keras.utils.set_random_seed(seed)
            data = convert(build(), seed, int8)
            file = f"{name}_{'int8' if int8 else 'float'}.tflite"
            if not runs_in_tflm(data):
                print(f"{file}: skipped", file=sys.stderr)
                continue
            (HERE / f"{file}.gz").write_bytes(gzip.compress(data, mtime=0))
            print(f"{file}: {len(data)} bytes", flush=True)
    print(f"tensorflow {tf.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
