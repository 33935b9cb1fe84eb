"""``spacealert solve CAMPAIGN``: every mission's plan and the repairs between them."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine.rules.campaign import Wreck, policy_repairs, repair
from authoring.engine.rules.ship import GRAVOLIFT, REACTOR, SHIELD, STRUCTURAL, UPPER_CANNON
from authoring.mission.load import plain_data, read_document
from authoring.solve.campaign import candidate_repairs

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]

WRECK = Wreck(((STRUCTURAL, GRAVOLIFT), (SHIELD, REACTOR, UPPER_CANNON, GRAVOLIFT), ()), 1,
              ("P1", "P2", "P3", "P4"), ("P4",))


def test_candidates_start_with_the_policy_and_are_all_legal() -> None:
    found = candidate_repairs(WRECK)
    assert found[0] == policy_repairs(WRECK)
    assert len(found) > 10
    for choices in found:
        assert set(choices) == {"P1", "P2", "P3"}  # P4 is knocked out: three repairs
        repair(WRECK, choices)  # raises for an illegal set
    assert len({tuple(sorted(c.values())) for c in found}) == len(found)


def test_solve_writes_a_campaign_plan_that_resolve_plays(tmp_path: Path) -> None:
    drill = (REPO / "tests" / "site" / "data" / "pack" / "missions" / "tiny-drill.yaml")
    (tmp_path / "drill.yaml").write_text(
        drill.read_text("utf-8").replace(", serious: true", ""), encoding="utf-8")
    campaign = tmp_path / "campaign.yaml"
    campaign.write_text("campaign: 1\nid: drills\ntitle: Drills\nmissions:\n"
                        "  - mission: drill.yaml\n  - mission: drill.yaml\n", encoding="utf-8")
    out = tmp_path / "plan.yaml"
    args = ["solve", str(campaign), "-n", "150", "-j", "1", "--restarts", "1", "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = plain_data(read_document(out).data)
    assert data["campaign"] == "drills" and len(data["missions"]) == 2
    assert "repairs" in data["missions"][0] and "repairs" not in data["missions"][1]
    assert "# repairs after mission 1:" in result.stdout
    played = runner.invoke(app, ["resolve", str(campaign), str(out), "--json"])
    assert played.exit_code == 0, played.output
    again = runner.invoke(app, [*args[:-1], str(tmp_path / "again.yaml")])
    assert again.exit_code == 0
    assert (tmp_path / "again.yaml").read_bytes() == out.read_bytes()


def test_single_mission_options_are_refused_for_a_campaign() -> None:
    campaign = REPO / "missions" / "examples" / "campaign.yaml"
    assert runner.invoke(app, ["solve", str(campaign), "--players", "4"]).exit_code == 2
    assert runner.invoke(app, ["solve", str(campaign), "-t", "5"]).exit_code == 2
