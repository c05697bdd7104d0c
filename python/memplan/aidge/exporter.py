"""Export an Eclipse Aidge (aidge_core 0.10.1) schedule, and Aidge's own memory plan
for it, as a memplan JSON file that the memplan CLI and viewer read.

Full user flow::

    import aidge_core, aidge_backend_cpu, aidge_onnx
    from memplan.aidge import export

    model = aidge_onnx.load_onnx("resnet18.onnx")
    # optional: aidge_core.fuse_to_metaops(model, "MatMul-*>Add", "Linear")
    model.set_backend("cpu")
    model.set_datatype(aidge_core.dtype.float32)
    model.forward_dims([[1, 3, 224, 224]], True)
    scheduler = aidge_core.SequentialScheduler(model)
    scheduler.generate_scheduling()
    export(scheduler, "resnet18.memplan.json")
    # then: memplan stats resnet18.memplan.json  (Aidge's plan), or
    # memplan plan resnet18.memplan.json --driver memory --wrap -o plan.json
    # (the schedule re-planned by memplan's port of generate_memory; the same
    # plan export(..., driver="memory", wrap=True) records from Aidge)

The file is ``{"format": "memplan", "version": 1, "schedule": {...}, "plan": {...}}``:
``schedule`` is what memplan's drivers read (see src/schedule.rs), ``plan`` is the
plan Aidge itself makes with the chosen driver (default: 0.10.1's default,
``generate_memory_multiple_mems`` with one component of 1e9 bytes). Pure Python:
only aidge_core is needed.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["export", "document", "log_info", "schedule_of", "aidge_plan", "plan_of"]

_NO_PARENT = 65535  # Aidge's gk_IODefaultIndex on an unconnected input


def _is_producer(node: Any) -> bool:
    return bool(node.type() == "Producer")


def _dtype_bytes(tensor: Any) -> int:
    """Bytes per element of a tensor's datatype (float32 -> 4)."""
    name = str(tensor.dtype).split(".")[-1].lower()
    for prefix, bits in (("float", None), ("int", None), ("uint", None), ("bfloat", None)):
        if name.startswith(prefix):
            digits = "".join(ch for ch in name if ch.isdigit())
            if digits:
                return max(1, int(digits) // 8)
    if name in ("bool", "boolean", "binary"):
        return 1
    raise ValueError(f"memplan.aidge: unknown datatype size for {tensor.dtype}")


def _required_input(op: Any, index: int) -> Tuple[int, int]:
    """(required data, required protected) of input `index`, in elements, as the
    operator answers them (meta-operators delegate to their inner nodes)."""
    return op.get_nb_required_data(index).data, op.get_nb_required_protected(index).data


def _required_memory(op: Any, index: int) -> Tuple[int, bool]:
    """(elements, token_based): Aidge counts an output in tokens when it cannot
    count its data (a GenericOperator without dims); its drivers refuse it."""
    req = op.get_required_memory(index, [])
    return req.data, str(req.type).split(".")[-1] == "token"


def _data_input_indices(node: Any) -> List[int]:
    """Indices of the node's data inputs, in order (Aidge's dataInputs())."""
    op = node.get_operator()
    out = []
    for i in range(node.get_nb_inputs()):
        if str(op.input_category(i)).split(".")[-1] in ("Data", "OptionalData"):
            out.append(i)
    return out


def schedule_of(scheduler: Any) -> Dict[str, Any]:
    """The schedule document (src/schedule.rs) of a scheduler after
    forward_dims and generate_scheduling, as a dict."""
    order = list(scheduler.get_sequential_static_scheduling())
    index = {id(n): i for i, n in enumerate(order)}
    by_name = {n.name(): i for i, n in enumerate(order)}

    def idx(node: Any) -> Optional[int]:
        i = index.get(id(node))
        return by_name.get(node.name()) if i is None else i

    data_idx = [_data_input_indices(n) for n in order]
    # Keyed by node identity, not name: nameless nodes (Clip) share the name "".
    graph_outputs = {(id(p[0]), p[1]) for p in scheduler.graph_view().get_ordered_outputs()}
    nodes = []
    for i, node in enumerate(order):
        op = node.get_operator()
        parents = node.inputs()
        inputs = []
        for k in data_idx[i]:
            parent, pout = parents[k]
            data, protected = _required_input(op, k)
            p = None
            if parent is not None and pout != _NO_PARENT and idx(parent) is not None:
                p = {"node": idx(parent), "output": pout}
            inputs.append({"parent": p, "required_data": data, "required_protected": protected})
        outputs = []
        for o in range(node.get_nb_outputs()):
            t = op.get_output(o)
            eb = _dtype_bytes(t)
            required, tokens = _required_memory(op, o)
            consumers, param_readers = [], []
            for child, cin in node.outputs()[o]:
                c = idx(child)
                if c is None:
                    continue
                if cin in data_idx[c]:
                    consumers.append({"node": c, "input": data_idx[c].index(cin)})
                elif c not in param_readers:
                    param_readers.append(c)
            outputs.append({
                "dims": list(t.dims), "element_bytes": eb, "bytes": t.size * eb,
                "required_memory": required,
                "graph_output": (id(node), o) in graph_outputs,
                "data_format": str(t.dformat).split(".")[-1].split(":")[0].strip("<> "),
                "consumers": consumers,
                "param_readers": param_readers,
            })
            if tokens:
                outputs[-1]["token_based"] = True
        nodes.append({"name": node.name(), "type": node.type(), "producer": _is_producer(node),
                      "inputs": inputs, "outputs": outputs})
    return {"nodes": nodes}


def aidge_plan(scheduler: Any, driver: str = "multiple_mems", wrap: bool = False,
               optimize: Optional[str] = None, inc_producers: bool = False, alignment: int = 1,
               capacities: Sequence[int] = (1000000000,),
               priorities: Sequence[int] = (0,)) -> Any:
    """Runs one of Aidge's own drivers on the scheduler; returns its MemoryManager."""
    import aidge_core
    if driver == "multiple_mems":
        mm = scheduler.generate_memory_multiple_mems(
            inc_producers=inc_producers, memory_alignment=alignment,
            memory_components_capacities=list(capacities),
            memory_components_priorities=list(priorities))
    elif driver == "memory":
        mm = scheduler.generate_memory(inc_producers=inc_producers, wrap_around_buffer=wrap,
                                       memory_alignment=alignment)
    elif driver == "auto_concat":
        mm = scheduler.generate_memory_auto_concat(inc_producers=inc_producers,
                                                   wrap_around_buffer=wrap,
                                                   memory_alignment=alignment)
    else:
        raise ValueError(f"unknown driver {driver!r} (multiple_mems, memory, auto_concat)")
    if optimize is not None and optimize not in ("None", "OptimizeNone"):
        name = optimize if optimize.startswith("Optimize") else "Optimize" + optimize
        mm.optimize(getattr(aidge_core.OptimizeStrategy, name))
    return mm


def plan_of(scheduler: Any, mm: Any, components: Optional[List[Dict[str, Any]]] = None,
            alignment: int = 1) -> Dict[str, Any]:
    """The memplan Plan (src/model.rs) of an Aidge MemoryManager."""
    order = list(scheduler.get_sequential_static_scheduling())
    all_planes = mm.get_planes()
    spaces: List[Dict[str, Any]] = []
    planes: List[Dict[str, Any]] = []
    space_ids: Dict[int, int] = {}
    clocks: Dict[int, int] = {}
    keep = []  # keeps pybind11 wrappers alive so id() stays unique
    for i, node in enumerate(order):
        for k, p in enumerate(all_planes.get(node, [])):
            sp = p.mem_space
            keep.append(sp)
            key = id(sp)
            if key not in space_ids:
                space_ids[key] = len(spaces)
                spaces.append({"offset": sp.offset, "size": sp.size, "allocated": sp.allocated,
                               "released": sp.released if sp.released >= 0 else None,
                               "has_deps": len(sp.dependencies) > 0,
                               "component": p.mem_component_id})
            clocks.setdefault(i, p.allocated)
            planes.append({"node": i, "index": k, "space": space_ids[key], "allocated": p.allocated,
                           "offset": p.offset, "size": p.size, "stride": p.stride,
                           "length": p.length, "count": p.count,
                           "cont_offset": p.get_contiguous_offset(),
                           "cont_size": p.get_contiguous_size(),
                           "wrap_offset": p.get_wrapped_offset(),
                           "wrap_size": p.get_wrapped_size()})
    steps = [{"name": n.name(), "type": n.type(), "clock": clocks.get(i)}
             for i, n in enumerate(order)]
    if components is None:
        components = [{"name": "mem", "capacity": None, "priority": 0}]
    return {"steps": steps, "components": components, "spaces": spaces, "planes": planes,
            "max_lifetime": mm.get_max_lifetime(), "alignment": alignment}


def document(scheduler: Any, driver: str = "multiple_mems", wrap: bool = False,
             optimize: Optional[str] = None, inc_producers: bool = False, alignment: int = 1,
             capacities: Sequence[int] = (1000000000,),
             priorities: Sequence[int] = (0,)) -> Dict[str, Any]:
    """The memplan JSON document of `scheduler` (after forward_dims and
    generate_scheduling), as a dict: its schedule and Aidge's plan for it (what
    ``export`` writes; the options are ``export``'s)."""
    mm = aidge_plan(scheduler, driver, wrap, optimize, inc_producers, alignment,
                    capacities, priorities)
    components = None
    if driver == "multiple_mems":
        components = [{"name": f"MEM_{i}", "capacity": c, "priority": p}
                      for i, (c, p) in enumerate(zip(capacities, priorities))]
    return {"format": "memplan", "version": 1,
            "schedule": schedule_of(scheduler),
            "plan": plan_of(scheduler, mm, components, alignment)}


def export(scheduler: Any, path: Union[str, "os.PathLike[str]"], driver: str = "multiple_mems",
           wrap: bool = False, optimize: Optional[str] = None, inc_producers: bool = False,
           alignment: int = 1, capacities: Sequence[int] = (1000000000,),
           priorities: Sequence[int] = (0,)) -> Dict[str, Any]:
    """Writes the memplan JSON file of `scheduler` (after forward_dims and
    generate_scheduling) to `path`: its schedule and Aidge's plan for it.

    driver: "multiple_mems" (0.10.1 default; one 1e9-byte component), "memory"
    (generate_memory) or "auto_concat" (generate_memory_auto_concat); wrap: the
    wrap_around_buffer flag of the last two; optimize: an OptimizeStrategy name
    applied to Aidge's plan afterwards (e.g. "OptimizeMaxLifetimeMaxSizeFirst");
    alignment: the drivers' memory_alignment (each output's bytes rounded up to it);
    capacities, priorities: the memory components of multiple_mems (bytes; lower
    priority values are tried first)."""
    doc = document(scheduler, driver, wrap, optimize, inc_producers, alignment,
                   capacities, priorities)
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    return doc


def log_info(scheduler: Any, driver: str = "multiple_mems", wrap: bool = False,
             optimize: Optional[str] = None, inc_producers: bool = False, alignment: int = 1,
             capacities: Sequence[int] = (1000000000,), priorities: Sequence[int] = (0,), *,
             display_names: bool = True, strategy: str = "as-loaded", compare: Any = None,
             theme: str = "auto", height: int = 420) -> Any:
    """What Aidge's memory plot shows (``aidge_core.mem_info.log_meminfo``: Aidge's plan
    of the scheduler, node names on the planes), as memplan's interactive viewer in the
    notebook: ``memplan.show`` of ``document(scheduler, ...)``. The driver options are
    ``export``'s (0.10.1's defaults: ``generate_optimized_memory_info``'s plan); the
    others ``memplan.show``'s (``strategy`` re-plans, ``compare`` another plan)."""
    from ..notebook import show
    doc = document(scheduler, driver, wrap, optimize, inc_producers, alignment,
                   capacities, priorities)
    return show(doc, compare, name="aidge.memplan.json", strategy=strategy,
                names=display_names, theme=theme, height=height)
