"""The rules: the reference engine, the game as docs/rules.md writes it, in plain Python.

A game's setup (``setup``), the plan a crew writes (``plan``, ``notation``), the ship and its
state (``ship``, ``state``), the turn loop (``game``) with its actions, weapons and damage, the
threat cards and their abilities (``threats/``), scoring, rule levels, campaigns, and the
action-card hands a crew is dealt and what a plan can be played with them (``hands``: the deal
is part of the rules, docs/rules.md §16.1). Nothing here knows about odds or native cores: the
rooms ``odds`` and ``cores`` beside it build on this one.
"""
