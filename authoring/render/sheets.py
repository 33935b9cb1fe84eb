"""Builds the context of each printable sheet and renders it to HTML with the shared templates.

Four kinds: ``briefing`` (what the crew is told before playing), ``threats`` (a card-like block
per threat card the mission's decks can bring up), ``comms-officer`` (every announcement with a
tick box, for playing without audio) and ``answer-key`` (the cards of one draw, for teaching).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from authoring.crew import CrewSize, choose_crew
from authoring.engine.errors import EngineError
from authoring.engine.rules.setup import ThreatEvent
from authoring.engine.rules.trajectories import TRAJECTORIES
from authoring.errors import UsageError
from authoring.mission.model import Announcement, CommsDown, Decks, Mission, Threat, event_key
from authoring.mission.timeline import Cue, compile_timeline
from authoring.render.cards import CardFace, played_threats, possible_cards, zones_for
from authoring.render.draw import Draw, draw_mission, needs_seed
from authoring.render.env import make_environment
from authoring.render.movement import reach_turns
from authoring.render.picture import ZONE_FILL, ZONE_STROKE, layout_timeline
from authoring.render.tracks import TrackStack, draw_track, label_width, stack_tracks

SheetKind = Literal["briefing", "threats", "comms-officer", "answer-key"]
Paper = Literal["a4", "letter"]
SHEET_KINDS: tuple[SheetKind, ...] = ("briefing", "threats", "comms-officer", "answer-key")
PAPERS: Mapping[str, str] = {"a4": "A4", "letter": "letter"}

PROFILE_LABELS = {
    "test-run": "test run (first game, 2 phases)",
    "training": "training (simulation)",
    "base": "base game mission",
    "double-action": "double action",
}
DECK_LABELS = {"white": "white", "yellow": "yellow", "mixed": "white and yellow mixed",
               "red": "red"}
#: Cues the comms officer reads out; counts, beeps and static belong to their announcement.
SPOKEN_ROWS = ("mission_start", "threat", "incoming_data", "data_transfer", "comms_down",
               "comms_restored", "warning", "countdown", "phase_ended", "operation_ended",
               "announcement")


@dataclass(frozen=True)
class Difficulty:
    """The difficulty rating from the linter's simulation, printed on the briefing."""

    rating: str
    summary: str = ""
    figures: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CardBlock:
    """One threat card as printed: its face, where it can appear and its tracks."""

    face: CardFace
    zones: tuple[str, ...]
    tracks: TrackStack
    note: str = ""


@dataclass(frozen=True)
class CommsRow:
    """One line of the comms-officer sheet."""

    start_ms: int
    phase: int
    kind: str
    text: str
    detail: str = ""
    zone: str = ""
    until_ms: int | None = None


@dataclass(frozen=True)
class SheetOptions:
    """What a sheet is rendered for."""

    kind: SheetKind = "briefing"
    paper: Paper = "a4"
    players: int | None = None  # with figures: the crew (None: the mission's; choose_crew)
    seed: int | None = None
    difficulty: Difficulty | None = None
    templates: tuple[Path, ...] = field(default_factory=tuple)
    figures: int | None = None


def deck_words(decks: Decks) -> str:
    """The threat decks in words, as every sheet prints them: "common: white; serious: white
    and yellow mixed", and whether the New Frontier cards are in (docs/rules.md §19.9)."""
    return (f"common: {DECK_LABELS[decks.common]}; serious: {DECK_LABELS[decks.serious]}"
            + ("; New Frontier cards shuffled in" if decks.expansion else ""))


def _facts(mission: Mission, crew: CrewSize) -> list[tuple[str, str]]:
    threats = played_threats(mission, crew)
    points = sum(t.points for t in threats)
    unconfirmed = sum(1 for t in mission.threats() if t.unconfirmed)
    facts = [
        ("Profile", PROFILE_LABELS.get(mission.profile, mission.profile)),
        ("Players", crew.describe()),
        ("Length", f"{len(mission.phases)} phases, "
                   + ", ".join(f"P{n} ends {s // 60}:{s % 60:02d}"
                               for n, s in enumerate(mission.phases, start=1))),
        ("Threat decks", deck_words(mission.decks)),
        ("Trajectories", ", ".join(f"{z} {b}" for z, b in mission.trajectories.items())
         if mission.trajectories else "drawn at random (four different boards of T1-T7)"),
        ("Threats", f"{len(threats)} announced, {points} threat points"
                    + (f" ({unconfirmed} unconfirmed report"
                       f"{'s' if unconfirmed != 1 else ''}"
                       f"{', played' if crew.plays_unconfirmed else ', ignored below 5 figures'})"
                       if unconfirmed else "")),
    ]
    return facts


def _event_lines(mission: Mission, crew: CrewSize) -> list[tuple[int, str, str]]:
    """Returns (second, text, zone) for each mission event the crew hears, in time order."""
    lines: list[tuple[int, str, str]] = []
    for event in mission.events:
        if isinstance(event, Threat):
            if event.unconfirmed and not crew.plays_unconfirmed:
                continue
            kind = ("serious " if event.serious else "") + (
                "internal threat" if event.internal else "threat")
            extra = (" (unconfirmed)" if event.unconfirmed else "") + (
                f", card {event.card}" if event.card else "") + (
                f" with bonus {event.bonus}" if event.bonus else "")
            lines.append((event.at, f"T+{event.turn} {kind}{extra}",
                          event.zone))
        elif isinstance(event, CommsDown):
            lines.append((event.at, f"communications down {event.seconds} s", ""))
        elif isinstance(event, Announcement):
            lines.append((event.at, f"announcement: {event.text}", ""))
        else:
            lines.append((event.at, event_key(event).replace("_", " "), ""))
    return lines


def _comms_rows(cues: Sequence[Cue]) -> list[CommsRow]:
    rows: list[CommsRow] = []
    for cue in cues:
        if cue.kind not in SPOKEN_ROWS:
            continue
        detail, zone, until = "", "", None
        if cue.kind == "threat":
            zone = str(cue.params["zone"])
            if cue.params.get("unconfirmed"):
                detail = "unconfirmed report (5 figures)"
        elif cue.kind == "data_transfer":
            detail = "count five to one, beep 10 s after the start"
        elif cue.kind == "countdown":
            detail = "count five to one"
        elif cue.kind == "comms_down":
            seconds = int(cue.params["seconds"])
            until = cue.start_ms + seconds * 1000
            detail = f"{seconds} s of silence"
        rows.append(CommsRow(cue.start_ms, cue.phase, cue.kind, cue.text, detail, zone, until))
    return rows


#: The widest track label a sheet can show, so that every card is drawn on the same scale.
WIDEST_LABEL = {True: "internal T7", False: "T7"}


def _tracks_for(face: CardFace, boards: Sequence[tuple[str, str]],
                appears: int | None = None, *, zoned: bool = True,
                reached: Sequence[Mapping[int, int]] | None = None) -> TrackStack:
    room = label_width([WIDEST_LABEL[zoned]])
    if reached is None:  # a card on its own: the engine moves it from turn 1 on each board
        reached = [_solo_reaches(face, board) for _, board in boards]
    return stack_tracks(tuple(draw_track(board, face.speed_value, external=face.external,
                                         label=label, appears=appears, label_w=room,
                                         reached=moves)
                              for (label, board), moves in zip(boards, reached, strict=True)),
                        turns=appears is not None)


def _solo_reaches(face: CardFace, board: str) -> Mapping[int, int]:
    zone = "red" if face.external else "internal"
    others = [b for b in TRAJECTORIES if b != board][:3]
    boards = dict(zip([z for z in ("red", "white", "blue", "internal") if z != zone],
                      others, strict=True))
    try:
        return reach_turns([ThreatEvent(1, zone, face.id)], {**boards, zone: board})[0]
    except EngineError:  # a card the engine cannot play: its printed speed is all we have
        return {}


def _card_blocks(mission: Mission, faces: Mapping[str, CardFace],
                 crew: CrewSize) -> list[CardBlock]:
    blocks = []
    for face in possible_cards(mission, faces, crew):
        zones = zones_for(face, mission, faces, crew)
        if mission.trajectories:
            boards = [(f"{zone} {mission.trajectories[zone]}", mission.trajectories[zone])
                      for zone in zones]
        else:
            boards = [(board, board) for board in TRAJECTORIES]
        blocks.append(CardBlock(face, tuple(zones), _tracks_for(
            face, boards, zoned=mission.trajectories is not None)))
    return blocks


def _answer_blocks(draw: Draw, crew: CrewSize) -> list[CardBlock]:
    events = [ThreatEvent(d.threat.turn, d.threat.zone, d.card.id, d.bonus)
              for d in draw.threats]
    reached = reach_turns(events, draw.trajectories, figures=crew.figures)
    blocks = []
    for drawn, moves in zip(draw.threats, reached, strict=True):
        threat = drawn.threat
        label = f"{threat.zone} {drawn.trajectory}"
        note = f"T+{threat.turn}, {threat.zone}" + (" (pinned)" if drawn.pinned else "") + (
            f", bonus threat {drawn.bonus}" if drawn.bonus else "")
        blocks.append(CardBlock(drawn.card, (threat.zone,),
                                _tracks_for(drawn.card, [(label, drawn.trajectory)],
                                            appears=threat.turn, reached=[moves]), note))
    return blocks


def sheet_context(mission: Mission, options: SheetOptions,
                  faces: Mapping[str, CardFace] | None = None) -> dict[str, Any]:
    """Returns the template context of one sheet; ``faces`` is needed for card sheets.

    Raises ``CrewSizeError`` for options whose players and figures do not fit the rules.
    """
    crew = choose_crew(mission.crew, options.players, options.figures)
    context: dict[str, Any] = {
        "mission": mission,
        "kind": options.kind,
        "page_size": PAPERS[options.paper],
        "paper": options.paper,
        "players": crew.players,
        "crew": crew,
        "facts": _facts(mission, crew),
        "zone_fill": ZONE_FILL,
        "zone_stroke": ZONE_STROKE,
    }
    if options.kind == "briefing":
        timeline = compile_timeline(mission, crew)
        context["picture"] = layout_timeline(timeline)
        context["events"] = _event_lines(mission, crew)
        context["difficulty"] = options.difficulty
    elif options.kind == "comms-officer":
        context["rows"] = _comms_rows(compile_timeline(mission, crew).cues)
    elif options.kind in ("threats", "answer-key"):
        if faces is None:
            raise ValueError("card sheets need the threat card faces")
        if options.kind == "threats":
            context["blocks"] = _card_blocks(mission, faces, crew)
            context["pinned_boards"] = mission.trajectories is not None
        else:
            if options.seed is None and needs_seed(mission, crew):
                raise UsageError(
                    "the answer key needs --seed N: the mission leaves threat cards or "
                    "trajectories to chance")
            draw = draw_mission(mission, faces, crew=crew, seed=options.seed)
            context["draw"] = draw
            context["blocks"] = _answer_blocks(draw, crew)
    return context


def render_html(mission: Mission, options: SheetOptions,
                faces: Mapping[str, CardFace] | None = None) -> str:
    """Returns the sheet as a self-contained HTML page."""
    env = make_environment(options.templates)
    template = env.get_template(f"{options.kind}.html.j2")
    return template.render(sheet_context(mission, options, faces))
