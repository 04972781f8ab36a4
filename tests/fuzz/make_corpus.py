#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the hand-made seeds of tests/fuzz/corpus/<target>/ — among them every crash input of
issue 11 — from the committed corpus/checkpoint/mixture.safetensors. The output is committed;
re-run after changing this file: python3 tests/fuzz/make_corpus.py"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
DEEP = 300_000  # nesting levels of the crash inputs


def deep(levels):
    return "[" * levels + "]" * levels


def put(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def read_checkpoint(path):
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    return json.loads(b[8 : 8 + n]), b[8 + n :]


def write_checkpoint(header, payload, raw_meta=None):
    # raw_meta: metadata values inserted verbatim (json.dumps would refuse 300,000 levels).
    meta = header["__metadata__"]
    items = []
    for k, v in meta.items():
        v = raw_meta[k] if raw_meta and k in raw_meta else v
        items.append(json.dumps(k) + ":" + json.dumps(v))
    rest = {k: v for k, v in header.items() if k != "__metadata__"}
    text = '{"__metadata__":{' + ",".join(items) + "}," + json.dumps(rest, separators=(",", ":"))[1:]
    text = text.encode() + b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + payload


def main():
    header, payload = read_checkpoint(os.path.join(CORPUS, "checkpoint", "mixture.safetensors"))
    cfg = json.loads(header["__metadata__"]["config"])

    # --- config (ModelConfig::fromJsonText) ---
    put("config", "valid-mixture.json", json.dumps(cfg, indent=2))
    put("config", "crash-deep-bias-300k.json", '{"bias":' + deep(DEEP) + "}")
    put("config", "crash-d_model-50k-open-brackets.json", '{"d_model":' + "[" * 50_000)
    put("config", "crash-deep-value-of-known-key.json",
        json.dumps(cfg)[:-1] + ',"d_ff":' + deep(20_000) + "}")
    put("config", "crash-long-unknown-key-1mb.json", '{"' + "k" * (1 << 20) + '":1}')
    put("config", "huge-d_model.json", json.dumps(dict(cfg, d_model=65536, d_ff=4)))
    put("config", "duplicate-keys.json", '{"d_model":32,"d_model":64}')
    put("config", "invalid-utf8-key.json", b'{"\xff\xfe":1}')

    # --- checkpoint (safetensors + metadata) ---
    put("checkpoint", "crash-config-deep-bias-300k.safetensors", write_checkpoint(
        header, payload, {"config": json.dumps(cfg)[:-1] + ',"bias":' + deep(DEEP) + "}"}))
    put("checkpoint", "crash-training-deep-300k.safetensors", write_checkpoint(
        header, payload, {"training": '{"kind":' + deep(DEEP) + "}"}))
    put("checkpoint", "crash-tokenizer-kind-number.safetensors", write_checkpoint(
        header, payload, {"tokenizer": '{"kind":5,"lowercase":true}'}))
    put("checkpoint", "crash-unknown-key-1mb.safetensors", write_checkpoint(
        header, payload, {"config": json.dumps(cfg)[:-1] + ',"' + "k" * (1 << 20) + '":1}'}))

    # --- tokenizer (Tokenizer::fromJson, tokenize, Vocab) ---
    put("tokenizer", "valid.json", '{"kind":"word","lowercase":true}')
    put("tokenizer", "crash-kind-number.json", '{"kind":5,"lowercase":true}')
    put("tokenizer", "kind-array.json", '{"kind":["word"],"lowercase":"yes"}')
    put("tokenizer", "not-an-object.json", "[1,2]")
    put("tokenizer", "crash-deep-kind-300k.json", '{"kind":' + deep(DEEP) + "}")
    put("tokenizer", "text-mixed.txt", "Don't go to the station, 駅へ行かない! Ça va? ΑΒΓ, ПРИВЕТ\n")
    put("tokenizer", "crash-invalid-utf8-vocab.txt", b"hello\nworld\n\xff\xfe\nbad\xc3\x28x\n\xed\xa0\x80\n")
    put("tokenizer", "overlong-utf8.txt", b"\xc0\xaf\xe0\x80\xaf\xf8\x88\x80\x80\x80 station\n")

    # --- data (loadData, TSV and text) ---
    put("data", "pairs.tsv", "i want to go\tich will gehen\nthe station\tder bahnhof\n\n"
        "no tab here\n\tempty source\nempty target\t\na\tb\tc\n")
    put("data", "lines.txt", "the cat sat on the mat .\ni want to go to the station\n")
    put("data", "crash-invalid-utf8.tsv", b"ok\tgut\n\xff\xfe\tbad\nbad\xc3\x28\tx\nlast\tletzte\n")
    put("data", "crlf-and-nul.tsv", b"a b\tc d\r\n\x00\x00\tx\r\n" + b"w " * 200 + b"\tlong\n")
    put("data", "one-long-line.tsv", "word " * 50_000 + "\tx\n")

    # --- session (ui/session.h Session::load) ---
    put("session", "valid.json", json.dumps({
        "attnviz_session": 1, "source": "i want to go", "target": "",
        "sentences": ["i want to go", "the station"], "sentence_index": 0,
        "columns": ["/nonexistent/a.safetensors"], "view": {}}))
    put("session", "crash-array-1-2.json", "[1,2]")
    put("session", "crash-deep-300k.json", '{"attnviz_session":1,"view":' + deep(DEEP) + "}")
    put("session", "garbage.json", b"\x00\x01garbage\xff")
    put("session", "wrong-types.json", '{"attnviz_session":1,"sentences":5,"columns":{"a":1},'
        '"sentence_index":"x","view":{"scaling":7,"heads":[[1]],"style":null}}')
    put("session", "sentence-index-out-of-range.json",
        '{"attnviz_session":1,"sentences":["a"],"sentence_index":99999999999}')


if __name__ == "__main__":
    main()
