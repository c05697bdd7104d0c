"""Will it fit a device? (``fit::fit`` of the Rust core, as dataclasses.)

``memplan.fit(model, memory="256K+8M")`` places the plan of ``model`` into a memory map
(fastest bank first; ``memplan.PRESETS`` names boards) and says whether it fits, how
much slow traffic each inference moves, the fast-size sweep and Aidge's priority spill
beside it. Every figure is the core's (the CLI's ``memplan fit --json``): Python only
reads its JSON.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, Union

__all__ = ["Bank", "Traffic", "SweepPoint", "AidgeSpill", "Preset", "Fit", "fit", "presets"]


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
class Fit:
    """What ``memplan.fit`` found. ``verdict`` is ``fits-fast``, ``fits-with-slow`` or
    ``does-not-fit``; ``summary`` says it in words (and why it does not fit);
    ``min_fast`` is the smallest first bank that holds everything (memplan's best
    peak); ``document`` the plan with one memory component per bank (memplan JSON, which
    ``memplan check`` verifies); ``raw`` the core's whole JSON (``buffers``: where each
    tensor goes; ``notes``)."""

    fits: bool
    verdict: str
    summary: str
    banks: Tuple[Bank, ...]
    slow_traffic: Traffic
    min_fast: int
    sweep: Tuple[SweepPoint, ...]
    aidge_spill: Optional[AidgeSpill]
    document: str
    raw: Any

    @classmethod
    def from_json(cls, text: str, document: str) -> "Fit":
        r: dict[str, Any] = json.loads(text)
        spill = r.get("aidge_spill")
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
            document=document,
            raw=r,
        )


def _banks(v: Any) -> Tuple[Bank, ...]:
    return tuple(Bank(name=str(b["name"]), size=int(b["size"]), peak=int(b["peak"])) for b in v)


def _traffic(v: Any) -> Traffic:
    return Traffic(written=int(v["written"]), read=int(v["read"]), total=int(v["total"]))


def presets() -> Tuple[Preset, ...]:
    """The board presets of the core (``memplan.PRESETS`` maps their names to them)."""
    from . import _native
    return tuple(Preset(name=n, banks=tuple((b, int(s)) for b, s in banks), source=src)
                 for n, banks, src in _native.PRESETS)


def fit(model: Union[str, "os.PathLike[str]", bytes], memory: str = "256K+8M",
        recipes: Sequence[str] = (), dtype: Optional[str] = None, budget_ms: int = 2000,
        name: Optional[str] = None) -> Fit:
    """Fits ``model`` (a path or the bytes of any file memplan reads: an ONNX model, a
    ``.tflite``, a plan, a schedule) into ``memory`` (``"256K+8M"``, ``"sram=512K,psram=8M"``
    or a name of ``memplan.PRESETS``), deployed first as ``recipes``/``dtype`` when given
    (as ``memplan.deploy``). Raises ``ValueError`` on a bad map or file."""
    from . import _native
    if isinstance(model, bytes):
        data, label = model, name or "model"
    else:
        with open(model, "rb") as f:
            data = f.read()
        label = name or os.fspath(model)
    text, document = _native.fit(data, label, memory, ",".join(recipes), dtype or "", budget_ms)
    return Fit.from_json(text, document)
