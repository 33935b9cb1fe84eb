"""Generates and audits a range of seeds (run in worker processes by the 10,000-seed test).

For each seed: generate (a ``GenerationError`` is a reported failure, anything else a crash),
write the text, parse it back, validate it (the mission schema, then the semantic checks of
``check_mission``), check that the file holds exactly the generated (self-checked) mission,
lint it under its profile, and record its statistics. Every ``full_every``-th text goes through
the real loader and ``check_mission`` end to end (ruamel.yaml, with positions) and must give the
same data; the others are parsed with libyaml when it is installed, and validated with the
cached schema validator's fast ``is_valid`` path (``check_mission`` itself when it fails, to
name the problem): the same checks, at a third of the cost.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from authoring.generate import GenerateOptions, GenerationError, generate_mission, generated_text
from authoring.generate.selfcheck import self_check
from authoring.generate.stats import mission_stats
from authoring.lint import lint_mission
from authoring.mission import check_mission, parse_document
from authoring.mission.build import build_mission
from authoring.mission.load import Document
from authoring.mission.model import CommsDown, DataTransfer, IncomingData, Mission, Threat
from authoring.mission.schema import validator
from authoring.mission.timeline import Timeline

#: A voice's real cue lengths: (cue kind, English text) -> ms.
Lengths = Mapping[tuple[str, str], int]


def every_cue_mission() -> Mission:
    """Returns a (not playable) mission whose five-player timeline holds every cue a generated
    mission can have: each threat announcement, each event kind and the phase cues."""
    events: list[Any] = [Threat(20 * i, turn, zone, serious, unconfirmed)  # type: ignore[arg-type]
                         for i, (turn, zone, serious, unconfirmed) in enumerate(
                             (t, z, s, u) for t in range(1, 9)
                             for z in ("red", "white", "blue", "internal")
                             for s in (False, True) for u in (False, True))]
    at = 20 * len(events)
    events += [IncomingData(at), DataTransfer(at + 20), CommsDown(at + 60, 10)]
    return Mission("every-cue", "Every cue", "base", 5, (at + 200, at + 400, at + 600),
                   tuple(events))


def cue_lengths(timeline: Timeline, measured: Sequence[int]) -> dict[tuple[str, str], int]:
    """Returns the table of real lengths from a timeline measured by a voice."""
    return {(c.kind, c.text): n for c, n in zip(timeline.cues, measured, strict=True)
            if c.kind != "static"}


def _real_lengths(table: Lengths) -> Any:
    def lengths(timeline: Timeline) -> list[int]:
        # a static lasts until its comms_restored whatever the voice: its nominal span
        return [c.nominal_ms if c.kind == "static" else table[(c.kind, c.text)]
                for c in timeline.cues]
    return lengths

try:  # libyaml through PyYAML (installed with the dev extras) parses 10x faster
    import yaml

    def _fast_load(text: str) -> Any:
        return yaml.load(text, Loader=yaml.CSafeLoader)
except (ImportError, AttributeError):  # pragma: no cover - fallback without libyaml
    from ruamel.yaml import YAML

    def _fast_load(text: str) -> Any:
        return YAML(typ="safe", pure=True).load(text)


@dataclass
class Audit:
    """What went wrong (nothing, we hope) and the statistics of every generated mission."""

    profile: str
    generated: int = 0
    failures: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    self_check: list[str] = field(default_factory=list)
    lint: list[str] = field(default_factory=list)
    voice: list[str] = field(default_factory=list)
    redraws: int = 0
    stats: list[dict[str, int]] = field(default_factory=list)

    def merge(self, other: Audit) -> None:
        """Adds another chunk's results."""
        self.generated += other.generated
        for name in ("failures", "crashes", "invalid", "self_check", "lint", "voice", "stats"):
            getattr(self, name).extend(getattr(other, name))
        self.redraws += other.redraws


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def audit_seeds(profile: str, start: int, stop: int, full_every: int = 100,
                voice_lengths: Lengths | None = None) -> Audit:
    """Audits seeds ``start``..``stop - 1`` of ``profile`` with default options.

    With ``voice_lengths`` (a voice's real cue lengths), every mission is also self-checked
    with those lengths: nothing may be heard over anything else with that voice.
    """
    audit = Audit(profile)
    for seed in range(start, stop):
        options = GenerateOptions(profile=profile, seed=seed)  # type: ignore[arg-type]
        try:
            generated = generate_mission(options)
        except GenerationError as error:
            audit.failures.append(f"seed {seed}: {error.message}")
            continue
        except Exception:
            audit.crashes.append(f"seed {seed}: {traceback.format_exc()}")
            continue
        audit.generated += 1
        audit.redraws += generated.attempts - 1
        text = generated_text(generated)
        data = _fast_load(text)
        document = Document(f"seed-{seed}", data, text)
        if validator("mission").is_valid(data):
            mission, problems = build_mission(document)
        else:
            mission, problems = check_mission(document)
        if seed % full_every == 0:
            doc = parse_document(text.encode("utf-8"), f"seed-{seed}")
            full, full_problems = check_mission(doc)
            problems += full_problems
            if full is not None and mission is not None and (
                    full.events != mission.events or _plain(doc.data) != data):
                problems.append(f"loaders disagree on seed {seed}")  # type: ignore[arg-type]
        if problems or mission is None:
            audit.invalid.append(f"seed {seed}: {problems[:1]}")
            continue
        if mission.events != generated.mission.events or mission.phases != \
                generated.mission.phases:
            audit.invalid.append(f"seed {seed}: the file does not hold the generated mission")
        # the generator returns only missions that passed ``self_check``; the file holds that
        # mission (checked above), and no draft may have needed the self-check to be caught
        if generated.self_check_rejections:
            audit.self_check.append(f"seed {seed}: {generated.self_check_rejections} drafts "
                                    "failed the self-check")
        if seed % full_every == 0:
            found = self_check(mission, options.points(), options.unconfirmed_points())
            audit.self_check += [f"seed {seed}: {problem}" for problem in found]
        if voice_lengths is not None:
            found = self_check(mission, options.points(), options.unconfirmed_points(),
                               lengths=_real_lengths(voice_lengths))
            audit.voice += [f"seed {seed}: {problem}" for problem in found]
        linted = lint_mission(mission)
        if linted:
            audit.lint.append(f"seed {seed}: {linted[0].code} {linted[0].message}")
        audit.stats.append(mission_stats(mission).as_dict())
    return audit
