// SPDX-License-Identifier: GPL-3.0-or-later
#include "selection.h"

#include <algorithm>
#include <cstdio>

#include "dump.h"
#include "error.h"
#include "export.h"
#include "head_stats.h"
#include "result_stats.h"
#include "rollout.h"
#include "word_merge.h"

namespace attnviz {
namespace {

using Tokens = std::shared_ptr<const std::vector<std::string>>;

const CapturedBlock* findBlock(const Analysis& a, BlockKind kind, int layer) {
    for (const auto& b : a.blocks)
        if (b.kind == kind && b.layer == layer) return &b;
    return nullptr;
}

// The labels of the source (or target) side: the display labels, else the tokens; merged
// into words when asked. Shares the results unless merged.
Tokens sideLabels(const std::shared_ptr<const Results>& res, const Analysis& a, bool source,
                  const WordSpans* words) {
    const auto& labels = source ? a.sourceLabels : a.targetLabels;
    const auto& tokens = source ? a.sourceTokens : a.targetTokens;
    const std::vector<std::string>* l = labels.size() == tokens.size() ? &labels : &tokens;
    if (words) return std::make_shared<const std::vector<std::string>>(mergeLabels(*l, *words));
    return {res, l};
}

WordSplit sideWords(const Analysis& a, bool source) {
    const auto& starts = source ? a.sourceWordStart : a.targetWordStart;
    const auto& tokens = source ? a.sourceTokens : a.targetTokens;
    const auto& labels = source ? a.sourceLabels : a.targetLabels;
    return splitWords(
        starts.size() == tokens.size() ? starts : std::vector<bool>(tokens.size(), true), labels);
}

// The (model, layer) of every grid column: every model at the request's layer, or every
// layer of one model that has the block kind.
std::vector<std::pair<int, int>> columnPlan(const Results& res, const SelectionRequest& q) {
    std::vector<std::pair<int, int>> plan;
    if (q.allLayersOf >= 0 && q.allLayersOf < int(res.size()))
        for (const auto& b : res[size_t(q.allLayersOf)].analysis.blocks)
            if (b.kind == q.kind) plan.emplace_back(q.allLayersOf, b.layer);
    if (plan.empty())
        for (int c = 0; c < int(res.size()); ++c) plan.emplace_back(c, q.layer);
    return plan;
}

// The head indices of a request ("all", or a list); error naming the model otherwise.
std::vector<int> headList(const std::string& heads, int count, const std::string& model,
                          std::string* error) {
    std::vector<int> out;
    if (heads.empty() || heads == "all") {
        for (int h = 0; h < count; ++h) out.push_back(h);
        return out;
    }
    size_t start = 0;
    while (start <= heads.size()) {
        size_t end = heads.find(',', start);
        if (end == std::string::npos) end = heads.size();
        std::string part = heads.substr(start, end - start);
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        start = end + 1;
        if (part.empty()) continue;
        const bool digits = part.find_first_not_of("0123456789") == std::string::npos;
        const int h = digits && part.size() < 6 ? std::stoi(part) : -1;
        if (h < 0 || h >= count) {
            *error = "head '" + part + "' does not exist in " + model + " (" +
                     std::to_string(count) + " heads; use all, mean or e.g. 0,2)";
            return {};
        }
        out.push_back(h);
    }
    if (out.empty())
        *error = "the head list '" + heads + "' names no head (use all, mean or e.g. 0,2)";
    return out;
}

SelectedColumn selectColumn(const std::shared_ptr<const Results>& res, int c, int layer,
                            const SelectionRequest& q, const ResultStats* stats,
                            std::string* error) {
    const ColumnResult& r = (*res)[size_t(c)];
    SelectedColumn col;
    col.result = c;
    col.layer = layer;
    const Wording& w = q.wording;
    col.title = q.allLayersOf >= 0 ? fill(w.layer, r.name, counted(layer)) : r.name;
    if (!r.error.empty()) {
        col.error = r.error;
        *error = r.name + ": " + r.error;
        return col;
    }
    const CapturedBlock* b = findBlock(r.analysis, q.kind, layer);
    const bool qSource = q.kind == BlockKind::EncoderSelf,
               kSource = q.kind != BlockKind::DecoderSelf;
    // Word spans only when merging: this runs for every column on every repaint.
    const WordSplit qWords = q.mergeWords ? sideWords(r.analysis, qSource) : WordSplit{};
    const WordSplit kWords = q.mergeWords ? sideWords(r.analysis, kSource) : WordSplit{};
    // Which rule found the words is said with them: CJK text is split by character.
    const bool cjk = ((qWords.rules | kWords.rules) & kCjkCharacters) != 0;
    const std::string where = w.block(q.kind) + " L" + counted(layer) +
                              (q.mergeWords ? " · " + (cjk ? w.wordsCjk : w.words) : "");
    if (!b) {
        col.error = fill(w.noBlock, w.block(q.kind), counted(layer));
        *error = r.name + " has no " + blockLabel(q.kind) + " block in layer " + counted(layer);
        if (q.kind != BlockKind::DecoderSelf && !r.analysis.blocks.empty() &&
            std::all_of(r.analysis.blocks.begin(), r.analysis.blocks.end(),
                        [](const CapturedBlock& c) { return c.kind == BlockKind::DecoderSelf; }))
            *error += " (a language model: its attention is decoder self-attention)";
        return col;
    }
    col.variant = b->variant;
    SelectedTable base;
    base.model = r.name;
    base.kind = q.kind;
    base.layer = layer;
    base.queries = sideLabels(res, r.analysis, qSource, q.mergeWords ? &qWords.spans : nullptr);
    base.keys = sideLabels(res, r.analysis, kSource, q.mergeWords ? &kWords.spans : nullptr);
    // The table as asked: the weights, or their residual from a Gaussian fit; then merged
    // into words. `where` gains the fit.
    // head < 0: the mean of heads, fitted here; a head's fit comes from `stats` when given.
    const bool causal = q.kind == BlockKind::DecoderSelf;
    const size_t blockIndex = size_t(b - r.analysis.blocks.data());
    auto finish = [&](std::shared_ptr<const Mat> m, std::string& where, int head) {
        if (q.show == TableKind::FitResidual) {
            GaussianFit f;
            if (stats && head >= 0 && stats->shared() == res) {
                f = stats->at({size_t(c), blockIndex, head}).fit;
                m = std::make_shared<const Mat>(gaussianResidual({m.get(), causal}, f));
            } else {
                m = std::make_shared<const Mat>(gaussianResidual({m.get(), causal}, &f));
            }
            char fit[96];
            std::snprintf(fit, sizeof fit, " (μ %.2f, σ %.2f, R² %.2f)", f.offset, f.sigma, f.r2);
            where += " − " + w.gaussian + fit;
        }
        return q.mergeWords
                   ? std::make_shared<const Mat>(mergeWords(*m, qWords.spans, kWords.spans))
                   : m;
    };
    if (q.heads == "mean") {
        base.head = "mean";
        base.where = where + " · " + fill(w.meanOfHeads, std::to_string(b->heads));
        base.weights = finish(std::make_shared<const Mat>(meanOfHeads(*b)), base.where, -1);
        col.tables.push_back(base);
        return col;
    }
    const std::vector<int> heads = headList(q.heads, b->heads, r.name, error);
    if (heads.empty()) col.error = *error;
    for (int h : heads) {
        SelectedTable t = base;
        t.head = std::to_string(h);
        t.where = where + " · " + fill(w.head, counted(h));
        t.weights = finish(std::shared_ptr<const Mat>(res, &b->weights[size_t(h)]), t.where, h);
        col.tables.push_back(std::move(t));
    }
    return col;
}

// Rollout columns: per model (or per layer of one model), the rollout through its
// self-attention layers of the request's kind up to the column's layer (every layer when
// showing every model).
Selection selectRollout(const std::shared_ptr<const Results>& res, const SelectionRequest& q) {
    Selection s;
    if (q.kind == BlockKind::Cross) {
        s.error =
            "Attention rollout follows the self-attention layers: choose the encoder or "
            "decoder self-attention block.";
        return s;
    }
    for (auto [c, layer] : columnPlan(*res, q)) {
        const ColumnResult& r = (*res)[size_t(c)];
        SelectedColumn col;
        col.result = c;
        col.layer = layer;
        col.title = q.allLayersOf >= 0 ? fill(q.wording.layer, r.name, counted(layer)) : r.name;
        std::vector<Mat> means;
        int last = -1;
        if (r.error.empty())
            for (const auto& b : r.analysis.blocks)
                if (b.kind == q.kind && (q.allLayersOf < 0 || b.layer <= layer)) {
                    means.push_back(meanOfHeads(b));
                    last = b.layer;
                    col.variant = b.variant;
                }
        if (means.empty()) {
            col.error = r.error.empty() ? "no " + blockLabel(q.kind) + " block" : r.error;
            if (s.error.empty()) s.error = r.name + ": " + col.error;
            s.columns.push_back(std::move(col));
            continue;
        }
        SelectedTable t;
        t.model = r.name;
        t.kind = q.kind;
        t.layer = last;
        t.head = "rollout";
        t.where = q.wording.block(q.kind) + " · " + fill(q.wording.rollout, counted(last));
        const bool source = q.kind == BlockKind::EncoderSelf;
        Mat m = attentionRollout(means);
        if (q.mergeWords) {
            const WordSplit w = sideWords(r.analysis, source);
            m = mergeWords(m, w.spans, w.spans);
            t.where += " · " + ((w.rules & kCjkCharacters) ? q.wording.wordsCjk : q.wording.words);
            t.queries = sideLabels(res, r.analysis, source, &w.spans);
        } else {
            t.queries = sideLabels(res, r.analysis, source, nullptr);
        }
        t.keys = t.queries;
        t.weights = std::make_shared<const Mat>(std::move(m));
        col.tables.push_back(std::move(t));
        s.columns.push_back(std::move(col));
    }
    return s;
}

// Difference columns: every column but the base's, each table minus the base's table in
// the same row (same head, or both means) when their tokens agree.
void subtractBase(Selection& s, const SelectionRequest& q) {
    auto base = std::find_if(s.columns.begin(), s.columns.end(),
                             [&](const SelectedColumn& c) { return c.result == q.differenceBase; });
    if (base == s.columns.end() || s.columns.size() < 2) {
        s.error = "A difference needs two model columns (each minus column " +
                  std::to_string(q.differenceBase + 1) + ")" +
                  (q.allLayersOf >= 0 ? "; the Focus layout shows one model: use Compare." : ".");
        s.columns.clear();
        return;
    }
    const SelectedColumn b = *base;
    s.columns.erase(base);
    const std::string baseName = b.title;
    for (auto& col : s.columns) {
        col.title += " − " + baseName;
        if (!col.error.empty()) continue;
        if (!b.error.empty()) {
            col.error = baseName + ": " + b.error;
            col.tables.clear();
            continue;
        }
        for (size_t r = 0; r < col.tables.size(); ++r) {
            SelectedTable& t = col.tables[r];
            const SelectedTable* o = r < b.tables.size() ? &b.tables[r] : nullptr;
            if (!o || o->weights->rows() != t.weights->rows() ||
                o->weights->cols() != t.weights->cols() || *o->queries != *t.queries ||
                *o->keys != *t.keys) {
                col.error = "its tokens differ from " + baseName +
                            "'s (a difference needs the same tokens)";
                col.tables.clear();
                break;
            }
            t.weights = std::make_shared<const Mat>(*t.weights - *o->weights);
            t.where += " − " + baseName;
        }
        if (!col.error.empty() && s.error.empty()) s.error = col.title + ": " + col.error;
    }
}

}  // namespace

std::string Wording::block(BlockKind k) const {
    switch (k) {
        case BlockKind::EncoderSelf:
            return encSelf;
        case BlockKind::DecoderSelf:
            return decSelf;
        case BlockKind::Cross:
            return cross;
    }
    return {};
}

std::string fill(const std::string& pattern, const std::string& a, const std::string& b) {
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() &&
            (pattern[i + 1] == '1' || pattern[i + 1] == '2')) {
            out += pattern[i + 1] == '1' ? a : b;
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

std::string blockLabel(BlockKind k) {
    return Wording{}.block(k);
}

Selection selectTables(std::shared_ptr<const Results> results, const SelectionRequest& q,
                       const ResultStats* stats) {
    if (!results) results = std::make_shared<const Results>();
    Selection s;
    if (q.show == TableKind::Rollout) {
        s = selectRollout(results, q);
    } else {
        for (auto [c, layer] : columnPlan(*results, q)) {
            std::string error;
            s.columns.push_back(selectColumn(results, c, layer, q, stats, &error));
            if (s.error.empty()) s.error = error;
        }
        if (q.show == TableKind::Difference) subtractBase(s, q);
    }
    s.results = results;
    s.diverging = q.show == TableKind::Difference || q.show == TableKind::FitResidual;
    // The top of a table's scale: its largest weight, or largest |value| when signed.
    auto top = [&](const Mat& m) {
        if (!m.size()) return 0.0;
        return double(s.diverging ? m.cwiseAbs().maxCoeff() : m.maxCoeff());
    };
    for (const auto& col : s.columns) {
        s.rows = std::max(s.rows, int(col.tables.size()));
        for (const auto& t : col.tables) s.maxWeight = std::max(s.maxWeight, top(*t.weights));
    }
    for (auto& col : s.columns)
        for (auto& t : col.tables) {
            t.scaleMax = q.sharedScale || !t.weights->size() ? s.maxWeight : top(*t.weights);
            t.diverging = s.diverging;
        }
    if (s.columns.empty() && s.error.empty()) s.error = "no model to show";
    return s;
}

std::string tableKindName(TableKind k) {
    switch (k) {
        case TableKind::Weights:
            return "weights";
        case TableKind::Rollout:
            return "rollout";
        case TableKind::Difference:
            return "difference";
        case TableKind::FitResidual:
            return "fit-residual";
    }
    return {};
}

bool tableKindFromName(const std::string& name, TableKind* kind) {
    for (TableKind k :
         {TableKind::Weights, TableKind::Rollout, TableKind::Difference, TableKind::FitResidual})
        if (tableKindName(k) == name) {
            *kind = k;
            return true;
        }
    return false;
}

Selection Selection::single(int column, int row) const {
    Selection s;
    s.results = results;
    s.rows = 1;
    if (column < 0 || column >= int(columns.size())) {
        s.error = "no such column";
        return s;
    }
    const SelectedColumn& c = columns[size_t(column)];
    if (row < 0 || row >= int(c.tables.size())) {
        s.error = c.title + " has no head " + std::to_string(row);
        return s;
    }
    SelectedColumn one = c;
    one.tables = {c.tables[size_t(row)]};
    s.columns = {one};
    s.maxWeight = maxWeight;
    s.diverging = diverging;
    return s;
}

std::vector<const SelectedTable*> tablesOf(const Selection& s) {
    std::vector<const SelectedTable*> out;
    for (const auto& col : s.columns)
        for (const auto& t : col.tables) out.push_back(&t);
    return out;
}

Profile selectProfile(const Results& res, BlockKind kind, int layer, int query, int column,
                      const Wording& w) {
    Profile f;
    std::string which;  // "(2nd)" for a token that occurs more than once
    for (int c = 0; c < int(res.size()); ++c) {
        if (column >= 0 && c != column) continue;
        const ColumnResult& r = res[size_t(c)];
        const CapturedBlock* b = r.error.empty() ? findBlock(r.analysis, kind, layer) : nullptr;
        if (!b) continue;
        const Analysis& a = r.analysis;
        const auto& q = *sideLabels(nullptr, a, kind == BlockKind::EncoderSelf, nullptr);
        const auto& k = *sideLabels(nullptr, a, kind != BlockKind::DecoderSelf, nullptr);
        if (query < 0 || query >= int(q.size())) continue;
        if (f.query.empty()) {
            f.query = q[size_t(query)];
            which = occurrenceNote(q, query, w);
        }
        if (k.size() > f.keys.size()) {
            f.keys = k;
            const auto& starts =
                kind != BlockKind::DecoderSelf ? a.sourceWordStart : a.targetWordStart;
            f.keyWordStart = starts.size() == k.size() ? starts : std::vector<bool>();
        }
        auto line = [&](const std::string& name, const Mat& w) {
            std::vector<double> y;
            for (Eigen::Index j = 0; j < w.cols(); ++j) y.push_back(w(query, j));
            f.lines.emplace_back(name, y);
        };
        if (column < 0) {
            line(r.name, meanOfHeads(*b));
        } else {
            for (int h = 0; h < b->heads; ++h)
                line(fill(w.head, counted(h)), b->weights[size_t(h)]);
        }
    }
    if (f.lines.empty()) f.error = "no model has this query in this block";
    const std::string who = column >= 0 && column < int(res.size())
                                ? fill(w.everyHead, res[size_t(column)].name)
                                : w.everyModel;
    f.title = fill(w.query, std::to_string(query + 1)) + " \"" + f.query + "\"" +
              (which.empty() ? "" : " " + which) + " · " + w.block(kind) + " L" + counted(layer) +
              " · " + who;
    return f;
}

std::string ordinal(int n, const Wording& w) {
    const int tens = n % 100, ones = n % 10;
    const std::string& pattern = tens >= 11 && tens <= 13 ? w.nth
                                 : ones == 1              ? w.nth1
                                 : ones == 2              ? w.nth2
                                 : ones == 3              ? w.nth3
                                                          : w.nth;
    return fill(pattern, std::to_string(n));
}

std::string occurrenceNote(const std::vector<std::string>& tokens, int index, const Wording& w) {
    if (index < 0 || index >= int(tokens.size())) return {};
    const std::string& t = tokens[size_t(index)];
    const auto before = std::count(tokens.begin(), tokens.begin() + index, t);
    const auto all = std::count(tokens.begin(), tokens.end(), t);
    if (all < 2) return {};
    return fill(w.occurrence, ordinal(int(before) + 1, w));
}

std::string exportDataBytes(const std::shared_ptr<const Results>& res,
                            const std::vector<ModelColumn>& columns, const SelectionRequest& q,
                            const std::string& ext) {
    if (!res || res->empty() || res->size() != columns.size())
        throw Error("nothing to export yet (the analysis is still running)");
    if (ext == "json" && q.show != TableKind::Weights)
        throw Error("the JSON export is the attention dump (the weights); export " +
                    tableKindName(q.show) + " tables as .csv or .npy");
    if (ext == "json") {
        FloatJson j = FloatJson::array();
        for (size_t c = 0; c < res->size(); ++c) {
            const ModelColumn& m = columns[c];
            j.push_back(attentionDump(m.path.empty() ? m.name : m.path, m.model->config(),
                                      (*res)[c].analysis));
        }
        return (res->size() == 1 ? j[0] : j).dump() + "\n";
    }
    if (ext != "csv" && ext != "npy")
        throw Error("the data format comes from the extension: .csv, .json or .npy");
    const Selection s = selectTables(res, q);
    if (!s.error.empty()) throw Error(s.error);
    std::vector<WeightTable> tables;
    for (const SelectedTable* t : tablesOf(s))
        tables.push_back({t->model, blockKindName(t->kind), t->layer, t->head, *t->queries,
                          *t->keys, *t->weights});
    return ext == "csv" ? weightsCsv(tables) : weightsNpy(tables);
}

}  // namespace attnviz
