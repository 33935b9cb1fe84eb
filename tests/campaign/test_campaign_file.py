"""Campaign files: schema, mission references, and validate/lint with errors in the right file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import InvalidFileError, load_campaign

REPO = Path(__file__).resolve().parents[2]
OFFICIAL = REPO / "missions" / "official"
runner = CliRunner()


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _campaign(folder: Path, missions: str) -> Path:
    return _write(folder, "c.yaml", "campaign: 1\nid: c\ntitle: C\nmissions:\n" + missions)


def test_a_campaign_loads_its_missions_with_the_chosen_decks(tmp_path: Path) -> None:
    _write(tmp_path, "m1.yaml", (OFFICIAL / "simulation-1.yaml").read_text("utf-8"))
    path = _campaign(tmp_path, "  - mission: m1.yaml\n    decks: {common: yellow}\n"
                               "    soundtrack: {players: 4, voice: default}\n"
                               "  - mission: cd-simulation-2\n    announcement: Onward.\n")
    _write(tmp_path, "m2.yaml", (OFFICIAL / "simulation-2.yaml").read_text("utf-8"))
    campaign = load_campaign(path)
    first, second = campaign.missions
    assert first.mission.decks.common == "yellow"
    assert first.mission.decks.serious == "mixed"  # the mission's own where not chosen
    assert (first.players, first.voice) == (4, "default")
    assert second.mission.id == "cd-simulation-2"
    assert second.announcement == "Onward."
    assert second.file.endswith("m2.yaml")


def test_more_than_three_missions_is_a_schema_error(tmp_path: Path) -> None:
    path = _campaign(tmp_path, "".join(f"  - mission: m{i}.yaml\n" for i in range(4)))
    with pytest.raises(InvalidFileError) as caught:
        load_campaign(path)
    problem = caught.value.problems[0]
    assert (problem.line, problem.code) == (5, "S100")
    assert "too long" in problem.message


def test_a_missing_mission_is_located_at_its_entry(tmp_path: Path) -> None:
    path = _campaign(tmp_path, "  - mission: nowhere.yaml\n  - mission: no-such-id\n")
    with pytest.raises(InvalidFileError) as caught:
        load_campaign(path)
    got = [(p.line, p.col, p.code) for p in caught.value.problems]
    assert got == [(5, 14, "C001"), (6, 14, "C001")]


def test_validate_reports_a_broken_mission_in_its_own_file(tmp_path: Path) -> None:
    _write(tmp_path, "bad.yaml", "format: 1\nid: bad\ntitle: B\nprofile: base\n"
                                 "phases: ['3:00']\nevents: []\n")
    campaign = _campaign(tmp_path, "  - mission: bad.yaml\n")
    result = runner.invoke(app, ["validate", "--json", str(campaign)])
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"].endswith(name), p["line"], p["code"]) for p, name in
            zip(problems, ["c.yaml", "bad.yaml"], strict=True)] == [
        (True, 5, "C002"), (True, 5, "S100")]


def test_lint_lints_the_campaign_and_each_mission_once(tmp_path: Path) -> None:
    _write(tmp_path, "m1.yaml", (OFFICIAL / "simulation-1.yaml").read_text("utf-8"))
    campaign = _campaign(tmp_path, "  - mission: m1.yaml\n    decks: {common: yellow}\n"
                                   "  - mission: m1.yaml\n    decks: {common: white}\n")
    result = runner.invoke(app, ["lint", "--output-format", "json", str(campaign),
                                 str(tmp_path / "m1.yaml")])
    data = json.loads(result.stdout)
    # the mission is named on the command line: it is linted once, not again for the campaign
    assert data["summary"]["files"] == 2
    found = [(Path(p["file"]).name, p["line"], p["code"]) for p in data["problems"]]
    assert ("c.yaml", 7, "C101") in found
    assert ("c.yaml", 7, "C102") in found


def test_campaign_rules_are_listed_and_selected_like_every_rule(tmp_path: Path) -> None:
    listed = runner.invoke(app, ["rules"])
    assert listed.exit_code == 0
    assert "C101" in listed.stdout and "difficulty-falls-off" in listed.stdout
    assert "C102" in listed.stdout and "repeated-mission" in listed.stdout
    flags = {line.split()[0]: line.endswith("(opt-in)") for line in listed.stdout.splitlines()
             if line.startswith("C1")}
    assert flags == {"C101": False, "C102": False, "C103": True}
    _write(tmp_path, "m1.yaml", (OFFICIAL / "simulation-1.yaml").read_text("utf-8"))
    campaign = _campaign(tmp_path, "  - mission: m1.yaml\n    decks: {common: yellow}\n"
                                   "  - mission: m1.yaml\n    decks: {common: white}\n")

    def codes(*options: str) -> set[str]:
        result = runner.invoke(app, ["lint", "--output-format", "json", *options,
                                     str(campaign)])
        return {p["code"] for p in json.loads(result.stdout)["problems"]
                if p["code"].startswith("C")}

    assert codes() == {"C101", "C102"}
    assert codes("--ignore", "C101") == {"C102"}
    assert codes("--ignore", "repeated-mission") == {"C101"}
    assert codes("--select", "C102") == {"C102"}
    assert codes("--select", "M") == set()


def test_damaged_unsurvivable_is_opt_in_and_flags_the_example_campaigns_last_mission(
        tmp_path: Path) -> None:
    example = REPO / "missions" / "examples" / "campaign.yaml"

    def campaign_problems(*options: str) -> list[tuple[int, str, str]]:
        result = runner.invoke(app, ["lint", "--output-format", "json", *options,
                                     str(example)])
        return [(p["line"], p["code"], p["message"]) for p in
                json.loads(result.stdout)["problems"] if p["file"] == str(example)]

    assert campaign_problems() == []
    found = campaign_problems("--select", "C103")
    # simulation 3 (mixed common threats) after two simulations: with the damage carried
    # into it the heuristic crew never came through, played fresh it survives a quarter
    assert [(line, code) for line, code, _ in found] == [(25, "C103")]
    assert "mission 3" in found[0][2] and "played fresh" in found[0][2]
    assert campaign_problems("--select", "C103") == found  # seeded: the same every run
    # with no threshold at all the same run passes (the option reaches the rule)
    config = _write(tmp_path, "lint.yaml", "select: [C103]\nrules: {C103: {threshold: 0.0}}\n")
    assert campaign_problems("--config", str(config)) == []


def test_a_comment_silences_a_campaign_rule_on_its_line(tmp_path: Path) -> None:
    _write(tmp_path, "m1.yaml", (OFFICIAL / "simulation-1.yaml").read_text("utf-8"))
    campaign = _campaign(tmp_path, "  - mission: m1.yaml\n"
                                   "  - mission: m1.yaml  # spacealert: disable=C102\n")
    result = runner.invoke(app, ["lint", "--output-format", "json", str(campaign)])
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == []
    noisy = _campaign(tmp_path, "  - mission: m1.yaml\n  - mission: m1.yaml\n")
    result = runner.invoke(app, ["lint", "--output-format", "json", str(noisy)])
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["C102"]
