#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""docs/scale-out.md's CPU commands, run exactly as written (issue 16).

Usage: scale_out_doc_test.py   (CTest runs it from the repository root)

Takes the shell block between <!-- cpu-commands:begin --> and <!-- cpu-commands:end -->,
runs it with bash -e in a scratch directory that links python/, build/ and resources/ of
this repository (so relative paths work and nothing is written into the tree), with
Debian's python3 first on PATH, then checks what the commands should have made: two
checkpoints that attnviz-cli reads, a run resumed to 500 steps, an attention dump."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    doc = open(os.path.join(ROOT, "docs/scale-out.md"), encoding="utf-8").read()
    m = re.search(r"<!-- cpu-commands:begin -->\s*```sh\n(.*?)```\s*<!-- cpu-commands:end -->", doc, re.S)
    if not m:
        sys.exit("FAIL docs/scale-out.md has no cpu-commands block")
    script = m.group(1)
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("python", "build", "resources"):
            os.symlink(os.path.join(ROOT, d), os.path.join(tmp, d))
        env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
        t0 = time.time()
        r = subprocess.run(["bash", "-e", "-c", script], cwd=tmp, env=env, capture_output=True, text=True)
        took = time.time() - t0
        if r.returncode != 0:
            sys.exit(f"FAIL the commands stopped ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
        cli = os.path.join(ROOT, "build/release/app/attnviz-cli")
        info = json.loads(subprocess.run([cli, "info", "--model", os.path.join(tmp, "runs/dot.safetensors"), "--json"],
                                         check=True, capture_output=True, text=True).stdout)
        steps = info["training"]["steps"]
        if steps != 500 or info["training"]["stopped_early"]:
            sys.exit(f"FAIL runs/dot.safetensors should be the resumed run at 500 steps, has {steps}")
        dump = json.load(open(os.path.join(tmp, "runs/dot-attention.json")))
        if not dump["blocks"]:
            sys.exit("FAIL the attention dump has no block")
        print(f"OK docs/scale-out.md CPU commands ran as written in {took:.0f} s: runs/dot.safetensors at "
              f"{steps} steps (held-out loss {info['training']['held_out']['loss']:.3f}), runs/hc-sa.safetensors "
              f"by 2 processes, the attention dump")
        print(r.stdout[-1500:])


if __name__ == "__main__":
    main()
