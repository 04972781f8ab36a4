#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""kill -9 during `attnviz-cli train`, again and again (issue 11, defect 9).

After every kill the output path holds either nothing yet, or a complete checkpoint that
`info` loads (the old or the new one, never a truncated file); the only temporary file
allowed is the one of the process just killed, and the next run removes it. At the end a
full run must leave no temporary file at all.

    kill_loop.py --cli build/release/app/attnviz-cli --kills 100   # the full loop (minutes)
    kill_loop.py --cli ... --kills 10 --small                      # the bounded ctest version
"""
import argparse
import glob
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time


def loads(cli, path):
    r = subprocess.run([cli, "info", "--model", path, "--json"], capture_output=True, text=True)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--small", action="store_true", help="a small model: fast, for ctest")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    d_model, d_ff = (64, 128) if args.small else (384, 1536)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "c.json")
        with open(cfg, "w") as f:
            json.dump({"d_model": d_model, "heads": 4, "d_ff": d_ff, "enc_layers": 2, "dec_layers": 2,
                       "max_len": 48}, f)
        out = os.path.join(tmp, "m.safetensors")
        cmd = [args.cli, "train", "--config", cfg, "--task", "copy", "--steps", "2", "--batch-size", "4",
               "--held-out", "8", "--out", out]
        t0 = time.monotonic()
        subprocess.run(cmd, check=True, capture_output=True)
        full = time.monotonic() - t0
        size = os.path.getsize(out)
        stats = {"kills": 0, "complete_after_kill": 0, "absent_after_kill": 0, "temp_left_by_kill": 0,
                 "bad": 0}
        for i in range(args.kills):
            before = set(glob.glob(out + ".tmp-*"))
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # Half the kills land anywhere, half near the end of the run, where the write is.
            lo = 0.0 if i % 2 == 0 else 0.7 * full
            time.sleep(rng.uniform(lo, full * 1.05))
            p.send_signal(signal.SIGKILL)
            p.wait()
            stats["kills"] += 1
            temps = set(glob.glob(out + ".tmp-*"))
            stats["temp_left_by_kill"] += len(temps - before)
            if os.path.exists(out):
                if loads(args.cli, out) and os.path.getsize(out) == size:
                    stats["complete_after_kill"] += 1
                else:
                    stats["bad"] += 1
                    print(f"FAIL after kill {i}: {out} does not load", file=sys.stderr)
            else:
                stats["absent_after_kill"] += 1
        # One complete run: it must remove every temporary of the killed runs.
        subprocess.run(cmd, check=True, capture_output=True)
        left = glob.glob(out + ".tmp-*")
        stats["temp_files_after_final_run"] = len(left)
        stats["final_loads"] = loads(args.cli, out)
        stats["checkpoint_bytes"] = size
        stats["seconds_per_run"] = round(full, 2)
        print(json.dumps(stats))
        if stats["bad"] or left or not stats["final_loads"]:
            sys.exit("FAIL")


if __name__ == "__main__":
    main()
