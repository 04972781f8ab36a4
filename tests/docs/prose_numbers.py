#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The derived numbers quoted in the prose of docs/results.md, docs/analysis.md and the README's
answer about images, recomputed from the committed cells' unrounded values (issue 50).

tests/docs/generated_tables.py checks the tables and that every "mean ± sd" of the prose is in
a table; the numbers a sentence derives from the cells (a difference of two means, a gain over
training, a count, a p-value, a Holm-corrected p) are in no table. Each entry of CLAIMS below is
a piece of a sentence with the numbers left as {} and the expression over the cells that gives
them; the test formats the expressions' values into the piece and requires the result in the
page (whitespace and line breaks do not matter). A number changed in the prose, or a cell
changed under it, fails the test and prints what the cells give and what the page says.
Differences are taken of the unrounded means, never of the rounded ones the tables print.

Nothing is trained or run; only Python and the committed files. Exit 1 with the differences.
Usage: tests/docs/prose_numbers.py [--list]   (--list prints every claim as the cells give it)
"""
import glob
import importlib.machinery
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cellstats  # noqa: E402


def _script(name):
    """A script of scripts/ (no .py in its name) as a module."""
    path = os.path.join(ROOT, "scripts", name)
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


CMP = _script("compare-cells")
PRUNE = _script("experiment-pruning")


# ---- the cells: lists of per-seed values, in seed order ----

def toy(name, task, metric, cells="docs/results-toy"):
    """Toy task metric per seed: metric 'bleu', 'em' (percent) or 'aer' (scripts/compare-cells)."""
    return _nonempty(CMP.toy_values(cells, name, task, metric), f"{cells}/{name}-{task}")


def abl(name, task, metric):
    return toy(name, task, metric, cells="docs/results-ablations")


def real(name, metric="bleu"):
    """Real-text test BLEU or best cross head word AER per seed (docs/results-real)."""
    return _nonempty([CMP.real_value(r, metric) for r in CMP.real_cells(name)], f"docs/results-real/{name}")


def vision(name, what="acc"):
    """Fashion-MNIST test accuracy in percent, or training CPU minutes ('minutes'), per seed."""
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "docs/results-vision", f"{name}-s*.json"))):
        c = json.load(open(p))
        out.append(100 * c["test_accuracy"] if what == "acc" else c["training"]["cpu_s"] / 60)
    return _nonempty(out, f"docs/results-vision/{name}")


def longer(name, lr, steps, seed=None):
    """BLEU of docs/results-longer per seed (NN, NN+100, NN+200), or of one seed."""
    nn = {"01-dot": 1, "09-hc-sa": 9}[name]
    seeds = [seed] if seed is not None else [nn, nn + 100, nn + 200]
    return _nonempty([json.load(open(p))["bleu"] for s in seeds
                      if os.path.exists(p := os.path.join(ROOT, "docs/results-longer", f"{name}-lr{lr}-s{s}-{steps}.json"))],
                     f"docs/results-longer/{name}-lr{lr}")


def toy_prune(name, order, k):
    """Toy translate BLEU after removing k heads, per seed 1–3 (docs/analysis-runs): order
    'importance' or 'random' (each seed's one random order)."""
    key = "by_importance" if order == "importance" else "random"
    out = []
    for s in (1, 2, 3):
        p = os.path.join(ROOT, "docs/analysis-runs", f"{name}-translate-s{s}.json")
        if os.path.exists(p):
            out.append(PRUNE.bleu_after(json.load(open(p))["prune"][key], k))
    return _nonempty(out, f"docs/analysis-runs/{name}-translate")


def oos(name):
    """The out-of-sample pruning cells of a configuration (docs/analysis-runs/out-of-sample), seed order."""
    nn = {"01-dot": 1, "09-hc-sa": 9}[name]
    out = [json.load(open(p)) for s in (nn, nn + 100, nn + 200)
           if os.path.exists(p := os.path.join(ROOT, "docs/analysis-runs/out-of-sample", f"{name}-s{s}.json"))]
    return _nonempty(out, f"docs/analysis-runs/out-of-sample/{name}")


def oos_importance(name, k):
    """Test BLEU after k heads removed in importance order, per seed."""
    return [PRUNE.bleu_after(c["prune"]["by_importance"], k) for c in oos(name)]


def oos_random(name, k):
    """Test BLEU after k heads removed, every random order of every seed."""
    return [PRUNE.bleu_after(o, k) for c in oos(name) for o in c["prune"]["random_orders"]]


def oos_random_seed_means(name, k):
    """Per seed, the mean over its random orders of the test BLEU after k heads removed."""
    return [mean([PRUNE.bleu_after(o, k) for o in c["prune"]["random_orders"]]) for c in oos(name)]


def oos_beaten(name, ks=(4, 8, 12)):
    """Random-order points (order × k) that the importance order of the same seed keeps more
    BLEU than, and how many points there are."""
    n = beaten = 0
    for c in oos(name):
        for o in c["prune"]["random_orders"]:
            for k in ks:
                n += 1
                beaten += PRUNE.bleu_after(o, k) < PRUNE.bleu_after(c["prune"]["by_importance"], k)
    return beaten, n


def _nonempty(xs, what):
    if not xs:
        raise SystemExit(f"prose_numbers: no cells for {what}")
    return xs


# ---- statistics and formats ----

def mean(xs):
    return cellstats.mean_sd(xs)[0]


def gap(xs, ys):
    """Difference of the unrounded means."""
    return mean(xs) - mean(ys)


def p(xs, ys):
    """Welch's two-sided p, formatted as the tables print it ('p = 0.017', 'p < 0.001')."""
    return cellstats.fmt_p(cellstats.welch(xs, ys)[2])


def pv(xs, ys):
    """Welch's p as the prose quotes it inside a list: the number alone ('0.017')."""
    return cellstats.fmt_p(cellstats.welch(xs, ys)[2]).split(" ", 2)[-1]


def paired_p(xs, ys):
    """Two-sided p of a paired t-test of xs − ys (one pair per index), the number alone."""
    d = [a - b for a, b in zip(xs, ys)]
    m, sd = cellstats.mean_sd(d)
    t = m / (sd / len(d) ** 0.5)
    return cellstats.student_t_sf2(t, len(d) - 1)


def holm(family, member):
    """Holm-adjusted Welch p of family[member] among the comparisons family = {name: (xs, ys)},
    the number alone as the tables print it."""
    names = list(family)
    adj = cellstats.holm([cellstats.welch(*family[n])[2] for n in names])
    return cellstats.fmt_p(adj[names.index(member)]).split(" ", 2)[-1]


def s(x, digits=1):
    """Signed, with the minus sign of the prose (U+2212): '+1.61', '−1.06'."""
    return f"{x:+.{digits}f}".replace("-", "−")


def u(x, digits=1):
    """Unsigned magnitude: '1.06'."""
    return f"{abs(x):.{digits}f}"


# Families of many models against one baseline, as the tables' Holm column forms them.
def vision_vs_dot():
    return {n: (vision(n), vision("01-dot")) for n in (
        "02-dense", "03-random", "04-fixed-random", "05-factorized-dense", "06-factorized-random",
        "07-random+dot", "08-dense+dot", "09-gaussian", "10-local", "11-learned-gaussian")}


def toy_bleu_vs_dot():
    return {n: (toy(n, "translate", "bleu"), toy("01-dot", "translate", "bleu")) for n in (
        "09-hc-sa", "10-hc-all", "02-dense", "03-random", "04-fixed-random", "05-factorized-dense",
        "06-factorized-random", "07-random+dot", "08-dense+dot")}


def real_bleu_vs_dot():
    return {n: (real(n), real("01-dot")) for n in (
        "09-hc-sa", "10-hc-all", "02-dense", "03-random", "04-fixed-random", "05-factorized-dense",
        "06-factorized-random", "07-random+dot", "08-dense+dot")}


V, T, R, L = vision, toy, real, longer
DOT_V = lambda: vision("01-dot")  # noqa: E731
TB = lambda n: toy(n, "translate", "bleu")  # noqa: E731

R_MD, A_MD, README = "docs/results.md", "docs/analysis.md", "README.md"

# (page, the piece of a sentence with {} for each number, the numbers from the cells)
CLAIMS = [
    # ---- toy tasks ----
    (R_MD, "99.9 ± 0.2 vs 98.5 ± 0.4 BLEU (Welch p = {}; after Holm over the nine comparisons with "
           "dot-product on `translate` BLEU in the table, p = {}",
     lambda: (pv(TB("09-hc-sa"), TB("01-dot")), holm(toy_bleu_vs_dot(), "09-hc-sa"))),
    (R_MD, "a gap of {} against dot's spread of 6.9), but Welch's p is {}",
     lambda: (u(gap(T("09-hc-sa", "reverse", "em"), T("01-dot", "reverse", "em"))),
              pv(T("09-hc-sa", "reverse", "em"), T("01-dot", "reverse", "em")))),
    (R_MD, "Here `10-hc-all` falls to 79.5 ± 1.1 BLEU on `translate` ({} against dot",
     lambda: (p(TB("10-hc-all"), TB("01-dot")),)),
    (R_MD, "on `sort` (81.2 ± 5.3 % EM against 97.8 ± 1.6 %, p = {}; {} after Holm over the two",
     lambda: (pv(T("11-hc-sa-1head", "sort", "em"), T("09-hc-sa", "sort", "em")),
              holm({"11": (T("11-hc-sa-1head", "sort", "em"), T("09-hc-sa", "sort", "em")),
                    "12": (T("12-local", "sort", "em"), T("09-hc-sa", "sort", "em"))}, "11"))),
    (R_MD, "on `reverse` (96.7 ± 1.2 % against 98.5 ± 1.3 %, p = {}: a lead",
     lambda: (pv(T("11-hc-sa-1head", "reverse", "em"), T("09-hc-sa", "reverse", "em")),)),
    (R_MD, "dense, random, fixed random and factorized dense are {}–{} BLEU below",
     lambda: (u(gap(TB("02-dense"), TB("01-dot"))), u(gap(TB("04-fixed-random"), TB("01-dot"))))),
    (R_MD, "Welch p from {} to {}. After Holm over the nine comparisons with dot-product on "
           "`translate` BLEU, only fixed random's survives (adjusted p = {}; dense, random and "
           "factorized dense {}–{})",
     lambda: (pv(TB("04-fixed-random"), TB("01-dot")), pv(TB("03-random"), TB("01-dot")),
              holm(toy_bleu_vs_dot(), "04-fixed-random"), holm(toy_bleu_vs_dot(), "05-factorized-dense"),
              holm(toy_bleu_vs_dot(), "02-dense"))),
    (R_MD, "Factorized random is {} below (98.1 ± 0.1): a gap of {} against dot's spread of {}",
     lambda: (u(gap(TB("06-factorized-random"), TB("01-dot"))), u(gap(TB("06-factorized-random"), TB("01-dot")), 2),
              f"{cellstats.mean_sd(TB('01-dot'))[1]:.2f}")),
    (R_MD, "(`08`: 98.8 ± 0.2, a tie with dot, p = {}; above dense alone, p = {})",
     lambda: (pv(TB("08-dense+dot"), TB("01-dot")), pv(TB("08-dense+dot"), TB("02-dense")))),
    (R_MD, "(`07`: 97.4 ± 0.4, still {} below dot, p = {}, which does not survive Holm ({});",
     lambda: (u(gap(TB("07-random+dot"), TB("01-dot"))), pv(TB("07-random+dot"), TB("01-dot")),
              holm(toy_bleu_vs_dot(), "07-random+dot"))),
    (R_MD, "above random alone by the seed rule only, p = {}",
     lambda: (pv(TB("07-random+dot"), TB("03-random")),)),
    (R_MD, "factorized dense loses {} BLEU to dot-product, within the range of the others ({}–{}), "
           "and factorized random loses least, {} (p = {}",
     lambda: (u(gap(TB("05-factorized-dense"), TB("01-dot"))), u(gap(TB("02-dense"), TB("01-dot"))),
              u(gap(TB("04-fixed-random"), TB("01-dot"))), u(gap(TB("06-factorized-random"), TB("01-dot"))),
              pv(TB("06-factorized-random"), TB("01-dot")))),
    (R_MD, "every comparison is a tie (p {}–{})",
     lambda: (pv(TB("12-local"), TB("09-hc-sa")), pv(T("12-local", "sort", "em"), T("09-hc-sa", "sort", "em")))),
    # ---- FFN ablation ----
    (R_MD, "(Welch p = {} and {} against ×1",
     lambda: (pv(abl("dot-ff096", "translate", "bleu"), abl("dot-ff024", "translate", "bleu")),
              pv(abl("dot-ff096", "translate", "bleu"), abl("dot-ff048", "translate", "bleu")))),
    (R_MD, "but no step between neighbouring widths passes Welch's test (p = {}, {} and {}); ×2 "
           "against ¼ does ({})",
     lambda: tuple(pv(abl(f"hc-all-ff{b}", "reverse", "em"), abl(f"hc-all-ff{a}", "reverse", "em"))
                   for a, b in (("024", "048"), ("048", "096"), ("096", "192")))
     + (p(abl("hc-all-ff192", "reverse", "em"), abl("hc-all-ff024", "reverse", "em")),)),
    # ---- real text ----
    (R_MD, "the gap, {} BLEU, is ten times the larger spread; Welch p < 0.001, and {} after Holm",
     lambda: (u(gap(R("09-hc-sa"), R("01-dot"))), holm(real_bleu_vs_dot(), "09-hc-sa"))),
    (R_MD, "but {} BLEU *below* HC-SA, a gap just larger than the larger spread",
     lambda: (u(gap(R("11-hc-sa-1head"), R("09-hc-sa")), 2),)),
    (R_MD, "(gap {} against the larger spread 0.41, Welch p = {} with 2.8 degrees of freedom",
     lambda: (u(gap(R("04-fixed-random"), R("01-dot")), 2), pv(R("04-fixed-random"), R("01-dot")))),
    (R_MD, "after Holm over the nine comparisons with dot-product on BLEU its p is {}, so it does not "
           "survive the correction",
     lambda: (holm(real_bleu_vs_dot(), "04-fixed-random"),)),
    (R_MD, "is above dot by the seed rule and Welch ({} BLEU, p = {}, {} after Holm)",
     lambda: (s(gap(R("06-factorized-random"), R("01-dot")), 2), pv(R("06-factorized-random"), R("01-dot")),
              holm(real_bleu_vs_dot(), "06-factorized-random"))),
    # ---- longer training ----
    (R_MD, "dot-product {} BLEU from 3,000 to 9,000 steps (11.67 ± 0.41 → 16.03 ± 0.21), HC-SA {} "
           "(15.97 ± 0.24 → 18.45 ± 0.14)",
     lambda: (u(gap(L("01-dot", "3e-3", 9000), L("01-dot", "3e-3", 3000))),
              u(gap(L("09-hc-sa", "3e-3", 9000), L("09-hc-sa", "3e-3", 3000))))),
    (R_MD, "(seeds 1/9, 101/109, 201/209: {} → {}, {} → {}, {} → {}), by {}, {} and {} BLEU, but a "
           "paired t-test over the three pairs gives p = {}",
     lambda: tuple(s(L("09-hc-sa", "3e-3", st, 9 + 100 * k)[0] - L("01-dot", "3e-3", st, 1 + 100 * k)[0], 2)
                   for k in range(3) for st in (3000, 9000))
     + tuple(u((L("09-hc-sa", "3e-3", 3000, 9 + 100 * k)[0] - L("01-dot", "3e-3", 3000, 1 + 100 * k)[0])
               - (L("09-hc-sa", "3e-3", 9000, 9 + 100 * k)[0] - L("01-dot", "3e-3", 9000, 1 + 100 * k)[0]))
             for k in range(3))
     + (f"{paired_p([a - b for a, b in zip(L('09-hc-sa', '3e-3', 3000), L('01-dot', '3e-3', 3000))], [a - b for a, b in zip(L('09-hc-sa', '3e-3', 9000), L('01-dot', '3e-3', 9000))]):.2f}",)),
    (R_MD, "In the seed pairs the lead grows from 3,000 to 9,000 steps ({} → {}, {} → {}, {} → {}), "
           "but a paired t-test over the three pairs gives p ≈ {}",
     lambda: tuple(s(L("09-hc-sa", "1e-3", st, 9 + 100 * k)[0] - L("01-dot", "1e-3", st, 1 + 100 * k)[0], 2)
                   for k in range(3) for st in (3000, 9000))
     + (f"{paired_p([a - b for a, b in zip(L('09-hc-sa', '1e-3', 9000), L('01-dot', '1e-3', 9000))], [a - b for a, b in zip(L('09-hc-sa', '1e-3', 3000), L('01-dot', '1e-3', 3000))]):.2f}",)),
    # ---- images ----
    (R_MD, "dense ({}, p = {}), factorized dense ({}, p = {}), factorized random ({}, p = {}), "
           "dense + dot ({}, p = {}), the hard-coded 2D Gaussian ({}, p = {}) and the learned 2D "
           "Gaussian ({}, p = {})",
     lambda: tuple(x for n in ("02-dense", "05-factorized-dense", "06-factorized-random", "08-dense+dot",
                               "09-gaussian", "11-learned-gaussian")
                   for x in (s(gap(V(n), DOT_V()), 2), pv(V(n), DOT_V())))),
    (R_MD, "Random ({}) and the learned local window ({}) are above it by the seed rule only (p = {} and {})",
     lambda: (s(gap(V("03-random"), DOT_V()), 2), s(gap(V("10-local"), DOT_V()), 2),
              pv(V("03-random"), DOT_V()), pv(V("10-local"), DOT_V()))),
    (R_MD, "Corrected for the ten comparisons with dot-product (Holm), none of these survives: the "
           "smallest adjusted p is {}",
     lambda: (min(holm(vision_vs_dot(), n) for n in vision_vs_dot()),)),
    (R_MD, "ties the learned 2D Gaussian ({}, p = {}) and the learned local window ({}, p = {})",
     lambda: (s(gap(V("11-learned-gaussian"), V("09-gaussian")), 2), pv(V("11-learned-gaussian"), V("09-gaussian")),
              s(gap(V("10-local"), V("09-gaussian")), 2), pv(V("10-local"), V("09-gaussian")))),
    (R_MD, "training CPU time ({} min, mean of three seeds) is the lowest of the table, but by the "
           "seed rule it {} with the learned local window's and factorized random's",
     lambda: (f"{mean(V('09-gaussian', 'minutes')):.1f}",
              "ties" if {cellstats.verdict(V("09-gaussian", "minutes"), V(n, "minutes"))
                         for n in ("10-local", "06-factorized-random")} == {"tie"} else "(does not tie)")),
    (R_MD, "above dot-product by the seed rule and Welch (+1.45, p = {}) but not after Holm over the "
           "ten comparisons (adjusted p = {})",
     lambda: (pv(V("09-gaussian"), DOT_V()), holm(vision_vs_dot(), "09-gaussian"))),
    (R_MD, "dense + dot ties with dense alone ({}, p = {})",
     lambda: (s(gap(V("08-dense+dot"), V("02-dense")), 2), pv(V("08-dense+dot"), V("02-dense")))),
    (R_MD, "fixed random is below trainable random by the seed rule ({}, p = {})",
     lambda: (s(gap(V("04-fixed-random"), V("03-random")), 2), pv(V("04-fixed-random"), V("03-random")))),
    (R_MD, "Adding dot-product to dense adds nothing measurable ({}, p = {}); adding it to random "
           "lowers it by the seed rule only ({}, p = {})",
     lambda: (s(gap(V("08-dense+dot"), V("02-dense")), 2), pv(V("08-dense+dot"), V("02-dense")),
              s(gap(V("07-random+dot"), V("03-random")), 2), pv(V("07-random+dot"), V("03-random")))),
    (R_MD, "fixed random is below it ({} BLEU over three seeds",
     lambda: (s(gap(R("04-fixed-random"), R("01-dot")), 2),)),
    # ---- README: the images answer (the translations say the same numbers) ----
    (README, "are {}–{} points above it by the seed rule and Welch's test (p {}–{}); corrected "
             "for the ten comparisons with dot-product (Holm), {} is",
     lambda: (u(gap(V("05-factorized-dense"), DOT_V())), u(gap(V("06-factorized-random"), DOT_V())),
              pv(V("08-dense+dot"), DOT_V()), pv(V("05-factorized-dense"), DOT_V()),
              "none" if all(float(holm(vision_vs_dot(), n)) >= 0.05 for n in vision_vs_dot()) else "(some)")),
    (README, "And the dot-product baseline ({} %) had not finished learning",
     lambda: (f"{mean(DOT_V()):.1f}",)),
    # ---- analysis.md: pruning ----
    (A_MD, "cost dot {} points (88.0 ± 7.0): beyond the seed rule, but Welch's test against all "
           "heads over the three seeds' cells above gives p = {} (against the importance order's "
           "97.3 ± 0.7, p = {})",
     lambda: (f"{gap(toy_prune('01-dot', 'importance', 0), toy_prune('01-dot', 'random', 4)):.0f}",
              pv(toy_prune("01-dot", "random", 4), toy_prune("01-dot", "importance", 0)),
              pv(toy_prune("01-dot", "random", 4), toy_prune("01-dot", "importance", 4)))),
    (A_MD, "Over three seeds, 8 removed leave 91.1 ± 1.3, about {} points lost",
     lambda: (f"{gap(toy_prune('01-dot', 'importance', 0), toy_prune('01-dot', 'importance', 8)):.0f}",)),
    (A_MD, "With 12 removed it is higher by {} (76.5 ± 6.0 against 66.2 ± 9.4",
     lambda: (u(gap(toy_prune("09-hc-sa", "importance", 12), toy_prune("01-dot", "importance", 12))),)),
    (A_MD, "it keeps more BLEU than {} of the dot models' {} random-order points and {} of HC-SA's {}",
     lambda: oos_beaten("01-dot") + oos_beaten("09-hc-sa")),
    (A_MD, "after 4 heads Welch's test of the table's two columns (the importance order over three "
           "seeds against the 30 random orders) gives p = {} for dot and {} for HC-SA, a lead; after "
           "8 and 12 heads p {} for both",
     lambda: (pv(oos_importance("01-dot", 4), oos_random("01-dot", 4)),
              pv(oos_importance("09-hc-sa", 4), oos_random("09-hc-sa", 4)),
              cellstats.fmt_p(max(cellstats.welch(oos_importance(n, k), oos_random(n, k))[2]
                                  for n in ("01-dot", "09-hc-sa") for k in (8, 12)))[2:])),
    (A_MD, "its losses from all heads are as large or larger ({} / {} / {} BLEU against dot's {} / {} / {}, seed means",
     lambda: tuple(s(gap(oos_importance(n, k), oos_importance(n, 0))) for n in ("09-hc-sa", "01-dot")
                   for k in (4, 8, 12))),
]


def normalise(text):
    return re.sub(r"\s+", " ", text)


def main():
    pages = {doc: normalise(open(os.path.join(ROOT, doc), encoding="utf-8").read()) for doc in (R_MD, A_MD, README)}
    failed = 0
    for doc, piece, numbers in CLAIMS:
        want = normalise(piece.format(*numbers()))
        if "--list" in sys.argv:
            print(f"{doc}: {want}")
        if want in pages[doc]:
            continue
        failed += 1
        # What the page says instead: the page around the longest run of the piece's words
        # between numbers, aligned as in the piece.
        words = max((normalise(w) for w in piece.split("{}")), key=len)
        at = pages[doc].find(words)
        if at >= 0:
            at = max(0, at - want.find(words))
            says = pages[doc][at:at + len(want) + 20]
        else:
            says = f"(not on the page: '{words}')"
        print(f"FAIL: {doc}\n  the cells give: {want}\n  the page says:  {says}")
    if failed:
        print(f"{failed} of {len(CLAIMS)} prose claims disagree with the cells")
        return 1
    print(f"ok: {len(CLAIMS)} sentences' derived numbers in {R_MD}, {A_MD} and {README} agree with the cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
