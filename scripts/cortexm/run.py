"""memplan inside aidge-export-arm-cortexm 0.10.1, built for a Cortex-M7 and run in QEMU.

For each CNN (the bench CNNs of tests/data/bench/models at --size, torchvision:NAME —
torchvision 0.20.1's model with its own seeded random initialisation, exported by the
torch venv in $TORCH_PYTHON — or small:NAME from tests/data/export/models.py):

0. the two graph edits Aidge's int8 flow needs on real CNNs (each says why):
   `unshare_initializers` (one copy of a shared initializer per consumer: same values)
   and, after quantization, `int8_concat` (a Concat of int8 inputs outputs int8);
1. int8 post-training quantization with aidge-quantization (`quantize_graph`, the
   export's own path) on 4 seeded random calibration inputs in [-1, 1];
2. default build: `prepare_export` + `write_export` with ExportConfig(target=
   "stm32h743", dtype="int8", dformat="nchw") — Aidge's plan;
3. memplan build: the same under `memplan.aidge.patch_export(strategy="best")`;
4. the export memory checker on both folders;
5. both compiled with Debian's arm-none-eabi-g++ (-mcpu=cortex-m7 -O2, the shims
   of scripts/cortexm/shim: CMSIS intrinsics, start-up, linker script: weights in the
   AN500's 16 MB PSRAM) with a main that prints every model output as hex over
   semihosting, run in `qemu-system-arm -M mps2-an500`; the outputs must be
   bit-identical (but for outputs computed by a node the checker flags: listed apart),
   the arena (`mem_0` in forward.cpp) of memplan's build at most the default one's.

The default build is not compared with a reference: aidge_backend_cpu has no kernel for
the graph as `quantize_graph` leaves it (float input into an int8 Conv), and the checker
shows the int8 export misreads its own transposed input (docs/export-check.md).
The board files (HAL, startup, Makefile) the full Aidge flow downloads are not used:
the export's model code is built with the shims instead (docs/export-check.md).

Outside CI (5-15 minutes per CNN on the shared machine, most of it compiling the
weights). Needs a venv with aidge-core, aidge-backend-cpu, aidge-onnx, aidge-export-cpp,
aidge-export-arm-cortexm, aidge-quantization 0.10.1, onnx and memplan (`pip install -e .`),
`apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm`, and for
torchvision:NAME a second venv with torch 2.5.1 and torchvision 0.20.1.

Usage: TORCH_PYTHON=/path/to/torch-venv/bin/python PYTHONPATH=scripts/cortexm/stub \
       python scripts/cortexm/run.py [--size 32] [--workdir DIR] [MODEL ...]
Prints one JSON line per model and a Markdown table. With --workdir the exports and
builds are kept, and a later run with the same folder builds kept exports again.
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
    import aidge_core
    import exportcpp_diff as E
    X = importlib.import_module("aidge_core.export_utils.export")
    g = E.load_graph(onnx_path)
    g.set_backend("cpu")
    g.set_datatype(aidge_core.dtype.float32)
    g.forward_dims([[1, 3, size, size]], True)
    rng = np.random.default_rng(0)
    calib = [aidge_core.Tensor(rng.uniform(-1, 1, (1, 3, size, size)).astype(np.float32))
             for _ in range(4)]
    with contextlib.redirect_stdout(io.StringIO()):
        X.quantize_graph(g, calib)
    int8_concat(g)
    return g


def int8_concat(graph):
    """Gives a Concat of int8 inputs an int8 output; returns how many were changed.

    aidge-quantization 0.10.1 leaves a Concat's output int32 (a `Quantizer` rescales it
    to int8 next) while its inputs are int8; export-cpp's Concat kernel takes one
    element type for inputs and output (`const int32_t* X_inputs[] = { int8 outputs }`)
    and the export does not compile. Concatenating copies values, so int8 holds them
    exactly; the `Quantizer` after it reads int8 as it reads the other int8 tensors."""
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


def export(graph, x, folder):
    import aidge_core
    import aidge_export_arm_cortexm  # noqa: F401  (registers the Cortex-M kernels)
    from aidge_core.export_utils.config import ExportConfig
    X = importlib.import_module("aidge_core.export_utils.export")
    cfg = ExportConfig(target="stm32h743", export_folder=str(folder), dtype="int8",
                       dformat="nchw", compile=False)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.chdir(folder.parent):
        ctx = X.prepare_export(graph, cfg, input_tensors=[aidge_core.Tensor(x)])
        X.write_export(ctx)
    forward = (folder / "dnn" / "src" / "forward.cpp").read_text()
    return {m: int(v) for m, v in re.findall(r"static unsigned char (mem_\d+)\[(\d+)\];", forward)}


def harness(folder, x):
    """A main() calling model_forward on `x` and printing each output as hex."""
    forward = (folder / "dnn" / "src" / "forward.cpp").read_text()
    sig = re.search(r"void model_forward\s*\((.*?)\)", forward, re.S).group(1)
    params = [p.strip() for p in sig.split(",")]
    macros = {}
    for h in (folder / "dnn" / "include" / "layers").glob("*.h"):
        macros.update(re.findall(r"#define (\w+) (\d+)\s*$", h.read_text(), re.M))
    decl, call, prints = [], [], []
    for p in params:
        m = re.match(r"(const\s+)?([\w:]+)\s*(\*+)\s*(\w+)", p)
        ctype, stars, name = m.group(2), m.group(3), m.group(4)
        if stars == "*":
            decl.append(f"static const {ctype} {name}[] = {{"
                        + ",".join(f"{v:.9g}f" for v in x.ravel()) + "};")
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
    return ("#include <cstdio>\n#include <cstdint>\n#include \"forward.hpp\"\n"
            + "\n".join(decl)
            + "\nstatic void dump(const char* name, const unsigned char* p, unsigned n) {\n"
              "    printf(\"%s \", name);\n    for (unsigned i = 0; i < n; ++i) printf(\"%02x\", p[i]);\n"
              "    printf(\"\\n\");\n}\nint main() {\n"
            + f"    model_forward({', '.join(call)});\n" + "\n".join(prints)
            + "\n    return 0;\n}\n")


def build_and_run(folder, x):
    (folder / "harness.cpp").write_text(harness(folder, x))
    sources = [folder / "harness.cpp", SHIM / "startup.cpp"] + sorted(
        (folder / "dnn" / "src").rglob("*.cpp"))
    exe = folder / "fw.elf"
    cmd = CXX + ["-I", str(folder / "dnn" / "include"), "-I", str(folder / "dnn"),
                 "-I", str(SHIM)] + [str(s) for s in sources] + [
        "--specs=rdimon.specs", "-nostartfiles", "-T", str(SHIM / "link.ld"),
        "-Wl,--gc-sections", "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"arm-none-eabi-g++ {folder.name}: {r.stderr[-3000:]}")
    run = subprocess.run(["timeout", "300"] + QEMU + [str(exe)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"qemu {folder.name}: exit {run.returncode} {run.stderr[-500:]}")
    nm = subprocess.run(["arm-none-eabi-nm", "-S", "-C", str(exe)], capture_output=True,
                        text=True).stdout
    arena = sum(int(m.group(1), 16) for m in re.finditer(r"\S+ (\S+) [bB] mem_\d+", nm))
    outputs = {}
    for line in run.stdout.splitlines():
        name, _, hexes = line.partition(" ")
        outputs[name] = bytes.fromhex(hexes)
    return outputs, arena


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
    row["shared_initializers_copied"] = unshare_initializers(onnx_path)
    if name.startswith("small:"):
        size = onnx.load(onnx_path).graph.input[0].type.tensor_type.shape.dim[2].dim_value
    row["size"] = size
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
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
    d_out, d_arena = build_and_run(tmp / f"{tag}-default", x)
    m_out, m_arena = build_and_run(tmp / f"{tag}-memplan", x)
    row["default_elf_arena"], row["memplan_elf_arena"] = d_arena, m_arena
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
    fails = []
    if not row["identical"]:
        fails.append(f"memplan's build computes different outputs: {row['differ_unflagged']}")
    if sum(ours_mem.values()) > sum(default_mem.values()):
        fails.append("memplan's arena is larger")
    if not same_findings:
        fails.append("the checker's findings (kind, node) differ between the builds")
    if fails:
        row["fail"] = "; ".join(fails)
    return row


def stage(mode, onnx_path, size, folder):
    """One export (mode "default" or "memplan") of the quantized model `onnx_path` into
    `folder`; prints its arenas as JSON."""
    from memplan.aidge import patch_export
    folder = pathlib.Path(folder)
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
    graph = quantized_graph(onnx_path, size)
    if mode == "memplan":
        with patch_export(strategy="best", check=False):
            mem = export(graph, x, folder)
    else:
        mem = export(graph, x, folder)
    print(json.dumps(mem))


def main(argv):
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
    print("\n| model | input | default `mem_0` (B) | memplan `mem_0` (B) | outputs (QEMU, M7) |"
          " output SHA-256 | distinct output values | export checker |")
    print("|---|---|---:|---:|---|---|---:|---|")
    for r in rows:
        if "default_mem" not in r:
            print(f"| {r['model']} | | | | {r['fail'][:120]} | | | |")
            continue
        fnd = r["default_findings"]
        print(f"| {r['model']} | {r['size']}×{r['size']} | {r['default_mem'].get('mem_0', 0):,} |"
              f" {r['memplan_mem'].get('mem_0', 0):,} |"
              f" {'bit-identical' if r['all_outputs_identical'] else ('identical but for ' + ', '.join(f'`{k}` (flagged)' for k in r['differ_flagged'])) if r['identical'] else 'DIFFERENT'} | `{r['output_sha256']}` |"
              f" {r['distinct_output_values']} |"
              f" {'clean' if not fnd else f'{len(fnd)} findings'} (memplan build: "
              f"{'clean' if not r['memplan_findings'] else len(r['memplan_findings'])}) |")
    failed = sum(1 for r in rows if "fail" in r)
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
