"""``memplan.show``: memplan's viewer inline in a notebook (JupyterLab, Notebook, VS Code,
Colab, marimo), as an `anywidget <https://anywidget.dev>`_ widget.

The widget runs the page's own wasm viewer in the notebook's page: the wasm and its JS
are one ES module inside the package (``memplan/static/widget.mjs``, made by the build
from ``www/memplan-widget.js``: ``scripts/widget.mjs``), handed to the notebook in the
widget's state. No server, no CDN, no request: the file's bytes travel to the page with
the widget, as the page's own files do, and nothing leaves the browser.

Its static form (a notebook exported to HTML without the widget's state, e.g. by
``jupyter nbconvert --to html``) is the plan drawn as SVG by the core (``_native.svg``,
what ``memplan render`` draws) with its peak: the widget's ``text/html`` fallback.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import uuid
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

__all__ = ["show"]

#: Where the build puts the widget's module (git ignores it; the wheel carries it).
STATIC = Path(__file__).resolve().parent / "static"

#: The width of the static SVG (the HTML export's), in CSS pixels; it scales to its box.
_SVG_WIDTH = 960


def _bundle() -> str:
    """The widget's ES module (wasm inline)."""
    path = STATIC / "widget.mjs"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuntimeError(
            f"memplan.show: the viewer is not built into this memplan ({path} is missing): "
            "in a source checkout run `npm run build` (or `scripts/build.sh widget`) and "
            "`pip install -e .` again; a wheel built after them carries it") from None


@functools.lru_cache(maxsize=None)
def _widget_class() -> Any:
    """The anywidget class, made on first use (``import memplan`` needs no anywidget)."""
    try:
        import anywidget
        import traitlets
    except ImportError as e:
        raise ImportError("memplan.show needs anywidget: pip install anywidget") from e

    class PlanWidget(anywidget.AnyWidget):  # type: ignore[misc]
        """memplan's viewer of one plan (``data``), or of two (``compare_data``)."""

        _esm = _bundle()
        name = traitlets.Unicode("").tag(sync=True)
        data = traitlets.Bytes(b"").tag(sync=True)
        compare_name = traitlets.Unicode("").tag(sync=True)
        compare_data = traitlets.Bytes(b"").tag(sync=True)
        strategy = traitlets.Unicode("as-loaded").tag(sync=True)
        names = traitlets.Bool(False).tag(sync=True)
        theme = traitlets.Unicode("auto").tag(sync=True)
        height = traitlets.Int(420).tag(sync=True)
        compare = traitlets.Bool(False).tag(sync=True)
        #: What the widget shows, set by the page: peak, bound, planes… (and the compare's).
        summary = traitlets.Dict().tag(sync=True)

        def __init__(self, fallback: str, **kwargs: Any) -> None:
            self._fallback = fallback
            super().__init__(**kwargs)

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            bundle = super()._repr_mimebundle_(**kwargs)
            if bundle is None:
                return None
            data, metadata = bundle
            # What a notebook without the widget's state shows (nbconvert's HTML).
            data["text/html"] = self._fallback
            return data, metadata

    PlanWidget.__qualname__ = "PlanWidget"
    return PlanWidget


def _read(x: Any, name: Optional[str]) -> Tuple[str, bytes]:
    """(name, bytes) of what ``show`` takes."""
    if hasattr(x, "get_sequential_static_scheduling"):
        # An Aidge scheduler (after forward_dims and generate_scheduling): its schedule
        # and Aidge's own plan, as memplan.aidge.export writes them.
        from .aidge.exporter import document
        return name or "aidge.memplan.json", json.dumps(document(x)).encode()
    if isinstance(x, dict):
        return name or "plan.memplan.json", json.dumps(x).encode()
    if isinstance(x, (bytes, bytearray, memoryview)):
        return name or "plan", bytes(x)
    if isinstance(x, str) and x.lstrip().startswith("{"):
        return name or "plan.memplan.json", x.encode()
    if isinstance(x, (str, os.PathLike)):
        path = os.fspath(x)
        with open(path, "rb") as f:
            return name or os.path.basename(path), f.read()
    raise TypeError(f"memplan.show: cannot show a {type(x).__name__}: give a path, bytes, "
                    "a memplan JSON document (text or dict) or an Aidge scheduler")


def _openable(name: str, data: bytes) -> bytes:
    """What the widget's wasm opens: an ONNX model becomes its schedule document here
    (the page reads models with a wasm module of their own, which the widget leaves
    out); any other file goes as it is."""
    from . import _native
    if name.lower().endswith(".onnx") and not data.lstrip().startswith(b"{"):
        return _native.convert(data, name, "memplan").encode()
    return data


def _static(name: str, data: bytes, strategy: str, names: bool, height: int) -> str:
    """The plan as the widget first shows it, as HTML: a line with its peak and the SVG
    of the chart. Raises ValueError (the core's message) for a file that does not open."""
    from . import _native
    from .report import Report
    # The search budget of a strategy, the widget's (the core's `EMBED_BUDGET_MS`).
    text, report_json = _native.plan(data, name, strategy, _native.EMBED_BUDGET_MS)
    report = Report.from_json(report_json)
    svg = _native.svg(data if strategy == _native.AS_LOADED else text, name, names,
                      _SVG_WIDTH, max(160, height - 40))
    bound = "layout bound" if report.bound_scope == "layout" else "lower bound"
    shown = name if strategy == _native.AS_LOADED else f"{name} · {strategy}"
    caption = (f"memplan · {shown}: peak {report.peak:,} B · {bound} {report.lower_bound:,} B")
    # The SVG scales to the output's width (its viewBox is its own size).
    svg = svg.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
    return (f'<p style="margin:4px 0;font:12px system-ui,sans-serif">{html.escape(caption)}</p>'
            f"{_own_ids(svg)}")


def _own_ids(svg: str) -> str:
    """`svg` with ids of its own: a page of several inline SVGs (a notebook's HTML) has
    one namespace of ids, and each chart's clip paths and patterns must be its own."""
    prefix = f"mp{uuid.uuid4().hex[:8]}-"
    ids = set(re.findall(r'\sid="([^"]+)"', svg))
    for name in ids:
        svg = (svg.replace(f'id="{name}"', f'id="{prefix}{name}"')
               .replace(f"url(#{name})", f"url(#{prefix}{name})")
               .replace(f'href="#{name}"', f'href="#{prefix}{name}"'))
    return svg



def show(plan: Any, compare: Any = None, *, name: Optional[str] = None,
         compare_name: Optional[str] = None, strategy: str = "as-loaded", names: bool = False,
         theme: str = "auto", height: int = 420) -> Any:
    """The plan ``plan`` in memplan's viewer, inline in the notebook.

    ``plan`` (and ``compare``) is a path, the bytes of a file (``name`` names it: its
    suffix tells an ``.onnx`` or a ``.tflite``), a memplan JSON document (text or dict),
    or an Aidge scheduler (after ``forward_dims`` and ``generate_scheduling``: its
    schedule and Aidge's plan, as ``memplan.aidge.export`` writes them). Any file the
    CLI reads: memplan JSON, Aidge's ``memory_info.txt``, MiniMalloc CSV, ONNX and
    ``.tflite`` models, TFLM's, IREE's and ExecuTorch's dumps.

    The widget draws the plan (hover a plane for its details, click pins it, drag pans,
    the wheel zooms, arrows and P move between planes, N shows names) under a bar: the
    strategy menu re-plans it (``strategy`` is the first choice; the search has the widget's budget, ``_native.EMBED_BUDGET_MS``),
    *Names*, *Compare* (``compare`` given: the two plans on one scale, shown first;
    else the plan as loaded against its re-plan) and *Fit*. ``height`` is in pixels;
    the width is the cell's. ``theme`` ``auto`` follows the notebook's (JupyterLab's,
    VS Code's, else the system's). The widget's ``strategy``, ``names``, ``compare``,
    ``theme`` and ``height`` can be set from Python; ``summary`` is what it shows (peak,
    bound, planes; ``summary["compare"]`` the compare's peaks and delta).

    Raises ``ValueError`` for a file memplan cannot read (the core's message), and
    ``ImportError`` without ``anywidget``.
    """
    from . import _native
    if strategy == _native.AS_LOADED_ALIAS:
        strategy = _native.AS_LOADED
    if strategy not in _native.STRATEGIES:
        raise ValueError(f"strategy {strategy!r}: expected one of {', '.join(_native.STRATEGIES)}")
    if theme not in ("auto", "light", "dark"):
        raise ValueError(f"theme {theme!r}: expected auto, light or dark")
    label, data = _read(plan, name)
    data = _openable(label, data)
    fallback = _static(label, data, strategy, names, height)
    traits: Dict[str, Any] = {"name": label, "data": data, "strategy": strategy,
                              "names": bool(names), "theme": theme, "height": int(height)}
    if compare is not None:
        other, other_data = _read(compare, compare_name)
        other_data = _openable(other, other_data)
        if other == label:
            other = f"{other} (2)"
        fallback += _static(other, other_data, _native.AS_LOADED, names, height)
        traits.update(compare_name=other, compare_data=other_data, compare=True)
    return _widget_class()(fallback=f'<div class="memplan-static">{fallback}</div>', **traits)
