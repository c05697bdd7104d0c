"""memplan.show (the notebook widget's Python side, issue #34) against the core and Aidge.

1. Every input ``show`` takes (a path, bytes with a name, a memplan JSON document as a
   dict or as text, an ONNX model, a ``.tflite``) becomes a widget whose state holds a
   file the page's wasm opens, and whose static form (what nbconvert's HTML shows) has
   the core's peak (``_native.plan``) and the SVG ``memplan render`` draws, with ids of
   its own; ``strategy`` re-plans it, ``compare=`` adds the second plan.
2. ``show(scheduler)`` and ``memplan.aidge.log_info(scheduler)`` of real aidge_core
   0.10.1 schedulers show Aidge's own plan: the peak ``generate_optimized_memory_info``
   returns, names on for ``log_info`` (what Aidge's ``log_meminfo`` plots).
3. Bad input is refused with the core's message (``ValueError``) or a ``TypeError``.
4. The widget's module is the built one (``memplan/static/widget.mjs``) and carries the
   whole crate's wasm inline (gzip, base64): the notebook page needs no request.

The browser side (the widget in a real JupyterLab) is tests/e2e/notebook.test.mjs.
Run: .venv/bin/python tests/parity/run.py notebook
"""

import base64
import gzip
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import aidge_cases  # noqa: E402
from aidge_core.mem_info import generate_optimized_memory_info  # noqa: E402

import memplan  # noqa: E402
from memplan import _native  # noqa: E402
from memplan.aidge import log_info  # noqa: E402

RESNET = ROOT / "tests/data/aidge/resnet18-multi-None.json"
RESNET_LOG = ROOT / "tests/data/bench/aidge/resnet18-multi-None/memory_info.txt"
ONNX = ROOT / "tests/data/onnx/param_readers.onnx"
TFLITE = ROOT / "tests/data/tflm/dag21.tflite"


def caption_peak(html):
    """The peak the static form states (`peak 4,014,080 B`), as an int."""
    m = re.search(r": peak ([\d,]+) B", html)
    return int(m.group(1).replace(",", "")) if m else None


def core_peak(name, data, strategy="as-loaded"):
    return int(json.loads(_native.plan(data, name, strategy, 300)[1])["peak"])


def main():
    problems = []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    # 1. Each input kind.
    text = RESNET.read_text()
    log = RESNET_LOG.read_bytes()
    cases = [
        ("path", RESNET, "resnet18-multi-None.json", RESNET.read_bytes()),
        ("bytes + name", log, "memory_info.txt", log),
        ("dict", json.loads(text), "plan.memplan.json", None),
        ("JSON text", text, "plan.memplan.json", text.encode()),
        (".tflite", str(TFLITE), "dag21.tflite", TFLITE.read_bytes()),
    ]
    for what, x, name, data in cases:
        kwargs = {"name": "memory_info.txt"} if what == "bytes + name" else {}
        w = memplan.show(x, **kwargs)
        expect(w.name == name, f"{what}: name {w.name!r}, expected {name!r}")
        if data is not None:
            expect(w.data == data, f"{what}: the widget's data is not the file's bytes")
        want = core_peak(w.name, w.data)
        got = caption_peak(w._fallback)
        expect(got == want, f"{what}: static form says peak {got}, the core {want}")
        bundle, _ = w._repr_mimebundle_()
        expect("application/vnd.jupyter.widget-view+json" in bundle, f"{what}: no widget view")
        expect(bundle.get("text/html") == w._fallback and "<svg" in w._fallback,
               f"{what}: the static form is not the output's text/html")
    # ONNX: the page's ONNX reader is a module the widget leaves out, so the model goes
    # to the widget as its schedule document (made by the core); same plan.
    w = memplan.show(ONNX)
    doc = json.loads(w.data)
    expect(doc.get("format") == "memplan" and "schedule" in doc, "onnx: not a memplan schedule")
    want = core_peak("param_readers.onnx", ONNX.read_bytes())
    expect(caption_peak(w._fallback) == want,
           f"onnx: static peak {caption_peak(w._fallback)}, the core {want}")
    expect(core_peak(w.name, w.data) == want, "onnx: the converted document plans otherwise")
    # A strategy: the static form is the re-plan's, named so.
    aidge = core_peak(RESNET.name, RESNET.read_bytes())
    w = memplan.show(RESNET, strategy="best")
    best = core_peak(RESNET.name, RESNET.read_bytes(), "best")
    expect(w.strategy == "best", f"strategy {w.strategy}")
    expect("resnet18-multi-None.json · best: peak" in w._fallback, "best: caption")
    expect(caption_peak(w._fallback) is not None and caption_peak(w._fallback) <= aidge,
           f"best {caption_peak(w._fallback)} > as loaded {aidge}")
    expect(best <= aidge, f"core best {best} > {aidge}")
    expect(memplan.show(RESNET, strategy="aidge").strategy == _native.AS_LOADED,
           "the old name aidge is not as-loaded")
    # compare=: both files, two static charts, names kept apart.
    w = memplan.show(RESNET, compare=RESNET_LOG)
    expect(w.compare and w.compare_name == "memory_info.txt" and w.compare_data == log,
           "compare: the second file")
    expect(w._fallback.count("<svg") == 2, "compare: two static charts")
    w = memplan.show(RESNET, compare=RESNET)
    expect(w.compare_name == "resnet18-multi-None.json (2)", f"compare name {w.compare_name}")
    # Ids: each chart's own (a notebook's HTML is one page).
    ids = re.findall(r'\sid="([^"]+)"', w._fallback)
    expect(len(ids) == len(set(ids)), "compare: ids repeat between the two charts")
    expect(all(re.search(rf'url\(#{re.escape(i)}\)|href="#{re.escape(i)}"', w._fallback)
               for i in ids if "clip" in i), "a clip path is not referred to by its new id")
    # Traits from Python.
    w = memplan.show(RESNET, names=True, theme="dark", height=300)
    expect((w.names, w.theme, w.height) == (True, "dark", 300), "traits names/theme/height")

    # 2. Aidge schedulers: Aidge's own plan and peak.
    for case in ("residual", "squeezenet1_1"):
        scheduler = aidge_cases.scheduler(case)
        size, _ = generate_optimized_memory_info(scheduler)
        peak = size[0] if isinstance(size, list) else size
        for how, w in (("show", memplan.show(scheduler)), ("log_info", log_info(scheduler))):
            got = caption_peak(w._fallback)
            expect(got == peak, f"{case}: {how} says peak {got}, Aidge {peak}")
            expect(core_peak(w.name, w.data) == peak, f"{case}: {how}'s document plans otherwise")
            expect(w.names == (how == "log_info"), f"{case}: {how} names {w.names}")
        print(f"   {case}: Aidge's peak {peak:,} B shown by show() and log_info()")

    # 3. Refusals.
    for bad, kwargs, kind, message in (
        (b"\x00\x01garbage", {"name": "x.tflite"}, ValueError, "x.tflite"),
        ('{"format": "memplan"', {}, ValueError, "plan.memplan.json"),
        (RESNET, {"strategy": "fastest"}, ValueError, "expected one of"),
        (RESNET, {"theme": "blue"}, ValueError, "expected auto, light or dark"),
        (3, {}, TypeError, "cannot show a int"),
        (str(ROOT / "no-such-file.json"), {}, FileNotFoundError, "no-such-file"),
    ):
        try:
            memplan.show(bad, **kwargs)
            problems.append(f"{bad!r:.40} {kwargs}: accepted")
        except kind as e:
            expect(message in str(e), f"{bad!r:.40}: {kind.__name__} {e}")

    # 4. The module: the built one, wasm inline.
    w = memplan.show(RESNET)
    esm = w._esm
    expect(esm == (ROOT / "python/memplan/static/widget.mjs").read_text(), "not the built module")
    packed = re.search(r'^const WASM = "([A-Za-z0-9+/=]+)";$', esm, re.M)
    expect(packed is not None, "no inline wasm")
    if packed:
        wasm = gzip.decompress(base64.b64decode(packed.group(1)))
        expect(wasm[:4] == b"\0asm", "the inline wasm is not a wasm module")
    own = esm.split("// ./memplan-widget.js", 1)[-1].split("const WASM", 1)[0]
    expect("fetch(" not in own and "import(" not in own, "the widget's own code makes a request")

    for p in problems:
        print("FAIL", p)
    print(f"notebook: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
