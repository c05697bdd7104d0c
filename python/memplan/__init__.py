"""memplan: a planner for the static memory of neural-network inference.

The planner itself is the Rust core, compiled into ``memplan._native`` (loaded on
first use, so the pure-Python parts, e.g. ``memplan.aidge.export``, also work from
a source checkout). ``memplan.aidge`` connects it to Eclipse Aidge 0.10.1:

- ``memplan.aidge.export(scheduler, path)``: the schedule and Aidge's plan as a
  memplan JSON file, for the CLI and the page;
- ``memplan.aidge.memory_manager(scheduler, ...)``: aidge_core's
  ``generate_optimized_memory_info`` with memplan's placement;
- ``memplan.aidge.patch_export(strategy="best")``: makes
  ``aidge_core.export_utils.export`` (and ``aidge_export_cpp.export``) use it.

``memplan.tflm`` does the same for TensorFlow Lite Micro: ``apply_plan(model_bytes)``
writes memplan's plan into the model's ``OfflineMemoryAllocation`` metadata.

The names a user passes are the Rust core's (one definition for the CLI, the page
and Python): ``STRATEGIES`` (``as-loaded`` first, which keeps the plan as loaded
and is also accepted as ``aidge``; ``STRATEGY_HELP`` says what each does),
``EXPORT_FORMATS`` (``memplan convert --format``), ``RECIPES`` (``RECIPE_HELP``) and
``DTYPES`` (``memplan --recipes``, ``--dtype``).

``memplan.show(plan)`` shows a plan (a path, bytes, a memplan JSON document, an Aidge
scheduler, an ONNX or ``.tflite`` model) in memplan's viewer, inline in a notebook (an
anywidget widget; ``compare=`` a second plan).

``memplan.deploy(model, recipes=("export-cpp",))`` plans a model as its deployment runs
it: the graph rewritten as aidge-export-cpp's export rewrites it (fusions, NHWC, its
in-place rules), planned as the export plans it; ``Deployed.peak`` is the export's
``mem_0`` (docs/recipes.md).

``memplan.fit(model, memory="256K+8M")`` says whether a model fits a device's memory
map (fastest bank first; ``PRESETS`` names boards), the slow traffic per inference, a
sweep of fast sizes and Aidge's priority spill beside it (docs/fit.md).
"""

import importlib
from typing import TYPE_CHECKING, Dict, Tuple

from .deploy import Deployed, deploy
from .fit import Fit, Preset, Tiling, fit
from .notebook import show
from .report import Report

__version__ = "0.1.0"
__all__ = ["Report", "Deployed", "deploy", "Fit", "Preset", "Tiling", "fit", "PRESETS", "show", "STRATEGIES", "STRATEGY_HELP", "AS_LOADED",
           "EXPORT_FORMATS", "RECIPES", "RECIPE_HELP", "DTYPES"]

if TYPE_CHECKING:
    STRATEGIES: Tuple[str, ...]
    STRATEGY_HELP: Dict[str, str]
    AS_LOADED: str
    EXPORT_FORMATS: Tuple[str, ...]
    RECIPES: Tuple[str, ...]
    RECIPE_HELP: Dict[str, str]
    DTYPES: Tuple[str, ...]
    PRESETS: Dict[str, Preset]


def __getattr__(name: str) -> object:
    """The core's names, read from ``memplan._native`` on first use."""
    if name not in ("STRATEGIES", "STRATEGY_HELP", "AS_LOADED", "EXPORT_FORMATS", "RECIPES",
                    "RECIPE_HELP", "DTYPES", "PRESETS"):
        raise AttributeError(f"module 'memplan' has no attribute {name!r}")
    # (not `from . import _native`: that asks this function for `_native` first)
    _native = importlib.import_module(f"{__name__}._native")
    if name == "STRATEGIES":
        return tuple(_native.STRATEGIES)
    if name == "STRATEGY_HELP":
        return dict(_native.STRATEGY_HELP)
    if name == "AS_LOADED":
        return _native.AS_LOADED
    if name == "RECIPES":
        return tuple(_native.RECIPES)
    if name == "RECIPE_HELP":
        return dict(_native.RECIPE_HELP)
    if name == "DTYPES":
        return tuple(_native.DTYPES)
    if name == "PRESETS":
        from .fit import presets
        return {p.name: p for p in presets()}
    return tuple(_native.EXPORT_FORMATS)
