"""Applies damage to the ship: shields, doubling, tokens and capacities (docs/rules.md §12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring.engine.rules import ship
from authoring.engine.rules.ship import SPACE, ZONE_NAMES, zone_of
from authoring.engine.rules.state import ACTIVE_THREAT, ThreatState
from authoring.engine.rules.threats import abilities

if TYPE_CHECKING:
    from authoring.engine.rules.game import Game


class ShipDestroyed(Exception):
    """Signals the loss of the ship; caught by the turn loop."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


def shield_cap(g: Game, zone: int) -> int:
    """Returns the zone's shield capacity after damage tokens."""
    return ship.SHIELD_CAP[zone] - (g.effects and ship.SHIELD in g.state.tokens[zone])


def reactor_cap(g: Game, zone: int) -> int:
    """Returns the zone's reactor capacity after damage tokens."""
    return ship.REACTOR_CAP[zone] - (g.effects and ship.REACTOR in g.state.tokens[zone])


def multiplier(g: Game, zone: int) -> int:
    """Returns the doubling of damage that reaches a zone: Fissure, and in a campaign the
    carried-over structural damage (docs/rules.md §18); doublings multiply (docs/rules.md §12.2)."""
    mult = g.state.hull[zone]
    for th in g.state.threats:
        if th.status == ACTIVE_THREAT and th.level and (th.level == 2 or zone == ship.RED):
            mult *= 2
    return mult


def damage_ship(g: Game, zone: int, points: int, source: str) -> None:
    """Draws one damage token per point in a zone; a 7th token destroys the ship."""
    if points <= 0:
        return
    st = g.state
    drawn = st.tokens[zone]
    if g.log is not None:
        g.note("threat", f"{source}: {points} damage to {ZONE_NAMES[zone]}")
    forced = g.forced.get(zone)
    for point in range(points):
        if len(drawn) == 6:
            raise ShipDestroyed(f"a 7th damage in the {ZONE_NAMES[zone]} zone")
        while forced and forced[0] in drawn:
            forced.pop(0)
        if forced:
            token = forced.pop(0)
        else:
            # The draws still to come from this damage: a 7th token ends the game first.
            attack = min(points - point, 6 - len(drawn))
            token = g.tokens.draw(zone, [k for k in range(6) if k not in drawn], attack)
        drawn.append(token)
        if g.log is not None:
            g.note("threat", f"{ZONE_NAMES[zone]} damage token: {ship.TOKEN_NAMES[token]}")
        if token == ship.SHIELD:
            st.shields[zone] = min(st.shields[zone], shield_cap(g, zone))
        elif token == ship.REACTOR:
            st.reactors[zone] = min(st.reactors[zone], reactor_cap(g, zone))


def scout_bonus(g: Game, th: ThreatState) -> int:
    """Returns the Scout's +1 for an external threat's attack (never for the Scout)."""
    st = g.state
    if st.scout_bonus and not abilities.is_scout(th):
        return 1
    for other in st.threats:
        if other is not th and other.status == ACTIVE_THREAT and other.active \
                and abilities.is_scout(other):
            return 1
    return 0


def attack(g: Game, th: ThreatState, zone: int, strength: int, *, shields: bool = True,
           plasmatic: bool = False) -> int:
    """Resolves an attack of a threat on a zone (docs/rules.md §12.2) and returns what the
    shield absorbed of it (the Energy Snake repairs that much); the expansion's carrier and
    plasmatic attacks are in docs/rules.md §19.8."""
    st = g.state
    parts: list[str] = []  # the log sentence says each step, so no number needs guessing
    if th.card.external:
        # an attack of 0 (a phased-out "attack 1 (0)") is no attack: the Scout's card adds 1
        # "on each of its attacks", it does not make one (docs/rules.md §12.2)
        bonus = scout_bonus(g, th) if strength > 0 else 0
        strength += bonus
        total = f"for {strength}" + (f" ({strength - bonus} +1 from the Scout)" if bonus else "")
        parts.append(total)
        if "carrier-attacks" in th.card.abilities and pilot_out(g):
            # the interceptors are always at distance 1, between any threat and the ship
            strength = max(0, strength - 2)
            parts.append(f"2 weaker with the interceptors out ({strength})")
        mode = abilities.shield_mode(g) if shields and g.shield_breakers else 0
        if mode == 1:  # Reversed Shields X: the shield absorbs nothing, keeps its energy
            absorbed = 0
            parts.append("the shield is ineffective")
        elif mode == 2:  # its Y: the shield's energy joins the attack (docs/rules.md §19.8)
            absorbed, added = 0, st.shields[zone]
            st.shields[zone] = 0
            strength += added
            parts.append(f"the reversed shield adds {added} ({strength})")
        elif shields:
            absorbed = min(st.shields[zone], strength)
            st.shields[zone] -= absorbed
            strength -= absorbed
            parts.append(f"the shield absorbs {absorbed}, {strength} "
                         f"{'gets' if strength == 1 else 'get'} past")
        else:
            absorbed = 0
            parts.append("ignoring the shield")
        knock = plasmatic and strength > 0 and not absorbed
        if knock:
            parts.append("the plasma knocks out the zone's crew")
        if "double-damage" in th.card.abilities and strength:
            strength *= 2
            parts.append(f"doubled to {strength}")
    else:
        knock = False
        absorbed = 0
        parts.append(f"for {strength}")
    if g.log is not None:
        head, *rest = parts
        g.note("threat", f"{th.card.name} attacks {ZONE_NAMES[zone]} {head}"
                         + (": " + ", ".join(rest) if rest else ""))
    if knock:
        # before the damage tokens, as the public resolver does; a pilot in space is not in
        # the zone
        for member in st.crew:
            if member.station != SPACE and zone_of(member.station) == zone:
                g.knock_out(member)
    damage_ship(g, zone, strength * multiplier(g, zone), th.card.name)
    return absorbed


def pilot_out(g: Game) -> bool:
    """Tells whether the interceptors are out: a figure in space, conscious or not (a
    knocked-out pilot stays out with the craft, docs/rules.md §20)."""
    return any(member.station == SPACE for member in g.state.crew)
