"""Rule selection by code prefix or name, in the style of ruff.

A selector is ``ALL``, a code prefix (``T``, ``T1``, ``T101``) or a rule name
(``early-event``). For each rule the most specific matching selector decides; at equal
specificity ``ignore`` beats ``select``. Specificity is the prefix length (``ALL`` is 0; a
name counts as a full code).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from authoring.errors import UsageError

_PREFIX = re.compile(r"^[A-Z][0-9]{0,3}$")
ALL = "ALL"


@dataclass(frozen=True)
class Selector:
    """A parsed selector and how specific it is."""

    text: str
    specificity: int

    def matches(self, code: str, name: str) -> bool:
        """Tells whether the selector picks the rule ``code``/``name``."""
        if self.text == ALL:
            return True
        if self.text == name:
            return True
        return code.startswith(self.text)


def parse_selector(text: str, rules: Mapping[str, str], *, origin: str = "selector") -> Selector:
    """Parses ``text`` against the known rules (code → name); raises ``UsageError`` if unknown."""
    raw = text.strip()
    upper = raw.upper()
    if upper == ALL:
        return Selector(ALL, 0)
    if _PREFIX.match(upper) and any(code.startswith(upper) for code in rules):
        return Selector(upper, len(upper))
    if raw in rules.values():
        return Selector(raw, 4)
    families = [f for f in "SMTGAC" if any(code.startswith(f) for code in rules)]
    raise UsageError(
        f"unknown rule {origin} {text!r}: expected ALL, a code prefix of "
        f"{', '.join(families)} (e.g. T, T1, T101) or a rule name",
        hint="run 'spacealert rules' to list every rule")


def parse_selectors(texts: Iterable[str], rules: Mapping[str, str], *,
                    origin: str = "selector") -> tuple[Selector, ...]:
    """Parses several selectors (each may itself be comma-separated)."""
    out: list[Selector] = []
    for text in texts:
        for part in str(text).split(","):
            if part.strip():
                out.append(parse_selector(part, rules, origin=origin))
    return tuple(out)


def is_enabled(code: str, name: str, select: Sequence[Selector],
               ignore: Sequence[Selector]) -> bool:
    """Decides whether a rule runs: the most specific selector wins, ignore wins ties."""
    best_select = max((s.specificity for s in select if s.matches(code, name)), default=-1)
    best_ignore = max((s.specificity for s in ignore if s.matches(code, name)), default=-1)
    if best_select < 0:
        return False
    return best_select > best_ignore


def most_specific(code: str, name: str, mapping: Mapping[Selector, str]) -> str | None:
    """Returns the value of the most specific selector in ``mapping`` matching the rule."""
    best: tuple[int, str] | None = None
    for selector, value in mapping.items():
        if selector.matches(code, name) and (best is None or selector.specificity > best[0]):
            best = (selector.specificity, value)
    return best[1] if best else None
