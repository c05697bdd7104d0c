"""memplan inside aidge-export-arm-cortexm 0.10.1, built for a Cortex-M7 and run in QEMU.

For each CNN (the bench CNNs of tests/data/bench/models at --size, torchvision:NAME —
torchvision 0.20.1's model with its own seeded random initialisation, exported by the
torch venv in $TORCH_PYTHON — or small:NAME from tests/data/export/models.py):

0. `unshare_initializers` (one copy of a shared initializer per consumer: same
   values), `fold_constant_identities` (biases handed over through an Identity),
   `reducemean_as_global_pool` (MnasNet's head) and `relu6_as_relu_difference`
   (MobileNet-v2), which Aidge's int8 flow needs on real CNNs (each says why; none
   changes what the model computes);
1. int8 quantization as `aidge_core.export_utils.export` does it for dtype="int8"
   (`quantized_graph`: its steps in its order — meta-operators expanded,
   aidge-quantization's PTQ `quantize_graph` on 4 seeded random calibration inputs in
   [-1, 1], its two "[HOTFIX]"es — and `int8_concat` for a Concat left int32), and the
   input quantized as it does (`quantize_inputs`: round(x · 127) as int8);
2. reference: that quantized graph run by aidge_backend_cpu on that int8 input;
3. default build: `prepare_export` + `write_export` with ExportConfig(target=
   "stm32h743", dtype="int8", dformat="nchw") — Aidge's plan;
4. memplan build: the same under `memplan.aidge.patch_export(strategy="best")`;
5. the export memory checker on both folders;
6. both compiled with Debian's arm-none-eabi-g++ (-mcpu=cortex-m7 -O2, the shims
   of scripts/cortexm/shim: CMSIS intrinsics, start-up, linker script: weights in the
   AN500's 16 MB PSRAM) with a main that prints every model output as hex over
   semihosting, run in `qemu-system-arm -M mps2-an500`; the outputs must be
   bit-identical (but for outputs computed by a node the checker flags: listed apart),
   the arena (`mem_0` in forward.cpp) of memplan's build at most the default one's;
7. the default build's model output against the reference (values equal, largest
   difference), and the same for a copy of the default build whose padded pixel
   strides are set back to the pixels' bytes (`packed_copy`: what the checker says
   is wrong, repaired by hand), and memplan's build repaired the same way: where
   the two builds differ because both read arena garbage, the repaired ones must not;
8. the outputs independent of arena garbage (tests/parity/arena_poison.py): each
   build also runs twice with its arenas and each output's bytes filled with 0xA5,
   then 0x5A, before its kernel; the outputs that change and the first layer holding
   garbage must agree with the checker (`arena_poison.disagreements`).

The board files (HAL, startup, Makefile) the full Aidge flow downloads are not used:
the export's model code is built with the shims instead (docs/export-check.md).

Outside CI (5-15 minutes per CNN on the shared machine, most of it compiling the
weights, once per model: the objects are shared by its builds). Needs a venv with
aidge-core, aidge-backend-cpu, aidge-onnx, aidge-export-cpp, aidge-export-arm-cortexm,
aidge-quantization 0.10.1, onnx and memplan (`pip install -e .`),
`apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm`, and for
torchvision:NAME a second venv with torch 2.5.1 and torchvision 0.20.1.

Usage: TORCH_PYTHON=/path/to/torch-venv/bin/python PYTHONPATH=scripts/cortexm/stub \
       python scripts/cortexm/run.py [--size 32] [--workdir DIR] [MODEL ...]
Prints one JSON line per model and a Markdown table. With --workdir the exports and
builds are kept, and a later run with the same folder builds kept exports again.
`run.py --render [FILE]` prints the table from recorded JSON lines (default
scripts/cortexm/results.jsonl, the last line of a model wins; docs/benchmarks.md's
table) without building anything.
"""

import argparse
import contextlib
import hashlib
import importlib
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIM = pathlib.Path(__file__).resolve().parent / "shim"
sys.path.insert(0, str(ROOT / "tests" / "parity"))
sys.path.insert(0, str(ROOT / "tests" / "data" / "export"))
import arena_poison as P  # noqa: E402

CXX = ["arm-none-eabi-g++", "-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16",
       "-O2", "-std=c++17", "-fno-exceptions", "-fno-rtti", "-ffunction-sections",
       "-fdata-sections"]
QEMU = ["qemu-system-arm", "-M", "mps2-an500", "-cpu", "cortex-m7", "-nographic", "-monitor",
        "none", "-serial", "none", "-semihosting-config", "enable=on,target=native", "-kernel"]


def unshare_initializers(path):
    """Gives every consumer of a shared initializer its own copy (same values).

    torch.onnx.export stores equal constants once: the zero Conv biases of an untrained
    torchvision model (BatchNorm folded) become one initializer read by many Convs.
    aidge-quantization 0.10.1 then inserts one `<initializer>_ProducerScaling_CastOut`
    per consumer under the same name, and `prepare_export` stops at "No node named
    ..._CastOut in graph" (export_utils.set_nodes_names renames a node the graph holds
    twice). The values and the graph's function are unchanged."""
    import onnx
    m = onnx.load(path)
    inits = {i.name: i for i in m.graph.initializer}
    seen = {}
    for node in m.graph.node:
        for k, name in enumerate(node.input):
            if name not in inits:
                continue
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                copy = onnx.TensorProto()
                copy.CopyFrom(inits[name])
                copy.name = f"{name}_use{seen[name]}"
                m.graph.initializer.append(copy)
                node.input[k] = copy.name
    onnx.save(m, path)
    return sum(v - 1 for v in seen.values())


def fold_constant_identities(path):
    """Makes each consumer of `Identity(initializer)` read the initializer; returns how
    many Identity nodes were removed.

    torch.onnx.export hands some Conv biases over through an Identity (MnasNet,
    GoogLeNet). aidge-quantization 0.10.1 then takes the Identity's output for an
    activation and gives that bias int8 (39 of MnasNet-0.5's 53 Convs), not int32: the
    biases are cut to int8 steps, and aidge_backend_cpu, the reference, has no Conv
    with an int8 bias. An Identity copies its input: the function is unchanged."""
    import onnx
    m = onnx.load(path)
    inits = {i.name for i in m.graph.initializer}
    outputs = {o.name for o in m.graph.output}
    alias = {n.output[0]: n.input[0] for n in m.graph.node
             if n.op_type == "Identity" and n.input[0] in inits and n.output[0] not in outputs}
    if not alias:
        return 0
    keep = [n for n in m.graph.node if not (n.op_type == "Identity" and n.output[0] in alias)]
    for node in keep:
        for k, name in enumerate(node.input):
            if name in alias:
                node.input[k] = alias[name]
    del m.graph.node[:]
    m.graph.node.extend(keep)
    onnx.save(m, path)
    return len(alias)


def reducemean_as_global_pool(path):
    """Makes a ReduceMean over H and W (axes {2, 3}, keepdims 0) whose every consumer
    is a Gemm a GlobalAveragePool; returns how many were changed.

    aidge-quantization 0.10.1 refuses a graph holding a ReduceMean ("GraphView can't
    be quantized : node type ReduceMean is not supported !", logged, and the graph is
    returned unquantized: MnasNet's head `x.mean([2, 3])`). GlobalAveragePool takes the
    same means; it keeps the two unit dimensions, which Aidge's FC flattens, as it
    flattens any input: the function is unchanged."""
    import onnx
    m = onnx.load(path)
    consumers = {}
    for node in m.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node.op_type)
    n = 0
    for node in m.graph.node:
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        if (node.op_type == "ReduceMean" and len(node.input) == 1
                and list(attrs.get("axes", [])) == [2, 3] and attrs.get("keepdims") == 0
                and consumers.get(node.output[0]) and all(
                    c == "Gemm" for c in consumers[node.output[0]])):
            node.op_type = "GlobalAveragePool"
            del node.attribute[:]
            n += 1
    if n:
        onnx.save(m, path)
    return n


def relu6_as_relu_difference(path):
    """Rewrites each ReLU6 (`Clip(x, 0, 6)`) as `ReLU(x) - ReLU(x - 6)`; returns how many.

    aidge-quantization 0.10.1 refuses Clip ("node type Clip is not supported",
    `quantizability_report`: "[?] Clip"), and Aidge has no ReLU6 operator; ReLU and Sub
    it quantizes. The two are equal for every x (x < 0: 0 - 0; 0 ≤ x ≤ 6: x - 0;
    x > 6: x - (x - 6)), so the float model computes the same. MobileNet-v2 then
    quantizes and exports, but its build stops: the constant 6 is quantized to int32,
    the activation to int8, and export-cpp's `elemwise_forward` takes one input type
    (docs/benchmarks.md); kept as the reproducer of that."""
    import onnx
    from onnx import helper, numpy_helper
    m = onnx.load(path)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    for node in m.graph.node:  # torch.onnx.export gives the bounds as Constant nodes
        if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            inits[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)

    def bound(node, k):
        if len(node.input) > k and node.input[k] in inits:
            return float(inits[node.input[k]])
        return None

    nodes, n = [], 0
    for node in m.graph.node:
        if node.op_type == "Clip" and bound(node, 1) == 0.0 and bound(node, 2) == 6.0:
            n += 1
            x, y = node.input[0], node.output[0]
            nodes += [helper.make_node("Relu", [x], [f"{y}_relu"]),
                      helper.make_node("Sub", [x, "relu6_six"], [f"{y}_minus6"]),
                      helper.make_node("Relu", [f"{y}_minus6"], [f"{y}_relu_minus6"]),
                      helper.make_node("Sub", [f"{y}_relu", f"{y}_relu_minus6"], [y])]
        else:
            nodes.append(node)
    if n:
        m.graph.initializer.append(numpy_helper.from_array(np.array(6.0, np.float32), "relu6_six"))
        del m.graph.node[:]
        m.graph.node.extend(nodes)
        onnx.save(m, path)
    return n


def torchvision_onnx(name, size, path):
    """torchvision's `NAME(weights=None)` (its own seeded random initialisation, no
    download) exported to ONNX at `size`, by the torch venv named in $TORCH_PYTHON
    (torch 2.5.1, torchvision 0.20.1: scripts/cortexm/torchvision_onnx.py)."""
    import os
    py = os.environ.get("TORCH_PYTHON")
    if not py:
        raise RuntimeError("torchvision:NAME needs TORCH_PYTHON=<python of a venv with torch>")
    subprocess.run([py, str(pathlib.Path(__file__).with_name("torchvision_onnx.py")), name,
                    str(size), str(path)], check=True, capture_output=True)


def quantized_graph(onnx_path, size):
    """The model quantized to int8 as `aidge_core.export_utils.export` does it for
    `dtype="int8"` (its steps, in its order): meta-operators expanded, `quantize_graph`
    (aidge-quantization PTQ) on 4 seeded random calibration inputs in [-1, 1], the
    graph inputs set to int8 and `remove_concat_quantizers` (its two "[HOTFIX]"es),
    then `int8_concat` for a Concat the hotfix leaves int32."""
    import aidge_core
    import exportcpp_diff as E
    from aidge_core.export_utils.export_utils import remove_concat_quantizers
    X = importlib.import_module("aidge_core.export_utils.export")
    g = E.load_graph(onnx_path)
    g.set_backend("cpu")
    g.set_datatype(aidge_core.dtype.float32)
    g.forward_dims([[1, 3, size, size]], True)
    rng = np.random.default_rng(0)
    calib = [aidge_core.Tensor(rng.uniform(-1, 1, (1, 3, size, size)).astype(np.float32))
             for _ in range(4)]
    aidge_core.expand_metaops(g, name_format="{0}_{1}_{2}")
    with contextlib.redirect_stdout(io.StringIO()):
        X.quantize_graph(g, calib)
    # aidge-quantization refuses a graph by logging an error and returning it as it
    # was ("node type ReduceMean is not supported"): the export would then be float32
    if not any(n.type() == "Quantizer" for n in g.get_nodes()):
        raise RuntimeError("aidge-quantization left the graph unquantized (no Quantizer "
                           "node): it refuses one of its node types, see its log")
    for node, index in g.get_ordered_inputs():
        tensor = node.get_operator().get_input(index)
        if tensor is not None:
            tensor.to_dtype(aidge_core.dtype.int8)
    remove_concat_quantizers(g)
    int8_concat(g)
    g.set_backend("cpu")
    return g


def quantized_input(x):
    """`x` as the int8 flow feeds it (`quantize_inputs`: round(x · 127) as int8)."""
    import aidge_core
    X = importlib.import_module("aidge_core.export_utils.export")
    return X.quantize_inputs([aidge_core.Tensor(x)], "int8")[0]


def reference(graph, xq):
    """The quantized graph run by aidge_backend_cpu on the int8 input `xq` (a clone,
    before the export adapts the graph to the target): its outputs, in order."""
    import aidge_core
    X = importlib.import_module("aidge_core.export_utils.export")
    ref = graph.clone()
    inp = xq.clone()
    X._bind_input(ref, inp)
    # A Pad (of an expanded padded conv) reading the int8 input keeps the float32
    # output the float graph gave it, and the CPU backend has no int8→float32 Pad:
    # a Pad copies values, so its output takes its input's type.
    for node in ref.get_nodes():
        op = node.get_operator()
        if node.type() == "Pad" and op.get_input(0) is not None:
            op.get_output(0).set_datatype(op.get_input(0).dtype)
    scheduler = aidge_core.SequentialScheduler(ref)
    scheduler.generate_scheduling()
    scheduler.forward(True, [inp])
    return [np.array(n.get_operator().get_output(i)) for n, i in ref.get_ordered_outputs()]


def int8_concat(graph):
    """Gives a Concat of int8 inputs an int8 output; returns how many were changed.

    aidge-quantization 0.10.1 leaves a Concat's output int32 (a `Quantizer` rescales it
    to int8 next) while its inputs are int8; export-cpp's Concat kernel takes one
    element type for inputs and output (`const int32_t* X_inputs[] = { int8 outputs }`)
    and the export does not compile. Concatenating copies values, so int8 holds them
    exactly; the `Quantizer` after it reads int8 as it reads the other int8 tensors.
    (Aidge's own `remove_concat_quantizers` does this for a Concat followed by a
    Quantizer; this catches any other.)"""
    import aidge_core
    n = 0
    for node in graph.get_nodes():
        op = node.get_operator()
        if node.type() != "Concat" or op.get_output(0).dtype != aidge_core.dtype.int32:
            continue
        if all(op.get_input(i).dtype == aidge_core.dtype.int8 for i in range(node.get_nb_inputs())):
            op.get_output(0).set_datatype(aidge_core.dtype.int8)
            n += 1
    return n


def export(graph, xq, folder):
    import aidge_export_arm_cortexm  # noqa: F401  (registers the Cortex-M kernels)
    from aidge_core.export_utils.config import ExportConfig
    X = importlib.import_module("aidge_core.export_utils.export")
    cfg = ExportConfig(target="stm32h743", export_folder=str(folder), dtype="int8",
                       dformat="nchw", compile=False)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(folder.parent):
        ctx = X.prepare_export(graph, cfg, input_tensors=[xq])
        X.write_export(ctx)
    forward = (folder / "dnn" / "src" / "forward.cpp").read_text()
    return {m: int(v) for m, v in re.findall(r"static unsigned char (mem_\d+)\[(\d+)\];", forward)}


def harness(folder, x):
    """A main() calling model_forward on `x` and printing each output as hex, then the
    same twice with the arenas poisoned first (tests/parity/arena_poison.py)."""
    forward = (folder / "dnn" / "src" / "forward.cpp").read_text()
    sig = re.search(r"void model_forward\s*\((.*?)\)", forward, re.S).group(1)
    params = [p.strip() for p in sig.split(",")]
    macros = {}
    for h in (folder / "dnn" / "include" / "layers").glob("*.h"):
        macros.update(re.findall(r"#define (\w+) (\d+)\s*$", h.read_text(), re.M))
    decl, call, prints, poisoned = [], [], [], []
    for p in params:
        m = re.match(r"(const\s+)?([\w:]+)\s*(\*+)\s*(\w+)", p)
        ctype, stars, name = m.group(2), m.group(3), m.group(4)
        if stars == "*":
            values = (f"{v:.9g}f" for v in x.ravel()) if ctype == "float" else (
                str(int(v)) for v in x.ravel())
            decl.append(f"static const {ctype} {name}[] = {{" + ",".join(values) + "};")
            call.append(name)
        else:
            var = name[:-4] if name.endswith("_ptr") else name
            up = var.upper()
            n = 1
            for k in ("NB_OUTPUTS", "OUT_HEIGHT", "OUT_WIDTH"):
                n *= int(macros.get(f"{up}_{k}", 1))
            decl.append(f"static {ctype}* {var} = nullptr;")
            call.append(f"&{var}")
            prints.append(f'    dump("{var}", (const unsigned char*){var}, {n} * sizeof({ctype}));')
            poisoned.append(f'    memplan_dump(stdout, "{var}", {var}, {n} * sizeof({ctype}));\n')
    forward_call = f"model_forward({', '.join(call)});"
    return ("#include <cstdio>\n#include <cstdint>\n#include \"forward.hpp\"\n" + P.DECLS
            + "\n".join(decl)
            + "\nstatic void dump(const char* name, const unsigned char* p, unsigned n) {\n"
              "    printf(\"%s \", name);\n    for (unsigned i = 0; i < n; ++i) printf(\"%02x\", p[i]);\n"
              "    printf(\"\\n\");\n}\n" + P.dump_function() + "int main() {\n"
            + f"    {forward_call}\n" + "\n".join(prints) + "\n"
            + P.poisoned_calls(forward_call, poisoned, "stdout")
            + "    return 0;\n}\n")


def compile_objects(folder, sources, flags):
    """Object files of `sources`. A parameter file (it includes only its own
    declaration) is compiled once per content, in a cache beside the export folders
    shared by the default and memplan builds: the weights are most of the build time.
    The others (they include the layer headers: the plan) are compiled every time."""
    cache = folder.parent / "objects"
    cache.mkdir(exist_ok=True)
    (folder / "obj").mkdir(exist_ok=True)
    objects = []
    for src in sources:
        if src.parent.name == "parameters":
            obj = cache / f"{hashlib.sha256(src.read_bytes()).hexdigest()[:24]}.o"
            if obj.exists():
                objects.append(str(obj))
                continue
        else:
            obj = folder / "obj" / f"{src.stem}.o"
        r = subprocess.run(CXX + flags + ["-c", str(src), "-o", str(obj) + ".tmp"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"arm-none-eabi-g++ {src}: {r.stderr[-3000:]}")
        pathlib.Path(str(obj) + ".tmp").rename(obj)
        objects.append(str(obj))
    return objects


def build_and_run(folder, x):
    """Builds the export in `folder` (forward.cpp instrumented by arena_poison, the rest
    as generated) and runs it in QEMU; returns (outputs, arena bytes of the ELF, the
    poisoning verdict)."""
    (folder / "harness.cpp").write_text(harness(folder, x))
    src_dir = folder / "dnn" / "src"
    poisoned, traced = P.instrumented_forward((src_dir / "forward.cpp").read_text())
    (src_dir / "memplan_poison.cpp").write_text(poisoned)
    sources = [folder / "harness.cpp", SHIM / "startup.cpp"] + sorted(
        p for p in src_dir.rglob("*.cpp") if p.name != "forward.cpp")
    flags = ["-I", str(folder / "dnn" / "include"), "-I", str(folder / "dnn"), "-I", str(SHIM)]
    objects = compile_objects(folder, sources, flags)
    exe = folder / "fw.elf"
    cmd = CXX + objects + ["--specs=rdimon.specs", "-nostartfiles", "-T", str(SHIM / "link.ld"),
                           "-Wl,--gc-sections", "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"arm-none-eabi-g++ {folder.name}: {r.stderr[-3000:]}")
    run = subprocess.run(["timeout", "600"] + QEMU + [str(exe)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"qemu {folder.name}: exit {run.returncode} {run.stderr[-500:]}")
    nm = subprocess.run(["arm-none-eabi-nm", "-S", "-C", str(exe)], capture_output=True,
                        text=True).stdout
    arena = sum(int(m.group(1), 16) for m in re.finditer(r"\S+ (\S+) [bB] mem_\d+", nm))
    outputs = {}
    for line in run.stdout.splitlines():
        name, _, hexes = line.partition(" ")
        if name.startswith("_"):
            outputs[name] = bytes.fromhex(hexes)
    return outputs, arena, P.verdict(run.stdout, traced)


def run_model(name, size, tmp):
    import onnx
    import exportcpp_diff as E
    from memplan.aidge import check_export
    row = {"model": name}
    onnx_path = tmp / f"{name.replace(':', '_')}.onnx"
    if onnx_path.is_file():
        pass  # kept in --workdir
    elif name.startswith("torchvision:"):
        torchvision_onnx(name[12:], size, onnx_path)
    else:
        E.prepared_onnx(name, onnx_path)
    row["constant_identities_folded"] = fold_constant_identities(onnx_path)
    row["reducemean_as_global_pool"] = reducemean_as_global_pool(onnx_path)
    row["relu6_as_relu_difference"] = relu6_as_relu_difference(onnx_path)
    # last: the edits above may add a shared constant (`relu6_six`)
    row["shared_initializers_copied"] = unshare_initializers(onnx_path)
    if name.startswith("small:"):
        size = onnx.load(onnx_path).graph.input[0].type.tensor_type.shape.dim[2].dim_value
    row["size"] = size
    tag = name.replace(":", "_")
    # Each export in its own process: quantize_graph twice in one process breaks
    # the second graph (aidge_quantization 0.10.1: "No node named ..._CastOut").
    mems = {}
    for mode in ("default", "memplan"):
        forward = tmp / f"{tag}-{mode}" / "dnn" / "src" / "forward.cpp"
        if forward.is_file():  # kept from an earlier run in --workdir: built again only
            mems[mode] = {m: int(v) for m, v in re.findall(
                r"static unsigned char (mem_\d+)\[(\d+)\];", forward.read_text())}
            continue
        r = subprocess.run([sys.executable, __file__, "--stage", mode, "--size", str(size), str(onnx_path),
                            str(tmp / f"{tag}-{mode}")], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{mode} export: {r.stderr.strip().splitlines()[-1][:300]}")
        mems[mode] = json.loads(r.stdout.strip().splitlines()[-1])
    default_mem, ours_mem = mems["default"], mems["memplan"]
    row["default_mem"], row["memplan_mem"] = default_mem, ours_mem
    found = check_export(tmp / f"{tag}-default")
    row["default_findings"] = [f.message for f in found]
    flagged = {f.node for f in found}
    ours_found = check_export(tmp / f"{tag}-memplan")
    row["memplan_findings"] = [f.message for f in ours_found]
    # by kind and node type: the export numbers nodes by their place in Aidge's
    # schedule, which may order parallel branches differently in two exports
    same_findings = E.by_type(ours_found) == E.by_type(found)
    x = np.load(tmp / f"{tag}-default" / "input.npy")  # int8, as the default stage fed it
    d_out, d_arena, d_poison = build_and_run(tmp / f"{tag}-default", x)
    m_out, m_arena, m_poison = build_and_run(tmp / f"{tag}-memplan", x)
    row["default_elf_arena"], row["memplan_elf_arena"] = d_arena, m_arena
    row["poison_default"], row["poison_memplan"] = d_poison, m_poison
    # An output computed from bytes nobody wrote for it (the checker flags the node
    # that read them) depends on the placement: it may differ, and is listed apart.
    # outputs paired by their place in model_forward's signature (names may differ, above)
    differ = sorted(k for (k, d), m in zip(d_out.items(), m_out.values()) if d != m)
    if len(d_out) != len(m_out):
        raise RuntimeError(f"{len(d_out)} outputs in the default build, {len(m_out)} in memplan's")
    row["differ_flagged"] = [k for k in differ if k.rsplit("_output_", 1)[0] in flagged]
    row["differ_unflagged"] = [k for k in differ if k not in row["differ_flagged"]]
    row["identical"] = bool(d_out) and not row["differ_unflagged"]
    row["all_outputs_identical"] = not differ
    row["output_sha256"] = hashlib.sha256(b"".join(d_out[k] for k in sorted(d_out))).hexdigest()[:16]
    first = next(iter(d_out.values()))
    # bit-identical zeros would prove nothing: how many distinct int8 values came out
    row["distinct_output_values"] = len(set(first))
    row["vs_reference"] = versus_reference(first, tmp / f"{tag}-default" / "reference.npz")
    # the same build with the padded strides packed again: does it then agree?
    packed, row["strides_packed"] = packed_copy(tmp / f"{tag}-default")
    p_out, _, p_poison = build_and_run(packed, x)
    row["packed_vs_reference"] = versus_reference(next(iter(p_out.values())),
                                                  tmp / f"{tag}-default" / "reference.npz")
    row["poison_packed"] = p_poison
    # memplan's build, repaired the same way: where the defect makes the default and
    # memplan builds differ (garbage read from wherever a plan put other tensors),
    # both repaired builds must give the reference's outputs
    mpacked, _ = packed_copy(tmp / f"{tag}-memplan")
    mp_out, _, _ = build_and_run(mpacked, x)
    row["memplan_packed_vs_reference"] = versus_reference(
        next(iter(mp_out.values())), tmp / f"{tag}-default" / "reference.npz")
    row["packed_identical"] = next(iter(mp_out.values())) == next(iter(p_out.values()))
    packed_found = check_export(packed)
    row["packed_findings"] = [f.message for f in packed_found]
    fails = []
    # Outputs computed from arena garbage (the poisoned runs say so) differ with any
    # change of placement, Aidge's own too (two exports may schedule parallel branches
    # in another order): then the two builds repaired (`packed_copy`) must agree.
    if not row["identical"] and not (d_poison["outputs_changed"] and row["packed_identical"]):
        fails.append(f"memplan's build computes different outputs: {row['differ_unflagged']}")
    if sum(ours_mem.values()) > sum(default_mem.values()):
        fails.append("memplan's arena is larger")
    if not same_findings:
        fails.append("the checker's findings (kind, node) differ between the builds")
    for mode, poison, fnd in (("default", d_poison, found), ("memplan", m_poison, ours_found),
                              ("strides packed", p_poison, packed_found)):
        fails.extend(f"{mode} build: {p}" for p in P.disagreements(poison, fnd))
    if fails:
        row["fail"] = "; ".join(fails)
    return row


def packed_copy(folder):
    """A copy of the export in `folder` with every padded pixel stride set back to the
    pixel's bytes (`X_MEM_STRIDE` = channels × element size where it was larger than
    that and smaller than the tensor), in every layer header that defines it. The
    kernels then address pixels as the Transposes write them; the plan is unchanged
    (a smaller stride only shrinks what a tensor spans). Used to show that the
    padded strides, and nothing else, make the int8 build disagree with the CPU
    backend."""
    import shutil
    copy = folder.with_name(folder.name + "-packed")
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("obj", "*.elf", "stats"))
    forward = (copy / "dnn" / "src" / "forward.cpp").read_text()
    size = {"float": 4, "int8_t": 1, "uint8_t": 1, "int32_t": 4, "int64_t": 8, "int16_t": 2}
    types = {v: t for t, v in re.findall(r"^\s*([\w:]+)\* (\w+) = \(\1\*\)", forward, re.M)}
    headers = list((copy / "dnn" / "include" / "layers").glob("*.h"))
    macros = {}
    for h in headers:
        macros.update(re.findall(r"#define (\w+) (\d+)\s*$", h.read_text(), re.M))
    new = {}
    for var, ctype in types.items():
        pre = var.upper()
        try:
            pixel = int(macros[f"{pre}_NB_OUTPUTS"]) * size[ctype]
            pixels = int(macros[f"{pre}_OUT_HEIGHT"]) * int(macros[f"{pre}_OUT_WIDTH"])
            stride = int(macros[f"{pre}_MEM_STRIDE"])
        except KeyError:
            continue
        if pixel < stride < pixel * pixels:
            new[f"{pre}_MEM_STRIDE"] = pixel
    for h in headers:
        text = h.read_text()
        fixed = re.sub(r"^#define (\w+_MEM_STRIDE) (\d+)\s*$",
                       lambda m: f"#define {m.group(1)} {new.get(m.group(1), m.group(2))}",
                       text, flags=re.M)
        if fixed != text:
            h.write_text(fixed)
    return copy, len(new)


def flagged_cell(names):
    """Outputs of flagged nodes that differ, as a table cell."""
    if len(names) <= 3:
        return ", ".join(f"`{k}` (flagged)" for k in names)
    return f"{len(names)} outputs of flagged nodes"


def reference_cell(v):
    """A comparison with the CPU backend as a table cell."""
    if "error" in v and "registrar key" in v["error"]:
        return "not measurable: aidge_backend_cpu has no kernel for one of its nodes"
    if "error" in v:
        return v["error"]
    if v["equal"] == v["values"]:
        return f"bit-identical ({v['values']:,} values)"
    return f"{v['equal']:,} of {v['values']:,} equal, max diff {v['max_abs_diff']}"


def versus_reference(output, path):
    """The model output of a build (int8 bytes, NCHW as `dformat="nchw"` gives it)
    against aidge_backend_cpu's output of the same size in `path`: how many values
    equal, the largest difference in int8 steps."""
    if not path.exists():
        why = path.with_name("reference-error.txt").read_text().strip()
        return {"error": f"aidge_backend_cpu cannot run the quantized graph: {why}"}
    got = np.frombuffer(output, dtype=np.int8).astype(np.int32)
    refs = [a for a in np.load(path).values() if a.size == got.size]
    if not refs:
        return {"error": f"no reference output has {got.size} values"}
    want = refs[0].ravel().astype(np.int32)
    return {"values": int(got.size), "equal": int(np.sum(got == want)),
            "max_abs_diff": int(np.max(np.abs(got - want))),
            "reference_distinct": int(len(set(want.tolist())))}


def stage(mode, onnx_path, size, folder):
    """One export (mode "default" or "memplan") of the quantized model `onnx_path` into
    `folder`; prints its arenas as JSON. The default stage also writes the int8 input
    (`input.npy`) and aidge_backend_cpu's outputs of the quantized graph
    (`reference.npz`) into the folder."""
    from memplan.aidge import patch_export
    folder = pathlib.Path(folder)
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
    graph = quantized_graph(onnx_path, size)
    xq = quantized_input(x)
    if mode == "memplan":
        with patch_export(strategy="best", check=False):
            mem = export(graph, xq, folder)
    else:
        try:
            ref, why = reference(graph, xq), None
        except RuntimeError as e:  # a kernel aidge_backend_cpu does not have
            ref, why = None, str(e).splitlines()[0][:300]
        mem = export(graph, xq, folder)
        np.save(folder / "input.npy", np.array(xq))
        if ref is not None:
            np.savez(folder / "reference.npz", *ref)
        else:
            (folder / "reference-error.txt").write_text(why + "\n")
    print(json.dumps(mem))


def markdown(rows):
    """Prints the rows as the Markdown table of docs/benchmarks.md."""
    print("| model | input | default `mem_0` (B) | memplan `mem_0` (B) | outputs (QEMU, M7) |"
          " output SHA-256 | distinct output values | default build vs aidge_backend_cpu |"
          " same build, strides packed, vs aidge_backend_cpu | export checker |"
          " outputs independent of arena garbage (default; memplan) |")
    print("|---|---|---:|---:|---|---|---:|---|---|---|---|")
    for r in rows:
        if "default_mem" not in r or "default_findings" not in r:  # failed before the end
            print(f"| {r['model']} | | | | {r['fail'][:120]} | | | | | | |")
            continue
        fnd = r["default_findings"]
        print(f"| {r['model']} | {r['size']}×{r['size']} | {r['default_mem'].get('mem_0', 0):,} |"
              f" {r['memplan_mem'].get('mem_0', 0):,} |"
              f" {'bit-identical' if r['all_outputs_identical'] else ('identical but for ' + flagged_cell(r['differ_flagged'])) if r['identical'] else 'differ (both read arena garbage); strides packed: bit-identical' if r.get('packed_identical') else 'DIFFERENT'} | `{r['output_sha256']}` |"
              f" {r['distinct_output_values']} | {reference_cell(r['vs_reference'])} |"
              f" {reference_cell(r['packed_vs_reference'])} ({r['strides_packed']} strides) |"
              f" {'clean' if not fnd else f'{len(fnd)} findings'} (memplan build: "
              f"{'clean' if not r['memplan_findings'] else len(r['memplan_findings'])};"
              f" packed: {len(r['packed_findings']) or 'clean'}) |"
              f" {P.cell(r['poison_default'])}; {P.cell(r['poison_memplan'])} |")


def render(path):
    """docs/benchmarks.md's table from the recorded rows (one JSON line per model, the
    last line of each model wins), without exporting or building anything."""
    rows = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            for build in ("default", "memplan", "packed"):  # the record's name for them
                if f"checker_{build}" in row:
                    row.setdefault(f"{build}_findings", row[f"checker_{build}"])
            rows[row["model"]] = row
    markdown(list(rows.values()))
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--render":
        return render(argv[2] if len(argv) > 2 else pathlib.Path(__file__).with_name("results.jsonl"))
    if len(argv) > 1 and argv[1] == "--stage":
        import aidge_core
        aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
        stage(argv[2], argv[5], int(argv[4]), argv[6])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*",
                    default=["resnet18", "squeezenet1_1", "torchvision:mnasnet0_5",
                             "torchvision:googlenet"])
    ap.add_argument("--size", type=int, default=32)
    ap.add_argument("--workdir", help="keep the exports and builds here (default: a temporary folder)")
    a = ap.parse_args(argv[1:])
    import aidge_core
    aidge_core.Log.set_console_level(aidge_core.Level.Error)
    rows = []
    with (contextlib.nullcontext(a.workdir) if a.workdir else tempfile.TemporaryDirectory()) as tmp:
        tmp = pathlib.Path(tmp)
        tmp.mkdir(parents=True, exist_ok=True)
        for name in a.models:
            try:
                row = run_model(name, a.size, tmp)
            except Exception as e:  # one model's crash is that model's failure
                row = {"model": name, "fail": f"{type(e).__name__}: {e}"}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print()
    markdown(rows)
    failed = sum(1 for r in rows if "fail" in r)
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
