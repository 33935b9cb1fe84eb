"""The odds: what a plan is worth over the draws the rules leave to chance.

The draw tree of a plan and its exact and sampled valuation (``evaluator``, ``exact``), the
seeded estimate (``estimate``) and the one value function they and the crews fold outcomes
with (``value``). Built on the rules (``authoring.engine.rules``), never the other way round.
"""
