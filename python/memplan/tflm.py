"""memplan's plan for TensorFlow Lite Micro, shipped in the model itself.

TFLM places the tensors of a model in its arena with ``GreedyMemoryPlanner``
(largest first, first fit), unless the model carries an *offline plan*: the
``OfflineMemoryAllocation`` metadata, one arena offset per tensor (-1: plan it at
run time), which the planner then takes as given. ``apply_plan`` places the
buffers TFLM's ``AllocationInfoBuilder`` makes (sizes rounded up to the arena
alignment, lifetimes in allocation scopes: 0 for the inputs, one per operator,
inclusive) with memplan and writes the offsets there::

    from memplan.tflm import apply_plan
    smaller = apply_plan(open("model.tflite", "rb").read(), strategy="best")
    open("model.planned.tflite", "wb").write(smaller)

Any TFLM build reads the plan: the interpreter's head (``arena_used_bytes`` minus
the persistent tail) becomes memplan's peak. Kernels' scratch buffers, which only
exist once the kernels are prepared, stay planned at run time (-1 does not apply
to them: TFLM always places them after the offline tensors, in the holes).

Everything here is the Rust core's (``memplan._native``, ``formats::tflite``): the
same reader, plan and writer as ``memplan plan model.tflite -o out.tflite`` and the
page's download, so the three give the same bytes. A plan is checked before it is
written (aligned, no two live tensors sharing a byte, read back as given); a
broken one raises ``ValueError`` and nothing is written.
"""

import json

from . import _native

#: ``MicroArenaBufferAlignment()``: every planned size is rounded up to it.
ALIGNMENT = 16
#: The metadata name TFLM's ``AllocationInfoBuilder`` looks for.
METADATA = "OfflineMemoryAllocation"

_NAME = "model.tflite"


def _all_buffers(model_bytes):
    return json.loads(_native.tflite_buffers(bytes(model_bytes), _NAME))["buffers"]


def buffers(model_bytes):
    """The buffers TFLM's planner gets for the model's tensors, in its order.

    A list of dicts ``{"tensor", "name", "size", "first_used", "last_used"}``:
    the tensors whose data is not in the model, not variables and not empty,
    with TFLM's lifetimes (allocation scopes, ``last_used`` inclusive) and sizes
    rounded up to ``ALIGNMENT``. Models with one subgraph only (no IF, WHILE or
    CALL_ONCE), as ``AllocationInfoBuilder`` plans subgraph 0 and nests the others.
    """
    keys = ("tensor", "name", "size", "first_used", "last_used")
    return [{k: b[k] for k in keys} for b in _all_buffers(model_bytes) if b["tensor"] is not None]


def plan(model_bytes, strategy="best", budget_ms=2000):
    """memplan's placement of the model's buffers: ``(buffers, report)``, each
    buffer of ``buffers(model_bytes)`` with its ``offset`` (as the planned model
    carries it); the report as ``memplan plan`` gives it (peak, lower bound,
    strategy used) with ``arena``: what to set ``kTensorArenaSize`` to."""
    planned, summary, report = _native.tflite_plan(bytes(model_bytes), _NAME, strategy, budget_ms)
    report = json.loads(report)
    report["arena"] = summary
    return buffers_with_offsets(planned), report


def buffers_with_offsets(model_bytes):
    """``buffers(model_bytes)``, each with the ``offset`` TFLM gives it (the
    model's offline plan when it has one, else its own greedy plan)."""
    keys = ("tensor", "name", "size", "first_used", "last_used", "offset")
    return [{k: b[k] for k in keys} for b in _all_buffers(model_bytes) if b["tensor"] is not None]


def named_csv(model_bytes, dump_text):
    """TFLM's ``PrintMemoryPlan()`` output for this model as a buffer CSV (memplan's
    reader, offsets as TFLM placed them) whose buffers carry the model's tensor names
    instead of the planner's ids (the kernels' scratch buffers, after the tensors,
    become ``scratch N``): open it in the page or the CLI to see which tensor is where.
    The dump must be of this model: its sizes and lifetimes are checked."""
    bufs = buffers(model_bytes)
    lines = _native.convert(dump_text, "plan.txt", "csv").splitlines()
    rows = [line.split(",") for line in lines[1:]]
    if len(rows) < len(bufs):
        raise ValueError(f"the dump has {len(rows)} buffers, the model {len(bufs)} tensors to place")
    seen = set()
    out = [lines[0]]
    for i, row in enumerate(rows):
        if i < len(bufs):
            b = bufs[i]
            if [int(v) for v in row[1:4]] != [b["first_used"], b["last_used"] + 1, b["size"]]:
                raise ValueError(f"buffer id={i} of the dump is not tensor {b['tensor']} of the model")
            name = (b["name"] or f"tensor {b['tensor']}").replace(",", ";")
        else:
            name = f"scratch {i - len(bufs)}"
        while name in seen:
            name += "'"
        seen.add(name)
        out.append(",".join([name] + row[1:]))
    return "\n".join(out) + "\n"


def apply_plan(model_bytes, strategy="best", budget_ms=2000):
    """The model with memplan's plan (``strategy``) as its offline plan: the bytes
    ``memplan plan model.tflite --strategy STRATEGY -o out.tflite`` writes."""
    planned, _, _ = _native.tflite_plan(bytes(model_bytes), _NAME, strategy, budget_ms)
    return bytes(planned)


def with_offline_plan(model_bytes, offsets):
    """The model with ``offsets`` (tensor index of subgraph 0 -> arena offset, one
    for every tensor of ``buffers``) as its ``OfflineMemoryAllocation`` metadata, -1
    for every other tensor (an earlier plan is replaced). Raises ``ValueError`` on a
    plan TFLM cannot run (unaligned, or live tensors sharing bytes)."""
    planned, _ = _native.tflite_with_offsets(
        bytes(model_bytes), _NAME, {int(t): int(o) for t, o in offsets.items()}
    )
    return bytes(planned)
