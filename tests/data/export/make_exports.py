"""Writes the small aidge-export-cpp 0.10.1 exports the export memory checker is
tested on (tests/export_check.rs): for each model of models.py, the real export's
dnn/src/forward.cpp and dnn/include/layers/*.h (all the checker reads; weights,
kernels and the build files are left out), under tests/data/export/NAME/.

- clean, se_hardswish, maxpool: exported as tests/parity/exportcpp_diff.py does
  (ExportConfig(target="host", dformat="nchw"));
- reducemean: with the default data format (a plain ExportConfig(target="host")),
  the way the MnasNet defect shows;
(tests/export_check.rs corrupts `clean`'s plan itself: the second conv's output moved
onto the first branch's, which the residual Add still reads.)
- cortexm_maxpool: `maxpool` quantized to int8 and exported by aidge-export-arm-cortexm
  0.10.1 with Aidge's plan, as scripts/cortexm/run.py's default build does (its planes
  are padded to 16 bytes per pixel); also needs aidge-quantization and memplan.

Outside CI (needs aidge-core, aidge-backend-cpu, aidge-onnx, aidge-export-cpp 0.10.1
and onnx): python tests/data/export/make_exports.py
"""

import contextlib
import io
import pathlib
import shutil
import sys
import tempfile

import numpy as np
import onnx

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import models  # noqa: E402

DEFAULT_FORMAT = {"reducemean"}


def export(name, out):
    import aidge_core
    import aidge_onnx
    import aidge_export_cpp  # noqa: F401  (registers the kernels)
    from aidge_core.export_utils.config import ExportConfig
    m = models.MODELS[name]()
    shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        onnx.save(m, tmp / f"{name}.onnx")
        with contextlib.redirect_stdout(io.StringIO()):
            graph = aidge_onnx.load_onnx(str(tmp / f"{name}.onnx"))
        kwargs = {} if name in DEFAULT_FORMAT else {"dformat": "nchw"}
        config = ExportConfig(target="host", export_folder=str(tmp / name), compile=False,
                              **kwargs)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(tmp):
            aidge_core.export_utils.export(graph, config, input_tensors=[aidge_core.Tensor(x)],
                                           nb_test=0)
        copy_checked(tmp / name, out / name)


def copy_checked(src, dst):
    """The files the checker reads: forward.cpp and the layer headers."""
    shutil.rmtree(dst, ignore_errors=True)
    (dst / "dnn" / "src").mkdir(parents=True)
    (dst / "dnn" / "include" / "layers").mkdir(parents=True)
    shutil.copy(src / "dnn" / "src" / "forward.cpp", dst / "dnn" / "src" / "forward.cpp")
    for h in sorted((src / "dnn" / "include" / "layers").glob("*.h")):
        shutil.copy(h, dst / "dnn" / "include" / "layers" / h.name)


def cortexm(name, out):
    """The int8 Cortex-M export of model `name` by scripts/cortexm/run.py's default stage."""
    import subprocess
    root = HERE.parents[2]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        onnx.save(models.MODELS[name](), tmp / f"{name}.onnx")
        size = onnx.load(tmp / f"{name}.onnx").graph.input[0].type.tensor_type.shape.dim[2].dim_value
        env = {**__import__("os").environ, "PYTHONPATH": str(root / "scripts" / "cortexm" / "stub")}
        subprocess.run([sys.executable, str(root / "scripts" / "cortexm" / "run.py"), "--stage",
                        "default", "--size", str(size), str(tmp / f"{name}.onnx"),
                        str(tmp / "out")], check=True, env=env, capture_output=True)
        copy_checked(tmp / "out", out / f"cortexm_{name}")


def main():
    import aidge_core
    aidge_core.Log.set_console_level(aidge_core.Level.Error)
    for name in models.MODELS:
        export(name, HERE)
        print(f"wrote {HERE / name}")
    cortexm("maxpool", HERE)
    print(f"wrote {HERE / 'cortexm_maxpool'}")


if __name__ == "__main__":
    main()
