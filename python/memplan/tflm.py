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

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List, Mapping, Tuple

from . import _native
from .report import Report

__all__ = ["ALIGNMENT", "METADATA", "Buffer", "buffers", "plan", "named_csv", "apply_plan",
           "with_offline_plan"]

#: ``MicroArenaBufferAlignment()``: every planned size is rounded up to it (defined once,
#: in Rust: ``formats::tflite::arena::ALIGNMENT``).
ALIGNMENT: int = _native.TFLM_ALIGNMENT
#: The metadata name TFLM's ``AllocationInfoBuilder`` looks for (Rust's
#: ``formats::tflite::arena::OFFLINE_METADATA``).
METADATA: str = _native.TFLM_METADATA

_NAME = "model.tflite"


@dataclass(frozen=True)
class Buffer:
    """A buffer TFLM's planner gets for a tensor of the model: its ``size`` rounded
    up to ``ALIGNMENT``, its lifetime in allocation scopes (``last_used``
    inclusive), and the arena ``offset`` it gets (the model's offline plan when it
    has one, else TFLM's own greedy plan)."""

    tensor: int
    name: str
    size: int
    first_used: int
    last_used: int
    offset: int


def buffers(model_bytes: bytes) -> List[Buffer]:
    """The buffers TFLM's planner gets for the model's tensors, in its order.

    The tensors whose data is not in the model, not variables and not empty, with
    TFLM's lifetimes and offsets (kernels' scratch buffers are not listed). Models
    with one subgraph only (no IF, WHILE or CALL_ONCE), as
    ``AllocationInfoBuilder`` plans subgraph 0 and nests the others.
    """
    out = json.loads(_native.tflite_buffers(bytes(model_bytes), _NAME))["buffers"]
    return [Buffer(tensor=int(b["tensor"]), name=str(b["name"]), size=int(b["size"]),
                   first_used=int(b["first_used"]), last_used=int(b["last_used"]),
                   offset=int(b["offset"]))
            for b in out if b["tensor"] is not None]


def plan(model_bytes: bytes, strategy: str = "best",
         budget_ms: int = 2000) -> Tuple[List[Buffer], Report]:
    """memplan's placement of the model's buffers: ``(buffers, report)``, each
    buffer of ``buffers(model_bytes)`` at the ``offset`` the planned model carries;
    the report as ``memplan plan`` gives it (peak, lower bound, strategy used) with
    ``arena``: what to set ``kTensorArenaSize`` to."""
    planned, summary, report = _native.tflite_plan(bytes(model_bytes), _NAME, strategy,
                                                   int(budget_ms))
    return buffers(planned), Report.from_json(report, arena=summary)


def named_csv(model_bytes: bytes, dump_text: str) -> str:
    """TFLM's ``PrintMemoryPlan()`` output for this model as a buffer CSV (memplan's
    reader, offsets as TFLM placed them) whose buffers carry the model's tensor names
    instead of the planner's ids (the kernels' scratch buffers, after the tensors,
    become ``scratch N``): open it in the page or the CLI to see which tensor is where.
    The dump must be of this model: its sizes and lifetimes are checked (``ValueError``
    otherwise)."""
    return _native.tflite_named_dump(bytes(model_bytes), _NAME, dump_text)


def apply_plan(model_bytes: bytes, strategy: str = "best", budget_ms: int = 2000) -> bytes:
    """The model with memplan's plan (``strategy``) as its offline plan: the bytes
    ``memplan plan model.tflite --strategy STRATEGY -o out.tflite`` writes."""
    planned, _, _ = _native.tflite_plan(bytes(model_bytes), _NAME, strategy, int(budget_ms))
    return bytes(planned)


def with_offline_plan(model_bytes: bytes, offsets: Mapping[int, int]) -> bytes:
    """The model with ``offsets`` (tensor index of subgraph 0 -> arena offset, one
    for every tensor of ``buffers``) as its ``OfflineMemoryAllocation`` metadata, -1
    for every other tensor (an earlier plan is replaced). Raises ``ValueError`` on a
    plan TFLM cannot run (unaligned, or live tensors sharing bytes)."""
    table: Dict[int, int] = {int(t): int(o) for t, o in offsets.items()}
    planned, _ = _native.tflite_with_offsets(bytes(model_bytes), _NAME, table)
    return bytes(planned)
