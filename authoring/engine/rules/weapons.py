"""Computes damage to external threats: targeting and the damage step (docs/rules.md §11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring.engine.rules import ship
from authoring.engine.rules.ship import LW, SPACE, UB, ZONE_NAMES, zone_of
from authoring.engine.rules.state import ACTIVE_THREAT, ThreatState
from authoring.engine.rules.threats import abilities
from authoring.engine.rules.trajectories import DISTANCE

if TYPE_CHECKING:
    from authoring.engine.rules.game import Game


# The weapons' names in the log, built once rather than in every damage step.
HEAVY_LABELS: tuple[str, ...] = tuple(f"the {zone} heavy laser" for zone in ZONE_NAMES[:3])
LIGHT_LABELS: tuple[str, ...] = tuple(f"the {zone} light laser" for zone in ZONE_NAMES[:3])


def eligible(th: ThreatState, weapon: int) -> bool:
    """Tells whether a weapon may target a threat (card texts can forbid it)."""
    for ability in th.card.abilities:
        check = abilities.TARGET_FILTERS.get(ability)
        if check is not None and not check(th, weapon):
            return False
    return True


def damage_step(g: Game, *, rockets_only: bool) -> None:
    """Computes damage to external threats from every weapon that fires (step 3)."""
    st = g.state
    if not (st.rocket_flying or any(g.armed)):
        # Nothing fires unless a pilot is out with the interceptors: the common case, kept
        # cheap (a plain loop, no generator).
        for member in st.crew:
            if member.station == SPACE:
                break
        else:
            return
    board = [th for th in st.threats if th.status == ACTIVE_THREAT and th.card.external]
    hits: dict[int, int] = {}
    lasers: dict[int, int] = {}  # the heavy and light lasers' part of ``hits`` (polarized)
    pulsed: set[int] = set()
    rocketed: list[ThreatState] = []
    index = {id(th): th for th in board}
    # threats every zone's lasers may target (Super-Carrier, docs/rules.md §19.8): rare, so
    # the common case keeps the plain zone test
    everywhere = {id(th) for th in board if "lasers-any-zone" in th.card.abilities}

    def hit(th: ThreatState, strength: int, what: str) -> None:
        """Adds a weapon's strength to the threat's total of this step."""
        hits[id(th)] = hits.get(id(th), 0) + strength
        if g.log is not None:
            g.note("damage", f"{what} targets {th.card.name} ({strength})")

    if not rockets_only:
        for station in range(6):
            level = g.armed[station]
            if not level:
                continue
            zone = zone_of(station)
            bonus = level - 1
            if station == LW:
                reach = 1 if g.effects and ship.LOWER_CANNON in st.tokens[1] else 2
                for th in board:
                    if DISTANCE[th.square] <= reach and eligible(th, abilities.PULSE):
                        hit(th, 1 + bonus, "the pulse cannon")
                        pulsed.add(id(th))
                continue
            if g.optics_breakers and abilities.lasers_blind(g, zone):
                # disrupted optics: the shot is lost, its energy spent (docs/rules.md §19.8)
                if g.log is not None:
                    g.note("damage", f"the {ship.ZONE_NAMES[zone]} optics are disrupted: "
                                     f"the laser at {ship.STATION_CODES[station]} misses")
                continue
            if station <= UB:
                strength = ship.HEAVY_STRENGTH[zone] - (
                    g.effects and ship.UPPER_CANNON in st.tokens[zone])
                weapon, what = abilities.HEAVY, HEAVY_LABELS[zone]
            else:
                strength = ship.LIGHT_STRENGTH - (
                    g.effects and ship.LOWER_CANNON in st.tokens[zone])
                weapon, what = abilities.LIGHT, LIGHT_LABELS[zone]
            target = _nearest([th for th in board
                               if (th.zone == zone or (everywhere and id(th) in everywhere))
                               and eligible(th, weapon)])
            if target is not None:
                hit(target, strength + bonus, what)
                lasers[id(target)] = lasers.get(id(target), 0) + strength + bonus
    if st.rocket_flying:
        st.rocket_flying = False
        candidates = [th for th in board if DISTANCE[th.square] <= 2
                      and eligible(th, abilities.ROCKET)]
        magnets = [th for th in candidates if "rocket-magnet" in th.card.abilities]
        target = magnets[0] if magnets else _nearest(candidates)
        if target is None:
            if g.log is not None:
                g.note("damage", "the rocket finds no target")
        else:
            wasted = "rocket-wasted" in target.card.abilities
            hit(target, 0 if wasted else 3, "the rocket" + (" (wasted)" if wasted else ""))
            rocketed.append(target)
    if not rockets_only:
        _interceptors(g, board, hit)
    taken: dict[int, int] = {}  # damage taken in this step: the per-step caps, retaliation
    marauders = _marauders(g) if hits else 0  # the loop below changes no threat's status
    for key, total in hits.items():
        th = index[key]
        if th.cryo:
            th.cryo = False
            if g.log is not None:
                g.note("damage", f"{th.card.name}'s cryoshield absorbs the hit")
            continue
        shield = 0 if key in pulsed and "pulse-zeroes-shield" in th.card.abilities \
            else th.shield
        shield += marauders
        laser = lasers.get(key, 0)
        if laser and "polarized" in th.card.abilities:
            # the lasers' total is halved, rounded up, before the shield; the other weapons
            # add in full and the shield counts once (docs/rules.md §19.8)
            total += (laser + 1) // 2 - laser
            if g.log is not None:
                g.note("damage", f"{th.card.name} is polarized: the lasers' {laser} count "
                                 f"{(laser + 1) // 2}")
        damage = max(0, total - shield)
        cap = th.card.ability_arg("max-damage")
        if cap:
            damage = min(damage, cap)
        if damage:
            th.damage += damage
            taken[key] = damage
        if g.log is not None:
            g.note("damage", f"{th.card.name} takes {damage} (shield {shield})")
    for th in board:
        if th.damage >= th.health and "splash-on-death" in th.card.abilities:
            for other in board:
                if other is th or other.damage >= other.health or abilities.phased_out(other):
                    continue  # a phased-out threat is out of the explosion's reach too
                cap = other.card.ability_arg("max-damage")
                # the cap counts the splash too: the Swarm (1) gets none after a hit, the
                # Mother Swarm (2) one after a hit of 1 (docs/rules.md §19.8)
                if cap and taken.get(id(other), 0) >= cap:
                    continue
                other.damage += 1
                taken[id(other)] = taken.get(id(other), 0) + 1
                if g.log is not None:
                    g.note("damage",
                              f"{th.card.name}'s explosion hits {other.card.name} (1)")
    for key in taken:  # damage taken this turn slows it down in the threat step
        if "slowed-when-hit" in index[key].card.abilities:
            g.slowed.add(key)
    for th in board:
        if th.status == ACTIVE_THREAT and th.damage >= th.health:
            g.destroy(th)
        if id(th) in taken and "retaliates" in th.card.abilities:
            for zone in range(3):
                g.attack(th, zone, 1)
    for key in hits:
        th = index[key]
        if "megashield" in th.card.abilities and th.shield > 0:
            # after every damage step that targeted it (docs/rules.md §19.8)
            th.shield -= 1
            if g.log is not None:
                g.note("damage", f"{th.card.name}'s megashield drops to {th.shield}")
    for th in rocketed:
        if "rocket-magnet" in th.card.abilities:
            th.shield += 1
        if "rocket-knocks-off-course" in th.card.abilities:
            # any rocket that targets it, even one its shield stops (docs/rules.md §19.8)
            if g.log is not None and not th.active:
                g.note("damage", f"the rocket knocks {th.card.name} off course: no Z attack")
            th.active = True


def _nearest(candidates: list[ThreatState]) -> ThreatState | None:
    """Returns the threat on the lowest square (ties: the lowest token)."""
    best = None
    for th in candidates:  # ``board`` is in token order: ties keep the lowest token
        if best is None or th.square < best.square:
            best = th
    return best


def _marauders(g: Game) -> int:
    return sum(1 for th in g.state.threats if th.status == ACTIVE_THREAT and th.active
               and abilities.is_marauder(th))


def _interceptors(g: Game, board: list[ThreatState], hit: abilities.HitFn) -> None:
    st = g.state
    pilot = next((c for c in st.crew if c.station == SPACE and not c.out), None)
    if pilot is None:
        return
    bonus = 1 if g.pilot_heroic else 0
    for th in st.threats:
        if th.status == ACTIVE_THREAT and "pilot-target" in th.card.abilities:
            th.damage += 1 + bonus
            if g.log is not None:
                g.note("damage", f"the interceptors hit {th.card.name} ({1 + bonus})")
            if th.damage >= th.health:
                g.destroy(th)
            return
    targets = [th for th in board if DISTANCE[th.square] == 1
               and eligible(th, abilities.INTERCEPTORS)]
    if len(targets) == 1:
        target = targets[0]
        strength = 3 + bonus
        if "behemoth-interceptors" in target.card.abilities:
            strength += 6
            g.knock_out(pilot)
        hit(target, strength, "the interceptors")
    else:
        for th in targets:
            hit(th, 1 + bonus, "the interceptors")
