"""Renders a campaign's soundtracks (docs/rules.md §18): one per mission, or one joined file.

The joined file plays, for each mission in order, its story announcement (if any) spoken by
that mission's voice, a short silence, the mission's soundtrack, and a pause before the next
mission (time for the table to resolve, repair and set up).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from authoring.audio.cache import ClipCache
from authoring.audio.pcm import RATE, Samples
from authoring.audio.render import Rendering, RenderOptions, render_timeline
from authoring.audio.synth import Synthesizer
from authoring.audio.voice import Voice
from authoring.crew import CrewSize, choose_crew
from authoring.mission.campaign import Campaign, CampaignMission
from authoring.mission.timeline import Cue, Timeline, compile_timeline

#: Silence between a story announcement and the mission it introduces.
AFTER_STORY_MS = 1_500


@dataclass(frozen=True)
class CampaignRendering:
    """Each mission's rendering and the spoken story announcements (None where absent)."""

    missions: tuple[Rendering, ...]
    stories: tuple[Samples | None, ...]


def timeline_for(entry: CampaignMission, crew: CrewSize | None = None) -> Timeline:
    """Returns a campaign mission's timeline for ``crew``, else its soundtrack choice."""
    return compile_timeline(entry.mission, entry.crew if crew is None else crew)


def _story(text: str, voice: Voice, cache: ClipCache | None) -> Samples:
    cue = Cue(0, "announcement", text, max(1_000, len(text) * 70), 1, {"text": text})
    return Synthesizer(voice, cache).cue_clips([cue])[0]


def render_campaign(campaign: Campaign, voices: Sequence[Voice], *,
                    cache: ClipCache | None = None, options: RenderOptions | None = None,
                    players: int | None = None, figures: int | None = None
                    ) -> CampaignRendering:
    """Renders every mission with its voice (``voices[i]`` for mission ``i``); ``players``
    and ``figures`` override each mission's crew (``choose_crew``; ``CrewSizeError``)."""
    renderings = []
    stories: list[Samples | None] = []
    for entry, voice in zip(campaign.missions, voices, strict=True):
        timeline = timeline_for(entry, choose_crew(entry.crew, players, figures))
        rendering = render_timeline(timeline, voice, cache=cache,
                                    options=options or RenderOptions())
        renderings.append(rendering)
        # the story is levelled like the mission's own speech: the same master gain
        stories.append(None if not entry.announcement else
                       (_story(entry.announcement, voice, cache)
                        * np.float32(rendering.master_gain)).astype(np.float32))
    return CampaignRendering(tuple(renderings), tuple(stories))


def joined_track(rendered: CampaignRendering, pause_ms: int) -> Samples:
    """Returns one track: story, silence, mission, pause, story, mission …"""
    parts: list[Samples] = []
    silence = np.zeros(RATE * AFTER_STORY_MS // 1000, dtype=np.float32)
    pause = np.zeros(RATE * pause_ms // 1000, dtype=np.float32)
    for index, (rendering, story) in enumerate(zip(rendered.missions, rendered.stories,
                                                   strict=True)):
        if index:
            parts.append(pause)
        if story is not None:
            parts += [story, silence]
        parts.append(rendering.track)
    return np.concatenate(parts).astype(np.float32)
