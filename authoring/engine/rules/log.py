"""Describes the resolution output (log, threat fates, score) and formats the text report."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class LogEntry:
    """One thing that happened: turn (13 = closing step), step name and a sentence."""

    turn: int
    step: str  # appear, action, damage, threat, rocket, computer, jump, end
    text: str


@dataclass(frozen=True)
class ThreatOutcome:
    """What became of one threat card."""

    token: int
    card: str
    name: str
    zone: str
    fate: str  # destroyed, survived, on-track, not-appeared
    turn: int | None
    points: int


@dataclass(frozen=True)
class Score:
    """The score breakdown of a surviving ship (docs/rules.md §15)."""

    threats: int
    visual_confirmation: int
    damage: int
    worst_zone: int
    knocked_out: int
    disabled_squads: int
    total: int


@dataclass(frozen=True)
class Result:
    """The outcome of one resolution."""

    survived: bool
    turn: int  # 13 when the ship survived, else the turn of the loss
    cause: str  # '' when survived
    threats: tuple[ThreatOutcome, ...]
    damage: dict[str, tuple[str, ...]]  # zone -> damage tokens drawn, in order
    score: Score | None
    log: tuple[LogEntry, ...] = ()
    trace: tuple[str, ...] = ()  # state notation at the start and after each turn

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-ready mapping with stable keys."""
        return {
            "outcome": {"survived": self.survived, "turn": self.turn, "cause": self.cause},
            "score": asdict(self.score) if self.score else None,
            "damage": {zone: list(tokens) for zone, tokens in self.damage.items()},
            "threats": [asdict(t) for t in self.threats],
            "log": [asdict(e) for e in self.log],
            "trace": list(self.trace),
        }


def format_result(result: Result) -> str:
    """Returns a readable text report: the log by turn, threat fates and the score."""
    lines: list[str] = []
    turn = -1
    for entry in result.log:
        if entry.turn != turn:
            turn = entry.turn
            lines.append(f"Turn {turn}" if turn <= 12 else "Closing step (turn 13)")
        lines.append(f"  [{entry.step}] {entry.text}")
    lines.append("")
    if result.survived:
        lines.append("Outcome: the ship survived")
    else:
        lines.append(f"Outcome: the ship was destroyed in turn {result.turn} ({result.cause})")
    for zone, tokens in result.damage.items():
        lines.append(f"  {zone} damage {len(tokens)}: {', '.join(tokens) or 'none'}")
    for threat in result.threats:
        when = f" in turn {threat.turn}" if threat.turn else ""
        # a bonus threat has no turn of its own: its carrier brings it (docs/rules.md §19.8)
        token = f"T+{threat.token}" if threat.token else "bonus"
        lines.append(f"  {token} {threat.zone} {threat.card} {threat.name}: "
                     f"{threat.fate}{when}, {threat.points} points")
    if result.score:
        s = result.score
        lines.append(f"Score {s.total} = threats {s.threats} + visual confirmation "
                     f"{s.visual_confirmation} - damage {s.damage} - worst zone {s.worst_zone}"
                     f" - knocked out {s.knocked_out} - disabled squads {s.disabled_squads}")
    return "\n".join(lines) + "\n"
