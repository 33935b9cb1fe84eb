"""The explicit registry of lint rules, and the problem codes the validator owns.

Rules are listed one by one in ``authoring.lint.rules.RULE_MODULES``; this module builds the
code → ``Rule`` mapping once and answers look-ups. The validator's own codes (parse, schema
and playability problems) are listed here too so that ``spacealert rules`` can explain them;
they are always reported and cannot be selected or ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from authoring.errors import UsageError
from authoring.lint.rule import Rule
from authoring.lint.rules import RULE_MODULES

#: Problems reported by ``spacealert validate`` (and by the linter before any rule runs).
VALIDATOR_CODES: Mapping[str, tuple[str, str]] = {
    "S001": ("yaml-syntax", "The file is not one well-formed YAML document (or it is empty)."),
    "S002": ("duplicate-key", "A mapping repeats a key."),
    "S003": ("unreadable-file", "The file cannot be read: missing, too large, binary or not "
                                "UTF-8."),
    "S004": ("alias-expansion", "YAML aliases expand to more than 100,000 values."),
    "S005": ("unbuildable-value", "A value YAML cannot build: an impossible date such as "
                                  "2020-02-30, or a tag that does not fit (!!int abc)."),
    "S006": ("too-large", "The file asks too much of the reader: over 20,000 lines, a line "
                          "over 10,000 characters, over 256 KiB outside comments, "
                          "collections nested over 32 deep, more than 6,000 values or a "
                          "number over 100 characters."),
    "S100": ("schema", "The mission breaks a rule of schemas/mission.schema.json."),
    "S101": ("unknown-key", "A key the mission format does not know."),
    "S102": ("wrong-type", "A value of the wrong type (e.g. a time written as a number, "
                           "at: 90, where a quoted \"m:ss\" string goes)."),
    "S103": ("missing-key", "A required key is missing."),
    "S104": ("invalid-value", "A value outside the allowed set or range."),
    "M001": ("phase-count", "The profile's number of phases (2 for test-run, 3 otherwise)."),
    "M002": ("phase-order", "Phase ends must increase strictly."),
    "M003": ("event-after-end", "An event (or a communications-down) runs past the mission "
                                "end."),
    "M004": ("event-order", "Events must be listed in time order."),
    "M005": ("pinned-card", "A pinned threat card must exist, fit its event (external or "
                            "internal, serious or not) and be pinned only once."),
    "M006": ("crew-size", "The figures (players and androids) must fit the players "
                          "(docs/rules.md §16): 4 solo, 4 or 5 with 2 to 4 players, 5 with 5."),
    "M007": ("deck-size", "Each pile of the threat decks must hold a card for every threat "
                          "drawn from it: red decks need the expansion (decks: expansion: "
                          "true), and the expansion's played cards fill only some piles "
                          "(docs/rules.md §19.9)."),
    "C001": ("missing-mission", "A campaign names a mission file that does not exist, or an "
                                "id no mission file in the campaign's folder has."),
    "C002": ("invalid-mission", "A campaign names a mission that is invalid (its problems "
                                "are reported in its own file)."),
}


#: The families in the order they are listed: schema, mission, timing, game, audio, campaign.
FAMILY_ORDER = "SMTGAC"


@cache
def all_rules() -> Mapping[str, Rule]:
    """Returns every registered rule by code, in code order."""
    rules: dict[str, Rule] = {}
    names: dict[str, str] = {}
    for module in RULE_MODULES:
        rule = Rule.from_module(module)
        if rule.code in rules or rule.code in VALIDATOR_CODES:
            raise RuntimeError(f"duplicate rule code {rule.code}")
        if rule.name in names:
            raise RuntimeError(f"duplicate rule name {rule.name}")
        rules[rule.code] = rule
        names[rule.name] = rule.code
    return dict(sorted(rules.items(), key=lambda item: (FAMILY_ORDER.index(item[0][0]),
                                                        item[0])))


def get(code_or_name: str) -> Rule:
    """Returns the rule with this code or name; raises ``UsageError`` if there is none."""
    rules = all_rules()
    key = code_or_name.strip()
    if key.upper() in rules:
        return rules[key.upper()]
    for rule in rules.values():
        if rule.name == key:
            return rule
    raise UsageError(f"no such rule {code_or_name!r}: expected a code such as T104 or a name "
                     "such as early-event", hint="run 'spacealert rules' to list every rule")
