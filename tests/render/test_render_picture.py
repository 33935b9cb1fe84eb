"""The briefing's timeline picture: every event placed to scale in its zone colour."""

from __future__ import annotations

from pathlib import Path

from authoring.crew import crew_size
from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline
from authoring.render.picture import LEFT, RIGHT, WIDTH, ZONE_FILL, layout_timeline

OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"


def test_mission_7_picture() -> None:
    mission = load_mission(OFFICIAL / "mission-7.yaml")
    picture = layout_timeline(compile_timeline(mission))
    threats = [m for m in picture.marks if m.shape == "circle"]
    assert [m.label for m in threats] == ["T+1", "T+3 S", "T+4 S", "T+5", "T+7", "T+8"]
    assert [m.fill for m in threats] == [ZONE_FILL[z] for z in
                                         ("blue", "red", "internal", "white", "red", "white")]
    assert threats[0].dashed and not threats[1].dashed  # the unconfirmed report
    assert threats[1].r > threats[0].r  # serious threats are larger
    # to scale: 0:10 of a 10:00 mission
    assert threats[0].x == round(LEFT + (WIDTH - LEFT - RIGHT) * 10 / 600, 2)
    comms = [b for b in picture.boxes if b.css == "comms"]
    assert [b.label for b in comms] == ["10s", "5s", "10s", "25s"]
    assert abs(comms[3].w / comms[0].w - 2.5) < 0.01
    phases = [b.label for b in picture.boxes if b.css.startswith("phase")]
    assert phases == ["Phase 1", "Phase 2", "Phase 3"]
    assert len([t for t in picture.ticks if t.css == "warning"]) == 6
    assert {m.label for m in picture.marks if m.shape != "circle"} == {"ID", "DT"}


def test_fewer_players_drop_the_unconfirmed_marker() -> None:
    mission = load_mission(OFFICIAL / "mission-7.yaml")
    picture = layout_timeline(compile_timeline(mission, crew_size(4)))
    assert len([m for m in picture.marks if m.shape == "circle"]) == 5


def test_close_markers_alternate_their_labels() -> None:
    mission = load_mission(OFFICIAL / "mission-7.yaml")
    picture = layout_timeline(compile_timeline(mission))
    threats = [m for m in picture.marks if m.shape == "circle"]
    # T+1 at 0:10 and T+3 at 0:35 are 30 units apart: the second label goes below
    assert threats[0].label_y < threats[0].y < threats[1].label_y
