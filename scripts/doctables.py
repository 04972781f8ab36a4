# SPDX-License-Identifier: GPL-3.0-or-later
"""Generated tables in docs/*.md (issue 30): every table sits between <!-- NAME:begin -->
and <!-- NAME:end --> and is written by a script from committed cells. write_section puts
a table in place atomically; check compares the table rows (lines starting with "|") of the
sections with the document, so that a test (tests/docs/generated_tables.py) fails when a
table and its cells disagree. Footers (dates, machine) are not compared: they record when
the cells were made, not what they say.
"""
import os


def _bounds(text, name):
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin not in text or end not in text:
        return None
    return text.index(begin) + len(begin), text.index(end)


def section(path, name):
    text = open(path).read()
    b = _bounds(text, name)
    return None if b is None else text[b[0]:b[1]]


def write_section(path, name, table):
    text = open(path).read()
    b = _bounds(text, name)
    if b is None:
        raise SystemExit(f"{path} has no <!-- {name}:begin --> … <!-- {name}:end --> for the table; "
                         "add them where it belongs, or use --stdout")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text[:b[0]] + "\n" + table + "\n" + text[b[1]:])
    os.replace(tmp, path)


def rows(text):
    return [line.rstrip() for line in text.splitlines() if line.startswith("|")]


def check(path, sections):
    """0 when every section's table rows in `path` equal the generated ones, else 1 after
    printing the first differing row of each section that differs."""
    failed = 0
    for name, table in sections.items():
        have = section(path, name)
        if have is None:
            print(f"{os.path.relpath(path)}: no section {name}")
            failed = 1
            continue
        want, got = rows(table), rows(have)
        if want == got:
            continue
        failed = 1
        for i in range(max(len(want), len(got))):
            w = want[i] if i < len(want) else "(no row)"
            g = got[i] if i < len(got) else "(no row)"
            if w != g:
                print(f"{os.path.relpath(path)}, section {name}, row {i + 1}:\n  document: {g}\n  cells:    {w}")
                break
    return failed


def hypothesis_stats(name):
    """Per-verse BLEU statistics (scripts/cellstats.py) of the bundled-seed model of a real-text
    configuration ("09-hc-sa" -> seed 9), from docs/results-real/hypotheses/NAME-sSEED.tsv
    (hypothesis words TAB reference words, one verse a line), or None when it is not kept."""
    import cellstats
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seed = int(name.split("-", 1)[0])
    path = os.path.join(root, "docs/results-real/hypotheses", f"{name}-s{seed}.tsv")
    if not os.path.exists(path):
        return None
    out = []
    for line in open(path, encoding="utf-8"):
        hyp, ref = line.rstrip("\n").split("\t")
        out.append(cellstats.sentence_bleu_stats(hyp.split(), ref.split()))
    return out
