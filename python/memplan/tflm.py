"""memplan's plan for TensorFlow Lite Micro, shipped in the model itself.

TFLM places the tensors of a model in its arena with ``GreedyMemoryPlanner``
(largest first, first fit), unless the model carries an *offline plan*: the
``OfflineMemoryAllocation`` metadata, one arena offset per tensor (-1: plan it at
run time), which the planner then takes as given. ``apply_plan`` computes the
buffers exactly as TFLM's ``AllocationInfoBuilder`` does (sizes rounded up to the
arena alignment, lifetimes in allocation scopes: 0 for the inputs, one per
operator, inclusive), places them with memplan and writes the offsets there::

    from memplan.tflm import apply_plan
    smaller = apply_plan(open("model.tflite", "rb").read(), strategy="best")
    open("model.planned.tflite", "wb").write(smaller)

Any TFLM build reads the plan: the interpreter's head (``arena_used_bytes`` minus
the persistent tail) becomes memplan's peak. Kernels' scratch buffers, which only
exist once the kernels are prepared, stay planned at run time (-1 does not apply
to them: TFLM always places them after the offline tensors, in the holes).

Reading and writing ``.tflite`` uses the flatbuffer schema that the
``tflite-micro`` package ships (``pip install tflite-micro``).
"""

import json
import math

#: ``MicroArenaBufferAlignment()``: every planned size is rounded up to it.
ALIGNMENT = 16
#: The metadata name TFLM's ``AllocationInfoBuilder`` looks for.
METADATA = "OfflineMemoryAllocation"

# Bytes per element of each TensorType (schema.fbs numbering).
_TYPE_SIZE = {
    0: 4,  # FLOAT32
    1: 2,  # FLOAT16
    2: 4,  # INT32
    3: 1,  # UINT8
    4: 8,  # INT64
    6: 1,  # BOOL
    7: 2,  # INT16
    8: 8,  # COMPLEX64
    9: 1,  # INT8
    10: 8,  # FLOAT64
    12: 8,  # UINT64
    15: 4,  # UINT32
    16: 2,  # UINT16
}
# Operators that run other subgraphs (IF, WHILE, CALL_ONCE): their scopes nest.
_CONTROL_FLOW = {118, 119, 129}


def _schema():
    try:
        from tflite_micro.tensorflow.lite.micro.python import schema_py_generated
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "memplan.tflm reads .tflite files with the schema of the tflite-micro "
            "package: pip install tflite-micro"
        ) from e
    return schema_py_generated


def _model(model_bytes):
    fb = _schema()
    data = bytearray(model_bytes)
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise ValueError("not a .tflite model: expected the file identifier TFL3 at byte 4")
    return fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(data, 0))


def buffers(model_bytes):
    """The buffers TFLM's planner gets for the model's tensors, in its order.

    A list of dicts ``{"tensor", "name", "size", "first_used", "last_used"}``:
    the tensors whose data is not in the model, not variables and not empty,
    with TFLM's lifetimes (allocation scopes, ``last_used`` inclusive) and sizes
    rounded up to ``ALIGNMENT``. Models with one subgraph only (no IF, WHILE or
    CALL_ONCE), as ``AllocationInfoBuilder`` plans subgraph 0 and nests the others.
    """
    model = _model(model_bytes)
    return _buffers(model)


def _buffers(model):
    if len(model.subgraphs or []) != 1:
        raise ValueError(
            f"model with {len(model.subgraphs or [])} subgraphs: memplan.tflm plans "
            "models of one subgraph (TFLM nests control-flow subgraphs' scopes)"
        )
    sub = model.subgraphs[0]
    opcodes = model.operatorCodes or []
    first = [-1] * len(sub.tensors)
    last = [-1] * len(sub.tensors)

    for t in sub.inputs if sub.inputs is not None else []:
        if first[t] == -1:
            first[t] = 0
        last[t] = 0
    scope = 0
    for op in sub.operators or []:
        code = opcodes[op.opcodeIndex]
        if max(code.builtinCode, code.deprecatedBuiltinCode) in _CONTROL_FLOW:
            raise ValueError("model with control flow (IF, WHILE, CALL_ONCE): not planned offline")
        scope += 1
        for t in op.outputs if op.outputs is not None else []:
            if first[t] == -1:
                first[t] = scope
        for t in list(op.inputs if op.inputs is not None else []) + list(
            op.outputs if op.outputs is not None else []
        ):
            if t >= 0:
                last[t] = scope
    for t in sub.outputs if sub.outputs is not None else []:
        if first[t] == -1:
            first[t] = scope
        last[t] = scope

    out = []
    for i, tensor in enumerate(sub.tensors):
        buf = model.buffers[tensor.buffer] if tensor.buffer < len(model.buffers) else None
        has_data = buf is not None and (
            (buf.data is not None and len(buf.data) > 0) or (buf.offset or 0) > 1
        )
        if tensor.type not in _TYPE_SIZE:
            if has_data or tensor.isVariable:
                continue
            raise ValueError(f"tensor {i}: type {tensor.type} not supported")
        shape = list(tensor.shape) if tensor.shape is not None else []
        size = math.prod(shape) * _TYPE_SIZE[tensor.type]
        if has_data or tensor.isVariable or size == 0:
            continue
        if first[i] == -1:
            raise ValueError(f"tensor {i} is neither an input nor written by an operator")
        out.append(
            {
                "tensor": i,
                "name": (tensor.name or b"").decode("utf-8", "replace"),
                "size": -(-size // ALIGNMENT) * ALIGNMENT,
                "first_used": first[i],
                "last_used": last[i],
            }
        )
    return out


def plan(model_bytes, strategy="best", budget_ms=2000):
    """memplan's placement of the model's buffers: ``(buffers, report)``, each
    buffer of ``buffers(model_bytes)`` with its ``offset``; the report as
    ``memplan plan`` gives it (peak, lower bound, strategy used)."""
    from . import _native

    bufs = buffers(model_bytes)
    if not bufs:
        raise ValueError("the model has no tensor for the arena")
    csv = "id,lower,upper,size\n" + "".join(
        f"t{b['tensor']},{b['first_used']},{b['last_used'] + 1},{b['size']}\n" for b in bufs
    )
    text, report = _native.plan(csv, "tflm-buffers.csv", strategy, budget_ms)
    spaces = json.loads(text)["plan"]["spaces"]
    for b, space in zip(bufs, spaces):
        b["offset"] = int(space["offset"])
        # memplan places a buffer at 0 or against another one, and every size is a
        # multiple of ALIGNMENT: so is every offset, as TFLM's kernels expect.
        if b["offset"] % ALIGNMENT:
            raise ValueError(f"tensor {b['tensor']} placed at {b['offset']}, not a multiple of {ALIGNMENT}")
    return bufs, json.loads(report)


def named_csv(model_bytes, dump_text):
    """TFLM's ``PrintMemoryPlan()`` output for this model as a buffer CSV (memplan's
    reader, offsets as TFLM placed them) whose buffers carry the model's tensor names
    instead of the planner's ids (the kernels' scratch buffers, after the tensors,
    become ``scratch N``): open it in the page or the CLI to see which tensor is where.
    The dump must be of this model: its sizes and lifetimes are checked."""
    from . import _native

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
    """The model with memplan's plan (``plan``) as its offline plan
    (``with_offline_plan``)."""
    bufs, _ = plan(model_bytes, strategy, budget_ms)
    return with_offline_plan(model_bytes, {b["tensor"]: b["offset"] for b in bufs})


def with_offline_plan(model_bytes, offsets):
    """The model with ``offsets`` (tensor index of subgraph 0 -> arena offset) as
    its ``OfflineMemoryAllocation`` metadata, -1 for every other tensor (an existing
    plan is replaced). Every other byte of the model means the same: the flatbuffer
    is rewritten with the schema's own writer, tensor data aligned to 16 bytes."""
    import flatbuffers
    import numpy as np

    fb = _schema()
    model = _model(model_bytes)
    words = [-1] * sum(len(s.tensors) for s in model.subgraphs)
    for tensor, offset in offsets.items():
        words[tensor] = offset
    words = np.array([0, len(model.subgraphs), len(words), *words], dtype="<i4")

    metadata = [m for m in (model.metadata or []) if (m.name or b"") != METADATA.encode()]
    buffer = fb.BufferT()
    buffer.data = np.frombuffer(words.tobytes(), dtype=np.uint8)
    model.buffers.append(buffer)
    entry = fb.MetadataT()
    entry.name = METADATA
    entry.buffer = len(model.buffers) - 1
    model.metadata = metadata + [entry]

    for b in model.buffers:
        if (b.offset or 0) > 1:
            raise ValueError("model with buffers outside the flatbuffer (over 2 GB): not supported")
        b.__class__ = _AlignedBuffer.of(fb)
    builder = flatbuffers.Builder(len(model_bytes) + 4 * len(words) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


class _AlignedBuffer:
    """``BufferT`` whose data starts on a 16-byte boundary, as TFLM's converter
    writes it (kernels may read weights as int32 or float in place)."""

    _cache = {}

    @classmethod
    def of(cls, fb):
        if fb not in cls._cache:

            class Aligned(fb.BufferT):
                def Pack(self, builder):
                    data = None
                    if self.data is not None:
                        raw = bytes(bytearray(self.data))
                        builder.StartVector(1, len(raw), 16)
                        builder.head -= len(raw)
                        builder.Bytes[builder.head : builder.head + len(raw)] = raw
                        data = builder.EndVector()
                    fb.BufferStart(builder)
                    if data is not None:
                        fb.BufferAddData(builder, data)
                    fb.BufferAddOffset(builder, self.offset or 0)
                    fb.BufferAddSize(builder, self.size or 0)
                    return fb.BufferEnd(builder)

            cls._cache[fb] = Aligned
        return cls._cache[fb]

