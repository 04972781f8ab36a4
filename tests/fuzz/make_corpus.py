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


# ---- SentencePiece models (issue 27): a protobuf ModelProto, edited field by field ----

def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def pb_fields(b):
    """[(field, wire, payload or raw value bytes)] of one message."""
    out, i = [], 0
    def read_varint():
        nonlocal i
        v, shift = 0, 0
        while True:
            c = b[i]; i += 1
            v |= (c & 0x7F) << shift
            shift += 7
            if not c & 0x80:
                return v
    while i < len(b):
        k = read_varint()
        field, wire = k >> 3, k & 7
        start = i
        if wire == 0:
            read_varint(); out.append((field, wire, b[start:i]))
        elif wire == 2:
            n = read_varint(); out.append((field, wire, b[i:i + n])); i += n
        else:
            n = 8 if wire == 1 else 4; out.append((field, wire, b[i:i + n])); i += n
    return out


def pb_join(fields):
    out = bytearray()
    for field, wire, data in fields:
        out += varint(field << 3 | wire)
        if wire == 2:
            out += varint(len(data))
        out += data
    return bytes(out)


def sentencepiece_model(path):
    header, _ = read_checkpoint(path)
    import base64
    return base64.b64decode(json.loads(header["__metadata__"]["tokenizer"])["model"])


def sentencepiece_seeds(model):
    put("sentencepiece", "trained-en-es.model", model)
    top = pb_fields(model)
    def with_normalizer(edit):
        fields = []
        for f in top:
            if f[0] == 3:
                f = (3, 2, pb_join(edit(pb_fields(f[2]))))
            fields.append(f)
        return pb_join(fields)
    def flip_table(n):
        out = []
        for field, wire, data in n:
            if field == 2:
                data = bytearray(data)
                for k in (0, 1, 5, 100, 4000):
                    data[k] ^= 0x5A
                data = bytes(data)
            out.append((field, wire, data))
        return out
    put("sentencepiece", "crash-corrupt-normalizer-table.model", with_normalizer(flip_table))
    put("sentencepiece", "custom-rules.model",
        with_normalizer(lambda n: n + [(6, 2, b"41\t" + b"41 " * 64 + b"\n")]))
    pieces = [i for i, f in enumerate(top) if f[0] == 1]
    long_piece = list(top)
    long_piece[pieces[-1]] = (1, 2, pb_join([(1, 2, b"a" * 200_000), (2, 5, b"\0\0\0\0"), (3, 0, varint(1))]))
    put("sentencepiece", "crash-piece-200kb.model", pb_join(long_piece))
    nul_piece = list(top)  # found by fuzz_sentencepiece: the trie builder threw, std::terminate
    nul_piece[pieces[-1]] = (1, 2, pb_join([(1, 2, b"\0\0\0\t<d>\t"), (2, 5, b"\0\0\0\0"), (3, 0, varint(1))]))
    put("sentencepiece", "crash-nul-in-piece.model", pb_join(nul_piece))
    samples = b"".join(pb_join([(1, 2, pb_join([(1, 2, b"sample %d" % i), (2, 2, b"x")]))])
                       for i in range(2000))
    put("sentencepiece", "self-test-samples.model", model + pb_join([(4, 2, samples)]))


def probe_seeds():
    snapshot = {"step": 0, "dump": {"source": {"text": "a b", "tokens": ["a", "b"], "ids": [4, 5]},
                                    "target": {"text": "c", "tokens": ["<bos>", "c"], "ids": [2, 6]},
                                    "blocks": [{"name": "enc.0.self", "kind": "encoder_self", "layer": 0,
                                                "variant": "dot", "heads": 1,
                                                "weights": [[[0.5, 0.5], [0.25, 0.75]]]}]}}
    probe = {"format": "attnviz-probe", "version": 1, "model": "m", "every": 1,
             "probe": {"source": "a b", "target": "c"}, "snapshots": [snapshot]}
    put("probe", "valid.probe.json", json.dumps(probe))
    put("probe", "weight-1e39.probe.json", json.dumps(probe).replace("0.25", "1e39"))
    put("probe", "step-3e9.probe.json", json.dumps(probe).replace('"step": 0', '"step": 3000000000'))
    put("probe", "deep-300k.probe.json", json.dumps(probe)[:-1] + ',"notes":' + deep(DEEP) + "}")


def png(width, height, gray, rows=None):
    """An 8-bit grayscale PNG; `rows` (raw filtered scanlines) replaces the pixels when given."""
    import zlib

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    if rows is None:
        rows = b"".join(b"\x00" + bytes(gray(x, y) for x in range(width)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) +
            chunk(b"IEND", b""))


def bmp(width, height, gray):
    """A 24-bit bottom-up BMP."""
    stride = (width * 3 + 3) // 4 * 4
    px = b"".join((b"".join(bytes([gray(x, y)] * 3) for x in range(width))).ljust(stride, b"\0")
                  for y in reversed(range(height)))
    dib = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(px), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 54 + len(px), 0, 0, 54) + dib + px


def progressive_jpeg(w, h, ac_scans):
    """A gray progressive JPEG of w x h mid-gray pixels, one DC scan and `ac_scans` AC scans of
    end-of-band runs (tests/render/jpeg_maker.h, which the C++ tests use, says how)."""
    seg = lambda m, body: bytes([0xFF, m]) + struct.pack(">H", len(body) + 2) + body

    def bits_to_bytes(bits):
        bits += "1" * (-len(bits) % 8)
        out = bytearray()
        for i in range(0, len(bits), 8):
            out.append(int(bits[i : i + 8], 2))
            if out[-1] == 0xFF:
                out.append(0)
        return bytes(out)

    blocks = ((w + 7) // 8) * ((h + 7) // 8)
    runs, left = "", blocks
    while left:
        run = min(left, 32767)
        n = run.bit_length() - 1
        runs += format(n, "04b") + (format(run - (1 << n), "0%db" % n) if n else "")
        left -= run
    runs = bits_to_bytes(runs)
    sos = lambda ss, se, ah, al: seg(0xDA, bytes([1, 1, 0, ss, se, ah << 4 | al]))
    f = b"\xff\xd8" + seg(0xDB, b"\x00" + b"\x01" * 64)
    f += seg(0xC2, bytes([8]) + struct.pack(">HH", h, w) + bytes([1, 1, 0x11, 0]))
    f += seg(0xC4, bytes([0x00, 1]) + bytes(15) + bytes([0]))
    f += seg(0xC4, bytes([0x10, 0, 0, 0, 15]) + bytes(12) + bytes(n << 4 for n in range(15)))
    f += sos(0, 0, 0, 0) + bits_to_bytes("0" * blocks)
    made = 0
    for k in range(1, 64):
        for al in range(13, -1, -1):
            if made == ac_scans:
                return f + b"\xff\xd9"
            f += sos(k, k, 0 if al == 13 else al + 1, al) + runs
            made += 1
    return f + b"\xff\xd9"


def image_seeds():
    """A person's image files (render/image_file.h): small valid ones of several formats and
    the hostile ones of issue 28 (truncated, a 100000 x 100000 header, zero size)."""
    shirt = lambda x, y: 40 if 4 <= x < 12 and 2 <= y < 14 else 225  # dark on light
    ok = png(16, 16, shirt)
    put("image", "shirt.png", ok)
    put("image", "truncated.png", ok[: len(ok) // 2])
    put("image", "no-iend.png", ok[:-12])
    put("image", "huge-header.png", png(100000, 100000, None, rows=b"\x00" * 64))
    put("image", "zero-width.png", png(0, 16, None, rows=b""))
    put("image", "short-rows.png", png(16, 16, shirt, rows=b"\x00" * 40))
    put("image", "empty.png", b"")
    b = bmp(10, 6, shirt)
    put("image", "shirt.bmp", b)
    put("image", "truncated.bmp", b[: len(b) - 20])
    put("image", "huge-header.bmp", b[:18] + struct.pack("<ii", 100000, 100000) + b[26:])
    put("image", "negative-height.bmp", b[:22] + struct.pack("<i", -6) + b[26:])
    put("image", "shirt.pgm", b"P5\n4 3\n255\n" + bytes(range(0, 240, 20)))
    put("image", "huge.pgm", b"P5\n100000 100000\n255\n\x00")
    put("image", "ascii.pgm", b"P2\n2 2\n255\n0 64\n128 255\n")
    # GIF89a, 1 x 1, one colour: the smallest complete file.
    put("image", "dot.gif", bytes.fromhex(
        "4749463839610100010080000000000000ffffff21f90401000000002c00000000010001000002024401003b"))
    put("image", "jpeg-header-only.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01"
        b"\x00\x01\x00\x00\xff\xc0\x00\x0b\x08\xff\xff\xff\xff\x01\x01\x11\x00")
    # Issue 48: a scan bomb (151 scans, over the limit of 100) and a progressive JPEG within
    # it. baseline.jpg, progressive.jpg, cut-mended.jpg (cut, its end marker put back),
    # colour.png, gray.png and alpha.png are Qt's encoders' output, committed as they are.
    put("image", "scan-bomb.jpg", progressive_jpeg(64, 64, 150))
    put("image", "gray-progressive.jpg", progressive_jpeg(16, 8, 40))


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
    # The image mode's object (core/session_file.cpp parseSessionImage): a valid one of each
    # kind, and every key wrong (types, ranges, both a test image and a file, a bad query).
    put("session", "image-test.json", json.dumps({
        "attnviz_session": 1, "columns": ["/nonexistent/vit.safetensors"], "view": {},
        "image": {"test_index": 7, "invert": "auto", "query": "3,4", "layer": 1,
                  "heads": "rollout", "opacity": 0.6, "colormap": "magma",
                  "shared_scale": True}}))
    put("session", "image-file.json", json.dumps({
        "attnviz_session": 1, "columns": [], "view": {},
        "image": {"file": "photo.png", "file_absolute": "/nonexistent/photo.png",
                  "invert": "yes", "query": "cls", "heads": "mean"}}))
    put("session", "image-wrong.json", json.dumps({
        "attnviz_session": 1, "columns": [],
        "image": {"test_index": -5, "file": "x.png", "invert": 3, "query": "99999,-1",
                  "layer": 2 ** 40, "heads": [], "opacity": 7, "colormap": None,
                  "shared_scale": "yes"}}))
    put("session", "image-not-object.json", '{"attnviz_session":1,"image":[1,2,3]}')
    # A pasted image kept inside (a 2 × 1 gray PNG), and one whose bytes are no PNG.
    put("session", "image-pasted.json", json.dumps({
        "attnviz_session": 1, "columns": [], "view": {},
        "image": {"pasted_png": "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGMQ"
                                "+AAAARMBAXVbZvwAAAAASUVORK5CYII=", "invert": "no"}}))
    put("session", "image-pasted-wrong.json", json.dumps({
        "attnviz_session": 1, "image": {"pasted_png": "R0lGODlhAQABAAAAACw=", "test_index": 1}}))


    sentencepiece_seeds(sentencepiece_model(
        os.path.join(HERE, "..", "..", "resources", "models", "en-es", "01-dot.safetensors")))
    probe_seeds()
    image_seeds()


if __name__ == "__main__":
    main()
