#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`cmake --install` into a fresh prefix, then the installed programs from another folder
and without ATTNVIZ_MODELS: attnviz-cli finds the bundled models in share/attnviz next to
itself, the app renders its default comparison from them and opens checkpoints named on its
command line, the PyTorch twin runs as `python3 -m attnviz_torch`, and the desktop files, man
pages and completion are where a desktop and man look for them."""
import argparse, os, shutil, subprocess, sys, tempfile

p = argparse.ArgumentParser()
p.add_argument("--build", required=True)
p.add_argument("--cmake", required=True)
p.add_argument("--python", default="/usr/bin/python3")
p.add_argument("--ui", action="store_true")
a = p.parse_args()
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


tmp = tempfile.mkdtemp(prefix="attnviz-install-")
prefix = os.path.join(tmp, "prefix")
r = subprocess.run([a.cmake, "--install", a.build, "--prefix", prefix], capture_output=True,
                   text=True, timeout=300)
check("cmake --install", r.returncode == 0, r.stderr[-600:])
env = {k: v for k, v in os.environ.items() if k != "ATTNVIZ_MODELS"}
env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=os.path.join(tmp, "config"),
           LC_ALL="C.UTF-8", LANGUAGE="")
elsewhere = os.path.join(tmp, "elsewhere")
os.makedirs(elsewhere)


def run(*cmd, extra=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=elsewhere,
                       env=dict(env, **(extra or {})))
    return r.returncode, r.stdout, r.stderr


models = os.path.join(prefix, "share/attnviz/models")
cli = os.path.join(prefix, "bin/attnviz-cli")
check("models in share/attnviz/models", os.path.exists(os.path.join(models, "01-dot.safetensors"))
      and os.path.exists(os.path.join(models, "en-es")) and os.path.exists(os.path.join(models, "configs")))
rc, out, err = run(cli, "--version")
check("attnviz-cli --version", rc == 0 and "attnviz-cli 0.1.0" in out, out + err)
# A preset is read from share/attnviz/models/configs: found next to the executable.
rc, out, err = run(cli, "presets")
check("attnviz-cli presets finds the installed configurations", rc == 0 and "dot" in out, err[-400:])
rc, out, err = run(cli, "info", "--model", os.path.join(models, "01-dot.safetensors"))
check("attnviz-cli info on an installed model", rc == 0, err[-400:])
for page in ("attnviz-cli",) + (("attnviz",) if a.ui else ()):
    check(f"man page {page}.1.gz", os.path.exists(os.path.join(prefix, f"share/man/man1/{page}.1.gz")))
check("bash completion", os.path.exists(os.path.join(prefix, "share/bash-completion/completions/attnviz-cli")))

if a.ui:
    app = os.path.join(prefix, "bin/attnviz")
    rc, out, err = run(cli, "render", "--model", os.path.join(models, "01-dot.safetensors"),
                       "--text", "I want to go to the station", "--out", "dot.png")
    check("attnviz-cli render on an installed model",
          rc == 0 and os.path.getsize(os.path.join(elsewhere, "dot.png")) > 1000, err[-400:])
    rc, out, err = run(app, "--fresh", "--export-figure", "default.png")
    check("the app's default comparison from the installed models",
          rc == 0 and "no models" not in err and os.path.exists(os.path.join(elsewhere, "default.png")),
          err[-400:])
    bad = os.path.join(elsewhere, "broken.safetensors")
    open(bad, "w").write("not a checkpoint")
    rc, out, err = run(app, os.path.join(models, "01-dot.safetensors"), bad,
                       os.path.join(models, "09-hc-sa.safetensors"), "--export-figure", "files.png")
    check("attnviz FILE... opens the good files and names the bad one",
          rc == 0 and "broken.safetensors" in err and "no models" not in err
          and os.path.exists(os.path.join(elsewhere, "files.png")), err[-400:])
    for f in ("applications/org.attnviz.attnviz.desktop", "metainfo/org.attnviz.attnviz.metainfo.xml",
              "mime/packages/attnviz.xml", "icons/hicolor/scalable/apps/org.attnviz.attnviz.svg",
              "icons/hicolor/48x48/apps/org.attnviz.attnviz.png"):
        check(f"share/{f}", os.path.exists(os.path.join(prefix, "share", f)))

pydirs = [os.path.join(root) for root, dirs, files in os.walk(prefix) if "attnviz_torch" in dirs]
check("the PyTorch twin is installed", len(pydirs) == 1, str(pydirs))
if pydirs and subprocess.run([a.python, "-c", "import torch"], capture_output=True).returncode == 0:
    rc, out, err = run(a.python, "-m", "attnviz_torch", extra={"PYTHONPATH": pydirs[0]})
    check("python3 -m attnviz_torch", rc == 0 and "attnviz_torch.train" in out, err[-400:])

shutil.rmtree(tmp, ignore_errors=True)
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
