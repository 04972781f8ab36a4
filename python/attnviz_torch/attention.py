# SPDX-License-Identifier: GPL-3.0-or-later
"""python3 -m attnviz_torch.attention --model M --text T [--target T2] [--out F]

Prints the attention dump of docs/model-spec.md ("Attention dump (JSON)"), the same JSON as
`attnviz-cli attention`: every block's weights for one sentence, computed by the PyTorch
model. Without a target a seq2seq model decodes greedily."""
import argparse
import json
import sys

import torch

from .model import BOS, EOS, AttnvizModel


def greedy(model, src_ids, limit):
    """Greedy decoding (argmax, lowest id on ties), up to `limit` tokens or <eos>."""
    out = []
    with torch.no_grad():
        src = torch.tensor([src_ids + [EOS]])
        for _ in range(limit):
            logits = model.forward(src, torch.tensor([[BOS] + out]))
            nxt = int(torch.argmax(logits[0, -1]))
            if nxt == EOS:
                break
            out.append(nxt)
    return out


def dump(model, name, text, target=None):
    c = model.cfg
    seq2seq = c["arch"] == "seq2seq"
    toks = model.tokenizer.tokenize(text)
    d = {"model": name, "config": c}
    decoded = False
    if seq2seq:
        sids = [model._src_index.get(t, 1) for t in toks]
        d["source"] = {"text": text, "tokens": toks + ["<eos>"], "ids": sids + [EOS]}
        if target is None:
            tids = greedy(model, sids, c["max_len"] - 1)
            ttoks = [model.tgt_vocab[i] for i in tids]
            ttext, decoded = " ".join(ttoks), True
        else:
            ttoks = model.tokenizer.tokenize(target)
            tids = [model._tgt_index.get(t, 1) for t in ttoks]
            ttext = target
    else:
        if target is not None:
            raise ValueError("a decoder-only model takes one text, not a target")
        sids, ttoks, ttext = None, toks, text
        tids = [model._tgt_index.get(t, 1) for t in toks]
    d["target"] = {"text": ttext, "tokens": ["<bos>"] + ttoks, "ids": [BOS] + tids, "decoded": decoded}
    record = []
    with torch.no_grad():
        src, tin, tout = model.batch([(sids, tids)])
        logits = model.forward(src, tin, record=record)
        loss = torch.nn.functional.cross_entropy(logits[0], tout[0])
    d["loss"] = float(loss)
    blocks = []
    names = [p for _, p in model._blocks()]
    kinds = [k for k, _ in model._blocks()]
    # Dump order: encoder layers, then each decoder layer's self and cross blocks (the order
    # the forward pass records them in, which _blocks() lists).
    for A, kind, prefix in zip(record, kinds, names):
        layer = int(prefix.split(".")[2])
        blocks.append({"name": prefix.rstrip("."), "kind": kind, "layer": layer,
                       "variant": c[kind]["variant"], "heads": c[kind]["heads"],
                       "weights": A[0].tolist()})
    d["blocks"] = blocks
    return d


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m attnviz_torch.attention", description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--text", required=True)
    ap.add_argument("--target")
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    try:
        m = AttnvizModel.from_checkpoint(a.model)
        text = json.dumps(dump(m, a.model, a.text, a.target), ensure_ascii=False)
    except (OSError, ValueError, KeyError) as e:
        print(f"attnviz_torch.attention: {e}", file=sys.stderr)
        return 1
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
