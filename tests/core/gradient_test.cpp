// SPDX-License-Identifier: GPL-3.0-or-later
// Every backward pass against central finite differences: whole small models, one per
// variant in each block kind (self- and cross-attention), with padding and causal masks,
// pre- and post-norm, tied and untied output, shared embeddings, label smoothing and
// dropout; plus the layers on their own. This file is compiled against the engine built in
// double precision (ATTNVIZ_DOUBLE, see tests/CMakeLists.txt): the same sources, so the
// check is of the formulas, with rounding far below the tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/layers.h"
#include "core/network.h"
#include "core/rng.h"

static_assert(sizeof(attnviz::Scalar) == 8, "gradient tests need the double-precision engine");

using namespace attnviz;

namespace {

// Relative error ||a - b|| / max(||a||, ||b||) of two gradient samples.
double relErr(const std::vector<double>& a, const std::vector<double>& b) {
    double num = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    // Gradients that are exactly zero in theory (e.g. a key bias, which shifts a whole row of
    // logits) are compared in absolute terms.
    const double den = std::max({std::sqrt(na), std::sqrt(nb), 1e-3});
    return std::sqrt(num) / den;
}

struct Case {
    std::string config;
    float smoothing = 0;
    float dropout = 0;
};

// The smoothed loss sum of a fixed batch of three sequences of different lengths.
class Checker {
public:
    explicit Checker(const Case& c)
        : m_case(c), m_cfg(ModelConfig::fromJsonText(c.config)), m_net(m_cfg) {
        m_info = m_net.parameterInfo(30, 30);
        m_params = initializeParameters(m_info, 3);
        // Non-zero biases and norm parameters, so that their gradients matter everywhere.
        Rng r(4);
        for (auto& [n, t] : m_params)
            for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] += 0.1 * r.normal();
        m_grads = gradientStore(m_info);
        m_net.bind(Bindings(m_params, &m_grads));
        const bool s2s = m_cfg.hasEncoder();
        const std::vector<std::vector<int>> src{{5, 6, 7, 8, 9}, {10, 11}, {12, 13, 14}};
        const std::vector<std::vector<int>> tgt{{15, 16, 17}, {18, 19, 20, 21, 22}, {23}};
        m_batch = s2s ? Batch::make(src, tgt) : Batch::make({}, tgt);
        if (m_cfg.isVision()) {  // three random images, class 0 among the labels
            std::vector<uint8_t> px(3 * m_cfg.imageBytes());
            for (auto& p : px) p = uint8_t(r.below(256));
            m_batch = Batch::images(px, {0, 2, 1}, m_cfg.positions());
            m_ignore = -1;
        }
    }

    double loss() {
        m_net.forward(m_batch, dropout(), m_logits);
        return crossEntropy(m_logits, m_batch.tgtOut, m_case.smoothing, 1.0f, nullptr, m_ignore)
            .smoothed;
    }

    void backward() {
        for (auto& [n, g] : m_grads) g.m.setZero();
        m_net.forward(m_batch, dropout(), m_logits);
        Mat dlogits;
        crossEntropy(m_logits, m_batch.tgtOut, m_case.smoothing, 1.0f, &dlogits, m_ignore);
        m_net.backward(m_batch, dlogits);
    }

    // Checks up to `samples` entries of every trainable tensor (the largest analytic
    // gradients and random ones); returns the worst relative error and its tensor.
    std::pair<double, std::string> check(int samples = 8) {
        backward();
        double worst = 0;
        std::string where;
        Rng rng(11);
        for (const auto& p : m_info) {
            if (!p.trainable) {
                EXPECT_EQ(m_grads.count(p.name), 0u) << p.name << " is frozen";
                continue;
            }
            Tensor& t = m_params.at(p.name);
            const Tensor& g = m_grads.at(p.name);
            std::vector<Eigen::Index> idx;
            Eigen::Index br = 0, bc = 0;
            g.m.cwiseAbs().maxCoeff(&br, &bc);
            idx.push_back(br * g.m.cols() + bc);  // row-major flat index
            while (static_cast<int>(idx.size()) < samples)
                idx.push_back(static_cast<Eigen::Index>(rng.below(uint64_t(t.numel()))));
            std::vector<double> num, ana;
            for (auto i : idx) {
                const double keep = t.data()[i];
                const double eps = 1e-5;
                t.data()[i] = keep + eps;
                const double up = loss();
                t.data()[i] = keep - eps;
                const double down = loss();
                t.data()[i] = keep;
                num.push_back((up - down) / (2.0 * eps));
                ana.push_back(g.data()[i]);
            }
            const double e = relErr(num, ana);
            if (e > worst) worst = e, where = p.name;
        }
        return {worst, where};
    }

    const ParamStore& grads() const { return m_grads; }

private:
    Dropout dropout() const { return Dropout{m_case.dropout, 99, 0}; }

    Case m_case;
    ModelConfig m_cfg;
    Network m_net;
    ParamStore m_params;
    std::vector<ParamInfo> m_info;
    ParamStore m_grads;
    Batch m_batch;
    Mat m_logits;
    int m_ignore = 0;  // text: <pad>; images: none
};

std::string config(const std::string& enc, const std::string& dec, const std::string& cross,
                   const std::string& extra = "") {
    return R"({"d_model": 8, "heads": 2, "d_ff": 12, "enc_layers": 2, "dec_layers": 2,
               "max_len": 8, "encoder_self": )" +
           enc + R"(, "decoder_self": )" + dec + R"(, "cross": )" + cross + extra + "}";
}

std::string v(const std::string& name) {
    return R"({"variant": ")" + name + R"("})";
}

// Central differences in double with eps 1e-5: truncation error ~1e-10, rounding ~1e-10
// relative; a ReLU kink crossed by ±1e-5 is rare and small. A wrong gradient gives errors
// of order 1.
constexpr double kTol = 1e-5;

}  // namespace

// The variant in all three block kinds at once (self with padding and causal masks, cross
// with padding), from its registry entry and example options.
std::string registered(const std::string& name) {
    nlohmann::json block = variantInfo(name).example;
    block["variant"] = name;
    return block.dump();
}

std::string testName(std::string n) {
    for (auto& ch : n)
        if (ch == '+' || ch == '-') ch = '_';
    return n;
}

class VariantGradient : public ::testing::TestWithParam<std::string> {};

TEST_P(VariantGradient, MatchesFiniteDifferences) {
    const std::string block = registered(GetParam());
    Checker c({config(block, block, block)});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << "worst tensor: " << where;
}

INSTANTIATE_TEST_SUITE_P(Registry, VariantGradient, ::testing::ValuesIn(variantNames()),
                         [](const auto& info) { return testName(info.param); });

// Option settings beyond the registry's examples: frozen tables, other mixtures.
class OptionGradient : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(OptionGradient, MatchesFiniteDifferences) {
    const std::string& block = GetParam().second;
    Checker c({config(block, block, block)});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << "worst tensor: " << where;
}

INSTANTIATE_TEST_SUITE_P(
    Options, OptionGradient,
    ::testing::Values(
        std::make_pair("fixed_random", R"({"variant": "random", "trainable": false})"),
        std::make_pair("dense_dot", R"({"variant": "mixture", "components": ["dense", "dot"]})"),
        std::make_pair(
            "dense_dot_unweighted",
            R"({"variant": "mixture", "components": ["dense", "dot"], "unweighted": true})"),
        std::make_pair(
            "mix3",
            R"({"variant": "mixture", "components": ["factorized_dense", "factorized_random", "dot"]})")),
    [](const auto& info) { return info.param.first; });

TEST(Gradient, HardCodedSelfAttentionWithOneLearnedCrossHead) {
    Checker c({config(v("gaussian"), v("gaussian"),
                      R"({"variant": "dot", "heads": 1, "layers": "top"})")});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << where;
}

TEST(Gradient, GaussianCrossAttentionWithRatioAndNormalize) {
    Checker c(
        {config(v("dot"), v("dot"),
                R"({"variant": "gaussian", "ratio": 0.7, "normalize": true, "sigma": 1.5})")});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << where;
}

TEST(Gradient, PostNormNoBiasSharedEmbeddingsUntiedOutput) {
    Checker c({config(v("dot"), v("dense"), v("dot"),
                      R"(, "norm": "post", "bias": false, "share_embeddings": true,
                         "tie_output": false)")});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << where;
    EXPECT_EQ(c.grads().count("tgt_embed.weight"), 0u);  // shared: one table, one gradient
}

TEST(Gradient, DecoderOnly) {
    Checker c({R"({"arch": "decoder", "d_model": 8, "heads": 2, "d_ff": 12, "enc_layers": 0,
                   "dec_layers": 2, "max_len": 8,
                   "decoder_self": {"variant": "mixture", "components": ["random", "dot"]}})"});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << where;
}

TEST(Gradient, LabelSmoothing) {
    Checker c({config(v("dot"), v("dot"), v("dot")), 0.1f});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << where;
}

TEST(Gradient, DropoutWithAFixedMask) {
    Checker pre({config(v("dot"), v("dot"), v("dot")), 0.0f, 0.3f});
    const auto [err, where] = pre.check();
    EXPECT_LT(err, kTol) << where;
    Checker post({config(v("dense"), v("dot"), v("dot"), R"(, "norm": "post")"), 0.0f, 0.3f});
    const auto [err2, where2] = post.check();
    EXPECT_LT(err2, kTol) << where2;
}

// Vision Transformers (arch "vit"): patch embedding, class token or mean pooling, learned
// positions, classifier; the variants implemented on the patch grid; dropout and smoothing.
class VitGradient : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(VitGradient, MatchesFiniteDifferences) {
    Checker c({R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 12, "enc_layers": 2,
                   "image_size": 8, "patch": 2, "classes": 3)" +
                   GetParam().second + "}",
               0.1f, 0.2f});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << "worst tensor: " << where;
}

// A stem of two convolutions (patch 4 = 2²): the gradient reaches through both, their ReLUs
// and their zero padding to the first convolution's weights.
TEST(Gradient, VitStemOfTwoConvolutions) {
    Checker c({R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 12, "enc_layers": 1,
                   "image_size": 8, "patch": 4, "channels": 3, "classes": 3, "stem": [3, 5]})",
               0.1f, 0.0f});
    const auto [err, where] = c.check();
    EXPECT_LT(err, kTol) << "worst tensor: " << where;
}

INSTANTIATE_TEST_SUITE_P(
    Vit, VitGradient,
    ::testing::Values(
        std::make_pair("cls_dot", ""), std::make_pair("mean_dot", R"(, "pool": "mean")"),
        std::make_pair("post_norm_no_bias", R"(, "norm": "post", "bias": false)"),
        std::make_pair("dense", R"(, "encoder_self": {"variant": "dense"})"),
        std::make_pair("random_mean", R"(, "pool": "mean", "encoder_self": {"variant": "random"})"),
        std::make_pair("factorized_random",
                       R"(, "encoder_self": {"variant": "factorized_random", "k": 3})"),
        std::make_pair("fixed_random",
                       R"(, "encoder_self": {"variant": "random", "trainable": false})"),
        std::make_pair("gaussian_2d", R"(, "encoder_self": {"variant": "gaussian"})"),
        std::make_pair(
            "gaussian_2d_mean",
            R"(, "pool": "mean", "encoder_self": {"variant": "gaussian", "normalize": true})"),
        std::make_pair(
            "random_dot",
            R"(, "encoder_self": {"variant": "mixture", "components": ["random", "dot"]})"),
        std::make_pair("factorized_dense_2d",
                       R"(, "encoder_self": {"variant": "factorized_dense"})"),
        std::make_pair("factorized_dense_2d_mean",
                       R"(, "pool": "mean", "encoder_self": {"variant": "factorized_dense"})"),
        std::make_pair("local_2d", R"(, "encoder_self": {"variant": "local", "window": 1})"),
        std::make_pair("local_2d_mean",
                       R"(, "pool": "mean", "encoder_self": {"variant": "local"})"),
        std::make_pair("learned_gaussian_2d",
                       R"(, "encoder_self": {"variant": "learned_gaussian", "init_sigma": 1.3})"),
        std::make_pair("learned_gaussian_2d_mean",
                       R"(, "pool": "mean", "encoder_self": {"variant": "learned_gaussian"})"),
        std::make_pair("learned_gaussian_dot_mean",
                       R"(, "pool": "mean", "encoder_self": {"variant": "mixture",
                          "components": ["learned_gaussian", "dot"]})"),
        std::make_pair("colour_dot", R"(, "channels": 3)"),
        std::make_pair("stem_colour_mean", R"(, "channels": 3, "pool": "mean", "stem": [4])"),
        std::make_pair("stem_gaussian",
                       R"(, "stem": [3], "encoder_self": {"variant": "gaussian"})"),
        std::make_pair(
            "colour_gaussian_mean",
            R"(, "channels": 3, "pool": "mean", "encoder_self": {"variant": "gaussian"})"),
        std::make_pair("factorized_dense_dot",
                       R"(, "encoder_self": {"variant": "mixture",
                          "components": ["factorized_dense", "dot"]})")),
    [](const auto& info) { return info.param.first; });

// The checker itself must be able to fail: a gradient scaled by 1.1 is caught.
TEST(Gradient, CheckerDetectsAWrongGradient) {
    std::vector<double> a{1.0, -2.0, 0.5}, b{1.1, -2.2, 0.55};
    EXPECT_GT(relErr(a, b), kTol);
}

// Layers on their own, in isolation from the model.
TEST(LayerGradient, LayerNormInputAndParameters) {
    Rng rng(5);
    Mat x(4, 6);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal();
    Tensor w({6}), b({6}), gw({6}), gb({6});
    for (int i = 0; i < 6; ++i) w.data()[i] = 1.0 + 0.1 * i, b.data()[i] = 0.05 * i;
    Mat r(4, 6);  // loss = Σ r ⊙ LN(x)
    for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = rng.normal();
    LayerNorm ln{{&w, &gw}, {&b, &gb}, {}, {}, {}};
    Mat y, dx;
    ln.forward(x, y);
    ln.backward(r, dx, false);
    auto lossAt = [&](const Mat& xx) {
        Mat yy;
        LayerNorm l2{{&w, nullptr}, {&b, nullptr}, {}, {}, {}};
        l2.forward(xx, yy);
        return static_cast<double>(yy.cwiseProduct(r).sum());
    };
    std::vector<double> num, ana;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        Mat xp = x, xm = x;
        xp.data()[i] += 1e-6;
        xm.data()[i] -= 1e-6;
        num.push_back((lossAt(xp) - lossAt(xm)) / 2e-6);
        ana.push_back(dx.data()[i]);
    }
    EXPECT_LT(relErr(num, ana), kTol);
    // dbias = column sums of r; dweight = Σ r ⊙ xhat.
    EXPECT_TRUE(gb.m.isApprox(r.colwise().sum(), 1e-12));
    EXPECT_TRUE(gw.m.isApprox(r.cwiseProduct(ln.xhat).colwise().sum(), 1e-12));
}

TEST(LayerGradient, CrossEntropyWithSmoothingIsPMinusQ) {
    Mat logits(2, 4);
    logits << 1, 2, 0.5, -1, 0, 0, 0, 0;
    Mat g;
    const auto ce = crossEntropy(logits, {1, 0}, 0.2f, 1.0f, &g);
    EXPECT_EQ(ce.tokens, 1);  // row 2's target is <pad>
    EXPECT_EQ(ce.correct, 1);
    Eigen::RowVector4d p = (logits.row(0).array() - logits.row(0).maxCoeff()).exp();
    p /= p.sum();
    EXPECT_NEAR(ce.nll, -std::log(p(1)), 1e-12);
    // Smoothed: 0.8 · nll + 0.2 · mean_v(-log p_v)
    EXPECT_NEAR(ce.smoothed, 0.8 * -std::log(p(1)) - 0.2 * p.array().log().mean(), 1e-7);
    Eigen::RowVector4d q = Eigen::RowVector4d::Constant(0.05);
    q(1) += 0.8;
    EXPECT_TRUE(g.row(0).isApprox(p - q, 1e-7));
    EXPECT_TRUE(g.row(1).isZero());
}
