# SPDX-License-Identifier: GPL-3.0-or-later
"""A generator of hostile checkpoints, one or more per rule of docs/model-spec.md 7.3 (bytes,
metadata, configuration 5.4, vocabularies, tokenizer, training metadata, tensors) and of
docs/tokenizer.md "Validation" (the SentencePiece model inside the metadata): the cases of the
engine's tests (tests/core/safetensors_test.cpp, config_test.cpp, the fuzz corpus of
tests/fuzz/make_corpus.py) and of issue 27, built from committed valid checkpoints.

cases(root) yields (name, kind, maker): kind "bytes" (maker() -> the file's bytes) or
"special" (maker(dir) -> a path that is not a regular file). Every case must be refused."""
import base64
import json
import os
import struct

DEEP = 300_000


def _read(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def _pack(header_text, data):
    h = header_text.encode("utf-8", "surrogatepass") if isinstance(header_text, str) else header_text
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


def _file(header, data, raw_meta=None):
    """A checkpoint of `header` (a dict) and `data`; raw_meta {key: text} puts metadata values
    in verbatim (deep JSON json.dumps would refuse)."""
    meta = dict(header.get("__metadata__", {}))
    rest = {k: v for k, v in header.items() if k != "__metadata__"}
    items = [json.dumps(k) + ":" + json.dumps(raw_meta[k] if raw_meta and k in raw_meta else v)
             for k, v in meta.items()]
    text = '{"__metadata__":{' + ",".join(items) + "}" + ("," + json.dumps(rest)[1:] if rest else "}")
    return _pack(text, data)


def _with_meta(base, **changes):
    header, data = base
    h = json.loads(json.dumps(header))
    for k, v in changes.items():
        if v is None:
            h["__metadata__"].pop(k, None)
        else:
            h["__metadata__"][k] = v
    return _file(h, data)


def _with_config(base, change):
    header, _ = base
    cfg = json.loads(header["__metadata__"]["config"])
    change(cfg)
    return _with_meta(base, config=json.dumps(cfg))


def _with_tensor(base, name, entry=None, data_patch=None, drop=False, extra=None):
    header, data = base
    h = json.loads(json.dumps(header))
    if drop:
        b, e = h[name]["data_offsets"]
        del h[name]
        data = data[:b] + data[e:]
        for k, v in h.items():
            if k != "__metadata__" and v["data_offsets"][0] >= e:
                v["data_offsets"] = [v["data_offsets"][0] - (e - b), v["data_offsets"][1] - (e - b)]
    if entry:
        h[name] = dict(h[name], **entry)
    if data_patch:
        b = h[name]["data_offsets"][0]
        data = bytearray(data)
        data[b:b + len(data_patch)] = data_patch
        data = bytes(data)
    if extra:
        n, vals = extra
        off = len(data)
        h[n] = {"dtype": "F32", "shape": [len(vals)], "data_offsets": [off, off + 4 * len(vals)]}
        data += struct.pack(f"<{len(vals)}f", *vals)
    return _file(h, data)


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num, wt, payload):
    if wt == 2:
        return _varint(num << 3 | 2) + _varint(len(payload)) + payload
    return _varint(num << 3 | wt) + payload


def _proto_fields(buf):
    """Top-level (num, wire type, raw bytes of the field) of a valid protobuf message."""
    i, out = 0, []
    while i < len(buf):
        s = i
        key = 0
        shift = 0
        while True:
            b = buf[i]
            i += 1
            key |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        wt = key & 7
        if wt == 0:
            while buf[i] & 0x80:
                i += 1
            i += 1
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        else:
            n, shift = 0, 0
            while True:
                b = buf[i]
                i += 1
                n |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            i += n
        out.append((key >> 3, wt, buf[s:i]))
    return out


def _payload(raw_field):
    """The payload of a length-delimited field's bytes."""
    i = 0
    while raw_field[i] & 0x80:
        i += 1
    i += 1
    n, shift = 0, 0
    while True:
        b = raw_field[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return raw_field[i:i + n]


def _piece(text, ptype=1, score=0.0):
    text = text.encode() if isinstance(text, str) else text
    return _field(1, 2, _field(1, 2, text) + _field(2, 5, struct.pack("<f", score)) + _field(3, 0, _varint(ptype)))


def _sp_cases(sp_base):
    """Hostile SentencePiece blobs in the tokenizer of `sp_base` (its vocabularies equal the
    piece list, so each case breaks one rule only)."""
    header, _ = sp_base
    tok = json.loads(header["__metadata__"]["tokenizer"])
    blob = base64.b64decode(tok["model"])
    fields = _proto_fields(blob)
    pieces = [f for f in fields if f[0] == 1]
    others = [f for f in fields if f[0] != 1]
    norm = [f for f in fields if f[0] == 3][0]
    norm_fields = _proto_fields(_payload(norm[2]))

    def model(new_pieces=None, new_norm=None, extra=b"", denorm=None):
        out = b"".join(f if isinstance(f, bytes) else f[2] for f in (new_pieces if new_pieces is not None else pieces))
        for f in others:
            out += _field(3, 2, new_norm) if (f[0] == 3 and new_norm is not None) else f[2]
        if denorm is not None:
            out += _field(5, 2, denorm)
        return out + extra

    def norm_with(swap):  # NormalizerSpec with fields {number: raw field} replaced or added
        swap = dict(swap)
        out = b""
        for num, wt, raw in norm_fields:
            out += swap.pop(num, raw) if num in swap else raw
        return out + b"".join(swap.values())

    def ckpt(blob_bytes):
        return _with_meta(sp_base, tokenizer=json.dumps({"kind": "sentencepiece",
                                                         "model": base64.b64encode(blob_bytes).decode()}))
    table = _payload([f for f in norm_fields if f[0] == 2][0][2])
    flipped = bytearray(table)
    flipped[8] ^= 0xFF  # the trie's first entries
    flipped[len(flipped) // 2] ^= 0x5A
    yield "sp: custom normalizer table (bytes changed)", ckpt(model(new_norm=norm_with({2: _field(2, 2, bytes(flipped))})))
    yield "sp: normalizer table cut short", ckpt(model(new_norm=norm_with({2: _field(2, 2, table[:1000])})))
    yield "sp: normalizer table of 4 bytes claiming a huge trie", ckpt(model(new_norm=norm_with({2: _field(2, 2, struct.pack("<I", 0xFFFFFFF0))})))
    yield "sp: normalizer named nfkc_cf with the nmt_nfkc table", ckpt(model(new_norm=norm_with({1: _field(1, 2, b"nfkc_cf")})))
    yield "sp: identity normalizer with a table", ckpt(model(new_norm=norm_with({1: _field(1, 2, b"identity")})))
    yield "sp: user normalization rules (tsv)", ckpt(model(new_norm=norm_with({6: _field(6, 2, "a\tbbbbbbbbbbbbbbbbbbbb\n".encode())})))
    yield "sp: denormalizer with a table", ckpt(model(denorm=_field(2, 2, table)))
    big = list(pieces)
    big[500] = _piece("▁" + "x" * 200_000)
    yield "sp: one piece of 200 KB", ckpt(model(new_pieces=big))
    longish = list(pieces)
    longish[500] = _piece("y" * 257)
    yield "sp: a piece of 257 bytes", ckpt(model(new_pieces=longish))
    bad = list(pieces)
    bad[600] = _piece(b"\xff\xfeab")
    yield "sp: a piece of invalid UTF-8", ckpt(model(new_pieces=bad))
    empty = list(pieces)
    empty[600] = _piece(b"")
    yield "sp: an empty piece", ckpt(model(new_pieces=empty))
    swapped = list(pieces)
    swapped[0], swapped[2] = swapped[2], swapped[0]
    yield "sp: specials swapped (<bos> first)", ckpt(model(new_pieces=swapped))
    order = list(pieces)
    order[700], order[701] = order[701], order[700]
    yield "sp: piece list reordered (differs from the vocabulary)", ckpt(model(new_pieces=order))
    yield "sp: piece list shorter than the vocabulary", ckpt(model(new_pieces=pieces[:-1]))
    nobyte = list(pieces)
    for i, f in enumerate(nobyte):
        if b"<0x41>" in f[2]:
            nobyte[i] = _piece("<0x41>", 1)
    yield "sp: no byte fallback (a byte piece of type normal)", ckpt(model(new_pieces=nobyte))
    badtype = list(pieces)
    badtype[900] = _piece("zzq", 9)
    yield "sp: a piece of unknown type 9", ckpt(model(new_pieces=badtype))
    yield "sp: a group (wire type 3)", ckpt(model() + bytes([0x23]))
    yield "sp: a truncated varint", ckpt(model() + bytes([0x08, 0x80]))
    yield "sp: a field running past the end", ckpt(model() + bytes([0x0A, 0x7F, 0x01]))
    yield "sp: field number 0", ckpt(bytes([0x02, 0x00]) + model())
    yield "sp: a varint of 11 bytes", ckpt(model() + bytes([0x08] + [0xFF] * 10 + [0x01]))
    yield "sp: not a protobuf (text)", ckpt(b"this is not a model at all")
    yield "sp: empty model", ckpt(b"")


def cases(root):
    corpus = os.path.join(root, "tests/fuzz/corpus/checkpoint")
    s2s = _read(os.path.join(corpus, "mixture.safetensors"))
    lm = _read(os.path.join(root, "resources/models/lm/lm-dot.safetensors"))
    sp = _read(os.path.join(root, "resources/models/en-lm/lm-dot.safetensors"))
    header, data = s2s
    ok = _file(*s2s)
    B = "bytes"
    one = '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'

    # --- bytes (SafeTensorsFile::parse) ---
    yield "empty file", B, lambda: b""
    yield "3 bytes", B, lambda: b"abc"
    yield "header length 2^40", B, lambda: struct.pack("<Q", 1 << 40) + ok[8:]
    yield "header length past the end", B, lambda: struct.pack("<Q", len(ok)) + ok[8:]
    yield "header not JSON", B, lambda: _pack('{"a":', b"")
    yield "header a JSON array", B, lambda: _pack("[1,2]", b"")
    yield "header nested 300,000 deep", B, lambda: _pack('{"x":' + "[" * DEEP + "]" * DEEP + "}", b"")
    yield "header repeats a key", B, lambda: _pack('{"a":1,"a":2}', b"")
    yield "header with NaN", B, lambda: _pack('{"__metadata__":{"format":"attnviz"},"a":NaN}', b"")
    yield "header of invalid UTF-8", B, lambda: _pack(b'{"\xff\xfe":1}', b"")
    yield "header with a lone surrogate", B, lambda: _pack('{"\\ud800":1}', b"")
    yield "header number overflow 1e999", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}}', b"\0" * 4)
    yield "__metadata__ not an object", B, lambda: _pack('{"__metadata__":[1]}', b"")
    yield "metadata value not a string", B, lambda: _pack('{"__metadata__":{"x":1}}', b"")
    yield "tensor entry without dtype", B, lambda: _pack('{"a":{"shape":[2],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "dtype F16", B, lambda: _pack('{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}', b"\0" * 4)
    yield "dtype a number", B, lambda: _pack('{"a":{"dtype":5,"shape":[2],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "shape of 9 dimensions", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1,1,1,1,1,1,1,1,2],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "negative size", B, lambda: _pack('{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "size 2.0 (not an integer)", B, lambda: _pack('{"a":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "size above 2^40", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1099511627777],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "sizes whose product overflows", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "data_offsets reversed", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}}', b"\0" * 8)
    yield "data_offsets past the end", B, lambda: _pack(one, b"\0" * 4)
    yield "data_offsets span the wrong size", B, lambda: _pack('{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}', b"\0" * 8)
    yield "data_offsets negative", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}}', b"\0" * 4)
    yield "data_offsets of 3 numbers", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}}', b"\0" * 8)
    yield "overlapping tensors", B, lambda: _pack('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', b"\0" * 12)
    yield "a gap before a tensor", B, lambda: _pack('{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}', b"\0" * 8)
    yield "trailing bytes (4)", B, lambda: ok + b"\0" * 4
    yield "trailing bytes (1 MB)", B, lambda: ok + b"\0" * (1 << 20)
    yield "truncated by 100 bytes", B, lambda: ok[:-100]
    yield "truncated inside the header", B, lambda: ok[:200]

    # --- metadata ---
    yield "format missing", B, lambda: _with_meta(s2s, format=None)
    yield "format 'safetensors'", B, lambda: _with_meta(s2s, format="safetensors")
    yield "format_version 2", B, lambda: _with_meta(s2s, format_version="2")
    yield "format_version missing", B, lambda: _with_meta(s2s, format_version=None)
    yield "config missing", B, lambda: _with_meta(s2s, config=None)
    yield "src_vocab missing", B, lambda: _with_meta(s2s, src_vocab=None)
    yield "tokenizer missing", B, lambda: _with_meta(s2s, tokenizer=None)
    yield "config not JSON", B, lambda: _with_meta(s2s, config="{")
    yield "config nested 300,000 deep", B, lambda: open(os.path.join(corpus, "crash-config-deep-bias-300k.safetensors"), "rb").read()
    yield "config with a 1 MB unknown key", B, lambda: open(os.path.join(corpus, "crash-unknown-key-1mb.safetensors"), "rb").read()
    yield "training nested 300,000 deep", B, lambda: open(os.path.join(corpus, "crash-training-deep-300k.safetensors"), "rb").read()
    yield "tokenizer kind a number", B, lambda: open(os.path.join(corpus, "crash-tokenizer-kind-number.safetensors"), "rb").read()

    # --- configuration (5.4) ---
    def cfg(name, change):
        return name, B, lambda: _with_config(s2s, change)
    yield cfg("config heads 0", lambda c: c.update(heads=0))
    yield cfg("config block heads 0", lambda c: c["encoder_self"].update(heads=0))
    yield cfg("config heads not dividing d_model", lambda c: c.update(heads=5))
    yield cfg("config max_len 1e9", lambda c: c.update(max_len=1000000000))
    yield cfg("config max_len 1", lambda c: c.update(max_len=1))
    yield cfg("config d_model 32.0", lambda c: c.update(d_model=32.0))
    yield cfg("config d_model a string", lambda c: c.update(d_model="32"))
    yield cfg("config bias 1", lambda c: c.update(bias=1))
    yield cfg("config unknown key", lambda c: c.update(dropout=0.1))
    yield cfg("config arch 'encoder'", lambda c: c.update(arch="encoder"))
    yield cfg("config norm 'mid'", lambda c: c.update(norm="mid"))
    yield cfg("config label a number", lambda c: c.update(label=5))
    yield cfg("config unknown variant", lambda c: c["encoder_self"].update(variant="nope"))
    yield cfg("config variant a number", lambda c: c["encoder_self"].update(variant=5))
    yield cfg("config block not an object", lambda c: c.update(encoder_self="dot"))
    yield cfg("config sigma on dot", lambda c: c.update(encoder_self={"variant": "dot", "sigma": 1.0}))
    yield cfg("config gaussian sigma -1", lambda c: c.update(encoder_self={"variant": "gaussian", "sigma": -1}))
    yield cfg("config gaussian offsets empty", lambda c: c.update(encoder_self={"variant": "gaussian", "offsets": []}))
    yield cfg("config gaussian offsets with a string", lambda c: c.update(encoder_self={"variant": "gaussian", "offsets": [1, "x"]}))
    yield cfg("config layers on encoder_self", lambda c: c["encoder_self"].update(layers="top"))
    yield cfg("config cross layers 'middle'", lambda c: c["cross"].update(layers="middle"))
    yield cfg("config mixture with gaussian", lambda c: c.update(cross={"variant": "mixture", "components": ["gaussian", "dot"]}))
    yield cfg("config mixture with local", lambda c: c.update(cross={"variant": "mixture", "components": ["local", "dot"]}))
    yield cfg("config mixture repeating dot", lambda c: c["decoder_self"].update(components=["dense", "dot", "dot"]))
    yield cfg("config mixture without components", lambda c: c["decoder_self"].pop("components"))
    yield cfg("config mixture in a mixture", lambda c: c["decoder_self"].update(components=["mixture", "dot"]))
    yield cfg("config factorized_dense a*b != max_len", lambda c: c["cross"].update(a=5))
    yield cfg("config factorized_random k 0", lambda c: c["cross"].update(k=0))
    yield cfg("config local window 2000", lambda c: c.update(encoder_self={"variant": "local", "window": 2000}))
    yield cfg("config learned_gaussian init_sigma 0", lambda c: c.update(encoder_self={"variant": "learned_gaussian", "init_sigma": 0}))
    yield cfg("config learned_gaussian init_mu 5000", lambda c: c.update(encoder_self={"variant": "learned_gaussian", "init_mu": [5000]}))
    yield cfg("config seq2seq with enc_layers 0", lambda c: c.update(enc_layers=0))
    yield cfg("config decoder arch with an encoder", lambda c: c.update(arch="decoder"))
    yield cfg("config over the weight limit", lambda c: c.update(d_model=65536, d_ff=1 << 20, heads=1))
    yield "config repeats a key", B, lambda: _with_meta(s2s, config=header["__metadata__"]["config"][:-1] + ',"d_model":32}')
    yield "config with NaN", B, lambda: _with_meta(s2s, config=header["__metadata__"]["config"][:-1] + ',"label":NaN}')
    yield "config of 1.5 MB", B, lambda: _with_meta(s2s, config=header["__metadata__"]["config"][:-1] + ',"label":"' + "x" * (3 << 19) + '"}')

    # --- vocabularies ---
    src = json.loads(header["__metadata__"]["src_vocab"])
    yield "src_vocab not an array", B, lambda: _with_meta(s2s, src_vocab='{"a":1}')
    yield "src_vocab with a number", B, lambda: _with_meta(s2s, src_vocab=json.dumps(src[:-1] + [5]))
    yield "src_vocab specials swapped", B, lambda: _with_meta(s2s, src_vocab=json.dumps([src[2], src[1], src[0]] + src[3:]))
    yield "src_vocab of 3 tokens", B, lambda: _with_meta(s2s, src_vocab=json.dumps(src[:3]))
    yield "src_vocab with an empty token", B, lambda: _with_meta(s2s, src_vocab=json.dumps(src[:-1] + [""]))
    yield "src_vocab repeats a token", B, lambda: _with_meta(s2s, src_vocab=json.dumps(src[:-1] + [src[5]]))
    yield "src_vocab with a lone surrogate", B, lambda: _with_meta(s2s, src_vocab=json.dumps(src[:-1]).rstrip("]") + ',"\\ud800"]')
    yield "src_vocab nested deep", B, lambda: _with_meta(s2s, src_vocab="[" * 100 + "]" * 100)
    lm_vocab = json.loads(lm[0]["__metadata__"]["tgt_vocab"])
    yield "decoder-only with differing vocabularies", B, lambda: _with_meta(lm, src_vocab=json.dumps(lm_vocab[:-1] + ["zzzq"]))

    # --- tokenizer ---
    yield "tokenizer kind 'bpe'", B, lambda: _with_meta(s2s, tokenizer='{"kind":"bpe"}')
    yield "tokenizer lowercase 'yes'", B, lambda: _with_meta(s2s, tokenizer='{"kind":"word","lowercase":"yes"}')
    yield "tokenizer not an object", B, lambda: _with_meta(s2s, tokenizer="[1,2]")
    yield "tokenizer sentencepiece without model", B, lambda: _with_meta(s2s, tokenizer='{"kind":"sentencepiece"}')
    yield "tokenizer sentencepiece bad base64", B, lambda: _with_meta(s2s, tokenizer='{"kind":"sentencepiece","model":"@@@@"}')
    yield "tokenizer sentencepiece base64 of 5 characters", B, lambda: _with_meta(s2s, tokenizer='{"kind":"sentencepiece","model":"QUJDR"}')
    for name, data_ in _sp_cases(sp):
        yield name, B, (lambda d=data_: d)

    # --- training metadata ---
    yield "training a number", B, lambda: _with_meta(s2s, training="5")
    yield "training steps a string", B, lambda: _with_meta(s2s, training='{"steps":"5"}')
    yield "training steps -1", B, lambda: _with_meta(s2s, training='{"steps":-1}')
    yield "training seed 1.5", B, lambda: _with_meta(s2s, training='{"seed":1.5}')
    yield "training kind a number", B, lambda: _with_meta(s2s, training='{"kind":5}')
    yield "training stopped_early 'no'", B, lambda: _with_meta(s2s, training='{"stopped_early":"no"}')
    yield "training held_out a list", B, lambda: _with_meta(s2s, training='{"held_out":[]}')
    yield "training held_out loss a string", B, lambda: _with_meta(s2s, training='{"held_out":{"loss":"low"}}')
    yield "training best_aer.aer a string", B, lambda: _with_meta(s2s, training='{"held_out":{"best_aer":{"aer":"x"}}}')
    yield "training repeats a key", B, lambda: _with_meta(s2s, training='{"steps":1,"steps":2}')
    yield "training not JSON", B, lambda: _with_meta(s2s, training="{steps: 1}")

    # --- tensors ---
    yield "a NaN weight", B, lambda: _with_tensor(s2s, "generator.bias", data_patch=struct.pack("<f", float("nan")))
    yield "an infinite weight", B, lambda: _with_tensor(s2s, "generator.bias", data_patch=struct.pack("<f", float("inf")))
    yield "an unknown tensor", B, lambda: _with_tensor(s2s, "generator.bias", extra=("decoder.layers.0.self_attn.q_proj.weight2", [0.0]))
    yield "a missing tensor", B, lambda: _with_tensor(s2s, "generator.bias", drop=True)
    shp = header["encoder.layers.0.ffn.linear1.weight"]["shape"]
    yield "a transposed shape", B, lambda: _with_tensor(s2s, "encoder.layers.0.ffn.linear1.weight", entry={"shape": shp[::-1]})

    # --- not regular files ---
    yield "a directory", "special", lambda d: d
    yield "/dev/zero", "special", lambda d: "/dev/zero"

    def fifo(d):
        p = os.path.join(d, "fifo.safetensors")
        if not os.path.exists(p):
            os.mkfifo(p)
        return p
    yield "a FIFO", "special", fifo
    yield "a missing file", "special", lambda d: os.path.join(d, "missing.safetensors")
