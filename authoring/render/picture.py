"""Lays out the briefing's timeline picture: phases, warnings, comms-down spans and events.

The layout is computed here in SVG user units and drawn by ``_timeline.svg.j2``; the template
only places what it is given, so the picture can be tested without parsing SVG. Time runs left
to right to scale; each lane holds one family of cues from ``compile_timeline``.
"""

from __future__ import annotations

from dataclasses import dataclass

from authoring.mission.timecode import format_clock
from authoring.mission.timeline import Timeline

WIDTH = 640.0
LEFT = 46.0      # room for the lane names
RIGHT = 14.0
PHASE_Y, PHASE_H = 4.0, 16.0
THREAT_Y = 52.0  # centre line of the threat lane
DATA_Y = 92.0
COMMS_Y = 116.0
AXIS_Y = 144.0
HEIGHT = 160.0
CLOSE = 34.0     # markers nearer than this alternate their labels above and below

#: Fill and stroke of each zone's markers (white needs an outline on white paper).
ZONE_FILL = {"red": "#d7263d", "white": "#ffffff", "blue": "#1b6fd1", "internal": "#e0a100"}
ZONE_STROKE = {"red": "#8c1020", "white": "#333333", "blue": "#0d3f7a", "internal": "#7a5700"}


@dataclass(frozen=True)
class Box:
    """A rectangle with an optional centred label."""

    x: float
    y: float
    w: float
    h: float
    css: str
    label: str = ""
    label_y: float = 0.0
    inside: bool = False  # the label fits inside the box


@dataclass(frozen=True)
class Mark:
    """An event marker at (x, y): shape, colours and a label placed above or below."""

    x: float
    y: float
    shape: str  # circle | diamond | square | tick
    fill: str
    stroke: str
    r: float
    label: str
    label_y: float
    dashed: bool = False
    title: str = ""


@dataclass(frozen=True)
class Tick:
    """A vertical line with an optional label (time axis, warnings)."""

    x: float
    y1: float
    y2: float
    css: str
    label: str = ""


@dataclass(frozen=True)
class TimelinePicture:
    """Everything the timeline SVG draws."""

    width: float
    height: float
    boxes: tuple[Box, ...]
    marks: tuple[Mark, ...]
    ticks: tuple[Tick, ...]
    lanes: tuple[tuple[str, float], ...]


def layout_timeline(timeline: Timeline) -> TimelinePicture:
    """Returns the picture of a compiled timeline, scaled to its last phase end."""
    end_ms = max(timeline.phases_ms[-1], 1)
    plot = WIDTH - LEFT - RIGHT

    def x_of(ms: int) -> float:
        return round(LEFT + plot * min(ms, end_ms) / end_ms, 2)

    boxes: list[Box] = []
    start = 0
    for number, phase_end in enumerate(timeline.phases_ms, start=1):
        boxes.append(Box(x_of(start), PHASE_Y, x_of(phase_end) - x_of(start), PHASE_H,
                         f"phase phase-{number % 2}", f"Phase {number}"))
        start = phase_end
    ticks: list[Tick] = []
    for second in range(0, end_ms // 1000 + 1, 30):
        label = format_clock(second) if second % 60 == 0 else ""
        ticks.append(Tick(x_of(second * 1000), AXIS_Y - (4 if label else 2), AXIS_Y,
                          "axis", label))
    marks: list[Mark] = []
    last_x = {THREAT_Y: -99.0, DATA_Y: -99.0}
    flip = {THREAT_Y: False, DATA_Y: False}

    def label_y(lane: float, x: float, above: float, below: float) -> float:
        flip[lane] = (not flip[lane]) if x - last_x[lane] < CLOSE else False
        last_x[lane] = x
        return below if flip[lane] else above

    comms_label = [-99.0, 0.0]  # x and y of the last label set under a comms bar
    for cue in timeline.cues:
        x = x_of(cue.start_ms)
        if cue.kind == "threat":
            zone = str(cue.params["zone"])
            serious = bool(cue.params["serious"])
            label = f"T+{cue.params['turn']}" + (" S" if serious else "")
            marks.append(Mark(x, THREAT_Y, "circle", ZONE_FILL[zone], ZONE_STROKE[zone],
                              7.5 if serious else 5.0, label,
                              label_y(THREAT_Y, x, THREAT_Y - 11, THREAT_Y + 19),
                              dashed=bool(cue.params["unconfirmed"]),
                              title=f"{format_clock(cue.start_ms // 1000)} {cue.text}"))
        elif cue.kind in ("incoming_data", "data_transfer", "announcement"):
            shape, label = {"incoming_data": ("diamond", "ID"), "data_transfer": ("square", "DT"),
                            "announcement": ("tick", "A")}[cue.kind]
            marks.append(Mark(x, DATA_Y, shape, "#2a9d8f" if shape == "diamond" else "#555555",
                              "#1d3557", 4.5, label, label_y(DATA_Y, x, DATA_Y - 8, DATA_Y + 15),
                              title=f"{format_clock(cue.start_ms // 1000)} {cue.text}"))
        elif cue.kind == "static" and cue.until_ms is not None:
            seconds = (cue.until_ms - cue.start_ms) // 1000
            width = max(x_of(cue.until_ms) - x, 1.5)
            inside = width > 16
            if inside:
                y = COMMS_Y + 2.5
            else:  # below the bar, a line lower when the previous label is near
                crowded = comms_label[0] > x - 16 and comms_label[1] == COMMS_Y + 15
                y = COMMS_Y + (22 if crowded else 15)
                comms_label[:] = [x + width / 2, y]
            boxes.append(Box(x, COMMS_Y - 6, width, 12, "comms", f"{seconds}s", y, inside))
        elif cue.kind == "warning":
            ticks.append(Tick(x, PHASE_Y, PHASE_Y + PHASE_H, "warning"))
        elif cue.kind == "countdown":
            boxes.append(Box(x, PHASE_Y, x_of(cue.start_ms + 8000) - x, PHASE_H, "countdown"))
    lanes = (("threats", THREAT_Y), ("data", DATA_Y), ("comms", COMMS_Y))
    return TimelinePicture(WIDTH, HEIGHT, tuple(boxes), tuple(marks), tuple(ticks), lanes)
