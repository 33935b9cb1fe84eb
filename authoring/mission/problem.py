"""A problem found in an input file, as a comparable value.

Validation (schema family ``S``, mission family ``M``) and the linter report the same kind of
value; the presentation lives in formatters, never here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True, order=True)
class Problem:
    """One finding: where (1-based line and column), which rule, how bad, and what is wrong."""

    file: str
    line: int
    col: int
    code: str
    name: str
    message: str
    severity: Severity = "error"
    hint: str | None = None
    path: str = "$"  # JSON path of the offending value

    def location(self) -> str:
        """Returns ``file:line:col``."""
        return f"{self.file}:{self.line}:{self.col}"

    def to_dict(self) -> dict[str, object]:
        """Returns the problem as JSON-ready data with stable keys."""
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "path": self.path,
        }
