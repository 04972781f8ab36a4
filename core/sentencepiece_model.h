// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A strict reader of a SentencePiece model (the bytes of a .model file, a protobuf
// ModelProto), so that a checkpoint's tokenizer is checked before libsentencepiece sees it:
// the library trusts its input (a corrupt normalizer table reads out of bounds, a long piece
// overflows the stack while its trie is built, self-test samples run for minutes).
//
// Protobuf wire format: a message is a sequence of fields, each a key (a varint: field
// number << 3 | wire type) and a value: wire type 0 a varint, 1 eight bytes, 2 a varint
// length and that many bytes, 5 four bytes (3, 4: groups, and 6, 7 are refused). The
// fields read (sentencepiece_model.proto):
//
//   ModelProto      1 pieces (repeated SentencePiece)  2 trainer_spec  3 normalizer_spec
//                   4 self_test_data (removed)  5 denormalizer_spec (refused)
//   SentencePiece   1 piece (string)  2 score (float)  3 type (1 normal, 2 unknown,
//                   3 control, 5 unused, 6 byte; 4 user-defined is refused)
//   TrainerSpec     3 model_type (must be 1, unigram)  35 byte_fallback (must be true);
//                   other fields are kept when well formed and short (kMaxSpecStringBytes)
//   NormalizerSpec  1 name  2 precompiled_charsmap  3 add_dummy_prefix
//                   4 remove_extra_whitespaces  5 escape_whitespaces
//                   6 normalization_rule_tsv (refused)
//
// Every other field number, a repeated singular field, a wrong wire type, a truncated or
// overlong varint and a length past the end are refused. docs/model-spec.md ("Tokenizer")
// states the rules for every reader (the PyTorch twin applies the same).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// Largest serialized model accepted (a 32,000-piece model is about 0.9 MB).
constexpr uint64_t kMaxSentencePieceModelBytes = 16ull << 20;
// Most pieces a model may have; also the largest --vocab-size for a SentencePiece tokenizer.
constexpr int kMaxSentencePieces = 262144;
// Longest piece, in bytes (the trainer makes pieces of at most 16 characters, 64 bytes).
constexpr size_t kMaxPieceBytes = 256;
// Longest string in the trainer spec (paths, piece names, the unknown surface).
constexpr size_t kMaxSpecStringBytes = 1024;

struct SentencePieceModelInfo {
    std::string proto;                // the bytes the library may load: self-test samples removed
    std::vector<std::string> pieces;  // in id order
    std::string normalizer;           // the rule name ("nmt_nfkc", "identity")
};

// The normalizer rule names a model may use, the ones attnviz's trainer produces: "nmt_nfkc"
// (SentencePiece's default) and "identity" (no normalization).
const std::vector<std::string>& sentencePieceRuleNames();

// Checks `proto` as described above and returns what may be given to the library. Every
// piece must be valid UTF-8 without NUL, non-empty, at most kMaxPieceBytes, unique, with a
// finite score;
// byte pieces are spelled "<0xHH>", each of the 256 bytes once; at most kMaxSentencePieces.
// The normalizer must be named by one of sentencePieceRuleNames() and its table must equal
// `tableFor(name)`, the library's own table for that rule: a custom table is refused.
// Error naming the first problem ("SentencePiece model: piece 17 is 300 bytes long, ...").
SentencePieceModelInfo checkSentencePieceModel(
    std::string_view proto, const std::function<std::string(const std::string&)>& tableFor);

// The normalizer table (precompiled_charsmap) of a serialized model, "" when it has none.
// For models the library itself just trained; Error when the bytes are malformed.
std::string sentencePieceNormalizerTable(std::string_view proto);

// An upper bound of the code points of `text` (valid UTF-8) once SentencePiece has normalized
// it with `table` (a precompiled charsmap: a 32-bit little-endian trie size, a Darts double
// array trie, then the NUL-terminated replacement strings): at each position the longest key
// of the trie that matches is replaced by its string, else one character is kept, as the
// library does; plus one for the word-start mark put in front. Normalization can multiply
// text (U+FDFA becomes 18 characters), so the text limit is applied to this count too.
uint64_t normalizedCodePointsBound(std::string_view text, std::string_view table);

}  // namespace attnviz
