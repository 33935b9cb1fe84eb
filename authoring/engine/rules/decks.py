"""The threat decks a mission draws from: which cards each pile holds (docs/rules.md §19.9).

A mission's ``decks`` give a colour to its common and its serious decks (``mixed``: white and
yellow) and may shuffle the New Frontier expansion's cards in. There are four piles:
external and internal, common and serious. ``deck_cards`` lists a pile; the engine's seeded
draw (``setup.setup_from_mission``), the sheets' list of the cards that can come up and the
checks below all read it, so that they agree. ``markdown`` writes the table of docs/rules.md
§19.9; a test keeps the page in step with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring.engine.rules.threats.cards import load_cards

if TYPE_CHECKING:
    from authoring.mission.model import Mission

#: The colours a mission's decks may have, and the card colours each lets in.
COLOURS: dict[str, tuple[str, ...]] = {
    "white": ("white",), "yellow": ("yellow",), "mixed": ("white", "yellow"), "red": ("red",),
}


def deck_cards(external: bool, serious: bool, colour: str, expansion: bool = False) -> list[str]:
    """Returns the ids of the cards in one pile of a mission's decks, sorted.

    ``mixed`` is white and yellow; ``expansion`` adds the New Frontier cards of those colours
    that the engine plays (red has no others); the cards it does not play yet are left out,
    so that a drawn card is always played by the rules (docs/rules.md §19.9).
    """
    colours = COLOURS[colour]
    return sorted(
        c.id for c in load_cards().values()
        if (c.set == "base" or (expansion and c.playable))
        and c.external == external and c.serious == serious and c.colour in colours
    )


def _pile_words(external: bool, serious: bool) -> str:
    return f"{'serious' if serious else 'common'} {'external' if external else 'internal'}"


def deck_problems(mission: Mission) -> list[tuple[str, str]]:
    """Returns ``(decks key, message)`` for each pile that holds fewer cards than the mission
    draws from it: the red colour without the expansion (no base card is red), or a pile the
    engine's played cards cannot fill (docs/rules.md §19.9). Unconfirmed reports count, as
    five figures play them."""
    decks = mission.decks
    expansion = bool(getattr(decks, "expansion", False))
    pinned = {t.card for t in mission.threats() if t.card}
    wanted: dict[tuple[bool, bool], int] = {}
    for threat in mission.threats():
        if threat.card is None:
            pile = (threat.zone != "internal", bool(threat.serious))
            wanted[pile] = wanted.get(pile, 0) + 1
    found: list[tuple[str, str]] = []
    for (external, serious), count in sorted(wanted.items()):
        key = "serious" if serious else "common"
        colour = str(getattr(decks, key))
        if colour == "red" and not expansion:
            found.append((key, f"the {key} decks are red, a colour only the New Frontier "
                               "expansion's cards have: expected `expansion: true` in decks, "
                               "or white, yellow or mixed"))
            continue
        left = [c for c in deck_cards(external, serious, colour, expansion) if c not in pinned]
        if len(left) < count:
            found.append((key, f"the {_pile_words(external, serious)} deck ({colour}"
                               f"{', with the expansion' if expansion else ''}) holds "
                               f"{len(left)} card{'s' if len(left) != 1 else ''} the engine "
                               f"plays, and the mission draws {count} from it: expected "
                               "another colour or fewer such threats (docs/rules.md §19.9)"))
    return found


def markdown() -> str:
    """The table of docs/rules.md §19.9: the cards of each pile, by colour, without and with
    the expansion (the expansion's cards the engine does not play yet are left out)."""
    piles = [(True, False), (False, False), (True, True), (False, True)]
    head = " | ".join(_pile_words(e, s) for e, s in piles)
    lines = [f"| decks | {head} |", "|---|" + "---|" * len(piles)]
    for colour in COLOURS:
        for expansion in (False, True):
            if colour == "red" and not expansion:
                continue
            counts = " | ".join(str(len(deck_cards(e, s, colour, expansion))) for e, s in piles)
            label = f"{colour}{', expansion' if expansion else ''}"
            lines.append(f"| {label} | {counts} |")
    return "\n".join(lines)
