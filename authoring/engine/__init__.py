"""Resolves a crew plan against a mission's threats: the rules engine (standard library only).

Typical use::

    from authoring.engine import make_setup, parse_plan, resolve

    setup = make_setup([(1, "white", "E1-10")], "T1 T2 T3 T4")
    result = resolve(setup, parse_plan("P1: A\\nA1:\\nA2:\\nA3:"))
    result.survived, result.score.total
"""

from __future__ import annotations

from authoring.engine.errors import EngineError, NotationError, PlanError, SetupError
from authoring.engine.odds.estimate import Estimate, estimate
from authoring.engine.odds.exact import ExactOutcome, Odds, exact_outcome
from authoring.engine.rules.campaign import (
    CampaignResult,
    CarryOver,
    format_campaign,
    parse_repairs,
    resolve_campaign,
)
from authoring.engine.rules.game import Game, initial_state, resolve, resolve_mission
from authoring.engine.rules.levels import LEVELS, RuleLevel, get_level
from authoring.engine.rules.log import LogEntry, Result, Score, ThreatOutcome, format_result
from authoring.engine.rules.notation import notation, parse_notation
from authoring.engine.rules.plan import (
    Action,
    CrewPlan,
    Plan,
    make_crew_plan,
    parse_action,
    parse_plan,
)
from authoring.engine.rules.setup import Setup, ThreatEvent, make_setup, setup_from_mission

__all__ = [
    "LEVELS",
    "Action",
    "CampaignResult",
    "CarryOver",
    "CrewPlan",
    "EngineError",
    "Estimate",
    "ExactOutcome",
    "Game",
    "LogEntry",
    "NotationError",
    "Odds",
    "Plan",
    "PlanError",
    "Result",
    "RuleLevel",
    "Score",
    "Setup",
    "SetupError",
    "ThreatEvent",
    "ThreatOutcome",
    "estimate",
    "exact_outcome",
    "format_campaign",
    "format_result",
    "get_level",
    "initial_state",
    "make_crew_plan",
    "make_setup",
    "notation",
    "parse_action",
    "parse_notation",
    "parse_plan",
    "parse_repairs",
    "resolve",
    "resolve_campaign",
    "resolve_mission",
    "setup_from_mission",
]
