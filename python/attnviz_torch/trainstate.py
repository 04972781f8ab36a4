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
from .limits import (MAX_CHECKPOINT_BYTES, MAX_CONFIG_BYTES, InputError, cut, excerpt, is_number, parse_json,
                     read_file)

FORMAT = "attnviz-trainstate"
SUFFIX = ".trainstate"
# Per-parameter entries of the optimisers this package uses (torch.optim.AdamW, SGD without
# momentum, whose buffer is None): those stored as tensors and those stored as scalars (a
# JSON object {"value": v[, "tensor": "F32"|"F64"]}). A parameter's state has all of them, or
# none (a parameter that never had a gradient).
TENSORS = {"adam": {"exp_avg", "exp_avg_sq"}, "sgd": {"momentum_buffer"}}
SCALARS = {"adam": {"step"}, "sgd": {"momentum_buffer"}}
NON_NEGATIVE = {"exp_avg_sq"}
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


def _entry_key(key, params):
    """'IDX.NAME' -> (idx, name), IDX a parameter's index written as save_pair writes it."""
    idx, dot, name = key.partition(".")
    if not dot or not idx.isascii() or not idx.isdigit() or (len(idx) > 1 and idx[0] == "0") or len(idx) > 9 \
            or int(idx) >= len(params):
        raise InputError(f"unexpected entry '{cut(key)}' (entries are INDEX.NAME, INDEX one of the model's "
                         f"{len(params)} parameters)")
    return int(idx), name


def _meta(meta, optimizer_name):
    """The metadata's keys, each present, a string, and of its form; returns the step."""
    if meta.get("format") != FORMAT or meta.get("version") != "1":
        raise InputError("not an attnviz training state (format, version)")
    for key in ("step", "optimizer", "checkpoint_sha256", "scalars"):
        if key not in meta:
            raise InputError(f"its metadata '{key}' is missing")
    step = meta["step"]
    if not (step.isascii() and step.isdigit()) or len(step) > 18:
        raise InputError(f"its step must be an integer of at least 0, got {excerpt(step)}")
    if meta["optimizer"] != optimizer_name:
        raise InputError(f"it is the state of --optimizer {excerpt(meta['optimizer'])}, this run uses "
                         f"{optimizer_name}")
    digest = meta["checkpoint_sha256"]
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise InputError(f"its checkpoint_sha256 must be 64 lower-case hexadecimal digits, got {excerpt(digest)}")
    return int(step)


def load(out, optimizer, optimizer_name, checkpoint_step):
    """Loads the state beside `out` into `optimizer` and returns its step; InputError when
    the file is not a valid state, belongs to another optimiser or model, or does not match
    the checkpoint (its step and bytes). Every key is checked for presence, type and range
    before the optimiser sees any of it: each parameter with a state has all of its
    optimiser's entries (AdamW: step, a scalar tensor holding a count of at most the state's
    step; exp_avg and exp_avg_sq, tensors of the parameter's shape, exp_avg_sq at least 0;
    SGD: momentum_buffer, null or a tensor of the parameter's shape), all finite."""
    path = state_path(out)
    raw = read_file(path, MAX_CHECKPOINT_BYTES, "training state")
    try:
        entries, meta, start = parse_safetensors(raw, dtypes=("F32", "F64"))
        step = _meta(meta, optimizer_name)
        ckpt = read_file(out, MAX_CHECKPOINT_BYTES, "checkpoint")
        if step != checkpoint_step or hashlib.sha256(ckpt).hexdigest() != meta["checkpoint_sha256"]:
            raise InputError(f"it belongs to step {step} but {out} is at step {checkpoint_step} or was written "
                             "by another save: the run was stopped while saving, or the files come from "
                             "different runs. Train again without --resume (or from --init)")
        scalars = parse_json(meta["scalars"], "its scalars", MAX_CONFIG_BYTES)
        if not isinstance(scalars, dict):
            raise InputError(f"its scalars must be a JSON object, got {excerpt(scalars)}")
        sd = optimizer.state_dict()
        params = [p for g in optimizer.param_groups for p in g["params"]]
        tensor_names, scalar_names = TENSORS[optimizer_name], SCALARS[optimizer_name]
        state = {}
        for key, (shape, b, end, dtype) in entries.items():
            idx, name = _entry_key(key, params)
            if name not in tensor_names:
                raise InputError(f"unexpected tensor '{cut(key)}' (with --optimizer {optimizer_name} the "
                                 f"tensors are {', '.join(sorted(tensor_names))})")
            p = params[idx]
            if shape != list(p.shape):
                raise InputError(f"entry '{key}' has shape {shape}, its parameter {list(p.shape)}")
            arr = np.frombuffer(raw, dtype="<f8" if dtype == "F64" else "<f4", count=p.numel(), offset=start + b)
            if not np.isfinite(arr).all():
                raise InputError(f"entry '{key}' contains NaN or infinity")
            if name in NON_NEGATIVE and (arr < 0).any():
                raise InputError(f"entry '{key}' holds a negative value (a mean of squares is at least 0)")
            state.setdefault(idx, {})[name] = torch.from_numpy(arr.reshape(shape).copy())
        for key, s in scalars.items():
            idx, name = _entry_key(key, params)
            if name not in scalar_names:
                raise InputError(f"unexpected scalar '{cut(key)}' (with --optimizer {optimizer_name} the "
                                 f"scalars are {', '.join(sorted(scalar_names))})")
            if name in state.get(idx, {}):
                raise InputError(f"'{cut(key)}' is both a tensor and a scalar")
            if not isinstance(s, dict) or "value" not in s or set(s) - {"value", "tensor"}:
                raise InputError(f"scalar '{cut(key)}' must be an object of 'value' (and 'tensor'), "
                                 f"got {excerpt(s)}")
            v, kind = s["value"], s.get("tensor")
            if name == "step":
                if kind not in ("F32", "F64"):
                    raise InputError(f"scalar '{cut(key)}' must be a tensor (\"tensor\": \"F32\" or \"F64\"), "
                                     f"got {excerpt(kind)}")
                if not (is_number(v) and 0 <= v <= step and float(v).is_integer()):
                    raise InputError(f"scalar '{cut(key)}' must be a count of steps from 0 to the state's step "
                                     f"{step}, got {excerpt(v)}")
                v = torch.tensor(float(v), dtype=torch.float32 if kind == "F32" else torch.float64)
            elif kind is not None or v is not None:  # momentum_buffer: null, or a tensor entry
                raise InputError(f"scalar '{cut(key)}' must be null, got {excerpt(v)}")
            state.setdefault(idx, {})[name] = v
        for idx in sorted(state):
            missing = sorted((tensor_names | scalar_names) - set(state[idx]))
            if missing:
                raise InputError(f"the state of parameter {idx} lacks '{missing[0]}' (with --optimizer "
                                 f"{optimizer_name} it holds {', '.join(sorted(tensor_names | scalar_names))})")
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    sd["state"] = state
    optimizer.load_state_dict(sd)
    return step
