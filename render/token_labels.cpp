// SPDX-License-Identifier: GPL-3.0-or-later
#include "token_labels.h"

#include <algorithm>

namespace attnviz::render {

TokenLabels markPieces(const TokenLabels& labels, const Analysis& a) {
    if (!labels) return labels;
    // The analysis' own vectors (shared, not copied, by selectTables): merged words are new
    // vectors and are left alone even where they happen to equal the pieces.
    const bool source = labels.get() == &a.sourceLabels || labels.get() == &a.sourceTokens;
    const bool target = labels.get() == &a.targetLabels || labels.get() == &a.targetTokens;
    if (!source && !target) return labels;
    const std::vector<bool>& starts = source ? a.sourceWordStart : a.targetWordStart;
    if (starts.size() != labels->size() ||
        std::all_of(starts.begin(), starts.end(), [](bool b) { return b; }))
        return labels;
    auto out = std::make_shared<std::vector<std::string>>(*labels);
    for (size_t i = 0; i < out->size(); ++i)
        if (!starts[i]) (*out)[i] = kPieceMark + (*out)[i];
    return out;
}

Selection markPieces(Selection s) {
    if (!s.results) return s;
    for (auto& col : s.columns) {
        if (col.result < 0 || col.result >= int(s.results->size())) continue;
        const Analysis& a = (*s.results)[size_t(col.result)].analysis;
        for (auto& t : col.tables) {
            t.queries = markPieces(t.queries, a);
            t.keys = markPieces(t.keys, a);
        }
    }
    return s;
}

Profile markPieces(Profile f) {
    const auto& starts = f.keyWordStart;
    if (starts.size() != f.keys.size() ||
        std::all_of(starts.begin(), starts.end(), [](bool b) { return b; }))
        return f;
    for (size_t i = 0; i < f.keys.size(); ++i)
        if (!starts[i]) f.keys[i] = kPieceMark + f.keys[i];
    return f;
}

}  // namespace attnviz::render
