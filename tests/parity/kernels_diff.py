"""Writes src/formats/onnx/kernels.rs: the input and output data types of every kernel
aidge_backend_cpu 0.10.1 registers, per Aidge operator type, as the wheel lists them
(`node.get_operator().get_impl().get_available_impl_specs()`).

Aidge's SequentialScheduler looks each node's kernel up by the data types of all its
inputs (its "registrar key"); when no kernel takes them it fails ("missing or invalid
registrar key"). memplan applies the same lookup (formats::onnx, scheduler stage) to say
which node of a model Aidge cannot schedule. Operators whose constructor needs arguments
(convolutions, poolings, ...) take float32 inputs only in what memplan reads, and stay out.

Usage: .venv/bin/python tests/parity/kernels_diff.py [--write]   (checks that the
committed file is the wheel's, as CI does through run.py; --write rewrites it)
"""

import pathlib
import sys

import aidge_backend_cpu  # noqa: F401  (registers the CPU kernels)
import aidge_core

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "formats" / "onnx" / "kernels.rs"


def specs():
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    table = {}
    for name in sorted(dir(aidge_core)):
        base = name[:-2]
        if not name.endswith("Op") or not name[0].isupper() or not callable(
                getattr(aidge_core, base, None)):
            continue
        try:
            node = getattr(aidge_core, base)()
            op = node.get_operator()
            op.set_backend("cpu")
            impl = op.get_impl()
        except Exception:  # noqa: BLE001 (a constructor that needs arguments)
            continue
        listed = impl.get_available_impl_specs() if impl else []
        keys = sorted({" ".join(str(i.type).replace("dtype.", "") for i in s.inputs) + " -> "
                       + " ".join(str(o.type).replace("dtype.", "") for o in s.outputs)
                       for s in listed})
        if keys:
            table[node.type()] = keys
    return table


def rust(table):
    rows = "\n".join(f"    ({t!r}, &[{', '.join(repr(k) for k in keys)}]),".replace("'", '"')
                     for t, keys in sorted(table.items()))
    return f"""//! The input data types of aidge_backend_cpu 0.10.1's kernels, per Aidge operator type
//! (written by tests/parity/kernels_diff.py --write from the wheel's registrar; do not
//! edit).
//! A key lists its input types, then after `->` its output types: one type per input
//! (output), or one type for every one; `any` takes any type.
//! An operator absent here has no such list (a generic kernel of aidge_core, or one
//! whose inputs memplan always sees as float32).

/// (Aidge operator type, its kernels' `input types -> output types`).
#[rustfmt::skip]
pub const KERNELS: &[(&str, &[&str])] = &[
{rows}
];
"""


def main(argv):
    text = rust(specs())
    if argv[1:] != ["--write"]:
        same = OUT.read_text() == text
        print("kernels.rs " + ("equals the wheel's registrar" if same else "DIFFERS from the wheel's"))
        print(f"{int(same)} passed, {int(not same)} failed")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
