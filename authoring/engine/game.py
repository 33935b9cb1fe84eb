"""The Resolution Round: turns 1-12 and the closing step, step by step (rules §5, §6)."""

from __future__ import annotations

import random

from authoring.engine import ship
from authoring.engine.log import LogEntry, Result, ThreatOutcome
from authoring.engine.plan import (
    BLANK,
    BOTS,
    HMOVE,
    LIFT,
    TOKEN_KINDS,
    Action,
    Plan,
)
from authoring.engine.plan import BLUE as MOVE_BLUE
from authoring.engine.plan import RED as MOVE_RED
from authoring.engine.plan import A as ACT_A
from authoring.engine.plan import B as ACT_B
from authoring.engine.plan import C as ACT_C
from authoring.engine.scoring import score_state
from authoring.engine.setup import Setup
from authoring.engine.ship import (
    ACTIVE,
    DISABLED,
    LB,
    LR,
    LW,
    NO_SQUAD,
    SPACE,
    STATION_CODES,
    UB,
    UR,
    UW,
    ZONE_NAMES,
    zone_of,
)
from authoring.engine.state import (
    ACTIVE_THREAT,
    DESTROYED,
    PENDING,
    SURVIVED,
    CrewMember,
    State,
    ThreatState,
)
from authoring.engine.threats import abilities
from authoring.engine.threats.cards import get_card
from authoring.engine.trajectories import DISTANCE, TRAJECTORIES, Trajectory

HEROIC_BIT = 16
TRIP_BIT = 32
KIND_MASK = 15
# Appearance order inside one turn (New Frontier only; rules §19/§20).
_SAME_TURN_ORDER = {(False, True): 0, (False, False): 1, (True, True): 2, (True, False): 3}


def encode(action: Action) -> int:
    """Packs a plan action into the small integer the engine dispatches on."""
    return (action.kind | (HEROIC_BIT if action.heroic else 0) | (TRIP_BIT if action.tripped else 0)
            | ((action.target + 1) << 8))


class ShipDestroyed(Exception):
    """Signals the loss of the ship; caught by the turn loop."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


def initial_state(setup: Setup, plan: Plan) -> State:
    """Returns the starting state of the Resolution Round (rules §3)."""
    setup.check_crew(len(plan.crew))
    crew = [CrewMember(c.label, [encode(a) for a in c.actions]) for c in plan.crew]
    threats = [ThreatState(get_card(e.card), e.turn, ZONE_NAMES.index(e.zone))
               for e in setup.threats]
    threats.sort(key=lambda t: (t.token, _SAME_TURN_ORDER[(t.card.external, t.card.serious)]))
    tracks = tuple(TRAJECTORIES[setup.trajectories[z].upper()].name for z in ZONE_NAMES)
    return State(crew, threats, (tracks[0], tracks[1], tracks[2], tracks[3]))


class Game:
    """Runs one Resolution Round on a state, drawing damage tokens from a seeded generator."""

    def __init__(self, state: State, rng: random.Random,
                 forced_tokens: dict[int, list[int]] | None = None, *, record: bool = True,
                 trace: bool = False) -> None:
        self.state = state
        self.rng = rng
        self.forced = forced_tokens or {}
        self.log: list[LogEntry] | None = [] if record else None
        self.trace: list[str] | None = [] if trace else None
        self.tracks: tuple[Trajectory, ...] = tuple(TRAJECTORIES[n] for n in state.tracks)
        self.turn = state.turn
        self.step = ""  # the running step's name; overrides the caller's guess in the log
        self._new_turn()

    # --- bookkeeping -----------------------------------------------------------------------

    def _new_turn(self) -> None:
        self.armed = [0, 0, 0, 0, 0, 0]  # per station cannon: 0 idle, 1 armed, 2 heroic
        self.lift_used = [False, False, False]
        self.vc_now = 0
        self.launched = False
        self.pilot_heroic = False
        self.turn_stations: dict[int, set[int]] = {}  # threat id -> stations hit this turn
        self.turn_hits: dict[int, int] = {}  # threat id -> hits this turn

    def note(self, step: str, text: str) -> None:
        """Records one log line for the current turn (no-op when not recording)."""
        if self.log is not None:
            self.log.append(LogEntry(self.turn, self.step or step, text))

    def _snapshot(self) -> None:
        if self.trace is not None:
            from authoring.engine.notation import notation

            self.trace.append(notation(self.state))

    # --- the round ---------------------------------------------------------------------------

    def run(self) -> Result:
        """Plays the remaining turns and the closing step; returns the result."""
        st = self.state
        self._snapshot()
        cause = ""
        try:
            while st.turn < 12:
                self.play_turn(st.turn + 1)
                self._snapshot()
            if st.turn == 12:
                self.closing_step()
                self._snapshot()
        except ShipDestroyed as loss:
            st.lost = self.turn
            self.step = "end"
            cause = loss.cause
            self.note("end", f"the ship is destroyed: {cause}")
            self._snapshot()
        return self.result(cause)

    def play_turn(self, turn: int) -> None:
        """Resolves one of turns 1-12 in the order of rules §5."""
        st = self.state
        self.turn = turn
        self._new_turn()
        self.step = "appear"
        self.appear(turn)
        self.step = "action"
        for member in st.crew:
            self.act(member, turn)
        phase = ship.phase_of(turn)
        if self.vc_now > st.vc[phase]:
            st.vc[phase] = self.vc_now
        self.step = "damage"
        self.damage_step(rockets_only=False)
        self.step = "threat"
        self.threat_step()
        self.step = "end"
        if self.launched:
            st.rocket_flying = True
            self.note("rocket", "the rocket moves to the second square; it hits next turn")
        if turn in (2, 5, 9) and not st.maintained[phase]:
            self.note("computer", "nobody maintained the computer: crew on the ship delayed")
            for member in st.crew:
                if member.station != SPACE and not member.out:
                    self.delay(member, turn + 1)
        st.turn = turn

    def closing_step(self) -> None:
        """Resolves turn 13: the last rocket, the pilot's return, one more threat move."""
        st = self.state
        self.turn = 13
        self._new_turn()
        if st.rocket_flying:
            self.step = "damage"
            self.damage_step(rockets_only=True)
        self.step = "action"
        for member in st.crew:
            if member.station == SPACE:
                self.note("action", f"{member.label} returns from the interceptors to UR")
                self.enter(member, UR)
        self.step = "threat"
        self.threat_step()
        st.turn = 13

    def appear(self, turn: int) -> None:
        """Places the threats of this turn on their tracks (step 1)."""
        st = self.state
        for th in st.threats:
            if th.status != PENDING or th.token != turn:
                continue
            th.status = ACTIVE_THREAT
            th.square = self.tracks[th.zone].length
            if "slime" in th.card.abilities:
                th.spots = [th.card.health or 0]
            where = (ZONE_NAMES[th.zone] if th.card.external else
                     "+".join(STATION_CODES[s] for s in th.stations))
            self.note("appear", f"{th.card.id} {th.card.name} appears in {where} "
                                f"(square {th.square})")
            if "health-from-rockets" in th.card.abilities:
                th.health = st.rockets
                if th.health == 0:
                    self.note("appear", f"{th.card.name}: no rockets aboard, it counts as "
                                        "destroyed")
                    self.destroy(th)

    # --- player actions ------------------------------------------------------------------------

    def delay(self, member: CrewMember, slot: int) -> None:
        """Delays a crew member's card in ``slot`` (1-12), shifting the chain (rules §10)."""
        if slot > 12:
            return
        slots = member.slots
        i = slot - 1
        if slots[i] == BLANK:
            return
        j = i + 1
        while j < 12 and slots[j] != BLANK:
            j += 1
        if j == 12:
            slots[i + 1:12] = slots[i:11]
        else:
            slots[i + 1:j + 1] = slots[i:j]
        slots[i] = BLANK
        self.note("action", f"{member.label} is delayed in turn {slot}")

    def knock_out(self, member: CrewMember) -> None:
        """Knocks a crew member out; a squad he leads becomes disabled."""
        if member.out:
            return
        member.out = True
        if member.squad != NO_SQUAD:
            member.squad = DISABLED
        self.note("action", f"{member.label} is knocked out")

    def enter(self, member: CrewMember, station: int) -> None:
        """Moves a figure into a station and applies entry effects (slime, contamination)."""
        member.station = station
        st = self.state
        if station in st.contaminated:
            self.knock_out(member)
        for th in st.threats:
            if th.status == ACTIVE_THREAT and "slime" in th.card.abilities \
                    and station in th.stations:
                self.delay(member, self.turn + 1)
                break

    def act(self, member: CrewMember, turn: int) -> None:
        """Resolves one crew member's card for this turn (step 2)."""
        if member.out:
            return
        code = member.slots[turn - 1]
        kind = code & KIND_MASK
        heroic = bool(code & HEROIC_BIT)
        who = member.label
        if member.station == SPACE:
            if kind == BOTS:
                self.pilot_heroic = heroic
                self.note("action", f"{who} stays in space with the interceptors")
                return
            self.note("action", f"{who} flies the interceptors back to UR")
            self.enter(member, UR)
            if kind != BLANK:
                self.delay(member, turn)
            return
        if kind == BLANK:
            return
        here = member.station
        if kind in (MOVE_RED, MOVE_BLUE):
            to = ship.neighbour(here, -1 if kind == MOVE_RED else 1)
            if to != here:
                self.note("action", f"{who} moves {STATION_CODES[here]} -> {STATION_CODES[to]}")
                self.enter(member, to)
        elif kind == LIFT:
            zone = zone_of(here)
            late = self.lift_used[zone] or ship.GRAVOLIFT in self.state.tokens[zone]
            self.lift_used[zone] = True
            to = ship.other_deck(here)
            self.note("action", f"{who} takes the gravolift {STATION_CODES[here]} -> "
                                f"{STATION_CODES[to]}")
            self.enter(member, to)
            if late:
                self.delay(member, turn + 1)
        elif kind == HMOVE:
            to = (code >> 8) - 1
            self.note("action", f"{who} moves heroically to {STATION_CODES[to]}")
            if to != here:
                self.enter(member, to)
        elif kind == ACT_A:
            self.action_a(member, heroic)
        elif kind == ACT_B:
            self.action_b(member, heroic)
        elif kind == ACT_C:
            self.action_c(member, turn)
        elif kind == BOTS:
            self.action_bots(member, heroic)
        if code & TRIP_BIT:
            self.note("action", f"{who} tripped")
            self.delay(member, turn + 1)

    def system_hit(self, member: CrewMember, letter: str, heroic: bool) -> bool:
        """Turns an A/B/C into a hit on a malfunction, or nothing on a broken system."""
        st = self.state
        here = member.station
        for th in st.threats:
            if th.status == ACTIVE_THREAT and th.card.system == letter and here in th.stations \
                    and th.card.malfunction:
                self.hit_malfunction(member, th, 2 if heroic and letter != "C" else 1)
                return True
        if (here, letter) in st.broken:
            self.note("action", f"{member.label}: {letter} at {STATION_CODES[here]} is broken")
            return True
        return False

    def hit_malfunction(self, member: CrewMember, th: ThreatState, amount: int) -> None:
        """Applies a repair hit to a malfunction, with the per-turn card rules."""
        key = id(th)
        card = th.card
        self.note("action", f"{member.label} hits {card.name} for {amount}")
        if "three-hits-same-turn" in card.abilities:
            self.turn_hits[key] = self.turn_hits.get(key, 0) + 1
            if self.turn_hits[key] >= 3:
                th.damage = th.health
        else:
            th.damage += amount
            bonus = card.ability_arg("all-stations-bonus")
            if bonus:
                hit = self.turn_stations.setdefault(key, set())
                before = len(hit) == len(th.stations)
                hit.add(member.station)
                if not before and len(hit) == len(th.stations):
                    th.damage += bonus
                    self.note("action", f"{card.name} is hit at all its stations: +{bonus}")
        if th.damage >= th.health:
            self.destroy(th, member)

    def action_a(self, member: CrewMember, heroic: bool) -> None:
        """Arms the cannon of the member's station (damage comes in step 3)."""
        if self.system_hit(member, "A", heroic):
            return
        st = self.state
        here = member.station
        if self.armed[here]:
            return
        if here in (LR, LB):
            self.armed[here] = 2 if heroic else 1
            self.note("action", f"{member.label} fires the light laser at {STATION_CODES[here]}")
            return
        zone = zone_of(here)
        if st.reactors[zone] == 0:
            self.note("action", f"{member.label}: no energy for the cannon at "
                                f"{STATION_CODES[here]}")
            return
        st.reactors[zone] -= 1
        self.armed[here] = 2 if heroic else 1
        name = "pulse cannon" if here == LW else "heavy laser"
        self.note("action", f"{member.label} fires the {name} at {STATION_CODES[here]}")

    def action_b(self, member: CrewMember, heroic: bool) -> None:
        """Moves energy into the station's shield or reactor, or refuels (rules §8.3)."""
        if self.system_hit(member, "B", heroic):
            return
        st = self.state
        here = member.station
        zone = zone_of(here)
        if here <= UB:
            room = max(0, self.shield_cap(zone) - st.shields[zone])
            moved = min(room, st.reactors[zone])
            st.reactors[zone] -= moved
            st.shields[zone] += moved
            if heroic and moved:
                st.shields[zone] += 1
            self.note("action", f"{member.label} fills the {ZONE_NAMES[zone]} shield "
                                f"({st.shields[zone]})")
        elif here != LW:
            room = max(0, self.reactor_cap(zone) - st.reactors[zone])
            moved = min(room, st.reactors[1])
            st.reactors[1] -= moved
            st.reactors[zone] += moved
            if heroic and moved:
                st.reactors[zone] += 1
            self.note("action", f"{member.label} fills the {ZONE_NAMES[zone]} reactor "
                                f"({st.reactors[zone]})")
        elif st.fuel:
            st.fuel -= 1
            cap = self.reactor_cap(1)
            added = max(0, cap - st.reactors[1])
            st.reactors[1] += added
            if heroic and added:
                st.reactors[1] += 1
            self.note("action", f"{member.label} burns a fuel capsule (central reactor "
                                f"{st.reactors[1]})")

    def action_c(self, member: CrewMember, turn: int) -> None:
        """Uses the station's C system (rules §8.4)."""
        if self.system_hit(member, "C", False):
            return
        st = self.state
        here = member.station
        who = member.label
        if here == UR:
            if member.squad == ACTIVE and not any(c.station == SPACE for c in st.crew):
                member.station = SPACE
                self.pilot_heroic = False
                self.note("action", f"{who} flies out with the interceptors")
        elif here == UW:
            phase = ship.phase_of(turn)
            if turn in (1, 2, 4, 5, 8, 9) and not st.maintained[phase]:
                st.maintained[phase] = True
                self.note("action", f"{who} maintains the computer")
        elif here in (UB, LR):
            index = 0 if here == UB else 1
            if member.squad == DISABLED:
                member.squad = ACTIVE
                self.note("action", f"{who} reactivates the battlebots")
            elif member.squad == NO_SQUAD and st.stored[index] != NO_SQUAD:
                st.stored[index] = NO_SQUAD
                member.squad = ACTIVE
                self.note("action", f"{who} takes the battlebots at {STATION_CODES[here]}")
        elif here == LW:
            self.vc_now += 1
            self.note("action", f"{who} does visual confirmation")
        elif st.rockets and not self.launched:
            st.rockets -= 1
            self.launched = True
            self.note("action", f"{who} launches a rocket ({st.rockets} left)")

    def action_bots(self, member: CrewMember, heroic: bool) -> None:
        """Lets an active squad hit the intruder with the lowest token in the station."""
        if member.squad != ACTIVE:
            return
        here = member.station
        for th in self.state.threats:
            if th.status == ACTIVE_THREAT and th.card.system == "bots" and here in th.stations:
                break
        else:
            return
        card = th.card
        if "slime" in card.abilities:
            index = th.stations.index(here)
            th.spots[index] -= 1
            th.damage += 1
            if th.spots[index] == 0:
                del th.stations[index]
                del th.spots[index]
            gone = not th.stations
        elif "contamination" in card.abilities:
            th.stations.remove(here)
            th.damage += 1
            gone = th.damage >= th.health
        else:
            th.damage += 1
            gone = th.damage >= th.health
        self.note("action", f"{member.label}'s battlebots hit {card.name}")
        fights = "fights-back" in card.abilities or (
            "fights-back-when-grown" in card.abilities and th.active)
        if fights and not heroic:
            member.squad = DISABLED
            self.note("action", f"{card.name} fights back: {member.label}'s squad is disabled")
        if gone:
            self.destroy(th, member)

    # --- ship systems ----------------------------------------------------------------------------

    def shield_cap(self, zone: int) -> int:
        """Returns the zone's shield capacity after damage tokens."""
        return ship.SHIELD_CAP[zone] - (ship.SHIELD in self.state.tokens[zone])

    def reactor_cap(self, zone: int) -> int:
        """Returns the zone's reactor capacity after damage tokens."""
        return ship.REACTOR_CAP[zone] - (ship.REACTOR in self.state.tokens[zone])

    def multiplier(self, zone: int) -> int:
        """Returns the Fissure doubling of damage that reaches a zone."""
        mult = 1
        for th in self.state.threats:
            if th.status == ACTIVE_THREAT and th.level and (th.level == 2 or zone == ship.RED):
                mult *= 2
        return mult

    def damage_ship(self, zone: int, points: int, source: str) -> None:
        """Draws one damage token per point in a zone; a 7th token destroys the ship."""
        if points <= 0:
            return
        st = self.state
        drawn = st.tokens[zone]
        self.note("threat", f"{source}: {points} damage to {ZONE_NAMES[zone]}")
        for _ in range(points):
            if len(drawn) == 6:
                raise ShipDestroyed(f"a 7th damage in the {ZONE_NAMES[zone]} zone")
            forced = self.forced.get(zone)
            while forced and forced[0] in drawn:
                forced.pop(0)
            if forced:
                token = forced.pop(0)
            else:
                left = [k for k in range(6) if k not in drawn]
                token = left[self.rng.randrange(len(left))]
            drawn.append(token)
            self.note("threat", f"{ZONE_NAMES[zone]} damage token: {ship.TOKEN_NAMES[token]}")
            if token == ship.SHIELD:
                st.shields[zone] = min(st.shields[zone], self.shield_cap(zone))
            elif token == ship.REACTOR:
                st.reactors[zone] = min(st.reactors[zone], self.reactor_cap(zone))

    def scout_bonus(self, th: ThreatState) -> int:
        """Returns the Scout's +1 for an external threat's attack (never for the Scout)."""
        st = self.state
        if st.scout_bonus and not abilities.is_scout(th):
            return 1
        for other in st.threats:
            if other is not th and other.status == ACTIVE_THREAT and other.active \
                    and abilities.is_scout(other):
                return 1
        return 0

    def attack(self, th: ThreatState, zone: int, strength: int, *, shields: bool = True) -> None:
        """Resolves an attack of a threat on a zone (rules §12.2)."""
        st = self.state
        if th.card.external:
            strength += self.scout_bonus(th)
            if shields:
                absorbed = min(st.shields[zone], strength)
                st.shields[zone] -= absorbed
                strength -= absorbed
            if "double-damage" in th.card.abilities:
                strength *= 2
        self.note("threat", f"{th.card.name} attacks {ZONE_NAMES[zone]} "
                            f"({strength} past the shields)")
        self.damage_ship(zone, strength * self.multiplier(zone), th.card.name)

    # --- threats ---------------------------------------------------------------------------------

    def destroy(self, th: ThreatState, by: CrewMember | None = None) -> None:
        """Removes a destroyed threat and applies its on-destruction rules."""
        th.status = DESTROYED
        th.ended = self.turn
        self.note("damage" if th.card.external else "action", f"{th.card.name} is destroyed")
        for ability in th.card.abilities:
            hook = abilities.ON_DESTROYED.get(ability.partition(":")[0])
            if hook is not None:
                hook(self, th, by)

    def survive(self, th: ThreatState) -> None:
        """Lets a threat that performed Z leave its track (survived)."""
        th.status = SURVIVED
        th.ended = self.turn
        if th.card.malfunction:
            for station in th.stations:
                self.state.broken.add((station, th.card.system or ""))
        if abilities.is_scout(th) and th.active:
            self.state.scout_bonus = True
        self.note("threat", f"{th.card.name} leaves its track (survived)")

    def advance(self, th: ThreatState) -> bool:
        """Moves a threat one square, resolving an X/Y/Z square; False when it stopped."""
        th.square -= 1
        letter = self.tracks[th.zone].action_at(th.square)
        if letter:
            self.note("threat", f"{th.card.name} reaches {letter.upper()}")
            for op in getattr(th.card, letter):
                abilities.OPS[op[0]](self, th, *op[1:])
                if th.status != ACTIVE_THREAT:
                    return False
            if letter == "z":
                self.survive(th)
                return False
        return True

    def threat_step(self) -> None:
        """Moves every threat on a track by its speed, in order of appearance (step 4)."""
        for th in self.state.threats:
            if th.status != ACTIVE_THREAT:
                continue
            for _ in range(th.speed):
                if not self.advance(th):
                    break

    def eligible(self, th: ThreatState, weapon: int) -> bool:
        """Tells whether a weapon may target a threat (card texts can forbid it)."""
        for ability in th.card.abilities:
            check = abilities.TARGET_FILTERS.get(ability)
            if check is not None and not check(th, weapon):
                return False
        return True

    def damage_step(self, *, rockets_only: bool) -> None:
        """Computes damage to external threats from every weapon that fires (step 3)."""
        st = self.state
        board = [th for th in st.threats if th.status == ACTIVE_THREAT and th.card.external]
        hits: dict[int, int] = {}
        pulsed: set[int] = set()
        rocketed: list[ThreatState] = []
        index = {id(th): th for th in board}

        def nearest(candidates: list[ThreatState]) -> ThreatState | None:
            best = None
            for th in candidates:  # ``board`` is in token order: ties keep the lowest token
                if best is None or th.square < best.square:
                    best = th
            return best

        def hit(th: ThreatState, strength: int, what: str) -> None:
            hits[id(th)] = hits.get(id(th), 0) + strength
            self.note("damage", f"{what} targets {th.card.name} ({strength})")

        if not rockets_only:
            for station in range(6):
                level = self.armed[station]
                if not level:
                    continue
                zone = zone_of(station)
                bonus = level - 1
                if station == LW:
                    reach = 1 if ship.LOWER_CANNON in st.tokens[1] else 2
                    for th in board:
                        if DISTANCE[th.square] <= reach and self.eligible(th, abilities.PULSE):
                            hit(th, 1 + bonus, "the pulse cannon")
                            pulsed.add(id(th))
                    continue
                if station <= UB:
                    strength = ship.HEAVY_STRENGTH[zone] - (ship.UPPER_CANNON in st.tokens[zone])
                    weapon, what = abilities.HEAVY, f"the {ZONE_NAMES[zone]} heavy laser"
                else:
                    strength = ship.LIGHT_STRENGTH - (ship.LOWER_CANNON in st.tokens[zone])
                    weapon, what = abilities.LIGHT, f"the {ZONE_NAMES[zone]} light laser"
                target = nearest([th for th in board
                                  if th.zone == zone and self.eligible(th, weapon)])
                if target is not None:
                    hit(target, strength + bonus, what)
        if st.rocket_flying:
            st.rocket_flying = False
            candidates = [th for th in board if DISTANCE[th.square] <= 2
                          and self.eligible(th, abilities.ROCKET)]
            magnets = [th for th in candidates if "rocket-magnet" in th.card.abilities]
            target = magnets[0] if magnets else nearest(candidates)
            if target is None:
                self.note("damage", "the rocket finds no target")
            else:
                wasted = "rocket-wasted" in target.card.abilities
                hit(target, 0 if wasted else 3, "the rocket" + (" (wasted)" if wasted else ""))
                rocketed.append(target)
        if not rockets_only:
            self._interceptors(board, hit)
        lost: set[int] = set()
        for key, total in hits.items():
            th = index[key]
            if th.cryo:
                th.cryo = False
                self.note("damage", f"{th.card.name}'s cryoshield absorbs the hit")
                continue
            shield = 0 if key in pulsed and "pulse-zeroes-shield" in th.card.abilities \
                else th.shield
            shield += self._marauders()
            damage = max(0, total - shield)
            cap = th.card.ability_arg("max-damage")
            if cap:
                damage = min(damage, cap)
            if damage:
                th.damage += damage
                lost.add(key)
            self.note("damage", f"{th.card.name} takes {damage} (shield {shield})")
        for th in board:
            if th.damage >= th.health and "splash-on-death" in th.card.abilities:
                for other in board:
                    if other is th or other.damage >= other.health:
                        continue
                    cap = other.card.ability_arg("max-damage")
                    if cap and id(other) in lost:
                        continue
                    other.damage += 1
                    lost.add(id(other))
                    self.note("damage", f"{th.card.name}'s explosion hits {other.card.name} (1)")
        for th in board:
            if th.status == ACTIVE_THREAT and th.damage >= th.health:
                self.destroy(th)
            if id(th) in lost and "retaliates" in th.card.abilities:
                for zone in range(3):
                    self.attack(th, zone, 1)
        for th in rocketed:
            if "rocket-magnet" in th.card.abilities:
                th.shield += 1

    def _marauders(self) -> int:
        return sum(1 for th in self.state.threats if th.status == ACTIVE_THREAT and th.active
                   and abilities.is_marauder(th))

    def _warheads_lose_rocket(self) -> None:
        for th in self.state.threats:
            if th.status == ACTIVE_THREAT and "health-from-rockets" in th.card.abilities:
                th.damage += 1
                if th.damage >= th.health:
                    self.destroy(th)

    def _interceptors(self, board: list[ThreatState], hit: abilities.HitFn) -> None:
        st = self.state
        pilot = next((c for c in st.crew if c.station == SPACE and not c.out), None)
        if pilot is None:
            return
        bonus = 1 if self.pilot_heroic else 0
        for th in st.threats:
            if th.status == ACTIVE_THREAT and "pilot-target" in th.card.abilities:
                th.damage += 1 + bonus
                self.note("damage", f"the interceptors hit {th.card.name} ({1 + bonus})")
                if th.damage >= th.health:
                    self.destroy(th)
                return
        targets = [th for th in board if DISTANCE[th.square] == 1
                   and self.eligible(th, abilities.INTERCEPTORS)]
        if len(targets) == 1:
            target = targets[0]
            strength = 3 + bonus
            if "behemoth-interceptors" in target.card.abilities:
                strength += 6
                self.knock_out(pilot)
            hit(target, strength, "the interceptors")
        else:
            for th in targets:
                hit(th, 1 + bonus, "the interceptors")

    # --- result ----------------------------------------------------------------------------------

    def result(self, cause: str) -> Result:
        """Builds the result object from the final state."""
        st = self.state
        survived = st.lost == 0
        outcomes = []
        for th in st.threats:
            if th.status == DESTROYED:
                fate, points = "destroyed", th.card.points_destroyed
            elif th.status == SURVIVED:
                fate, points = "survived", th.card.points_survived
            elif th.status == ACTIVE_THREAT:
                fate, points = "on-track", 0
            else:
                fate, points = "not-appeared", 0
            outcomes.append(ThreatOutcome(th.token, th.card.id, th.card.name,
                                          ZONE_NAMES[th.zone], fate, th.ended or None, points))
        damage = {ZONE_NAMES[z]: tuple(ship.TOKEN_NAMES[k] for k in st.tokens[z])
                  for z in range(3)}
        return Result(
            survived=survived,
            turn=13 if survived else st.lost,
            cause=cause,
            threats=tuple(outcomes),
            damage=damage,
            score=score_state(st) if survived else None,
            log=tuple(self.log or ()),
            trace=tuple(self.trace or ()),
        )


def resolve(setup: Setup, plan: Plan, *, seed: int | None = None, record: bool = True,
            trace: bool = False) -> Result:
    """Resolves a whole mission: the crew plan against the setup's threats.

    ``seed`` (default: the plan's) seeds the damage-token draws; the plan's forced tokens are
    drawn first. ``record`` keeps the turn-by-turn log, ``trace`` the state notation per turn.
    """
    state = initial_state(setup, plan)
    forced = {ZONE_NAMES.index(z): [TOKEN_KINDS.index(k) for k in kinds]
              for z, kinds in plan.tokens.items()}
    rng = random.Random(plan.seed if seed is None else seed)
    return Game(state, rng, forced, record=record, trace=trace).run()
