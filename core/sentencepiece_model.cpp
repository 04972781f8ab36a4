// SPDX-License-Identifier: GPL-3.0-or-later
#include "sentencepiece_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "error.h"
#include "input_limits.h"
#include "utf8.h"

namespace attnviz {
namespace {

enum WireType { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

struct Field {
    uint32_t number = 0;
    int wire = 0;
    uint64_t value = 0;     // varint and fixed values
    std::string_view data;  // wire type 2: the payload
    std::string_view raw;   // the whole field, key included
};

[[noreturn]] void fail(const std::string& what) {
    throw Error("SentencePiece model: " + what);
}

// Reads the fields of one message, refusing any malformed byte.
class Reader {
public:
    Reader(std::string_view bytes, std::string where) : m_s(bytes), m_where(std::move(where)) {}

    bool next(Field& f) {
        if (m_pos >= m_s.size()) return false;
        const size_t start = m_pos;
        const uint64_t key = varint();
        f.number = uint32_t(key >> 3);
        f.wire = int(key & 7);
        if (f.number == 0 || (key >> 3) > 0x1FFFFFFF)
            fail(m_where + " has an invalid field number");
        f.data = {};
        switch (f.wire) {
            case kVarint:
                f.value = varint();
                break;
            case kFixed64:
                f.value = fixed(8);
                break;
            case kFixed32:
                f.value = fixed(4);
                break;
            case kBytes: {
                const uint64_t n = varint();
                if (n > m_s.size() - m_pos)
                    fail(m_where + " field " + std::to_string(f.number) + " runs past the end");
                f.data = m_s.substr(m_pos, size_t(n));
                m_pos += size_t(n);
                break;
            }
            default:
                fail(m_where + " field " + std::to_string(f.number) + " has wire type " +
                     std::to_string(f.wire) + " (groups and unknown types are refused)");
        }
        f.raw = m_s.substr(start, m_pos - start);
        return true;
    }

private:
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_s.size()) fail(m_where + " ends inside a number");
            const auto b = static_cast<unsigned char>(m_s[m_pos++]);
            if (shift == 63 && b > 1) fail(m_where + " has a number over 64 bits");
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        fail(m_where + " has a number over 64 bits");
    }
    uint64_t fixed(int n) {
        if (m_s.size() - m_pos < size_t(n)) fail(m_where + " ends inside a number");
        uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v |= uint64_t(static_cast<unsigned char>(m_s[m_pos + size_t(i)])) << (8 * i);
        m_pos += size_t(n);
        return v;
    }

    std::string_view m_s;
    std::string m_where;
    size_t m_pos = 0;
};

void expectWire(const Field& f, int wire, const std::string& where) {
    if (f.wire != wire) {
        fail(where + " field " + std::to_string(f.number) + " has wire type " +
             std::to_string(f.wire) + ", expected " + std::to_string(wire));
    }
}

// Each singular field at most once: protobuf would take the last, a reader the first.
void once(std::unordered_set<uint32_t>& seen, const Field& f, const std::string& where) {
    if (!seen.insert(f.number).second) fail(where + " repeats field " + std::to_string(f.number));
}

bool validUtf8(std::string_view s) {
    try {
        decodeUtf8(s);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// "<0xE6>" -> 0xE6; -1 when not spelled so.
int bytePiece(std::string_view p) {
    if (p.size() != 6 || p.substr(0, 3) != "<0x" || p[5] != '>') return -1;
    int v = 0;
    for (int i = 3; i < 5; ++i) {
        const char c = p[size_t(i)];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

enum PieceType {
    kNormal = 1,
    kUnknown = 2,
    kControl = 3,
    kUserDefined = 4,
    kUnused = 5,
    kByte = 6
};

std::string checkPiece(std::string_view bytes, size_t index, std::vector<bool>& bytesSeen) {
    const std::string where = "piece " + std::to_string(index);
    Reader r(bytes, where);
    Field f;
    std::unordered_set<uint32_t> seen;
    std::string_view piece;
    bool hasPiece = false;
    int type = kNormal;
    while (r.next(f)) {
        once(seen, f, where);
        if (f.number == 1) {
            expectWire(f, kBytes, where);
            piece = f.data;
            hasPiece = true;
        } else if (f.number == 2) {
            expectWire(f, kFixed32, where);
            float score;
            const auto bits = uint32_t(f.value);
            std::memcpy(&score, &bits, sizeof score);
            if (!std::isfinite(score)) fail(where + " has a score that is not finite");
        } else if (f.number == 3) {
            expectWire(f, kVarint, where);
            if (f.value < kNormal || f.value > kByte || f.value == kUserDefined)
                fail(where + " has type " + std::to_string(f.value) +
                     " (normal, unknown, control, unused and byte pieces are read)");
            type = int(f.value);
        } else {
            fail(where + " has an unknown field " + std::to_string(f.number));
        }
    }
    if (!hasPiece || piece.empty()) fail(where + " is empty");
    if (piece.size() > kMaxPieceBytes) {
        fail(where + " is " + std::to_string(piece.size()) + " bytes long (limit " +
             std::to_string(kMaxPieceBytes) + ")");
    }
    if (!validUtf8(piece)) fail(where + " is not valid UTF-8");
    // The library's trie builder throws on a NUL byte, through code that cannot pass it on:
    // std::terminate (found by fuzz_sentencepiece).
    if (piece.find('\0') != std::string_view::npos) fail(where + " contains a NUL byte");
    const int b = bytePiece(piece);
    if ((type == kByte) != (b >= 0)) {
        fail(where + " '" + excerpt(piece) + "' " +
             (type == kByte ? "is a byte piece not spelled <0xHH>"
                            : "is spelled as a byte piece but is not one"));
    }
    if (b >= 0) {
        if (bytesSeen[size_t(b)]) fail(where + " repeats the byte piece " + std::string(piece));
        bytesSeen[size_t(b)] = true;
    }
    return std::string(piece);
}

void checkTrainerSpec(std::string_view bytes) {
    const std::string where = "trainer spec";
    Reader r(bytes, where);
    Field f;
    bool byteFallback = false;
    while (r.next(f)) {
        if (f.wire == kBytes && f.data.size() > kMaxSpecStringBytes) {
            fail(where + " field " + std::to_string(f.number) + " is " +
                 std::to_string(f.data.size()) + " bytes long (limit " +
                 std::to_string(kMaxSpecStringBytes) + ")");
        }
        if (f.number == 3) {
            expectWire(f, kVarint, where);
            if (f.value != 1)
                fail("the model type is " + std::to_string(f.value) + ", not 1 (unigram)");
        } else if (f.number == 35) {
            expectWire(f, kVarint, where);
            byteFallback = f.value != 0;
        }
    }
    if (!byteFallback) fail("byte fallback is off (unknown text would become <unk>)");
}

std::string checkNormalizer(std::string_view bytes,
                            const std::function<std::string(const std::string&)>& tableFor) {
    const std::string where = "normalizer spec";
    Reader r(bytes, where);
    Field f;
    std::unordered_set<uint32_t> seen;
    std::string name;
    std::string_view table;
    bool hasName = false;
    while (r.next(f)) {
        once(seen, f, where);
        if (f.number == 1) {
            expectWire(f, kBytes, where);
            name = std::string(f.data);
            hasName = true;
        } else if (f.number == 2) {
            expectWire(f, kBytes, where);
            table = f.data;
        } else if (f.number >= 3 && f.number <= 5) {
            expectWire(f, kVarint, where);
        } else if (f.number == 6) {
            fail("custom normalization rules are refused");
        } else {
            fail(where + " has an unknown field " + std::to_string(f.number));
        }
    }
    if (!hasName) fail("the normalizer has no name");
    const auto& names = sentencePieceRuleNames();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        fail("normalizer '" + excerpt(name) + "' is not one attnviz reads (nmt_nfkc, identity)");
    }
    if (table != tableFor(name)) {
        fail("the normalizer table differs from SentencePiece's own '" + name +
             "' table (custom tables are refused)");
    }
    return name;
}

}  // namespace

const std::vector<std::string>& sentencePieceRuleNames() {
    static const std::vector<std::string> names{"nmt_nfkc", "identity"};
    return names;
}

SentencePieceModelInfo checkSentencePieceModel(
    std::string_view proto, const std::function<std::string(const std::string&)>& tableFor) {
    if (proto.size() > kMaxSentencePieceModelBytes) {
        fail("it is " + std::to_string(proto.size()) + " bytes (limit " +
             std::to_string(kMaxSentencePieceModelBytes) + ")");
    }
    SentencePieceModelInfo info;
    Reader r(proto, "the model");
    Field f;
    std::unordered_set<uint32_t> seen;
    std::unordered_set<std::string_view> unique;
    std::vector<bool> bytesSeen(256, false);
    bool hasTrainer = false, hasNormalizer = false;
    while (r.next(f)) {
        if (f.number != 1) once(seen, f, "the model");
        if (f.number >= 1 && f.number <= 5) expectWire(f, kBytes, "the model");
        switch (f.number) {
            case 1:
                if (info.pieces.size() >= size_t(kMaxSentencePieces)) {
                    fail("it has more than " + std::to_string(kMaxSentencePieces) + " pieces");
                }
                info.pieces.push_back(checkPiece(f.data, info.pieces.size(), bytesSeen));
                break;
            case 2:
                checkTrainerSpec(f.data);
                hasTrainer = true;
                break;
            case 3:
                info.normalizer = checkNormalizer(f.data, tableFor);
                hasNormalizer = true;
                break;
            case 4:
                continue;  // self-test samples: run at load by the library, for minutes; dropped
            case 5:
                fail("a denormalizer is refused (attnviz's models have none)");
            default:
                fail("unknown field " + std::to_string(f.number));
        }
        info.proto.append(f.raw);
    }
    if (info.pieces.empty()) fail("it has no pieces");
    if (!hasTrainer) fail("the trainer spec is missing");
    if (!hasNormalizer) fail("the normalizer spec is missing");
    for (size_t i = 0; i < info.pieces.size(); ++i) {
        if (!unique.insert(info.pieces[i]).second)
            fail("piece " + std::to_string(i) + " '" + excerpt(info.pieces[i]) + "' appears twice");
    }
    for (int b = 0; b < 256; ++b) {
        if (!bytesSeen[size_t(b)])
            fail("byte piece <0x" + std::string(1, "0123456789ABCDEF"[b / 16]) +
                 "0123456789ABCDEF"[b % 16] + "> is missing (byte fallback needs all 256)");
    }
    return info;
}

std::string sentencePieceNormalizerTable(std::string_view proto) {
    Reader r(proto, "the model");
    Field f;
    while (r.next(f)) {
        if (f.number != 3 || f.wire != kBytes) continue;
        Reader n(f.data, "normalizer spec");
        Field g;
        while (n.next(g))
            if (g.number == 2 && g.wire == kBytes) return std::string(g.data);
    }
    return {};
}

uint64_t normalizedCodePointsBound(std::string_view text, std::string_view table) {
    auto codePoints = [](std::string_view s) {
        uint64_t n = 0;
        for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return n;
    };
    if (table.size() < 4) return codePoints(text) + 1;
    uint32_t trieBytes = 0;
    for (int i = 0; i < 4; ++i)
        trieBytes |= uint32_t(static_cast<unsigned char>(table[size_t(i)])) << (8 * i);
    if (trieBytes % 4 != 0 || trieBytes == 0 || trieBytes > table.size() - 4)
        fail("the normalizer table is malformed");
    const size_t units = trieBytes / 4;
    auto unit = [&](size_t i) -> uint32_t {
        if (i >= units) return 0xFFFFFFFFu;  // a label that matches no byte: the walk stops
        uint32_t u;
        std::memcpy(&u, table.data() + 4 + 4 * i, 4);
        return u;
    };
    // Darts-clone's double array unit layout.
    auto offset = [](uint32_t u) -> size_t { return size_t(u >> 10) << ((u & (1u << 9)) >> 6); };
    auto label = [](uint32_t u) { return u & ((1u << 31) | 0xFF); };
    auto hasLeaf = [](uint32_t u) { return ((u >> 8) & 1) == 1; };
    const std::string_view strings = table.substr(4 + trieBytes);
    constexpr int kMaxTrieResults = 32;  // the library looks at no more matches than this
    uint64_t total = 1;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t node = offset(unit(0)), longest = 0;
        uint32_t value = 0;
        int results = 0;
        for (size_t i = pos; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            node ^= c;
            const uint32_t u = unit(node);
            if (label(u) != c) break;
            node ^= offset(u);
            if (hasLeaf(u) && results++ < kMaxTrieResults) {
                longest = i + 1 - pos;
                value = unit(node) & ((1u << 31) - 1);
            }
        }
        if (longest > 0 && value < strings.size()) {
            const std::string_view rest = strings.substr(value);
            total += codePoints(rest.substr(0, std::min(rest.find('\0'), rest.size())));
            pos += longest;
        } else {
            ++total;
            ++pos;
            while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
                ++pos;
        }
    }
    return total;
}

}  // namespace attnviz
