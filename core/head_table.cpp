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

std::vector<HeadTable> headTables(const std::vector<const Analysis*>& runs, size_t block,
                                  int head) {
    std::vector<HeadTable> tables;
    for (const Analysis* r : runs) {
        const CapturedBlock& b = r->blocks.at(block);
        tables.push_back({&b.weights.at(size_t(head)), b.kind == BlockKind::DecoderSelf});
    }
    return tables;
}

std::vector<HeadTable> headTables(const std::vector<Analysis>& runs, size_t block, int head) {
    std::vector<const Analysis*> each;
    for (const Analysis& r : runs) each.push_back(&r);
    return headTables(each, block, head);
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

SetAnalysis analyzeSet(Model& model, const std::vector<SetSentence>& sentences,
                       const SetRequest& request) {
    SetAnalysis out;
    auto stop = [&] { return out.cancelled = request.cancelled && request.cancelled(); };
    for (const SetSentence& s : sentences) {
        if (stop()) return out;
        try {
            out.runs.push_back(s.target ? model.analyze(s.source, std::string_view(*s.target))
                                        : model.analyze(s.source));
        } catch (const std::exception& e) {  // too long, empty: analyse the rest
            if (out.firstProblem.empty()) out.firstProblem = e.what();
            ++out.skipped;
        }
        if (request.sentenceDone) request.sentenceDone();
    }
    if (out.runs.empty()) return out;
    if (request.importance) {  // one pass over the examples for every head
        out.examples = importanceExamples(model, sentences);
        if (!out.examples.examples.empty() && !stop()) {
            try {
                out.importance = headImportance(model, out.examples.examples);
            } catch (const std::exception& e) {
                out.importanceError = e.what();
            }
        }
    }
    const std::vector<CapturedBlock>& blocks = out.runs.front().blocks;
    for (size_t k = 0; k < blocks.size(); ++k) {
        const CapturedBlock& b = blocks[k];
        Eigen::Index keys = 0;
        for (const Analysis& r : out.runs) keys = std::max(keys, r.blocks[k].weights[0].cols());
        for (int h = 0; h < b.heads && h < int(b.weights.size()); ++h) {
            if (stop()) return out;
            SetHead head{k, b.kind, b.layer, h, b.variant, headSetStats(out.runs, k, h), keys};
            for (size_t i = 0; i < out.importance.size(); ++i)
                if (out.importance[i].block == int(k) && out.importance[i].head == h)
                    head.importance = int(i);
            out.heads.push_back(std::move(head));
        }
    }
    return out;
}

ImageSetAnalysis analyzeImageSet(Model& model, const ImageSet& images, const SetRequest& request) {
    ImageSetAnalysis out(patchGrid(model.config()));
    for (size_t i = 0; i < images.size(); ++i) {
        if (request.cancelled && request.cancelled()) {
            out.cancelled = true;
            return out;
        }
        const ImageAnalysis a = model.analyzeImage(images.imagePixels(i));
        out.distances.add(a.blocks);
        if (out.blocks.empty())
            for (const CapturedBlock& b : a.blocks)
                out.blocks.push_back({b.name, b.kind, b.layer, b.variant, b.heads, {}});
        if (request.sentenceDone) request.sentenceDone();
    }
    return out;
}

}  // namespace attnviz
