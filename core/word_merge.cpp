// SPDX-License-Identifier: GPL-3.0-or-later
#include "word_merge.h"

#include <algorithm>

#include "error.h"
#include "tokenizer.h"
#include "utf8.h"

namespace attnviz {

WordSpans wordSpans(const std::vector<bool>& wordStart) {
    WordSpans spans;
    for (int i = 0; i < int(wordStart.size()); ++i) {
        if (i == 0 || wordStart[size_t(i)]) {
            spans.emplace_back(i, i + 1);
        } else {
            spans.back().second = i + 1;
        }
    }
    return spans;
}

bool isCjk(char32_t c) {
    return (c >= 0x1100 && c <= 0x11FF) ||  // Hangul Jamo
           (c >= 0x2E80 && c <= 0x2FDF) ||  // CJK radicals, Kangxi radicals
           (c >= 0x3000 && c <= 0x303F) ||  // CJK symbols and punctuation
           (c >= 0x3040 && c <= 0x30FF) ||  // Hiragana, Katakana
           (c >= 0x3130 && c <= 0x318F) ||  // Hangul compatibility Jamo
           (c >= 0x31F0 && c <= 0x31FF) ||  // Katakana phonetic extensions
           (c >= 0x3400 && c <= 0x4DBF) ||  // CJK extension A
           (c >= 0x4E00 && c <= 0x9FFF) ||  // CJK unified ideographs
           (c >= 0xAC00 && c <= 0xD7AF) ||  // Hangul syllables
           (c >= 0xF900 && c <= 0xFAFF) ||  // CJK compatibility ideographs
           (c >= 0xFF00 && c <= 0xFFEF) ||  // half- and full-width forms
           (c >= 0x20000 && c <= 0x3134F);  // CJK extensions B–G
}

namespace {

// A byte piece after a character's first ("我²", "我³", "我⁴"): part of that character.
bool continuesCharacter(const std::string& l) {
    for (const char* m : {"\u00B2", "\u00B3", "\u2074"}) {
        const size_t n = std::char_traits<char>::length(m);
        if (l.size() > n && l.compare(l.size() - n, n, m) == 0) return true;
    }
    return false;
}

// Whether the label's first / last character (byte-piece marks aside) is CJK.
std::pair<bool, bool> cjkEnds(const std::string& label) {
    std::u32string cps;
    try {
        cps = decodeUtf8(label);
    } catch (const std::exception&) {
        return {false, false};
    }
    while (!cps.empty() &&
           (cps.back() == 0xB9 || cps.back() == 0xB2 || cps.back() == 0xB3 || cps.back() == 0x2074))
        cps.pop_back();
    if (cps.empty()) return {false, false};
    return {isCjk(cps.front()), isCjk(cps.back())};
}

}  // namespace

WordSplit splitWords(const std::vector<bool>& wordStart, const std::vector<std::string>& labels) {
    WordSplit out;
    const size_t n = wordStart.size();
    const bool useLabels = labels.size() == n;
    std::vector<bool> starts(n, false);
    bool prevEndsCjk = false, prevLoneMark = false;
    for (size_t i = 0; i < n; ++i) {
        const auto [first, last] = useLabels ? cjkEnds(labels[i]) : std::pair{false, false};
        const bool continues = useLabels && continuesCharacter(labels[i]);
        if (i == 0) {
            starts[i] = true;
        } else if (wordStart[i]) {
            starts[i] = true;
            out.rules |= kWordBoundaries;
        } else if (!continues && !prevLoneMark && (first || prevEndsCjk)) {
            starts[i] = true;
            out.rules |= kCjkCharacters;
        }
        prevEndsCjk = last;
        // A lone word-start piece ("▁" before a character that byte fallback split, shown
        // "␣") begins the word of the character after it.
        prevLoneMark = useLabels && labels[i] == "\u2423";
    }
    out.spans = wordSpans(starts);
    return out;
}

Mat mergeWords(const Mat& A, const WordSpans& queries, const WordSpans& keys) {
    if (queries.empty() || keys.empty() || queries.back().second != A.rows() ||
        keys.back().second != A.cols())
        throw Error("word spans do not cover the attention matrix");
    // Sum over key pieces: [Nq, words(k)].
    Mat byKey(A.rows(), Eigen::Index(keys.size()));
    for (size_t w = 0; w < keys.size(); ++w)
        byKey.col(Eigen::Index(w)) =
            A.middleCols(keys[w].first, keys[w].second - keys[w].first).rowwise().sum();
    // Mean over query pieces: [words(q), words(k)].
    Mat out(Eigen::Index(queries.size()), byKey.cols());
    for (size_t w = 0; w < queries.size(); ++w) {
        const int n = queries[w].second - queries[w].first;
        out.row(Eigen::Index(w)) =
            byKey.middleRows(queries[w].first, n).colwise().sum() / static_cast<Scalar>(n);
    }
    return out;
}

std::vector<std::string> mergeLabels(const std::vector<std::string>& labels, const WordSpans& w) {
    // A character split into byte pieces is labelled "我¹", "我²", "我³": once in the word.
    static const std::vector<std::string> kMarks{"\u00B9", "\u00B2", "\u00B3", "\u2074"};
    std::vector<std::string> out;
    for (const auto& [first, last] : w) {
        std::string s;
        for (int i = first; i < last && i < int(labels.size()); ++i) {
            const std::string& l = labels[size_t(i)];
            bool part = false;
            for (size_t m = 0; m < kMarks.size() && !part; ++m) {
                if (l.size() > kMarks[m].size() &&
                    l.compare(l.size() - kMarks[m].size(), kMarks[m].size(), kMarks[m]) == 0) {
                    part = true;
                    if (m == 0) s += l.substr(0, l.size() - kMarks[m].size());
                }
            }
            // A lone word-start piece is shown as "␣"; inside a word it adds nothing.
            if (!part && !(l == "\u2423" && last - first > 1)) s += l;
        }
        out.push_back(s);
    }
    return out;
}

namespace {

// Whether every character of `text` is CJK (and there is one).
bool allCjk(const std::string& text) {
    try {
        const std::u32string cps = decodeUtf8(text);
        return !cps.empty() && std::all_of(cps.begin(), cps.end(), isCjk);
    } catch (const std::exception&) {
        return false;
    }
}

// The words of `tokens` (splitWords) with their texts (mergeLabels), each span starting at
// the first piece that carries its text: a lone word-start mark "␣" before a character split
// into byte pieces is skipped.
struct QueryWords {
    WordSpans spans;
    std::vector<std::string> texts;
};
QueryWords wordsOf(const std::vector<std::string>& tokens, const Tokenizer& tokenizer) {
    std::vector<bool> starts;
    for (const auto& t : tokens) starts.push_back(tokenizer.startsWord(t));
    const auto labels = tokenizer.display(tokens);
    QueryWords w;
    w.spans = splitWords(starts, labels).spans;
    w.texts = mergeLabels(labels, w.spans);
    for (auto& [first, last] : w.spans)
        if (last - first > 1 && labels[size_t(first)] == "\u2423") ++first;
    return w;
}

}  // namespace

int findQuery(const std::vector<std::string>& tokens, const std::string& query,
              const Tokenizer* tokenizer) {
    const int n = int(tokens.size());
    if (!query.empty() && query[0] == '#') {  // an index: digits only ("#x" is no index)
        const std::string digits = query.substr(1);
        if (digits.empty() || digits.size() > 9 ||
            digits.find_first_not_of("0123456789") != std::string::npos)
            return -1;
        const int q = std::stoi(digits);
        return q < n ? q : -1;
    }
    const std::string wanted = lowerCase(query);
    for (int i = 0; i < n; ++i)
        if (lowerCase(tokens[size_t(i)]) == wanted) return i;
    if (!tokenizer || wanted.empty()) return -1;
    const QueryWords w = wordsOf(tokens, *tokenizer);
    for (size_t k = 0; k < w.spans.size(); ++k)
        if (lowerCase(w.texts[k]) == wanted) return w.spans[k].first;
    if (!allCjk(query)) return -1;
    for (size_t k = 0; k < w.spans.size(); ++k) {  // consecutive words that spell it
        std::string run;
        for (size_t j = k; j < w.spans.size() && run.size() < query.size(); ++j) {
            run += w.texts[j];
            if (run == query) return w.spans[k].first;
        }
    }
    for (size_t k = 0; k < w.spans.size(); ++k)  // a word that holds it
        if (w.texts[k].find(query) != std::string::npos) return w.spans[k].first;
    return -1;
}

std::vector<std::string> queryWords(const std::vector<std::string>& tokens,
                                    const Tokenizer* tokenizer) {
    return tokenizer ? wordsOf(tokens, *tokenizer).texts : tokens;
}

}  // namespace attnviz
