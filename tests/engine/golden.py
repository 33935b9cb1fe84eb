"""Reads the golden scenario files and compares a resolution with their expectations.

A file holds one or more scenarios separated by a line ``---``. Lines::

    # reasoning (comments explain how each expected value was derived by hand)
    id: gunship-cannon-branch
    trajectories: T1 T2 T3 T4        # red white blue internal
    players: 4                       # optional: checks the crew size against the player count
    level: 1                         # optional rule level 1-4 (default 4, the full game)
    double actions: yes              # optional: a double-action track (docs/rules.md §19)
    threat: 1 white E1-05            # turn, zone, card (one line per threat)
    threat: 2 red SE3-104 I1-02      # a carrier's bonus threat card fourth (docs/rules.md §19.8)
    P1: C - A A                      # crew lines, seed:, tokens: as in the plan notation
    A1:
    expect outcome: survived         # or: destroyed 7
    expect score: 2
    expect damage: red=0 white=1 blue=0
    expect destroyed: E1-05          # card ids (a card twice if it was played twice)
    expect survived: -
    expect on-track: -
    expect after 2: sh=1.0.1 thr=E1-05#1w@7   # a subset of the notation fields after turn 2

Campaigns (docs/rules.md §18) chain missions in one scenario: a line ``next mission`` starts
the next mission's lines (trajectories, threats, crew, expectations of that mission). Between
them::

    repairs: P1=red:structural P2=squad   # choices after this mission (no line: the policy)
    squads: LR                            # where a lone squad starts in the next mission
    expect repairs: P1=red:structural     # the repairs made after this mission (- for none)
    expect carried: dmg=S.-.- squads=1    # what this mission started with
    expect campaign: survived 17          # or: lost 2 (the mission of the loss)
    expect campaign score: threats=8 vc=3 damage=2 worst=1 knocked=0 squads=0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from authoring.engine import Result, make_setup, parse_plan, parse_repairs
from authoring.engine.cores import PYTHON, get_core, module
from authoring.engine.rules.campaign import CampaignResult, CarryOver
from authoring.engine.rules.notation import split_fields
from authoring.engine.rules.ship import TOKEN_LETTERS

SCENARIO_DIR = Path(__file__).parent / "scenarios"
_PLAN_KEYS = {"seed", "tokens", "draw"}


@dataclass
class Scenario:
    """One golden case: its setup, plan and the expectations worked out by hand."""

    id: str
    source: str
    trajectories: str = ""
    players: int | None = None
    level: int = 4
    double_actions: bool = False
    threats: list[tuple[int, str, str] | tuple[int, str, str, str]] = field(
        default_factory=list)
    plan_lines: list[str] = field(default_factory=list)
    expect: dict[str, str] = field(default_factory=dict)
    after: dict[int, str] = field(default_factory=dict)
    # campaigns: the following missions, the choices after this one, campaign expectations
    following: list[Scenario] = field(default_factory=list)
    repairs: str | None = None
    squads: str | None = None

    def setup(self):  # type: ignore[no-untyped-def]
        """Returns the engine setup of this mission."""
        return make_setup(self.threats, self.trajectories, self.players, self.level,
                          double_actions=self.double_actions)

    def run(self, core: str = PYTHON) -> Result:
        """Resolves the scenario with a trace of the notation after each turn on a core
        (without the log, which only the Python modules write: the C core would hand a
        game with a log to them)."""
        return get_core(core).resolve(self.setup(), parse_plan("\n".join(self.plan_lines)),
                                      record=False, trace=True)

    def run_campaign(self, core: str = PYTHON) -> CampaignResult:
        """Resolves the missions of a campaign scenario in a row on a core."""
        missions = [self, *self.following]
        resolve_campaign = module(core, "campaign").resolve_campaign
        return resolve_campaign(  # type: ignore[no-any-return]
            [m.setup() for m in missions],
            [parse_plan("\n".join(m.plan_lines)) for m in missions],
            [None if m.repairs is None else parse_repairs(m.repairs) for m in missions[:-1]],
            [m.squads for m in missions[:-1]], trace=True)


def _parse_block(text: str, source: str) -> Scenario | None:
    first = scenario = Scenario(id="", source=source)
    for raw in text.splitlines():
        if raw.split("#", 1)[0].strip() == "next mission":
            scenario = Scenario(id=f"{first.id} mission {len(first.following) + 2}",
                                source=source)
            first.following.append(scenario)
            continue
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("expect after") \
            else raw.strip()
        if line.startswith("expect after"):
            line = line.split(" #", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "id":
            scenario.id = value
        elif key == "repairs":
            scenario.repairs = value
        elif key == "squads":
            scenario.squads = value
        elif key == "trajectories":
            scenario.trajectories = value
        elif key == "players":
            scenario.players = int(value)
        elif key == "level":
            scenario.level = int(value)
        elif key == "double actions":
            scenario.double_actions = value == "yes"
        elif key == "threat":
            turn, zone, card, *bonus = value.split()
            scenario.threats.append((int(turn), zone, card, *bonus))
        elif key.startswith("expect after"):
            scenario.after[int(key.split()[2])] = value
        elif key.startswith("expect "):
            scenario.expect[key[7:]] = value
        elif key in _PLAN_KEYS or key[:1] in "PA":
            scenario.plan_lines.append(line)
        else:
            raise ValueError(f"{source}: unknown scenario line {raw!r}")
    if not first.id:
        return None
    for mission in [first, *first.following]:
        if not mission.trajectories:
            raise ValueError(f"{source}: scenario {mission.id} has no trajectories line")
    return first


def load_scenarios() -> list[Scenario]:
    """Returns every scenario of every ``scenarios/*.txt`` file."""
    found = []
    for path in sorted(SCENARIO_DIR.glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n---"):
            scenario = _parse_block(block, path.name)
            if scenario is not None:
                found.append(scenario)
    return found


def _cards(result: Result, fate: str) -> str:
    cards = sorted(t.card for t in result.threats if t.fate == fate)
    return " ".join(cards) or "-"


def compare(scenario: Scenario, result: Result) -> list[str]:
    """Returns the mismatches between a result and the expectations (empty when all agree)."""
    problems: list[str] = []
    # Per-turn "divide": the first turn whose expected notation fields differ comes first.
    for turn in sorted(scenario.after):
        if turn >= len(result.trace):
            problems.append(f"after turn {turn}: the game ended before (turn {result.turn})")
            continue
        got = split_fields(result.trace[turn])
        for key, want in split_fields(scenario.after[turn]).items():
            value = got.get(key, "1.1.1")  # only ``hull`` may be left out (single missions)
            if value != want:
                problems.append(f"after turn {turn}: {key} expected {want}, got {value}")
    actual = {
        "outcome": "survived" if result.survived else f"destroyed {result.turn}",
        "score": str(result.score.total) if result.score else "-",
        "damage": " ".join(f"{z}={len(t)}" for z, t in result.damage.items()),
        "destroyed": _cards(result, "destroyed"),
        "survived": _cards(result, "survived"),
        "on-track": _cards(result, "on-track"),
    }
    for key, want in scenario.expect.items():
        if key in _CAMPAIGN_KEYS:
            continue  # checked by compare_campaign
        if key not in actual:
            problems.append(f"unknown expectation {key!r}")
        elif key in ("destroyed", "survived", "on-track"):
            if " ".join(sorted(want.split())) != " ".join(sorted(actual[key].split())):
                problems.append(f"{key}: expected {want}, got {actual[key]}")
        elif actual[key] != want:
            problems.append(f"{key}: expected {want}, got {actual[key]}")
    return problems


def divide(result: Result) -> str:
    """Returns the per-turn breakdown for a failure message: the start, then per turn only the
    notation fields that changed (old -> new)."""
    if not result.trace:
        return "  (no trace)"
    lines = [f"  start: {result.trace[0]}"]
    before = split_fields(result.trace[0])
    for turn, line in enumerate(result.trace[1:], 1):
        after = split_fields(line)
        changes = [f"{key} {before[key]} -> {value}" for key, value in after.items()
                   if key != "t" and before[key] != value]
        lines.append(f"  turn {turn:2}: " + ("; ".join(changes) or "no change"))
        before = after
    return "\n".join(lines)


_CAMPAIGN_KEYS = {"repairs", "carried", "campaign", "campaign score"}


def _carried(carry: CarryOver) -> str:
    dmg = ".".join("".join(TOKEN_LETTERS[k] for k in zone) or "-" for zone in carry.tokens)
    return f"dmg={dmg} squads={carry.squads}"


def compare_campaign(scenario: Scenario, result: CampaignResult) -> list[str]:
    """Returns the mismatches of a campaign scenario, mission by mission, then the campaign."""
    problems: list[str] = []
    missions = [scenario, *scenario.following]
    for number, (mission, record) in enumerate(zip(missions, result.missions, strict=False), 1):
        for problem in compare(mission, record.result):
            problems.append(f"mission {number}: {problem}")
        actual = {"repairs": " ".join(str(r) for r in record.repairs) or "-",
                  "carried": _carried(record.carried_in)}
        for key in ("repairs", "carried"):
            want = mission.expect.get(key)
            if want is not None and " ".join(want.split()) != actual[key]:
                problems.append(f"mission {number}: {key}: expected {want}, got {actual[key]}")
    expected_missions = len(missions) if result.survived else result.lost_in
    if len(result.missions) != expected_missions:
        problems.append(f"played {len(result.missions)} missions, expected {expected_missions}")
    score = result.score
    outcome = (f"survived {score.total}" if result.survived and score
               else f"lost {result.lost_in}")
    want = scenario.expect.get("campaign")
    if want is not None and want != outcome:
        problems.append(f"campaign: expected {want}, got {outcome}")
    want = scenario.expect.get("campaign score")
    if want is not None:
        got = ("-" if score is None else
               f"threats={score.threats} vc={score.visual_confirmation} damage={score.damage} "
               f"worst={score.worst_zone} knocked={score.knocked_out} "
               f"squads={score.disabled_squads}")
        if " ".join(want.split()) != got:
            problems.append(f"campaign score: expected {want}, got {got}")
    return problems
