"""Builds the engine's own setup (threats, trajectories, crew size) and adapts missions to it.

The core never sees a mission: ``setup_from_mission`` turns one (duck-typed on
``authoring.mission.model.Mission``) plus a plan's draw into a ``Setup``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from authoring.crew import FIGURES, plays_unconfirmed
from authoring.engine.errors import SetupError
from authoring.engine.rules.decks import deck_cards
from authoring.engine.rules.expansion import missing_rules
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.plan import ZONES, Plan
from authoring.engine.rules.ship import zone_of
from authoring.engine.rules.threats.cards import Card, get_card, load_cards
from authoring.engine.rules.trajectories import get_trajectory

if TYPE_CHECKING:
    from authoring.mission.model import Mission

# Appearance order inside one turn (New Frontier only; docs/rules.md §19/§20), by
# (external, serious).
_SAME_TURN_ORDER = {(False, True): 0, (False, False): 1, (True, True): 2, (True, False): 3}


#: The abilities of a card that carries a bonus threat, and the kind of card it carries
#: (docs/rules.md §19.8): internal or external.
BONUS_KINDS: Mapping[str, bool] = {"bonus-internal": False, "bonus-external": True}


def bonus_kind(card: Card) -> bool | None:
    """Returns whether the card's bonus threat is external, or None for a card without one."""
    for ability in card.abilities:
        if ability in BONUS_KINDS:
            return BONUS_KINDS[ability]
    return None


@dataclass(frozen=True)
class ThreatEvent:
    """A threat the engine plays: appearance turn, zone (or internal) and card id, and for a
    card that carries a bonus threat (docs/rules.md §19.8) the bonus card's id."""

    turn: int
    zone: str
    card: str
    bonus: str | None = None

    def __post_init__(self) -> None:
        if self.zone not in ZONES:
            raise SetupError(f"expected a zone ({', '.join(ZONES)}), got {self.zone!r}")
        if not 1 <= self.turn <= 12:
            raise SetupError(f"expected a threat turn 1..12, got {self.turn}")
        card = get_card(self.card)
        if card.external != (self.zone != "internal"):
            where = "an external zone" if card.external else "the internal track"
            raise SetupError(f"expected card {card.id} on {where}, got zone {self.zone!r}")
        if self.bonus is not None:  # none: the carrier brings nothing (docs/rules.md §19.8)
            problem = bonus_problem(card, self.bonus)
            if problem:
                raise SetupError(problem)


def bonus_problem(card: Card, bonus: str) -> str:
    """Says what is wrong with ``bonus`` as the bonus threat of ``card`` ('' when nothing):
    a carrier takes one card of its kind that the engine plays and that carries none itself
    (docs/rules.md §19.8); any other card takes none."""
    external = bonus_kind(card)
    if external is None:
        return f"expected no bonus threat for card {card.id} ({card.name}), got {bonus}"
    kind = "external" if external else "internal"
    other = load_cards().get(bonus)
    if other is None:
        return (f"unknown bonus threat card {bonus!r} for {card.id}: expected the id of a "
                "threat card")
    if not other.playable:
        return (f"bonus threat card {bonus} ({other.name}) {missing_rules(other.id)}: "
                "expected a card the engine plays")
    if other.external != external:
        return (f"bonus threat card {bonus} ({other.name}) is not {kind}: {card.id} "
                f"({card.name}) brings an {kind} threat")
    if bonus_kind(other) is not None:
        return (f"bonus threat card {bonus} ({other.name}) carries a bonus threat itself: "
                "expected a card without one")
    return ""


@dataclass(frozen=True)
class Setup:
    """Everything the Resolution Round needs besides the crew plan."""

    threats: tuple[ThreatEvent, ...]
    trajectories: Mapping[str, str]
    players: int | None = None  # None: any crew size 1..5 (engine tests)
    level: int = 4  # rule level (docs/rules.md §17); 4 is the full game
    # Double-action cards may be played (a double-action track, docs/rules.md §19).
    double_actions: bool = False

    def __post_init__(self) -> None:
        if set(self.trajectories) != set(ZONES):
            raise SetupError("expected trajectories for red, white, blue and internal, got "
                             f"{', '.join(sorted(self.trajectories))}")
        names = [get_trajectory(self.trajectories[z]).name for z in ZONES]
        if len(set(names)) != 4:
            raise SetupError(f"expected four different trajectories, got {' '.join(names)}")
        if self.players is not None and self.players not in FIGURES:
            raise SetupError(f"expected 1 to 5 players, got {self.players}")
        rules = get_level(self.level)
        for event in self.threats:
            card = get_card(event.card)
            if (card.serious and not rules.serious_threats) or (
                    not card.external and not rules.internal_threats):
                kind = "serious" if card.serious else "internal"
                raise SetupError(f"expected no {kind} threat at rule level {rules.level} "
                                 f"({rules.name}), got {card.id}")
            if event.turn > rules.turns:
                raise SetupError(f"expected threats in turns 1..{rules.turns} at rule level "
                                 f"{rules.level}, got T+{event.turn}")
        cards = [t.card.upper() for t in self.threats]
        cards += [t.bonus.upper() for t in self.threats if t.bonus]
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise SetupError(f"expected each threat card at most once, got {', '.join(twice)} "
                             "more than once")

    @cached_property
    def appearance_order(self) -> tuple[tuple[Card, int, int], ...]:
        """Returns (card, turn, zone index) of every threat in order of appearance, then the
        bonus threats of the carriers among them, in their carriers' order, with turn 0: no
        turn brings them, their carrier does (docs/rules.md §19.8). An external bonus's zone
        is its carrier's (an Overlord's) or its carrier's station's (a Hidden Transmitter's)."""
        events = self._in_order
        specs = [(get_card(e.card), e.turn, ZONES.index(e.zone)) for e in events]
        for event, (card, _, zone) in zip(events, list(specs), strict=True):
            if event.bonus:
                bonus = get_card(event.bonus)
                if not bonus.external:
                    zone = ZONES.index("internal")
                elif not card.external:
                    zone = zone_of(card.stations[0])
                specs.append((bonus, 0, zone))
        return tuple(specs)

    @cached_property
    def bonus_links(self) -> tuple[int, ...]:
        """Returns, for each threat of ``appearance_order``, the place of its bonus threat
        there, or -1 (none: no carrier, or a carrier given no bonus card, which then brings
        nothing)."""
        events = self._in_order
        links = [-1] * (len(events) + sum(1 for e in events if e.bonus))
        following = len(events)
        for n, event in enumerate(events):
            if event.bonus:
                links[n] = following
                following += 1
        return tuple(links)

    @cached_property
    def _in_order(self) -> tuple[ThreatEvent, ...]:
        def key(event: ThreatEvent) -> tuple[int, int]:
            card = get_card(event.card)
            return event.turn, _SAME_TURN_ORDER[(card.external, card.serious)]

        return tuple(sorted(self.threats, key=key))

    @cached_property
    def track_names(self) -> tuple[str, str, str, str]:
        """Returns the canonical board names for red, white, blue and internal."""
        names = [get_trajectory(self.trajectories[z]).name for z in ZONES]
        return (names[0], names[1], names[2], names[3])

    def check_crew(self, figures: int) -> None:
        """Raises ``SetupError`` when the plan's crew size does not fit the player count."""
        if self.players is None:
            if not 1 <= figures <= 5:
                raise SetupError(f"expected 1 to 5 crew members, got {figures}")
            return
        allowed = FIGURES[self.players]
        if figures not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise SetupError(f"expected {want} crew members (players and androids) for "
                             f"{self.players} players, got {figures}")


def _kind_words(serious: bool, external: bool) -> str:
    return f"{'serious ' if serious else ''}{'external' if external else 'internal'}"


def _a(words: str) -> str:
    return f"an {words}" if words[0] in "aeiou" else f"a {words}"


def pinned_card_problems(mission: Mission) -> list[tuple[int, str]]:
    """Returns ``(event index, message)`` for each pinned card the engine cannot play.

    A pinned card must exist, fit its event (external card on a zone, internal card on the
    internal track, serious exactly when the threat is) and be pinned once: each card is a
    single physical card of its deck.
    """
    cards = load_cards()
    first: dict[str, int] = {}
    found: list[tuple[int, str]] = []
    for index, event in enumerate(mission.events):
        card_id = getattr(event, "card", None)  # only threats pin cards
        if card_id is None:
            continue
        card = cards.get(card_id)
        if card is None:
            found.append((index, f"unknown threat card {card_id!r}: expected the id of a "
                                 "threat card of the base game, such as E1-07 or SI2-03"))
            continue
        if not card.playable:
            found.append((index, f"threat card {card_id} ({card.name}, New Frontier) "
                                 f"{missing_rules(card.id)}: expected a card the engine plays, "
                                 "such as E1-07 or SI2-03"))
            continue
        serious = bool(getattr(event, "serious", False))
        external = getattr(event, "zone", "") != "internal"
        if card.external != external or card.serious != serious:
            kind = _kind_words(card.serious, card.external)
            want = _kind_words(serious, external)
            found.append((index, f"card {card_id} ({card.name}) is {_a(kind)} threat: expected "
                                 f"{_a(want)} card for this event"))
        if card_id in first:
            found.append((index, f"card {card_id} ({card.name}) is pinned twice (first by "
                                 f"event {first[card_id] + 1}): each card is in its deck once"))
        else:
            first[card_id] = index
    return found


def pinned_bonus_problems(mission: Mission) -> list[tuple[int, str]]:
    """Returns ``(event index, message)`` for each ``bonus:`` the engine cannot play: a bonus
    card must suit its pinned carrier (``bonus_problem``, docs/rules.md §19.8) and, like any
    card, appear once in the mission."""
    cards = load_cards()
    seen = {t.card for t in mission.threats() if t.card}
    found: list[tuple[int, str]] = []
    for index, event in enumerate(mission.events):
        bonus = getattr(event, "bonus", None)
        carrier = cards.get(str(getattr(event, "card", "")))
        if bonus is None or carrier is None or not carrier.playable:
            continue  # no bonus, or the carrier's own problem is reported at its card
        problem = bonus_problem(carrier, bonus)
        if not problem and bonus in seen:
            problem = (f"bonus threat card {bonus} is pinned elsewhere in the mission: each "
                       "card is in its deck once")
        seen.add(bonus)
        if problem:
            found.append((index, problem))
    return found


#: Rule level of each mission profile (authoring.mission.model.PROFILES); others: full game.
PROFILE_LEVELS: Mapping[str, int] = {"test-run": 1}
#: The profiles whose crews play the expansion's double-action cards (docs/rules.md §19.1).
DOUBLE_ACTION_PROFILES: frozenset[str] = frozenset({"double-action"})


def setup_from_mission(mission: Mission, plan: Plan, *, figures: int | None = None,
                       level: int | None = None) -> Setup:
    """Builds a ``Setup`` from a mission model, the plan's draw and the crew size.

    The players are the plan's ``P`` rows (no ``P`` row: a solo game), the figures all its rows;
    the pair must be legal (docs/rules.md §16: 4 or 5 figures, 4 in solo). Unconfirmed reports are
    played as normal threats with 5 figures and ignored with fewer.
    A threat's card is, in order: the plan's draw entry, the mission's pinned card, or a card
    drawn from the mission's deck colours with a generator seeded by the plan's seed.
    Trajectories come from the plan, then the mission, then a seeded random choice.
    ``level`` defaults to the mission profile's rule level (test runs: 1, others: 4).
    """
    crew = len(plan.crew) if figures is None else figures
    # The crew is the plan's: its P rows are the players (none: a solo game of androids).
    # ``mission.players`` only says whom the mission was written for.
    players = max(1, sum(1 for member in plan.crew if not member.android))
    threats = list(mission.threats())
    if plan.draw and len(plan.draw) != len(threats):
        raise SetupError(f"expected {len(threats)} cards in the draw (one per mission threat), "
                         f"got {len(plan.draw)}")
    # A string seed is hashed with SHA-512 by ``random``: stable across runs and platforms.
    rng = random.Random(f"draw:{plan.seed}")
    decks: dict[tuple[bool, bool], list[str]] = {}
    used = ({c for c in plan.draw if c} | {t.card for t in threats if t.card}
            | {t.bonus for t in threats if getattr(t, "bonus", None)})
    expansion = bool(getattr(mission.decks, "expansion", False))
    events: list[ThreatEvent] = []
    for index, threat in enumerate(threats):
        if threat.unconfirmed and not plays_unconfirmed(crew):
            continue
        card = (plan.draw[index] if plan.draw else None) or threat.card
        if card is None:
            external = threat.zone != "internal"
            colour = mission.decks.serious if threat.serious else mission.decks.common
            key = (external, bool(threat.serious))
            if key not in decks:
                deck = [c for c in deck_cards(external, bool(threat.serious), colour, expansion)
                        if c not in used]
                rng.shuffle(deck)
                decks[key] = deck
            if not decks[key]:
                raise SetupError(f"expected a card left in the deck for the threat at "
                                 f"T+{threat.turn}, got an empty deck")
            card = decks[key].pop()
        # the mission's bonus card goes with its pinned carrier, not with a card the draw
        # puts in its place
        bonus = getattr(threat, "bonus", None) if card == threat.card else None
        events.append(ThreatEvent(int(threat.turn), str(threat.zone), card, bonus))
    events = _with_bonuses(events, mission, plan.seed, expansion)
    trajectories = plan.trajectories or getattr(mission, "trajectories", None)
    if trajectories is None:
        trajectories = dict(zip(ZONES, rng.sample([f"T{n}" for n in range(1, 8)], 4),
                                strict=True))
    profile = str(getattr(mission, "profile", ""))
    if level is None:
        level = PROFILE_LEVELS.get(profile, 4)
    setup = Setup(tuple(events), dict(trajectories), players=players, level=level,
                  double_actions=profile in DOUBLE_ACTION_PROFILES)
    setup.check_crew(crew)
    return setup


def _with_bonuses(events: list[ThreatEvent], mission: Mission, seed: int,
                  expansion: bool) -> list[ThreatEvent]:
    """Gives each carrier of a bonus threat without a pinned one a card drawn from the
    mission's common deck of the bonus's kind (docs/rules.md §19.8), with a generator of its
    own: the draws of the threats and the trajectories stay those of every other mission."""
    rng = random.Random(f"bonus:{seed}")
    used = {e.card for e in events} | {e.bonus for e in events if e.bonus}
    found: list[ThreatEvent] = []
    for event in events:
        external = bonus_kind(get_card(event.card))
        if external is None or event.bonus:
            found.append(event)
            continue
        deck = [c for c in deck_cards(external, False, str(mission.decks.common), expansion)
                if c not in used and bonus_kind(get_card(c)) is None]
        if not deck:
            kind = "external" if external else "internal"
            raise SetupError(f"expected a card left in the common {kind} deck for the bonus "
                             f"threat of {event.card} at T+{event.turn}, got an empty deck")
        bonus = rng.choice(deck)
        used.add(bonus)
        found.append(ThreatEvent(event.turn, event.zone, event.card, bonus))
    return found


def make_setup(threats: Iterable[tuple[int, str, str] | tuple[int, str, str, str]],
               trajectories: str,
               players: int | None = None, level: int = 4, *,
               double_actions: bool = False) -> Setup:
    """Builds a setup from ``(turn, zone, card)`` triples (a carrier's with its bonus card
    fourth) and ``"T1 T2 T3 T4"``."""
    names = trajectories.split()
    if len(names) != 4:
        raise SetupError(f"expected 4 trajectories (red white blue internal), got {len(names)}")
    return Setup(tuple(ThreatEvent(*threat) for threat in threats),
                 dict(zip(ZONES, names, strict=True)), players, level, double_actions)
