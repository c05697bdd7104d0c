"""memplan's Python API against its other faces and its types (issue #28).

1. ``memplan.STRATEGIES`` (with ``STRATEGY_HELP``) lists exactly the strategies
   ``memplan plan --help`` lists, in its order, with the same help;
   ``memplan.EXPORT_FORMATS`` exactly ``memplan convert --help``'s formats, and
   ``memplan.RECIPES``/``DTYPES`` ``--recipes``/``--dtype``'s (the CLI's lists are held
   to the Rust enums by tests/names.rs and tests/recipes.rs); ``memplan.deploy`` gives
   the real export's mem_0 of a model; ``memplan.fit`` what ``memplan fit --json`` gives
   and ``memplan.PRESETS`` the presets ``memplan fit --help`` lists.
2. ``as-loaded`` and its old name ``aidge`` both keep the plan; the report comes back
   as a ``memplan.Report`` with the core's numbers.
3. ``mypy --strict`` passes on the package (``python/memplan``, with ``py.typed`` and
   the stub of ``_native``): a few seconds.

Run: .venv/bin/python tests/parity/run.py python_api
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "memplan"


def possible_values(command, flag):
    """[(name, help)] that `memplan COMMAND --help` lists for FLAG."""
    text = subprocess.run([str(CLI), command, "--help"], capture_output=True, text=True,
                          check=True).stdout
    block = text.split(f"      {flag} <", 1)[1].split("Possible values:", 1)[1]
    out = []
    for line in block.splitlines()[1:]:
        line = line.strip()
        if not line:
            break
        if line.startswith("- "):
            name, _, help_ = line[2:].partition(":")
            out.append([name, help_.strip()])
        elif out:
            out[-1][1] += " " + line
    return [(n, re.sub(r"\s+", " ", h)) for n, h in out]


def main():
    import memplan
    from memplan import _native
    problems = []
    cli = possible_values("plan", "--strategy")
    mine = [(n, re.sub(r"\s+", " ", memplan.STRATEGY_HELP[n])) for n in memplan.STRATEGIES]
    if mine != cli:
        problems.append(f"memplan.STRATEGIES {mine}\n  != memplan plan --help {cli}")
    if memplan.STRATEGIES[0] != memplan.AS_LOADED:
        problems.append(f"as loaded is not the first choice: {memplan.STRATEGIES}")
    formats = [n for n, _ in possible_values("convert", "--format")]
    if list(memplan.EXPORT_FORMATS) != formats:
        problems.append(f"memplan.EXPORT_FORMATS {memplan.EXPORT_FORMATS} != {formats}")
    recipes = possible_values("stats", "--recipes")
    mine = [(n, re.sub(r"\s+", " ", memplan.RECIPE_HELP[n])) for n in memplan.RECIPES]
    if mine != recipes:
        problems.append(f"memplan.RECIPES {mine}\n  != memplan stats --help {recipes}")
    dtypes = [n for n, _ in possible_values("stats", "--dtype")]
    if list(memplan.DTYPES) != dtypes:
        problems.append(f"memplan.DTYPES {memplan.DTYPES} != {dtypes}")

    # A model planned as aidge-export-cpp deploys it: the export's mem_0, as
    # tests/data/recipes/export_cpp.json records it from the real export.
    import gzip
    import json
    model = gzip.open(ROOT / "tests/data/onnx/corpus/mobilenet_v3_small.onnx.gz").read()
    real = json.loads((ROOT / "tests/data/recipes/export_cpp.json").read_text())
    d = memplan.deploy(model, name="mobilenet_v3_small.onnx")
    if d.peak != real["mobilenet_v3_small"]["mem_0"] or not any("ConvAct" in n for n in d.notes):
        problems.append(f"memplan.deploy: peak {d.peak}, notes {d.notes[:2]}")
    try:
        memplan.deploy(model, recipes=("export-tvm",))
        problems.append("an unknown recipe was taken")
    except ValueError as e:
        if "export-cpp" not in str(e):
            problems.append(f"the refusal does not name the recipes: {e}")

    # memplan.fit is the CLI's `memplan fit --json`, and PRESETS the presets its help lists.
    fit_help = subprocess.run([str(CLI), "fit", "--help"], capture_output=True, text=True,
                              check=True).stdout
    listed = re.findall(r"^  (\S+)\s+\S+=", fit_help.split("Presets", 1)[1], re.M)
    if list(memplan.PRESETS) != listed:
        problems.append(f"memplan.PRESETS {list(memplan.PRESETS)} != memplan fit --help {listed}")
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".onnx") as f:
        f.write(model)
        f.flush()
        cli = json.loads(subprocess.run([str(CLI), "fit", f.name, "--memory", "128K+8M", "--json",
                                         "--budget", "1000", "--no-tile"], capture_output=True,
                                        text=True).stdout)
    fitted = memplan.fit(model, memory="128K+8M", budget_ms=1000, name="mobilenet_v3_small.onnx",
                         tile=False)
    if (fitted.verdict, fitted.slow_traffic.total, [b.peak for b in fitted.banks]) != (
            cli["verdict"], cli["slow_traffic"]["total"], [b["peak"] for b in cli["banks"]]):
        problems.append(f"memplan.fit {fitted.summary} != memplan fit {cli['summary']}")
    if "\"components\"" not in fitted.document or fitted.banks[0].size != 128 * 1024:
        problems.append(f"memplan.fit's document or banks: {fitted.banks}")
    # tile=True (memplan fit's default): MobileNetV2's first stage, 4.6 MiB wide, fits a
    # 2 MiB bank alone only tiled; the tiled model comes back as bytes, and plans within it.
    mb2 = gzip.open(ROOT / "tests/data/bench/models/mobilenet_v2.onnx.gz").read()
    tiled = memplan.fit(mb2, memory="2M", budget_ms=1000, tile_budget_ms=5000,
                        name="mobilenet_v2.onnx")
    untiled = memplan.fit(mb2, memory="2M", budget_ms=1000, tile=False, name="mobilenet_v2.onnx")
    if (tiled.verdict, tiled.lever, untiled.verdict, untiled.tiling) != (
            "fits-fast", "tiling", "does-not-fit", None) or tiled.tiling is None \
            or not tiled.tiling.stages or tiled.tiled_onnx is None:
        problems.append(f"memplan.fit(tile=True): {tiled.summary} / {untiled.summary}")
    else:
        _, text = _native.plan(tiled.tiled_onnx, "tiled.onnx", "best", 2000)
        again = memplan.Report.from_json(text)
        if again.peak > 2 * 1024 * 1024 or untiled.untiled_because != "tile=False":
            problems.append(f"the tiled model's best plan: {again.peak}")
    try:
        memplan.fit(model, memory="256Q")
        problems.append("a bad memory map was taken")
    except ValueError as e:
        if "not a size" not in str(e):
            problems.append(f"the refusal of 256Q does not say why: {e}")

    csv = "id,lower,upper,size\na,0,3,4\nb,3,9,4\nc,0,9,4\nd,9,21,4\ne,0,21,4\n"
    for choice in (memplan.AS_LOADED, "aidge"):
        _, text = _native.plan(csv, "x.csv", choice, 100)
        r = memplan.Report.from_json(text)
        if (r.strategy, r.strategy_used, r.component_peaks) != ("as-loaded", "greedy-size", (r.peak,)):
            problems.append(f"{choice}: {r}")
    _, text = _native.plan(csv, "x.csv", "best", 500)
    r = memplan.Report.from_json(text)
    if (r.peak, r.lower_bound, r.proven_optimal) != (12, 12, True):
        problems.append(f"best on MiniMalloc's example: {r}")
    try:
        _native.plan(csv, "x.csv", "fastest", 10)
        problems.append("an unknown strategy was taken")
    except ValueError as e:
        if "as-loaded" not in str(e):
            problems.append(f"the refusal does not name the choices: {e}")

    mypy = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", str(ROOT / "pyproject.toml"),
                           "-p", "memplan"], cwd=ROOT / "python", capture_output=True, text=True)
    if mypy.returncode != 0:
        problems.append("mypy --strict:\n" + mypy.stdout + mypy.stderr)

    for p in problems:
        print("FAIL:", p)
    print(f"python API: {len(memplan.STRATEGIES)} strategies, {len(formats)} formats, "
          f"mypy --strict {'clean' if mypy.returncode == 0 else 'FAILED'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
