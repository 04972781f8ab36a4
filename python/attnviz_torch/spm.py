# SPDX-License-Identifier: GPL-3.0-or-later
"""The SentencePiece model inside a checkpoint, checked before the library sees it
(docs/tokenizer.md, "Validation"). The SentencePiece library trusts its input: a custom
normalizer table makes it read out of bounds, a piece of 200 KB overflows its stack while it
builds its trie, self-test samples run for a minute at load. So the model's bytes
(a ModelProto) are read here with a small strict protobuf reader and accepted only when:

- the protobuf is well formed: known wire types, lengths inside the message, varints of at
  most 10 bytes, nothing after the last field;
- there are at most MAX_PIECES pieces, each non-empty valid UTF-8 of at most MAX_PIECE_BYTES
  bytes, with a known type;
- the normalizer is one the project produces: "nmt_nfkc" with the library's own table
  (compared by SHA-256), or "identity" with no table; no user rule table; the denormalizer
  has no table;
- the pieces start with <pad>, <unk>, <bos>, <eos> and hold the 256 byte pieces <0x00> …
  <0xFF> (byte fallback).

The library then gets the model rebuilt without its self-test samples. The checkpoint's
vocabularies must equal the piece list (checked by the checkpoint reader)."""
import hashlib

from .limits import InputError, cut

MAX_PIECES = 1_000_000
MAX_PIECE_BYTES = 256
SPECIALS = ["<pad>", "<unk>", "<bos>", "<eos>"]
# SHA-256 of the "nmt_nfkc" precompiled character map of SentencePiece 0.1.97 (Debian 12's
# libsentencepiece and python3-sentencepiece; the table has not changed since 0.1.8).
# tests/python/twin_hostile_test.py checks it against a model the library trains.
NMT_NFKC_SHA256 = "51d3684747b35ef99cd4802f37cc1ee0c6bec4d060814f774efb1066d3c167f2"
PIECE_TYPES = {1: "normal", 2: "unknown", 3: "control", 4: "user defined", 5: "unused", 6: "byte"}
BYTE_TYPE = 6


def _varint(buf, i, end):
    v, shift = 0, 0
    for k in range(10):
        if i >= end:
            raise InputError("SentencePiece model: truncated varint")
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        if not b & 0x80:
            return v, i
        shift += 7
    raise InputError("SentencePiece model: a varint longer than 10 bytes")


def fields(buf, start=0, end=None):
    """[(field number, wire type, value, (begin, end) of the whole field)] of one message:
    value is an int (varint, fixed32, fixed64) or a memoryview (length-delimited)."""
    end = len(buf) if end is None else end
    out, i = [], start
    while i < end:
        first = i
        key, i = _varint(buf, i, end)
        num, wt = key >> 3, key & 7
        if num == 0:
            raise InputError("SentencePiece model: field number 0")
        if wt == 0:
            v, i = _varint(buf, i, end)
        elif wt == 1:
            if i + 8 > end:
                raise InputError("SentencePiece model: truncated fixed64")
            v, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif wt == 5:
            if i + 4 > end:
                raise InputError("SentencePiece model: truncated fixed32")
            v, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        elif wt == 2:
            n, i = _varint(buf, i, end)
            if n > end - i:
                raise InputError(f"SentencePiece model: field {num} of {n} bytes runs past its message")
            v, i = memoryview(buf)[i:i + n], i + n
        else:
            raise InputError(f"SentencePiece model: unsupported wire type {wt} (field {num})")
        out.append((num, wt, v, (first, i)))
    return out


def _text(v, what):
    if not isinstance(v, memoryview):
        raise InputError(f"SentencePiece model: {what} is not a string")
    try:
        return bytes(v).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"SentencePiece model: {what} is not valid UTF-8") from None


def _normalizer(v, what):
    """(name, table bytes, rule tsv) of a NormalizerSpec."""
    if not isinstance(v, memoryview):
        raise InputError(f"SentencePiece model: the {what} is not a message")
    name, table, tsv = "", b"", ""
    for num, wt, x, _ in fields(v):
        if num == 1:
            name = _text(x, f"the {what}'s name")
        elif num == 2:
            if not isinstance(x, memoryview):
                raise InputError(f"SentencePiece model: the {what}'s table is not bytes")
            table = bytes(x)
        elif num == 6:
            tsv = _text(x, f"the {what}'s rules")
    return name, table, tsv


def validate(blob):
    """The model bytes -> (bytes for the library: the model without self-test samples,
    the piece list in id order); InputError naming the rule broken otherwise."""
    blob = bytes(blob)
    top = fields(blob)
    pieces, types = [], []
    normalizer = None
    kept = []
    for num, wt, v, (b, e) in top:
        if num == 4:  # self_test_data: never run
            continue
        kept.append(blob[b:e])
        if num == 1:
            if len(pieces) >= MAX_PIECES:
                raise InputError(f"SentencePiece model has more than {MAX_PIECES} pieces")
            if not isinstance(v, memoryview):
                raise InputError("SentencePiece model: a piece is not a message")
            piece, ptype = None, 1
            for pn, pwt, pv, _ in fields(v):
                if pn == 1:
                    if not isinstance(pv, memoryview):
                        raise InputError(f"SentencePiece model: piece {len(pieces)} is not a string")
                    if len(pv) > MAX_PIECE_BYTES:
                        raise InputError(f"SentencePiece piece {len(pieces)} is {len(pv)} bytes long; "
                                         f"the limit is {MAX_PIECE_BYTES}")
                    piece = _text(pv, f"piece {len(pieces)}")
                elif pn == 3:
                    if pwt != 0 or pv not in PIECE_TYPES:
                        raise InputError(f"SentencePiece model: piece {len(pieces)} has an unknown type")
                    ptype = pv
            if not piece:
                raise InputError(f"SentencePiece piece {len(pieces)} is empty")
            pieces.append(piece)
            types.append(ptype)
        elif num == 3:
            normalizer = _normalizer(v, "normalizer")
        elif num == 5:
            name, table, tsv = _normalizer(v, "denormalizer")
            if table or tsv:
                raise InputError("SentencePiece model has a denormalizer table (attnviz models have none)")
    name, table, tsv = normalizer or ("", b"", "")
    if tsv:
        raise InputError("SentencePiece model has custom normalization rules (attnviz models have none)")
    if name == "identity" or (name == "" and not table):
        if table:
            raise InputError("SentencePiece model: the identity normalizer has a table")
    elif name == "nmt_nfkc":
        if hashlib.sha256(table).hexdigest() != NMT_NFKC_SHA256:
            raise InputError("SentencePiece model has a normalizer table other than the library's nmt_nfkc "
                             "(custom tables are refused)")
    else:
        raise InputError(f"SentencePiece model has the normalizer '{cut(name)}' "
                         "(attnviz models use nmt_nfkc or identity)")
    if len(pieces) < len(SPECIALS) + 256:
        raise InputError(f"SentencePiece model has only {len(pieces)} pieces (needs the 4 specials and "
                         "256 byte pieces at least)")
    for i, s in enumerate(SPECIALS):
        if pieces[i] != s:
            raise InputError(f"SentencePiece piece {i} is '{cut(pieces[i])}', expected '{s}'")
    if len(set(pieces)) != len(pieces):
        raise InputError("SentencePiece model repeats a piece")
    byte_pieces = {p for p, t in zip(pieces, types) if t == BYTE_TYPE}
    if byte_pieces != {f"<0x{b:02X}>" for b in range(256)}:
        raise InputError("SentencePiece model has no byte fallback (unknown text would become <unk>)")
    return b"".join(kept), pieces
