#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz-cli render --heads rollout|mean on image models against NumPy (issue 28; Abnar &
Zuidema 2020; docs/model-spec.md 4.4, "What an overlay shows"):

For two untrained image models (pool "cls" and pool "mean", three layers of three heads) and
two Fashion-MNIST test images, the weights `attnviz-cli attention` dumps are rolled out here
from the definition alone — per layer the mean of heads plus the identity, rows renormalised,
multiplied from the first layer — and compared with the [N, N] tables that `render --out
F.csv --heads rollout --layer L` writes, for every layer L; the mean of heads likewise.

Usage: image_rollout_ref.py CLI
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

TOL = 2e-6


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def rollout(blocks, layer):
    """Π_{l <= layer} A_l with A_l = ½ mean_h W_l + ½ I, rows renormalised; the newest left."""
    n = len(blocks[0]["weights"][0])
    r = np.eye(n)
    for b in blocks[: layer + 1]:
        a = 0.5 * np.mean(np.asarray(b["weights"], dtype=np.float64), axis=0) + 0.5 * np.eye(n)
        a /= a.sum(axis=1, keepdims=True)
        r = a @ r
    return r


def labels(n, class_token):
    g = int(round((n - (1 if class_token else 0)) ** 0.5))
    out = ["cls"] if class_token else []
    return out + ["r%dc%d" % (r, c) for r in range(g) for c in range(g)]


def table(path, head, names):
    """The CSV's table of `head` as [N, N] by the position labels."""
    index = {name: i for i, name in enumerate(names)}
    m = np.full((len(names), len(names)), np.nan)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["head"] == head:
                m[index[row["query_token"]], index[row["key_token"]]] = float(row["weight"])
    assert not np.isnan(m).any(), "the CSV misses cells of " + head
    return m


def check(cli, tmp, pool):
    cfg, model = os.path.join(tmp, pool + ".json"), os.path.join(tmp, pool + ".safetensors")
    with open(cfg, "w") as f:
        json.dump({"arch": "vit", "d_model": 24, "heads": 3, "d_ff": 48, "enc_layers": 3,
                   "pool": pool}, f)
    run([cli, "init", "--config", cfg, "--seed", "11", "--out", model])
    worst = 0.0
    for image in ("0", "42"):
        dump = json.loads(run([cli, "attention", "--model", model, "--fashion-mnist", image]))
        blocks = dump["blocks"]
        n = len(blocks[0]["weights"][0])
        names = labels(n, pool == "cls")
        out = os.path.join(tmp, "t.csv")
        for layer in range(len(blocks)):
            for heads, want in (("rollout", rollout(blocks, layer)),
                                ("mean", np.mean(np.asarray(blocks[layer]["weights"],
                                                            dtype=np.float64), axis=0))):
                run([cli, "render", "--model", model, "--fashion-mnist", image, "--layer",
                     str(layer), "--heads", heads, "--out", out])
                got = table(out, heads, names)
                err = float(np.abs(got - want).max())
                worst = max(worst, err)
                if err > TOL:
                    sys.exit("FAIL %s image %s layer %d %s: max |diff| %.3g" %
                             (pool, image, layer, heads, err))
                assert np.allclose(got.sum(axis=1), 1, atol=1e-5), "rows must sum to 1"
        # The rollout really multiplies: layer 2's differs from layer 1's.
        assert np.abs(rollout(blocks, 2) - rollout(blocks, 1)).max() > 1e-4
    print("pool %s: rollout and mean of heads equal NumPy's, max |diff| %.2g" % (pool, worst))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cli = sys.argv[1]
    if not any(os.path.exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte" + z)
               for z in ("", ".gz")):
        print("SKIP: no Fashion-MNIST")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for pool in ("cls", "mean"):
            check(cli, tmp, pool)


if __name__ == "__main__":
    main()
