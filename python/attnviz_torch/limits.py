# SPDX-License-Identifier: GPL-3.0-or-later
"""The input limits of docs/limits.md, as core/input_limits.cpp applies them: files are read
only when they are regular files within a size limit (a FIFO or a device is refused by name
without blocking), JSON is parsed strictly (no NaN or Infinity, no repeated key, no lone
surrogate, at most 64 levels of nesting, a size limit) and bad values are quoted only as
short excerpts. Every refusal is an InputError (a ValueError) with a message for people."""
import json
import os
import stat

MAX_JSON_DEPTH = 64
MAX_CONFIG_BYTES = 1 << 20  # configurations and every JSON value of a checkpoint's metadata
MAX_HEADER_BYTES = 64 << 20  # a safetensors header; the vocabularies and training metadata
MAX_CHECKPOINT_BYTES = 4 << 30
MAX_DATA_BYTES = 256 << 20
MAX_TEXT_BYTES = 1 << 20  # a text to tokenise
MAX_EXCERPT_CHARS = 40
# The least --vocab-size, the engine's kMinVocabSize (core/input_limits.h): the 4 special
# tokens (<pad>, <unk>, <bos>, <eos>; Vocab::specials() in core/tokenizer.h) and a word. The
# engine's buildVocab (core/data.cpp) keeps vocab-size - 4 words, so 4 or less would be a
# vocabulary of the specials alone: every word <unk>.
MIN_VOCAB_SIZE = 5
# A SentencePiece vocabulary: Tokenizer::trainSentencePiece (core/tokenizer_sentencepiece.cpp),
# kMaxSentencePieces (core/sentencepiece_model.h).
MIN_SENTENCEPIECE_VOCAB = 300
MAX_SENTENCEPIECE_VOCAB = 262144


class InputError(ValueError):
    """A file or value the project refuses; str() is the message for people."""


def excerpt(v):
    """A value for an error message: strings cut at 40 characters, containers by size."""
    if isinstance(v, list):
        return f"an array of {len(v)} elements"
    if isinstance(v, dict):
        return f"an object of {len(v)} keys"
    if isinstance(v, str):
        return json.dumps(v[:MAX_EXCERPT_CHARS] + ("…" if len(v) > MAX_EXCERPT_CHARS else ""),
                          ensure_ascii=False).encode("utf-8", "replace").decode()
    if v is True or v is False or v is None:
        return json.dumps(v)
    s = repr(v)
    return s[:MAX_EXCERPT_CHARS] + ("…" if len(s) > MAX_EXCERPT_CHARS else "")


def cut(s):
    """A key or token for an error message, cut at 40 characters."""
    s = str(s)
    return s if len(s) <= MAX_EXCERPT_CHARS else s[:MAX_EXCERPT_CHARS] + "…"


def _size_text(n):
    return f"{n >> 20} MiB" if n >= (1 << 20) and n % (1 << 20) == 0 else f"{n} bytes"


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_file(path, max_bytes, what):
    """The bytes of `path`, a regular file of at most `max_bytes` (core readTextFile)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise InputError(f"cannot open '{path}': {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"'{path}' is {_kind(st.st_mode)}, not a file")
        if st.st_size > max_bytes:
            raise InputError(f"'{path}' is larger than the limit for a {what} "
                             f"({_size_text(st.st_size)} read, limit {_size_text(max_bytes)})")
        parts, total = [], 0
        while True:
            try:
                b = os.read(fd, 1 << 20)
            except OSError as e:
                raise InputError(f"error while reading '{path}': {e.strerror}") from None
            if not b:
                break
            total += len(b)
            if total > max_bytes:  # grew while we read
                raise InputError(f"'{path}' is larger than the limit for a {what} "
                                 f"({_size_text(total)} read, limit {_size_text(max_bytes)})")
            parts.append(b)
        return b"".join(parts)
    finally:
        os.close(fd)


def _depth_ok(text):
    """True when `text` nests arrays and objects at most MAX_JSON_DEPTH deep (strings skipped);
    iterative, so a deep document never reaches Python's recursive parser."""
    depth, i, n = 0, 0, len(text)
    in_str = False
    while i < n:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return False
        elif c in "]}":
            depth -= 1
        i += 1
    return True


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def _finite_float(s):
    x = float(s)
    if x in (float("inf"), float("-inf")):
        raise ValueError(f"number overflow parsing '{cut(s)}'")
    return x


def _has_surrogate(v):
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
    return False


def parse_json(text, what, max_bytes=MAX_CONFIG_BYTES):
    """Strict JSON (core parseJson): bytes or str -> value; InputError naming `what`."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise InputError(f"{what} is {len(text)} bytes of JSON; the limit is {_size_text(max_bytes)}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{what} is not valid JSON: invalid UTF-8 at byte {e.start}") from None
    else:
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            raise InputError(f"{what} is not valid JSON: invalid UTF-8") from None
        if size > max_bytes:
            raise InputError(f"{what} is {size} bytes of JSON; the limit is {_size_text(max_bytes)}")
    if not _depth_ok(text):
        raise InputError(f"{what} nests arrays and objects deeper than {MAX_JSON_DEPTH} levels")

    def pairs(items):
        seen = {}
        for k, v in items:
            if k in seen:
                raise InputError(f"{what} repeats the key '{cut(k)}' in one object")
            seen[k] = v
        return seen
    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=_no_constant,
                           parse_float=_finite_float)
    except InputError:
        raise
    except (ValueError, RecursionError) as e:
        raise InputError(f"{what} is not valid JSON: {str(e)[:200]}") from None
    if _has_surrogate(value):
        raise InputError(f"{what} is not valid JSON: a lone UTF-16 surrogate in a string")
    return value


def is_int(v):
    """A JSON integer as nlohmann reads one (bool is not; beyond 64 bits it is a float)."""
    return isinstance(v, int) and not isinstance(v, bool) and -(1 << 63) <= v < (1 << 64)


def is_number(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool))


def check_text(text, what="text"):
    """A text to tokenise: valid UTF-8 (no lone surrogates) of at most 1 MiB."""
    try:
        n = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise InputError(f"the {what} is not valid UTF-8 (at character {e.start})") from None
    if n > MAX_TEXT_BYTES:
        raise InputError(f"the {what} is {n} bytes; the limit is 1 MiB")
