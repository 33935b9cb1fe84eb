"""The expansion's threat cards: which rules each one needs, and what the engine plays of them.

docs/rules.md §19.7 lists every mechanic the New Frontier threat cards add and the cards that
need it. A card is played when the threat data gives it actions (``Card.playable``; the
played cards and their rules are in docs/rules.md §19.8); until then a mission or plan that
names it is refused with the mechanics it is waiting for (``missing_rules``), never played
wrong. ``markdown`` writes the table of docs/rules.md §19.7, card by card where a mechanic is
played for some of its cards only; a test keeps the page in step with it.
"""

from __future__ import annotations

from collections.abc import Mapping

from authoring.engine.rules.threats.cards import load_cards

#: Each mechanic of the expansion's threat cards, in the words of docs/rules.md §19.7.
MECHANICS: Mapping[str, str] = {
    "plasmatic": "plasmatic attacks: a zone whose shield stops none of the attack has its crew "
                 "knocked out",
    "rocket-knock-off": "a rocket aimed at the threat knocks it off course (no Z attack)",
    "carrier": "carrier attacks: 2 weaker while the interceptors are out",
    "jump-hook": "an effect when the ship jumps to hyperspace",
    "finishing-energy": "the hit that would destroy it costs its zone 1 energy first",
    "presence": "moves and attacks by whether a crew member shares its station",
    "phasing": "phasing: out of reach every other turn, weaker moves while phased out",
    "megashield": "its shield drops by 1 after each damage step that targeted it",
    "damage-cap": "at most 2 damage per damage step",
    "two-stations": "a bonus hit when struck from both of its stations in one turn; stored "
                    "squads and rockets lost",
    "drones-poison": "drones in stations and poison that knocks out whoever passed them",
    "optics-armour": "disrupted optics (lasers need targeting assistance) and armour that "
                     "absorbs the first hit of each turn",
    "mines": "mines left in stations that explode at its Z",
    "jump-tracks": "jumps to the track of another zone",
    "bonus-threat": "releases a bonus threat (a second card drawn in play)",
    "energy-repair": "repairs what the shields absorbed, slows down when hit",
    "polarized": "laser strengths halved before the shield",
    "heavy-laser-immune": "heavy lasers cannot target it",
    "growing": "speeds up every turn, its attack is the health it has left",
    "any-zone": "lasers of any zone can target it",
    "forced-moves": "moves other threats and knocks out the captain",
    "fuel-and-cannon": "loses fuel capsules, strikes back when the white heavy laser fires",
    "reversed-shields": "ineffective and reversed shields",
    "doors": "sealed doors and the airlock",
    "driller": "armour that absorbs the first hit of each turn until its X; drills toward "
               "the most damaged zone",
    "infection": "infects crew members, who damage their zone later",
    "time-slip": "time slip (a card played twice) and crew members swapping zones",
    "siren": "knocks out crew members by how many share a station",
    "sabotage": "sabotages the station's systems and knocks everyone out at the jump",
    "parasite": "rides a crew member and strikes where he goes",
}

#: The mechanics each card of the expansion needs (its id in ``data/threats.json``).
CARD_MECHANICS: Mapping[str, tuple[str, ...]] = {
    "E1-101": ("plasmatic",),
    "E1-102": ("rocket-knock-off",),
    "SE1-101": ("carrier",),
    "SE1-102": ("jump-hook",),
    "I1-101": ("finishing-energy",),
    "SI1-101": ("presence",),
    "E2-101": ("carrier",),
    "E2-102": ("phasing",),
    "E2-103": ("megashield",),
    "SE2-101": ("plasmatic",),
    "SE2-102": ("phasing",),
    "SE2-103": ("damage-cap",),
    "I2-101": ("two-stations",),
    "I2-102": ("drones-poison",),
    "SI2-101": ("phasing", "optics-armour"),
    "SI2-102": ("phasing", "mines"),
    "E3-101": ("plasmatic", "heavy-laser-immune"),
    "E3-102": ("phasing",),
    "E3-103": ("phasing",),
    "E3-104": ("megashield",),
    "E3-105": ("jump-tracks",),
    "E3-106": ("jump-tracks",),
    "E3-107": ("bonus-threat",),
    "E3-108": ("energy-repair",),
    "E3-109": ("polarized",),
    "SE3-101": ("phasing",),
    "SE3-102": ("megashield",),
    "SE3-103": ("carrier", "any-zone"),
    "SE3-104": ("bonus-threat", "forced-moves"),
    "SE3-105": ("bonus-threat", "any-zone"),
    "SE3-106": ("jump-tracks",),
    "SE3-107": ("growing",),
    "SE3-108": ("energy-repair",),
    "SE3-109": ("polarized",),
    "I3-101": ("finishing-energy",),
    "I3-102": ("fuel-and-cannon",),
    "I3-103": ("reversed-shields",),
    "I3-104": ("doors",),
    "I3-105": ("phasing",),
    "I3-106": ("phasing",),
    "I3-107": ("driller",),
    "SI3-101": ("infection",),
    "SI3-102": ("bonus-threat", "forced-moves"),
    "SI3-103": ("bonus-threat", "forced-moves"),
    "SI3-104": ("time-slip", "bonus-threat"),
    "SI3-105": ("siren",),
    "SI3-106": ("sabotage", "jump-hook"),
    "SI3-107": ("parasite",),
}


def missing_rules(card_id: str) -> str:
    """Says which rules an unplayed card of the expansion waits for (docs/rules.md §19.7):
    the mechanics no played card has yet (SI2-101 phases, which is played, and waits for its
    disrupted optics and armour only).

    It takes the card's id, not the card: the native engine core passes its own compiled
    ``Card`` class, which is not this module's."""
    needs = CARD_MECHANICS.get(card_id, ())
    played = played_mechanics()
    waiting = [m for m in needs if m not in played]
    if needs and not waiting:  # e.g. I3-101: the finishing hit is played on I1-101 only
        return (f"is not played yet, though the engine plays its mechanics on other cards "
                f"({'; '.join(MECHANICS[m] for m in needs)}) (docs/rules.md §19.7)")
    if not waiting:
        return "needs rules the engine does not have (docs/rules.md §19.7)"
    rules = "a rule" if len(waiting) == 1 else "rules"
    return (f"needs {rules} the engine does not play yet: "
            f"{'; '.join(MECHANICS[m] for m in waiting)} (docs/rules.md §19.7)")


def played_mechanics() -> frozenset[str]:
    """Returns the mechanics the engine plays: those of the cards it plays (docs/rules.md
    §19.8)."""
    cards = load_cards()
    return frozenset(m for card_id, needs in CARD_MECHANICS.items() if cards[card_id].playable
                     for m in needs)


def markdown() -> str:
    """The table of docs/rules.md §19.7: each mechanic, its cards, and which are played."""
    cards = load_cards()
    lines = ["| mechanic | cards (deck) | played |", "|---|---|---|"]
    for key, text in MECHANICS.items():
        ids = [i for i, needs in CARD_MECHANICS.items() if key in needs]
        names = ", ".join(f"{i} {cards[i].name} ({cards[i].colour})" for i in ids)
        played = [i for i in ids if cards[i].playable]
        waiting = [i for i in ids if not cards[i].playable]
        if not waiting:
            status = "yes"
        elif not played:
            status = "not yet"
        else:  # a card waiting for another mechanic too (e.g. SI2-101 phases and more)
            status = f"{', '.join(played)}; not yet {', '.join(waiting)}"
        lines.append(f"| {text} | {names} | {status} |")
    return "\n".join(lines)
