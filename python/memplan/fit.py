"""Will it fit a device? (``fit::fit`` of the Rust core, as dataclasses.)

``memplan.fit(model, memory="256K+8M")`` places the plan of ``model`` into a memory map
(fastest bank first; ``memplan.PRESETS`` names boards) and says whether it fits, how
much slow traffic each inference moves, the fast-size sweep and Aidge's priority spill
beside it; for an ONNX model that does not fit the fast bank alone, ``tile=True`` also
fits it with its first layers run patch by patch (``Tiling``; ``tiled_onnx``, the tiled
model, when that is the answer). Every figure is the core's (the CLI's ``memplan fit --json``): Python only
reads its JSON.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, Union

__all__ = ["Bank", "Traffic", "SweepPoint", "AidgeSpill", "Preset", "TiledStage", "Tiling", "Fit",
           "fit", "presets"]


@dataclass(frozen=True)
class Bank:
    """One memory of the map: its ``size`` and the ``peak`` the plan reaches in it."""

    name: str
    size: int
    peak: int


@dataclass(frozen=True)
class Traffic:
    """Bytes per inference written to and read from the banks after the first."""

    written: int
    read: int
    total: int


@dataclass(frozen=True)
class SweepPoint:
    """The fit at one fast size: each bank's peak and the slow traffic."""

    fast: int
    fits: bool
    peaks: Tuple[int, ...]
    slow_traffic: Traffic


@dataclass(frozen=True)
class AidgeSpill:
    """Aidge 0.10.1's multiple-mems driver with the map's capacities (``error``: its
    refusal when no component has room)."""

    fits: bool
    banks: Tuple[Bank, ...]
    slow_traffic: Traffic
    error: Optional[str]


@dataclass(frozen=True)
class Preset:
    """A board's memories (fastest first, ``(name, bytes)``) and where the sizes come from."""

    name: str
    banks: Tuple[Tuple[str, int], ...]
    source: str


@dataclass(frozen=True)
class TiledStage:
    """A stage run patch by patch: nodes ``first`` to ``last`` (ONNX names) in a
    ``rows`` × ``cols`` grid of the ``cut`` tensor, the ``halo`` each patch recomputes
    (rows, columns) and the MACs that adds."""

    first: str
    last: str
    cut: str
    rows: int
    cols: int
    halo: Tuple[int, int]
    macs_added_percent: float


@dataclass(frozen=True)
class Tiling:
    """The tiled model's fit beside the untiled one: ``chosen`` when it is the answer;
    ``peak_before``/``peak_after`` memplan's best peaks of the model before and after;
    ``verdict``, ``summary``, ``banks`` and ``slow_traffic`` the tiled model's fit."""

    chosen: bool
    stages: Tuple[TiledStage, ...]
    peak_before: int
    peak_after: int
    macs_added_percent: float
    verdict: str
    summary: str
    banks: Tuple[Bank, ...]
    slow_traffic: Traffic
    untiled_verdict: str
    untiled_summary: str


@dataclass(frozen=True)
class Fit:
    """What ``memplan.fit`` found. ``verdict`` is ``fits-fast``, ``fits-with-slow`` or
    ``does-not-fit``; ``summary`` says it in words (and why it does not fit);
    ``min_fast`` is the smallest first bank that holds everything (memplan's best
    peak); ``document`` the plan with one memory component per bank (memplan JSON, which
    ``memplan check`` verifies); ``raw`` the core's whole JSON (``buffers``: where each
    tensor goes; ``notes``). ``fits``, ``verdict``, ``summary`` and ``document`` are the
    answer: the tiled model's when ``lever`` is ``"tiling"``; ``banks``, ``slow_traffic``,
    ``sweep`` and ``aidge_spill`` are the untiled model's (the tiled one's in
    ``tiling``); ``untiled_because`` says why the answer is not tiled."""

    fits: bool
    verdict: str
    summary: str
    banks: Tuple[Bank, ...]
    slow_traffic: Traffic
    min_fast: int
    sweep: Tuple[SweepPoint, ...]
    aidge_spill: Optional[AidgeSpill]
    lever: Optional[str]
    tiling: Optional[Tiling]
    untiled_because: Optional[str]
    tiled_onnx: Optional[bytes]
    document: str
    raw: Any

    @classmethod
    def from_json(cls, text: str, document: str, tiled_onnx: Optional[bytes] = None) -> "Fit":
        r: dict[str, Any] = json.loads(text)
        spill = r.get("aidge_spill")
        t = r.get("tiling")
        return cls(
            fits=bool(r["fits"]),
            verdict=str(r["verdict"]),
            summary=str(r["summary"]),
            banks=_banks(r["banks"]),
            slow_traffic=_traffic(r["slow_traffic"]),
            min_fast=int(r["sweep"]["min_fast"]),
            sweep=tuple(SweepPoint(fast=int(p["fast"]), fits=bool(p["fits"]),
                                   peaks=tuple(int(x) for x in p["peaks"]),
                                   slow_traffic=_traffic(p["slow_traffic"]))
                        for p in r["sweep"]["points"]),
            aidge_spill=None if spill is None else AidgeSpill(
                fits=bool(spill["fits"]), banks=_banks(spill["banks"]),
                slow_traffic=_traffic(spill["slow_traffic"]), error=spill.get("error")),
            lever=r.get("lever"),
            tiling=None if t is None else _tiling(t),
            untiled_because=r.get("untiled_because"),
            tiled_onnx=tiled_onnx,
            document=document,
            raw=r,
        )


def _banks(v: Any) -> Tuple[Bank, ...]:
    return tuple(Bank(name=str(b["name"]), size=int(b["size"]), peak=int(b["peak"])) for b in v)


def _tiling(t: Any) -> Tiling:
    f = t["fit"]
    return Tiling(
        chosen=bool(t["chosen"]),
        stages=tuple(TiledStage(first=str(s["first"]), last=str(s["last"]), cut=str(s["cut"]),
                                rows=int(s["rows"]), cols=int(s["cols"]),
                                halo=(int(s["halo"][0]), int(s["halo"][1])),
                                macs_added_percent=float(s["macs_added_percent"]))
                     for s in t["stages"]),
        peak_before=int(t["peak_before"]), peak_after=int(t["peak_after"]),
        macs_added_percent=float(t["macs_added_percent"]),
        verdict=str(f["verdict"]), summary=str(f["summary"]), banks=_banks(f["banks"]),
        slow_traffic=_traffic(f["slow_traffic"]),
        untiled_verdict=str(t["untiled_verdict"]), untiled_summary=str(t["untiled_summary"]),
    )


def _traffic(v: Any) -> Traffic:
    return Traffic(written=int(v["written"]), read=int(v["read"]), total=int(v["total"]))


def presets() -> Tuple[Preset, ...]:
    """The board presets of the core (``memplan.PRESETS`` maps their names to them)."""
    from . import _native
    return tuple(Preset(name=n, banks=tuple((b, int(s)) for b, s in banks), source=src)
                 for n, banks, src in _native.PRESETS)


def fit(model: Union[str, "os.PathLike[str]", bytes], memory: str = "256K+8M",
        recipes: Sequence[str] = (), dtype: Optional[str] = None, budget_ms: int = 2000,
        name: Optional[str] = None, tile: bool = True, tile_budget_ms: int = 10000) -> Fit:
    """Fits ``model`` (a path or the bytes of any file memplan reads: an ONNX model, a
    ``.tflite``, a plan, a schedule) into ``memory`` (``"256K+8M"``, ``"sram=512K,psram=8M"``
    or a name of ``memplan.PRESETS``), deployed first as ``recipes``/``dtype`` when given
    (as ``memplan.deploy``). With ``tile`` (as ``memplan fit`` without ``--no-tile``), an
    ONNX model that does not fit the fast bank alone is also fitted tiled (a search of
    ``tile_budget_ms``) and the better fit is the answer. Raises ``ValueError`` on a bad
    map or file."""
    from . import _native
    if isinstance(model, bytes):
        data, label = model, name or "model"
    else:
        with open(model, "rb") as f:
            data = f.read()
        label = name or os.fspath(model)
    text, document, tiled = _native.fit(data, label, memory, ",".join(recipes), dtype or "",
                                        budget_ms, tile, tile_budget_ms)
    return Fit.from_json(text, document, tiled)
