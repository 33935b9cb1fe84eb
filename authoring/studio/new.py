"""The text of a new mission: a short commented template, or ``spacealert generate``'s output."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from authoring.crew import CrewSizeError, crew_size
from authoring.errors import UsageError
from authoring.mission.model import PROFILES

#: Phase ends of the template per profile (the official tracks' lengths, docs/rules.md §3).
_PHASES = {"test-run": '["3:35", "7:05"]', "training": '["3:45", "7:30", "10:00"]',
           "base": '["3:45", "7:30", "10:00"]', "double-action": '["4:30", "9:00", "12:30"]'}

_TEMPLATE = """\
# {title}: written with spacealert studio. Comments are kept when the studio saves.
format: 1
id: {id}
title: "{title}"
language: en
profile: {profile}
players: {players}
phases: {phases}
events:
  - {{at: "0:20", threat: {{turn: 1, zone: red}}}}  # a first threat to drag around
"""


def template(mission_id: str, profile: str = "base", players: int = 5) -> str:
    """A minimal mission of ``profile`` with one threat (valid, so the timeline shows)."""
    if profile not in PROFILES:
        raise UsageError(f"'profile': expected one of {', '.join(PROFILES)}, got {profile!r}")
    try:
        crew_size(players)
    except CrewSizeError as error:
        raise UsageError(f"'players': {error}") from None
    title = mission_id.replace("-", " ").capitalize()
    return _TEMPLATE.format(id=mission_id, title=title, profile=profile, players=players,
                            phases=_PHASES[profile])


def generated(options: Mapping[str, Any]) -> str:
    """The text ``spacealert generate`` writes for ``options`` (profile, players, seed …)."""
    from authoring.generate import (
        GenerateOptions,
        check_options,
        generate_mission,
        generated_text,
    )

    known = {"profile", "players", "figures", "seed", "threat_level", "decks", "expansion"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise UsageError(f"'generate': unknown option {unknown[0]!r}: expected "
                         f"{', '.join(sorted(known))}")
    values = dict(options)
    for key in ("players", "figures", "seed", "threat_level"):
        if key in values and (isinstance(values[key], bool) or not isinstance(values[key], int)):
            raise UsageError(f"'generate.{key}': expected a whole number")
    if "expansion" in values and not isinstance(values["expansion"], bool):
        raise UsageError("'generate.expansion': expected true or false")
    for key in ("profile", "decks"):
        if key in values and not isinstance(values[key], str):
            raise UsageError(f"'generate.{key}': expected a name")
    if values.get("profile", "base") not in PROFILES:
        raise UsageError(f"'generate.profile': expected one of {', '.join(PROFILES)}")
    chosen = GenerateOptions(**values)
    check_options(chosen)
    return generated_text(generate_mission(chosen))
