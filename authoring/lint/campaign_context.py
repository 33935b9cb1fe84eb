"""What a campaign rule (family C) sees: the validated campaign, its document and a cache.

Campaign rules look at several missions at once, so they cannot run on a ``LintContext``
(one mission). The linter builds one ``CampaignContext`` per valid campaign file and runs the
enabled C rules on it; their findings are located in the campaign file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from authoring.lint.rule import Finding, Options, PathStep, Rule
from authoring.mission.campaign import Campaign
from authoring.mission.load import Document


@dataclass
class CampaignContext:
    """The input of every campaign rule for one campaign file."""

    campaign: Campaign
    document: Document
    profile: str = "base"
    cache: dict[Any, Any] = field(default_factory=dict)

    @property
    def file(self) -> str:
        """The campaign file as shown in problems."""
        return self.document.file

    def locate(self, path: Sequence[PathStep], *, key: bool = False) -> tuple[int, int]:
        """Returns the 1-based (line, col) of ``path`` in the campaign file."""
        return self.document.locate(list(path), key=key)


CampaignCheck = Callable[[CampaignContext, Options], Iterator[Finding]]


def campaign_check(rule: Rule) -> CampaignCheck:
    """Returns the check of a rule whose ``needs`` is ``campaign``.

    ``Rule.check`` is typed for mission rules; a C rule module's ``check`` takes a
    ``CampaignContext`` instead, and the linter only calls it through this function.
    """
    if rule.needs != "campaign":
        raise ValueError(f"{rule.code} is not a campaign rule")
    return cast(CampaignCheck, rule.check)
