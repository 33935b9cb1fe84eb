"""Monte Carlo play of an exploration campaign (docs/rules.md §18) and its rating.

Each campaign game plays the missions in order with one ship: every mission is drawn and
planned like a single simulated game (``montecarlo.plan_game``: the campaign's deck choices,
phase-1 information only for turns 1-3), resolved from the damage the previous mission left,
and followed by repairs chosen by the stated policy (``authoring.engine.rules.campaign.POLICY``).
Campaign game ``i`` of a run with seed ``s`` uses only ``random.Random(f"{s}:{i}")``, drawn in
the order of a single game's, mission after mission: a one-mission campaign plays exactly the
games of ``simulate`` on that mission.

Limitation: the crew models plan each mission as if the ship were undamaged; carried-over
damage only shows in the resolution (a real crew would plan around it).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from authoring.engine.rules.campaign import POLICY, resolve_campaign
from authoring.engine.rules.threats.cards import get_card
from authoring.mission.campaign import Campaign
from authoring.simulation.montecarlo import in_workers, make_crew, plan_game


@dataclass(frozen=True)
class CampaignGame:
    """One simulated campaign."""

    lost_in: int | None  # the mission the ship was lost in (None: survived)
    turn: int  # the turn of the loss, 13 when the campaign was survived
    score: int | None
    best_points: int  # threat points if every threat of every mission were destroyed
    carried: tuple[int, ...]  # damage tokens carried into each mission after the first


@dataclass
class CampaignStats:
    """What a campaign Monte Carlo run found."""

    campaign: str
    missions: int
    crew: str
    games: int
    seed: int
    outcomes: list[CampaignGame] = field(default_factory=list)
    policy: str = POLICY

    @property
    def survival_rate(self) -> float:
        """The share of campaigns the ship came through."""
        return sum(o.lost_in is None for o in self.outcomes) / max(1, len(self.outcomes))

    @property
    def scores(self) -> list[int]:
        """The campaign scores of the campaigns survived."""
        return [o.score for o in self.outcomes if o.score is not None]

    def lost_by_mission(self) -> list[float]:
        """For each mission, the share of campaigns lost in it."""
        n = max(1, len(self.outcomes))
        return [sum(o.lost_in == k for o in self.outcomes) / n
                for k in range(1, self.missions + 1)]

    def reached(self, mission: int) -> int:
        """How many campaigns started the 1-based ``mission``."""
        return sum(o.lost_in is None or o.lost_in >= mission for o in self.outcomes)

    def came_through(self, mission: int) -> int:
        """How many campaigns came through the 1-based ``mission``."""
        return sum(o.lost_in is None or o.lost_in > mission for o in self.outcomes)

    def mean_carried(self) -> list[float]:
        """For each mission after the first, the mean damage tokens it started with (over the
        campaigns that reached it)."""
        means = []
        for k in range(self.missions - 1):
            reached = [o.carried[k] for o in self.outcomes if len(o.carried) > k]
            means.append(sum(reached) / len(reached) if reached else 0.0)
        return means

    def difficulty(self) -> float:
        """Returns the campaign difficulty 0-100, on the scale of a single mission's.

        A lost campaign rates ``0.5 x (missions done + (turn - 1) / 12) / missions`` (how far
        the ship got), a survived one ``0.5 + 0.5 x banked`` with its score clamped to 0 … the
        destroyed value of every threat; the difficulty is ``100 x (1 - mean)``. A one-mission
        campaign rates like the mission.
        """
        if not self.outcomes:
            return 0.0
        progress = []
        for o in self.outcomes:
            if o.lost_in is not None:
                progress.append(0.5 * ((o.lost_in - 1) + (o.turn - 1) / 12) / self.missions)
            else:
                score = o.score or 0
                banked = (min(max(score, 0), o.best_points) / o.best_points
                          if o.best_points > 0 else 1.0)
                progress.append(0.5 + 0.5 * banked)
        return 100.0 * (1 - sum(progress) / len(progress))


def play_campaign(campaign: Campaign, crew_name: str, seed: int, index: int) -> CampaignGame:
    """Plays campaign game ``index`` of a run: each mission drawn, planned and resolved."""
    rng = random.Random(f"{seed}:{index}")
    crew = make_crew(crew_name)
    setups, plans = [], []
    for entry in campaign.missions:
        setup, plan = plan_game(entry.mission, crew, rng)
        setups.append(setup)
        plans.append(dataclasses.replace(plan, seed=rng.randrange(1 << 30)))
    result = resolve_campaign(setups, plans, record=False)
    best = sum(get_card(e.card).points_destroyed for s in setups for e in s.threats)
    carried = tuple(sum(len(z) for z in m.carried_in.tokens) for m in result.missions[1:])
    last = result.missions[-1].result
    return CampaignGame(result.lost_in, last.turn,
                        result.score.total if result.score else None, best, carried)


def _play_chunk(args: tuple[Campaign, str, int, list[int]]) -> list[CampaignGame]:
    campaign, crew_name, seed, indexes = args
    return [play_campaign(campaign, crew_name, seed, i) for i in indexes]


def simulate_campaign(campaign: Campaign, *, games: int = 100, crew: str = "heuristic",
                      seed: int = 0, jobs: int = 1) -> CampaignStats:
    """Plays ``games`` campaigns and returns the statistics (deterministic for a seed).

    With ``jobs > 1`` the games run in worker processes (``montecarlo.in_workers``, the
    mission simulation's pool); each game depends only on the seed and its index, so the
    statistics are the same for every ``jobs`` (0: every core).
    """
    if jobs <= 0:
        from authoring._workers import default_jobs

        jobs = default_jobs()
    make_crew(crew)  # refuses an unknown crew before any game
    stats = CampaignStats(campaign.id, len(campaign.missions), crew, games, seed)
    indexes = list(range(games))
    if jobs <= 1 or games < 2:
        stats.outcomes = _play_chunk((campaign, crew, seed, indexes))
    else:
        stats.outcomes = in_workers(_play_chunk, (campaign, crew, seed), indexes, jobs)
    return stats


def report(stats: CampaignStats, titles: Sequence[str]) -> str:
    """Returns the text report of a campaign run."""
    scores = stats.scores
    lines = [f"# {stats.campaign}: {stats.games} campaigns of {stats.missions} missions, "
             f"crew {stats.crew}, seed {stats.seed}",
             f"survival rate      {stats.survival_rate:.1%}",
             f"difficulty         {stats.difficulty():.1f} / 100"]
    if scores:
        lines.append(f"campaign score     mean {sum(scores) / len(scores):.1f}, min "
                     f"{min(scores)}, max {max(scores)} (survived campaigns)")
    for number, (title, lost) in enumerate(zip(titles, stats.lost_by_mission(), strict=True),
                                           1):
        lines.append(f"mission {number} {title:<28} lost in {lost:.0%} of campaigns")
    for number, mean in enumerate(stats.mean_carried(), 2):
        lines.append(f"mission {number} starts with {mean:.2f} damage tokens on average")
    lines.append(f"repair policy: {stats.policy}")
    return "\n".join(lines) + "\n"
