"""The site model: difficulty labels and the player's cue list."""

from __future__ import annotations

from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline
from authoring.render.site import difficulty_label, player_cues
from authoring.render.site.pages import human_size
from tests.site.helpers import DATA, PACK

REPO_MISSIONS = DATA.parent.parent.parent / "missions" / "official"


def test_difficulty_grows_with_threat_points_and_decks() -> None:
    assert difficulty_label(load_mission(PACK / "missions" / "tiny-drill.yaml")) == "easy"
    assert difficulty_label(load_mission(DATA / "first-watch.yaml")) == "moderate"
    assert difficulty_label(load_mission(REPO_MISSIONS / "mission-1.yaml")) == "hard"


def test_player_cues_take_heard_lengths_and_threat_zones() -> None:
    timeline = compile_timeline(load_mission(PACK / "missions" / "tiny-drill.yaml"))
    threat = next(c for c in timeline.cues if c.kind == "threat")
    heard = [(threat.start_ms, threat.start_ms + 4321, "threat", "Achtung.")]
    (cue,) = player_cues(timeline, heard)
    assert (cue.start_ms, cue.end_ms, cue.text, cue.zone, cue.phase) == \
        (12_000, 16_321, "Achtung.", "red", 1)


def test_player_cues_default_to_nominal_lengths_in_time_order() -> None:
    timeline = compile_timeline(load_mission(PACK / "missions" / "tiny-drill.yaml"))
    cues = player_cues(timeline)
    assert len(cues) == len(timeline.cues)
    assert [c.start_ms for c in cues] == sorted(c.start_ms for c in cues)
    assert [c.zone for c in cues if c.kind == "threat"] == ["red", "blue"]
    assert all(c.end_ms >= c.start_ms for c in cues)


def test_sizes_read_like_a_download_page() -> None:
    assert [human_size(n) for n in (999, 1000, 23_780, 9_676_217)] == \
        ["999 B", "1.0 kB", "23.8 kB", "9.7 MB"]


def test_an_announcement_a_countdown_follows_reads_with_its_numbers() -> None:
    # Issue 38 item 10: the lists showed "Data transfer. Repeat: data transfer in" and "First
    # phase ends in" without the numbers, which are cues of their own
    cues = player_cues(compile_timeline(load_mission(REPO_MISSIONS / "mission-1.yaml")))
    first = {c.kind: c.listed for c in reversed(cues)}  # the first cue of each kind
    assert first["data_transfer"] == \
        "Data transfer. Repeat: data transfer in five, four, three, two, one."
    assert first["countdown"] == "First phase ends in five, four, three, two, one."
    assert [c.text for c in cues if c.kind == "count"][:5] == \
        ["Five.", "Four.", "Three.", "Two.", "One."]  # the captions keep them one by one
    assert next(c.text for c in cues if c.kind == "countdown") == "First phase ends in"
