"""The clip cache: content-addressed keys, hits and misses, corrupted entries rebuilt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from authoring.audio import ClipCache, default_cache_dir, load_voice
from authoring.audio.cache import ENV_VAR, Spoken, cache_key
from authoring.audio.phrases import cue_fragments
from authoring.audio.synth import Synthesizer
from authoring.cli import app
from authoring.mission.timeline import Cue

runner = CliRunner()
ALERT = Cue(0, "incoming_data", "", 0, 1, {})


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.clip"))


def test_miss_then_hit_with_the_same_samples(tmp_path: Path) -> None:
    cache = ClipCache(tmp_path)
    first = Synthesizer(load_voice("en"), cache).cue_clip(ALERT)
    assert (cache.stats.hits, cache.stats.misses) == (0, 1)
    assert len(_entries(tmp_path)) == 1
    again = Synthesizer(load_voice("en"), cache).cue_clip(ALERT)
    assert (cache.stats.hits, cache.stats.misses) == (1, 1)
    assert np.array_equal(first, again)
    assert not list(tmp_path.rglob("*.tmp"))  # no temp file left behind


def test_the_key_changes_with_text_settings_and_sound(tmp_path: Path) -> None:
    voice = load_voice("en")
    synth = Synthesizer(voice)
    fragments = cue_fragments(ALERT, voice)
    base = cache_key(synth.recipe(fragments))
    assert base == cache_key(Synthesizer(voice).recipe(fragments))
    faster = replace(voice, settings={**voice.settings, "duration_stretch": 0.9})
    dry = replace(voice, sound={**voice.sound, "radio": False})
    other_text = replace(voice, phrases={**voice.phrases, "incoming_data": "Data incoming."})
    keys = {base}
    for variant in (faster, dry, other_text):
        s = Synthesizer(variant)
        keys.add(cache_key(s.recipe(cue_fragments(ALERT, variant))))
    assert len(keys) == 4
    tts = synth.recipe(fragments)["tts"]
    assert tts["backend"] == "flite" and "2." in tts["version"] and tts["voice"] == "slt"


def test_clips_of_an_earlier_processing_are_not_reused(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # a change to the processing (the onset of pipeline 4) bumps PIPELINE_VERSION: a clip
    # that an earlier version cached under the same text and voice must be rebuilt, not served
    from authoring.audio import synth as synth_module

    voice = load_voice("en")
    cache = ClipCache(tmp_path)
    fragments = cue_fragments(ALERT, voice)
    monkeypatch.setattr(synth_module, "PIPELINE_VERSION", synth_module.PIPELINE_VERSION - 1)
    stale = np.full(4_410, 0.25, np.float32)
    cache.put(cache_key(Synthesizer(voice).recipe(fragments)), Spoken(stale))
    monkeypatch.undo()
    clip = Synthesizer(voice, cache).cue_clip(ALERT)
    assert (cache.stats.hits, cache.stats.misses) == (0, 1)
    assert len(clip) != len(stale) and len(_entries(tmp_path)) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_corrupted_entry_is_detected_and_rebuilt(tmp_path: Path, damage: str) -> None:
    cache = ClipCache(tmp_path)
    good = Synthesizer(load_voice("en"), cache).cue_clip(ALERT)
    (entry,) = _entries(tmp_path)
    original = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(original[: len(original) // 2])
    elif damage == "flip":
        data = bytearray(original)
        data[len(data) // 2] ^= 0xFF
        entry.write_bytes(bytes(data))
    else:
        entry.write_bytes(b"not a clip")
    fresh = ClipCache(tmp_path)
    rebuilt = Synthesizer(load_voice("en"), fresh).cue_clip(ALERT)
    assert (fresh.stats.corrupted, fresh.stats.misses, fresh.stats.hits) == (1, 1, 0)
    assert np.array_equal(good, rebuilt)
    assert entry.read_bytes() == original  # rewritten whole


def test_the_cache_folder_follows_the_environment(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env-cache"))
    assert default_cache_dir() == tmp_path / "env-cache"
    monkeypatch.delenv(ENV_VAR)
    assert "spacealert" in str(default_cache_dir())


def test_cli_cache_dir_and_no_cache(tmp_path: Path) -> None:
    mission = Path(__file__).resolve().parents[2] / "missions/official/test-run-1.yaml"
    folder = tmp_path / "my-cache"
    out = tmp_path / "t.wav"
    first = runner.invoke(app, ["render", str(mission), "-o", str(out), "--cache-dir",
                                str(folder), "--no-bed"])
    assert first.exit_code == 0, first.stderr
    count = len(_entries(folder))
    assert count > 10
    assert "cache 0 hit(s)" in first.stderr
    second = runner.invoke(app, ["render", str(mission), "-o", str(out), "--cache-dir",
                                 str(folder), "--no-bed"])
    assert f"cache {count} hit(s), 0 miss(es)" in second.stderr
    third = runner.invoke(app, ["render", str(mission), "-o", str(out), "--cache-dir",
                                str(folder / "unused"), "--no-cache", "--no-bed"])
    assert third.exit_code == 0
    assert "cache" not in third.stderr.split("spoken cues")[-1]
    assert not (folder / "unused").exists()
