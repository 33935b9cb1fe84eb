"""Action-card hands: the deck of the box, a seeded deal, and which plans a crew can play.

The rules engine resolves any plan; a table can only play the cards it holds
(docs/rules.md §16). This module deals the cards the rules deal and answers two questions
about a plan:

* ``check`` — can the crew play it from these hands? (``PlanError`` naming the first slot
  that has no card left, otherwise nothing);
* ``project`` — the closest plan that it can play: the desired plan with the slots that
  find no card made blank.

**The model.** Cards are double-sided: one card plays its movement half *or* its action half
(``data/action-cards.json``, schema ``schemas/action-cards.schema.json``); on a double-action
track the deck is the expansion's (``data/double-action-cards.json``, docs/rules.md §19.5),
whose cards play their two-action half *or* their one-action half. A player holds the
cards dealt for a phase from the moment the phase begins (phase 2's are picked up when
phase 1 ends) and keeps what is left for later phases; an *incoming data* draws one more card
for every player (with the double-action deck also the androids' draws, shared out among the
players); at a *data transfer* every player may give one non-heroic card to another
player. A card played in a phase comes from cards held in that phase; a tripped card counts as
played. An android holds only its heroic card; players play their own cards for it, so an
android's slots may take a card from any player. A heroic card is played only on its owner's
board (an android's heroic by a player for that android) and is never given.

**The matching.** Which card serves which slot is a flow problem: slot groups (row, phase,
half; a double action is one half, ``rA``) draw on card groups (holder, kind of card, the
moment it arrived), directly or through a gift (giver, transfer, half) that carries at most
one card. A gift chain (a card given on)
never helps: the first giver could have given it to the last receiver at once. A plan is
played slot by slot in turn order, each slot kept when an augmenting path finds it a card
(earlier slots may change cards on the way, never lose one); one giver's second gift in the
same transfer is refused on the way, so every plan kept this way is playable. That greedy
order can refuse a plan only a rerouting of gifts would fit; ``check`` then decides exactly by
branching over the half each giver gives (past 64 branches a plan counts as unplayable: an
unplayable plan is never let through).

**Canonical.** The network of a deal is built whole, once, in one documented order
(``_Network``), and every choice the searches make follows that order (the givers over
budget sorted, the halves branched on sorted): a projection is a function of the hands and
the plan alone, whatever was projected on the same hands before. ``authoring/engine/cores/c/
hands.c`` ports the same algorithm to C (``chands.py`` drives it; tests/engine/
test_hands_c.py compares the two on many random plans).

**Speed.** A search projects thousands of plans that differ from each other in a few cards.
A plan sharing its first turns with one laid before on the same network resumes from that
plan's state after those turns (``_greedy_by_turn``): the same searches would find the same
paths, so the result is the one laying it from turn 1 gives (a test checks this).

**Projection choice.** A slot with no card becomes a blank, not another card: a blank does
nothing (docs/rules.md §8), while a substitute would act on the ship in a way nobody planned.
The crews that plan with hands (``authoring/simulation/heuristic.py``) choose substitutes
themselves, knowing the board and the cards left.

Standard library only; randomness only through the ``random.Random`` a caller passes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from authoring.engine.errors import PlanError, SetupError
from authoring.engine.rules.plan import (
    BLANK,
    BLANK_ACTION,
    BOTS,
    DOUBLE_PAIRS,
    HMOVE,
    LIFT,
    STATIONS,
    TRIP_BIT,
    A,
    Action,
    B,
    C,
    CrewPlan,
    encode,
    parse_action,
)
from authoring.engine.rules.plan import BLUE as MOVE_BLUE
from authoring.engine.rules.plan import RED as MOVE_RED
from authoring.engine.rules.ship import TURN_PHASE

if TYPE_CHECKING:
    from authoring.mission.model import Mission

INCOMING_DATA: Final = "incoming_data"
DATA_TRANSFER: Final = "data_transfer"
DEAL: Final = "deal"
PHASES: Final = 3
_INF: Final = 1 << 20
_SINK: Final = 0
#: Branches the exact check may explore before it calls a plan unplayable (conservative): the
#: projections the crews and the solver run on every proposal (the C projection uses the same).
_BRANCH_LIMIT: Final = 64
#: Branches ``check`` may explore (``resolve --hands``: one plan, a user's): on 20,000 random
#: plans, 220 ran out of 64 branches; 10,000 decided 136 of them (55 playable), 3.5 s at worst.
CHECK_BRANCHES: Final = 10_000
#: Cards per player per phase by player count (docs/rules.md §16); +1 in phase 1 when
#: androids make a fifth figure.
_PER_PHASE: Final = {5: (4, 5, 5), 4: (5, 5, 5), 3: (6, 6, 6), 2: (9, 6, 6)}


@dataclass(frozen=True)
class Card:
    """One action card: a movement half and an action half, in plan notation.

    A double-action card (docs/rules.md §19.5) keeps its two-action half in ``action``
    (``rA``, ``AB``) and its one-action half, a move or an action, in ``move``.
    """

    move: str    # r, b, l; heroic: >UR … >LB; double-action card: its one-action half
    action: str  # A, B, C, R; heroic: A+, B+, R+; double-action card: its two-action half

    @property
    def heroic(self) -> bool:
        """Tells whether this is a gold heroic card."""
        return self.action.endswith("+")

    @property
    def double(self) -> bool:
        """Tells whether this is a double-action card of the expansion."""
        return len(self.action) == 2 and not self.heroic

    @property
    def halves(self) -> tuple[str, str]:
        """The two halves; one of them is played."""
        return self.move, self.action

    def text(self) -> str:
        """Returns ``r/A``, ``A+/>LB`` or ``rA/B``: the halves as the plan notation writes them."""
        first = self.heroic or self.double  # the side printed first: ``A+/>LB``, ``rA/B``
        return f"{self.action}/{self.move}" if first else f"{self.move}/{self.action}"

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        # pickled by its fields: the compiled class has no __dict__ and refuses setattr
        # (solve --hands hands a deal to its worker processes)
        return Card, (self.move, self.action)


@dataclass(frozen=True)
class Deck:
    """The action cards of the box: 90 ordinary (or double-action) cards and six heroic ones."""

    cards: tuple[Card, ...]
    heroics: tuple[Card, ...]


def _data(name: str) -> Any:
    text = resources.files("authoring.engine").joinpath(f"data/{name}").read_text("utf-8")
    return json.loads(text)


@cache
def load_deck(double_actions: bool = False) -> Deck:
    """Reads ``authoring/engine/data/action-cards.json`` (every card listed once); with
    ``double_actions`` the ordinary cards are the expansion's double-action deck
    (``data/double-action-cards.json``, docs/rules.md §19.5) and the heroic cards stay."""
    data = _data("action-cards.json")
    cards = tuple(Card(str(kind["move"]), str(kind["action"]))
                  for kind in data["action_cards"] for _ in range(int(kind["count"])))
    heroics = tuple(Card(str(h["move"]), str(h["action"])) for h in data["heroic_cards"])
    if double_actions:
        cards = tuple(Card(str(kind["single"]), str(kind["double"]))
                      for kind in _data("double-action-cards.json")["double_action_cards"]
                      for _ in range(int(kind["count"])))
    return Deck(cards, heroics)


@dataclass(frozen=True)
class Moment:
    """A point of the Action Round where cards change hands: a phase's deal or an event."""

    phase: int  # 1-3
    kind: str   # DEAL, INCOMING_DATA or DATA_TRANSFER

    def name(self) -> str:
        """Returns how the moment is printed: ``phase 2`` or ``incoming data (phase 1)``."""
        if self.kind == DEAL:
            return f"phase {self.phase}"
        return f"{self.kind.replace('_', ' ')} (phase {self.phase})"

    def __reduce__(self) -> tuple[type[Moment], tuple[int, str]]:
        return Moment, (self.phase, self.kind)  # as Card.__reduce__


def timeline(events: Iterable[tuple[int, str]]) -> tuple[Moment, ...]:
    """Orders the deals and the events: each phase's deal, then its events as given.

    ``events`` are ``(phase, kind)`` pairs in the mission's time order, kind
    ``incoming_data`` or ``data_transfer`` (the mission file's keys); other kinds and phases
    outside 1-3 raise ``SetupError``.
    """
    by_phase: list[list[Moment]] = [[] for _ in range(PHASES)]
    for phase, kind in events:
        if kind not in (INCOMING_DATA, DATA_TRANSFER):
            raise SetupError(f"expected an event incoming_data or data_transfer, got {kind!r}")
        if not 1 <= phase <= PHASES:
            raise SetupError(f"expected an event in phase 1 to {PHASES}, got phase {phase}")
        by_phase[phase - 1].append(Moment(phase, kind))
    return tuple(m for phase in range(1, PHASES + 1)
                 for m in (Moment(phase, DEAL), *by_phase[phase - 1]))


def mission_events(mission: Mission) -> list[tuple[int, str]]:
    """A mission's incoming data and data transfers as ``(phase, kind)`` in time order.

    The adapter from a mission (like ``setup.setup_from_mission``); a test run's phases past
    the third fold into phase 3.
    """
    from authoring.mission.model import event_key

    return [(min(PHASES, mission.phase_of(event.at)), event_key(event))
            for event in mission.events if event_key(event) in (INCOMING_DATA, DATA_TRANSFER)]


def cards_per_phase(players: int, figures: int) -> tuple[int, int, int]:
    """Ordinary cards each player is dealt in phases 1-3 (docs/rules.md §16); not for solo."""
    if players not in _PER_PHASE:
        raise SetupError(f"expected 2 to 5 players for dealt hands, got {players}")
    first, second, third = _PER_PHASE[players]
    if figures == 5 and players < 5:
        first += 1  # the players also play the fifth figure's cards
    return first, second, third


@dataclass(frozen=True)
class Hands:
    """The cards a crew was dealt: each player's cards with the moment they arrived."""

    labels: tuple[str, ...]                           # the crew, as the plan names it
    moments: tuple[Moment, ...]
    held: tuple[tuple[tuple[Card, int], ...], ...]    # per player: (card, moment index)
    heroic: tuple[Card | None, ...]                   # per crew member (None: none dealt)

    def __reduce__(self) -> tuple[type[Hands], tuple[Any, ...]]:
        return Hands, (self.labels, self.moments, self.held, self.heroic)  # as Card.__reduce__

    @property
    def players(self) -> tuple[str, ...]:
        """The labels of the players (the crew members who hold cards)."""
        return tuple(label for label in self.labels if is_player(label))

    def cards_of(self, label: str) -> list[tuple[Card, Moment]]:
        """Returns a player's cards with the moment each arrived."""
        held = self.held[self.players.index(label)]
        return [(card, self.moments[when]) for card, when in held]

    def describe(self) -> str:
        """Returns one line per crew member: the heroic card, then the cards by moment."""
        lines = []
        for index, label in enumerate(self.labels):
            parts = []
            heroic = self.heroic[index]
            if heroic is not None:
                parts.append(f"heroic {heroic.text()}")
            if is_player(label):
                for when, moment in enumerate(self.moments):
                    cards = [c.text() for c, w in self.held[self.players.index(label)]
                             if w == when]
                    if cards:
                        parts.append(f"{moment.name()}: {' '.join(cards)}")
            else:
                parts.append("plays the players' cards")
            lines.append(f"{label}: {'; '.join(parts)}")
        return "\n".join(lines) + "\n"

    def to_mapping(self) -> dict[str, Any]:
        """Returns the hands as plain data (for ``--json`` outputs)."""
        crew = []
        for index, label in enumerate(self.labels):
            heroic = self.heroic[index]
            entry: dict[str, Any] = {"label": label,
                                     "heroic": heroic.text() if heroic else None}
            if is_player(label):
                entry["cards"] = [{"card": card.text(), "phase": self.moments[when].phase,
                                   "from": self.moments[when].kind}
                                  for card, when in self.held[self.players.index(label)]]
            crew.append(entry)
        return {"crew": crew}


def is_player(label: str) -> bool:
    """Tells a player (``P1``…) from an android (``A1``…)."""
    return not label.upper().startswith("A")


def deal(labels: Sequence[str], events: Iterable[tuple[int, str]], rng: random.Random, *,
         heroics: bool = True, double_actions: bool = False) -> Hands:
    """Deals the hands for a crew (docs/rules.md §16) with the caller's seeded generator.

    ``labels`` is the crew in seat order (``P1``… players, ``A1``… androids); ``events`` the
    mission's incoming data and data transfers as ``(phase, kind)`` in time order. The deck
    is shuffled once; cards are dealt in the order the table takes them (each phase's hand,
    then that phase's incoming data, player by player); a draw from an empty deck gives
    nothing. Solo (one player): the whole deck is the player's from the start and the events
    are ignored. ``heroics=False`` (rule levels without heroic cards) deals no heroic card.
    ``double_actions`` deals the double-action deck (docs/rules.md §19.5): the same hand
    sizes, and an incoming data also draws the androids' cards, the same number for every
    player and the rest one more each for the first seats.
    """
    labels = tuple(labels)
    players = [label for label in labels if is_player(label)]
    if not players:
        raise SetupError("expected at least one player to hold the cards, got only androids")
    deck = load_deck(double_actions)
    cards = list(deck.cards)
    rng.shuffle(cards)
    gold = list(deck.heroics)
    rng.shuffle(gold)
    if heroics and len(labels) > len(gold):
        raise SetupError(f"expected at most {len(gold)} crew members for the heroic cards, "
                         f"got {len(labels)}")
    solo = len(players) == 1
    moments = timeline(() if solo else events)
    counts = (0, 0, 0) if solo else cards_per_phase(len(players), len(labels))
    held: list[list[tuple[Card, int]]] = [[] for _ in players]
    if solo:
        held[0] = [(card, 0) for card in cards]
        cards = []
    androids = len(labels) - len(players) if double_actions else 0
    for when, moment in enumerate(moments):
        for seat, hand in enumerate(held):
            take = counts[moment.phase - 1] if moment.kind == DEAL else \
                _incoming(seat, len(players), androids) if moment.kind == INCOMING_DATA else 0
            for _ in range(take):
                if cards:
                    hand.append((cards.pop(), when))
    heroic = tuple(gold[i] if heroics else None for i in range(len(labels)))
    return Hands(labels, moments, tuple(tuple(h) for h in held), heroic)


def _incoming(seat: int, players: int, androids: int) -> int:
    """The cards a player draws at an incoming data: one, and his share of the androids'
    draws (double-action deck only, docs/rules.md §19.5; the rest to the first seats)."""
    return 1 + androids // players + (seat < androids % players)


def half_of(action: Action) -> str | None:
    """Returns the card half a slot plays (``A``, ``r``, ``A+``, ``>LW`` …), None for blank."""
    kind = action.kind
    if kind == BLANK:
        return None
    if action.heroic:
        return action.token().rstrip("!")
    if action.second != BLANK:
        return _PLAIN_HALVES[kind] + _PLAIN_HALVES[action.second]
    return _PLAIN_HALVES[kind]


_PLAIN_HALVES: Final = "-rblABCR"  # by action kind, as Action.token writes them


HALVES: Final = ("r", "b", "l", "A", "B", "C", "R")


def halves_of(hands: Hands) -> tuple[str, ...]:
    """The halves the network of a deal knows: ``HALVES``, then the two-action halves that
    a dealt card has, in ``plan.DOUBLE_PAIRS`` order (none in a base-game deal)."""
    dealt = {card.action for held in hands.held for card, _ in held if card.double}
    return HALVES + tuple(pair for pair in DOUBLE_PAIRS if pair in dealt)


class _Network:
    """The flow network of one deal, shared by every ``Matcher`` of it, built whole at once.

    Node 0 is the sink. A card group (holder, card, moment) drains into the sink with its
    count; a slot group (row key, phase, half) reaches the card groups it may use, and a
    player's slot group also the gift nodes of the other players' transfers; a gift
    (giver, transfer, half) is a capacity-1 edge from its inlet to its outlet, which reaches
    the giver's cards held before the transfer.

    The network is a function of the hands alone, built in one fixed order, because the
    breadth-first search meets a node's edges in the order they were made (and, when gifts
    compete, that order decides which slot a projection blanks): so a plan projects the same
    whatever was projected before. The order (``authoring/engine/cores/c/hands.c`` builds the same
    network, node for node and edge for edge):

    1. the card groups in the order their first card is held (holder by holder, each
       player's cards as dealt), each with its edge into the sink;
    2. the slot groups, row key by row key (the player seats, then -1 for the androids when
       the crew has any), within it phase 1-3, within it the halves in ``halves_of`` order, each
       with its edges to the card groups in the order of 1;
    3. the gifts, giver by giver, within it transfer by transfer (time order), within it the
       halves in ``halves_of`` order: the inlet, the outlet, the capacity-1 edge, then the
       outlet's edges to the giver's card groups in the order of 1;
    4. the players' slot groups' edges to the gift inlets, slot group by slot group in the
       order of 2, within it transfer by transfer, within it giver by giver (nobody gives to
       an android: its players play for it).
    """

    def __init__(self, hands: Hands) -> None:
        self.to: list[int] = []
        self.cap: list[int] = []
        self.is_gift = bytearray()  # per edge: 1 for a gift's capacity-1 edge (a fast test)
        self.adj: list[list[int]] = [[]]
        moments = hands.moments
        givers = len(hands.held)
        counts: dict[tuple[int, Card, int], int] = {}
        for holder, cards in enumerate(hands.held):
            for card, when in cards:
                counts[holder, card, when] = counts.get((holder, card, when), 0) + 1
        self.drain: dict[int, int] = {}  # card group -> its edge into the sink
        # per half: the card groups (holder, moment, node) whose cards have it
        self.halves = halves = halves_of(hands)
        by_half: dict[str, list[tuple[int, int, int]]] = {half: [] for half in halves}
        for (holder, card, when), count in counts.items():
            node = self._node()
            self.drain[node] = self._edge(node, _SINK, count)
            for half in card.halves:
                by_half[half].append((holder, when, node))
        # the row keys a Matcher gives its crew: the player seats, -1 for any android
        keys = list(range(len(hands.players)))
        keys += [-1] if len(keys) < len(hands.labels) else []
        self.slots: dict[tuple[int, int, str], int] = {}
        for key in keys:
            for phase in range(1, PHASES + 1):
                for half in halves:
                    node = self.slots[key, phase, half] = self._node()
                    for holder, when, group in by_half[half]:
                        if moments[when].phase <= phase and key in (holder, -1):
                            self._edge(node, group, _INF)
        transfers = [when for when, m in enumerate(moments) if m.kind == DATA_TRANSFER]
        self.gifts: dict[tuple[int, int, str], int] = {}   # -> the gift's capacity-1 edge
        self.gift_key: dict[int, tuple[int, int]] = {}     # that edge -> (giver, moment)
        for giver in range(givers):
            for when in transfers:
                for half in halves:
                    inlet, outlet = self._node(), self._node()
                    edge = self._edge(inlet, outlet, 1)
                    self.gifts[giver, when, half] = edge
                    self.gift_key[edge] = (giver, when)
                    self.is_gift[edge] = 1
                    for holder, arrived, group in by_half[half]:
                        if holder == giver and arrived < when:
                            self._edge(outlet, group, _INF)
        for (key, phase, half), node in self.slots.items():
            if key < 0:
                continue
            for when in transfers:
                if moments[when].phase <= phase:
                    for giver in range(givers):
                        if giver != key:
                            self._edge(node, self.to[self.gifts[giver, when, half] ^ 1],
                                       _INF)
        self.laid: list[_Laid] = []  # recent plans laid on this network (``_greedy_by_turn``)

    def _node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def _edge(self, head: int, tail: int, capacity: int) -> int:
        self.to += [tail, head]
        self.cap += [capacity, 0]
        self.is_gift += b"\0\0"
        self.adj[head].append(len(self.to) - 2)
        self.adj[tail].append(len(self.to) - 1)
        return len(self.to) - 2


_NETWORKS: dict[int, tuple[Hands, _Network]] = {}


def _network(hands: Hands) -> _Network:
    """The deal's network, built once per ``Hands`` object (by identity: hashing a whole
    deal cost more than a projection's search)."""
    kept = _NETWORKS.get(id(hands))
    if kept is not None and kept[0] is hands:
        return kept[1]
    if len(_NETWORKS) >= 8:
        _NETWORKS.clear()
    network = _Network(hands)
    _NETWORKS[id(hands)] = (hands, network)
    return network


class Matcher:
    """Plays a plan's slots one at a time against the hands (see the module docstring)."""

    def __init__(self, hands: Hands, labels: Sequence[str]) -> None:
        if tuple(labels) != hands.labels:
            raise PlanError(f"expected the crew the hands were dealt to "
                            f"({' '.join(hands.labels)}), got {' '.join(labels)}")
        self.hands = hands
        self.labels = tuple(labels)
        seat = {label: i for i, label in enumerate(hands.players)}
        # the row key of a crew member: its player seat, or -1 for any android (pooled)
        self.row_key = [seat.get(label, -1) for label in labels]
        self.network = network = _network(hands)
        self.to, self.adj, self.slots = network.to, network.adj, network.slots  # shared
        self.drain = network.drain
        self.gifts, self.gift_key = network.gifts, network.gift_key
        self.cap = list(network.cap)
        self.budget: dict[tuple[int, int], int] = {}       # gifts in use per giver, moment
        self.heroic_used = [False] * len(self.labels)
        self.forbid: dict[tuple[int, int], str] = {}       # exact check: the one half given
        self.refused_gift = False  # a search met a giver's second gift in one transfer
        #: what the kept slots changed, in order: a path's edges, or a member's heroic card
        self.log: list[list[int] | int] = []

    def _blocked(self, edge: int, budgeted: bool) -> bool:
        """Tells whether a path may not use this gift (another half is given, or none)."""
        key = self.gift_key.get(edge)
        if key is None:
            return False
        allowed = self.forbid.get(key)
        if allowed is not None and self.gifts.get((*key, allowed)) != edge:
            return True
        if budgeted and self.budget.get(key, 0) >= 1:
            self.refused_gift = True
            return True
        return False

    def _path(self, start: int, budgeted: bool) -> list[int] | None:
        """Finds a residual path from a slot group to the sink (breadth first)."""
        to, cap, adj, is_gift = self.to, self.cap, self.adj, self.network.is_gift
        came = [-2] * len(adj)  # per node: the edge it was reached by (-2: not yet)
        came[start] = -1
        queue = [start]
        for node in queue:  # the list grows behind the loop: breadth first
            for edge in adj[node]:
                tail = to[edge]
                if cap[edge] <= 0 or came[tail] != -2:
                    continue
                if is_gift[edge] and self._blocked(edge, budgeted):
                    continue
                came[tail] = edge
                if tail == _SINK:
                    path = []
                    while tail != start:
                        edge = came[tail]
                        path.append(edge)
                        tail = to[edge ^ 1]
                    return path
                queue.append(tail)
        return None

    def _push(self, path: list[int], amount: int) -> None:
        cap, is_gift = self.cap, self.network.is_gift
        for edge in path:
            cap[edge] -= amount
            cap[edge ^ 1] += amount
            if is_gift[edge] or is_gift[edge ^ 1]:
                for gift in (edge, edge ^ 1):
                    key = self.gift_key.get(gift)
                    if key is not None:
                        # the gift edge itself carries one unit when its capacity is used up
                        self.budget[key] = self.budget.get(key, 0) + (
                            amount if gift == edge else -amount)

    def place(self, member: int, turn: int, action: Action, *, commit: bool = True,
              budgeted: bool = True) -> bool:
        """Finds a card for ``action`` in crew member ``member``'s slot of ``turn``.

        Keeps it (``commit``) or only tells whether it would fit. A blank always fits.
        """
        half = half_of(action)
        if half is None:
            return True
        if action.heroic:
            card = self.hands.heroic[member]
            fits = card is not None and half in card.halves and not self.heroic_used[member]
            if fits and commit:
                self.heroic_used[member] = True
                self.log.append(member)
            return fits
        node = self.slots.get((self.row_key[member], TURN_PHASE[turn] + 1, half))
        if node is None:
            return False  # a two-action half no dealt card has
        cap, to, drain = self.cap, self.to, self.drain
        # a free card of the slot's own: the common case needs no search, and a table plays
        # its own cards before asking for a gift
        for edge in self.adj[node]:
            out = drain.get(to[edge])
            if out is not None and cap[edge] > 0 and cap[out] > 0:
                if commit:  # a card and the sink: no gift on the way
                    cap[edge] -= 1
                    cap[edge ^ 1] += 1
                    cap[out] -= 1
                    cap[out ^ 1] += 1
                    self.log.append([edge, out])
                return True
        path = self._path(node, budgeted)
        if path is None:
            return False
        if commit:
            self._push(path, 1)
            self.log.append(path)
        return True

    def replay(self, log: Sequence[list[int] | int]) -> None:
        """Keeps the slots another matcher of the same network kept (its ``log``)."""
        for entry in log:
            if isinstance(entry, int):
                self.heroic_used[entry] = True
            else:
                self._push(entry, 1)
            self.log.append(entry)

    def over_budget(self) -> list[tuple[int, int]]:
        """Returns the (giver, transfer) pairs giving more than one card (relaxed plays)."""
        used: dict[tuple[int, int], set[str]] = {}
        for (giver, when, half), edge in self.gifts.items():
            if self.cap[edge] == 0:
                used.setdefault((giver, when), set()).add(half)
        # sorted: the exact check branches on the first, whatever order the gifts were used in
        return sorted(key for key, halves in used.items() if len(halves) > 1)


def _slots(crew: Sequence[CrewPlan], first: Collection[int] = (),
           prefer: Collection[tuple[int, int]] = ()) -> list[tuple[int, int, Action]]:
    """The plan's cards in the order a crew lays them: turn by turn, in seat order.

    The rows ``first`` (a solver's fixed crew members) are laid before all others, then the
    slots ``prefer`` (member, turn), then the rest.
    """
    order = [(member not in first, (member, turn) not in prefer, turn, member)
             for member, row in enumerate(crew) for turn in range(1, len(row.actions) + 1)
             if not row.actions[turn - 1].is_blank]
    return [(member, turn, crew[member].actions[turn - 1])
            for _, _, turn, member in sorted(order)]


def _greedy(hands: Hands, crew: Sequence[CrewPlan], first: Collection[int] = (),
            prefer: Collection[tuple[int, int]] = ()
            ) -> tuple[list[tuple[int, int, Action]], bool]:
    """Plays the plan slot by slot; returns the slots that found no card, and whether a
    giver's second gift was refused before the first of them (on the whole way if none).

    Until such a refusal the searches are those of a maximum flow with unlimited gifts
    (every slot group may reroute through gifts, and a slot that finds no path never finds
    one later), so a slot missed before any refusal proves the plan unplayable without the
    exact check: even unlimited gifts leave it without a card.
    """
    matcher = Matcher(hands, [row.label for row in crew])
    if not (first or prefer):
        return _greedy_by_turn(matcher, crew)
    missed: list[tuple[int, int, Action]] = []
    refused = False
    for slot in _slots(crew, first, prefer):
        if not matcher.place(*slot):
            if not missed:
                refused = matcher.refused_gift
            missed.append(slot)
    return missed, refused if missed else matcher.refused_gift


@dataclass
class _Laid:
    """A plan played turn by turn: enough to resume another plan with the same first turns.

    ``marks[t]`` is (log length, missed count, refusal seen) once turns 1 … t+1 are laid;
    ``first_refused`` whether a refusal came before the first missed slot. The network
    never changes, so laying the same first turns again would take the very same paths.
    """

    columns: list[tuple[Action, ...]]
    log: list[list[int] | int]
    missed: list[tuple[int, int, Action]]
    marks: list[tuple[int, int, bool]]
    first_refused: bool


#: Plans laid per network, newest last: a search rates neighbours of one plan, which share
#: its first turns, so most of a neighbour's slots are laid as before.
_LAID_KEPT: Final = 8


def _greedy_by_turn(matcher: Matcher, crew: Sequence[CrewPlan]
                    ) -> tuple[list[tuple[int, int, Action]], bool]:
    """``_greedy`` in turn order, resumed after the longest run of first turns that a plan
    laid before on the same network shares (the same result as laying it from turn 1)."""
    network = matcher.network
    turns = max((len(row.actions) for row in crew), default=0)
    columns = [tuple(row.actions[t] if t < len(row.actions) else BLANK_ACTION for row in crew)
               for t in range(turns)]
    laid = network.laid
    resume, base = 0, None
    for record in laid:
        limit = min(len(record.marks), turns)
        same = 0
        while same < limit and record.columns[same] == columns[same]:
            same += 1
        if same > resume:
            resume, base = same, record
    missed: list[tuple[int, int, Action]] = []
    marks: list[tuple[int, int, bool]] = []
    first_refused = False
    if base is not None:
        logged, count, refused = base.marks[resume - 1]
        matcher.replay(base.log[:logged])
        missed = base.missed[:count]
        matcher.refused_gift = refused
        marks = base.marks[:resume]
        first_refused = base.first_refused if count else False  # its first miss is ours
    place = matcher.place
    for turn in range(resume + 1, turns + 1):
        for member, action in enumerate(columns[turn - 1]):
            if action.kind != BLANK and not place(member, turn, action):
                if not missed:
                    first_refused = matcher.refused_gift
                missed.append((member, turn, action))
        marks.append((len(matcher.log), len(missed), matcher.refused_gift))
    if len(laid) >= _LAID_KEPT:
        del laid[0]
    laid.append(_Laid(columns, matcher.log, missed, marks, first_refused))
    return list(missed), first_refused if missed else matcher.refused_gift


def _exact(hands: Hands, crew: Sequence[CrewPlan], forbid: dict[tuple[int, int], str],
           budget: list[int]) -> bool:
    """Decides exactly whether the whole plan fits, branching on each giver's one gift."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    matcher = Matcher(hands, [row.label for row in crew])
    matcher.forbid = dict(forbid)
    for slot in _slots(crew):
        if not matcher.place(*slot, budgeted=False):
            return False  # even unlimited gifts (within the restrictions) do not fit
    over = matcher.over_budget()
    if not over:
        return True
    key = over[0]
    # the one half this giver gives in this transfer (or none): any half the plan plays
    # that a dealt card has
    known = set(halves_of(hands))
    halves = sorted({half for _, _, action in _slots(crew)
                     if not action.heroic and (half := half_of(action) or "") in known})
    return any(_exact(hands, crew, {**forbid, key: half}, budget) for half in ["", *halves])


def check(hands: Hands, crew: Sequence[CrewPlan], branches: int = CHECK_BRANCHES) -> None:
    """Raises ``PlanError`` when the crew cannot play the plan from the hands, or when the
    exact check of the gifts gives up after ``branches`` branches (the message says so)."""
    missed, refused = _greedy(hands, crew)
    budget = [branches]
    if not missed or (refused and _exact(hands, crew, {}, budget)):
        return
    if budget[0] < 0:
        raise PlanError("cannot tell whether the crew can play the plan from the hands: the "
                        f"check of which cards the data transfers pass gave up after {branches} "
                        "branches (docs/rules.md §16.1)")
    member, turn, action = missed[0]
    label = crew[member].label
    half = half_of(action)
    if action.heroic:
        card = hands.heroic[member]
        have = f"{label}'s heroic card is {card.text()}" if card else "no heroic cards are dealt"
        raise PlanError(f"{label} cannot play {half} in turn {turn}: {have}, played at most "
                        "once (docs/rules.md §9)")
    phase = TURN_PHASE[turn] + 1
    raise PlanError(f"{label} cannot play {half} in turn {turn}: no card with {half} is left "
                    f"in the hands held in phase {phase} (docs/rules.md §16)")


def playable(hands: Hands, crew: Sequence[CrewPlan]) -> bool:
    """Tells whether the crew can play the plan from the hands, as ``project`` decides it
    (the crews' conservative limit of branches: a plan this calls unplayable may be one
    ``check``, searching longer, accepts)."""
    try:
        check(hands, crew, _BRANCH_LIMIT)
    except PlanError:
        return False
    return True


def project(hands: Hands, crew: Sequence[CrewPlan], first: Collection[int] = (),
            prefer: Collection[tuple[int, int]] = ()) -> tuple[CrewPlan, ...]:
    """Returns the closest plan the crew can play: unplayable slots made blank.

    A playable plan comes back unchanged. Otherwise the slots are played in turn order
    (seat order within a turn) and each keeps its card when one can still be found, so
    the earliest cards of the plan are the ones kept; the rows ``first`` are served first,
    then the slots ``prefer`` (member, turn) — a local search keeps the cards of the plan it
    changed and drops the new card that does not fit, rather than a later one.
    """
    crew = tuple(crew)
    missed, refused = _greedy(hands, crew, first, prefer)
    if not missed or (refused and _exact(hands, crew, {}, [_BRANCH_LIMIT])):
        return crew
    if first or prefer:
        # laid in another order than ``check``'s, a missed slot proves nothing (the proof holds
        # in turn order only) and the exact check can run out of branches on a plan that turn
        # order lays at once: 4 % of the playable plans a search of double-action easier 1
        # proposed came back blanked (tests/engine/test_hands.py). So the plan is laid as
        # ``check`` lays it; the exact check is the same call in either order, so it is not
        # run again where it has failed.
        in_order, refused_in_order = _greedy(hands, crew)
        if not in_order or (refused_in_order and not refused
                            and _exact(hands, crew, {}, [_BRANCH_LIMIT])):
            return crew
    blank = {(member, turn) for member, turn, _ in missed}
    return tuple(CrewPlan(row.label, tuple(
        Action() if (member, turn) in blank else action
        for turn, action in enumerate(row.actions, 1))) for member, row in enumerate(crew))


@cache
def decoded_actions() -> dict[int, Action]:
    """Every slot's small integer (``plan.encode``) with the action it stands for."""
    actions = [Action(kind) for kind in (BLANK, MOVE_RED, MOVE_BLUE, LIFT, A, B, C, BOTS)]
    actions += [parse_action(pair) for pair in DOUBLE_PAIRS]
    actions += [Action(kind, heroic=True) for kind in (A, B, BOTS)]
    actions += [Action(HMOVE, heroic=True, target=t) for t in range(len(STATIONS))]
    decoded = {encode(a): a for a in actions}
    for code, action in list(decoded.items()):
        if action.kind != BLANK:
            decoded[code | TRIP_BIT] = Action(action.kind, action.heroic, action.target, True,
                                              action.second)
    return decoded


def decode_rows(hands: Hands, rows: Sequence[Sequence[int]]) -> tuple[CrewPlan, ...]:
    """The crew plan of rows encoded as the engine's small integers (the solver's form)."""
    decoded = decoded_actions()
    return tuple(CrewPlan(label, tuple(decoded[code] for code in row))
                 for label, row in zip(hands.labels, rows, strict=True))


def project_codes(hands: Hands, rows: Sequence[Sequence[int]], first: Collection[int] = (),
                  prefer: Collection[tuple[int, int]] = ()) -> list[list[int]]:
    """``project`` for plans encoded as the engine's small integers (the solver's form)."""
    crew = decode_rows(hands, rows)
    projected = project(hands, crew, first, prefer)
    if projected is crew:
        return [list(row) for row in rows]
    return [[encode(a) for a in row.actions] for row in projected]
