#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""python3 -m attnviz_torch.train against bad requests and interruptions (issue 27, items
17-20).

Usage: twin_train_test.py CLI   (CTest passes attnviz-cli, which makes the initial models)

17. --out equal to --data, --init or --config (also through a symbolic link) is refused and
    the input is left as it was.
18. A --save-every run killed at random moments (SIGKILL and SIGTERM, 10 times): the
    checkpoint and the training state either belong together (same step, the state names the
    checkpoint's bytes) and --resume continues, or --resume refuses with a message; a pair
    put together from two runs is refused; no temporary file is left (SIGTERM: at once;
    SIGKILL: after the next write).
19. --lr 1e30 is refused before training (attnviz-cli train's rule); a run whose loss stops
    being finite stops with a message and leaves the last good checkpoint as it was.
20. --resume never unpickles: a training state that is a pickle which would create a file is
    refused, and the file is not created (as the old .trainstate.pt or the new .trainstate).
"""
import json
import os
import pickle
import random
import signal
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/attnviz-cli")
ENV = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), OMP_NUM_THREADS="1", ATTNVIZ_CLI=CLI)
CONFIG = os.path.join(ROOT, "tests/data/configs/dot_post_nobias_untied.json")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def train_cmd(*args):
    return [sys.executable, "-m", "attnviz_torch.train", "--log-every", "0", *args]


def train(*args):
    return subprocess.run(train_cmd(*args), env=ENV, capture_output=True, text=True)


def one_line_error(r):
    """The run failed with a message and no traceback."""
    return r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip() != ""


def bytes_of(p):
    return open(p, "rb").read()


def meta_of(path):
    raw = bytes_of(path)
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]).get("__metadata__", {})


def temporaries(d):
    return [f for f in os.listdir(d) if ".tmp-" in f or f.endswith(".tmp")]


class Boom:
    """A pickle that creates a file when unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def outputs_equal_inputs(tmp, data):
    first = os.path.join(tmp, "first.safetensors")
    r = train("--config", CONFIG, "--data", data, "--steps", "2", "--batch-size", "4", "--out", first)
    check(r.returncode == 0, f"a small run from --data trains ({r.stderr.strip()[-200:]})")
    before = bytes_of(data)
    r = train("--config", CONFIG, "--data", data, "--steps", "1", "--out", data)
    check(one_line_error(r) and "same file as the input --data" in r.stderr and bytes_of(data) == before,
          f"--out equal to --data is refused, the data unchanged: {r.stderr.strip()[-160:]}")
    link = os.path.join(tmp, "link.tsv")
    os.symlink(data, link)
    r = train("--config", CONFIG, "--data", data, "--steps", "1", "--out", link)
    check(one_line_error(r) and bytes_of(data) == before,
          f"--out a symbolic link to --data is refused: {r.stderr.strip()[-160:]}")
    rel = os.path.relpath(data, os.getcwd())
    r = train("--config", CONFIG, "--data", rel, "--steps", "1", "--out", os.path.join(tmp, ".", os.path.basename(data)))
    check(one_line_error(r) and bytes_of(data) == before, f"--out spelled differently from --data is refused: "
                                                          f"{r.stderr.strip()[-120:]}")
    m = bytes_of(first)
    r = train("--init", first, "--data", data, "--steps", "1", "--out", first)
    check(one_line_error(r) and "same file as the input --init" in r.stderr and bytes_of(first) == m,
          f"--init M --out M is refused, M unchanged: {r.stderr.strip()[-160:]}")
    cfg = os.path.join(tmp, "c.json")
    open(cfg, "w").write(open(CONFIG).read())
    r = train("--config", cfg, "--data", data, "--steps", "1", "--out", cfg)
    check(one_line_error(r) and "same file as the input --config" in r.stderr, "--out equal to --config is refused")
    return first


def divergence(tmp, data, good):
    out = os.path.join(tmp, "lr.safetensors")
    r = train("--config", CONFIG, "--data", data, "--steps", "3", "--lr", "1e30", "--out", out)
    check(one_line_error(r) and "--lr must be a positive finite number" in r.stderr and not os.path.exists(out),
          f"--lr 1e30 is refused before training, nothing written: {r.stderr.strip()[-120:]}")
    # A model whose weights are finite but so large that the loss overflows: the run stops
    # at its first step and the last good checkpoint (here: a copy of a trained one) stays.
    import numpy as np
    raw = bytearray(bytes_of(good))
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    for name, e in header.items():
        if name.endswith("linear1.weight"):
            b, end = e["data_offsets"]
            arr = np.frombuffer(bytes(raw[8 + n + b:8 + n + end]), "<f4") * np.float32(3e37)
            raw[8 + n + b:8 + n + end] = arr.astype("<f4").tobytes()
    huge = os.path.join(tmp, "huge.safetensors")
    open(huge, "wb").write(bytes(raw))
    last = os.path.join(tmp, "last-good.safetensors")
    open(last, "wb").write(bytes_of(good))
    before = bytes_of(last)
    r = train("--init", huge, "--data", data, "--steps", "4", "--save-every", "1", "--out", last)
    check(one_line_error(r) and "not finite" in r.stderr and bytes_of(last) == before and not temporaries(tmp),
          f"a diverging run stops with a message, the last good checkpoint unchanged: {r.stderr.strip()[-200:]}")


def no_pickle(tmp, data, first):
    out = os.path.join(tmp, "p.safetensors")
    r = train("--config", CONFIG, "--data", data, "--steps", "4", "--batch-size", "4", "--stop-after", "2", "--out", out)
    check(r.returncode == 0 and os.path.exists(out + ".trainstate"), "a stopped run leaves M.trainstate")
    pwned = os.path.join(tmp, "PWNED")
    for name in (".trainstate.pt", ".trainstate"):
        if name == ".trainstate.pt":
            os.rename(out + ".trainstate", os.path.join(tmp, "saved.trainstate"))
        with open(out + name, "wb") as f:
            pickle.dump({"step": 2, "optimizer": Boom(pwned)}, f)
        r = train("--config", CONFIG, "--data", data, "--steps", "4", "--batch-size", "4", "--resume", "--out", out)
        check(one_line_error(r) and not os.path.exists(pwned),
              f"--resume with a malicious pickle as {name}: refused, nothing executed: {r.stderr.strip()[-160:]}")
        os.unlink(out + name)


def mismatch(tmp, data):
    a = os.path.join(tmp, "a.safetensors")
    b = os.path.join(tmp, "b.safetensors")
    for p, stop in ((a, "2"), (b, "3")):
        r = train("--config", CONFIG, "--data", data, "--steps", "6", "--batch-size", "4", "--stop-after", stop, "--out", p)
        check(r.returncode == 0, f"a run stopped after {stop} steps")
    os.replace(b, a)  # the checkpoint of step 3 beside the state of step 2
    r = train("--config", CONFIG, "--data", data, "--steps", "6", "--batch-size", "4", "--resume", "--out", a)
    check(one_line_error(r) and "belongs to step 2" in r.stderr,
          f"a checkpoint and a training state of different steps are refused: {r.stderr.strip()[-200:]}")


def kill_loop(tmp, data, kills=10):
    rng = random.Random(18)
    out = os.path.join(tmp, "k.safetensors")
    args = ["--config", CONFIG, "--data", data, "--steps", "100000", "--batch-size", "2", "--save-every", "1",
            "--held-out", "1", "--dropout", "0", "--out", out]
    r = train(*args, "--stop-after", "1")
    check(r.returncode == 0, f"the kill loop's run starts ({r.stderr.strip()[-200:]})")
    counts = {"matched": 0, "refused": 0, "bad": 0}
    for k in range(kills):
        sig = signal.SIGKILL if k % 2 else signal.SIGTERM
        p = subprocess.Popen(train_cmd(*args, "--resume"), env=ENV, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(1.5, 4.0))  # torch's import takes ~1 s: then a save every step
        p.send_signal(sig)
        _, err = p.communicate()
        if sig == signal.SIGTERM and temporaries(tmp):
            counts["bad"] += 1
            print(f"     SIGTERM left {temporaries(tmp)}")
        if "Traceback" in err and sig == signal.SIGTERM and "SystemExit" not in err:
            print(f"     SIGTERM: {err.strip()[-300:]}")
        state = meta_of(out + ".trainstate")
        steps = json.loads(meta_of(out).get("training", "{}")).get("steps")
        together = state.get("step") == str(steps)
        r = train(*args, "--resume", "--stop-after", "1")
        if together and r.returncode == 0:
            counts["matched"] += 1
        elif not together and one_line_error(r) and "belongs to step" in r.stderr:
            counts["refused"] += 1
            # the pair is out of step: start again from the checkpoint alone
            os.unlink(out + ".trainstate")
            os.unlink(out)
            train(*args, "--stop-after", "1")
        else:
            counts["bad"] += 1
            print(f"     kill {k}: state step {state.get('step')}, checkpoint {steps}, resume rc {r.returncode}: "
                  f"{r.stderr.strip()[-300:]}")
    left = temporaries(tmp)
    check(counts["bad"] == 0 and not left,
          f"{kills} kills during --save-every 1 (SIGKILL and SIGTERM): {counts} (refused = a pair out of step "
          f"that --resume refused), temporary files left: {left}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "d.tsv")
        words = "the cat sat on a mat and dog saw it".split()
        rng = random.Random(1)
        with open(data, "w") as f:
            for _ in range(60):
                s = " ".join(rng.choice(words) for _ in range(rng.randint(2, 6)))
                f.write(f"{s}\t{s}\n")
        first = outputs_equal_inputs(tmp, data)
        divergence(tmp, data, first)
        no_pickle(tmp, data, first)
        mismatch(tmp, data)
        kill_loop(tmp, data)
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all passed")


if __name__ == "__main__":
    main()
