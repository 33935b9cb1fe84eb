"""Writes and parses the canonical one-line text of a state between turns (like chess FEN).

Fields, space-separated ``key=value`` in this order::

    t=3 tracks=T1.T2.T3.T4 sh=1.3.1 re=2.5.2 fuel=2 rk=3.0 bots=a- comp=1.. vc=1.0.0
    dmg=HS.-.G broken=- contam=- scout=0 lost=0 crew=P1@UW,P2@LB*,P3@SP~!
    slots=P1:r.A|P2:-.-.C|P3: thr=E1-07#1w@7/d2,I1-01#2i-

* ``sh``/``re``: shield and reactor energy red.white.blue; ``fuel`` capsules; ``rk`` rockets
  stored.flying (1 = on the second square, hits next turn); ``bots`` squads stored at UB and
  LR (``a`` active, ``d`` disabled, ``-`` taken); ``comp`` phases maintained (``1``/``.``);
  ``vc`` best visual-confirmation head count per phase.
* ``dmg``: damage tokens drawn per zone in order (S structural, H shield, R reactor, U upper
  cannon, L lower cannon, G gravolift; ``-`` none). ``broken``: systems broken by a
  malfunction's Z (``LBC``); ``contam``: stations left contaminated; ``scout``: 1 once a Scout
  reached Z; ``lost``: turn of the loss (0 = flying).
* ``crew``: label@station, ``*`` active squad, ``~`` disabled squad, ``!`` knocked out
  (``SP`` = in space). ``slots``: each crew member's 12 slots (plan tokens, trailing blanks
  dropped) after delays.
* ``thr``: every threat in order of appearance: card#token, zone letter (r w b i), then
  ``-`` not yet appeared, ``@square`` on its track, ``x<turn>`` destroyed, ``z<turn>``
  survived; then ``/``-separated extras that differ from the card: ``d`` damage, ``v`` speed,
  ``h`` shield, ``H`` health, ``a`` activated (revealed, bonus on, grown up, knocked off
  course; a phasing threat: phased out, docs/rules.md §19.8), ``k`` cryoshield gone, ``p``
  X/Y squares passed (the Phasing Mine Layer: its mines, one digit each, station + 1, in
  laying order), ``L`` Fissure level, ``s`` stations (slime spots with their health,
  e.g. ``sLB2+LW1``).
* ``hull`` (campaigns only, written when not ``1.1.1``): the damage multiplier per zone from
  structural damage carried over from the previous mission (docs/rules.md §18).
"""

from __future__ import annotations

import re

from authoring.engine.errors import NotationError
from authoring.engine.rules.plan import decode, encode, parse_action
from authoring.engine.rules.ship import STATION_CODES, TOKEN_LETTERS, ZONE_LETTERS
from authoring.engine.rules.state import (
    ACTIVE_THREAT,
    DESTROYED,
    PENDING,
    SURVIVED,
    CrewMember,
    State,
    ThreatState,
    start_stations,
)
from authoring.engine.rules.threats.cards import load_cards

_SQUAD = ("", "*", "~")
_STORED = "-ad"
_FIELDS = ("t", "tracks", "sh", "re", "fuel", "rk", "bots", "comp", "vc", "dmg", "broken",
           "contam", "scout", "lost", "crew", "slots", "thr", "hull")
# Written only when it differs from a single mission's (campaigns), so that single-mission
# lines stay as they were.
_OPTIONAL = {"hull"}


# Slot codes are few and a trace writes every member's twelve slots after every turn, so
# each code's text is computed once (the differential test's cost was mostly this).
_TOKEN_TEXT: dict[int, str] = {}


def _token(code: int) -> str:
    text = _TOKEN_TEXT.get(code)
    if text is None:
        text = _TOKEN_TEXT[code] = decode(code).token()
    return text


# A member's slots stay the same for most turns of a game, so their text is kept too; the
# bound keeps a long-running process (the studio) from growing it without end.
_SLOTS_TEXT: dict[tuple[int, ...], str] = {}
_SLOTS_KEPT = 4096


def _slots(codes: list[int]) -> str:
    key = tuple(codes)
    text = _SLOTS_TEXT.get(key)
    if text is None:
        tokens = [_token(code) for code in codes]
        while tokens and tokens[-1] == "-":
            tokens.pop()
        if len(_SLOTS_TEXT) >= _SLOTS_KEPT:
            _SLOTS_TEXT.clear()
        text = _SLOTS_TEXT[key] = ".".join(tokens)
    return text


def _threat(th: ThreatState) -> str:
    card = th.card
    where = {PENDING: "-", ACTIVE_THREAT: f"@{th.square}", DESTROYED: f"x{th.ended}",
             SURVIVED: f"z{th.ended}"}[th.status]
    text = f"{card.id}#{th.token}{ZONE_LETTERS[th.zone]}{where}"
    extras = []
    if th.damage:
        extras.append(f"d{th.damage}")
    if th.speed != card.speed:
        extras.append(f"v{th.speed}")
    if th.shield != card.shield:
        extras.append(f"h{th.shield}")
    if th.health != (card.health or 0):
        extras.append(f"H{th.health}")
    if th.active:
        extras.append("a")
    if th.cryo != ("cryoshield" in card.abilities):
        extras.append("k")
    if th.passes:
        extras.append(f"p{th.passes}")
    if th.level:
        extras.append(f"L{th.level}")
    if th.stations != start_stations(card, th.token) or th.spots:
        spots = th.spots or [0] * len(th.stations)
        extras.append("s" + "+".join(STATION_CODES[s] + (str(n) if th.spots else "")
                                     for s, n in zip(th.stations, spots, strict=True)))
    return "/".join([text, *extras])


def notation(state: State) -> str:
    """Returns the canonical one-line text of a state."""
    slots = [f"{member.label}:{_slots(member.slots)}" for member in state.crew]
    fields = [
        f"t={state.turn}",
        "tracks=" + ".".join(state.tracks),
        "sh=" + ".".join(map(str, state.shields)),
        "re=" + ".".join(map(str, state.reactors)),
        f"fuel={state.fuel}",
        f"rk={state.rockets}.{int(state.rocket_flying)}",
        "bots=" + "".join(_STORED[s] for s in state.stored),
        "comp=" + "".join("1" if m else "." for m in state.maintained),
        "vc=" + ".".join(map(str, state.vc)),
        "dmg=" + ".".join("".join(TOKEN_LETTERS[k] for k in z) or "-" for z in state.tokens),
        "broken=" + (",".join(f"{STATION_CODES[s]}{letter}"
                              for s, letter in sorted(state.broken)) or "-"),
        "contam=" + (",".join(STATION_CODES[s] for s in sorted(state.contaminated)) or "-"),
        f"scout={int(state.scout_bonus)}",
        f"lost={state.lost}",
        "crew=" + ",".join(f"{c.label}@{STATION_CODES[c.station]}{_SQUAD[c.squad]}"
                           f"{'!' if c.out else ''}" for c in state.crew),
        "slots=" + "|".join(slots),
        "thr=" + (",".join(_threat(th) for th in state.threats) or "-"),
    ]
    if state.hull != [1, 1, 1]:
        fields.append("hull=" + ".".join(map(str, state.hull)))
    return " ".join(fields)


def split_fields(text: str) -> dict[str, str]:
    """Splits a notation line (or a subset of its fields) into ``{key: value}``."""
    fields: dict[str, str] = {}
    for part in text.split():
        key, eq, value = part.partition("=")
        if not eq or key not in _FIELDS:
            raise NotationError(f"expected key=value with a key in {', '.join(_FIELDS)}, "
                                f"got {part!r}")
        fields[key] = value
    return fields


def _ints(value: str, count: int, key: str) -> list[int]:
    parts = value.split(".")
    if len(parts) != count or not all(re.fullmatch(r"\d+", p) for p in parts):
        raise NotationError(f"expected {count} dot-separated numbers for {key}, got {value!r}")
    return [int(p) for p in parts]


_THREAT = re.compile(r"^(?P<card>S?[EI]\d-\d+)#(?P<token>\d+)(?P<zone>[rwbi])"
                     r"(?:(?P<pending>-)|@(?P<square>\d+)|x(?P<x>\d+)|z(?P<z>\d+))$")


def _parse_threat(item: str) -> ThreatState:
    head, *extras = item.split("/")
    match = _THREAT.match(head)
    cards = load_cards()
    if match is None or match["card"] not in cards:
        raise NotationError(f"expected a threat like E1-07#1w@7/d2, got {item!r}")
    th = ThreatState(cards[match["card"]], int(match["token"]), ZONE_LETTERS.index(match["zone"]))
    if match["square"]:
        th.status, th.square = ACTIVE_THREAT, int(match["square"])
    elif match["x"]:
        th.status, th.ended = DESTROYED, int(match["x"])
    elif match["z"]:
        th.status, th.ended = SURVIVED, int(match["z"])
    for extra in extras:
        key, value = extra[:1], extra[1:]
        if key in "dvhHpL" and key and re.fullmatch(r"-?\d+", value):
            attr = {"d": "damage", "v": "speed", "h": "shield", "H": "health", "p": "passes",
                    "L": "level"}[key]
            setattr(th, attr, int(value))
        elif extra == "a":
            th.active = True
        elif extra == "k":
            th.cryo = not th.cryo
        elif key == "s":  # empty: every station the card names is gone (a Slime cleaned up)
            stations, spots = [], []
            for spot in filter(None, value.split("+")):
                code, hp = spot[:2], spot[2:]
                if code not in STATION_CODES[:6]:
                    raise NotationError(f"expected a station code, got {spot!r} in {item!r}")
                stations.append(STATION_CODES.index(code))
                if hp:
                    spots.append(int(hp))
            th.stations, th.spots = stations, spots
        else:
            raise NotationError(f"expected a threat extra (d v h H a k p L s), got {extra!r}")
    return th


def parse_notation(text: str) -> State:
    """Parses a notation line back into a state; ``notation(parse_notation(s)) == s``."""
    fields = split_fields(text)
    missing = [k for k in _FIELDS if k not in fields and k not in _OPTIONAL]
    if missing:
        raise NotationError(f"expected every field, got none for {', '.join(missing)}")
    tracks = fields["tracks"].split(".")
    if len(tracks) != 4:
        raise NotationError(f"expected 4 tracks, got {fields['tracks']!r}")
    crew = []
    slot_map = {}
    for part in fields["slots"].split("|"):
        label, _, tokens = part.partition(":")
        codes = [encode(parse_action(t)) for t in tokens.split(".") if t]
        slot_map[label] = codes + [0] * (12 - len(codes))
    for item in fields["crew"].split(","):
        match = re.fullmatch(r"([PA]\d)@([A-Z]{2})([*~]?)(!?)", item)
        if match is None or match[2] not in STATION_CODES or match[1] not in slot_map:
            raise NotationError(f"expected a crew member like P1@UW*, got {item!r}")
        member = CrewMember(match[1], slot_map[match[1]])
        member.station = STATION_CODES.index(match[2])
        member.squad = _SQUAD.index(match[3])
        member.out = bool(match[4])
        crew.append(member)
    threats = [] if fields["thr"] == "-" else [_parse_threat(i) for i in fields["thr"].split(",")]
    state = State(crew, threats, (tracks[0], tracks[1], tracks[2], tracks[3]))
    state.turn = int(fields["t"])
    state.shields = _ints(fields["sh"], 3, "sh")
    state.reactors = _ints(fields["re"], 3, "re")
    state.fuel = int(fields["fuel"])
    rockets, flying = _ints(fields["rk"], 2, "rk")
    state.rockets, state.rocket_flying = rockets, bool(flying)
    state.stored = [_STORED.index(c) for c in fields["bots"]]
    state.maintained = [c == "1" for c in fields["comp"]]
    state.vc = _ints(fields["vc"], 3, "vc")
    state.tokens = [[] if z == "-" else [TOKEN_LETTERS.index(c) for c in z]
                    for z in fields["dmg"].split(".")]
    if fields["broken"] != "-":
        state.broken = {(STATION_CODES.index(b[:2]), b[2:]) for b in fields["broken"].split(",")}
    if fields["contam"] != "-":
        state.contaminated = {STATION_CODES.index(s) for s in fields["contam"].split(",")}
    state.scout_bonus = fields["scout"] == "1"
    state.lost = int(fields["lost"])
    if "hull" in fields:
        state.hull = _ints(fields["hull"], 3, "hull")
    return state
