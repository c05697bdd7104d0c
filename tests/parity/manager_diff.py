"""Differential test: memplan's MemoryManager port against aidge_core 0.10.1.

Generates seeded random operation sequences (the op language of
src/manager/replay.rs), runs each one through the wheel's Python MemoryManager
and, all in one batch, through `$CARGO_TARGET_DIR/release/memplan-replay` (default
`target/`), and compares the
whole final state: every space (offset, size, allocated, released, deps), every
registered plane and every plane handle (offset, size, stride, length, count,
allocated, component, limit, contiguous/wrapped offsets and sizes, final offset),
the node and space queries (get_offset, get_size, get_nb_planes),
each op's return value, where Aidge threw, the peak, the max lifetime, the
per-component peaks and the clock.

On a mismatch it prints the shortest failing prefix, shrunk further by dropping
single operations, as a JSON line that `memplan-replay` accepts.

Usage: python tests/parity/manager_diff.py [--seed N] [--count N] [--verbose]
"""

import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
from collections import Counter

import aidge_core as ac

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The binary run.py builds: cargo puts it under $CARGO_TARGET_DIR when that is set.
REPLAY = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "memplan-replay"
NB_NODES = 8
STRATEGIES = {
    "None": getattr(ac.OptimizeStrategy, "None"),
    "OptimizeMaxLifetimeMinSizeFirst": ac.OptimizeStrategy.OptimizeMaxLifetimeMinSizeFirst,
    "OptimizeMaxLifetimeMaxSizeFirst": ac.OptimizeStrategy.OptimizeMaxLifetimeMaxSizeFirst,
    "OptimizeMaxHoleMaxLifetimeFirst": ac.OptimizeStrategy.OptimizeMaxHoleMaxLifetimeFirst,
}


class Quiet:
    """Silences the wheel's direct prints to fd 1 (`release()` of a node without
    planes prints a warning that bypasses aidge's Log levels)."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)

    def __exit__(self, *exc):
        os.dup2(self.saved, 1)
        os.close(self.saved)


def make_nodes():
    """Dummy nodes, numbered in the wheel's plane-map (pointer) order so that the
    port's ascending-handle order is the wheel's iteration order."""
    nodes = [ac.GenericOperator("T", 1, 0, 1, name=f"n{i}") for i in range(NB_NODES)]
    probe = ac.MemoryManager()
    for n in nodes:
        probe.allocate(n, 1)
    return list(probe.get_planes().keys())


# ---- the wheel side -------------------------------------------------------------


def plane_json(p, spaces):
    sid = next(i for i, s in enumerate(spaces) if s is p.mem_space)
    return {
        "space": sid, "offset": p.offset, "size": p.size, "stride": p.stride,
        "length": p.length, "count": p.count, "allocated": p.allocated,
        "component": p.mem_component_id, "limit": p.get_limit(),
        "cont_offset": p.get_contiguous_offset(), "cont_size": p.get_contiguous_size(),
        "wrap_offset": p.get_wrapped_offset(), "wrap_size": p.get_wrapped_size(),
        "final_offset": p.get_final_offset(),
    }


def run_wheel(ops, nodes):
    ids = {n.name(): i for i, n in enumerate(nodes)}
    mm = ac.MemoryManager()
    spaces, handles, results, error = [], [], [], None

    def deps(op):
        return {nodes[d] for d in op.get("deps", [])}

    def lay(op):
        return op.get("stride", 0), op.get("length", 1), op.get("count", 1)

    def track(plane):
        if not any(s is plane.mem_space for s in spaces):
            spaces.append(plane.mem_space)

    for i, op in enumerate(ops):
        kind = op["op"]
        try:
            out = None
            if kind == "components":
                mm = ac.MemoryManager(op["capacities"])
            elif kind == "reserve":
                spaces.append(mm.reserve(op["size"], deps(op)))
                out = len(spaces) - 1
            elif kind == "expand":
                mm.expand(spaces[op["space"]], op["size"])
            elif kind == "allocate":
                if "node" in op:
                    n = nodes[op["node"]]
                    out = mm.allocate(n, op["size"], deps(op), *lay(op))
                    p = mm.get_planes(n)[out]
                else:
                    p = mm.allocate(op["size"], deps(op), *lay(op))
                track(p)
                handles.append(p)
            elif kind == "reallocate":
                base = handles[op["plane"]] if "plane" in op else spaces[op["space"]]
                args = (op.get("offset", 0), op["size"], op.get("wrap", False), op.get("extra", 0),
                        deps(op), *lay(op))
                if "node" in op:
                    n = nodes[op["node"]]
                    out = mm.reallocate(base, n, *args)
                    handles.append(mm.get_planes(n)[out])
                else:
                    handles.append(mm.reallocate(base, *args))
            elif kind == "is_wrap_around":
                out = mm.is_wrap_around(spaces[op["space"]], op["offset"], op["size"], *lay(op))
            elif kind == "release":
                base = nodes[op["node"]] if "node" in op else spaces[op["space"]]
                out = mm.release(base)
            elif kind == "release_dependencies":
                out = mm.release_dependencies(nodes[op["node"]])
            elif kind == "tick":
                mm.tick()
            elif kind == "optimize":
                mm.optimize(STRATEGIES[op["strategy"]])
            else:
                raise ValueError(kind)
            results.append(out)
        except RuntimeError as e:
            error = {"index": i, "message": str(e)}
            break
    return {
        "results": results,
        "error": error,
        "tick": mm.get_current_tick(),
        "peak": mm.get_peak_usage(),
        "max_lifetime": mm.get_max_lifetime(),
        "peaks": list(mm.get_peak_usage_multiple_mems()),
        "spaces": [{
            "offset": s.offset, "size": s.size, "allocated": s.allocated, "released": s.released,
            "deps": sorted(ids[d.name()] for d in s.dependencies),
        } for s in spaces],
        "nodes": {str(ids[n.name()]): [plane_json(p, spaces) for p in planes]
                  for n, planes in mm.get_planes().items()},
        "node_queries": {str(ids[n.name()]): {
            "offsets": [mm.get_offset(n, i) for i in range(len(planes))],
            "size": mm.get_size(n),
        } for n, planes in mm.get_planes().items()},
        "space_nb_planes": [mm.get_nb_planes(s) for s in spaces],
        "handles": [plane_json(p, spaces) for p in handles],
    }


# ---- the port side --------------------------------------------------------------


def run_port(seqs):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for ops in seqs:
            f.write(json.dumps(ops) + "\n")
        path = f.name
    try:
        out = subprocess.run([str(REPLAY), path], capture_output=True, text=True, check=True).stdout
    finally:
        pathlib.Path(path).unlink()
    states = [json.loads(line) for line in out.splitlines()]
    assert len(states) == len(seqs), (len(states), len(seqs))
    return states


def comparable(state):
    """The port's dump minus what the wheel cannot show (space component ids;
    the thrown message, whose wording is not part of the contract)."""
    s = json.loads(json.dumps(state))
    for sp in s.get("spaces", []):
        sp.pop("component", None)
    if s.get("error"):
        s["error"] = {"index": s["error"]["index"]}
    return s


def differs(ops, nodes):
    try:
        with Quiet():
            wheel = comparable(run_wheel(ops, nodes))
    except (IndexError, KeyError, StopIteration):
        return False  # not a valid sequence (shrinking dropped a referenced op)
    port = run_port([ops])[0]
    if "input_error" in port:
        return False
    return comparable(port) != wheel


# ---- the generator --------------------------------------------------------------

SIZES = [1, 3, 7, 8, 16, 24, 64, 100, 128, 256, 500, 512, 1000, 1024, 4096]


class Gen:
    """Random valid sequences. `safe_optimize` keeps track of Aidge's getStack
    precondition (every space of mMemSpaces has a registered plane created at
    the space's own clock; otherwise the wheel dereferences an empty map and
    crashes) and only emits `optimize` when it holds."""

    def __init__(self, rng):
        self.r = rng

    def size(self):
        r = self.r
        x = r.random()
        if x < 0.03:
            return 0
        if x < 0.05:
            return r.choice([2**32 + 5, 2**40, 2**62, 2**63 + 1])
        return r.choice(SIZES)

    def layout(self, op):
        r = self.r
        if r.random() < 0.5:
            return op
        op["length"] = r.choice([1, 2, 3, 4, 8])
        op["count"] = r.choice([1, 1, 2, 3, 4, 8])
        if r.random() < 0.4:
            op["stride"] = op["size"] + r.choice([0, 1, 4, 8, 16])
        elif r.random() < 0.2:
            op["stride"] = r.choice([0, 1, 2])
        return op

    def deps(self):
        r = self.r
        k = r.choice([0, 0, 1, 1, 1, 2, 3])
        return sorted(r.sample(range(NB_NODES), k))

    def sequence(self, n_ops, registered_only):
        r = self.r
        ops, clock = [], 0
        spaces = []        # [alloc clock, has registered plane at that clock]
        handles = []       # space index of each plane handle
        planes_of = Counter()
        if r.random() < 0.15:
            ops.append({"op": "components", "capacities": [r.choice([1000, 10**6]), 10**9]})
        for _ in range(n_ops):
            kinds = ["allocate"] * 5 + ["reallocate"] * 7 + ["release_dependencies"] * 4 + \
                ["tick"] * 5 + ["release"] * 2 + ["expand", "is_wrap_around"]
            if not registered_only:
                kinds += ["reserve", "allocate"]
            kind = r.choice(kinds)
            if kind in ("reallocate", "release", "expand", "is_wrap_around") and not spaces:
                kind = "allocate"
            op = {"op": kind}
            if kind == "reserve":
                op.update(size=self.size(), deps=self.deps())
                spaces.append([clock, False])
            elif kind == "allocate":
                op.update(size=self.size(), deps=self.deps())
                self.layout(op)
                node = r.randrange(NB_NODES) if registered_only or r.random() < 0.8 else None
                if node is not None:
                    op["node"] = node
                    planes_of[node] += 1
                spaces.append([clock, node is not None])
                handles.append(len(spaces) - 1)
            elif kind == "reallocate":
                op.update(size=self.size(), wrap=r.random() < 0.5, deps=self.deps())
                if r.random() < 0.4:
                    op["extra"] = r.choice([0, 1, 32, 64, 100, 512])
                self.layout(op)
                node = r.randrange(NB_NODES) if registered_only or r.random() < 0.8 else None
                if node is not None:
                    op["node"] = node
                    planes_of[node] += 1
                if handles and r.random() < 0.6:
                    op["plane"] = r.randrange(len(handles))
                    op["offset"] = r.choice([0, 0, 0, 1, 8, 64, 512])
                    sid = handles[op["plane"]]
                else:
                    sid = r.randrange(len(spaces))
                    op["space"] = sid
                    op["offset"] = r.choice([0, 0, 1, 8, 100, 512, 1024, 2048])
                if node is not None and spaces[sid][0] == clock:
                    spaces[sid][1] = True
                handles.append(sid)
            elif kind == "release_dependencies":
                op["node"] = r.randrange(NB_NODES)
            elif kind == "release":
                if r.random() < 0.5:
                    op["node"] = r.randrange(NB_NODES)
                else:
                    op["space"] = r.randrange(len(spaces))
            elif kind == "expand":
                op.update(space=r.randrange(len(spaces)), size=self.size())
            elif kind == "is_wrap_around":
                op.update(space=r.randrange(len(spaces)), offset=r.choice([0, 8, 512, 1024]),
                          size=self.size())
                self.layout(op)
            elif kind == "tick":
                clock += 1
            ops.append(op)
            if r.random() < 0.08 and all(ok for _, ok in spaces):
                ops.append({"op": "optimize", "strategy": r.choice(list(STRATEGIES))})
        if all(ok for _, ok in spaces) and spaces:
            ops.append({"op": "optimize", "strategy": r.choice(list(STRATEGIES))})
        return ops


def shrink(ops, nodes):
    """Shortest failing prefix, then drop single ops while it still fails."""
    lo = 1
    while lo < len(ops) and not differs(ops[:lo], nodes):
        lo += 1
    ops = ops[:lo]
    i = len(ops) - 2
    while i >= 0:
        cand = ops[:i] + ops[i + 1:]
        if differs(cand, nodes):
            ops = cand
        i -= 1
    return ops


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: wheel {a!r} vs port {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'wheel' if k in a else 'port'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
    elif isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: wheel has {len(a)} items, port {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
    elif a != b:
        return f"{path}: wheel {a!r} vs port {b!r}"
    return None


VECTORS = ROOT / "tests" / "data" / "manager_vectors.json"


def pointer(doc, ptr):
    for part in ptr.split("/")[1:]:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def check_vectors(nodes):
    """Asserts every expected value of tests/data/manager_vectors.json against the
    wheel (tests/manager_vectors.rs asserts the same values against the port)."""
    data = json.loads(VECTORS.read_text())
    bad = 0
    total = 0
    for v in data["vectors"]:
        for after in sorted({c[0] for c in v["checks"]}):
            with Quiet():
                state = run_wheel(v["ops"][:after], nodes)
            for a, ptr, want in v["checks"]:
                if a != after:
                    continue
                total += 1
                try:
                    got = pointer(state, ptr)
                except (KeyError, IndexError):
                    got = "<missing>"
                if got != want:
                    bad += 1
                    print(f"  vector {v['name']} after {after} ops: {ptr} = {got!r} in the wheel, "
                          f"expected {want!r}")
    print(f"  test vectors: {total - bad} of {total} expected values confirmed by the wheel "
          f"({len(data['vectors'])} vectors)")
    return bad == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20260)
    ap.add_argument("--count", type=int, default=1500)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    nodes = make_nodes()
    vectors_ok = check_vectors(nodes)
    rng = random.Random(args.seed)
    gen = Gen(rng)
    seqs = []
    for k in range(args.count):
        registered_only = k % 2 == 0
        seqs.append(gen.sequence(rng.randint(4, 40), registered_only))
    with Quiet():
        wheel = [comparable(run_wheel(ops, nodes)) for ops in seqs]
    port = run_port(seqs)
    stats = Counter()
    failures = []
    for ops, w, p in zip(seqs, wheel, port):
        stats["sequences"] += 1
        stats["operations"] += len(ops)
        for op in ops:
            key = op["op"] + ("/plane" if "plane" in op else "") + ("/wrap" if op.get("wrap") else "")
            key += "/node" if "node" in op and op["op"] in ("allocate", "reallocate", "release") else ""
            stats[key] += 1
        if w["error"]:
            stats["stopped by an Aidge exception"] += 1
        stats["planes compared"] += sum(len(v) for v in w["nodes"].values()) + len(w["handles"])
        stats["spaces compared"] += len(w["spaces"])
        if "input_error" in p or comparable(p) != w:
            failures.append((ops, w, p))
    for k in sorted(stats):
        if args.verbose or k in ("sequences", "operations", "planes compared", "spaces compared",
                                 "stopped by an Aidge exception") or k.startswith("optimize"):
            print(f"  {k}: {stats[k]}")
    if failures:
        print(f"{len(failures)} of {len(seqs)} sequences differ from the wheel")
        ops, w, p = failures[0]
        small = shrink(ops, nodes)
        with Quiet():
            w = comparable(run_wheel(small, nodes))
        p = run_port([small])[0]
        print("minimal failing sequence (memplan-replay input):")
        print(json.dumps(small))
        print("first difference:", first_difference(w, comparable(p)) if "input_error" not in p
              else p["input_error"])
        return 1
    print(f"all {len(seqs)} sequences ({stats['operations']} operations) match the wheel")
    return 0 if vectors_ok else 1


if __name__ == "__main__":
    sys.exit(main())
