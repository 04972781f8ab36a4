#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CTest driver: one SGD step of the engine against the PyTorch reference.

For one configuration: initialise a checkpoint with the CLI, train it for exactly one SGD
step (lr 0.1, no dropout, no label smoothing, no clipping, constant rate, file order) on a
fixed batch of sentence pairs of different lengths, do the same step in the reference with
autograd (float64: the loss is the mean token cross-entropy over all target tokens of the
batch), and require every updated tensor within 1e-5 of the engine's. Frozen tensors must
not move. This checks every gradient of the model end to end, masks included.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attnviz_ref  # noqa: E402

PAIRS = [
    ("I want to go to the station .", "I went to the station today"),
    ("the cat sat", "where is the cat ?"),
    ("The quick brown fox jumped over the lazy dog", "the dog sat"),
    ("Where is the cat?", "the cat is here ."),
    ("she reads a book", "he reads a new book in the park"),
]
LR = 0.1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = os.path.join(tmp, "before.safetensors")
        after = os.path.join(tmp, "after.safetensors")
        data = os.path.join(tmp, "pairs.tsv")
        subprocess.run([args.cli, "init", "--config", args.config, "--seed", str(args.seed), "--out", before],
                       check=True, stdout=subprocess.DEVNULL)
        ref = attnviz_ref.Reference(before)
        seq2seq = ref.cfg["arch"] == "seq2seq"
        with open(data, "w") as f:
            for s, t in PAIRS:
                f.write(f"{s}\t{t}\n" if seq2seq else f"{s}\n")
        subprocess.run([args.cli, "train", "--init", before, "--data", data, "--steps", "1",
                        "--batch-size", str(len(PAIRS)), "--optimizer", "sgd", "--lr", str(LR),
                        "--schedule", "constant", "--warmup", "0", "--dropout", "0",
                        "--label-smoothing", "0", "--clip", "0", "--no-shuffle", "--out", after],
                       check=True, capture_output=True)
        def is_frozen(name):
            """A fixed random synthesizer's tables (trainable: false) in their block kind."""
            for kind in ("encoder_self", "decoder_self", "cross"):
                blk = ref.cfg.get(kind, {})
                if blk.get("trainable") is False:
                    part = {"encoder_self": "encoder.layers.", "decoder_self": "decoder.layers.", "cross": "decoder.layers."}[kind]
                    mod = "cross_attn." if kind == "cross" else "self_attn."
                    if name.startswith(part) and mod in name and (".random.r" in name or ".frandom.r" in name):
                        return True
            return False
        for name, t in ref.T.items():
            t.requires_grad_(not is_frozen(name))
        total, n = 0.0, 0
        for s, t in PAIRS:
            toks_s = attnviz_ref.tokenize(s, ref.lower)
            toks_t = attnviz_ref.tokenize(t if seq2seq else s, ref.lower)
            src = ref.ids(ref.src_vocab, toks_s) if seq2seq else None
            tgt = ref.ids(ref.tgt_vocab, toks_t)
            loss = ref.run_tensor(src, tgt)  # mean over this sentence's tokens
            total = total + loss * (len(tgt) + 1)
            n += len(tgt) + 1
        (total / n).backward()
        updated, _ = attnviz_ref.read_safetensors(after)
        worst, where = 0.0, ""
        for name, t in ref.T.items():
            expect = t.detach() - LR * t.grad if t.grad is not None else t.detach()
            diff = float((updated[name] - expect).abs().max())
            if diff > worst:
                worst, where = diff, name
            if is_frozen(name) and not torch.equal(updated[name], t.detach()):
                sys.exit(f"FAIL frozen tensor {name} moved")
        if worst > 1e-5:
            sys.exit(f"FAIL max |difference| after one SGD step {worst:.3g} > 1e-5 in {where}")
        moved = max(float((updated[k] - ref.T[k].detach()).abs().max()) for k in ref.T)
        print(f"OK one SGD step (lr {LR}) on {len(PAIRS)} pairs, {n} target tokens: max |engine - reference| "
              f"{worst:.2e} (largest parameter change {moved:.3g}), loss {float(total / n):.4f}")


if __name__ == "__main__":
    main()
