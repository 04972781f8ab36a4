#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every generated table in docs/ against its committed cells (issue 30).

1. Each table script, in --check mode, regenerates its tables from the cells under docs/
   and compares their rows with the document (scripts/doctables.py): the toy results and
   both ablations (scripts/experiment), the real-text table (scripts/experiment-real) and its longer training
   (scripts/experiment-longer), the
   tested comparisons (scripts/compare-cells) and the analysis tables (scripts/analysis-runs, scripts/experiment-pruning).
2. Every "mean ± sd" written in the prose of docs/results.md and docs/analysis.md must
   appear in one of their generated tables: a number quoted in a sentence that
   no table (and so no cell) backs fails the test.
3. Every cell that keeps its per-verse BLEU data (the "verse_stats" of docs/results-longer/,
   the bundled-seed hypotheses of docs/results-real/hypotheses/) gives its own "bleu" again
   when corpus BLEU is recomputed from them (scripts/cellstats.py, as `attnviz-cli eval`),
   and each verse_stats row is what cellstats.sentence_bleu_stats writes for a hypothesis of
   that length: the bootstraps read these, so a cell whose two disagree fails (issue 50).

Nothing is trained or run; only Python and the committed files. Exit 1 with the differences.
"""
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
CHECKS = [
    ["scripts/experiment", "--check"],
    ["scripts/experiment", "--check", "--configs", "docs/ablations/mixture/*.json",
     "--cells", "docs/results-ablations", "--section", "mixture-ablation"],
    ["scripts/experiment", "--check", "--configs", "docs/ablations/ffn/*.json",
     "--cells", "docs/results-ablations", "--section", "ffn-ablation", "--tasks", "translate,reverse"],
    ["scripts/experiment-real", "--check"],
    ["scripts/experiment-longer", "--check"],
    ["scripts/compare-cells", "--check"],
    ["scripts/analysis-runs", "--check"],
    ["scripts/experiment-pruning", "--check"],
    ["scripts/experiment-vision", "--check"],
    ["scripts/experiment-converge", "--check"],
    ["scripts/experiment-photos", "--check"],
    ["scripts/experiment-photos", "--stem", "--check"],
    ["scripts/experiment-photos", "--cutout", "--check"],
    ["scripts/experiment-converge-text", "--check"],
]
SECTION = re.compile(r"<!-- ([\w-]+):begin -->(.*?)<!-- \1:end -->", re.S)
PLUS_MINUS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)")


DOCS = ("docs/results.md", "docs/analysis.md")

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cellstats  # noqa: E402


def per_verse_mismatches():
    """(cell, what is wrong) for every cell whose per-verse BLEU data disagree with its BLEU."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "docs/results-longer/*.json"))):
        cell = json.load(open(path))
        rel = os.path.relpath(path, ROOT)
        stats = cell.get("verse_stats")
        if not stats:
            out.append((rel, "no verse_stats"))
            continue
        for i, s in enumerate(stats):
            want = [max(1, s[0] - n + 1) for n in range(1, 5)]
            if len(s) != 10 or s[6:10] != want:
                out.append((rel, f"verse {i + 1}: n-gram totals {s[6:10]} for a {s[0]}-word hypothesis, "
                                 f"corpus BLEU counts {want}"))
                break
        bleu = cellstats.corpus_bleu_from_stats(stats)
        if abs(bleu - cell["bleu"]) > 1e-9 * max(1.0, abs(bleu)):
            out.append((rel, f"bleu {cell['bleu']!r}, its verse_stats give {bleu!r}"))
    for path in sorted(glob.glob(os.path.join(ROOT, "docs/results-real/hypotheses/*.tsv"))):
        cell_path = os.path.join(ROOT, "docs/results-real", os.path.basename(path)[:-4] + ".json")
        rel = os.path.relpath(path, ROOT)
        if not os.path.exists(cell_path):
            out.append((rel, "no cell of this name in docs/results-real"))
            continue
        stats = []
        for line in open(path, encoding="utf-8"):
            hyp, ref = line.rstrip("\n").split("\t")
            stats.append(cellstats.sentence_bleu_stats(hyp.split(), ref.split()))
        bleu, want = cellstats.corpus_bleu_from_stats(stats), json.load(open(cell_path))["bleu"]
        if abs(bleu - want) > 1e-9 * max(1.0, abs(bleu)):
            out.append((rel, f"corpus BLEU {bleu!r}, its cell says {want!r}"))
    return out


def table_numbers():
    """Every 'm ± s' in a generated section of DOCS (a page may quote another's table)."""
    known = set()
    for doc in DOCS:
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        tables = " ".join(m.group(2) for m in SECTION.finditer(text))
        known |= {f"{a} ± {b}" for a, b in PLUS_MINUS.findall(tables)}
    return known


def prose_numbers(doc, known):
    """(line number, 'm ± s') of every mean ± sd outside the generated sections that no
    generated section contains."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    prose = SECTION.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    missing = []
    for n, line in enumerate(prose.splitlines(), 1):
        for a, b in PLUS_MINUS.findall(line):
            if f"{a} ± {b}" not in known:
                missing.append((n, f"{a} ± {b}"))
    return missing


def main():
    failed = False
    for cmd in CHECKS:
        r = subprocess.run([sys.executable] + [os.path.join(ROOT, cmd[0])] + cmd[1:], cwd=ROOT,
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed = True
            print(f"FAIL: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
        else:
            print(f"ok: {' '.join(cmd)}")
    known = table_numbers()
    for doc in DOCS:
        missing = prose_numbers(doc, known)
        for n, s in missing:
            failed = True
            print(f"FAIL: {doc}:{n}: '{s}' is in the prose but in no generated table of the page")
        if not missing:
            print(f"ok: every 'mean ± sd' in the prose of {doc} is in one of its generated tables")
    bad = per_verse_mismatches()
    for rel, what in bad:
        failed = True
        print(f"FAIL: {rel}: {what}")
    if not bad:
        print("ok: every cell's BLEU is the corpus BLEU of its per-verse data")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
