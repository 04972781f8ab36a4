#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CTest driver: parses what `attnviz-cli render` writes.

- SVG of M models x H heads on an N-token sentence: exactly M*H*N*N cell rectangles, every
  token a text element (CJK included), nothing embedded as an image.
- PDF: the requested page size (pdfinfo) and the tokens in its text (pdftotext).
- PNG: exactly the requested pixel size.
- CSV: M*H*N*N rows whose weights match the JSON dump of `attnviz-cli attention`.
- NPY: the shape [M*H, N, N] and the same weights.
- Errors: an unwritable place, and a full disk (RLIMIT_FSIZE, as `ulimit -f`), give a clear
  message, exit code 1, and leave no file behind.
"""
import argparse
import csv
import json
import os
import re
import resource
import signal
import struct
import subprocess
import sys
import tempfile

import numpy as np

TEXT = "I want to go to the station"
TOKENS = ["i", "want", "to", "go", "to", "the", "station", "<eos>"]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fail(msg):
    sys.exit("FAIL " + msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--models", required=True)
    a = ap.parse_args()
    models = [os.path.join(a.models, m) for m in ("01-dot.safetensors", "09-hc-sa.safetensors", "03-random.safetensors")]
    M, H, N = len(models), 4, len(TOKENS)
    base = [a.cli, "render", "--text", TEXT, "--block", "encoder_self", "--layer", "0"]
    for m in models:
        base += ["--model", m]
    with tempfile.TemporaryDirectory() as tmp:
        # SVG: rectangles and text.
        svg = os.path.join(tmp, "f.svg")
        # A slide: room for every token's label at 7 pt (a crowded page labels one in every k).
        r = run(base + ["--out", svg, "--size", "slide", "--shared-scale", "--title", "车站 test"])
        if r.returncode:
            fail(r.stderr)
        s = open(svg, encoding="utf-8").read()
        rects = len(re.findall(r"<rect\b", s))
        if rects != M * H * N * N:
            fail(f"SVG has {rects} rectangles, expected {M}*{H}*{N}*{N} = {M * H * N * N}")
        if "<image" in s:
            fail("SVG embeds an image")
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", s)
        for t in set(TOKENS):
            want = t.replace("<", "&lt;").replace(">", "&gt;")
            if not any(x.strip() == want for x in texts):
                fail(f"SVG has no text element for token {t!r}")
        if not any("车站" in x for x in texts):
            fail("SVG lost the CJK title")
        print(f"OK svg: {rects} cell rectangles, {len(texts)} text elements")
        # Labels at the size asked, never shrunk, also on a crowded page (12 panels on a
        # 400x280 pt page; the 504x360 pt page now holds them in bands of models): one
        # token in every k labelled then, and a footnote says so.
        for size, name in (("slide", "roomy"), ("400x280", "crowded")):
            out = os.path.join(tmp, name + ".svg")
            r = run(base + ["--out", out, "--size", size, "--font-size", "7"])
            if r.returncode:
                fail(r.stderr)
            found = re.findall(r'<text[^>]*font-size="([\d.]+)"[^>]*>([^<]*)</text>',
                               open(out, encoding="utf-8").read())
            unescape = lambda t: t.strip().replace("&lt;", "<").replace("&gt;", ">")
            labels = [float(fs) for fs, t in found if unescape(t) in TOKENS]
            if not labels or any(abs(fs - 7) > 0.01 for fs in labels):
                fail(f"{name} SVG: token labels of {sorted(set(labels))} pt, asked 7")
            # Every panel has the same tokens, so their labels are shared (queries once per row
            # of panels, keys once per column): whole sets of the N tokens unless thinned.
            names = [unescape(t) for _, t in found if unescape(t) in TOKENS]
            sets = len(names) // N
            thinned = any(names.count(t) != sets * TOKENS.count(t) for t in set(TOKENS))
            if not 2 <= sets < M * H * 2 and not thinned:
                fail(f"{name} SVG: {sets} sets of token labels for {M * H} panels")
            if thinned != any("one in every" in t for _, t in found):
                fail(f"{name} SVG: {len(labels)} labels, footnote does not match")
            if thinned != (size == "400x280"):
                fail(f"{name} SVG: {len(labels)} labels, thinned {thinned}")
            print(f"OK svg {name}: {len(labels)} token labels, all at 7 pt")
        if any("does not know" in x for x in texts):
            fail("SVG has the unknown-word note although every word is known")
        # Words the models do not know: marked in the labels, explained in a footnote.
        unk = os.path.join(tmp, "unk.svg")
        r = run([a.cli, "render", "--model", models[0], "--text", "The quick brown fox", "--heads", "mean",
                 "--out", unk, "--size", "page"])
        if r.returncode:
            fail(r.stderr)
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", open(unk, encoding="utf-8").read())
        if not any(x.strip() == "quick\u2047" for x in texts):
            fail("SVG does not mark the unknown word 'quick'")
        if not any("does not know" in x for x in texts):
            fail("SVG has no note explaining the unknown-word mark")
        print("OK svg: unknown words marked and explained")
        # Colour bars: one for a shared scale, one per panel otherwise (a figure always says
        # what its colours mean); none for the lines view, which draws a path per line.
        grads = len(re.findall(r"<linearGradient\b", s))
        if grads != 1:
            fail(f"shared-scale SVG has {grads} colour bars, expected 1")
        own = os.path.join(tmp, "own.svg")
        r = run(base + ["--out", own, "--size", "page"])
        if r.returncode:
            fail(r.stderr)
        grads = len(re.findall(r"<linearGradient\b", open(own, encoding="utf-8").read()))
        if grads != M * H:
            fail(f"per-panel SVG has {grads} colour bars, expected {M * H}")
        lines = os.path.join(tmp, "lines.svg")
        r = run(base + ["--out", lines, "--size", "page", "--lines", "--heads", "0"])
        if r.returncode:
            fail(r.stderr)
        ls = open(lines, encoding="utf-8").read()
        if re.findall(r"<rect\b", ls) or "<linearGradient" in ls:
            fail("lines SVG has cells or a colour bar")
        paths = len(re.findall(r"<path\b", ls))
        if paths < M * N:  # at least one line per query, every line a path
            fail(f"lines SVG has {paths} paths, expected at least {M * N}")
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", ls)
        if not all(any(x.strip() == t.replace("<", "&lt;").replace(">", "&gt;") for x in texts) for t in set(TOKENS)):
            fail("lines SVG lacks a token label")
        print(f"OK svg: colour bars shared and per panel; lines view with {paths} paths")
        # PDF: page size and text.
        pdf = os.path.join(tmp, "f.pdf")
        r = run(base + ["--out", pdf, "--size", "900x500"])
        if r.returncode:
            fail(r.stderr)
        info = run(["pdfinfo", pdf]).stdout
        m = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
        if not m or abs(float(m.group(1)) - 900) > 0.5 or abs(float(m.group(2)) - 500) > 0.5:
            fail(f"PDF page size: {info}")
        words = run(["pdftotext", pdf, "-"]).stdout.split()
        for t in set(TOKENS):
            if t not in words:
                fail(f"PDF text lacks {t!r}: {words[:40]}")
        print(f"OK pdf: page {m.group(1)} x {m.group(2)} pt, tokens in its text")
        # PNG: exact pixel size.
        png = os.path.join(tmp, "f.png")
        r = run(base + ["--out", png, "--size", "777x333"])
        if r.returncode:
            fail(r.stderr)
        head = open(png, "rb").read(24)
        w, h = struct.unpack(">II", head[16:24])
        if (w, h) != (777, 333):
            fail(f"PNG is {w}x{h}, expected 777x333")
        print("OK png: 777 x 333 px")
        # CSV and NPY against the dump of each model.
        csvp, npyp = os.path.join(tmp, "f.csv"), os.path.join(tmp, "f.npy")
        for out in (csvp, npyp):
            r = run(base + ["--out", out])
            if r.returncode:
                fail(r.stderr)
        rows = list(csv.DictReader(open(csvp, encoding="utf-8")))
        if len(rows) != M * H * N * N:
            fail(f"CSV has {len(rows)} rows, expected {M * H * N * N}")
        arr = np.load(npyp)
        if arr.shape != (M * H, N, N):
            fail(f"NPY shape {arr.shape}")
        worst = 0.0
        for k, mpath in enumerate(models):
            dump = json.loads(run([a.cli, "attention", "--model", mpath, "--text", TEXT], check=True).stdout)
            blk = next(b for b in dump["blocks"] if b["kind"] == "encoder_self" and b["layer"] == 0)
            W = np.array(blk["weights"])
            mine = [r for r in rows[k * H * N * N:(k + 1) * H * N * N]]
            for r in mine:
                h, i, j = int(r["head"]), int(r["query_index"]), int(r["key_index"])
                if r["query_token"] != TOKENS[i] or r["key_token"] != TOKENS[j] or r["block"] != "encoder_self":
                    fail(f"CSV row {r}")
                worst = max(worst, abs(float(r["weight"]) - W[h, i, j]))
            worst = max(worst, float(np.abs(arr[k * H:(k + 1) * H] - W).max()))
        if worst > 1e-6:
            fail(f"exported weights differ from the dump by {worst}")
        print(f"OK csv: {len(rows)} rows; npy {arr.shape}; max |difference| from the dump {worst:.1e}")
        # Errors: an unwritable place, a full disk. No file may be left behind.
        r = run(base + ["--out", "/proc/attnviz/f.svg"])
        # Refused before any work (issue 11): the message names the path and the directory.
        if r.returncode != 1 or "'/proc/attnviz/f.svg'" not in r.stderr or "does not exist" not in r.stderr:
            fail(f"unwritable place: {r.returncode} {r.stderr}")
        full = os.path.join(tmp, "full")
        os.mkdir(full)

        def small_disk():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        for ext in ("svg", "pdf", "png", "csv"):
            out = os.path.join(full, "big." + ext)
            r = run(base + ["--out", out, "--size", "2000x2000" if ext == "png" else "page"], preexec_fn=small_disk)
            if r.returncode != 1 or "cannot write" not in r.stderr:
                fail(f"full disk ({ext}): exit {r.returncode}, {r.stderr.strip()}")
            if os.listdir(full):
                fail(f"full disk ({ext}) left {os.listdir(full)}")
        print("OK errors: unwritable place and full disk refused with a message, no file left")


if __name__ == "__main__":
    main()
