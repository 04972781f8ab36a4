// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_table.h"

#include <algorithm>

namespace attnviz {

std::vector<SetSentence> sentenceSet(const std::vector<std::string>& lines, bool seq2seq) {
    std::vector<SetSentence> out;
    for (std::string line : lines) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        const size_t tab = line.find('\t');
        if (tab == std::string::npos || !seq2seq) {
            out.push_back({line, std::nullopt});
        } else {
            out.push_back({line.substr(0, tab), line.substr(tab + 1)});
        }
    }
    return out;
}

std::vector<HeadTable> headTables(const std::vector<Analysis>& runs, size_t block, int head) {
    std::vector<HeadTable> tables;
    for (const Analysis& r : runs) {
        const CapturedBlock& b = r.blocks.at(block);
        tables.push_back({&b.weights.at(size_t(head)), b.kind == BlockKind::DecoderSelf});
    }
    return tables;
}

HeadSetStats headSetStats(const std::vector<Analysis>& runs, size_t block, int head) {
    const std::vector<HeadTable> tables = headTables(runs, block, head);
    HeadSetStats out;
    out.stats = headStats(tables);
    if (runs.size() > 1) out.inputDependence = inputDependence(tables, &out.compared);
    return out;
}

ImportanceExamples importanceExamples(const Model& model,
                                      const std::vector<SetSentence>& sentences) {
    const bool seq2seq = model.config().hasEncoder();
    const int limit = std::min(model.maxSourceTokens(), model.maxTargetTokens());
    ImportanceExamples out;
    for (const SetSentence& s : sentences) {
        if (seq2seq && !s.target) {
            ++out.withoutTarget;
            continue;
        }
        Example e;
        if (seq2seq) e.src = model.tokenizer().tokenize(s.source);
        e.tgt = model.tokenizer().tokenize(seq2seq ? *s.target : s.source);
        if (e.tgt.empty() || int(e.tgt.size()) > limit || int(e.src.size()) > limit) {
            ++out.unusable;
            continue;
        }
        out.examples.push_back(std::move(e));
    }
    return out;
}

}  // namespace attnviz
