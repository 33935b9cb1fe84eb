"""The plan search: a greedy heuristic start, then seeded annealing restarts on all cores.

The restarts run in rounds of successive halving (the better half of them, by their best plan
checked on a small draw tree, go on from that plan), every other one with a slope toward
threats left alive; the last round ends with a systematic polish of each best plan, and the
final few plans (the start plan among them) are judged on the full draw tree. Moves include
errands (``moves.errand``), which keep the rest of a crew member's row at its stations.

Determinism: the restarts' seeds, iteration shares and sample seeds depend only on the request
(never on ``jobs`` or timing), and the merge picks the best final value, ties going to the
lowest restart index. With ``iterations`` the plan is the same on every run and any ``jobs``;
a ``time_limit`` stops restarts by the clock, which gives up that guarantee.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import queue
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from authoring._workers import quickest_start_method, worker_pool
from authoring.engine import Setup
from authoring.engine.odds.evaluator import SURVIVOR_PROGRESS
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.plan import SLOTS, STATIONS
from authoring.simulation.moves import (
    EMPTY,
    Mover,
    alphabet,
    downgrade,
    errand,
    errand_actions,
    fix_heroics,
    is_heroic,
)
from authoring.solve.evaluate import Evaluator, Slots, Value
from authoring.solve.hands import fits, within

#: Extra draw-tree leaves per evaluation inside the search (cheap, common random numbers) …
SEARCH_BUDGET = 0
#: … to check each new best plan of a restart before it becomes an elite (one sampled draw
#: flatters a plan that was lucky with it) …
VERIFY_BUDGET = 24
#: … to screen the restarts' elite plans …
SCREEN_BUDGET = 200
FINALISTS = 3
#: … and for the final verdict on the best few (exact for every plan a crew would play; the
#: replay cap bounds the work on plans that take heavy damage).
FINAL_BUDGET = 20000
FINAL_RUNS = 40000
#: Distinct best plans each restart keeps for the final, finer evaluation.
ELITES = 3
#: The share of the annealing's proposals that are errands (``moves.errand``).
ERRANDS = 0.3
#: How many times the restarts are halved (``solve``).
HALVINGS = 2
#: The share of each restart's budget spent polishing its best plan (``polish``).
POLISH = 0.1
T_START = 4.0
T_END = 0.05


@dataclass(frozen=True)
class Request:
    """What to solve: the setup, the crew, the fixed rows and the search budget."""

    setup: Setup
    labels: tuple[str, ...]
    fixed: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # crew index -> slots
    seed: int = 0
    iterations: int | None = 100000  # the whole budget, shared by the restarts
    time_limit: float | None = None  # seconds of wall clock; not deterministic
    jobs: int = 1
    restarts: int = 8  # halved after each round (``HALVINGS``)
    heroics: bool = True
    turns: int = SLOTS  # the rule level's last turn with actions
    doubles: bool = False  # double-action cards may be played (a double-action track)
    hands: Hands | None = None  # dealt action cards: plans are projected onto them (hands.py)


@dataclass(frozen=True)
class Progress:
    """A progress report: iterations done so far (all restarts) and the best value."""

    done: int
    total: int | None
    best: float
    elapsed: float


@dataclass(frozen=True)
class RestartResult:
    """One annealing restart: its elite plans, effort and speed."""

    index: int
    elites: tuple[tuple[float, tuple[tuple[int, ...], ...]], ...]  # (objective, plan)
    iterations: int
    evaluations: int
    seconds: float


@dataclass(frozen=True)
class Solution:
    """The best plan found, its final value and what the search cost."""

    slots: tuple[tuple[int, ...], ...]
    value: Value
    start_value: Value  # the heuristic start plan's value (screening tree)
    iterations: int
    evaluations: int
    seconds: float
    eval_rates: tuple[float, ...]  # evaluations per second of each restart
    restarts: tuple[RestartResult, ...]

    @property
    def eval_rate(self) -> float:
        """Returns the median evaluations per second over the restarts."""
        return statistics.median(self.eval_rates) if self.eval_rates else 0.0


def restart_seed(seed: int, index: int) -> int:
    """Returns the seed of restart ``index`` (string seeds hash stably across platforms)."""
    return random.Random(f"solve:{seed}:{index}").randrange(2**63)


def shares(total: int, parts: int) -> list[int]:
    """Splits an iteration budget into ``parts`` near-equal shares, larger ones first."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def free_rows(request: Request) -> list[int]:
    """Returns the crew indexes the search may change."""
    return [i for i in range(len(request.labels)) if i not in request.fixed]


def heuristic_start(request: Request, evaluator: Evaluator) -> Slots:
    """Builds the start plan greedily: turn by turn, each free member's best single card or
    errand (``moves.errand``: walk to a station, act, walk back) from that turn.

    The later slots stay as they are while a slot is chosen, so each choice is judged by the
    whole mission's outcome (a lost ship still scores by how long it lasted). Deterministic.
    """
    plan: Slots = [list(request.fixed.get(i, (EMPTY,) * SLOTS))
                   for i in range(len(request.labels))]
    cards = alphabet(request.heroics, request.doubles)
    errands = errand_actions(request.heroics)
    best = evaluator.evaluate(plan).objective
    for slot in range(request.turns):
        for member in free_rows(request):
            choice: list[int] | None = None
            for row in _start_rows(plan[member], slot, cards, errands, request.turns):
                if not _row_fits(request, plan, member, row):
                    continue
                value = _try_row(evaluator, plan, member, row)
                if value > best:
                    best, choice = value, row
            if choice is not None:
                plan[member] = choice
    return within(request, plan)


def _start_rows(row: list[int], slot: int, cards: Sequence[int], errands: Sequence[int],
                turns: int) -> Iterator[list[int]]:
    """Yields the rows the greedy start weighs for ``slot``: each other single card there,
    then each errand from there (``moves.errand``), heroic cards kept to one."""
    for card in cards:
        if card != row[slot]:
            candidate = row[:]
            candidate[slot] = card
            fix_heroics(candidate, slot)
            yield candidate
    for station in range(len(STATIONS)):
        for action in errands:
            candidate = row[:]
            if errand(candidate, slot, station, action, turns, insert=False):
                fix_heroics(candidate, slot)
                yield candidate


def _row_fits(request: Request, plan: Slots, member: int, row: list[int]) -> bool:
    """Tells whether the plan with ``row`` for ``member`` can be played from the request's
    hands (always without hands)."""
    if request.hands is None:
        return True
    saved = plan[member]
    plan[member] = row
    try:
        return fits(request, plan)
    finally:
        plan[member] = saved


def _try_row(evaluator: Evaluator, plan: Slots, member: int, row: list[int]) -> float:
    saved = plan[member]
    plan[member] = row
    value = evaluator.evaluate(plan).objective
    plan[member] = saved
    return value


_QUEUE: Any = None  # the progress queue of a worker process (set by the pool initializer)


def _init_worker(progress_queue: Any) -> None:
    global _QUEUE
    _QUEUE = progress_queue


@dataclass(frozen=True)
class _Task:
    request: Request
    start: tuple[tuple[int, ...], ...]
    index: int
    iterations: int | None
    seconds: float | None
    key: int = 0  # the progress reports' key (unique per round and restart)
    lo: float = 0.0  # the part of the annealing schedule this task runs
    hi: float = 1.0


def _run_task(task: _Task) -> RestartResult:
    def report(done: int, best: float) -> None:
        if _QUEUE is not None:
            _QUEUE.put((task.key, done, best))
    return anneal(task, report)


def anneal(task: _Task, report: Callable[[int, float], None] | None = None) -> RestartResult:
    """Runs one annealing restart from the start plan; returns its elite plans."""
    request = task.request
    began = time.perf_counter()
    # A portfolio: every other restart credits damage on threats left alive (a slope toward
    # kills that take several steps, which can also lure a search away from simpler plans).
    progress = SURVIVOR_PROGRESS if task.index % 2 == 0 else 0.0
    evaluator = Evaluator(request.setup, request.labels, budget=SEARCH_BUDGET,
                          sample_seed=request.seed, soft=True, progress=progress)
    rng = random.Random(restart_seed(request.seed, task.index) + task.key)
    free = free_rows(request)
    current: Slots = [list(row) for row in task.start]
    verifier = Evaluator(request.setup, request.labels, budget=VERIFY_BUDGET,
                         sample_seed=request.seed, soft=True, progress=progress)
    current_value = evaluator.evaluate(current).objective
    # Elites are ranked by the verifier's value, a small draw tree: the annealing's one
    # sampled draw sequence would favour the plans it happens to spare.
    elites: dict[tuple[tuple[int, ...], ...], float] = {
        _freeze(current): verifier.evaluate(current).objective}
    best = current_value
    done = 0
    if free:
        mover = Mover(free, request.heroics, rng, request.turns, ERRANDS, request.doubles)
        # The annealing first, then a systematic polish of the best plan with the rest.
        polishing = POLISH if task.hi >= 1.0 else 0.0  # the last round polishes
        iterations = None if task.iterations is None \
            else task.iterations - int(task.iterations * polishing)
        seconds = None if task.seconds is None else task.seconds * (1 - polishing)
        deadline = None if seconds is None else began + seconds
        last_report = began
        while iterations is None or done < iterations:
            now = time.perf_counter() if deadline is not None or report else 0.0
            if deadline is not None and now >= deadline:
                break
            if iterations is not None:
                share = done / max(iterations, 1)
            else:
                share = (now - began) / (seconds or 1.0)
            progress = task.lo + (task.hi - task.lo) * share
            temperature = T_START * (T_END / T_START) ** min(progress, 1.0)
            candidate = within(request, mover.propose(current), current)
            done += 1
            if candidate == current:
                continue
            value = evaluator.evaluate(candidate).objective
            delta = value - current_value
            if delta >= 0 or rng.random() < math.exp(delta / temperature):
                current, current_value = candidate, value
                if value > best:
                    best = value
                    _keep_elite(elites, _freeze(candidate),
                                verifier.evaluate(candidate).objective)
            if report is not None and now - last_report > 0.25:
                last_report = now
                report(done, best)
    if free and task.hi >= 1.0:
        top = max(elites.items(), key=lambda kv: (kv[1], kv[0]))[0]
        top_value = evaluator.evaluate([list(row) for row in top]).objective
        left = None if task.iterations is None else task.iterations - done
        end = None if task.seconds is None else began + task.seconds
        plan, value, spent = polish(request, evaluator, [list(row) for row in top], top_value,
                                    left, end)
        done += spent
        if value > top_value:
            _keep_elite(elites, _freeze(plan), verifier.evaluate(plan).objective)
            best = max(best, value)
    if report is not None:
        report(done, best)
    ranked = sorted(elites.items(), key=lambda kv: (-kv[1], kv[0]))
    return RestartResult(task.index, tuple((v, p) for p, v in ranked), done,
                         evaluator.evaluations + verifier.evaluations,
                         time.perf_counter() - began)


def neighbours(request: Request, plan: Slots) -> Iterator[Slots]:
    """Yields the plan's neighbours in a fixed order: every single card, every errand (both
    ways) and every exchange of one turn's cards between two crew members."""
    cards = alphabet(request.heroics, request.doubles)
    free = free_rows(request)
    for member in free:
        for slot in range(request.turns):
            for card in cards:
                if card != plan[member][slot]:
                    new = [row[:] for row in plan]
                    new[member][slot] = card
                    fix_heroics(new[member], slot)
                    yield new
    for member in free:
        for slot in range(request.turns):
            for station in range(len(STATIONS)):
                for action in errand_actions(request.heroics):
                    for insert in (False, True):
                        new = [row[:] for row in plan]
                        if errand(new[member], slot, station, action, request.turns,
                                  insert=insert):
                            fix_heroics(new[member], slot)
                            yield new
    for slot in range(request.turns):
        for first in free:
            for second in free:
                if first < second and plan[first][slot] != plan[second][slot]:
                    new = [row[:] for row in plan]
                    new[first][slot], new[second][slot] = new[second][slot], new[first][slot]
                    fix_heroics(new[first], slot)
                    fix_heroics(new[second], slot)
                    yield new


def polish(request: Request, evaluator: Evaluator, plan: Slots, value: float,
           budget: int | None, deadline: float | None) -> tuple[Slots, float, int]:
    """Climbs from a plan to a local optimum of ``neighbours``: takes each improvement as
    found and starts over, until a whole pass finds none or the budget (evaluations) or the
    deadline runs out. Returns (plan, value, evaluations spent). Deterministic with a budget.

    With hands every neighbour is projected onto them first, as the annealing's moves are
    (``hands.within``, keeping the cards the move left in place): a neighbour that needs a
    card the hands lack is never kept (it was, and ``solve --hands`` printed a plan its hands
    could not play).
    """
    spent = 0
    improved = True
    while improved:
        improved = False
        for neighbour in neighbours(request, plan):
            candidate = within(request, neighbour, plan)
            if candidate == plan:
                continue
            if (budget is not None and spent >= budget) or \
                    (deadline is not None and time.perf_counter() >= deadline):
                return plan, value, spent
            spent += 1
            trial = evaluator.evaluate(candidate).objective
            if trial > value + 1e-9:
                plan, value, improved = candidate, trial, True
                break
    return plan, value, spent


def _freeze(plan: Slots) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in plan)


def _keep_elite(elites: dict[tuple[tuple[int, ...], ...], float],
                plan: tuple[tuple[int, ...], ...], value: float) -> None:
    elites[plan] = value
    if len(elites) > ELITES:
        worst = min(elites.items(), key=lambda kv: (kv[1], kv[0]))
        del elites[worst[0]]


def solve(request: Request, progress: Callable[[Progress], None] | None = None) -> Solution:
    """Searches the best plan for the request; calls ``progress`` now and then (main process)."""
    if request.iterations is None and request.time_limit is None:
        raise ValueError("expected an iteration budget or a time limit, got neither")
    began = time.perf_counter()
    evaluator = Evaluator(request.setup, request.labels, budget=SEARCH_BUDGET,
                          sample_seed=request.seed, soft=True)
    start = heuristic_start(request, evaluator)
    start_evals = evaluator.evaluations
    restarts = max(1, request.restarts)
    total = request.iterations
    counts: dict[int, int] = {}
    bests: dict[int, float] = {}

    def tick(key: int, done: int, best: float) -> None:
        counts[key] = done
        bests[key] = max(bests.get(key, -math.inf), best)
        if progress is not None:
            progress(Progress(sum(counts.values()), total, max(bests.values()),
                              time.perf_counter() - began))

    # Successive halving: every restart anneals the first part of its schedule, then the
    # better half of them (by their best verified plan) go on from that plan through the next
    # part, and so on (HALVINGS times while two restarts are left). Each round gets an equal
    # part of the budget; restarts stuck with a lost ship stop early instead of using theirs.
    count = 1
    while count <= HALVINGS and restarts >> count >= 1:
        count += 1
    plan_rounds = [(k / count, (k + 1) / count) for k in range(count)]
    starts = {index: _freeze(start) for index in range(restarts)}
    results: list[RestartResult] = []
    previous: list[RestartResult] = []
    for number, (lo, hi) in enumerate(plan_rounds):
        if number == 0:
            chosen = list(range(restarts))
        else:
            ranked_restarts = sorted(previous, key=lambda r: (-r.elites[0][0], r.index))
            chosen = sorted(r.index for r in ranked_restarts[:max(1, len(previous) // 2)])
            starts = {r.index: r.elites[0][1] for r in previous}
        jobs = max(1, min(request.jobs, len(chosen)))
        budget = None if request.iterations is None else request.iterations // len(plan_rounds)
        iterations = shares(budget, len(chosen)) if budget is not None \
            else [None] * len(chosen)
        seconds: float | None = None
        if request.time_limit is not None:
            left = max(0.0, request.time_limit - (time.perf_counter() - began))
            share = left / (len(plan_rounds) - number)  # this round's part of what is left
            seconds = share * (0.9 if number == len(plan_rounds) - 1 else 1.0) \
                / math.ceil(len(chosen) / jobs)  # keep a tenth for the final evaluation
        tasks = [_Task(request, starts[index], index, iterations[n], seconds,
                       key=number * restarts + index, lo=lo, hi=hi)
                 for n, index in enumerate(chosen)]
        if jobs == 1:
            previous = [anneal(task, functools.partial(tick, task.key)) for task in tasks]
        else:
            previous = _run_pool(tasks, jobs, tick)
        results += previous
    candidates: dict[tuple[tuple[int, ...], ...], int] = {}
    for result in sorted(results, key=lambda r: r.index):
        for _, plan in result.elites:
            candidates.setdefault(plan, result.index)
    # Screen the candidates on a small draw tree, then judge the best few on the full one.
    screen = Evaluator(request.setup, request.labels, budget=SCREEN_BUDGET,
                       sample_seed=request.seed)
    ranked = sorted((-screen.evaluate([list(row) for row in plan]).objective, index, plan)
                    for plan, index in candidates.items())
    final = Evaluator(request.setup, request.labels, budget=FINAL_BUDGET,
                      sample_seed=request.seed, max_runs=FINAL_RUNS)
    scored = []
    finalists = [(index, plan) for _, index, plan in ranked[:FINALISTS]]
    if all(plan != _freeze(start) for _, plan in finalists):
        # The start plan is always judged too: the search never returns a worse plan.
        finalists.append((restarts, _freeze(start)))
    for index, plan in finalists:
        value = final.evaluate([list(row) for row in plan])
        scored.append((-value.objective, index, plan, value))
    scored.sort(key=lambda item: item[:3])
    _, _, best_plan, best_value = scored[0]
    if best_value.exact:  # a lost cause is not worth the full draw tree per card
        best_plan, best_value = simplify(request, final, best_plan, best_value)
    if not fits(request, best_plan):
        # A guard: every step above keeps to the hands, so this never happens; if one ever
        # did not, the crew still gets a plan it can play, valued as it is.
        playable = within(request, [list(row) for row in best_plan])
        best_plan, best_value = _freeze(playable), final.evaluate(playable)
    start_value = screen.evaluate(start)
    rates = tuple(r.evaluations / r.seconds for r in results if r.seconds > 0)
    return Solution(best_plan, best_value, start_value, sum(r.iterations for r in results),
                    start_evals + sum(r.evaluations for r in results) + screen.evaluations
                    + final.evaluations,
                    time.perf_counter() - began, rates, tuple(results))


def simplify(request: Request, evaluator: Evaluator, plan: tuple[tuple[int, ...], ...],
             value: Value) -> tuple[tuple[tuple[int, ...], ...], Value]:
    """Blanks every card whose removal does not lower the value (a plan a crew can read).

    Also drops a heroic card for its plain half when that does as well. A one-sequence
    evaluation screens each change first; the changes that pass are then checked together on
    the full draw tree, and a group that lowers the value is split in halves until each
    harmful change is found (most cards a search leaves behind are harmless, so this costs a
    few full evaluations instead of one per card). Never returns a lower value. Deterministic.
    """
    rows = [list(row) for row in plan]
    quick = Evaluator(request.setup, request.labels, budget=0, sample_seed=request.seed)
    quick_value = quick.evaluate(rows).objective
    changes: list[tuple[int, int, int, int]] = []  # (member, slot, card, simpler card)
    for member in free_rows(request):
        for slot in range(request.turns):
            code = rows[member][slot]
            for simpler in (EMPTY, downgrade(code) if is_heroic(code) else EMPTY):
                if code == simpler:
                    continue
                rows[member][slot] = simpler
                if not fits(request, rows):  # a plain card needs a card the hands lack
                    rows[member][slot] = code
                    continue
                screened = quick.evaluate(rows).objective
                if screened >= quick_value - 1e-9:
                    changes.append((member, slot, code, simpler))
                    quick_value = screened
                    break
                rows[member][slot] = code
    for member, slot, code, _ in changes:  # back to the plan; the groups are applied below
        rows[member][slot] = code

    def accept(group: list[tuple[int, int, int, int]]) -> None:
        nonlocal value
        for member, slot, _, simpler in group:
            rows[member][slot] = simpler
        # Each change was screened with the earlier ones made: a heroic card turned into its
        # plain half may need the card a blanked slot gave back, so a part of the group must
        # fit the hands again.
        trial = evaluator.evaluate(rows) if fits(request, rows) else None
        if trial is not None and trial.objective >= value.objective - 1e-9:
            value = trial
            return
        for member, slot, code, _ in group:
            rows[member][slot] = code
        if len(group) > 1:
            half = len(group) // 2
            accept(group[:half])
            accept(group[half:])

    if changes:
        accept(changes)
    return _freeze(rows), value


def _run_pool(tasks: list[_Task], jobs: int,
              tick: Callable[[int, int, float], None]) -> list[RestartResult]:
    method = quickest_start_method()
    progress_queue = multiprocessing.get_context(method).Queue()
    # the parent owns interrupts (authoring/_workers.py)
    with worker_pool(jobs, method, _init_worker, (progress_queue,)) as pool:
        pending = pool.map_async(_run_task, tasks)
        while True:
            try:
                index, done, best = progress_queue.get(timeout=0.1)
                tick(index, done, best)
            except queue.Empty:
                if pending.ready():
                    break
        results = pending.get()
    while True:
        try:
            index, done, best = progress_queue.get_nowait()
        except (queue.Empty, OSError, ValueError):
            break
        tick(index, done, best)
    return list(results)


