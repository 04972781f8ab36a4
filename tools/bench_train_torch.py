#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch side of scripts/bench-train-vs-pytorch: the same model, batch and Adam step as
`attnviz-cli bench train`, timed the same way (median of N steps after 3 warm-up steps).

Model (docs/model-spec.md): seq2seq, pre-norm, d_model/heads/d_ff/layers from the config, embeddings
x sqrt(d) + sinusoidal PE, tied output, biases; attention "dot" (PyTorch's own
nn.MultiheadAttention) or "gaussian" (fixed weights, values and output projections only)
in every block; no dropout, no label smoothing; Adam(betas 0.9/0.98, eps 1e-9).
With a config of "arch": "vit" (issue 28): the Vision Transformer of docs/model-spec.md 3.10
with mean pooling (patch embedding, learned positions, pre-norm encoder, final norm, mean
of the positions, classifier) over batches of random S x S images of `channels` values (1 or 3)
and 10 classes, with the configuration's convolutional stem when it has one; attention "dot"
or "gaussian" (the 2D Gaussians of 4.4: left, right, above, below, sigma 1 patch).
Prints one JSON line. Thread settings come from the caller's environment
(OPENBLAS_NUM_THREADS) and --intra-op (torch.set_num_threads).
"""
import argparse
import json
import math
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def positional(T, d):
    pe = torch.zeros(T, d)
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    i2 = torch.arange(0, d, 2, dtype=torch.float64)
    ang = pos / torch.pow(10000.0, i2 / d)
    pe[:, 0::2] = torch.sin(ang).float()
    pe[:, 1::2] = torch.cos(ang).float()
    return pe


def gaussian_weights(heads, Tq, Tk, offsets, causal):
    i = torch.arange(Tq, dtype=torch.float64)[:, None]
    j = torch.arange(Tk, dtype=torch.float64)[None, :]
    out = []
    for h in range(heads):
        w = torch.exp(-0.5 * (j - (i + offsets[h % len(offsets)])) ** 2) / math.sqrt(2 * math.pi)
        if causal:
            w = w * (j <= i)
        out.append(w)
    return torch.stack(out).float()  # [h, Tq, Tk]


class Gaussian(nn.Module):
    def __init__(self, d, heads, A):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.v, self.o = nn.Linear(d, d), nn.Linear(d, d)
        self.register_buffer("A", A)

    def forward(self, q, kv, causal):
        B, Tk, d = kv.shape
        V = self.v(kv).view(B, Tk, self.h, self.dk).transpose(1, 2)  # [B, h, Tk, dk]
        ctx = torch.matmul(self.A, V)                                 # [B, h, Tq, dk]
        return self.o(ctx.transpose(1, 2).reshape(B, -1, d))


class Dot(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, heads, dropout=0.0, batch_first=True)

    def forward(self, q, kv, causal):
        mask = None
        if causal:
            T = q.shape[1]
            mask = torch.triu(torch.full((T, T), float("-inf")), 1)
        return self.mha(q, kv, kv, attn_mask=mask, need_weights=False)[0]


class Model(nn.Module):
    def __init__(self, cfg, V, T, variant):
        super().__init__()
        d, h, f = cfg["d_model"], cfg["heads"], cfg["d_ff"]
        self.d = d
        self.src = nn.Embedding(V, d)
        self.tgt = nn.Embedding(V, d)
        self.gen_b = nn.Parameter(torch.zeros(V))
        self.register_buffer("pe", positional(T, d))

        def attn(kind):
            if variant == "dot":
                return Dot(d, h)
            offs = [-1, 0] if kind == "dec" else [-1, 1]
            return Gaussian(d, h, gaussian_weights(h, T, T, offs, kind == "dec"))

        L = nn.ModuleList
        self.enc = L([L([nn.LayerNorm(d), attn("enc"), nn.LayerNorm(d), nn.Linear(d, f), nn.Linear(f, d)])
                      for _ in range(cfg["enc_layers"])])
        self.dec = L([L([nn.LayerNorm(d), attn("dec"), nn.LayerNorm(d), attn("cross"), nn.LayerNorm(d),
                         nn.Linear(d, f), nn.Linear(f, d)]) for _ in range(cfg["dec_layers"])])
        self.enc_norm, self.dec_norm = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, src, tgt_in):
        s = math.sqrt(self.d)
        x = self.src(src) * s + self.pe[: src.shape[1]]
        for n1, a, n2, l1, l2 in self.enc:
            h = n1(x)
            x = x + a(h, h, False)
            x = x + l2(F.relu(l1(n2(x))))
        mem = self.enc_norm(x)
        y = self.tgt(tgt_in) * s + self.pe[: tgt_in.shape[1]]
        for n1, a, n2, c, n3, l1, l2 in self.dec:
            h = n1(y)
            y = y + a(h, h, True)
            y = y + c(n2(y), mem, False)
            y = y + l2(F.relu(l1(n3(y))))
        return F.linear(self.dec_norm(y), self.tgt.weight, self.gen_b)


def grid_gaussian_weights(heads, G, offsets, sigma=1.0):
    """[h, G*G, G*G]: the fixed 2D Gaussians of docs/model-spec.md 4.4 (not renormalised)."""
    r = torch.arange(G * G, dtype=torch.float64) // G
    c = torch.arange(G * G, dtype=torch.float64) % G
    out = []
    for h in range(heads):
        dr, dc = offsets[h % len(offsets)]
        d2 = (r[None, :] - r[:, None] - dr) ** 2 + (c[None, :] - c[:, None] - dc) ** 2
        out.append(torch.exp(-d2 / (2 * sigma * sigma)) / (2 * math.pi * sigma * sigma))
    return torch.stack(out).float()


class Vit(nn.Module):
    def __init__(self, cfg, variant):
        super().__init__()
        d, h, f = cfg["d_model"], cfg["heads"], cfg["d_ff"]
        self.P = cfg.get("patch", 4)
        self.K = cfg.get("channels", 1)
        self.G = cfg.get("image_size", 28) // self.P
        N = self.G * self.G
        # The stem (docs/model-spec.md 3.10): 3 x 3 convolutions of stride 2 and ReLU; the
        # embedding reads the last one's channels at each cell.
        widths = [self.K] + cfg.get("stem", [])
        self.stem = nn.ModuleList([nn.Conv2d(i, o, 3, stride=2, padding=1) for i, o in zip(widths, widths[1:])])
        self.embed = nn.Linear(widths[-1] if self.stem else self.P * self.P * self.K, d)
        self.pos = nn.Parameter(torch.zeros(N, d))

        def attn():
            if variant == "dot":
                return Dot(d, h)
            return Gaussian(d, h, grid_gaussian_weights(h, self.G, [(0, -1), (0, 1), (-1, 0), (1, 0)]))

        L = nn.ModuleList
        self.enc = L([L([nn.LayerNorm(d), attn(), nn.LayerNorm(d), nn.Linear(d, f), nn.Linear(f, d)])
                      for _ in range(cfg["enc_layers"])])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, cfg.get("classes", 10))

    def forward(self, px):  # px: [B, S, S, K] in [-1, 1]
        B, P, G, K = px.shape[0], self.P, self.G, self.K
        if self.stem:
            u = px.permute(0, 3, 1, 2)
            for conv in self.stem:
                u = F.relu(conv(u))
            u = u.flatten(2).transpose(1, 2)  # [B, G*G, C]
        else:
            u = px.view(B, G, P, G, P, K).permute(0, 1, 3, 2, 4, 5).reshape(B, G * G, P * P * K)
        x = self.embed(u) + self.pos
        for n1, a, n2, l1, l2 in self.enc:
            h = n1(x)
            x = x + a(h, h, False)
            x = x + l2(F.relu(l1(n2(x))))
        return self.head(self.norm(x).mean(dim=1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--variant", choices=["dot", "gaussian"], required=True)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--seq-len", type=int, default=32)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--intra-op", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.intra_op)
    torch.manual_seed(1)
    cfg = json.load(open(a.config))
    B, T, V = a.batch_size, a.seq_len, a.vocab
    vision = cfg.get("arch") == "vit"
    model = Vit(cfg, a.variant) if vision else Model(cfg, V, T, a.variant)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)

    def batch():
        if vision:
            S = cfg.get("image_size", 28)
            K = cfg.get("channels", 1)
            return (torch.rand(B, S, S, K) * 2 - 1, torch.randint(0, cfg.get("classes", 10), (B,)))
        return (torch.randint(4, V, (B, T)), torch.randint(4, V, (B, T)), torch.randint(4, V, (B, T)))

    def step(b):
        opt.zero_grad(set_to_none=True)
        if vision:
            loss = F.cross_entropy(model(b[0]), b[1])
        else:
            src, tin, tout = b
            loss = F.cross_entropy(model(src, tin).reshape(-1, V), tout.reshape(-1))
        loss.backward()
        opt.step()

    for _ in range(3):
        step(batch())
    ms = []
    for _ in range(a.steps):
        b = batch()
        t0 = time.perf_counter()
        step(b)
        ms.append((time.perf_counter() - t0) * 1000)
    print(json.dumps({"ms_per_step": statistics.median(ms), "ms_min": min(ms), "torch": torch.__version__,
                      "intra_op_threads": a.intra_op, "parameters": sum(p.numel() for p in model.parameters())}))


if __name__ == "__main__":
    main()
