#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch twin (python/attnviz_torch) on colour image models: the configuration key
`channels` (docs/model-spec.md 3.10, 5.1, 6.1), without the engine.

Usage: twin_vit_channels_test.py   (CTest runs it; needs no attnviz-cli and no data set)

1. Configuration: a vit configuration without `channels` resolves to 1 (grayscale), 1 and 3
   are accepted, and the resolved form always holds `channels`; 2, 0, 4, -1 are refused with
   "'channels' must be 1 (grayscale) or 3 (colour: R, G, B)", "3", 3.0, true, null and [3]
   with "'channels' must be an integer"; `channels` on a seq2seq or decoder configuration is
   refused as a vit key. A colour model expects `patch_embed.weight` [d, P²·3] and counts
   those weights; a colour checkpoint whose `patch_embed.weight` is [d, P²] is refused by
   the reader, naming the tensor.
2. Patch vectors: on a 4 × 4 colour image with patch 2 whose every value is distinct (value
   k of pixel (y, x) is 60y + 15x + 5k, stored at (y·4 + x)·3 + k), the twin's u_n equal the
   vectors written out by hand from 3.10 step 2 ((y·P + x)·K + k), scaled to p / 127.5 − 1,
   exactly; pixels given as [B, S, S, K] give the same.
3. Grayscale unchanged: on a 28 × 28 model the patch vectors and the logits are bit-for-bit
   those of the pre-colour code (reshape [B, G, P, G, P], no channel axis); a checkpoint whose
   configuration has no `channels` reads as grayscale and is written back byte for byte.
4. The twin against the independent reference (tests/reference/vit_ref.py, NumPy float64,
   written from the spec): for colour models (class token and mean pooling, pre- and
   post-norm, with and without biases, dot, dense and random blocks, 12 × 12 patch 4 and the
   clothing photos' 64 × 64 patch 8) and one grayscale model, the logits and every block's
   weights of three random images, run one at a time and as a batch, within 1e-5. The image
   dump of a colour model holds `channels` 3 and the S²·3 pixels as given.
5. `python3 -m attnviz_torch.attention --fashion-mnist K` on a colour model of 28 × 28
   pixels is refused with one line naming colour (Fashion-MNIST is grayscale); `--photo K`
   on a 64 × 64 colour model dumps clothing photo K of --split test and validation (pixels:
   the IDX file's [64, 64, 3] image, R, G, B together; its label; `channels` 3), and on a
   grayscale model, with --fashion-mnist, with --split validation and --fashion-mnist, past the
   split's end, and with ATTNVIZ_CLOTHING_PHOTOS naming an empty directory it is refused with
   one line. (Skipped without resources/data/clothing-photos.)
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
from attnviz_torch import config as cfgmod  # noqa: E402
from attnviz_torch.attention import image_dump  # noqa: E402
from attnviz_torch.checkpoint import write_checkpoint  # noqa: E402
from attnviz_torch.limits import InputError  # noqa: E402
from attnviz_torch.model import AttnvizModel  # noqa: E402
import vit_ref  # noqa: E402

TOL = 1e-5
CLASSES = [f"class {i}" for i in range(10)]
BASE = {"arch": "vit", "d_model": 24, "heads": 3, "d_ff": 48, "enc_layers": 2, "classes": 10}


def fail(what):
    sys.exit(f"FAIL {what}")


def refused(j, want):
    try:
        cfgmod.resolve(j)
    except InputError as e:
        if want not in str(e):
            fail(f"{json.dumps(j)}: refused with {str(e)!r}, not naming {want!r}")
        return str(e)
    fail(f"{json.dumps(j)}: accepted")


# -- 1. configuration -----------------------------------------------------------------------------

def configuration():
    c = cfgmod.resolve({"arch": "vit"})
    if c["channels"] != 1:
        fail(f"no 'channels': resolved to {c['channels']}, not 1")
    for k in (1, 3):
        c = cfgmod.resolve({"arch": "vit", "channels": k})
        if c["channels"] != k or json.loads(json.dumps(c))["channels"] != k:
            fail(f"channels {k}: resolved to {c.get('channels')}")
    for bad in (2, 0, 4, -1, 1 << 40):
        msg = refused({"arch": "vit", "channels": bad}, "'channels' must be 1 (grayscale) or 3 (colour: R, G, B)")
        if f"got {bad}" not in msg:
            fail(f"channels {bad}: the message {msg!r} does not quote the value")
    for bad in ("3", 3.0, True, None, [3], {"k": 3}):
        refused({"arch": "vit", "channels": bad}, "'channels' must be an integer")
    for arch in ("seq2seq", "decoder"):
        refused({"arch": arch, "channels": 1}, "'channels' belongs to arch \"vit\"")
        if "channels" in cfgmod.resolve({"arch": arch}):
            fail(f"arch {arch}: the resolved configuration holds 'channels'")
    # Tensors and the weight count.
    for k in (1, 3):
        c = cfgmod.resolve(dict(BASE, image_size=12, patch=4, channels=k))
        shape = cfgmod.expected_tensors(c, 0, 0)["patch_embed.weight"]
        if shape != [24, 16 * k]:
            fail(f"channels {k}: patch_embed.weight {shape}, not [24, {16 * k}]")
    c1 = cfgmod.resolve(dict(BASE, image_size=12, patch=4))
    c3 = cfgmod.resolve(dict(BASE, image_size=12, patch=4, channels=3))
    if cfgmod.weight_count(c3) - cfgmod.weight_count(c1) != 2 * 16 * 24:
        fail("the weight count does not count the colour patch embedding's P²·2·d more weights")
    # A colour checkpoint with a grayscale patch embedding: refused by name.
    with tempfile.TemporaryDirectory() as tmp:
        tensors = random_tensors(c3, 1)
        tensors["patch_embed.weight"] = tensors["patch_embed.weight"][:, :16].clone()
        path = os.path.join(tmp, "bad.safetensors")
        write_checkpoint(path, tensors, meta_of(dict(BASE, image_size=12, patch=4, channels=3)))
        try:
            AttnvizModel.from_checkpoint(path)
            fail("a colour checkpoint with patch_embed.weight [24, 16]: read")
        except InputError as e:
            if "patch_embed.weight" not in str(e):
                fail(f"a colour checkpoint with patch_embed.weight [24, 16]: refused without naming it: {e}")
    print("OK configuration: channels 1 by default, 1 and 3 accepted, 2 0 4 -1 \"3\" 3.0 true null refused; "
          "patch_embed [d, P²·K]")


# -- helpers --------------------------------------------------------------------------------------

def meta_of(config_json):
    return {"format": "attnviz", "format_version": "1", "config": json.dumps(config_json),
            "classes": json.dumps(CLASSES)}


def random_tensors(c, seed):
    """Every tensor of the resolved configuration `c`, random but of sane scale: LayerNorm
    weights near 1, everything else N(0, 0.3²) (the random table N(0, 1))."""
    g = torch.Generator().manual_seed(seed)
    out = {}
    for name, shape in sorted(cfgmod.expected_tensors(c, 0, 0).items()):
        t = torch.randn(shape, generator=g)
        if ".norm" in name and name.endswith(".weight"):
            t = 1 + 0.1 * t
        elif not name.endswith("random.r"):
            t = 0.3 * t
        out[name] = t
    return out


def write_model(tmp, name, config_json, seed):
    c = cfgmod.resolve(config_json)
    path = os.path.join(tmp, name + ".safetensors")
    write_checkpoint(path, random_tensors(c, seed), meta_of(config_json))
    return path


# -- 2. patch vectors by hand ---------------------------------------------------------------------

def patch_layout(tmp):
    S, P, K = 4, 2, 3
    cfg = dict(BASE, image_size=S, patch=P, channels=K, pool="mean")
    model = AttnvizModel.from_checkpoint(write_model(tmp, "hand", cfg, 3))
    pixels = [0] * (S * S * K)
    for y in range(S):
        for x in range(S):
            for k in range(K):
                pixels[(y * S + x) * K + k] = 60 * y + 15 * x + 5 * k
    # u_n by hand: patch n = (r, c); its pixels (y, x) in the order (0,0) (0,1) (1,0) (1,1),
    # each with R, G, B.
    hand = [[0, 5, 10, 15, 20, 25, 60, 65, 70, 75, 80, 85],            # r 0, c 0: image (0..1, 0..1)
            [30, 35, 40, 45, 50, 55, 90, 95, 100, 105, 110, 115],      # r 0, c 1: image (0..1, 2..3)
            [120, 125, 130, 135, 140, 145, 180, 185, 190, 195, 200, 205],  # r 1, c 0: (2..3, 0..1)
            [150, 155, 160, 165, 170, 175, 210, 215, 220, 225, 230, 235]]  # r 1, c 1: (2..3, 2..3)
    want = torch.tensor(hand, dtype=torch.float32) / 127.5 - 1.0
    for shape in ((1, S * S * K), (1, S, S, K)):
        got = model.patches(torch.tensor(pixels).reshape(shape))
        if got.shape != (1, 4, P * P * K) or not torch.equal(got[0], want):
            fail(f"patch vectors of the 4×4 colour image (pixels {shape}):\n{got}\nwanted\n{want}")
    # The reference computes them from the same formula, independently.
    ref = torch.tensor(vit_ref.patch_vectors(pixels, S, P, K), dtype=torch.float32)
    if not torch.equal(ref, want):
        fail("the reference's patch vectors differ from the hand-written ones")
    print("OK patch vectors: a 4×4 colour image, patch 2, equals the hand-computed u_n ((y·P + x)·K + k)")


# -- 3. grayscale unchanged -----------------------------------------------------------------------

def old_patches(model, pixels):
    """The twin's patches() before colour (a copy of the code of commit 831a8ca)."""
    c = model.cfg
    S, P = c["image_size"], c["patch"]
    G = S // P
    x = pixels.to(model.device).to(torch.float32) / 127.5 - 1.0
    x = x.reshape(-1, G, P, G, P).permute(0, 1, 3, 2, 4)
    return x.reshape(x.shape[0], G * G, P * P).to(model.P("pos_embed").dtype)


def grayscale_unchanged(tmp):
    cfg = {"arch": "vit", "d_model": 32, "heads": 4, "d_ff": 64, "enc_layers": 2}  # no 'channels'
    path = write_model(tmp, "gray", cfg, 4)
    model = AttnvizModel.from_checkpoint(path)
    if model.cfg["channels"] != 1:
        fail("a checkpoint without 'channels' did not read as grayscale")
    px = torch.randint(0, 256, (3, 784), generator=torch.Generator().manual_seed(8))
    if not torch.equal(model.patches(px), old_patches(model, px)):
        fail("grayscale patch vectors differ from the pre-colour code's")
    with torch.no_grad():
        now = model.forward_images(px)
        new_patches = model.patches
        model.patches = lambda p: old_patches(model, p)
        before = model.forward_images(px)
        model.patches = new_patches
    if not torch.equal(now, before):
        fail("grayscale logits differ (bitwise) from those through the pre-colour patch code")
    back = os.path.join(tmp, "gray-back.safetensors")
    model.save(back)
    if open(back, "rb").read() != open(path, "rb").read():
        fail("a grayscale checkpoint without 'channels' is not written back byte for byte")
    print("OK grayscale: patch vectors and logits bitwise as before colour; a checkpoint without 'channels' "
          "is written back byte for byte")


# -- 4. the twin against the reference ------------------------------------------------------------

REF_CONFIGS = {
    "colour_cls_dot": dict(BASE, image_size=12, patch=4, channels=3),
    "colour_mean_dense_post_nobias": dict(BASE, image_size=12, patch=4, channels=3, pool="mean", norm="post",
                                          bias=False, encoder_self={"variant": "dense"}),
    "colour_cls_random_patch3": dict(BASE, image_size=12, patch=3, channels=3,
                                     encoder_self={"variant": "random", "trainable": False}),
    "colour_64_patch8_dot": dict(BASE, d_model=32, heads=4, d_ff=64, image_size=64, patch=8, channels=3),
    "colour_stem_mean_dense": dict(BASE, image_size=16, patch=4, channels=3, stem=[5, 7], pool="mean",
                                   encoder_self={"variant": "dense"}),
    "gray_stem_cls_dot": dict(BASE, image_size=12, patch=2, stem=[6]),
    "gray_cls_dot": dict(BASE, image_size=12, patch=4),
    "gray_mean_dense_channels1": dict(BASE, image_size=12, patch=2, channels=1, pool="mean",
                                      encoder_self={"variant": "dense"}),
}


def against_reference(tmp):
    g = torch.Generator().manual_seed(21)
    for i, (name, cfg) in enumerate(REF_CONFIGS.items()):
        path = write_model(tmp, name, cfg, 100 + i)
        twin = AttnvizModel.from_checkpoint(path)
        ref = vit_ref.VitReference(path)
        S, K = twin.cfg["image_size"], twin.cfg["channels"]
        images = torch.randint(0, 256, (3, S * S * K), generator=g)
        with torch.no_grad():
            record = []
            batch = twin.forward_images(images, record=record)
            hwc = twin.forward_images(images.reshape(3, S, S, K))
        if not torch.equal(batch, hwc):
            fail(f"{name}: pixels [B, S, S, K] give other logits than [B, S·S·K]")
        worst = 0.0
        for b in range(3):
            logits, weights = ref.run(images[b].tolist())
            worst = max(worst, float((batch[b].double() - torch.tensor(logits)).abs().max()))
            for layer, (A, W) in enumerate(zip(record, weights)):
                worst = max(worst, float((A[b].double() - torch.tensor(W)).abs().max()))
            d = image_dump(twin, path, images[b].tolist(), 3, "random")
            if d["image"]["channels"] != K or d["image"]["pixels"] != images[b].tolist():
                fail(f"{name}: the image dump's channels or pixels differ from the input")
            one = torch.tensor(d["logits"])
            worst = max(worst, float((one.double() - torch.tensor(logits)).abs().max()))
        if worst > TOL:
            fail(f"{name}: the twin differs from the reference by {worst:.3g} > {TOL}")
        print(f"OK {name}: 3 images, logits and weights within {worst:.2e} of the reference")


# -- 5. the twin's attention command --------------------------------------------------------------

PHOTOS = os.environ.get("ATTNVIZ_CLOTHING_PHOTOS") or os.path.join(ROOT, "resources", "data", "clothing-photos")


def twin_attention(*args, env=None):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), OMP_NUM_THREADS="1",
               ATTNVIZ_CLOTHING_PHOTOS=PHOTOS) | (env or {})
    return subprocess.run([sys.executable, "-m", "attnviz_torch.attention", *args], env=env, capture_output=True,
                          text=True, timeout=300)


def refused_one_line(r, want, what):
    lines = r.stderr.strip().splitlines()
    if r.returncode != 1 or len(lines) != 1 or want not in r.stderr or "Traceback" in r.stderr:
        fail(f"attention {what}: rc {r.returncode}, {r.stderr.strip()[-300:]!r} (wanted one line with {want!r})")


def idx_image(split, k):
    with gzip.open(os.path.join(PHOTOS, f"{split}-images-idx4-ubyte.gz")) as f:
        raw = f.read()
    assert raw[:4] == b"\x00\x00\x08\x04" and raw[8:20] == (64).to_bytes(4, "big") * 2 + (3).to_bytes(4, "big")
    n = 64 * 64 * 3
    with gzip.open(os.path.join(PHOTOS, f"{split}-labels-idx1-ubyte.gz")) as f:
        label = f.read()[8 + k]
    return list(raw[20 + k * n:20 + (k + 1) * n]), label


def attention_command(tmp):
    c28 = write_model(tmp, "colour28", dict(BASE, image_size=28, patch=7, channels=3), 9)
    refused_one_line(twin_attention("--model", c28, "--fashion-mnist", "0"), "colour",
                     "--fashion-mnist on a colour model")
    if not os.path.exists(os.path.join(PHOTOS, "test-images-idx4-ubyte.gz")):
        print(f"OK attention --fashion-mnist on a colour model: refused with one line (skip --photo: no {PHOTOS})")
        return
    c64 = write_model(tmp, "colour64", dict(BASE, image_size=64, patch=16, channels=3), 10)
    gray = write_model(tmp, "gray28", dict(BASE, image_size=28, patch=7), 11)
    for split, k in (("test", 17), ("validation", 0)):
        r = twin_attention("--model", c64, "--photo", str(k), "--split", split)
        if r.returncode != 0:
            fail(f"attention --photo {k} --split {split}: rc {r.returncode}, {r.stderr.strip()[-300:]!r}")
        d = json.loads(r.stdout)
        pixels, label = idx_image(split, k)
        if (d["image"]["pixels"] != pixels or d["image"]["label"] != label or d["image"]["channels"] != 3
                or d["image"]["source"] != f"clothing-photos {split} image {k}"):
            fail(f"attention --photo {k} --split {split}: the dump's image is not the IDX file's")
    refused_one_line(twin_attention("--model", gray, "--photo", "0"), "task 'clothing-photos' has 64×64 colour",
                     "--photo on a grayscale model")
    refused_one_line(twin_attention("--model", c64, "--photo", "0", "--fashion-mnist", "0"), "give one of",
                     "--photo with --fashion-mnist")
    refused_one_line(twin_attention("--model", gray, "--fashion-mnist", "0", "--split", "validation"),
                     "--split validation", "--fashion-mnist --split validation")
    refused_one_line(twin_attention("--model", c64, "--photo", "406"), "the test split has 406 images",
                     "--photo past the end")
    empty = os.path.join(tmp, "no-photos")
    os.makedirs(empty)
    refused_one_line(twin_attention("--model", c64, "--photo", "0", env={"ATTNVIZ_CLOTHING_PHOTOS": empty}),
                     "ATTNVIZ_CLOTHING_PHOTOS", "--photo without the set")
    print("OK attention: --fashion-mnist on a colour model refused; --photo dumps the clothing photos' "
          "images as the IDX files hold them, and is refused with one line where it does not apply")


def main():
    torch.set_num_threads(1)
    configuration()
    with tempfile.TemporaryDirectory() as tmp:
        patch_layout(tmp)
        grayscale_unchanged(tmp)
        against_reference(tmp)
        attention_command(tmp)


if __name__ == "__main__":
    main()
