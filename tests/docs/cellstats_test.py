#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/cellstats.py against values computed by hand (closed forms of Student's t for 1,
2 and 4 degrees of freedom, a Welch test with equal variances, BLEU of a five-word sentence)."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts"))
import cellstats  # noqa: E402

failures = []


def near(name, got, want, tol=1e-9):
    if got is None or abs(got - want) > tol:
        failures.append(f"{name}: got {got}, want {want}")


# df = 1 is Cauchy: P(|T| >= 1) = 1/2. df = 2: P(|T| >= t) = 1 - t / sqrt(2 + t^2).
near("t1", cellstats.student_t_sf2(1.0, 1), 0.5)
near("t2", cellstats.student_t_sf2(2.0, 2), 1 - 2 / math.sqrt(6))
# df = 4: F(t) = 1/2 + 3/8 · t/sqrt(1 + t²/4) · (1 - t²/(12 (1 + t²/4))); at t = sqrt 6:
# 1 + 6/4 = 2.5, so F = 1/2 + 3/8 · sqrt(6/2.5) · (1 - 0.2) and p = 2 (1 - F).
near("t4", cellstats.student_t_sf2(math.sqrt(6), 4), 2 * (0.5 - 0.375 * math.sqrt(6 / 2.5) * 0.8))
# Welch, [1,2,3] vs [3,4,5]: both sd 1, t = -2 / sqrt(2/3) = -sqrt 6, df = 4: the p above.
t, df, p = cellstats.welch([1, 2, 3], [3, 4, 5])
near("welch t", t, -math.sqrt(6))
near("welch df", df, 4.0)
near("welch p", p, 2 * (0.5 - 0.375 * math.sqrt(6 / 2.5) * 0.8))
# Unequal variances: [1,2,3] vs [4,6,8]: v = 1/3 and 4/3, t = -4 / sqrt(5/3),
# df = (5/3)^2 / ((1/3)^2/2 + (4/3)^2/2) = 50/17.
t, df, p = cellstats.welch([1, 2, 3], [4, 6, 8])
near("welch2 t", t, -4 / math.sqrt(5 / 3))
near("welch2 df", df, 50 / 17)
if not 0.05 < p < 0.06:  # between the df = 2 and df = 4 tails at this t (0.090 and 0.036)
    failures.append(f"welch2 p {p}")
if cellstats.welch([1], [2, 3]) is not None:
    failures.append("welch with one value should be None")
near("verdict tie", 1.0 if cellstats.verdict([1, 2, 3], [2, 3, 4]) == "tie" else 0.0, 1.0)
near("verdict lower", 1.0 if cellstats.verdict([1, 2, 3], [3.5, 4, 4.5]) == "lower" else 0.0, 1.0)
near("verdict one seed", 1.0 if cellstats.verdict([1], [3.5, 4, 4.5]) == "one seed" else 0.0, 1.0)
# BLEU: "a b c d e" against "a b c d f": precisions 4/5, 3/4, 2/3, 1/2, equal lengths (BP 1),
# so BLEU = (0.8 · 0.75 · 2/3 · 0.5)^(1/4) = 0.2^(1/4).
s = cellstats.sentence_bleu_stats("a b c d e".split(), "a b c d f".split())
near("bleu", cellstats.corpus_bleu_from_stats([s]), 100 * 0.2 ** 0.25)
# Brevity: "a b c d" against "a b c d e f": precisions 1, BP = exp(1 - 6/4).
s2 = cellstats.sentence_bleu_stats("a b c d".split(), "a b c d e f".split())
near("bleu bp", cellstats.corpus_bleu_from_stats([s2]), 100 * math.exp(1 - 6 / 4))
# A hypothesis shorter than four words still counts 1 in the denominator of every n-gram
# order it has none of, as NLTK's corpus_bleu (max(1, count)) and core/metrics.cpp do:
# "a b c d e" = reference plus "x y" = reference gives precisions 7/7, 5/5, 3/4, 2/3, so
# BLEU = (0.75 · 2/3)^(1/4) = 0.5^(1/4); counting 0 for "x y"'s 3- and 4-grams gave 100
# (docs/results-longer/09-hc-sa-lr3e-3-s209-3000.json, one 2-word hypothesis, issue 50).
s3 = cellstats.sentence_bleu_stats("a b c d e".split(), "a b c d e".split())
s4 = cellstats.sentence_bleu_stats("x y".split(), "x y".split())
near("bleu short hypothesis", cellstats.corpus_bleu_from_stats([s3, s4]), 100 * 0.5 ** 0.25)
# An empty hypothesis counts 1 in every order too (and its reference's length).
s5 = cellstats.sentence_bleu_stats([], "x y z".split())
near("bleu empty hypothesis totals", float(sum(s5[6:10])), 4.0)
# Bootstrap of a system against itself: difference 0 everywhere, p_not_better 1.
b = cellstats.paired_bootstrap([s, s2], [s, s2], samples=50)
near("bootstrap self", b["ci"][1] - b["ci"][0], 0.0)
near("bootstrap self p", b["p_not_better"], 1.0)
# One system resampled: every sentence the same, so every resample has the same BLEU.
sd, lo, hi = cellstats.bootstrap_bleu([s, s, s], samples=50)
near("bootstrap one sd", sd, 0.0)
near("bootstrap one interval", hi - lo, 0.0)
# Holm over 0.01, 0.04, 0.03 (m = 3): sorted 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 →
# kept monotone 0.06; returned in the order given.
for got, want in zip(cellstats.holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]):
    near("holm", got, want)
near("holm cap", cellstats.holm([0.6, 0.7])[0], 1.0)

# McNemar's exact test by hand: 1 item only A right, 9 only B right, 5 both, 3 neither:
# p = 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
a = [True] * 1 + [False] * 9 + [True] * 5 + [False] * 3
b = [False] * 1 + [True] * 9 + [True] * 5 + [False] * 3
bb, cc, p = cellstats.mcnemar_exact(a, b)
if (bb, cc) != (1, 9):
    failures.append(f"mcnemar counts {(bb, cc)}")
near("mcnemar p", p, 22 / 1024)
near("mcnemar symmetric", cellstats.mcnemar_exact(b, a)[2], 22 / 1024)
near("mcnemar equal", cellstats.mcnemar_exact([True, False], [False, True])[2], 1.0)
near("mcnemar none discordant", cellstats.mcnemar_exact([True], [True])[2], 1.0)
# 0 vs 12 discordant: p = 2 / 4096.
near("mcnemar one-sided", cellstats.mcnemar_exact([True] * 12, [False] * 12)[2], 2 / 4096)

# The paired bootstrap over items: a difference far from 0 gets the smallest p it can give,
# one centred on 0 a large p; the interval holds the observed mean.
r = cellstats.paired_items_bootstrap([1.0] * 60 + [0.0] * 40, samples=500)
near("bootstrap mean", r["mean"], 0.6)
near("bootstrap p floor", r["p"], 1 / 500)
if not r["ci"][0] <= 0.6 <= r["ci"][1]:
    failures.append(f"bootstrap interval {r['ci']}")
r = cellstats.paired_items_bootstrap([1.0, -1.0] * 200, samples=500)
if r["p"] < 0.5:
    failures.append(f"bootstrap p of a centred difference {r['p']}")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("cellstats: all checks passed")
