"""A model planned as its deployment runs it (``recipes::document`` of the Rust core)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple, Union

from .report import Report

__all__ = ["Deployed", "deploy"]


@dataclass(frozen=True)
class Deployed:
    """A deployed graph: ``document`` is its memplan JSON (the rewritten schedule, which
    the CLI and the page open), ``notes`` what the recipes did (or why the figure is an
    estimate), ``report`` the plan the deployment makes of it (its ``peak``: the
    arena, e.g. aidge-export-cpp's ``mem_0``)."""

    document: str
    notes: Tuple[str, ...]
    report: Report

    @property
    def peak(self) -> int:
        return self.report.peak


def deploy(model: Union[str, "os.PathLike[str]", bytes], recipes: Sequence[str] = ("export-cpp",),
           dtype: Optional[str] = None, strategy: str = "as-loaded",
           budget_ms: int = 2000, name: Optional[str] = None) -> Deployed:
    """Plans ``model`` (a path or the bytes of an ONNX model, or of a memplan JSON with
    its schedule, e.g. ``memplan.aidge.export``'s) as ``recipes`` (names of
    ``memplan.RECIPES``) and ``dtype`` (one of ``memplan.DTYPES``) deploy it;
    ``strategy`` ``as-loaded`` is the deployment's own plan, another re-places it."""
    from . import _native
    if isinstance(model, bytes):
        data, label = model, name or "model"
    else:
        with open(model, "rb") as f:
            data = f.read()
        label = name or os.fspath(model)
    text, notes = _native.deploy(data, label, ",".join(recipes), dtype or "")
    _, report = _native.plan(text, label, strategy, budget_ms)
    return Deployed(document=text, notes=tuple(notes), report=Report.from_json(report))
