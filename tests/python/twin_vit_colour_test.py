#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch twin (python/attnviz_torch) against the engine on colour image models
(`"channels": 3`, docs/model-spec.md 3.10), on the bundled clothing photos.

Usage: twin_vit_colour_test.py CLI   (CTest runs it; reads resources/data/clothing-photos, or
                                      $ATTNVIZ_CLOTHING_PHOTOS when set)

For every colour configuration below (64 × 64 RGB, class token and mean pooling, pre- and
post-norm, variants on the patch grid, patch 8 and 16, a convolutional stem):
1. attnviz-cli init writes a checkpoint whose resolved configuration holds `"channels": 3`,
   whose `patch_embed.weight` is [d, P²·3] and within Xavier(P²·3, d)'s bound (6.2; its largest
   value near the bound, which Xavier(P², d) would exceed); the twin loads it.
2. `attnviz-cli attention --photo K --split S` (8.1) of test photos 0 and 17 and validation
   photo 5: the dump's pixels are the split file's image K exactly (the [64, 64, 3] IDX image,
   R, G, B of a pixel together, S²·3 values), with its label and `channels` 3; the twin's image
   dump of those pixels equals the engine's: every block's weights, the logits, the
   probabilities and the loss within 1e-5, the prediction exactly (twin_vit_test.compare).
   For the first photo, `python3 -m attnviz_torch.attention --photo K` (the twin reading the
   set itself) gives the engine's dump too, its image object (source included) exactly.
3. The twin writes the checkpoint back; the engine reads it and gives the same dumps.
4. One training step: `attnviz-cli train --task clothing-photos --steps 1` with SGD, lr 1, no
   dropout, no clipping, no shuffling, against the twin's autograd gradients of the mean
   loss (label smoothing 0.1) over the first 8 images of the training file, within 1e-5
   (relative to the tensor's largest gradient above 1); then the dumps of the stepped model.

ENGINE_IMAGE_ARGS is the one place that says how attnviz-cli is asked for photo K of a split.
"""
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
from attnviz_torch.attention import image_dump  # noqa: E402
from attnviz_torch.checkpoint import read_checkpoint  # noqa: E402
from attnviz_torch.model import AttnvizModel  # noqa: E402
from twin_vit_test import TOL, compare, worst_gradient  # noqa: E402

DATA = os.environ.get("ATTNVIZ_CLOTHING_PHOTOS") or os.path.join(ROOT, "resources", "data", "clothing-photos")
ENV = dict(os.environ, ATTNVIZ_CLOTHING_PHOTOS=DATA)
BASE = {"arch": "vit", "image_size": 64, "channels": 3, "patch": 8, "d_model": 32, "heads": 4, "d_ff": 64,
        "enc_layers": 2}
CONFIGS = {
    "cls_dot": {},
    "mean_dense_post_nobias": {"pool": "mean", "norm": "post", "bias": False, "encoder_self": {"variant": "dense"}},
    "gaussian_2d": {"encoder_self": {"variant": "gaussian"}},
    "local_2d_mean": {"pool": "mean", "encoder_self": {"variant": "local", "window": 2}},
    "factorized_dense_2d": {"encoder_self": {"variant": "factorized_dense"}},
    "learned_gaussian_dot_mean": {"pool": "mean", "encoder_self": {"variant": "mixture",
                                                                   "components": ["learned_gaussian", "dot"]}},
    "random_dot_patch16": {"patch": 16, "encoder_self": {"variant": "mixture", "components": ["random", "dot"]}},
    # A convolutional stem (3 × 3, stride 2, ReLU; 2³ = patch 8) before the patch embedding.
    "stem_dot_mean": {"pool": "mean", "stem": [8, 12, 16]},
    "stem_gaussian_2d": {"stem": [6, 10, 16], "encoder_self": {"variant": "gaussian"}},
}
IMAGES = [("test", 0), ("test", 17), ("validation", 5)]
S, K = 64, 3


def ENGINE_IMAGE_ARGS(split, k):
    return ["--photo", str(k), "--split", split]


def cli_run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    if r.returncode != 0:
        sys.exit(f"FAIL {' '.join(cmd[1:3])}: attnviz-cli exited with {r.returncode}: {r.stderr.strip()[-400:]}")
    return r.stdout


def engine_dump(cli, model, image):
    return json.loads(cli_run([cli, "attention", "--model", model] + ENGINE_IMAGE_ARGS(*image)))


def twin_cli_dump(model, image):
    split_name, k = image
    r = subprocess.run([sys.executable, "-m", "attnviz_torch.attention", "--model", model, "--photo", str(k),
                        "--split", split_name], capture_output=True, text=True,
                       env=dict(ENV, PYTHONPATH=os.path.join(ROOT, "python"), OMP_NUM_THREADS="1"))
    if r.returncode != 0:
        sys.exit(f"FAIL python3 -m attnviz_torch.attention --photo {k} --split {split_name}: exit {r.returncode}: "
                 f"{r.stderr.strip()[-400:]}")
    return json.loads(r.stdout)


def read_idx(path):
    """(dims, uint8 data) of a gzip IDX file of unsigned bytes."""
    with gzip.open(path) as f:
        raw = f.read()
    assert raw[:3] == b"\x00\x00\x08", path
    n = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(n)]
    return dims, np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * n).reshape(dims)


def split(name):
    dims, images = read_idx(os.path.join(DATA, f"{name}-images-idx4-ubyte.gz"))
    if dims[1:] != [S, S, K]:
        sys.exit(f"FAIL {DATA}: {name} images are {dims}, not [N, {S}, {S}, {K}]")
    _, labels = read_idx(os.path.join(DATA, f"{name}-labels-idx1-ubyte.gz"))
    return images, labels


def check_init(name, path, cfg):
    tensors, meta = read_checkpoint(path)
    stored = json.loads(meta["config"])
    if stored.get("channels") != K:
        sys.exit(f"FAIL {name}: the engine's resolved configuration has channels {stored.get('channels')}")
    P, d = cfg["patch"], cfg["d_model"]
    pv = cfg["stem"][-1] if "stem" in cfg else P * P * K  # a patch's values
    if stored.get("stem") != cfg.get("stem"):
        sys.exit(f"FAIL {name}: the resolved configuration's stem is {stored.get('stem')}")
    for i, out in enumerate(cfg.get("stem", [])):  # He-uniform over 3 × 3 × inputs
        fan = 9 * (K if i == 0 else cfg["stem"][i - 1])
        w = tensors[f"stem.{i}.weight"]
        top, bound = float(w.abs().max()), math.sqrt(6.0 / fan)
        if list(w.shape) != [out, fan] or top > bound * (1 + 1e-6) or top < 0.9 * bound:
            sys.exit(f"FAIL {name}: stem.{i}.weight is {list(w.shape)} with largest |value| {top:.4f}, "
                     f"not [{out}, {fan}] within He-uniform's bound {bound:.4f}")
    w = tensors["patch_embed.weight"]
    if list(w.shape) != [d, pv]:
        sys.exit(f"FAIL {name}: patch_embed.weight is {list(w.shape)}, not [{d}, {pv}]")
    bound = math.sqrt(6.0 / (pv + d))
    top = float(w.abs().max())
    if top > bound * (1 + 1e-6) or top < 0.9 * bound:
        sys.exit(f"FAIL {name}: patch_embed.weight's largest |value| {top:.4f} is not that of Xavier(P²·K, d) "
                 f"(bound {bound:.4f})")


def check_pixels(name, dump, image, sets):
    split_name, k = image
    images, labels = sets[split_name]
    want = images[k].reshape(-1).tolist()  # [64, 64, 3] row-major: (y·S + x)·K + k
    if dump["image"]["pixels"] != want:
        sys.exit(f"FAIL {name} image {k}: the dump's pixels are not the {split_name} file's image {k} "
                 f"({len(dump['image']['pixels'])} values, {len(want)} expected)")
    if dump["image"].get("label") != int(labels[k]) or dump["image"].get("channels") != K:
        sys.exit(f"FAIL {name} image {k}: label {dump['image'].get('label')} / channels "
                 f"{dump['image'].get('channels')}, not {int(labels[k])} / {K}")


def compare_colour(e, t, where):
    if e["image"].get("channels") != t["image"].get("channels"):
        sys.exit(f"FAIL {where}: image channels {e['image'].get('channels')} vs {t['image'].get('channels')}")
    return compare(e, t, where)


def training_step(cli, tmp, name, model_path, sets):
    """Engine: one SGD step of lr 1 on the first 8 training photos; twin: autograd gradients.
    The engine's weight change is −lr · gradient of the mean loss."""
    after = os.path.join(tmp, name + "-step.safetensors")
    cli_run([cli, "train", "--init", model_path, "--task", "clothing-photos", "--steps", "1",
             "--batch-size", "8", "--optimizer", "sgd", "--lr", "1", "--schedule", "constant",
             "--warmup", "0", "--dropout", "0", "--label-smoothing", "0.1", "--clip", "0",
             "--no-shuffle", "--threads", "2", "--out", after])
    model = AttnvizModel.from_checkpoint(model_path)
    train_images, train_labels = sets["train"]
    px = torch.from_numpy(train_images[:8].reshape(8, S * S * K).copy())
    labels = torch.from_numpy(train_labels[:8].astype(np.int64))
    loss, n = model.image_loss_sum(px, labels, label_smoothing=0.1)
    (loss / n).backward()
    worst = worst_gradient(model, model_path, after, name)
    e = engine_dump(cli, after, IMAGES[0])
    t = image_dump(AttnvizModel.from_checkpoint(after), after, e["image"]["pixels"], e["image"]["label"],
                   e["image"]["source"])
    compare_colour(e, t, f"{name} after one step")
    return worst


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cli = sys.argv[1]
    sets = {name: split(name) for name in ("train", "validation", "test")}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in CONFIGS.items():
            cfg = dict(BASE, **extra)
            cfg_path = os.path.join(tmp, name + ".json")
            with open(cfg_path, "w") as f:
                json.dump(cfg, f)
            path = os.path.join(tmp, name + ".safetensors")
            cli_run([cli, "init", "--config", cfg_path, "--seed", "5", "--out", path])
            check_init(name, path, cfg)
            twin = AttnvizModel.from_checkpoint(path)
            back = os.path.join(tmp, name + "-twin.safetensors")
            twin.save(back)
            worst = 0.0
            for image in IMAGES:
                where = f"{name} {image[0]} photo {image[1]}"
                e = engine_dump(cli, path, image)
                check_pixels(name, e, image, sets)
                t = image_dump(twin, path, e["image"]["pixels"], e["image"]["label"], e["image"]["source"])
                worst = max(worst, compare_colour(e, t, where))
                worst = max(worst, compare_colour(e, engine_dump(cli, back, image), where + " (twin's file)"))
                if image == IMAGES[0]:
                    t = twin_cli_dump(path, image)
                    if t["image"] != e["image"]:
                        sys.exit(f"FAIL {where}: the twin's command's image object differs from the engine's")
                    worst = max(worst, compare_colour(e, t, where + " (the twin's command)"))
            g = training_step(cli, tmp, name, path, sets)
            print(f"OK {name}: {len(IMAGES)} photos, max dump difference {worst:.2e}; "
                  f"one SGD step, max gradient difference {g:.2e}")


if __name__ == "__main__":
    main()
