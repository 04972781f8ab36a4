// SPDX-License-Identifier: GPL-3.0-or-later
// Head importance (Michel et al. 2019; core/head_importance.h): the gate gradient against a
// finite difference of the loss in the gate, the per-block normalisation, and gates that
// prune: a gate of 0 removes a head's output exactly, and ungated passes are unchanged.
#include "core/head_importance.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/network.h"
#include "test_util.h"

using namespace attnviz;

namespace {

std::vector<Example> examples() {
    return {{{"I", "want", "to", "go"}, {"mi", "volas", "iri"}, {}},
            {{"the", "dog", "sees", "the", "cat"}, {"la", "hundo", "vidas", "la", "katon"}, {}}};
}

double lossSum(Model& m, const std::vector<Example>& ex) {
    double sum = 0;
    for (const auto& e : ex) {
        const Batch b = Batch::make({m.srcVocab().ids(e.src)}, {m.tgtVocab().ids(e.tgt)});
        sum += m.forward(b, false).lossSum;
    }
    return sum;
}

}  // namespace

TEST(HeadImportance, GateGradientMatchesAFiniteDifference) {
    Model m = test::makeModel(test::readConfig("dot"), 7);
    const auto ex = examples();
    // One example at a time: I_h = |∂L/∂ξ_h| exactly (no mean of absolute values to undo).
    const auto imp = headImportance(m, {ex[1]});
    const int blocks = int(imp.back().block) + 1;
    int checked = 0;
    for (const auto& h : imp) {
        if (h.head > 1) continue;  // two heads per block suffice
        std::vector<std::vector<Scalar>> gates(size_t(blocks), std::vector<Scalar>{});
        const double eps = 1e-2;
        auto at = [&](double xi) {
            gates[size_t(h.block)] = std::vector<Scalar>(4, 1.0f);
            gates[size_t(h.block)][size_t(h.head)] = Scalar(xi);
            m.setHeadGates(gates);
            return lossSum(m, {ex[1]});
        };
        const double fd = (at(1 + eps) - at(1 - eps)) / (2 * eps);
        EXPECT_NEAR(h.importance, std::abs(fd), 2e-2 * std::max(1.0, std::abs(fd)))
            << "block " << h.block << " head " << h.head;
        ++checked;
    }
    EXPECT_GE(checked, 6);
    m.setHeadGates({});
}

TEST(HeadImportance, NormalisedPerBlockAndMeanOverExamples) {
    Model m = test::makeModel(test::readConfig("dot"), 7);
    const auto ex = examples();
    const auto both = headImportance(m, ex, 1), a = headImportance(m, {ex[0]}),
               b = headImportance(m, {ex[1]});
    for (size_t k = 0; k < both.size(); ++k)
        EXPECT_NEAR(both[k].importance, (a[k].importance + b[k].importance) / 2,
                    1e-5 * (1 + both[k].importance));
    // Batched the same as one by one.
    const auto batched = headImportance(m, ex, 2);
    for (size_t k = 0; k < both.size(); ++k)
        EXPECT_NEAR(batched[k].importance, both[k].importance, 1e-4 * (1 + both[k].importance));
    // Per block: the normalised scores have unit ℓ2 norm.
    std::map<int, double> norm;
    for (const auto& h : both) norm[h.block] += h.normalised * h.normalised;
    for (const auto& [block, n] : norm) EXPECT_NEAR(n, 1.0, 1e-9) << block;
}

TEST(HeadImportance, AZeroGatePrunesAHeadAndNoGatesChangeNothing) {
    Model m = test::makeModel(test::readConfig("dot"), 3);
    const auto ex = examples();
    const Batch b = Batch::make({m.srcVocab().ids(ex[0].src)}, {m.tgtVocab().ids(ex[0].tgt)});
    const Mat before = m.forward(b, false).logits;
    m.setHeadGates({});  // ungated: bit-identical
    EXPECT_TRUE(m.forward(b, false).logits == before);
    // Ones everywhere: the same numbers.
    const auto blocks = int(headImportance(m, {ex[0]}).back().block) + 1;
    m.setHeadGates(std::vector<std::vector<Scalar>>(size_t(blocks), std::vector<Scalar>(4, 1.0f)));
    EXPECT_LT((m.forward(b, false).logits - before).cwiseAbs().maxCoeff(), 1e-6f);
    // Every head of every block pruned: attention contributes only the output bias; the
    // logits change, and the greedy decoder still runs.
    m.setHeadGates(std::vector<std::vector<Scalar>>(size_t(blocks), std::vector<Scalar>(4, 0.0f)));
    EXPECT_GT((m.forward(b, false).logits - before).cwiseAbs().maxCoeff(), 1e-3f);
    EXPECT_NO_THROW(m.greedyDecode(m.srcVocab().ids(ex[0].src)));
    EXPECT_ANY_THROW(m.setHeadGates({{1.0f}}));  // wrong block count
}
