# SPDX-License-Identifier: GPL-3.0-or-later
"""The model of docs/model-spec.md in PyTorch, batched: sequences padded with <pad> (id 0),
masks for padding, causality and each variant; parameters named exactly as the checkpoint's
tensors, so that a checkpoint loads here and a model trained here loads in attnviz.

Shapes: B sequences, Ts source positions (tokens + <eos>), Tt target positions (<bos> +
tokens), d = d_model, h heads of a block, dk = d / h, L = max_len."""
import json
import math

import torch
import torch.nn.functional as F

from .limits import InputError
from .checkpoint import check_finite, check_metadata, read_checkpoint_checked, serialize, write_checkpoint

PAD, UNK, BOS, EOS = 0, 1, 2, 3


def sinusoid(n, d, dtype):
    """The positional table [n, d], computed in double and rounded to float32 (the spec's)."""
    t = torch.arange(n, dtype=torch.float64)[:, None]
    c = torch.arange(d, dtype=torch.float64)[None, :]
    ang = t / torch.pow(10000.0, (c - c % 2) / d)
    pe = torch.where(c % 2 == 0, torch.sin(ang), torch.cos(ang))
    return pe.to(torch.float32).to(dtype)



def _frozen(cfg):
    """Tensor suffixes a block does not train (fixed random tables)."""
    out = set()
    if cfg.get("trainable", True) is False:
        out |= {"random.r", "frandom.r1", "frandom.r2"}
    return out


class AttnvizModel(torch.nn.Module):
    def __init__(self, tensors, meta, checked=None):
        """`checked`: check_metadata(meta) when the caller has it (read_checkpoint_checked);
        the metadata is validated here otherwise. The configuration used is the resolved one."""
        super().__init__()
        checked = checked or check_metadata(meta)
        self.meta = dict(meta)
        self.cfg = checked.config
        self.src_vocab = checked.src_vocab or []
        self.tgt_vocab = checked.tgt_vocab or []
        self.tokenizer = checked.tokenizer
        self.classes = checked.classes  # arch "vit": the class names; else None
        self._src_index = {t: i for i, t in enumerate(self.src_vocab)}
        self._tgt_index = {t: i for i, t in enumerate(self.tgt_vocab)}
        self.names = sorted(tensors)
        self.params = torch.nn.ParameterDict()
        frozen = set()
        for blk, prefix in self._blocks():
            for suffix in _frozen(self.cfg[blk]):
                frozen.add(prefix + suffix)
        for name in self.names:
            self.params[name.replace(".", "/")] = torch.nn.Parameter(
                tensors[name].clone(), requires_grad=name not in frozen)

    # -- checkpoints ------------------------------------------------------------------------
    @classmethod
    def from_checkpoint(cls, path):
        """The model of a checkpoint; InputError (a ValueError) naming the path and the
        problem for any file the engine refuses."""
        return cls(*read_checkpoint_checked(path))

    def state_tensors(self):
        return {n: self.params[n.replace(".", "/")].detach() for n in self.names}

    def _meta(self, training):
        meta = dict(self.meta)
        if training is not None:
            try:
                meta["training"] = json.dumps(training, separators=(",", ":"), allow_nan=False)
            except ValueError:
                raise InputError("not writing a checkpoint whose training metadata holds NaN or "
                                 "infinity (the file would not be JSON)") from None
        return meta

    def save(self, path, training=None):
        """Writes the model as an attnviz checkpoint (atomically); `training` replaces the
        "training" metadata when given. InputError for non-finite weights (or a non-finite
        number in `training`): nothing is written then."""
        write_checkpoint(path, self.state_tensors(), self._meta(training))

    def checkpoint_chunks(self, training=None):
        """The checkpoint's bytes (a list of byte strings), as save() would write them."""
        tensors = self.state_tensors()
        check_finite(tensors, "the checkpoint")
        return serialize(tensors, self._meta(training))

    def P(self, name):
        return self.params[name.replace(".", "/")]

    def _blocks(self):
        """(config key, tensor prefix) of every attention block."""
        c = self.cfg
        seq2seq = c["arch"] == "seq2seq"
        out = []
        if seq2seq or c["arch"] == "vit":
            out += [("encoder_self", f"encoder.layers.{i}.self_attn.") for i in range(c["enc_layers"])]
        for i in range(c.get("dec_layers", 0)):
            out.append(("decoder_self", f"decoder.layers.{i}.self_attn."))
            if seq2seq and self.has_cross(i):
                out.append(("cross", f"decoder.layers.{i}.cross_attn."))
        return out

    def has_cross(self, i):
        c = self.cfg
        return c["arch"] == "seq2seq" and (c["cross"].get("layers", "all") == "all" or i == c["dec_layers"] - 1)

    # -- tokens ------------------------------------------------------------------------------
    def source_ids(self, text):
        return [self._src_index.get(t, UNK) for t in self.tokenizer.tokenize(text)]

    def target_ids(self, text):
        return [self._tgt_index.get(t, UNK) for t in self.tokenizer.tokenize(text)]

    # -- attention ----------------------------------------------------------------------------
    def _logits(self, variant, bc, pre, xq, xk, h):
        """xq [B, Nq, d], xk [B, Nk, d] -> S [B, h, Nq, Nk] (or [1, h, Nq, Nk])."""
        B, nq, d = xq.shape
        nk = xk.shape[1]
        dk = d // h
        P = lambda n: self.P(pre + n)  # noqa: E731
        bias = self.cfg.get("bias", True)
        if variant == "dot":
            q = xq @ P("q_proj.weight").T + (P("q_proj.bias") if bias else 0)
            k = xk @ P("k_proj.weight").T + (P("k_proj.bias") if bias else 0)
            q = q.view(B, nq, h, dk).transpose(1, 2)
            k = k.view(B, nk, h, dk).transpose(1, 2)
            return q @ k.transpose(2, 3) / math.sqrt(dk)
        if variant in ("dense", "factorized_dense"):
            key = "dense" if variant == "dense" else "fdense"
            hid = torch.relu(torch.einsum("bnd,hed->bhne", xq, P(f"{key}.w1.weight"))
                             + P(f"{key}.w1.bias")[None, :, None, :])
            if variant == "dense":
                row = torch.einsum("bhne,hle->bhnl", hid, P("dense.w2.weight")) + P("dense.w2.bias")[None, :, None, :]
                return row[..., :nk]
            A = torch.einsum("bhne,hae->bhna", hid, P("fdense.wa.weight")) + P("fdense.wa.bias")[None, :, None, :]
            Bm = torch.einsum("bhne,hce->bhnc", hid, P("fdense.wb.weight")) + P("fdense.wb.bias")[None, :, None, :]
            cls = self._grid_first()  # vit with a class token: its key's logit is A[a-1] (4.4)
            if cls:
                A, own = A[..., :-1], A[..., -1:]
            full = (A[..., :, None] * Bm[..., None, :]).reshape(B, h, nq, A.shape[-1] * Bm.shape[-1])
            if cls:
                full = torch.cat([own, full], -1)
            return full[..., :nk]
        if variant == "random":
            return P("random.r")[None, :, :nq, :nk]
        if variant == "factorized_random":
            return (P("frandom.r1")[:, :nq] @ P("frandom.r2")[:, :nk].transpose(1, 2))[None]
        if variant in ("local", "learned_gaussian") and self.cfg["arch"] == "vit":
            return self._grid_logits(variant, bc, pre, h, nq)[None]
        if variant == "local":
            w = bc["window"]
            off = torch.arange(nk, device=xq.device)[None, :] - torch.arange(nq, device=xq.device)[:, None]
            S = P("local.logits")[:, off.clamp(-w, w) + w]
            return S.masked_fill((off.abs() > w)[None], float("-inf"))[None]
        if variant == "learned_gaussian":
            # mu = init_mu (cycled over heads) + shift, log sigma = log init_sigma + shift.
            u, v = P("lgauss.mu_shift"), P("lgauss.log_sigma_shift")  # [h] each
            mu0 = bc["init_mu"]
            mu = u + torch.tensor([mu0[k % len(mu0)] for k in range(h)], dtype=u.dtype, device=u.device)
            sigma = torch.exp(v + math.log(bc["init_sigma"]))
            off = (torch.arange(nk, device=xq.device)[None, :]
                   - torch.arange(nq, device=xq.device)[:, None]).to(u.dtype)  # j - i
            z = (off[None] - mu[:, None, None]) / sigma[:, None, None]  # [h, Nq, Nk]
            return (-0.5 * z * z)[None]
        raise ValueError(f"unknown attention variant {variant!r}")

    def _weights(self, kind, bc, pre, xq, xk, allowed):
        """A [B, h, Nq, Nk]; allowed [B, Nq, Nk] bool."""
        h = bc["heads"]
        v = bc["variant"]
        B, nq, nk = allowed.shape
        if v == "gaussian" and self.cfg["arch"] == "vit":
            return self._grid_gaussian(bc, nq, xq).expand(B, h, nq, nk)
        if v == "gaussian":
            sigma, offs = bc.get("sigma", 1.0), bc["offsets"]
            r = bc.get("ratio", 1.0) if kind == "cross" else 1.0
            dev = xq.device
            i = torch.arange(nq, dtype=torch.float64, device=dev)[:, None]
            j = torch.arange(nk, dtype=torch.float64, device=dev)[None, :]
            mus = torch.tensor([offs[k % len(offs)] for k in range(h)], dtype=torch.float64, device=dev)[:, None, None]
            dist = j - (r * i + mus)  # [h, Nq, Nk], float64
            if bc.get("normalize", False):
                # Renormalised over the allowed keys in float64 (docs/model-spec.md): exponents
                # -½(d² - d²min)/σ², d²min the nearest allowed key's, so a window past the keys
                # falls on the nearest ones; a row with no allowed key is 0.
                ok = allowed[:, None].expand(B, h, nq, nk)
                d2 = (dist ** 2)[None].expand(B, h, nq, nk)
                d2min = d2.masked_fill(~ok, float("inf")).amin(-1, keepdim=True)
                e = (-0.5 * ((d2 - d2min) / sigma / sigma)).masked_fill(~ok, float("-inf"))
                empty = ~ok.any(-1, keepdim=True)
                w = torch.softmax(e.masked_fill(empty, 0.0), -1).masked_fill(empty, 0.0)
                return w.to(torch.float32).to(xq.dtype)
            w = torch.exp(-0.5 * (dist / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
            return w.to(torch.float32).to(xq.dtype)[None] * allowed[:, None]
        if v == "mixture":
            comps = bc["components"]
            if bc.get("unweighted", False):
                mix = torch.ones(len(comps), dtype=xq.dtype, device=xq.device)
            else:
                mix = torch.softmax(self.P(pre + "mix.alpha"), 0)
            S = sum(mix[m] * self._logits(c, bc, pre, xq, xk, h) for m, c in enumerate(comps))
        else:
            S = self._logits(v, bc, pre, xq, xk, h)
        S = S.expand(B, h, nq, nk).masked_fill(~allowed[:, None], float("-inf"))
        empty = torch.isinf(S).all(-1, keepdim=True)  # no allowed key: a row of zeros
        return torch.softmax(S.masked_fill(empty, 0.0), -1).masked_fill(empty, 0.0)

    def _grid_first(self):
        """1 when position 0 is a vit model's class token, else 0."""
        return 1 if self.cfg["arch"] == "vit" and self.cfg["pool"] == "cls" else 0

    def _grid_logits(self, variant, bc, pre, h, N):
        """local and learned_gaussian on the patch grid (docs/model-spec.md 4.4): [h, N, N].
        Offsets (Δr, Δc) of key from query patch; the class token's rule: its row is 0 over the
        patches and -inf on itself (uniform after the softmax), its column -inf in patch rows."""
        c = self.cfg
        G, first = c["image_size"] // c["patch"], self._grid_first()
        P = lambda n: self.P(pre + n)  # noqa: E731
        n = torch.arange(G * G)
        r, col = torch.div(n, G, rounding_mode="floor"), n % G
        dr, dc = r[None, :] - r[:, None], col[None, :] - col[:, None]  # [Np, Np]
        if variant == "local":
            w = bc["window"]
            idx = (dr.clamp(-w, w) + w) * (2 * w + 1) + dc.clamp(-w, w) + w
            S = P("local.logits")[:, idx].masked_fill(((dr.abs() > w) | (dc.abs() > w))[None], float("-inf"))
        else:
            u, v = P("lgauss.mu_shift"), P("lgauss.log_sigma_shift")  # [h, 2], [h]
            mu0, pairs = bc["init_mu"], len(bc["init_mu"]) // 2
            mu = u + torch.tensor([mu0[2 * (k % pairs):2 * (k % pairs) + 2] for k in range(h)], dtype=u.dtype)
            sigma = torch.exp(v + math.log(bc["init_sigma"]))[:, None, None]
            zr = (dr.to(u.dtype)[None] - mu[:, 0, None, None]) / sigma
            zc = (dc.to(u.dtype)[None] - mu[:, 1, None, None]) / sigma
            S = -0.5 * (zr * zr + zc * zc)
        if not first:
            return S
        out = torch.full((h, N, N), float("-inf"), dtype=S.dtype)
        out[:, 1:, 1:] = S
        out[:, 0, 1:] = 0.0
        return out

    def _grid_gaussian(self, bc, N, xq):
        """The hard-coded 2D Gaussian on the patch grid (docs/model-spec.md 4.4): [1, h, N, N].
        Offsets are flat (Δr, Δc) pairs; the class token reads the patches' mean."""
        c = self.cfg
        G = c["image_size"] // c["patch"]
        first = 1 if c["pool"] == "cls" else 0
        h, sigma, offs = bc["heads"], bc["sigma"], bc["offsets"]
        pairs = len(offs) // 2
        n = torch.arange(G * G, dtype=torch.float64)
        r, col = torch.div(n, G, rounding_mode="floor"), n % G
        out = torch.zeros(h, N, N, dtype=torch.float64)
        for k in range(h):
            dr, dc = offs[2 * (k % pairs)], offs[2 * (k % pairs) + 1]
            d2 = (r[None, :] - r[:, None] - dr) ** 2 + (col[None, :] - col[:, None] - dc) ** 2
            if bc.get("normalize", False):
                w = torch.softmax(-0.5 * d2 / sigma ** 2, -1)
            else:
                w = torch.exp(-0.5 * d2 / sigma ** 2) / (2 * math.pi * sigma ** 2)
            out[k, first:, first:] = w
            if first:
                out[k, 0, 1:] = 1.0 / (G * G)
        w = out.to(torch.float32)
        w = torch.where(w < torch.finfo(torch.float32).tiny, torch.zeros_like(w), w)
        return w.to(xq.dtype).to(xq.device)[None]

    def _attention(self, kind, pre, xq, xk, allowed, record, gates=None):
        bc = self.cfg[kind]
        h, d = bc["heads"], xq.shape[-1]
        B, nq, nk = allowed.shape
        A = self._weights(kind, bc, pre, xq, xk, allowed)
        if record is not None:
            record.append(A)
        bias = self.cfg.get("bias", True)
        V = xk @ self.P(pre + "v_proj.weight").T + (self.P(pre + "v_proj.bias") if bias else 0)
        heads = A @ V.view(B, nk, h, d // h).transpose(1, 2)  # [B, h, Nq, dk]
        if gates is not None:  # head importance (Michel et al.): a gate on each head's output
            heads = heads * gates.pop(0)[:, :, None, None]
        ctx = heads.transpose(1, 2).reshape(B, nq, d)
        return ctx @ self.P(pre + "out_proj.weight").T + (self.P(pre + "out_proj.bias") if bias else 0)

    def _norm(self, x, name):
        # LayerNorm as the engine computes it (core/layers.cpp): mean, then the mean square of
        # the deviations, then 1/sqrt(var + 1e-5). F.layer_norm agrees within rounding, but a
        # row whose variance overflows (weights of 1e29) gives NaN there and 0 here, as in
        # the engine.
        mean = x.mean(-1, keepdim=True)
        dev = x - mean
        inv = 1.0 / torch.sqrt((dev * dev).mean(-1, keepdim=True) + 1e-5)
        return dev * inv * self.P(name + ".weight") + self.P(name + ".bias")

    def _ffn(self, x, p):
        hid = torch.relu(x @ self.P(p + ".linear1.weight").T + self.P(p + ".linear1.bias"))
        return hid @ self.P(p + ".linear2.weight").T + self.P(p + ".linear2.bias")

    def _embed(self, table, ids):
        d = self.cfg["d_model"]
        E = self.P(table)
        return E[ids] * math.sqrt(d) + sinusoid(ids.shape[1], d, E.dtype).to(E.device)[None]

    # -- the model ----------------------------------------------------------------------------
    def forward(self, src, tgt_in, dropout=0.0, record=None, gates=None):
        """src [B, Ts] (token ids + <eos>, <pad>-padded; None for decoder-only), tgt_in [B, Tt]
        (<bos> + ids, padded) -> logits [B, Tt, V]. `record`: a list receiving every block's
        weights [B, h, Nq, Nk] in dump order (encoder layers, then per decoder layer self and
        cross). `gates`: a list of [B, h] tensors, one per block in that order, multiplying each
        head's output (consumed as the blocks run)."""
        gates = list(gates) if gates is not None else None
        c = self.cfg
        pre = c.get("norm", "pre") == "pre"
        drop = (lambda x: F.dropout(x, dropout, True)) if dropout > 0 else (lambda x: x)  # noqa: E731
        seq2seq = c["arch"] == "seq2seq"
        Tt = tgt_in.shape[1]
        tvalid = tgt_in != PAD
        tvalid[:, 0] = True  # <bos>
        mem = None
        if seq2seq:
            svalid = src != PAD
            Ts = src.shape[1]
            x = drop(self._embed("src_embed.weight", src))
            allowed = svalid[:, None, :].expand(-1, Ts, Ts)
            for i in range(c["enc_layers"]):
                p = f"encoder.layers.{i}"
                a = p + ".self_attn."
                if pre:
                    hx = self._norm(x, p + ".norm1")
                    x = x + drop(self._attention("encoder_self", a, hx, hx, allowed, record, gates))
                    x = x + drop(self._ffn(self._norm(x, p + ".norm2"), p + ".ffn"))
                else:
                    x = self._norm(x + drop(self._attention("encoder_self", a, x, x, allowed, record, gates)), p + ".norm1")
                    x = self._norm(x + drop(self._ffn(x, p + ".ffn")), p + ".norm2")
            mem = self._norm(x, "encoder.norm") if pre else x
        temb = "src_embed.weight" if (seq2seq and c.get("share_embeddings", False)) else "tgt_embed.weight"
        y = drop(self._embed(temb, tgt_in))
        causal = torch.tril(torch.ones(Tt, Tt, dtype=torch.bool, device=tgt_in.device))[None] & tvalid[:, None, :]
        for i in range(c["dec_layers"]):
            p = f"decoder.layers.{i}"
            a = p + ".self_attn."
            if pre:
                hy = self._norm(y, p + ".norm1")
                y = y + drop(self._attention("decoder_self", a, hy, hy, causal, record, gates))
            else:
                y = self._norm(y + drop(self._attention("decoder_self", a, y, y, causal, record, gates)), p + ".norm1")
            if seq2seq and self.has_cross(i):
                cm = svalid[:, None, :].expand(-1, Tt, -1)
                ca = p + ".cross_attn."
                if pre:
                    y = y + drop(self._attention("cross", ca, self._norm(y, p + ".norm2"), mem, cm, record, gates))
                else:
                    y = self._norm(y + drop(self._attention("cross", ca, y, mem, cm, record, gates)), p + ".norm2")
            if pre:
                y = y + drop(self._ffn(self._norm(y, p + ".norm3"), p + ".ffn"))
            else:
                y = self._norm(y + drop(self._ffn(y, p + ".ffn")), p + ".norm3")
        if pre:
            y = self._norm(y, "decoder.norm")
        G = self.P(temb) if c.get("tie_output", True) else self.P("generator.weight")
        return y @ G.T + self.P("generator.bias")

    # -- images (arch "vit", docs/model-spec.md 3.10) ---------------------------------------------
    def patches(self, pixels):
        """pixels [B, S*S*K] (0 … 255; value k of pixel (y, x) at (y*S + x)*K + k, K = channels:
        1 gray, 3 R, G, B) -> u [B, Np, P*P*K]: patch n = r*G + c, value k of its pixel (y, x) at
        (y*P + x)*K + k, scaled to p / 127.5 - 1 (docs/model-spec.md 3.10 steps 1-2)."""
        c = self.cfg
        S, P, K = c["image_size"], c["patch"], c["channels"]
        G = S // P
        if pixels.numel() % (S * S * K):
            raise ValueError(f"pixels of {tuple(pixels.shape)} are not whole images of {S}×{S} pixels"
                             + ("" if K == 1 else f" × {K} channels"))
        x = pixels.to(self.device).to(torch.float32) / 127.5 - 1.0
        x = x.reshape(-1, G, P, G, P, K).permute(0, 1, 3, 2, 4, 5)  # [B, r, c, y, x, k]
        return x.reshape(x.shape[0], G * G, P * P * K).to(self.P("pos_embed").dtype)

    def stem(self, pixels):
        """pixels [B, S*S*K] -> u [B, Np, C]: with a stem (docs/model-spec.md 3.10), the image
        scaled to p / 127.5 - 1 through each 3 × 3 convolution of stride 2 and padding 1 and a
        ReLU; patch n = r*G + c is cell (r, c) of the last map. Weight [Cout, 9*Cin] holds
        (ky*3 + kx)*Cin + ci, PyTorch's [Cout, Cin, 3, 3] permuted."""
        c = self.cfg
        S, K = c["image_size"], c["channels"]
        if pixels.numel() % (S * S * K):
            raise ValueError(f"pixels of {tuple(pixels.shape)} are not whole images of {S}×{S} pixels"
                             + ("" if K == 1 else f" × {K} channels"))
        x = (pixels.to(self.device).to(torch.float32) / 127.5 - 1.0).reshape(-1, S, S, K)
        x = x.permute(0, 3, 1, 2).to(self.P("pos_embed").dtype)  # [B, K, S, S]
        for i, out in enumerate(c["stem"]):
            w = self.P(f"stem.{i}.weight").reshape(out, 3, 3, -1).permute(0, 3, 1, 2)
            x = F.relu(F.conv2d(x, w, self.P(f"stem.{i}.bias"), stride=2, padding=1))
        return x.flatten(2).transpose(1, 2)  # [B, G*G, C]

    def forward_images(self, pixels, dropout=0.0, record=None):
        """pixels [B, S*S*K] (or [B, S, S, K]: HWC, a pixel's K values together) -> logits
        [B, classes]; `record` receives every block's weights [B, h, N, N] in layer order."""
        c = self.cfg
        pre = c["norm"] == "pre"
        drop = (lambda x: F.dropout(x, dropout, True)) if dropout > 0 else (lambda x: x)  # noqa: E731
        u = self.stem(pixels) if c.get("stem") else self.patches(pixels)
        e = u @ self.P("patch_embed.weight").T + self.P("patch_embed.bias")
        B = e.shape[0]
        if c["pool"] == "cls":
            e = torch.cat([self.P("cls_token")[None].expand(B, 1, -1), e], 1)
        x = drop(e + self.P("pos_embed")[None])
        N = x.shape[1]
        allowed = torch.ones(B, N, N, dtype=torch.bool, device=x.device)
        for i in range(c["enc_layers"]):
            p = f"encoder.layers.{i}"
            a = p + ".self_attn."
            if pre:
                hx = self._norm(x, p + ".norm1")
                x = x + drop(self._attention("encoder_self", a, hx, hx, allowed, record))
                x = x + drop(self._ffn(self._norm(x, p + ".norm2"), p + ".ffn"))
            else:
                x = self._norm(x + drop(self._attention("encoder_self", a, x, x, allowed, record)), p + ".norm1")
                x = self._norm(x + drop(self._ffn(x, p + ".ffn")), p + ".norm2")
        if pre:
            x = self._norm(x, "encoder.norm")
        z = x[:, 0] if c["pool"] == "cls" else x.mean(1)
        return z @ self.P("head.weight").T + self.P("head.bias")

    def image_loss_sum(self, pixels, labels, dropout=0.0, label_smoothing=0.0):
        """The summed cross-entropy over a batch of images (as the C++ trainer, before dividing
        by the batch size) and the batch size."""
        logits = self.forward_images(pixels, dropout)
        labels = torch.as_tensor(labels, dtype=torch.long, device=logits.device)
        loss = F.cross_entropy(logits, labels, label_smoothing=label_smoothing, reduction="sum")
        return loss, int(labels.numel())

    # -- batches ------------------------------------------------------------------------------
    @property
    def device(self):
        return next(iter(self.params.values())).device

    def batch(self, pairs):
        """[(source ids or None, target ids)] -> (src [B, Ts] or None, tgt_in [B, Tt],
        tgt_out [B, Tt] with -100 at padding), on the model's device."""
        seq2seq = self.cfg["arch"] == "seq2seq"
        B = len(pairs)
        Tt = max(len(t) for _, t in pairs) + 1
        tin = torch.full((B, Tt), PAD, dtype=torch.long)
        tout = torch.full((B, Tt), -100, dtype=torch.long)
        src = None
        if seq2seq:
            Ts = max(len(s) for s, _ in pairs) + 1
            src = torch.full((B, Ts), PAD, dtype=torch.long)
        for b, (s, t) in enumerate(pairs):
            tin[b, :len(t) + 1] = torch.tensor([BOS] + t)
            tout[b, :len(t) + 1] = torch.tensor(t + [EOS])
            if seq2seq:
                src[b, :len(s) + 1] = torch.tensor(s + [EOS])
        dev = self.device
        return (src.to(dev) if src is not None else None), tin.to(dev), tout.to(dev)

    def loss_sum(self, pairs, dropout=0.0, label_smoothing=0.0):
        """The summed cross-entropy over the target tokens of `pairs` (as the C++ trainer,
        before dividing by the batch's token count) and that count."""
        src, tin, tout = self.batch(pairs)
        logits = self.forward(src, tin, dropout)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tout.reshape(-1),
                               ignore_index=-100, label_smoothing=label_smoothing, reduction="sum")
        return loss, int((tout != -100).sum())
