"""Writes, for each model of tests/data/tflm/, what the real TFLite Micro interpreter
(PyPI `tflite-micro==0.dev20261023182759`) prints about its memory plan:

- `<model>.plan.txt`: `GreedyMemoryPlanner::PrintMemoryPlan()`'s output, as TFLM
  prints it (MicroPrintf to stderr, lines ending in CR LF);
- `<model>.allocations.txt`: `Interpreter.print_allocations()` (the arena's head,
  where the planned tensors are, and its tail);
- `<model>.json`: the planner's own peak (`GetMaximumMemorySize()`), the arena
  figures and the outputs on a fixed random input (for the offline-plan check).

The wheel is built without `TF_LITE_SHOW_MEMORY_USE`, the flag under which
`MicroAllocator::CommitStaticMemoryPlan` calls `PrintMemoryPlan()`. So the
interpreter runs under gdb, with a breakpoint on the planner's
`GetMaximumMemorySize()`, the call that follows where the flag would print: gdb
calls the wheel's own `PrintMemoryPlan()` on the same planner (`$rdi`, x86-64) and
reads its peak, then lets the interpreter go on. Nothing of TFLM is rebuilt.

Run outside CI (needs gdb):

    python3 -m venv ../venvs/tflm
    ../venvs/tflm/bin/pip install tflite-micro==0.dev20261023182759
    ../venvs/tflm/bin/python tests/data/tflm/dump_plans.py [MODEL.tflite ...]
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
PLANNER = "tflite::micro::GreedyMemoryPlanner"
GDB = f"""set pagination off
set breakpoint pending on
break {PLANNER}::GetMaximumMemorySize
commands
silent
disable 1
call ((void (*)(void*)) &'{PLANNER}::PrintMemoryPlan()')($rdi)
printf "memplan-peak %lu\\n", ((unsigned long (*)(void*)) &'{PLANNER}::GetMaximumMemorySize()')($rdi)
enable 1
continue
end
run
"""


def run_model(path, err_path):
    """In the inferior: one inference on a fixed input, stderr to `err_path`."""
    import numpy as np
    from tflite_micro.python.tflite_micro import runtime

    sys.stderr.flush()
    fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    data = pathlib.Path(path).read_bytes()
    it = runtime.Interpreter.from_bytes(data, arena_size=1 << 20)
    d = it.get_input_details(0)
    rng = np.random.default_rng(0)
    info = np.iinfo(d["dtype"]) if np.issubdtype(d["dtype"], np.integer) else None
    x = (rng.integers(info.min, info.max + 1, d["shape"]) if info else rng.uniform(-1, 1, d["shape"]))
    it.set_input(x.astype(d["dtype"]), 0)
    it.invoke()
    out = it.get_output(0)
    os.write(2, b"memplan-mark\n")
    it.print_allocations()
    print(json.dumps({"output": out.flatten().tolist()}), flush=True)


def dump(model):
    with tempfile.TemporaryDirectory() as tmp:
        cmds = pathlib.Path(tmp, "gdb.cmds")
        cmds.write_text(GDB)
        err = pathlib.Path(tmp, "stderr.txt")
        r = subprocess.run(
            ["gdb", "-q", "-batch", "-nx", "-x", str(cmds), "--args", sys.executable,
             __file__, "--inferior", str(model), str(err)],
            capture_output=True, text=True, check=True)
        raw = err.read_bytes()
    peaks = [int(p) for p in re.findall(r"^memplan-peak (\d+)$", r.stdout, re.M)]
    outputs = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{"output"')]
    if len(peaks) != 1 or len(outputs) != 1:
        sys.exit(f"{model}: expected one plan and one output, got {peaks} {len(outputs)}:\n{r.stdout}{r.stderr}")
    plan, _, allocations = raw.partition(b"memplan-mark\n")
    figures = {
        name.decode(): int(v)
        for name, v in re.findall(rb"Arena allocation (\w+) (\d+) bytes", allocations)
    }
    return plan, allocations, {"planner_peak": peaks[0], "arena": figures, **outputs[0]}


def main(argv):
    if argv[1:2] == ["--inferior"]:
        return run_model(argv[2], argv[3])
    from importlib.metadata import version

    models = [pathlib.Path(a) for a in argv[1:]] or sorted(HERE.glob("*.tflite"))
    for model in models:
        plan, allocations, figures = dump(model)
        stem = model.name[: -len(".tflite")]
        (model.parent / f"{stem}.plan.txt").write_bytes(plan)
        (model.parent / f"{stem}.allocations.txt").write_bytes(allocations)
        figures = {"tflite_micro": version("tflite-micro"), **figures}
        (model.parent / f"{stem}.json").write_text(json.dumps(figures, indent=1) + "\n")
        print(f"{model.name}: planner peak {figures['planner_peak']}, arena {figures['arena']}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
