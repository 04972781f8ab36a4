// SPDX-License-Identifier: GPL-3.0-or-later
// Incremental greedy decoding (Network::decodeStep, issue 14): each step's logits equal row t
// of the whole decoder on the prefix, and the decoded outputs equal the reference decoding
// that runs the whole prefix at every step, for every configuration (every variant in every
// kind of block, pre- and post-norm, a single learned cross head).
#include <gtest/gtest.h>

#include "core/network.h"
#include "test_util.h"

using namespace attnviz;

namespace {

class Decoding : public ::testing::TestWithParam<std::string> {};

std::vector<std::vector<int>> sources() {
    return {{5, 9, 14, 20, 7, 31, 8}, {40, 6}, {11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22}};
}

}  // namespace

TEST_P(Decoding, EachStepEqualsTheWholePrefixsLastRow) {
    const ModelConfig cfg = ModelConfig::fromJsonText(test::readConfig(GetParam()));
    if (!cfg.hasEncoder()) GTEST_SKIP() << "a decoder-only model does not decode";
    Model m = test::makeModel(test::readConfig(GetParam()), 3);
    Network net(cfg);
    net.bind(Bindings(m.params()));
    const auto src = sources();
    const std::vector<std::vector<int>> fed = {
        {8, 9, 10, 11, 12, 13, 14, 15, 16, 17},
        {20, 21, 22, 23, 24, 25, 26, 27, 28, 29},
        {30, 5, 30, 5, 30, 5, 30, 5, 30, 5}};  // the tokens fed after <bos>
    const int steps = int(std::min<size_t>(fed[0].size(), size_t(cfg.maxLen - 1)));
    const Batch enc = Batch::make(src, std::vector<std::vector<int>>(src.size()));
    net.encode(enc, Dropout{});
    net.beginDecoding(steps);
    std::vector<int> tokens(src.size(), Vocab::kBos);
    Mat stepLogits, full;
    for (int t = 0; t < steps; ++t) {
        net.decodeStep(tokens, t, stepLogits);
        // The reference: the whole prefix of t tokens after <bos>, row t.
        std::vector<std::vector<int>> prefixes;
        for (const auto& f : fed) prefixes.emplace_back(f.begin(), f.begin() + t);
        const Batch b = Batch::make(src, prefixes);
        net.decode(b, Dropout{}, full);
        ASSERT_EQ(stepLogits.rows(), Eigen::Index(src.size()));
        for (size_t i = 0; i < src.size(); ++i) {
            const auto ref = full.row(Eigen::Index(i) * b.Tt + t);
            const float scale = std::max(1.0f, ref.cwiseAbs().maxCoeff());
            EXPECT_LT((stepLogits.row(Eigen::Index(i)) - ref).cwiseAbs().maxCoeff(), 1e-4f * scale)
                << "sequence " << i << " step " << t;
        }
        for (size_t i = 0; i < src.size(); ++i) tokens[i] = fed[i][size_t(t)];
        // decode() above replaced nothing the steps keep: encode's memory is untouched.
    }
}

TEST_P(Decoding, GreedyOutputsEqualTheReference) {
    const ModelConfig cfg = ModelConfig::fromJsonText(test::readConfig(GetParam()));
    if (!cfg.hasEncoder()) GTEST_SKIP() << "a decoder-only model does not decode";
    Model m = test::makeModel(test::readConfig(GetParam()), 5);
    Model::DecodeOptions o;
    o.maxTokens = 20;
    o.stopAtEos = false;  // full length: every step compared
    o.incremental = false;
    const auto reference = m.greedyDecode(sources(), o);
    o.incremental = true;
    const auto fast = m.greedyDecode(sources(), o);
    EXPECT_EQ(fast, reference);
    ASSERT_EQ(fast.size(), 3u);
    EXPECT_EQ(int(fast[0].size()), std::min(20, m.maxTargetTokens()));
    // With <eos> allowed, one by one and as a batch agree too.
    const auto batch = m.greedyDecode(sources());
    for (size_t i = 0; i < sources().size(); ++i) EXPECT_EQ(m.greedyDecode(sources()[i]), batch[i]);
}

INSTANTIATE_TEST_SUITE_P(Configs, Decoding, ::testing::ValuesIn(test::configNames()),
                         [](const auto& info) { return info.param; });
