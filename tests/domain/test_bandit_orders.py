"""MaxMean and Hedge judging orders: hand-worked cases, an exact reference, and the replay's properties.

Toy-2 (pooling_literature.md, top of file; §1.4 and assertion A6 for MaxMean):
    A: d1 d2 d3 d4 d5     B: d2 d6 d1 d7 d8     C: d9 d6 d10 d2 d11     relevant: d1 d2 d4 d6 d9
Own case ("Toy-3"):
    X: e1 e2 e3 e4 e5     Y: e6 e1 e7 e8 e2     Z: e9 e10 e6 e11 e12    relevant: e6 e7 e9 e10 e11
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import accumulate

import pytest

from labeler.judgments.log import PairState
from labeler.ordering import OrderInput, ap_prior, arrange, hedge_order, maxmean_order
from labeler.pooling import depth_pool

TOY2 = {"A": "d1 d2 d3 d4 d5".split(), "B": "d2 d6 d1 d7 d8".split(), "C": "d9 d6 d10 d2 d11".split()}
TOY2_RELEVANT = {"d1", "d2", "d4", "d6", "d9"}
TOY3 = {"X": "e1 e2 e3 e4 e5".split(), "Y": "e6 e1 e7 e8 e2".split(), "Z": "e9 e10 e6 e11 e12".split()}
TOY3_RELEVANT = {"e6", "e7", "e9", "e10", "e11"}


def oracle(rankings, relevant):
    return {unit: unit in relevant for ranking in rankings.values() for unit in ranking}


def found(order, relevant):
    return list(accumulate(int(unit in relevant) for unit in order))


# -- MaxMean ---------------------------------------------------------------------------------------


def test_maxmean_on_toy2_is_a6():
    # Shared updates, Beta(1,1), ties by run order A, B, C. Means are (rel+1)/(rel+nonrel+2), A/B/C before each pull:
    #  1. 1/2 1/2 1/2 -> A:d1 R (A and B rank d1)        2. 2/3 2/3 1/2 -> A:d2 R (A, B, C rank d2)
    #  3. 3/4 3/4 2/3 -> A:d3 N                          4. 3/5 3/4 2/3 -> B:d6 R (d2 judged; B and C rank d6)
    #  5. 3/5 4/5 3/4 -> B:d7 N (d1 judged)              6. 3/5 2/3 3/4 -> C:d9 R
    #  7. 3/5 2/3 4/5 -> C:d10 N                         8. 3/5 2/3 2/3 -> B:d8 N (tie B, C: run order)
    #  9. 3/5 4/7 2/3 -> C:d11 N (d2 judged)            10. 3/5 -> A:d4 R      11. 2/3 -> A:d5 N
    order = maxmean_order(TOY2, oracle(TOY2, TOY2_RELEVANT))
    assert order == "d1 d2 d3 d6 d7 d9 d10 d8 d11 d4 d5".split()
    assert found(order, TOY2_RELEVANT) == [1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5]


def test_maxmean_on_toy3():
    # X/Y/Z before each pull:
    #  1. 1/2 1/2 1/2 -> X:e1 N (X and Y rank e1)   2. 1/3 1/3 1/2 -> Z:e9 R     3. . . 2/3 -> Z:e10 R
    #  4. 1/3 1/3 3/4 -> Z:e6 R (Y too: Y 1/2)      5. 1/3 1/2 4/5 -> Z:e11 R    6. . . 5/6 -> Z:e12 N (Z done)
    #  7. 1/3 1/2 -> Y:e7 R (e6, e1 visited)        8. 1/3 3/5 -> Y:e8 N         9. 1/3 1/2 -> Y:e2 N (X too)
    # 10-12. only X is left: e3 e4 e5.
    order = maxmean_order(TOY3, oracle(TOY3, TOY3_RELEVANT))
    assert order == "e1 e9 e10 e6 e11 e12 e7 e8 e2 e3 e4 e5".split()
    assert found(order, TOY3_RELEVANT) == [0, 1, 2, 3, 4, 4, 5, 5, 5, 5, 5, 5]


def test_maxmean_own_pulls_only_is_the_alternative():
    # Own pulls: e1's miss counts for X only, so Y (1/2) is drawn before X (1/3) at pull 2: Y:e6 R, Y 2/3 > Z 1/2;
    # Y:e7 R (e1 visited) 3/4; Y:e8 N 3/5; Y:e2 N 1/2, Y done; Z 1/2 > X 1/3: e9 e10 e11 e12 (e6 visited); X: e3 e4 e5.
    order = maxmean_order(TOY3, oracle(TOY3, TOY3_RELEVANT), shared=False)
    assert order == "e1 e6 e7 e8 e2 e9 e10 e11 e12 e3 e4 e5".split()


# -- Hedge -----------------------------------------------------------------------------------------


def test_ap_prior_is_half_the_harmonic_tail():
    # Z = 5: v(r) = (1/2)(1/r + ... + 1/5) = 137/120, 77/120, 47/120, 27/120, 12/120.
    assert ap_prior(5) == pytest.approx([137 / 120, 77 / 120, 47 / 120, 27 / 120, 12 / 120])


def test_hedge_on_toy2():
    # beta = 0.1, Z = 5, v = n/120 with n = 137 77 47 27 12 by rank, v_max = 137/120. In 274ths, a run's loss is
    # (137 - n) for a relevant unit it ranks, (137 + n) for a non-relevant one, 137 for a unit it does not rank;
    # w_s ~ 10^-L_s (L_s the cumulative loss), so a unit's score compares as sum_s 10^-L_s * n_s(d).
    #  1. L = 0, 0, 0: d2 77+137+27 = 241 > d1 137+47 = 184 > d6 154 > d9 137 -> d2 R; L += 60, 0, 110 (/274)
    #  2. w = .302 .500 .198: d1 .302*137+.500*47 = 64.9 > d6 .500*77+.198*77 = 53.8 -> d1 R; L += 0, 90, 137
    #  3. L = 60, 90, 247: w = .504 .392 .105: d6 (.392+.105)*77 = 38.2 > d3 .504*47 = 23.7 -> d6 R; L += 137, 60, 60
    #  4. L = 197, 150, 307: w = .347 .515 .138: d9 .138*137 = 18.9 > d3 .347*47 = 16.3 > d7 .515*27 -> d9 R
    #  5. L = 334, 287, 307: w = .267 .397 .336: d10 .336*47 = 15.8 > d3 .267*47 = 12.6 -> d10 N; L += 137,137,184
    #  6. w = .300 .446 .254: d3 .300*47 = 14.1 > d7 .446*27 = 12.0 -> d3 N; L += 184, 137, 137
    #  7. w = .224 .494 .282: d7 .494*27 = 13.3 > d4 .224*27 = 6.1 -> d7 N; L += 137, 164, 137
    #  8. w = .249 .438 .313: d4 .249*27 = 6.7 > d8 .438*12 = 5.3 -> d4 R; L += 110, 137, 137
    #  9. L = 902, 862, 902: w = .294 .412 .294: d8 .412*12 > d5 = d11 .294*12 -> d8 N; L += 137, 149, 137
    # 10. L(A) = L(C) = 1039: d5 and d11 tie exactly; tie rule: both at rank 5 of one run, unit id "d11" < "d5".
    # 11. d5.
    order = hedge_order(TOY2, oracle(TOY2, TOY2_RELEVANT))
    assert order == "d2 d1 d6 d9 d10 d3 d7 d4 d8 d11 d5".split()
    assert found(order, TOY2_RELEVANT) == [1, 2, 3, 4, 4, 4, 4, 5, 5, 5, 5]


def test_hedge_on_toy3():
    # Same v and loss scale as above (every run has Z = 5). Weights X/Y/Z at each pull:
    #  1. 1/3 each: e1 X1+Y2 137+77 = 214 > e6 Y1+Z3 137+47 = 184 > e9 137 -> e1 N; L += 274, 214, 137
    #  2. w = .172 .285 .544: e9 .544*137 = 74.5 > e6 .285*137+.544*47 = 64.6 -> e9 R; L += 137, 137, 0
    #  3. w = .079 .131 .790: e10 .790*77 = 60.8 > e6 .131*137+.790*47 = 55.1 -> e10 R; L += 137, 137, 60
    #  4. w = .046 .076 .878: e6 .076*137+.878*47 = 51.7 > e11 .878*27 = 23.7 -> e6 R; L += 137, 0, 90
    #  5. w = .029 .151 .820: e11 .820*27 = 22.1 > e12 .820*12 = 9.8 > e7 .151*47 = 7.1 -> e11 R; L += 137, 137, 110
    #  6. w = .024 .125 .851: e12 .851*12 = 10.2 > e7 .125*47 = 5.9 -> e12 N; L += 137, 137, 149
    #  7. w = .026 .136 .838: e7 .136*47 = 6.4 > e8 .136*27 = 3.7 -> e7 R; L += 137, 90, 137
    #  8. w = .024 .190 .786: e8 .190*27 = 5.1 > e2 .024*77+.190*12 = 4.2 -> e8 N
    #  9. w = .025 .157 .817: e2 .025*77+.157*12 = 3.8 > e3 .025*47 -> e2 N; then X's e3 e4 e5.
    order = hedge_order(TOY3, oracle(TOY3, TOY3_RELEVANT))
    assert order == "e1 e9 e10 e6 e11 e12 e7 e8 e2 e3 e4 e5".split()
    assert found(order, TOY3_RELEVANT) == [0, 1, 2, 3, 4, 4, 5, 5, 5, 5, 5, 5]


def hedge_reference(rankings, judged, beta=Fraction(1, 10)):
    """Hedge written out with exact rational losses: w_s = beta^(L_s - min L), argmax recomputed from scratch.

    Up to the first unjudged unit; the rest then follow by value under the weights at that point.
    """
    runs = [run for run in rankings if rankings[run]]

    def value(run, unit):
        ranking = rankings[run]
        if unit not in ranking:
            return Fraction(0)
        return Fraction(1, 2) * sum(Fraction(1, k) for k in range(ranking.index(unit) + 1, len(ranking) + 1))

    top = max(value(run, rankings[run][0]) for run in runs)
    units = {unit for run in runs for unit in rankings[run]}
    loss = dict.fromkeys(runs, Fraction(0))
    order = []
    while units:
        low = min(loss.values())
        weight = {run: float(beta) ** float(loss[run] - low) for run in runs}
        score = {unit: sum(weight[run] * float(value(run, unit)) for run in runs) for unit in units}
        best = max(score.values())

        def key(unit):
            held = [rankings[run].index(unit) for run in runs if unit in rankings[run]]
            return (min(held), -len(held), unit)

        unit = min((u for u in units if score[u] >= best * (1 - 1e-9)), key=key)
        order.append(unit)
        if unit not in judged:  # the provisional tail: the rest by value under these weights
            return order + sorted(units - {unit}, key=lambda u: (-float(f"{score[u]:.9g}"), key(u)))
        units.remove(unit)
        sign = -1 if judged.get(unit, False) else 1
        for run in runs:
            loss[run] += Fraction(1, 2) + sign * Fraction(1, 2) * value(run, unit) / top
    return order


@pytest.mark.parametrize("seed", range(12))
def test_hedge_matches_an_exact_reference_on_random_runs(seed):
    rng = random.Random(seed)
    units = [f"u{i}" for i in range(14)]
    rankings = {f"r{k}": rng.sample(units, rng.randint(3, 8)) for k in range(rng.randint(2, 4))}
    judged = {u: rng.random() < 0.4 for u in units if rng.random() < 0.7}
    assert hedge_order(rankings, judged) == hedge_reference(rankings, judged)


def test_hedge_refuses_a_beta_outside_0_1():
    for beta in (0, 1, 1.5, -0.1, True):
        with pytest.raises(ValueError, match="beta"):
            hedge_order(TOY2, {}, beta=beta)


# -- properties of both, through the registry ------------------------------------------------------


def given(rankings, labels, seed=0):
    runs = {run: {"1": ranking} for run, ranking in rankings.items()}
    entries = depth_pool(runs, 5)["1"]
    states = {u: PairState("1", u, label=int(rel)) for u, rel in labels.items()}
    return OrderInput("1", entries, states, 1, seed, tuple(rankings))


ORDERS = ["maxmean", "hedge"]
CASES = [(TOY2, TOY2_RELEVANT), (TOY3, TOY3_RELEVANT)]


@pytest.mark.parametrize("name", ORDERS)
@pytest.mark.parametrize(("rankings", "relevant"), CASES)
def test_every_pool_unit_appears_once_and_no_labels_is_deterministic(name, rankings, relevant):
    order = arrange(name, given(rankings, {}))
    assert sorted(order) == sorted({u for r in rankings.values() for u in r})
    assert order == arrange(name, given(rankings, {}, seed=99))  # not seeded: the seed changes nothing


@pytest.mark.parametrize("name", ORDERS)
def test_registry_orders_with_every_label_known_are_the_hand_worked_ones(name):
    function = maxmean_order if name == "maxmean" else hedge_order
    labels = oracle(TOY2, TOY2_RELEVANT)
    assert arrange(name, given(TOY2, labels)) == function(TOY2, labels)


@pytest.mark.parametrize("name", ORDERS)
@pytest.mark.parametrize(("rankings", "relevant"), CASES)
def test_judging_one_at_a_time_follows_the_full_order_and_a_restart_agrees(name, rankings, relevant):
    """Judge the first unjudged unit each time: the judged prefix never moves and ends as the all-known order."""
    labels: dict[str, bool] = {}
    while True:
        order = arrange(name, given(rankings, labels))
        assert order == arrange(name, given(rankings, dict(labels)))  # a restart over the same labels
        nxt = next((u for u in order if u not in labels), None)
        if nxt is None:
            break
        before = order[: order.index(nxt) + 1]
        labels[nxt] = nxt in relevant
        assert arrange(name, given(rankings, labels))[: len(before)] == before
    assert order == arrange(name, given(rankings, oracle(rankings, relevant)))


@pytest.mark.parametrize("name", ORDERS)
@pytest.mark.parametrize("seed", range(6))
def test_adding_a_label_only_changes_the_tail_after_the_first_unjudged_unit(name, seed):
    rng = random.Random(seed)
    units = sorted({u for r in TOY2.values() for u in r})
    labels = {u: rng.random() < 0.5 for u in units if rng.random() < 0.5}
    order = arrange(name, given(TOY2, labels))
    first = next((i for i, u in enumerate(order) if u not in labels), len(order))
    for unit in units:
        if unit not in labels:
            for rel in (True, False):
                changed = arrange(name, given(TOY2, {**labels, unit: rel}))
                assert changed[: first + 1] == order[: first + 1]


def test_hedge_with_no_labels_is_the_first_pulls_values():
    # Nothing judged: d2 is the first unjudged unit and the rest follow the uniform weights' values (in 120ths):
    # d2 241, d1 184, d6 154, d9 137, then d3 = d10 = 47, d4 = d7 = 27, d5 = d8 = d11 = 12, each tie by the tie
    # rule (same best rank, one run each: unit id as a string).
    assert hedge_order(TOY2, {}) == "d2 d1 d6 d9 d10 d3 d4 d7 d11 d5 d8".split()


def test_hedge_tail_uses_the_weights_at_the_first_unjudged_unit():
    # d2 judged relevant: the weights after pull 1 are .302 .500 .198 (test_hedge_on_toy2); d1 (64.9) is next and
    # unjudged, the rest by those weights: d6 (.500+.198)*77 = 53.8, d9 .198*137 = 27.1, d3 .302*47 = 14.2,
    # d7 .500*27 = 13.5, d10 .198*47 = 9.3, d4 .302*27 = 8.2, d8 .500*12 = 6.0, d5 .302*12 = 3.6, d11 .198*12 = 2.4.
    assert hedge_order(TOY2, {"d2": True}) == "d2 d1 d6 d9 d3 d7 d10 d4 d8 d5 d11".split()


def random_case(seed, n_units):
    rng = random.Random(seed)
    units = [f"u{i}" for i in range(n_units)]
    rankings = {f"r{k}": rng.sample(units, rng.randint(1, n_units // 2)) for k in range(rng.randint(2, 6))}
    truth = {u: rng.random() < 0.3 for u in units}
    return rankings, truth


@pytest.mark.parametrize("seed", range(4))
def test_hedge_resumed_from_its_cache_equals_a_cold_replay(seed):
    """Judge in Hedge order one unit at a time (the queue's pattern); every answer equals a cold start's."""
    from labeler import ordering

    rankings, truth = random_case(seed, 80)
    labels: dict[str, bool] = {}
    order = hedge_order(rankings, labels)
    while (nxt := next((u for u in order if u not in labels), None)) is not None:
        labels[nxt] = truth[nxt]
        order = hedge_order(rankings, labels)
        ordering._HEDGE_CACHE.clear()
        assert order == hedge_order(rankings, labels)
    assert order == hedge_reference(rankings, labels)
    # A corrected label in the prefix is not resumed from the old state.
    first = order[0]
    corrected = {**labels, first: not labels[first]}
    warm = hedge_order(rankings, corrected)
    ordering._HEDGE_CACHE.clear()
    assert warm == hedge_order(rankings, corrected) == hedge_reference(rankings, corrected)


def maxmean_reference(rankings, judged, shared=True):
    """MaxMean written out plainly: exact Fraction means, every run rescanned at each pull."""
    rel = {run: 0 for run in rankings}
    non = {run: 0 for run in rankings}
    order: list[str] = []
    while True:
        live = [run for run in rankings if any(u not in order for u in rankings[run])]
        if not live:
            return order
        best = max(Fraction(rel[run] + 1, rel[run] + non[run] + 2) for run in live)
        run = next(run for run in live if Fraction(rel[run] + 1, rel[run] + non[run] + 2) == best)
        unit = next(u for u in rankings[run] if u not in order)
        order.append(unit)
        for counted in [r for r in rankings if unit in rankings[r]] if shared else [run]:
            if judged.get(unit, False):
                rel[counted] += 1
            else:
                non[counted] += 1


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("seed", range(10))
def test_maxmean_matches_a_plain_reference_on_random_runs(seed, shared):
    rankings, truth = random_case(seed, 40)
    rng = random.Random(seed)
    labels = {u: rel for u, rel in truth.items() if rng.random() < 0.8}
    assert maxmean_order(rankings, labels, shared=shared) == maxmean_reference(rankings, labels, shared)
