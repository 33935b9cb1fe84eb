"""Tests the resolution output: the log, the JSON mapping and the text report."""

from __future__ import annotations

import json

from authoring.engine import format_result, make_setup, parse_plan, resolve

SETUP = make_setup([(1, "white", "E1-05")], "T1 T2 T3 T4")
PLAN = parse_plan("P1: C - A A\ntokens: white=structural")


def test_log_names_actions_hits_moves_and_tokens() -> None:
    result = resolve(SETUP, PLAN)
    lines = [(e.turn, e.step, e.text) for e in result.log]
    assert (1, "appear", "E1-05 Gunship appears in white (square 11)") in lines
    assert (1, "action", "P1 maintains the computer") in lines
    assert (2, "threat", "Gunship reaches X") in lines
    assert (2, "threat", "white damage token: structural") in lines
    assert (3, "damage", "the white heavy laser targets Gunship (5)") in lines
    assert (4, "damage", "Gunship is destroyed") in lines


def test_to_dict_is_json_ready_and_stable() -> None:
    data = resolve(SETUP, PLAN, trace=True).to_dict()
    assert list(data) == ["outcome", "score", "damage", "threats", "log", "trace"]
    assert data["outcome"] == {"survived": True, "turn": 13, "cause": ""}
    assert data["score"]["total"] == 2
    assert data["damage"] == {"red": [], "white": ["structural"], "blue": []}
    assert data["threats"][0]["fate"] == "destroyed"
    assert len(data["trace"]) == 14
    json.dumps(data)


def test_text_report() -> None:
    text = format_result(resolve(SETUP, PLAN))
    assert "Turn 3\n  [action] P1 fires the heavy laser at UW\n" in text
    assert "Outcome: the ship survived" in text
    assert "  T+1 white E1-05 Gunship: destroyed in turn 4, 4 points" in text
    assert text.rstrip().endswith(
        "Score 2 = threats 4 + visual confirmation 0 - damage 1 - worst zone 1"
        " - knocked out 0 - disabled squads 0")


def test_a_lost_mission_has_no_score() -> None:
    setup = make_setup([(1, "white", "SE2-05")], "T1 T3 T2 T4")
    result = resolve(setup, parse_plan("P1:"))
    assert (result.survived, result.turn, result.score) == (False, 4, None)
    assert result.cause == "Nemesis reached Z"
    assert "Outcome: the ship was destroyed in turn 4 (Nemesis reached Z)" in format_result(result)


def test_the_seed_argument_overrides_the_plan_seed() -> None:
    setup = make_setup([(1, "red", "E1-01")], "T3 T1 T2 T4")
    plan = parse_plan("P1:")
    draws = {resolve(setup, plan, seed=s).damage["red"] for s in range(20)}
    assert len(draws) > 1
    assert resolve(setup, plan, seed=3) == resolve(setup, plan, seed=3)


def _threat_lines(setup_args: tuple[str, str], plan: str = "P1: C - - C - - - C") -> list[str]:
    zone, card = setup_args
    result = resolve(make_setup([(1, zone, card)], "T1 T2 T3 T4"), parse_plan(plan))
    return [f"{e.turn} {e.text}" for e in result.log if e.step == "threat"]


def test_doubled_damage_is_worded_step_by_step() -> None:
    lines = _threat_lines(("blue", "E1-02"), "P1: C")
    assert "2 Destroyer attacks blue for 1: the shield absorbs 1, 0 get past" in lines
    assert "5 Destroyer attacks blue for 2: the shield absorbs 0, 2 get past, doubled to 4" \
        in lines
    assert "5 Destroyer: 4 damage to blue" in lines


def test_slime_and_power_overload_effects_are_logged() -> None:
    assert _threat_lines(("internal", "I2-02"))[1:4] == [
        "2 Slime disables the battlebots stored at LR", "4 Slime reaches Y",
        "4 Slime spreads from LR to LW (a 1-health offshoot)"]
    assert _threat_lines(("internal", "SI2-03"))[1:4] == [
        "2 Power System Overload drains 2 from the central reactor (3 -> 1)",
        "3 Power System Overload reaches Y",
        "3 Power System Overload drains 1 from each reactor (red 2 -> 1, white 1 -> 0, "
        "blue 2 -> 1)"]


def test_every_state_change_of_every_card_action_is_logged() -> None:
    # each X/Y/Z operation of every card is run on a ship with something to lose (energy,
    # rockets, fuel, crew in every station, a stored squad, a damaged threat): whenever the
    # state changes, the log must have said so
    import random

    from authoring.engine import Plan, make_crew_plan
    from authoring.engine.rules.damage import ShipDestroyed
    from authoring.engine.rules.game import Game, initial_state
    from authoring.engine.rules.notation import notation
    from authoring.engine.rules.threats import abilities
    from authoring.engine.rules.threats.cards import load_cards

    silent: dict[str, set[str]] = {}
    plan = Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(5)))
    for card in (c for c in load_cards().values() if c.playable):
        setup = make_setup([(1, "red" if card.external else "internal", card.id)],
                           "T1 T2 T3 T4", 5)
        for op in (*card.x, *card.y, *card.z):
            for damaged in (0, 1):
                game = Game(initial_state(setup, plan), random.Random(1))
                game.play_turn(1)
                state, threat = game.state, game.state.threats[0]
                state.shields[:], state.reactors[:] = [2, 2, 2], [2, 5, 2]
                state.rockets, state.fuel, threat.damage = 3, 3, damaged
                for index, member in enumerate(state.crew):
                    member.station = index
                before, logged = notation(state), len(game.log or ())
                try:
                    abilities.OPS[op[0]](game, threat, *op[1:])
                except ShipDestroyed:
                    continue
                if notation(state) != before and len(game.log or ()) == logged:
                    silent.setdefault(str(op[0]), set()).add(card.name)
    assert silent == {}
