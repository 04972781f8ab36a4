#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch twin on image models, its training-state file and --vocab-size (issue 48,
items 7 and 9, and the audit of the twin's commands for tracebacks).

Usage: twin_state_test.py [CLI]   (CTest passes attnviz-cli; without it the engine's dump of
                                   part 2 is not compared)

1. The training state (M.safetensors.trainstate), the class: from a valid state of each
   optimiser (AdamW, SGD), every metadata key removed and given values of the wrong form or
   range, every per-parameter entry removed (a parameter's step, exp_avg, exp_avg_sq,
   momentum_buffer), of the wrong type, shape, sign or range, unknown or misspelt: each is
   refused by trainstate.load with an InputError naming the file (never KeyError,
   ValueError or AttributeError, and never an optimiser step that fails later); the
   valid state loads and steps. Through `python3 -m attnviz_torch.train --resume` a state
   without a step, and a checkpoint whose training metadata is null: one line, exit code 1.
2. Image models (arch "vit"): `attention` with --text, with nothing, with --image, and
   with --fashion-mnist on a text model is refused by name; --fashion-mnist K dumps the
   image as `attnviz-cli attention --fashion-mnist K` does (pixels, prediction exactly,
   numbers within 1e-5); hostile Fashion-MNIST files (ATTNVIZ_FASHION_MNIST) are refused
   with one line; `train --resume` on an image model is refused by name.
3. --vocab-size below 5 (-1, 0, 1, 2, 3, 4: a vocabulary of the special tokens alone) is
   refused with "must be at least 5" (exit code 2, as the other option rules); 5 is
   accepted; with --tokenizer sentencepiece, 299 and 262145 are refused.
4. Environment: WORLD_SIZE, OMP_NUM_THREADS that are not integers give one line, no
   traceback. --seed 2^64 - 1 (accepted, as by attnviz-cli) trains: its derived seeds
   overflowed torch's manual_seed. --init M --data F trains without attnviz-cli, as
   docs/scale-out.md says (it called the CLI).

Set ATTNVIZ_TORCH_PATH to test another copy of the package (e.g. the previous commit's).
"""
import contextlib
import gzip
import io
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PKG = os.environ.get("ATTNVIZ_TORCH_PATH", os.path.join(ROOT, "python"))
sys.path.insert(0, PKG)
import torch  # noqa: E402
from attnviz_torch import config as cfgmod  # noqa: E402
from attnviz_torch import trainstate, train  # noqa: E402
from attnviz_torch.checkpoint import write_checkpoint  # noqa: E402
from attnviz_torch.limits import InputError  # noqa: E402
from attnviz_torch.model import AttnvizModel  # noqa: E402

CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/attnviz-cli")
HAVE_CLI = os.path.exists(CLI)
ENV = dict(os.environ, PYTHONPATH=PKG, OMP_NUM_THREADS="1", ATTNVIZ_CLI=CLI if HAVE_CLI else "/nonexistent")
MODEL = os.path.join(ROOT, "tests/fuzz/corpus/checkpoint/mixture.safetensors")
FASHION = os.environ.get("ATTNVIZ_FASHION_MNIST", "/usr/share/datasets/fashion-mnist")
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(module, *args, env=None):
    return subprocess.run([sys.executable, "-m", f"attnviz_torch.{module}", *args], env=env or ENV,
                          capture_output=True, text=True, timeout=600)


def one_line(r, rc=1):
    lines = r.stderr.strip().splitlines()
    return r.returncode == rc and len(lines) == 1 and "Traceback" not in r.stderr


# -- 1. the training state ----------------------------------------------------------------------

def read_state(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    return header, raw[8 + n:]


def write_state(path, header, data):
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + data)


def optimizer_of(model, name):
    params = [p for p in model.parameters() if p.requires_grad]
    if name == "adam":
        return params, torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    return params, torch.optim.SGD(params, lr=1e-3)


def valid_pair(tmp, name):
    """A checkpoint at step 3 and its training state after 3 optimiser steps."""
    model = AttnvizModel.from_checkpoint(MODEL)
    params, opt = optimizer_of(model, name)
    for _ in range(3):
        opt.zero_grad()
        sum((p * p).sum() for p in params).backward()
        opt.step()
    out = os.path.join(tmp, f"{name}.safetensors")
    trainstate.save_pair(out, model.checkpoint_chunks({"kind": "trained", "steps": 3}), opt, name, 3)
    return out


def load_verdict(out, name):
    """'refused: message', 'loaded' (and an optimiser step worked) or 'crashed: exception'."""
    model = AttnvizModel.from_checkpoint(out)
    params, opt = optimizer_of(model, name)
    try:
        trainstate.load(out, opt, name, 3)
    except InputError as e:
        return "refused: " + str(e)
    except Exception as e:  # noqa: B902 -- any other escape is what this test looks for
        return f"crashed: {type(e).__name__}: {e}"[:200]
    try:
        opt.zero_grad()
        sum((p * p).sum() for p in params).backward()
        opt.step()
    except Exception as e:  # noqa: B902
        return f"crashed at the next step: {type(e).__name__}: {e}"[:200]
    return "loaded"


def state_mutations(header, name):
    """(what, new header, data change) for every key of the state: each one is invalid."""
    meta = header["__metadata__"]
    scalars = json.loads(meta["scalars"])
    tensors = sorted(k for k in header if k != "__metadata__")
    out = []

    def with_meta(**kv):
        h = json.loads(json.dumps(header))
        for k, v in kv.items():
            if v is None:
                del h["__metadata__"][k]
            else:
                h["__metadata__"][k] = v
        return h

    for key in ("format", "version", "step", "optimizer", "checkpoint_sha256", "scalars"):
        out.append((f"metadata '{key}' missing", with_meta(**{key: None})))
    for v in ("", "-1", "x", "3.0", "²", "٣", "9" * 5000, " 3", "3 "):
        out.append((f"step {v[:12]!r}", with_meta(step=v)))
    out.append(("optimizer of another kind", with_meta(optimizer="adam" if name == "sgd" else "sgd")))
    out.append(("optimizer 'lion'", with_meta(optimizer="lion")))
    for v in ("", "0" * 64, "X" * 64, meta["checkpoint_sha256"][:-1], meta["checkpoint_sha256"].upper()):
        out.append((f"checkpoint_sha256 {v[:12]!r}…", with_meta(checkpoint_sha256=v)))
    for v in ("", "[]", "null", "3", "{", '{"a":1,"a":2}', "[" * 100 + "]" * 100):
        out.append((f"scalars {v[:12]!r}", with_meta(scalars=v)))

    def with_scalars(sc):
        return with_meta(scalars=json.dumps(sc))
    first = sorted(scalars, key=lambda k: int(k.split(".")[0]))[0]
    idx = first.split(".")[0]
    for k in scalars:
        # (a parameter whose state is empty never had a gradient: valid; SGD's only entry)
        if k.startswith(idx + ".") and name == "adam":
            sc = dict(scalars)
            del sc[k]
            out.append((f"scalar '{k}' missing (a parameter's state without it)", with_scalars(sc)))
    bad_values = [{"value": "3"}, {"value": True}, {"value": [1]}, {"value": 10 ** 400}, {"value": -1},
                  {"value": 1.5}, {"value": 4}, {}, "x", None, [], {"value": 1, "tensor": "I64"},
                  {"value": 1, "tensor": 5}, {"value": 1, "extra": 2}]
    if name == "adam":
        bad_values.append({"value": 1})  # a step that is not a tensor
    else:
        bad_values.append({"value": 0})  # a momentum buffer that is a count
    for v in bad_values:
        sc = dict(scalars)
        sc[first] = v
        out.append((f"scalar '{first}' = {json.dumps(v)[:40]}", with_scalars(sc)))
    for k in (f"{idx}.bogus", "00.step" if name == "adam" else "00.momentum_buffer", "999999.step", "x.step",
              "step", "", "-1.step", "1e3.step", "٣.step"):
        sc = dict(scalars)
        sc[k] = {"value": 1, "tensor": "F32"}
        out.append((f"unknown scalar {k!r}", with_scalars(sc)))
    for t in tensors:
        if t.startswith(idx + "."):
            h = json.loads(json.dumps(header))
            e = h.pop(t)
            # keep the data section covered: rename the entry instead of removing its bytes
            h[f"{idx}.bogus"] = e
            out.append((f"tensor '{t}' renamed to '{idx}.bogus'", h))
            h = json.loads(json.dumps(header))
            h[t]["shape"] = [h[t]["shape"][0] * 2] + h[t]["shape"][1:] if h[t]["shape"] else [2]
            out.append((f"tensor '{t}' with the wrong shape", h))
    if name == "adam":
        h = json.loads(json.dumps(header))
        sc = dict(scalars)
        del sc[first]
        h["__metadata__"]["scalars"] = json.dumps(sc)
        out.append(("step as a tensor of its own", (h, "step-tensor", first)))
    return out


def state_data_mutations(header, data, name):
    """(what, header, data) with bad numbers in the tensors."""
    out = []
    tensors = sorted(k for k in header if k != "__metadata__")
    for t in tensors:
        b, e = header[t]["data_offsets"]
        fmt = "<f" if header[t]["dtype"] == "F32" else "<d"
        for what, v in (("NaN", float("nan")), ("infinity", float("inf"))):
            d = bytearray(data)
            d[b:b + struct.calcsize(fmt)] = struct.pack(fmt, v)
            out.append((f"tensor '{t}' holds {what}", header, bytes(d)))
        if t.endswith("exp_avg_sq"):
            d = bytearray(data)
            d[b:b + struct.calcsize(fmt)] = struct.pack(fmt, -1.0)
            out.append((f"tensor '{t}' holds -1 (a mean of squares)", header, bytes(d)))
        break
    return out


def training_state(tmp):
    for name in ("adam", "sgd"):
        out = valid_pair(tmp, name)
        spath = out + ".trainstate"
        header, data = read_state(spath)
        v = load_verdict(out, name)
        check(v == "loaded", f"state ({name}): the valid state loads and the optimiser steps ({v[:120]})")
        results = {"refused": 0, "other": 0}
        cases = []
        for what, h in state_mutations(header, name):
            if isinstance(h, tuple):  # a step moved from the scalars to a 0-d tensor
                h, _, key = h
                h = json.loads(json.dumps(h))
                end = len(data)
                h[key] = {"dtype": "F32", "shape": [], "data_offsets": [end, end + 4]}
                cases.append((what, h, data + struct.pack("<f", 3.0)))
            else:
                cases.append((what, h, data))
        cases += state_data_mutations(header, data, name)
        for what, h, d in cases:
            write_state(spath, h, d)
            v = load_verdict(out, name)
            ok = v.startswith("refused: ") and spath in v
            results["refused" if ok else "other"] += 1
            if not ok:
                print(f"     {name}: {what}: {v[:180]}")
        check(results["other"] == 0,
              f"state ({name}): {len(cases)} invalid states (every metadata key, every per-parameter entry "
              f"missing, of the wrong type, shape, sign or range, unknown): each refused with a message naming "
              f"the file: {results}")
        write_state(spath, header, data)
    # Through the command: a state whose parameter 0 lacks its step, as issue 48 found it.
    out = valid_pair(tmp, "adam")
    header, data = read_state(out + ".trainstate")
    sc = json.loads(header["__metadata__"]["scalars"])
    del sc["0.step"]
    header["__metadata__"]["scalars"] = json.dumps(sc)
    write_state(out + ".trainstate", header, data)
    dpath = os.path.join(tmp, "d.tsv")
    open(dpath, "w").write("the cat sat\tthe cat sat\n" * 40)
    r = run("train", "--resume", "--data", dpath, "--steps", "5", "--batch-size", "2", "--log-every", "0",
            "--out", out)
    check(one_line(r) and "lacks 'step'" in r.stderr,
          f"train --resume: a state whose parameter 0 has no step: one line [rc {r.returncode}: "
          f"{r.stderr.strip()[-160:]}]")
    # A checkpoint whose training metadata is null (the reader accepts it) and its state.
    model = AttnvizModel.from_checkpoint(MODEL)
    model.meta["training"] = "null"
    params, opt = optimizer_of(model, "adam")
    out = os.path.join(tmp, "null.safetensors")
    trainstate.save_pair(out, model.checkpoint_chunks(), opt, "adam", 0)
    r = run("train", "--resume", "--data", dpath, "--steps", "1", "--batch-size", "2", "--log-every", "0",
            "--out", out)
    check("Traceback" not in r.stderr,
          f"train --resume: a checkpoint whose training metadata is null: no traceback [rc {r.returncode}: "
          f"{r.stderr.strip()[-160:]}]")


# -- 2. image models ----------------------------------------------------------------------------

def vit_checkpoint(tmp):
    cfg = cfgmod.resolve({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 2})
    g = torch.Generator().manual_seed(5)
    tensors = {n: torch.randn(shape, generator=g) * 0.2 for n, shape in cfgmod.expected_tensors(cfg, 0, 0).items()}
    meta = {"format": "attnviz", "format_version": "1", "config": json.dumps(cfg), "classes": json.dumps(CLASSES)}
    path = os.path.join(tmp, "vit.safetensors")
    write_checkpoint(path, tensors, meta)
    return path


def idx_bytes(dims, data, kind=0x08):
    return bytes([0, 0, kind, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + data


def hostile_fashion(tmp, vit):
    """ATTNVIZ_FASHION_MNIST pointing at bad files: one line each."""
    images = idx_bytes([2, 28, 28], bytes(2 * 784))
    labels = idx_bytes([2], bytes([1, 2]))
    bomb = gzip.compress(idx_bytes([1], b"") + bytes(300 << 20), 9)
    cases = {
        "no files": {},
        "images truncated": {"t10k-images-idx3-ubyte": images[:-5], "t10k-labels-idx1-ubyte": labels},
        "images of 32-bit floats": {"t10k-images-idx3-ubyte": idx_bytes([1, 28, 28], bytes(784 * 4), 0x0D),
                                    "t10k-labels-idx1-ubyte": labels},
        "images 27×28": {"t10k-images-idx3-ubyte": idx_bytes([2, 27, 28], bytes(2 * 756)),
                         "t10k-labels-idx1-ubyte": labels},
        "one label for two images": {"t10k-images-idx3-ubyte": images,
                                     "t10k-labels-idx1-ubyte": idx_bytes([1], b"\x01")},
        "label 10": {"t10k-images-idx3-ubyte": images, "t10k-labels-idx1-ubyte": idx_bytes([2], b"\x01\x0a")},
        "bytes after the data": {"t10k-images-idx3-ubyte": images + b"x", "t10k-labels-idx1-ubyte": labels},
        "a gzip bomb": {"t10k-images-idx3-ubyte.gz": bomb, "t10k-labels-idx1-ubyte": labels},
        "gzip cut short": {"t10k-images-idx3-ubyte.gz": gzip.compress(images)[:-9], "t10k-labels-idx1-ubyte": labels},
        "gzip and junk after it": {"t10k-images-idx3-ubyte.gz": gzip.compress(images) + b"junk",
                                   "t10k-labels-idx1-ubyte": labels},
        "zero dimensions": {"t10k-images-idx3-ubyte": bytes([0, 0, 8, 0]), "t10k-labels-idx1-ubyte": labels},
        "a dimension of size 0": {"t10k-images-idx3-ubyte": idx_bytes([0, 28, 28], b""),
                                  "t10k-labels-idx1-ubyte": labels},
        "not IDX": {"t10k-images-idx3-ubyte": b"PK\x03\x04", "t10k-labels-idx1-ubyte": labels},
        "index past the end": {"t10k-images-idx3-ubyte": images, "t10k-labels-idx1-ubyte": labels},
    }
    for what, files in cases.items():
        d = os.path.join(tmp, "fm-" + what.replace(" ", "-").replace("×", "x"))
        os.makedirs(d)
        for n, b in files.items():
            open(os.path.join(d, n), "wb").write(b)
        k = "5" if what == "index past the end" else "0"
        r = run("attention", "--model", vit, "--fashion-mnist", k, env=dict(ENV, ATTNVIZ_FASHION_MNIST=d))
        check(one_line(r), f"Fashion-MNIST files: {what}: one line [rc {r.returncode}: {r.stderr.strip()[-150:]}]")


def image_models(tmp):
    vit = vit_checkpoint(tmp)
    for what, args, want in (
            ("--text", ["--text", "hello"], "image model"),
            ("nothing", [], "--fashion-mnist"),
            ("--image", ["--image", os.path.join(tmp, "x.png")], "--image"),
            ("--target", ["--target", "hello"], "image model")):
        r = run("attention", "--model", vit, *args)
        check(one_line(r) and want in r.stderr,
              f"attention on an image model with {what}: refused by name [rc {r.returncode}: {r.stderr.strip()[-150:]}]")
    r = run("attention", "--model", MODEL, "--fashion-mnist", "0")
    check(one_line(r) and "image model" in r.stderr,
          f"attention --fashion-mnist on a text model: refused [rc {r.returncode}: {r.stderr.strip()[-150:]}]")
    r = run("attention", "--model", vit, "--fashion-mnist", "0", "--split", "validation")
    check(one_line(r) and "--split" in r.stderr, f"attention --split validation: refused [{r.stderr.strip()[-100:]}]")
    r = run("attention", "--model", vit, "--fashion-mnist", "60000")
    check(r.returncode == 2 and "Traceback" not in r.stderr, f"attention --fashion-mnist 60000: refused, exit 2 "
                                                             f"[{r.stderr.strip()[-100:]}]")
    if os.path.exists(os.path.join(FASHION, "t10k-images-idx3-ubyte.gz")):
        for k, split in ((0, "test"), (17, "test"), (59999, "train")):
            r = run("attention", "--model", vit, "--fashion-mnist", str(k), "--split", split)
            ok = r.returncode == 0
            worst = None
            if ok and HAVE_CLI:
                e = json.loads(subprocess.run([CLI, "attention", "--model", vit, "--fashion-mnist", str(k), "--split",
                                               split], capture_output=True, text=True, check=True).stdout)
                t = json.loads(r.stdout)
                ok = (t["image"] == e["image"] and t["prediction"] == e["prediction"] and
                      t["classes"] == e["classes"] and len(t["blocks"]) == len(e["blocks"]))
                worst = max([abs(x - y) for x, y in zip(t["logits"], e["logits"])] + [abs(t["loss"] - e["loss"])] +
                            [float((torch.tensor(a["weights"]) - torch.tensor(b["weights"])).abs().max())
                             for a, b in zip(t["blocks"], e["blocks"])])
                ok = ok and worst <= 1e-5
            check(ok, f"attention --fashion-mnist {k} --split {split}: the engine's dump (pixels, label, prediction "
                      f"exactly; max difference {worst}) [{r.stderr.strip()[-120:]}]")
    else:
        print(f"skip: no Fashion-MNIST in {FASHION}")
    hostile_fashion(tmp, vit)
    # train --resume on an image model: refused by name (a state beside it, so --resume reads the model)
    out = os.path.join(tmp, "vit-resume.safetensors")
    open(out, "wb").write(open(vit, "rb").read())
    open(out + ".trainstate", "wb").write(b"")
    dpath = os.path.join(tmp, "d.tsv")
    r = run("train", "--resume", "--data", dpath, "--steps", "2", "--batch-size", "2", "--out", out)
    check(one_line(r) and "image model" in r.stderr,
          f"train --resume on an image model: refused by name [rc {r.returncode}: {r.stderr.strip()[-150:]}]")


# -- 3. --vocab-size ----------------------------------------------------------------------------

def parse_verdict(*args):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            train.parse(["--config", "c.json", "--data", "d.tsv", "--steps", "1", "--out", "o.safetensors", *args])
            return 0, ""
        except SystemExit as e:
            return e.code, err.getvalue()


def vocab_size():
    for v in ("-1", "0", "1", "2", "3", "4"):
        rc, err = parse_verdict("--vocab-size", v)
        check(rc == 2 and "--vocab-size must be at least 5" in err,
              f"train --vocab-size {v}: refused, 'must be at least 5' (exit {rc}: {err.strip()[-90:]})")
    rc, err = parse_verdict("--vocab-size", "5")
    check(rc == 0, f"train --vocab-size 5: accepted (exit {rc} {err.strip()[-80:]})")
    for v in ("299", "262145"):
        rc, err = parse_verdict("--vocab-size", v, "--tokenizer", "sentencepiece")
        check(rc == 2 and "--vocab-size" in err,
              f"train --tokenizer sentencepiece --vocab-size {v}: refused (exit {rc}: {err.strip()[-90:]})")
    rc, err = parse_verdict("--vocab-size", "300", "--tokenizer", "sentencepiece")
    check(rc == 0, f"train --tokenizer sentencepiece --vocab-size 300: accepted (exit {rc})")


# -- 4. the environment -------------------------------------------------------------------------

def environment(tmp):
    dpath = os.path.join(tmp, "d.tsv")
    for var, v in (("WORLD_SIZE", "two"), ("OMP_NUM_THREADS", "x"), ("WORLD_SIZE", "-1")):
        r = run("train", "--init", MODEL, "--data", dpath, "--steps", "1", "--batch-size", "2",
                "--out", os.path.join(tmp, "env.safetensors"), env=dict(ENV, **{var: v}))
        # (the OpenMP runtime itself warns about OMP_NUM_THREADS on a line of its own)
        last = r.stderr.strip().splitlines()[-1:] or [""]
        check(r.returncode == 1 and "Traceback" not in r.stderr and last[0].startswith("attnviz_torch.train: ")
              and var in last[0], f"train with {var}={v}: a message [rc {r.returncode}: {r.stderr.strip()[-120:]}]")


def largest_seed(tmp):
    """--seed is accepted up to 2^64 - 1 (attnviz-cli train's rule): the seeds derived from it
    (batch order, dropout) overflowed torch's manual_seed, a RuntimeError."""
    try:
        train.batch_at([(None, [5])] * 3, 0, 2, (1 << 64) - 1)
        ok, what = True, "made"
    except Exception as e:  # noqa: B902
        ok, what = False, f"{type(e).__name__}: {e}"
    check(ok, f"--seed 2^64 - 1: the batch order is made ({what})")
    if not HAVE_CLI:
        print("skip --seed 2^64 - 1 training run: no attnviz-cli")
        return
    r = run("train", "--config", os.path.join(ROOT, "tests/data/configs/dot_post_nobias_untied.json"), "--data",
            os.path.join(tmp, "d.tsv"), "--steps", "2", "--batch-size", "2", "--log-every", "0",
            "--seed", str((1 << 64) - 1), "--out", os.path.join(tmp, "seed.safetensors"))
    check(r.returncode == 0 and "Traceback" not in r.stderr,
          f"train --seed 2^64 - 1: trains [rc {r.returncode}: {r.stderr.strip()[-160:]}]")


def init_needs_no_cli(tmp):
    """--init M --data F needs no attnviz-cli (docs/scale-out.md): a CLI that fails if called."""
    fake = os.path.join(tmp, "fake-cli")
    open(fake, "w").write("#!/bin/sh\necho the twin called attnviz-cli >&2\nexit 3\n")
    os.chmod(fake, 0o755)
    out = os.path.join(tmp, "from-init.safetensors")
    r = run("train", "--init", MODEL, "--data", os.path.join(tmp, "d.tsv"), "--steps", "2", "--batch-size", "2",
            "--log-every", "0", "--out", out, env=dict(ENV, ATTNVIZ_CLI=fake))
    ok = r.returncode == 0 and os.path.exists(out)
    if ok:
        start, after = AttnvizModel.from_checkpoint(MODEL), AttnvizModel.from_checkpoint(out)
        ok = start.src_vocab == after.src_vocab and start.cfg == after.cfg
    check(ok, f"train --init M --data F: trains without attnviz-cli, M's configuration and vocabularies kept "
              f"[rc {r.returncode}: {r.stderr.strip()[-140:]}]")
    left = [f for f in os.listdir(tmp) if f.startswith("from-init.safetensors.")]
    check(left == ["from-init.safetensors.trainstate"], f"train --init: no temporary file left ({left})")


def main():
    print(f"package: {PKG}; engine: {CLI if HAVE_CLI else 'not built: its dumps are not compared'}")
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        training_state(tmp)
        image_models(tmp)
        vocab_size()
        environment(tmp)
        largest_seed(tmp)
        init_needs_no_cli(tmp)
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all passed")


if __name__ == "__main__":
    main()
