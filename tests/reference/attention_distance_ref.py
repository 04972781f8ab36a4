#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz-cli analyze on image models (distance_px) against an independent NumPy version of the
mean attention distance (docs/model-spec.md 4.4; Dosovitskiy et al. 2021, Fig. 7):

1. a hard-coded 2D Gaussian model (offsets left, right, above, below; sigma 1; and a second
   with other offsets and sigma): its weights do not depend on the image, so every head's
   distance must equal the analytic value computed here from the spec's formula alone;
2. an untrained dot-product model over three Fashion-MNIST test images: every head's distance
   recomputed from the weights `attnviz-cli attention` dumps, and the layer means;
3. uniform attention on the 7 x 7 grid of 4-pixel patches: about 14.4 px.

Usage: attention_distance_ref.py CLI
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

G, P = 7, 4


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def pixel_distances():
    """[G², G²] pixel distance between the patches t (columns) and the queries i (rows)."""
    r, c = np.divmod(np.arange(G * G), G)
    return P * np.hypot(r[None, :] - r[:, None], c[None, :] - c[:, None])


def distance(w, class_token):
    """Mean attention distance of one head's weights [N, N]: patch rows over patch keys,
    renormalised, rows without weight left out. Returns (sum over rows, rows)."""
    first = 1 if class_token else 0
    a = np.maximum(np.asarray(w, dtype=np.float64)[first:, first:], 0)
    s = a.sum(axis=1)
    keep = s > 0
    per_row = (a[keep] * pixel_distances()[keep]).sum(axis=1) / s[keep]
    return per_row.sum(), int(keep.sum())


def gaussian_analytic(dr, dc, sigma):
    """The 2D normal density around offset (dr, dc) from every patch, over the patch keys."""
    r, c = np.divmod(np.arange(G * G), G)
    y = r[None, :] - r[:, None] - dr
    x = c[None, :] - c[:, None] - dc
    w = np.exp(-(y * y + x * x) / (2 * sigma * sigma)) / (2 * np.pi * sigma * sigma)
    return distance(w, False)[0] / (G * G)


def init(cli, tmp, name, config):
    cfg, out = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".safetensors")
    with open(cfg, "w") as f:
        json.dump(config, f)
    run([cli, "init", "--config", cfg, "--seed", "3", "--out", out])
    return out


def check(label, got, want, tol, failures):
    err = abs(got - want)
    ok = err <= tol
    print(f"{'ok  ' if ok else 'FAIL'} {label}: attnviz {got:.9f} px, NumPy {want:.9f} px, "
          f"|diff| {err:.1e}")
    return failures + (0 if ok else 1)


def main():
    cli = sys.argv[1]
    failures = 0
    base = {"arch": "vit", "d_model": 16, "heads": 4, "d_ff": 32, "enc_layers": 2}
    with tempfile.TemporaryDirectory() as tmp:
        # 1. Hard-coded Gaussians: analytic values.
        for name, block, pairs, sigma in (
                ("gauss", {"variant": "gaussian"}, [(0, -1), (0, 1), (-1, 0), (1, 0)], 1.0),
                ("gauss2", {"variant": "gaussian", "sigma": 1.7,
                            "offsets": [0, 0, 2, -1, -3, 3, 1, 1]},
                 [(0, 0), (2, -1), (-3, 3), (1, 1)], 1.7)):
            model = init(cli, tmp, name, dict(base, encoder_self=block))
            got = json.loads(run([cli, "analyze", "--model", model, "--fashion-mnist-count", "3"]))
            assert got["images"] == 3, got["images"]
            for h in got["heads"]:
                dr, dc = pairs[h["head"] % len(pairs)]
                failures = check(f"{name} layer {h['layer']} head {h['head']} offset ({dr}, {dc})"
                                 f" sigma {sigma}", h["distance_px"],
                                 gaussian_analytic(dr, dc, sigma), 1e-5, failures)
        # 2. Dot-product weights from the dumps, averaged over the images' rows.
        model = init(cli, tmp, "dot", base)
        got = json.loads(run([cli, "analyze", "--model", model, "--fashion-mnist-count", "3"]))
        dumps = [json.loads(run([cli, "attention", "--model", model, "--fashion-mnist", str(k)]))
                 for k in range(3)]
        k = 0
        for b, block in enumerate(dumps[0]["blocks"]):
            heads = []
            for h in range(block["heads"]):
                total, rows = 0.0, 0
                for d in dumps:
                    s, n = distance(d["blocks"][b]["weights"][h], True)
                    total, rows = total + s, rows + n
                head = got["heads"][k]
                k += 1
                assert (head["layer"], head["head"], head["rows"]) == (block["layer"], h, rows)
                heads.append(total / rows)
                failures = check(f"dot layer {block['layer']} head {h}", head["distance_px"],
                                 total / rows, 1e-5, failures)
            failures = check(f"dot layer {block['layer']} mean of heads",
                             got["layers"][b]["distance_px"], float(np.mean(heads)), 1e-5,
                             failures)
        # 3. Uniform attention.
        uniform = float(pixel_distances().mean())
        failures = check("uniform (7 x 7 patches of 4 px)", got["uniform_distance_px"], uniform,
                         1e-9, failures)
    if failures:
        print(f"{failures} failures")
        sys.exit(1)
    print("all distances agree")


if __name__ == "__main__":
    main()
