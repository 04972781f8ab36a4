# SPDX-License-Identifier: GPL-3.0-or-later
"""Train an attnviz model with PyTorch, on one process or many (torch.distributed).

    python3 -m torch.distributed.run --standalone --nproc-per-node N -m attnviz_torch.train \\
        --config C.json (--task NAME | --data F.tsv) --steps S --out M.safetensors [options]

The options are attnviz-cli train's (--batch-size, --lr, --optimizer, --schedule, --warmup,
--weight-decay, --dropout, --label-smoothing, --clip, --seed, --held-out, --tokenizer,
--vocab-size), with attnviz-cli train's rules for their values, plus --save-every K (a
checkpoint every K steps, written atomically so the app can open it while training runs),
--resume (continue from --out and its training state, M.safetensors.trainstate) and
--backend (gloo on CPU, nccl on GPUs; default: nccl when CUDA is available).

Neither --out nor its training state may be an input (--data, --init, --config) or each
other, through symbolic and hard links too (checkpoint.check_outputs). Training stops with
a message, and writes nothing, when the loss or the weights stop being finite. The
training state holds numbers only (no pickle) and names the checkpoint it belongs to: a pair
left out of step by a run stopped while saving is refused by --resume.

The model starts exactly as `attnviz-cli train` would start it: the C++ CLI (ATTNVIZ_CLI,
else attnviz-cli on PATH, else build/release/app/attnviz-cli of this repository) writes the
initial checkpoint (configuration resolved, vocabularies built from the task or data, the
SentencePiece model trained when asked, parameters initialised from --seed), and built-in
tasks come from `attnviz-cli examples`, the stream `attnviz-cli train --task` trains on.
With --init M0 the run continues from a checkpoint instead and needs no CLI for --data.

Data parallelism: the global batch (--batch-size sequences) is cut into one contiguous shard
per process; each process's loss is its shard's summed cross-entropy divided by the global
batch's token count (times the world size, which DistributedDataParallel's averaging undoes),
so the gradient equals the one-process gradient of the same global batch. The batch of step s
is a function of s alone (and dropout masks of (seed, step, rank)), so a resumed run repeats
the uninterrupted one.
"""
import argparse
from contextlib import nullcontext as _nullcontext
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import torch
import torch.distributed as dist

from . import trainstate
from .checkpoint import check_outputs, signals_held, unwind_on_signals
from .limits import (MAX_DATA_BYTES, MAX_SENTENCEPIECE_VOCAB, MIN_SENTENCEPIECE_VOCAB, MIN_VOCAB_SIZE, InputError,
                     excerpt, read_file)
from .model import AttnvizModel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_cli():
    for c in (os.environ.get("ATTNVIZ_CLI"), shutil.which("attnviz-cli"),
              os.path.join(ROOT, "build/release/app/attnviz-cli")):
        if c and os.path.exists(c):
            return c
    raise SystemExit("attnviz_torch.train: the attnviz-cli program is needed to start from --config or "
                     "--task (set ATTNVIZ_CLI, put it on PATH, or build this repository); with --init and "
                     "--data it is not")


def learning_rate(o, step):
    """core/trainer.cpp learningRate: linear warm-up, then constant, inverse-sqrt or linear."""
    s, w = max(1, step), o.warmup
    if w > 0 and s < w:
        return o.lr * s / w
    if o.schedule == "inverse-sqrt":
        return o.lr * math.sqrt(max(w, 1.0) / s)
    if o.schedule == "linear":
        span = max(1.0, o.steps - w + 1)
        return o.lr * max(0.0, (o.steps - s + 1) / span)
    return o.lr


def parse(argv):
    ap = argparse.ArgumentParser(prog="python3 -m attnviz_torch.train", description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--task", help="built-in task: copy, reverse, sort, translate, lm")
    src.add_argument("--data", help="TSV (source TAB target) or text file (language models)")
    ap.add_argument("--config", help="model configuration (JSON), as attnviz-cli train --config")
    ap.add_argument("--init", help="start from this checkpoint instead of --config")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--optimizer", choices=["adam", "sgd"], default="adam")
    ap.add_argument("--schedule", choices=["constant", "inverse-sqrt", "linear"], default="inverse-sqrt")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--weight-decay", type=float, default=0.0)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--label-smoothing", type=float, default=0.1)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--held-out", type=int, default=200)
    ap.add_argument("--tokenizer", choices=["word", "sentencepiece"], default="word")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--save-every", type=int, default=0, help="a checkpoint every K steps (0: at the end only)")
    ap.add_argument("--resume", action="store_true", help="continue from --out and --out's .trainstate.pt")
    ap.add_argument("--stop-after", type=int, default=0,
                    help="stop (with a checkpoint and training state) after this many steps of this "
                         "session, as an interrupted run would; --resume continues it")
    ap.add_argument("--backend", choices=["gloo", "nccl"], help="default: nccl with CUDA, else gloo")
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--device", choices=["auto", "cpu"], default="auto",
                    help="auto: one GPU per process when CUDA is available, else the CPU")
    ap.add_argument("--micro-batches", type=int, default=1,
                    help="split each process's share of the batch into this many micro-batches, "
                         "gradients accumulated (less memory; N processes of M equal 1 of N*M)")
    ap.add_argument("--precision", choices=["float32", "float64"], default="float32",
                    help="arithmetic of training (the checkpoint is F32 either way); float64 shows "
                         "that N processes compute the 1-process run's steps, free of float32 rounding")
    a = ap.parse_args(argv)
    problem = option_problem(a)
    if problem:
        ap.error(problem)
    if not a.resume and not a.init and not a.config:
        ap.error("needs --config, --init or --resume")
    return a


def option_problem(a):
    """The first option attnviz-cli train would refuse (TrainOptions::validate), or None."""
    fin = math.isfinite
    rules = [
        (a.steps >= 0, "--steps must be at least 0"),
        (1 <= a.batch_size <= 65536, "--batch-size must be between 1 and 65536"),
        (a.micro_batches >= 1, "--micro-batches must be at least 1"),
        (fin(a.lr) and 0 < a.lr <= 10, "--lr must be a positive finite number of at most 10"),
        (a.warmup >= 0, "--warmup must be at least 0"),
        (0 <= a.dropout < 1, "--dropout must be in [0, 1)"),
        (0 <= a.label_smoothing < 1, "--label-smoothing must be in [0, 1)"),
        (fin(a.clip) and a.clip >= 0, "--clip must be a finite number of at least 0 (0 = off)"),
        (0 <= a.weight_decay <= 1, "--weight-decay must be a number between 0 and 1"),
        (a.save_every >= 0 and a.stop_after >= 0, "--save-every and --stop-after must be at least 0"),
        (0 <= a.seed < (1 << 64), "--seed must be an integer from 0 to 2^64 - 1"),
        (0 <= a.held_out <= 1000000, "--held-out must be between 0 and 1000000"),
        (a.vocab_size >= MIN_VOCAB_SIZE, f"--vocab-size must be at least {MIN_VOCAB_SIZE} (the 4 special "
                                         f"tokens and a word), got {a.vocab_size}"),
        (a.tokenizer != "sentencepiece" or MIN_SENTENCEPIECE_VOCAB <= a.vocab_size <= MAX_SENTENCEPIECE_VOCAB,
         f"--vocab-size must be at least {MIN_SENTENCEPIECE_VOCAB} and at most {MAX_SENTENCEPIECE_VOCAB} "
         "with --tokenizer sentencepiece"),
    ]
    return next((msg for ok, msg in rules if not ok), None)


def check_output(a):
    """The outputs (--out and its training state) by the package's one rule (check_outputs):
    regular files we may replace (or new) in a writable directory, neither of them the same
    file as an input (--data, --init, --config) nor as each other. With --resume, --out and
    its state are read and then replaced: that is what --resume means."""
    check_outputs([("--out", a.out), ("--out's training state", state_path(a.out) if a.out else None)],
                  [("--data", a.data), ("--init", a.init), ("--config", a.config)])


def state_path(out):
    return trainstate.state_path(out)


def run_cli(cmd):
    """Runs attnviz-cli -> (exit code, stdout, stderr). A signal that unwinds this program
    (unwind_on_signals) kills and reaps it, also one that comes while it starts: the child
    is kept before the signal is let through (an orphan would write on)."""
    proc = None
    try:
        with signals_held():
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate()
        return proc.returncode, out, err
    except BaseException:
        if proc is not None:
            proc.kill()
            proc.wait()
        raise


def rank0_initial_checkpoint(a, path):
    """The C++ CLI writes the model as attnviz-cli train would start it."""
    cli = find_cli()
    cmd = [cli, "train", "--steps", "0", "--seed", str(a.seed), "--out", path, "--held-out", "1"]
    cmd += ["--config", a.config] if a.config else ["--init", a.init]
    if a.task:
        cmd += ["--task", a.task]
    else:
        cmd += ["--data", a.data, "--tokenizer", a.tokenizer, "--vocab-size", str(a.vocab_size)]
    rc, _, err = run_cli(cmd)
    if rc != 0:
        raise SystemExit(f"attnviz_torch.train: the initial model could not be made: {err.strip()}")


def initial_model(a, out_dir, rank, distributed):
    """Rank 0 has the CLI write the initial checkpoint to a temporary file of a name made
    for it (mkstemp in --out's directory, where every process can read it: never a name a
    person's file may have); the others learn the name, wait, and read it; rank 0 removes it,
    also when anything fails or a signal ends the run."""
    holder = [None]
    try:
        if rank == 0:
            try:
                with signals_held():  # the name kept before a signal can unwind
                    fd, holder[0] = tempfile.mkstemp(dir=out_dir, prefix=os.path.basename(a.out) + ".init-",
                                                     suffix=".safetensors")
            except OSError as e:
                raise InputError(f"--out '{a.out}': cannot make a temporary file in '{out_dir}': "
                                 f"{e.strerror}") from None
            os.close(fd)
            rank0_initial_checkpoint(a, holder[0])
        if distributed:
            dist.broadcast_object_list(holder, src=0)
        model = AttnvizModel.from_checkpoint(holder[0])
        if distributed:
            dist.barrier()
        return model
    finally:
        if rank == 0 and holder[0]:
            try:
                os.unlink(holder[0])
            except OSError:
                pass


def check_text_model(model, what):
    """This trainer trains text models: an image model (arch "vit") is refused by name."""
    if model.cfg["arch"] == "vit":
        raise InputError(f"{what} is an image model (arch \"vit\"): attnviz_torch.train trains text models; "
                         "train image models with attnviz-cli train --task fashion-mnist (or clothing-photos: "
                         "colour)")


def read_lines(a, count):
    """The examples as (source, target) text pairs (source None for language models):
    the task's training stream (attnviz-cli examples), or the data file minus its held-out
    lines (every 20th, as attnviz-cli train without --dev)."""
    if a.task:
        rc, out, err = run_cli([find_cli(), "examples", "--task", a.task, "--count", str(count), "--seed", str(a.seed)])
        if rc != 0:
            raise SystemExit(f"attnviz_torch.train: {err.strip()}")
        lines = out.splitlines()
        held = run_cli([find_cli(), "examples", "--task", a.task, "--count", str(max(1, a.held_out)),
                        "--seed", str(a.seed), "--held-out"])[1].splitlines()
    else:
        try:
            text = read_file(a.data, MAX_DATA_BYTES, "data file").decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{a.data}: not valid UTF-8 (byte {e.start})") from None
        usable = [ln.rstrip("\r") for ln in text.split("\n") if ln.strip()]
        lines = [ln for i, ln in enumerate(usable) if i % 20 != 19]
        held = [ln for i, ln in enumerate(usable) if i % 20 == 19][:a.held_out]

    def pair(ln):
        if "\t" in ln:
            s, t = ln.split("\t", 1)
            return s, t
        return None, ln
    return [pair(ln) for ln in lines], [pair(ln) for ln in held]


def encode(model, pairs):
    """Text pairs -> id pairs, skipping empty and too long ones."""
    seq2seq = model.cfg["arch"] == "seq2seq"
    limit = model.cfg["max_len"] - 1
    out = []
    for s, t in pairs:
        if seq2seq and s is None:
            continue
        sid = model.source_ids(s) if seq2seq else None
        tid = model.target_ids(t)
        if not tid or len(tid) > limit or (seq2seq and (not sid or len(sid) > limit)):
            continue
        out.append((sid, tid))
    return out


_perms = {}


def seed_of(n):
    """A derived seed as torch takes it (at most 64 bits): --seed goes up to 2^64 - 1, and
    seed · 1000003 overflowed torch's manual_seed (a RuntimeError). Unchanged below 2^64, so
    every run of a smaller seed is what it was."""
    return n % (1 << 64)


def batch_at(data, step, B, seed):
    """The global batch of step `step` (0-based): the examples in epochs, each epoch a
    permutation seeded by (seed, epoch), so a batch depends on nothing but its step."""
    n, out = len(data), []
    for k in range(step * B, step * B + B):
        epoch, i = divmod(k, n)
        if epoch not in _perms:
            _perms.clear()
            _perms[epoch] = torch.randperm(n, generator=torch.Generator().manual_seed(seed_of(seed * 1000003 + epoch)))
        out.append(data[int(_perms[epoch][i])])
    return out


def evaluate(model, pairs):
    """Held-out loss (no smoothing) and token accuracy, teacher-forced."""
    if not pairs:
        return {}
    tot, toks, correct = 0.0, 0, 0
    with torch.no_grad():
        for i in range(0, len(pairs), 64):
            chunk = pairs[i:i + 64]
            src, tin, tout = model.batch(chunk)
            logits = model.forward(src, tin)
            tot += float(torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tout.reshape(-1),
                                                           ignore_index=-100, reduction="sum"))
            mask = tout != -100
            toks += int(mask.sum())
            correct += int(((logits.argmax(-1) == tout) & mask).sum())
    return {"loss": tot / toks, "token_accuracy": correct / toks, "tokens": toks, "sentences": len(pairs)}


def diverged(a, step):
    raise InputError(f"training diverged: the loss is not finite at step {step}; no checkpoint written to "
                     f"'{a.out}' (lower --lr or set --clip)")


def main(argv=None):
    a = parse(argv)
    # SIGTERM (a job scheduler, kill) and SIGHUP unwind like Ctrl-C: a write in progress
    # removes its temporary file, and nothing half-written is left.
    unwind_on_signals()
    try:
        return run(a)
    except InputError as e:
        print(f"attnviz_torch.train: {e}", file=sys.stderr)
        return 1


def checkpoint_step(model):
    """The "steps" of a checkpoint's training metadata (0 when absent; the reader checked
    its type: an integer of at least 0 when present, and the metadata an object or null)."""
    t = model.meta.get("training")
    j = json.loads(t) if t else None
    steps = j.get("steps", 0) if isinstance(j, dict) else 0
    return steps if isinstance(steps, int) and not isinstance(steps, bool) else 0


def env_int(name, default, least):
    """An integer from the environment (torchrun's WORLD_SIZE, LOCAL_RANK; OMP_NUM_THREADS)."""
    v = os.environ.get(name)
    if v is None or v == "":
        return default
    if not (v.isascii() and v.isdigit()) or len(v) > 9 or int(v) < least:
        raise InputError(f"the environment variable {name} must be an integer of at least {least}, "
                         f"got {excerpt(v)}")
    return int(v)


def run(a):
    check_output(a)
    distributed = env_int("WORLD_SIZE", 1, 1) > 1
    if distributed:
        backend = a.backend or ("nccl" if torch.cuda.is_available() else "gloo")
        dist.init_process_group(backend)
        rank, world = dist.get_rank(), dist.get_world_size()
    else:
        rank, world = 0, 1
    if a.batch_size % (world * a.micro_batches):
        raise SystemExit(f"attnviz_torch.train: --batch-size {a.batch_size} must be a multiple of the "
                         f"{world} processes times --micro-batches {a.micro_batches}")
    torch.set_num_threads(env_int("OMP_NUM_THREADS", 1, 1))
    out_dir = os.path.dirname(os.path.abspath(a.out))
    start = 0
    state = None
    if a.resume:
        if os.path.exists(a.out + ".trainstate.pt") and not os.path.exists(state_path(a.out)):
            raise InputError(f"{a.out}.trainstate.pt is a training state of an earlier version (a pickle, "
                             "which could run code when read): it is not read. Train again without --resume")
        if not os.path.exists(a.out) or not os.path.exists(state_path(a.out)):
            raise InputError(f"--resume needs {a.out} and {state_path(a.out)}")
        model = AttnvizModel.from_checkpoint(a.out)
        start = checkpoint_step(model)
        state = True
    elif a.init and a.data:
        # The checkpoint is the start as it is (attnviz-cli train --steps 0 --init would write
        # the same tensors, configuration and vocabularies): no CLI, no temporary file.
        model = AttnvizModel.from_checkpoint(a.init)
    else:
        model = initial_model(a, out_dir, rank, distributed)
    check_text_model(model, f"--out '{a.out}'" if a.resume else
                     f"--init '{a.init}'" if a.init else f"--config '{a.config}'")
    # Data: rank 0 reads (or asks the CLI for) the examples; every process gets the same.
    payload = [None]
    if rank == 0:
        payload = [read_lines(a, max(1, a.steps) * a.batch_size if a.task else 0)]
    if distributed:
        dist.broadcast_object_list(payload, src=0)
    train_pairs, held_pairs = payload[0]
    data, held = encode(model, train_pairs), encode(model, held_pairs)
    if a.precision == "float64":
        model.double()
    # One GPU per process (LOCAL_RANK) when CUDA is there; the checkpoint is written from CPU
    # copies either way.
    device = torch.device("cpu")
    if torch.cuda.is_available() and a.device != "cpu":
        device = torch.device("cuda", env_int("LOCAL_RANK", 0, 0))
        torch.cuda.set_device(device)
        model.to(device)
    if not data:
        raise SystemExit("attnviz_torch.train: no usable training example")
    net = model
    if distributed:
        # Some tensors can take no part in the loss (a pre-norm Gaussian cross-attention never
        # reads its queries, so norm2 gets no gradient): DDP must not wait for them.
        net = torch.nn.parallel.DistributedDataParallel(
            model, device_ids=[device.index] if device.type == "cuda" else None,
            find_unused_parameters=True)
    params = [p for p in model.parameters() if p.requires_grad]
    if a.optimizer == "adam":
        opt = torch.optim.AdamW(params, lr=a.lr, betas=(0.9, 0.98), eps=1e-9, weight_decay=a.weight_decay)
    else:
        opt = torch.optim.SGD(params, lr=a.lr)
    if state:
        trainstate.load(a.out, opt, a.optimizer, start)  # refuses a state of another step
    options = {"steps": a.steps, "batch_size": a.batch_size, "optimizer": a.optimizer, "lr": a.lr,
               "schedule": a.schedule, "warmup": a.warmup, "weight_decay": a.weight_decay, "betas": [0.9, 0.98],
               "adam_eps": 1e-9, "dropout": a.dropout, "label_smoothing": a.label_smoothing, "clip": a.clip,
               "seed": a.seed, "processes": world, "trainer": "attnviz_torch (PyTorch " + torch.__version__ + ")"}

    def save(step, final):
        if rank != 0:
            return
        training = {"kind": "trained", "steps": step, "stopped_early": step < a.steps,
                    "options": options, "trainer": "attnviz_torch"}
        if a.task:
            training["task"] = a.task
        else:
            training["data"] = os.path.basename(a.data)
        if final:
            training["held_out"] = dict(evaluate(model, held), source="held-out examples never trained on")
        # The state first, then the checkpoint: the state names the checkpoint's bytes, so a
        # run stopped between the two leaves a pair that --resume refuses.
        trainstate.save_pair(a.out, model.checkpoint_chunks(training), opt, a.optimizer, step)

    lo, hi = rank * a.batch_size // world, (rank + 1) * a.batch_size // world
    end = min(a.steps, start + a.stop_after) if a.stop_after > 0 else a.steps
    for step in range(start, end):
        batch = batch_at(data, step, a.batch_size, a.seed)
        tokens = sum(len(t) + 1 for _, t in batch)
        net.train()
        opt.zero_grad(set_to_none=False)
        # The shard in micro-batches, gradients accumulated (the last one synchronises). Every
        # micro-batch of the global batch has its own index g, the same however the batch is
        # spread over processes and micro-batches; its dropout masks come from (seed, step, g).
        # So N processes of M micro-batches and 1 process of N·M micro-batches sum the same
        # gradients in the same order: equal results, bit for bit.
        shard = batch[lo:hi]
        M = a.micro_batches
        for m in range(M):
            part = shard[m * len(shard) // M:(m + 1) * len(shard) // M]
            torch.manual_seed(seed_of(a.seed * 7919 + step * 131 + rank * M + m))
            sync = m == M - 1 or not distributed
            with (net.no_sync() if not sync else _nullcontext()):
                src, tin, tout = model.batch(part)
                logits = net(src, tin, a.dropout)
                loss = torch.nn.functional.cross_entropy(
                    logits.reshape(-1, logits.shape[-1]), tout.reshape(-1), ignore_index=-100,
                    label_smoothing=a.label_smoothing, reduction="sum") / tokens
                (loss * world).backward()
        # Global gradient norm, clipped as core/trainer.cpp does (scale clip / norm above clip).
        norm = math.sqrt(sum(float((p.grad.double() ** 2).sum()) for p in params if p.grad is not None))
        # The gradient is the same on every process, so they all stop together.
        if not math.isfinite(norm) or not math.isfinite(float(loss)):
            diverged(a, step + 1)
        scale = a.clip / norm if a.clip > 0 and norm > a.clip else 1.0
        if scale != 1.0:
            for p in params:
                if p.grad is not None:
                    p.grad.mul_(scale)
        for g in opt.param_groups:
            g["lr"] = learning_rate(a, step + 1)
        opt.step()
        if not all(bool(torch.isfinite(p).all()) for p in params):
            diverged(a, step + 1)
        if rank == 0 and a.log_every and (step + 1) % a.log_every == 0:
            print(f"step {step + 1}/{a.steps}  loss {float(loss) * world:.3f} (shard 0)  grad-norm {norm:.3f}",
                  file=sys.stderr, flush=True)
        if a.save_every and (step + 1) % a.save_every == 0 and step + 1 < a.steps:
            save(step + 1, False)
    save(end, True)
    if rank == 0:
        print(f"wrote {a.out} after {end} of {a.steps} steps on {world} process(es)")
    if distributed:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
