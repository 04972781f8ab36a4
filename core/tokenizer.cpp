// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenizer.h"

#include "base64.h"
#include "error.h"
#include "input_limits.h"
#include "utf8.h"

namespace attnviz {
namespace {

bool inRange(char32_t c, char32_t lo, char32_t hi) {
    return c >= lo && c <= hi;
}

bool isSpace(char32_t c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           inRange(c, 0x2000, 0x200B) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000 || c == 0xFEFF;
}

bool isControl(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c < 0xA0);
}

bool isCjk(char32_t c) {
    return inRange(c, 0x3400, 0x4DBF) || inRange(c, 0x4E00, 0x9FFF) || inRange(c, 0xF900, 0xFAFF) ||
           inRange(c, 0x20000, 0x3134F) || inRange(c, 0x3040, 0x309F) ||
           inRange(c, 0x30A0, 0x30FF) || inRange(c, 0x31F0, 0x31FF) || inRange(c, 0xAC00, 0xD7AF) ||
           inRange(c, 0xFF66, 0xFF9F);
}

bool isPunctOrSymbol(char32_t c) {
    if (c < 0x80) {
        return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
               (c >= 0x7B && c <= 0x7E);
    }
    return inRange(c, 0xA1, 0xBF) || c == 0xD7 || c == 0xF7 || inRange(c, 0x2010, 0x2027) ||
           inRange(c, 0x2030, 0x205E) || inRange(c, 0x20A0, 0x20CF) || inRange(c, 0x2100, 0x214F) ||
           inRange(c, 0x2190, 0x2BFF) || inRange(c, 0x3001, 0x303F) || inRange(c, 0xFE10, 0xFE1F) ||
           inRange(c, 0xFE30, 0xFE4F) || inRange(c, 0xFF01, 0xFF0F) || inRange(c, 0xFF1A, 0xFF20) ||
           inRange(c, 0xFF3B, 0xFF40) || inRange(c, 0xFF5B, 0xFF65) || inRange(c, 0x1F000, 0x1FAFF);
}

// What modifies or joins the emoji before it: variation selectors, skin tones, the zero-width
// joiner, the keycap mark, tag characters (subdivision flags).
bool isEmojiModifier(char32_t c) {
    return inRange(c, 0xFE00, 0xFE0F) || inRange(c, 0x1F3FB, 0x1F3FF) || c == 0x200D ||
           c == 0x20E3 || inRange(c, 0xE0020, 0xE007F);
}

char32_t toLower(char32_t c) {
    if (inRange(c, 'A', 'Z')) return c + 0x20;
    if (c < 0xC0) return c;
    if (inRange(c, 0xC0, 0xDE) && c != 0xD7) return c + 0x20;
    if (inRange(c, 0x100, 0x137) && c != 0x130) return c | 1;
    if (c == 0x130) return 'i';
    if (inRange(c, 0x139, 0x148) || inRange(c, 0x179, 0x17E)) return (c & 1) ? c + 1 : c;
    if (inRange(c, 0x14A, 0x177)) return c | 1;
    if (c == 0x178) return 0xFF;
    if (inRange(c, 0x391, 0x3AB) && c != 0x3A2) return c + 0x20;
    if (inRange(c, 0x410, 0x42F)) return c + 0x20;
    if (inRange(c, 0x400, 0x40F)) return c + 0x50;
    if (inRange(c, 0xFF21, 0xFF3A)) return c + 0x20;
    return c;
}

}  // namespace

std::string lowerCase(std::string_view text) {
    std::u32string cps;
    try {
        cps = decodeUtf8(text);
    } catch (const Error&) {
        return std::string(text);
    }
    std::string out;
    for (char32_t c : cps) appendUtf8(out, toLower(c));
    return out;
}

Tokenizer Tokenizer::fromJson(const nlohmann::json& j) {
    if (!j.is_object()) throw Error("tokenizer description must be a JSON object");
    if (!j.contains("kind") || !j["kind"].is_string()) {
        throw Error("tokenizer 'kind' must be a string, got " +
                    (j.contains("kind") ? excerpt(j["kind"]) : std::string("nothing")));
    }
    const auto kind = j["kind"].get<std::string>();
    if (kind == "sentencepiece") {
        if (!j.contains("model") || !j["model"].is_string())
            throw Error("sentencepiece tokenizer needs 'model' (the model, base64)");
        return sentencePiece(base64Decode(j["model"].get<std::string>()));
    }
    if (kind != "word") {
        throw Error("unsupported tokenizer kind '" + excerpt(kind) +
                    "' (this version reads 'word' and 'sentencepiece')");
    }
    bool lower = true;
    if (j.contains("lowercase")) {
        if (!j["lowercase"].is_boolean())
            throw Error("tokenizer 'lowercase' must be true or false");
        lower = j["lowercase"].get<bool>();
    }
    return Tokenizer(lower);
}

nlohmann::json Tokenizer::toJson() const {
    if (m_sp) return {{"kind", "sentencepiece"}, {"model", base64Encode(*m_proto)}};
    return {{"kind", "word"}, {"lowercase", m_lowercase}};
}

std::vector<std::string> Tokenizer::tokenize(std::string_view text) const {
    if (text.size() > kMaxTextBytes) {
        throw Error("text is too long: " + std::to_string(text.size()) + " bytes (limit " +
                    std::to_string(kMaxTextBytes) + ")");
    }
    const std::u32string cps = decodeUtf8(text);  // Error on invalid UTF-8, for both kinds
    if (m_sp) return encodePieces(text);
    std::vector<std::string> out;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) out.push_back(std::move(word));
        word.clear();
    };
    // Emoji sequences stay one token (rule 5 of docs/tokenizer.md): what modifies or joins
    // the symbol token just emitted is appended to it.
    bool lastIsSymbol = false, joinNext = false, lastIsFlagHalf = false;
    for (char32_t c : cps) {
        const bool regional = inRange(c, 0x1F1E6, 0x1F1FF);
        if (lastIsSymbol && word.empty() && !out.empty() &&
            (isEmojiModifier(c) || joinNext || (regional && lastIsFlagHalf))) {
            appendUtf8(out.back(), c);
            joinNext = c == 0x200D;
            lastIsFlagHalf = false;  // a flag is two regional indicators, no more
            continue;
        }
        joinNext = false;
        lastIsFlagHalf = false;
        if (isSpace(c) || isControl(c)) {
            flush();
            lastIsSymbol = false;
        } else if (isCjk(c) || isPunctOrSymbol(c)) {
            flush();
            std::string t;
            appendUtf8(t, m_lowercase ? toLower(c) : c);
            out.push_back(std::move(t));
            lastIsSymbol = !isCjk(c);
            lastIsFlagHalf = regional;
        } else {
            appendUtf8(word, m_lowercase ? toLower(c) : c);
            lastIsSymbol = false;
        }
    }
    flush();
    return out;
}

const std::vector<std::string>& Vocab::specials() {
    static const std::vector<std::string> s{"<pad>", "<unk>", "<bos>", "<eos>"};
    return s;
}

Vocab::Vocab(std::vector<std::string> tokens) : m_tokens(std::move(tokens)) {
    const auto& sp = specials();
    if (m_tokens.size() < sp.size()) {
        throw Error("vocabulary has " + std::to_string(m_tokens.size()) +
                    " tokens; it must start with <pad>, <unk>, <bos>, <eos>");
    }
    for (size_t i = 0; i < sp.size(); ++i) {
        if (m_tokens[i] != sp[i]) {
            throw Error("vocabulary token " + std::to_string(i) + " is '" + excerpt(m_tokens[i]) +
                        "', expected '" + sp[i] + "'");
        }
    }
    m_index.reserve(m_tokens.size());
    for (size_t i = 0; i < m_tokens.size(); ++i) {
        if (m_tokens[i].empty()) throw Error("vocabulary token " + std::to_string(i) + " is empty");
        try {
            decodeUtf8(m_tokens[i]);
        } catch (const Error&) {
            throw Error("vocabulary token " + std::to_string(i) + " is not valid UTF-8");
        }
        if (!m_index.emplace(m_tokens[i], static_cast<int>(i)).second)
            throw Error("vocabulary token '" + excerpt(m_tokens[i]) + "' appears twice");
    }
}

Vocab Vocab::fromWords(const std::vector<std::string>& words) {
    std::vector<std::string> t = specials();
    std::unordered_map<std::string, int> seen;
    for (const auto& s : specials()) seen.emplace(s, 0);
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        try {
            decodeUtf8(w);
        } catch (const Error&) {
            throw Error("word " + std::to_string(i + 1) + " is not valid UTF-8");
        }
        if (!w.empty() && seen.emplace(w, 0).second) t.push_back(w);
    }
    return Vocab(std::move(t));
}

int Vocab::id(const std::string& token) const {
    auto it = m_index.find(token);
    return it == m_index.end() ? kUnk : it->second;
}

const std::string& Vocab::token(int id) const {
    if (id < 0 || id >= size()) return specials()[kUnk];
    return m_tokens[static_cast<size_t>(id)];
}

std::vector<int> Vocab::ids(const std::vector<std::string>& tokens) const {
    std::vector<int> out;
    out.reserve(tokens.size());
    for (const auto& t : tokens) out.push_back(id(t));
    return out;
}

const std::vector<std::string>& builtinEnglishWords() {
    static const std::vector<std::string> words{
        ".",        ",",       "?",        "!",         "'",      "i",        "you",
        "he",       "she",     "it",       "we",        "they",   "me",       "him",
        "her",      "us",      "them",     "my",        "your",   "his",      "its",
        "our",      "their",   "this",     "that",      "these",  "those",    "a",
        "an",       "the",     "to",       "of",        "in",     "on",       "at",
        "by",       "for",     "with",     "from",      "into",   "about",    "after",
        "before",   "under",   "over",     "and",       "or",     "but",      "because",
        "if",       "when",    "while",    "not",       "no",     "yes",      "is",
        "are",      "was",     "were",     "be",        "been",   "am",       "do",
        "does",     "did",     "have",     "has",       "had",    "will",     "would",
        "can",      "could",   "should",   "must",      "may",    "want",     "wants",
        "wanted",   "go",      "goes",     "went",      "come",   "comes",    "came",
        "see",      "sees",    "saw",      "give",      "gives",  "gave",     "take",
        "takes",    "took",    "make",     "makes",     "made",   "know",     "knows",
        "knew",     "think",   "thinks",   "like",      "likes",  "need",     "needs",
        "try",      "tries",   "read",     "reads",     "write",  "writes",   "eat",
        "eats",     "drink",   "drinks",   "buy",       "buys",   "sell",     "sells",
        "help",     "helps",   "find",     "finds",     "tell",   "tells",    "say",
        "says",     "said",    "ask",      "asks",      "walk",   "walks",    "run",
        "runs",     "sleep",   "sleeps",   "open",      "close",  "learn",    "learns",
        "teach",    "teaches", "station",  "house",     "school", "city",     "park",
        "train",    "bus",     "car",      "book",      "letter", "friend",   "teacher",
        "student",  "child",   "children", "man",       "woman",  "people",   "dog",
        "cat",      "bird",    "tree",     "water",     "food",   "apple",    "bread",
        "coffee",   "tea",     "table",    "door",      "window", "room",     "street",
        "market",   "shop",    "river",    "sea",       "day",    "night",    "morning",
        "evening",  "week",    "year",     "time",      "today",  "tomorrow", "yesterday",
        "here",     "there",   "now",      "then",      "very",   "also",     "too",
        "again",    "always",  "never",    "often",     "good",   "bad",      "big",
        "small",    "old",     "new",      "young",     "long",   "short",    "red",
        "blue",     "green",   "white",    "black",     "happy",  "tired",    "hungry",
        "cold",     "hot",     "one",      "two",       "three",  "four",     "five",
        "many",     "some",    "all",      "every",     "other",  "what",     "who",
        "where",    "why",     "how",      "which",     "up",     "down",     "out",
        "off",      "back",    "home",     "work",      "works",  "worked",   "play",
        "plays",    "played",  "mother",   "father",    "sister", "brother",  "name",
        "language", "word",    "sentence", "attention", "model",  "head",     "cat",
        "mat",      "sat",     "jumped",   "quick",     "brown",  "fox",      "lazy",
        "over"};
    return words;
}

}  // namespace attnviz
