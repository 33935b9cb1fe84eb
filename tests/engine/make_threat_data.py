"""Converts the reference ``threats.tsv`` into ``authoring/engine/data/threats.json``.

Run it from the repository root whenever the reference table changes::

    python tests/engine/make_threat_data.py ../shared/reference/threats.tsv

The printed stats come from the table. The ``actions`` (X, Y, Z as lists of engine operations)
and ``abilities`` (named hooks of the damage step, targeting and card rules) of the 55 base-game
cards and of the New Frontier cards the engine plays (docs/rules.md §19.8) are written here by
hand from the card texts, the special rules and the binding ``decision_notes``; the other New
Frontier cards get ``actions: null`` until their mechanics exist.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "authoring" / "engine" / "data" / "threats.json"

# Internal threats: the starting station(s) and the system letter a malfunction sits on
# ("bots" = an intruder fought with battlebots; "pilot" = only the interceptor pilot hits it).
INTERNAL_START: dict[str, tuple[list[str], str]] = {
    "I1-01": (["UR"], "bots"),
    "I1-02": (["UB"], "bots"),
    "I1-03": (["LW"], "bots"),
    "I1-04": (["LW"], "bots"),
    "I1-05": (["UB"], "B"),
    "I1-06": (["UR"], "B"),
    "I1-07": (["LB"], "C"),
    "I2-01": (["LB"], "bots"),
    "I2-02": (["LR"], "bots"),
    "I2-03": (["UR"], "bots"),
    "I2-04": (["LB"], "bots"),
    "I2-05": (["UW"], "C"),
    "I2-06": (["LW"], "B"),
    "SI1-01": (["LR"], "bots"),
    "SI1-02": (["UB"], "bots"),
    "SI1-03": (["LW"], "bots"),
    "SI1-04": (["UR"], "pilot"),
    "SI1-05": (["UW"], "B"),
    "SI1-06": (["UB", "LR"], "C"),
    "SI2-01": (["UB"], "bots"),
    "SI2-02": (["UW"], "bots"),
    "SI2-03": (["LR", "LW", "LB"], "B"),
    "SI2-04": (["UR", "UB", "LR", "LB"], "bots"),
    "SI2-05": (["LW"], "C"),
    # New Frontier (docs/rules.md §19.8)
    "I1-101": (["UW"], "A"),
    "SI1-101": (["LW"], "bots"),
    "I2-101": (["LR", "LB"], "A"),
    "I3-105": (["LR"], "bots"),
    "I3-106": (["LB"], "bots"),
    "I3-101": (["UR", "UB"], "A"),  # UR when it appears on an odd turn, UB on an even one
    "SI3-105": (["UR"], "bots"),
    "I3-107": (["LB"], "bots"),
    "I3-102": (["LW"], "A"),
    "I3-103": (["UR", "UW", "UB"], "B"),
    "SI2-101": (["UW"], "C"),
    "I3-104": (["UR"], "C"),
    "SI3-101": (["UB"], "bots"),
    "SI3-107": ([], "bots"),  # in no station until it attaches to a crew member
    "SI3-106": (["UR"], "bots"),
    "I2-102": (["LB"], "bots"),
    "SI2-102": (["UW"], "bots"),
    "SI3-102": (["UB"], "C"),
    "SI3-103": (["LR"], "C"),
}

A = "attack"
# Card id -> (x, y, z, abilities). Each action is a list of [operation, *arguments].
Actions = list[list[object]]
BEHAVIOUR: dict[str, tuple[Actions, Actions, Actions, list[str]]] = {
    # --- white external ---
    "E1-01": ([["attack_all", 1]], [["attack_all", 1]], [["attack_all", 2]], []),
    "E1-02": ([[A, 1]], [[A, 2]], [[A, 2]], ["double-damage"]),
    "E1-03": ([["reveal"]], [[A, 2]], [[A, 2]], ["hidden-until-x"]),
    "E1-04": ([["drain_shields"]], [["attack_others", 1]], [["attack_others", 2]],
              ["pulse-zeroes-shield"]),
    "E1-05": ([[A, 2]], [[A, 2]], [[A, 3]], []),
    "E1-06": ([[A, 1]], [[A, 2]], [[A, 2]], ["cryoshield"]),
    "E1-07": ([[A, 1]], [[A, 2]], [[A, 3]], []),
    "E1-08": ([[A, 1]], [["repair", 1]], [[A, 4]], []),
    "E1-09": ([["repair", 2]], [["repair", 2]], [[A, 5]], ["rocket-immune"]),
    "E1-10": ([], [], [["attack_health", 1]], ["rocket-immune"]),
    # --- yellow external ---
    "E2-01": ([["speed", 1], ["shield_set", 1]], [["speed", 1], ["shield_set", 0]], [[A, 6]], []),
    "E2-02": ([["scout_bonus"]], [["scout_advance"]], [["attack_unshielded", 3]],
              ["no-heavy-laser"]),
    "E2-03": ([["reveal"]], [[A, 2]], [[A, 3]], ["hidden-until-x", "rocket-wasted"]),
    "E2-04": ([[A, 1]], [[A, 2], ["attack_others", 1]], [[A, 3], ["attack_others", 2]],
              ["max-damage:1", "rocket-immune"]),
    "E2-05": ([["attack_all", 1], ["repair_half"]], [["attack_all", 1], ["repair_half"]],
              [["attack_all", 2]], ["rocket-immune"]),
    "E2-06": ([["marauder_bonus"]], [["drain_each_shield", 1]], [[A, 4]], []),
    "E2-07": ([["count_pass"]], [["count_pass"]], [["attack_health", 1]],
              ["debris:1", "rocket-immune"]),
    # --- white serious external ---
    "SE1-01": ([[A, 2]], [[A, 3]], [[A, 4]], []),
    "SE1-02": ([[A, 2], ["speed", 1]], [[A, 3], ["shield_add", 1]], [[A, 5]], []),
    "SE1-03": ([[A, 2]], [[A, 2], ["repair", 2]], [[A, 2]], ["splash-on-death"]),
    "SE1-04": ([["attack_all", 1]], [["attack_all", 2]], [["attack_all", 3]], ["out-of-reach-far"]),
    "SE1-05": ([[A, 2]], [[A, 3]], [[A, 4]], ["cryoshield"]),
    "SE1-06": ([["attack_all_if_damaged", 1]], [["attack_all_if_damaged", 2]],
               [["attack_health", 2]], ["rocket-immune"]),
    "SE1-07": ([["drain_shields"]], [["attack_others", 2]], [["attack_others", 3]],
               ["pulse-zeroes-shield"]),
    "SE1-08": ([["count_pass"]], [["count_pass"]], [["attack_health", 1]],
               ["debris:2", "rocket-immune"]),
    # --- yellow serious external ---
    "SE2-01": ([["attack_unless_damaged", 2, 2]], [["attack_unless_damaged", 3, 3]],
               [["attack_unless_damaged", 6, 6]], ["behemoth-interceptors"]),
    "SE2-02": ([[A, 2], ["speed", 2]], [[A, 3], ["speed", 2]], [[A, 7]], ["rocket-magnet"]),
    "SE2-03": ([["delay_zone"]], [["delay_ship"]], [["ko_ship"]], ["out-of-reach-far"]),
    "SE2-04": ([["shield_set", 4]], [["speed", 2], ["shield_set", 2]],
               [["attack_zone", "red", 5], ["attack_zone", "blue", 5]], ["rocket-immune"]),
    "SE2-05": ([[A, 1], ["self_damage", 1]], [[A, 2], ["self_damage", 2]], [["destroy_ship"]],
               ["retaliates"]),
    "SE2-06": ([["count_pass"]], [["count_pass"]], [["attack_health", 1]],
               ["debris:3", "rocket-immune"]),
    # --- white internal ---
    "I1-01": ([["move", "blue"]], [["change_deck"]], [[A, 3]], ["fights-back"]),
    "I1-02": ([["move", "red"]], [["change_deck"]], [[A, 3]], ["fights-back"]),
    "I1-03": ([["move", "blue"]], [["saboteur_drain"]], [[A, 2]], []),
    "I1-04": ([["move", "red"]], [["saboteur_drain"]], [[A, 2]], []),
    "I1-05": ([["drain_zone_shield"]], [["drain_zone_reactor"]], [[A, 2]], []),
    "I1-06": ([["drain_zone_shield"]], [["drain_zone_reactor"]], [[A, 2]], []),
    "I1-07": ([], [], [["attack_rockets", 3]], ["health-from-rockets"]),
    # --- yellow internal ---
    "I2-01": ([["destroy_rocket"]], [["slime_spread", "red"]], [["slime_attack", 2]], ["slime"]),
    "I2-02": ([["disable_stored_squad", "LR"]], [["slime_spread", "blue"]], [["slime_attack", 2]],
              ["slime"]),
    "I2-03": ([["change_deck"]], [["move", "blue"]], [[A, 4]], ["fights-back"]),
    "I2-04": ([["change_deck"]], [["move", "red"]], [[A, 4]], ["fights-back"]),
    "I2-05": ([["drain_reactors", 1]], [["delay_ship"]], [["attack_all", 1]], []),
    "I2-06": ([["attack_central_energy"]], [["destroy_capsule"]], [["attack_zone", "white", 3]],
              ["ko-lower-sides-on-death"]),
    # --- white serious internal ---
    "SI1-01": ([["change_deck"]], [["move_if_damaged_else_attack", "blue", 2]],
               [[A, 4], ["ko_station"]], ["fights-back"]),
    "SI1-02": ([["change_deck"]], [["move_if_damaged_else_attack", "red", 2]],
               [[A, 4], ["ko_station"]], ["fights-back"]),
    "SI1-03": ([["grow_up"]], [["change_deck"], ["attack_players_here"]], [["destroy_ship"]],
               ["fights-back-when-grown"]),
    "SI1-04": ([["fissure", "red"]], [["fissure", "all"]], [["destroy_ship"]], ["pilot-target"]),
    "SI1-05": ([["push_central_to_shield"]], [["leak_white_shield"]], [["leak_reactors"]], []),
    "SI1-06": ([["ko_leaders"]], [["ko_stations", "UB", "LR"]], [["ko_ship_except", "UW"]],
               ["all-stations-bonus:1"]),
    # --- yellow serious internal ---
    "SI2-01": ([["move", "red"], ["ko_without_squad"]], [["change_deck"], ["ko_without_squad"]],
               [[A, 3]], ["fights-back"]),
    "SI2-02": ([["seek"]], [["seek"]], [[A, 5], ["ko_station"]], ["ko-destroyer"]),
    "SI2-03": ([["drain_central", 2]], [["drain_reactors", 1]], [["attack_all", 3]],
               ["all-stations-bonus:2"]),
    "SI2-04": ([["contamination_delay"]], [["contamination_attack", 1]], [["contamination_ko"]],
               ["contamination"]),
    "SI2-05": ([["speed", 1]], [["speed", 1]], [["destroy_ship"]], ["three-hits-same-turn"]),
    # --- New Frontier, white deck (docs/rules.md §19.8) ---
    "E1-101": ([["attack_plasmatic", 1]], [["attack_plasmatic", 1]], [["attack_plasmatic", 2]],
               []),
    "E1-102": ([[A, 1]], [[A, 1]], [["attack_unless_off_course", 5]],
               ["rocket-knocks-off-course"]),
    "SE1-101": ([[A, 2]], [["attack_others", 3]], [["attack_all", 4]], ["carrier-attacks"]),
    "SE1-102": ([["shield_set", 1]], [["shield_add", 1]], [["attack_all", 4]],
                ["rocket-immune", "z-at-jump"]),
    # Z in the card's order: white 3, then red 1 and blue 1 (the order of the token draws)
    "I1-101": ([["drain_central", 1]], [[A, 1]],
               [[A, 3], ["attack_zone", "red", 1], ["attack_zone", "blue", 1]],
               ["finishing-hit-energy"]),
    "SI1-101": ([["move_if_present", "blue"]], [["attack_if_present_else_repair", 2, 1]],
                [[A, 4]], []),
    # --- New Frontier, yellow deck: the same mechanics (docs/rules.md §19.8) ---
    "E2-101": ([[A, 2]], [["attack_others", 3]], [["attack_all", 4]], ["carrier-attacks"]),
    "E2-103": ([[A, 1]], [[A, 1]], [[A, 3]], ["double-damage", "megashield"]),
    "SE2-101": ([["attack_plasmatic", 2]], [["attack_plasmatic", 2]], [["attack_plasmatic", 4]],
                []),
    "SE2-103": ([[A, 1]], [[A, 2], ["attack_others", 1]], [[A, 4], ["attack_others", 3]],
                ["max-damage:2", "rocket-immune"]),
    # --- New Frontier, red deck: megashield (docs/rules.md §19.8) ---
    "E3-104": ([[A, 1]], [[A, 2]], [[A, 3]], ["megashield"]),
    "SE3-102": ([[A, 2], ["speed", 1]], [[A, 3]], [[A, 5]], ["megashield"]),
    # --- the Plasmatic Needleship: plasmatic attacks, out of the heavy lasers' reach (as the
    # base Scout) ---
    "E3-101": ([["attack_plasmatic", 1]], [["attack_plasmatic", 2]], [["attack_plasmatic", 4]],
               ["no-heavy-laser"]),
    # --- the Planetoid: speeds up every turn, attacks with its health, debris when destroyed
    # (the base asteroids' operations) ---
    "SE3-107": ([["count_pass"]], [["count_pass"]], [["attack_health", 1]],
                ["debris:4", "rocket-immune", "speeds-up"]),
    # --- energy repair (docs/rules.md §19.8): attacks that repair what the shield absorbed, a
    # pulse that zeroes its shield, 2 squares less in a turn it took damage, a Z fed by the
    # reactors (the Dragon's on every zone, each with its own reactor) ---
    "E3-108": ([["attack_repair_absorbed", 1]], [["attack_repair_absorbed", 2]],
               [["attack_plus_reactor", 1]], ["pulse-zeroes-shield", "slowed-when-hit"]),
    "SE3-108": ([["attack_repair_absorbed", 2]], [["attack_repair_absorbed", 3]],
                [["attack_each_plus_reactor", 1]], ["pulse-zeroes-shield", "slowed-when-hit"]),
    # --- the Lateral Laser Jam: the Central Laser Jam's finishing hit, on a side cannon ---
    "I3-101": ([["drain_own_reactor", 2]], [[A, 2]],
               [[A, 3], ["attack_zone", "white", 2], ["attack_other_side", 1]],
               ["finishing-hit-energy", "station-by-turn"]),
    # --- jumps to the track of the next zone (docs/rules.md §19.8) ---
    "E3-105": ([["jump", "red"], [A, 1]], [[A, 1], ["jump", "red"], [A, 1]],
               [[A, 3], ["jump", "red"], [A, 1]], []),
    "E3-106": ([["jump", "blue"], [A, 1]], [[A, 1], ["jump", "blue"], [A, 1]],
               [[A, 3], ["jump", "blue"], [A, 1]], []),
    "SE3-106": ([[A, 1], ["jump", "blue"], [A, 1]], [[A, 2], ["jump", "red"], [A, 1]],
                [[A, 4], ["jump", "blue"], [A, 1]], []),
    # --- the Siren: knock-outs by how many share a station; flees to LB when hit ---
    "SI3-105": ([["ko_alone"]], [["ko_crowded"]], [["ko_all"]],
                ["fights-back", "moves-to-lb-when-hit"]),
    # --- the Pulse Cannon Short Circuit: armour every turn; the white heavy laser's shots
    #     and its X and Y (when they find energy or a capsule) hit every zone ---
    "I3-102": ([["drain_central_attack_all", 1]], [["destroy_capsule_attack_all", 1]],
               [["attack_all", 1]], ["armour", "short-circuit"]),
    # --- the Phasing Anomaly: phasing, armour every turn; X disrupts the white optics, each Y
    #     the next zone's (red, then blue); Z knocks out both white stations, then attack 3 ---
    "SI2-101": ([["disrupt_optics"]], [["disrupt_optics"]],
                [["ko_stations", "UW", "LW"], [A, 3]], ["phasing", "armour", "disrupts-optics"]),
    # --- the Ninja: drones next to it poison whoever moves into or out of them; the poison
    #     knocks them out at its Z, or at its marker's when it was destroyed ---
    "I2-102": ([["drones"]], [["drain_own_reactor", 1]], [["rockets_explode", 2],
                                                          ["poison_strikes"]], ["poisons"]),
    # --- the Cyber Gremlin: armour every turn; sabotages the systems of its station; not
    #     destroyed, it knocks everyone out at the jump ---
    "SI3-106": ([["drain_zone_reactor_speed"]], [["sabotage"], ["move", "blue"]],
                [["sabotage"]], ["armour", "sabotages"]),
    # --- the Parasite: rides the first crew member who enters a station after it appears ---
    "SI3-107": ([["drain_host_station"]], [["ko_host_station_others"]],
                [["attack_host_zone", 5]], ["fights-back", "rides-crew"]),
    # --- the Rabid Beast: infects whoever shares its station; the infection strikes at its Z,
    #     or at its marker's when it was destroyed ---
    "SI3-101": ([["infect"], ["move", "red"], ["move", "red"]],
                [["infect"], ["change_deck"], ["move", "blue"]], [[A, 4], ["infection"]],
                ["fights-back", "infects"]),
    # --- the Breached Airlock: X seals the white-red doors, Y the white-blue ones (bits of its
    #     X/Y counter) until it is destroyed; a squad leader's repair deals 1 more ---
    "I3-104": ([["seal_doors", 1]], [["seal_doors", 2]],
               [[A, 3], ["ko_stations", "UR", "LR"]], ["seals-doors", "squad-repairs-more"]),
    # --- Reversed Shields: X makes the shields absorb nothing, Y reverses them, until it is
    #     destroyed; one lone repairer in a turn deals 1 more ---
    "I3-103": ([["shields_ineffective"]], [["shields_reversed"]], [["attack_all", 2]],
               ["reverses-shields", "lone-repairer-bonus"]),
    # --- the Driller: armour until its X, drills toward the most damaged zone ---
    "I3-107": ([["drop_armour"], ["drill"]], [["drill"]], [[A, 4]], ["armour"]),
    # --- bonus threats (docs/rules.md §19.8): a carrier brings a second card into play
    #     (release_bonus) and, destroyed before it did, takes that card along ---
    "E3-107": ([["speed", 1], ["shield_set", 3]], [["speed", 1]], [["release_bonus", 1]],
               ["bonus-internal"]),
    "SE3-104": ([["release_bonus", 0]], [["advance_internal"]], [["ko_captain"], ["delay_ship"]],
                ["bonus-internal", "out-of-reach-far"]),
    "SE3-105": ([["shield_set", 4], ["release_bonus", 0]], [["repair_externals", 1]],
                [["destroy_ship"]], ["bonus-external", "lasers-any-zone"]),
    "SI3-102": ([["drop_armour"], ["release_bonus", 0]], [["advance_zone", 2]],
                [["drain_zone_shield"], [A, 4]], ["bonus-external", "armour"]),
    "SI3-103": ([["drop_armour"], ["release_bonus", 0]], [["advance_zone", 2]],
                [["drain_zone_reactor"], [A, 4]], ["bonus-external", "armour"]),
    # --- the Super-Carrier: carrier attacks, and the lasers of every zone may target it ---
    "SE3-103": ([[A, 2]], [["attack_others", 4]], [["attack_all", 5]],
                ["carrier-attacks", "lasers-any-zone"]),
    # --- polarized (docs/rules.md §19.8): the lasers' total against it is halved ---
    "E3-109": ([[A, 1]], [[A, 2]], [[A, 4]], ["polarized"]),
    "SE3-109": ([[A, 1]], [[A, 3]], [[A, 5]], ["polarized"]),
    # --- New Frontier, two stations (docs/rules.md §19.8): the base Power System Overload's
    # bonus for hitting every station in one turn, with the base game's X and Z operations ---
    "I2-101": ([["disable_stored_squad", "LR"], ["destroy_rocket"]], [["repair", 1]],
               [["ko_stations", "LR", "LB"], ["attack_zone", "red", 3],
                ["attack_zone", "blue", 3]], ["all-stations-bonus:1"]),
    # --- New Frontier, phasing (docs/rules.md §19.8): [operation, value, value when the move
    # began phased out]; where a card prints one value both take it ---
    "E2-102": ([["attack_phasing", 1, 1]], [["attack_phasing", 2, 1]], [["attack_phasing", 3, 2]],
               ["phasing"]),
    "SE2-102": ([["attack_phasing", 2, 1]], [["attack_phasing", 3, 2]],
                [["attack_phasing", 4, 3]], ["phasing"]),
    "E3-102": ([["attack_all_phasing", 1, 0]], [["attack_all", 1]],
               [["attack_all_phasing", 3, 2]], ["phasing"]),
    "E3-103": ([["attack_phasing", 1, 1]], [["attack_phasing", 2, 1]], [["attack_phasing", 3, 2]],
               ["double-damage", "phasing"]),
    "SE3-101": ([["attack_phasing", 2, 1], ["speed", 1]], [["attack_phasing", 3, 2],
                                                           ["shield_add", 1]],
                [["attack_phasing", 5, 4]], ["phasing"]),
    "I3-105": ([["change_deck_unless_phased"]], [["move", "blue"]], [["attack_phasing", 4, 3]],
               ["fights-back", "phasing"]),
    "I3-106": ([["change_deck_unless_phased"]], [["move", "red"]], [["attack_phasing", 4, 3]],
               ["fights-back", "phasing"]),
    # --- the Phasing Mine Layer: mines in the stations it passes, exploding at its Z ---
    "SI2-102": ([["lay_mine"], ["move_phasing", "red", "blue"]], [["lay_mine"], ["change_deck"]],
                [["lay_mine"], ["mines_explode", 2]], ["fights-back", "phasing"]),
}


def _number(text: str) -> int | None:
    """Returns the leading integer of a printed value, or None for '-' and formulas."""
    match = re.match(r"-?\d+", text.strip())
    return int(match.group()) if match else None


def _dash(text: str) -> str | None:
    return None if text.strip() in ("-", "") else text.strip()


def convert(tsv: Path) -> list[dict[str, object]]:
    """Converts every row of the reference table into a card mapping."""
    cards: list[dict[str, object]] = []
    with tsv.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            card_id = row["id"]
            printed = {k: row[k] for k in ("health", "shield", "speed", "points_survived",
                                           "points_destroyed")}
            card: dict[str, object] = {
                "id": card_id,
                "name": row["name"],
                "aliases": [a.strip() for a in row["aliases"].split(";") if _dash(a)],
                "set": row["set"],
                "kind": row["kind"],
                "severity": row["severity"],
                "colour": row["colour"],
                "health": _number(printed["health"]),
                "shield": _number(printed["shield"]),
                "speed": _number(printed["speed"]),
                "points_survived": _number(printed["points_survived"]),
                "points_destroyed": _number(printed["points_destroyed"]),
                "printed": printed,
                "start_text": _dash(row["start"]),
                "x_text": _dash(row["x_action"]),
                "y_text": _dash(row["y_action"]),
                "z_text": _dash(row["z_action"]),
                "special_rules": _dash(row["special_rules"]),
                "decision_notes": _dash(row["decision_notes"]),
            }
            start = INTERNAL_START.get(card_id)
            card["stations"] = start[0] if start else []
            card["system"] = start[1] if start else None
            behaviour = BEHAVIOUR.get(card_id)
            if behaviour is None:
                card["actions"] = None
                card["abilities"] = []
            else:
                x, y, z, abilities = behaviour
                card["actions"] = {"x": x, "y": y, "z": z}
                card["abilities"] = abilities
            cards.append(card)
    return cards


def main(argv: list[str]) -> int:
    """Writes the JSON file from the table named on the command line."""
    default = Path(__file__).resolve().parents[3] / "shared" / "reference" / "threats.tsv"
    tsv = Path(argv[1]) if len(argv) > 1 else default
    cards = convert(tsv)
    missing = sorted(set(BEHAVIOUR) - {str(c["id"]) for c in cards})
    if missing:
        raise SystemExit(f"behaviour for unknown cards: {missing}")
    OUT.write_text(json.dumps({"cards": cards}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    print(f"wrote {len(cards)} cards to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
