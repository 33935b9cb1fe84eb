"""The heuristic crew: roles and simple rules applied to the board as it will be.

A competent table plans each turn by picturing the board: where each threat will be, how
much health it has left, how much energy sits in each reactor and shield. The heuristic crew
does the same with the engine: it steps the Resolution Round one turn at a time, looks at
the state, and writes each crew member's action for that turn by these rules, in order:

1. **computer** — in the first two turns of a phase, until the phase is maintained, the crew
   member at upper white (or the captain, walking there) plays C;
2. **internal threats** — the nearest free crew member walks to each active malfunction and
   hits it with the matching letter; intruders are fought with battlebots (picked up with C
   at upper blue or lower red first);
3. **guns** — the crew member at a heavy laser fires while a threat of that zone is on its
   track and the reactor has energy; light lasers fire freely; the pulse cannon fires when a
   threat is within distance 2; lower blue launches a rocket at a big threat in range;
4. **energy** — idle upper stations fill their shield, lower red/blue refill their reactor
   from the central one, lower white burns a fuel capsule when the central reactor runs low;
5. **posts** — everyone else walks to a home post (5 figures: upper white, upper red, upper
   blue, lower red, lower blue; 4 figures: the last one at lower white); in the last three
   turns idle crew members do visual confirmation at lower white.

No heroic actions and no tripping. With ``hands`` (the action cards dealt by
``authoring/engine/rules/hands.py``, docs/rules.md §16)
every card the crew lays must come from them:
a walk takes its lift first when the card for the deck move is missing, and a slot that finds
no card stays blank; the next turns are then planned from where the figure really stands, with
the cards that are left. The plan is then fixed: the real resolution uses another
damage-token draw, so the plan meets surprises as a table's would. ``Style`` holds the knobs
of these rules (responder preferences, shields, refuelling, rockets, pulse cannon, posts);
the heuristic crew uses the default style, the planning crew searches over styles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from authoring.engine import Plan, make_crew_plan
from authoring.engine.cores import hands_module
from authoring.engine.rules import ship
from authoring.engine.rules.game import Game, ShipDestroyed, initial_state
from authoring.engine.rules.hands import Hands, Matcher
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.plan import DOUBLE_PAIRS, encode
from authoring.engine.rules.setup import Setup
from authoring.engine.rules.ship import SPACE, SQUAD_STATIONS
from authoring.engine.rules.state import ACTIVE_THREAT, PENDING, State, ThreatState
from authoring.engine.rules.trajectories import DISTANCE, TRAJECTORIES
from authoring.simulation.dealing import action_of

if TYPE_CHECKING:
    from authoring.simulation.horizon import Playable

SLOTS = 12
UR, UW, UB, LR, LW, LB = range(6)
ACTIVE_SQUAD, DISABLED_SQUAD = 1, 2
HOME_5 = (UW, UR, UB, LR, LB)
HOME_4 = (UW, UR, UB, LW)
COMPUTER_TURNS = (1, 2, 4, 5, 8, 9)


_PAIRS = frozenset(DOUBLE_PAIRS)


def nearest(start: int, stations: Sequence[int]) -> int:
    """Returns the station of ``stations`` with the shortest path from ``start``."""
    return min(stations, key=lambda station: len(path(start, station)))


def path(start: int, goal: int) -> list[str]:
    """Returns the moves from station ``start`` to ``goal`` (along the deck, then the lift)."""
    moves: list[str] = []
    zone, deck = start % 3, start // 3
    goal_zone, goal_deck = goal % 3, goal // 3
    while zone != goal_zone:
        moves.append("r" if goal_zone < zone else "b")
        zone += -1 if goal_zone < zone else 1
    if deck != goal_deck:
        moves.append("l")
    return moves


@dataclass
class _View:
    """The board as the crew pictures it at the start of a turn."""

    state: State
    turn: int
    game: Game

    def present(self, th: ThreatState) -> bool:
        return th.status == ACTIVE_THREAT or (th.status == PENDING and th.token == self.turn)

    def square(self, th: ThreatState) -> int:
        if th.status == PENDING:
            return TRAJECTORIES[self.state.tracks[th.zone]].length
        return th.square

    def distance(self, th: ThreatState) -> int:
        square = self.square(th)
        return DISTANCE[square] if square < len(DISTANCE) else 3

    def left(self, th: ThreatState) -> int:
        return max(0, th.health - th.damage)


@dataclass(frozen=True)
class Style:
    """The knobs of the rules: who answers internal threats, how energy is used.

    The default is the table described in the module docstring; the planning crew tries
    other styles on each draw and keeps the best one as the start of its search.
    """

    #: Preference of each crew member as internal responder (lower answers first).
    ranks: tuple[int, ...] = (0, 4, 4, 1, 1)
    #: Extra cost of pulling a crew member away from a gun that has a target.
    busy_penalty: int = 4
    #: Whether idle upper stations fill their shields.
    fill_shields: bool = True
    #: Central-reactor energy at or below which someone goes to burn a fuel capsule.
    refuel_at: int = 1
    #: Smallest health left for lower blue to launch a rocket.
    rocket_health: int = 3
    #: Whether the pulse cannon fires at threats within distance 2.
    pulse: bool = True
    #: The home post of each crew member, by station (5 figures).
    homes: tuple[int, ...] = HOME_5


def styles(rng: random.Random, count: int) -> list[Style]:
    """Returns the default style and ``count - 1`` random variations of it."""
    out = [Style()]
    for _ in range(count - 1):
        ranks = [rng.randrange(6) for _ in range(5)]
        homes = list(HOME_5)
        if rng.random() < 0.3:
            i, j = rng.sample(range(1, 5), 2)
            homes[i], homes[j] = homes[j], homes[i]
        out.append(Style(tuple(ranks), rng.choice((0, 2, 4, 8)), rng.random() < 0.6,
                         rng.choice((0, 1, 2)), rng.choice((2, 3, 4)), rng.random() < 0.7,
                         tuple(homes)))
    return out


class HeuristicCrew:
    """Plans a mission turn by turn with the rules of the module docstring."""

    name = "heuristic"
    omniscient = False
    builds_on = None

    def __init__(self, look_seed: int = 0, style: Style | None = None) -> None:
        self.look_seed = look_seed
        self.style = style or Style()
        self._cards: Matcher | None = None

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             playable: Playable | None = None, damage_seed: int | None = None,
             hands: Hands | None = None) -> Plan:
        """Returns a plan for ``figures`` crew members knowing the threats of ``setup``.

        Slots before ``first_turn`` are taken from ``fixed`` (one token list per figure).
        The rules look at the board only (``damage_seed`` is not used); ``playable`` is
        applied by the phase-by-phase driver (authoring/simulation/horizon.py). With
        ``hands`` (dealt to the crew, one member per figure) every card is laid from them as it
        is chosen.
        """
        tokens = [["-"] * SLOTS for _ in range(figures)]
        for member, locked in enumerate(fixed[:figures]):
            for index, token in enumerate(locked[: first_turn - 1]):
                tokens[member][index] = token
        blank = Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(figures)))
        # the hands' crew may seat androids (dealing.crew_labels): row i is its member i
        self._cards = None if hands is None else hands_module().Matcher(hands, hands.labels)
        state = initial_state(setup, blank)
        game = Game(state, random.Random(f"look:{seed}:{self.look_seed}"), record=False)
        homes = self.style.homes if figures >= 5 else HOME_4
        self._assigned: dict[int, int] = {}  # internal threat (id) -> its responder
        try:
            # rule level 1 (test runs) plays fewer turns: later slots must stay blank
            for turn in range(1, min(SLOTS, get_level(setup.level).turns) + 1):
                if turn >= first_turn:
                    chosen = self._turn(_View(state, turn, game), homes)
                    if setup.double_actions:
                        chosen = self._second_halves(_View(state, turn, game), homes, chosen)
                    for member, token in enumerate(chosen):
                        tokens[member][turn - 1] = token
                if self._cards is not None:  # lay the turn's cards; a slot with none stays blank
                    for member, row in enumerate(tokens):
                        if not self._cards.place(member, turn, action_of(row[turn - 1])):
                            # a double action with no card left: its first half alone, if
                            # a card has it (docs/rules.md §19.5)
                            first = row[turn - 1][0] if row[turn - 1] in _PAIRS else "-"
                            fits = first != "-" and self._cards.place(member, turn,
                                                                       action_of(first))
                            row[turn - 1] = first if fits else "-"
                for row, figure in zip(tokens, state.crew, strict=True):
                    figure.slots[turn - 1] = encode(action_of(row[turn - 1]))
                game.play_turn(turn)
        except ShipDestroyed:
            pass  # the rest of the plan stays blank: the crew saw no way out
        return Plan(tuple(make_crew_plan(f"P{i + 1}", t) for i, t in enumerate(tokens)))

    def _second_halves(self, view: _View, homes: Sequence[int],
                       first: Sequence[str]) -> list[str]:
        """Adds a second half to each card where the deck has the pair: the rules are asked
        again with every crew member where his first half takes him (a walk goes on, or the
        member acts at the post he reaches). The board is the turn's start, so a second half
        may find a reactor the first emptied: the pair then does what the rules allow."""
        crew = view.state.crew
        where = [m.station for m in crew]
        for member, token in zip(crew, first, strict=True):
            if member.station != SPACE and not member.out and token in ("r", "b", "l"):
                member.station = (ship.other_deck(member.station) if token == "l" else
                                  ship.neighbour(member.station, -1 if token == "r" else 1))
        try:
            second = self._turn(view, homes)
        finally:
            for member, station in zip(crew, where, strict=True):
                member.station = station
        out = []
        for one, two in zip(first, second, strict=True):
            pair = one + two
            out.append(pair if pair in _PAIRS else one)
        return out

    def _turn(self, view: _View, homes: Sequence[int]) -> list[str]:
        st = view.state
        turn = view.turn
        crew = st.crew
        pos = [UR if m.station == SPACE else m.station for m in crew]
        choice: list[str | None] = [None if not m.out else "-" for m in crew]
        lifts: set[int] = set()

        def free() -> list[int]:
            return [i for i, c in enumerate(choice) if c is None]

        def go(member: int, goal: int) -> str:
            steps = path(pos[member], goal)
            if not steps:
                return "-"
            step = steps[0]
            if self._cards is not None:
                # the lift can come first or last on the way: take the step a card is left for
                step = next((s for s in dict.fromkeys(steps) if self._cards.place(
                    member, turn, action_of(s), commit=False)), step)
            if step == "l":
                lifts.add(pos[member] % 3)
            return step

        threats = [th for th in st.threats if view.present(th) and view.left(th) > 0]
        external = [th for th in threats if th.card.external]
        internal = [th for th in threats if not th.card.external]
        phase = 0 if turn <= 3 else 1 if turn <= 7 else 2

        def gunning(member: int) -> int:
            """Penalty for pulling a crew member away from a gun that has a target."""
            home = homes[member] if member < len(homes) else UW
            ranks = self.style.ranks
            rank = ranks[member] if member < len(ranks) else 4
            busy = any(th.zone == home % 3 for th in external)
            return rank + (self.style.busy_penalty if busy else 0)

        # 1. computer maintenance
        if turn in COMPUTER_TURNS and not st.maintained[phase]:
            at_uw = [i for i in free() if pos[i] == UW]
            if at_uw:
                choice[at_uw[0]] = "C"
            elif choice[0] is None:
                choice[0] = go(0, UW)

        # 2. internal threats: a responder keeps its threat; new ones go to the nearest
        # free crew member, engineers before the captain before the gunners
        for th in sorted(internal, key=lambda t: t.token):
            candidates = free()
            if not candidates or not th.stations:
                continue
            keeper = self._assigned.get(id(th))
            if keeper is not None and keeper in candidates and not crew[keeper].out:
                candidates = [keeper]
            system = th.card.system or "A"
            if system in ("A", "B", "C"):
                goal_of = {i: nearest(pos[i], th.stations) for i in candidates}
                member = min(candidates, key=lambda i: (len(path(pos[i], goal_of[i]))
                                                        + gunning(i), i))
                self._assigned[id(th)] = member
                goal = goal_of[member]
                choice[member] = system if pos[member] == goal else go(member, goal)
                continue
            goal = th.stations[0]
            leaders = [i for i in candidates if crew[i].squad == ACTIVE_SQUAD]
            if leaders:
                member = min(leaders, key=lambda i: (len(path(pos[i], goal)) + gunning(i), i))
                self._assigned[id(th)] = member
                choice[member] = "R" if pos[member] == goal else go(member, goal)
                continue
            squads = [SQUAD_STATIONS[k] for k in (0, 1) if st.stored[k] == ACTIVE_SQUAD]
            disabled = [i for i in candidates if crew[i].squad == DISABLED_SQUAD]
            if disabled:
                member = disabled[0]
                self._assigned[id(th)] = member
                station = min(SQUAD_STATIONS, key=lambda s: len(path(pos[member], s)))
                choice[member] = "C" if pos[member] == station else go(member, station)
            elif squads:
                member = min(candidates, key=lambda i: (min(len(path(pos[i], s))
                                                             for s in squads) + gunning(i), i))
                self._assigned[id(th)] = member
                station = min(squads, key=lambda s: len(path(pos[member], s)))
                choice[member] = "C" if pos[member] == station else go(member, station)

        # 3-5. everyone else: walk to the home post, then guns, rockets, energy at the post
        central = st.reactors[1]
        idle_end = turn >= 10 and not external and not internal
        refueler = None
        if central <= self.style.refuel_at and st.fuel:
            helpers = [i for i in free() if i >= 3] or free()
            if helpers:
                refueler = min(helpers, key=lambda i: (len(path(pos[i], LW)), i))
        for member in free():
            home = homes[member] if member < len(homes) else UW
            if idle_end or member == refueler:
                home = LW
            here = pos[member]
            if here != home:
                choice[member] = go(member, home)
                continue
            zone = here % 3
            in_zone = [th for th in external if th.zone == zone]
            near = [th for th in external if view.distance(th) <= 2]
            token = "-"
            if member == refueler:
                token = "B"
            elif idle_end:
                token = "C"
            elif here in (LR, LB) and st.reactors[zone] == 0 and central >= 1:
                token = "B"
                central -= 1
            elif here in (UR, UW, UB) and in_zone and st.reactors[zone] > 0:
                token = "A"
            elif here == LB and st.rockets and not st.rocket_flying and any(
                    view.left(th) >= self.style.rocket_health and view.distance(th) <= 2
                    for th in external):
                token = "C"
            elif (here in (LR, LB) and in_zone) or (
                    here == LW and near and central >= 2 and self.style.pulse):
                token = "A"
            elif here in (UR, UW, UB) and self.style.fill_shields \
                    and st.shields[zone] < view.game.shield_cap(zone) \
                    and st.reactors[zone] > (1 if zone != 1 else 2):
                token = "B"
            elif here in (LR, LB) and st.reactors[zone] < 2 and central >= 2:
                token = "B"
                central -= 1
            elif here == LW and central <= self.style.refuel_at and st.fuel:
                token = "B"
            choice[member] = token
        return [c or "-" for c in choice]
