"""The C core's codes, defined once: operations, card flags, action bits and record layouts.

The C core (``c/core.c``, ``c/search.c``) and its adapter (``ccore.py``) agree on small
integers: which square operation a code runs, which bit of a card's flags stands for which
ability, how an action is packed into a plan slot, and where each field sits in the int
records they exchange (a card, a game's output, a state snapshot). They are defined here and
nowhere else. ``python -m authoring.engine.cores.write_codes`` writes them as the C header
``c/codes.h`` (committed beside ``core.c``; its first line says it is generated, and from
what); tests/engine/test_codes.py fails when the header is stale and when ``core.c``,
``search.c`` or ``ccore.py`` keeps a hand-written copy. Adding an operation or an ability is
one line here, then the generator, then the C code that plays it.

Where a code already has a meaning in the reference engine (the action kinds and bits of
``rules/plan.py``, the stations, zones and token kinds of ``rules/ship.py``, the threat
statuses of ``rules/state.py``), it is read from there, so that the C core cannot drift from
the rules it ports. The library reports a digest of every code (``DIGEST``, ``sa_codes``),
and ``ccore.py`` refuses a library built from other codes.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from authoring.engine.odds import value
from authoring.engine.rules import plan, ship, state

#: The version of the calling convention of ``sa_play`` and ``sa_search`` (``sa_abi``).
ABI = 6

#: The square operations of threat cards (``rules/threats/abilities.OPS``), by code (the
#: index); code 0 is none. The four that only switch a threat's X state on (``ACTIVATE``)
#: share the code of ``activate``.
OPERATIONS: tuple[str, ...] = (
    "", "attack", "attack_all", "attack_others", "attack_zone", "attack_unshielded",
    "attack_health", "attack_unless_damaged", "attack_all_if_damaged", "attack_rockets",
    "attack_central_energy", "attack_players_here", "destroy_ship", "drain_shields",
    "drain_each_shield", "drain_zone_shield", "drain_zone_reactor", "drain_reactors",
    "drain_central", "saboteur_drain", "destroy_capsule", "push_central_to_shield",
    "leak_white_shield", "leak_reactors", "repair", "repair_half", "speed", "shield_set",
    "shield_add", "activate", "count_pass", "self_damage", "scout_advance", "fissure", "move",
    "change_deck", "move_if_damaged_else_attack", "seek", "slime_spread", "slime_attack",
    "ko_station", "ko_stations", "ko_leaders", "ko_ship", "ko_ship_except", "ko_without_squad",
    "delay_zone", "delay_ship", "destroy_rocket", "disable_stored_squad", "contamination_delay",
    "contamination_attack", "contamination_ko",
    # New Frontier (docs/rules.md §19.8)
    "attack_plasmatic", "attack_unless_off_course", "move_if_present",
    "attack_if_present_else_repair", "attack_phasing", "attack_all_phasing",
    "change_deck_unless_phased", "lay_mine", "move_phasing", "mines_explode",
    "attack_repair_absorbed", "attack_plus_reactor", "attack_each_plus_reactor",
    "drain_own_reactor", "attack_other_side", "jump", "ko_alone", "ko_crowded", "ko_all",
    "drop_armour", "drill", "drain_central_attack_all", "destroy_capsule_attack_all",
    "shields_ineffective", "shields_reversed", "disrupt_optics", "seal_doors", "infect",
    "infection", "drain_host_station", "ko_host_station_others", "attack_host_zone",
    "drain_zone_reactor_speed", "sabotage", "drones", "poison_strikes", "rockets_explode",
    "release_bonus", "advance_internal", "advance_zone", "repair_externals", "ko_captain",
)
ACTIVATE: tuple[str, ...] = ("reveal", "scout_bonus", "marauder_bonus", "grow_up")

#: The bits of a card record's flags, lowest first: (C name, what sets it). An ability id
#: sets its bit when the card lists it; ``x:<op>`` when the op is among the card's X
#: operations (the Scout's and the Marauder's bonuses, which the C core checks every turn).
CARD_FLAGS: tuple[tuple[str, str], ...] = (
    ("F_DOUBLE_DAMAGE", "double-damage"), ("F_PULSE_ZEROES", "pulse-zeroes-shield"),
    ("F_CRYO", "cryoshield"), ("F_ROCKET_WASTED", "rocket-wasted"),
    ("F_SPLASH", "splash-on-death"), ("F_BEHEMOTH", "behemoth-interceptors"),
    ("F_MAGNET", "rocket-magnet"), ("F_RETALIATES", "retaliates"),
    ("F_FIGHTS_BACK", "fights-back"), ("F_FIGHTS_GROWN", "fights-back-when-grown"),
    ("F_HEALTH_ROCKETS", "health-from-rockets"), ("F_SLIME", "slime"),
    ("F_PILOT_TARGET", "pilot-target"), ("F_CONTAMINATION", "contamination"),
    ("F_THREE_HITS", "three-hits-same-turn"), ("F_HIDDEN", "hidden-until-x"),
    ("F_FAR", "out-of-reach-far"), ("F_NO_HEAVY", "no-heavy-laser"),
    ("F_ROCKET_IMMUNE", "rocket-immune"), ("F_KO_LOWER_SIDES", "ko-lower-sides-on-death"),
    ("F_KO_DESTROYER", "ko-destroyer"),
    ("F_SCOUT", "x:scout_bonus"), ("F_MARAUDER", "x:marauder_bonus"),
    # New Frontier (docs/rules.md §19.8)
    ("F_CARRIER", "carrier-attacks"), ("F_OFF_COURSE", "rocket-knocks-off-course"),
    ("F_Z_AT_JUMP", "z-at-jump"), ("F_FINISHING_ENERGY", "finishing-hit-energy"),
    ("F_MEGASHIELD", "megashield"), ("F_PHASING", "phasing"), ("F_POLARIZED", "polarized"),
    ("F_SPEEDS_UP", "speeds-up"), ("F_SLOWED_WHEN_HIT", "slowed-when-hit"),
    ("F_LASERS_ANY_ZONE", "lasers-any-zone"), ("F_STATION_BY_TURN", "station-by-turn"),
    ("F_TO_LB_WHEN_HIT", "moves-to-lb-when-hit"), ("F_ARMOUR", "armour"),
    ("F_SHORT_CIRCUIT", "short-circuit"), ("F_REVERSES_SHIELDS", "reverses-shields"),
    ("F_LONE_REPAIRER", "lone-repairer-bonus"), ("F_DISRUPTS_OPTICS", "disrupts-optics"),
    ("F_SEALS_DOORS", "seals-doors"), ("F_SQUAD_REPAIRS_MORE", "squad-repairs-more"),
    ("F_INFECTS", "infects"), ("F_RIDES_CREW", "rides-crew"), ("F_SABOTAGES", "sabotages"),
    ("F_POISONS", "poisons"), ("F_BONUS_INTERNAL", "bonus-internal"),
    ("F_BONUS_EXTERNAL", "bonus-external"),
)
#: Ability id -> its flag bit (abilities only; see ``X_FLAGS`` for the X operations).
FLAGS: dict[str, int] = {what: 1 << bit for bit, (_, what) in enumerate(CARD_FLAGS)
                         if not what.startswith("x:")}
#: X operation -> its flag bit.
X_FLAGS: dict[str, int] = {what[2:]: 1 << bit for bit, (_, what) in enumerate(CARD_FLAGS)
                           if what.startswith("x:")}
#: Abilities written ``name:N``: each has a field of its own in the card record.
ARGUMENT_ABILITIES: tuple[str, ...] = ("max-damage", "debris", "all-stations-bonus")
#: The system a malfunction is repaired with, by code.
SYSTEMS: tuple[str | None, ...] = (None, "A", "B", "C", "bots", "pilot")
#: The weapons, by code (the order the C core walks them in a damage step).
WEAPONS: tuple[str, ...] = ("heavy", "light", "pulse", "rocket", "interceptors")

#: Bounds of the C core's fixed arrays.
MAX_OPS = 3          # square operations per letter of a card
MAX_THREATS = 16     # threats of one mission
MAX_CREW = 5
MAX_FORCED = 16      # forced draws of one game (tests pin token draws)
MAX_SPOTS = 6        # stations one threat can occupy at once
MAX_CARDS = 256      # the card table
MAX_SNAPS = 15       # snapshots of one game: the start, turns 1-13, the end
STATION_SLOTS = 4    # stations a card record lists
LETTER_INTS = 1 + 3 * MAX_OPS  # a letter: its count, then (op, arg1, arg2) per operation
CREW_SNAP = 3 + plan.SLOTS      # a crew member in a snapshot: station, squad, out, slots
THREAT_SNAP = 12 + 1 + MAX_SPOTS + 1 + MAX_SPOTS  # status ... ended, zone, stations, spots

#: Record layouts, field by field: (name, ints). The C header gets each field's offset and
#: the record's size (the last name).
CARD_RECORD: tuple[tuple[str, int], ...] = (
    ("C_EXTERNAL", 1), ("C_MALFUNCTION", 1), ("C_HEALTH", 1), ("C_SHIELD", 1), ("C_SPEED", 1),
    ("C_POINTS_SURVIVED", 1), ("C_POINTS_DESTROYED", 1), ("C_SYSTEM", 1), ("C_FLAGS", 2),
    *((f"C_{name.upper().replace('-', '_')}", 1) for name in ARGUMENT_ABILITIES),
    ("C_NSTATIONS", 1), ("C_STATIONS", STATION_SLOTS),
    ("C_LETTERS", 3 * LETTER_INTS),  # x, y, z
    ("C_PADDING", 1),
    ("CARD_INTS", 0),
)
#: A game's output: survived, turn, cause, score (threats, vc, damage, worst, knocked,
#: disabled, total), token counts per zone, the tokens (6 per zone), threat statuses, the
#: turns threats ended, the number of snapshots, the zones threats ended in (a Jumper's
#: changes).
OUT_RECORD: tuple[tuple[str, int], ...] = (
    ("O_SURVIVED", 1), ("O_TURN", 1), ("O_CAUSE", 1), ("O_SCORE", 7), ("O_NTOKENS", 3),
    ("O_TOKENS", 18), ("O_STATUS", MAX_THREATS), ("O_ENDED", MAX_THREATS), ("O_NSNAPS", 1),
    ("O_ZONE", MAX_THREATS),
    ("OUT_INTS", 0),
)
#: A snapshot of the state after a turn (int16 words).
SNAP_RECORD: tuple[tuple[str, int], ...] = (
    ("S_TURN", 1), ("S_SHIELDS", 3), ("S_REACTORS", 3), ("S_FUEL", 1), ("S_ROCKETS", 1),
    ("S_FLYING", 1), ("S_STORED", 2), ("S_MAINTAINED", 3), ("S_VC", 3), ("S_NTOKENS", 3),
    ("S_TOKENS", 18), ("S_BROKEN", 6), ("S_CONTAM", 1), ("S_SCOUT", 1), ("S_LOST", 1),
    ("S_CREW", MAX_CREW * CREW_SNAP), ("S_THREATS", MAX_THREATS * THREAT_SNAP),
    ("SNAP_INTS", 0),
)


def offsets(record: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Returns each field's offset in a record (its last name: the record's size)."""
    found: dict[str, int] = {}
    at = 0
    for name, width in record:
        found[name] = at
        at += width
    return found


CARD = offsets(CARD_RECORD)
OUT = offsets(OUT_RECORD)
SNAP = offsets(SNAP_RECORD)
CARD_INTS, OUT_INTS, SNAP_INTS = CARD["CARD_INTS"], OUT["OUT_INTS"], SNAP["SNAP_INTS"]

#: Plain integer codes the C core shares with the reference: (C names in value order,
#: the reference's values of the same names). Read from the rules modules, so they agree.
_ENUMS: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...] = (
    ("stations", ("UR", "UW", "UB", "LR", "LW", "LB", "SPACE"),
     (ship.UR, ship.UW, ship.UB, ship.LR, ship.LW, ship.LB, ship.SPACE)),
    ("zones", ("RED", "WHITE", "BLUE"), (ship.RED, ship.WHITE, ship.BLUE)),
    ("threat statuses", ("PENDING", "ACTIVE_THREAT", "DESTROYED", "SURVIVED"),
     (state.PENDING, state.ACTIVE_THREAT, state.DESTROYED, state.SURVIVED)),
    ("squads", ("NO_SQUAD", "SQ_ACTIVE", "SQ_DISABLED"),
     (ship.NO_SQUAD, ship.ACTIVE, ship.DISABLED)),
    ("damage tokens", ("T_STRUCTURAL", "T_SHIELD", "T_REACTOR", "T_UPPER", "T_LOWER",
                       "T_GRAVOLIFT"),
     (ship.STRUCTURAL, ship.SHIELD, ship.REACTOR, ship.UPPER_CANNON, ship.LOWER_CANNON,
      ship.GRAVOLIFT)),
    ("action kinds", ("K_BLANK", "K_RED", "K_BLUE", "K_LIFT", "K_A", "K_B", "K_C", "K_BOTS",
                      "K_HMOVE"),
     (plan.BLANK, plan.RED, plan.BLUE, plan.LIFT, plan.A, plan.B, plan.C, plan.BOTS,
      plan.HMOVE)),
)
#: Action bits of a plan slot (``rules/plan.py``): heroic, tripped, the kind's mask, and
#: the shift of a double action's second half.
ACTION_BITS: tuple[tuple[str, int], ...] = (
    ("HEROIC_BIT", plan.HEROIC_BIT), ("TRIP_BIT", plan.TRIP_BIT),
    ("KIND_MASK", plan.KIND_MASK), ("SECOND_SHIFT", plan.SECOND_SHIFT),
)
#: The double actions a plan may hold (``plan.DOUBLE_PAIRS``, docs/rules.md §19.2): per first
#: half's kind, the bit of every kind its second half may be (``DOUBLE_SECONDS`` in C).
_PAIR_CODES = frozenset(plan.encode(plan.parse_action(pair)) for pair in plan.DOUBLE_PAIRS)
DOUBLE_SECONDS: tuple[int, ...] = tuple(
    sum(1 << second for second in range(plan.HMOVE)
        if plan.encode(plan.Action(first, second=second)) in _PAIR_CODES)
    for first in range(plan.HMOVE))
#: The one value function's weights (``odds/value.py``), which ``sa_objective`` plays.
VALUE_WEIGHTS: tuple[tuple[str, int], ...] = (
    ("VALUE_SURVIVED", value.SURVIVED), ("VALUE_PER_TURN", value.PER_TURN),
)
_BOUNDS: tuple[tuple[str, int], ...] = (
    ("MAX_OPS", MAX_OPS), ("LETTER_INTS", LETTER_INTS), ("MAX_THREATS", MAX_THREATS),
    ("MAX_CREW", MAX_CREW), ("MAX_FORCED", MAX_FORCED), ("MAX_SPOTS", MAX_SPOTS),
    ("MAX_CARDS", MAX_CARDS), ("MAX_SNAPS", MAX_SNAPS), ("CREW_SNAP", CREW_SNAP),
    ("THREAT_SNAP", THREAT_SNAP),
)

HEADER = Path(__file__).with_name("c") / "codes.h"
GENERATOR = "python -m authoring.engine.cores.write_codes"


def _c_name(operation: str) -> str:
    return "OP_" + (operation.upper() if operation else "NONE")


def _body() -> Iterator[str]:
    yield "#ifndef SPACEALERT_CODES_H"
    yield "#define SPACEALERT_CODES_H"
    yield ""
    yield f"#define ABI_VERSION {ABI}"
    for title, names, values in _ENUMS:
        yield ""
        yield f"/* {title} (the reference's values) */"
        yield "enum { " + ", ".join(f"{n} = {v}" for n, v in zip(names, values, strict=True)) \
            + " };"
    yield ""
    yield "/* action bits of a plan slot (rules/plan.py) */"
    for name, bits in ACTION_BITS:
        yield f"#define {name} {bits}"
    yield "#define FIRST_MASK ((1 << SECOND_SHIFT) - 1)"
    yield ("/* per first half's kind, the bits of the second halves a double action may have"
           " (plan.DOUBLE_PAIRS) */")
    yield "#define DOUBLE_SECONDS {" + ", ".join(f"0x{m:02x}" for m in DOUBLE_SECONDS) + "}"
    yield ""
    yield "/* the one value function's weights (odds/value.py) */"
    for name, weight in VALUE_WEIGHTS:
        yield f"#define {name} {weight}"
    yield ""
    yield "/* weapons and repair systems */"
    yield "enum { " + ", ".join(f"W_{w.upper()} = {i}" for i, w in enumerate(WEAPONS)) + " };"
    yield "enum { " + ", ".join(f"SYS_{(s or 'none').upper()} = {i}"
                                for i, s in enumerate(SYSTEMS)) + " };"
    yield ""
    yield "/* card flags: one bit per ability (or X operation) */"
    for bit, (name, what) in enumerate(CARD_FLAGS):
        yield f"#define {name} (1ULL << {bit}) /* {what} */"
    yield ""
    yield "/* square operations, by code */"
    yield "enum {"
    for code, operation in enumerate(OPERATIONS):
        yield f"    {_c_name(operation)} = {code},"
    yield f"    OP_COUNT = {len(OPERATIONS)}"
    yield "};"
    yield ""
    yield "/* bounds of the fixed arrays */"
    for name, bound in _BOUNDS:
        yield f"#define {name} {bound}"
    for title, record in (("card record (ints)", CARD_RECORD),
                          ("game output (ints)", OUT_RECORD),
                          ("state snapshot (int16)", SNAP_RECORD)):
        yield ""
        yield f"/* {title}: field offsets, then the size */"
        yield "enum {"
        fields = offsets(record)
        yield ",\n".join(f"    {name} = {fields[name]}" for name, _ in record)
        yield "};"
    yield ""
    yield f"#define CODES_DIGEST 0x{DIGEST:08x}u /* sa_codes(): ccore.py checks it */"
    yield ""
    yield "#endif"


def _digest() -> int:
    """A CRC-32 of every code above: the library and this module must agree on all."""
    text = repr((ABI, OPERATIONS, ACTIVATE, CARD_FLAGS, ARGUMENT_ABILITIES, SYSTEMS, WEAPONS,
                 _BOUNDS, CARD_RECORD, OUT_RECORD, SNAP_RECORD, _ENUMS, ACTION_BITS,
                 VALUE_WEIGHTS, DOUBLE_SECONDS))
    return zlib.crc32(text.encode())


DIGEST = _digest()


def header() -> str:
    """Returns the text of ``c/codes.h``."""
    first = (f"/* Generated by authoring/engine/cores/codes.py ({GENERATOR}): do not edit;"
             " change the codes there and run it again. */")
    return "\n".join([first, *_body()]) + "\n"


def write_header() -> int:
    """Writes ``c/codes.h`` (atomically) and returns 0; then rebuild the C core."""
    partial = HEADER.with_suffix(".h.part")
    partial.write_text(header(), encoding="utf-8")
    partial.replace(HEADER)
    print(f"wrote {HEADER}; rebuild the C core: python -m authoring._native build")
    return 0
