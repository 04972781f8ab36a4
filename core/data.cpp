// SPDX-License-Identifier: GPL-3.0-or-later
#include "data.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "config.h"
#include "error.h"

namespace attnviz {

namespace {

// Calls f(line) for every line of `text` without copying it, CR of CRLF removed.
template <class F>
void forEachLine(const std::string& text, F&& f) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string_view line(text.data() + pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        f(line);
        pos = end + 1;
    }
}

// Bytes a string takes: its object, and its characters when too long to live inside it.
uint64_t stringBytes(size_t length) {
    return sizeof(std::string) + (length > 15 ? length + 1 : 0);
}

uint64_t tokensBytes(const std::vector<std::string>& tokens) {
    uint64_t n = 0;
    for (const auto& t : tokens) n += stringBytes(t.size());
    return n;
}

Error tooMuchMemory(const std::string& path, int line, uint64_t maxMemory) {
    return Error("'" + path + "': its examples would take more than " +
                 gigabytes(double(maxMemory)) + " of memory (stopped at line " +
                 std::to_string(line) +
                 "; very short tokens cost ~40 bytes each): use a smaller file");
}

}  // namespace

LoadedData loadData(const std::string& path, bool seq2seq, const Tokenizer& tok, int maxTokens,
                    uint64_t maxMemory) {
    const std::string text = readTextFile(path, kMaxDataBytes, "data file");
    LoadedData d;
    int number = 0;
    uint64_t memory = 0;
    forEachLine(text, [&](std::string_view line) {
        ++number;
        if (line.find_first_not_of(" \t") == std::string::npos) return;
        ++d.lines;
        auto skip = [&](const std::string& why) {
            ++d.skippedLines;
            if (d.skipped.size() < LoadedData::kMaxListedIssues) d.skipped.push_back({number, why});
        };
        Example e;
        try {
            if (seq2seq) {
                const auto tab = line.find('\t');
                if (tab == std::string::npos) return skip("no tab between source and target");
                if (line.find('\t', tab + 1) != std::string::npos)
                    return skip("more than one tab (expected source<TAB>target)");
                e.src = tok.tokenize(line.substr(0, tab));
                e.tgt = tok.tokenize(line.substr(tab + 1));
                if (e.src.empty() || e.tgt.empty())
                    return skip(e.src.empty() ? "empty source" : "empty target");
            } else {
                e.tgt = tok.tokenize(line);
            }
        } catch (const Error& err) {
            return skip(err.what());
        }
        const size_t longest = std::max(e.src.size(), e.tgt.size());
        if (static_cast<int>(longest) > maxTokens) {
            return skip(std::to_string(longest) + " tokens, more than the model's " +
                        std::to_string(maxTokens));
        }
        memory += sizeof(Example) + tokensBytes(e.src) + tokensBytes(e.tgt);
        if (memory > maxMemory) throw tooMuchMemory(path, number, maxMemory);
        d.examples.push_back(std::move(e));
    });
    if (d.examples.empty()) {
        throw Error(path + ": no usable " + (seq2seq ? "sentence pair" : "sentence") +
                    (d.lines ? " (" + describeSkipped(d, 3) + ")" : " (the file is empty)"));
    }
    return d;
}

std::vector<std::string> dataSentences(const std::string& path, bool seq2seq, uint64_t maxMemory) {
    const std::string text = readTextFile(path, kMaxDataBytes, "data file");
    std::vector<std::string> out;
    uint64_t memory = 0;
    int number = 0;
    auto add = [&](std::string_view s) {
        memory += stringBytes(s.size());
        if (memory > maxMemory) throw tooMuchMemory(path, number, maxMemory);
        out.emplace_back(s);
    };
    forEachLine(text, [&](std::string_view line) {
        ++number;
        if (line.find_first_not_of(" \t") == std::string::npos) return;
        const auto tab = line.find('\t');
        if (!seq2seq) {
            add(line);
        } else if (tab != std::string::npos && line.find('\t', tab + 1) == std::string::npos) {
            add(line.substr(0, tab));
            add(line.substr(tab + 1));
        }
    });
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
        std::to_string(d.skippedLines) + " of " + std::to_string(d.lines) + " lines skipped";
    for (size_t i = 0; i < d.skipped.size() && i < limit; ++i)
        s += (i ? "; " : ": ") + std::string("line ") + std::to_string(d.skipped[i].line) + ": " +
             d.skipped[i].message;
    if (size_t(d.skippedLines) > limit) s += "; ...";
    return s;
}

}  // namespace attnviz
