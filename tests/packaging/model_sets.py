#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every bundled model set reaches what a user runs (issue 47).

The expected sets are found in the source tree as the engine finds them (core/workspace.h:
each folder of resources/models holding checkpoints or a set.json), so a set added later is
covered without editing this test. Then, without ATTNVIZ_MODELS and from a folder elsewhere:

  * the built attnviz-cli (build tree) and the one of a `cmake --install` prefix list every
    set (`sets --json`) with the source folder's model count, its kind (a folder of "vit"
    checkpoints is an image set), and a folder inside their own tree, never the source's;
  * the built and the installed app list the same sets in their Models box
    (`--list-model-sets`, the texts a person reads, "· N models"), each with models
    choosable, and render each set's default figure (`--model-set ID --export-figure`);
  * the bundled clothing photos (resources/data) are found by the tree's attnviz-cli
    (`eval --task clothing-photos` of a colour model made on the spot scores all 406);
  * the UI benchmark's image cases run on every model of the first image set, and refuse to
    report when no model loads (it once timed 0 models and printed the times).
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

p = argparse.ArgumentParser()
p.add_argument("--source", required=True, help="resources/models of the source tree")
p.add_argument("--cli", required=True, help="the build tree's attnviz-cli")
p.add_argument("--app", help="the build tree's attnviz (absent: no UI built)")
p.add_argument("--ui-bench", help="the build tree's attnviz-ui-bench (absent: no UI built)")
p.add_argument("--build", required=True, help="the build directory, for cmake --install")
p.add_argument("--cmake", required=True)
a = p.parse_args()
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


def source_sets(top):
    """{folder relative to top: (checkpoints, holds vit configs)} as core/workspace.cpp finds them."""
    sets = {}
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        n = sum(f.endswith(".safetensors") for f in files)
        if n or "set.json" in files:
            rel = os.path.relpath(root, top)
            sets[rel] = n
    return sets


def vit(path):
    """Whether a checkpoint's config says arch "vit" (read from the safetensors header)."""
    with open(path, "rb") as f:
        size = int.from_bytes(f.read(8), "little")
        meta = json.loads(f.read(size))["__metadata__"]
    return json.loads(meta["config"]).get("arch") == "vit"


expected = source_sets(a.source)
kinds = {}
for rel in expected:
    files = sorted(f for f in os.listdir(os.path.join(a.source, rel)) if f.endswith(".safetensors"))
    kinds[rel] = "images" if files and vit(os.path.join(a.source, rel, files[0])) else "text"
print("source sets:", ", ".join(f"{d} ({n}, {kinds[d]})" for d, n in sorted(expected.items())))
check("the source tree has an image set", "images" in kinds.values())

tmp = tempfile.mkdtemp(prefix="attnviz-sets-")
elsewhere = os.path.join(tmp, "elsewhere")
os.makedirs(elsewhere)
env = {k: v for k, v in os.environ.items() if k not in ("ATTNVIZ_MODELS", "ATTNVIZ_CLOTHING_PHOTOS")}
env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=os.path.join(tmp, "config"),
           LC_ALL="C.UTF-8", LANGUAGE="")


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=elsewhere, env=env)
    return r.returncode, r.stdout, r.stderr


def check_tree(where, cli, app, own_root):
    rc, out, err = run(cli, "sets", "--json")
    check(f"{where}: attnviz-cli sets", rc == 0, err[-400:])
    try:
        listed = json.loads(out) if rc == 0 else []
    except ValueError:
        listed = []
    by_dir = {s["dir"]: s for s in listed}
    check(f"{where}: the same set folders as the source", sorted(by_dir) == sorted(expected),
          f"listed {sorted(by_dir)}, source {sorted(expected)}")
    for rel, n in sorted(expected.items()):
        s = by_dir.get(rel)
        if not s:
            continue
        check(f"{where}: set '{s['id']}' has the source's {n} models", s["models"] == n,
              f"{s['models']} models in {s['path']}")
        check(f"{where}: set '{s['id']}' is {kinds[rel]}", s["kind"] == kinds[rel], s["kind"])
        real = os.path.realpath(s["path"])
        check(f"{where}: set '{s['id']}' is read from its own tree",
              real.startswith(os.path.realpath(own_root) + os.sep)
              and not real.startswith(os.path.realpath(a.source) + os.sep), real)
    # The bundled data sets reach the tree too (issue 49): a colour model made here is
    # evaluated on the clothing photos found beside the tree's models, not the source's.
    cfg = os.path.join(elsewhere, "colour.json")
    with open(cfg, "w") as f:
        json.dump({"arch": "vit", "image_size": 64, "channels": 3, "patch": 16, "d_model": 8,
                   "heads": 2, "d_ff": 8, "enc_layers": 1, "pool": "mean"}, f)
    model = os.path.join(elsewhere, f"colour-{where}.safetensors".replace(" ", "-"))
    rc, out, err = run(cli, "init", "--config", cfg, "--out", model)
    rc2, out2, err2 = run(cli, "eval", "--model", model, "--task", "clothing-photos", "--split",
                          "validation") if rc == 0 else (rc, "", err)
    try:
        scored = sum(map(sum, json.loads(out2)["metrics"]["confusion"])) if rc2 == 0 else 0
    except (ValueError, KeyError, TypeError):
        scored = 0
    check(f"{where}: eval --task clothing-photos reads the tree's bundled photos", scored == 406,
          f"rc {rc2}, {scored} photos scored: {err2[-300:]}")
    if not app:
        return
    rc, out, err = run(app, "--language", "en", "--list-model-sets")
    check(f"{where}: attnviz --list-model-sets", rc == 0, err[-400:])
    box = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            box[parts[0]] = parts
    for s in listed:
        entry = box.get(s["id"])
        m = re.search(r"· (\d+) models$", entry[2]) if entry else None
        count = int(m.group(1)) if m else -1
        check(f"{where}: the Models box offers '{s['id']}' with {s['models']} models",
              count == s["models"] and entry[1] == ("enabled" if s["models"] else "disabled"),
              str(entry))
        if not s["models"]:
            continue
        png = os.path.join(elsewhere, f"{where}-{s['id']}.png".replace(" ", "-"))
        rc, out, err = run(app, "--model-set", s["id"], "--export-figure", png)
        check(f"{where}: the app renders set '{s['id']}'",
              rc == 0 and "no models" not in err and os.path.getsize(png) > 1000
              if os.path.exists(png) else False, err[-400:])
    check(f"{where}: the Models box has no other entry", sorted(box) == sorted(s["id"] for s in listed),
          f"{sorted(box)}")


check_tree("build tree", a.cli, a.app, a.build)

if a.ui_bench:
    image_sets = [d for d in sorted(expected) if kinds[d] == "images" and expected[d]]
    rc, out, err = run(a.ui_bench, "--repeat", "1", "--cases", "image,image-docks,image-query")
    try:
        rows = json.loads(out)["results"] if rc == 0 else []
    except (ValueError, KeyError):
        rows = []
    # The bench runs the three image cases on every image set with models and says which (its
    # id), each with that set's count: a set added later is covered without editing this.
    rc_sets, sets_out, _ = run(a.cli, "sets", "--json")
    folder = {s["id"]: s["dir"] for s in json.loads(sets_out)} if rc_sets == 0 else {}
    ran = [(folder.get(r.get("set")), r.get("models")) for r in rows]
    check("attnviz-ui-bench: every image case ran on every image set's models",
          rc == 0 and len(rows) == 3 * len(image_sets) and image_sets != [] and
          sorted({d for d, _ in ran}) == image_sets and
          all(d in image_sets and m == expected[d] for d, m in ran),
          f"rc {rc}, ran {ran}, image sets {[(d, expected[d]) for d in image_sets]}: {err[-300:]}")
    empty = os.path.join(tmp, "empty-models")
    os.makedirs(empty)
    for cases in ("image", "12"):
        r = subprocess.run([a.ui_bench, "--repeat", "1", "--cases", cases], capture_output=True,
                           text=True, timeout=300, cwd=elsewhere,
                           env=dict(env, ATTNVIZ_MODELS=empty))
        check(f"attnviz-ui-bench --cases {cases} with no models refuses to report",
              r.returncode != 0 and '"results"' not in r.stdout and "models" in r.stderr,
              f"rc {r.returncode}: {r.stdout[-200:]} {r.stderr[-300:]}")

prefix = os.path.join(tmp, "prefix")
r = subprocess.run([a.cmake, "--install", a.build, "--prefix", prefix], capture_output=True,
                   text=True, timeout=600)
check("cmake --install", r.returncode == 0, r.stderr[-600:])
if r.returncode == 0:
    check_tree("install prefix", os.path.join(prefix, "bin/attnviz-cli"),
               os.path.join(prefix, "bin/attnviz") if a.app else None, prefix)

shutil.rmtree(tmp, ignore_errors=True)
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
