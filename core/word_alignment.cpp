// SPDX-License-Identifier: GPL-3.0-or-later
#include "word_alignment.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "error.h"
#include "input_limits.h"
#include "network.h"

namespace attnviz {

namespace {

// The bytes a piece stands for: "<0xAB>" byte-fallback pieces one byte, "▁" a space.
std::string pieceBytes(const std::string& p) {
    if (p.size() == 6 && p.compare(0, 3, "<0x") == 0 && p[5] == '>') {
        return std::string(1, static_cast<char>(std::stoi(p.substr(3, 2), nullptr, 16)));
    }
    std::string s;
    const std::string marker = "\xE2\x96\x81";
    for (size_t i = 0; i < p.size();) {
        if (p.compare(i, marker.size(), marker) == 0) {
            s += ' ';
            i += marker.size();
        } else {
            s += p[i++];
        }
    }
    return s;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

int parseIndex(const std::string& s, const std::string& item) {
    if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), ::isdigit))
        throw Error("alignment link '" + excerpt(item) + "' is not INDEX-INDEX or INDEX?INDEX");
    return std::stoi(s);
}

}  // namespace

ReferenceAlignment parseAlignmentLine(const std::string& line) {
    ReferenceAlignment r;
    size_t start = 0;
    while (start < line.size()) {
        size_t end = line.find(' ', start);
        if (end == std::string::npos) end = line.size();
        const std::string item = line.substr(start, end - start);
        start = end + 1;
        if (item.empty()) continue;
        const size_t sep = item.find_first_of("-?");
        if (sep == std::string::npos)
            throw Error("alignment link '" + excerpt(item) + "' is not INDEX-INDEX or INDEX?INDEX");
        const int s = parseIndex(item.substr(0, sep), item);
        const int t = parseIndex(item.substr(sep + 1), item);
        (item[sep] == '-' ? r.sure : r.possible).emplace_back(t, s);
    }
    return r;
}

std::vector<WordAlignedPair> loadWordAlignedPairs(const std::string& tsv,
                                                  const std::string& align) {
    const auto pairs = splitLines(readTextFile(tsv, kMaxDataBytes, "'" + tsv + "'"));
    const auto links = splitLines(readTextFile(align, kMaxDataBytes, "'" + align + "'"));
    if (pairs.size() != links.size()) {
        throw Error("'" + align + "' has " + std::to_string(links.size()) + " lines but '" + tsv +
                    "' has " + std::to_string(pairs.size()) + "; they must match line by line");
    }
    std::vector<WordAlignedPair> out;
    for (size_t i = 0; i < pairs.size(); ++i) {
        const size_t tab = pairs[i].find('\t');
        if (tab == std::string::npos || pairs[i].find('\t', tab + 1) != std::string::npos)
            throw Error("'" + tsv + "' line " + std::to_string(i + 1) + ": not source<TAB>target");
        WordAlignedPair p;
        p.source = pairs[i].substr(0, tab);
        p.target = pairs[i].substr(tab + 1);
        try {
            p.reference = parseAlignmentLine(links[i]);
        } catch (const Error& e) {
            throw Error("'" + align + "' line " + std::to_string(i + 1) + ": " + e.what());
        }
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<int> pieceWords(const std::string& text, const std::vector<std::string>& pieces,
                            const std::vector<std::string>& words) {
    std::string rebuilt;
    std::vector<size_t> start, length;
    for (const auto& p : pieces) {
        const std::string b = pieceBytes(p);
        start.push_back(rebuilt.size());
        length.push_back(b.size());
        rebuilt += b;
    }
    size_t shift = 0;  // bytes of the dummy-prefix space before the text
    if (rebuilt == " " + text) {
        shift = 1;
    } else if (rebuilt != text) {
        return {};
    }
    std::vector<size_t> wordBegin, wordEnd;
    size_t cursor = 0;
    for (const auto& w : words) {
        const size_t at = text.find(w, cursor);
        if (w.empty() || at == std::string::npos) return {};
        wordBegin.push_back(at + shift);
        wordEnd.push_back(at + shift + w.size());
        cursor = at + w.size();
    }
    std::vector<int> out;
    size_t w = 0;
    for (size_t k = 0; k < pieces.size(); ++k) {
        size_t b = start[k];
        while (b < start[k] + length[k] && rebuilt[b] == ' ') ++b;
        while (w + 1 < words.size() && b >= wordEnd[w]) ++w;
        out.push_back(words.empty() ? -1 : static_cast<int>(w));
    }
    if (words.empty()) return {};
    return out;
}

double alignmentErrorRate(const std::vector<Links>& predicted, const std::vector<Links>& sure,
                          const std::vector<Links>& possibleOnly) {
    return alignmentScores(predicted, sure, possibleOnly).aer;
}

AlignmentScores alignmentScores(const std::vector<Links>& predicted, const std::vector<Links>& sure,
                                const std::vector<Links>& possibleOnly) {
    if (predicted.size() != sure.size() || sure.size() != possibleOnly.size())
        throw Error("AER needs reference links for every sentence");
    long aS = 0, aP = 0, a = 0, s = 0;
    for (size_t i = 0; i < sure.size(); ++i) {
        const std::set<std::pair<int, int>> S(sure[i].begin(), sure[i].end());
        std::set<std::pair<int, int>> P(possibleOnly[i].begin(), possibleOnly[i].end());
        P.insert(S.begin(), S.end());
        const std::set<std::pair<int, int>> A(predicted[i].begin(), predicted[i].end());
        a += static_cast<long>(A.size());
        s += static_cast<long>(S.size());
        for (const auto& l : A) {
            aS += S.count(l) ? 1 : 0;
            aP += P.count(l) ? 1 : 0;
        }
    }
    AlignmentScores r;
    if (a + s > 0) {
        r.aer = 1.0 - static_cast<double>(aS + aP) / static_cast<double>(a + s);
        r.sureAer = 1.0 - 2.0 * static_cast<double>(aS) / static_cast<double>(a + s);
    }
    r.sureRecall = s == 0 ? 0.0 : static_cast<double>(aS) / static_cast<double>(s);
    return r;
}

WordAlignmentResult wordAlignmentErrors(Model& model, const std::vector<WordAlignedPair>& pairs,
                                        int batchSize) {
    if (!model.config().hasEncoder())
        throw Error("word alignments need a model with cross-attention (seq2seq)");
    const Tokenizer& tok = model.tokenizer();
    const Tokenizer words(false);
    struct Item {
        std::vector<int> src, tgt;          // ids, no specials
        std::vector<int> srcWord, tgtWord;  // word of each piece
        int srcWords = 0, tgtWords = 0;
        std::set<int> scoredTargets;  // target words with a reference link
        const ReferenceAlignment* ref = nullptr;
    };
    WordAlignmentResult result;
    std::vector<Item> items;
    for (const auto& p : pairs) {
        if (p.reference.sure.empty() && p.reference.possible.empty()) {
            ++result.skipped;
            continue;
        }
        Item it;
        const auto sp = tok.tokenize(p.source), tp = tok.tokenize(p.target);
        const auto sw = words.tokenize(p.source), tw = words.tokenize(p.target);
        it.srcWord =
            tok.kind() == Tokenizer::Kind::Word ? std::vector<int>() : pieceWords(p.source, sp, sw);
        it.tgtWord =
            tok.kind() == Tokenizer::Kind::Word ? std::vector<int>() : pieceWords(p.target, tp, tw);
        if (tok.kind() == Tokenizer::Kind::Word) {
            for (int i = 0; i < static_cast<int>(sp.size()); ++i) it.srcWord.push_back(i);
            for (int i = 0; i < static_cast<int>(tp.size()); ++i) it.tgtWord.push_back(i);
        }
        const bool fits = static_cast<int>(sp.size()) + 1 <= model.maxSourceTokens() &&
                          static_cast<int>(tp.size()) + 1 <= model.maxTargetTokens();
        if (!fits || it.srcWord.empty() || it.tgtWord.empty()) {
            ++result.skipped;
            continue;
        }
        it.src = model.srcVocab().ids(sp);
        it.tgt = model.tgtVocab().ids(tp);
        it.srcWords = static_cast<int>(sw.size());
        it.tgtWords = static_cast<int>(tw.size());
        it.ref = &p.reference;
        for (const auto& l : p.reference.sure) it.scoredTargets.insert(l.first);
        for (const auto& l : p.reference.possible) it.scoredTargets.insert(l.first);
        items.push_back(std::move(it));
    }
    std::map<std::pair<int, int>, std::vector<Links>> predicted;  // (layer, head) -> links
    std::vector<Links> sure, possible;
    const size_t bs = static_cast<size_t>(std::max(1, batchSize));
    for (size_t start = 0; start < items.size(); start += bs) {
        const size_t end = std::min(items.size(), start + bs);
        std::vector<std::vector<int>> src, tgt;
        for (size_t i = start; i < end; ++i)
            src.push_back(items[i].src), tgt.push_back(items[i].tgt);
        const Batch b = Batch::make(src, tgt);
        const ForwardResult r = model.forward(b, true);
        for (size_t i = start; i < end; ++i) {
            sure.push_back(items[i].ref->sure);
            possible.push_back(items[i].ref->possible);
        }
        for (const auto& blk : r.blocks) {
            if (blk.kind != BlockKind::Cross) continue;
            for (int bi = 0; bi < b.B; ++bi) {
                const Item& it = items[start + size_t(bi)];
                const int nt = static_cast<int>(it.tgt.size()),
                          ns = static_cast<int>(it.src.size());
                std::vector<int> rowsOfWord(size_t(it.tgtWords), 0);
                for (int t = 0; t < nt; ++t) ++rowsOfWord[size_t(it.tgtWord[size_t(t)])];
                // [target words, source words]: sum over key pieces, mean over query rows
                auto merged = [&](const Mat& w) {
                    Mat m = Mat::Zero(it.tgtWords, it.srcWords);
                    for (int t = 0; t < nt; ++t)
                        for (int s = 0; s < ns; ++s)
                            m(it.tgtWord[size_t(t)], it.srcWord[size_t(s)]) += w(t, s);
                    for (int tw = 0; tw < it.tgtWords; ++tw)
                        if (rowsOfWord[size_t(tw)]) m.row(tw) /= float(rowsOfWord[size_t(tw)]);
                    return m;
                };
                auto links = [&](const Mat& m) {
                    Links l;
                    for (int tw : it.scoredTargets) {
                        if (tw >= it.tgtWords || !rowsOfWord[size_t(tw)]) continue;
                        Eigen::Index j = 0;
                        m.row(tw).maxCoeff(&j);
                        l.emplace_back(tw, static_cast<int>(j));
                    }
                    return l;
                };
                Mat mean = Mat::Zero(it.tgtWords, it.srcWords);
                for (int h = 0; h < blk.heads; ++h) {
                    const Mat m = merged(blk.weights[size_t(bi * blk.heads + h)]);
                    predicted[{blk.layer, h}].push_back(links(m));
                    mean += m;
                }
                predicted[{blk.layer, -1}].push_back(links(mean));
            }
        }
    }
    result.scored = static_cast<int>(items.size());
    for (const auto& [key, l] : predicted) {
        const AlignmentScores sc = alignmentScores(l, sure, possible);
        result.heads.push_back({key.first, key.second, sc.aer, sc.sureAer, sc.sureRecall});
    }
    return result;
}

}  // namespace attnviz
