# SPDX-License-Identifier: GPL-3.0-or-later
"""The two tokenizers of docs/model-spec.md, as core/tokenizer.cpp implements them.

"word" (docs/tokenizer.md): whitespace and control characters separate tokens; CJK
characters, punctuation and symbols are tokens of their own; emoji sequences stay one token;
letters, digits and combining marks form words; `lowercase` maps the capitals of ASCII,
Latin-1, Latin Extended-A, Greek, Cyrillic and full-width Latin one to one.
"sentencepiece": the model travels base64-encoded in the checkpoint's "tokenizer" metadata
and is run by Debian's python3-sentencepiece, after attnviz_torch.spm has validated it (the
library trusts its input; docs/tokenizer.md, "Validation").

A text must be valid UTF-8 of at most 1 MiB (InputError otherwise)."""
import base64
import binascii
import json

from . import spm
from .limits import InputError, check_text, cut


def _in(c, lo, hi):
    return lo <= c <= hi


def _space(c):
    return (c == 0x20 or _in(c, 0x09, 0x0D) or c in (0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F,
                                                     0x205F, 0x3000, 0xFEFF) or _in(c, 0x2000, 0x200B))


def _control(c):
    return c < 0x20 or 0x7F <= c < 0xA0


def _cjk(c):
    return (_in(c, 0x3400, 0x4DBF) or _in(c, 0x4E00, 0x9FFF) or _in(c, 0xF900, 0xFAFF)
            or _in(c, 0x20000, 0x3134F) or _in(c, 0x3040, 0x309F) or _in(c, 0x30A0, 0x30FF)
            or _in(c, 0x31F0, 0x31FF) or _in(c, 0xAC00, 0xD7AF) or _in(c, 0xFF66, 0xFF9F))


def _punct_or_symbol(c):
    if c < 0x80:
        return _in(c, 0x21, 0x2F) or _in(c, 0x3A, 0x40) or _in(c, 0x5B, 0x60) or _in(c, 0x7B, 0x7E)
    return (_in(c, 0xA1, 0xBF) or c in (0xD7, 0xF7) or _in(c, 0x2010, 0x2027) or _in(c, 0x2030, 0x205E)
            or _in(c, 0x20A0, 0x20CF) or _in(c, 0x2100, 0x214F) or _in(c, 0x2190, 0x2BFF)
            or _in(c, 0x3001, 0x303F) or _in(c, 0xFE10, 0xFE1F) or _in(c, 0xFE30, 0xFE4F)
            or _in(c, 0xFF01, 0xFF0F) or _in(c, 0xFF1A, 0xFF20) or _in(c, 0xFF3B, 0xFF40)
            or _in(c, 0xFF5B, 0xFF65) or _in(c, 0x1F000, 0x1FAFF))


def _emoji_modifier(c):
    return _in(c, 0xFE00, 0xFE0F) or _in(c, 0x1F3FB, 0x1F3FF) or c in (0x200D, 0x20E3) or _in(c, 0xE0020, 0xE007F)


def _lower(c):
    if _in(c, 0x41, 0x5A):
        return c + 0x20
    if c < 0xC0:
        return c
    if _in(c, 0xC0, 0xDE) and c != 0xD7:
        return c + 0x20
    if _in(c, 0x100, 0x137) and c != 0x130:
        return c | 1
    if c == 0x130:
        return 0x69
    if _in(c, 0x139, 0x148) or _in(c, 0x179, 0x17E):
        return c + 1 if c & 1 else c
    if _in(c, 0x14A, 0x177):
        return c | 1
    if c == 0x178:
        return 0xFF
    if _in(c, 0x391, 0x3AB) and c != 0x3A2:
        return c + 0x20
    if _in(c, 0x410, 0x42F):
        return c + 0x20
    if _in(c, 0x400, 0x40F):
        return c + 0x50
    if _in(c, 0xFF21, 0xFF3A):
        return c + 0x20
    return c


class WordTokenizer:
    def __init__(self, lowercase=True):
        self.lowercase = lowercase

    pieces = None  # a word tokenizer has no piece list

    @staticmethod
    def detokenize(tokens):
        """Decoded tokens as text: joined by single spaces."""
        return " ".join(tokens)

    def tokenize(self, text):
        check_text(text)
        out, word = [], []
        last_symbol = join_next = last_flag_half = False
        low = _lower if self.lowercase else (lambda c: c)
        for ch in text:
            c = ord(ch)
            regional = _in(c, 0x1F1E6, 0x1F1FF)
            if last_symbol and not word and out and (_emoji_modifier(c) or join_next or (regional and last_flag_half)):
                out[-1] += ch
                join_next = c == 0x200D
                last_flag_half = False
                continue
            join_next = last_flag_half = False
            if _space(c) or _control(c):
                if word:
                    out.append("".join(word))
                    word = []
                last_symbol = False
            elif _cjk(c) or _punct_or_symbol(c):
                if word:
                    out.append("".join(word))
                    word = []
                out.append(chr(low(c)))
                last_symbol = not _cjk(c)
                last_flag_half = regional
            else:
                word.append(chr(low(c)))
                last_symbol = False
        if word:
            out.append("".join(word))
        return out


class SentencePieceTokenizer:
    def __init__(self, model_proto):
        import sentencepiece  # Debian python3-sentencepiece

        clean, self.pieces = spm.validate(model_proto)  # InputError before the library sees it
        self.sp = sentencepiece.SentencePieceProcessor()
        try:
            self.sp.LoadFromSerializedProto(clean)
        except (RuntimeError, OSError) as e:
            raise InputError(f"not a valid SentencePiece model: {str(e)[:200]}") from None
        if self.sp.GetPieceSize() != len(self.pieces):
            raise InputError("not a valid SentencePiece model: the library reads another piece count")
        self.proto = model_proto

    def tokenize(self, text):
        check_text(text)
        return self.sp.encode(text, out_type=str)

    def detokenize(self, pieces):
        """The text of decoded pieces: the library's Decode (word-start marks become spaces,
        byte pieces bytes), as the engine's Tokenizer::detokenize."""
        return self.sp.decode_pieces(list(pieces)) if pieces else ""


def make_tokenizer(description):
    """The tokenizer of a checkpoint's "tokenizer" metadata (a JSON string or parsed JSON);
    InputError for anything the engine refuses (Tokenizer::fromJson)."""
    d = json.loads(description) if isinstance(description, str) else description
    if not isinstance(d, dict):
        raise InputError("tokenizer description must be a JSON object")
    if not isinstance(d.get("kind"), str):
        raise InputError("tokenizer 'kind' must be a string, got " + ("nothing" if "kind" not in d else
                                                                       json.dumps(d["kind"])[:40]))
    if d["kind"] == "sentencepiece":
        if not isinstance(d.get("model"), str):
            raise InputError("sentencepiece tokenizer needs 'model' (the model, base64)")
        m = d["model"]
        if len(m) % 4:
            raise InputError("base64 text has a length that is not a multiple of 4")
        try:
            blob = base64.b64decode(m, validate=True)
        except (binascii.Error, ValueError):
            raise InputError("base64 text has an invalid character") from None
        return SentencePieceTokenizer(blob)
    if d["kind"] != "word":
        raise InputError(f"unsupported tokenizer kind '{cut(d['kind'])}' (this version reads 'word' and "
                         "'sentencepiece')")
    if "lowercase" in d and not isinstance(d["lowercase"], bool):
        raise InputError("tokenizer 'lowercase' must be true or false")
    return WordTokenizer(d.get("lowercase", True))
