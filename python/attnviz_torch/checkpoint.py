# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz checkpoints: safetensors files with F32 tensors and the metadata of
docs/model-spec.md ("format", "format_version", "config", "src_vocab", "tgt_vocab",
"tokenizer", "training"), read and written with nothing but json, struct and numpy.
Writes are atomic (a temporary file in the same directory, then a rename), so a reader (the
app watching a folder) never sees half a file."""
import json
import os
import struct
import tempfile

import numpy as np
import torch


def read_checkpoint(path):
    """(tensors {name: float32 torch tensor}, metadata {key: str})."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path} is not a safetensors file (too short)")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > len(raw) - 8:
        raise ValueError(f"{path}: the header length {n} exceeds the file")
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    if meta.get("format") != "attnviz":
        raise ValueError(f"{path} is not an attnviz checkpoint (metadata format is {meta.get('format')!r})")
    data = raw[8 + n:]
    tensors = {}
    for name, e in header.items():
        if e["dtype"] != "F32":
            raise ValueError(f"{path}: tensor {name} is {e['dtype']}; this package reads F32")
        b, end = e["data_offsets"]
        arr = np.frombuffer(data[b:end], dtype="<f4").reshape(e["shape"])
        tensors[name] = torch.from_numpy(arr.copy())
    return tensors, meta


def write_checkpoint(path, tensors, meta):
    """Writes {name: tensor} (stored as F32, names sorted) and the metadata atomically."""
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        arr = tensors[name].detach().to(torch.float32).cpu().contiguous().numpy().astype("<f4")
        b = arr.tobytes()
        header[name] = {"dtype": "F32", "shape": list(arr.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    header["__metadata__"] = {k: str(v) for k, v in meta.items()}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)  # the data starts 8-byte aligned
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".attnviz-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(struct.pack("<Q", len(h)))
            f.write(h)
            for b in blobs:
                f.write(b)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
