"""Aidge text logs whose ends pass 2^64 (auto-concat's size quirk), with the real wheel.

Aidge 0.10.1's `generate_memory_auto_concat` gives the third and later inputs of a
Concat a plane size `requiredSize - offset` that wraps below zero in `size_t`
(docs/aidge-parity.md), and `mem_info.log_meminfo_text` prints `offset + size` as a
Python integer, past 2^64 (`18446744073709552640 (0x10000000000000400U)`). GoogLeNet's
Inception blocks (4-input Concats) do this; so does the small Inception-like graph
below (a stem conv, two blocks of four branches: 1x1 conv; 1x1 then 3x3 conv; 1x1
then 5x5 conv; 3x3 max pooling then 1x1 conv; each block joined by a 4-input Concat;
a 1x1 head; 1x3x4x4 float32 input).

For that graph, from one scheduler, this check writes Aidge's memory_info.txt and then:
1. `memplan convert LOG -o out.txt --format aidge-single` must give the same bytes;
2. `memplan stats LOG --json` must give Aidge's `get_peak_usage()`;
3. `memplan check LOG` must exit 1 and name, among its "leaves space" findings,
   exactly the planes whose wrapped part ends past their space in Aidge's own plan.
The log must hold at least one end past 2^64 (else the check tests nothing).

`--write PATH` also saves the log: tests/data/formats/inception-autoconcat.memory_info.txt
was written so (`.venv/bin/python tests/parity/wrapped_log_diff.py --write
tests/data/formats/inception-autoconcat.memory_info.txt`). Aidge orders parallel
branches by pointer, so another run may order the branches differently.

Usage: .venv/bin/python tests/parity/wrapped_log_diff.py [--write PATH]
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import aidge_core
import aidge_backend_cpu  # noqa: F401  (registers the cpu backend)

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
MEMPLAN = TARGET / "release" / "memplan"


def conv(cin, cout, name, k=1):
    p = k // 2
    return aidge_core.PaddedConv2D(cin, cout, [k, k], name=name, padding_dims=[p, p, p, p])


def inception(prev, cin, name, c1, c3r, c3, c5r, c5, cp):
    """One Inception block after `prev`; returns its Concat and its channel count."""
    b1 = conv(cin, c1, f"{name}_b1")
    b2a, b2b = conv(cin, c3r, f"{name}_b2a"), conv(c3r, c3, f"{name}_b2b", 3)
    b3a, b3b = conv(cin, c5r, f"{name}_b3a"), conv(c5r, c5, f"{name}_b3b", 5)
    pool = aidge_core.PaddedMaxPooling2D([3, 3], name=f"{name}_pool", stride_dims=[1, 1],
                                         padding_dims=[1, 1, 1, 1])
    b4 = conv(cin, cp, f"{name}_b4")
    cat = aidge_core.Concat(4, axis=1, name=f"{name}_cat")
    for n in (b1, b2a, b3a, pool):
        prev.add_child(n, 0, 0)
    b2a.add_child(b2b, 0, 0)
    b3a.add_child(b3b, 0, 0)
    pool.add_child(b4, 0, 0)
    for k, n in enumerate((b1, b2b, b3b, b4)):
        n.add_child(cat, 0, k)
    return cat, c1 + c3 + c5 + cp


def scheduler():
    stem = conv(3, 8, "stem", 3)
    cat, c = inception(stem, 8, "i3a", 4, 4, 8, 2, 2, 2)
    cat, c = inception(cat, c, "i3b", 8, 8, 4, 2, 4, 4)
    head = conv(c, 4, "head")  # named: a node keeps only weak links to its children
    cat.add_child(head, 0, 0)
    graph = aidge_core.get_connected_graph_view(stem)
    graph.set_backend("cpu")
    graph.set_datatype(aidge_core.dtype.float32)
    graph.forward_dims([[1, 3, 4, 4]], True)
    s = aidge_core.SequentialScheduler(graph)
    s.generate_scheduling()
    return s


def memplan(*args):
    return subprocess.run([str(MEMPLAN), *map(str, args)], capture_output=True, text=True)


def main(argv):
    s = scheduler()
    mm = s.generate_memory_auto_concat(inc_producers=False, wrap_around_buffer=False)
    scratch = tempfile.TemporaryDirectory(prefix="memplan-wrapped-log-")  # removed with it
    tmp = pathlib.Path(scratch.name)
    log = tmp / "memory_info.txt"
    aidge_core.mem_info.log_meminfo_text(mm, str(log), s, False)
    text = log.read_text()
    if "--write" in argv:
        pathlib.Path(argv[argv.index("--write") + 1]).write_text(text)
    failures = []
    ends = [int(e) for e in re.findall(r"-> (\d+) ", text)]
    if max(ends) < 2**64:
        failures.append(f"no end past 2^64 in Aidge's log (largest {max(ends)})")
    out = tmp / "memplan.txt"
    conv_ = memplan("convert", log, "-o", out, "--format", "aidge-single")
    if conv_.returncode != 0:
        failures.append(f"convert: {conv_.stderr.strip()}")
    elif out.read_text() != text:
        failures.append("convert: the log written back differs from Aidge's")
    stats = memplan("stats", log, "--json")
    if stats.returncode != 0:
        failures.append(f"stats: {stats.stderr.strip()}")
    elif json.loads(stats.stdout)["peak"] != mm.get_peak_usage():
        failures.append(f"stats: peak {json.loads(stats.stdout)['peak']}, Aidge {mm.get_peak_usage()}")
    # Aidge's own plan: planes whose wrapped part ends past their space.
    broken = set()
    for node, planes in mm.get_planes().items():
        for k, p in enumerate(planes):
            sp = p.mem_space
            if p.get_wrapped_size() > 0 and p.get_wrapped_offset() + p.get_wrapped_size() > sp.offset + sp.size:
                broken.add(f"{node.name()}#{k}")
    check = memplan("check", log)
    named = set(re.findall(r"\(([^()]+#\d+)\): wrapped part \[\d+, \d+\) leaves space", check.stdout))
    if check.returncode != 1:
        failures.append(f"check: exit {check.returncode}, expected 1 (a broken plan)")
    if not broken or named != broken:
        failures.append(f"check names {sorted(named)}, Aidge's broken planes are {sorted(broken)}")
    for f in failures:
        print(f"FAIL {f}")
    print(f"{len(broken)} broken planes, largest end {max(ends)}: "
          f"{'passed' if not failures else 'FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
