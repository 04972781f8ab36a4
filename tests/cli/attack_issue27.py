#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hostile attack on the surfaces of issue 27 (203 cases, a few minutes; not part of ctest):
SentencePiece blobs in a checkpoint, normalization expansion, special files for every reader,
sparse 4 GiB checkpoints, standard output on /dev/full, probe files, flags. A case is 'clean'
when the CLI ends by itself within its time limit, without a signal, with exit code 1 or 2
and a short message without the JSON library's tags (or exit 0 where the input is fine).
Prints a table (surface | tried | clean) and every case that was not clean.

    python3 tests/cli/attack_issue27.py --cli build/release/app/attnviz-cli"""
import argparse, base64, json, os, random, struct, subprocess, sys, tempfile, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "fuzz"))
import make_corpus as mc

ap = argparse.ArgumentParser()
ap.add_argument("--cli", required=True)
CLI = os.path.abspath(ap.parse_args().cli)
T = tempfile.mkdtemp(prefix="attnviz-attack-")
BASE = os.path.join(ROOT, "resources", "models", "en-es", "01-dot.safetensors")
results = {}

def run(cat, name, args, expect_ok=False, timeout=20, stdout=None):
    t0 = time.time()
    try:
        p = subprocess.run([CLI] + args, stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=dict(os.environ, ATTNVIZ_MODELS=os.path.join(ROOT, "resources", "models")))
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    dt = time.time() - t0
    if expect_ok:
        clean = rc == 0
    elif expect_ok is None:  # either answer is right: accepted, or refused in words
        clean = rc == 0 or (rc in (1, 2) and 0 < len(err) < 600 and "json.exception" not in err)
    else:
        clean = rc in (1, 2) and 0 < len(err) < 600 and "json.exception" not in err
    results.setdefault(cat, []).append((name, clean, rc, err.strip()[:160], dt))

def read_ckpt(path):
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    return json.loads(b[8:8 + n]), b[8 + n:]

def write_ckpt(path, header, payload):
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + payload)

header, payload = read_ckpt(BASE)
meta = header["__metadata__"]
model = base64.b64decode(json.loads(meta["tokenizer"])["model"])
top = mc.pb_fields(model)

def ckpt_with_model(name, blob, vocab=None):
    h = json.loads(json.dumps(header))
    h["__metadata__"]["tokenizer"] = json.dumps({"kind": "sentencepiece", "model": base64.b64encode(blob).decode()})
    if vocab is not None:
        h["__metadata__"]["src_vocab"] = h["__metadata__"]["tgt_vocab"] = json.dumps(vocab)
    p = os.path.join(T, name + ".safetensors")
    write_ckpt(p, h, payload)
    return p

def sp_case(name, blob, vocab=None, text="I want to go to the station", ok=False):
    run("SentencePiece blob in a checkpoint", name,
        ["attention", "--model", ckpt_with_model(name, blob, vocab), "--text", text], expect_ok=ok, timeout=60)

def edit_norm(fn):
    out = []
    for f in top:
        if f[0] == 3:
            f = (3, 2, mc.pb_join(fn(mc.pb_fields(f[2]))))
        out.append(f)
    return mc.pb_join(out)

def piece_msg(piece, typ=1):
    return mc.pb_join([(1, 2, piece), (2, 5, b"\0\0\0\0"), (3, 0, mc.varint(typ))])

pieces_idx = [i for i, f in enumerate(top) if f[0] == 1]
rng = random.Random(27)
# 1. normalizer tables
for k in [0, 1, 2, 3, 4, 8, 100, 1000, 5000, 20000, 100000, 200000]:
    def flip(n, k=k):
        o = []
        for fld, w, d in n:
            if fld == 2 and k < len(d):
                d = bytearray(d); d[k] ^= 0xFF; d = bytes(d)
            o.append((fld, w, d))
        return o
    sp_case(f"table-byte-{k}", edit_norm(flip))
for frac in [0, 0.1, 0.5, 0.99]:
    sp_case(f"table-truncated-{frac}", edit_norm(lambda n, f=frac: [(a, b, c[:int(len(c) * f)] if a == 2 else c) for a, b, c in n]))
sp_case("table-size-field-huge", edit_norm(lambda n: [(a, b, (b"\xff\xff\xff\x7f" + c[4:]) if a == 2 else c) for a, b, c in n]))
sp_case("custom-rules-expand", edit_norm(lambda n: n + [(6, 2, b"41\t" + b"41 " * 1000 + b"\n")]))
sp_case("rule-name-unknown", edit_norm(lambda n: [(a, b, b"nfkc_cf" if a == 1 else c) for a, b, c in n]))
sp_case("rule-name-identity-with-table", edit_norm(lambda n: [(a, b, b"identity" if a == 1 else c) for a, b, c in n]))
sp_case("denormalizer", model + mc.pb_join([(5, 2, mc.pb_join([(1, 2, b"nmt_nfkc")]))]))
# 2. pieces
for size in [257, 1000, 200_000, 1_000_000]:
    t = list(top); t[pieces_idx[-1]] = (1, 2, piece_msg(b"a" * size))
    sp_case(f"piece-{size}-bytes", mc.pb_join(t))
for name, p, typ in [("invalid-utf8", b"a\xffb", 1), ("surrogate", b"\xed\xa0\x80", 1), ("empty", b"", 1),
                     ("duplicate", b"<unk>", 1), ("user-defined", b"abc", 4), ("type-99", b"abc", 99),
                     ("fake-byte", b"<0xZZ>", 6), ("normal-as-byte", b"<0x41>", 1)]:
    t = list(top); t[pieces_idx[-1]] = (1, 2, piece_msg(p, typ))
    sp_case(f"piece-{name}", mc.pb_join(t))
t = list(top) + [(1, 2, piece_msg(b"x%d" % i)) for i in range(270_000)]
sp_case("pieces-270k", mc.pb_join(t))
samples = b"".join(mc.pb_join([(1, 2, mc.pb_join([(1, 2, b"s %d" % i), (2, 2, b"x")]))]) for i in range(100_000))
sp_case("self-test-100k-samples", model + mc.pb_join([(4, 2, samples)]), ok=True)
# 3. vocabulary vs pieces
vocab = json.loads(meta["src_vocab"])
v = list(vocab); v[100], v[200] = v[200], v[100]
sp_case("vocab-reordered", model, v)
sp_case("vocab-shorter", model, vocab[:-1])
v = list(vocab); v[-1] = "zzzz"
sp_case("vocab-other-piece", model, v)
# 4. protobuf structure
for name, blob in [("truncated-half", model[:len(model) // 2]), ("truncated-1", model[:-1]),
                   ("group-wire", model + b"\x0b"), ("overlong-varint", model + b"\x48" + b"\xff" * 10 + b"\x01"),
                   ("len-past-end", model + b"\x0a\xff\xff\x03ab"), ("unknown-field", model + b"\xc8\x06\x01"),
                   ("empty", b""), ("second-trainer", model + b"\x12\x00")]:
    sp_case(f"proto-{name}", blob)
# 5. random mutations
for i in range(60):
    b = bytearray(model)
    for _ in range(rng.randint(1, 16)):
        at = rng.randrange(len(b))
        b[at] = rng.randrange(256)
    sp_case(f"mutation-{i}", bytes(b), ok=None)
# 6. expansion texts (valid model)
good = ckpt_with_model("good", model)
for n in [1000, 40_000]:
    run("Normalization expansion", f"attention U+FDFA x {n}", ["attention", "--model", good, "--text", "\ufdfa" * n], timeout=60)
for ch in ["\ufdfa", "\u33fb", "\ufb01", "\u2474"]:
    for n in [100_000, 349_000]:
        p = os.path.join(T, "long.txt"); open(p, "w").write(ch * n + "\n")
        run("Normalization expansion", f"tokenize --file U+{ord(ch):04X} x {n}", ["tokenize", "--model", good, "--file", p], expect_ok=None, timeout=60)

# 7. special files for every reader
fifo = os.path.join(T, "fifo")
if os.path.exists(fifo): os.unlink(fifo)
os.mkfifo(fifo)
cfg = os.path.join(ROOT, "tests", "data", "configs", "dot.json")
small = os.path.join(T, "small.safetensors")
subprocess.run([CLI, "init", "--config", cfg, "--out", small], check=True, capture_output=True)
txt = os.path.join(T, "t.tsv"); open(txt, "w").write("a b\tc d\n")
readers = {
    "attention --model": lambda f: ["attention", "--model", f, "--text", "a"],
    "info --model": lambda f: ["info", "--model", f],
    "init --config": lambda f: ["init", "--config", f, "--out", os.path.join(T, "o.safetensors")],
    "init --vocab": lambda f: ["init", "--config", cfg, "--vocab", f, "--out", os.path.join(T, "o.safetensors")],
    "train --config": lambda f: ["train", "--config", f, "--task", "copy", "--out", os.path.join(T, "o.safetensors")],
    "train --data": lambda f: ["train", "--config", cfg, "--data", f, "--out", os.path.join(T, "o.safetensors")],
    "train --dev": lambda f: ["train", "--config", cfg, "--data", txt, "--dev", f, "--out", os.path.join(T, "o.safetensors")],
    "train --init": lambda f: ["train", "--init", f, "--data", txt, "--out", os.path.join(T, "o.safetensors")],
    "eval --data": lambda f: ["eval", "--model", small, "--data", f],
    "analyze --data": lambda f: ["analyze", "--model", small, "--data", f],
    "tokenize --file": lambda f: ["tokenize", "--model", small, "--file", f],
    "bleu --hyp": lambda f: ["bleu", "--hyp", f, "--ref", txt],
    "bleu --ref": lambda f: ["bleu", "--hyp", txt, "--ref", f],
    "render --probe": lambda f: ["render", "--probe", f, "--out", os.path.join(T, "o.svg")],
    "render --prune": lambda f: ["render", "--prune", f, "--out", os.path.join(T, "o.svg")],
    "render --sentences": lambda f: ["render", "--model", small, "--sentences", f, "--show", "offset-profile", "--out", os.path.join(T, "o.svg")],
    "bench forward --config": lambda f: ["bench", "forward", "--config", f],
}
for name, mk in readers.items():
    for kind, f in [("FIFO", fifo), ("/dev/zero", "/dev/zero"), ("directory", T)]:
        run("Special files (FIFO, /dev/zero, dir) for every reader", f"{name} {kind}", mk(f), timeout=10)

# 8. sparse 4 GiB checkpoints
for name, head in [("bad-json", struct.pack("<Q", 16) + b'{"a": nope     '),
                   ("huge-N", struct.pack("<Q", 1 << 40)),
                   ("offsets-short", None)]:
    p = os.path.join(T, "sparse.safetensors")
    with open(p, "wb") as fh:
        if head is None:
            h = json.dumps({"__metadata__": {"format": "attnviz"}, "w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}).encode()
            h += b" " * (-len(h) % 8)
            head = struct.pack("<Q", len(h)) + h
        fh.write(head); fh.truncate((4 << 30) - 4096)
    t0 = time.time()
    run("Sparse 4 GiB checkpoints", name, ["info", "--model", p], timeout=10)
    results["Sparse 4 GiB checkpoints"][-1] = results["Sparse 4 GiB checkpoints"][-1][:4] + (time.time() - t0,)
    os.unlink(p)

# 9. /dev/full for every command
out = os.path.join(T, "o2.safetensors")
for args in [["--help"], ["--version"], ["init", "--config", cfg, "--out", out], ["attention", "--model", small, "--text", "a b"],
             ["info", "--model", small], ["info", "--model", small, "--json"], ["analyze", "--model", small, "--text", "a b"],
             ["eval", "--model", small, "--task", "copy", "--count", "3"], ["bleu", "--hyp", txt, "--ref", txt],
             ["variants"], ["presets"], ["tokenize", "--model", small, "--text", "a"], ["examples", "--task", "copy", "--count", "100000"],
             ["train", "--config", cfg, "--task", "copy", "--steps", "1", "--out", out], ["bench", "gemm", "--config", cfg, "--batch-size", "1"],
             ["render", "--model", small, "--text", "a", "--out", os.path.join(T, "r.svg")]]:
    with open("/dev/full", "w") as full:
        run("Standard output on /dev/full", " ".join(args[:2]), args, stdout=full, timeout=60)
    r = results["Standard output on /dev/full"][-1]
    results["Standard output on /dev/full"][-1] = (r[0], r[2] == 1 and "No space left" in r[3]) + r[2:]

# 10. probe files
good_probe = {"format": "attnviz-probe", "version": 1, "model": "m", "every": 1, "probe": {"source": "a b", "target": "c"},
              "snapshots": [{"step": 0, "dump": {"source": {"text": "a b", "tokens": ["a", "b"], "ids": [4, 5]},
                  "target": {"text": "c", "tokens": ["<bos>", "c"], "ids": [2, 6]},
                  "blocks": [{"name": "e", "kind": "encoder_self", "layer": 0, "variant": "dot", "heads": 1, "weights": [[[0.5, 0.5], [0.25, 0.75]]]}]}}]}
s = json.dumps(good_probe)
for name, text in [("weight 1e39", s.replace("0.25", "1e39")), ("weight -1e39", s.replace("0.25", "-1e39")),
                   ("weight 1e999", s.replace("0.25", "1e999")), ("weight string", s.replace("0.25", '"x"')),
                   ("weight null", s.replace("0.25", "null")), ("step 3e9", s.replace('"step": 0', '"step": 3000000000')),
                   ("step 3e9 float", s.replace('"step": 0', '"step": 3e9')), ("loss 1e39", s.replace('"ids": [2, 6]}', '"ids": [2, 6]}, "loss": 1e39')),
                   ("kind long", s.replace('"encoder_self"', json.dumps("k" * 1_000_000))), ("rows unequal", s.replace("[0.25, 0.75]", "[0.25]"))]:
    p = os.path.join(T, "p.probe.json"); open(p, "w").write(text)
    run("Probe files", name, ["render", "--probe", p, "--out", os.path.join(T, "o.svg")], expect_ok=None if name == "loss 1e39" else False)

# 11. flags
for name, args in [("--size nanxnan", ["render", "--model", small, "--text", "a", "--size", "nanxnan", "--out", os.path.join(T, "o.svg")]),
                   ("--size infxinf", ["render", "--model", small, "--text", "a", "--size", "infxinf", "--out", os.path.join(T, "o.svg")]),
                   ("--seed 2^64", ["init", "--config", cfg, "--seed", "18446744073709551616", "--out", out]),
                   ("--seed 10^30", ["init", "--config", cfg, "--seed", "1" + "0" * 30, "--out", out]),
                   ("--steps -1", ["train", "--config", cfg, "--task", "copy", "--steps", "-1", "--out", out]),
                   ("--vocab-size 300000 sp", ["train", "--config", cfg, "--data", txt, "--tokenizer", "sentencepiece", "--vocab-size", "300000", "--out", out]),
                   ("analyze empty data", ["analyze", "--model", small, "--data", os.path.join(T, "empty.tsv")])]:
    open(os.path.join(T, "empty.tsv"), "w").write("\n\n")
    run("Flags and messages", name, args)

total = clean = 0
print("| surface | tried | clean |\n|---|---|---|")
for cat, rows in results.items():
    c = sum(1 for r in rows if r[1])
    total += len(rows); clean += c
    print(f"| {cat} | {len(rows)} | {c} |")
print(f"| **all** | {total} | {clean} |")
for cat, rows in results.items():
    for r in rows:
        if not r[1]:
            print("NOT CLEAN:", cat, r[0], r[2], r[3][:160], f"{r[4]:.1f}s")
slow = [(cat, r[0], r[4]) for cat, rows in results.items() for r in rows if r[4] > 5]
print("slow:", slow)
import shutil
shutil.rmtree(T, ignore_errors=True)
sys.exit(0 if clean == total else 1)
