// SPDX-License-Identifier: GPL-3.0-or-later
// Head importance (Michel et al. 2019; core/head_importance.h): the gate gradient against a
// finite difference of the loss in the gate, the per-block normalisation, and gates that
// prune: a gate of 0 removes a head's output exactly, and ungated passes are unchanged.
// Pruning curves: as long as the heads plus one, from the unpruned evaluation to that of every
// gate at 0, each head removed once (least important first, or in the seed's order), progress
// to the end, cancel stopping early, the model left ungated.
#include "core/head_importance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "core/error.h"
#include "core/evaluate.h"
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

namespace {

// Every head of the blocks that `importance` describes gated to `value`.
std::vector<std::vector<Scalar>> allGates(const std::vector<HeadImportance>& importance,
                                          Scalar value) {
    std::vector<std::vector<Scalar>> gates(size_t(importance.back().block) + 1);
    for (const auto& h : importance) gates[size_t(h.block)].push_back(value);
    return gates;
}

void expectSameEvaluation(const PrunePoint& p, const Evaluation& e, const char* what) {
    EXPECT_DOUBLE_EQ(p.loss, e.loss) << what;
    ASSERT_EQ(p.bleu.has_value(), e.bleu.has_value()) << what;
    if (e.bleu) {
        EXPECT_DOUBLE_EQ(*p.bleu, 100 * e.bleu->score) << what;
    }
}

}  // namespace

TEST(PruneHeads, FromTheUnprunedModelToEveryHeadRemoved) {
    Model m = test::makeModel(test::readConfig("dot"), 7);
    const auto ex = examples();
    const EvalOptions opt{64, true};
    const Evaluation unpruned = evaluate(m, ex, opt);
    const auto imp = headImportance(m, ex);
    ASSERT_EQ(imp.size(), 24u);  // 2 encoder layers, 2 decoder layers of 2 blocks; 4 heads
    std::vector<std::pair<int, int>> calls;
    const PruneCurves c =
        pruneHeads(m, ex, imp, 5, [&](int done, int total) { calls.emplace_back(done, total); });
    EXPECT_EQ(c.sentences, 2);
    ASSERT_EQ(c.byImportance.size(), imp.size() + 1);
    ASSERT_EQ(c.random.size(), imp.size() + 1);

    // Progress after each of the 2 · 25 evaluations.
    ASSERT_EQ(calls.size(), 2 * (imp.size() + 1));
    for (size_t i = 0; i < calls.size(); ++i)
        EXPECT_EQ(calls[i], std::make_pair(int(i) + 1, int(calls.size())));

    // The model is left ungated: evaluated again, the same numbers.
    const Evaluation after = evaluate(m, ex, opt);
    EXPECT_EQ(after.loss, unpruned.loss);
    // The first points: the unpruned model; the last: every gate at 0.
    expectSameEvaluation(c.byImportance.front(), unpruned, "by importance, none removed");
    expectSameEvaluation(c.random.front(), unpruned, "random, none removed");
    m.setHeadGates(allGates(imp, 0.0f));
    const Evaluation none = evaluate(m, ex, opt);
    m.setHeadGates({});
    EXPECT_GT(std::abs(none.loss - unpruned.loss), 1e-3);
    expectSameEvaluation(c.byImportance.back(), none, "by importance, all removed");
    expectSameEvaluation(c.random.back(), none, "random, all removed");

    // Each head removed once; by importance in non-decreasing normalised importance.
    for (const auto* curve : {&c.byImportance, &c.random}) {
        std::set<std::pair<int, int>> removed;
        for (size_t k = 0; k < curve->size(); ++k) {
            const PrunePoint& p = (*curve)[k];
            EXPECT_EQ(p.removed, int(k));
            ASSERT_EQ(p.head.has_value(), k > 0);
            if (p.head) removed.insert({p.head->block, p.head->head});
        }
        EXPECT_EQ(removed.size(), imp.size());
    }
    for (size_t k = 2; k < c.byImportance.size(); ++k)
        EXPECT_LE(c.byImportance[k - 1].head->normalised, c.byImportance[k].head->normalised);
    // Removing one head: the evaluation with that head's gate alone at 0.
    const HeadImportance& first = *c.random[1].head;
    auto gates = allGates(imp, 1.0f);
    gates[size_t(first.block)][size_t(first.head)] = 0.0f;
    m.setHeadGates(gates);
    expectSameEvaluation(c.random[1], evaluate(m, ex, opt), "random, one removed");
    m.setHeadGates({});
    // More orders: the first is the one-order run's, the others differ; the shared end points
    // are evaluated once (progress still counts every point).
    int progressCalls = 0;
    const PruneCurves three = pruneHeads(
        m, ex, imp, 5, [&](int, int) { ++progressCalls; }, nullptr, 3);
    ASSERT_EQ(three.moreRandom.size(), 2u);
    EXPECT_EQ(progressCalls, 4 * int(imp.size() + 1));
    for (size_t k = 1; k < c.random.size(); ++k) {
        EXPECT_EQ(three.random[k].head->block, c.random[k].head->block);
        EXPECT_EQ(three.random[k].head->head, c.random[k].head->head);
        EXPECT_EQ(three.random[k].loss, c.random[k].loss);
    }
    bool anotherOrder = false;
    for (const auto& more : three.moreRandom) {
        ASSERT_EQ(more.size(), imp.size() + 1);
        expectSameEvaluation(more.front(), unpruned, "another order, none removed");
        expectSameEvaluation(more.back(), none, "another order, all removed");
        for (size_t k = 1; k < more.size(); ++k)
            anotherOrder |= more[k].head->block != c.random[k].head->block ||
                            more[k].head->head != c.random[k].head->head;
    }
    EXPECT_TRUE(anotherOrder);
    EXPECT_THROW(pruneHeads(m, ex, imp, 5, {}, nullptr, 0), attnviz::Error);
    // The random order is the seed's: another seed, another order.
    const PruneCurves other = pruneHeads(m, ex, imp, 6);
    bool differs = false;
    for (size_t k = 1; k < c.random.size(); ++k)
        differs |= other.random[k].head->block != c.random[k].head->block ||
                   other.random[k].head->head != c.random[k].head->head;
    EXPECT_TRUE(differs);
}

TEST(PruneHeads, LanguageModelsHaveLossOnly) {
    Model m = test::makeModel(test::readConfig("decoder_lm"), 3);
    const std::vector<Example> ex = {{{}, {"the", "cat", "sees", "the", "dog"}, {}},
                                     {{}, {"we", "go", "to", "the", "river"}, {}}};
    const auto imp = headImportance(m, ex);
    const PruneCurves c = pruneHeads(m, ex, imp, 1);
    ASSERT_EQ(c.byImportance.size(), imp.size() + 1);
    for (const auto& p : c.byImportance) EXPECT_FALSE(p.bleu.has_value());
    EXPECT_DOUBLE_EQ(c.byImportance.front().loss, evaluate(m, ex, {64, false}).loss);
}

TEST(PruneHeads, CancelStopsEarlyAndErrorsComeBack) {
    Model m = test::makeModel(test::readConfig("dot"), 7);
    const auto ex = examples();
    const auto imp = headImportance(m, ex);
    const double unpruned = evaluate(m, ex, {64, true}).loss;
    std::atomic<bool> cancel{false};
    int calls = 0;
    const PruneCurves c = pruneHeads(
        m, ex, imp, 1,
        [&](int done, int) {
            ++calls;
            if (done == 3) cancel = true;
        },
        &cancel);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(c.byImportance.size(), 3u);  // the curves so far
    EXPECT_TRUE(c.random.empty());
    EXPECT_EQ(evaluate(m, ex, {64, true}).loss, unpruned);  // ungated again
    // Cancelled before it starts: nothing evaluated.
    const PruneCurves none = pruneHeads(m, ex, imp, 1, {}, &cancel);
    EXPECT_TRUE(none.byImportance.empty() && none.random.empty());

    EXPECT_NE(test::errorOf([&] { pruneHeads(m, {}, imp, 1); }), "");
    EXPECT_NE(test::errorOf([&] { pruneHeads(m, ex, {}, 1); }), "");
    // Importance of other blocks than the model's: Error from the gates, the model ungated.
    auto wrong = imp;
    wrong.back().block += 5;
    EXPECT_NE(test::errorOf([&] { pruneHeads(m, ex, wrong, 1); }), "");
    EXPECT_EQ(evaluate(m, ex, {64, true}).loss, unpruned);
}
