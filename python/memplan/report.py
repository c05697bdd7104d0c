"""The report of a plan (``planning::PlanReport`` of the Rust core), as a dataclass."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional, Tuple

__all__ = ["Report"]


@dataclass(frozen=True)
class Report:
    """What memplan reports next to a plan (``memplan plan``'s report).

    ``strategy`` is the choice asked for (``as-loaded`` or a strategy name);
    ``strategy_used`` the strategy whose placement it is (``best``'s winner, or the
    default placement of a list without offsets); ``component_peaks`` the top of
    each memory component, in the plan's order; ``lower_bound`` bounds what
    ``bound_scope`` says: every plan memplan can make of the file (``placements``),
    every plan it makes of a schedule (``layouts``: over Aidge's drivers, wrap-around,
    optimize rules and branch orders, what ``best`` never goes under) or, when those
    layouts took too long to make, this plan's layout only (``layout``); ``layouts_bound``: for ``best`` on a schedule, the bound over every layout it
    made; ``at_bound``: at the bound of its scope; ``proven_optimal``: no plan memplan
    can make of the file is smaller. ``arena``: for a ``.tflite``, what to set
    TFLM's arena to. ``limits``: what a re-plan could not change for want of what the
    file holds; ``order``: set when the plan runs the parallel branches in another
    order than the file's schedule (the plan holds only for that order).
    """

    strategy: str
    strategy_used: str
    peak: int
    lower_bound: int
    component_peaks: Tuple[int, ...]
    proven_optimal: bool
    elapsed_ms: int
    iterations: int
    bound_scope: str = "placements"
    layouts_bound: Optional[int] = None
    at_bound: bool = False
    capacity: Optional[int] = None
    limits: Optional[str] = None
    order: Optional[str] = None
    arena: Optional[str] = None

    @classmethod
    def from_json(cls, text: str, arena: Optional[str] = None) -> "Report":
        """The report of the core's JSON (byte counts are digit strings there)."""
        r: dict[str, Any] = json.loads(text)
        capacity = r.get("capacity")
        layouts = r.get("layouts_bound")
        return cls(strategy=str(r["strategy"]), strategy_used=str(r["strategy_used"]),
                   peak=int(r["peak"]), lower_bound=int(r["lower_bound"]),
                   component_peaks=tuple(int(p) for p in r["component_peaks"]),
                   proven_optimal=bool(r["proven_optimal"]), elapsed_ms=int(r["elapsed_ms"]),
                   iterations=int(r["iterations"]),
                   bound_scope=str(r["bound_scope"]), at_bound=bool(r["at_bound"]),
                   layouts_bound=None if layouts is None else int(layouts),
                   capacity=None if capacity is None else int(capacity),
                   limits=r.get("limits"), order=r.get("order"), arena=arena)
