"""Writes the Vela corpus of tests/data/vela/: real Arm Vela (pip `ethos-u-vela==5.2.0`)
compiles small int8 TFLite models for several Ethos-U configurations and memory modes,
and prints its tensor allocation (`--verbose-allocation`).

Run outside CI, in a venv of its own (CI reads only the files this writes):

    python3 -m venv /tmp/vela
    /tmp/vela/bin/pip install ethos-u-vela==5.2.0 tensorflow-cpu==2.21.0
    /tmp/vela/bin/python tests/data/vela/gen.py

Models: the TFLM fixtures `resnet_tiny` and `dag6` (tests/data/tflm/), the DS-CNN of
the TFLM corpus (tests/data/tflm/corpus/), and three built here with TensorFlow's
converter (random weights, seeded): a MobileNet v1 at width 0.125 on 64x64x3, and
`ch16` / `ch17`, the same small CNN with a layer of 16 or 17 channels (Ethos-U stores
feature maps in bricks of 16 channels: 17 takes two).

For each model and configuration it writes `<model>.<config>.txt`, Vela's standard
output as printed (the allocation sections, then its network summary); for the
configurations of COMPILED it also keeps the compiled model `<model>.<config>.tflite`;
the models built here are kept as `<model>.tflite` (the model before Vela).
"""

import gzip
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
TFLM = HERE.parent / "tflm"
VELA = pathlib.Path(sys.executable).parent / "vela"

# name: (accelerator, system config, memory mode, other options). Vela's default
# allocator (HillClimb) reaches the lower bound on these models; its Greedy and
# LinearAlloc allocators leave room, which memplan's `best` shows.
CONFIGS = {
    "u55-128-shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", []),
    "u55-64-sram": ("ethos-u55-64", "Ethos_U55_Deep_Embedded", "Sram_Only", []),
    "u65-256-dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", []),
    "u85-256-dedicated384": ("ethos-u85-256", "Ethos_U85_SYS_DRAM_Mid", "Dedicated_Sram_384KB", []),
    "u55-128-shared-greedy": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram",
                              ["--tensor-allocator", "Greedy"]),
    "u55-128-shared-linear": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram",
                              ["--tensor-allocator", "LinearAlloc"]),
}
# The compiled models kept (the others' reports are enough for the figures).
COMPILED = {"u55-128-shared", "u65-256-dedicated"}


def convert(model, seed):
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(seed)
    shape = [1, *model.input_shape[1:]]

    def representative():
        for _ in range(8):
            yield [rng.standard_normal(shape).astype("float32")]

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def built_models():
    import tensorflow as tf

    tf.keras.utils.set_random_seed(36)
    L = tf.keras.layers

    def cnn(width):
        x = inp = L.Input((32, 32, 3), batch_size=1)
        x = L.Conv2D(8, 3, padding="same", activation="relu")(x)
        x = L.Conv2D(width, 3, padding="same", activation="relu")(x)
        x = L.Conv2D(8, 3, strides=2, padding="same", activation="relu")(x)
        x = L.GlobalAveragePooling2D()(x)
        return tf.keras.Model(inp, L.Dense(4)(x))

    mobilenet = tf.keras.applications.MobileNet(
        input_shape=(64, 64, 3), alpha=0.125, weights=None, classes=2
    )
    return {
        "mobilenet_v1_0125_64": convert(mobilenet, 1),
        "ch16": convert(cnn(16), 2),
        "ch17": convert(cnn(17), 3),
    }


def main():
    models = {
        "resnet_tiny": (TFLM / "resnet_tiny.tflite").read_bytes(),
        "dag6": (TFLM / "dag6.tflite").read_bytes(),
        "ds_cnn_kws": gzip.decompress((TFLM / "corpus" / "ds_cnn_kws_int8.tflite.gz").read_bytes()),
    }
    built = built_models()
    for name, tflite in built.items():
        # The model as TFLM plans it, to compare with its compiled copy.
        (HERE / f"{name}.tflite").write_bytes(tflite)
    models.update(built)
    config_file = "Arm/vela.ini"
    for name, tflite in models.items():
        for cname, (accel, system, mode, more) in CONFIGS.items():
            with tempfile.TemporaryDirectory() as tmp:
                src = pathlib.Path(tmp) / f"{name}.tflite"
                src.write_bytes(tflite)
                out = pathlib.Path(tmp) / "out"
                run = subprocess.run(
                    [str(VELA), str(src), "--config", config_file, "--accelerator-config", accel,
                     "--system-config", system, "--memory-mode", mode, "--verbose-allocation",
                     "--output-dir", str(out), *more],
                    capture_output=True, text=True, check=True, cwd=tmp,
                )
                stem = f"{name}.{cname}"
                (HERE / f"{stem}.txt").write_text(run.stdout)
                if cname in COMPILED:
                    shutil.copy(out / f"{name}_vela.tflite", HERE / f"{stem}.tflite")
                print(stem, file=sys.stderr)


if __name__ == "__main__":
    main()
