#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent PyTorch implementation of docs/model-spec.md (version 1).

Written from the specification, not from the C++ engine, so that the two can check each
other: it reads an attnviz safetensors checkpoint with nothing but json and numpy, runs
the model in float64 (float32 inputs), and returns every block's attention weights and
the loss. Used by compare.py (a CTest test) and, later, by the training checks.
"""
import json
import math
import re
import struct

import numpy as np
import torch


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    tensors = {}
    for name, e in header.items():
        assert e["dtype"] == "F32", name
        b, end = e["data_offsets"]
        arr = np.frombuffer(data[b:end], dtype="<f4").reshape(e["shape"])
        tensors[name] = torch.from_numpy(arr.astype(np.float64))
    return tensors, meta


# ---- tokenizer (ASCII subset of the baseline "word" tokenizer) ---------------------------
def tokenize(text, lowercase=True):
    if lowercase:
        text = text.lower()
    return re.findall(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]", text)


# ---- attention variants ----------------------------------------------------------------
def variant_logits(variant, cfg, P, xq, xk, L, heads):
    """xq [Nq, d], xk [Nk, d] -> S [heads, Nq, Nk]."""
    nq, nk = xq.shape[0], xk.shape[0]
    d = xq.shape[1]
    dk = d // heads
    if variant == "dot":
        q = xq @ P["q_proj.weight"].T + P.get("q_proj.bias", 0)
        k = xk @ P["k_proj.weight"].T + P.get("k_proj.bias", 0)
        q = q.view(nq, heads, dk).transpose(0, 1)
        k = k.view(nk, heads, dk).transpose(0, 1)
        return q @ k.transpose(1, 2) / math.sqrt(dk)
    if variant == "dense":
        assert nq <= L and nk <= L
        out = []
        for h in range(heads):
            hid = torch.relu(xq @ P["dense.w1.weight"][h].T + P["dense.w1.bias"][h])
            row = hid @ P["dense.w2.weight"][h].T + P["dense.w2.bias"][h]  # [nq, L]
            out.append(row[:, :nk])
        return torch.stack(out)
    if variant == "random":
        return P["random.r"][:, :nq, :nk]
    if variant == "factorized_dense":
        a, b = cfg["a"], cfg["b"]
        assert a * b == L
        out = []
        for h in range(heads):
            hid = torch.relu(xq @ P["fdense.w1.weight"][h].T + P["fdense.w1.bias"][h])
            A = hid @ P["fdense.wa.weight"][h].T + P["fdense.wa.bias"][h]  # [nq, a]
            B = hid @ P["fdense.wb.weight"][h].T + P["fdense.wb.bias"][h]  # [nq, b]
            full = (A[:, :, None] * B[:, None, :]).reshape(nq, a * b)  # index p*b + q
            out.append(full[:, :nk])
        return torch.stack(out)
    if variant == "local":
        w = cfg["window"]
        off = torch.arange(nk)[None, :] - torch.arange(nq)[:, None]  # j - i, [nq, nk]
        S = P["local.logits"][:, off.clamp(-w, w) + w]  # [heads, nq, nk]
        return S.masked_fill((off.abs() > w)[None], float("-inf"))
    if variant == "factorized_random":
        r1, r2 = P["frandom.r1"], P["frandom.r2"]
        return torch.stack([r1[h, :nq] @ r2[h, :nk].T for h in range(heads)])
    raise ValueError(variant)


def block_weights(cfg, kind, P, xq, xk, mask, L):
    """Weights A [heads, Nq, Nk] for one block; mask [Nq, Nk] bool (True = allowed)."""
    heads = cfg["heads"]
    v = cfg["variant"]
    nq, nk = xq.shape[0], xk.shape[0]
    if v == "gaussian":
        sigma = cfg.get("sigma", 1.0)
        r = cfg.get("ratio", 1.0) if kind == "cross" else 1.0
        offs = cfg["offsets"]
        i = torch.arange(nq, dtype=torch.float64)[:, None]
        j = torch.arange(nk, dtype=torch.float64)[None, :]
        out = []
        for h in range(heads):
            mu = r * i + offs[h % len(offs)]
            w = torch.exp(-0.5 * ((j - mu) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
            w = w * mask
            if cfg.get("normalize", False):
                s = w.sum(1, keepdim=True)
                w = torch.where(s > 0, w / torch.where(s > 0, s, torch.ones_like(s)), w)
            out.append(w)
        return torch.stack(out)
    if v == "mixture":
        comps = cfg["components"]
        if cfg.get("unweighted", False):  # the Long Range Arena code's plain sum
            w = torch.ones(len(comps), dtype=xq.dtype)
        else:
            w = torch.softmax(P["mix.alpha"], 0)
        S = sum(w[m] * variant_logits(c, cfg, P, xq, xk, L, heads) for m, c in enumerate(comps))
    else:
        S = variant_logits(v, cfg, P, xq, xk, L, heads)
    S = S.masked_fill(~mask[None], float("-inf"))
    # Rows without a finite logit (fully masked, or a window holding no key) are zeros;
    # computed without NaN so that autograd stays finite too.
    empty = torch.isinf(S).all(-1, keepdim=True)
    A = torch.softmax(S.masked_fill(empty, 0.0), -1)
    return A.masked_fill(empty, 0.0)


def attention(cfg, kind, P, xq, xk, mask, L, bias, record):
    d = xq.shape[1]
    heads = cfg["heads"]
    dk = d // heads
    A = block_weights(cfg, kind, P, xq, xk, mask, L)
    record.append(A)
    V = xk @ P["v_proj.weight"].T + (P["v_proj.bias"] if bias else 0)
    V = V.view(-1, heads, dk).transpose(0, 1)  # [h, Nk, dk]
    ctx = (A @ V).transpose(0, 1).reshape(xq.shape[0], d)
    return ctx @ P["out_proj.weight"].T + (P["out_proj.bias"] if bias else 0)


def layer_norm(x, T, name):
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), T[name + ".weight"], T[name + ".bias"], 1e-5)


def ffn(x, T, p):
    h = torch.relu(x @ T[p + ".linear1.weight"].T + T[p + ".linear1.bias"])
    return h @ T[p + ".linear2.weight"].T + T[p + ".linear2.bias"]


def pe(n, d):
    out = np.zeros((n, d))
    for t in range(n):
        for c in range(d):
            ang = t / 10000.0 ** ((c - c % 2) / d)
            out[t, c] = math.sin(ang) if c % 2 == 0 else math.cos(ang)
    return torch.from_numpy(out.astype(np.float32).astype(np.float64))


def sub(T, prefix):
    return {k[len(prefix):]: v for k, v in T.items() if k.startswith(prefix)}


class Reference:
    def __init__(self, path):
        self.T, self.meta = read_safetensors(path)
        self.cfg = json.loads(self.meta["config"])
        self.src_vocab = json.loads(self.meta["src_vocab"])
        self.tgt_vocab = json.loads(self.meta["tgt_vocab"])
        self.lower = json.loads(self.meta["tokenizer"]).get("lowercase", True)

    def ids(self, vocab, toks):
        index = {t: i for i, t in enumerate(vocab)}
        return [index.get(t, 1) for t in toks]

    def embed(self, table, ids):
        d = self.cfg["d_model"]
        E = self.T[table]
        return E[torch.tensor(ids)] * math.sqrt(d) + pe(len(ids), d)

    def run(self, src_ids, tgt_ids):
        """src_ids: source ids without <eos> (None for decoder-only); tgt_ids without <bos>.
        Returns (list of [heads, Nq, Nk] weights in dump order, loss)."""
        c, T = self.cfg, self.T
        pre = c["norm"] == "pre"
        L, bias = c["max_len"], c["bias"]
        rec = []
        mem = None
        seq2seq = c["arch"] == "seq2seq"
        if seq2seq:
            s = src_ids + [3]
            x = self.embed("src_embed.weight", s)
            full = torch.ones(len(s), len(s), dtype=torch.bool)
            for i in range(c["enc_layers"]):
                p = f"encoder.layers.{i}"
                P = sub(T, p + ".self_attn.")
                if pre:
                    x = x + attention(c["encoder_self"], "encoder_self", P, layer_norm(x, T, p + ".norm1"), layer_norm(x, T, p + ".norm1"), full, L, bias, rec)
                    x = x + ffn(layer_norm(x, T, p + ".norm2"), T, p + ".ffn")
                else:
                    x = layer_norm(x + attention(c["encoder_self"], "encoder_self", P, x, x, full, L, bias, rec), T, p + ".norm1")
                    x = layer_norm(x + ffn(x, T, p + ".ffn"), T, p + ".norm2")
            mem = layer_norm(x, T, "encoder.norm") if pre else x
        tin = [2] + tgt_ids
        tout = tgt_ids + [3]
        temb = "src_embed.weight" if (seq2seq and c["share_embeddings"]) else "tgt_embed.weight"
        y = self.embed(temb, tin)
        n = len(tin)
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
        for i in range(c["dec_layers"]):
            p = f"decoder.layers.{i}"
            P = sub(T, p + ".self_attn.")
            has_cross = seq2seq and (c["cross"]["layers"] == "all" or i == c["dec_layers"] - 1)
            if pre:
                h = layer_norm(y, T, p + ".norm1")
                y = y + attention(c["decoder_self"], "decoder_self", P, h, h, causal, L, bias, rec)
            else:
                y = layer_norm(y + attention(c["decoder_self"], "decoder_self", P, y, y, causal, L, bias, rec), T, p + ".norm1")
            if has_cross:
                C = sub(T, p + ".cross_attn.")
                cm = torch.ones(n, mem.shape[0], dtype=torch.bool)
                if pre:
                    y = y + attention(c["cross"], "cross", C, layer_norm(y, T, p + ".norm2"), mem, cm, L, bias, rec)
                else:
                    y = layer_norm(y + attention(c["cross"], "cross", C, y, mem, cm, L, bias, rec), T, p + ".norm2")
            if pre:
                y = y + ffn(layer_norm(y, T, p + ".norm3"), T, p + ".ffn")
            else:
                y = layer_norm(y + ffn(y, T, p + ".ffn"), T, p + ".norm3")
        if pre:
            y = layer_norm(y, T, "decoder.norm")
        G = T[temb] if c["tie_output"] else T["generator.weight"]
        logits = y @ G.T + T["generator.bias"]
        loss = torch.nn.functional.cross_entropy(logits, torch.tensor(tout))
        self.last_loss = loss
        return rec, float(loss)

    def run_tensor(self, src_ids, tgt_ids):
        """As run(), but returns the loss as a tensor, for autograd."""
        self.run(src_ids, tgt_ids)
        return self.last_loss
