"""What the toolkit says about a mission text: problems, model, compiled timeline, heard spans.

One function per question the page asks, each answered by the library the command line uses:
``validate``/``lint`` (``Linter.lint_document``), ``timeline`` (``compile_timeline``), the
heard spans of ``mission/heard.py`` with the voice's real clip lengths (``measure_cues``,
through the clip cache) and the simulation rating of the ``G`` rules (``pack build --rate``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from authoring.audio import measure_cues
from authoring.audio.voice import Voice
from authoring.errors import AuthoringError
from authoring.lint import LintConfig, Linter, find_config, read_config
from authoring.lint.docs_link import docs_base, is_web_address, rule_doc_url
from authoring.lint.problem import Problem
from authoring.mission.check import check_mission
from authoring.mission.heard import heard, overlaps
from authoring.mission.load import parse_document, plain_data
from authoring.mission.model import Mission
from authoring.mission.timeline import compile_timeline

if TYPE_CHECKING:
    from authoring.simulation.montecarlo import GameProgress

_EVENT_PATH = re.compile(r"^\$\.events\[(\d+)\]")


class RatingCancelled(Exception):
    """Raised by a rating's progress callback when the page cancelled it."""


@dataclass
class Checker:
    """Lints with the configuration found from the mission's folder (as ``spacealert lint``)."""

    folder: Path
    voice: Voice
    cache_dir: Path | None = None

    def __post_init__(self) -> None:
        found = find_config(self.folder)
        self.linter = Linter(read_config(found) if found else None)

    def check(self, text: str, display: str, *, measured: bool = True,
              voice: Voice | None = None) -> dict[str, Any]:
        """Returns the problems, the mission data and (when valid) the timeline of ``text``."""
        doc = parse_document(text, display)
        problems = self.linter.lint_document(doc)
        mission, _ = check_mission(doc) if doc.ok else (None, [])
        answer: dict[str, Any] = {
            "valid": mission is not None,
            "problems": [problem_json(p) for p in problems],
            "data": plain_data(doc.data) if doc.ok and isinstance(doc.data, dict) else None,
            "timeline": None,
        }
        if mission is not None:
            answer["timeline"] = self.timeline(mission, measured=measured,
                                               voice=voice or self.voice)
        return answer

    def timeline(self, mission: Mission, *, measured: bool,
                 voice: Voice | None = None) -> dict[str, Any]:
        """The compiled cues with their heard span (the voice's real lengths when measured)."""
        voice = voice or self.voice
        timeline = compile_timeline(mission)
        note = ""
        lengths: list[int] | None = None
        if measured:
            try:
                lengths = measure_cues(timeline, voice, cache_dir=self.cache_dir)
            except AuthoringError as error:  # e.g. the voice's engine is not installed
                note = f"nominal cue lengths: {error.message}"
        spans = heard(timeline.cues, lengths)
        clash = {id(b.cue) for a, b, _ in overlaps(
            [s for s in spans if s.cue.speech], same_event=False)}
        cues = []
        for n, span in enumerate(spans):
            cue = span.cue.to_dict()
            cue.update(index=n, end_ms=span.end_ms, speech=span.cue.speech,
                       overlap=id(span.cue) in clash)
            cues.append(cue)
        return {"phases_ms": list(timeline.phases_ms), "players": timeline.players,
                "end_ms": max(s.end_ms for s in spans), "cues": cues,
                "lengths": "voice" if lengths is not None else "nominal",
                "voice": voice.id, "note": note}

    def rate(self, text: str, display: str,
             progress: GameProgress | None = None) -> dict[str, Any]:
        """Runs the opt-in simulation rules (``G``) and the pack's difficulty rating.

        ``progress`` is told the games played; it raises ``RatingCancelled`` to stop.
        """
        from authoring.simulation import rating as rating_module
        from authoring.simulation.montecarlo import reporting, search_settings
        from authoring.simulation.rating import rate_mission, rating_json

        doc = parse_document(text, display)
        mission, problems = check_mission(doc) if doc.ok else (None, list(doc.problems))
        if mission is not None:  # a card that does not fit its event cannot be dealt
            from authoring.lint.playability import card_problems

            problems = card_problems(doc, mission)
            mission = None if problems else mission
        if mission is None:
            return {"valid": False, "problems": [problem_json(p) for p in problems],
                    "rating": None, "note": "the mission is not valid: fix it before rating"}
        try:
            with reporting(progress):  # the rating first: the G rules reuse its games
                rating, note = rate_mission(mission)
                simulated = Linter(LintConfig(select=("G",))).lint_document(doc)
        except RatingCancelled:
            return {"valid": True, "problems": [], "rating": None, "cancelled": True,
                    "note": "rating cancelled"}
        # the search that made it, as simulate --json says it (rate_mission's settings)
        rated = None if rating is None else {
            **rating_json(rating), "search": search_settings(rating_module.DEFAULT_SETTINGS)}
        return {"valid": True, "problems": [problem_json(p) for p in simulated],
                "rating": rated, "note": note}


def event_of(problem: Problem) -> int | None:
    """The index of the event a problem is about (``$.events[3].at`` → 3), if any."""
    match = _EVENT_PATH.match(problem.path)
    return int(match.group(1)) if match else None


def problem_json(problem: Problem) -> dict[str, Any]:
    """A problem for the page: where, which rule, the event it marks and its explanation."""
    data = problem.to_dict()
    data["event"] = event_of(problem)
    base = docs_base()
    # without a published documentation site the studio explains the rule itself
    data["doc"] = rule_doc_url(problem.code) if is_web_address(base) else \
        f"/api/rule/{problem.code}"
    return data
