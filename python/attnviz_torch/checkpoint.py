# SPDX-License-Identifier: GPL-3.0-or-later
"""attnviz checkpoints: safetensors files with F32 tensors and the metadata of
docs/model-spec.md ("format", "format_version", "config", "src_vocab", "tgt_vocab",
"tokenizer", "training"), read and written with nothing but json, struct and numpy.

Reading applies the engine's rules (docs/model-spec.md 7.3, core/safetensors.cpp and
core/model.cpp): the bytes, the metadata, the configuration (5.4), the vocabularies, the
tokenizer (a SentencePiece model is validated before the library sees it), the training
metadata's types, and the tensors (exactly the configuration's, with their shapes, finite).
Every refusal is an InputError (a ValueError) whose message starts with the path.

Writes are atomic (a temporary file beside the target, flushed, then renamed), with the
engine's file mode (0666 less the umask, or the replaced file's mode), and a temporary
file left by a killed writer is removed by the next write to the same path."""
import contextlib
import json
import os
import random
import re
import signal
import stat
import struct

import numpy as np
import torch

from . import config as cfgmod
from .limits import (MAX_CHECKPOINT_BYTES, MAX_CONFIG_BYTES, MAX_HEADER_BYTES, InputError, cut, excerpt, is_int,
                     is_number, parse_json, read_file)
from .tokenizer import make_tokenizer

SPECIALS = ["<pad>", "<unk>", "<bos>", "<eos>"]
MAX_DIMS = 8
MAX_SIZE = 1 << 40


def _unsigned(v):
    return is_int(v) and v >= 0


ELEMENT_BYTES = {"F32": 4, "F64": 8}


def parse_safetensors(raw, dtypes=("F32",)):
    """Bytes -> ({name: (shape, begin, end, dtype)}, metadata {key: str}, data offset), with
    every rule of docs/model-spec.md 7.3 "bytes" (SafeTensorsFile::parse); checkpoints hold
    F32 only, a training state also F64."""
    size = len(raw)
    if size < 8:
        raise InputError(f"not a safetensors file: only {size} bytes")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > MAX_HEADER_BYTES:
        raise InputError(f"oversized header: {n} bytes (limit {MAX_HEADER_BYTES})")
    if n > size - 8:
        raise InputError(f"truncated file: header of {n} bytes runs past the end of the {size}-byte file")
    try:
        header = parse_json(raw[8:8 + n], "header", MAX_HEADER_BYTES)
    except InputError as e:
        raise InputError(f"malformed header: {e}") from None
    if not isinstance(header, dict):
        raise InputError("malformed header: not a JSON object")
    data_size = size - 8 - n
    meta, spans = {}, []
    for name, e in header.items():
        if name == "__metadata__":
            if not isinstance(e, dict):
                raise InputError("malformed header: __metadata__ is not an object")
            for k, v in e.items():
                if not isinstance(v, str):
                    raise InputError(f"malformed header: metadata '{cut(k)}' is not a string")
                meta[k] = v
            continue
        where = f"tensor '{cut(name)}': "
        if not isinstance(e, dict) or not all(k in e for k in ("dtype", "shape", "data_offsets")):
            raise InputError(where + "entry needs dtype, shape and data_offsets")
        if not isinstance(e["dtype"], str):
            raise InputError(where + "dtype is not a string")
        if e["dtype"] not in dtypes:
            raise InputError(where + f"unsupported dtype '{cut(e['dtype'])}' (expected {' or '.join(dtypes)})")
        width = ELEMENT_BYTES[e["dtype"]]
        shape = e["shape"]
        if not isinstance(shape, list) or len(shape) > MAX_DIMS:
            raise InputError(where + f"shape must be an array of at most {MAX_DIMS} sizes")
        count, nonzero = 1, 1
        for s in shape:
            if not _unsigned(s):
                raise InputError(where + "shape has a negative or non-integer size")
            if s > MAX_SIZE or (s and nonzero > MAX_SIZE // s):
                raise InputError(where + f"shape {shape} is too large")
            if s:
                nonzero *= s
            count *= s
        off = e["data_offsets"]
        if not isinstance(off, list) or len(off) != 2 or not _unsigned(off[0]) or not _unsigned(off[1]):
            raise InputError(where + "data_offsets must be two non-negative integers")
        b, end = off
        if b > end:
            raise InputError(where + "data_offsets are reversed")
        if end > data_size:
            raise InputError(where + f"data runs past the end of the file (offset {end}, data section has "
                             f"{data_size} bytes)")
        if end - b != count * width:
            raise InputError(where + f"shape {shape} needs {count * width} bytes but data_offsets span {end - b}")
        spans.append((b, end, name, list(shape), e["dtype"]))
    spans.sort(key=lambda s: (s[0], s[1]))
    covered = 0
    for b, end, name, _, _ in spans:
        if b < covered:
            raise InputError(f"tensor '{cut(name)}' overlaps another tensor's data (offset {b})")
        if b > covered:
            raise InputError(f"data section has unused bytes before tensor '{cut(name)}'")
        covered = end
    if covered != data_size:
        raise InputError(f"data section has {data_size - covered} unused bytes at the end")
    return {name: (shape, b, end, dt) for b, end, name, shape, dt in spans}, meta, 8 + n


def _vocab(meta, key):
    j = parse_json(meta[key], f"checkpoint {key}", MAX_HEADER_BYTES)
    if not isinstance(j, list):
        raise InputError(f"checkpoint {key} is not a JSON array")
    if not all(isinstance(t, str) for t in j):
        raise InputError(f"checkpoint {key} holds a non-string token")
    where = f"checkpoint {key}: "
    if len(j) < len(SPECIALS):
        raise InputError(where + f"vocabulary has {len(j)} tokens; it must start with <pad>, <unk>, <bos>, <eos>")
    for i, s in enumerate(SPECIALS):
        if j[i] != s:
            raise InputError(where + f"vocabulary token {i} is '{cut(j[i])}', expected '{s}'")
    seen = set()
    for i, t in enumerate(j):
        if not t:
            raise InputError(where + f"vocabulary token {i} is empty")
        if t in seen:
            raise InputError(where + f"vocabulary token '{cut(t)}' appears twice")
        seen.add(t)
    return j  # valid UTF-8: parse_json refuses lone surrogates


def _training(meta):
    """The "training" metadata's known keys have their types (core/training_info.cpp)."""
    if "training" not in meta:
        return
    what = "checkpoint training metadata"
    j = parse_json(meta["training"], what, MAX_HEADER_BYTES)
    if j is None:
        return
    if not isinstance(j, dict):
        raise InputError(f"{what} must be a JSON object, got {excerpt(j)}")

    def fields(obj, where, texts=(), counts=(), numbers=(), flags=()):
        for k in texts:
            if k in obj and not isinstance(obj[k], str):
                raise InputError(f"{where}: '{k}' must be a string, got {excerpt(obj[k])}")
        for k in counts:
            if k in obj and not (is_int(obj[k]) and 0 <= obj[k] <= (1 << 63) - 1):
                raise InputError(f"{where}: '{k}' must be an integer of at least 0, got {excerpt(obj[k])}")
        for k in numbers:
            if k in obj and not is_number(obj[k]):
                raise InputError(f"{where}: '{k}' must be a number, got {excerpt(obj[k])}")
        for k in flags:
            if k in obj and not isinstance(obj[k], bool):
                raise InputError(f"{where}: '{k}' must be true or false, got {excerpt(obj[k])}")
    fields(j, what, texts=("kind", "name", "task", "data", "init"), counts=("steps",), flags=("stopped_early",))
    if "seed" in j and not (is_int(j["seed"]) and j["seed"] >= 0):  # uint64
        raise InputError(f"{what}: 'seed' must be an integer of at least 0, got {excerpt(j['seed'])}")
    if "held_out" in j:
        h = j["held_out"]
        if not isinstance(h, dict):
            raise InputError(f"{what}: 'held_out' must be an object, got {excerpt(h)}")
        w = what + ", 'held_out'"
        fields(h, w, texts=("source",), counts=("sentences", "tokens"),
               numbers=("loss", "token_accuracy", "exact_match", "bleu"))
        if "best_aer" in h:
            if not isinstance(h["best_aer"], dict):
                raise InputError(f"{w}: 'best_aer' must be an object, got {excerpt(h['best_aer'])}")
            fields(h["best_aer"], w + ", 'best_aer'", numbers=("aer",))


class Checked:
    """What a valid checkpoint's metadata means: the resolved configuration, the
    vocabularies and the tokenizer (None for an image model), and an image model's class
    names (None for a text model)."""

    def __init__(self, config, src_vocab, tgt_vocab, tokenizer, classes=None):
        self.config, self.src_vocab, self.tgt_vocab, self.tokenizer = config, src_vocab, tgt_vocab, tokenizer
        self.classes = classes


def _check_vit_metadata(meta, config):
    """An image model's metadata (docs/model-spec.md 7.2): 'classes', no vocabularies."""
    for key in ("src_vocab", "tgt_vocab", "tokenizer"):
        if key in meta:
            raise InputError(f"an image model (arch \"vit\") has no '{key}' metadata")
    if "classes" not in meta:
        raise InputError("not an attnviz checkpoint: metadata 'classes' is missing (arch \"vit\")")
    j = parse_json(meta["classes"], "checkpoint classes", MAX_HEADER_BYTES)
    n = config["classes"]
    if not isinstance(j, list) or len(j) != n:
        raise InputError(f"checkpoint classes must be a JSON array of {n} names (the configuration's 'classes')")
    seen = set()
    for x in j:
        if not isinstance(x, str) or not x or len(x.encode("utf-8", "surrogatepass")) > 256:
            raise InputError("checkpoint classes: every name must be a non-empty string of valid UTF-8 "
                             "of at most 256 bytes")
        if x in seen:
            raise InputError(f"checkpoint classes: the name '{cut(x)}' repeats")
        seen.add(x)
    _training(meta)
    return Checked(config, None, None, None, list(j))


def check_metadata(meta):
    """Metadata {key: str} -> Checked; InputError naming the rule broken (Model::fromSafeTensors)."""
    for key in ("format", "format_version", "config"):
        if key not in meta:
            raise InputError(f"not an attnviz checkpoint: metadata '{key}' is missing")
    if meta["format"] != "attnviz":
        raise InputError(f"not an attnviz checkpoint: format is '{cut(meta['format'])}'")
    if meta["format_version"] != "1":
        raise InputError(f"unsupported checkpoint format_version '{cut(meta['format_version'])}' "
                         "(this version reads 1)")
    try:
        config = cfgmod.resolve(parse_json(meta["config"], "the text", MAX_CONFIG_BYTES))
    except InputError as e:
        raise InputError(f"checkpoint config: {e}") from None
    if config["arch"] == "vit":
        return _check_vit_metadata(meta, config)
    for key in ("src_vocab", "tgt_vocab", "tokenizer"):
        if key not in meta:
            raise InputError(f"not an attnviz checkpoint: metadata '{key}' is missing")
    src, tgt = _vocab(meta, "src_vocab"), _vocab(meta, "tgt_vocab")
    try:
        tokenizer = make_tokenizer(parse_json(meta["tokenizer"], "tokenizer", MAX_CONFIG_BYTES))
    except InputError as e:
        raise InputError(f"checkpoint tokenizer: {e}") from None
    seq2seq = config["arch"] == "seq2seq"
    if seq2seq and config["share_embeddings"] and src != tgt:
        raise InputError("share_embeddings needs identical source and target vocabularies")
    if not seq2seq and src != tgt:
        raise InputError("a decoder-only model has one vocabulary: src_vocab must equal tgt_vocab")
    pieces = getattr(tokenizer, "pieces", None)
    if pieces is not None:
        for key, v in (("src_vocab", src), ("tgt_vocab", tgt)):
            if v != pieces:
                raise InputError(f"checkpoint {key} differs from the SentencePiece model's piece list "
                                 f"({len(v)} tokens, {len(pieces)} pieces; they must be equal, in order)")
    _training(meta)
    return Checked(config, src, tgt, tokenizer)


def read_checkpoint_checked(path):
    """(tensors {name: float32 torch tensor}, metadata {key: str}, Checked); InputError
    "<path>: <what is wrong>" for any file the engine would refuse."""
    raw = read_file(path, MAX_CHECKPOINT_BYTES, "checkpoint")
    try:
        entries, meta, start = parse_safetensors(raw)
        checked = check_metadata(meta)
        c = checked.config
        vit = c["arch"] == "vit"
        want = cfgmod.expected_tensors(c, 0 if vit else len(checked.src_vocab), 0 if vit else len(checked.tgt_vocab))
        for name in sorted(entries):
            if name not in want:
                raise InputError(f"unexpected tensor '{cut(name)}' for this configuration")
        tensors = {}
        for name in sorted(want):
            if name not in entries:
                raise InputError(f"missing tensor '{name}'")
            shape, b, end, _ = entries[name]
            if shape != want[name]:
                raise InputError(f"tensor '{name}' has shape {shape} but the configuration needs {want[name]}")
            arr = np.frombuffer(raw, dtype="<f4", count=(end - b) // 4, offset=start + b).reshape(shape)
            if not np.isfinite(arr).all():
                raise InputError(f"tensor '{name}' contains NaN or infinity")
            tensors[name] = torch.from_numpy(arr.astype(np.float32))
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    return tensors, meta, checked


def read_checkpoint(path):
    """(tensors {name: float32 torch tensor}, metadata {key: str}) of a valid checkpoint."""
    tensors, meta, _ = read_checkpoint_checked(path)
    return tensors, meta


def _stale_temporaries(path):
    """Removes `<name>.tmp-PID-RAND` beside `path` whose process no longer runs (a writer
    killed mid-write), as the engine's writer does."""
    d = os.path.dirname(os.path.abspath(path))
    prefix = os.path.basename(path) + ".tmp-"
    try:
        names = os.listdir(d)
    except OSError:
        return
    for name in names:
        m = re.fullmatch(r"(\d{1,9})-\d+", name[len(prefix):]) if name.startswith(prefix) else None
        if not m:
            continue
        pid = int(m.group(1))
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
            continue  # alive (or not ours to signal): its file
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            os.unlink(os.path.join(d, name))
        except OSError:
            pass


def check_target(path, flag="--out"):
    """An existing output must be a regular file we may replace (core checkTarget);
    returns its stat or None."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise InputError(f"{flag} '{path}': {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        for test, k in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
            if test(st.st_mode):
                kind = k
        raise InputError(f"{flag} '{path}' is {kind}; refusing to replace it (give the path of a regular file)")
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise InputError(f"{flag} '{path}' is read-only; refusing to replace it")
    return st


def same_file(a, b):
    """True when the paths `a` and `b` name one file: by device and inode when both exist
    (so through symbolic links and hard links), else by their real paths (a file not made
    yet, reached through a link of either)."""
    ids = []
    for p in (a, b):
        try:
            st = os.stat(p)
            ids.append((st.st_dev, st.st_ino))
        except (OSError, ValueError):
            ids.append(None)
    if ids[0] is not None and ids[1] is not None:
        return ids[0] == ids[1]
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def check_outputs(outputs, inputs=()):
    """The one rule for the outputs of every command of this package, checked before any
    work: `outputs` and `inputs` are (flag, path) pairs (a path None or "-" is not a file
    and is skipped). No output may be the same file (same_file) as an input or as another
    output; then each must be a regular file we may replace, or new (check_target), in an
    existing writable directory. InputError naming both flags."""
    outs = [(f, p) for f, p in outputs if p is not None and p != "-"]
    ins = [(f, p) for f, p in inputs if p]
    for i, (flag, path) in enumerate(outs):
        if not path:
            raise InputError(f"{flag} is empty: give the path of a file")
        for other_flag, other in ins:
            if same_file(path, other):
                raise InputError(f"{flag} '{path}' is the same file as the input {other_flag} '{other}'; "
                                 "refusing to overwrite an input")
        for other_flag, other in outs[:i]:
            if other and same_file(path, other):
                raise InputError(f"{flag} '{path}' is the same file as the output {other_flag} '{other}'; "
                                 "give each output its own file")
    for flag, path in outs:
        check_target(path, flag)
        d = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(d):
            raise InputError(f"{flag} '{path}': the directory '{d}' does not exist")
        if not os.access(d, os.W_OK | os.X_OK):
            raise InputError(f"{flag} '{path}': the directory '{d}' is not writable")


UNWINDING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_held = {"depth": 0, "signum": None}


def _unwind(signum, frame):
    if _held["depth"]:
        _held["signum"] = _held["signum"] or signum  # delivered when the held block ends
        return
    raise SystemExit(128 + signum)


def unwind_on_signals():
    """SIGTERM, SIGINT and SIGHUP unwind the program like an exception (exit code 128 + the
    signal, no traceback), so a write in progress removes its temporary file (as the engine's
    removeTemporariesOnTermination)."""
    for s in UNWINDING_SIGNALS:
        signal.signal(s, _unwind)


@contextlib.contextmanager
def signals_held():
    """Holds the unwinding of those signals while something is made and its name (a
    temporary file, a child process) kept: one that came between the two would unwind with
    nobody knowing what to remove. The signal unwinds when the block ends. (Held in Python,
    not in the signal mask, which a child process would inherit.)"""
    _held["depth"] += 1
    try:
        yield
    finally:
        _held["depth"] -= 1
        if not _held["depth"] and _held["signum"] is not None:
            signum, _held["signum"] = _held["signum"], None
            raise SystemExit(128 + signum)


def write_file_atomically(path, chunks):
    """Writes the byte strings `chunks` to `path` atomically: `path.tmp-PID-RAND` created
    with mode 0666 (less the umask; a replaced file's mode is kept), written, flushed,
    renamed over `path`. Killed (SIGKILL) mid-write, it leaves that temporary file, which
    the next write to `path` removes; any other failure, and SIGTERM, SIGINT or SIGHUP
    (unwind_on_signals), removes it at once."""
    st = check_target(path, "output")
    _stale_temporaries(path)
    tmp = f"{path}.tmp-{os.getpid()}-{random.getrandbits(32)}"
    made = False
    try:
        with signals_held():  # `made` is true as soon as the file exists
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            except OSError as e:
                raise InputError(f"cannot write '{path}': {e.strerror}") from None
            made = True
        try:
            if st is not None:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            with os.fdopen(fd, "wb") as f:
                for c in chunks:
                    f.write(c)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise InputError(f"cannot write '{path}': {e.strerror}") from None
        try:
            os.replace(tmp, path)
        except OSError as e:
            raise InputError(f"cannot write '{path}': {e.strerror}") from None
    except BaseException:
        if made:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


def serialize(tensors, meta, dtypes=None):
    """The safetensors bytes (as chunks) of {name: tensor} (names sorted) and the metadata;
    every tensor F32 (checkpoints) unless `dtypes` {name: "F32" or "F64"} says otherwise
    (a float64 training state)."""
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        dtype = (dtypes or {}).get(name, "F32")
        np_dtype = {"F32": "<f4", "F64": "<f8"}[dtype]
        arr = np.ascontiguousarray(tensors[name].detach().cpu().numpy().astype(np_dtype))
        b = arr.tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    header["__metadata__"] = {k: str(v) for k, v in meta.items()}
    h = json.dumps(header, separators=(",", ":"), allow_nan=False).encode()
    h += b" " * ((8 - len(h) % 8) % 8)  # the data starts 8-byte aligned
    return [struct.pack("<Q", len(h)), h] + blobs


def check_finite(tensors, what):
    for name, t in tensors.items():
        if not bool(torch.isfinite(t).all()):
            raise InputError(f"not writing {what}: tensor '{name}' contains NaN or infinity")


def write_checkpoint(path, tensors, meta):
    """Writes {name: tensor} (stored as F32, names sorted) and the metadata atomically.
    Refuses (InputError) non-finite values: a file the project could not read."""
    check_finite(tensors, f"'{path}'")
    write_file_atomically(path, serialize(tensors, meta))
