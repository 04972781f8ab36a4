#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/converge_runner.py's parking (docs/training.md, "Runs longer than a session"): an
unfinished run's state and logs go into the parked folder and come back into a fresh clone's
WORK; the copy that went further wins both ways; a run trained but not scored stays parked;
a written cell removes its parked files; keep_models carries finished checkpoints only.
No attnviz-cli: the files are stand-ins, the logic is what is tested."""
import dataclasses
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
loader = importlib.machinery.SourceFileLoader("experiment_photos", os.path.join(ROOT, "scripts", "experiment-photos"))
spec = importlib.util.spec_from_loader(loader.name, loader)
photos = importlib.util.module_from_spec(spec)
loader.exec_module(photos)
cr = photos.converge_runner
failures = []


def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(d, stem, last_step, state=b"state"):
    """A stand-in unfinished run in `d`: its state and a log reaching `last_step`."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, stem + ".state.safetensors"), "wb") as f:
        f.write(state)
    with open(os.path.join(d, stem + ".log0.jsonl"), "w") as f:
        for step in range(30, last_step + 1, 30):
            for progress in range(step - 29, step):  # the per-step progress lines between evaluations
                f.write(json.dumps({"step": progress, "loss": 1.0}) + "\n")
            f.write(json.dumps({"step": step, "held_out": {"token_accuracy": 0.5, "loss": 1.0}}) + "\n")
        f.write(json.dumps({"step": last_step + 3, "loss": 1.0}) + "\n")  # stopped after it
        f.write('{"step": 99999, "cut')  # a line cut by an interruption is ignored


def read(d, f):
    with open(os.path.join(d, f), "rb") as fh:
        return fh.read()


with tempfile.TemporaryDirectory() as tmp:
    p = dataclasses.replace(photos.STEM, work=os.path.join(tmp, "work"), out=os.path.join(tmp, "out"),
                            parked_at=os.path.join(tmp, "parked"))
    os.makedirs(p.path(p.out))
    work, parked = p.path(p.work), p.parked
    a, b = "01-dot-lr1e-3-s1", "02-dense-lr1e-3-s2"
    run(work, a, 120, b"a at 120")
    check("a cut line does not count as a step", cr.logged_step(work, a) == 123)
    check("park lists the unfinished run", cr.park(p) == [a])
    with open(os.path.join(parked, a + ".log0.jsonl")) as f:
        kept = f.read().splitlines()
    check("the parked log keeps the evaluations and the last line only",
          len(kept) == 5 and cr.logged_step(parked, a) == 123 and
          cr.curve(p, os.path.join(parked, a)) == cr.curve(p, os.path.join(work, a)))
    check("its state and log are parked", sorted(os.listdir(parked)) ==
          sorted([a + ".state.safetensors", a + ".log0.jsonl", "models"]))
    # A fresh clone: no WORK.
    fresh = dataclasses.replace(p, work=os.path.join(tmp, "work2"))
    os.makedirs(fresh.path(fresh.work))
    cr.unpark(fresh, a)
    check("a fresh clone takes the parked run back",
          read(fresh.path(fresh.work), a + ".state.safetensors") == b"a at 120")
    # A clone whose build/ is older than the parked run: the parked one wins, both ways.
    old = dataclasses.replace(p, work=os.path.join(tmp, "work3"))
    run(old.path(old.work), a, 60, b"a at 60")
    cr.park(old)
    check("park does not put an older run over a parked one that went further",
          read(parked, a + ".state.safetensors") == b"a at 120")
    cr.unpark(old, a)
    check("unpark replaces an older WORK copy with the parked one",
          read(old.path(old.work), a + ".state.safetensors") == b"a at 120")
    # A newer WORK copy is kept and parked.
    run(work, a, 150, b"a at 150")
    cr.unpark(p, a)
    check("unpark keeps a WORK copy that went further", read(work, a + ".state.safetensors") == b"a at 150")
    cr.park(p)
    check("park carries the further copy", read(parked, a + ".state.safetensors") == b"a at 150")
    # Trained but not scored: still parked (its state ends the run at once next time).
    run(work, b, 90, b"b done")
    with open(os.path.join(work, b + ".safetensors"), "wb") as f:
        f.write(b"b model")
    cr.park(p)
    check("a run trained but not scored stays parked", os.path.exists(os.path.join(parked, b + ".state.safetensors")))
    check("keep_models waits for the cell", not os.path.exists(os.path.join(parked, "models", b + ".safetensors")))
    # Its cell written: its parked files go, its checkpoint is kept (keep_models).
    with open(os.path.join(p.path(p.out), b + ".json"), "w") as f:
        f.write("{}")
    cr.park(p)
    check("a written cell removes the run's parked files", cr.run_files(parked, b) == [])
    check("keep_models carries the finished checkpoint",
          read(os.path.join(parked, "models"), b + ".safetensors") == b"b model")
    check("and no state or partial checkpoint", sorted(os.listdir(os.path.join(parked, "models"))) ==
          [b + ".safetensors"])
    check("the other run is still parked", os.path.exists(os.path.join(parked, a + ".state.safetensors")))

# --bundle: each model's first seed at the rate chosen on validation, from the kept checkpoints.
with tempfile.TemporaryDirectory() as tmp:
    p = dataclasses.replace(photos.STEM, names=["01-dot", "02-dense"], work=os.path.join(tmp, "work"),
                            out=os.path.join(tmp, "out"), parked_at=os.path.join(tmp, "parked"))
    os.makedirs(p.path(p.out))
    kept = os.path.join(p.parked, "models")
    os.makedirs(kept)
    for name, nn, accs in (("01-dot", 1, (0.5, 0.6)), ("02-dense", 2, (0.7, 0.4))):
        for lr, acc in zip(p.lrs, accs):
            stem = f"{name}-lr{lr}-s{nn}"
            with open(os.path.join(p.path(p.out), stem + ".json"), "w") as f:
                json.dump({"name": name, "seed": nn, "lr": float(lr), "role": "rate search",
                           "validation": {"token_accuracy": acc}}, f)
            with open(os.path.join(kept, stem + ".safetensors"), "w") as f:
                f.write(stem)
    out = os.path.join(tmp, "set")
    check("--bundle copies every model's chosen first seed", cr.bundle(p, out) is None)
    check("the rate chosen on validation: 2e-3 for dot, 1e-3 for dense",
          [read(out, f).decode() for f in ("01-dot.safetensors", "02-dense.safetensors")] ==
          ["01-dot-lr2e-3-s1", "02-dense-lr1e-3-s2"])
    os.remove(os.path.join(kept, "02-dense-lr1e-3-s2.safetensors"))
    err = cr.bundle(p, os.path.join(tmp, "set2"))
    check("--bundle refuses, naming the model whose checkpoint is gone",
          err is not None and "02-dense (no checkpoint kept)" in err and not os.path.exists(os.path.join(tmp, "set2")))

# The test metric's curve (train --watch-test logs "test" beside "held_out"): read from the logs
# of every attempt like the validation curve, and only where it was logged; the figure of test
# curves takes only the cells that have one.
with tempfile.TemporaryDirectory() as tmp:
    p = dataclasses.replace(photos.STEM, names=["01-dot", "02-dense"], work=os.path.join(tmp, "work"),
                            out=os.path.join(tmp, "out"), parked_at=os.path.join(tmp, "parked"))
    base = os.path.join(tmp, "01-dot-lr1e-3-s1")
    with open(base + ".log0.jsonl", "w") as f:  # before the test set was watched
        f.write(json.dumps({"step": 30, "held_out": {"token_accuracy": 0.25, "loss": 2.0}}) + "\n")
    with open(base + ".log1.jsonl", "w") as f:  # resumed with --watch-test
        f.write(json.dumps({"step": 45, "loss": 1.0}) + "\n")
        f.write(json.dumps({"step": 60, "held_out": {"token_accuracy": 0.5, "loss": 1.5},
                            "test": {"token_accuracy": 0.375, "loss": 1.75}}) + "\n")
    check("the validation curve has both evaluations",
          cr.curve(p, base) == [{"step": 30, "accuracy": 0.25, "loss": 2.0},
                                {"step": 60, "accuracy": 0.5, "loss": 1.5}])
    check("the test curve only the watched one, with the test values",
          cr.curve(p, base, "test") == [{"step": 60, "accuracy": 0.375, "loss": 1.75}])
    os.makedirs(p.path(p.out))
    for name, nn, lr, test_curve in (("01-dot", 1, "1e-3", [{"step": 30, "accuracy": 0.5, "loss": 1}]),
                                     ("01-dot", 1, "2e-3", []), ("02-dense", 2, "1e-3", []),
                                     ("02-dense", 2, "2e-3", [])):
        with open(os.path.join(p.path(p.out), f"{name}-lr{lr}-s{nn}.json"), "w") as f:
            json.dump({"name": name, "seed": nn, "lr": float(lr), "role": "rate search",
                       "validation": {"token_accuracy": 0.5},
                       "validation_curve": [{"step": 30, "accuracy": 0.5, "loss": 1}],
                       "test_curve": test_curve}, f)
    val, test = cr.curves_json(p), cr.curves_json(p, "test_curve")
    check("the validation figure has dense's chart", len(val["charts"]) == 1)
    check("the test figure has none: dense watched nothing", test["charts"] == [])
    check("the test figure says test, and that it was watched",
          "test" in test["y_label"] and "validation" not in test["y_label"] and "(watched)" in test["title"])

with tempfile.TemporaryDirectory() as tmp:  # two runners sharing WORK: a run is trained by one
    import fcntl
    p = dataclasses.replace(photos.STEM, work=os.path.join(tmp, "work"), out=os.path.join(tmp, "out"),
                            parked_at=os.path.join(tmp, "parked"))
    os.makedirs(p.path(p.out))
    os.makedirs(p.path(p.work))
    cli = os.path.join(tmp, "no-cli")  # a run started here would fail: nothing may start
    with open(os.path.join(p.path(p.work), "01-dot-lr2e-3-s101.lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what the other runner holds while it trains
        check("a seed another runner trains is skipped", cr.cell(p, cli, "01-dot", "2e-3", 101, "seed") is None)
        with open(cr.cell_path(p, "01-dot", "2e-3", 101), "w") as f:  # it finishes
            json.dump({"name": "01-dot", "seed": 101}, f)
    check("once written, the cell is read, not trained",
          cr.cell(p, cli, "01-dot", "2e-3", 101, "seed") == {"name": "01-dot", "seed": 101})
    failed = False
    try:
        cr.cell(p, cli, "02-dense", "2e-3", 102, "seed")  # nobody holds it: this runner trains it
    except (OSError, subprocess.CalledProcessError, SystemExit):
        failed = True
    check("a free seed is trained (here: its missing program fails)", failed)

sys.exit(1 if failures else 0)
