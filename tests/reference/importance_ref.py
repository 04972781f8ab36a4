#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Head importance (Michel et al. 2019; docs/analysis.md) of `attnviz-cli analyze
--importance` against PyTorch autograd: the PyTorch twin (python/attnviz_torch, float64)
with a gate ξ_h = 1 on every head's output, I_h = mean over sentences x of |∂L(x)/∂ξ_h|
with L(x) the summed cross-entropy of x's target tokens, normalised per block by the L2
norm of its heads' importances.

Usage: importance_ref.py CLI MODEL [MODEL...]"""
import json
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from attnviz_torch.model import AttnvizModel  # noqa: E402


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    cli, models = sys.argv[1], sys.argv[2:]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for path in models:
            m = AttnvizModel.from_checkpoint(path).double()
            seq2seq = m.cfg["arch"] == "seq2seq"
            task = "translate" if seq2seq else "lm"
            data = os.path.join(tmp, "set.tsv")
            with open(data, "w") as f:
                f.write(run([cli, "examples", "--task", task, "--count", "24", "--seed", "4", "--held-out"]))
            engine = json.loads(run([cli, "analyze", "--model", path, "--data", data, "--count", "24", "--importance"]))
            lines = [ln.split("\t") for ln in open(data).read().splitlines() if ln.strip()]
            blocks = m._blocks()
            sums = [torch.zeros(m.cfg[k]["heads"], dtype=torch.float64) for k, _ in blocks]
            for ln in lines:
                src = m.source_ids(ln[0]) if seq2seq else None
                tgt = m.target_ids(ln[1] if seq2seq else ln[0])
                gates = [torch.ones(1, m.cfg[k]["heads"], dtype=torch.float64, requires_grad=True) for k, _ in blocks]
                s, tin, tout = m.batch([(src, tgt)])
                logits = m.forward(s, tin, gates=gates)
                loss = torch.nn.functional.cross_entropy(logits[0], tout[0], reduction="sum")
                grads = torch.autograd.grad(loss, gates)
                for k, g in enumerate(grads):
                    sums[k] += g[0].abs()
            imp = [x / len(lines) for x in sums]
            k = 0
            for b, heads in enumerate(imp):
                norm = float(heads.norm())
                for h in range(len(heads)):
                    e = engine["heads"][k]
                    want, want_n = float(heads[h]), float(heads[h]) / norm if norm > 0 else 0.0
                    rel = abs(e["importance"] - want) / max(1e-12, abs(want))
                    worst = max(worst, abs(e["importance_normalised"] - want_n), min(rel, abs(e["importance"] - want)))
                    k += 1
            print(f"{os.path.basename(path)}: {k} heads over {len(lines)} sentences, importance by autograd")
    if worst > 1e-4:
        sys.exit(f"FAIL importance: engine vs autograd differ by {worst:.2e}")
    print(f"OK head importance: engine vs PyTorch autograd of the gates, worst difference {worst:.1e}")


if __name__ == "__main__":
    main()
