"""Shared pieces of the site tests: the fixed golden model, Chromium flags, a site server."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline
from authoring.render.site import (
    AudioSource,
    Download,
    LintSummary,
    MissionEntry,
    SiteModel,
    Track,
    player_cues,
)
from authoring.simulation.rating import Rating

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
PACK = DATA / "pack"
GOLDEN = HERE / "golden"
# Debian's browser; SPACEALERT_CHROMIUM points elsewhere (tests of the missing-browser rule)
CHROMIUM = os.environ.get("SPACEALERT_CHROMIUM", "/usr/bin/chromium")
#: Flags for headless Chromium as root and offline (no sandbox) and offline (no background network).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required"]


def golden_model() -> SiteModel:
    """Returns a fixed site model (nominal cue lengths, made-up sizes) for the golden pages."""
    entries = []
    for path in (PACK / "missions" / "tiny-drill.yaml", DATA / "first-watch.yaml"):
        mission = load_mission(path)
        timeline = compile_timeline(mission)
        base = f"files/{mission.id}/{mission.id}"
        track = Track("en", "English ship computer", "en",
                      (AudioSource(f"{base}.en.mp3", "audio/mpeg"),
                       AudioSource(f"{base}.en.ogg", "audio/ogg")),
                      f"{base}.en.vtt", player_cues(timeline), timeline.end_ms + 1000)
        downloads = (Download("Soundtrack (MP3)", f"{base}.en.mp3", "audio", 1_234_567),
                     Download("Captions (VTT)", f"{base}.en.vtt", "captions", 2_345),
                     Download("Mission file (YAML)", f"{base}.yaml", "mission", 987))
        lint = LintSummary(0, 1, 0, ("warning T102 at line 12: <phase> too short",)) \
            if mission.id == "tiny-drill" else LintSummary()
        rating = Rating(64.4, 8.3, 60.2, 70.2, 0.1, (0.03, 0.3), 20, "planner") \
            if mission.id == "first-watch" else None
        note = "" if rating else "cannot simulate the mission: <no serious threats>"
        entries.append(MissionEntry(mission.id, mission, timeline, (track,), downloads, lint,
                                    rating, note))
    return SiteModel(
        title="Golden <Pack> & Co", description="A pack\nover two lines.",
        authors=("Ann", "Bo"), licence="CC0-1.0", languages=("en",),
        built=datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.UTC),
        missions=tuple(entries), generator="spacealert-authoring (golden)",
        pack_download=Download("Download the whole pack (zip)", "golden-pack.zip", "pack", 42))
