// SPDX-License-Identifier: GPL-3.0-or-later
// The "sentencepiece" tokenizer kind: a SentencePiece model (Debian's libsentencepiece) with
// byte fallback, carried inside the checkpoint. See tokenizer.h.
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>

#include "error.h"
#include "input_limits.h"
#include "sentencepiece_model.h"
#include "tokenizer.h"
#include "utf8.h"

// Exported by libsentencepiece (logging.h is not installed): 0 info ... 3 fatal.
namespace sentencepiece::logging {
void SetMinLogLevel(int v);
}

namespace attnviz {
namespace {

const std::string kWordStart = "\xE2\x96\x81";  // U+2581, SentencePiece's word-start mark

// "<0xE6>" -> 0xE6; -1 when `piece` is not a byte piece.
int bytePiece(const std::string& piece) {
    if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return -1;
    int v = 0;
    for (int i = 3; i < 5; ++i) {
        const char c = piece[size_t(i)];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

// Length of the UTF-8 sequence a lead byte starts (0: not a lead byte).
int utf8Length(int lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

bool validUtf8(const std::string& s) {
    try {
        decodeUtf8(s);
        return true;
    } catch (const Error&) {
        return false;
    }
}

class VectorIterator : public sentencepiece::SentenceIterator {
public:
    explicit VectorIterator(const std::vector<std::string>& s) : m_s(s) {}
    bool done() const override { return m_i >= m_s.size(); }
    void Next() override { ++m_i; }
    const std::string& value() const override { return m_s[m_i]; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    const std::vector<std::string>& m_s;
    size_t m_i = 0;
};

std::unordered_map<std::string, std::string> trainerArgs(int vocabSize, const std::string& rule) {
    return {{"model_type", "unigram"},
            {"vocab_size", std::to_string(vocabSize)},
            {"byte_fallback", "true"},
            {"hard_vocab_limit", "false"},
            {"character_coverage", "0.9995"},
            {"split_digits", "true"},
            {"normalization_rule_name", rule},
            {"pad_id", "0"},
            {"unk_id", "1"},
            {"bos_id", "2"},
            {"eos_id", "3"},
            {"pad_piece", "<pad>"},
            {"unk_piece", "<unk>"},
            {"bos_piece", "<bos>"},
            {"eos_piece", "<eos>"},
            {"num_threads", "1"},
            {"minloglevel", "2"},
            {"max_sentence_length", "65536"}};
}

// The library's own normalizer table for a rule name, taken from a tiny model it trains
// (~20 ms, once per rule and process): the only tables a checkpoint may carry.
std::string libraryTable(const std::string& rule) {
    static std::mutex mutex;
    static std::map<std::string, std::string> tables;
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = tables.find(rule); it != tables.end()) return it->second;
    const std::vector<std::string> text{"a b c", "hello world"};
    VectorIterator it(text);
    std::string proto;
    const auto status =
        sentencepiece::SentencePieceTrainer::Train(trainerArgs(300, rule), &it, &proto);
    if (!status.ok())
        throw Error("SentencePiece cannot build its '" + rule + "' table: " + status.ToString());
    return tables[rule] = sentencePieceNormalizerTable(proto);
}

void silenceLibrary() {
    static std::once_flag once;
    std::call_once(once, [] { sentencepiece::logging::SetMinLogLevel(3); });  // fatal only
}

}  // namespace

Tokenizer Tokenizer::sentencePiece(std::string modelProto) {
    silenceLibrary();
    SentencePieceModelInfo info = checkSentencePieceModel(modelProto, libraryTable);
    if (info.pieces.size() < Vocab::specials().size() + 256)
        throw Error("SentencePiece model has only " + std::to_string(info.pieces.size()) +
                    " pieces (needs the 4 specials and 256 byte pieces at least)");
    modelProto = std::move(info.proto);
    auto sp = std::make_shared<sentencepiece::SentencePieceProcessor>();
    const auto status = sp->LoadFromSerializedProto(modelProto);
    if (!status.ok())
        throw Error(std::string("not a valid SentencePiece model: ") + status.ToString());
    const auto& specials = Vocab::specials();
    if (sp->GetPieceSize() < int(specials.size()) + 256)
        throw Error("SentencePiece model has only " + std::to_string(sp->GetPieceSize()) +
                    " pieces (needs the 4 specials and 256 byte pieces at least)");
    for (size_t i = 0; i < specials.size(); ++i) {
        if (sp->IdToPiece(int(i)) != specials[i]) {
            throw Error("SentencePiece piece " + std::to_string(i) + " is '" +
                        sp->IdToPiece(int(i)).substr(0, 40) + "', expected '" + specials[i] + "'");
        }
    }
    int bytes = 0;
    for (int id = 0; id < sp->GetPieceSize(); ++id) bytes += sp->IsByte(id) ? 1 : 0;
    if (bytes != 256)
        throw Error("SentencePiece model has no byte fallback (unknown text would become <unk>)");
    for (int id = 0; id < sp->GetPieceSize(); ++id) {
        if (sp->IdToPiece(id) != info.pieces[size_t(id)])
            throw Error("SentencePiece model: the library reads piece " + std::to_string(id) +
                        " differently");
    }
    Tokenizer t(false);
    t.m_sp = std::move(sp);
    t.m_proto = std::make_shared<const std::string>(std::move(modelProto));
    t.m_table = std::make_shared<const std::string>(libraryTable(info.normalizer));
    return t;
}

Tokenizer Tokenizer::trainSentencePiece(const std::vector<std::string>& sentences, int vocabSize) {
    if (vocabSize < 300 || vocabSize > kMaxSentencePieces)
        throw Error("a SentencePiece vocabulary needs 300 to " +
                    std::to_string(kMaxSentencePieces) + " pieces, got " +
                    std::to_string(vocabSize));
    if (sentences.empty()) throw Error("no sentences to train a SentencePiece model on");
    silenceLibrary();
    VectorIterator it(sentences);
    std::string proto;
    const auto status =
        sentencepiece::SentencePieceTrainer::Train(trainerArgs(vocabSize, "nmt_nfkc"), &it, &proto);
    if (!status.ok())
        throw Error(std::string("training the SentencePiece model failed: ") + status.ToString());
    return sentencePiece(std::move(proto));
}

std::vector<std::string> Tokenizer::encodePieces(std::string_view text) const {
    const uint64_t normalized = normalizedCodePointsBound(text, *m_table);
    if (normalized > kMaxTextBytes + 1) {
        throw Error("text is too long once normalized: up to " + std::to_string(normalized) +
                    " characters (limit " + std::to_string(kMaxTextBytes) + ")");
    }
    std::vector<std::string> pieces;
    const auto status = m_sp->Encode(text, &pieces);
    if (!status.ok()) throw Error(std::string("SentencePiece: ") + status.ToString());
    return pieces;
}

std::vector<std::string> Tokenizer::pieces() const {
    std::vector<std::string> out;
    if (!m_sp) return out;
    out.reserve(size_t(m_sp->GetPieceSize()));
    for (int id = 0; id < m_sp->GetPieceSize(); ++id) out.push_back(m_sp->IdToPiece(id));
    return out;
}

bool Tokenizer::startsWord(const std::string& token) const {
    if (!m_sp) return true;
    const auto& sp = Vocab::specials();
    if (std::find(sp.begin(), sp.end(), token) != sp.end()) return true;
    return token.compare(0, kWordStart.size(), kWordStart) == 0;
}

std::vector<std::string> Tokenizer::display(const std::vector<std::string>& tokens) const {
    if (!m_sp) return tokens;
    static const char* const kMarks[] = {"\xC2\xB9", "\xC2\xB2", "\xC2\xB3", "\xE2\x81\xB4"};
    std::vector<std::string> out(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i) {
        const int lead = bytePiece(tokens[i]);
        const int n = lead < 0 ? 0 : utf8Length(lead);
        bool whole = n > 0 && i + size_t(n) <= tokens.size();
        std::string ch;
        for (int k = 0; whole && k < n; ++k) {
            const int b = bytePiece(tokens[i + size_t(k)]);
            whole = b >= 0 && (k == 0 || (b & 0xC0) == 0x80);
            ch += static_cast<char>(b);
        }
        if (whole && validUtf8(ch)) {
            for (int k = 0; k < n; ++k) out[i + size_t(k)] = n == 1 ? ch : ch + kMarks[k];
            i += size_t(n) - 1;
            continue;
        }
        std::string t = tokens[i];
        if (t.compare(0, kWordStart.size(), kWordStart) == 0)
            t = t.size() == kWordStart.size() ? "\xE2\x90\xA3" : t.substr(kWordStart.size());  // ␣
        out[i] = t;
    }
    return out;
}

std::string Tokenizer::detokenize(const std::vector<std::string>& tokens) const {
    if (!m_sp) {
        std::string s;
        for (const auto& t : tokens) s += (s.empty() ? "" : " ") + t;
        return s;
    }
    std::string text;
    const auto status = m_sp->Decode(tokens, &text);
    if (!status.ok()) throw Error(std::string("SentencePiece: ") + status.ToString());
    return text;
}

}  // namespace attnviz
