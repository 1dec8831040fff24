"""The seeds' numbers, exactly, and hand-worked cases for T, F, Fe and RBP.

Every expected value below is printed in a seed (../shared/seeds/) or in
pooling_literature.md, or worked out by hand in the comment next to it.
"""

from __future__ import annotations

import math

import pytest

from labeler.metrics import (
    all_hit_at_k,
    any_hit_at_k,
    evaluate,
    f_at_k,
    fe_at_k,
    rbp,
    recall_at_k,
    recall_report,
    t_at_k,
)

# ---------------------------------------------------------------- recall-denominator.en.txt
# Three queries at k=2: A has 3 relevant and retrieves 1, B has 1 and retrieves it, C has 1 and misses it.
RD_QRELS = {"A": {"a": 1, "b": 1, "c": 1}, "B": {"d": 1}, "C": {"e": 1}}
RD_RANKINGS = {"A": ["a", "x", "b", "c"], "B": ["x", "d"], "C": ["x", "y"]}


def test_recall_denominator_seed_macro_micro_any_all():
    report = recall_report(RD_QRELS, RD_RANKINGS, ["A", "B", "C"], 2, 1)
    assert round(report["macro"], 6) == 0.444444  # (1/3 + 1 + 0) / 3 = 4/9
    assert round(report["micro"], 6) == 0.400000  # (1 + 1 + 0) / (3 + 1 + 1) = 2/5
    assert report["macro"] == pytest.approx(4 / 9) and report["micro"] == pytest.approx(2 / 5)
    assert (report["topics"], report["hits"], report["relevant"]) == (3, 2, 5)
    evaluation = evaluate(RD_QRELS, RD_RANKINGS, "R@2 AnyHit@2 AllHit@2", topics=["A", "B", "C"], threshold=1)
    assert round(evaluation.aggregate["AnyHit@2"], 6) == 0.666667
    assert round(evaluation.aggregate["AllHit@2"], 6) == 0.333333
    assert evaluation.aggregate["R@2"] == pytest.approx(4 / 9)
    assert evaluation.recall[2] == report


def test_recall_denominator_seed_edge_cases():
    assert recall_at_k([], {"a"}, 2) == 0  # nothing returned: 0, not undefined
    assert recall_at_k(["a"], {"a", "b"}, 5) == 0.5  # fewer results than k
    assert recall_at_k(["a"], set(), 2) is None  # no relevant: undefined, not 0
    assert recall_at_k(["a", "b"], {"a", "b", "c"}, 2) == pytest.approx(2 / 3)  # the best at k=2
    assert all_hit_at_k(["a", "b"], {"a", "b", "c"}, 2) == 0.0  # |G| > k: all-hit is unreachable
    with pytest.raises(ValueError, match="at least 1"):
        recall_at_k(["a"], {"a"}, 0)


def test_micro_is_recall_weighted_by_relevant_set_size():
    # Pooled recall = Σ (|G_i| / Σ|G_j|) · recall_i: A weighs 3/5 = 60%, not 1/3.
    weights = {"A": 3 / 5, "B": 1 / 5, "C": 1 / 5}
    recalls = {t: recall_at_k(RD_RANKINGS[t], set(RD_QRELS[t]), 2) for t in RD_QRELS}
    assert sum(weights[t] * recalls[t] for t in weights) == pytest.approx(2 / 5)


# ---------------------------------------------------------------- denominator-audit.txt
AUDIT = {
    "q_faw": ({"m1": 3, "m2": 2, "m3": 1}, ["m2", "x3", "m1", "p1", "d2", "m3", "s1", "x1", "p3", "d5"]),
    "q_store": ({"s1": 3, "s2": 2, "s3": 1}, ["d2", "s2", "x4", "s1", "p2", "s3", "m4", "d1", "p5", "x2"]),
    "q_milk": ({"d1": 3, "d2": 2, "d3": 1}, ["d1", "s2", "x1", "d2", "x3", "d3", "m1", "p4", "s4", "x2"]),
    "q_broad": (
        {"m1": 3, "m2": 3, "m3": 2, "m4": 2, "m5": 1, "m6": 1, "s1": 2, "s2": 1},
        ["m1", "s1", "m2", "m3", "x1", "m4", "m5", "m6", "s2", "d1"],
    ),
}
AUDIT_QRELS = {q: grades for q, (grades, _) in AUDIT.items()}
AUDIT_RANKINGS = {q: ranking for q, (_, ranking) in AUDIT.items()}
AUDIT_TOPICS = list(AUDIT)


def test_denominator_audit_table():
    evaluation = evaluate(AUDIT_QRELS, AUDIT_RANKINGS, "P@5 R@5 RR nDCG@5 R@10", topics=AUDIT_TOPICS, threshold=1)
    table = {
        q: tuple(round(evaluation.per_query[q][m], 3) for m in ("P@5", "R@5", "RR", "nDCG@5")) for q in AUDIT_TOPICS
    }
    assert table == {
        "q_faw": (0.400, 0.667, 1.000, 0.735),
        "q_store": (0.400, 0.667, 0.500, 0.536),
        "q_milk": (0.400, 0.667, 1.000, 0.811),
        "q_broad": (0.800, 0.500, 1.000, 0.880),
    }
    assert round(evaluation.aggregate["R@5"], 3) == 0.625  # the correct mean (the capped one says 0.700)
    assert round(evaluation.aggregate["P@5"], 3) == 0.500
    assert round(evaluation.aggregate["nDCG@5"], 3) == 0.741
    # Stage 1 (fetch 10) already held every relevant document.
    assert all(evaluation.per_query[q]["R@10"] == 1.0 for q in AUDIT_TOPICS)


def test_denominator_audit_q_broad_ceiling():
    report = recall_report(AUDIT_QRELS, AUDIT_RANKINGS, ["q_broad"], 5, 1)
    assert report["macro"] == 0.5  # 4 of 8 in the top 5
    assert report["ceiling"] == 0.625  # min(5, 8) / 8
    assert report["share_of_ceiling"] == pytest.approx(0.8)  # "80% of ceiling"
    four = recall_report(AUDIT_QRELS, AUDIT_RANKINGS, AUDIT_TOPICS, 5, 1)
    assert four["macro"] == pytest.approx(0.625)
    assert four["ceiling"] == pytest.approx((1 + 1 + 1 + 0.625) / 4)


def test_denominator_audit_partial_labels_overstate_recall():
    # 8 judged but 12 truly relevant: 0.500 against the labels, 0.417 against the truth.
    truth = {"m1", "m2", "m3", "m4", "m5", "m6", "s1", "s2", "s3", "x1", "x2", "s4"}
    assert round(recall_at_k(AUDIT_RANKINGS["q_broad"], truth, 5), 3) == 0.417


def test_denominator_audit_reordering_moves_rr_and_ndcg_not_recall():
    # q_milk with d1 moved from rank 1 to rank 5: same top-5 set.
    buried = {"q_milk": ["s2", "x1", "d2", "d1", "x3"]}
    evaluation = evaluate(AUDIT_QRELS, buried, "P@5 R@5 RR nDCG@5", topics=["q_milk"], threshold=1)
    row = {m: round(v, 3) for m, v in evaluation.per_query["q_milk"].items()}
    assert row == {"P@5": 0.400, "R@5": 0.667, "RR": 0.333, "nDCG@5": 0.481}


def test_ndcg_is_the_articles_formula_with_grades_as_gains():
    # The audit's ndcg_at_k: DCG = Σ g_i / log2(i+1); IDCG from the judged grades sorted. trec_eval's
    # ndcg_cut_5 builds its ideal from the same judged grades, so the two agree.
    def article_ndcg(ranked, grades, k):
        dcg = sum(grades.get(d, 0) / math.log2(i + 1) for i, d in enumerate(ranked[:k], start=1))
        ideal = sorted(grades.values(), reverse=True)[:k]
        return dcg / sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))

    evaluation = evaluate(AUDIT_QRELS, AUDIT_RANKINGS, "nDCG@5", topics=AUDIT_TOPICS, threshold=1)
    for q in AUDIT_TOPICS:
        assert evaluation.per_query[q]["nDCG@5"] == pytest.approx(article_ndcg(AUDIT_RANKINGS[q], AUDIT_QRELS[q], 5))


# ---------------------------------------------------------------- recall-ceiling.txt
def test_recall_ceiling_seed_plateau():
    # Four relevant documents, three retrieved at ranks 2, 5 and 9; the fourth never appears.
    ranking = [f"n{i}" for i in range(100)]
    for rank, unit in ((2, "r1"), (5, "r2"), (9, "r3")):
        ranking[rank - 1] = unit
    relevant = {"r1", "r2", "r3", "r4"}
    assert [recall_at_k(ranking, relevant, k) for k in (3, 5, 10, 100)] == [0.25, 0.50, 0.75, 0.75]


def test_recall_ceiling_seed_caps_and_exclusion():
    # 20 relevant at k=10: a flawless ranking scores 0.5, and so does the ceiling.
    qrels = {"big": {f"r{i}": 1 for i in range(20)}, "small": {"s1": 1, "s2": 1}, "empty": {"n": 0}}
    rankings = {"big": [f"r{i}" for i in range(20)], "small": ["s1", "s2"], "empty": ["n"]}
    report = recall_report(qrels, rankings, ["big", "small", "empty"], 10, 1)
    assert report["macro"] == 0.75 and report["ceiling"] == 0.75 and report["share_of_ceiling"] == 1.0
    # The topic with no relevant unit is excluded, not scored 0 (which would give a mean of 0.5).
    assert (report["topics"], report["excluded"]) == (2, 1)


def test_recall_report_over_no_scorable_topic_is_undefined_not_zero():
    report = recall_report({"t": {"n": 0}}, {"t": ["n"]}, ["t", "u"], 5, 1)
    assert report == {
        "k": 5,
        "macro": None,
        "micro": None,
        "ceiling": None,
        "share_of_ceiling": None,
        "topics": 0,
        "excluded": 2,
        "hits": 0,
        "relevant": 0,
    }


def test_ceiling_counts_distinct_relevant_units_and_depth_cuts_rankings():
    qrels = {"t": {"a": 1, "b": 2, "c": 0}}
    report = recall_report(qrels, {"t": ["c", "a", "b"]}, ["t"], 1, 1, depth=2)
    assert (report["macro"], report["ceiling"], report["relevant"]) == (0.0, 0.5, 2)


# ---------------------------------------------------------------- T, F, Fe (recall-importance-paper.md)
# Ranking r1 n1 r2 n2 n3 | r3 n4 n5 r4 n6, with five relevant units r1..r5 (N_p = 5), K = 5:
# n_p = 2 (r1, r2), n_n = K - n_p = 3, N_e = relevant in the top 2K = 4 (r1..r4).
TF_RANKING = ["r1", "n1", "r2", "n2", "n3", "r3", "n4", "n5", "r4", "n6"]
TF_RELEVANT = {"r1", "r2", "r3", "r4", "r5"}


@pytest.mark.parametrize(
    ("alpha", "t", "f", "fe"),
    [
        # α = 0.5: T = 0.5·2 − 0.5·3/5 = 0.7; F = 2/(2.5 + 2.5) = 0.4 (= F1 of P 0.4, R 0.4);
        # Fe = 2/(2.5 + 0.5·4) = 2/4.5
        (0.5, 0.7, 0.4, 2 / 4.5),
        # α = 0.3: T = 0.7·2 − 0.3·3/5 = 1.22; F = 2/(1.5 + 3.5) = 0.4; Fe = 2/(1.5 + 2.8) = 2/4.3
        (0.3, 1.22, 0.4, 2 / 4.3),
        # α = 1: T = −3/5; F = Fe = n_p/K = P@5 = 0.4
        (1.0, -0.6, 0.4, 0.4),
        # α = 0: T = n_p = 2; F = n_p/N_p = R@5 = 0.4; Fe = n_p/N_e = 2/4
        (0.0, 2.0, 0.4, 0.5),
    ],
)
def test_t_f_fe_hand_worked(alpha, t, f, fe):
    assert t_at_k(TF_RANKING, TF_RELEVANT, 5, alpha) == pytest.approx(t)
    assert f_at_k(TF_RANKING, TF_RELEVANT, 5, alpha) == pytest.approx(f)
    assert fe_at_k(TF_RANKING, TF_RELEVANT, 5, alpha) == pytest.approx(fe)


def test_t_f_fe_short_ranking_keeps_n_n_as_k_minus_n_p():
    # Ranking [r1] at K = 5, G = {r1}: n_p = 1, n_n = 5 − 1 = 4 (empty slots count as negatives).
    assert t_at_k(["r1"], {"r1"}, 5) == pytest.approx(0.5 * 1 - 0.5 * 4 / 5)  # 0.1
    assert f_at_k(["r1"], {"r1"}, 5) == pytest.approx(1 / (2.5 + 0.5))  # 1/3
    assert fe_at_k(["r1"], {"r1"}, 5) == pytest.approx(1 / (2.5 + 0.5))  # N_e = 1


def test_t_f_fe_without_relevant_units():
    # T and Fe need no N_p, so they stay defined; F does, so it is undefined like recall.
    assert t_at_k(["n1", "n2"], set(), 2, 0.5) == -0.5  # −α·K/K
    assert fe_at_k(["n1", "n2"], set(), 2, 0.5) == 0.0
    assert fe_at_k(["n1", "n2"], set(), 2, 0.0) == 0.0  # α = 0 and N_e = 0: 0/0 scored 0
    assert f_at_k(["n1", "n2"], set(), 2, 0.5) is None
    assert any_hit_at_k(["n1"], set(), 2) is None and all_hit_at_k(["n1"], set(), 2) is None


def test_t_f_fe_through_evaluate_with_alpha_in_the_name():
    qrels = {"q": {u: 1 for u in TF_RELEVANT}}
    evaluation = evaluate(qrels, {"q": TF_RANKING}, "T(alpha=0.3)@5 F@5 Fe(alpha=0)@5", topics=["q"], threshold=1)
    assert evaluation.per_query["q"] == pytest.approx({"T(alpha=0.3)@5": 1.22, "F@5": 0.4, "Fe(alpha=0)@5": 0.5})


# ---------------------------------------------------------------- RBP and the Toy-1 topic (pooling_literature.md)
# qrels d1=1 d2=0 d3=1 d4=0 d5=-1 (pooled, not judged) d6=1 d7=0; run d1 d8 d2 d5 d3 d4.
TOY1_QRELS = {"1": {"d1": 1, "d2": 0, "d3": 1, "d4": 0, "d5": -1, "d6": 1, "d7": 0}}
TOY1_RUN = {"1": ["d1", "d8", "d2", "d5", "d3", "d4"]}


def test_rbp_toy1():
    score, residual = rbp(TOY1_RUN["1"], TOY1_QRELS["1"], 1, 0.5)
    assert score == 0.53125  # 0.5·(1 + 0.5^4): relevant at ranks 1 and 5
    assert residual == 0.328125  # 0.5·(0.5^1 + 0.5^3) + 0.5^6: d8 and d5 unjudged, tail below rank 6


def test_rbp_empty_ranking_is_all_residual():
    assert rbp([], {"a": 1}, 1, 0.8) == (0.0, 1.0)


def test_toy1_through_evaluate():
    evaluation = evaluate(TOY1_QRELS, TOY1_RUN, "AP Bpref infAP Judged@5 RBP(p=0.5)", topics=["1"], threshold=1)
    row = evaluation.per_query["1"]
    assert round(row["AP"], 4) == 0.4667  # (1/1 + 2/5) / 3
    assert round(row["Bpref"], 4) == 0.5556
    assert round(row["infAP"], 4) == 0.5
    assert row["Judged@5"] == 0.6  # d1 d2 d3 judged; d8 absent, d5 graded −1 (ir_measures says 0.8)
    assert row["RBP(p=0.5)"] == 0.53125
    assert evaluation.residuals["RBP(p=0.5)"] == 0.328125


# ---------------------------------------------------------------- evaluate: topics, means, counts, refusals
def test_evaluate_orders_topics_and_measures_and_fills_missing_ones():
    qrels = {"2": {"a": 1}, "10": {"b": 1}, "a": {"x": 0}}
    rankings = {"2": ["a"], "b": ["z"]}
    evaluation = evaluate(qrels, rankings, "R@5 P@1 nDCG@5 AnyHit@5", topics=["10", "2", "b", "a"], threshold=1)
    assert evaluation.topics == ("2", "10", "a", "b")
    assert list(evaluation.per_query) == ["2", "10", "a", "b"]
    assert list(evaluation.per_query["2"]) == ["R@5", "P@1", "nDCG@5", "AnyHit@5"]
    # "10" has a relevant unit but no ranking: an empty ranking, 0 everywhere (trec_eval -c).
    assert evaluation.per_query["10"] == {"R@5": 0.0, "P@1": 0.0, "nDCG@5": 0.0, "AnyHit@5": 0.0}
    # "a" (judged, nothing relevant) and "b" (no judgments at all): 0 for trec_eval's measures,
    # undefined for the recall family and left out of its means.
    for topic in ("a", "b"):
        assert evaluation.per_query[topic] == {"R@5": None, "P@1": 0.0, "nDCG@5": 0.0, "AnyHit@5": None}
    assert evaluation.aggregate == {"R@5": 0.5, "P@1": 0.25, "nDCG@5": 0.25, "AnyHit@5": 0.5}
    assert evaluation.counts == {"R@5": 2, "P@1": 4, "nDCG@5": 4, "AnyHit@5": 2}
    assert evaluation.recall[5]["topics"] == 2 and evaluation.recall[5]["excluded"] == 2


def test_a_mean_over_no_topic_is_none():
    evaluation = evaluate({"t": {"n": 0}}, {"t": ["n"]}, "R@5 RBP", topics=["t"], threshold=1)
    assert evaluation.aggregate["R@5"] is None and evaluation.counts["R@5"] == 0
    empty = evaluate({}, {}, "P@5 RBP", topics=[], threshold=1)
    assert empty.aggregate == {"P@5": None, "RBP": None} and empty.counts == {"P@5": 0, "RBP": 0}
    assert empty.residuals == {"RBP": None}


def test_the_given_order_is_the_truth_even_where_ids_would_sort_otherwise():
    qrels = {"t": {"d1": 1}}
    first = evaluate(qrels, {"t": ["d2", "d1"]}, "P@1 RR Judged@1", topics=["t"], threshold=1)
    assert first.per_query["t"] == {"P@1": 0.0, "RR": 0.5, "Judged@1": 0.0}
    second = evaluate(qrels, {"t": ["d1", "d2"]}, "P@1 RR Judged@1", topics=["t"], threshold=1)
    assert second.per_query["t"] == {"P@1": 1.0, "RR": 1.0, "Judged@1": 1.0}


def test_rr_cutoff_is_applied():
    # ir_measures' pytrec_eval provider would ignore the cutoff and answer 0.5 here.
    evaluation = evaluate({"t": {"b": 1}}, {"t": ["a", "b"]}, "RR@1 RR@2 RR", topics=["t"], threshold=1)
    assert evaluation.per_query["t"] == {"RR@1": 0.0, "RR@2": 0.5, "RR": 0.5}


def test_depth_reads_only_the_first_units():
    qrels = {"t": {"a": 1, "b": 0, "c": 1}}
    evaluation = evaluate(qrels, {"t": ["a", "b", "c"]}, "R@10 P@3 RBP(p=0.5)", topics=["t"], threshold=1, depth=2)
    assert evaluation.per_query["t"]["R@10"] == 0.5
    assert evaluation.per_query["t"]["P@3"] == pytest.approx(1 / 3)
    assert evaluation.per_query_residuals["t"]["RBP(p=0.5)"] == 0.25  # p^2: only the tail below depth 2 (a, b judged)


def test_threshold_applies_to_binary_measures_and_grades_are_ndcg_gains():
    qrels = {"t": {"a": 1, "b": 3}}
    evaluation = evaluate(qrels, {"t": ["a", "b"]}, "P@1 R@2 nDCG@2", topics=["t"], threshold=2)
    assert evaluation.per_query["t"]["P@1"] == 0.0  # grade 1 is below the threshold
    assert evaluation.per_query["t"]["R@2"] == 1.0  # G = {b}
    ideal = 3 + 1 / math.log2(3)
    assert evaluation.per_query["t"]["nDCG@2"] == pytest.approx((1 + 3 / math.log2(3)) / ideal)


@pytest.mark.parametrize(
    ("qrels", "rankings", "kwargs", "message"),
    [
        ({}, {"t": ["a", "b", "a"]}, {}, "unit 'a' appears twice"),
        ({}, {"t": "abc"}, {}, "must be a list of unit ids"),
        ({"t": {"a": "1"}}, {}, {}, "grade must be a whole number"),
        ({}, {}, {"threshold": -1}, "threshold must be a whole number of 0 or more"),
        ({}, {}, {"threshold": True}, "threshold must be"),
        ({}, {}, {"depth": 0}, "depth must be a whole number of at least 1"),
        ({}, {}, {"topics": ["t", "t"]}, "topic 't' is listed twice"),
        ({}, {}, {"topics": "t"}, "topics must be a list"),
        ({}, {}, {"topics": [1]}, "topic ids must be text"),
    ],
)
def test_evaluate_refuses_bad_input(qrels, rankings, kwargs, message):
    arguments = {"topics": ["t"], "threshold": 1} | kwargs
    with pytest.raises(ValueError, match=message):
        evaluate(qrels, rankings, "P@5", **arguments)


def test_evaluate_refuses_unknown_measures():
    with pytest.raises(ValueError, match="unknown measure 'Q@5'"):
        evaluate({}, {}, "P@5 Q@5", topics=[], threshold=1)
