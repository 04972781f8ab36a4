// SPDX-License-Identifier: GPL-3.0-or-later
#include "data.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "config.h"
#include "error.h"

namespace attnviz {

LoadedData loadData(const std::string& path, bool seq2seq, const Tokenizer& tok, int maxTokens) {
    std::istringstream in(readTextFile(path, kMaxDataBytes, "data file"));
    LoadedData d;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        ++d.lines;
        auto skip = [&](const std::string& why) { d.skipped.push_back({number, why}); };
        try {
            Example e;
            if (seq2seq) {
                const auto tab = line.find('\t');
                if (tab == std::string::npos) {
                    skip("no tab between source and target");
                    continue;
                }
                if (line.find('\t', tab + 1) != std::string::npos) {
                    skip("more than one tab (expected source<TAB>target)");
                    continue;
                }
                e.src = tok.tokenize(std::string_view(line).substr(0, tab));
                e.tgt = tok.tokenize(std::string_view(line).substr(tab + 1));
                if (e.src.empty() || e.tgt.empty()) {
                    skip(e.src.empty() ? "empty source" : "empty target");
                    continue;
                }
            } else {
                e.tgt = tok.tokenize(line);
            }
            const size_t longest = std::max(e.src.size(), e.tgt.size());
            if (static_cast<int>(longest) > maxTokens) {
                skip(std::to_string(longest) + " tokens, more than the model's " +
                     std::to_string(maxTokens));
                continue;
            }
            d.examples.push_back(std::move(e));
        } catch (const Error& err) {
            skip(err.what());
        }
    }
    if (d.examples.empty()) {
        throw Error(path + ": no usable " + (seq2seq ? "sentence pair" : "sentence") +
                    (d.lines ? " (" + describeSkipped(d, 3) + ")" : " (the file is empty)"));
    }
    return d;
}

std::vector<std::string> dataSentences(const std::string& path, bool seq2seq) {
    std::istringstream in(readTextFile(path, kMaxDataBytes, "data file"));
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        const auto tab = line.find('\t');
        if (!seq2seq) {
            out.push_back(line);
        } else if (tab != std::string::npos && line.find('\t', tab + 1) == std::string::npos) {
            out.push_back(line.substr(0, tab));
            out.push_back(line.substr(tab + 1));
        }
    }
    return out;
}

Vocab buildVocab(const std::vector<std::vector<std::string>>& sentences, int maxSize) {
    std::map<std::string, int64_t> counts;
    for (const auto& s : sentences)
        for (const auto& t : s) ++counts[t];
    std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
    std::stable_sort(v.begin(), v.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> words;
    const size_t room = maxSize > 4 ? static_cast<size_t>(maxSize) - 4 : 0;
    for (size_t i = 0; i < v.size() && words.size() < room; ++i) words.push_back(v[i].first);
    return Vocab::fromWords(words);
}

void splitHeldOut(std::vector<Example>& train, std::vector<Example>& heldOut, double fraction) {
    if (fraction <= 0 || train.size() < 2) return;
    const size_t k = std::max<size_t>(2, static_cast<size_t>(std::lround(1.0 / fraction)));
    std::vector<Example> keep;
    for (size_t i = 0; i < train.size(); ++i)
        (i % k == k - 1 ? heldOut : keep).push_back(std::move(train[i]));
    train = std::move(keep);
}

std::string describeSkipped(const LoadedData& d, size_t limit) {
    std::string s =
        std::to_string(d.skipped.size()) + " of " + std::to_string(d.lines) + " lines skipped";
    for (size_t i = 0; i < d.skipped.size() && i < limit; ++i)
        s += (i ? "; " : ": ") + std::string("line ") + std::to_string(d.skipped[i].line) + ": " +
             d.skipped[i].message;
    if (d.skipped.size() > limit) s += "; ...";
    return s;
}

}  // namespace attnviz
