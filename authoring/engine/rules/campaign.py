"""Plays an exploration campaign: missions in a row with repairs between them (docs/rules.md §18).

Between two missions (never after the last):

* every malfunction is removed, even one that reached Z (a new mission starts from a fresh
  state, so nothing of ``State.broken`` survives);
* starting with the captain (the first seat) and in seat order, each player or android who
  is not knocked out repairs one damage token or one disabled battlebot squad; at most two
  tokens per zone; knocked-out crew repair nothing;
* the next mission starts with the unrepaired tokens drawn (they keep their effects and count
  toward the zone's six), one energy less in a container whose reactor or shield token is
  unrepaired, damage past the shields doubled in a zone with unrepaired structural damage, and
  no squad placed for each unrepaired disabled squad (a lone squad starts where the crew
  chooses: upper blue or lower red).

Scoring: each mission records threat points and visual confirmation only; the last one also
its penalties. Final score = sum of threat points − the last mission's penalties + the
average of the visual-confirmation points rounded down. A ship destroyed in any mission loses
the campaign (no score).

Project decision (the rules do not say): a squad still disabled when carried into the last
mission is not on the board but is still a disabled squad, so it costs its −1 at the end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from authoring.engine.errors import PlanError
from authoring.engine.rules import ship
from authoring.engine.rules.game import Game, initial_state
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.log import Result, format_result
from authoring.engine.rules.plan import TOKEN_KINDS, Plan
from authoring.engine.rules.setup import Setup
from authoring.engine.rules.ship import ACTIVE, DISABLED, NO_SQUAD, ZONE_NAMES
from authoring.engine.rules.state import State

#: At most this many damage tokens are repaired per zone between two missions.
REPAIRS_PER_ZONE = 2
#: The most missions a campaign has.
MAX_MISSIONS = 3
SQUAD = "squad"
NOTHING = "-"
#: Where a lone squad can start: upper blue or lower red (the two squad stations).
SQUAD_STATIONS: tuple[str, ...] = ("UB", "LR")

#: The stated repair policy (``policy_repairs``): what a crew member repairs first.
POLICY_ORDER: tuple[str, ...] = ("structural", "reactor", "shield", SQUAD, "upper-cannon",
                                 "lower-cannon", "gravolift")
POLICY = (
    "each crew member in seat order (captain first) who is not knocked out repairs the first "
    "of: structural damage (it doubles damage), a reactor token, a shield token (both cost "
    "energy at the start), a disabled squad, an upper-cannon, a lower-cannon, a gravolift "
    "token; among zones, the one with the most tokens left first (then red, white, blue), "
    "never a third token in a zone; a lone squad starts in upper blue")


@dataclass(frozen=True)
class Wreck:
    """The ship at the end of a mission, as far as the next one cares."""

    tokens: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # damage tokens per zone
    squads: int  # disabled squads (on the board, carried by crew, or not placed at all)
    crew: tuple[str, ...]  # labels in seat order, captain first
    knocked_out: tuple[str, ...]


@dataclass(frozen=True)
class CarryOver:
    """What the next mission starts with: unrepaired tokens and squads (docs/rules.md §18)."""

    tokens: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    squads: int = 0  # disabled squads left unrepaired: not placed
    squad_station: str = "UB"  # where a lone squad starts

    def to_dict(self) -> dict[str, Any]:
        """Returns JSON-ready data: token names per zone and the squads."""
        return {"tokens": {ZONE_NAMES[z]: [ship.TOKEN_NAMES[k] for k in self.tokens[z]]
                           for z in range(3)},
                "disabled_squads": self.squads, "squad_station": self.squad_station}


@dataclass(frozen=True)
class Repair:
    """One crew member's repair: ``red:structural``, ``squad`` or ``-`` (nothing)."""

    crew: str
    target: str

    def __str__(self) -> str:
        return f"{self.crew}={self.target}"


def wreck_of(state: State, unplaced: int = 0) -> Wreck:
    """Returns what a finished mission leaves: tokens, disabled squads, knocked-out crew.

    ``unplaced`` counts the squads that were carried over disabled and never placed.
    """
    squads = unplaced + sum(1 for c in state.crew if c.squad == DISABLED)
    squads += sum(1 for s in state.stored if s == DISABLED)
    tokens = (tuple(state.tokens[0]), tuple(state.tokens[1]), tuple(state.tokens[2]))
    return Wreck(tokens, squads, tuple(c.label for c in state.crew),
                 tuple(c.label for c in state.crew if c.out))


def parse_repairs(text: str) -> dict[str, str]:
    """Parses ``"P1=red:structural P2=squad A1=-"`` into ``{label: target}``."""
    choices: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        label, eq, target = part.partition("=")
        if not eq or not label:
            raise PlanError(f"expected repairs like P1=red:structural P2=squad, got {part!r}")
        if label in choices:
            raise PlanError(f"expected one repair per crew member, got two for {label}")
        choices[label] = target
    return choices


def _target(target: str) -> tuple[int, int] | None:
    """Returns (zone, token kind) of a token target, None for a squad or nothing."""
    if target in (SQUAD, NOTHING):
        return None
    zone, colon, kind = target.partition(":")
    if not colon or zone not in ZONE_NAMES[:3] or kind not in TOKEN_KINDS:
        raise PlanError(f"expected a repair zone:token (zones red, white, blue; tokens "
                        f"{', '.join(TOKEN_KINDS)}), 'squad' or '-', got {target!r}")
    return ZONE_NAMES.index(zone), TOKEN_KINDS.index(kind)


def repair(wreck: Wreck, choices: Mapping[str, str],
           squad_station: str = "UB") -> tuple[CarryOver, tuple[Repair, ...]]:
    """Applies the crew's repair choices to a wreck (docs/rules.md §18).

    ``choices`` maps crew labels to targets; a crew member not named repairs nothing. Raises
    ``PlanError`` for a choice the rules forbid.
    """
    if squad_station not in SQUAD_STATIONS:
        raise PlanError(f"expected a lone squad's station UB or LR, got {squad_station!r}")
    unknown = sorted(set(choices) - set(wreck.crew))
    if unknown:
        raise PlanError(f"expected repairs by the crew ({' '.join(wreck.crew)}), got "
                        f"{' '.join(unknown)}")
    tokens = [list(z) for z in wreck.tokens]
    squads = wreck.squads
    per_zone = [0, 0, 0]
    done: list[Repair] = []
    for label in wreck.crew:  # seat order: the captain first
        target = choices.get(label, NOTHING)
        spot = _target(target)
        if target == NOTHING:
            continue
        if label in wreck.knocked_out:
            raise PlanError(f"{label} was knocked out: knocked-out crew repair nothing, got "
                            f"{label}={target}")
        if spot is None:
            if squads == 0:
                raise PlanError(f"{label}={target}: no disabled squad is left to repair")
            squads -= 1
        else:
            zone, kind = spot
            if kind not in tokens[zone]:
                raise PlanError(f"{label}={target}: no unrepaired {TOKEN_KINDS[kind]} token "
                                f"in the {ZONE_NAMES[zone]} zone")
            if per_zone[zone] == REPAIRS_PER_ZONE:
                raise PlanError(f"{label}={target}: at most {REPAIRS_PER_ZONE} tokens can be "
                                f"repaired per zone")
            per_zone[zone] += 1
            tokens[zone].remove(kind)
        done.append(Repair(label, target))
    carry = CarryOver((tuple(tokens[0]), tuple(tokens[1]), tuple(tokens[2])), squads,
                      squad_station)
    return carry, tuple(done)


def policy_repairs(wreck: Wreck) -> dict[str, str]:
    """Returns the repair choices of the stated policy (``POLICY``)."""
    tokens = [list(z) for z in wreck.tokens]
    squads = wreck.squads
    per_zone = [0, 0, 0]
    choices: dict[str, str] = {}
    for label in wreck.crew:
        if label in wreck.knocked_out:
            continue
        for what in POLICY_ORDER:
            if what == SQUAD:
                if squads:
                    squads -= 1
                    choices[label] = SQUAD
                    break
                continue
            kind = TOKEN_KINDS.index(what)
            zones = [z for z in range(3) if kind in tokens[z] and per_zone[z] < REPAIRS_PER_ZONE]
            if zones:
                zone = min(zones, key=lambda z: (-len(tokens[z]), z))
                tokens[zone].remove(kind)
                per_zone[zone] += 1
                choices[label] = f"{ZONE_NAMES[zone]}:{what}"
                break
    return choices


def apply_carry(state: State, carry: CarryOver) -> None:
    """Sets up a mission's starting state with what the previous one left (docs/rules.md §18)."""
    for zone in range(3):
        kept = list(carry.tokens[zone])
        state.tokens[zone] = kept
        if ship.SHIELD in kept:
            state.shields[zone] = max(0, ship.START_SHIELDS[zone] - 1)
        if ship.REACTOR in kept:
            state.reactors[zone] = max(0, ship.START_REACTORS[zone] - 1)
        state.hull[zone] = 2 if ship.STRUCTURAL in kept else 1
    placed = max(0, 2 - carry.squads)
    if placed == 0:
        state.stored = [NO_SQUAD, NO_SQUAD]
    elif placed == 1:
        at_upper_blue = carry.squad_station == "UB"
        state.stored = [ACTIVE if at_upper_blue else NO_SQUAD,
                        NO_SQUAD if at_upper_blue else ACTIVE]


@dataclass(frozen=True)
class MissionRecord:
    """One mission of a campaign: what it started with, its result and the repairs after it."""

    number: int  # 1-based
    carried_in: CarryOver
    result: Result
    repairs: tuple[Repair, ...] = ()
    carried_out: CarryOver | None = None  # None after the last mission or a loss

    @property
    def threat_points(self) -> int:
        """Threat points of the mission (0 when the ship was lost)."""
        return self.result.score.threats if self.result.score else 0

    @property
    def visual_confirmation(self) -> int:
        """Visual-confirmation points of the mission."""
        return self.result.score.visual_confirmation if self.result.score else 0


@dataclass(frozen=True)
class CampaignScore:
    """The campaign score breakdown (docs/rules.md §18)."""

    threats: int  # sum over every mission
    visual_confirmation: int  # average over the missions, rounded down
    damage: int  # penalties of the last mission only
    worst_zone: int
    knocked_out: int
    disabled_squads: int  # including squads not placed because still disabled
    total: int


@dataclass(frozen=True)
class CampaignResult:
    """The outcome of a campaign: one record per mission played, and the final score."""

    missions: tuple[MissionRecord, ...]
    survived: bool
    score: CampaignScore | None = None
    lost_in: int | None = None  # the mission the ship was destroyed in
    policy: str = ""  # the repair policy used where no choices were given
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """Returns JSON-ready data with stable keys."""
        return {
            "survived": self.survived,
            "lost_in": self.lost_in,
            "score": asdict(self.score) if self.score else None,
            "missions": [{
                "number": m.number,
                "carried_in": m.carried_in.to_dict(),
                "threat_points": m.threat_points,
                "visual_confirmation": m.visual_confirmation,
                "result": m.result.to_dict(),
                "repairs": [str(r) for r in m.repairs],
                "carried_out": m.carried_out.to_dict() if m.carried_out else None,
            } for m in self.missions],
            "policy": self.policy,
        }


def play_mission(setup: Setup, plan: Plan, carry: CarryOver, *, seed: int | None = None,
                 record: bool = True, trace: bool = False) -> tuple[Result, State]:
    """Resolves one mission from a carried-over ship; returns its result and final state."""
    state = initial_state(setup, plan)
    apply_carry(state, carry)
    forced = {ZONE_NAMES.index(z): [TOKEN_KINDS.index(k) for k in kinds]
              for z, kinds in plan.tokens.items()}
    rng = random.Random(plan.seed if seed is None else seed)
    game = Game(state, rng, forced, record=record, trace=trace, rules=get_level(setup.level))
    return game.run(), game.state


def resolve_campaign(setups: Sequence[Setup], plans: Sequence[Plan],
                     repairs: Sequence[Mapping[str, str] | None] = (),
                     squad_stations: Sequence[str | None] = (), *,
                     record: bool = True, trace: bool = False) -> CampaignResult:
    """Plays the missions in order with repairs between them and scores the campaign.

    ``setups`` and ``plans`` go by mission (fewer than three: the crew stopped there);
    ``repairs[i]`` are the choices after mission ``i + 1`` (None or missing: the stated
    ``POLICY``); ``squad_stations[i]`` where a lone squad starts in mission ``i + 2``.
    """
    if not 1 <= len(setups) <= MAX_MISSIONS:
        raise PlanError(f"expected 1 to {MAX_MISSIONS} missions, got {len(setups)}")
    if len(plans) != len(setups):
        raise PlanError(f"expected one plan per mission ({len(setups)}), got {len(plans)}")
    if len(repairs) > len(setups) - 1:
        raise PlanError(f"expected repairs only between missions (at most {len(setups) - 1}), "
                        f"got {len(repairs)}")
    records: list[MissionRecord] = []
    carry = CarryOver()
    used_policy = False
    for index, (setup, plan) in enumerate(zip(setups, plans, strict=True)):
        result, state = play_mission(setup, plan, carry, record=record, trace=trace)
        last = index == len(setups) - 1
        if not result.survived:
            records.append(MissionRecord(index + 1, carry, result))
            return CampaignResult(tuple(records), False, None, index + 1,
                                  POLICY if used_policy else "")
        if last:
            records.append(MissionRecord(index + 1, carry, result))
            score = _final_score(records, carry.squads)
            return CampaignResult(tuple(records), True, score, None,
                                  POLICY if used_policy else "")
        wreck = wreck_of(state, carry.squads)
        chosen = repairs[index] if index < len(repairs) else None
        if chosen is None:
            chosen = policy_repairs(wreck)
            used_policy = True
        station = squad_stations[index] if index < len(squad_stations) else None
        try:
            carried, done = repair(wreck, chosen, station or "UB")
        except PlanError as error:
            raise PlanError(f"repairs after mission {index + 1}: {error}") from None
        records.append(MissionRecord(index + 1, carry, result, done, carried))
        carry = carried
    raise AssertionError("unreachable: the loop returns at the last mission")


def _final_score(records: Sequence[MissionRecord], unplaced: int) -> CampaignScore:
    last = records[-1].result.score
    if last is None:  # a rule level without score (first game): nothing to add up
        return CampaignScore(0, 0, 0, 0, 0, 0, 0)
    threats = sum(r.threat_points for r in records)
    vc = sum(r.visual_confirmation for r in records) // len(records)
    disabled = last.disabled_squads + unplaced
    total = threats + vc - last.damage - last.worst_zone - last.knocked_out - disabled
    return CampaignScore(threats, vc, last.damage, last.worst_zone, last.knocked_out, disabled,
                         total)


def format_campaign(result: CampaignResult) -> str:
    """Returns a readable report: each mission's log, the repairs, then the campaign score."""
    lines: list[str] = []
    for record in result.missions:
        lines.append(f"=== Mission {record.number} ===")
        carried = record.carried_in
        names = [f"{ZONE_NAMES[z]} {','.join(ship.TOKEN_NAMES[k] for k in carried.tokens[z])}"
                 for z in range(3) if carried.tokens[z]]
        if names or carried.squads:
            lines.append("Carried over: " + "; ".join(
                [*names, *([f"{carried.squads} disabled squad(s) not placed"]
                           if carried.squads else [])]))
        lines.append(format_result(record.result).rstrip("\n"))
        lines.append(f"Mission {record.number}: threat points {record.threat_points}, "
                     f"visual confirmation {record.visual_confirmation}")
        if record.carried_out is not None:
            lines.append("Repairs: " + (" ".join(str(r) for r in record.repairs) or "none"))
        lines.append("")
    if not result.survived:
        lines.append(f"Campaign lost: the ship was destroyed in mission {result.lost_in}")
    elif result.score is not None:
        s = result.score
        lines.append(f"Campaign score {s.total} = threats {s.threats} + average visual "
                     f"confirmation {s.visual_confirmation} - damage {s.damage} - worst zone "
                     f"{s.worst_zone} - knocked out {s.knocked_out} - disabled squads "
                     f"{s.disabled_squads}")
    if result.policy:
        lines.append(f"Repair policy: {result.policy}")
    return "\n".join(lines) + "\n"
