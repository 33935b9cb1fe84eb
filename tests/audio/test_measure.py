"""``measure_cues``: the real lengths the linter checks; every official track fits."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.audio import ClipCache, find_overlaps, load_voice, measure_cues, render_timeline
from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = sorted((ROOT / "missions/official").glob("*.yaml"))


def test_lengths_are_aligned_with_the_cues_and_match_the_render(short_mission: Path,
                                                                tmp_path: Path) -> None:
    timeline = compile_timeline(load_mission(short_mission))
    lengths = measure_cues(timeline, "en", cache_dir=tmp_path)
    assert len(lengths) == len(timeline.cues)
    rendering = render_timeline(timeline, load_voice("en"), cache=ClipCache(tmp_path))
    by_start = {(c.start_ms, c.kind): c.end_ms - c.start_ms for c in rendering.cues}
    for cue, n in zip(timeline.cues, lengths, strict=True):
        assert by_start[(cue.start_ms, cue.kind)] == n
        if cue.kind == "static":
            assert n == 10_000
    threat = lengths[[c.kind for c in timeline.cues].index("threat")]
    assert 6_000 < threat < 15_200  # the CD's threat lines: 8.4-15.2 s


def test_measuring_without_cache_gives_the_same_lengths(short_mission: Path,
                                                        tmp_path: Path) -> None:
    timeline = compile_timeline(load_mission(short_mission))
    assert (measure_cues(timeline, "en", use_cache=False)
            == measure_cues(timeline, load_voice("en"), cache_dir=tmp_path))
    assert any(tmp_path.rglob("*.clip"))


OTHER_VOICES = ("en-espeak", "de", "fr", "cs", "es", "pl", "zh")


@pytest.mark.parametrize("voice", ["en", *(pytest.param(v, marks=pytest.mark.slow)
                                           for v in OTHER_VOICES)])
def test_every_official_track_renders_without_overlap(voice: str) -> None:
    chosen = load_voice(voice)
    for path in OFFICIAL:
        timeline = compile_timeline(load_mission(path))
        overlaps = find_overlaps(timeline.cues, measure_cues(timeline, chosen))
        assert overlaps == [], f"{path.name}: {overlaps[0].describe()}"
