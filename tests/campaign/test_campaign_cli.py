"""``spacealert resolve CAMPAIGN …`` and ``simulate CAMPAIGN`` on the bundled example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from authoring.cli import app

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "missions" / "examples" / "campaign.yaml"
PLANS = REPO / "tests" / "engine" / "plans"
MISSION_PLANS = [str(PLANS / f"campaign-sim-{i}.yaml") for i in (1, 2, 3)]
runner = CliRunner()


def _resolve(*args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["resolve", str(CAMPAIGN), *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict = json.loads(result.stdout)  # type: ignore[type-arg]
    return data


def test_the_example_campaign_validates_and_lints_clean() -> None:
    assert runner.invoke(app, ["validate", str(CAMPAIGN)]).exit_code == 0
    result = runner.invoke(app, ["lint", "--output-format", "json", str(CAMPAIGN)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["errors"] == 0


def test_the_campaign_plan_file_carries_damage_and_scores_the_campaign() -> None:
    data = _resolve(str(PLANS / "campaign-example.yaml"))
    assert data["campaign"] == "example-simulation-campaign"
    assert data["survived"] is True
    first, second, third = data["missions"]
    assert [m["mission"] for m in data["missions"]] == [
        "cd-simulation-1", "cd-simulation-2", "cd-simulation-3"]
    # nobody repaired after simulation 1: its damage is exactly what simulation 2 starts with
    assert second["carried_in"]["tokens"] == first["result"]["damage"]
    assert first["repairs"] == []
    # simulation 2's damage minus the three repairs is what simulation 3 starts with
    left = {zone: list(tokens) for zone, tokens in second["result"]["damage"].items()}
    for repair in second["repairs"]:
        zone, token = repair.split("=")[1].split(":")
        left[zone].remove(token)
    assert third["carried_in"]["tokens"] == left
    assert third["repairs"] == [] and third["carried_out"] is None
    # the campaign score: all threat points, the last mission's penalties, the mean confirmation
    score = data["score"]
    last = third["result"]["score"]
    assert score["threats"] == sum(m["threat_points"] for m in data["missions"])
    assert score["visual_confirmation"] == sum(
        m["visual_confirmation"] for m in data["missions"]) // 3
    assert (score["damage"], score["worst_zone"]) == (last["damage"], last["worst_zone"])
    assert score["total"] == (score["threats"] + score["visual_confirmation"] - score["damage"]
                              - score["worst_zone"] - score["knocked_out"]
                              - score["disabled_squads"])


def test_plans_with_repairs_give_the_same_campaign_as_the_campaign_plan_file() -> None:
    from_file = _resolve(str(PLANS / "campaign-example.yaml"))
    from_options = _resolve(*MISSION_PLANS, "--repairs", "P1=- P2=-", "--repairs",
                            "P1=red:structural P2=blue:structural P3=blue:shield")
    assert from_options == from_file


def test_without_repairs_the_stated_policy_is_used_and_named() -> None:
    data = _resolve(*MISSION_PLANS)
    assert data["policy"].startswith("each crew member in seat order")
    assert data["missions"][0]["repairs"] == ["P1=blue:shield"]


def test_fewer_plans_stop_the_campaign_early() -> None:
    data = _resolve(*MISSION_PLANS[:1])
    assert len(data["missions"]) == 1
    single = data["missions"][0]["result"]["score"]["total"]
    assert data["score"]["total"] == single


def test_refused_repairs_and_usage_errors() -> None:
    bad = runner.invoke(app, ["resolve", str(CAMPAIGN), *MISSION_PLANS, "--repairs",
                              "P1=white:structural"])
    assert bad.exit_code == 1
    assert "repairs after mission 1" in bad.output and "no unrepaired structural" in bad.output
    many = runner.invoke(app, ["resolve", str(CAMPAIGN), *MISSION_PLANS[:2], "--repairs", "",
                               "--repairs", ""])
    assert many.exit_code == 2
    seeded = runner.invoke(app, ["resolve", str(CAMPAIGN), *MISSION_PLANS, "--seed", "3"])
    assert seeded.exit_code == 2 and "apply to single missions" in seeded.output
    mission = REPO / "missions" / "official" / "simulation-1.yaml"
    two = runner.invoke(app, ["resolve", str(mission), *MISSION_PLANS[:2]])
    assert two.exit_code == 2
    assert "expected one plan for a mission" in two.output


def test_simulate_a_campaign_is_deterministic_and_states_its_policy() -> None:
    args = ["simulate", str(CAMPAIGN), "-n", "6", "--seed", "5", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert runner.invoke(app, args).stdout == first.stdout
    data = json.loads(first.stdout)
    assert data["missions"] == ["cd-simulation-1", "cd-simulation-2", "cd-simulation-3"]
    assert data["repair_policy"].startswith("each crew member in seat order")
    assert abs(sum(data["lost_by_mission"]) + data["survival_rate"] - 1) < 1e-9
    assert 0 <= data["difficulty"] <= 100


def test_a_one_mission_campaign_simulates_like_its_mission(tmp_path: Path) -> None:
    mission = REPO / "missions" / "official" / "simulation-1.yaml"
    campaign = tmp_path / "one.yaml"
    campaign.write_text(f"campaign: 1\nid: one\ntitle: One\nmissions:\n  - mission: {mission}\n",
                        encoding="utf-8")
    args = ["-n", "8", "--seed", "3", "--json", "--crew", "heuristic"]
    alone = json.loads(runner.invoke(app, ["simulate", str(mission), *args,
                                           "--no-compare"]).stdout)  # a campaign compares none
    as_campaign = json.loads(runner.invoke(app, ["simulate", str(campaign), *args]).stdout)
    # a mission shows its rating's value (one decimal), a campaign two decimals
    assert abs(as_campaign["difficulty"] - alone["difficulty"]) <= 0.05 + 1e-9
    assert as_campaign["scores"] == alone["scores"]
    assert as_campaign["survival_rate"] == alone["survival_rate"]


def test_simulate_a_campaign_honours_jobs_with_the_same_numbers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import authoring.simulation.campaign as sim

    pools: list[int] = []
    real = sim.in_workers

    def counting(*args: Any) -> Any:
        pools.append(args[-1])  # the number of worker processes
        return real(*args)

    monkeypatch.setattr(sim, "in_workers", counting)
    args = ["simulate", str(CAMPAIGN), "-n", "5", "--seed", "2", "--json"]
    one = runner.invoke(app, [*args, "--jobs", "1"])
    assert one.exit_code == 0, one.output
    assert pools == []  # one job: no pool
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert two.exit_code == 0, two.output
    assert pools == [2]  # the games ran in the mission simulation's worker pool
    assert two.stdout == one.stdout  # each game depends only on the seed and its index
