#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's command line as a user types it, headless (--export-figure): --session FILE and
--session=FILE both open the workspace; a file that cannot be read, is not a session, is
nested 300,000 levels deep or lists checkpoints that cannot be opened is named on stderr with
its reason; an unusable session exits non-zero; nothing crashes."""
import argparse, json, os, shutil, struct, subprocess, sys, tempfile, threading, time

p = argparse.ArgumentParser()
p.add_argument("--app", required=True)
p.add_argument("--models", required=True)
a = p.parse_args()
tmp = tempfile.mkdtemp(prefix="attnviz-cmdline-")
env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=tmp,
           ATTNVIZ_MODELS=a.models)
failures = []


def run(*args):
    r = subprocess.run([a.app, *args, "--export-figure", os.path.join(tmp, "f.png")],
                       env=env, capture_output=True, text=True, timeout=120)
    err = "\n".join(l for l in r.stderr.splitlines() if "propagateSizeHints" not in l)
    return r.returncode, err


def check(name, ok, rc, err):
    print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {rc}; stderr: {err[:400]!r}")
    if not ok:
        failures.append(name)


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def deep_checkpoint(name, key, depth=300_000):
    """The first bundled model with a metadata value nested `depth` levels deep (or, for key
    "kind", training metadata whose "kind" is a number)."""
    b = open(os.path.join(a.models, "01-dot.safetensors"), "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    h = json.loads(b[8:8 + n])
    m = h["__metadata__"]
    deep = "[" * depth + "]" * depth
    if key == "config":
        m["config"] = m["config"].replace('"bias":true', '"bias":' + deep)
    elif key == "kind":
        m["training"] = '{"kind": 5}'
    else:
        m["training"] = '{"notes": ' + deep + "}"
    hb = json.dumps(h).encode()
    path = os.path.join(tmp, name)
    open(path, "wb").write(struct.pack("<Q", len(hb)) + hb + b[8 + n:])
    return path


garbage = write("garbage.attnviz.json", "this is not JSON\n")
for form in (["--session", garbage], ["--session=" + garbage]):
    rc, err = run(*form)
    check(f"garbage session {form[0]}", rc not in (0,) and rc > 0 and "garbage.attnviz.json" in err,
          rc, err)

array = write("array.attnviz.json", "[1,2]")
rc, err = run("--session", array)
check("session [1,2]", rc > 0 and "array.attnviz.json" in err and "no error occurred" not in err,
      rc, err)

deep_ws = write("deep.attnviz.json", '{"attnviz_session": 1, "view": ' + "[" * 300_000 +
                "]" * 300_000 + "}")
rc, err = run("--session", deep_ws)
check("workspace nested 300,000 deep", rc > 0 and "deep.attnviz.json" in err, rc, err)

good = [os.path.join(os.path.abspath(a.models), f) for f in ("01-dot.safetensors", "09-hc-sa.safetensors")]
corrupt = write("corrupt.safetensors", "\x10\0\0\0\0\0\0\0{\"a\": 1}")
missing = os.path.join(tmp, "missing.safetensors")
mixed = write("mixed.attnviz.json", json.dumps(
    {"attnviz_session": 1, "source": "I want to go", "columns": [good[0], corrupt, good[1], missing]}))
for form in (["--session", mixed], ["--session=" + mixed]):
    rc, err = run(*form)
    check(f"2 of 4 columns unloadable {form[0]}",
          rc == 0 and corrupt in err and missing in err and os.path.exists(os.path.join(tmp, "f.png")),
          rc, err)

deep_cfg, deep_train = deep_checkpoint("deep-config.safetensors", "config"), deep_checkpoint(
    "deep-training.safetensors", "training")
ws = write("deep-columns.attnviz.json", json.dumps(
    {"attnviz_session": 1, "source": "I want to go", "columns": [good[0], deep_cfg, deep_train]}))
rc, err = run("--session", ws)
check("workspace listing checkpoints nested 300,000 deep",
      rc == 0 and deep_cfg in err and deep_train in err, rc, err)

kind = deep_checkpoint("kind-number.safetensors", "kind")
ws = write("kind.attnviz.json", json.dumps(
    {"attnviz_session": 1, "source": "I want to go", "columns": [good[0], kind]}))
rc, err = run("--session", ws)
check("checkpoint whose training 'kind' is a number (the analysis threw on a worker)",
      rc == 0 and kind in err, rc, err)

models = os.path.join(tmp, "models")
os.mkdir(models)
os.symlink(good[0], os.path.join(models, "01-dot.safetensors"))
os.symlink(deep_train, os.path.join(models, "02-deep.safetensors"))
rc, err = run("--models", models)
check("--models folder with a deep checkpoint", rc == 0 and "02-deep.safetensors" in err, rc, err)



def plain_start(last_columns, restoring, expect):
    """A plain start (no arguments) with this last workspace in the settings; the app is
    stopped once its stderr holds every string of `expect`, or after 60 s (a fixed 4 s failed
    on a loaded machine before the app had said anything). Returns (exit code, stderr); -15
    means it was still running."""
    cfg = tempfile.mkdtemp(prefix="cfg-", dir=tmp)
    os.makedirs(os.path.join(cfg, "attnviz"))
    last = json.dumps({"attnviz_session": 1, "source": "I want to go", "columns": last_columns},
                      separators=(",", ":")).replace('"', '\\"')
    with open(os.path.join(cfg, "attnviz", "attnviz.conf"), "w") as f:
        f.write('[General]\nlastSession="@ByteArray(%s)"\n' % last)
        if restoring:
            f.write("restoringLastSession=true\n")
    proc = subprocess.Popen([a.app], env=dict(env, XDG_CONFIG_HOME=cfg), stderr=subprocess.PIPE,
                            text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        if all(e in "".join(lines) for e in expect):
            time.sleep(3)  # a crash soon after the message (the analysis) is still seen
            break
        time.sleep(0.1)
    if proc.poll() is None:
        proc.terminate()
    proc.wait()
    reader.join()
    err = "".join(lines)
    return proc.returncode, "\n".join(l for l in err.splitlines() if "propagate" not in l)


rc, err = plain_start([good[0], deep_train], restoring=False, expect=[deep_train])
check("plain start, last workspace lists a deep checkpoint", rc == -15 and deep_train in err, rc, err)
rc, err = plain_start([good[0], kind], restoring=False, expect=[kind])  # was: exit 134
check("plain start, last workspace lists a checkpoint the analysis threw on",
      rc == -15 and kind in err, rc, err)
rc, err = plain_start([good[0], good[1]], restoring=True, expect=["was not reopened", good[1]])
check("plain start after a start that never finished restoring",
      rc == -15 and "was not reopened" in err and good[1] in err, rc, err)

shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failures else 0)
