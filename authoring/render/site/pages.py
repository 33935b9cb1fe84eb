"""Renders the site model to files: a pure function from ``SiteModel`` to ``{path: bytes}``.

Pages use the one Jinja environment of ``authoring.render.env`` (autoescape, StrictUndefined)
with the theme's templates from ``site/templates`` placed before the packaged sheet templates,
and user overrides before both. The theme's static files (``site/static``) are copied to
``assets/``. Every link is relative, so the site works from any folder, any host or a file://
URL, and nothing refers to another server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from authoring._resources import data_dir
from authoring.mission.timecode import format_clock
from authoring.render.env import make_environment
from authoring.render.site.model import CampaignEntry, MissionEntry, PlayerCue, SiteModel, Track

ASSETS = "assets"
#: Cue kinds listed as announcements in the player (the rest are captions only).
LISTED_KINDS = frozenset({
    "mission_start", "threat", "incoming_data", "data_transfer", "data_transfer_complete",
    "comms_down", "comms_restored", "warning", "countdown", "phase_ended", "operation_ended",
    "announcement"})


def theme_dir() -> Path:
    """Returns the packaged theme folder (``site/``: ``templates/`` and ``static/``)."""
    return data_dir("site")


def site_environment(overrides: Sequence[Path] = ()) -> jinja2.Environment:
    """Returns the shared Jinja environment with the theme templates on its search path."""
    env = make_environment([*overrides, theme_dir() / "templates"])
    env.filters["size"] = human_size
    env.filters["mmss"] = lambda ms: format_clock(int(ms) // 1000)
    return env


def human_size(size: int) -> str:
    """Formats a byte count as B, kB or MB (decimal units, one decimal)."""
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def _cue_data(cue: PlayerCue) -> dict[str, Any]:
    data = {"s": cue.start_ms, "e": cue.end_ms, "k": cue.kind, "t": cue.text, "p": cue.phase,
            "z": cue.zone, "l": cue.kind in LISTED_KINDS}
    if cue.listed:  # the list's wording, with the countdown's numbers
        data["w"] = cue.listed
    return data


def _track_data(track: Track, root: str) -> dict[str, Any]:
    return {
        "voice": track.voice,
        "name": track.voice_name,
        "lang": track.language,
        "sources": [{"src": root + s.href, "type": s.mime} for s in track.sources],
        "vtt": root + track.captions_vtt,
        "duration_ms": track.duration_ms,
        "cues": [_cue_data(c) for c in track.cues],
    }


def player_data(entry: MissionEntry, root: str) -> dict[str, Any]:
    """Returns the JSON the player script reads: phase ends and every track's cues."""
    return {
        "phases_ms": list(entry.timeline.phases_ms),
        "tracks": [_track_data(t, root) for t in entry.tracks],
    }


def _common(model: SiteModel, root: str) -> dict[str, Any]:
    return {"site": model, "root": root, "assets": f"{root}{ASSETS}/",
            "built": model.built.strftime("%Y-%m-%d"),
            "lang": model.languages[0] if model.languages else "en"}


def mission_path(entry: MissionEntry) -> str:
    """Returns the path of a mission's page relative to the site root."""
    return f"missions/{entry.slug}.html"


def campaign_path(entry: CampaignEntry) -> str:
    """Returns the path of a campaign's page relative to the site root."""
    return f"campaigns/{entry.slug}.html"


def render_pages(model: SiteModel, overrides: Sequence[Path] = ()) -> dict[str, bytes]:
    """Returns every generated file of the site (pages and theme assets) by relative path."""
    env = site_environment(overrides)
    files: dict[str, bytes] = {}
    index = env.get_template("index.html.j2")
    files["index.html"] = index.render(
        **_common(model, ""), page_title=model.title,
        missions=[(e, mission_path(e)) for e in model.missions],
        campaigns=[(c, campaign_path(c)) for c in model.campaigns]).encode("utf-8")
    if model.campaigns:
        # a campaign page plays its missions in order, with the repair step between them
        campaign_page = env.get_template("campaign.html.j2")
        for item in model.campaigns:
            files[campaign_path(item)] = campaign_page.render(
                **_common(model, "../"), page_title=f"{item.campaign.title} · {model.title}",
                entry=item, campaign=item.campaign,
                steps=[(m, e, "../" + mission_path(m), player_data(m, "../"))
                       for m, e in zip(item.missions, item.campaign.missions, strict=True)],
            ).encode("utf-8")
    page = env.get_template("mission.html.j2")
    for number, entry in enumerate(model.missions):
        root = "../"
        previous = model.missions[number - 1] if number else None
        following = model.missions[number + 1] if number + 1 < len(model.missions) else None
        files[mission_path(entry)] = page.render(
            **_common(model, root), page_title=f"{entry.mission.title} · {model.title}",
            entry=entry, mission=entry.mission,
            player=player_data(entry, root),
            previous=(previous, root + mission_path(previous)) if previous else None,
            following=(following, root + mission_path(following)) if following else None,
        ).encode("utf-8")
    files.update(theme_assets())
    return files


def theme_assets() -> Mapping[str, bytes]:
    """Returns the theme's static files under ``assets/``, sorted by name."""
    static = theme_dir() / "static"
    return {f"{ASSETS}/{p.relative_to(static).as_posix()}": p.read_bytes()
            for p in sorted(static.rglob("*")) if p.is_file()}
