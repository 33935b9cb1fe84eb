"""Resolves the crew's cards: moves, A, B, C and battlebots (docs/rules.md §8-§10).

Each function takes the running ``Game`` first, like the threat hooks do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring.engine.rules import ship
from authoring.engine.rules.plan import (
    BLANK,
    BOTS,
    FIRST_MASK,
    HEROIC_BIT,
    HMOVE,
    KIND_MASK,
    LIFT,
    TRIP_BIT,
    second_kind,
)
from authoring.engine.rules.plan import BLUE as MOVE_BLUE
from authoring.engine.rules.plan import RED as MOVE_RED
from authoring.engine.rules.plan import A as ACT_A
from authoring.engine.rules.plan import B as ACT_B
from authoring.engine.rules.plan import C as ACT_C
from authoring.engine.rules.ship import (
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
from authoring.engine.rules.state import ACTIVE_THREAT, CrewMember, ThreatState
from authoring.engine.rules.threats import abilities

if TYPE_CHECKING:
    from authoring.engine.rules.game import Game


def delay(g: Game, member: CrewMember, slot: int) -> None:
    """Delays a crew member's card in ``slot`` (1-12), shifting the chain (docs/rules.md §10).

    A delay of the next turn caused by the first half of a double action (a busy gravolift,
    slime) splits the card instead: its second half becomes a card of its own in the next
    turn, shifting the chain (docs/rules.md §19.3). The split is that turn's delay: another
    one aimed at the next turn in the same turn (a second cause, tripping) adds nothing.
    """
    slots = member.slots
    if member is g.split and slot == g.turn + 1:
        return  # the split was this turn's delay of the next one: delays do not stack
    if member is g.halfway and slot == g.turn + 1:
        g.halfway = None
        g.split = member
        second = second_kind(slots[slot - 2])
        slots[slot - 2] &= FIRST_MASK
        if slot <= 12:
            insert(member, slot - 1, second)
        if g.log is not None:
            g.note("action", f"{member.label}'s double action splits: its second half "
                             + (f"moves to turn {slot}" if slot <= 12 else "is lost"))
        return
    if slot > 12:
        return
    i = slot - 1
    if slots[i] == BLANK:
        return
    insert(member, i, BLANK)
    if g.log is not None:
        g.note("action", f"{member.label} is delayed in turn {slot}")


def insert(member: CrewMember, i: int, code: int) -> None:
    """Puts ``code`` in slot index ``i``, pushing the cards there up to the next blank."""
    slots = member.slots
    j = i
    while j < 12 and slots[j] != BLANK:
        j += 1
    if j == 12:
        slots[i + 1:12] = slots[i:11]
    else:
        slots[i + 1:j + 1] = slots[i:j]
    slots[i] = code


def knock_out(g: Game, member: CrewMember) -> None:
    """Knocks a crew member out; a squad he leads becomes disabled."""
    if member.out:
        return
    member.out = True
    if member.squad != NO_SQUAD:
        member.squad = DISABLED
    if g.log is not None:
        g.note("action", f"{member.label} is knocked out")


def enter(g: Game, member: CrewMember, station: int) -> None:
    """Moves a figure into a station and applies entry effects (slime, contamination, a
    Parasite that attaches or follows)."""
    member.station = station
    if g.riders:
        abilities.ride(g, member)
    st = g.state
    if station in st.contaminated:
        knock_out(g, member)
    for th in g.slimes:
        if th.status == ACTIVE_THREAT and station in th.stations:
            delay(g, member, g.turn + 1)
            break


def act(g: Game, member: CrewMember, turn: int) -> None:
    """Resolves one crew member's card for this turn (step 2).

    A double action plays its halves in order, the second from wherever the first left the
    crew member, unless that was space or a knock-out (docs/rules.md §19.3); every per-turn
    limit (an armed cannon, the one rocket, a used gravolift) counts both halves.
    """
    if member.out:
        return
    code = member.slots[turn - 1]
    second = second_kind(code)
    if member.station == SPACE:
        in_space(g, member, turn, code, second)
        return
    if not second:
        half(g, member, turn, code)
    else:
        _between_halves(g, member)  # a delay from the first half splits the card
        half(g, member, turn, code & FIRST_MASK & ~TRIP_BIT)
        if g.halfway is member:
            g.halfway = None
            # A first half that flew the interceptors out ends the card: in space the pilot
            # plays no half (docs/rules.md §19.3).
            if not member.out and member.station != SPACE:
                half(g, member, turn, second)
    if code & TRIP_BIT:
        if g.log is not None:
            g.note("action", f"{member.label} tripped")
        delay(g, member, turn + 1)


def _between_halves(g: Game, member: CrewMember) -> None:
    # Set here, not in ``act``: there mypy (and the mypyc build) would take ``g.halfway`` for
    # ``member`` after the first half too, though a split resets it.
    g.halfway = member


def in_space(g: Game, member: CrewMember, turn: int, code: int, second: int) -> None:
    """Plays the pilot's card: battlebots keep him in space, any other card brings him back.

    A double action with a battlebots half counts as battlebots (never heroic); any other
    card returns the pilot to UR and is delayed whole (docs/rules.md §8.6, §19.3).
    """
    kind = code & KIND_MASK
    who = member.label
    if kind == BOTS or second == BOTS:
        g.pilot_heroic = bool(code & HEROIC_BIT)
        if g.log is not None:
            g.note("action", f"{who} stays in space with the interceptors")
        return
    if g.log is not None:
        g.note("action", f"{who} flies the interceptors back to UR")
    enter(g, member, UR)
    if kind != BLANK:
        delay(g, member, turn)


def half(g: Game, member: CrewMember, turn: int, code: int) -> None:
    """Resolves one action on the ship: a single card or one half of a double action."""
    kind = code & KIND_MASK
    if kind == BLANK:
        return
    if g.ninjas and kind in (MOVE_RED, MOVE_BLUE, LIFT, HMOVE):
        start = member.station
        _half(g, member, turn, code, kind)
        if member.station != start:  # a move into or out of a Ninja's drones
            abilities.poison(g, member, start)
        return
    _half(g, member, turn, code, kind)


def _half(g: Game, member: CrewMember, turn: int, code: int, kind: int) -> None:
    """The action itself (``half`` adds a Ninja's poison around the moves)."""
    heroic = bool(code & HEROIC_BIT)
    who = member.label
    here = member.station
    if kind in (MOVE_RED, MOVE_BLUE):
        to = abilities.walk(g, here, -1 if kind == MOVE_RED else 1)
        if to != here:
            if g.log is not None:
                g.note("action", f"{who} moves {STATION_CODES[here]} -> {STATION_CODES[to]}")
            enter(g, member, to)
        elif g.log is not None and ship.neighbour(here, -1 if kind == MOVE_RED else 1) != here:
            g.note("action", f"{who}: the door is sealed, no move")
    elif kind == LIFT:
        zone = zone_of(here)
        damaged = g.effects and ship.GRAVOLIFT in g.state.tokens[zone]
        late = g.rules.delays and (g.lift_used[zone] or damaged)
        g.lift_used[zone] = True
        to = ship.other_deck(here)
        if g.log is not None:
            g.note("action", f"{who} takes the gravolift {STATION_CODES[here]} -> "
                                f"{STATION_CODES[to]}")
        enter(g, member, to)
        if late:
            delay(g, member, turn + 1)
    elif kind == HMOVE:
        to = (code >> 8) - 1
        if g.door_breakers:  # sealed doors stop it on the way (docs/rules.md §19.8)
            to = abilities.heroic_reach(g, here, to)
        if g.log is not None:
            g.note("action", f"{who} moves heroically to {STATION_CODES[to]}")
        if to != here:
            enter(g, member, to)
    elif kind == ACT_A:
        action_a(g, member, heroic)
    elif kind == ACT_B:
        action_b(g, member, heroic)
    elif kind == ACT_C and g.rules.c_actions:
        action_c(g, member, turn)
    elif kind == BOTS and g.rules.internal_threats:
        action_bots(g, member, heroic)


def system_hit(g: Game, member: CrewMember, letter: str, heroic: bool) -> bool:
    """Turns an A/B/C into a hit on a malfunction, or nothing on a broken system."""
    st = g.state
    here = member.station
    for th in g.malfunctions:
        if th.status == ACTIVE_THREAT and th.card.system == letter and here in th.stations \
                and not abilities.phased_out(th):  # out of reach: the action works as usual
            amount = 2 if heroic and letter != "C" else 1
            if "squad-repairs-more" in th.card.abilities and member.squad == ACTIVE:
                amount += 1  # a squad leader (Breached Airlock, docs/rules.md §19.8)
            hit_malfunction(g, member, th, amount)
            return True
    if g.saboteurs and abilities.clear_sabotage(g, here, letter):
        return True  # the Cyber Gremlin's sabotage (docs/rules.md §19.8)
    if (here, letter) in st.broken:
        if g.log is not None:
            g.note("action", f"{member.label}: {letter} at {STATION_CODES[here]} is broken")
        return True
    return False


_REACTOR = ("red", "central", "blue")  # the reactors' names in the log


def hit_malfunction(g: Game, member: CrewMember, th: ThreatState, amount: int) -> None:
    """Applies a repair hit to a malfunction, with the per-turn card rules."""
    key = id(th)
    card = th.card
    if g.log is not None:
        g.note("action", f"{member.label} hits {card.name} for {amount}")
    if "armour" in card.abilities and not th.active and key not in g.armoured:
        # its armour absorbs 1 of the first hit of each turn: a heroic 2 deals 1
        # (Pulse Cannon Short Circuit, docs/rules.md §19.8)
        g.armoured.add(key)
        amount -= 1
        if g.log is not None:
            g.note("action", f"{card.name}'s armour absorbs 1")
        if amount <= 0:
            return
    if "lone-repairer-bonus" in card.abilities:
        g.repairers.setdefault(key, set()).add(id(member))
    if "three-hits-same-turn" in card.abilities:
        g.turn_hits[key] = g.turn_hits.get(key, 0) + 1
        if g.turn_hits[key] >= 3:
            th.damage = th.health
    else:
        if "finishing-hit-energy" in card.abilities and th.damage + amount >= th.health:
            # the finishing hit costs its zone 1 energy first; without it the hit does nothing
            # (docs/rules.md §19.8)
            zone = zone_of(th.stations[0])
            if not g.state.reactors[zone]:
                if g.log is not None:
                    g.note("action", f"{card.name}: no energy in the {_REACTOR[zone]} "
                                     "reactor for the finishing hit: it does nothing")
                return
            g.state.reactors[zone] -= 1
            if g.log is not None:
                g.note("action", f"the finishing hit costs 1 energy from the "
                                 f"{_REACTOR[zone]} reactor")
        th.damage += amount
        bonus = card.ability_arg("all-stations-bonus")
        if bonus:
            hit = g.turn_stations.setdefault(key, set())
            before = len(hit) == len(th.stations)
            hit.add(member.station)
            if not before and len(hit) == len(th.stations):
                th.damage += bonus
                if g.log is not None:
                    g.note("action", f"{card.name} is hit at all its stations: +{bonus}")
    if th.damage >= th.health:
        g.destroy(th, member)


def action_a(g: Game, member: CrewMember, heroic: bool) -> None:
    """Arms the cannon of the member's station (damage comes in step 3)."""
    if system_hit(g, member, "A", heroic):
        return
    st = g.state
    here = member.station
    if g.armed[here]:
        return
    if here in (LR, LB):
        g.armed[here] = 2 if heroic else 1
        if g.log is not None:
            g.note("action",
                      f"{member.label} fires the light laser at {STATION_CODES[here]}")
        return
    zone = zone_of(here)
    if st.reactors[zone] == 0:
        if g.log is not None:
            g.note("action", f"{member.label}: no energy for the cannon at "
                                f"{STATION_CODES[here]}")
        return
    st.reactors[zone] -= 1
    g.armed[here] = 2 if heroic else 1
    name = "pulse cannon" if here == LW else "heavy laser"
    if g.log is not None:
        g.note("action", f"{member.label} fires the {name} at {STATION_CODES[here]}")
    if here == UW:
        abilities.heavy_laser_fired(g)


def action_b(g: Game, member: CrewMember, heroic: bool) -> None:
    """Moves energy into the station's shield or reactor, or refuels (docs/rules.md §8.3)."""
    if system_hit(g, member, "B", heroic):
        return
    st = g.state
    here = member.station
    zone = zone_of(here)
    if here <= UB:
        room = max(0, g.shield_cap(zone) - st.shields[zone])
        moved = min(room, st.reactors[zone])
        st.reactors[zone] -= moved
        st.shields[zone] += moved
        if heroic and moved:
            st.shields[zone] += 1
        if g.log is not None:
            g.note("action", f"{member.label} fills the {ZONE_NAMES[zone]} shield "
                                f"({st.shields[zone]})")
    elif here != LW:
        room = max(0, g.reactor_cap(zone) - st.reactors[zone])
        moved = min(room, st.reactors[1])
        st.reactors[1] -= moved
        st.reactors[zone] += moved
        if heroic and moved:
            st.reactors[zone] += 1
        if g.log is not None:
            g.note("action", f"{member.label} fills the {ZONE_NAMES[zone]} reactor "
                                f"({st.reactors[zone]})")
    elif st.fuel:
        st.fuel -= 1
        cap = g.reactor_cap(1)
        added = max(0, cap - st.reactors[1])
        st.reactors[1] += added
        if heroic and added:
            st.reactors[1] += 1
        if g.log is not None:
            g.note("action", f"{member.label} burns a fuel capsule (central reactor "
                                f"{st.reactors[1]})")


def action_c(g: Game, member: CrewMember, turn: int) -> None:
    """Uses the station's C system (docs/rules.md §8.4)."""
    if system_hit(g, member, "C", False):
        return
    st = g.state
    here = member.station
    who = member.label
    if here in (UR, UB, LR) and not g.rules.internal_threats:
        return  # battlebots and interceptors come with level 3
    if here == LW and not g.rules.visual_confirmation:
        return
    if here == UR:
        if member.squad == ACTIVE and not any(c.station == SPACE for c in st.crew):
            member.station = SPACE
            if g.riders:
                abilities.ride(g, member)
            g.pilot_heroic = False
            if g.log is not None:
                g.note("action", f"{who} flies out with the interceptors")
    elif here == UW:
        phase = ship.phase_of(turn)
        if turn in (1, 2, 4, 5, 8, 9) and not st.maintained[phase]:
            st.maintained[phase] = True
            if g.log is not None:
                g.note("action", f"{who} maintains the computer")
    elif here in (UB, LR):
        index = 0 if here == UB else 1
        if member.squad == DISABLED:
            member.squad = ACTIVE
            if g.log is not None:
                g.note("action", f"{who} reactivates the battlebots")
        elif member.squad == NO_SQUAD and st.stored[index] != NO_SQUAD:
            st.stored[index] = NO_SQUAD
            member.squad = ACTIVE
            if g.log is not None:
                g.note("action", f"{who} takes the battlebots at {STATION_CODES[here]}")
    elif here == LW:
        g.vc_now += 1
        if g.log is not None:
            g.note("action", f"{who} does visual confirmation")
    elif st.rockets and not g.launched:
        st.rockets -= 1
        g.launched = True
        if g.log is not None:
            g.note("action", f"{who} launches a rocket ({st.rockets} left)")


def action_bots(g: Game, member: CrewMember, heroic: bool) -> None:
    """Lets an active squad hit the intruder with the lowest token in the station."""
    if member.squad != ACTIVE:
        return
    here = member.station
    for th in g.state.threats:
        if th.status == ACTIVE_THREAT and th.card.system == "bots" and here in th.stations \
                and not abilities.phased_out(th) \
                and not abilities.rides(g, th, member):  # out of reach (docs/rules.md §19.8)
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
    elif "armour" in card.abilities and not th.active and id(th) not in g.armoured:
        # its armour absorbs the first hit of each turn until it is taken off
        # (Driller, docs/rules.md §19.8)
        g.armoured.add(id(th))
        gone = False
        if g.log is not None:
            g.note("action", f"{card.name}'s armour absorbs the hit")
    else:
        th.damage += 1
        gone = th.damage >= th.health
    if g.log is not None:
        g.note("action", f"{member.label}'s battlebots hit {card.name}")
    fights = "fights-back" in card.abilities or (
        "fights-back-when-grown" in card.abilities and th.active)
    if fights and not heroic:
        member.squad = DISABLED
        if g.log is not None:
            g.note("action", f"{card.name} fights back: {member.label}'s squad is disabled")
    if not gone and "moves-to-lb-when-hit" in card.abilities:
        th.stations = [LB]  # after every hit (Siren, docs/rules.md §19.8)
        if g.log is not None:
            g.note("action", f"{card.name} flees to LB")
    if gone:
        g.destroy(th, member)
