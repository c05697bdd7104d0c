"""The graphs and option combinations of the drivers' parity checks, and the
writer of their committed exports (tests/data/aidge/).

Cases: the four bench CNNs (tests/data/bench/models, or $MEMPLAN_BENCH/models), the same
as aidge_export_cpp prepares them (MODEL_nhwc), small graphs built with aidge_core's
API (branches, concat, multi-output Split, residual adds, channels-last Concats,
Inception and DenseNet Concats) and a grouped-Conv ONNX the wheel refuses. Combos:
every option combination of tests/data/bench/aidge/.

Usage: .venv/bin/python tests/parity/aidge_cases.py OUT_DIR   (writes CASE-COMBO.json,
components/CASE-TAG.json and refused/CASE.json)
"""

import gzip
import os
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import aidge_core  # noqa: E402
import aidge_backend_cpu  # noqa: E402,F401  (registers the cpu backend)
from memplan.aidge import exporter as memplan_aidge  # noqa: E402

BENCH = pathlib.Path(os.environ.get("MEMPLAN_BENCH", ROOT / "tests" / "data" / "bench"))
#: The models' scratch files (each in its own folder of it), removed when the process ends.
SCRATCH = tempfile.TemporaryDirectory(prefix="memplan-parity-")
MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "efficientnet_b0"]

# (tag, driver, wrap, optimize): the combinations of bench/aidge/, same tags.
COMBOS = [
    ("multi-None", "multiple_mems", False, None),
    ("single-None", "memory", False, None),
    ("single-wrap-None", "memory", True, None),
    ("single-OptimizeMaxLifetimeMinSizeFirst", "memory", False, "OptimizeMaxLifetimeMinSizeFirst"),
    ("single-OptimizeMaxLifetimeMaxSizeFirst", "memory", False, "OptimizeMaxLifetimeMaxSizeFirst"),
    ("single-OptimizeMaxHoleMaxLifetimeFirst", "memory", False, "OptimizeMaxHoleMaxLifetimeFirst"),
    ("autoconcat-None", "auto_concat", False, None),
]
# Beyond the bench: auto-concat with wrap-around (the wheel throws on `split`).
EXTRA_COMBOS = [("autoconcat-wrap-None", "auto_concat", True, None)]
# Auto-concat with each optimize rule, with and without wrap-around (`best` tries them
# all), on AUTOCONCAT_OPTIMIZE_CASES only: the small graphs and SqueezeNet, whose
# wrap-around Concats start in an older space. Not `inception`: there the wheel's
# wrap-around plan already has spaces of negative size (an unsigned underflow) and
# optimize on them throws or gives offsets below 0. `split` + OptimizeMaxHoleMaxLifetimeFirst
# is not committed either: its Split plane has a negative size too, and there memplan
# places three spaces below 0 where the wheel puts them at 6400 (docs/aidge-parity.md).
OPTIMIZE_RULES = ["OptimizeMaxLifetimeMinSizeFirst", "OptimizeMaxLifetimeMaxSizeFirst",
                  "OptimizeMaxHoleMaxLifetimeFirst"]
AUTOCONCAT_OPTIMIZE_COMBOS = [(f"autoconcat-{'wrap-' if wrap else ''}{rule}", "auto_concat", wrap,
                               rule) for wrap in (False, True) for rule in OPTIMIZE_RULES]
AUTOCONCAT_OPTIMIZE_CASES = ["branches", "residual", "split", "densenet", "concat_nhwc",
                             "concat_nwc", "squeezenet1_1"]


def _schedule(graph, dims):
    graph.set_backend("cpu")
    graph.set_datatype(aidge_core.dtype.float32)
    graph.forward_dims(dims, True)
    s = aidge_core.SequentialScheduler(graph)
    s.generate_scheduling()
    return s


def _load(name):
    import aidge_onnx
    tmp = pathlib.Path(tempfile.mkdtemp(dir=SCRATCH.name)) / f"{name}.onnx"
    with gzip.open(BENCH / "models" / f"{name}.onnx.gz") as f, open(tmp, "wb") as g:
        shutil.copyfileobj(f, g)
    return aidge_onnx.load_onnx(str(tmp))


def model(name):
    return _schedule(_load(name), [[1, 3, 224, 224]])


def model_nhwc(name):
    """The model as aidge_export_cpp exports it: aidge_core.export_utils'
    prepare_export with the legacy flow that aidge_export_cpp.export uses
    (adapt_graph_legacy: export_cpp backend and kernels' required data, the
    NHWC data format of ExportLibCpp, fused meta-operators, the MaxPool indices
    dropped from the outputs), scheduled as scheduler_export schedules it."""
    import numpy as np
    from aidge_core.export_utils.config import ExportConfig
    from aidge_core.export_utils.export import prepare_export
    import aidge_export_cpp  # noqa: F401  (registers the export_cpp library)

    x = aidge_core.Tensor(np.zeros([1, 3, 224, 224], dtype=np.float32))
    x.set_data_format(aidge_core.dformat.nchw)
    config = ExportConfig(target="host", dtype="float32", legacy=True,
                          export_folder=tempfile.mkdtemp(dir=SCRATCH.name))
    aidge_core.Log.set_console_level(aidge_core.Level.Error)  # the flow's notices
    return prepare_export(_load(name), config, input_tensors=[x]).scheduler


def _conv(cin, cout, name, k=3):
    return aidge_core.Conv2D(cin, cout, [k, k], name=name)


def branches():
    """Two branches (conv→relu, conv) from one conv, joined by Concat, then a conv."""
    stem = _conv(3, 8, "stem")
    a1, a2 = _conv(8, 8, "a1", 1), aidge_core.ReLU("a2")
    b1 = _conv(8, 16, "b1", 1)
    cat = aidge_core.Concat(2, axis=1, name="cat")
    head = _conv(24, 4, "head", 1)
    stem.add_child(a1, 0, 0)
    stem.add_child(b1, 0, 0)
    a1.add_child(a2, 0, 0)
    a2.add_child(cat, 0, 0)
    b1.add_child(cat, 0, 1)
    cat.add_child(head, 0, 0)
    return _schedule(aidge_core.get_connected_graph_view(stem), [[1, 3, 18, 18]])


def residual():
    """conv→relu→conv→Add(+skip)→relu, twice, then Sigmoid·x (Mul)."""
    x = _conv(3, 8, "x")
    prev = x
    for i in range(2):
        c1, r1, c2 = _conv(8, 8, f"c{i}a"), aidge_core.ReLU(f"r{i}"), _conv(8, 8, f"c{i}b")
        add, r2 = aidge_core.Add(f"add{i}"), aidge_core.ReLU(f"out{i}")
        # padding-free 3x3 convs shrink maps: use 1x1 to keep shapes for the add
        c1 = _conv(8, 8, f"c{i}a", 1)
        c2 = _conv(8, 8, f"c{i}b", 1)
        prev.add_child(c1, 0, 0)
        c1.add_child(r1, 0, 0)
        r1.add_child(c2, 0, 0)
        c2.add_child(add, 0, 0)
        prev.add_child(add, 0, 1)
        add.add_child(r2, 0, 0)
        prev = r2
    sig, mul = aidge_core.Sigmoid("gate"), aidge_core.Mul("scale")
    prev.add_child(sig, 0, 0)
    sig.add_child(mul, 0, 0)
    prev.add_child(mul, 0, 1)
    return _schedule(aidge_core.get_connected_graph_view(x), [[1, 3, 12, 12]])


def split():
    """A multi-output node: conv → Split(3) on channels → relu on each part → Concat."""
    x = _conv(3, 12, "x", 1)
    sp = aidge_core.Split(3, axis=1, split=[4, 4, 4], name="split")
    cat = aidge_core.Concat(3, axis=1, name="cat")
    x.add_child(sp, 0, 0)
    for k in range(3):
        r = aidge_core.ReLU(f"r{k}")
        sp.add_child(r, k, 0)
        r.add_child(cat, 0, k)
    tail = aidge_core.ReLU("tail")
    cat.add_child(tail, 0, 0)
    return _schedule(aidge_core.get_connected_graph_view(x), [[1, 3, 10, 10]])


def _pconv(cin, cout, name, k=1, relu=True):
    """A PaddedConv2D keeping the map size (as aidge_onnx imports a padded Conv),
    optionally followed by a ReLU; returns (first node, last node)."""
    p = k // 2
    conv = aidge_core.PaddedConv2D(cin, cout, [k, k], name=name, padding_dims=[p, p, p, p])
    if not relu:
        return conv, conv
    relu_node = aidge_core.ReLU(name + "_relu")
    conv.add_child(relu_node, 0, 0)
    return conv, relu_node


def _inception(src, cin, name, branches):
    """An Inception block reading `src`: one branch per list of (out channels,
    kernel) PaddedConv2D+ReLU stages ("pool" for a padded 3x3 MaxPool), joined
    by a Concat on channels. Returns (concat, its channels)."""
    cat = aidge_core.Concat(len(branches), axis=1, name=name)
    total = 0
    for b, stages in enumerate(branches):
        prev, c = src, cin
        for s, stage in enumerate(stages):
            if stage == "pool":
                first = last = aidge_core.PaddedMaxPooling2D(
                    [3, 3], name=f"{name}_b{b}_pool", padding_dims=[1, 1, 1, 1])
            else:
                first, last = _pconv(c, stage[0], f"{name}_b{b}_{s}", stage[1])
                c = stage[0]
            prev.add_child(first, 0, 0)
            prev = last
        prev.add_child(cat, 0, b)
        total += c
    return cat, total


def inception(fused):
    """GoogLeNet's Inception 3a at 28x28 (its input, a padded 3x3 MaxPool of
    192 channels, read by four branches: 1x1; 1x1 then 3x3; 1x1 then 3x3;
    padded MaxPool then 1x1, every conv a PaddedConv2D+ReLU), then a 3-branch
    Inception and a 1x1 head. The 4-input Concat has three wrap-around
    candidates with different protected data. With `fused`, every
    PaddedConv2D->ReLU becomes a ConvReLU meta-operator as in the README flow
    (the fused 3x3 protects part of its input; a bare Conv protects none)."""
    stem = aidge_core.PaddedMaxPooling2D([3, 3], name="pool2", padding_dims=[1, 1, 1, 1])
    cat1, c1 = _inception(stem, 192, "cat1", [[(64, 1)], [(96, 1), (128, 3)],
                                              [(16, 1), (32, 3)], ["pool", (32, 1)]])
    cat2, c2 = _inception(cat1, c1, "cat2", [[(64, 1)], [(32, 1), (48, 3)], ["pool", (32, 1)]])
    head, _ = _pconv(c2, 8, "head", 1, relu=False)
    cat2.add_child(head, 0, 0)
    graph = aidge_core.get_connected_graph_view(stem)
    if fused:
        aidge_core.fuse_to_metaops(graph, "PaddedConv2D->ReLU", "ConvReLU")
    return _schedule(graph, [[1, 192, 28, 28]])


def densenet():
    """DenseNet-style chain: each stage concatenates everything before it with a
    new PaddedConv2D+ReLU of it, so every Concat input but the last is also
    read by the next stage's convolution (Concats planned like any node)."""
    first, prev = _pconv(3, 8, "stem", 3)
    c = 8
    for k in range(3):
        conv, relu = _pconv(c, 4, f"grow{k}", 3)
        cat = aidge_core.Concat(2, axis=1, name=f"dense{k}")
        prev.add_child(conv, 0, 0)
        prev.add_child(cat, 0, 0)
        relu.add_child(cat, 0, 1)
        prev, c = cat, c + 4
    head, _ = _pconv(c, 4, "head", 1, relu=False)
    prev.add_child(head, 0, 0)
    return _schedule(aidge_core.get_connected_graph_view(first), [[1, 3, 10, 10]])


def grouped_conv():
    """A grouped, non-depthwise Conv (group 2, 4 -> 8 channels, as in
    torchvision's RegNet) between ReLUs, written with the `onnx` package:
    aidge_onnx imports it as a GenericOperator whose output Aidge can only
    count in tokens, and every driver of the wheel refuses the graph."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w = numpy_helper.from_array(np.ones([8, 2, 3, 3], dtype=np.float32), "w")
    w2 = numpy_helper.from_array(np.ones([4, 8, 1, 1], dtype=np.float32), "w2")
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="pre"),
             helper.make_node("Conv", ["a", "w"], ["y"], name="grouped_Conv", group=2,
                              kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["y"], ["z"], name="post"),
             helper.make_node("Conv", ["z", "w2"], ["out"], name="head", kernel_shape=[1, 1])]
    graph = helper.make_graph(
        nodes, "grouped", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 4, 8, 8])], [w, w2])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    path = pathlib.Path(tempfile.mkdtemp(dir=SCRATCH.name)) / "grouped_conv.onnx"
    onnx.save(model, str(path))
    import aidge_onnx
    return _schedule(aidge_onnx.load_onnx(str(path)), [[1, 4, 8, 8]])


def _channels_last_concat(fmt, dims, channels):
    """ReLUs of graph inputs of `dims(c)` for each c of `channels`, all tagged
    `fmt`, joined by a Concat on the channel (last) axis, then a ReLU: each
    output is planned per pixel, the Concat's inputs at channel offsets."""
    import numpy as np
    relus = [aidge_core.ReLU(f"r{i}") for i in range(len(channels))]
    cat = aidge_core.Concat(len(channels), axis=len(dims(1)) - 1, name="cat")
    tail = aidge_core.ReLU("tail")
    for i, r in enumerate(relus):
        r.add_child(cat, 0, i)
    cat.add_child(tail, 0, 0)
    graph = aidge_core.get_connected_graph_view(tail)
    graph.set_backend("cpu")
    graph.set_datatype(aidge_core.dtype.float32)
    graph.set_dataformat(fmt)
    for r, c in zip(relus, channels):
        x = aidge_core.Tensor(np.zeros(dims(c), dtype=np.float32))
        x.set_data_format(fmt)
        x.set_backend("cpu")
        r.get_operator().set_input(0, x)
    graph.forward_dims([], True)
    s = aidge_core.SequentialScheduler(graph)
    s.generate_scheduling()
    return s


def concat_nhwc():
    """Three NHWC inputs of 3, 5 and 2 channels: uneven pixel offsets, and the
    third input's size wraps around in size_t (Aidge's size quirk, per pixel)."""
    return _channels_last_concat(aidge_core.dformat.nhwc, lambda c: [1, 4, 5, c], [3, 5, 2])


def concat_nwc():
    """The same with 3-D NWC tensors and a batch of 2 (planes of N lines)."""
    return _channels_last_concat(aidge_core.dformat.nwc, lambda c: [2, 5, c], [3, 5, 2])


GRAPHS = {"branches": branches, "residual": residual, "split": split,
          "concat_nhwc": concat_nhwc, "concat_nwc": concat_nwc,
          "inception": lambda: inception(False), "inception_fused": lambda: inception(True),
          "densenet": densenet, "grouped_conv": grouped_conv}

# Several memory components for generate_memory_multiple_mems, (tag, capacities,
# priorities): a small first bank that overflows into a large one, and the
# reverse priority order. Written to OUT_DIR/components/CASE-TAG.json.
COMPONENT_COMBOS = [
    ("small-first", [20000, 1000000000], [0, 1]),
    ("priority-reversed", [1000000000, 4000000], [1, 0]),
]
COMPONENT_CASES = ["resnet18", "squeezenet1_1", "branches", "split"]
CASES = MODELS + list(GRAPHS)
# Graphs every driver of the wheel refuses: their schedules alone are written to
# OUT_DIR/refused/CASE.json (memplan must refuse them with Aidge's message).
REFUSED_CASES = ["grouped_conv"]
# The committed exports also hold two models as aidge_export_cpp prepares them.
EXPORT_CASES = [c for c in CASES if c not in REFUSED_CASES] + ["squeezenet1_1_nhwc",
                                                               "mobilenet_v2_nhwc"]


NHWC_SUFFIX = "_nhwc"


def scheduler(case):
    """A case's scheduler: a built graph, MODEL, or MODEL_nhwc (export-cpp's flow)."""
    if case in GRAPHS:
        return GRAPHS[case]()
    if case.endswith(NHWC_SUFFIX):
        return model_nhwc(case[: -len(NHWC_SUFFIX)])
    return model(case)


def combos_of(case):
    """The (tag, driver, wrap, optimize) combos exported for `case`."""
    extra = AUTOCONCAT_OPTIMIZE_COMBOS if case in AUTOCONCAT_OPTIMIZE_CASES else []
    return COMBOS + EXTRA_COMBOS + extra


def export_all(out_dir, cases=EXPORT_CASES, combos=combos_of):
    """Writes out_dir/CASE-TAG.json for every case and its combos (`combos(case)`);
    returns the paths. Each export uses a fresh scheduler: Aidge's node order may
    differ between schedulers (it iterates pointer-ordered sets), each file is
    self-consistent."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in cases:
        for tag, driver, wrap, optimize in combos(case):
            path = out_dir / f"{case}-{tag}.json"
            try:
                memplan_aidge.export(scheduler(case), path, driver=driver, wrap=wrap,
                                     optimize=optimize)
            except RuntimeError as e:  # Aidge itself fails: nothing to compare with
                print(f"{case}-{tag}: Aidge throws {e}", file=sys.stderr)
                continue
            paths.append(path)
    return paths


def export_components(out_dir, cases=COMPONENT_CASES):
    """Writes out_dir/components/CASE-TAG.json: multiple_mems with several components."""
    out_dir = pathlib.Path(out_dir) / "components"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in cases:
        for tag, capacities, priorities in COMPONENT_COMBOS:
            path = out_dir / f"{case}-{tag}.json"
            memplan_aidge.export(scheduler(case), path, capacities=capacities,
                                 priorities=priorities)
            paths.append(path)
    return paths


def export_refused(out_dir, cases=REFUSED_CASES):
    """Writes out_dir/refused/CASE.json: the memplan file of the schedule only."""
    import json
    out_dir = pathlib.Path(out_dir) / "refused"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in cases:
        path = out_dir / f"{case}.json"
        doc = {"format": "memplan", "version": 1,
               "schedule": memplan_aidge.schedule_of(scheduler(case))}
        path.write_text(json.dumps(doc, separators=(",", ":")))
        paths.append(path)
    return paths


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else ROOT / "tests/data/aidge"
    for p in export_all(out) + export_components(out) + export_refused(out):
        print(p)
