"""Parity of memplan's ONNX reader (src/formats/onnx) with aidge_onnx + aidge_core 0.10.1.

For each model (the four bench CNNs of tests/data/bench/models, and the models of
tests/data/onnx written by tests/parity/onnx_models.py: ResNet-34, DenseNet-169,
MobileNet-v3-Large, a small BERT with symbolic dims):

1. Aidge: aidge_onnx.load_onnx, set_datatype(float32), forward_dims at the model's
   input dims, SequentialScheduler.generate_scheduling, then the schedule document
   python/memplan/aidge/exporter.py writes (schedule_of);
2. memplan: `memplan convert MODEL.onnx -o x.memplan.json [--dims ...]`;
3. the two schedules must hold the same nodes (matched by name, type and parents,
   since some converters name no node), each with the same type, data inputs
   (parent, required data, required protected), outputs (dims, element bytes, bytes,
   required memory, graph output, data format, readers, parameter readers; readers
   compared as sets, as Aidge keeps parameter readers in pointer order); and memplan's
   order must run every node in the same scheduler pass as Aidge's (passes are
   Aidge's; the order inside one is its pointers', arbitrary);
4. memplan's schedule, put in Aidge's order, planned by `memplan plan --driver D` for
   each of the three drivers, then `memplan convert -o memplan.txt`, must equal the
   memory_info.txt aidge_core.mem_info.log_meminfo_text writes for Aidge's own plan of
   the same scheduler, byte for byte.
5. a model Aidge itself cannot size (no reference) must open in memplan or be refused
   naming a node; a corpus model memplan opens must have, for every output ONNX's own
   shape inference (data propagation on) sizes statically, the same dims
   (onnx_shapes_differ: an independent check of the ONNX rules memplan follows there);
6. memplan's first warning labels the plan "memplan's sizing (Aidge cannot run this
   model)" exactly on the models Aidge cannot run (a model Aidge cannot run opened
   without it, or one Aidge runs labelled, fails), and where it names the stage of Aidge
   that fails (import, forward_dims, the scheduler's kernel lookup) it is Aidge's.

Prints one line per model and "N passed, N failed"; exits non-zero on any failure.
Usage: .venv/bin/python tests/parity/onnx_diff.py [MODEL ... | --corpus | --families]
(no argument: the models above, a representative part of the corpus, CI_CORPUS, and every
model of tests/data/onnx/families and tests/data/onnx/contrib; --corpus: every model of
tests/data/onnx/corpus; --families: every model of tests/data/onnx/families)
"""

import gzip
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

import aidge_cases  # noqa: E402
import aidge_core  # noqa: E402
import aidge_onnx  # noqa: E402
from memplan.aidge import exporter  # noqa: E402
from models_diff import MEMPLAN, memplan  # noqa: E402

IMAGE = [1, 3, 224, 224]
# name -> (gzipped model, input dims, memplan --dims for its symbolic dims)
MODELS = {m: (aidge_cases.BENCH / "models" / f"{m}.onnx.gz", [IMAGE], [])
          for m in aidge_cases.MODELS}
for m in ["resnet34", "densenet169", "mobilenet_v3_large"]:
    MODELS[m] = (ROOT / "tests" / "data" / "onnx" / f"{m}.onnx.gz", [IMAGE], [])
MODELS["tiny_cnn"] = (ROOT / "tests" / "data" / "onnx" / "tiny_cnn.onnx", [[2, 3, 16, 16]], ["N=2"])
MODELS["param_readers"] = (ROOT / "tests" / "data" / "onnx" / "param_readers.onnx", [[2, 3]], [])
MODELS["bert_small"] = (ROOT / "tests" / "data" / "onnx" / "bert_small.onnx.gz",
                        [[1, 16, 128]], ["batch=1", "sequence=16"])
# The corpus of real exports (tests/parity/onnx_corpus.py): weight-free, every input dim fixed.
CORPUS = ROOT / "tests" / "data" / "onnx" / "corpus"
for gz in sorted(CORPUS.glob("*.onnx.gz")):
    MODELS["corpus/" + gz.name[:-len(".onnx.gz")]] = (gz, None, [])
# The families of tests/parity/onnx_families.py (models of families the corpus does not
# hold, small enough that CI checks them all: about 9 s).
FAMILIES = ROOT / "tests" / "data" / "onnx" / "families"
for gz in sorted(FAMILIES.glob("*.onnx.gz")) + sorted(FAMILIES.glob("dynamo/*.onnx.gz")):
    MODELS["families/" + str(gz.relative_to(FAMILIES))[:-len(".onnx.gz")]] = (gz, None, [])
# The models of tests/data/onnx/contrib (tests/parity/onnx_contrib.py): onnxruntime's
# contrib operators, which aidge_onnx imports as GenericOperators. Their sizes are
# onnxruntime's (its run, checked by tests/onnx.rs); here, that Aidge cannot run them and
# that memplan says so, at Aidge's import.
CONTRIB = ROOT / "tests" / "data" / "onnx" / "contrib"
for gz in sorted(CONTRIB.glob("*.onnx.gz")):
    stem = gz.name[:-len(".onnx.gz")]
    run = json.loads((CONTRIB / f"{stem}.shapes.json").read_text())["dims"]
    MODELS["contrib/" + stem] = (gz, None, [f"{k}={v}" for k, v in run.items()])
# The corpus models CI checks (`run.py onnx`): one of each operator family; the whole
# corpus is `tests/parity/onnx_diff.py --corpus`.
CI_CORPUS = ["corpus/mnasnet1_0", "corpus/convnext_tiny", "corpus/inception_v3",
             "corpus/shufflenet_v2_x1_0", "corpus/bert"]
# What the CLI says first of a model Aidge 0.10.1 cannot run (schedule::AIDGE_CANNOT),
# and the mark of a model Aidge cannot run that memplan opens without saying so.
LABEL = "memplan's sizing (Aidge cannot run this model)"
# How memplan's first warning names the stage of Aidge that fails (schedule::AidgeStage).
STAGES = {"import": "aidge_onnx's import fails", "forward_dims": "its forward_dims fails",
          "scheduler": "its scheduler's kernel lookup fails"}
DRIVERS = [("multiple_mems", "multiple-mems"), ("memory", "memory"),
           ("auto_concat", "auto-concat")]


class AidgeFails(Exception):
    """Aidge 0.10.1 itself cannot give this model's sizes (an operator it imports as a
    GenericOperator, or forward_dims failing): its schedule is no reference. `stage`:
    the key of STAGES where Aidge fails."""

    def __init__(self, why, stage=None):
        super().__init__(why)
        self.stage = stage


def aidge_schedule(onnx_path, dims):
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    try:
        graph = aidge_onnx.load_onnx(str(onnx_path))
    except Exception as e:  # noqa: BLE001 (a converter's own assertion or error)
        raise AidgeFails(f"aidge_onnx fails ({type(e).__name__}: {str(e).splitlines()[0][:90]})",
                         "import")
    generic = sorted({n.type() for n in graph.get_nodes()
                      if isinstance(n.get_operator(), aidge_core.GenericOperatorOp)})
    if generic:
        raise AidgeFails(f"aidge_onnx imports {', '.join(generic)} as GenericOperator", "import")
    try:
        graph.set_backend("cpu")
    except RuntimeError as e:
        raise AidgeFails(f"aidge_backend_cpu has no kernel ({str(e).splitlines()[0][-60:]})")
    graph.set_datatype(aidge_core.dtype.float32)
    try:
        ok = graph.forward_dims(dims, True)
    except RuntimeError as e:
        raise AidgeFails(f"Aidge's forward_dims fails ({str(e).splitlines()[0][:90]})",
                         "forward_dims")
    if not ok:
        raise AidgeFails("Aidge's forward_dims fails", "forward_dims")
    s = aidge_core.SequentialScheduler(graph)
    try:
        s.generate_scheduling()
    except RuntimeError as e:
        raise AidgeFails(f"Aidge's scheduler fails ({str(e).splitlines()[0][:90]})",
                         "scheduler")
    return s


def match(ours, theirs):
    """Index map theirs -> ours, matching nodes by (name, type, parents)."""
    def key(nodes, i, mapped):
        n = nodes[i]
        parents = tuple((mapped(p["parent"]["node"]), p["parent"]["output"])
                        if p["parent"] else None for p in n["inputs"])
        return (n["name"], n["type"], parents)

    ours_by = {}
    ours_map = {}
    # Our nodes keyed by their own parents (ours), theirs by theirs mapped to ours.
    for i in range(len(ours)):
        ours_by.setdefault(key(ours, i, lambda j: j), []).append(i)
    mapping = {}
    pending = list(range(len(theirs)))
    while pending:
        rest = []
        for i in pending:
            n = theirs[i]
            if any(p["parent"] and p["parent"]["node"] not in mapping for p in n["inputs"]):
                rest.append(i)
                continue
            k = key(theirs, i, lambda j: mapping[j])
            cands = ours_by.get(k)
            if not cands:
                raise AssertionError(f"Aidge node {n['name']!r} ({n['type']}) with parents "
                                     f"{k[2]} has no counterpart in memplan's schedule")
            mapping[i] = cands.pop(0)
            ours_map[mapping[i]] = i
        if len(rest) == len(pending):
            raise AssertionError("Aidge's schedule has a parent cycle")
        pending = rest
    if len(ours) != len(theirs):
        extra = [ours[i]["name"] for i in range(len(ours)) if i not in ours_map]
        raise AssertionError(f"memplan has {len(ours)} nodes, Aidge {len(theirs)}: "
                             f"extra {extra[:5]}")
    return mapping


def compare(ours, theirs, mapping):
    """The first difference between two matched schedules, or None."""
    for i, t in enumerate(theirs):
        o = ours[mapping[i]]
        where = f"node {t['name']!r} ({t['type']})"
        if o["type"] != t["type"] or o.get("producer", False) != t["producer"]:
            return f"{where}: type {o['type']}, Aidge {t['type']}"
        for k, (a, b) in enumerate(zip(o["inputs"], t["inputs"])):
            if (a.get("required_data", 0), a.get("required_protected", 0)) != \
                    (b["required_data"], b["required_protected"]):
                return (f"{where} input {k}: required data/protected "
                        f"{a.get('required_data')}/{a.get('required_protected')}, "
                        f"Aidge {b['required_data']}/{b['required_protected']}")
        if len(o["inputs"]) != len(t["inputs"]):
            return f"{where}: {len(o['inputs'])} data inputs, Aidge {len(t['inputs'])}"
        if len(o["outputs"]) != len(t["outputs"]):
            return f"{where}: {len(o['outputs'])} outputs, Aidge {len(t['outputs'])}"
        for k, (a, b) in enumerate(zip(o["outputs"], t["outputs"])):
            for f in ["dims", "element_bytes", "bytes", "required_memory", "graph_output",
                      "data_format"]:
                if a.get(f, False) != b[f]:
                    return f"{where} output {k}: {f} {a.get(f)}, Aidge {b[f]}"
            ca = sorted((c["node"], c["input"]) for c in a.get("consumers", []))
            cb = sorted((mapping[c["node"]], c["input"]) for c in b["consumers"])
            if ca != cb:
                return f"{where} output {k}: readers {ca}, Aidge {cb}"
            pa = sorted(a.get("param_readers", []))
            pb = sorted(mapping[r] for r in b["param_readers"])
            if pa != pb:
                return f"{where} output {k}: parameter readers {pa}, Aidge {pb}"
    return None


def passes(nodes):
    """Scheduler pass of each node: one more than its latest non-Producer parent's."""
    out = []
    for n in nodes:
        out.append(max([out[p["parent"]["node"]] + 1 for p in n["inputs"]
                        if p["parent"] and not nodes[p["parent"]["node"]]["producer"]],
                       default=0) if not n["producer"] else -1)
    return out


def reorder(ours, theirs, mapping):
    """memplan's schedule in Aidge's node order (indices renumbered)."""
    new_of = {mapping[i]: i for i in range(len(theirs))}
    out = []
    for i in range(len(theirs)):
        n = json.loads(json.dumps(ours[mapping[i]]))
        for inp in n["inputs"]:
            if inp.get("parent"):
                inp["parent"]["node"] = new_of[inp["parent"]["node"]]
        for o in n["outputs"]:
            for c in o.get("consumers", []):
                c["node"] = new_of[c["node"]]
            if "param_readers" in o:
                o["param_readers"] = [new_of[r] for r in o["param_readers"]]
        out.append(n)
    return out


def inflate(data):
    """A weight-free corpus model (float initializers without data) with zeros put back,
    for aidge_onnx, which reads every initializer's values; and its input dims."""
    import numpy as np
    import onnx
    from onnx import numpy_helper
    m = onnx.load_from_string(data)
    for i, t in enumerate(m.graph.initializer):
        if not (t.raw_data or t.float_data or t.int64_data or t.int32_data
                or t.double_data) and list(t.dims) != [0]:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(t.data_type)
            z = numpy_helper.from_array(np.zeros(list(t.dims), dtype), t.name)
            m.graph.initializer[i].CopyFrom(z)
    inits = {t.name for t in m.graph.initializer}
    dims = [[d.dim_value for d in v.type.tensor_type.shape.dim]
            for v in m.graph.input if v.name not in inits]
    return m.SerializeToString(), dims


def onnx_shapes_differ(data, memplan_json):
    """An independent check of a model Aidge cannot size: every output dims ONNX's own
    shape inference (with data propagation, onnx.shape_inference) gives statically
    must be memplan's (Aidge's [1] for ONNX's scalar counts as equal). Returns the
    first differences, or None."""
    import onnx
    m = onnx.load_from_string(data)
    inf = onnx.shape_inference.infer_shapes(m, data_prop=True)
    known = {}
    for v in list(inf.graph.value_info) + list(inf.graph.output):
        t = v.type.tensor_type
        if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            known[v.name] = [d.dim_value for d in t.shape.dim]

    def aidge_name(n):
        n = re.sub(r"[/.:]", "_", n)
        n = n[1:] if n.startswith("_") else n
        return "data_" + n if n[:1].isdigit() else n

    by_name = {}
    for n in json.loads(memplan_json.read_text())["schedule"]["nodes"]:
        by_name.setdefault(n["name"], n)
    diffs, same = [], 0
    for node in m.graph.node:
        names = [aidge_name(node.name), "layer_" + aidge_name(node.name),
                 aidge_name(node.output[0])] if node.output else []
        ours = next((by_name[k] for k in names if k in by_name), None)
        if ours is None or node.op_type == "Constant":
            continue
        for o, out in enumerate(node.output):
            if o < len(ours["outputs"]) and out in known:
                a, b = ours["outputs"][o]["dims"], known[out]
                if a == b or (b == [] and a == [1]):
                    same += 1
                else:
                    diffs.append(f"{node.name or out} ({node.op_type}) output {o}: "
                                 f"memplan {a}, ONNX {b}")
    if not same:
        return "no output of memplan's schedule found in ONNX's shape inference"
    return "; ".join(diffs[:3]) if diffs else None


def check(name, tmp):
    gz, dims, cli_dims = MODELS[name]
    data = gzip.open(gz).read() if gz.suffix == ".gz" else gz.read_bytes()
    return check_bytes(name.replace("/", "-"), data, dims, cli_dims, tmp)


def check_bytes(name, data, dims, cli_dims, tmp, strict=True):
    """check() of a model given as bytes, with its input dims (None: the file's, and its
    weight-free initializers filled with zeros for Aidge). strict=False (ONNX's node
    tests): a model Aidge cannot run opened without the label, or with a stage later than
    Aidge's, is said in the AidgeFails raised, not a failure (a label on a model Aidge
    runs always is one)."""
    onnx_path = tmp / f"{name}.onnx"
    onnx_path.write_bytes(data)
    dims_from_file = dims is None
    if dims is None:
        full, dims = inflate(data)
        aidge_path = tmp / f"{name}.full.onnx"
        aidge_path.write_bytes(full)
    else:
        aidge_path = onnx_path
    out = tmp / f"{name}.memplan.json"
    args = ["convert", onnx_path, "-o", out]
    if cli_dims:
        args += ["--dims", ",".join(cli_dims)]
    try:
        scheduler = aidge_schedule(aidge_path, dims)
    except AidgeFails as e:
        # No reference: memplan must open the model or refuse it naming a node.
        r = subprocess.run([str(MEMPLAN), *map(str, args)], capture_output=True, text=True)
        if r.returncode == 0:
            n = len(json.loads(out.read_text())["schedule"]["nodes"])
            # Said first, as the CLI's first warning, or the plan passes for Aidge's.
            first = r.stderr.splitlines()[0] if r.stderr else ""
            said = [k for k, words in STAGES.items() if words in first]
            wrong = None
            if LABEL not in first:
                wrong = "memplan opens it without saying so (its plan passes for Aidge's)"
            elif said and e.stage and list(STAGES).index(said[0]) > list(STAGES).index(e.stage):
                # memplan names where Aidge first goes wrong: a later stage is untrue
                # (forward_dims may size a node otherwise and Aidge fail only later).
                wrong = f"memplan says {STAGES[said[0]]!r}: {first[:300]}"
            if wrong and strict:
                return f"{e}; {wrong}"
            n = f"{n} nodes, " + (wrong or "labelled" + (f", stage {said[0]}" if said
                                                         else ", stage unnamed"))
            if dims_from_file and not name.startswith("contrib-"):
                d = onnx_shapes_differ(data, out)
                if d:
                    return f"{e}; memplan opens it, but its sizes differ from ONNX's: {d}"
                raise AidgeFails(f"{e}; memplan opens it ({n}; its sizes those of "
                                 "ONNX's shape inference)")
            raise AidgeFails(f"{e}; memplan opens it ({n})")
        if "node '" not in r.stderr or "panick" in r.stderr:
            return f"{e}; memplan: {r.stderr.strip()}"
        raise AidgeFails(f"{e}; memplan refuses it: {r.stderr.strip()[:160]}")
    theirs = exporter.schedule_of(scheduler)["nodes"]
    r = memplan(*args)
    if LABEL in r.stderr:
        return f"Aidge runs it, but memplan labels it: {r.stderr.strip()[:300]}"
    ours = json.loads(out.read_text())["schedule"]["nodes"]
    mapping = match(ours, theirs)
    d = compare(ours, theirs, mapping)
    if d:
        return d
    po, pt = passes(ours), passes(theirs)
    moved = [t["name"] for i, t in enumerate(theirs) if po[mapping[i]] != pt[i]]
    if moved:
        return f"scheduler passes differ for {len(moved)} nodes, e.g. {moved[:3]}"
    # A node without a parent in the document (Shape, Size: no data input) runs in the
    # pass after its ONNX input's node, which the document does not say: not ranked.
    ranked = [p for p, n in zip(po, ours) if p >= 0 and any(i.get("parent") for i in n["inputs"])
              or p > 0]
    own = [p for p in po if p >= 0]
    if ranked != sorted(ranked) or any(p >= 0 for p in po[:len(po) - len(own)]):
        return "memplan's order is not Producers first, then the scheduler's passes"
    aligned = tmp / f"{name}.aligned.json"
    aligned.write_text(json.dumps({"format": "memplan", "version": 1,
                                   "schedule": {"nodes": reorder(ours, theirs, mapping)}}))
    for driver, cli in DRIVERS:
        mm = exporter.aidge_plan(scheduler, driver)
        golden = tmp / f"{name}-{cli}.aidge.txt"
        aidge_core.mem_info.log_meminfo_text(mm, golden, scheduler, driver == "multiple_mems")
        plan = tmp / f"{name}-{cli}.plan.json"
        memplan("plan", aligned, "--driver", cli, "-o", plan)
        text = tmp / f"{name}-{cli}.memplan.txt"
        dialect = [] if driver == "multiple_mems" else ["--format", "aidge-single"]
        memplan("convert", plan, "-o", text, *dialect)
        if text.read_bytes() != golden.read_bytes():
            la, lb = text.read_text().splitlines(), golden.read_text().splitlines()
            line = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y),
                        min(len(la), len(lb)))
            got = la[line] if line < len(la) else "<end of file>"
            want = lb[line] if line < len(lb) else "<end of file>"
            return f"{cli}: memory_info.txt line {line + 1}:\n    ours  {got!r}\n    Aidge {want!r}"
    return None


def main(argv):
    if not MEMPLAN.exists():
        print(f"{MEMPLAN} not found: run tests/parity/run.py")
        print("0 passed, 1 failed")
        return 1
    names = argv[1:]
    if names == ["--corpus"]:
        names = [m for m in MODELS if m.startswith("corpus/")]
    elif names == ["--families"]:
        names = [m for m in MODELS if m.startswith("families/")]
    elif not names:
        names = [m for m in MODELS if MODELS[m][1] is not None] + CI_CORPUS + \
            [m for m in MODELS if m.startswith(("families/", "contrib/"))]
    passed = failed = skipped = unnamed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name in names:
            start = time.monotonic()
            try:
                d = check(name, tmp)
            except AidgeFails as e:
                skipped += 1
                unnamed += "stage unnamed" in str(e)
                print(f"{name}: no reference: {e}", flush=True)
                continue
            except (AssertionError, RuntimeError) as e:
                d = str(e)
            took = time.monotonic() - start
            if d is None:
                passed += 1
                print(f"{name}: schedule and 3 drivers' plans equal Aidge's ({took:.1f} s)",
                      flush=True)
            else:
                failed += 1
                print(f"FAIL {name}: {d}", flush=True)
    print(f"{passed} passed, {failed} failed, {skipped} without a reference (Aidge fails, "
          f"memplan says so; {unnamed} of them without naming the stage)")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
