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
"""

__version__ = "0.1.0"
