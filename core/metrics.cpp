// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <set>

#include "error.h"

namespace attnviz {

Bleu corpusBleu(const std::vector<Tokens>& hyps, const std::vector<Tokens>& refs) {
    if (hyps.size() != refs.size()) throw Error("BLEU needs one reference per hypothesis");
    Bleu b;
    long match[4] = {0, 0, 0, 0}, total[4] = {0, 0, 0, 0};
    for (size_t s = 0; s < hyps.size(); ++s) {
        const Tokens &h = hyps[s], &r = refs[s];
        b.hypLength += static_cast<long>(h.size());
        b.refLength += static_cast<long>(r.size());
        for (size_t n = 1; n <= 4; ++n) {
            std::map<std::vector<std::string>, long> hc, rc;
            for (size_t i = 0; i + n <= h.size(); ++i)
                ++hc[Tokens(h.begin() + long(i), h.begin() + long(i + n))];
            for (size_t i = 0; i + n <= r.size(); ++i)
                ++rc[Tokens(r.begin() + long(i), r.begin() + long(i + n))];
            long count = 0;
            for (const auto& [g, c] : hc) {
                auto it = rc.find(g);
                match[n - 1] += std::min(c, it == rc.end() ? 0L : it->second);
                count += c;
            }
            // As NLTK: a sentence without n-grams of this order still counts 1.
            total[n - 1] += std::max(1L, count);
        }
    }
    for (int n = 0; n < 4; ++n)
        b.precisions[n] = static_cast<double>(match[n]) / static_cast<double>(total[n]);
    const double c = static_cast<double>(b.hypLength), r = static_cast<double>(b.refLength);
    b.brevityPenalty = c > r ? 1.0 : (c == 0 ? 0.0 : std::exp(1.0 - r / c));
    if (match[0] == 0) return b;  // score 0
    double logSum = 0;
    for (int n = 0; n < 4; ++n) logSum += 0.25 * std::log(match[n] ? b.precisions[n] : DBL_MIN);
    b.score = b.brevityPenalty * std::exp(logSum);
    return b;
}

double alignmentErrorRate(const std::vector<Links>& predicted, const std::vector<Links>& gold) {
    if (predicted.size() != gold.size()) throw Error("AER needs gold links for every sentence");
    long both = 0, a = 0, g = 0;
    for (size_t s = 0; s < gold.size(); ++s) {
        const std::set<std::pair<int, int>> G(gold[s].begin(), gold[s].end());
        const std::set<std::pair<int, int>> A(predicted[s].begin(), predicted[s].end());
        a += static_cast<long>(A.size());
        g += static_cast<long>(G.size());
        for (const auto& l : A) both += G.count(l) ? 1 : 0;
    }
    return a + g == 0 ? 0.0 : 1.0 - 2.0 * static_cast<double>(both) / static_cast<double>(a + g);
}

}  // namespace attnviz
