"""Text and JSON views of a solution: the plan as an aligned table in plan notation."""

from __future__ import annotations

from typing import Any

from authoring.engine import Plan
from authoring.solve.problem import Problem
from authoring.solve.search import Solution

_WIDTH = 4


def plan_table(plan: Plan) -> str:
    """Returns the crew lines as a 12-column table that ``parse_plan`` still reads.

    Blank slots are written as ``-`` so that every column stays in place; the header is a
    comment line.
    """
    label_width = max(len(member.label) for member in plan.crew) + 2
    header = "#" + " " * (label_width - 1) + "".join(f"{n:<{_WIDTH}}" for n in range(1, 13))
    lines = [header.rstrip()]
    for member in plan.crew:
        cells = "".join(f"{a.token():<{_WIDTH}}" for a in member.actions)
        lines.append(f"{member.label + ':':<{label_width}}{cells}".rstrip())
    return "\n".join(lines)


def text_report(problem: Problem, plan: Plan, solution: Solution) -> str:
    """Returns the plan in compact plan notation with the verdict as comment lines."""
    value = solution.value
    how = ("exact over every damage-token draw" if value.exact
           else f"estimated from {value.leaves} draw sequences (stratified sample)")
    lines = [
        f"# {problem.mission.id}: {len(problem.labels)} crew "
        f"({', '.join(problem.labels)}), seed {problem.seed}",
        f"# expected score {value.expected:.2f}, survival {value.survival:.1%} ({how})",
        plan_table(plan),
    ]
    lines.extend(line for line in plan.text().splitlines() if not _is_crew_line(line))
    lines.append(f"# {solution.iterations} iterations, {solution.evaluations} evaluations, "
                 f"{solution.seconds:.1f} s, {solution.eval_rate:.0f} evaluations/s per "
                 f"restart (median)")
    return "\n".join(lines) + "\n"


def _is_crew_line(line: str) -> bool:
    return line[:1] in ("P", "A") and line[1:2].isdigit()


def json_report(problem: Problem, plan: Plan, solution: Solution) -> dict[str, Any]:
    """Returns the solution as a JSON-ready mapping with stable keys."""
    value = solution.value
    return {
        "mission": problem.mission.id,
        "players": problem.mission.players,
        "crew": list(problem.labels),
        "seed": problem.seed,
        "plan": plan.to_mapping(),
        "notation": plan.text(),
        "expected_score": round(value.expected, 6),
        "survival": round(value.survival, 6),
        "evaluation": {"method": "exact" if value.exact else "stratified-sample",
                       "draw_sequences": value.leaves},
        "start": {"expected_score": round(solution.start_value.expected, 6),
                  "survival": round(solution.start_value.survival, 6)},
        "search": {"iterations": solution.iterations, "evaluations": solution.evaluations,
                   "seconds": round(solution.seconds, 3),
                   "evaluations_per_second": round(solution.eval_rate, 1),
                   "restarts": len(solution.restarts)},
    }
