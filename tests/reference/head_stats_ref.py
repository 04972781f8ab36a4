#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz-cli analyze against an independent implementation (NumPy and PyTorch): for a
model and a few sentences, every head's entropy, confidence, distance and input dependence
recomputed from the weights `attnviz-cli attention` dumps, and the Gaussian fit redone by
gradient descent (PyTorch autograd, Adam then L-BFGS, from many starts).

Usage: head_stats_ref.py CLI MODEL
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

SENTENCES = [("I want to go to the station", "mi volas iri al la stacio"),
             ("the dog and the cat go home", "la hundo kaj la kato iras hejmen"),
             ("we see the dog near the house", "ni vidas la hundon apud la domo"),
             ("she says that the train arrives", "sxi diras ke la trajno alvenas")]


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def rows(w, causal):
    """Normalised rows (allowed keys only) with their query index; rows without weight out."""
    out = []
    for i in range(w.shape[0]):
        n = min(w.shape[1], i + 1) if causal else w.shape[1]
        r = np.maximum(w[i, :n].astype(np.float64), 0)
        if r.sum() > 0:
            out.append((i, r / r.sum()))
    return out


def sse_torch(tables, mu, log_sigma):
    total = torch.zeros((), dtype=torch.float64)
    for w, causal in tables:
        for i, p in rows(w, causal):
            j = torch.arange(len(p), dtype=torch.float64)
            logits = -0.5 * ((j - i - mu) / torch.exp(log_sigma)) ** 2
            g = torch.softmax(logits, 0)  # normalised over the allowed keys, stably
            total = total + ((torch.from_numpy(p) - g) ** 2).sum()
    return total


def fit(tables):
    """Least squares over the bounds of docs/analysis.md: |mu| <= N, 0.05 <= sigma <= 4N (N: the
    most keys of any table), by L-BFGS on unbounded variables mapped into them."""
    n = max(w.shape[1] for w, _ in tables)
    lo, hi = math.log(0.05), math.log(4.0 * n)
    best = (math.inf, 0.0, 0.0)
    for mu0 in (-3.0, -1.0, 0.0, 1.0, 3.0):
        for s0 in (0.7, 2.0):
            a = torch.tensor(math.atanh(max(-0.999, min(0.999, mu0 / n))), dtype=torch.float64,
                             requires_grad=True)
            t = (math.log(s0) - lo) / (hi - lo)
            b = torch.tensor(math.log(t / (1 - t)), dtype=torch.float64, requires_grad=True)
            params = lambda: (n * torch.tanh(a), lo + (hi - lo) * torch.sigmoid(b))  # noqa: E731
            opt = torch.optim.LBFGS([a, b], max_iter=300, tolerance_grad=1e-12,
                                    tolerance_change=1e-16, line_search_fn="strong_wolfe")

            def closure():
                opt.zero_grad()
                loss = sse_torch(tables, *params())
                loss.backward()
                return loss
            opt.step(closure)
            with torch.no_grad():
                mu, ls = params()
                v = float(sse_torch(tables, mu, ls))
            if v < best[0]:
                best = (v, float(mu), math.exp(float(ls)))
    return best


def main():
    cli, model = sys.argv[1], sys.argv[2]
    dumps = [json.loads(run([cli, "attention", "--model", model, "--text", s, "--target", t]))
             for s, t in SENTENCES]
    failures = 0
    # One sentence: analyze --text against the dump.
    s, t = SENTENCES[0]
    one = json.loads(run([cli, "analyze", "--model", model, "--text", s, "--target", t]))
    # Several: analyze --data against the dumps (input dependence needs a set).
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "sentences.tsv")
        with open(data, "w") as f:
            f.writelines(f"{a}\t{b}\n" for a, b in SENTENCES)
        many = json.loads(run([cli, "analyze", "--model", model, "--data", data]))
    # Rollout of the first sentence: ½ W̄ + ½ I per layer, rows renormalised, multiplied.
    roll = json.loads(run([cli, "analyze", "--model", model, "--text", s, "--target", t, "--rollout"]))
    for kind in ("encoder_self", "decoder_self"):
        means = [np.mean(np.array(b["weights"]), axis=0) for b in dumps[0]["blocks"] if b["kind"] == kind]
        if not means:
            continue
        r = np.eye(means[0].shape[0])
        for w in means:
            a = 0.5 * w + 0.5 * np.eye(w.shape[0])
            a = a / a.sum(axis=1, keepdims=True)
            r = a @ r
        err = float(np.abs(np.array(roll["rollout"][kind]) - r).max())
        if err > 1e-5:
            print(f"FAIL rollout {kind}: max |diff| {err}")
            failures += 1
        print(f"rollout {kind}: {len(means)} layers, max |diff| {err:.1e}")
    for result, ds in ((one, dumps[:1]), (many, dumps)):
        k = 0
        for b, block in enumerate(ds[0]["blocks"]):
            causal = block["kind"] == "decoder_self"
            for h in range(block["heads"]):
                tables = [(np.array(d["blocks"][b]["weights"][h]), causal) for d in ds]
                got = result["heads"][k]
                k += 1
                assert got["block"] == block["kind"] and got["layer"] == block["layer"] and got["head"] == h
                allrows = [p for w, c in tables for _, p in rows(w, c)]
                ent = np.mean([-(p[p > 0] * np.log(p[p > 0])).sum() for p in allrows])
                conf = np.mean([p.max() for p in allrows])
                dist = np.mean([sum(pj * abs(i - j) for j, pj in enumerate(p)) for w, c in tables
                                for i, p in rows(w, c)])
                where = f"{block['name']} head {h} ({len(ds)} sentences)"
                for name, want in (("entropy", ent), ("confidence", conf), ("distance", dist)):
                    if abs(got[name] - want) > 1e-5:
                        print(f"FAIL {where}: {name} {got[name]} vs {want}")
                        failures += 1
                # The fit: the reference's best squared error, and R² from it.
                sse, mu, sigma = fit(tables)
                flat = np.concatenate(allrows)
                sst = ((flat - flat.mean()) ** 2).sum()
                r2 = 1 - sse / sst if sst > 0 else 1.0
                # attnviz's optimum must be as good as the reference's (or better).
                if got["gaussian_fit"]["r2"] < r2 - 1e-6:
                    print(f"FAIL {where}: R² {got['gaussian_fit']['r2']} below the reference's {r2} "
                          f"(mu {mu:.4f}, sigma {sigma:.4f})")
                    failures += 1
                if len(ds) > 1:  # input dependence: pairwise TV within (shape, i) groups
                    groups = {}
                    for w, c in tables:
                        for i, p in rows(w, c):
                            groups.setdefault((w.shape, c, i), []).append(p)
                    tvs = [0.5 * np.abs(a - b2).sum() for g in groups.values() for x, a in enumerate(g)
                           for b2 in g[x + 1:]]
                    want = float(np.mean(tvs)) if tvs else 0.0
                    if abs(got["input_dependence"] - want) > 1e-6:
                        print(f"FAIL {where}: input dependence {got['input_dependence']} vs {want}")
                        failures += 1
        print(f"{len(result['heads'])} heads checked over {len(ds)} sentence(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
