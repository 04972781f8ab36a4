#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz's SentencePiece tokenizer against Debian's python3-sentencepiece.

Trains a small model with `attnviz-cli train --tokenizer sentencepiece` on generated
English/Spanish pairs, takes the SentencePiece model out of the checkpoint's metadata, and
compares the ids of `attnviz-cli tokenize --as ids` with Python's for every sentence of a
varied test set (>= 1000 sentences: other words, names, numbers, accents, Chinese, emoji,
odd spacing). Also checks that no sentence produces <unk> (byte fallback) and that pieces
decode back to the (normalised) text.
"""
import argparse
import base64
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

import sentencepiece as spm

EN = ("the a man woman child house city water light day night good new old big small who "
      "what where when why how go come see say make take give know think want love run "
      "read write station train book world people time year way friend music river tree").split()
ES = ("el la un una hombre mujer niño casa ciudad agua luz día noche bueno nuevo viejo "
      "grande pequeño quién qué dónde cuándo por cómo ir venir ver decir hacer tomar dar "
      "saber pensar querer amor correr leer escribir estación tren libro mundo gente tiempo").split()
OTHER = ["Zürich", "naïve", "Ångström", "Dvořák", "O'Neill", "e-mail", "COVID-19", "3.14159",
         "1,000,000", "2026-11-30", "我想去火车站", "注意力机制", "東京", "한국어", "Привет",
         "مرحبا", "😀", "👍🏽", "🇪🇸", "∑x²", "→", "«quoted»", "tab\there", "  two  spaces ",
         "ÑANDÚ", "straße", "ﬁ ligature", "x" * 60]


def read_metadata(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    return header["__metadata__"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    a = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        pairs = os.path.join(tmp, "pairs.tsv")
        with open(pairs, "w") as f:
            for _ in range(1500):
                n = rng.randint(3, 12)
                f.write(" ".join(rng.choice(EN) for _ in range(n)).capitalize() + ".\t" +
                        " ".join(rng.choice(ES) for _ in range(n)).capitalize() + ".\n")
        cfg = os.path.join(tmp, "c.json")
        with open(cfg, "w") as f:
            json.dump({"d_model": 16, "heads": 2, "d_ff": 16, "enc_layers": 1, "dec_layers": 1,
                       "max_len": 128}, f)
        model = os.path.join(tmp, "m.safetensors")
        subprocess.run([a.cli, "train", "--config", cfg, "--data", pairs, "--tokenizer", "sentencepiece",
                        "--vocab-size", "600", "--steps", "1", "--out", model],
                       check=True, capture_output=True)
        tok = json.loads(read_metadata(model)["tokenizer"])
        assert tok["kind"] == "sentencepiece", tok
        sp = spm.SentencePieceProcessor(model_proto=base64.b64decode(tok["model"]))

        sentences = []
        for i in range(1200):
            words = [rng.choice(EN + ES + OTHER) for _ in range(rng.randint(1, 15))]
            sentences.append(" ".join(words))
        sentences += OTHER + ["I want to go to the station", "我想去火车站。", "The quick brown fox "
                              "jumps over the lazy dog", "¿Dónde está la estación de tren?"]
        text = os.path.join(tmp, "s.txt")
        with open(text, "w") as f:
            f.write("\n".join(s.replace("\t", " ") for s in sentences) + "\n")
        sentences = [s.replace("\t", " ") for s in sentences]
        out = subprocess.run([a.cli, "tokenize", "--model", model, "--file", text, "--as", "ids"],
                             check=True, capture_output=True, text=True).stdout.split("\n")
        mismatches, unk = 0, 0
        for i, s in enumerate(sentences):
            ours = [int(x) for x in out[i].split()]
            theirs = sp.encode(s)
            if ours != theirs:
                mismatches += 1
                if mismatches <= 3:
                    print(f"MISMATCH {s!r}\n  attnviz {ours}\n  python  {theirs}", file=sys.stderr)
            unk += ours.count(1)
            if sp.decode(theirs) != sp.decode(sp.encode(sp.decode(theirs))):
                sys.exit(f"FAIL pieces do not round-trip: {s!r}")
        print(f"{len(sentences)} sentences: {mismatches} id mismatches, {unk} <unk> ids")
        if mismatches or unk:
            sys.exit(1)
        print("OK")


if __name__ == "__main__":
    main()
