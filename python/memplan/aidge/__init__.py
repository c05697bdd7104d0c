"""memplan for Eclipse Aidge (aidge_core 0.10.1).

- ``export(scheduler, path, ...)`` writes the schedule and Aidge's own plan as a
  memplan JSON file (``exporter``; needs only aidge_core); ``document(scheduler, ...)``
  is the same document as a dict.
- ``log_info(scheduler, ...)`` shows Aidge's plan of the scheduler (what Aidge's
  ``log_meminfo`` plots) in memplan's viewer, inline in a notebook (``memplan.show``).
- ``memory_manager(scheduler, ...)`` has the signature and return value of
  ``aidge_core.mem_info.generate_optimized_memory_info`` and re-places Aidge's plan
  with a memplan strategy (``hook``; needs the compiled ``memplan._native``).
- ``patch_export(strategy="best")`` makes Aidge's C/C++ exports use it, and checks
  each export it writes with ``check_export(folder)`` (the export memory checker).
"""

from .exporter import aidge_plan, document, export, log_info, plan_of, schedule_of
from .hook import check_export, memory_manager, patch_export

__all__ = ["export", "document", "log_info", "schedule_of", "aidge_plan", "plan_of",
           "memory_manager", "patch_export", "check_export"]
