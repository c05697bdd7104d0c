"""memplan's `--recipes cortexm-int8` against the real aidge-export-arm-cortexm 0.10.1 export
of the same ONNX model, built and run in QEMU (outside CI: a minute per model for the
exports, 2-10 per model for the builds; not named `*_diff.py`, so tests/parity/run.py,
which CI runs, leaves it out — CI checks memplan against its record, tests/recipes_cortexm.rs).

For each model of MODELS (torchvision CNNs of tests/data/onnx/corpus, and the small CNNs
tests/parity/cortexm_models.py writes into tests/data/recipes/cortexm/models, at a small input: at
224×224 most Cortex-M exports stop with "Unable to allocate memory … in component 0", the
stm32h743's 1,000,000-byte SRAM):

1. the model resized (input H = W = size) and written weight-free to
   tests/data/recipes/cortexm/<model>-<size>.onnx.gz (`--record`): what memplan and the
   Rust test read;
2. the real export: the same model with seeded random weights and no trailing Flatten
   (recipes_diff.py's `prepared`), `aidge_onnx.load_onnx`, `remove_flatten`, then the whole
   `aidge_core.export_utils.export(graph, ExportConfig(target="stm32h743", dtype="int8"))`
   (its PTQ on four seeded inputs in [-1, 1], as recipes_diff.py --dtype=int8), in a
   process of its own (aidge_quantization 0.10.1 cannot quantize twice in one process);
   the plan it hands to `generate_optimized_memory_info` is caught, and `mem_0` read from
   the forward.cpp it writes (the board files it downloads after that are replaced by an
   empty folder: no network);
3. memplan: `memplan stats <fixture> --recipes cortexm-int8 --json`: its peak, and
   whether it says "estimate";
4. `--qemu`: the model quantized and exported again the way scripts/cortexm/run.py does
   (its `quantized_graph`, then `prepare_export` + `write_export` with the same
   ExportConfig, default data format), its mem_0 checked equal to step 2's, built with
   arm-none-eabi-g++ (Cortex-M7, run.py's shims) and run in `qemu-system-arm -M
   mps2-an500`; its output is compared with aidge_backend_cpu's run of the quantized
   graph, and so is the same build with its padded pixel strides packed (run.py's
   `packed_copy`: the int8 export's 16-byte pixels are read as packed ones by the
   Transposes, docs/export-check.md), and that packed copy once more with the layer
   reading the graph input told the input's true dimensions and fed NHWC
   (`input_repaired_copy`: the export misreads them); aidge_backend_cpu's output on a
   second input is compared with its output on the first, to say how much a model's
   output depends on its input at all (with random weights some barely do, and then
   "equal outputs" says nothing of the build).

A model passes when memplan's figure equals the real mem_0 or memplan says its figure is an
estimate (docs/recipes.md says why), and, with --qemu, the build ran and printed its output.

Usage (`scripts/setup.sh cortexm`: .venv with aidge-core, aidge-backend-cpu, aidge-onnx,
aidge-export-cpp, aidge-export-arm-cortexm, aidge-quantization 0.10.1, and for --qemu the
arm-none-eabi toolchain and qemu-system-arm; memplan built: cargo build --release):
  .venv/bin/python tests/parity/cortexm_qemu.py [MODEL ...] [--qemu] [--record]
--record writes tests/data/recipes/cortexm_int8.json and the fixtures; --render prints
docs/recipes.md's table from the record (no Aidge needed).
"""

import contextlib
import gzip
import importlib.util
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(HERE))
# aidge_export_arm_cortexm imports aidge_deploy (not on PyPI): run.py's stub stands in
sys.path.insert(0, str(ROOT / "scripts" / "cortexm" / "stub"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402

from models_diff import MEMPLAN  # noqa: E402
from recipes_diff import CORPUS, prepared  # noqa: E402

FIXTURES = ROOT / "tests" / "data" / "recipes" / "cortexm"
# small CNNs of families the corpus does not give in a quantizable form
# (tests/parity/cortexm_models.py writes them, weight-free, at 32×32)
OWN = FIXTURES / "models"
RECORD = ROOT / "tests" / "data" / "recipes" / "cortexm_int8.json"
# (model, input size): no residual Add (SqueezeNet), residual Adds (ResNet, MNASNet),
# graphs aidge-quantization refuses (MobileNet-v3's HardSigmoid, MNASNet's ReduceMean),
# ours (OWN): depthwise-separable without Add (MobileNet-v1), plain VGG-style.
MODELS = [("squeezenet1_1", 32), ("squeezenet1_0", 32), ("squeezenet1_1", 64),
          ("resnet18", 32), ("mobilenet_v3_small", 32), ("mnasnet0_5", 32),
          ("mobilenet_v1_025", 32), ("mobilenet_v1_025", 64), ("vgg_s", 32)]
CONFIG = dict(target="stm32h743", dtype="int8")
PACKAGES = ["aidge_core", "aidge_backend_cpu", "aidge_onnx", "aidge_export_cpp",
            "aidge_export_arm_cortexm", "aidge_quantization"]


def source(model):
    """The gzipped weight-free ONNX file of `model`: ours (OWN) or the corpus's."""
    own = OWN / f"{model}.onnx.gz"
    return own if own.exists() else CORPUS / f"{model}.onnx.gz"


def resize(model, size):
    """The corpus model (weight-free) with input H = W = `size` and no inferred shapes
    (they were 224×224's)."""
    m = onnx.load_from_string(gzip.open(source(model)).read())
    dims = m.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value, dims[3].dim_value = size, size
    del m.graph.value_info[:]
    for out in m.graph.output:
        out.type.tensor_type.ClearField("shape")
    return m


def he_scaled(m):
    """`m` with each weight (an initializer read as a Conv's or Gemm's second input)
    scaled from recipes_diff.py's N(0, 0.05) to He's N(0, 2 / fan-in).

    With N(0, 0.05) the signal shrinks at every layer of a deep narrow network: the
    27 layers of MobileNet-v1 at width 0.25 hand the classifier their biases only, the
    same 1,000 values for any input (measured: aidge_backend_cpu gives identical
    outputs on two inputs), and a build's output equal to the reference then says
    nothing of how it read its input."""
    from onnx import numpy_helper
    weights = {n.input[1] for n in m.graph.node if n.op_type in ("Conv", "Gemm")}
    for i, t in enumerate(m.graph.initializer):
        if t.name in weights and len(t.dims) >= 2:
            a = numpy_helper.to_array(t)
            fan_in = int(np.prod(a.shape[1:]))  # Conv: in/groups × kernel; Gemm (transB): in
            a = (a / 0.05 * np.sqrt(2.0 / fan_in)).astype(a.dtype)
            m.graph.initializer[i].CopyFrom(numpy_helper.from_array(a, t.name))
    return m


def weighted(model, size, path):
    """The resized model with recipes_diff.py's seeded weights (He-scaled for ours:
    `he_scaled`), trailing Flatten dropped."""
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / "m.onnx"
        prepared(model, src, source(model))
        m = onnx.load(src)
    if source(model).parent == OWN:
        m = he_scaled(m)
    dims = m.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value, dims[3].dim_value = size, size
    del m.graph.value_info[:]
    onnx.save(m, path)


def run_py():
    spec = importlib.util.spec_from_file_location("cortexm_run",
                                                  ROOT / "scripts" / "cortexm" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def forward_mems(folder):
    text = next(pathlib.Path(folder).glob("**/dnn/src/forward.cpp")).read_text()
    return {m: int(v) for m, v in re.findall(r"static unsigned char (mem_\d+)\[(\d+)\];", text)}


def real_export(path, size, folder):
    """The whole Cortex-M export of `path` into `folder`: mem_0, the plan's peaks, what
    the planned graph holds."""
    import aidge_backend_cpu  # noqa: F401
    import aidge_core
    import aidge_export_arm_cortexm  # noqa: F401  (registers the kernels and targets)
    import aidge_export_arm_cortexm.targets.common as cm_common
    import aidge_onnx
    from aidge_core.export_utils.config import ExportConfig
    from aidge_core.mem_info import generate_optimized_memory_info
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    folder.mkdir(parents=True, exist_ok=True)
    empty_bsp = folder / "empty_bsp"
    empty_bsp.mkdir(exist_ok=True)
    cm_common.ensure_bsp_package = lambda *a, **k: empty_bsp  # no download
    with contextlib.redirect_stdout(io.StringIO()):
        graph = aidge_onnx.load_onnx(str(path))
        aidge_core.remove_flatten(graph)
    rng = np.random.default_rng(0)
    inputs = [aidge_core.Tensor(rng.uniform(-1, 1, (1, 3, size, size)).astype(np.float32))
              for _ in range(4)]
    export_module = sys.modules["aidge_core.export_utils.export"]
    caught = {}

    def catching(scheduler, *args, **kwargs):
        nodes = scheduler.get_sequential_static_scheduling()
        caught["kinds"] = sorted({n.type() for n in nodes})
        # quantized or not: the activations' type (a refused graph stays float32)
        caught["int8_outputs"] = sum(
            1 for n in nodes for k in range(n.get_nb_outputs())
            if n.get_operator().get_output(k).dtype == aidge_core.dtype.int8)
        caught["operators"] = len(nodes)
        caught["alignment"] = kwargs.get("memory_alignment")
        caught["memories"] = {k: m.capacity for k, m in kwargs["memory_components"].items()}
        try:
            out = generate_optimized_memory_info(scheduler, *args, **kwargs)
        except RuntimeError as e:
            caught["error"] = str(e).splitlines()[0]
            raise
        caught["peaks"] = list(out[0])
        return out

    export_module.generate_optimized_memory_info = catching
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(folder):
            aidge_core.export_utils.export(
                graph, ExportConfig(compile=False, export_folder=str(folder / "export"),
                                    **CONFIG), input_tensors=inputs, nb_test=0)
        caught["mem"] = forward_mems(folder / "export")
    except RuntimeError as e:
        caught.setdefault("error", str(e).splitlines()[0])
    finally:
        export_module.generate_optimized_memory_info = generate_optimized_memory_info
    caught["quantized"] = caught.get("int8_outputs", 0) > 0
    return caught


def qemu_stage(path, size, folder):
    """run.py's quantized graph exported with CONFIG (default data format) into
    `folder`, with its int8 input and aidge_backend_cpu's outputs beside it."""
    import aidge_core
    import aidge_export_arm_cortexm  # noqa: F401
    from aidge_core.export_utils.config import ExportConfig
    R = run_py()
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    X = sys.modules["aidge_core.export_utils.export"]
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
    graph = R.quantized_graph(path, size)
    xq = R.quantized_input(x)
    ref = R.reference(graph, xq)
    # the same graph on another input: how much its output depends on the input at all
    other = np.random.default_rng(2).uniform(-1, 1, x.shape).astype(np.float32)
    np.savez(folder.parent / "reference-other-input.npz",
             *R.reference(graph, R.quantized_input(other)))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(folder.parent):
        ctx = X.prepare_export(graph, ExportConfig(export_folder=str(folder), compile=False,
                                                   **CONFIG), input_tensors=[xq])
        X.write_export(ctx)
    np.save(folder / "input.npy", np.array(xq))
    np.savez(folder / "reference.npz", *ref)
    return forward_mems(folder)


def input_repaired_copy(folder, size):
    """A copy of the export in `folder` whose layer reading the graph input is told the
    input's true dimensions, to be fed in NHWC order; (copy, how many layers changed).

    In its default data format the Cortex-M int8 export gives the convolution that
    reads the graph input NHWC dimensions taken from the NCHW tensor: for a
    1×3×32×32 input `X_INPUT_0_NB_CHANNELS 32`, `X_INPUT_0_IN_HEIGHT 3`,
    `X_INPUT_0_IN_WIDTH 32` (and a 32-byte pixel stride), so from its first layer the
    build computes something other than the graph. Set to 3, 32, 32 (stride 3), with
    the input's pixels packed NHWC, the kernels compute the graph's layers (VGG-S:
    every layer equal to aidge_backend_cpu's). The plan is unchanged: the input is
    not in the arena."""
    import shutil
    copy = folder.with_name(folder.name + "-input")
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("obj", "*.elf", "stats"))
    forward = (copy / "dnn" / "src" / "forward.cpp").read_text()
    sig = re.search(r"void model_forward\s*\((.*?)\)", forward, re.S).group(1)
    inputs = [m.group(1) for m in re.finditer(r"const\s+\w+\s*\*\s*(\w+)", sig)]
    true = {"NB_CHANNELS": 3, "IN_HEIGHT": size, "IN_WIDTH": size, "MEM_STRIDE": 3}
    changed = 0
    for h in (copy / "dnn" / "include" / "layers").glob("*.h"):
        text = fixed = h.read_text()
        for name in inputs:
            pre = name.upper()
            dims = dict(re.findall(rf"^#define {pre}_(NB_CHANNELS|IN_HEIGHT|IN_WIDTH) (\d+)\s*$",
                                   text, re.M))
            # only the misread dims (the NCHW tensor's read as N, H, W, C)
            if dims != {"NB_CHANNELS": str(size), "IN_HEIGHT": "3", "IN_WIDTH": str(size)}:
                continue
            for key, value in true.items():
                fixed = re.sub(rf"^#define {pre}_{key} \d+\s*$", f"#define {pre}_{key} {value}",
                               fixed, flags=re.M)
        if fixed != text:
            h.write_text(fixed)
            changed += 1
    return copy, changed


def qemu(path, size, tmp):
    """Exports (in a child process), builds and runs the model in QEMU: what ran."""
    folder = tmp / "qemu-export"
    r = subprocess.run([sys.executable, __file__, "--child-qemu", str(path), str(size),
                        str(folder)], capture_output=True, text=True)
    if r.returncode != 0:
        return {"ran": False, "error": (r.stderr.strip().splitlines() or ["?"])[-1][:300]}
    mems = json.loads(r.stdout.strip().splitlines()[-1])
    R = run_py()
    x = np.load(folder / "input.npy")
    outputs, arena, _ = R.build_and_run(folder, x)
    first = next(iter(outputs.values()))
    packed, strides = R.packed_copy(folder)
    p_out, _, _ = R.build_and_run(packed, x)
    # the packed copy told the input's true dims, fed NHWC
    repaired, layers = input_repaired_copy(packed, size)
    r_out, _, _ = R.build_and_run(repaired, np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
    other = np.load(tmp / "reference-other-input.npz")["arr_0"].astype(np.int8).tobytes()
    return {"ran": True, "mem_0": mems.get("mem_0"), "elf_arena": arena,
            "output_values": len(first), "distinct_output_values": len(set(first)),
            "vs_reference": R.versus_reference(first, folder / "reference.npz"),
            "strides_packed": strides,
            "packed_vs_reference": R.versus_reference(next(iter(p_out.values())),
                                                      folder / "reference.npz"),
            "input_layers_repaired": layers,
            "repaired_vs_reference": R.versus_reference(next(iter(r_out.values())),
                                                        folder / "reference.npz"),
            # aidge_backend_cpu on another input against its output on this one: as
            # many equal values means "equal" above says nothing of the build's input
            "other_input_vs_reference": R.versus_reference(other, folder / "reference.npz")}


def memplan(fixture):
    """memplan's default plan of the fixture deployed as cortexm-int8, and whether it
    says the figure is an estimate."""
    plain = fixture.with_suffix("")  # the CLI reads `.onnx`, not gzip
    plain.write_bytes(gzip.decompress(fixture.read_bytes()))
    r = subprocess.run([str(MEMPLAN), "stats", str(plain), "--recipes", "cortexm-int8",
                        "--json"], check=True, capture_output=True, text=True)
    return int(json.loads(r.stdout)["peak"]), "an estimate" in r.stderr


def versions():
    from importlib.metadata import version
    return {p: version(p.replace("_", "-")) for p in PACKAGES}


def check(model, size, tmp, with_qemu):
    key = f"{model}-{size}"
    fixture = tmp / f"{key}.onnx.gz"
    fixture.write_bytes(gzip.compress(resize(model, size).SerializeToString(), mtime=0))
    path = tmp / f"{key}.weighted.onnx"
    weighted(model, size, path)
    out = tmp / f"{key}.real.json"
    subprocess.run([sys.executable, __file__, "--child", str(path), str(size),
                    str(tmp / f"{key}-real"), str(out)], check=True)
    real = json.loads(out.read_text())
    ours, estimate = memplan(fixture)
    entry = {"model": model, "size": size, "memplan": ours, "estimate": estimate,
             "quantized": real["quantized"], "alignment": real.get("alignment"),
             "memories": real.get("memories")}
    if "mem" in real:
        entry["mem_0"] = real["mem"]["mem_0"]
    else:
        entry["export_error"] = real.get("error")
    if with_qemu and "mem" in real and real["quantized"]:
        entry["qemu"] = qemu(path, size, tmp)
    exact = entry.get("mem_0") == ours
    ok = exact or estimate
    if "qemu" in entry and entry["qemu"].get("mem_0") not in (None, entry.get("mem_0")):
        ok = False
        entry["qemu_mismatch"] = True
    return ok, entry, fixture


def render():
    rec = json.loads(RECORD.read_text())

    def cell(v):
        return f"{v['equal']}/{v['values']} equal, largest difference {v['max_abs_diff']}"

    print("| model | input | real Cortex-M export's mem_0 (B) | memplan `--recipes cortexm-int8` (B)"
          " | memplan says | int8? | built (M7) and run in QEMU: output vs aidge_backend_cpu's"
          " | the build repaired (input dims; padded strides packed) | aidge_backend_cpu on"
          " another input |")
    print("|---|---|---:|---:|---|---|---|---|---|")
    for e in rec["models"]:
        q = e.get("qemu")
        repaired = other = "—"
        if q is None:
            ran = "no (float32 export)" if not e["quantized"] else "no"
        elif q["ran"]:
            ran = f"ran: {cell(q['vs_reference'])}"
            if "repaired_vs_reference" in q:
                repaired = (f"{cell(q['repaired_vs_reference'])} ({q['input_layers_repaired']}"
                            f" input layer, {q['strides_packed']} stride(s))")
                other = cell(q["other_input_vs_reference"])
        else:
            ran = f"failed: {q['error'][:80]}"
        real = f"{e['mem_0']:,}" if "mem_0" in e else f"refused ({e['export_error'][:60]})"
        print(f"| {e['model']} | {e['size']}×{e['size']} | {real} | {e['memplan']:,} |"
              f" {'estimate' if e['estimate'] else 'exact'} |"
              f" {'yes' if e['quantized'] else 'no: float32 (quantizer refuses)'} | {ran} |"
              f" {repaired} | {other} |")
    return 0


def main(argv):
    if "--render" in argv:
        return render()
    if argv[1:2] == ["--child"]:
        path, size, folder, out = argv[2:6]
        result = real_export(pathlib.Path(path), int(size), pathlib.Path(folder))
        pathlib.Path(out).write_text(json.dumps(result))
        return 0
    if argv[1:2] == ["--child-qemu"]:
        path, size, folder = argv[2:5]
        print(json.dumps(qemu_stage(pathlib.Path(path), int(size), pathlib.Path(folder))))
        return 0
    with_qemu, record = "--qemu" in argv, "--record" in argv
    args = [a for a in argv[1:] if not a.startswith("--")]
    runs = [(m, s) for m, s in MODELS if not args or m in args]
    entries, failed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for model, size in runs:
            try:
                ok, entry, fixture = check(model, size, tmp, with_qemu)
            except Exception as e:  # noqa: BLE001 (one model's failure, said, not fatal)
                ok, entry, fixture = False, {"model": model, "error": f"{type(e).__name__}: {e}"}, None
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} cortexm-int8 {model} {size}: {json.dumps(entry)}",
                  flush=True)
            if ok and record:
                FIXTURES.mkdir(parents=True, exist_ok=True)
                (FIXTURES / fixture.name).write_bytes(fixture.read_bytes())
                entries.append(entry)
    if record:
        old = json.loads(RECORD.read_text())["models"] if RECORD.exists() else []
        keep = [e for e in old if (e["model"], e["size"]) not in
                {(e["model"], e["size"]) for e in entries}]
        doc = {"versions": versions(), "config": CONFIG,
               "models": sorted(keep + entries, key=lambda e: (e["model"], e["size"]))}
        RECORD.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
