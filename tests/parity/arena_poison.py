"""Do an export's outputs depend on arena garbage? Run it twice and find out.

An execution check, independent of the export memory checker (src/export_check): the
generated `model_forward` is run twice on the same input, with the fill value 0xA5 in
one run and 0x5A in the other (they differ in every bit: no garbage byte reads alike
in both runs), filled

- into every byte of the arenas (`mem_0`, `mem_1`...) before the call: a kernel that
  reads bytes no kernel wrote in this call reads the fill value;
- into each output's bytes right before the kernel that produces it (the pointers the
  export declares before each kernel call, MaxPool's never-passed index output
  included), except the bytes of that kernel's own inputs (in-place and wrap-around
  planes): a kernel reading bytes of its input that the producer did not write finds
  the fill value there, not stale bytes of an older tensor (which are the same in both
  runs, and would hide the defect).

A kernel that reads only bytes its producers wrote computes the same outputs in both
runs; an output that differs was computed from bytes nobody wrote for it.

An output's bytes are its `NB_OUTPUTS × sizeof(T)` channels for each of its
`OUT_HEIGHT × OUT_WIDTH` pixels, `MEM_STRIDE` bytes apart when that stride is larger
than the channels and smaller than the tensor (the padded pixels of the int8 Cortex-M
export), else packed; an output on a wrap-around plane is not filled (its first bytes
may be its input's). To say which layer first reads garbage, each kernel's output is
hashed right after the kernel (where the export's own `-DSAVE_OUTPUTS` dump is): its
elements as that kernel lays them out — pixel `p`'s channels at `p × MEM_STRIDE` for
the kernels that address pixels (convolution, pooling, fully-connected, resize), packed
for the others; only the localisation uses that rule, the verdict on the outputs does not.

The export is not edited: `instrumented_forward` writes a second source next to it
(`memplan_poison.cpp`: forward.cpp's text with the fills added before each kernel, the
dumps replaced by the hashes, plus `memplan_fill_arena`), compiled instead of
forward.cpp; the harness main runs `model_forward` once as generated (arenas as the
program starts), then the two poisoned runs. Used by tests/parity/exportcpp_diff.py
(host builds) and scripts/cortexm/run.py (QEMU builds).
"""

import re

FILL = (0xA5, 0x5A)
PIXEL_KERNELS = ("convolution", "pooling", "fullyconnected", "resize")
SAVE_BLOCK = re.compile(r"[ \t]*#ifdef SAVE_OUTPUTS\n(.*?)#endif\n", re.S)
SAVED = re.compile(r"saveOutputs<(\w+)_NB_OUTPUTS,.*?>\s*\(\s*(\w+),", re.S)
KERNEL = re.compile(r"export_cpp::(\w+)\s*<")
KERNEL_CALL = re.compile(r"^[ \t]*export_cpp::(\w+)\s*<[^;]*;", re.M)
POINTER = re.compile(r"^\s*([\w:]+)\* (\w+) = \(\1\*\) \((mem_\d+) \+", re.M)
WORD = re.compile(r"\b\w+\b")

HELPERS = r"""
#include <cstdio>
#include <cstring>
// memplan arena poisoning (tests/parity/arena_poison.py): not part of the export
FILE* memplan_trace_file = nullptr;
int memplan_trace_run = 0;
static unsigned char memplan_fill_value = 0;
static void memplan_trace(const char* name, const unsigned char* p, size_t pixels,
                          size_t pixel_bytes, size_t stride, size_t cont_size,
                          size_t wrap_jump) {
    if (!memplan_trace_file) return;
    unsigned long long h = 1469598103934665603ULL;  // FNV-1a, 64 bits
    for (size_t px = 0; px < pixels; ++px) {
        for (size_t b = 0; b < pixel_bytes; ++b) {
            size_t off = px * stride + b;
            if (cont_size > 0 && wrap_jump > 0 && off >= cont_size) off += wrap_jump;
            h = (h ^ p[off]) * 1099511628211ULL;
        }
    }
    fprintf(memplan_trace_file, "trace%d %s %016llx\n", memplan_trace_run, name, h);
}
// The bytes of an output: its pixels `stride` apart when the stride pads them.
static size_t memplan_bytes(size_t pixel_bytes, size_t pixels, size_t stride) {
    size_t packed = pixel_bytes * pixels;
    return (stride > pixel_bytes && stride < packed) ? stride * pixels : packed;
}
struct memplan_region { const unsigned char* p; size_t n; };
// Fills an output's bytes (clipped to its arena) but those of the kernel's inputs.
static void memplan_fill_output(const unsigned char* arena, size_t arena_size,
                                const void* out, size_t n, size_t wrap_size,
                                const memplan_region* inputs, size_t nb_inputs) {
    if (!memplan_trace_file || wrap_size > 0) return;
    unsigned char* p = (unsigned char*) out;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* q = p + i;
        if (q < arena || q >= arena + arena_size) continue;
        bool input = false;
        for (size_t k = 0; k < nb_inputs; ++k)
            if (q >= inputs[k].p && q < inputs[k].p + inputs[k].n) input = true;
        if (!input) *q = memplan_fill_value;
    }
}
"""


def _bytes(var, ctype):
    """C expression: the bytes of output `var` (see memplan_bytes)."""
    pre = var.upper()
    return (f"memplan_bytes({pre}_NB_OUTPUTS * sizeof({ctype}), "
            f"{pre}_OUT_HEIGHT * {pre}_OUT_WIDTH, {pre}_MEM_STRIDE)")


def instrumented_forward(forward_text):
    """forward.cpp's text with the per-output fills before each kernel call, each
    `#ifdef SAVE_OUTPUTS` dump replaced by a hash of that output (`memplan_trace`), and
    a `memplan_fill_arena(v)` appended that sets every byte of every arena to `v` (and
    `v` as the value of the per-output fills). Returns (source, traced output names)."""
    pointers = {v: (t, m) for t, v, m in POINTER.findall(forward_text)}
    traced = []

    def trace(m):
        saved = SAVED.search(m.group(1))
        if saved is None:
            return ""
        prefix, var = saved.groups()
        kernels = KERNEL.findall(m.string[:m.start()])
        pixel = bool(kernels) and kernels[-1].startswith(PIXEL_KERNELS)
        ctype = pointers.get(var, ("float",))[0]
        elt = f"{prefix}_NB_OUTPUTS * sizeof({ctype})"
        pixels = f"{prefix}_OUT_HEIGHT * {prefix}_OUT_WIDTH"
        # packed writers: one "pixel" holding every element
        geometry = (f"{pixels}, {elt}, {prefix}_MEM_STRIDE" if pixel
                    else f"1, {pixels} * {elt}, 0")
        wrap = (f"{prefix}_MEM_CONT_SIZE, ({prefix}_MEM_WRAP_SIZE > 0 ? "
                f"{prefix}_MEM_WRAP_OFFSET - {prefix}_MEM_CONT_OFFSET - {prefix}_MEM_CONT_SIZE : 0)")
        traced.append(var)
        return (f"    memplan_trace(\"{var}\", (const unsigned char*) {var}, {geometry}, {wrap});\n")

    # fills before each kernel call: its outputs are the pointers declared since the
    # previous call, its inputs the earlier pointers named since then
    pieces, last, declared = [], 0, []
    for call in KERNEL_CALL.finditer(forward_text):
        before = forward_text[last:call.start()]
        outs = [v for v in pointers if re.search(rf"\b{v}\s*=\s*\(", before)]
        args = set(WORD.findall(before + call.group(0)))  # (a Concat gets an array)
        ins = [v for v in declared if v in args and v not in outs]
        fills = []
        if outs:
            regions = ", ".join(f"{{(const unsigned char*) {v}, {_bytes(v, pointers[v][0])}}}"
                                for v in ins)
            fills.append(f"    {{ const memplan_region memplan_in[] = {{ {regions or '{nullptr, 0}'} }};\n")
            for v in outs:
                ctype, arena = pointers[v]
                fills.append(f"      memplan_fill_output({arena}, sizeof({arena}), {v}, "
                             f"{_bytes(v, ctype)}, {v.upper()}_MEM_WRAP_SIZE, memplan_in, "
                             f"{len(ins)}); }}\n" if v == outs[-1] else
                             f"      memplan_fill_output({arena}, sizeof({arena}), {v}, "
                             f"{_bytes(v, ctype)}, {v.upper()}_MEM_WRAP_SIZE, memplan_in, "
                             f"{len(ins)});\n")
        declared.extend(outs)
        pieces.append(before)
        pieces.append("".join(fills))
        pieces.append(call.group(0))
        last = call.end()
    pieces.append(forward_text[last:])
    body = SAVE_BLOCK.sub(trace, "".join(pieces))
    arenas = re.findall(r"static unsigned char (mem_\d+)\[(\d+)\];", forward_text)
    fill = "".join(f"    memset({m}, v, {n});\n" for m, n in arenas if int(n) > 0)
    first_include = body.find("#include")
    body = body[:first_include] + HELPERS + body[first_include:]
    return (body + "\nvoid memplan_fill_arena(unsigned char v)\n{\n    memplan_fill_value = v;\n"
            + fill + "}\n", traced)


DECLS = ('extern FILE* memplan_trace_file;\nextern int memplan_trace_run;\n'
         'void memplan_fill_arena(unsigned char v);\n')


def poisoned_calls(call, dumps, sink):
    """C++ statements for a harness main: for each fill value, fill the arenas, run
    `call` (the `model_forward(...)` statement) with the per-layer hashes on, then the
    `dumps` statements, which print the outputs as `poison<k> NAME HEX` lines to `sink`
    (a `FILE*` expression); `k` is in `memplan_trace_run`."""
    out = [f"    memplan_trace_file = {sink};\n"]
    for k, v in enumerate(FILL, 1):
        out.append(f"    memplan_trace_run = {k};\n    memplan_fill_arena(0x{v:02X});\n"
                   f"    {call.strip().rstrip(';')};\n")
        out.extend(dumps)
    out.append("    memplan_trace_file = nullptr;\n")
    return "".join(out)


def dump_function(name="memplan_dump"):
    """A C++ function printing `poison<run> NAME HEX` for one output."""
    return (f"static void {name}(FILE* f, const char* name, const void* p, unsigned n) {{\n"
            "    const unsigned char* b = (const unsigned char*) p;\n"
            "    fprintf(f, \"poison%d %s \", memplan_trace_run, name);\n"
            "    for (unsigned i = 0; i < n; ++i) fprintf(f, \"%02x\", b[i]);\n"
            "    fprintf(f, \"\\n\");\n}\n")


def verdict(text, traced):
    """What two poisoned runs printed, compared: a dict with `independent` (every output
    the same in both runs), `outputs_changed` (names), `layers_changed` (traced outputs
    whose hash differs, in execution order) and `first_layer` (the first of those)."""
    runs = {1: {}, 2: {}}
    traces = {1: {}, 2: {}}
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) != 3:
            continue
        tag, name, value = parts
        if tag.startswith("poison") and tag[6:].isdigit():
            runs[int(tag[6:])][name] = value
        elif tag.startswith("trace") and tag[5:].isdigit():
            traces[int(tag[5:])][name] = value
    if not runs[1] or runs[1].keys() != runs[2].keys():
        raise RuntimeError(f"poisoned runs printed {len(runs[1])} and {len(runs[2])} outputs")
    changed = [n for n in runs[1] if runs[1][n] != runs[2][n]]
    layers = [n for n in traced if traces[1].get(n) != traces[2].get(n)]
    return {"independent": not changed, "outputs": list(runs[1]), "outputs_changed": changed,
            "layers_changed": layers, "first_layer": layers[0] if layers else None,
            "layers_traced": len(traced)}


def node_of(output):
    """`_4_PadMaxPool_0` for `_4_PadMaxPool_0_output_1`."""
    return output.rsplit("_output_", 1)[0]


def disagreements(poison, findings, only_flagged_outputs=False):
    """Where the poisoned runs and the export checker's `findings` disagree, as
    sentences: outputs that depend on arena garbage although the checker is clean;
    a first layer holding garbage that the checker neither flags nor names; and with
    `only_flagged_outputs`, any changed output not computed by a flagged node (for
    exports where a flagged defect must stay in the outputs that carry it), and a model
    output computed by a node the checker says reads unwritten bytes that the poisoned
    runs compute alike (the finding not confirmed by running the program)."""
    flagged = {f.node for f in findings}
    out = []
    if poison["outputs_changed"] and not findings:
        out.append(f"outputs {poison['outputs_changed']} depend on arena garbage, "
                   "the checker is clean")
    first = poison["first_layer"]
    # the first output holding garbage: its node reads some (flagged), or its kernel
    # wrote less of it than declared (the checker names it as the producer a reader
    # finds unwritten bytes in)
    if first and node_of(first) not in flagged and not any(
            f"`{first}`" in f.message for f in findings):
        out.append(f"`{first}` is the first output computed from arena garbage, the checker "
                   "neither flags its node nor names it")
    if only_flagged_outputs:
        stray = [o for o in poison["outputs_changed"] if node_of(o) not in flagged]
        if stray:
            out.append(f"outputs {stray} depend on arena garbage, their nodes are not flagged")
    unconfirmed = [o for o in poison["outputs"] if o not in poison["outputs_changed"]
                   and any(f.kind == "unwritten" and f.node == node_of(o) for f in findings)]
    if unconfirmed:
        out.append(f"the checker says {unconfirmed} are computed from unwritten bytes, "
                   "the poisoned runs compute them alike")
    return out


def cell(poison):
    """The verdict as a table cell."""
    if poison["independent"] and not poison["layers_changed"]:
        return "yes"
    changed = poison["outputs_changed"]
    names = (", ".join(f"`{o}`" for o in changed) if len(changed) <= 3
             else f"{len(changed)} of {len(poison['outputs'])} outputs" if "outputs" in poison
             else f"{len(changed)} outputs")  # a record that kept only the changed ones
    if not changed:
        return (f"outputs yes, but {len(poison['layers_changed'])} of "
                f"{poison['layers_traced']} layer outputs change, first `{poison['first_layer']}`")
    return f"no: {names} change, first layer `{poison['first_layer']}`"
