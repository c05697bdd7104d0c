"""Writes src/formats/onnx/kernels.rs: the input and output data types of every kernel
aidge_backend_cpu 0.10.1 registers, per Aidge operator type, as the wheel lists them
(`node.get_operator().get_impl().get_available_impl_specs()`); and
src/formats/onnx/converters.rs: the ONNX operators aidge_onnx 0.10.1 has a converter for
(`aidge_onnx.node_import.ONNX_NODE_CONVERTER_`), any other being imported as a
GenericOperator, which memplan says is where Aidge fails (the import stage).

Aidge's SequentialScheduler looks each node's kernel up by the data types of all its
inputs (its "registrar key"); when no kernel takes them it fails ("missing or invalid
registrar key"). memplan applies the same lookup (formats::onnx, scheduler stage) to say
which node of a model Aidge cannot schedule. Operators whose constructor needs arguments
(convolutions, poolings, ...) take float32 inputs only in what memplan reads, and stay out.

Usage: .venv/bin/python tests/parity/kernels_diff.py [--write]   (checks that the
committed files are the wheels', as CI does through run.py; --write rewrites them)
"""

import pathlib
import sys

import aidge_backend_cpu  # noqa: F401  (registers the CPU kernels)
import aidge_core

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "formats" / "onnx" / "kernels.rs"
CONVERTERS = ROOT / "src" / "formats" / "onnx" / "converters.rs"


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


def converters():
    from aidge_onnx.node_import import ONNX_NODE_CONVERTER_
    rows = "\n".join(f'    "{k}",' for k in sorted(ONNX_NODE_CONVERTER_))
    return f"""//! The ONNX operators aidge_onnx 0.10.1 has a converter for, as its registry keys them
//! (lower case; written by tests/parity/kernels_diff.py --write from the wheel's
//! `aidge_onnx.node_import.ONNX_NODE_CONVERTER_`; do not edit). aidge_onnx imports any
//! other operator as a GenericOperator, which Aidge cannot size.

/// The lower-case ONNX operator names aidge_onnx converts.
#[rustfmt::skip]
pub const CONVERTERS: &[&str] = &[
{rows}
];

/// Whether aidge_onnx has a converter for ONNX operator `op_type`.
pub fn has(op_type: &str) -> bool {{
    CONVERTERS.contains(&op_type.to_ascii_lowercase().as_str())
}}
"""


def main(argv):
    files = [(OUT, rust(specs()), "the wheel's registrar"),
             (CONVERTERS, converters(), "aidge_onnx's converters")]
    if argv[1:] != ["--write"]:
        failed = 0
        for path, text, what in files:
            same = path.read_text() == text
            failed += not same
            print(f"{path.name} " + (f"equals {what}" if same else f"DIFFERS from {what}"))
        print(f"{len(files) - failed} passed, {failed} failed")
        return 1 if failed else 0
    for path, text, _ in files:
        path.write_text(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
