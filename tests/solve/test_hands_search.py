"""``solve --hands`` in the search: moves are laid from the dealt cards (docs/rules.md §16.1)."""

from __future__ import annotations

from pathlib import Path

from authoring.engine import Plan, make_crew_plan
from authoring.engine.hands import decode_rows, playable
from authoring.mission import load_mission
from authoring.solve import encode_plan, prepare, solve
from authoring.solve.hands import within

OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"


def test_a_heroic_half_becomes_the_members_own_and_the_rest_is_projected() -> None:
    problem = prepare(load_mission(OFFICIAL / "mission-1.yaml"), seed=3, hands=True)
    request = problem.request(iterations=10, jobs=1)
    hands = problem.hands
    assert hands is not None
    own, second = hands.heroic[0], hands.heroic[1]
    assert own is not None and second is not None
    move = ">UR" if own.move != ">UR" else ">LB"
    action = "A+" if second.action != "A+" else "B+"
    many = " ".join(["R"] * 12)  # 36 battlebots more: the deck holds 15
    tokens = {"P1": f"{move} R R R R R R R R R R R", "P2": f"- {action}", "P3": many,
              "P4": many, "P5": many}
    crew = [make_crew_plan(label, tokens.get(label, "")) for label in problem.labels]
    rows = encode_plan(Plan(tuple(crew)))
    projected = decode_rows(hands, within(request, [list(r) for r in rows]))
    assert projected[0].actions[0].token() == own.move  # P1's own heroic move
    assert projected[1].actions[1].token() == second.action  # P2's own heroic action
    assert sum(a.token() == "R" for m in projected for a in m.actions) <= 15
    assert playable(hands, projected)
    again = [[c for c in row] for row in encode_plan(Plan(projected))]
    assert within(request, again, again) == again  # playable: unchanged


def test_every_plan_the_search_keeps_is_playable() -> None:
    problem = prepare(load_mission(OFFICIAL / "mission-3.yaml"), seed=2, hands=True)
    assert problem.hands is not None
    solution = solve(problem.request(iterations=400, jobs=1, restarts=2))
    assert playable(problem.hands, decode_rows(problem.hands, solution.slots))
    for restart in solution.restarts:
        for _, plan in restart.elites:
            assert playable(problem.hands, decode_rows(problem.hands, plan))
