#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent NumPy reference of the Vision Transformer's forward pass (arch "vit",
docs/model-spec.md 3.10, 3.3, 4.1 and 4.3), grayscale and colour (`channels` K = 1 or 3).

Written from the specification alone, in float64, with explicit loops where the spec gives an
index formula: it shares no code with the PyTorch twin (python/attnviz_torch) nor with the
engine, not even the checkpoint reader (safetensors is read here from its 7.1 layout). It
covers what a check of the image pipeline needs, not every variant: `dot`, `dense` and
`random` encoder blocks (`dense` and `random` with L = N, as 4.4 reads them on the grid),
`norm` pre and post, `bias` true and false, `pool` cls and mean, a convolutional `stem` or
none. Other variants are refused by name.

Used by tests/python/twin_vit_colour_test.py (the twin against this reference).
"""
import json
import math
import struct

import numpy as np


def read_safetensors(path):
    """(tensors {name: float64 array}, metadata {key: str}) of a checkpoint (7.1: an 8-byte
    little-endian header length, the JSON header, then little-endian float32 data)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = raw[8 + n:]
    meta = header.pop("__metadata__", {})
    tensors = {}
    for name, e in header.items():
        assert e["dtype"] == "F32", (name, e["dtype"])
        begin, end = e["data_offsets"]
        a = np.frombuffer(data[begin:end], dtype="<f4").astype(np.float64)
        tensors[name] = a.reshape(e["shape"])
    return tensors, meta


def vit_config(j):
    """The few keys this reference reads, with the defaults of 5.1 (`channels`: 1 when absent)."""
    assert j.get("arch") == "vit", "not an image model"
    d = j.get("d_model", 64)
    block = dict(j.get("encoder_self", {}))
    block.setdefault("variant", "dot")
    block.setdefault("heads", j.get("heads", 4))
    return {"S": j.get("image_size", 28), "K": j.get("channels", 1), "P": j.get("patch", 4),
            "stem": j.get("stem", []), "pool": j.get("pool", "cls"), "norm": j.get("norm", "pre"), "bias": j.get("bias", True),
            "layers": j.get("enc_layers", 4), "d": d, "block": block}


def patch_vectors(pixels, S, P, K):
    """3.10 steps 1-2. `pixels`: S·S·K values 0 … 255, value k of pixel (y, x) at
    (y·S + x)·K + k. Returns u [Np, P²·K] (float64 holding float32 values): patch n = grid row
    ⌊n / G⌋, column n mod G; value k of its pixel (y, x), i.e. image pixel (r·P + y, c·P + x),
    at (y·P + x)·K + k, scaled to p / 127.5 − 1 computed in float32."""
    pixels = list(pixels)
    assert len(pixels) == S * S * K, (len(pixels), S, K)
    G = S // P
    u = np.zeros((G * G, P * P * K), dtype=np.float64)
    for n in range(G * G):
        r, c = n // G, n % G
        for y in range(P):
            for x in range(P):
                for k in range(K):
                    p = pixels[((r * P + y) * S + (c * P + x)) * K + k]
                    u[n, (y * P + x) * K + k] = float(np.float32(p) / np.float32(127.5) - np.float32(1))
    return u


def stem_vectors(T, pixels, S, K, stem):
    """3.10 step 2 with a stem: the scaled image (an S × S map of K values) through each 3 × 3
    convolution of stride 2 and padding 1 and a ReLU, in loops over the spec's indices:
    a'[oy, ox] = ReLU(W_i · v + b_i), v[(ky·3 + kx)·C_in + c] = input cell (2·oy + ky − 1,
    2·ox + kx − 1), 0 outside. Returns u [G², C_L]: patch n = cell (⌊n / G⌋, n mod G)."""
    pixels = list(pixels)
    a = np.zeros((S, S, K), dtype=np.float64)
    for y in range(S):
        for x in range(S):
            for k in range(K):
                a[y, x, k] = float(np.float32(pixels[(y * S + x) * K + k]) / np.float32(127.5) - np.float32(1))
    for i, out in enumerate(stem):
        H, cin = a.shape[0], a.shape[2]
        W, b = T[f"stem.{i}.weight"], T[f"stem.{i}.bias"]
        assert W.shape == (out, 9 * cin), (f"stem.{i}.weight", W.shape)
        nxt = np.zeros((H // 2, H // 2, out), dtype=np.float64)
        for oy in range(H // 2):
            for ox in range(H // 2):
                v = np.zeros(9 * cin)
                for ky in range(3):
                    for kx in range(3):
                        yy, xx = 2 * oy + ky - 1, 2 * ox + kx - 1
                        if 0 <= yy < H and 0 <= xx < H:
                            v[(ky * 3 + kx) * cin:(ky * 3 + kx + 1) * cin] = a[yy, xx]
                nxt[oy, ox] = np.maximum(W @ v + b, 0.0)
        a = nxt
    G = a.shape[0]
    return a.reshape(G * G, a.shape[2])


def layer_norm(x, w, b):
    """3.3: over the last dimension, biased variance, eps 1e-5."""
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * w + b


def softmax_rows(s):
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


def attention(T, pre, x, block, bias):
    """4.1 with the logits of 4.3 for one self-attention block over x [N, d]; no mask (3.10
    step 4). Returns (output [N, d], weights [h, N, N])."""
    N, d = x.shape
    h = block["heads"]
    dk = d // h
    v = block["variant"]

    def lin(name, inp):
        out = inp @ T[pre + name + ".weight"].T
        return out + T[pre + name + ".bias"] if bias else out

    A = np.zeros((h, N, N))
    if v == "dot":
        Q, K = lin("q_proj", x), lin("k_proj", x)
        for k in range(h):
            cols = slice(k * dk, (k + 1) * dk)
            A[k] = softmax_rows(Q[:, cols] @ K[:, cols].T / math.sqrt(dk))
    elif v == "dense":
        for k in range(h):
            H = np.maximum(x @ T[pre + "dense.w1.weight"][k].T + T[pre + "dense.w1.bias"][k], 0.0)
            S = H @ T[pre + "dense.w2.weight"][k].T + T[pre + "dense.w2.bias"][k]
            A[k] = softmax_rows(S[:, :N])
    elif v == "random":
        for k in range(h):
            A[k] = softmax_rows(T[pre + "random.r"][k][:N, :N])
    else:
        raise ValueError(f"vit_ref covers the variants dot, dense and random, not {v!r}")
    V = lin("v_proj", x)
    ctx = np.concatenate([A[k] @ V[:, k * dk:(k + 1) * dk] for k in range(h)], axis=1)
    return lin("out_proj", ctx), A


def forward(T, cfg, pixels):
    """One image -> (logits [C], every layer's weights [h, N, N]). 3.10 steps 1-6."""
    S, K, P, d = cfg["S"], cfg["K"], cfg["P"], cfg["d"]
    u = stem_vectors(T, pixels, S, K, cfg["stem"]) if cfg["stem"] else patch_vectors(pixels, S, P, K)
    W = T["patch_embed.weight"]
    assert W.shape == (d, u.shape[1]), ("patch_embed.weight", W.shape, (d, u.shape[1]))
    e = u @ W.T + T["patch_embed.bias"]  # [Np, d]
    if cfg["pool"] == "cls":
        e = np.concatenate([T["cls_token"], e], axis=0)
    x = e + T["pos_embed"]
    weights = []
    pre_norm = cfg["norm"] == "pre"
    for i in range(cfg["layers"]):
        p = f"encoder.layers.{i}."

        def ffn(z):
            hid = np.maximum(z @ T[p + "ffn.linear1.weight"].T + T[p + "ffn.linear1.bias"], 0.0)
            return hid @ T[p + "ffn.linear2.weight"].T + T[p + "ffn.linear2.bias"]

        def ln(z, name):
            return layer_norm(z, T[p + name + ".weight"], T[p + name + ".bias"])

        if pre_norm:
            a, A = attention(T, p + "self_attn.", ln(x, "norm1"), cfg["block"], cfg["bias"])
            x = x + a
            x = x + ffn(ln(x, "norm2"))
        else:
            a, A = attention(T, p + "self_attn.", x, cfg["block"], cfg["bias"])
            x = ln(x + a, "norm1")
            x = ln(x + ffn(x), "norm2")
        weights.append(A)
    if pre_norm:
        x = layer_norm(x, T["encoder.norm.weight"], T["encoder.norm.bias"])
    z = x[0] if cfg["pool"] == "cls" else x.mean(0)
    return z @ T["head.weight"].T + T["head.bias"], weights


class VitReference:
    """The reference for one checkpoint file."""

    def __init__(self, path):
        self.T, self.meta = read_safetensors(path)
        self.cfg = vit_config(json.loads(self.meta["config"]))

    def run(self, pixels):
        return forward(self.T, self.cfg, pixels)
