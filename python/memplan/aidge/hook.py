"""memplan's placement inside Aidge's export: ``memory_manager`` is a drop-in for
aidge_core 0.10.1's ``generate_optimized_memory_info`` and ``patch_export`` installs
it where ``aidge_core.export_utils.export`` (and so ``aidge_export_cpp.export``)
looks it up.

How a plan is made: Aidge's own driver runs first, exactly as the original function
runs it (same driver, components, alignment, wrap-around, optimize), in this process
and on this scheduler (node names embed schedule positions and Aidge orders parallel
branches per process, so a plan from another process may not fit). memplan then
re-places Aidge's memory *spaces* with a strategy: planes keep their place inside
their space, so wrap-around sharing and every stride, length and count the kernels
read stay Aidge's; only offsets move (``best`` may also give a plane a space of its
own instead of writing it over its input, as a plan without wrap-around does). The records are then made by
memplan's own writer (`memplan convert --format mem-info`) the way the original
builds them, for every node of the schedule: one per output (all zeros for an output
without a plane), and standalone records for nodes the manager does not plan
(Producers). memplan's placement is adopted only if it is strictly smaller than
Aidge's in some memory component and larger in none (`adopts`); otherwise Aidge's
offsets are kept exactly: the hook never makes an arena larger, and never moves a
buffer for no gain (a move for nothing would only change what a kernel that reads
unwritten bytes computes: docs/export-check.md).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..report import Report
from .exporter import plan_of, schedule_of

__all__ = ["memory_manager", "patch_export", "check_export", "Finding"]

#: A record of ``generate_optimized_memory_info`` (Aidge's own dict per output).
Record = Dict[str, Any]


def _native() -> ModuleType:
    try:
        from memplan import _native
    except ImportError as e:  # a source checkout without the compiled module
        raise ImportError(
            "memplan's planner is not built: install the package (`pip install .` at the "
            "memplan repository root) to use memplan.aidge.memory_manager") from e
    return _native


def _strategy(strategy: str) -> str:
    """`strategy` if the core takes it (``memplan.STRATEGIES`` or the alias ``aidge``
    of ``as-loaded``), else ``ValueError`` naming the choices."""
    native = _native()
    if strategy not in native.STRATEGIES and strategy != native.AS_LOADED_ALIAS:
        raise ValueError(f"strategy {strategy!r}: expected one of "
                         f"{', '.join(native.STRATEGIES)}")
    return native.AS_LOADED if strategy == native.AS_LOADED_ALIAS else strategy


def _aidge_manager(scheduler: Any, inc_producers: bool, wrapping: bool, auto_concat: bool,
                   multiple_mems: bool, memory_components: Dict[str, Any],
                   memory_alignment: int,
                   mem_optimize_strategy: Any) -> Tuple[Any, Optional[Dict[str, Any]]]:
    """Aidge's MemoryManager and the sorted components, made exactly as
    generate_optimized_memory_info 0.10.1 makes them (including its re-numbering of
    the components' priorities in sorted order)."""
    sorted_components = None
    if auto_concat and not multiple_mems:
        mm = scheduler.generate_memory_auto_concat(
            inc_producers=inc_producers, wrap_around_buffer=wrapping)
    elif multiple_mems:
        sorted_components = dict(
            sorted(memory_components.items(), key=lambda item: item[1].priority))
        for index, component in enumerate(sorted_components.values()):
            component.priority = index
        priorities = [c.priority for c in sorted_components.values()]
        capacities = [c.available_capacity for c in sorted_components.values()]
        generate = (scheduler.generate_memory_multiple_mems_autoconcat if auto_concat
                    else scheduler.generate_memory_multiple_mems)
        mm = generate(inc_producers=inc_producers, memory_alignment=memory_alignment,
                      memory_components_capacities=capacities,
                      memory_components_priorities=priorities)
    else:
        mm = scheduler.generate_memory(
            inc_producers=inc_producers, wrap_around_buffer=wrapping)
    if mem_optimize_strategy is not None:
        mm.optimize(mem_optimize_strategy)
    return mm, sorted_components


def adopts(before: Sequence[int], after: Sequence[int]) -> bool:
    """Whether memplan's peaks per memory component (`after`) replace Aidge's
    (`before`): strictly smaller in one component, larger in none."""
    return (all(a <= b for a, b in zip(after, before))
            and any(a < b for a, b in zip(after, before)))


def records(scheduler: Any, text: str) -> Dict[Any, List[Record]]:
    """{Node: [record per output]} for every node of the schedule, as 0.10.1 builds
    them, from `text`: a memplan JSON document holding this scheduler's schedule and
    a plan of it. The records are made by memplan's own writer (`memplan convert
    --format mem-info`: Producers' standalone pointers, all-zero records for outputs
    without a plane), which lists the steps in schedule order."""
    order = list(scheduler.get_sequential_static_scheduling())
    info = json.loads(_native().convert(text, "plan.memplan.json", "mem-info"))["mem_info"]
    if len(info) != len(order):
        raise RuntimeError(f"memplan: {len(info)} steps in the plan, {len(order)} scheduled")
    return {node: entry["outputs"] for node, entry in zip(order, info)}


def memory_manager(scheduler: Any, stats_folder: Union[str, Path, None] = None,
                   inc_producers: bool = False, wrapping: bool = False,
                   auto_concat: bool = False, multiple_mems: bool = True,
                   memory_components: Optional[Dict[str, Any]] = None,
                   display_names: bool = True, memory_alignment: int = 1,
                   mem_optimize_strategy: Any = None, *, strategy: str = "best",
                   budget_ms: int = 2000) -> Tuple[Union[int, List[int]], Dict[Any, List[Record]]]:
    """aidge_core 0.10.1's ``generate_optimized_memory_info``, placed by memplan.

    Takes the same arguments and returns the same ``(mem_size, mem_info)``:
    ``mem_size`` is the peak (an int) or, with ``multiple_mems``, the list of peaks
    per memory component; ``mem_info`` maps every scheduled Node to one record (dict)
    per output. Aidge's driver makes the plan, then memplan re-places its memory
    spaces with ``strategy`` (any of ``memplan.STRATEGIES``; ``"as-loaded"``, also
    accepted as ``"aidge"``, keeps Aidge's offsets) within ``budget_ms`` milliseconds
    for the whole plan (its memory components share them); memplan's placement is used only where it is strictly
    smaller in some memory component and larger in none, else Aidge's offsets are
    kept as they are (equal sizes included).

    ``stats_folder``, when given, receives ``memory_info.txt`` (Aidge's text log of
    the plan used), ``memory_info.svg`` (its chart, names on the planes if
    ``display_names``) and ``memory_info.memplan.json`` (the schedule and the plan:
    drop it on memplan's page or give it to the ``memplan`` CLI).
    """
    strategy = _strategy(strategy)
    if memory_components is None:
        from aidge_core.hw_model import Memory
        memory_components = {"mem": Memory(capacity=1000000000, priority=0)}
    mm, sorted_components = _aidge_manager(
        scheduler, inc_producers, wrapping, auto_concat, multiple_mems, memory_components,
        memory_alignment, mem_optimize_strategy)
    components = None
    if sorted_components is not None:
        components = [{"name": f"MEM_{c.priority}", "capacity": c.available_capacity,
                       "priority": c.priority} for c in sorted_components.values()]
    native = _native()
    schedule = json.dumps(schedule_of(scheduler))
    aidge = native.document(json.dumps(plan_of(scheduler, mm, components, memory_alignment)),
                            schedule)
    # Aidge's plan as loaded, and its per-component peaks, as the core reports them.
    text = aidge
    _, report = native.plan(aidge, "Aidge's plan", native.AS_LOADED, 0)
    peaks = Report.from_json(report).component_peaks
    if strategy != native.AS_LOADED:
        # The plan alone: its spaces move as blocks (with the schedule, `best` would
        # also try Aidge's other configurations, which this export does not run).
        plan_only = native.document(json.dumps(json.loads(aidge)["plan"]))
        placed, report = native.plan(plan_only, "Aidge's plan", strategy, int(budget_ms))
        after = Report.from_json(report).component_peaks
        if adopts(peaks, after):
            text, peaks = native.document(json.dumps(json.loads(placed)["plan"]), schedule), after
        elif any(a > b for a, b in zip(after, peaks)):
            warnings.warn(f"memplan: {strategy} placed the spaces at {list(after)} bytes, above "
                          f"Aidge's {list(peaks)}; keeping Aidge's plan", stacklevel=2)
    if stats_folder is not None:
        folder = Path(stats_folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "memory_info.memplan.json").write_text(text)
        dialect = "aidge" if multiple_mems else "aidge-single"
        (folder / "memory_info.txt").write_text(
            native.convert(text, "memory_info.memplan.json", dialect))
        (folder / "memory_info.svg").write_text(
            native.svg(text, "memory_info.memplan.json", bool(display_names), 1600, 600))
    mem_size: Union[int, List[int]] = list(peaks) if multiple_mems else peaks[0]
    return mem_size, records(scheduler, text)


@dataclass(frozen=True)
class Finding:
    """A finding of the export memory checker: ``kind`` (unwritten, overwritten,
    beyond_buffer, never_written, output_unwritten, output_overwritten or
    outside_arena), the ``node`` and layer ``header`` it is about, how many
    ``bytes``, and the ``message`` ``memplan check --export`` prints."""

    kind: str
    node: str
    header: str
    bytes: int
    message: str


def check_export(folder: Union[str, Path]) -> List[Finding]:
    """The export memory checker (``memplan check --export DIR``) on a generated
    aidge-export-cpp or aidge-export-arm-cortexm folder: replays forward.cpp's
    kernels on the arena the layer headers place. Returns the findings; empty when
    the export reads only bytes its kernels wrote for it."""
    report = json.loads(_native().check_export(str(folder)))
    return [Finding(kind=str(f["kind"]), node=str(f["node"]), header=str(f["header"]),
                    bytes=int(f["bytes"]), message=str(f["message"]))
            for f in report["findings"]]


class patch_export:
    """Makes ``aidge_core.export_utils.export`` (and ``aidge_export_cpp.export``,
    which calls it) plan memory with :func:`memory_manager` and ``strategy``.

    Effective from the call on; as a context manager, undone on exit::

        from memplan.aidge import patch_export
        with patch_export(strategy="best") as patch:
            aidge_core.export_utils.export(model, config, input_tensors=[x])
        patch.findings  # {export folder: check_export's findings}

    With ``check`` (default), every export written meanwhile is checked by
    :func:`check_export` right after its code is generated: the findings are kept
    in ``findings`` by folder and each export with findings raises one
    ``RuntimeWarning`` (the export itself is left as Aidge wrote it).
    """

    def __init__(self, strategy: str = "best", budget_ms: int = 2000, check: bool = True) -> None:
        import importlib
        strategy = _strategy(strategy)
        # `aidge_core.export_utils.export` the attribute is the export() function; the
        # module of that name holds the global _export_scheduler looks up at call time.
        self._module: Any = importlib.import_module("aidge_core.export_utils.export")
        self._original = self._module.generate_optimized_memory_info

        def hooked(scheduler: Any, *args: Any, **kwargs: Any) -> Any:
            return memory_manager(scheduler, *args, strategy=strategy, budget_ms=budget_ms,
                                  **kwargs)

        hooked.__doc__ = memory_manager.__doc__
        self._module.generate_optimized_memory_info = hooked
        self.findings: Dict[str, List[Finding]] = {}
        # write_export calls _export_scheduler (a global of the same module) to write
        # forward.cpp and the layer headers: the checker runs right after it.
        self._scheduler_export = self._module._export_scheduler
        if check:
            original = self._scheduler_export

            def exported(ctx: Any, export_folder: Any, *args: Any, **kwargs: Any) -> Any:
                result = original(ctx, export_folder, *args, **kwargs)
                found = check_export(export_folder)
                self.findings[str(export_folder)] = found
                if found:
                    lines = "\n  ".join(f.message for f in found[:5])
                    more = f"\n  ... and {len(found) - 5} more" if len(found) > 5 else ""
                    warnings.warn(f"memplan: the export in {export_folder} has {len(found)} "
                                  f"memory findings (memplan check --export):\n  {lines}{more}",
                                  RuntimeWarning, stacklevel=2)
                return result

            self._module._export_scheduler = exported

    def undo(self) -> None:
        """Puts Aidge's own generate_optimized_memory_info back."""
        self._module.generate_optimized_memory_info = self._original
        self._module._export_scheduler = self._scheduler_export

    def __enter__(self) -> "patch_export":
        return self

    def __exit__(self, *exc: object) -> None:
        self.undo()
