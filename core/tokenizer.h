// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace attnviz {

// Two kinds of tokenizer (docs/model-spec.md, "Tokenizer").
//
// The baseline "word" tokenizer of the checkpoint format (docs/model-spec.md, "tokenizer"):
//   - text must be valid UTF-8 (else Error with the byte offset);
//   - whitespace (ASCII and Unicode spaces) separates tokens and is dropped;
//   - a word is a maximal run of letters, digits and combining marks;
//   - every punctuation mark or symbol is a token of its own (so "don't" is
//     "don", "'", "t", as in NLTK's wordpunct tokenizer);
//   - every CJK character (Han ideographs, kana, Hangul syllables) is a token of its own;
//   - with lowercase, Latin, Greek, Cyrillic and full-width Latin letters are lowercased
//     by their simple one-to-one case mapping; other scripts are unchanged.
// Details and the exact code point ranges: docs/tokenizer.md.
//
// "sentencepiece" (Kudo & Richardson, 2018; Debian's libsentencepiece): a trained subword
// model with byte fallback, so that any text becomes pieces the model knows, never <unk>.
// Its pieces, in the model's id order, are the vocabulary (the first four are <pad>,
// <unk>, <bos>, <eos>); the model travels inside the checkpoint's metadata.
class Tokenizer {
public:
    enum class Kind { Word, SentencePiece };

    explicit Tokenizer(bool lowercase = true) : m_lowercase(lowercase) {}

    // A SentencePiece tokenizer from a trained model (the bytes of its .model file). Error
    // unless the bytes pass checkSentencePieceModel (core/sentencepiece_model.h: the library
    // sees nothing else) and are a valid model with byte fallback whose first four pieces are
    // <pad>, <unk>, <bos>, <eos>. Self-test samples are dropped.
    static Tokenizer sentencePiece(std::string modelProto);
    // Trains a SentencePiece unigram model with byte fallback on `sentences` (a vocabulary of
    // at most vocabSize pieces, specials included), deterministically.
    static Tokenizer trainSentencePiece(const std::vector<std::string>& sentences, int vocabSize);

    // Parses {"kind": "word", "lowercase": true} or {"kind": "sentencepiece", "model":
    // base64}; Error for anything else.
    static Tokenizer fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const;

    Kind kind() const { return m_sp ? Kind::SentencePiece : Kind::Word; }
    bool lowercase() const { return m_lowercase; }
    std::vector<std::string> tokenize(std::string_view text) const;

    // SentencePiece: every piece in id order (the vocabulary); word: empty.
    std::vector<std::string> pieces() const;
    // Whether `token` begins a word: SentencePiece pieces that start with "▁" (U+2581), and
    // every word token.
    bool startsWord(const std::string& token) const;
    // Labels for people, one per token: the word-start mark removed; a character that byte
    // fallback split into n byte pieces shown as that character on each of them, marked
    // ¹…ⁿ ("我¹", "我²", "我³").
    std::vector<std::string> display(const std::vector<std::string>& tokens) const;
    // The text of tokens (SentencePiece: decoded; word: joined with spaces).
    std::string detokenize(const std::vector<std::string>& tokens) const;

    // Largest text accepted, in bytes; longer input is refused with a clear message. A
    // SentencePiece text must also stay within it in characters once normalized.
    static constexpr size_t kMaxTextBytes = 1 << 20;

private:
    std::vector<std::string> encodePieces(std::string_view text) const;  // SentencePiece

    bool m_lowercase;
    std::shared_ptr<const sentencepiece::SentencePieceProcessor> m_sp;  // null: word
    std::shared_ptr<const std::string> m_proto;                         // its serialized model
    std::shared_ptr<const std::string> m_table;  // its normalizer table (the library's own)
};

// Token strings in id order. Ids 0..3 are always <pad>, <unk>, <bos>, <eos>.
class Vocab {
public:
    static constexpr int kPad = 0, kUnk = 1, kBos = 2, kEos = 3;
    static const std::vector<std::string>& specials();

    Vocab() = default;
    // Error when the specials are not first, a token repeats, or a token is empty.
    explicit Vocab(std::vector<std::string> tokens);
    // Specials first, then the given words in order, skipping duplicates and specials.
    static Vocab fromWords(const std::vector<std::string>& words);

    int size() const { return static_cast<int>(m_tokens.size()); }
    int id(const std::string& token) const;  // kUnk when absent
    const std::string& token(int id) const;  // "<unk>" when out of range
    const std::vector<std::string>& tokens() const { return m_tokens; }
    std::vector<int> ids(const std::vector<std::string>& tokens) const;
    bool operator==(const Vocab& o) const { return m_tokens == o.m_tokens; }

private:
    std::vector<std::string> m_tokens;
    std::unordered_map<std::string, int> m_index;
};

// A built-in list of everyday English words, used as the default vocabulary for
// checkpoints initialised without data ("attnviz-cli init" without --vocab).
const std::vector<std::string>& builtinEnglishWords();

// `text` with the word tokenizer's lowercasing (Latin, Greek, Cyrillic and full-width Latin
// letters), whatever a tokenizer's setting; invalid UTF-8 comes back unchanged.
std::string lowerCase(std::string_view text);

}  // namespace attnviz
