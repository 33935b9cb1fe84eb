"""Importers and exporters: real-format samples, round trips, located errors, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from gen_helpers import DATA, OFFICIAL, valid_mission
from typer.testing import CliRunner

from authoring.cli import app
from authoring.errors import InvalidInputError
from authoring.generate import GenerateOptions, generate_mission
from authoring.generate.interchange import (
    EXPORTERS,
    IMPORTERS,
    ImportFormatError,
    export_mission,
    import_file,
    import_text,
    mission_yaml,
)
from authoring.mission import load_mission
from authoring.mission.model import Announcement, CommsDown, DataTransfer, IncomingData, Threat

MISSION_1 = OFFICIAL / "mission-1.yaml"


@pytest.mark.parametrize(("name", "fmt"), [("mission-1.ma.txt", "ma-script"),
                                           ("mission-1.ps.json", "ps-json"),
                                           ("mission-1.flash.txt", "flash-code")])
def test_mission_1_reads_the_same_in_every_format(name: str, fmt: str) -> None:
    official = load_mission(MISSION_1)
    imported = import_file(DATA / name, fmt)
    assert imported.phases == official.phases == (225, 450, 600)
    assert imported.events == official.events
    assert imported.profile == "base"
    assert imported.id == name.rsplit(".", 1)[0].replace(".", "-")
    valid_mission(mission_yaml(imported))


def test_jsamg_xml_and_text_of_one_mission_agree() -> None:
    from_xml = import_file(DATA / "jsamg-generated.xml", "jsamg-xml")
    from_text = import_file(DATA / "jsamg-generated.txt", "jsamg-text")
    assert from_xml.phases == (214, 415, 563)
    assert from_xml.events == (
        Threat(12, 1, "red"), IncomingData(39), Threat(62, 2, "internal", unconfirmed=True),
        Threat(98, 4, "blue", serious=True), CommsDown(121, 12), DataTransfer(226),
        Threat(254, 5, "internal", serious=True), Threat(302, 7, "white"),
        CommsDown(326, 15), DataTransfer(425), CommsDown(446, 18))
    assert from_text.phases == from_xml.phases
    assert from_text.events == from_xml.events


def _missions() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = [(p.stem, load_mission(p))
                                       for p in sorted(OFFICIAL.glob("*.yaml"))]
    for profile in ("base", "training", "test-run", "double-action"):
        found += [(f"{profile}-{seed}", generate_mission(GenerateOptions(
            profile=profile, seed=seed)).mission) for seed in range(15)]  # type: ignore[arg-type]
    return found


@pytest.mark.parametrize("fmt", sorted(EXPORTERS))
def test_export_then_import_gives_the_same_mission(fmt: str) -> None:
    for name, mission in _missions():
        text = export_mission(mission, fmt)  # type: ignore[arg-type]
        back = import_text(text, fmt, f"{name}.out",
                           profile=mission.profile)  # type: ignore[attr-defined]
        assert back.phases == mission.phases, name  # type: ignore[attr-defined]
        assert back.events == mission.events, name  # type: ignore[attr-defined]
        valid_mission(mission_yaml(back))


def test_profile_is_guessed_from_the_structure() -> None:
    test_run = load_mission(OFFICIAL / "test-run-1.yaml")
    assert import_text(export_mission(test_run, "flash-code"), "flash-code").profile == \
        "test-run"
    double = generate_mission(GenerateOptions(profile="double-action", seed=2)).mission
    assert import_text(export_mission(double, "jsamg-xml"), "jsamg-xml").profile == \
        "double-action"


def test_exported_flash_code_and_xml_shapes() -> None:
    mission = load_mission(MISSION_1)
    assert export_mission(mission, "flash-code") == \
        (DATA / "mission-1.flash.txt").read_text("utf-8")
    xml = export_mission(mission, "jsamg-xml").splitlines()
    assert xml[:3] == ["<Mission>", '\t<Phase duration="225000">',
                       '\t\t<Element start="0" type="Announcement" '
                       'message="AnnounceBeginFirstPhase" />']
    assert ('\t\t<Element start="10000" type="Threat" confidence="Confirmed" '
            'threatLevel="SeriousThreat" threatType="ExternalThreat" time="2" zone="White" />'
            ) in xml
    assert '\t\t<Element start="170000" type="CommFailure" duration="10000" />' in xml
    assert '\t\t<Element start="217000" type="Announcement" message="AnnounceFirstPhaseEnds" />' \
        in xml


def test_announcements_cannot_be_exported() -> None:
    mission = load_mission(MISSION_1)
    story = type(mission)(**{**mission.__dict__,
                             "events": (*mission.events[:1], Announcement(20, "Hello"),
                                        *mission.events[1:])})
    with pytest.raises(InvalidInputError, match="free-text announcement, which flash-code"):
        export_mission(story, "flash-code")


BAD = [
    ("flash-code", "", "<in>:1:1: empty file: expected flash-player codes"),
    ("flash-code", "010AL2STW,055XX3,345PE1", "<in>:1:11: unknown code 'XX3'"),
    ("flash-code", "010AL2STW,\n  099ID,345PE1", "<in>:2:3: time 099 has 99 seconds"),
    ("flash-code", "010AL2ST,345PE1",
     "<in>:1:1: '010AL2ST': expected a zone letter R, W or B after ST"),
    ("flash-code", "010AL2ITR,345PE1",
     "<in>:1:1: '010AL2ITR': an internal threat has no zone letter"),
    ("flash-code", "010AL2TW,,345PE1", "<in>:1:10: empty code between two commas"),
    ("flash-code", "010AL2TW", "<in>:1:1: no phase ends found"),
    ("flash-code", "010AL2TW,345PE1,200PE2,600PE3",
     "<in>:1:17: phase 2 ends at 2:00, not after 3:45"),
    ("flash-code", "010AL2TW,345PE1,730PE2,1000PE3,1005ID",
     "<in>:1:32: event at 10:05 is not inside the mission"),
    ("jsamg-xml", "<Mission><Phase duration='1000'>", "<in>:1:33: not well-formed XML: no "
                                                      "element found"),
    ("jsamg-xml", "<Mission>\n <Phase duration='abc'/></Mission>",
     "<in>:2:2: <Phase duration=\"abc\">: expected a whole number of milliseconds"),
    ("jsamg-xml", "<Mission>\n <Phase duration='9000'>\n  <Element start='10' type='Threat' "
                  "confidence='Confirmed' threatLevel='NormalThreat' threatType='ExternalThreat'"
                  " time='3' zone='Green'/></Phase></Mission>",
     "<in>:3:3: external threat zone: expected Red, White or Blue, got 'Green'"),
    ("jsamg-xml", "<?xml version='1.0'?>\n<!DOCTYPE m [<!ENTITY a 'aaaa'>]><Mission/>",
     "<in>:2:1: document type declarations are not allowed"),
    ("jsamg-xml", "<Mission>\n<Phase duration='9000'><Element start='1' type='Boom'/>"
                  "</Phase></Mission>", "<in>:2:24: element type 'Boom': expected one of"),
    ("jsamg-text", "00:10 - Time T+1. Threat. Zone red.\nbanana",
     "<in>:2:1: expected 'MM:SS - <announcement>', got 'banana'"),
    ("jsamg-text", "00:10 - Time T+9. Threat.", "<in>:1:9: unknown announcement"),
    ("jsamg-text", "00:10 - Communication system down...\n00:30 - Incoming data.",
     "<in>:2:9: expected '... Communication system restored.'"),
    ("jsamg-text", "00:10 - Time T+1. Threat.", "<in>:1:9: an external threat needs 'Zone"),
    ("ma-script", "3:45 - 7:30 - 10:00\nAL 0:10 T+2 ST Green",
     "<in>:2:1: zone of a ST threat: expected Red, White or Blue, got 'Green'"),
    ("ma-script", "3:45 - 7:30 - 10:00\n  ID 0:75", "<in>:2:3: time 0:75: expected seconds"),
    ("ma-script", "AL 0:10 T+2 ST White", "<in>:1:1: expected the phase ends first"),
    ("ma-script", "3:45 - 7:30 - 10:00\nCD 2:50 - 2:40",
     "<in>:2:1: communications down from 2:50 to 2:40: expected the end after the start"),
    ("ps-json", "[{\"time\": 10, \"event\": \"threat\", \"t\": 2}\n,{\"time\": 5 \"event\"}]",
     "<in>:2:13: invalid JSON: Expecting ',' delimiter"),
    ("ps-json", "[\n  {\"time\": 10, \"event\": \"alarm\"}]",
     "<in>:2:3: event \"alarm\": expected one of threat"),
    ("ps-json", "[\n  {\"time\": 10, \"event\": \"threat\", \"t\": 12, \"zone\": \"red\"}]",
     "<in>:2:3: 't': expected the turn 1-8, got 12"),
    ("ps-json", "{\"time\": 1}", "<in>:1:1: expected a JSON list '[...]' of events"),
]


@pytest.mark.parametrize(("fmt", "text", "message"), BAD)
def test_malformed_input_is_one_located_error(fmt: str, text: str, message: str) -> None:
    with pytest.raises(ImportFormatError) as caught:
        import_text(text, fmt, "<in>")
    assert caught.value.message.startswith(message)
    assert caught.value.exit_code == 1


def test_every_format_has_a_malformed_case() -> None:
    assert {fmt for fmt, _, _ in BAD} == set(IMPORTERS)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_cli_import_writes_a_valid_mission(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "m1.yaml"
    result = runner.invoke(app, ["import", str(DATA / "mission-1.ma.txt"), "--from",
                                 "ma-script", "-o", str(out)])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == f"wrote {out}\n"
    text = out.read_text("utf-8")
    assert text.startswith("# Imported from mission-1.ma.txt (ma-script) by spacealert ")
    assert valid_mission(text).events == load_mission(MISSION_1).events
    out.write_text("an older import", "utf-8")
    again = runner.invoke(app, ["import", str(DATA / "mission-1.ma.txt"), "--from",
                                "ma-script", "-o", str(out)])
    assert again.exit_code == 0  # outputs are replaced, as by every command
    assert out.read_text("utf-8") == text


def test_cli_import_reports_malformed_files(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[\n  {"time": 10, "event": "threat", "t": 2, "zone": "pink"}\n]\n', "utf-8")
    result = runner.invoke(app, ["import", str(bad), "--from", "ps-json"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (f"error: {bad}:2:3: 'zone': expected one of red, white, blue, "
                             'internal, got "pink"\n')
    missing = runner.invoke(app, ["import", str(tmp_path / "nope.xml"), "--from", "jsamg-xml"])
    assert missing.exit_code == 1
    assert "cannot read the file: no such file or directory" in missing.stderr
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"010ID\x00")
    result = runner.invoke(app, ["import", str(binary), "--from", "flash-code"])
    assert result.exit_code == 1
    assert "binary data (NUL byte at offset 5)" in result.stderr


def test_cli_import_and_export_refuse_unknown_formats(runner: CliRunner) -> None:
    result = runner.invoke(app, ["import", str(MISSION_1), "--from", "mp3"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --from: expected one of jsamg-xml, jsamg-text, "
                                    "flash-code, ma-script, ps-json, got 'mp3'")
    result = runner.invoke(app, ["export", str(MISSION_1), "--to", "ps-json"])
    assert result.exit_code == 2
    assert "--to: expected one of flash-code, jsamg-xml" in result.stderr


def test_cli_export_prints_and_round_trips(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", str(MISSION_1), "--to", "flash-code"])
    assert result.exit_code == 0
    assert result.stdout == (DATA / "mission-1.flash.txt").read_text("utf-8")
    xml = tmp_path / "m1.xml"
    assert runner.invoke(app, ["export", str(MISSION_1), "--to", "jsamg-xml",
                               "-o", str(xml)]).exit_code == 0
    back = runner.invoke(app, ["import", str(xml), "--from", "jsamg-xml"])
    assert back.exit_code == 0
    assert valid_mission(back.stdout).events == load_mission(MISSION_1).events


def test_cli_export_of_an_invalid_mission_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: 1\nid: x\n", "utf-8")
    result = runner.invoke(app, ["export", str(broken), "--to", "flash-code"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {broken}:")


def test_interchange_imports_only_the_mission_contract_the_crew_rule_and_errors() -> None:
    import ast

    package = Path(__file__).resolve().parents[2] / "authoring" / "generate" / "interchange"
    allowed = ("authoring.mission", "authoring.crew", "authoring.errors",
               "authoring.generate.interchange")
    found = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names
                      if n.startswith("authoring") and not n.startswith(allowed)]
    assert found == []


@pytest.mark.parametrize("fmt", ["flash-code", "jsamg-xml"])
@pytest.mark.parametrize("name", ["examples/four-player-short", "official/simulation-1",
                                  "official/mission-1", "official/test-run-1"])
def test_export_says_what_it_drops_and_import_brings_back_what_plays(
        tmp_path: Path, fmt: str, name: str) -> None:
    source = Path(__file__).resolve().parents[2] / "missions" / f"{name}.yaml"
    original = load_mission(source)
    exported = tmp_path / "exported.txt"
    runner = CliRunner()
    result = runner.invoke(app, ["export", str(source), "--to", fmt, "-o", str(exported)])
    assert result.exit_code == 0, result.output
    assert f"note: {fmt} cannot hold " in result.stderr
    assert f"title {original.title!r}" in result.stderr
    options: list[str] = []
    for line in result.stderr.splitlines():
        if line.startswith("note: to read it back as it was: "):
            options = line.split(f"--from {fmt}")[1].split()
    assert ("--players" in options) == (original.players != 5)
    back = tmp_path / "back.yaml"
    imported = runner.invoke(app, ["import", str(exported), "--from", fmt, "-o", str(back),
                                   *options])
    assert imported.exit_code == 0, imported.output
    again = load_mission(back)
    assert (again.players, again.profile, again.phases, again.events) == (
        original.players, original.profile, original.phases, original.events)


JSAMG = Path(__file__).parent / "data" / "jsamg"


@pytest.mark.parametrize("seed", [1, 7, 42, 50])
def test_jsamg_real_outputs_agree_across_its_formats(seed: int) -> None:
    xml = import_file(JSAMG / f"seed{seed}.xml", "jsamg-xml")
    assert len(xml.phases) == 3  # the phases JSAMG never closed are recovered
    text = import_file(JSAMG / f"seed{seed}.txt", "jsamg-text")
    assert (text.phases, text.events) == (xml.phases, xml.events)
    if seed != 50:  # its Flash code lost PE3 (below)
        flash = import_file(JSAMG / f"seed{seed}_flashplayercode.txt", "flash-code")
        assert (flash.phases, flash.events) == (xml.phases, xml.events)


def test_jsamg_xml_phases_are_its_durations() -> None:
    mission = import_file(JSAMG / "seed1.xml", "jsamg-xml")
    assert mission.phases == (221, 221 + 195, 221 + 195 + 147)
    assert mission.events[0] == Threat(15, 1, "blue", False, False)


def test_jsamg_console_output_with_banner_and_colours_reads_like_its_text() -> None:
    text = import_file(JSAMG / "seed1.txt", "jsamg-text")
    for name in ("seed1-console.txt", "seed1-console-color.txt"):
        console = import_file(JSAMG / name, "jsamg-text")
        assert (console.phases, console.events) == (text.phases, text.events), name


def test_jsamg_lost_final_countdown_is_recovered_from_the_warning() -> None:
    mission = import_file(JSAMG / "seed50.txt", "jsamg-text")
    # "08:13 - Operation ends in one minute." starts 65 s before the end
    assert mission.phases[-1] == 8 * 60 + 13 + 65
    with pytest.raises(ImportFormatError) as lost:
        import_file(JSAMG / "seed50_flashplayercode.txt", "flash-code")
    assert lost.value.message.endswith(": the end of phase 3 (a PE3 code) is missing: the "
                                       "event at 6:50 comes after the last phase end found "
                                       "(phase 2 at 6:49)")


def test_jsamg_text_without_the_countdown_or_its_warnings_says_what_is_missing(
        tmp_path: Path) -> None:
    text = (JSAMG / "seed50.txt").read_text("utf-8")
    cut = "".join(line for line in text.splitlines(keepends=True)
                  if "Operation ends in" not in line)
    path = tmp_path / "cut.txt"
    path.write_text(cut, encoding="utf-8")
    with pytest.raises(ImportFormatError) as missing:
        import_file(path, "jsamg-text")
    assert "the end of phase 3 is missing" in missing.value.message


def test_an_empty_xml_file_gets_the_importers_message(tmp_path: Path) -> None:
    for content in ("", "\n  \n"):
        path = tmp_path / "empty.xml"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(ImportFormatError) as empty:
            import_file(path, "jsamg-xml")
        assert empty.value.message.endswith("1:1: empty file: expected a <Mission> element")


def test_broken_jsamg_xml_still_fails_where_it_breaks(tmp_path: Path) -> None:
    text = (JSAMG / "seed1.xml").read_text("utf-8")
    path = tmp_path / "cut.xml"
    path.write_text(text.replace("</Mission>", "</Mission><Phase"), encoding="utf-8")
    with pytest.raises(ImportFormatError) as broken:
        import_file(path, "jsamg-xml")
    assert "not well-formed XML" in broken.value.message


def _console_flash_code(folder: Path) -> Path:
    """What JSAMG prints for seed 1 with ``-p FlashPlayerCode``: its banner, then the code.

    Made from two of its real outputs of that seed: MissionGenerator.main prints the banner
    (println), then FlashplayercodeRenderer.print the code that ``-o FlashPlayerCode`` writes
    (println: with a line break, which the file lacks).
    """
    banner = (JSAMG / "seed1-console.txt").read_text("utf-8").splitlines(keepends=True)[:3]
    assert banner[0].startswith("Java Space Alert Mission Generator - v")
    code = (JSAMG / "seed1_flashplayercode.txt").read_text("utf-8")
    folder.mkdir()
    path = folder / "seed1.txt"
    path.write_text("".join(banner) + code + "\n", encoding="utf-8")
    return path


def test_jsamg_console_flash_code_imports_as_the_bare_code(runner: CliRunner,
                                                            tmp_path: Path) -> None:
    console = _console_flash_code(tmp_path / "console")
    bare = tmp_path / "bare" / "seed1.txt"  # the same name: the same id and title
    bare.parent.mkdir()
    bare.write_bytes((JSAMG / "seed1_flashplayercode.txt").read_bytes())
    from_console = runner.invoke(app, ["import", str(console), "--from", "flash-code"])
    from_bare = runner.invoke(app, ["import", str(bare), "--from", "flash-code"])
    assert from_console.exit_code == 0, from_console.stderr
    assert from_bare.exit_code == 0, from_bare.stderr
    assert from_console.stdout == from_bare.stdout
    assert valid_mission(from_console.stdout).events == import_file(
        JSAMG / "seed1.xml", "jsamg-xml").events


def test_an_error_after_the_banner_points_into_the_file_as_it_is(tmp_path: Path) -> None:
    path = _console_flash_code(tmp_path / "console")
    path.write_text(path.read_text("utf-8").replace("047AL2IT", "047XX2"), encoding="utf-8")
    with pytest.raises(ImportFormatError) as caught:
        import_file(path, "flash-code")
    assert caught.value.message.startswith(f"{path}:4:10: unknown code 'XX2'")


@pytest.mark.parametrize(("fmt", "expected"), [
    ("flash-code", "flash-player codes such as 010AL2STW"),
    ("jsamg-text", "lines such as '00:10 - Time T+1. Threat. Zone red.'")])
def test_a_banner_without_output_is_one_located_error(runner: CliRunner, tmp_path: Path,
                                                      fmt: str, expected: str) -> None:
    banner = "".join((JSAMG / "seed1-console.txt").read_text("utf-8")
                     .splitlines(keepends=True)[:3])
    path = tmp_path / "banner.txt"
    path.write_text(banner, encoding="utf-8")
    result = runner.invoke(app, ["import", str(path), "--from", fmt])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {path}:4:1: only JSAMG's banner, nothing after "
                                    f"it: expected {expected}")
    assert len(result.stderr.splitlines()) == 1


#: Every banner JSAMG's source prints (MissionGenerator.main, MavenProperties): the version and
#: build time of a jar, the empty ones of compiled classes without pom.properties ("- v",
#: "Build: "), and the two-line banner of the versions before the licence line.
BANNERS = {
    "jar": "Java Space Alert Mission Generator - v1.4.1\nBuild: Sat Mar 09 14:21:07 CET 2024\n"
           "This program is free software published under the GPL v3.0\n",
    "classes": "Java Space Alert Mission Generator - v\nBuild: \n"
               "This program is free software published under the GPL v3.0\n",
    "snapshot": "Java Space Alert Mission Generator - v1.5-SNAPSHOT\nBuild: \n"
                "This program is free software published under the GPL v3.0\n",
    "before the licence line": "Java Space Alert Mission Generator - v1.2\n"
                               "Build: Mon Jan 16 10:00:00 CET 2012\n",
    "before the licence line, from classes": "Java Space Alert Mission Generator - v\n"
                                             "Build: \n",
}


@pytest.mark.parametrize("banner", BANNERS)
@pytest.mark.parametrize(("fmt", "bare"), [("flash-code", "seed1_flashplayercode.txt"),
                                           ("jsamg-text", "seed1.txt")])
def test_every_banner_jsamg_prints_is_read(runner: CliRunner, tmp_path: Path, banner: str,
                                           fmt: str, bare: str) -> None:
    # Issue 38: a capture with an empty "Build: " line failed with "expected a code …, got
    # 'Build: \nThis program is free soft…'"
    output = (JSAMG / bare).read_text("utf-8")
    console = tmp_path / "console" / "seed1.txt"
    plain = tmp_path / "bare" / "seed1.txt"  # the same name: the same id and title
    for path, text in ((console, BANNERS[banner] + output + "\n"), (plain, output)):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
    from_console = runner.invoke(app, ["import", str(console), "--from", fmt])
    assert from_console.exit_code == 0, from_console.stderr
    assert from_console.stdout == runner.invoke(app, ["import", str(plain), "--from", fmt]).stdout
