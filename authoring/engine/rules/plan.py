"""Models crew plans: 12 action slots per crew member, the threat draw and the damage seed.

The compact text form has one line per crew member, seats in order::

    P1: r A l B - C
    P2: - - B A+ >LW C
    A1: A A

Tokens: ``-`` blank; ``r`` / ``b`` move red / blue; ``l`` gravolift; ``A`` ``B`` ``C``;
``R`` battlebots; heroic ``A+`` ``B+`` ``R+`` and heroic moves ``>UR`` … ``>LB``; a double
action (New Frontier, double-action tracks only) writes its two halves together in the order
they are played, such as ``rA`` or ``lC`` (``DOUBLE_PAIRS``, docs/rules.md §19.2); a trailing
``!`` marks a tripped card (executed, then the crew member is delayed). Missing trailing slots
are blank. A label starting with ``A`` is an android (androids cannot trip). Optional lines:
``seed: 7``, ``draw: E1-07 SE2-03 …`` (cards for the mission's threats in order, ``-`` = not
fixed here), ``trajectories: T1 T2 T3 T4`` (red, white, blue, internal) and
``tokens: white=shield,structural`` (forced damage-token draws, the rest stays random).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from authoring.engine.errors import PlanError

SLOTS: Final = 12
STATIONS: tuple[str, ...] = ("UR", "UW", "UB", "LR", "LW", "LB")
ZONES: tuple[str, ...] = ("red", "white", "blue", "internal")
TOKEN_KINDS: tuple[str, ...] = (
    "structural", "shield", "reactor", "upper-cannon", "lower-cannon", "gravolift",
)
# Action kinds as small integers: the engine dispatches on them every slot (Final: the native
# core inlines them).
BLANK: Final = 0
RED: Final = 1
BLUE: Final = 2
LIFT: Final = 3
A: Final = 4
B: Final = 5
C: Final = 6
BOTS: Final = 7
HMOVE: Final = 8
KIND_NAMES: tuple[str, ...] = ("blank", "red", "blue", "lift", "A", "B", "C", "bots", "move")
_LETTERS = "-rblABCR"  # plan letter of each kind up to BOTS
_SIMPLE = {"-": BLANK, "r": RED, "b": BLUE, "l": LIFT, "A": A, "B": B, "C": C, "R": BOTS}
_HEROIC = {"A+": A, "B+": B, "R+": BOTS}
_TOKEN = re.compile(r"^(?:(?P<simple>[-rblABCR])|(?P<pair>[rblABCR]{2})|(?P<heroic>[ABR]\+)"
                    r"|>(?P<to>[ULul][RWBrwb]))(?P<trip>!)?$")
VALID_TOKENS = ("-, r, b, l, A, B, C, R, A+, B+, R+, >UR/>UW/>UB/>LR/>LW/>LB, a double action "
                "such as rA (optional ! = tripped)")
#: The faces of the expansion's double-action cards, first half then second
#: (docs/rules.md §19.2): the 36 two-action halves of the double-action deck
#: (``data/double-action-cards.json``), so no plan uses a pair the box does not have. The 13
#: other pairs of two halves (AA, BB, CC, RR, ll, AR, BR, CR, CB, lr, lb, rb, br) are refused.
DOUBLE_PAIRS: tuple[str, ...] = (
    "AB", "AC", "Ab", "Ar", "Al",
    "BA", "Bb", "BC", "Bl", "Br",
    "CA", "Cb", "Cl", "Cr",
    "RA", "RB", "Rb", "RC", "Rl", "Rr",
    "bA", "bB", "bR", "bb", "bC", "bl",
    "rA", "rB", "rR", "rC", "rl", "rr",
    "lA", "lB", "lR", "lC",
)


@dataclass(frozen=True)
class Action:
    """One plan slot: a card half, possibly heroic, possibly tripped, or a double action."""

    kind: int = BLANK
    heroic: bool = False
    target: int = -1  # heroic move: the station index
    tripped: bool = False
    second: int = BLANK  # a double action's second half (its first half is ``kind``)

    def token(self) -> str:
        """Returns the compact text token of the action."""
        if self.kind == HMOVE:
            text = ">" + STATIONS[self.target]
        elif self.heroic:
            text = "ABR"[(A, B, BOTS).index(self.kind)] + "+"
        else:
            text = _LETTERS[self.kind] + (_LETTERS[self.second] if self.second else "")
        return text + ("!" if self.tripped else "")

    @property
    def is_double(self) -> bool:
        """Tells whether the slot holds a double-action card."""
        return self.second != BLANK

    @property
    def is_blank(self) -> bool:
        """Tells whether the slot holds no card."""
        return self.kind == BLANK


BLANK_ACTION = Action()
HEROIC_BIT: Final = 16
TRIP_BIT: Final = 32
KIND_MASK: Final = 15
#: A double action's second half sits in bits 12-15 of the code (bits 8-11: a heroic move's
#: station + 1; a double action is never heroic, so the two never meet).
SECOND_SHIFT: Final = 12
FIRST_MASK: Final = (1 << SECOND_SHIFT) - 1


def encode(action: Action) -> int:
    """Packs an action into the small integer the engine dispatches on."""
    return (action.kind | (HEROIC_BIT if action.heroic else 0)
            | (TRIP_BIT if action.tripped else 0) | ((action.target + 1) << 8)
            | (action.second << SECOND_SHIFT))


def second_kind(code: int) -> int:
    """Returns the kind of an encoded slot's second half (``BLANK`` for a single card)."""
    return (code >> SECOND_SHIFT) & KIND_MASK


def decode(code: int) -> Action:
    """Returns the action of an encoded slot (the inverse of ``encode``)."""
    kind = code & KIND_MASK
    return Action(kind, bool(code & HEROIC_BIT), (code >> 8 & KIND_MASK) - 1 if kind == HMOVE
                  else -1, bool(code & TRIP_BIT), second_kind(code))


def parse_action(token: str) -> Action:
    """Parses one slot token such as ``A+`` or ``>LW!``."""
    match = _TOKEN.match(token)
    if match is None:
        raise PlanError(f"expected an action ({VALID_TOKENS}), got {token!r}")
    trip = bool(match["trip"])
    if match["simple"]:
        kind = _SIMPLE[match["simple"]]
        if kind == BLANK and trip:
            raise PlanError(f"expected a card to trip over, got {token!r}")
        return Action(kind, tripped=trip)
    if match["pair"]:
        pair = match["pair"]
        if pair not in DOUBLE_PAIRS:
            raise PlanError(f"expected a double action of the expansion's cards "
                            f"({' '.join(DOUBLE_PAIRS)}), got {token!r}")
        return Action(_SIMPLE[pair[0]], tripped=trip, second=_SIMPLE[pair[1]])
    if match["heroic"]:
        return Action(_HEROIC[match["heroic"]], heroic=True, tripped=trip)
    return Action(HMOVE, heroic=True, target=STATIONS.index(match["to"].upper()), tripped=trip)


@dataclass(frozen=True)
class CrewPlan:
    """The 12 slots of one crew member (player or android) in seat order."""

    label: str
    actions: tuple[Action, ...]

    @cached_property
    def codes(self) -> tuple[int, ...]:
        """Returns the slots packed as the engine's small integers (computed once)."""
        return tuple(encode(a) for a in self.actions)

    @property
    def android(self) -> bool:
        """Tells whether the figure is an android (label starting with ``A``)."""
        return self.label.upper().startswith("A")

    def line(self) -> str:
        """Returns the compact one-line form, trailing blanks dropped."""
        tokens = [a.token() for a in self.actions]
        while tokens and tokens[-1] == "-":
            tokens.pop()
        return f"{self.label}: {' '.join(tokens)}".rstrip()


def make_crew_plan(label: str, tokens: Sequence[str] | str) -> CrewPlan:
    """Builds a crew plan from a label and its tokens (a list or a space-separated string)."""
    if not re.fullmatch(r"[PA][1-9]", label):
        raise PlanError(f"expected a crew label P1..P9 or A1..A9, got {label!r}")
    parts = tokens.split() if isinstance(tokens, str) else [str(t) for t in tokens]
    if len(parts) > SLOTS:
        raise PlanError(f"expected at most {SLOTS} actions for {label}, got {len(parts)}")
    actions = [parse_action(t) for t in parts]
    actions += [BLANK_ACTION] * (SLOTS - len(actions))
    plan = CrewPlan(label, tuple(actions))
    heroics = sum(1 for a in actions if a.heroic)
    if heroics > 1:
        raise PlanError(f"expected at most 1 heroic card for {label}, got {heroics}")
    if plan.android and any(a.tripped for a in actions):
        raise PlanError(f"expected no tripped card for android {label}, got one")
    return plan


@dataclass(frozen=True)
class Plan:
    """A crew plan, the threat draw, the trajectories and the damage seed of one resolution."""

    crew: tuple[CrewPlan, ...]
    draw: tuple[str | None, ...] = ()
    trajectories: Mapping[str, str] | None = None
    seed: int = 0
    tokens: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 1 <= len(self.crew) <= 5:
            raise PlanError(f"expected 1 to 5 crew members, got {len(self.crew)}")
        labels = [c.label for c in self.crew]
        if len(set(labels)) != len(labels):
            raise PlanError(f"expected distinct crew labels, got {' '.join(labels)}")
        for zone, kinds in self.tokens.items():
            if zone not in ZONES[:3]:
                raise PlanError(f"expected a damage-token zone red, white or blue, got {zone!r}")
            for kind in kinds:
                if kind not in TOKEN_KINDS:
                    raise PlanError(
                        f"expected a damage token ({', '.join(TOKEN_KINDS)}), got {kind!r}")
            if len(set(kinds)) != len(kinds):
                raise PlanError(f"expected each {zone} damage token at most once, got {kinds}")
        if self.trajectories is not None:
            _check_trajectories(self.trajectories)

    @property
    def has_double_actions(self) -> bool:
        """Tells whether any slot holds a double-action card."""
        return any(a.second for c in self.crew for a in c.actions)

    def text(self) -> str:
        """Returns the compact text form, which ``parse_plan`` reads back."""
        lines = [c.line() for c in self.crew]
        lines.append(f"seed: {self.seed}")
        if self.draw:
            lines.append("draw: " + " ".join(d or "-" for d in self.draw))
        if self.trajectories:
            lines.append("trajectories: " + " ".join(self.trajectories[z] for z in ZONES))
        if self.tokens:
            lines.append("tokens: " + " ".join(f"{z}={','.join(k)}"
                                               for z, k in self.tokens.items()))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Plan:
        """Builds a plan from a decoded plan file (see ``schemas/plan.schema.json``)."""
        if not isinstance(data, Mapping):
            raise PlanError(f"expected a mapping, got {type(data).__name__}")
        unknown = set(data) - {"format", "mission", "description", "seed", "crew", "draw",
                               "tokens"}
        if unknown:
            raise PlanError(f"expected keys format, mission, description, seed, crew, draw, "
                            f"tokens, got {', '.join(sorted(unknown))}")
        crew_raw = data.get("crew")
        if not isinstance(crew_raw, Sequence) or isinstance(crew_raw, str):
            raise PlanError("expected crew to be a list of crew members, got "
                            f"{type(crew_raw).__name__}")
        crew = []
        for index, member in enumerate(crew_raw, 1):
            if isinstance(member, Mapping):
                label = str(member.get("label", f"P{index}"))
                actions = member.get("actions", [])
            else:
                label, actions = f"P{index}", member
            if not isinstance(actions, (str, Sequence)):
                raise PlanError(f"expected actions of {label} as a string or list, got "
                                f"{type(actions).__name__}")
            crew.append(make_crew_plan(label, actions))
        draw = data.get("draw") or {}
        threats = tuple(None if t in (None, "-") else str(t) for t in draw.get("threats", ()))
        trajectories = draw.get("trajectories")
        tokens = {z: tuple(k) for z, k in (data.get("tokens") or {}).items()}
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PlanError(f"expected an integer seed, got {seed!r}")
        return cls(tuple(crew), threats, dict(trajectories) if trajectories else None, seed,
                   tokens)

    def to_mapping(self) -> dict[str, Any]:
        """Returns the plan-file mapping that ``from_mapping`` reads back."""
        data: dict[str, Any] = {
            "format": 1,
            "seed": self.seed,
            "crew": [{"label": c.label, "actions": c.line().partition(": ")[2]}
                     for c in self.crew],
        }
        draw: dict[str, Any] = {}
        if self.draw:
            draw["threats"] = list(self.draw)
        if self.trajectories:
            draw["trajectories"] = dict(self.trajectories)
        if draw:
            data["draw"] = draw
        if self.tokens:
            data["tokens"] = {z: list(k) for z, k in self.tokens.items()}
        return data


def _check_trajectories(trajectories: Mapping[str, str]) -> None:
    if set(trajectories) != set(ZONES):
        raise PlanError("expected trajectories for red, white, blue and internal, got "
                        f"{', '.join(sorted(trajectories))}")
    names = [str(trajectories[z]).upper() for z in ZONES]
    for name in names:
        if not re.fullmatch(r"T[1-7]", name):
            raise PlanError(f"expected a trajectory T1..T7, got {name!r}")
    if len(set(names)) != 4:
        raise PlanError(f"expected four different trajectories, got {' '.join(names)}")


def parse_plan(text: str) -> Plan:
    """Parses the compact text form (crew lines plus optional seed/draw/trajectories/tokens)."""
    crew: list[CrewPlan] = []
    seed = 0
    draw: tuple[str | None, ...] = ()
    trajectories: dict[str, str] | None = None
    tokens: dict[str, tuple[str, ...]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise PlanError(f"expected 'label: actions' on line {number}, got {raw.strip()!r}")
        key = key.strip()
        value = value.strip()
        if key == "seed":
            try:
                seed = int(value)
            except ValueError:
                raise PlanError(
                    f"expected an integer seed on line {number}, got {value!r}") from None
        elif key == "draw":
            draw = tuple(None if t == "-" else t for t in value.split())
        elif key == "trajectories":
            names = value.split()
            if len(names) != 4:
                raise PlanError(f"expected 4 trajectories on line {number}, got {len(names)}")
            trajectories = dict(zip(ZONES, names, strict=True))
        elif key == "tokens":
            for part in value.split():
                zone, eq, kinds = part.partition("=")
                if not eq:
                    raise PlanError(f"expected zone=token,... on line {number}, got {part!r}")
                tokens[zone] = tuple(k for k in kinds.split(",") if k)
        else:
            crew.append(make_crew_plan(key, value))
    return Plan(tuple(crew), draw, trajectories, seed, tokens)
