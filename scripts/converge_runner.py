# SPDX-License-Identifier: GPL-3.0-or-later
"""Image experiments trained to a plateau, resumable: the runner behind
scripts/experiment-converge (Fashion-MNIST, issue 50) and scripts/experiment-photos (the
clothing photos, issue 49). A Profile says what differs between them (task, models, rates,
epochs, folders, the results.md section); everything else is one road:

  * every model's first seed (its number NN) is trained at every rate of the profile; the rate
    whose run reaches the best validation accuracy (ties: the smaller rate) is the model's, and
    seeds NN+100, NN+200, … are trained at it. The test split is used for nothing but the
    cells' test numbers;
  * a run is evaluated on the validation split every epoch, keeps the epoch with the best
    validation accuracy (train --select-on accuracy) and stops after `patience` epochs without
    a better one;
  * each cell (OUT/NAME-lrLR-sSEED.json, committed) keeps its test predictions (one digit per
    test image, in order) for paired tests, its validation curve, and how its checkpoint was
    chosen. A finished cell is skipped; a run in progress keeps its state in WORK (train
    --state) and goes on from its last epoch when the runner is started again, with the same
    result as a run never stopped;
  * WORK is under build/, which a fresh clone lacks: --park copies each unfinished run's state,
    logs and timing into experiments/parked/SECTION/ (committed at the end of a session), and
    the runner takes a parked run back into WORK before training it, so the next session's
    clone continues where this one stopped. A finished cell's parked files are removed.

Tables: the rate search and the comparison with dot-product (Welch over seeds, the project's
rule, a paired bootstrap over test images of the seed-averaged correctness, Holm over the
comparisons), written into a section of docs/results.md; figures: each model's validation
curve beside dot-product's (attnviz-cli render --curves).
"""
import argparse
import dataclasses
import fcntl
import glob
import json
import os
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cellstats  # noqa: E402
import doctables  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass
class Measure:
    """What a run is measured by: images by accuracy (shown in %), text by BLEU."""
    val_key: str = "token_accuracy"  # the held-out entry of train's log and of info's training
    curve_key: str = "accuracy"      # a validation curve point's value in a cell
    test_key: str = "test_accuracy"  # the cell's test number
    scale: float = 100               # shown as value × scale
    name: str = "accuracy"           # "accuracy mean ± sample sd over the seeds"
    validation: str = "validation accuracy"  # "the better validation accuracy"
    val_header: str = "validation %"         # the rate search's columns
    val_column: str = "validation accuracy (%)"
    test_column: str = "test accuracy (%)"
    unit: str = "epoch"              # an evaluation interval: "epoch kept"
    items: str = "test images"       # what the paired bootstrap resamples
    bootstrap: str = ("The paired bootstrap resamples the test images (2,000 times) and compares "
                      "each image's correctness averaged over a model's seeds")


@dataclasses.dataclass
class Profile:
    script: str              # "experiment-converge": messages and the generated-by line
    task: str                # train and eval --task
    configs: str             # the configurations' folder, relative to ROOT
    names: list              # the models, dot-product first
    lrs: list                # the rates searched on the first seed, as strings ("1e-3")
    steps_per_epoch: int     # training images / batch
    epochs: int
    patience: int            # epochs without a better validation accuracy
    batch: int
    warmup_epochs: int
    augment: str
    held_out: int            # validation images evaluated every epoch
    out: str                 # finished cells, committed (relative to ROOT)
    work: str                # checkpoints, states and logs (relative to ROOT)
    figs: str                # the validation-curve figures (relative to ROOT)
    section: str             # the section of docs/results.md
    test_images: str         # "the 10,000 test images": for the table's notes
    validation_images: str   # "the last 5,000 training images"
    recipe_doc: str          # where the recipe is documented
    y_label: str
    y_min: float
    first_epoch: int = 3     # curves start here (the first epochs are far below the rest)
    dot_every: int = 5       # seeds as dots every this many epochs
    dropout: str = "0"
    weight_decay: str = "0.05"
    # A reference that is not attention (cells NAME-sSEED.json in this folder, relative to
    # ROOT, with test_predictions and test_labels), shown below the table: (folder, label).
    reference: tuple = None
    measure: Measure = dataclasses.field(default_factory=Measure)
    # Hooks where text differs from images (None: the images' functions of this module):
    # train_args(p, name, lr, seed) -> attnviz-cli's arguments without --state/--log/--out;
    # score(p, cli, model, base) -> the cell's test fields (measure.test_key among them);
    # paired(mine, dot) -> the paired test's p over the test items of the seed-averaged scores.
    # Keep each finished run's checkpoint too (--park copies it into the parked folder's
    # models/): the runs a bundled set will be made of (docs/training.md).
    keep_models: bool = False
    make_train_args: object = None
    score: object = None
    paired: object = None

    def path(self, rel):
        return os.path.join(ROOT, rel)

    parked_at: str = ""  # where parked runs go, relative to ROOT (default experiments/parked/SECTION)

    @property
    def parked(self):
        """Unfinished runs carried from one session's clone to the next (committed)."""
        return os.path.join(ROOT, self.parked_at or os.path.join("experiments", "parked", self.section))

    @property
    def labels_file(self):
        return os.path.join(self.path(self.out), "test-labels.txt")


def train_args(p, name, lr, seed):
    return ["train", "--config", os.path.join(p.path(p.configs), name + ".json"), "--seed", str(seed),
            "--task", p.task, "--steps", str(p.epochs * p.steps_per_epoch),
            "--batch-size", str(p.batch), "--augment", p.augment, "--lr", lr,
            "--warmup", str(p.warmup_epochs * p.steps_per_epoch), "--schedule", "linear",
            "--weight-decay", p.weight_decay, "--dropout", p.dropout, "--label-smoothing", "0.1", "--clip", "1",
            "--threads", "2", "--held-out", str(p.held_out), "--eval-every", str(p.steps_per_epoch),
            "--select-on", "accuracy", "--patience", str(p.patience),
            "--watch-test"]  # the test accuracy's curve (read by no choice: docs/training.md)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def cell_path(p, name, lr, seed):
    return os.path.join(p.path(p.out), f"{name}-lr{lr}-s{seed}.json")


def curve(p, base, entry="held_out"):
    """Validation ("held_out") or test ("test": train --watch-test / --watch) metric and loss
    per evaluated step, from the logs of every attempt. A run started before the test set was
    watched has test points from its resumption on only."""
    points = {}
    k = 0
    while os.path.exists(f"{base}.log{k}.jsonl"):
        with open(f"{base}.log{k}.jsonl") as f:
            for line in f:
                try:
                    j = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by an interruption
                if entry in j and p.measure.val_key in j[entry]:
                    points[j["step"]] = {"step": j["step"], p.measure.curve_key: j[entry][p.measure.val_key],
                                         "loss": j[entry]["loss"]}
        k += 1
    return [points[s] for s in sorted(points)]


def test_labels(p):
    """The test images' labels, one digit per image in order (OUT/test-labels.txt, written with
    the first cell and checked against every later one)."""
    with open(p.labels_file) as f:
        return f.read().strip()


def run_files(directory, stem):
    """An unfinished run's files in `directory`: its state, its logs and its timing."""
    if not os.path.isdir(directory):
        return []
    return sorted(f for f in os.listdir(directory) if f.startswith(stem + ".") and
                  (f.endswith(".state.safetensors") or f.endswith(".jsonl") or f.endswith(".time.json")))


def copy_atomic(src, dst):
    shutil.copyfile(src, dst + ".tmp")
    os.replace(dst + ".tmp", dst)


def logged_step(directory, stem):
    """The last step an unfinished run's logs in `directory` reached (0: none): which of two
    copies of a run, WORK's or the parked one, went further."""
    last = 0
    for f in run_files(directory, stem):
        if f.endswith(".jsonl"):
            with open(os.path.join(directory, f)) as log:
                for line in log:
                    try:
                        last = max(last, int(json.loads(line).get("step", 0)))
                    except (ValueError, AttributeError):
                        continue  # a line cut by an interruption
    return last


def copy_log(src, dst):
    """A run's log as parked: its evaluations (the validation curve) and its last line (how
    far it got), not the progress line of every step (megabytes a run, in every clone)."""
    keep, last = [], None
    with open(src) as f:
        for line in f:
            if '"held_out"' in line:
                keep.append(line)
                continue
            try:
                json.loads(line)
                last = line
            except json.JSONDecodeError:
                continue  # a line cut by an interruption
    if last is not None and (not keep or keep[-1] != last):
        keep.append(last if last.endswith("\n") else last + "\n")
    with open(dst + ".tmp", "w") as f:
        f.writelines(keep)
    os.replace(dst + ".tmp", dst)


def unpark(p, stem):
    """A parked run taken back into WORK, unless WORK's copy went as far or further (a clone
    whose build/ is older than the parked run takes the parked one)."""
    work = p.path(p.work)
    if os.path.exists(os.path.join(work, stem + ".state.safetensors")) and \
            logged_step(work, stem) >= logged_step(p.parked, stem):
        return
    files = run_files(p.parked, stem)
    for f in files:
        copy_atomic(os.path.join(p.parked, f), os.path.join(work, f))
    if files:
        print(f"  {stem}: continuing the run parked in {os.path.relpath(p.parked, ROOT)}",
              file=sys.stderr, flush=True)


def park(p):
    """Every unfinished run's files copied from WORK into the parked folder; a finished cell's
    parked files removed. Returns the runs parked."""
    work, parked = p.path(p.work), []
    os.makedirs(p.parked, exist_ok=True)
    stems = {f[:-len(".state.safetensors")] for d in (work, p.parked) if os.path.isdir(d)
             for f in os.listdir(d) if f.endswith(".state.safetensors")}
    for stem in sorted(stems):
        if os.path.exists(os.path.join(p.path(p.out), stem + ".json")):
            for f in run_files(p.parked, stem):  # its cell is written: nothing left to carry
                os.remove(os.path.join(p.parked, f))
            continue
        # Trained but not scored yet counts as unfinished: its state ends the run at once.
        if logged_step(p.parked, stem) > logged_step(work, stem):
            continue  # the parked copy went further (an older build/ in this clone)
        for f in run_files(work, stem):
            if f.endswith(".jsonl"):
                copy_log(os.path.join(work, f), os.path.join(p.parked, f))
            else:
                copy_atomic(os.path.join(work, f), os.path.join(p.parked, f))
        parked.append(stem)
    if p.keep_models and os.path.isdir(work):
        kept = os.path.join(p.parked, "models")
        os.makedirs(kept, exist_ok=True)
        for f in sorted(os.listdir(work)):
            stem = f[:-len(".safetensors")]
            if f.endswith(".safetensors") and not f.endswith((".state.safetensors", ".partial.safetensors")) and \
                    os.path.exists(os.path.join(p.path(p.out), stem + ".json")) and \
                    not os.path.exists(os.path.join(kept, f)):
                copy_atomic(os.path.join(work, f), os.path.join(kept, f))
                parked.append(f"{stem} (its checkpoint, finished)")
    return parked


def score_images(p, cli, model, base):
    """An image model's test accuracy, loss, per-class accuracy, confusion and every test
    image's prediction (one digit each, in order); the labels kept in OUT/test-labels.txt and
    checked against it."""
    predictions = base + ".predictions.tsv"
    m = json.loads(run([cli, "eval", "--model", model, "--task", p.task,
                        "--predictions", predictions]))["metrics"]
    with open(predictions) as f:
        pairs = [line.rstrip("\n").split("\t") for line in f]
    pred, labels = "".join(x for x, _ in pairs), "".join(l for _, l in pairs)
    if not os.path.exists(p.labels_file):
        with open(p.labels_file + ".tmp", "w") as f:
            f.write(labels + "\n")
        os.replace(p.labels_file + ".tmp", p.labels_file)
    elif test_labels(p) != labels:
        sys.exit(f"{p.script}: the test labels of {model} differ from {p.labels_file}")
    return {"test_accuracy": m["accuracy"], "test_loss": m["loss"], "class_accuracy": m["class_accuracy"],
            "confusion": m["confusion"], "test_predictions": pred}


def cell(p, cli, name, lr, seed, role):
    """A cell, trained and scored unless written already. Runners may share WORK (two of them
    with one experiment get through its seeds in about half the time): a run is locked while
    trained (WORK/STEM.lock); a seed held by another runner is skipped (None), a rate search
    waited for (its cell is needed here)."""
    path = cell_path(p, name, lr, seed)
    if os.path.exists(path):
        return json.load(open(path))
    os.makedirs(p.path(p.work), exist_ok=True)
    with open(os.path.join(p.path(p.work), f"{name}-lr{lr}-s{seed}.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (fcntl.LOCK_NB if role == "seed" else 0))
        except BlockingIOError:
            print(f"  {name} lr {lr} seed {seed}: another runner trains it", file=sys.stderr, flush=True)
            return None
        if os.path.exists(path):  # finished by the runner that held it
            return json.load(open(path))
        return train_cell(p, cli, name, lr, seed, role, path)


def train_cell(p, cli, name, lr, seed, role, path):
    work = p.path(p.work)
    unpark(p, f"{name}-lr{lr}-s{seed}")
    base = os.path.join(work, f"{name}-lr{lr}-s{seed}")
    model, state, timing_file = base + ".safetensors", base + ".state.safetensors", base + ".time.json"
    timing = json.load(open(timing_file)) if os.path.exists(timing_file) else {"wall_s": 0, "cpu_s": 0, "attempts": 0}
    if not os.path.exists(model):
        attempt = 0  # the next log's number: a parked run may bring logs without its timing
        while os.path.exists(f"{base}.log{attempt}.jsonl"):
            attempt += 1
        print(f"  training {name} lr {lr} seed {seed} (attempt {attempt + 1})", file=sys.stderr, flush=True)
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        log = f"{base}.log{attempt}.jsonl"
        tmp_model = base + ".partial.safetensors"
        try:
            subprocess.run([cli] + (p.make_train_args or train_args)(p, name, lr, seed) +
                           ["--state", state, "--log", log, "--out", tmp_model], check=True)
        finally:
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            timing["wall_s"] += round(time.monotonic() - t0, 1)
            timing["cpu_s"] += round((cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime), 1)
            timing["attempts"] += 1
            with open(timing_file, "w") as f:
                json.dump(timing, f)
        info = json.loads(run([cli, "info", "--model", tmp_model, "--json"]))["training"]
        if info.get("stopped_early"):
            sys.exit(f"{p.script}: {name} lr {lr} seed {seed} was interrupted; start again to continue")
        os.replace(tmp_model, model)
    print(f"  scoring {name} lr {lr} seed {seed}", file=sys.stderr, flush=True)
    os.makedirs(p.path(p.out), exist_ok=True)
    scored = (p.score or score_images)(p, cli, model, base)
    info = json.loads(run([cli, "info", "--model", model, "--json"]))
    t = info["training"]
    result = {"name": name, "seed": seed, "lr": float(lr), "role": role, **scored,
              "checkpoint_chosen_on": t.get("checkpoint_chosen_on"), "selected_on": t.get("selected_on"),
              "chosen_step": t.get("chosen_step"), "chosen_epoch": t.get("chosen_step", 0) // p.steps_per_epoch,
              "steps_trained": t.get("steps"), "patience_epochs": t.get("patience"),
              "stopped_by_patience": t.get("stopped_by_patience"),
              "validation": t.get("held_out", {}), "validation_curve": curve(p, base),
              "test_curve": curve(p, base, "test"),
              "parameters": info["parameters"]["total"], "training": timing,
              "options": t.get("options", {})}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp, path)
    for f in run_files(p.parked, os.path.basename(base)):
        os.remove(os.path.join(p.parked, f))
    return result


def chosen_lr(p, cells):
    """The rate whose run reached the best validation score; ties: the smaller rate."""
    return min(cells, key=lambda c: (-c["validation"][p.measure.val_key], c["lr"]))


def status(p):
    work, out = p.path(p.work), p.path(p.out)
    for name in p.names:
        nn = int(name.split("-", 1)[0])
        row = []
        for k in range(3):
            for lr in p.lrs:
                cp = cell_path(p, name, lr, nn + 100 * k)
                if os.path.exists(cp):
                    c = json.load(open(cp))
                    row.append(f"lr {lr} s{c['seed']}: val {val(p, c):.2f} test {test(p, c):.2f} "
                               f"({p.measure.unit} {c['chosen_epoch']})")
        state = sorted({f for d in (work, p.parked) if os.path.isdir(d) for f in os.listdir(d)
                        if f.startswith(name) and f.endswith(".state.safetensors") and
                        not os.path.exists(os.path.join(out, f[:-len(".state.safetensors")] + ".json"))})
        print(f"{name}: " + ("; ".join(row) if row else "no cell yet") +
              (f" [in progress: {', '.join(state)}]" if state else ""))


def finished_cells(p):
    cells = [json.load(open(c)) for c in sorted(glob.glob(os.path.join(p.path(p.out), "*.json")))]
    by = {}
    for c in cells:
        by.setdefault(c["name"], []).append(c)
    return by


def seeds_of(p, cells, name):
    """A model's cells at its chosen rate (the rate search's best on validation), by seed."""
    mine = cells.get(name, [])
    search = [c for c in mine if c["role"] == "rate search"]
    if len(search) < len(p.lrs):
        return None, []
    lr = chosen_lr(p, search)["lr"]
    return lr, sorted((c for c in mine if c["lr"] == lr), key=lambda c: c["seed"])


def val(p, c):
    """A cell's validation score as shown (accuracy in %, BLEU)."""
    return p.measure.scale * c["validation"][p.measure.val_key]


def test(p, c):
    return p.measure.scale * c[p.measure.test_key]


def pct(xs):
    """Mean ± sample sd of values already as shown."""
    mean, sd = cellstats.mean_sd(xs)
    return f"{mean:.2f}" + (f" ± {sd:.2f}" if sd is not None else "")


def table(p):
    cells = finished_cells(p)
    m = p.measure
    lines = ["Rate search (each model's first seed; the rate kept is the one with the better "
             f"{m.validation}):", "",
             "| model | " + " | ".join(f"lr {lr}: {m.val_header} ({m.unit} kept)" for lr in p.lrs) + " | kept |",
             "|---|" + "---|" * (len(p.lrs) + 1)]
    for name in p.names:
        search = {c["lr"]: c for c in cells.get(name, []) if c["role"] == "rate search"}
        row = [f"{val(p, search[float(lr)]):.2f} ({search[float(lr)]['chosen_epoch']})"
               if float(lr) in search else "not run yet" for lr in p.lrs]
        lr, _ = seeds_of(p, cells, name)
        lines.append(f"| {name} | " + " | ".join(row) + f" | {f'{lr:g}' if lr else '–'} |")
    lines += ["", f"| model | lr | seeds | {m.unit} kept | {m.val_column} | {m.test_column} "
              f"| vs dot-product: gap, Welch | paired bootstrap over {m.items} (Holm) | by the rule |",
              "|---|---|---|---|---|---|---|---|---|"]
    _, dot = seeds_of(p, cells, p.names[0])
    rows, ps = [], []
    for name in p.names:
        lr, mine = seeds_of(p, cells, name)
        if not mine:
            rows.append([name, "–", "–", "–", "–", "not run yet", "", "", ""])
            ps.append(None)
            continue
        tests = [test(p, c) for c in mine]
        row = [name, f"{lr:g}", ", ".join(str(c["seed"]) for c in mine),
               ", ".join(str(c["chosen_epoch"]) for c in mine), pct([val(p, c) for c in mine]), pct(tests)]
        pv = None
        if name != p.names[0] and dot:
            gap, pv = versus_dot(p, mine, dot)
            row += [gap, "", cellstats.verdict(tests, [test(p, c) for c in dot])]
        else:
            row += ["(baseline)", "", ""]
        rows.append(row)
        ps.append(pv)
    given = [i for i, pv in enumerate(ps) if pv is not None]
    adjusted = cellstats.holm([ps[i] for i in given]) if given else []
    for i, adj in zip(given, adjusted):
        rows[i][7] = f"{cellstats.fmt_p(ps[i])} ({cellstats.fmt_p(adj)})"
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += reference_row(p, dot)
    lines += cost_table(p, cells)
    done = sum(len(v) for v in cells.values())
    lines += ["", f"Generated by `scripts/{p.script} --table` from the {done} cells in "
              f"{p.out}/: {m.name} mean ± sample sd over the seeds; the {m.unit} kept is the "
              f"one with the best {m.validation} ({p.validation_images}), at most "
              f"{p.epochs} {m.unit}s with patience {p.patience}; test {m.name} on {p.test_images}, used "
              f"for nothing else. {m.bootstrap}; Holm over the {len(p.names) - 1} "
              f"comparison{'s' if len(p.names) > 2 else ''} with dot-product. Recipe: {p.recipe_doc}."]
    return "\n".join(lines)


def cost_table(p, cells):
    """Each model's size and training cost over its seeds at the rate kept: parameters, and
    CPU and wall minutes per run (mean and range; a shared machine, so the wall clock says
    more about the load than about the model), with the reference's where it has them."""
    def minutes(runs, key):
        xs = [c["training"][key] / 60 for c in runs if key in c.get("training", {})]
        if not xs:
            return "–"
        return f"{sum(xs) / len(xs):.1f} ({min(xs):.1f}–{max(xs):.1f})" if len(xs) > 1 else f"{xs[0]:.1f}"

    lines = ["", "| model | parameters | runs | training, CPU minutes per run (range) | "
                 "wall minutes per run (range) |", "|---|---|---|---|---|"]
    for name in p.names:
        _, mine = seeds_of(p, cells, name)
        if mine:
            lines.append(f"| {name} | {mine[0].get('parameters', 0):,} | {len(mine)} | "
                         f"{minutes(mine, 'cpu_s')} | {minutes(mine, 'wall_s')} |")
    refs = reference_cells(p)
    if refs:
        lines.append(f"| *{p.reference[1]}* | {refs[0].get('parameters', 0):,} | {len(refs)} | "
                     f"{minutes(refs, 'cpu_s')} | {minutes(refs, 'wall_s')} |")
    if len(lines) <= 3:
        return []
    return lines + ["", "Times are those the runner recorded: an attempt cut off without notice (the "
                        "machine stopped) loses its time, so a minimum far below its row's others "
                        "is such a run, not a faster one."]


def versus_dot(p, mine, dot, truth=None):
    """Cells `mine` against dot-product's on the same test items: the gap of the mean test
    scores (in points) with Welch's p over seeds ("+1.23 (p = 0.04)"), and the paired test's
    p (p.paired; images: paired_images with `truth`, the test labels)."""
    xs, ys = [test(p, c) for c in mine], [test(p, c) for c in dot]
    gap = sum(xs) / len(xs) - sum(ys) / len(ys)
    w = cellstats.welch(xs, ys)
    pv = p.paired(mine, dot) if p.paired else paired_images(mine, dot, truth or test_labels(p))
    return f"{gap:+.2f} ({cellstats.fmt_p(w[2]) if w else 'one seed'})", pv


def paired_images(mine, dot, truth):
    """The paired bootstrap's p over the test images (`truth`, a digit each) of each image's
    correctness averaged over a model's seeds."""
    def mean_correct(cs):
        return [sum(c["test_predictions"][i] == truth[i] for c in cs) / len(cs) for i in range(len(truth))]

    return cellstats.paired_items_bootstrap(
        [x - y for x, y in zip(mean_correct(mine), mean_correct(dot))])["p"]


def reference_cells(p):
    """The reference's cells (p.reference's folder), by seed; none without a reference."""
    if not p.reference:
        return []
    return sorted((json.load(open(c)) for c in glob.glob(os.path.join(p.path(p.reference[0]), "*.json"))),
                  key=lambda c: c["seed"])


def reference_row(p, dot):
    """The reference's row (not attention, not in Holm's family): its seeds, epochs kept,
    validation and test accuracy, and its gap to dot-product with an uncorrected paired
    bootstrap over the same test images."""
    if not p.reference:
        return []
    folder, label = p.reference
    refs = reference_cells(p)
    if not refs:
        return []
    truth = test_labels(p) if os.path.exists(p.labels_file) else refs[0]["test_labels"]
    for c in refs:
        if c["test_labels"] != truth or len(c["test_predictions"]) != len(truth):
            sys.exit(f"{p.script}: the reference's test labels or predictions do not match "
                     f"{p.labels_file}")
    tests = [test(p, c) for c in refs]
    row = [f"*{label}*", "–", ", ".join(str(c["seed"]) for c in refs),
           ", ".join(str(c["chosen_epoch"]) for c in refs), pct([val(p, c) for c in refs]), pct(tests)]
    if dot:
        gap, pv = versus_dot(p, refs, dot, truth)
        row += [gap, f"{cellstats.fmt_p(pv)} (not in Holm's family)",
                cellstats.verdict(tests, [test(p, c) for c in dot])]
    else:
        row += ["", "", ""]
    return ["| " + " | ".join(row) + " |", "",
            f"The last row is a reference, not an attention variant: {label}, its cells in "
            f"{folder}/ (recipe in its script's header)."]


def curves_json(p, key="validation_curve"):
    """Each model's validation ("validation_curve") or test ("test_curve") metric per epoch
    beside dot-product's: the mean over its seeds as a line, each seed as dots; a chart per
    model (render --curves). Test curves: the cells that have one (runs from before train
    --watch-test have none, or only from their resumption on)."""
    cells = finished_cells(p)

    def seeds(name):  # the rate chosen on every cell's validation, then the cells with the curve
        return [c for c in seeds_of(p, cells, name)[1] if c.get(key)]

    dot = seeds(p.names[0])

    def series(cs, label, look):
        by_epoch = {}
        for c in cs:
            for pt in c[key]:
                by_epoch.setdefault(pt["step"] // p.steps_per_epoch, []).append(
                    p.measure.scale * pt[p.measure.curve_key])
        epochs = sorted(e for e in by_epoch if e >= p.first_epoch)
        every = [e for e in epochs if e % p.dot_every == 0]  # dots at every epoch would hide the lines
        return [{"name": f"{label}, mean of {len(cs)} seed{'s' if len(cs) > 1 else ''}", "look": look,
                 "x": epochs, "y": [sum(by_epoch[e]) / len(by_epoch[e]) for e in epochs]},
                {"name": f"{label}, each seed", "look": look, "line": False,
                 "x": [e for e in every for _ in by_epoch[e]], "y": [v for e in every for v in by_epoch[e]]}]

    charts = []
    for k, name in enumerate(p.names[1:], start=1):
        mine = seeds(name)
        if not mine or not dot:
            continue
        charts.append({"title": f"{name.split('-', 1)[1]} beside dot-product",
                       "series": series(dot, p.names[0].split("-", 1)[1], 0) +
                       series(mine, name.split("-", 1)[1], k)})
    what, y_label = p.measure.validation, p.y_label
    if key == "test_curve":  # the same measure on the test set: "validation accuracy" -> "test accuracy"
        what = "test " + what.split(" ", 1)[1]
        y_label = y_label.replace("validation", "test").replace("dev", "test")
    # Short enough for the figure's one title line and one footer line (longer ones are cut).
    return {"title": f"{what[0].upper()}{what[1:]} over training" + (" (watched)" if key == "test_curve" else ""),
            "x_label": f"{p.measure.unit} (from {p.first_epoch}; seed dots every {p.dot_every}th)",
            "y_label": y_label, "y_min": p.y_min, "columns": 2, "charts": charts}


def write_figures(p, cli):
    """validation-curves and test-curves (.json, .svg, .png) in FIGS, each when it has a chart."""
    for key, stem in (("validation_curve", "validation-curves"), ("test_curve", "test-curves")):
        data = curves_json(p, key)
        if not data["charts"]:
            continue
        figs = p.path(p.figs)
        os.makedirs(figs, exist_ok=True)
        path = os.path.join(figs, stem + ".json")
        with open(path + ".tmp", "w") as f:
            json.dump(data, f, indent=1)
        os.replace(path + ".tmp", path)
        for ext in ("svg", "png"):
            run([cli, "render", "--curves", path, "--size", "page", "--dpi", "150",
                 "--out", os.path.join(figs, stem + "." + ext)])


def bundle(p, out):
    """Each model's first seed at its chosen rate (the rate search's cells) copied into `out`
    as NAME.safetensors, from WORK or the parked checkpoints (keep_models): the checkpoints
    the experiment's cells were scored on. Returns an error message, or None."""
    cells = finished_cells(p)
    missing, found = [], []
    for name in p.names:
        lr, mine = seeds_of(p, cells, name)
        nn = int(name.split("-", 1)[0])
        first = [c for c in mine if c["seed"] == nn]
        stem = f"{name}-lr{next((l for l in p.lrs if float(l) == lr), '?')}-s{nn}" if lr else None
        where = [os.path.join(d, stem + ".safetensors") for d in (p.path(p.work), os.path.join(p.parked, "models"))
                 if stem] if first else []
        src = next((w for w in where if os.path.exists(w)), None)
        if src is None:
            missing.append(name + (" (its rate search is not finished)" if not first else " (no checkpoint kept)"))
        found.append((name, src))
    if missing:
        return f"{p.script} --bundle: not every model is ready: " + "; ".join(missing)
    os.makedirs(out, exist_ok=True)
    for name, src in found:
        copy_atomic(src, os.path.join(out, name + ".safetensors"))
        print(f"{name}: {os.path.relpath(src, ROOT)}")
    return None


def bundle_args(p, only=None):
    """The train arguments that make each model's bundled checkpoint again (its first seed at
    the rate chosen on validation, as --bundle copies it): one line per model, the model's
    name then the arguments, tab-separated, for scripts/train-bundled-models (its recipe runs
    `attnviz-cli train --out DIR/NAME.safetensors ARGS`; --check compares the bytes). None
    and an error naming the models whose rate search is not finished."""
    cells = finished_cells(p)
    lines, missing = [], []
    for name in [n for n in p.names if not only or n in only]:
        lr, _ = seeds_of(p, cells, name)
        if lr is None:
            missing.append(name)
            continue
        rate = next(l for l in p.lrs if float(l) == lr)
        args = (p.make_train_args or train_args)(p, name, rate, int(name.split("-", 1)[0]))[1:]
        if "--watch-test" in args:  # a curve of the experiment's, not part of a bundled model
            args.remove("--watch-test")
        if any("\t" in a or "\n" in a for a in args):
            return None, f"{p.script}: a tab or newline in {name}'s arguments"
        lines.append("\t".join([name] + args))
    if missing:
        return None, f"{p.script}: the rate search of {', '.join(missing)} is not finished"
    return lines, None


def main(p):
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/release/app/attnviz-cli"))
    ap.add_argument("--configs", default="", help="comma-separated names (default: all)")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--status", action="store_true", help="list the finished cells, run nothing")
    ap.add_argument("--table", action="store_true",
                    help="write the table into docs/results.md and the figures, run nothing")
    ap.add_argument("--check", action="store_true",
                    help="compare the table with docs/results.md, exit 1 where they differ")
    ap.add_argument("--stdout", action="store_true", help="with --table: print it instead")
    ap.add_argument("--park", action="store_true",
                    help="copy the unfinished runs into experiments/parked/ (to commit), run nothing")
    ap.add_argument("--bundle", metavar="DIR",
                    help="copy each model's first-seed checkpoint at its chosen rate into DIR as "
                         "NAME.safetensors (a bundled set; scripts/train-bundled-models), run nothing")
    ap.add_argument("--bundle-args", action="store_true",
                    help="print each model's train arguments for its bundled checkpoint (NAME<TAB>ARGS "
                         "per line: scripts/train-bundled-models), run nothing")
    a = ap.parse_args()
    if a.bundle_args:
        lines, err = bundle_args(p, [n for n in a.configs.split(",") if n])
        if err:
            sys.exit(err)
        print("\n".join(lines))
        return
    if a.status:
        return status(p)
    if a.bundle:
        sys.exit(bundle(p, a.bundle))
    if a.park:
        for stem in park(p):
            print(f"parked {stem} in {os.path.relpath(p.parked, ROOT)}")
        return
    if a.check:
        sys.exit(doctables.check(os.path.join(ROOT, "docs/results.md"), {p.section: table(p)}))
    if a.table:
        if a.stdout:
            print(table(p))
            return
        doctables.write_section(os.path.join(ROOT, "docs/results.md"), p.section, table(p))
        write_figures(p, a.cli)
        return
    names = [n for n in p.names if not a.configs or n in a.configs.split(",")]
    os.makedirs(p.path(p.work), exist_ok=True)
    chosen = {}
    for name in names:  # the rate search, seed NN
        nn = int(name.split("-", 1)[0])
        cells = [cell(p, a.cli, name, lr, nn, "rate search") for lr in p.lrs]
        chosen[name] = chosen_lr(p, cells)["lr"]
        print(f"{name}: lr {chosen[name]:g} chosen on validation", file=sys.stderr, flush=True)
    for k in range(1, a.seeds):
        for name in names:
            nn = int(name.split("-", 1)[0])
            lr = next(l for l in p.lrs if float(l) == chosen[name])
            cell(p, a.cli, name, lr, nn + 100 * k, "seed")
