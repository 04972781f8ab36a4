// SPDX-License-Identifier: GPL-3.0-or-later
#include "tasks.h"

#include <algorithm>
#include <numeric>

#include "error.h"
#include "texts.h"

namespace attnviz {
namespace {

// Sequences of 4..12 symbols drawn from 16 letters "a".."p".
class SymbolTask : public Task {
public:
    enum Kind { Copy, Reverse, Sort };
    explicit SymbolTask(Kind k) : m_kind(k) {}

    std::string name() const override {
        return m_kind == Copy ? "copy" : m_kind == Reverse ? "reverse" : "sort";
    }
    std::string description() const override {
        switch (m_kind) {
            case Copy:
                return "copy a sequence of 4-12 letters (position-based)";
            case Reverse:
                return "reverse a sequence of 4-12 letters (position-based)";
            default:
                return "sort a sequence of 4-12 letters alphabetically (content-based)";
        }
    }
    std::vector<std::string> sourceWords() const override { return symbols(); }
    std::vector<std::string> targetWords() const override { return symbols(); }
    int maxTokens() const override { return kMax; }

    Example sample(Rng& rng) const override {
        const int n = kMin + static_cast<int>(rng.below(kMax - kMin + 1));
        std::vector<int> s(static_cast<size_t>(n));
        for (auto& x : s) x = static_cast<int>(rng.below(kSymbols));
        std::vector<int> order(s.size());  // target position -> source position
        std::iota(order.begin(), order.end(), 0);
        if (m_kind == Reverse) std::reverse(order.begin(), order.end());
        if (m_kind == Sort) {
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return s[size_t(a)] < s[size_t(b)]; });
        }
        Example e;
        const auto& sym = symbols();
        for (int x : s) e.src.push_back(sym[size_t(x)]);
        for (size_t t = 0; t < order.size(); ++t) {
            e.tgt.push_back(e.src[size_t(order[t])]);
            e.align.emplace_back(static_cast<int>(t), order[t]);
        }
        return e;
    }

private:
    static constexpr int kMin = 4, kMax = 12, kSymbols = 16;
    static const std::vector<std::string>& symbols() {
        static const std::vector<std::string> s = [] {
            std::vector<std::string> v;
            for (char c = 'a'; c < 'a' + kSymbols; ++c) v.emplace_back(1, c);
            return v;
        }();
        return s;
    }
    Kind m_kind;
};

}  // namespace

const std::vector<std::string>& taskNames() {
    static const std::vector<std::string> n{
        ATTNVIZ_TR("attnviz::Engine", "copy"), ATTNVIZ_TR("attnviz::Engine", "reverse"),
        ATTNVIZ_TR("attnviz::Engine", "sort"), ATTNVIZ_TR("attnviz::Engine", "translate"),
        ATTNVIZ_TR("attnviz::Engine", "lm")};
    return n;
}

std::unique_ptr<Task> makeTask(const std::string& name) {
    if (name == "copy") return std::make_unique<SymbolTask>(SymbolTask::Copy);
    if (name == "reverse") return std::make_unique<SymbolTask>(SymbolTask::Reverse);
    if (name == "sort") return std::make_unique<SymbolTask>(SymbolTask::Sort);
    if (name == "translate") return makeTranslateTask(false);
    if (name == "lm") return makeTranslateTask(true);
    std::string known;
    for (const auto& t : taskNames()) known += (known.empty() ? "" : ", ") + t;
    throw Error("unknown task '" + name + "' (known: " + known + ")");
}

}  // namespace attnviz
