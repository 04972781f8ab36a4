# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics for the results tables (docs/results.md, docs/analysis.md), in plain Python so
that the table scripts need nothing beyond the standard library (no SciPy on the build
machine):

  mean_sd(xs)            mean and sample standard deviation
  welch(xs, ys)          Welch's unequal-variance t-test: t, degrees of freedom, two-sided p
  student_t_sf2(t, df)   two-sided tail P(|T| >= |t|) of Student's t, through the regularised
                         incomplete beta function (continued fraction, Numerical Recipes 6.4)
  sentence_bleu_stats / corpus_bleu_from_stats / paired_bootstrap
                         corpus BLEU from per-sentence n-gram statistics (as NLTK's
                         corpus_bleu without smoothing) and a paired bootstrap over sentences
                         (Koehn 2004)
  holm(ps)               Holm–Bonferroni adjusted p-values of a family of comparisons
  mcnemar_exact(a, b)    McNemar's exact test on two classifiers' outcomes on the same items
  paired_items_bootstrap(diffs)
                         a paired bootstrap over test items of a mean per-item difference
                         (e.g. seed-averaged correctness of two models, image by image)
  verdict(...)           the project's rule: a difference is claimed only where the gap is
                         larger than the larger sample sd

Checked by tests/docs/cellstats_test.py against hand-computed values.
"""
import collections
import math
import random


def mean_sd(xs):
    """(mean, sample sd); sd is None for fewer than two values, mean None for none."""
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularised incomplete beta I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_sf2(t, df):
    """Two-sided p of Student's t with df (real, > 0) degrees of freedom: P(|T| >= |t|)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def welch(xs, ys):
    """Welch's t-test of mean(xs) - mean(ys): (t, df, two-sided p), or None when either side
    has fewer than two values or both have no spread."""
    if len(xs) < 2 or len(ys) < 2:
        return None
    mx, sx = mean_sd(xs)
    my, sy = mean_sd(ys)
    vx, vy = sx * sx / len(xs), sy * sy / len(ys)
    if vx + vy == 0:
        return None
    t = (mx - my) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / ((vx * vx / (len(xs) - 1) if vx else 0.0) + (vy * vy / (len(ys) - 1) if vy else 0.0))
    return t, df, student_t_sf2(t, df)


def holm(ps):
    """Holm–Bonferroni adjusted p-values, in the order given: the k-th smallest of m is
    multiplied by m − k + 1, kept at least as large as the one before it, and capped at 1.
    A comparison survives the correction at level α where its adjusted p is below α."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [None] * len(ps), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - k) * ps[i]))
        out[i] = running
    return out


def mcnemar_exact(a_correct, b_correct):
    """McNemar's exact test on paired outcomes (booleans, the same items in the same order):
    b = items only A got right, c = items only B got right; two-sided
    p = min(1, 2 · P(X <= min(b, c))) with X ~ Binomial(b + c, 1/2). Returns (b, c, p)."""
    if len(a_correct) != len(b_correct):
        raise ValueError("McNemar's test needs the same items for both classifiers")
    b = sum(1 for x, y in zip(a_correct, b_correct) if x and not y)
    c = sum(1 for x, y in zip(a_correct, b_correct) if y and not x)
    n, k = b + c, min(b, c)
    if n == 0:
        return b, c, 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return b, c, min(1.0, 2 * tail)


def paired_items_bootstrap(diffs, samples=2000, seed=1):
    """Paired bootstrap over test items of the mean of per-item differences (e.g. model A's
    minus model B's correctness on each image, each averaged over seeds): resample the items
    with replacement `samples` times. Returns the observed mean, its 95 % percentile interval
    and a two-sided p: twice the smaller share of resampled means on either side of 0
    (capped at 1; 1/samples is the smallest p it can give)."""
    if not diffs:
        raise ValueError("the bootstrap needs at least one item")
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(samples))
    below = sum(1 for m in means if m <= 0) / samples
    above = sum(1 for m in means if m >= 0) / samples
    return {"mean": sum(diffs) / n, "ci": (means[int(0.025 * samples)],
                                          means[min(samples - 1, int(0.975 * samples))]),
            "p": min(1.0, max(2 * min(below, above), 1 / samples)), "samples": samples}


def fmt_p(p):
    """'p = 0.017' as the tables print it: two significant digits, 'p < 0.001' below that."""
    if p is None:
        return "—"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def verdict(xs, ys):
    """The project's rule on two seed samples: 'higher', 'lower' or 'tie' (gap not larger than
    the larger sample sd), or 'one seed' when a side has a single value."""
    mx, sx = mean_sd(xs)
    my, sy = mean_sd(ys)
    if sx is None or sy is None:
        return "one seed"
    if abs(mx - my) <= max(sx, sy):
        return "tie"
    return "higher" if mx > my else "lower"


# ---- BLEU from per-sentence statistics, and the paired bootstrap ----

def _ngrams(words, n):
    return collections.Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def sentence_bleu_stats(hyp, ref):
    """[hyp length, ref length, matches_1..4, totals_1..4] of one sentence (word lists),
    clipped counts as in corpus BLEU with one reference. A hypothesis with no n-gram of an
    order still counts 1 in that order's total, as NLTK's corpus_bleu (max(1, count)) and
    `attnviz-cli eval` (core/metrics.cpp) do; counting 0 made a corpus with a hypothesis
    shorter than four words score higher here than in the cell (issue 50)."""
    s = [len(hyp), len(ref)]
    matches, totals = [], []
    for n in range(1, 5):
        h, r = _ngrams(hyp, n), _ngrams(ref, n)
        matches.append(sum(min(c, r[g]) for g, c in h.items()))
        totals.append(max(1, len(hyp) - n + 1))
    return s + matches + totals


def corpus_bleu_from_stats(stats):
    """Corpus BLEU in % from summed sentence statistics; 0 where an n-gram order has no
    match (no smoothing, as NLTK's corpus_bleu)."""
    tot = [sum(col) for col in zip(*stats)]
    hyp_len, ref_len, matches, totals = tot[0], tot[1], tot[2:6], tot[6:10]
    if hyp_len == 0 or min(matches) == 0:
        return 0.0
    log_p = sum(math.log(m / t) for m, t in zip(matches, totals)) / 4.0
    bp = 1.0 if hyp_len > ref_len else math.exp(1.0 - ref_len / hyp_len)
    return 100.0 * bp * math.exp(log_p)


def bootstrap_bleu(stats, samples=1000, seed=1):
    """One system's corpus BLEU over resampled sentences: (sd, 2.5 and 97.5 percentiles)."""
    rng = random.Random(seed)
    n = len(stats)
    xs = sorted(corpus_bleu_from_stats([stats[rng.randrange(n)] for _ in range(n)]) for _ in range(samples))
    _, sd = mean_sd(xs)
    return sd, xs[int(0.025 * samples)], xs[min(samples - 1, int(0.975 * samples))]


def paired_bootstrap(stats_a, stats_b, samples=1000, seed=1):
    """Paired bootstrap over sentences (Koehn 2004): resample sentence indices with
    replacement, recompute both systems' corpus BLEU. Returns a dict with the observed
    difference a - b, its 95 % percentile interval, the share of resamples in which a is
    not better than b (one-sided p for 'a > b'), and each system's own 95 % interval."""
    if len(stats_a) != len(stats_b) or not stats_a:
        raise ValueError("paired bootstrap needs the same non-empty sentences for both systems")
    rng = random.Random(seed)
    n = len(stats_a)
    diffs, bas, bbs = [], [], []
    for _ in range(samples):
        idx = [rng.randrange(n) for _ in range(n)]
        ba = corpus_bleu_from_stats([stats_a[i] for i in idx])
        bb = corpus_bleu_from_stats([stats_b[i] for i in idx])
        diffs.append(ba - bb)
        bas.append(ba)
        bbs.append(bb)

    def interval(xs):
        xs = sorted(xs)
        return xs[int(0.025 * len(xs))], xs[min(len(xs) - 1, int(0.975 * len(xs)))]

    return {"diff": corpus_bleu_from_stats(stats_a) - corpus_bleu_from_stats(stats_b),
            "ci": interval(diffs), "p_not_better": sum(1 for d in diffs if d <= 0) / samples,
            "ci_a": interval(bas), "ci_b": interval(bbs), "samples": samples}
