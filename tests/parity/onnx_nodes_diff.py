"""memplan on every model of ONNX's own backend node tests (the per-operator test cases
of the `onnx` package, `onnx.backend.test.case.node`, built in memory: onnx 1.23.2's
wheel ships their code, not their files): each one must open, or be refused with a
message naming its file and node (or what is wrong with the file), never a panic.

Prints one line per refusal kind and the totals; exits non-zero on a panic, a crash or
a refusal without a message.
Usage: .venv/bin/python tests/parity/onnx_nodes_diff.py [OP_TYPE ...]   (or run.py onnx_nodes)
"""

import collections
import pathlib
import subprocess
import sys
import tempfile
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import onnx  # noqa: E402
from models_diff import MEMPLAN  # noqa: E402


def cases(ops):
    warnings.filterwarnings("ignore")
    from onnx.backend.test.case import node
    for c in node.collect_testcases(None):
        types = {n.op_type for n in c.model.graph.node}
        if not ops or types & ops:
            yield c.name, c.model, types


def main(argv):
    ops = set(argv[1:])
    opened = refused = 0
    bad = []
    kinds = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, model, types in cases(ops):
            path = tmp / f"{name}.onnx"
            path.write_bytes(model.SerializeToString())
            r = subprocess.run([str(MEMPLAN), "convert", path, "-o", tmp / "out.json"],
                               capture_output=True, text=True)
            err = r.stderr.strip()
            if r.returncode == 0:
                opened += 1
            elif r.returncode in (1, 2) and err.startswith(f"memplan: {path}: ") \
                    and "panick" not in err:
                refused += 1
                why = err[len(f"memplan: {path}: "):]
                kinds[why.split(": ", 1)[-1][:70]] += 1
            else:
                bad.append(f"{name} ({', '.join(sorted(types))}): exit {r.returncode}: {err[:300]}")
    for why, n in kinds.most_common(12):
        print(f"{n:5} refused: {why}")
    for b in bad:
        print("FAIL", b)
    print(f"{opened} opened, {refused} refused with a message, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
