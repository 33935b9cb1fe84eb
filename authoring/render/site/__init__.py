"""The pack website: a site model (``model``) rendered to static files (``pages``)."""

from __future__ import annotations

from authoring.render.site.model import (
    AUDIO_TYPES,
    AudioSource,
    CampaignEntry,
    Download,
    LintSummary,
    MissionEntry,
    PlayerCue,
    SiteModel,
    Track,
    difficulty_label,
    player_cues,
)
from authoring.render.site.pages import render_pages, site_environment

__all__ = [
    "AUDIO_TYPES",
    "AudioSource",
    "CampaignEntry",
    "Download",
    "LintSummary",
    "MissionEntry",
    "PlayerCue",
    "SiteModel",
    "Track",
    "difficulty_label",
    "player_cues",
    "render_pages",
    "site_environment",
]
