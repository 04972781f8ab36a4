#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch side of `attnviz-cli bench train --config VIT.json` (issue 28): the same Vision
Transformer (docs/model-spec.md 3.10: patch embedding, class token or mean pooling, learned
positions, pre-norm encoder with PyTorch's own nn.MultiheadAttention, final LayerNorm,
classifier), the same batch of random S×S images of 1 or 3 channels (28×28 gray by default) and the same Adam step, timed the same
way (median of --steps steps after 3 warm-up steps). No dropout, no label smoothing.
Dot-product attention only. Prints one JSON line; torch.set_num_threads(--threads).

  tools/bench_train_vit_torch.py --config vit.json --batch-size 128 --threads 2
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, h, f):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, f), nn.ReLU(), nn.Linear(f, d))

    def forward(self, x):
        h = self.n1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff(self.n2(x))


class ViT(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, self.P, self.S, self.K = c["d_model"], c["patch"], c["image_size"], c["channels"]
        self.cls = c["pool"] == "cls"
        n = (self.S // self.P) ** 2 + (1 if self.cls else 0)
        self.embed = nn.Linear(self.P * self.P * self.K, d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n, d) * 0.02)
        self.blocks = nn.ModuleList(Block(d, c["heads"], c["d_ff"]) for _ in range(c["enc_layers"]))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, c["classes"])

    def forward(self, px):
        # pixels [B, S, S, K] -> patches [B, G·G, P·P·K], a patch's values (y·P + x)·K + k
        B, G, P, K = px.shape[0], self.S // self.P, self.P, self.K
        u = (px.float() / 127.5 - 1).reshape(B, G, P, G, P, K).permute(0, 1, 3, 2, 4, 5).reshape(
            B, G * G, P * P * K)
        x = self.embed(u)
        if self.cls:
            x = torch.cat([self.cls_token.expand(B, 1, -1), x], 1)
        x = x + self.pos
        for b in self.blocks:
            x = b(x)
        x = self.norm(x)
        return self.head(x[:, 0] if self.cls else x.mean(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    raw = json.load(open(a.config))
    c = {"d_model": 64, "heads": 4, "enc_layers": 4, "image_size": 28, "patch": 4, "pool": "cls",
         "classes": 10, "channels": 1, **raw}
    c.setdefault("d_ff", 4 * c["d_model"])
    torch.manual_seed(1)
    model = ViT(c)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    px = torch.randint(0, 256, (a.batch_size, c["image_size"] ** 2 * c["channels"]), dtype=torch.uint8)
    labels = torch.randint(0, c["classes"], (a.batch_size,))

    def step():
        opt.zero_grad(set_to_none=False)
        F.cross_entropy(model(px), labels).backward()
        opt.step()
    for _ in range(3):
        step()
    ms = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        step()
        ms.append((time.perf_counter() - t0) * 1000)
    print(json.dumps({"benchmark": "train_torch_vit", "ms_per_step": statistics.median(ms),
                      "ms_min": min(ms), "batch_size": a.batch_size, "threads": a.threads,
                      "parameters": sum(p.numel() for p in model.parameters()),
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
