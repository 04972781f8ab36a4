# SPDX-License-Identifier: GPL-3.0-or-later
"""The training state beside a checkpoint (`M.safetensors.trainstate`): the optimiser's
per-parameter state and the step, for `--resume`. No pickle: a safetensors file (F32 or F64
tensors, JSON metadata) read by the same strict reader as checkpoints, so a state file from
a shared folder can hold numbers and nothing that runs.

The state names its checkpoint: the step and the SHA-256 of the checkpoint's bytes. A run
saves the state, then the checkpoint (both atomically); a run stopped between the two leaves
a pair that does not match, and `--resume` refuses it with a message instead of continuing
from a checkpoint and moments of different steps."""
import hashlib
import json

import numpy as np
import torch

from .checkpoint import parse_safetensors, serialize, write_file_atomically
from .limits import MAX_CHECKPOINT_BYTES, MAX_CONFIG_BYTES, InputError, is_int, parse_json, read_file

FORMAT = "attnviz-trainstate"
SUFFIX = ".trainstate"
# Per-parameter entries of the optimisers this package uses (torch.optim.AdamW, SGD).
KNOWN = {"adam": {"step", "exp_avg", "exp_avg_sq"}, "sgd": {"momentum_buffer"}}
DTYPES = {torch.float32: "F32", torch.float64: "F64"}


def state_path(out):
    return out + SUFFIX


def checkpoint_bytes(chunks):
    """(bytes, SHA-256 hex) of a serialised checkpoint."""
    raw = b"".join(chunks)
    return raw, hashlib.sha256(raw).hexdigest()


def save_pair(out, checkpoint_chunks, optimizer, optimizer_name, step):
    """Writes the training state for step `step`, then the checkpoint (both atomically)."""
    raw, digest = checkpoint_bytes(checkpoint_chunks)
    tensors, scalars = {}, {}
    for i, entry in optimizer.state_dict()["state"].items():
        for k, v in entry.items():
            if isinstance(v, torch.Tensor) and v.dim() > 0:
                tensors[f"{i}.{k}"] = v
            elif isinstance(v, torch.Tensor):
                scalars[f"{i}.{k}"] = {"tensor": DTYPES[v.dtype], "value": float(v)}
            else:
                scalars[f"{i}.{k}"] = {"value": v}
    meta = {"format": FORMAT, "version": "1", "step": str(step), "optimizer": optimizer_name,
            "checkpoint_sha256": digest, "scalars": json.dumps(scalars, allow_nan=False)}
    write_file_atomically(state_path(out), serialize(tensors, meta, dtypes={n: DTYPES[t.dtype]
                                                                          for n, t in tensors.items()}))
    write_file_atomically(out, [raw])


def load(out, optimizer, optimizer_name, checkpoint_step):
    """Loads the state beside `out` into `optimizer` and returns its step; InputError when
    the file is not a valid state, belongs to another optimiser or model, or does not match
    the checkpoint (its step and bytes)."""
    path = state_path(out)
    raw = read_file(path, MAX_CHECKPOINT_BYTES, "training state")
    try:
        entries, meta, start = parse_safetensors(raw, dtypes=("F32", "F64"))
        if meta.get("format") != FORMAT or meta.get("version") != "1":
            raise InputError("not an attnviz training state (format, version)")
        if not meta.get("step", "").isdigit():
            raise InputError("its step is not a number")
        step = int(meta["step"])
        if meta.get("optimizer") != optimizer_name:
            raise InputError(f"it is the state of --optimizer {meta.get('optimizer')!r}, "
                             f"this run uses {optimizer_name}")
        ckpt = read_file(out, MAX_CHECKPOINT_BYTES, "checkpoint")
        if step != checkpoint_step or hashlib.sha256(ckpt).hexdigest() != meta.get("checkpoint_sha256"):
            raise InputError(f"it belongs to step {step} but {out} is at step {checkpoint_step} or was written "
                             "by another save: the run was stopped while saving, or the files come from "
                             "different runs. Train again without --resume (or from --init)")
        scalars = parse_json(meta.get("scalars", ""), "scalars", MAX_CONFIG_BYTES)
        if not isinstance(scalars, dict):
            raise InputError("its scalars are not an object")
        sd = optimizer.state_dict()
        params = [p for g in optimizer.param_groups for p in g["params"]]
        state = {}
        for key in list(entries) + list(scalars):
            idx, _, name = key.partition(".")
            if not idx.isdigit() or int(idx) >= len(params) or name not in KNOWN[optimizer_name]:
                raise InputError(f"unexpected entry '{key[:40]}'")
        for key, (shape, b, end, dtype) in entries.items():
            idx, _, name = key.partition(".")
            p = params[int(idx)]
            if shape != list(p.shape):
                raise InputError(f"entry '{key}' has shape {shape}, its parameter {list(p.shape)}")
            arr = np.frombuffer(raw, dtype="<f8" if dtype == "F64" else "<f4", count=p.numel(), offset=start + b)
            if not np.isfinite(arr).all():
                raise InputError(f"entry '{key}' contains NaN or infinity")
            state.setdefault(int(idx), {})[name] = torch.from_numpy(arr.reshape(shape).copy())
        for key, s in scalars.items():
            idx, _, name = key.partition(".")
            if not isinstance(s, dict) or "value" not in s:
                raise InputError(f"scalar '{key[:40]}' is malformed")
            v = s["value"]
            if s.get("tensor") in ("F32", "F64"):
                if not (isinstance(v, (int, float)) and not isinstance(v, bool)):
                    raise InputError(f"scalar '{key[:40]}' is not a number")
                v = torch.tensor(float(v), dtype=torch.float32 if s["tensor"] == "F32" else torch.float64)
            elif not (v is None or is_int(v)):
                raise InputError(f"scalar '{key[:40]}' is neither a count nor null")
            state.setdefault(int(idx), {})[name] = v
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    sd["state"] = state
    optimizer.load_state_dict(sd)
    return step
