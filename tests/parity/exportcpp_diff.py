"""Ships memplan's plan into aidge-export-cpp 0.10.1's C++ and proves it by running it.

For every CNN of tests/data/bench/models (weight-free ONNX: float initializers get
seeded random values here; a trailing Flatten is dropped, export-cpp has no kernel
for it and it moves no byte), a transformer (ViT-tiny, folded: TRANSFORMERS) and the
small fixture models `clean` and `maxpool` of tests/data/export/models.py, on one
seeded random input (CI runs CI_MODELS, one of each kind; `--all` every model):

1. reference: the graph run by aidge_backend_cpu (float32, NCHW);
2. default build: `aidge_core.export_utils.export(..., ExportConfig(target="host"))`
   with Aidge's own memory plan, compiled with g++ and run. Its outputs must agree
   with the reference (max |diff| <= 1e-4 · max |ref|); a model whose default build
   does not agree is reported as such and fails, never silently compared;
3. memplan build: the same export under `memplan.aidge.patch_export(strategy=...)`.
   Its outputs must be byte-identical to the default build's, its `mem_0` must equal
   the peak memplan reports for the plan, that peak must be the lower bound of the
   plan's spaces (it is on these four), and at most Aidge's.
   `memplan convert --format export-cpp` of the plan written to the stats folder
   must give every output `*_MEM_*` macro of the generated layer headers, exactly;
4. corrupted build: memplan's plan with one memory space moved onto another space
   live at the same time. `memplan check` must flag that plan and its build must
   compute different outputs, so the comparison in 3 can fail;
5. the export memory checker (`memplan.aidge.check_export`, `memplan check
   --export`) on each generated folder: memplan's build must have exactly the
   default build's findings by kind and node type (moving buffers adds no defect
   and hides none; node numbers are left out, see `node_type`), and the corrupted build must have an `overwritten` or
   `input_overlap` finding the default build has not;
6. the outputs independent of arena garbage (tests/parity/arena_poison.py): each build
   of 2 and 3 also runs twice with its arenas and each output's bytes filled with
   0xA5, then 0x5A, before the kernels write them. The runs must agree with the
   checker: no output may change where it is clean, only outputs of flagged nodes
   where it flags some (MaxPool's never-written indices), a model output whose node
   it says reads unwritten bytes must change, and the first output holding garbage
   must be one the checker flags or names.

Builds use g++ directly (-O2); object files of the generated sources are cached by
content, so the weights (the bulk of the compile time) compile once per model.
The program that runs a build is the export's own `model_forward` with a small
main that writes every output the reference graph has, as raw bytes.

Outputs a table (model, Aidge's mem_0, memplan's mem_0, lower bound, outputs) and
"N passed, N failed". Needs the venv with aidge-core, aidge-backend-cpu, aidge-onnx,
aidge-export-cpp 0.10.1 and memplan installed (`pip install .`; scripts/setup.sh
python does both).

Usage: .venv/bin/python tests/parity/exportcpp_diff.py [--size 64] [--strategy best]
       [--markdown] [--default-format] [--all | MODEL ...]   (MODEL: a bench CNN, hf_vit
       or small:NAME, a model of tests/data/export/models.py; none: CI_MODELS, about a
       quarter of --all's time)
"""

import argparse
import collections
import concurrent.futures
import contextlib
import gzip
import hashlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import arena_poison  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS_DIR = ROOT / "tests" / "data" / "bench" / "models"
# A transformer: ViT-tiny (transformers' ViTModel, hidden 128, 2 layers, 64x64), the folded
# fixture of the seed-fusions check (aidge_onnx 0.10.1 imports a ViT only folded:
# tests/parity/fusion_models.py).
TRANSFORMERS = {"hf_vit": ROOT / "tests" / "data" / "onnx" / "fusions" / "hf_vit.onnx.gz"}
MODELS = ["squeezenet1_1", "resnet18", "mobilenet_v2", "efficientnet_b0", "hf_vit"]
# The two small fixture models: seconds, and the poisoned runs must find the
# never-written MaxPool indices of `maxpool` (and nothing in `clean`).
SMALL = ["small:clean", "small:maxpool"]
# CI (tests/parity/run.py): one model per family within its time budget, MaxPool and
# Concat (SqueezeNet-1.1), the transformer, and the small fixtures; `--all` is every
# model above (`npm run test:slow`).
CI_MODELS = ["squeezenet1_1", "hf_vit"] + SMALL
CXX = [os.environ.get("CXX", "g++"), "-std=c++17", "-O2"]


def prepared_onnx(name, path, seed=0):
    """The bench model with seeded random weights (He-scaled normal) and no trailing
    Flatten, saved at `path`; or a small model of tests/data/export/models.py (the
    export checker's fixtures: `small:NAME`)."""
    if name.startswith("small:"):
        sys.path.insert(0, str(ROOT / "tests" / "data" / "export"))
        import models
        onnx.save(models.MODELS[name[6:]](), path)
        return
    m = onnx.load_from_string(gzip.open(TRANSFORMERS.get(name, MODELS_DIR / f"{name}.onnx.gz"))
                              .read())
    rng = np.random.default_rng(seed)
    for init in m.graph.initializer:
        if not (init.raw_data or init.float_data or init.int64_data or init.int32_data
                or init.double_data) and list(init.dims) != [0]:
            # a weight-free fixture's tensor (the transformer's): zeros, then drawn below
            dtype = onnx.helper.tensor_dtype_to_np_dtype(init.data_type)
            init.CopyFrom(numpy_helper.from_array(np.zeros(list(init.dims), dtype), init.name))
        a = numpy_helper.to_array(init)
        if a.dtype == np.float32 and a.size > 16:
            fan_in = int(np.prod(a.shape[1:])) if a.ndim > 1 else a.size
            w = rng.standard_normal(a.shape) * np.sqrt(2.0 / fan_in)
            init.CopyFrom(numpy_helper.from_array(w.astype(np.float32), init.name))
    if name in TRANSFORMERS:
        # The pooler's output only: the export's plan lets the pooler's nodes overwrite
        # the other graph output, last_hidden_state, once the pooler's Gather has read
        # it (Aidge's planner frees a graph output after its last reader; the export
        # checker finds it, `output_overwritten` on the last LayerNorm, and that output
        # of the default build is garbage: 0.92 of the reference's largest value apart).
        del m.graph.output[:-1]
    outputs = {o.name: o for o in m.graph.output}
    for node in list(m.graph.node):
        if node.op_type == "Flatten" and node.output[0] in outputs:
            out = outputs[node.output[0]]
            out.name = node.input[0]
            out.type.tensor_type.ClearField("shape")
            m.graph.node.remove(node)
    onnx.save(m, path)


def load_graph(path):
    import aidge_core
    import aidge_onnx
    with contextlib.redirect_stdout(io.StringIO()):
        graph = aidge_onnx.load_onnx(str(path))
    aidge_core.remove_flatten(graph)
    clip_bounds_as_attributes(graph)
    return graph


def clip_bounds_as_attributes(graph):
    """Copies a Clip's min/max inputs (ONNX opset >= 11: MobileNet-v2's ReLU6) into
    its attributes. aidge-export-cpp 0.10.1 reads only the attributes (its Clip.py:
    `node.get_operator().attr.min`), which stay at -/+FLT_MAX when the bounds come
    as inputs, so its build computes no clipping at all while aidge_backend_cpu
    clips (max |diff| / max |ref| = 3.6e6 on MobileNet-v2). With the attributes set
    both compute ReLU6. See docs/aidge-parity.md."""
    for node in graph.get_nodes():
        if node.type() != "Clip":
            continue
        for k, name in ((1, "min"), (2, "max")):
            parent = node.input(k)[0] if k < node.get_nb_inputs() else None
            if parent is not None and parent.type() == "Producer":
                value = np.array(parent.get_operator().get_output(0)).ravel()
                setattr(node.get_operator().attr, name, float(value[0]))


def reference(path, x):
    """The outputs aidge_backend_cpu computes, in the graph's output order. For the
    transformer, onnx's reference evaluator's: aidge_backend_cpu 0.10.1's forward of
    the folded ViT stops on its int64 shape tensors ("Tensor::get<>(0): wrong data
    type, expected float32 ..., got int64"), which the export computes nothing from."""
    if pathlib.Path(path).stem in TRANSFORMERS:
        from onnx.reference import ReferenceEvaluator
        outs = ReferenceEvaluator(str(path)).run(None, {
            onnx.load(str(path)).graph.input[0].name: x})
        return [np.asarray(o).astype(np.float32).ravel() for o in outs]
    import aidge_core
    graph = load_graph(path)
    graph.set_backend("cpu")
    # set_datatype makes every Producer float32; the folded shape tensors of the
    # transformer (an Expand's int64 shape) get theirs back, as fusions_diff.py does
    kept = {n: n.get_operator().get_output(0).dtype for n in graph.get_nodes()
            if n.type() == "Producer"}
    graph.set_datatype(aidge_core.dtype.float32)
    for n, dtype in kept.items():
        if dtype != aidge_core.dtype.float32:
            n.get_operator().get_output(0).set_datatype(dtype)
    graph.forward_dims([list(x.shape)], True)
    scheduler = aidge_core.SequentialScheduler(graph)
    scheduler.forward(data=[aidge_core.Tensor(x)])
    return [np.array(node.get_operator().get_output(i)).astype(np.float32).ravel()
            for node, i in graph.get_ordered_outputs()]


DFORMAT = {"dformat": "nchw"}


def export(path, x, folder):
    """Runs the real export of the graph at `path` into `folder`; returns mem_0's size."""
    import aidge_core
    import aidge_export_cpp  # noqa: F401  (registers the C++ kernels)
    from aidge_core.export_utils.config import ExportConfig
    graph = load_graph(path)
    config = ExportConfig(target="host", export_folder=str(folder), compile=False, **DFORMAT)
    # (the export also writes exported_graph.mmd into the working directory)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            contextlib.chdir(folder.parent):
        aidge_core.export_utils.export(graph, config, input_tensors=[aidge_core.Tensor(x)],
                                       nb_test=0)
    forward = (folder / "dnn" / "src" / "forward.cpp").read_text()
    return int(re.search(r"static unsigned char mem_0\[(\d+)\];", forward).group(1))


def harness_main(folder, counts):
    """A main() for the export that writes the first len(counts) outputs of
    model_forward as raw bytes to stdout (the generated main prints 100 rounded
    values). Outputs past the reference graph's (MaxPool indices export-cpp keeps
    as graph outputs but never writes) are passed but not written."""
    main = (folder / "main.cpp").read_text()
    decls = re.findall(r"^\s*(\w+)\* (\w+) = nullptr;", main, re.M)
    call = re.search(r"model_forward\((.*?)\);", main, re.S).group(0)
    if len(decls) < len(counts):
        raise RuntimeError(f"{folder}: main.cpp has {len(decls)} outputs, "
                           f"the reference {len(counts)}")
    includes = "".join(line + "\n" for line in main.splitlines() if line.startswith("#include"))
    body = "".join(f"    {t}* {n} = nullptr;\n" for t, n in decls)
    writes = "".join(f"    fwrite({n}, sizeof({t}), {c}, stdout);\n"
                     for (t, n), c in zip(decls, counts))
    # then twice more with the arenas poisoned, every output (indices too) as text on
    # stderr (tests/parity/arena_poison.py)
    macros = {}
    for h in (folder / "dnn" / "include" / "layers").glob("*.h"):
        macros.update(re.findall(r"#define (\w+) (\d+)\s*$", h.read_text(), re.M))

    def elements(var):
        n = 1
        for k in ("NB_OUTPUTS", "OUT_HEIGHT", "OUT_WIDTH"):
            n *= int(macros.get(f"{var.upper()}_{k}", 1))
        return n

    dumps = [f'    memplan_dump(stderr, "{n}", {n}, {elements(n)} * sizeof({t}));\n'
             for t, n in decls]
    poisoned = arena_poison.poisoned_calls(call, dumps, "stderr")
    return (f"{includes}\n{arena_poison.DECLS}{arena_poison.dump_function()}\nint main()\n{{\n"
            f"{body}    {call}\n{writes}{poisoned}    return 0;\n}}\n")


FLOAT_ARRAY = re.compile(
    r'^const float (\w+)\[[\d*]+\] __attribute__\(\(section\("([\w.]+)"\)\)\) =\s*\{(.*)\};\s*$',
    re.S | re.M)


def float_array_asm(src, blob):
    """For a generated parameter file that only defines one float array: the same
    object as assembly that includes the values as bytes (written to `blob`), else
    None. g++ parses float literals slowly (the four CNNs' 21.7 M weights take about
    ten minutes on two cores); the values are exact float32 (each literal is parsed
    to the nearest double, then to the nearest float32: the export writes them with
    enough digits to round-trip). The code under test (forward.cpp, kernels, layer
    headers holding the plan) is still compiled by g++ from the generated sources."""
    if src.parent.name != "parameters":
        return None
    text = src.read_text()
    body = text.split("using namespace std::complex_literals;", 1)[-1]
    m = FLOAT_ARRAY.search(body)
    if m is None or body.count("const ") != 1:
        return None
    name, section, values = m.groups()
    numbers = np.array([float(v) for v in values.replace("f", " ").replace(",", " ").split()],
                       dtype=np.float64).astype("<f4")
    numbers.tofile(blob)
    return (f'\t.section {section},"a"\n\t.globl {name}\n\t.type {name}, @object\n'
            f'\t.balign 64\n{name}:\n\t.incbin "{blob}"\n\t.size {name}, {numbers.nbytes}\n'
            '\t.section .note.GNU-stack,"",@progbits\n')


def build_and_run(folder, counts, cache, poison=None):
    """Compiles the export in `folder` with g++ (objects cached by content) and
    returns what its harness main writes. forward.cpp is compiled as
    `arena_poison.instrumented_forward` gives it (the same code, plus per-layer hashes
    and an arena fill); `poison`, a dict, receives the verdict of the two poisoned runs."""
    (folder / "harness.cpp").write_text(harness_main(folder, counts))
    forward = folder / "dnn" / "src" / "forward.cpp"
    instrumented, traced = arena_poison.instrumented_forward(forward.read_text())
    (forward.parent / "memplan_poison.cpp").write_text(instrumented)
    sources = [p for p in folder.rglob("*.cpp") if p.name not in ("main.cpp", "forward.cpp")]
    includes = ["-I", str(folder / "dnn"), "-I", str(folder / "dnn" / "include"), "-I", str(folder)]
    # A parameter file includes only its own declaration; anything else may include
    # the layer headers, which hold the memory plan: hash those with it.
    layers = b"".join(h.read_bytes() for h in sorted((folder / "dnn" / "include").rglob("*"))
                      if h.is_file() and "parameters" not in h.parts)
    objects, todo = [], []
    for src in sources:
        extra = b"" if src.parent.name == "parameters" else layers
        key = hashlib.sha256(src.name.encode() + src.read_bytes() + extra).hexdigest()
        obj = cache / f"{key}.o"
        objects.append(str(obj))
        if not obj.exists():
            todo.append((src, obj))

    def compile_one(job):
        src, obj = job
        tmp = obj.with_suffix(".tmp")
        asm = float_array_asm(src, obj.with_suffix(".bin"))
        if asm is not None:
            obj.with_suffix(".S").write_text(asm)
            src = obj.with_suffix(".S")
        r = subprocess.run(CXX + includes + ["-c", str(src), "-o", str(tmp)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"g++ {src.relative_to(folder)}: {r.stderr[-2000:]}")
        tmp.rename(obj)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(compile_one, todo))
    exe = folder / "run"
    subprocess.run(CXX + objects + ["-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, check=True)
    if poison is not None:
        poison.update(arena_poison.verdict(run.stderr.decode(), traced))
    return run.stdout


MACRO = re.compile(r"^#define (\w+_OUTPUT_\d+_MEM_[A-Z_]+) (\S+)$", re.M)


def compare_macros(folder, plan_text):
    """None when `memplan convert --format export-cpp` of the plan the export used
    gives exactly the output MEMINFO macros of the generated layer headers."""
    from memplan import _native
    ours = dict(MACRO.findall(_native.convert(plan_text, "plan.json", "export-cpp")))
    theirs = {}
    for header in (folder / "dnn" / "include" / "layers").glob("*.h"):
        theirs.update(MACRO.findall(header.read_text()))
    missing = sorted(set(theirs) - set(ours))
    if missing:
        return f"{len(missing)} macros missing, e.g. {missing[0]}"
    wrong = sorted(k for k in theirs if theirs[k] != ours[k])
    if wrong:
        return f"{wrong[0]} = {ours[wrong[0]]}, the export writes {theirs[wrong[0]]}"
    return None


def corrupting(strategy):
    """A memory_manager that takes memplan's plan and moves one space onto another
    that is live at the same time (the first pair found, largest first); returns the
    hook and a dict that receives the corrupted plan's check problems."""
    from memplan import _native
    from memplan.aidge import hook
    seen = {}

    def corrupted(scheduler, *args, **kwargs):
        mem_size, _ = hook.memory_manager(scheduler, *args, strategy=strategy, **kwargs)
        folder = pathlib.Path(kwargs["stats_folder"])
        doc = json.loads((folder / "memory_info.memplan.json").read_text())
        plan = doc["plan"]
        spaces = plan["spaces"]
        last = plan["max_lifetime"]

        def live(s):
            end = s["released"] if s.get("released") is not None and not s.get("has_deps") else last
            return s["allocated"], end

        order = sorted(range(len(spaces)), key=lambda i: -spaces[i]["size"])
        pair = next(((a, b) for a in order for b in order if a != b
                     and spaces[b]["size"] <= spaces[a]["size"]
                     and spaces[a]["offset"] != spaces[b]["offset"]
                     and max(live(spaces[a])[0], live(spaces[b])[0])
                     <= min(live(spaces[a])[1], live(spaces[b])[1])), None)
        a, b = pair
        shift = spaces[a]["offset"] - spaces[b]["offset"]
        spaces[b]["offset"] += shift
        for p in plan["planes"]:
            if p["space"] == b:
                p["cont_offset"] += shift
                if p["wrap_size"]:
                    p["wrap_offset"] += shift
        seen["problems"] = _native.check(json.dumps(doc), "corrupted plan")
        return mem_size, hook.records(scheduler, json.dumps(doc))

    return corrupted, seen


def summary(findings):
    """The checker's findings as sorted "kind node" strings (bytes left out: what
    an unwritten read finds there depends on the placement)."""
    return sorted(f"{f.kind} {f.node}" for f in findings)


def node_type(node):
    """`Transpose` for `_53_Transpose_33`: the export names a node `_<step>_<Type>_<k>`
    from its place in Aidge's schedule, and Aidge orders parallel branches by pointer,
    so two exports of SqueezeNet in one process numbered the same Transpose
    `_53_Transpose_33` and `_54_Transpose_34` (CI, 2026-12-06). Two exports of one
    model are compared on kind and node type, with multiplicity."""
    return re.sub(r"^_[0-9]+_(.*)_[0-9]+$", r"\1", node)


def by_type(findings):
    """The findings as sorted "kind NodeType" strings (see `node_type`)."""
    return sorted(f"{f.kind} {node_type(f.node)}" for f in findings)


def run_model(name, size, strategy, tmp, cache):
    from memplan.aidge import patch_export
    import importlib
    onnx_path = tmp / f"{name.replace(':', '_')}.onnx"
    prepared_onnx(name, onnx_path)
    if name.startswith("small:"):
        dims = onnx.load(onnx_path).graph.input[0].type.tensor_type.shape.dim
        size = dims[2].dim_value
    x = np.random.default_rng(1).standard_normal((1, 3, size, size)).astype(np.float32)
    name = name.replace(":", "_")
    ref = reference(onnx_path, x)
    counts = [r.size for r in ref]
    row = {"model": name, "size": size}

    aidge_mem = export(onnx_path, x, tmp / f"{name}-aidge")
    poison_default, poison_ours = {}, {}
    default = build_and_run(tmp / f"{name}-aidge", counts, cache, poison_default)
    got = np.frombuffer(default, dtype=np.float32)
    want = np.concatenate(ref)
    err = float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-30))
    row.update(aidge=aidge_mem, default_vs_backend=err)
    from memplan.aidge import check_export
    default_findings = check_export(tmp / f"{name}-aidge")
    row["findings"] = summary(default_findings)
    row["poison_default"] = poison_default
    if not err <= 1e-4:
        row["fail"] = (f"the default export-cpp build disagrees with aidge_backend_cpu "
                       f"(max |diff| / max |ref| = {err:.3g}): not used as a reference")
        return row
    garbage = arena_poison.disagreements(poison_default, default_findings, True)
    if garbage:
        row["fail"] = "default build: " + "; ".join(garbage)
        return row

    with patch_export(strategy=strategy, check=False):
        ours_mem = export(onnx_path, x, tmp / f"{name}-memplan")
    ours_findings = check_export(tmp / f"{name}-memplan")
    if by_type(ours_findings) != by_type(default_findings):
        row["fail"] = (f"the export checker finds {summary(ours_findings)} in memplan's build, "
                       f"{row['findings']} in Aidge's: "
                       + "; ".join(f.message for f in ours_findings[:3]))
        return row
    stats = tmp / f"{name}-memplan" / "stats" / "memory_info.memplan.json"
    from memplan import _native
    _, report = _native.plan(stats.read_text(), stats.name, "aidge", 0)
    report = json.loads(report)
    macro_diff = compare_macros(tmp / f"{name}-memplan", stats.read_text())
    if macro_diff:
        row["fail"] = f"memplan convert --format export-cpp: {macro_diff}"
        return row
    ours = build_and_run(tmp / f"{name}-memplan", counts, cache, poison_ours)
    row.update(memplan=ours_mem, peak=int(report["peak"]), bound=int(report["lower_bound"]),
               identical=ours == default, poison_memplan=poison_ours)
    garbage = arena_poison.disagreements(poison_ours, ours_findings, True)
    if garbage:
        row["fail"] = "memplan's build: " + "; ".join(garbage)
    elif ours != default:
        row["fail"] = "memplan's build computes different outputs"
    elif ours_mem != int(report["peak"]):
        row["fail"] = f"mem_0 is {ours_mem} B, memplan reports a peak of {report['peak']} B"
    elif int(report["peak"]) != int(report["lower_bound"]):
        row["fail"] = (f"memplan's plan peaks at {report['peak']} B, above the lower bound "
                       f"{report['lower_bound']} B of its spaces")
    elif ours_mem > aidge_mem:
        row["fail"] = f"memplan's arena ({ours_mem} B) is larger than Aidge's ({aidge_mem} B)"
    if "fail" in row:
        return row

    module = importlib.import_module("aidge_core.export_utils.export")
    original = module.generate_optimized_memory_info
    hook, seen = corrupting(strategy)
    module.generate_optimized_memory_info = hook
    try:
        export(onnx_path, x, tmp / f"{name}-corrupt")
    finally:
        module.generate_optimized_memory_info = original
    corrupt = build_and_run(tmp / f"{name}-corrupt", counts, cache)
    row["corrupt_changes"] = corrupt != default
    row["corrupt_flagged"] = bool(seen.get("problems"))
    corrupt_findings = check_export(tmp / f"{name}-corrupt")
    row["corrupt_findings"] = summary(corrupt_findings)
    new = collections.Counter(f for f in by_type(corrupt_findings)
                              if f.split()[0] in ("overwritten", "input_overlap"))
    new -= collections.Counter(by_type(default_findings))
    if not new:
        row["fail"] = "the export checker does not flag the corrupted plan"
    elif not seen.get("problems"):
        row["fail"] = "memplan check does not flag the corrupted plan"
    elif corrupt == default:
        row["fail"] = "the corrupted plan computes the same outputs: the comparison cannot fail"
    return row


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", help="default: CI_MODELS")
    ap.add_argument("--all", action="store_true", help="every model (MODELS and SMALL)")
    ap.add_argument("--size", type=int, default=64, help="input height and width")
    ap.add_argument("--strategy", default="best")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--default-format", action="store_true",
                    help="export with Aidge's default data format (no dformat=\"nchw\")")
    a = ap.parse_args(argv[1:])
    a.models = a.models or (MODELS + SMALL if a.all else CI_MODELS)
    if a.default_format:
        DFORMAT.clear()
    import aidge_core
    aidge_core.Log.set_console_level(aidge_core.Level.Error)
    passed = failed = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        cache = tmp / "objects"
        cache.mkdir()
        for name in a.models:
            try:
                row = run_model(name, a.size, a.strategy, tmp, cache)
            except Exception as e:  # a crash of one model is that model's failure
                row = {"model": name, "size": a.size, "fail": f"{type(e).__name__}: {e}"}
            rows.append(row)
            if "fail" in row:
                failed += 1
                print(f"FAIL {name}: {row['fail']}", flush=True)
            else:
                passed += 1
            print(json.dumps(row), flush=True)
    if a.markdown:
        print("\n| model | input | Aidge `mem_0` (B) | memplan `mem_0` (B) | lower bound (B) | saved |"
              " outputs vs Aidge's build | default build vs aidge_backend_cpu |"
              " export checker (default = memplan build) | corrupted plan |"
              " outputs independent of arena garbage (default; memplan) |")
        print("|---|---|---:|---:|---:|---:|---|---|---|---|---|")
        for r in rows:
            if "memplan" not in r:
                continue
            saved = 100.0 * (r["aidge"] - r["memplan"]) / r["aidge"]
            print(f"| {r['model']} | {r['size']}×{r['size']} | {r['aidge']:,} | {r['memplan']:,} |"
                  f" {r['bound']:,} | {saved:.1f} % |"
                  f" {'bit-identical' if r['identical'] else 'DIFFERENT'} |"
                  f" max rel. diff {r['default_vs_backend']:.1e} |"
                  f" {'; '.join(r['findings']) or 'clean'} |"
                  f" {len(r.get('corrupt_findings', []))} findings, outputs "
                  f"{'differ' if r.get('corrupt_changes') else 'same'} |"
                  f" {arena_poison.cell(r['poison_default'])};"
                  f" {arena_poison.cell(r['poison_memplan'])} |")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
