"""Voices: files, languages, phrase coverage of every cue kind, phrases for clip packs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.audio import bundled_voices, load_voice
from authoring.audio.phrases import coverage_problems, cue_fragments, cue_text, phrases, sample_cues
from authoring.cli import app
from authoring.mission import load_mission
from authoring.mission.timeline import SPEECH_KINDS, Cue, compile_timeline

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = {"en", "de", "fr", "cs", "es", "pl", "zh"}


def test_every_required_language_has_a_voice() -> None:
    languages = {load_voice(name).language for name in bundled_voices()}
    assert languages >= LANGUAGES


@pytest.mark.parametrize("name", sorted(bundled_voices()))
def test_every_voice_covers_every_cue_kind(name: str) -> None:
    voice = load_voice(name)
    assert set(voice.sequences) >= SPEECH_KINDS
    assert coverage_problems(voice) == []
    kinds = {cue.kind for cue in sample_cues()} | {"announcement"}
    assert kinds == SPEECH_KINDS
    for cue in sample_cues():
        assert cue_text(cue, voice).strip()


def test_coverage_reports_a_missing_phrase_and_a_missing_sequence(tmp_path: Path) -> None:
    voice_file = tmp_path / "broken.yaml"
    voice_file.write_text(
        f"format: 1\nid: broken\nextends: {ROOT / 'voices/en.yaml'}\n"
        "phrases: {}\nsequences:\n  threat: [alert, 'time.{turn}', 'zone.{zone}']\n",
        encoding="utf-8")
    voice = load_voice(voice_file)
    problems = coverage_problems(voice)
    assert "voice 'broken' has no phrase 'zone.internal' (needed by a threat cue)" in problems
    sequences = dict(voice.sequences)
    del sequences["count"]
    from dataclasses import replace

    assert "no sequence for cue kind 'count'" in coverage_problems(replace(voice,
                                                                           sequences=sequences))


def test_english_wording_matches_the_official_lines() -> None:
    voice = load_voice("en")
    mission = load_mission(ROOT / "missions/official/mission-1.yaml")
    timeline = compile_timeline(mission)
    said = {cue_text(c, voice) for c in timeline.cues if c.speech}
    assert "Alert. Enemy activity detected. Please begin first phase." in said
    assert ("Alert. Time T plus two. Serious threat. Zone white. Repeat: Time T plus two. "
            "Serious threat. Zone white.") in said
    assert "First phase has ended. Please begin second phase." in said
    assert "Mission complete. Jumping to hyperspace." in said
    assert "Communication system down." in said


def test_german_word_order_uses_combined_fragments() -> None:
    voice = load_voice("de")
    cue = Cue(0, "threat", "", 0, 1, {"turn": 3, "zone": "red", "serious": True,
                                      "unconfirmed": True})
    keys = [f.key for f in cue_fragments(cue, voice)]
    assert keys == ["alert", "unconfirmed", "time.3", "threat_zone.serious.red", "repeat",
                    "time.3", "threat_zone.serious.red"]
    assert cue_text(cue, voice) == (
        "Alarm. Unbestätigt: Zeit T plus drei. Ernsthafte Bedrohung in Zone Rot. Wiederhole: "
        "Zeit T plus drei. Ernsthafte Bedrohung in Zone Rot.")


def test_chinese_joins_without_spaces_and_has_its_own_countdown_fragment() -> None:
    voice = load_voice("zh")
    cue = Cue(0, "countdown", "", 0, 1, {"phase": 1, "last": False})
    warning = Cue(0, "warning", "", 0, 1, {"phase": 1, "last": False, "left": "1min"})
    assert cue_text(cue, voice) == "第一阶段结束倒数"
    assert cue_text(warning, voice) == "第一阶段将在一分钟后结束。"


def test_extends_inherits_and_overrides(tmp_path: Path) -> None:
    child = tmp_path / "slow.yaml"
    child.write_text(f"format: 1\nid: slow\nextends: {ROOT / 'voices/en-espeak.yaml'}\n"
                     "settings: {speed: 120}\nphrases: {alert: 'Red alert.'}\n",
                     encoding="utf-8")
    voice = load_voice(child)
    assert voice.id == "slow" and voice.language == "en" and voice.backend == "espeak-ng"
    assert voice.settings["speed"] == 120 and voice.settings["voice"] == "en-us"
    assert voice.phrases["alert"] == "Red alert." and voice.phrases["repeat"] == "Repeat:"
    assert voice.chain == ("en", "en-espeak", "slow")


def test_a_voice_that_extends_itself_is_reported(tmp_path: Path) -> None:
    loop = tmp_path / "loop.yaml"
    loop.write_text("format: 1\nid: loop\nextends: loop.yaml\n", encoding="utf-8")
    result = runner.invoke(app, ["voices", "check", str(loop)])
    assert result.exit_code == 1
    assert "extends itself" in result.stderr


def test_an_invalid_voice_file_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nid: bad\nlanguage: en\nbackend: mbrola\n", encoding="utf-8")
    result = runner.invoke(app, ["voices", "check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:4:" in result.stderr
    assert "mbrola" in result.stderr


def test_an_unknown_voice_is_a_usage_error(tmp_path: Path) -> None:
    mission = ROOT / "missions/official/mission-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", "klingon"])
    assert result.exit_code == 2
    assert "unknown voice 'klingon'" in result.stderr
    assert "en" in result.stderr


def test_voices_list_shows_every_bundled_voice() -> None:
    result = runner.invoke(app, ["voices", "list", "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert {r["id"] for r in rows} == set(bundled_voices())
    default = [r for r in rows if r["default"]]
    assert [(r["id"], r["backend"], r["status"]) for r in default] == [("en", "flite",
                                                                         "ready")]
    espeak = [r for r in rows if r["id"] == "en-espeak"]
    assert [(r["backend"], r["status"], r["licence"]) for r in espeak] == [
        ("espeak-ng", "ready", None)]
    text = runner.invoke(app, ["voices", "list"])
    assert text.exit_code == 0 and "* en " in text.stdout


def test_voices_check_a_tts_voice() -> None:
    # --no-listen: the recogniser's half of the check (40 s) is test_intelligibility.py's
    result = runner.invoke(app, ["voices", "check", "fr", "--no-listen"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("fr: ok (espeak-ng, fr,")


def test_phrases_for_a_mission_are_a_subset_of_all_phrases() -> None:
    voice = load_voice("en")
    mission = compile_timeline(load_mission(ROOT / "missions/official/mission-1.yaml"))
    needed = phrases([mission], voice)
    everything = phrases(None, voice)
    keys = [f.key for f in needed]
    assert keys == sorted(set(keys))  # distinct and sorted
    assert set(needed) < set(everything)
    assert {"alert", "time.2", "threat.serious", "zone.white", "repeat", "count.5"} <= set(keys)
    assert "time.1" not in keys  # mission 1 has no T+1 threat
    assert {f.key for f in everything} >= {f"time.{n}" for n in range(1, 9)}


def test_voices_phrases_command(tmp_path: Path) -> None:
    mission = ROOT / "missions/official/mission-1.yaml"
    result = runner.invoke(app, ["voices", "phrases", str(mission), "--voice", "de"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "threat_zone.serious.white\tErnsthafte Bedrohung in Zone Weiß." in lines
    everything = runner.invoke(app, ["voices", "phrases", "--voice", "de", "--json"])
    assert everything.exit_code == 0
    assert len(json.loads(everything.stdout)) > len(lines)


def test_voices_phrases_takes_the_voice_as_its_argument_like_check() -> None:
    mission = ROOT / "missions/official/mission-1.yaml"
    german = runner.invoke(app, ["voices", "phrases", "de", "--mission", str(mission)])
    assert german.exit_code == 0, german.stderr
    assert "threat_zone.serious.white\tErnsthafte Bedrohung in Zone Weiß." in german.stdout
    old = runner.invoke(app, ["voices", "phrases", str(mission), "--voice", "de"])
    assert old.stdout == german.stdout  # the older form still works
    english = runner.invoke(app, ["voices", "phrases", "en"])
    assert english.exit_code == 0, english.stderr
    assert "alert\t" in english.stdout and "S003" not in english.output
    default = runner.invoke(app, ["voices", "phrases", str(mission)])  # mission where the
    assert default.exit_code == 0 and "--mission" in default.stderr   # voice goes: a note
    assert default.stdout == runner.invoke(app, ["voices", "phrases", "en", "-m",
                                                 str(mission)]).stdout
    unknown = runner.invoke(app, ["voices", "phrases", "klingon"])
    assert unknown.exit_code == 2 and "unknown voice 'klingon'" in unknown.stderr


def test_extending_an_unknown_voice_points_at_the_line(tmp_path: Path) -> None:
    orphan = tmp_path / "orphan.yaml"
    orphan.write_text("format: 1\nid: orphan\nextends: nowhere\n", encoding="utf-8")
    result = runner.invoke(app, ["voices", "check", str(orphan)])
    assert result.exit_code == 1
    assert f"{orphan}:3:10: extends unknown voice 'nowhere'" in result.stderr


def test_a_flite_voice_that_does_not_exist_is_reported(tmp_path: Path) -> None:
    odd = tmp_path / "odd.yaml"
    odd.write_text(f"format: 1\nid: odd\nextends: {ROOT / 'voices/en.yaml'}\n"
                   "settings: {voice: xx-nope}\n", encoding="utf-8")
    result = runner.invoke(app, ["voices", "check", str(odd), "--no-listen"])
    assert result.exit_code == 3
    assert "flite has no voice 'xx-nope' (needed by the voice 'odd')" in result.stderr
    assert "`flite -lv` lists the installed voices (" in result.stderr and "slt" in result.stderr


def test_an_espeak_voice_that_does_not_exist_is_reported(tmp_path: Path) -> None:
    odd = tmp_path / "odd.yaml"
    odd.write_text(f"format: 1\nid: odd\nextends: {ROOT / 'voices/en-espeak.yaml'}\n"
                   "settings: {voice: xx-nope}\n", encoding="utf-8")
    mission = ROOT / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", str(odd), "--no-cache"])
    assert result.exit_code == 3
    assert "espeak-ng failed on" in result.stderr and "'xx-nope'" in result.stderr
    assert "espeak-ng --voices" in result.stderr


def test_one_resolver_pairs_mission_languages_with_voices() -> None:
    from authoring.audio.voice import voice_for_language, voices_speaking

    for tag, expected in [("de-AT", "de"), ("de", "de"), ("EN-gb", "en"), ("fr-CA", "fr"),
                          ("en", "en"), ("EN", "en")]:
        found = voice_for_language(tag)
        assert found is not None and found.id == expected, tag
        # the shortcut for a bare language reads one file; it must pick what the full rule picks
        every = voices_speaking(tag, [load_voice(name) for name in bundled_voices()])
        assert found == every[0], tag
    assert voice_for_language("it") is None
    pack = [load_voice("en"), load_voice("de"), load_voice("en-gtts")]
    assert [v.id for v in voices_speaking("de-AT", pack)] == ["de"]
    assert [v.id for v in voices_speaking("en-US", pack)] == ["en", "en-gtts"]


def test_render_and_pack_read_a_regional_mission_with_the_same_voice(
        short_mission: Path, tmp_path: Path) -> None:
    from authoring.mission import load_mission
    from authoring.publish.build import _voices_for
    from authoring.publish.checks import CheckedMission

    text = short_mission.read_text("utf-8").replace("language: en", "language: de-AT")
    text = text.replace('  - {at: "2:15", announcement: {text: "Check your plans."}}\n', "")
    short_mission.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.wav"),
                                 "--no-bed"])
    assert result.exit_code == 0, result.stderr
    assert "with voice de:" in result.stderr
    checked = CheckedMission(short_mission, "short.yaml", load_mission(short_mission), ())
    assert [v.id for v in _voices_for(checked, [load_voice("en"), load_voice("de")])] == ["de"]


def test_a_voice_of_another_language_reading_story_text_is_warned(
        short_mission: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.wav"),
                                 "--no-bed", "--voice", "de"])
    assert result.exit_code == 0, result.stderr
    assert ("warning: voice 'de' (de) reads the 1 announcement text of short-test written in "
            "en (first at 2:15) as de") in result.stderr
    plain = short_mission.read_text("utf-8").replace(
        '  - {at: "2:15", announcement: {text: "Check your plans."}}\n', "")
    short_mission.write_text(plain, encoding="utf-8")
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "b.wav"),
                                 "--no-bed", "--voice", "de"])
    assert result.exit_code == 0 and "warning" not in result.stderr  # only standard cues


def test_a_voice_licence_is_listed_written_into_the_captions_and_not_inherited_by_another_engine(
        tmp_path: Path) -> None:
    rows = {r["id"]: r for r in json.loads(runner.invoke(app, ["voices", "list", "--json"]).stdout)}
    assert "non-commercial" in rows["en-piper"]["licence"] and rows["en"]["licence"] is None
    terms = tmp_path / "terms.yaml"
    terms.write_text(f"format: 1\nid: terms\nextends: {ROOT / 'voices/en.yaml'}\n"
                     "licence: 'for home use only'\n", encoding="utf-8")
    freed = tmp_path / "freed.yaml"
    freed.write_text(f"format: 1\nid: freed\nextends: {terms}\nbackend: espeak-ng\n"
                     "settings: {voice: en-us}\n", encoding="utf-8")
    assert load_voice(terms).licence == "for home use only"
    assert load_voice(freed).licence is None
    out = tmp_path / "t.wav"
    mission = ROOT / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(out), "--voice", str(terms),
                                 "--captions", "json", "--no-bed"])
    assert result.exit_code == 0, result.stderr
    meta = json.loads(out.with_suffix(".json").read_text("utf-8"))
    assert meta["voice"] == "terms" and meta["licence"] == "for home use only"
    listed = runner.invoke(app, ["voices", "list"])
    assert "licence: piper-tts is GPL-3.0-or-later" in listed.stdout


def test_flite_pauses_join_the_sentences_of_a_cue_with_measured_silence(tmp_path: Path) -> None:
    import dataclasses

    import numpy as np

    from authoring.audio import pcm
    from authoring.audio.backends.flite import FliteBackend

    plain = load_voice("en")
    plain = dataclasses.replace(plain, settings={k: v for k, v in plain.settings.items()
                                                 if k != "pause_ms"})
    paused = dataclasses.replace(plain, settings={**plain.settings, "pause_ms": 400})
    text = "Time T plus three. Serious threat. Zone red."
    parts, parts_rate = FliteBackend(paused).synthesize(text)
    assert parts_rate == pcm.RATE
    # deterministic: the same bytes twice
    assert np.array_equal(parts, FliteBackend(paused).synthesize(text)[0])
    # each sentence alone, trimmed, then two pauses of 400 ms (+ the 30 ms trim tail each)
    alone = [pcm.trim(pcm.resample(*FliteBackend(plain).synthesize(s)))
             for s in ("Time T plus three.", "Serious threat.", "Zone red.")]
    assert len(parts) == sum(len(a) for a in alone) + 2 * 400 * pcm.RATE // 1000
    # the silent runs of at least 400 ms are exactly the two pauses
    quiet = np.abs(parts) <= pcm.db_to_gain(pcm.SILENCE_DBFS)
    runs, n = [], 0
    for q in quiet:
        n = n + 1 if q else 0
        if n == 400 * pcm.RATE // 1000:
            runs.append(1)
    assert len(runs) == 2
    # a cue of one sentence is spoken as it was
    assert np.array_equal(FliteBackend(paused).synthesize("Zone red.")[0],
                          FliteBackend(plain).synthesize("Zone red.")[0])


def test_a_language_without_an_understandable_offline_voice_says_so_plainly() -> None:
    rows = {r["id"]: r for r in json.loads(runner.invoke(app, ["voices", "list", "--json"]).stdout)}
    note = rows["zh"]["note"]
    assert note is not None and "not understandable" in note and "zh-gtts" in note
    assert "spacealert voices pack zh-gtts" in note
    assert rows["zh-gtts"]["note"] is None  # another engine: the measurement is not its own
    assert rows["en"]["note"] is None
    listed = runner.invoke(app, ["voices", "list"]).stdout.splitlines()
    at = next(i for i, line in enumerate(listed) if line[2:].startswith("zh "))
    assert listed[at + 1].strip().startswith("note: not understandable")


def test_every_default_voice_is_offline() -> None:
    for language in ("en", "de", "fr", "es", "pl", "cs", "zh"):
        voice = load_voice(language)
        assert voice.backend in ("flite", "espeak-ng", "festival"), language
    assert load_voice("cs").backend == "festival"
    assert load_voice("cs-espeak").backend == "espeak-ng"
    assert load_voice("cs-espeak").phrases == load_voice("cs").phrases
