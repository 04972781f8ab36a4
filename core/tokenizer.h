// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnviz {

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
class Tokenizer {
public:
    explicit Tokenizer(bool lowercase = true) : m_lowercase(lowercase) {}

    // Parses {"kind": "word", "lowercase": true}; Error for any other kind.
    static Tokenizer fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const;

    bool lowercase() const { return m_lowercase; }
    std::vector<std::string> tokenize(std::string_view text) const;

    // Largest text accepted, in bytes; longer input is refused with a clear message.
    static constexpr size_t kMaxTextBytes = 1 << 20;

private:
    bool m_lowercase;
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

}  // namespace attnviz
