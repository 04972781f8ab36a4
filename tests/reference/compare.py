#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CTest driver: the engine (attnviz-cli) against the PyTorch reference (attnviz_ref.py).

For one configuration: initialise a random checkpoint with the CLI, dump the attention of
several sentences (with a target, and decoded greedily without one), run the reference on
the same checkpoint and tokens, and require every weight within 1e-4 and the loss within
1e-3 relative. Prints the largest differences seen; exits non-zero on any mismatch.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attnviz_ref  # noqa: E402

SENTENCES = [
    ("I want to go to the station.", "I went to the station today"),
    ("The quick brown fox jumped over the lazy dog", "the dog sat"),
    ("Where is the cat?", "the cat is here ."),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--config", required=True, help="JSON file or inline JSON")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cfg_path = args.config
        if args.config.lstrip().startswith("{"):
            cfg_path = os.path.join(tmp, "config.json")
            with open(cfg_path, "w") as f:
                f.write(args.config)
        model = os.path.join(tmp, "m.safetensors")
        subprocess.run([args.cli, "init", "--config", cfg_path, "--seed", str(args.seed), "--out", model], check=True, stdout=subprocess.DEVNULL)
        ref = attnviz_ref.Reference(model)
        seq2seq = ref.cfg["arch"] == "seq2seq"
        worst_w, worst_l, cases = 0.0, 0.0, 0
        for src, tgt in SENTENCES:
            for use_target in ([True, False] if seq2seq else [True]):
                cmd = [args.cli, "attention", "--model", model, "--text", src]
                if use_target and seq2seq:
                    cmd += ["--target", tgt]
                dump = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                toks = attnviz_ref.tokenize(src, ref.lower)
                if seq2seq:
                    assert dump["source"]["tokens"] == toks + ["<eos>"], (dump["source"]["tokens"], toks)
                    src_ids = ref.ids(ref.src_vocab, toks)
                    assert dump["source"]["ids"] == src_ids + [3]
                    if use_target:
                        ttoks = attnviz_ref.tokenize(tgt, ref.lower)
                        assert dump["target"]["tokens"] == ["<bos>"] + ttoks
                        tgt_ids = ref.ids(ref.tgt_vocab, ttoks)
                    else:
                        assert dump["target"]["decoded"] is True
                        tgt_ids = dump["target"]["ids"][1:]
                else:
                    src_ids, tgt_ids = None, ref.ids(ref.tgt_vocab, toks)
                    assert dump["target"]["tokens"] == ["<bos>"] + toks
                rec, loss = ref.run(src_ids, tgt_ids)
                assert len(rec) == len(dump["blocks"]), (len(rec), len(dump["blocks"]))
                for A, blk in zip(rec, dump["blocks"]):
                    W = attnviz_ref.torch.tensor(blk["weights"], dtype=attnviz_ref.torch.float64)
                    assert W.shape == A.shape, (blk["name"], W.shape, A.shape)
                    diff = float((W - A).abs().max()) if W.numel() else 0.0
                    worst_w = max(worst_w, diff)
                    if diff > 1e-4:
                        sys.exit(f"FAIL {blk['name']}: max |weight difference| {diff:.3g} > 1e-4 ({src!r})")
                rel = abs(dump["loss"] - loss) / max(abs(loss), 1e-12)
                worst_l = max(worst_l, rel)
                if rel > 1e-3:
                    sys.exit(f"FAIL loss {dump['loss']} vs reference {loss} (relative {rel:.3g}) ({src!r})")
                cases += 1
        print(f"OK {cases} cases, {len(rec)} blocks each: max |weight diff| {worst_w:.2e}, max relative loss diff {worst_l:.2e}")


if __name__ == "__main__":
    main()
