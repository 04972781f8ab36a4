#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch twin (python/attnviz_torch) against the engine, issue 16's must-shows.

Usage: twin_test.py CLI   (CTest runs it; Debian's python3 with torch, numpy, sentencepiece)

1. Every configuration of tests/data/configs: a checkpoint the C++ engine wrote loads in the
   package, and the package's attention dump equals `attnviz-cli attention` (every block,
   every head, within 1e-5; the loss too).
2. The package writes the checkpoint back: the same tensors and metadata; attnviz-cli reads it
   and gives the same dump.
3. A real 2-process gloo run (loopback, torchrun) equals the 1-process run of the same global
   batch within 1e-5 per tensor: in float64; and in float32 with dropout when the one process
   accumulates the same two micro-batches (then bit for bit). Without micro-batches, float32
   Adam turns summation-order differences of ~1e-7 into differences of up to lr (reported).
   Its checkpoint loads in `attnviz-cli info`, and `attnviz-cli attention` equals the
   package's dump of it within 1e-5.
4. A run stopped after 5 of 12 steps and resumed equals the uninterrupted run, with dropout.
5. The word tokenizer equals `attnviz-cli tokenize` on texts of every rule of
   docs/tokenizer.md.
6. Greedy decoding (docs/model-spec.md 3.9 and 8): without a target, or with one that
   tokenizes to nothing, the twin's decoded target (tokens, ids, text: word tokens joined by
   spaces, SentencePiece pieces detokenized) equals `attnviz-cli attention`'s, for every
   seq2seq configuration (untrained: most run to the min(2n + 10, …) limit) and a trained
   SentencePiece model.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from attnviz_torch.attention import dump  # noqa: E402
from attnviz_torch.checkpoint import read_checkpoint  # noqa: E402
from attnviz_torch.model import AttnvizModel  # noqa: E402
from attnviz_torch.tokenizer import WordTokenizer  # noqa: E402

CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/attnviz-cli")
ENV = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), OMP_NUM_THREADS="1", ATTNVIZ_CLI=CLI)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def cli(*args):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout


def max_diff(a, b):
    """Largest |difference| between two dumps' weights (block names must agree)."""
    worst = 0.0
    assert [x["name"] for x in a["blocks"]] == [x["name"] for x in b["blocks"]]
    for x, y in zip(a["blocks"], b["blocks"]):
        worst = max(worst, float(np.abs(np.array(x["weights"]) - np.array(y["weights"])).max()))
    return worst


def engine_dump(path, text, target):
    return json.loads(cli("attention", "--model", path, "--text", text, *(["--target", target] if target else [])))


def twin_dump(path, text, target):
    return dump(AttnvizModel.from_checkpoint(path), path, text, target)


def sentence(path):
    seq2seq = json.loads(read_checkpoint(path)[1]["config"])["arch"] == "seq2seq"
    return "i want to go to the station", ("the cat sees the dog" if seq2seq else None)


def train(tmp, name, config, nproc, *extra):
    out = os.path.join(tmp, name + ".safetensors")
    cmd = [sys.executable, "-m", "attnviz_torch.torchrun", "--standalone", "--nproc_per_node", str(nproc),
           "-m", "attnviz_torch.train"] if nproc > 1 else [sys.executable, "-m", "attnviz_torch.train"]
    cmd += ["--config", config, "--task", "copy", "--steps", "8", "--batch-size", "8", "--lr", "3e-3",
            "--warmup", "4", "--log-every", "0", "--out", out, *extra]
    r = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL training ({' '.join(cmd)}):\n{r.stdout}\n{r.stderr}")
    return out


def tensors_diff(a, b):
    A, B = read_checkpoint(a)[0], read_checkpoint(b)[0]
    assert A.keys() == B.keys()
    return max(float((A[k] - B[k]).abs().max()) for k in A)


def main():
    configs = sorted(glob.glob(os.path.join(ROOT, "tests/data/configs/*.json")))
    with tempfile.TemporaryDirectory() as tmp:
        # 1 and 2: every variant, both ways.
        for cfg in configs:
            name = os.path.basename(cfg)[:-5]
            path = os.path.join(tmp, name + ".safetensors")
            cli("init", "--config", cfg, "--seed", "5", "--out", path)
            text, target = sentence(path)
            e, t = engine_dump(path, text, target), twin_dump(path, text, target)
            d = max_diff(e, t)
            check(d < 1e-5 and abs(e["loss"] - t["loss"]) < 1e-5,
                  f"{name}: C++ checkpoint in PyTorch, weights max |diff| {d:.1e}, loss {e['loss']:.6f} vs {t['loss']:.6f}")
            back = os.path.join(tmp, name + "-back.safetensors")
            AttnvizModel.from_checkpoint(path).save(back)
            (A, ma), (B, mb) = read_checkpoint(path), read_checkpoint(back)
            same = A.keys() == B.keys() and all(bool((A[k] == B[k]).all()) for k in A) and ma == mb
            d2 = max_diff(e, engine_dump(back, text, target))
            check(same and d2 == 0.0, f"{name}: written back by PyTorch, read by attnviz-cli: tensors and metadata "
                                      f"equal, dump max |diff| {d2:.1e}")
            if target:  # 6: greedy decoding, without a target and with one of no tokens
                for tgt in (None, " \t "):
                    args = ["attention", "--model", path, "--text", text] + (["--target", tgt] if tgt else [])
                    e = json.loads(cli(*args))
                    t = dump(AttnvizModel.from_checkpoint(path), path, text, tgt)
                    check(e["target"] == t["target"] and max_diff(e, t) < 1e-5,
                          f"{name}: greedy decoding (target {tgt!r}): {len(t['target']['ids']) - 1} tokens, "
                          f"the engine's {len(e['target']['ids']) - 1}, text equal: {e['target']['text'] == t['target']['text']}")
        # 3: two processes against one.
        for cfg in ("mixture", "gaussian", "dot_post_nobias_untied"):
            config = os.path.join(ROOT, "tests/data/configs", cfg + ".json")
            one = train(tmp, f"{cfg}-1", config, 1, "--dropout", "0", "--precision", "float64")
            two = train(tmp, f"{cfg}-2", config, 2, "--dropout", "0", "--precision", "float64")
            d = tensors_diff(one, two)
            check(d < 1e-5, f"{cfg}: 2-process gloo run vs 1 process, float64, 8 Adam steps: max |diff| per tensor {d:.1e}")
            info = cli("info", "--model", two, "--json")
            check('"trained"' in info, f"{cfg}: the 2-process checkpoint loads in attnviz-cli info")
            text, target = sentence(two)
            d3 = max_diff(engine_dump(two, text, target), twin_dump(two, text, target))
            check(d3 < 1e-5, f"{cfg}: attnviz-cli attention of the PyTorch-trained checkpoint vs PyTorch: {d3:.1e}")
            # float32, with dropout: one process in the two processes' micro-batches sums the
            # same gradients in the same order, so the runs are equal bit for bit.
            one32 = train(tmp, f"{cfg}-1f", config, 1, "--dropout", "0.1", "--micro-batches", "2")
            two32 = train(tmp, f"{cfg}-2f", config, 2, "--dropout", "0.1")
            d = tensors_diff(one32, two32)
            check(d < 1e-5, f"{cfg}: 2-process gloo run vs 1 process in 2 micro-batches, float32, dropout 0.1: "
                            f"max |diff| per tensor {d:.1e}")
            plain1 = train(tmp, f"{cfg}-1p", config, 1, "--dropout", "0")
            plain2 = train(tmp, f"{cfg}-2p", config, 2, "--dropout", "0")
            print(f"     (float32 without micro-batches: max |diff| {tensors_diff(plain1, plain2):.1e}, "
                  "summation order only, for information)")
        # 4: resumed = uninterrupted.
        config = os.path.join(ROOT, "tests/data/configs/gaussian.json")
        whole = train(tmp, "whole", config, 1, "--dropout", "0.1")
        part = train(tmp, "part", config, 1, "--dropout", "0.1", "--stop-after", "3")
        part = train(tmp, "part", config, 1, "--resume")
        d = tensors_diff(whole, part)
        check(d == 0.0, f"stopped after 3 of 8 steps and resumed vs uninterrupted, with dropout: max |diff| {d:.1e}")
        # 5: the word tokenizer.
        texts = ["Don't STOP — it's 5.30pm, naïve café!", "ÀÉÎÕÜ Ÿ İstanbul ΑΒΓ Привет ＡＢＣ", "我爱北京天安门 カタカナ 한국어",
                 "emoji 👍🏽 family 👨‍👩‍👧 flags 🇪🇸🇬🇧 keycap 1️⃣", "tabs\tand\u00a0spaces\u3000here", "x²+y³=z ½ € → ✓"]
        path = os.path.join(tmp, "dot.safetensors")
        for lower in (True, False):
            m = path if lower else os.path.join(tmp, "cased.safetensors")
            if not lower:
                cli("init", "--config", configs[0], "--case-sensitive", "--out", m)
            for s in texts:
                eng = cli("tokenize", "--model", m, "--text", s).rstrip("\n").split("\t")
                mine = WordTokenizer(lower).tokenize(s)
                check(eng == mine, f"word tokenizer (lowercase {lower}) on {s!r}: {len(mine)} tokens")
        # SentencePiece and real weights: a bundled English -> Spanish model.
        real = os.path.join(ROOT, "resources/models/en-es/09-hc-sa.safetensors")
        if os.path.exists(real):
            m = AttnvizModel.from_checkpoint(real)
            for s in ("The astronauts repaired the satellite yesterday.", "I want to go to the station",
                      "Ünïcödé, 北京 and emoji 👍"):
                eng = cli("tokenize", "--model", real, "--text", s).rstrip("\n").split("\t")
                check(eng == m.tokenizer.tokenize(s), f"SentencePiece (en-es) on {s!r}: {len(eng)} pieces")
            text, target = "I want to go to the station", "Quiero ir a la estación"
            d = max_diff(engine_dump(real, text, target), twin_dump(real, text, target))
            check(d < 1e-5, f"en-es 09-hc-sa (SentencePiece, trained weights): attention max |diff| {d:.1e}")
            e, t = engine_dump(real, text, None), twin_dump(real, text, None)
            check(e["target"] == t["target"] and max_diff(e, t) < 1e-5,
                  f"en-es 09-hc-sa greedy: the twin's decoded target equals the engine's ({t['target']['text']!r})")
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all passed")


if __name__ == "__main__":
    main()
