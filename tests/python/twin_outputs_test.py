#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch twin's outputs (issue 48, items 3 and 4).

Usage: twin_outputs_test.py [CLI]   (CTest passes attnviz-cli; without it the training runs
                                     of part 3 are skipped)

1. Outputs onto inputs, the class: for every twin command with an output (attention --out;
   train --out and --out's training state, OUT.trainstate), every input of that command
   (attention: --model, --image, the Fashion-MNIST files; train: --data, --init, --config)
   named as the output directly, through a symbolic link either way and through a hard
   link is refused before any work: exit code 1, one line naming both flags, no traceback,
   the input byte for byte as it was and nothing else in the folder changed.
2. Outputs onto outputs: train's --out and its training state as one file (a hard link,
   a symbolic link) are refused the same way.
3. No fixed temporary names: training from --config makes its initial checkpoint under a
   name made for it; a person's files named OUT.init.safetensors (the old fixed name) and
   OUT.init-anything are left as they were; no temporary file is left after a run, after a
   failing CLI, or after SIGTERM, SIGINT or SIGHUP while the CLI makes the initial model.

Set ATTNVIZ_TORCH_PATH to test another copy of the package (e.g. the previous commit's, to
see these tests fail there).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PKG = os.environ.get("ATTNVIZ_TORCH_PATH", os.path.join(ROOT, "python"))
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/app/attnviz-cli")
HAVE_CLI = os.path.exists(CLI)
ENV = dict(os.environ, PYTHONPATH=PKG, OMP_NUM_THREADS="1", ATTNVIZ_CLI=CLI if HAVE_CLI else "/nonexistent")
MODEL = os.path.join(ROOT, "tests/fuzz/corpus/checkpoint/mixture.safetensors")
CONFIG = os.path.join(ROOT, "tests/data/configs/dot_post_nobias_untied.json")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(module, *args, env=None):
    return subprocess.run([sys.executable, "-m", f"attnviz_torch.{module}", *args], env=env or ENV,
                          capture_output=True, text=True, timeout=600)


def one_line(r):
    lines = r.stderr.strip().splitlines()
    return r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr


def snapshot(d):
    """{name: (is a link, its target or bytes)} of every entry in `d`."""
    out = {}
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.path.islink(p):
            out[name] = ("link", os.readlink(p))
        elif os.path.isfile(p):
            out[name] = ("file", open(p, "rb").read())
        else:
            out[name] = ("other", None)
    return out


HOWS = ("the same path", "the output a symbolic link to the input", "the input a symbolic link to the output",
        "a hard link")


def make(how, d, content, out_name=None, in_name=None):
    """Makes in `d` an input file holding `content` and an output path that is the same file,
    `how`; a name that must be given (the output's or the input's) is used. -> (out, input)."""
    P = lambda n: os.path.join(d, n)  # noqa: E731
    if how == "the same path":
        n = out_name or in_name or "in"
        open(P(n), "wb").write(content)
        return P(n), P(n)
    out, inp = P(out_name or "o"), P(in_name or "in")
    if how == "the input a symbolic link to the output":
        open(out, "wb").write(content)
        os.symlink(out, inp)
    else:
        open(inp, "wb").write(content)
        (os.symlink if how == "the output a symbolic link to the input" else os.link)(inp, out)
    return out, inp


def fresh_dir(tmp, name):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    return d


def content_for(flag):
    if flag in ("--model", "--init"):
        return open(MODEL, "rb").read()
    if flag == "--config":
        return open(CONFIG, "rb").read()
    if flag == "--data":
        return b"the cat sat\tthe cat sat\n" * 40
    if flag == "--image":
        return b"\x89PNG not really\n"
    return b"\x00\x00\x08\x01\x00\x00\x00\x01\x07"  # an IDX file of one byte


def attention_cases(tmp):
    """attention: --out onto --model, --image and the Fashion-MNIST files."""
    n = 0
    for flag in ("--model", "--image", "--fashion-mnist's file"):
        for how in HOWS:
            n += 1
            d = fresh_dir(tmp, f"att{n}")
            fixed = "t10k-images-idx3-ubyte" if flag == "--fashion-mnist's file" else None
            out, inp = make(how, d, content_for(flag), in_name=fixed)
            args = {"--model": ["--model", inp, "--text", "hello"],
                    "--image": ["--model", MODEL, "--image", inp],
                    "--fashion-mnist's file": ["--model", MODEL, "--fashion-mnist", "0"]}[flag]
            before = snapshot(d)
            r = run("attention", *args, "--out", out, env=dict(ENV, ATTNVIZ_FASHION_MNIST=d))
            named = "--out '" in r.stderr and f"input {flag} '" in r.stderr and "same file" in r.stderr
            check(one_line(r) and named and snapshot(d) == before,
                  f"attention --out onto {flag} ({how}): refused, both named, nothing changed "
                  f"[rc {r.returncode}: {r.stderr.strip()[-150:]}]")


def train_cases(tmp):
    """train: --out and its training state onto --data, --init, --config."""
    n = 0
    for flag in ("--data", "--init", "--config"):
        for output in ("--out", "--out's training state"):
            for how in HOWS:
                n += 1
                d = fresh_dir(tmp, f"train{n}")
                name = "o" if output == "--out" else "o.trainstate"
                _, inp = make(how, d, content_for(flag), out_name=name)
                args = {"--data": ["--config", CONFIG, "--data", inp],
                        "--init": ["--init", inp, "--data", os.path.join(tmp, "data.tsv")],
                        "--config": ["--config", inp, "--task", "copy"]}[flag]
                before = snapshot(d)
                r = run("train", *args, "--steps", "1", "--batch-size", "2", "--log-every", "0",
                        "--out", os.path.join(d, "o"))
                named = f"{output} '" in r.stderr and f"input {flag} '" in r.stderr and "same file" in r.stderr
                check(one_line(r) and named and snapshot(d) == before,
                      f"train {output} onto {flag} ({how}): refused, both named, nothing changed "
                      f"[rc {r.returncode}: {r.stderr.strip()[-160:]}]")


def outputs_onto_outputs(tmp):
    for how in ("a hard link", "a symbolic link"):
        d = fresh_dir(tmp, "oo-" + how.replace(" ", "-"))
        out = os.path.join(d, "m.safetensors")
        open(out, "wb").write(open(MODEL, "rb").read())
        (os.link if how == "a hard link" else os.symlink)(out, out + ".trainstate")
        before = snapshot(d)
        r = run("train", "--config", CONFIG, "--data", os.path.join(tmp, "data.tsv"), "--steps", "1",
                "--batch-size", "2", "--log-every", "0", "--out", out)
        check(one_line(r) and "--out's training state" in r.stderr and "--out '" in r.stderr
              and "same file" in r.stderr and snapshot(d) == before,
              f"train: --out and its training state as one file ({how}): refused, nothing changed "
              f"[rc {r.returncode}: {r.stderr.strip()[-160:]}]")


def leftovers(d, keep):
    return sorted(f for f in os.listdir(d) if f not in keep)


def temporaries(tmp):
    if not HAVE_CLI:
        print("skip temporary names: no attnviz-cli")
        return
    d = fresh_dir(tmp, "tmpnames")
    out = os.path.join(d, "m.safetensors")
    mine = {out + ".init.safetensors": b"a person's file of the old fixed name\n",
            out + ".init-notes.safetensors": b"another person's file\n"}
    for p, b in mine.items():
        open(p, "wb").write(b)
    data = os.path.join(tmp, "data.tsv")
    keep = {os.path.basename(p) for p in mine}
    r = run("train", "--config", CONFIG, "--data", data, "--steps", "2", "--batch-size", "2", "--log-every", "0",
            "--out", out)
    same = all(os.path.exists(p) and open(p, "rb").read() == b for p, b in mine.items())
    left = leftovers(d, keep | {"m.safetensors", "m.safetensors.trainstate"})
    check(r.returncode == 0 and same and not left,
          f"train: a person's files named OUT.init.safetensors and OUT.init-notes.safetensors are kept as they "
          f"were; no temporary file left ({left}) [rc {r.returncode}: {r.stderr.strip()[-120:]}]")
    # The CLI fails (a configuration it refuses): the temporary file goes too.
    bad = os.path.join(d, "bad.json")
    open(bad, "w").write('{"arch": "seq2seq", "d_model": 3}')
    out2 = os.path.join(d, "n.safetensors")
    r = run("train", "--config", bad, "--data", data, "--steps", "2", "--batch-size", "2", "--out", out2)
    left = leftovers(d, keep | {"m.safetensors", "m.safetensors.trainstate", "bad.json"})
    check(r.returncode != 0 and "Traceback" not in r.stderr and not left,
          f"train: the CLI refuses the configuration: a message, no temporary file left ({left}) "
          f"[{r.stderr.strip()[-120:]}]")
    # A signal while the CLI makes the initial model (at once when the temporary file
    # appears, the moment between making it and keeping its name included): it is removed.
    cleaned, tries = 0, 0
    for k, sig in enumerate([signal.SIGTERM, signal.SIGINT, signal.SIGHUP] * 3):
        out3 = os.path.join(d, f"s{k}.safetensors")
        p = subprocess.Popen([sys.executable, "-m", "attnviz_torch.train", "--config", CONFIG, "--task", "copy",
                              "--steps", "50", "--batch-size", "2", "--log-every", "0", "--out", out3],
                             env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t = time.time()
        while time.time() - t < 20 and not any(f.startswith(f"s{k}.safetensors.init-") for f in os.listdir(d)):
            time.sleep(0.002)
        p.send_signal(sig)
        err = p.communicate(timeout=120)[1]
        left = [f for f in os.listdir(d) if f.startswith(f"s{k}.safetensors")]
        tries += 1
        cleaned += not left and "Traceback" not in err
        if left or "Traceback" in err:
            print(f"     {signal.Signals(sig).name} {k}: left {left} {err.strip()[-200:]}")
    check(cleaned == tries, f"train: SIGTERM, SIGINT or SIGHUP while the initial model is made leaves no "
                            f"temporary file and no traceback ({cleaned} of {tries})")
    time.sleep(1)
    orphans = [pid for pid in os.listdir("/proc") if pid.isdigit() and d.encode() in _cmdline(pid)]
    check(not orphans, f"train: no attnviz-cli left running after those signals ({orphans})")


def _cmdline(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        return b""


def main():
    print(f"package: {PKG}; engine: {CLI if HAVE_CLI else 'not built: the training runs are skipped'}")
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "data.tsv"), "w").write("the cat sat\tthe cat sat\n" * 40)
        attention_cases(tmp)
        train_cases(tmp)
        outputs_onto_outputs(tmp)
        temporaries(tmp)
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all passed")


if __name__ == "__main__":
    main()
