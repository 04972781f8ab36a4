// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile SentencePiece models (issue 27, items 1, 2, 5, 6, 23): a generator of blobs built
// field by field from a model attnviz trained, and random mutations of it. Every blob is
// either refused with an Error or gives a tokenizer that tokenizes without harm; run under
// AddressSanitizer too (scripts/sanitize).
#include "core/sentencepiece_model.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "core/base64.h"
#include "core/error.h"
#include "core/model.h"
#include "core/safetensors.h"
#include "core/tokenizer.h"
#include "core/utf8.h"
#include "test_util.h"

using namespace attnviz;

namespace {

const Tokenizer& trained() {
    static const Tokenizer t = [] {
        std::vector<std::string> s;
        const char* words[] = {"the", "station", "train", "want", "go", "la", "estación", "tren"};
        for (int i = 0; i < 300; ++i) {
            std::string line;
            for (int k = 0; k < 5; ++k) line += std::string(words[(i * 5 + k * 3) % 8]) + " ";
            s.push_back(line);
        }
        return Tokenizer::trainSentencePiece(s, 300);
    }();
    return t;
}

std::string trainedProto() {
    return base64Decode(trained().toJson()["model"].get<std::string>());
}

// A minimal protobuf writer and splitter for building hostile models.
std::string varint(uint64_t v) {
    std::string s;
    while (v >= 0x80) {
        s.push_back(char((v & 0x7F) | 0x80));
        v >>= 7;
    }
    s.push_back(char(v));
    return s;
}
std::string key(uint32_t field, int wire) {
    return varint(uint64_t(field) << 3 | uint64_t(wire));
}
std::string lenField(uint32_t field, const std::string& data) {
    return key(field, 2) + varint(data.size()) + data;
}
std::string varintField(uint32_t field, uint64_t v) {
    return key(field, 0) + varint(v);
}

struct PbField {
    uint32_t number;
    int wire;
    std::string data;  // payload (wire 2) or the raw value bytes
};

std::vector<PbField> split(const std::string& s) {
    std::vector<PbField> out;
    size_t p = 0;
    auto readVarint = [&] {
        uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            const auto b = static_cast<unsigned char>(s.at(p++));
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
    };
    while (p < s.size()) {
        const uint64_t k = readVarint();
        PbField f{uint32_t(k >> 3), int(k & 7), {}};
        const size_t start = p;
        if (f.wire == 0) {
            readVarint();
            f.data = s.substr(start, p - start);
        } else if (f.wire == 2) {
            const uint64_t n = readVarint();
            f.data = s.substr(p, n);
            p += n;
        } else {
            const size_t n = f.wire == 1 ? 8 : 4;
            f.data = s.substr(p, n);
            p += n;
        }
        out.push_back(f);
    }
    return out;
}

std::string join(const std::vector<PbField>& fields) {
    std::string s;
    for (const auto& f : fields)
        s += f.wire == 2 ? lenField(f.number, f.data) : key(f.number, f.wire) + f.data;
    return s;
}

// The model with `edit` applied to its list of top-level fields.
template <class F>
std::string edited(F&& edit) {
    auto fields = split(trainedProto());
    edit(fields);
    return join(fields);
}

// Applies `edit` to the sub-message of the first top-level field `number`.
template <class F>
std::string editedSub(uint32_t number, F&& edit) {
    return edited([&](std::vector<PbField>& top) {
        for (auto& f : top) {
            if (f.number != number) continue;
            auto sub = split(f.data);
            edit(sub);
            f.data = join(sub);
            return;
        }
    });
}

std::string pieceMessage(const std::string& piece, int type = 1) {
    std::string score = key(2, 5) + std::string("\0\0\0\0", 4);
    return lenField(1, piece) + score + varintField(3, uint64_t(type));
}

// Index of the first top-level piece field whose piece is a normal one past the specials.
size_t firstNormalPiece(const std::vector<PbField>& top) {
    size_t seen = 0;
    for (size_t i = 0; i < top.size(); ++i) {
        if (top[i].number != 1) continue;
        if (++seen > 4 + 256) return i;
    }
    return 0;
}

size_t codePoints(const std::string& s) {
    return decodeUtf8(s).size();
}

struct Case {
    std::string name;
    std::string blob;
    std::string message;  // a part of the expected error
};

std::vector<Case> hostileCases() {
    std::vector<Case> c;
    c.push_back({"empty", "", "no pieces"});
    c.push_back({"truncated varint", edited([](auto& t) {
                     t.push_back({7, 0, "\x80"});
                 }),
                 "ends inside"});
    c.push_back({"length past the end", trainedProto() + key(1, 2) + varint(1000) + "ab",
                 "runs past the end"});
    c.push_back({"group wire type", trainedProto() + key(1, 3), "wire type 3"});
    c.push_back({"overlong varint", trainedProto() + key(9, 0) + std::string(10, '\xFF') + "\x01",
                 "over 64 bits"});
    c.push_back({"field zero", trainedProto() + std::string(2, '\0'), "invalid field number"});
    c.push_back({"unknown top-level field", trainedProto() + varintField(99, 1), "unknown field"});
    c.push_back(
        {"denormalizer", trainedProto() + lenField(5, lenField(1, "nmt_nfkc")), "denormalizer"});
    c.push_back({"second trainer spec", trainedProto() + lenField(2, ""), "repeats field 2"});
    // Normalizer tables: custom, corrupt, truncated, renamed, rules.
    for (int k : {0, 1, 2, 3, 100, 5000}) {
        c.push_back({"corrupt table byte " + std::to_string(k),
                     editedSub(3,
                               [&](auto& n) {
                                   for (auto& f : n)
                                       if (f.number == 2 && size_t(k) < f.data.size())
                                           f.data[size_t(k)] ^= 0x5A;
                               }),
                     "table differs"});
    }
    c.push_back({"truncated table",
                 editedSub(3,
                           [](auto& n) {
                               for (auto& f : n)
                                   if (f.number == 2) f.data.resize(f.data.size() / 2);
                           }),
                 "table differs"});
    c.push_back({"table but identity name",
                 editedSub(3,
                           [](auto& n) {
                               for (auto& f : n)
                                   if (f.number == 1) f.data = "identity";
                           }),
                 "table differs"});
    c.push_back({"unknown rule name",
                 editedSub(3,
                           [](auto& n) {
                               for (auto& f : n)
                                   if (f.number == 1) f.data = "nfkc_cf";
                           }),
                 "not one attnviz reads"});
    c.push_back({"no rule name",
                 editedSub(3,
                           [](auto& n) {
                               n.erase(std::remove_if(n.begin(), n.end(),
                                                      [](auto& f) { return f.number == 1; }),
                                       n.end());
                           }),
                 "no name"});
    c.push_back({"custom rules",
                 editedSub(3,
                           [](auto& n) {
                               n.push_back({6, 2, "a\tbbbbbbbb\n"});
                           }),
                 "custom normalization rules"});
    c.push_back({"normalizer unknown field",
                 editedSub(3,
                           [](auto& n) {
                               n.push_back({9, 0, varint(1)});
                           }),
                 "unknown field 9"});
    c.push_back({"no normalizer", edited([](auto& t) {
                     t.erase(
                         std::remove_if(t.begin(), t.end(), [](auto& f) { return f.number == 3; }),
                         t.end());
                 }),
                 "normalizer spec is missing"});
    // Trainer spec.
    c.push_back({"bpe",
                 editedSub(2,
                           [](auto& n) {
                               n.push_back({3, 0, varint(2)});
                           }),
                 "not 1 (unigram)"});
    c.push_back({"no byte fallback",
                 editedSub(2,
                           [](auto& n) {
                               n.push_back({35, 0, varint(0)});
                           }),
                 "byte fallback is off"});
    c.push_back({"long unknown surface",
                 editedSub(2,
                           [](auto& n) {
                               n.push_back({44, 2, std::string(100000, 'x')});
                           }),
                 "bytes long"});
    // Pieces.
    auto pieceCase = [&](const std::string& name, const std::string& piece, int type,
                         const std::string& message) {
        c.push_back({name, edited([&](auto& t) {
                         t[firstNormalPiece(t)].data = pieceMessage(piece, type);
                     }),
                     message});
    };
    pieceCase("piece of 200 KB", std::string(200000, 'a'), 1, "bytes long");
    pieceCase("piece of 257 bytes", std::string(257, 'a'), 1, "bytes long");
    pieceCase("invalid UTF-8 piece",
              "a\xFF"
              "b",
              1, "not valid UTF-8");
    pieceCase("surrogate piece", "\xED\xA0\x80", 1, "not valid UTF-8");
    pieceCase("NUL in a piece", std::string("\0\0\0\t<d>\t", 8), 1, "contains a NUL byte");
    pieceCase("empty piece", "", 1, "is empty");
    pieceCase("duplicate piece", "<unk>", 1, "appears twice");
    pieceCase("user-defined piece", "abc", 4, "has type 4");
    pieceCase("type 7", "abc", 7, "has type 7");
    pieceCase("fake byte piece", "<0xZZ>", 6, "not spelled <0xHH>");
    pieceCase("normal piece spelled as byte", "<0x41>", 1, "spelled as a byte piece");
    c.push_back({"nan score", edited([](auto& t) {
                     const float nan = std::numeric_limits<float>::quiet_NaN();
                     std::string bits(4, '\0');
                     std::memcpy(bits.data(), &nan, 4);
                     t[firstNormalPiece(t)].data = lenField(1, "abc") + key(2, 5) + bits;
                 }),
                 "not finite"});
    c.push_back({"piece unknown field", edited([](auto& t) {
                     t[firstNormalPiece(t)].data = pieceMessage("abc") + varintField(4, 1);
                 }),
                 "unknown field 4"});
    c.push_back({"byte piece missing", edited([](auto& t) {
                     for (auto& f : t)
                         if (f.number == 1 && f.data.find("<0x41>") != std::string::npos) {
                             f.data = pieceMessage("zzz");
                             break;
                         }
                 }),
                 "<0x41> is missing"});
    c.push_back({"too many pieces", edited([](auto& t) {
                     for (int i = 0; i <= kMaxSentencePieces; ++i)
                         t.push_back({1, 2, pieceMessage("p" + std::to_string(i))});
                 }),
                 "more than"});
    c.push_back({"specials moved", edited([](auto& t) { std::swap(t[0], t[4]); }), "piece 0"});
    return c;
}

}  // namespace

TEST(SentencePieceModel, EveryHostileBlobIsRefusedByName) {
    for (const auto& c : hostileCases()) {
        const std::string err = test::errorOf([&] {
            Tokenizer::fromJson({{"kind", "sentencepiece"}, {"model", base64Encode(c.blob)}});
        });
        EXPECT_NE(err.find(c.message), std::string::npos) << c.name << ": " << err;
        EXPECT_LT(err.size(), 400u) << c.name;
    }
}

TEST(SentencePieceModel, TheTrainedModelPassesUnchanged) {
    const std::string proto = trainedProto();
    const auto info = checkSentencePieceModel(
        proto, [](const std::string&) { return sentencePieceNormalizerTable(trainedProto()); });
    EXPECT_EQ(info.proto, proto);
    EXPECT_EQ(info.pieces, trained().pieces());
    EXPECT_EQ(info.normalizer, "nmt_nfkc");
}

TEST(SentencePieceModel, SelfTestSamplesAreDroppedUnrun) {
    // 200,000 samples that all fail: the library would run (and log) every one at load.
    std::string samples;
    for (int i = 0; i < 200000; ++i)
        samples += lenField(1, lenField(1, "the station " + std::to_string(i)) + lenField(2, "x"));
    const auto start = std::chrono::steady_clock::now();
    const Tokenizer t =
        Tokenizer::fromJson({{"kind", "sentencepiece"},
                             {"model", base64Encode(trainedProto() + lenField(4, samples))}});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(t.tokenize("the station"), trained().tokenize("the station"));
    EXPECT_EQ(base64Decode(t.toJson()["model"].get<std::string>()), trainedProto());
}

TEST(SentencePieceModel, RandomMutationsAreRefusedOrHarmless) {
    const std::string base = trainedProto();
    std::mt19937 rng(27);
    int refused = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string b = base;
        const int kind = int(rng() % 4);
        const int edits = 1 + int(rng() % 8);
        for (int e = 0; e < edits; ++e) {
            const size_t at = rng() % b.size();
            if (kind == 0) b[at] = char(rng());
            if (kind == 1) b[at] ^= char(1 << (rng() % 8));
            if (kind == 2) b.insert(at, 1, char(rng()));
            if (kind == 3 && b.size() > 1) b.erase(at, 1 + rng() % 16);
        }
        try {
            const Tokenizer t = Tokenizer::sentencePiece(b);
            for (const char* text : {"the station", "我想去 ﷺ ㍻ ﬁ", "  a  b  ", "x"}) {
                const auto tokens = t.tokenize(text);
                t.display(tokens);
                t.detokenize(tokens);
            }
        } catch (const Error&) {
            ++refused;
        }
    }
    EXPECT_GT(refused, 0);
}

TEST(SentencePieceModel, NormalizationExpansionIsBounded) {
    const Tokenizer& t = trained();
    // U+FDFA becomes 18 characters under nmt_nfkc: 200,000 of them (600 KB, within the byte
    // limit) would be 3.6 million characters, gigabytes in the library's lattice.
    std::string text;
    for (int i = 0; i < 200000; ++i) text += "\xEF\xB7\xBA";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_NE(test::errorOf([&] { t.tokenize(text); }).find("too long once normalized"),
              std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    // The bound is never below what the library makes, over texts mixing expanding characters.
    const std::string table = sentencePieceNormalizerTable(trainedProto());
    const char* parts[] = {"\xEF\xB7\xBA",
                           "\xE3\x8D\xBB",
                           "\xEF\xAC\x81",
                           "Ａ",
                           " ",
                           "  ",
                           "a",
                           "é",
                           "e\xCC\x81",
                           "\xE2\x91\xA0",
                           "\xC2\xBD",
                           "我",
                           "\xE3\x8C\x80",
                           "\t"};
    std::mt19937 rng(6);
    for (int i = 0; i < 300; ++i) {
        std::string s;
        for (int k = int(rng() % 12); k >= 0; --k) s += parts[rng() % std::size(parts)];
        const std::string normalized = t.detokenize(t.tokenize(s));
        EXPECT_GE(normalizedCodePointsBound(s, table), codePoints(normalized)) << s;
    }
}

TEST(SentencePieceModel, CheckpointVocabularyMustBeThePieces) {
    const Tokenizer& t = trained();
    const ModelConfig cfg = ModelConfig::fromJsonText(test::readConfig("dot"));
    const Vocab v(t.pieces());
    const SafeTensorsFile good = Model::initialize(cfg, v, v, t, 1).toSafeTensors();
    EXPECT_NO_THROW(Model::fromSafeTensors(good));
    auto withVocab = [&](const std::string& key, std::vector<std::string> tokens) {
        SafeTensorsFile f = good;
        f.metadata[key] = nlohmann::json(tokens).dump();
        return test::errorOf([&] { Model::fromSafeTensors(f); });
    };
    auto pieces = t.pieces();
    ASSERT_GT(pieces.size(), 264u);  // specials, bytes and a few words
    auto swapped = pieces;
    std::swap(swapped[pieces.size() - 1], swapped[pieces.size() - 3]);
    auto shorter = pieces;
    shorter.pop_back();
    auto other = pieces;
    other[pieces.size() - 2] = "something else";
    for (const auto& key : {"src_vocab", "tgt_vocab"}) {
        for (const auto& tokens : {swapped, shorter, other}) {
            const std::string err = withVocab(key, tokens);
            EXPECT_NE(err.find("differs from the SentencePiece model's pieces"), std::string::npos)
                << key << ": " << err;
        }
    }
}

// Item 11: the writer made checkpoints (a 32,000-piece tokenizer: 1.17 MB of JSON) that every
// reader refused. A model with the most pieces allowed goes to a file and back.
TEST(SentencePieceModel, TheLargestVocabularyReadsBack) {
    const std::string proto = edited([](auto& t) {
        const size_t have =
            size_t(std::count_if(t.begin(), t.end(), [](auto& f) { return f.number == 1; }));
        std::vector<PbField> more;
        for (size_t i = have; i < size_t(kMaxSentencePieces); ++i)
            more.push_back({1, 2, pieceMessage("\xE2\x96\x81w" + std::to_string(i))});
        t.insert(t.begin() + firstNormalPiece(t), more.begin(), more.end());
    });
    const Tokenizer t = Tokenizer::sentencePiece(proto);
    ASSERT_EQ(t.pieces().size(), size_t(kMaxSentencePieces));
    EXPECT_GT(t.toJson().dump().size(), size_t(1) << 20);
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"d_model": 4, "heads": 1, "d_ff": 4, "enc_layers": 1, "dec_layers": 1, "max_len": 8,
            "share_embeddings": true})");
    const Vocab v(t.pieces());
    const std::string path = test::tempPath("largest_vocab.safetensors");
    Model::initialize(cfg, v, v, t, 1).save(path);
    const Model back = Model::load(path);
    EXPECT_EQ(back.srcVocab().size(), kMaxSentencePieces);
    EXPECT_EQ(back.tokenizer().tokenize("w12345 station"), t.tokenize("w12345 station"));
    EXPECT_NE(test::errorOf([] {
                  Tokenizer::trainSentencePiece({"a b"}, kMaxSentencePieces + 1);
              }).find("300 to 262144"),
              std::string::npos);
}
