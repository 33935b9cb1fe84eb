"""Plays the Resolution Round: turns 1-12 and the closing step (docs/rules.md §5, §6)."""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from authoring.engine.errors import PlanError
from authoring.engine.rules import actions, damage, ship, weapons
from authoring.engine.rules.damage import ShipDestroyed as ShipDestroyed  # re-exported for callers
from authoring.engine.rules.draws import SeededTokens, TokenSource
from authoring.engine.rules.levels import FULL_GAME, RuleLevel, get_level
from authoring.engine.rules.log import LogEntry, Result, ThreatOutcome
from authoring.engine.rules.plan import (
    TOKEN_KINDS,
    Plan,
)
from authoring.engine.rules.scoring import score_state
from authoring.engine.rules.setup import Setup, setup_from_mission
from authoring.engine.rules.ship import (
    SPACE,
    STATION_CODES,
    UR,
    ZONE_NAMES,
)
from authoring.engine.rules.state import (
    ACTIVE_THREAT,
    DESTROYED,
    PENDING,
    SURVIVED,
    CrewMember,
    State,
    ThreatState,
    start_stations,
)
from authoring.engine.rules.threats import abilities
from authoring.engine.rules.threats.cards import load_cards
from authoring.engine.rules.trajectories import TRAJECTORIES, Trajectory

if TYPE_CHECKING:
    from authoring.mission.model import Mission


def initial_state(setup: Setup, plan: Plan) -> State:
    """Returns the starting state of the Resolution Round (docs/rules.md §3)."""
    check_plan(setup, plan)
    crew = [CrewMember(c.label, list(c.codes)) for c in plan.crew]
    # The core's own card objects, by id: the native core compiles cards.py, so its Card is
    # another class than the one the (shared) Setup holds; here it is the same object.
    cards = load_cards()
    threats = [ThreatState(cards[card.id], turn, zone)
               for card, turn, zone in setup.appearance_order]
    state = State(crew, threats, setup.track_names)
    if any(n >= 0 for n in setup.bonus_links):
        state.bonus = setup.bonus_links
    return state


def check_plan(setup: Setup, plan: Plan) -> None:
    """Rejects a plan the setup cannot play: crew size, the rule level's cards, double
    actions off a double-action track (``SetupError``/``PlanError``)."""
    setup.check_crew(len(plan.crew))
    _check_plan_level(plan, get_level(setup.level))
    if not setup.double_actions and plan.has_double_actions:
        raise PlanError("expected single actions: double-action cards are played only on "
                        "double-action tracks (a mission with profile: double-action), got "
                        + _first_double(plan))


def _check_plan_level(plan: Plan, rules: RuleLevel) -> None:
    """Rejects plan cards that the rule level does not have."""
    if rules.heroics and rules.delays and rules.turns == 12:
        return  # the full game allows every card
    for crew in plan.crew:
        for turn, action in enumerate(crew.actions, 1):
            if action.is_blank:
                continue
            if turn > rules.turns:
                raise PlanError(f"expected blank slots after turn {rules.turns} at rule level "
                                f"{rules.level}, got {action.token()!r} for {crew.label} in "
                                f"turn {turn}")
            if action.heroic and not rules.heroics:
                raise PlanError(f"expected no heroic card at rule level {rules.level}, got "
                                f"{action.token()!r} for {crew.label}")
            if action.tripped and not rules.delays:
                raise PlanError(f"expected no tripped card at rule level {rules.level} (cards "
                                f"face up), got {action.token()!r} for {crew.label}")


def _first_double(plan: Plan) -> str:
    for crew in plan.crew:
        for turn, action in enumerate(crew.actions, 1):
            if action.is_double:
                return f"{action.token()!r} for {crew.label} in turn {turn}"
    return "none"  # pragma: no cover - called only when the plan has one


class Game:
    """Runs one Resolution Round on a state.

    Damage tokens come from ``tokens`` (default: drawn with the seeded generator ``rng``), after
    the ``forced_tokens`` of each zone; see ``authoring/engine/rules/draws.py``.
    """

    def __init__(self, state: State, rng: random.Random,
                 forced_tokens: dict[int, list[int]] | None = None, *, record: bool = True,
                 trace: bool = False, rules: RuleLevel = FULL_GAME,
                 tokens: TokenSource | None = None) -> None:
        self.state = state
        self.rules = rules
        self.effects = rules.damage_effects  # read by every capacity and weapon lookup
        self.rng = rng
        self.seeded = tokens is None  # the default source: a fork copies its generator
        self.tokens: TokenSource = SeededTokens(rng) if tokens is None else tokens
        self.forced = forced_tokens or {}
        self.log: list[LogEntry] | None = [] if record else None
        self.trace: list[str] | None = [] if trace else None
        self.tracks, self.track_actions = _boards(state.tracks)
        self.schedule: dict[int, list[ThreatState]] = {}  # turn -> threats appearing then
        # The threats a repair card or a move into a station must look at, in token order.
        self.malfunctions = [th for th in state.threats if th.card.malfunction]
        self.slimes = _holding(state, "slime")
        # The expansion's cards whose state other rules read (docs/rules.md §19.8), found once:
        # an empty list keeps each rule's check to one test in every other game.
        self.shield_breakers = _holding(state, "reverses-shields")  # Reversed Shields
        self.optics_breakers = _holding(state, "disrupts-optics")  # Phasing Anomaly
        self.door_breakers = _holding(state, "seals-doors")  # Breached Airlock
        self.riders = _holding(state, "rides-crew")  # Parasite
        self.saboteurs = _holding(state, "sabotages")  # Cyber Gremlin
        self.ninjas = _holding(state, "poisons")  # Ninja
        for th in state.threats:
            if th.status == PENDING and th.token:  # token 0: a bonus threat, its carrier's
                self.schedule.setdefault(th.token, []).append(th)
        # Carrier id -> the bonus threat it brings into play (docs/rules.md §19.8).
        self.bonuses: dict[int, ThreatState] = {
            id(state.threats[n]): state.threats[b] for n, b in enumerate(state.bonus) if b >= 0}
        self.released: set[int] = set()  # bonus threats that came into play this threat step
        self.turn = state.turn
        self.step = ""  # the running step's name; overrides the caller's guess in the log
        self.cause = ""  # why the ship was lost
        self._new_turn()
        if self.trace is not None:
            self._snapshot()  # the trace starts with the state the game starts from

    def fork(self) -> Game:
        """Returns an independent copy between turns (state, generator, forced draws, log).

        A plan search can play one turn, fork, and try different continuations; nothing is
        deep-copied. A token source given to the game (not the seeded default) is shared.
        """
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        other = Game(self.state.copy(), rng, {z: k[:] for z, k in self.forced.items()},
                     record=self.log is not None, trace=self.trace is not None, rules=self.rules,
                     tokens=None if self.seeded else self.tokens)
        if self.log is not None:
            other.log = self.log[:]
        if self.trace is not None:
            other.trace = self.trace[:]
        other.cause = self.cause
        return other

    # --- bookkeeping -----------------------------------------------------------------------

    def _new_turn(self) -> None:
        self.armed = [0, 0, 0, 0, 0, 0]  # per station cannon: 0 idle, 1 armed, 2 heroic
        self.lift_used = [False, False, False]
        self.vc_now = 0
        self.launched = False
        self.pilot_heroic = False
        # The crew member between the halves of a double action (a delay then splits it),
        # and the one whose card split this turn (the split was his next turn's delay).
        self.halfway: CrewMember | None = None
        self.split: CrewMember | None = None
        self.turn_stations: dict[int, set[int]] = {}  # threat id -> stations hit this turn
        self.turn_hits: dict[int, int] = {}  # threat id -> hits this turn
        self.slowed: set[int] = set()  # threat ids that took damage this turn (Energy Snake)
        self.armoured: set[int] = set()  # threat ids whose armour absorbed a hit this turn
        self.repairers: dict[int, set[int]] = {}  # threat id -> crew members who hit it

    def note(self, step: str, text: str) -> None:
        """Records one log line for the current turn (no-op when not recording)."""
        if self.log is not None:
            self.log.append(LogEntry(self.turn, self.step or step, text))

    def _snapshot(self) -> None:
        if self.trace is not None:
            from authoring.engine.rules.notation import notation

            self.trace.append(notation(self.state))

    # --- the round ---------------------------------------------------------------------------

    def play_next(self) -> bool:
        """Plays the next turn or the closing step; returns False once the game is over."""
        st = self.state
        if st.lost or st.turn > self.rules.turns:
            return False
        try:
            if st.turn < self.rules.turns:
                self.play_turn(st.turn + 1)
            else:
                self.closing_step()
        except ShipDestroyed as loss:
            st.lost = self.turn
            self.step = "end"
            self.cause = loss.cause
            if self.log is not None:
                self.note("end", f"the ship is destroyed: {loss.cause}")
            self._snapshot()
            return False
        return st.turn <= self.rules.turns

    def run(self) -> Result:
        """Plays the remaining turns and the closing step; returns the result."""
        while self.play_next():
            pass
        return self.result(self.cause)

    def play_turn(self, turn: int) -> None:
        """Resolves one of turns 1-12 in the order of docs/rules.md §5 (``ShipDestroyed``: lost)."""
        st = self.state
        self.turn = turn
        self._new_turn()
        self.step = "appear"
        if turn in self.schedule:
            self.appear(turn)
        self.step = "action"
        slot = turn - 1
        for member in st.crew:
            # Blank slots on the ship are the common case: skip the call.
            if member.slots[slot] or member.station == SPACE:
                actions.act(self, member, turn)
        if self.repairers:
            abilities.lone_repairer_bonus(self)
        phase = ship.TURN_PHASE[turn]
        if self.vc_now > st.vc[phase]:
            st.vc[phase] = self.vc_now
        self.step = "damage"
        weapons.damage_step(self, rockets_only=False)
        self.step = "threat"
        self.threat_step()
        self.step = "end"
        if self.launched:
            st.rocket_flying = True
            if self.log is not None:
                self.note("rocket", "the rocket moves to the second square; it hits next turn")
        if turn in (2, 5, 9) and not st.maintained[phase] and self.rules.computer_check:
            if self.log is not None:
                self.note("computer", "nobody maintained the computer: crew on the ship delayed")
            for member in st.crew:
                if member.station != SPACE and not member.out:
                    self.delay(member, turn + 1)
        st.turn = turn
        if self.trace is not None:
            self._snapshot()

    def closing_step(self) -> None:
        """Resolves the closing step (turn 13): last rocket, pilot's return, last threat move,
        then the jump (docs/rules.md §6, §19.8).

        Level 1 (7 turns) closes with a turn 8 the same way.
        """
        st = self.state
        self.turn = st.turn + 1
        self._new_turn()
        if st.rocket_flying:
            self.step = "damage"
            weapons.damage_step(self, rockets_only=True)
        self.step = "action"
        for member in st.crew:
            if member.station == SPACE:
                if self.log is not None:
                    self.note("action", f"{member.label} returns from the interceptors to UR")
                self.enter(member, UR)
        self.step = "threat"
        self.threat_step()
        self.step = "jump"
        for th in st.threats:
            if th.status == ACTIVE_THREAT and "z-at-jump" in th.card.abilities:
                self.jump_z(th)
        if any(th.status in (ACTIVE_THREAT, SURVIVED) for th in self.saboteurs):
            # a Cyber Gremlin not destroyed knocks everyone out (docs/rules.md §19.8)
            if self.log is not None:
                self.note("jump", "the Cyber Gremlin was not destroyed: everyone is knocked out")
            for member in st.crew:
                self.knock_out(member)
        st.turn = self.turn
        self._snapshot()

    def jump_z(self, th: ThreatState) -> None:
        """Lets a threat still on its track at the jump perform its Z and survive (Dimension
        Spider, docs/rules.md §19.8)."""
        if self.log is not None:
            self.note("jump", f"{th.card.name} is still on its track at the jump: it performs Z")
        for op in th.card.z:
            abilities.OPS[op[0]](self, th, *op[1:])
            if th.status != ACTIVE_THREAT:
                return
        self.survive(th)

    def appear(self, turn: int) -> None:
        """Places the threats of this turn on their tracks (step 1)."""
        for th in self.schedule.get(turn, ()):
            self._place(th, "appear", f"{th.card.id} {th.card.name} appears")

    def release(self, carrier: ThreatState, speed: int) -> None:
        """Brings a carrier's bonus threat into play, ``speed`` faster than printed: on the
        first square of its track (an internal one in its card's stations as of this turn),
        moving from the next turn on (docs/rules.md §19.8)."""
        th = self.bonuses.get(id(carrier))
        if th is None or th.status != PENDING:
            return
        th.speed += speed
        if not th.card.external:
            th.stations = start_stations(th.card, self.turn)
        self.released.add(id(th))
        self._place(th, "threat", f"{carrier.card.name} brings its bonus threat {th.card.id} "
                                  f"{th.card.name} into play")

    def _place(self, th: ThreatState, step: str, said: str) -> None:
        """Puts a threat on the first square of its track, with what its card does then: an
        appearing threat's and a bonus threat's entry alike."""
        th.status = ACTIVE_THREAT
        th.square = self.tracks[th.zone].length
        if "slime" in th.card.abilities:
            th.spots = [th.card.health or 0]
        if self.log is not None:
            where = (ZONE_NAMES[th.zone] if th.card.external else
                     "+".join(STATION_CODES[s] for s in th.stations))
            self.note(step, f"{said} in {where} (square {th.square})")
        if "health-from-rockets" in th.card.abilities:
            th.health = self.state.rockets
            if th.health == 0:
                if self.log is not None:
                    self.note(step, f"{th.card.name}: no rockets aboard, it counts as "
                                    "destroyed")
                self.destroy(th)

    # --- the ship and the crew, for the threat hooks (see actions.py and damage.py) ------

    def delay(self, member: CrewMember, slot: int) -> None:
        """Delays a crew member's card in ``slot`` (see ``actions.delay``)."""
        actions.delay(self, member, slot)

    def knock_out(self, member: CrewMember) -> None:
        """Knocks a crew member out (see ``actions.knock_out``)."""
        actions.knock_out(self, member)

    def enter(self, member: CrewMember, station: int) -> None:
        """Moves a figure into a station with its entry effects (see ``actions.enter``)."""
        actions.enter(self, member, station)

    def shield_cap(self, zone: int) -> int:
        """Returns the zone's shield capacity after damage tokens."""
        return damage.shield_cap(self, zone)

    def reactor_cap(self, zone: int) -> int:
        """Returns the zone's reactor capacity after damage tokens."""
        return damage.reactor_cap(self, zone)

    def multiplier(self, zone: int) -> int:
        """Returns the doubling of damage that reaches a zone."""
        return damage.multiplier(self, zone)

    def damage_ship(self, zone: int, points: int, source: str) -> None:
        """Draws damage tokens in a zone (see ``damage.damage_ship``)."""
        damage.damage_ship(self, zone, points, source)

    def attack(self, th: ThreatState, zone: int, strength: int, *, shields: bool = True,
               plasmatic: bool = False) -> int:
        """Resolves a threat's attack on a zone; returns what the shield absorbed (see
        ``damage.attack``)."""
        return damage.attack(self, th, zone, strength, shields=shields, plasmatic=plasmatic)

    # --- threats ---------------------------------------------------------------------------------

    def destroy(self, th: ThreatState, by: CrewMember | None = None) -> None:
        """Removes a destroyed threat and applies its on-destruction rules."""
        th.status = DESTROYED
        th.ended = self.turn
        if self.log is not None:
            self.note("damage" if th.card.external else "action", f"{th.card.name} is destroyed")
        for ability in th.card.abilities:
            hook = abilities.ON_DESTROYED.get(ability.partition(":")[0])
            if hook is not None:
                hook(self, th, by)

    def survive(self, th: ThreatState) -> None:
        """Lets a threat that performed Z leave its track (survived)."""
        th.status = SURVIVED
        th.ended = self.turn
        if th.card.malfunction:
            for station in th.stations:
                self.state.broken.add((station, th.card.system or ""))
        if abilities.is_scout(th) and th.active:
            self.state.scout_bonus = True
        if self.log is not None:
            self.note("threat", f"{th.card.name} leaves its track (survived)")

    def advance(self, th: ThreatState) -> bool:
        """Moves a threat one square, resolving an X/Y/Z square; False when it stopped."""
        th.square -= 1
        letter = self.track_actions[th.zone][th.square]
        if letter:
            if self.log is not None:
                self.note("threat", f"{th.card.name} reaches {letter.upper()}")
            for op in getattr(th.card, letter):
                abilities.OPS[op[0]](self, th, *op[1:])
                if th.status != ACTIVE_THREAT:
                    return False
            if letter == "z":
                self.survive(th)
                return False
        return True

    def threat_step(self) -> None:
        """Moves every threat on a track by its speed, in order of appearance (step 4)."""
        tracks = self.track_actions
        released = self.released
        released.clear()
        for th in self.state.threats:
            if th.status != ACTIVE_THREAT:
                if th.passes and th.status == DESTROYED and abilities.has_marker(th):
                    abilities.marker_moves(self, th)  # it goes on (docs/rules.md §19.8)
                continue
            if released and id(th) in released:
                continue  # a bonus threat moves from the next turn (docs/rules.md §19.8)
            actions = tracks[th.zone]
            steps = th.speed
            if self.slowed and id(th) in self.slowed:
                # it took damage this turn: 2 squares less (docs/rules.md §19.8)
                steps = max(0, steps - 2)
                if self.log is not None:
                    self.note("threat", f"{th.card.name} was hit this turn: it moves {steps}")
            for _ in range(steps):
                # Plain squares are the common case: step over them without a call.
                if actions[th.square - 1]:
                    if not self.advance(th):
                        break
                    # a Jumper may be on another track now: its squares from here on
                    actions = tracks[th.zone]
                else:
                    th.square -= 1
            if th.status == ACTIVE_THREAT and "phasing" in th.card.abilities:
                # the phase changes after each of its own moves, so the squares of this move
                # saw the phase it began with (docs/rules.md §19.8)
                th.active = not th.active
                if self.log is not None:
                    self.note("threat", f"{th.card.name} phases {'out' if th.active else 'in'}")
            if th.status == ACTIVE_THREAT and "speeds-up" in th.card.abilities:
                # +1 at the end of every turn it is on its track, after its move: nothing
                # later in the turn reads its speed (Planetoid, docs/rules.md §19.8)
                th.speed += 1
                if self.log is not None:
                    self.note("threat", f"{th.card.name} speeds up to {th.speed}")

    def warheads_lose_rocket(self) -> None:
        """Takes 1 health from Unstable Warheads aboard when a rocket is lost."""
        for th in self.state.threats:
            if th.status == ACTIVE_THREAT and "health-from-rockets" in th.card.abilities:
                th.damage += 1
                if th.damage >= th.health:
                    self.destroy(th)

    # --- result ----------------------------------------------------------------------------------

    def result(self, cause: str) -> Result:
        """Builds the result object from the final state."""
        st = self.state
        survived = st.lost == 0
        outcomes = tuple(_outcome(th) for th in st.threats)
        tokens = st.tokens
        damage = {"red": _token_names(tokens[0]), "white": _token_names(tokens[1]),
                  "blue": _token_names(tokens[2])}
        return Result(
            survived=survived,
            turn=st.turn if survived else st.lost,
            cause=cause,
            threats=outcomes,
            damage=damage,
            score=score_state(st) if survived and self.rules.scored else None,
            log=tuple(self.log or ()),
            trace=tuple(self.trace or ()),
        )


# The four trajectories of a game and their square letters, by board names (built once).
Boards = tuple[tuple[Trajectory, ...], tuple[tuple[str, ...], ...]]
_BOARDS: dict[tuple[str, ...], Boards] = {}


def _holding(state: State, ability: str) -> list[ThreatState]:
    """Returns the threats whose card has ``ability``, in token order."""
    return [th for th in state.threats if ability in th.card.abilities]


def _boards(names: tuple[str, ...]) -> Boards:
    """Returns the trajectories of the four tracks and their square letters (built once)."""
    boards = _BOARDS.get(names)
    if boards is None:
        tracks = tuple(TRAJECTORIES[n] for n in names)
        boards = _BOARDS[names] = (tracks, tuple(t.actions for t in tracks))
    return boards


# Outcomes and token-name tuples are immutable values that recur in game after game (a plan
# search resolves the same setup thousands of times): each is built once and then shared.
_OUTCOMES: dict[tuple[str, int, int, int, int], ThreatOutcome] = {}
_TOKEN_NAMES: dict[tuple[int, ...], tuple[str, ...]] = {}
_FATES = {PENDING: ("not-appeared", False), ACTIVE_THREAT: ("on-track", False),
          DESTROYED: ("destroyed", True), SURVIVED: ("survived", True)}


def _outcome(th: ThreatState) -> ThreatOutcome:
    """Returns the outcome value of a threat (shared between games with the same one)."""
    card = th.card
    key = (card.id, th.token, th.zone, th.status, th.ended)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        fate, scores = _FATES[th.status]
        points = 0
        if scores:
            points = card.points_destroyed if th.status == DESTROYED else card.points_survived
        outcome = ThreatOutcome(th.token, card.id, card.name, ZONE_NAMES[th.zone], fate,
                                th.ended or None, points)
        _OUTCOMES[key] = outcome
    return outcome


def _token_names(drawn: list[int]) -> tuple[str, ...]:
    """Returns the names of a zone's drawn damage tokens, in order."""
    key = tuple(drawn)
    names = _TOKEN_NAMES.get(key)
    if names is None:
        names = _TOKEN_NAMES[key] = tuple(ship.TOKEN_NAMES[k] for k in key)
    return names


def resolve(setup: Setup, plan: Plan, *, seed: int | None = None, record: bool = True,
            trace: bool = False) -> Result:
    """Resolves a whole mission: the crew plan against the setup's threats.

    ``seed`` (default: the plan's) seeds the damage-token draws; the plan's forced tokens are
    drawn first. ``record`` keeps the turn-by-turn log, ``trace`` the state notation per turn.
    """
    state = initial_state(setup, plan)
    forced = {ZONE_NAMES.index(z): [TOKEN_KINDS.index(k) for k in kinds]
              for z, kinds in plan.tokens.items()}
    rng = random.Random(plan.seed if seed is None else seed)
    return Game(state, rng, forced, record=record, trace=trace,
                rules=get_level(setup.level)).run()


def resolve_batch(games: Sequence[tuple[Setup, Plan]], seeds: Sequence[int] | None = None, *,
                  trace: bool = False) -> list[Result]:
    """Resolves many games in one call (no log): the batch interface of both engine cores.

    ``seeds[i]`` (default: each plan's seed) seeds game i's damage-token draws. The native
    core runs the whole loop in compiled code (see ``authoring/_native.py``).
    """
    if seeds is not None and len(seeds) != len(games):
        raise ValueError(f"expected one seed per game ({len(games)}), got {len(seeds)}")
    # A game makes no reference cycles, and the cyclic collector's passes over the growing
    # list of results slow a batch down measurably (bench/engine.py): paused for the batch.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if seeds is None:
            return [resolve(setup, plan, record=False, trace=trace) for setup, plan in games]
        return [resolve(setup, plan, seed=seed, record=False, trace=trace)
                for (setup, plan), seed in zip(games, seeds, strict=True)]
    finally:
        if collecting:
            gc.enable()


def resolve_mission(mission: Mission, plan: Plan, *, seed: int | None = None,
                    level: int | None = None, record: bool = True,
                    trace: bool = False) -> Result:
    """Resolves a plan against a mission model (``authoring.mission.model.Mission``).

    The mission's threats, unconfirmed reports (played only with 5 crew members), pinned cards
    and trajectories are turned into a ``Setup`` by ``setup_from_mission``; cards and
    trajectories the plan does not fix are drawn with the plan's seed. ``level`` is the rule
    level (default: from the mission's profile).
    """
    setup = setup_from_mission(mission, plan, level=level)
    return resolve(setup, plan, seed=seed, record=record, trace=trace)
