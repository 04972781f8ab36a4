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

Nothing is trained or run; only Python and the committed files. Exit 1 with the differences.
"""
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
]
SECTION = re.compile(r"<!-- ([\w-]+):begin -->(.*?)<!-- \1:end -->", re.S)
PLUS_MINUS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)")


DOCS = ("docs/results.md", "docs/analysis.md")


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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
