"""Aidge 0.10.1's own logs of wrap-around plans of real models, for tests/strategies_shapes.rs.

For each model of the ONNX corpus named below: aidge_onnx.load_onnx (initializers filled
with zeros, as onnx_diff.py does), float32, forward_dims at the model's input dims,
SequentialScheduler, then `generate_memory(inc_producers=False, wrap_around_buffer=True)`
("single-wrap") and the same plus `optimize(OptimizeMaxLifetimeMaxSizeFirst)`
("single-wrap-optimize"); `aidge_core.mem_info.log_meminfo_text` writes each plan's
memory_info.txt, gzipped to tests/data/aidge/wrap-logs/MODEL-CONFIG.memory_info.txt.gz.
The peak Aidge reports (`get_peak_usage`) is printed beside each file, as the test
reads it from the log.

Aidge orders parallel branches by pointer, so another run may order them differently:
the committed logs are what one run gave.

Usage: .venv/bin/python tests/parity/wrap_logs.py [MODEL ...]   (default: the list below)
"""

import gzip
import pathlib
import sys
import tempfile

import aidge_core
import aidge_backend_cpu  # noqa: F401  (registers the cpu backend)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from onnx_diff import aidge_schedule, inflate  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/data/onnx/corpus"
OUT = ROOT / "tests/data/aidge/wrap-logs"
MODELS = ["squeezenet1_1", "mobilenet_v3_small", "googlenet", "densenet121"]


def main(argv):
    models = argv[1:] or MODELS
    scratch = tempfile.TemporaryDirectory(prefix="memplan-wrap-logs-")  # removed with it
    tmp = pathlib.Path(scratch.name)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in models:
        full, dims = inflate(gzip.open(CORPUS / f"{name}.onnx.gz").read())
        path = tmp / f"{name}.onnx"
        path.write_bytes(full)
        for config, optimize in [("single-wrap", None),
                                 ("single-wrap-optimize",
                                  aidge_core.OptimizeStrategy.OptimizeMaxLifetimeMaxSizeFirst)]:
            s = aidge_schedule(path, dims)
            mm = s.generate_memory(inc_producers=False, wrap_around_buffer=True)
            if optimize is not None:
                mm.optimize(optimize)
            log = tmp / "memory_info.txt"
            aidge_core.mem_info.log_meminfo_text(mm, str(log), s, False)
            out = OUT / f"{name}-{config}.memory_info.txt.gz"
            with gzip.GzipFile(out, "wb", mtime=0) as f:
                f.write(log.read_bytes())
            print(f"{out.relative_to(ROOT)}: Aidge peak {mm.get_peak_usage()}, "
                  f"{out.stat().st_size} B gzipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
