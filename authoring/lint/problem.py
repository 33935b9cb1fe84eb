"""The problem value the linter reports, shared with the validator.

``Problem`` lives in ``authoring.mission.problem`` because validation reports it too; the
linter re-exports it so that formatters (``authoring.report``) need to import only ``lint``.
"""

from __future__ import annotations

from authoring.mission.problem import SEVERITIES, Problem, Severity

__all__ = ["SEVERITIES", "SEVERITY_RANK", "Problem", "Severity"]

#: Orders severities from the least to the most serious.
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}
