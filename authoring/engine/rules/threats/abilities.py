"""Registers threat abilities as named hooks: X/Y/Z operations, targeting, destruction.

A card in ``threats.json`` lists its X, Y and Z as ``[operation, *arguments]`` and its card
rules as ability ids. The core looks each name up here: ``OPS`` for square actions,
``TARGET_FILTERS`` for which weapons may target it, ``ON_DESTROYED`` for what its destruction
does. A new card needs only new entries here, never a change to the turn loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from authoring.engine.rules import ship
from authoring.engine.rules.ship import NO_SQUAD, SPACE, STATION_CODES, WHITE, zone_of
from authoring.engine.rules.state import DESTROYED, PENDING
from authoring.engine.rules.trajectories import DISTANCE

if TYPE_CHECKING:
    from authoring.engine.rules.game import Game
    from authoring.engine.rules.state import CrewMember, ThreatState

# Weapons, as the targeting filters see them.
HEAVY, LIGHT, PULSE, ROCKET, INTERCEPTORS = range(5)

HitFn = Callable[["ThreatState", int, str], None]
Op = Callable[..., None]
OPS: dict[str, Op] = {}


def op(name: str) -> Callable[[Op], Op]:
    """Registers a square operation under ``name``."""

    def register(func: Op) -> Op:
        """Stores the function in ``OPS``."""
        OPS[name] = func
        return func

    return register


def is_scout(th: ThreatState) -> bool:
    """Tells whether the threat grants the Scout's attack bonus."""
    return ("scout_bonus",) in th.card.x


def is_marauder(th: ThreatState) -> bool:
    """Tells whether the threat grants the Marauder's shield bonus."""
    return ("marauder_bonus",) in th.card.x


def _zone(th: ThreatState) -> int:
    return th.zone if th.card.external else zone_of(th.stations[0]) if th.stations else WHITE


def _hit_zone(g: Game, th: ThreatState, zone: int, strength: int) -> None:
    """Attacks a zone: external threats meet the shields, internal ones ignore them."""
    if th.card.external:
        g.attack(th, zone, strength)
    elif strength > 0:
        if g.log is not None:
            g.note("threat", f"{th.card.name} damages {ship.ZONE_NAMES[zone]} ({strength})")
        g.damage_ship(zone, strength * g.multiplier(zone), th.card.name)


def _say(g: Game, text: str) -> None:
    # every state change a card makes is logged (``resolve`` prints the log)
    if g.log is not None:
        g.note("threat", text)


def _changes(names: tuple[str, ...], before: list[int], after: list[int]) -> str:
    return ", ".join(f"{name} {old} -> {new}" for name, old, new
                     in zip(names, before, after, strict=True) if old != new)


def _on_ship(g: Game) -> list[CrewMember]:
    return [c for c in g.state.crew if c.station != SPACE and not c.out]


def _station_of(code: str) -> int:
    return STATION_CODES.index(code)


# --- attacks ---


@op("attack")
def attack(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the threat's own zone."""
    _hit_zone(g, th, _zone(th), strength)


@op("attack_all")
def attack_all(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks red, white and blue in that order."""
    for zone in range(3):
        _hit_zone(g, th, zone, strength)


@op("attack_others")
def attack_others(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks each of the two other zones."""
    for zone in range(3):
        if zone != th.zone:
            _hit_zone(g, th, zone, strength)


@op("attack_zone")
def attack_zone(g: Game, th: ThreatState, zone: str, strength: int) -> None:
    """Attacks a named zone."""
    _hit_zone(g, th, ship.ZONE_NAMES.index(zone), strength)


@op("attack_unshielded")
def attack_unshielded(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the own zone ignoring shields (Scout Z)."""
    g.attack(th, th.zone, strength, shields=False)


@op("attack_plasmatic")
def attack_plasmatic(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the own zone; a shield that stops none of it lets the plasma knock out the
    zone's crew (docs/rules.md §19.8)."""
    g.attack(th, th.zone, strength, plasmatic=True)


@op("attack_repair_absorbed")
def attack_repair_absorbed(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the own zone, then repairs as much damage as the shield absorbed of the attack
    (Energy Snake and Dragon, docs/rules.md §19.8)."""
    absorbed = g.attack(th, _zone(th), strength)
    if absorbed:
        repair(g, th, absorbed)


@op("attack_plus_reactor")
def attack_plus_reactor(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the own zone for ``strength`` plus the energy in that zone's reactor, read when
    it attacks (Energy Snake Z, docs/rules.md §19.8)."""
    zone = _zone(th)
    _hit_zone(g, th, zone, strength + g.state.reactors[zone])


@op("attack_each_plus_reactor")
def attack_each_plus_reactor(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks red, white and blue in that order, each for ``strength`` plus that zone's
    reactor energy (Energy Dragon Z, docs/rules.md §19.8)."""
    for zone in range(3):
        _hit_zone(g, th, zone, strength + g.state.reactors[zone])


@op("attack_unless_off_course")
def attack_unless_off_course(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the own zone unless a rocket knocked the threat off course (Spinning Saucer Z;
    ``active`` is set by the damage step, docs/rules.md §19.8)."""
    if th.active:
        _say(g, f"{th.card.name} was knocked off course by a rocket: no attack")
    else:
        _hit_zone(g, th, _zone(th), strength)


def phased_out(th: ThreatState) -> bool:
    """Tells whether a phasing threat is out of reach now (docs/rules.md §19.8): its ``active``
    flag is the phase, set after each of its own moves by ``Game.threat_step``."""
    return th.active and "phasing" in th.card.abilities


@op("attack_phasing")
def attack_phasing(g: Game, th: ThreatState, strength: int, weaker: int) -> None:
    """Attacks the own zone; the bracketed, weaker value when the move began phased out (the
    phase only changes after the move, so ``active`` still tells how it began)."""
    _hit_zone(g, th, _zone(th), weaker if th.active else strength)


@op("attack_all_phasing")
def attack_all_phasing(g: Game, th: ThreatState, strength: int, weaker: int) -> None:
    """Attacks red, white and blue, weaker when the move began phased out (Phasing Pulser)."""
    for zone in range(3):
        _hit_zone(g, th, zone, weaker if th.active else strength)


@op("change_deck_unless_phased")
def change_deck_unless_phased(g: Game, th: ThreatState) -> None:
    """Changes deck unless the move began phased out (Phasing Troopers X)."""
    if th.active:
        _say(g, f"{th.card.name} began its move phased out: it stays on its deck")
    else:
        change_deck(g, th)


#: Mines a Mine Layer keeps at most (one digit each in ``passes``; docs/rules.md §19.8).
MAX_MINES = 4


@op("lay_mine")
def lay_mine(g: Game, th: ThreatState) -> None:
    """Lays a mine in the threat's station (Phasing Mine Layer). The mines are kept in
    ``passes``, one decimal digit per mine in laying order: the station's code + 1 (1 = UR …
    6 = LB); a fifth mine is not laid (no track has more than four X, Y and Z squares)."""
    if th.passes >= 10 ** (MAX_MINES - 1):
        return
    station = th.stations[0]
    th.passes = th.passes * 10 + station + 1
    _say(g, f"{th.card.name} lays a mine in {STATION_CODES[station]}")


@op("move_phasing")
def move_phasing(g: Game, th: ThreatState, direction: str, direction_out: str) -> None:
    """Moves toward ``direction``, toward ``direction_out`` when the move began phased out."""
    move(g, th, direction_out if th.active else direction)


@op("mines_explode")
def mines_explode(g: Game, th: ThreatState, strength: int) -> None:
    """Every mine explodes in laying order: an attack on the zone of its station (two mines in
    one zone, two attacks); then no mine is left."""
    mines, th.passes = th.passes, 0
    for digit in str(mines) if mines else "":
        station = int(digit) - 1
        _say(g, f"the mine in {STATION_CODES[station]} explodes")
        _hit_zone(g, th, ship.zone_of(station), strength)


@op("attack_health")
def attack_health(g: Game, th: ThreatState, factor: int) -> None:
    """Attacks the own zone for factor x remaining health (asteroids, Octopus Z)."""
    _hit_zone(g, th, _zone(th), factor * max(0, th.health - th.damage))


@op("attack_unless_damaged")
def attack_unless_damaged(g: Game, th: ThreatState, strength: int, limit: int) -> None:
    """Attacks unless the threat has already taken ``limit`` damage (Behemoth)."""
    if th.damage < limit:
        _hit_zone(g, th, _zone(th), strength)


@op("attack_all_if_damaged")
def attack_all_if_damaged(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks all zones if the threat has any damage (Interstellar Octopus)."""
    if th.damage:
        attack_all(g, th, strength)


@op("attack_rockets")
def attack_rockets(g: Game, th: ThreatState, factor: int) -> None:
    """Attacks the own zone for factor x rockets still aboard (Unstable Warheads)."""
    _hit_zone(g, th, _zone(th), factor * g.state.rockets)


@op("attack_central_energy")
def attack_central_energy(g: Game, th: ThreatState) -> None:
    """Attacks white for the energy in the central reactor (Overheated Reactor X)."""
    _hit_zone(g, th, WHITE, g.state.reactors[WHITE])


@op("attack_players_here")
def attack_players_here(g: Game, th: ThreatState) -> None:
    """Attacks the zone for the number of conscious crew in the threat's station (Alien Y)."""
    here = th.stations[0]
    _hit_zone(g, th, zone_of(here), sum(1 for c in _on_ship(g) if c.station == here))


@op("destroy_ship")
def destroy_ship(g: Game, th: ThreatState) -> None:
    """Destroys the ship (Nemesis, Alien, Fissure, Nuclear Device Z)."""
    from authoring.engine.rules.damage import ShipDestroyed

    raise ShipDestroyed(f"{th.card.name} reached Z")


# --- energy ---


@op("drain_shields")
def drain_shields(g: Game, th: ThreatState) -> None:
    """Empties all three shields."""
    g.state.shields[:] = [0, 0, 0]
    if g.log is not None:
        g.note("threat", f"{th.card.name} drains all shields")


@op("drain_each_shield")
def drain_each_shield(g: Game, th: ThreatState, amount: int) -> None:
    """Removes ``amount`` energy from each shield."""
    shields = g.state.shields
    before = shields[:]
    for zone in range(3):
        shields[zone] = max(0, shields[zone] - amount)
    if shields != before:
        _say(g, f"{th.card.name} drains {amount} from each shield "
                f"({_changes(ship.ZONE_NAMES[:3], before, shields)})")


@op("drain_zone_shield")
def drain_zone_shield(g: Game, th: ThreatState) -> None:
    """Empties the shield of the threat's zone (Hacked Shields X)."""
    zone = _zone(th)
    if g.state.shields[zone]:
        _say(g, f"{th.card.name} empties the {ship.ZONE_NAMES[zone]} shield "
                f"({g.state.shields[zone]} -> 0)")
    g.state.shields[zone] = 0


@op("drain_zone_reactor")
def drain_zone_reactor(g: Game, th: ThreatState) -> None:
    """Empties the reactor of the threat's zone (Hacked Shields Y)."""
    zone = _zone(th)
    if g.state.reactors[zone]:
        _say(g, f"{th.card.name} empties the {ship.ZONE_NAMES[zone]} reactor "
                f"({g.state.reactors[zone]} -> 0)")
    g.state.reactors[zone] = 0


@op("drain_reactors")
def drain_reactors(g: Game, th: ThreatState, amount: int) -> None:
    """Removes ``amount`` energy from every reactor."""
    reactors = g.state.reactors
    before = reactors[:]
    for zone in range(3):
        reactors[zone] = max(0, reactors[zone] - amount)
    if reactors != before:
        _say(g, f"{th.card.name} drains {amount} from each reactor "
                f"({_changes(ship.ZONE_NAMES[:3], before, reactors)})")


@op("drain_central")
def drain_central(g: Game, th: ThreatState, amount: int) -> None:
    """Removes ``amount`` energy from the central reactor."""
    before = g.state.reactors[WHITE]
    g.state.reactors[WHITE] = max(0, before - amount)
    if g.state.reactors[WHITE] != before:
        _say(g, f"{th.card.name} drains {amount} from the central reactor "
                f"({before} -> {g.state.reactors[WHITE]})")


@op("saboteur_drain")
def saboteur_drain(g: Game, th: ThreatState) -> None:
    """Drains 1 from the zone's reactor, or attacks for 1 if it is empty (Saboteur Y)."""
    zone = _zone(th)
    if g.state.reactors[zone]:
        g.state.reactors[zone] -= 1
        _say(g, f"{th.card.name} drains 1 from the {ship.ZONE_NAMES[zone]} reactor "
                f"({g.state.reactors[zone] + 1} -> {g.state.reactors[zone]})")
    else:
        _hit_zone(g, th, zone, 1)


@op("drain_own_reactor")
def drain_own_reactor(g: Game, th: ThreatState, amount: int) -> None:
    """Drains up to ``amount`` energy from the reactor of the threat's zone (Lateral Laser Jam
    X, docs/rules.md §19.8)."""
    zone = _zone(th)
    before = g.state.reactors[zone]
    g.state.reactors[zone] = max(0, before - amount)
    if before:
        _say(g, f"{th.card.name} drains the {ship.ZONE_NAMES[zone]} reactor "
                f"({before} -> {g.state.reactors[zone]})")


@op("attack_other_side")
def attack_other_side(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the side zone across the ship from the threat's own (red <-> blue; Lateral
    Laser Jam Z, docs/rules.md §19.8)."""
    _hit_zone(g, th, 2 - _zone(th), strength)


@op("jump")
def jump(g: Game, th: ThreatState, toward: str) -> None:
    """Jumps to the track of the next zone toward red or blue (red and blue wrap round),
    keeping its square, when that track is long enough; otherwise it stays (Jumper, Leaper,
    docs/rules.md §19.8)."""
    zone = (th.zone + (-1 if toward == "red" else 1)) % 3
    if g.tracks[zone].length >= th.square:
        _say(g, f"{th.card.name} jumps from the {ship.ZONE_NAMES[th.zone]} track to the "
                f"{ship.ZONE_NAMES[zone]} one (square {th.square})")
        th.zone = zone
    else:
        _say(g, f"{th.card.name} cannot jump: the {ship.ZONE_NAMES[zone]} track has no square "
                f"{th.square}")


@op("drop_armour")
def drop_armour(g: Game, th: ThreatState) -> None:
    """Takes the threat's armour off for good (Driller X, docs/rules.md §19.8)."""
    th.active = True
    _say(g, f"{th.card.name} loses its armour")


@op("drill")
def drill(g: Game, th: ThreatState) -> None:
    """Moves an intruder one station along its deck toward the zone with the most damage
    tokens; with a tie for the most, toward white; it stays in that zone (Driller,
    docs/rules.md §19.8)."""
    counts = [len(tokens) for tokens in g.state.tokens]
    most = max(counts)
    leaders = [zone for zone in range(3) if counts[zone] == most]
    target = leaders[0] if len(leaders) == 1 else WHITE
    here = zone_of(th.stations[0])
    if target != here:
        th.stations = [walk(g, s, -1 if target < here else 1) for s in th.stations]
        _moved(g, th)


@op("drain_central_attack_all")
def drain_central_attack_all(g: Game, th: ThreatState, strength: int) -> None:
    """Drains 1 from the central reactor and, when there was energy to drain, attacks every
    zone for ``strength`` (Pulse Cannon Short Circuit X, docs/rules.md §19.8)."""
    if g.state.reactors[WHITE]:
        g.state.reactors[WHITE] -= 1
        _say(g, f"{th.card.name} drains 1 from the central reactor "
                f"({g.state.reactors[WHITE]} left)")
        attack_all(g, th, strength)


@op("destroy_capsule_attack_all")
def destroy_capsule_attack_all(g: Game, th: ThreatState, strength: int) -> None:
    """Destroys a fuel capsule and, when there was one, attacks every zone for ``strength``
    (Pulse Cannon Short Circuit Y, docs/rules.md §19.8)."""
    if g.state.fuel:
        g.state.fuel -= 1
        _say(g, f"{th.card.name} destroys a fuel capsule ({g.state.fuel} left)")
        attack_all(g, th, strength)


def heavy_laser_fired(g: Game) -> None:
    """The upper white heavy laser has just fired: each Pulse Cannon Short Circuit on the
    ship attacks every zone for 1, at once (docs/rules.md §19.8)."""
    for th in g.malfunctions:
        if th.on_board and "short-circuit" in th.card.abilities:
            _say(g, f"{th.card.name}: the heavy laser's shot short-circuits")
            attack_all(g, th, 1)


@op("shields_ineffective")
def shields_ineffective(g: Game, th: ThreatState) -> None:
    """Makes every shield absorb nothing (Reversed Shields X, docs/rules.md §19.8); the state
    is kept in the threat's X/Y counter (``passes`` 1), so that it lasts as long as the card
    and snapshots need nothing new."""
    th.passes = 1
    _say(g, f"{th.card.name}: the shields are ineffective")


@op("shields_reversed")
def shields_reversed(g: Game, th: ThreatState) -> None:
    """Reverses every shield: its energy is added to the attack (Reversed Shields Y,
    ``passes`` 2)."""
    th.passes = 2
    _say(g, f"{th.card.name}: the shields are reversed")


def shield_mode(g: Game) -> int:
    """Returns 0 (shields work), 1 (ineffective) or 2 (reversed): the mode of a Reversed
    Shields card that is not destroyed (docs/rules.md §19.8)."""
    for th in g.shield_breakers:
        if th.passes and th.status != DESTROYED:
            return th.passes
    return 0


# --- the Cyber Gremlin: its sabotage is one bit per system of the upper deck's stations in
#     its X/Y counter (bit 3 * station + A 0, B 1, C 2); it never leaves the upper deck ---

SYSTEM_LETTERS = "ABC"


@op("drain_zone_reactor_speed")
def drain_zone_reactor_speed(g: Game, th: ThreatState) -> None:
    """Empties its zone's reactor and speeds up by the energy drained (Cyber Gremlin X)."""
    zone = _zone(th)
    drained, g.state.reactors[zone] = g.state.reactors[zone], 0
    th.speed += drained
    if drained:
        _say(g, f"{th.card.name} drains the {ship.ZONE_NAMES[zone]} reactor ({drained}): "
                f"speed {th.speed}")


@op("sabotage")
def sabotage(g: Game, th: ThreatState) -> None:
    """Sabotages the A, B and C of its station (Cyber Gremlin Y and Z): each takes one hit of
    its letter to clear, as a malfunction of health 1 worth no points (docs/rules.md §19.8)."""
    station = th.stations[0] if th.stations else SPACE
    if station <= ship.UB:
        th.passes |= 0b111 << (3 * station)
        _say(g, f"{th.card.name} sabotages A, B and C at {STATION_CODES[station]}")


def clear_sabotage(g: Game, station: int, letter: str) -> bool:
    """Lets an A, B or C clear a sabotage of its station's system; True when it did (the
    action is spent). The sabotage outlives the Gremlin."""
    if station > ship.UB:
        return False
    bit = 1 << (3 * station + SYSTEM_LETTERS.index(letter))
    for th in g.saboteurs:
        if th.passes & bit:
            th.passes &= ~bit
            _say(g, f"the sabotaged {letter} at {STATION_CODES[station]} is cleared")
            return True
    return False


# --- the Parasite: its host is its place in the plan + 1 in the X/Y counter (0: waiting) ---

def _host(g: Game, th: ThreatState) -> CrewMember | None:
    return g.state.crew[th.passes - 1] if th.passes else None


def rides(g: Game, th: ThreatState, member: CrewMember) -> bool:
    """Tells whether ``th`` is a Parasite riding ``member`` (its host cannot fight it)."""
    return bool(th.passes) and "rides-crew" in th.card.abilities and _host(g, th) is member


def ride(g: Game, member: CrewMember) -> None:
    """``member`` has just entered a station (or space): a waiting Parasite attaches to him
    when it is a station of the ship, and a Parasite rides along with its host; in space it
    is in no station (docs/rules.md §19.8)."""
    for th in g.riders:
        if not th.on_board:
            continue
        if not th.passes and member.station != SPACE:
            th.passes = next(i for i, c in enumerate(g.state.crew) if c is member) + 1
            _say(g, f"{th.card.name} attaches to {member.label}")
        if _host(g, th) is member:
            th.stations = [] if member.station == SPACE else [member.station]


@op("drain_host_station")
def drain_host_station(g: Game, th: ThreatState) -> None:
    """Drains 1 from the host's station: the zone's shield upstairs, its reactor downstairs
    (Parasite X); nothing without a host on the ship."""
    host = _host(g, th)
    if host is None or host.station == SPACE:
        return
    zone = zone_of(host.station)
    store = g.state.shields if host.station <= ship.UB else g.state.reactors
    if store[zone]:
        store[zone] -= 1
        _say(g, f"{th.card.name} drains 1 from {STATION_CODES[host.station]}")


@op("ko_host_station_others")
def ko_host_station_others(g: Game, th: ThreatState) -> None:
    """Knocks out the other figures in the host's station (Parasite Y)."""
    host = _host(g, th)
    if host is None or host.station == SPACE:
        return
    for member in _on_ship(g):
        if member is not host and member.station == host.station:
            g.knock_out(member)


@op("attack_host_zone")
def attack_host_zone(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the host's zone; white when it has no host or its host is in space (Parasite
    Z)."""
    host = _host(g, th)
    _hit_zone(g, th, WHITE if host is None or host.station == SPACE
              else zone_of(host.station), strength)


def _ko_host(g: Game, th: ThreatState, by: Any) -> None:
    """Destroying a Parasite knocks its host out (docs/rules.md §19.8)."""
    host = _host(g, th)
    if host is not None:
        g.knock_out(host)


@op("infect")
def infect(g: Game, th: ThreatState) -> None:
    """Infects the conscious figures in the intruder's station (Rabid Beast X and Y,
    docs/rules.md §19.8): one bit per crew member, by plan order, in the card's X/Y counter."""
    for index, member in enumerate(g.state.crew):
        if member.station != SPACE and not member.out and member.station in th.stations \
                and not th.passes >> index & 1:
            th.passes |= 1 << index
            _say(g, f"{th.card.name} infects {member.label}")


@op("infection")
def infection(g: Game, th: ThreatState) -> None:
    """The infection strikes: each infected figure, conscious and on the ship, damages his own
    zone for 2, in plan order (the Beast's Z, or its marker's); then it is over."""
    for index, member in enumerate(g.state.crew):
        if th.passes >> index & 1 and not member.out and member.station != SPACE:
            zone = zone_of(member.station)
            _say(g, f"the infection strikes through {member.label}: 2 on "
                    f"{ship.ZONE_NAMES[zone]}")
            g.damage_ship(zone, 2 * g.multiplier(zone), th.card.name)
    th.passes = 0


def has_marker(th: ThreatState) -> bool:
    """Tells whether a destroyed card leaves a marker that goes on along its track: a Rabid
    Beast's infection, a Ninja's poison once someone is poisoned (docs/rules.md §19.8)."""
    abilities = th.card.abilities
    return "infects" in abilities or ("poisons" in abilities and th.passes >> POISONED > 0)


def marker_moves(g: Game, th: ThreatState) -> None:
    """Moves a destroyed card's marker on from where the card was, at its speed; at the
    track's Z (square 1) the infection or the poison strikes (docs/rules.md §19.8)."""
    th.square = max(1, th.square - th.speed)
    if th.square == 1:
        (infection if "infects" in th.card.abilities else poison_strikes)(g, th)


# --- the Ninja: its drones are station bits 0-5 of its X/Y counter, the poisoned crew members
#     bits POISONED + their place in the plan ---

POISONED = 8


@op("drones")
def drones(g: Game, th: ThreatState) -> None:
    """Sends drones into the stations next to the Ninja's: both ways along its deck and the
    other deck (Ninja X, docs/rules.md §19.8)."""
    here = th.stations[0]
    for station in {ship.neighbour(here, -1), ship.neighbour(here, 1), ship.other_deck(here)}:
        if station != here:
            th.passes |= 1 << station
    _say(g, f"{th.card.name} sends drones to " + ", ".join(
        STATION_CODES[s] for s in range(6) if th.passes >> s & 1))


def poison(g: Game, member: CrewMember, start: int) -> None:
    """``member`` has just moved from ``start`` (a walk, a lift or a heroic move): leaving or
    entering a station a Ninja on its track has drones in poisons him."""
    bit = 1 << (POISONED + next(i for i, c in enumerate(g.state.crew) if c is member))
    for th in g.ninjas:
        drones = th.passes >> start & 1 or (
            member.station <= ship.LB and th.passes >> member.station & 1)
        if th.on_board and drones and not th.passes & bit:
            th.passes |= bit
            _say(g, f"{member.label} is poisoned by {th.card.name}'s drones")


@op("poison_strikes")
def poison_strikes(g: Game, th: ThreatState) -> None:
    """The poison strikes: every poisoned figure is knocked out (the Ninja's Z, or its poison
    marker's); then it is over."""
    for index, member in enumerate(g.state.crew):
        if th.passes >> (POISONED + index) & 1:
            g.knock_out(member)
    th.passes &= (1 << POISONED) - 1


@op("rockets_explode")
def rockets_explode(g: Game, th: ThreatState, strength: int) -> None:
    """Destroys every stored rocket; each explodes on red for ``strength``, an internal attack
    (Ninja Z, docs/rules.md §19.8)."""
    while g.state.rockets:
        g.state.rockets -= 1
        _say(g, f"{th.card.name} blows up a rocket")
        g.warheads_lose_rocket()
        _hit_zone(g, th, ship.RED, strength)


#: The doors a Breached Airlock seals, one bit each in its X/Y counter: white-red, white-blue.
RED_DOORS, BLUE_DOORS = 1, 2


@op("seal_doors")
def seal_doors(g: Game, th: ThreatState, doors: int) -> None:
    """Seals the doors of one side of white, on both decks (Breached Airlock X: ``RED_DOORS``,
    Y: ``BLUE_DOORS``; docs/rules.md §19.8); kept in the card's X/Y counter (``passes``)."""
    th.passes |= doors
    _say(g, f"{th.card.name} seals the doors between white and "
            f"{'red' if doors == RED_DOORS else 'blue'}")


def door_sealed(g: Game, here: int, to: int) -> bool:
    """Tells whether a walk from ``here`` to the next station ``to`` crosses a sealed door: one
    a Breached Airlock sealed and that is not destroyed."""
    zones = {zone_of(here), zone_of(to)}
    if len(zones) < 2:
        return False
    doors = RED_DOORS if ship.RED in zones else BLUE_DOORS
    return any(th.status != DESTROYED and th.passes & doors for th in g.door_breakers)


def walk(g: Game, station: int, direction: int) -> int:
    """Returns the station one step toward red (-1) or blue (+1) on the same deck; the same
    station at the end of the deck or before a sealed door (docs/rules.md §19.8). Every walk of
    the crew and of the intruders goes through here."""
    to = ship.neighbour(station, direction)
    if to != station and g.door_breakers and door_sealed(g, station, to):
        return station
    return to


def heroic_reach(g: Game, here: int, to: int) -> int:
    """Where a heroic move to ``to`` ends with sealed doors: along the deck toward the target's
    zone, then to the other deck; before the first sealed door when there is one."""
    if zone_of(here) == zone_of(to):
        return to
    direction = -1 if zone_of(to) < zone_of(here) else 1
    station = here
    while zone_of(station) != zone_of(to):
        step = walk(g, station, direction)
        if step == station:
            return station
        station = step
    return to


#: The zones a Phasing Anomaly's X, first Y and second Y disrupt, in that order.
OPTICS_ORDER: tuple[int, ...] = (WHITE, ship.RED, ship.BLUE)


@op("disrupt_optics")
def disrupt_optics(g: Game, th: ThreatState) -> None:
    """Disrupts the optics of the next zone of ``OPTICS_ORDER`` (Phasing Anomaly X and Y,
    docs/rules.md §19.8); the count is kept in the card's X/Y counter (``passes``)."""
    if th.passes < len(OPTICS_ORDER):
        _say(g, f"{th.card.name} disrupts the {ship.ZONE_NAMES[OPTICS_ORDER[th.passes]]} "
                "optics")
        th.passes += 1


def lasers_blind(g: Game, zone: int) -> bool:
    """Tells whether the zone's lasers lose their shots this turn: its optics are disrupted by
    a Phasing Anomaly not destroyed, and no targeting assistance was given (no crew member in
    space, no visual confirmation this turn; docs/rules.md §19.8)."""
    if g.vc_now or any(member.station == SPACE for member in g.state.crew):
        return False
    return any(th.status != DESTROYED and zone in OPTICS_ORDER[:th.passes]
               for th in g.optics_breakers)


def lone_repairer_bonus(g: Game) -> None:
    """After the crew's actions: a Reversed Shields hit by exactly one crew member this turn
    takes 1 more damage (docs/rules.md §19.8)."""
    for th in g.malfunctions:
        hitters = g.repairers.get(id(th))
        if th.on_board and hitters is not None and len(hitters) == 1:
            th.damage += 1
            _say(g, f"{th.card.name}: one crew member alone repaired it this turn: +1")
            if th.damage >= th.health:
                (who,) = hitters
                g.destroy(th, next(m for m in g.state.crew if id(m) == who))


@op("destroy_capsule")
def destroy_capsule(g: Game, th: ThreatState) -> None:
    """Destroys one fuel capsule (Overheated Reactor Y)."""
    if g.state.fuel:
        g.state.fuel -= 1
        _say(g, f"{th.card.name} destroys a fuel capsule ({g.state.fuel} left)")


@op("push_central_to_shield")
def push_central_to_shield(g: Game, th: ThreatState) -> None:
    """Pushes central energy into the white shield; overflow damages white (Crossed Wires X)."""
    st = g.state
    room = max(0, g.shield_cap(WHITE) - st.shields[WHITE])
    moved = min(room, st.reactors[WHITE])
    leak = st.reactors[WHITE] - moved
    if st.reactors[WHITE]:
        _say(g, f"{th.card.name} pushes the central reactor's {st.reactors[WHITE]} energy "
                f"into the white shield ({st.shields[WHITE]} -> {st.shields[WHITE] + moved}, "
                f"{leak} overflows)")
    st.shields[WHITE] += moved
    st.reactors[WHITE] = 0
    _hit_zone(g, th, WHITE, leak)


@op("leak_white_shield")
def leak_white_shield(g: Game, th: ThreatState) -> None:
    """Empties the white shield, 1 damage to white per energy (Crossed Wires Y)."""
    leak = g.state.shields[WHITE]
    if leak:
        _say(g, f"{th.card.name} empties the white shield ({leak} -> 0)")
    g.state.shields[WHITE] = 0
    _hit_zone(g, th, WHITE, leak)


@op("leak_reactors")
def leak_reactors(g: Game, th: ThreatState) -> None:
    """Empties every reactor, damaging each zone by its energy (Crossed Wires Z)."""
    for zone in range(3):
        leak = g.state.reactors[zone]
        if leak:
            _say(g, f"{th.card.name} empties the {ship.ZONE_NAMES[zone]} reactor "
                    f"({leak} -> 0)")
        g.state.reactors[zone] = 0
        _hit_zone(g, th, zone, leak)


# --- the threat itself ---


@op("repair")
def repair(g: Game, th: ThreatState, amount: int) -> None:
    """Removes up to ``amount`` damage from the threat."""
    before = th.damage
    th.damage = max(0, th.damage - amount)
    if th.damage != before:
        _say(g, f"{th.card.name} repairs {before - th.damage} damage ({before} -> {th.damage})")


@op("repair_half")
def repair_half(g: Game, th: ThreatState) -> None:
    """Repairs half of the threat's damage, rounded down (Jellyfish)."""
    repaired = th.damage // 2
    if repaired:
        _say(g, f"{th.card.name} repairs {repaired} damage ({th.damage} -> "
                f"{th.damage - repaired})")
    th.damage -= repaired


@op("speed")
def speed(g: Game, th: ThreatState, amount: int) -> None:
    """Raises the speed from the next move on."""
    th.speed += amount
    _say(g, f"{th.card.name} speeds up by {amount} (speed {th.speed})")


@op("shield_set")
def shield_set(g: Game, th: ThreatState, value: int) -> None:
    """Sets the threat's own shield."""
    if th.shield != value:
        _say(g, f"{th.card.name}'s shield is now {value} (was {th.shield})")
    th.shield = value


@op("shield_add")
def shield_add(g: Game, th: ThreatState, amount: int) -> None:
    """Raises the threat's own shield."""
    th.shield += amount
    _say(g, f"{th.card.name}'s shield rises by {amount} to {th.shield}")


@op("reveal")
def reveal(g: Game, th: ThreatState) -> None:
    """Makes a hidden fighter targetable."""
    if not th.active:
        _say(g, f"{th.card.name} is revealed: it can be targeted from now on")
    th.active = True


@op("scout_bonus")
def scout_bonus(g: Game, th: ThreatState) -> None:
    """Starts the Scout's +1 on every other external threat's attacks."""
    if not th.active:
        _say(g, f"{th.card.name}: every other external threat attacks with +1 from now on")
    th.active = True


@op("marauder_bonus")
def marauder_bonus(g: Game, th: ThreatState) -> None:
    """Starts the Marauder's +1 shield on every external threat, itself included."""
    if not th.active:
        _say(g, f"{th.card.name}: every external threat has +1 shield from now on")
    th.active = True


@op("grow_up")
def grow_up(g: Game, th: ThreatState) -> None:
    """Makes the Alien fight back from now on."""
    if not th.active:
        _say(g, f"{th.card.name} grows up: it fights back from now on")
    th.active = True


@op("count_pass")
def count_pass(g: Game, th: ThreatState) -> None:
    """Counts an X/Y square passed (asteroid debris)."""
    th.passes += 1
    _say(g, f"{th.card.name} gathers debris ({th.passes} passed so far)")


@op("self_damage")
def self_damage(g: Game, th: ThreatState, amount: int) -> None:
    """Damages the threat itself; it can die of it (Nemesis)."""
    th.damage += amount
    _say(g, f"{th.card.name} takes {amount} damage itself ({th.damage} of {th.health})")
    if th.damage >= th.health:
        g.destroy(th)


@op("scout_advance")
def scout_advance(g: Game, th: ThreatState) -> None:
    """Advances every other external threat by one square, in order of appearance."""
    for other in g.state.threats:
        if other is not th and other.on_board and other.card.external:
            g.advance(other)


# --- bonus threats and the threats that move others (docs/rules.md §19.8) ---


@op("release_bonus")
def release_bonus(g: Game, th: ThreatState, faster: int) -> None:
    """Brings the threat's bonus threat into play, ``faster`` faster than printed while the
    carrier has taken fewer than 2 damage (Sealed Capsule Z; 0 for the others)."""
    g.release(th, faster if th.damage < 2 else 0)


@op("advance_internal")
def advance_internal(g: Game, th: ThreatState) -> None:
    """Advances every internal threat on its track one square, in order of appearance,
    resolving the X, Y or Z it lands on (Transmitter Satellite Y)."""
    for other in g.state.threats:
        if other is not th and other.on_board and not other.card.external:
            g.advance(other)


@op("advance_zone")
def advance_zone(g: Game, th: ThreatState, squares: int) -> None:
    """Advances every external threat of the threat's zone ``squares`` squares, one threat
    after the other in order of appearance (Hidden Transmitter Y)."""
    zone = _zone(th)
    for other in g.state.threats:
        if other is not th and other.on_board and other.card.external and other.zone == zone:
            for _ in range(squares):
                if not g.advance(other):
                    break


@op("repair_externals")
def repair_externals(g: Game, th: ThreatState, amount: int) -> None:
    """Removes up to ``amount`` damage from every external threat on its track, the threat
    itself included (Overlord Y)."""
    for other in g.state.threats:
        if other.on_board and other.card.external:
            repair(g, other, amount)


@op("ko_captain")
def ko_captain(g: Game, th: ThreatState) -> None:
    """Knocks out the captain, the first crew member in seat order, when he is on the ship
    (Transmitter Satellite Z)."""
    captain = g.state.crew[0]
    if captain.station != SPACE and not captain.out:
        g.knock_out(captain)


@op("fissure")
def fissure(g: Game, th: ThreatState, where: str) -> None:
    """Doubles damage reaching red (``red``) or every zone (``all``)."""
    level = 2 if where == "all" else max(th.level, 1)
    if level != th.level:
        _say(g, f"{th.card.name} doubles the damage to "
                f"{'every zone' if level == 2 else 'red'} from now on")
    th.level = level


# --- intruder movement ---


@op("move")
def move(g: Game, th: ThreatState, direction: str) -> None:
    """Moves an intruder one station toward red or blue (stays at the end of the deck)."""
    step = -1 if direction == "red" else 1
    th.stations = [walk(g, s, step) for s in th.stations]
    _moved(g, th)


def _moved(g: Game, th: ThreatState) -> None:
    if g.log is not None:
        where = "+".join(STATION_CODES[s] for s in th.stations)
        g.note("threat", f"{th.card.name} is now in {where}")


@op("change_deck")
def change_deck(g: Game, th: ThreatState) -> None:
    """Moves an intruder to the other deck of its zone."""
    th.stations = [ship.other_deck(s) for s in th.stations]
    _moved(g, th)


@op("move_if_damaged_else_attack")
def move_if_damaged_else_attack(g: Game, th: ThreatState, direction: str, strength: int) -> None:
    """Moves if damaged, else attacks its zone (Commandos Y)."""
    if th.damage:
        move(g, th, direction)
    else:
        attack(g, th, strength)


def _present(g: Game, th: ThreatState) -> bool:
    """Tells whether a conscious crew member shares the intruder's station (knocked-out crew
    are not people in a station: docs/rules.md §20)."""
    here = th.stations[0]
    return any(c.station == here for c in _on_ship(g))


@op("move_if_present")
def move_if_present(g: Game, th: ThreatState, direction: str) -> None:
    """Moves one station toward red or blue if someone shares its station (Shambler X)."""
    if _present(g, th):
        move(g, th, direction)
    else:
        _say(g, f"{th.card.name} is alone: it stays")


@op("attack_if_present_else_repair")
def attack_if_present_else_repair(g: Game, th: ThreatState, strength: int, amount: int) -> None:
    """Attacks its zone if someone shares its station, else repairs (Shambler Y)."""
    if _present(g, th):
        attack(g, th, strength)
    else:
        repair(g, th, amount)


@op("seek")
def seek(g: Game, th: ThreatState) -> None:
    """Moves to the neighbouring station with the most conscious crew; stays on a tie."""
    here = th.stations[0]
    options = {walk(g, here, -1), walk(g, here, 1), ship.other_deck(here)}
    options.discard(here)
    counts = {s: sum(1 for c in _on_ship(g) if c.station == s) for s in options}
    best = max(counts.values())
    winners = [s for s, n in counts.items() if n == best]
    if len(winners) == 1:
        th.stations = winners
    _moved(g, th)


@op("slime_spread")
def slime_spread(g: Game, th: ThreatState, direction: str) -> None:
    """Spreads every slime spot one station toward red or blue (1-health offshoots)."""
    step = -1 if direction == "red" else 1
    for station in list(th.stations):
        to = walk(g, station, step)
        if to != station and to not in th.stations:
            th.stations.append(to)
            th.spots.append(1)
            _say(g, f"{th.card.name} spreads from {STATION_CODES[station]} to "
                    f"{STATION_CODES[to]} (a 1-health offshoot)")


@op("slime_attack")
def slime_attack(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks every zone that holds slime."""
    for zone in sorted({zone_of(s) for s in th.stations}):
        _hit_zone(g, th, zone, strength)


# --- crew and ship systems ---


@op("ko_station")
def ko_station(g: Game, th: ThreatState) -> None:
    """Knocks out every crew member in the threat's station."""
    for member in _on_ship(g):
        if member.station in th.stations:
            g.knock_out(member)


@op("ko_stations")
def ko_stations(g: Game, th: ThreatState, *codes: str) -> None:
    """Knocks out every crew member in the named stations."""
    stations = {_station_of(c) for c in codes}
    for member in _on_ship(g):
        if member.station in stations:
            g.knock_out(member)


@op("ko_leaders")
def ko_leaders(g: Game, th: ThreatState) -> None:
    """Knocks out every crew member on the ship who leads battlebots."""
    for member in _on_ship(g):
        if member.squad != NO_SQUAD:
            g.knock_out(member)


@op("ko_ship")
def ko_ship(g: Game, th: ThreatState) -> None:
    """Knocks out every crew member on the ship (pilots in space are spared)."""
    for member in _on_ship(g):
        g.knock_out(member)


def _crowds(g: Game) -> dict[int, int]:
    """Counts the conscious figures on the ship in each station (knocked-out ones are not
    present, docs/rules.md §20)."""
    counts: dict[int, int] = {}
    for member in _on_ship(g):
        counts[member.station] = counts.get(member.station, 0) + 1
    return counts


@op("ko_alone")
def ko_alone(g: Game, th: ThreatState) -> None:
    """Knocks out every figure alone in its station on the ship (Siren X, docs/rules.md
    §19.8); the counts are taken before anyone is knocked out."""
    counts = _crowds(g)
    for member in _on_ship(g):
        if counts[member.station] == 1:
            g.knock_out(member)


@op("ko_crowded")
def ko_crowded(g: Game, th: ThreatState) -> None:
    """Knocks out every figure in a station of the ship that holds two or more (Siren Y)."""
    counts = _crowds(g)
    for member in _on_ship(g):
        if counts[member.station] >= 2:
            g.knock_out(member)


@op("ko_all")
def ko_all(g: Game, th: ThreatState) -> None:
    """Knocks out everyone, the pilot in space too (Siren Z, docs/rules.md §19.8)."""
    for member in g.state.crew:
        g.knock_out(member)


@op("ko_ship_except")
def ko_ship_except(g: Game, th: ThreatState, code: str) -> None:
    """Knocks out every crew member on the ship outside the named station."""
    spared = _station_of(code)
    for member in _on_ship(g):
        if member.station != spared:
            g.knock_out(member)


@op("ko_without_squad")
def ko_without_squad(g: Game, th: ThreatState) -> None:
    """Knocks out everyone in the threat's station who leads no battlebots (Executioner)."""
    for member in _on_ship(g):
        if member.station in th.stations and member.squad == NO_SQUAD:
            g.knock_out(member)


@op("delay_zone")
def delay_zone(g: Game, th: ThreatState) -> None:
    """Delays everyone on the ship in the threat's zone in the next turn."""
    for member in _on_ship(g):
        if zone_of(member.station) == th.zone:
            g.delay(member, g.turn + 1)


@op("delay_ship")
def delay_ship(g: Game, th: ThreatState) -> None:
    """Delays everyone on the ship in the next turn."""
    for member in _on_ship(g):
        g.delay(member, g.turn + 1)


@op("destroy_rocket")
def destroy_rocket(g: Game, th: ThreatState) -> None:
    """Destroys one stored rocket (Slime X)."""
    if g.state.rockets:
        g.state.rockets -= 1
        if g.log is not None:
            g.note("threat", f"{th.card.name} destroys a rocket")
        g.warheads_lose_rocket()


@op("disable_stored_squad")
def disable_stored_squad(g: Game, th: ThreatState, code: str) -> None:
    """Disables the squad still stored at the named station."""
    index = ship.SQUAD_STATIONS.index(_station_of(code))
    if g.state.stored[index] not in (NO_SQUAD, ship.DISABLED):
        g.state.stored[index] = ship.DISABLED
        _say(g, f"{th.card.name} disables the battlebots stored at {code}")


@op("contamination_delay")
def contamination_delay(g: Game, th: ThreatState) -> None:
    """Delays everyone in a contaminated station in the next turn."""
    for member in _on_ship(g):
        if member.station in th.stations:
            g.delay(member, g.turn + 1)


@op("contamination_attack")
def contamination_attack(g: Game, th: ThreatState, strength: int) -> None:
    """Attacks the zone of each contaminated station (two spots in a zone: twice)."""
    for station in sorted(th.stations):
        _hit_zone(g, th, zone_of(station), strength)


@op("contamination_ko")
def contamination_ko(g: Game, th: ThreatState) -> None:
    """Knocks out crew in contaminated stations; entering them knocks out from now on."""
    for member in _on_ship(g):
        if member.station in th.stations:
            g.knock_out(member)
    g.state.contaminated.update(th.stations)


# --- targeting filters: ability id -> may this weapon target the threat now? ---


def _hidden(th: ThreatState, weapon: int) -> bool:
    return th.active


def _far(th: ThreatState, weapon: int) -> bool:
    return DISTANCE[th.square] < 3


def _no_heavy(th: ThreatState, weapon: int) -> bool:
    return weapon != HEAVY


def _rocket_immune(th: ThreatState, weapon: int) -> bool:
    return weapon != ROCKET


def _phased_in(th: ThreatState, weapon: int) -> bool:
    return not phased_out(th)  # phased out, no weapon reaches it (docs/rules.md §19.8)


TARGET_FILTERS: dict[str, Callable[[ThreatState, int], bool]] = {
    "hidden-until-x": _hidden,
    "out-of-reach-far": _far,
    "no-heavy-laser": _no_heavy,
    "rocket-immune": _rocket_immune,
    "phasing": _phased_in,
}


# --- destruction effects: ability id (before any ":") -> hook ---


def _debris(g: Game, th: ThreatState, by: CrewMember | None) -> None:
    strength = th.card.ability_arg("debris") * th.passes
    if strength:
        if g.log is not None:
            g.note("damage", f"{th.card.name}'s debris hits {ship.ZONE_NAMES[th.zone]}")
        g.attack(th, th.zone, strength)


def _ko_lower_sides(g: Game, th: ThreatState, by: CrewMember | None) -> None:
    for member in _on_ship(g):
        if member.station in (ship.LR, ship.LB):
            g.knock_out(member)


def _ko_destroyer(g: Game, th: ThreatState, by: CrewMember | None) -> None:
    if by is not None:
        g.knock_out(by)


def _bonus_goes_too(g: Game, th: ThreatState, by: CrewMember | None) -> None:
    # a carrier destroyed before it brought its bonus threat takes it along: the bonus card
    # scores as destroyed and never comes (docs/rules.md §19.8)
    bonus = g.bonuses.get(id(th))
    if bonus is not None and bonus.status == PENDING:
        bonus.status = DESTROYED
        bonus.ended = g.turn
        _say(g, f"{th.card.name} is destroyed with its bonus threat {bonus.card.name} aboard")


ON_DESTROYED: dict[str, Callable[[Game, ThreatState, Any], None]] = {
    "bonus-internal": _bonus_goes_too,
    "bonus-external": _bonus_goes_too,
    "debris": _debris,
    "ko-lower-sides-on-death": _ko_lower_sides,
    "ko-destroyer": _ko_destroyer,
    "rides-crew": _ko_host,
}

#: Every ability id the core or the hooks above understand (``name`` or ``name:N``).
ABILITIES: frozenset[str] = frozenset({
    *TARGET_FILTERS, *ON_DESTROYED,
    "double-damage", "pulse-zeroes-shield", "cryoshield", "rocket-wasted", "max-damage",
    "splash-on-death", "behemoth-interceptors", "rocket-magnet", "retaliates", "fights-back",
    "fights-back-when-grown", "health-from-rockets", "slime", "pilot-target",
    "all-stations-bonus", "contamination", "three-hits-same-turn",
    # New Frontier (docs/rules.md §19.8)
    "carrier-attacks", "rocket-knocks-off-course", "z-at-jump", "finishing-hit-energy",
    "megashield", "polarized", "speeds-up", "slowed-when-hit",
    "lasers-any-zone", "station-by-turn", "moves-to-lb-when-hit",
    "armour", "short-circuit", "reverses-shields", "lone-repairer-bonus", "disrupts-optics",
    "seals-doors", "squad-repairs-more", "infects", "sabotages", "poisons",
})
