"""Parity of memplan's `--recipes export-cpp` (src/recipes) with the real aidge-export-cpp
0.10.1 export of the same ONNX model.

For each model (torchvision CNNs of tests/data/onnx/corpus, weight-free, given seeded
random weights here; a trailing Flatten dropped, as tests/parity/exportcpp_diff.py does,
since export-cpp has no Flatten kernel):

1. Aidge: `aidge_onnx.load_onnx`, `aidge_core.remove_flatten`, then the export's own
   front half, `aidge_core.export_utils.export.prepare_export(graph,
   ExportConfig(target="host"))` (expand_metaops, constant_folding, adapt_graph's
   fusions and data formats, adapt_to_backend, the scheduler), and the plan its
   `scheduler_export` makes, `generate_optimized_memory_info` with the target's
   memories: its peak is the `mem_0` of the generated forward.cpp (`--full` runs the
   whole `export()` and reads mem_0 from the file too);
2. memplan: `memplan convert MODEL.onnx --recipes export-cpp -o x.json`;
3. the two schedules must hold the same nodes (matched by type, parents and output
   dims: the export renames every node `_<step>_<type>_<k>`), each with the same
   outputs (dims, bytes, data format, graph output, readers), data inputs, and inputs
   protected or not the same way (memplan protects a whole convolution input where the
   export's margin is smaller: no wrap-around is planned over it); every node must run
   in the same scheduler pass;
4. memplan's schedule put in the export's order, planned by `memplan stats` (Aidge's
   default driver, as the export), must have the export's peak, byte for byte. Aidge
   orders the nodes inside a pass by pointer, so a model with parallel branches
   (GoogLeNet, Inception) gets another mem_0 at each run of the real export; memplan's
   own order (the file's) is printed beside it.

Prints one line per model and "N passed, N failed"; exits non-zero on any failure.
Usage: .venv/bin/python tests/parity/recipes_diff.py [MODEL ... | --all] [--full]
       [--record=FILE]
(no argument: CI_MODELS; --all: every model of ALL; --record: writes each model's
mem_0 and memplan's own-order peak, as tests/data/recipes/export_cpp.json holds them;
docs/recipes.md's tables are rendered from that record by scripts/recipes_tables.py,
which needs no Aidge and which scripts/doc_tables.py check re-runs in CI)
"""

import contextlib
import gzip
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

from models_diff import MEMPLAN  # noqa: E402
from onnx_diff import passes  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "onnx" / "corpus"
# Transformers: the folded fixtures of the seed-fusions check (tests/parity/fusion_models.py:
# aidge_onnx 0.10.1 imports a ViT only with its shape arithmetic folded).
FOLDED = ROOT / "tests" / "data" / "onnx" / "fusions"
TRANSFORMERS = ["hf_vit"]
# The CNNs the real export takes (19 of the corpus; the others stop in the export:
# grouped convolutions, channel shuffles, transformers — see docs/recipes.md).
ALL = ["alexnet", "densenet121", "efficientnet_b0", "efficientnet_b1", "efficientnet_v2_s",
       "googlenet", "inception_v3", "mnasnet0_5", "mnasnet1_0", "mobilenet_v2",
       "mobilenet_v3_large", "mobilenet_v3_small", "resnet18", "resnet50", "squeezenet1_0",
       "squeezenet1_1", "vgg11", "vgg11_bn", "wide_resnet50_2"] + TRANSFORMERS
# CI: SE blocks and HardSwish, MaxPool and Concat, BatchNorm's Transposes, parallel
# branches, the transformer (MatMul's and Reshape's formats; about 5 s).
CI_MODELS = ["mobilenet_v3_small", "squeezenet1_1", "densenet121", "googlenet", "hf_vit"]
# int8 exports (ExportConfig(dtype="int8"): aidge-quantization's PTQ, then the export):
# the Quantizers on shared Add operands (ResNet-18, MNASNet), Concat (SqueezeNet), a graph
# the quantizer refuses (MobileNet-v3-Small keeps float32). CI runs ResNet-18.
INT8 = ["resnet18", "squeezenet1_1", "mnasnet0_5", "mobilenet_v3_small"]
CI_INT8 = ["resnet18"]


def source(name):
    """The gzipped ONNX file of `name`: a transformer's folded fixture or a corpus CNN."""
    return (FOLDED if name in TRANSFORMERS else CORPUS) / f"{name}.onnx.gz"


def prepared(name, path, src=None):
    """The corpus model (or the gzipped ONNX file `src`) with seeded random weights and
    no trailing Flatten, at `path`; its input dims."""
    m = onnx.load_from_string(gzip.open(src or source(name)).read())
    rng = np.random.default_rng(0)
    for i, t in enumerate(m.graph.initializer):
        if not (t.raw_data or t.float_data or t.int64_data or t.int32_data
                or t.double_data) and list(t.dims) != [0]:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(t.data_type)
            a = (rng.standard_normal(list(t.dims)) * 0.05).astype(dtype) \
                if dtype == np.float32 else np.zeros(list(t.dims), dtype)
            m.graph.initializer[i].CopyFrom(numpy_helper.from_array(a, t.name))
    outputs = {o.name: o for o in m.graph.output}
    for node in list(m.graph.node):
        if node.op_type == "Flatten" and node.output[0] in outputs:
            out = outputs[node.output[0]]
            out.name = node.input[0]
            out.type.tensor_type.ClearField("shape")
            m.graph.node.remove(node)
    onnx.save(m, path)
    return [d.dim_value or 1 for d in m.graph.input[0].type.tensor_type.shape.dim]


def real_export(path, dims, full_folder=None, dtype="float32"):
    """(schedule document, peak of its memory plan, mem_0 or None) of the real export.
    Without `full_folder`: its front half, prepare_export, and the plan
    scheduler_export makes. With it: the whole export() written there, its scheduler
    and plan caught as the export hands them to generate_optimized_memory_info, and
    the mem_0 its forward.cpp declares (the export orders each pass by pointer: a second
    scheduler of the same graph may run parallel branches in another order)."""
    import aidge_backend_cpu  # noqa: F401
    import aidge_core
    import aidge_export_cpp  # noqa: F401  (registers the kernels)
    import aidge_onnx
    from aidge_core.export_utils.config import ExportConfig
    from aidge_core.export_utils.export import prepare_export
    from aidge_core.mem_info import generate_optimized_memory_info
    from memplan.aidge.exporter import schedule_of
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    x = np.random.default_rng(0).standard_normal(dims).astype(np.float32)
    with contextlib.redirect_stdout(io.StringIO()):
        graph = aidge_onnx.load_onnx(str(path))
        aidge_core.remove_flatten(graph)
    # int8: export() quantizes the graph first (aidge_quantization's PTQ, calibrated on
    # the inputs given: four seeded ones, in [-1, 1] as scripts/cortexm/run.py does).
    inputs = [aidge_core.Tensor(x)]
    if dtype == "int8":
        rng = np.random.default_rng(0)
        inputs = [aidge_core.Tensor(rng.uniform(-1, 1, dims).astype(np.float32))
                  for _ in range(4)]
    if full_folder is None:
        with contextlib.redirect_stdout(io.StringIO()):
            graph.set_backend("cpu")
            config = ExportConfig(target="host", compile=False)
            ctx = prepare_export(graph, config, input_tensors=[aidge_core.Tensor(x)])
            peaks, _ = generate_optimized_memory_info(
                ctx.scheduler, None, multiple_mems=ctx.multiple_mems,
                memory_components=ctx.device.memories, memory_alignment=1,
                auto_concat=ctx.auto_concat)
        return schedule_of(ctx.scheduler)["nodes"], peaks[0], None
    # (`aidge_core.export_utils.export` is the function: its package re-exports it)
    export_module = sys.modules["aidge_core.export_utils.export"]
    caught = {}

    def catching(scheduler, *args, **kwargs):
        caught["schedule"] = schedule_of(scheduler)["nodes"]
        out = generate_optimized_memory_info(scheduler, *args, **kwargs)
        caught["peak"] = out[0][0]
        return out

    export_module.generate_optimized_memory_info = catching
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(full_folder.parent):
            config = ExportConfig(target="host", compile=False, export_folder=str(full_folder),
                                  dtype=dtype, cuda=False)
            aidge_core.export_utils.export(graph, config, input_tensors=inputs, nb_test=0)
    finally:
        export_module.generate_optimized_memory_info = generate_optimized_memory_info
    forward = (full_folder / "dnn" / "src" / "forward.cpp").read_text()
    mem0 = int(re.search(r"static unsigned char mem_0\[(\d+)\];", forward).group(1))
    return caught["schedule"], caught["peak"], mem0


def match(ours, theirs):
    """Index map of the export's operators to memplan's, by type, parents (a Producer
    parent as "P"), output dims and what reads them (siblings of one parent with the
    same type and dims differ by what lies downstream of them)."""
    def downstream(nodes):
        sig = [None] * len(nodes)
        for i in reversed(range(len(nodes))):
            n = nodes[i]
            sig[i] = hash((n["type"], tuple(tuple(o["dims"]) for o in n["outputs"]),
                           tuple(tuple(sorted((sig[c["node"]], c["input"])
                                              for c in o.get("consumers", [])))
                                 for o in n["outputs"])))
        return sig

    sigs = {id(ours): downstream(ours), id(theirs): downstream(theirs)}

    def key(nodes, i, mapped):
        n = nodes[i]
        parents = tuple(None if not p.get("parent") else
                        "P" if nodes[p["parent"]["node"]]["producer"] else
                        (mapped(p["parent"]["node"]), p["parent"]["output"])
                        for p in n["inputs"])
        return (n["type"], parents, tuple(tuple(o["dims"]) for o in n["outputs"]),
                sigs[id(nodes)][i])

    ours_by = {}
    for i, n in enumerate(ours):
        if not n["producer"]:
            ours_by.setdefault(key(ours, i, lambda j: j), []).append(i)
    mapping = {}
    pending = [i for i, n in enumerate(theirs) if not n["producer"]]
    while pending:
        rest = []
        for i in pending:
            if any(p["parent"] and not theirs[p["parent"]["node"]]["producer"]
                   and p["parent"]["node"] not in mapping for p in theirs[i]["inputs"]):
                rest.append(i)
                continue
            k = key(theirs, i, lambda j: mapping[j])
            cands = ours_by.get(k)
            if not cands:
                raise AssertionError(f"the export's node {theirs[i]['name']!r} ({k[0]}, "
                                     f"outputs {k[2]}) has no counterpart in memplan's")
            mapping[i] = cands.pop(0)
        if len(rest) == len(pending):
            raise AssertionError("the export's schedule has a parent cycle")
        pending = rest
    ours_ops = sum(1 for n in ours if not n["producer"])
    if ours_ops != len(mapping):
        extra = [n["name"] for j, n in enumerate(ours)
                 if not n["producer"] and j not in set(mapping.values())]
        raise AssertionError(f"memplan has {ours_ops} operators, the export {len(mapping)}: "
                             f"extra {extra[:5]}")
    return mapping


def compare(ours, theirs, mapping):
    """The first difference between two matched schedules, or None."""
    for i, t in enumerate(theirs):
        if t["producer"]:
            continue
        o = ours[mapping[i]]
        where = f"node {t['name']!r} ({t['type']}; memplan's {o['name']!r})"
        if len(o["inputs"]) != len(t["inputs"]):
            return f"{where}: {len(o['inputs'])} data inputs, the export {len(t['inputs'])}"
        for k, (a, b) in enumerate(zip(o["inputs"], t["inputs"])):
            if a["required_data"] != b["required_data"]:
                return f"{where} input {k}: required data {a['required_data']}, " \
                       f"the export {b['required_data']}"
            if (a["required_protected"] == 0) != (b["required_protected"] == 0) or \
                    a["required_protected"] < b["required_protected"]:
                return f"{where} input {k}: protected {a['required_protected']}, " \
                       f"the export {b['required_protected']}"
        if len(o["outputs"]) != len(t["outputs"]):
            return f"{where}: {len(o['outputs'])} outputs, the export {len(t['outputs'])}"
        for k, (a, b) in enumerate(zip(o["outputs"], t["outputs"])):
            for f in ["dims", "element_bytes", "bytes", "graph_output", "data_format"]:
                if a.get(f, False) != b[f]:
                    return f"{where} output {k}: {f} {a.get(f)}, the export {b[f]}"
            ca = sorted((c["node"], c["input"]) for c in a.get("consumers", []))
            cb = sorted((mapping[c["node"]], c["input"]) for c in b["consumers"])
            if ca != cb:
                return f"{where} output {k}: readers {ca}, the export {cb}"
    return None


def reorder(ours, theirs, mapping):
    """memplan's operators in the export's order, Producers first as memplan has them."""
    order = [j for j, n in enumerate(ours) if n["producer"]] + \
        [mapping[i] for i, t in enumerate(theirs) if not t["producer"]]
    new_of = {old: new for new, old in enumerate(order)}
    out = []
    for old in order:
        n = json.loads(json.dumps(ours[old]))
        for inp in n["inputs"]:
            if inp.get("parent"):
                inp["parent"]["node"] = new_of[inp["parent"]["node"]]
        for o in n["outputs"]:
            for c in o.get("consumers", []):
                c["node"] = new_of[c["node"]]
            o["param_readers"] = [new_of[r] for r in o.get("param_readers", [])]
        out.append(n)
    return out


def peak(path):
    out = subprocess.run([str(MEMPLAN), "stats", str(path), "--json"], check=True,
                         capture_output=True, text=True).stdout
    return int(json.loads(out)["peak"])


def child_export(path, dims, folder, dtype):
    """real_export in a process of its own: aidge_quantization's PTQ cannot run twice in
    one process (scripts/cortexm/run.py), so each int8 export gets a fresh one."""
    out = folder.parent / f"{folder.name}.json"
    subprocess.run([sys.executable, __file__, "--child", str(path), json.dumps(dims),
                    str(folder), dtype, str(out)], check=True)
    return json.loads(out.read_text())


def check(name, tmp, full, dtype="float32"):
    path = tmp / f"{name}.onnx"
    dims = prepared(name, path)
    folder = tmp / f"{name}-{dtype}-export"
    if dtype == "int8":
        theirs, real, mem0 = child_export(path, dims, folder, dtype)
    else:
        theirs, real, mem0 = real_export(path, dims, folder if full else None)
    if mem0 is not None and mem0 != real:
        return False, f"the whole export's mem_0 {mem0:,} is not its memory plan's {real:,}"
    out = tmp / f"{name}.memplan.json"
    extra = ["--dtype", dtype] if dtype != "float32" else []
    subprocess.run([str(MEMPLAN), "convert", str(path), "--recipes", "export-cpp", *extra, "-o",
                    str(out)], check=True, capture_output=True, text=True)
    doc = json.loads(out.read_text())
    ours = doc["schedule"]["nodes"]
    try:
        mapping = match(ours, theirs)
    except AssertionError as e:
        return False, str(e)
    diff = compare(ours, theirs, mapping)
    if diff:
        return False, diff
    ours_pass, their_pass = passes(ours), passes(theirs)
    for i, t in enumerate(theirs):
        if not t["producer"] and their_pass[i] != ours_pass[mapping[i]]:
            return False, f"node {t['name']!r} runs in pass {their_pass[i]}, memplan's in " \
                          f"{ours_pass[mapping[i]]}"
    in_order = tmp / f"{name}.export-order.json"
    doc["schedule"]["nodes"] = reorder(ours, theirs, mapping)
    in_order.write_text(json.dumps(doc))
    got, own = peak(in_order), peak(out)
    if got != real:
        return False, f"memplan's plan in the export's order: {got:,} B, the export's {real:,} B"
    same = "" if own == real else f"; memplan's own order {own:,} B (the export's order " \
                                   "inside a pass is its pointers')"
    full_note = f", whole export's mem_0 {mem0:,}" if mem0 is not None else ""
    figures = {"mem_0": real, "operators": sum(1 for t in theirs if not t["producer"]),
               "memplan_own_order": own, "whole_export": full or dtype != "float32"}
    # A model's float32 figures at its top level, each other dtype's under its name.
    entry = RECORD.setdefault(name, {})
    if dtype == "float32":
        entry.update(figures)
    else:
        entry[dtype] = figures
    return True, f"{figures['operators']} nodes, mem_0 {real:,} B{full_note}{same}"


# Models whose real mem_0 changes from one run of the export to the next (parallel
# branches, a pass ordered by pointer: GoogLeNet 8,580,096 to 9,257,472 B in four runs,
# Inception-v3 6,139,392 and 11,139,584 B).
ORDER_DEPENDENT = {"googlenet", "inception_v3"}
# What --record writes: per model, the export's mem_0 and memplan's.
RECORD = {}


def main(argv):
    if argv[1:2] == ["--child"]:
        path, dims, folder, dtype, out = argv[2:7]
        result = real_export(pathlib.Path(path), json.loads(dims), pathlib.Path(folder), dtype)
        pathlib.Path(out).write_text(json.dumps(result))
        return 0
    full = "--full" in argv
    record = next((a.split("=", 1)[1] for a in argv if a.startswith("--record=")), None)
    args = [a for a in argv[1:] if not a.startswith("--")]
    dtype = next((a.split("=", 1)[1] for a in argv if a.startswith("--dtype=")), None)
    names = ALL if "--all" in argv else (args or CI_MODELS)
    # (model, dtype): the float32 export of each, and in CI the int8 export of one.
    runs = [(n, dtype or "float32") for n in names]
    if not args and "--all" not in argv and dtype is None:
        runs += [(n, "int8") for n in CI_INT8]
    if "--all" in argv and dtype is None:
        runs += [(n, "int8") for n in INT8]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, dt in runs:
            try:
                ok, what = check(name, tmp, full, dt)
            except Exception as e:  # noqa: BLE001 (one model's failure, said, not fatal)
                ok, what = False, f"{type(e).__name__}: {e}"
            failed += not ok
            label = name if dt == "float32" else f"{name} --dtype {dt}"
            print(f"{'ok  ' if ok else 'FAIL'} export-cpp {label}: {what}", flush=True)
    if record:
        # Models seen to get another mem_0 at another run of the real export (GoogLeNet,
        # Inception: see ORDER_DEPENDENT) are marked, for tests/recipes.rs.
        for name in RECORD:
            if name in ORDER_DEPENDENT:
                RECORD[name]["order_dependent"] = True
        pathlib.Path(record).write_text(json.dumps(RECORD, indent=1, sort_keys=True) + "\n")
    print(f"{len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
