"""Expected score of a crew plan over the damage-token draws, for the solver's search.

The draws are followed by the engine's one evaluator (``authoring.engine.odds.evaluator``): each
attack's token *sets* are enumerated while the budget lasts, equal futures are merged, and past
the budget an attack draws one set with a generator seeded per evaluation and keeps the whole
weight (an unbiased stratified sample of the same tree, with the same samples for every plan:
common random numbers keep comparisons between plans fair). Good plans take little damage, so
their trees are small and their value is exact; the search itself uses budget 0 (one sampled
draw) and only the final candidates get the full tree. The search's soft rules and the folding
of the leaves live with the evaluator in the engine (compiled with it in the native core); this
module picks the core and wraps the result in a ``Value``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import ModuleType

from authoring.engine import Plan, Setup
from authoring.engine.cores import NATIVE, available, module
from authoring.engine.odds import evaluator as python_evaluator
from authoring.engine.rules import game as python_game
from authoring.engine.rules import levels as python_levels
from authoring.engine.rules.plan import BLANK_ACTION, SLOTS, CrewPlan, encode

Slots = list[list[int]]  # per crew member, 12 encoded actions


@dataclass(frozen=True)
class Value:
    """A plan's value: search objective, expected score, survival probability, exactness."""

    objective: float  # expected shaped value (lost ships below every surviving one)
    expected: float  # expected score, a lost ship scoring 0 (docs/rules.md §15)
    survival: float  # probability that the ship survives
    exact: bool  # True when every draw outcome was played
    leaves: int  # draw sequences played to the end


@cache
def _core() -> tuple[ModuleType, ModuleType, ModuleType]:
    """Returns the (evaluator, game, levels) modules of the fastest core that has them: the
    native core once built (authoring/_native.py compiles the evaluator with the game)."""
    # the C core plays whole games only (no evaluator module): the mypyc core is the fastest
    # with the evaluator's modules
    if NATIVE in available():
        try:
            return (module(NATIVE, "evaluator"), module(NATIVE, "game"), module(NATIVE, "levels"))
        except ImportError:  # an older build without the evaluator: the reference
            pass
    return python_evaluator, python_game, python_levels


class Evaluator:
    """Evaluates many crew plans against one setup without building ``Plan`` objects.

    ``labels`` are the crew labels in seat order; a plan is given as encoded slots
    (``encode_plan``). ``budget`` bounds the extra leaves of the draw tree (0: one sampled
    draw sequence); ``sample_seed`` seeds the sampled branches past the budget. ``soft``
    plays the search's soft rules (``authoring.engine.odds.evaluator.SoftGame``): the objective
    then ranks plans that lose the ship by how far they are from surviving, and
    ``expected``/``survival`` count an overflowing ship as lost; ``progress`` credits a
    surviving ship for damage on the threats it left alive (soft rules only: see
    ``authoring.engine.odds.evaluator.SURVIVOR_PROGRESS``). ``max_runs`` caps the turn
    replays of one evaluation (merged outcomes give budget back, so leaves alone do not bound
    the work); past it every draw is sampled. The work runs in the engine's
    ``PlanEvaluator``, on the native core when it is built.
    """

    def __init__(self, setup: Setup, labels: tuple[str, ...], *, budget: int = 64,
                 sample_seed: int = 0, soft: bool = False, max_runs: int | None = None,
                 native: bool = True, progress: float = 0.0) -> None:
        self.setup = setup
        self.labels = labels
        self.budget = budget
        self.sample_seed = sample_seed
        evaluator, game, levels = _core() if native else (python_evaluator, python_game,
                                                          python_levels)
        blank = Plan(tuple(CrewPlan(label, (BLANK_ACTION,) * SLOTS) for label in labels))
        self.engine = evaluator.PlanEvaluator(levels.get_level(setup.level),
                                              game.initial_state(setup, blank), budget=budget,
                                              sample_seed=sample_seed, soft=soft,
                                              max_runs=max_runs, progress=progress)
        self.max_runs: int = self.engine.tree.max_runs
        self.evaluations = 0

    def evaluate(self, slots: Slots,
                 leaves_out: list[tuple[float, list[list[int]]]] | None = None) -> Value:
        """Returns the value of a plan given as encoded slots per crew member.

        ``leaves_out`` receives each played draw sequence: its weight and the damage tokens
        drawn per zone in order (for replaying it through the engine's ``resolve``).
        """
        self.evaluations += 1
        if leaves_out is None:
            return Value(*self.engine.evaluate(slots))
        tree = self.engine.follow(slots)
        for leaf in tree.leaves:
            leaves_out.append((leaf.weight, [tokens[:] for tokens in leaf.state.tokens]))
        return Value(*self.engine.fold_tree(tree))

    def evaluate_many(self, plans: list[Slots]) -> list[Value]:
        """Returns the value of each plan (one call into the engine for all of them)."""
        self.evaluations += len(plans)
        return [Value(*valued) for valued in self.engine.evaluate_many(plans)]


def encode_plan(plan: Plan) -> Slots:
    """Returns the encoded slots of each crew member of a plan."""
    return [[encode(a) for a in member.actions] for member in plan.crew]
